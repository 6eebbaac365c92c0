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


def doc_files() -> list[Path]:
    return [p for p in ROOT.rglob("*.md") if not {".venv", "out", "runs", ".git"} & set(p.relative_to(ROOT).parts)]


def test_docs_name_only_files_that_exist():
    """A path like `kg2tool/synth/checks/verify.py` in a doc names a file of this checkout (docs follow the code's moves)."""
    import re

    missing = []
    for doc in doc_files():
        for m in re.finditer(r"`(kg2tool/[\w/.-]*?)`", doc.read_text(encoding="utf-8")):
            if not (ROOT / m[1].rstrip("/")).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {m[1]}")
    assert not missing, missing


# Names of files that live beside the repository, not in it (spelled in parts so this file does not name them).
OUTSIDE = tuple(a + b for a, b in (("STACK", ".md"), ("../", "shared"), ("DESIGN", ".md"), ("STYLE", ".md")))


def test_nothing_points_outside_the_repository():
    """Users have only this repository: no doc, comment or recipe cites files beside it."""
    bad = []
    for path in [*doc_files(), *ROOT.glob("kg2tool/**/*.py"), *ROOT.glob("tests/*.py"), *ROOT.glob("*/*.yaml")]:
        text = path.read_text(encoding="utf-8")
        for needle in OUTSIDE:
            if needle in text:
                bad.append(f"{path.relative_to(ROOT)}: {needle}")
    assert not bad, bad
