"""Faults a user meets, and what kg2tool guarantees then (the README's "Reliability"):

- a damaged `--store` (an index file cut short, a flipped bit, a missing file, a damaged manifest, a store of
  another index format) is refused with exit 3, naming the file and `--rebuild-store`; never "internal error";
- a full disk under any output (synth `--out` and its shard checkpoints, the store, eval reports, exports) is exit 4
  with the path and the free space left, nothing is left at the final path, and `synth --resume` finishes the run
  once space is freed with the same bytes as an uninterrupted run. Tested twice: with a patched low-level writer
  raising ENOSPC (runs everywhere), and on a real, small tmpfs (needs root and mount; skipped otherwise);
- `kill -9` of synth while sampling (1 and 2 workers) or while building the store leaves nothing that looks
  complete, and a rerun (`--resume`) gives the uninterrupted result.
"""

from __future__ import annotations

import builtins
import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLE, make_small_graph

from kg2tool.common.errors import InputError, OutputError
from kg2tool.synth.run.pipeline import run_synth
from kg2tool.synth.run.synthesizer import SynthConfig

pyoxigraph = pytest.importorskip("pyoxigraph", reason="the store cases need the `store` extra (pyoxigraph)")

from kg2tool.graph.store import open_store, read_manifest  # noqa: E402

ARGS = ["--graph", str(EXAMPLE), "-n", "300", "--seed", "5", "--no-progress"]


def quiet(msg: str) -> None:
    pass


def cli(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg2tool.cli", *map(str, args)], capture_output=True, text=True, **kw)


def digest(folder: Path) -> dict[str, str]:
    """sha256 of every file of a dataset folder (README.md left out: its command line names --out)."""
    files = [p for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "README.md"]
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def leftovers(parent: Path, name: str) -> list[str]:
    """Temporary names of `name` left in `parent` (a half-written output would be one)."""
    return sorted(p.name for p in parent.glob(f".{name}.tmp*"))


def no_space(*_a, **_k):
    raise OSError(errno.ENOSPC, "No space left on device")


# -- a damaged store -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def built_store(tmp_path_factory) -> tuple[Path, Path]:
    """(graph file, a store built from it), built once; tests damage copies of it."""
    root = tmp_path_factory.mktemp("store")
    graph = root / "small.ttl"
    graph.write_text(make_small_graph(), encoding="utf-8")
    open_store(root / "st", [graph], log=quiet)
    return graph, root / "st"


def _truncate(st: Path) -> str:
    f = st / "index" / "rel_vals.npy"
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    return "index/rel_vals.npy is damaged"


def _flip(st: Path) -> str:
    f = st / "index" / "name.bin"
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0x01
    f.write_bytes(bytes(data))
    return "index/name.bin is damaged: its checksum differs"


def _remove(st: Path) -> str:
    (st / "index" / "degree.npy").unlink()
    return "index/degree.npy is missing"


def _manifest(st: Path) -> str:
    text = (st / "manifest.json").read_text()
    (st / "manifest.json").write_text(text[: len(text) // 2])
    return "manifest.json is damaged"


def _no_manifest(st: Path) -> str:
    (st / "manifest.json").unlink()
    return "manifest.json is missing"


def _other_version(st: Path) -> str:
    m = json.loads((st / "manifest.json").read_text())
    m["index_format"], m["kg2tool_version"] = 1, "0.0.9"
    (st / "manifest.json").write_text(json.dumps(m))
    return "manifest.json says index format 1 (built by kg2tool 0.0.9)"


@pytest.mark.parametrize("damage", [_truncate, _flip, _remove, _manifest, _no_manifest, _other_version])
def test_a_damaged_store_is_refused_naming_the_file_and_the_fix(tmp_path, built_store, damage):
    graph, built = built_store
    st = tmp_path / "st"
    shutil.copytree(built, st)
    expected = damage(st)
    with pytest.raises(InputError) as info:
        open_store(st, [graph], log=quiet)
    assert expected in str(info.value) and "--rebuild-store" in str(info.value)
    kg = open_store(st, [graph], rebuild=True, log=quiet)  # the fix it names works
    assert len(kg) > 40 and read_manifest(st)["checksums"]


def test_a_truncated_store_is_exit_3_on_the_command_line(tmp_path, built_store):
    """The case seen by users: a store copied halfway gave "internal error: mmap length is greater than file size"."""
    graph, built = built_store
    st = tmp_path / "st"
    shutil.copytree(built, st)
    _truncate(st)
    res = cli("synth", "--graph", graph, "--store", st, "--out", tmp_path / "out", "-n", "5", "--no-progress")
    assert res.returncode == 3, res.stderr
    assert "rel_vals.npy is damaged" in res.stderr and "--rebuild-store" in res.stderr
    assert "internal error" not in res.stderr and "reusing" not in res.stderr
    assert not (tmp_path / "out").exists()


def test_checking_a_store_is_fast(tmp_path, built_store):
    graph, built = built_store
    t0 = time.perf_counter()
    for _ in range(5):
        open_store(built, [graph], log=quiet)
    assert (time.perf_counter() - t0) / 5 < 0.5


# -- a full disk, with a patched writer (everywhere) -----------------------------------------------------------
@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """The digest of an uninterrupted `synth -n 300 --seed 5` of the example graph."""
    out = tmp_path_factory.mktemp("ref") / "ref"
    run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet)
    return digest(out)


def test_full_disk_at_a_shard_checkpoint_then_resume(tmp_path, monkeypatch, reference):
    out = tmp_path / "run"
    real = Path.write_bytes

    def write_bytes(self, *a, **k):
        if self.name.startswith(".000001.json.gz.tmp"):
            no_space()
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    with pytest.raises(OutputError) as info:
        run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet)
    msg = str(info.value)
    assert "000001.json.gz: cannot write the checkpoint of shard 1: No space left on device" in msg
    assert "free there" in msg and "--resume" in msg and "1 finished shard(s)" in msg
    assert not out.exists() and not leftovers(tmp_path / ".run.work" / "shards", "000001.json.gz")
    monkeypatch.undo()
    run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet, resume=True)
    assert digest(out) == reference


def test_full_disk_in_a_pool_worker_then_resume(tmp_path, monkeypatch, reference):
    """With --workers 2 the workers write the checkpoints: their OutputError reaches the command as is."""
    out = tmp_path / "run"
    real = Path.write_bytes

    def write_bytes(self, *a, **k):
        if self.name.startswith(".000001.json.gz.tmp"):
            no_space()
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)  # inherited by the forked workers
    with pytest.raises(OutputError, match=r"000001.json.gz: cannot write the checkpoint of shard 1: No space.*--resume"):
        run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet, workers=2)
    assert not out.exists()
    monkeypatch.undo()
    run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet, resume=True, workers=2)
    assert digest(out) == reference


def test_full_disk_writing_the_dataset_then_resume(tmp_path, monkeypatch, reference):
    from datasets import Dataset

    out = tmp_path / "run"
    monkeypatch.setattr(Dataset, "to_parquet", no_space)
    with pytest.raises(OutputError) as info:
        run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet)
    assert f"{out}: cannot write the dataset: No space left on device" in str(info.value)
    assert "free there" in str(info.value)
    assert not out.exists() and not leftovers(tmp_path, "run")
    monkeypatch.undo()
    run_synth([str(EXAMPLE)], out, SynthConfig(n=300, seed=5), progress=False, log=quiet, resume=True)
    assert digest(out) == reference


def test_full_disk_building_the_store(tmp_path, monkeypatch, built_store):
    import numpy as np

    graph, _ = built_store
    monkeypatch.setattr(np, "save", no_space)
    with pytest.raises(OutputError) as info:
        open_store(tmp_path / "st", [graph], log=quiet)
    assert f"{tmp_path / 'st'}: cannot write the graph store: No space left on device" in str(info.value)
    assert "free there" in str(info.value)
    assert not (tmp_path / "st").exists() and not leftovers(tmp_path, "st")


def test_full_disk_writing_eval_reports(tmp_path, monkeypatch):
    from kg2tool.evaluation.report import write_reports

    monkeypatch.setattr(Path, "write_text", no_space)
    with pytest.raises(OutputError, match=r"results.jsonl: cannot write the eval results: No space.*free there"):
        write_reports(tmp_path / "ev", [{"id": "a", "valid": True}], {"ast": 1.0}, {}, plot=False)
    assert not list((tmp_path / "ev").iterdir())


def test_full_disk_writing_an_export(tmp_path, monkeypatch, reference):
    from kg2tool.common import files
    from kg2tool.hub.export import export

    data = tmp_path / "data"
    run_synth([str(EXAMPLE)], data, SynthConfig(n=300, seed=5), progress=False, log=quiet)

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, text):
            no_space()

    monkeypatch.setattr(files, "open", lambda *a, **k: Full(builtins.open(*a, **k)), raising=False)
    out = tmp_path / "x.jsonl"
    with pytest.raises(OutputError, match=r"x.jsonl: cannot write the openai export: No space.*free there"):
        export(data, "openai", out, progress=False)
    assert not out.exists() and not leftovers(tmp_path, "x.jsonl")


def test_an_escaped_enospc_is_still_exit_4(tmp_path):
    """The CLI's last line of defence: an OSError of a full disk raised anywhere is an output error, not a bug."""
    import argparse

    from kg2tool.commands.base import dispatch

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("x")
    p.set_defaults(func=lambda args: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device", "f")))
    assert dispatch(parser, ["x"]) == 4


# -- a full disk, for real: a small tmpfs ------------------------------------------------------------------------
@pytest.fixture
def tiny_fs(tmp_path):
    """mount(size) -> a folder on a fresh tmpfs of that size (unmounted at teardown); skips where not allowed."""
    mounted: list[Path] = []

    def mount(size: str = "600k") -> Path:
        if not sys.platform.startswith("linux") or os.geteuid() != 0:
            pytest.skip("mounting a small tmpfs needs Linux and root; the patched-writer cases cover the same paths")
        d = tmp_path / f"fs{len(mounted)}"
        d.mkdir()
        res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(d)], capture_output=True)
        if res.returncode:
            pytest.skip(f"cannot mount a tmpfs here ({res.stderr.decode().strip()}); patched-writer cases cover it")
        mounted.append(d)
        return d

    yield mount
    for d in mounted:
        subprocess.run(["umount", "-l", str(d)], check=False)


def fill(folder: Path, leave: int) -> Path:
    """A file that leaves about `leave` bytes free on `folder`'s file system."""
    filler = folder / "filler"
    filler.write_bytes(b"\0" * max(shutil.disk_usage(folder).free - leave, 0))
    return filler


@pytest.fixture(scope="module")
def cli_reference(tmp_path_factory) -> dict[str, str]:
    """The digest of an uninterrupted `kg2tool synth` with ARGS (its kg2tool_config.yaml records the command)."""
    out = tmp_path_factory.mktemp("cref") / "ref"
    res = cli("synth", *ARGS, "--out", out)
    assert res.returncode == 0, res.stderr
    return digest(out)


@pytest.mark.parametrize("workers", [1, 2])
def test_tmpfs_synth_out_and_resume_after_freeing_space(tiny_fs, tmp_path, cli_reference, workers):
    fs = tiny_fs("6m")
    filler = fill(fs, 140_000)  # room for the first shard checkpoint (~90 kB gzipped), not for the second
    out = fs / "run"
    res = cli("synth", *ARGS, "--out", out, "--workers", workers)
    assert res.returncode == 4, res.stderr
    # with 2 workers, shards 0 and 1 are written at the same time: either may be the one that fails
    assert f"cannot write the checkpoint of shard {'1' if workers == 1 else ''}" in res.stderr
    assert "No space left on device" in res.stderr
    assert "free there" in res.stderr and "--resume" in res.stderr and "internal error" not in res.stderr
    assert not out.exists()
    filler.unlink()
    res = cli("synth", *ARGS, "--out", out, "--resume", "--workers", workers)
    assert res.returncode == 0, res.stderr
    assert digest(out) == cli_reference and not (fs / ".run.work").exists()


# slow: 21 s; the small tmpfs runs stay in the default suite
@pytest.mark.slow
def test_tmpfs_300k_synth_store_export(tiny_fs, tmp_path):
    fs = tiny_fs("300k")
    res = cli("synth", *ARGS, "--out", fs / "run")
    assert res.returncode == 4 and "No space left on device" in res.stderr and "free there" in res.stderr, res.stderr
    assert not (fs / "run").exists()
    shutil.rmtree(fs / ".run.work")
    res = cli("synth", *ARGS, "--store", fs / "st", "--out", tmp_path / "data")
    assert res.returncode == 4 and f"{fs / 'st'}: cannot write the graph store" in res.stderr, res.stderr
    assert "free there" in res.stderr and not (fs / "st").exists() and not leftovers(fs, "st")
    assert not (tmp_path / "data").exists()
    assert cli("synth", *ARGS, "--out", tmp_path / "data").returncode == 0
    res = cli("export", tmp_path / "data", "--format", "openai", "--out", fs / "x.jsonl", "--no-progress")
    assert res.returncode == 4 and "x.jsonl: cannot write the openai export" in res.stderr, res.stderr
    assert not (fs / "x.jsonl").exists() and not leftovers(fs, "x.jsonl")


def test_tmpfs_store_bulk_load_out_of_space(tiny_fs, tmp_path):
    """pyoxigraph's RocksDB reports a full disk as "IO error: No space left on device" in the loader process: the
    triple store's build (on its first use) still ends as an output error (exit 4), not as a bad input (exit 3),
    and leaves nothing behind. At 1500 KB the index (~1.1 MB) fits, the triple store (~2 MB) does not."""
    from kg2tool.graph.store.triples import bulk_load

    fs = tiny_fs("1500k")
    bulk_load(str(fs / "ox"), [str(EXAMPLE)], str(fs / "res.json"))
    result = json.loads((fs / "res.json").read_text())
    assert "No space left on device" in result["error"] and result["output_fault"]
    shutil.rmtree(fs / "ox")
    (fs / "res.json").unlink()
    res = cli("synth", *ARGS, "--store", fs / "st", "--out", tmp_path / "data")
    assert res.returncode == 0, res.stderr  # synthesis needs the index only
    kg = open_store(fs / "st", [EXAMPLE], log=quiet)
    with pytest.raises(OutputError) as info:
        kg.triple_store(log=quiet)
    assert f"{fs / 'st' / 'oxigraph'}: cannot write the triple store: No space left on device" in str(info.value)
    assert "free there" in str(info.value) and kg.forkable
    assert sorted(p.name for p in (fs / "st").iterdir()) == ["index", "manifest.json"]


def test_a_loader_out_of_space_is_an_output_fault(tmp_path):
    """The loader's report of a full disk (as test_tmpfs_store_bulk_load_out_of_space sees it) becomes ENOSPC, which
    the build's atomic_path makes exit 4; any other loader failure stays a bad input (exit 3)."""
    from kg2tool.graph.store.triples import _wait_for_loader

    def finished(result: dict):
        (tmp_path / "loaded.json").write_text(json.dumps(result))
        (tmp_path / "loader.log").write_text("")
        return subprocess.Popen([sys.executable, "-c", "pass"])

    full = {"error": "bulk load failed: OSError: IO error: No space left on device: ...", "output_fault": True}
    with pytest.raises(OSError) as info:
        _wait_for_loader(finished(full), tmp_path, tmp_path / "st", quiet)
    assert info.value.errno == errno.ENOSPC
    with pytest.raises(InputError, match="malformed"):
        _wait_for_loader(finished({"error": "g.ttl: malformed turtle"}), tmp_path, tmp_path / "st", quiet)


def test_tmpfs_eval_reports(tiny_fs):
    from kg2tool.evaluation.report import write_reports

    fs = tiny_fs("600k")
    rows = [{"id": f"row{i}", "text": "x" * 1000} for i in range(1000)]  # ~1 MB of results
    with pytest.raises(OutputError, match=r"results.jsonl: cannot write the eval results: No space.*free there"):
        write_reports(fs / "ev", rows, {"ast": 1.0}, {}, plot=False)
    assert not [p for p in (fs / "ev").iterdir()]


def test_tmpfs_eval_score_out(tiny_fs, tmp_path, capsys):
    """`kg2tool eval score --out` on a full disk: exit 4 with the path and the free space, no results file."""
    from kg2tool.cli import main

    tests = {"id": "simple_0", "question": [[{"role": "user", "content": "Capital of France?"}]],
             "function": [{"name": "capital_of", "parameters": {"type": "dict", "properties": {}}}]}  # fmt: skip
    (tmp_path / "tests.json").write_text(json.dumps(tests) + "\n")
    (tmp_path / "answers.json").write_text(json.dumps({"id": "simple_0", "ground_truth": [{"capital_of": {}}]}) + "\n")
    (tmp_path / "pred.jsonl").write_text(json.dumps({"id": "simple_0", "result": [{"capital_of": {}}]}) + "\n")
    fs = tiny_fs("600k")
    fill(fs, 0)
    code = main(["eval", "score", "--predictions", str(tmp_path / "pred.jsonl"), "--tests", str(tmp_path / "tests.json"),
                 "--answers", str(tmp_path / "answers.json"), "--out", str(fs / "res.jsonl")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 4 and "res.jsonl: cannot write the scored results: No space left on device" in err, err
    assert "free there" in err and not (fs / "res.jsonl").exists() and not leftovers(fs, "res.jsonl")


# -- kill -9 ---------------------------------------------------------------------------------------------------
KILL_ARGS = ["--graph", str(EXAMPLE), "-n", "2000", "--seed", "5", "--no-progress"]


@pytest.fixture(scope="module")
def kill_reference(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("kref") / "ref"
    res = cli("synth", *KILL_ARGS, "--out", out)
    assert res.returncode == 0, res.stderr
    return digest(out)


def _kill_when(cmd: list, ready, timeout: float = 120) -> None:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + timeout
    while time.time() < deadline and proc.poll() is None and not ready():
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before the point where it should be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: pool workers and the store's loader too
    proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_kill_while_sampling_then_resume(tmp_path, kill_reference, workers):
    out = tmp_path / "run"
    shards = tmp_path / ".run.work" / "shards"
    cmd = [sys.executable, "-m", "kg2tool.cli", "synth", *KILL_ARGS, "--out", str(out), "--workers", str(workers)]
    _kill_when(cmd, lambda: shards.is_dir() and len(list(shards.glob("*.json.gz"))) >= 3)
    assert not out.exists() and not leftovers(tmp_path, "run")
    res = cli("synth", *KILL_ARGS, "--out", out, "--resume", "--workers", workers)
    assert res.returncode == 0, res.stderr
    assert digest(out) == kill_reference


def test_kill_while_building_the_store_then_rerun(tmp_path, kill_reference):
    st, out = tmp_path / "st", tmp_path / "run"
    cmd = [sys.executable, "-m", "kg2tool.cli", "synth", *KILL_ARGS, "--out", str(out), "--store", str(st)]
    _kill_when(cmd, lambda: any(tmp_path.glob(".st.tmp-*/index")))
    assert not st.exists() and not out.exists()  # only a hidden temporary folder, never a store without a manifest
    res = cli("synth", *KILL_ARGS, "--out", out, "--store", st)
    assert res.returncode == 0, res.stderr
    got = digest(out)
    assert yaml.safe_load((out / "kg2tool_config.yaml").read_text())["options"]["store"] == str(st)
    del got["kg2tool_config.yaml"]  # it records --store; every data file is the in-memory run's
    assert got == {k: v for k, v in kill_reference.items() if k != "kg2tool_config.yaml"}
    assert read_manifest(st)["checksums"]


# -- a full disk during training: the weights' writer is a library (safetensors), not an OSError ------------------
def test_a_library_disk_full_error_is_exit_4():
    """safetensors raises its own SafetensorError ("... (os error 28)"): still an output error, not a bug."""
    from kg2tool.common.errors import OutputError
    from kg2tool.common.files import writing

    class SafetensorError(Exception):
        pass

    with pytest.raises(OutputError, match=r"runs/x: cannot write the weights: .*os error 28.*the disk is full"):
        with writing("runs/x", "the weights"):
            raise SafetensorError("Error while serializing: I/O error: No space left on device (os error 28)")
    with pytest.raises(ValueError):  # other errors are not turned into output errors
        with writing("runs/x", "the weights"):
            raise ValueError("a bug")


@pytest.mark.slow
@pytest.mark.train
def test_pretrain_into_a_full_disk_is_exit_4(tiny_fs):
    """A tiny pretraining whose checkpoint does not fit (12 MB tmpfs: the prepared corpus fits, the weights do not)."""
    pytest.importorskip("torch")
    fs = tiny_fs("12m")
    res = cli("pretrain", "--config", "pretrain/tiny.yaml", "--max_steps", "3", "--save_steps", "1",
              "--output_dir", str(fs / "pt"), cwd=Path(__file__).resolve().parent.parent)  # fmt: skip
    assert res.returncode == 4, res.stderr[-2000:]
    assert "internal error" not in res.stderr and "the disk is full" in res.stderr and str(fs / "pt") in res.stderr
