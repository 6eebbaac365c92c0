"""kg2tool.common.forked: jobs over in-memory data shared among forked processes; and the dataset writer that
uses it (the parquet files written in 2 processes are the bytes written in one)."""

import errno
import hashlib
import os

import pytest

from kg2tool.common.forked import run_forked
from kg2tool.hub.dataset import write_dataset


def test_results_come_back_in_order_from_the_children():
    data = list(range(10_000))  # seen by the children through fork, not sent
    jobs = [lambda k=k: (k, sum(data[k::4]), os.getpid()) for k in range(4)]
    results = run_forked(jobs, processes=3, weights=[4, 3, 2, 1])
    assert [r[:2] for r in results] == [(k, sum(data[k::4])) for k in range(4)]
    pids = {r[2] for r in results}
    assert os.getpid() in pids and len(pids) == 3  # this process ran a share, and two children did


def test_one_process_runs_everything_here():
    assert run_forked([lambda: os.getpid()] * 3, processes=1) == [os.getpid()] * 3


def test_a_childs_exception_is_raised_here_with_its_type():
    def full_disk():
        if os.getpid() != parent:
            raise OSError(errno.ENOSPC, "No space left on device")
        return "here"

    parent = os.getpid()
    with pytest.raises(OSError) as info:
        run_forked([lambda: "first", full_disk], processes=2, weights=[2, 1])  # the second job runs in a child
    assert info.value.errno == errno.ENOSPC


def test_a_child_killed_is_an_error():
    def die():
        if os.getpid() != parent:
            os._exit(9)
        return 0

    parent = os.getpid()
    with pytest.raises(ChildProcessError, match="exit code 9"):
        run_forked([lambda: 1, die], processes=2, weights=[2, 1])


def _digest(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def test_parquet_files_written_in_two_processes_are_the_same_bytes(tmp_path, example_kg):
    from kg2tool.synth.run.pipeline import build_report, make_preference_pairs
    from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer, split_of

    config = SynthConfig(n=400, seed=3)
    synth = Synthesizer(example_kg, config)
    kept = {"train": [], "validation": [], "test": []}
    for i in range(3):
        cands, stats = synth.candidates(i)
        for c in cands:
            kept[split_of(c.split_key, config.splits)].append(c)
    rows = {s: [c.row for c in v] for s, v in kept.items()}
    pairs = make_preference_pairs(kept)
    assert all(rows.values()) and all(pairs.values())
    report = build_report(synth, rows, stats) | {"config": config.to_dict()}
    meta = {"graphs": ["wiki.ttl"], "command": "kg2tool synth", "version": "test", "seed": 3, "lang": "en"}
    for name, processes in (("a", 1), ("b", 2), ("c", 3)):
        write_dataset(tmp_path / name, rows, report, meta, False, pairs_by_split=pairs, processes=processes)
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b") == _digest(tmp_path / "c")
    assert len(list((tmp_path / "b").rglob("*.parquet"))) == 6
