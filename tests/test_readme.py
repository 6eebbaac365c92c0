"""The README's command outputs are what the commands print (counts exact; times and rates masked)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("readme_figures", ROOT / "docs" / "readme_figures.py")
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)


def test_readme_synth_output_matches_the_command():
    found = figures.blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert set(found) == set(figures.FIGURES)
    fresh = figures.run("synth")  # runs in its own temporary folder
    assert "wrote 2000 conversations to out/wiki" in fresh
    assert figures.masked(fresh) == figures.masked(found["synth"]), "run `make readme-figures` and commit README.md"


def test_readme_starts_with_the_two_commands():
    head = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert "make demo" in head and "make test" in head
