"""Every third-party module the tests import is a declared dependency (core, or an extra `make test` installs).

A module that only arrives as some other package's dependency (httpx through huggingface_hub, pyarrow through
datasets) can disappear with that package's next release; the tests name what they use.
"""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Installed by .ci/install-bfcl.sh (BFCL's checker, --no-deps); the tests that use it skip without it.
INSTALLED_BY_SCRIPT = {"bfcl_eval"}


def declared_distributions() -> set[str]:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        specs += extra
    return {normalize(re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0]) for spec in specs}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_imports():
    local = {p.stem for p in (ROOT / "tests").glob("*.py")} | {"kg2tool"}
    modules = set()
    for path in (ROOT / "tests").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                modules.add(node.module.split(".")[0])
    third_party = sorted(modules - local - set(sys.stdlib_module_names) - INSTALLED_BY_SCRIPT)
    assert "pytest" in third_party and "rdflib" in third_party  # the scan sees imports at all
    owners = md.packages_distributions()
    declared = declared_distributions()
    missing = [m for m in third_party if not {normalize(d) for d in owners.get(m, [m])} & declared]
    assert not missing, f"imported by tests but not declared in pyproject.toml: {missing}"
