"""The Ray backend (`kg2tool synth --workers N --backend ray`) against a local Ray instance: the same files as one
worker. Skipped where ray is not installed (`pip install 'kg2tool[ray]'`; `make test` installs it)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLE

pytest.importorskip("ray", reason="the Ray backend needs the `ray` extra (pip install 'kg2tool[ray]')")

ARGS = ["--graph", str(EXAMPLE), "-n", "300", "--seed", "7", "--no-progress"]


def synth(*args):
    return subprocess.run(
        [sys.executable, "-m", "kg2tool.cli", "synth", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


# slow: 29 s (starts a Ray cluster)
@pytest.mark.slow
def test_ray_backend_gives_the_files_of_one_worker(tmp_path):
    assert synth(*ARGS, "--out", tmp_path / "one").returncode == 0
    # A local Ray instance with 2 CPUs (kg2tool.synth.run.shards calls ray.init(num_cpus=workers) when none is running).
    res = synth(*ARGS, "--out", tmp_path / "ray", "--workers", 2, "--backend", "ray")
    assert res.returncode == 0, res.stderr[-3000:]
    assert digest(tmp_path / "ray") == digest(tmp_path / "one")
    assert not (tmp_path / ".ray.work").exists()
