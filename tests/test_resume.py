"""Interruption: a synth run killed mid-way leaves nothing at --out, and --resume finishes it with the same files
as an uninterrupted run. Also: --workers 2 gives the same files as one worker."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLE

ARGS = ["--graph", str(EXAMPLE), "-n", "3000", "--seed", "5", "--no-progress"]


def synth(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "kg2tool.cli", "synth", *map(str, args)], capture_output=True, text=True, **kw
    )


def digest(folder: Path) -> dict[str, str]:
    files = [p for p in sorted(folder.rglob("*")) if p.is_file()]
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.name != "README.md"
    }


def test_kill_then_resume_gives_the_uninterrupted_result(tmp_path):
    ref = tmp_path / "ref"
    assert synth(*ARGS, "--out", ref).returncode == 0
    out = tmp_path / "run"
    work = tmp_path / ".run.work" / "shards"
    proc = subprocess.Popen([sys.executable, "-m", "kg2tool.cli", "synth", *ARGS, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline and (not work.exists() or len(list(work.glob("*.json.gz"))) < 3):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = len(list(work.glob("*.json.gz")))
    assert finished >= 3
    assert not out.exists(), "a killed run must not leave a dataset at --out"

    again = synth(*ARGS, "--out", out)
    assert again.returncode == 4 and "--resume" in again.stderr and not out.exists()

    resumed = synth(*ARGS, "--out", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: {finished} finished shard(s)" in resumed.stderr or "resuming:" in resumed.stderr
    assert digest(out) == digest(ref)
    assert not work.parent.exists(), "the work folder is removed once the dataset is complete"


def test_resume_with_other_options_is_refused(tmp_path):
    out = tmp_path / "run"
    work = tmp_path / ".run.work"
    (work / "shards").mkdir(parents=True)
    (work / "state.json").write_text('{"fingerprint": "something else"}')
    res = synth(*ARGS, "--out", out, "--resume")
    assert res.returncode == 2 and "other graphs, options" in res.stderr


def test_two_workers_give_the_same_files(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    assert synth(*ARGS, "--out", one, "--workers", 1).returncode == 0
    res = synth(*ARGS, "--out", two, "--workers", 2)
    assert res.returncode == 0, res.stderr
    assert digest(one) == digest(two)


# slow: 43 s on 2 cores; two workers give the same files is checked by default (test_two_workers_give_the_same_files)
@pytest.mark.slow
def test_workers_auto_and_three_workers_give_the_same_files(tmp_path):
    """`--workers auto` (any number, by the load average) and 3 workers (2 helpers + the merging process) give the
    files of one worker."""
    one = tmp_path / "one"
    assert synth(*ARGS, "--out", one, "--workers", 1).returncode == 0
    for w in ("auto", 3):
        res = synth(*ARGS, "--out", tmp_path / str(w), "--workers", w)
        assert res.returncode == 0, res.stderr
        assert digest(one) == digest(tmp_path / str(w))
    assert "--workers auto: " in synth(*ARGS, "-n", 50, "--out", tmp_path / "a2", "--workers", "auto").stderr
    res = synth(*ARGS, "--out", tmp_path / "bad", "--workers", "many")
    assert res.returncode == 2 and "expected a number of processes or 'auto'" in res.stderr


def test_the_merging_process_computes_shards_too(example_kg, monkeypatch):
    """With 2 workers the merging process is one of them: it computes some shards itself (those it would otherwise
    wait for), and the shards come out in order with the candidates of one worker."""
    from kg2tool.synth.run import shards
    from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

    synth_ = Synthesizer(example_kg, SynthConfig(n=100, seed=3, shard_size=40))
    here, candidates = [], synth_.candidates

    def counted(i):
        if os.getpid() == parent:  # a forked helper's list is its own copy
            here.append(i)
        return candidates(i)

    parent = os.getpid()
    monkeypatch.setattr(synth_, "candidates", counted)  # the helpers are forked with it
    gen = shards.iter_shards(synth_, workers=2)
    got = [next(gen) for _ in range(12)]
    gen.close()
    assert [i for i, _, _ in got] == list(range(12))
    assert here and len(here) < 12  # both computed shards
    alone = Synthesizer(example_kg, SynthConfig(n=100, seed=3, shard_size=40))
    for i, rows, _ in got:
        assert [c.row for c in rows] == [c.row for c in alone.candidates(i)[0]]


def test_auto_workers_counts_the_free_cores():
    from kg2tool.synth.run.shards import auto_workers

    assert auto_workers(cores=2, load=0.0) == 2
    assert auto_workers(cores=2, load=0.7) == 2  # a core partly busy still pays for a second worker
    assert auto_workers(cores=2, load=1.0) == 1
    assert auto_workers(cores=2, load=5.0) == 1
    assert auto_workers(cores=8, load=2.5) == 6
    assert 1 <= auto_workers() <= len(os.sched_getaffinity(0))
