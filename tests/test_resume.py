"""Interruption: a synth run killed mid-way leaves nothing at --out, and --resume finishes it with the same files
as an uninterrupted run. Also: --workers 2 gives the same files as one worker."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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
    while time.time() < deadline and (not work.exists() or len(list(work.glob("*.json"))) < 3):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = len(list(work.glob("*.json")))
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
