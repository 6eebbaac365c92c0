"""Loaders for BFCL-format test files, possible answers and decoded predictions.

BFCL stores each category as JSON lines despite the ``.json`` suffix:

* tests ``BFCL_v4_<category>.json``: ``{"id", "question": [[{"role", "content"}]], "function": [...]}``;
* possible answers ``possible_answer/BFCL_v4_<category>.json``: ``{"id", "ground_truth": [{fn: {arg: [values]}}]}``
  (irrelevance has none);
* predictions (ours, BFCL's decoded form): ``{"id", "result": [{fn: {arg: value}}]}``, ``[]`` for no call.

Design choices: answers are joined to tests by ``id`` (BFCL joins by position, but every line carries its id, and
joining by id survives a filtered or reordered file); a JSON array file is accepted as well as JSON lines; every
malformed line raises ``InputError`` naming the file and line. Data can come from a folder (``--bfcl-data DIR``) or
from the copy inside an installed ``bfcl-eval`` package, located without importing it (its import is heavy).
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.errors import InputError
from .ast_checker import category_from_id, checker_kind

# The non-live AST categories this module targets; "simple" is "simple_python" from BFCL v4 on.
AST_CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance")


@dataclass
class BfclEntry:
    """One test entry joined with its possible answer (``ground_truth`` is None for irrelevance)."""

    id: str
    category: str
    functions: list[dict]
    question: Any = None
    ground_truth: list[dict] | None = None
    extra: dict = field(default_factory=dict)


def read_json_records(path: str | Path) -> Iterator[tuple[int, dict]]:
    """Yield ``(line number, record)`` from a JSON-lines file, or from a file holding one JSON array."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
        for index, record in enumerate(records, start=1):
            yield index, _as_object(record, path, index)
        return
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{lineno}: invalid JSON: {exc.msg} (column {exc.colno})") from None
        yield lineno, _as_object(record, path, lineno)


def _as_object(record: Any, path: Path, lineno: int) -> dict:
    if not isinstance(record, dict):
        raise InputError(f"{path}:{lineno}: expected a JSON object, got {type(record).__name__}")
    if "id" not in record:
        raise InputError(f"{path}:{lineno}: missing field 'id'")
    return record


def _check_unique(seen: dict, key: str, path: Path, lineno: int) -> None:
    if key in seen:
        raise InputError(f"{path}:{lineno}: duplicate id {key!r} (first on line {seen[key]})")
    seen[key] = lineno


def load_tests(path: str | Path, category: str | None = None) -> dict[str, BfclEntry]:
    """Test entries by id, in file order; ``category`` overrides the one inferred from each id."""
    path = Path(path)
    entries: dict[str, BfclEntry] = {}
    lines: dict[str, int] = {}
    for lineno, record in read_json_records(path):
        entry_id = str(record["id"])
        _check_unique(lines, entry_id, path, lineno)
        functions = record.get("function")
        if isinstance(functions, dict):
            functions = [functions]
        if not isinstance(functions, list) or not all(isinstance(f, dict) and "name" in f for f in functions):
            raise InputError(f"{path}:{lineno}: 'function' must be a list of function docs with a 'name'")
        try:
            entry_category = category or category_from_id(entry_id)
        except InputError as exc:
            raise InputError(f"{path}:{lineno}: {exc}") from None
        extra = {k: v for k, v in record.items() if k not in ("id", "question", "function")}
        entries[entry_id] = BfclEntry(entry_id, entry_category, functions, record.get("question"), None, extra)
    return entries


def _valid_ground_truth(value: Any) -> bool:
    if not isinstance(value, list) or not value:
        return False
    for call in value:
        if not isinstance(call, dict) or len(call) != 1:
            return False
        args = next(iter(call.values()))
        if not isinstance(args, dict) or not all(isinstance(v, list) for v in args.values()):
            return False
    return True


def load_answers(path: str | Path) -> dict[str, list[dict]]:
    """Possible answers by id: each a non-empty list of ``{fn: {arg: [acceptable values]}}``."""
    path = Path(path)
    answers: dict[str, list[dict]] = {}
    lines: dict[str, int] = {}
    for lineno, record in read_json_records(path):
        entry_id = str(record["id"])
        _check_unique(lines, entry_id, path, lineno)
        ground_truth = record.get("ground_truth")
        if not _valid_ground_truth(ground_truth):
            raise InputError(
                f"{path}:{lineno}: 'ground_truth' must be a non-empty list of {{function: {{arg: [values]}}}}"
            )
        answers[entry_id] = ground_truth
    return answers


def load_predictions(path: str | Path) -> dict[str, Any]:
    """Decoded predictions by id: ``{"id", "result"}`` per line; ``result`` may be any JSON value."""
    path = Path(path)
    predictions: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for lineno, record in read_json_records(path):
        entry_id = str(record["id"])
        _check_unique(lines, entry_id, path, lineno)
        if "result" not in record:
            raise InputError(f"{path}:{lineno}: missing field 'result' (use [] for no call)")
        predictions[entry_id] = record["result"]
    return predictions


def join_answers(tests: dict[str, BfclEntry], answers: dict[str, list[dict]], answers_path: str | Path | None) -> None:
    """Attach possible answers to tests in place; every non-irrelevance test must have one."""
    for entry in tests.values():
        entry.ground_truth = answers.get(entry.id)
        if entry.ground_truth is None and checker_kind(entry.category) not in ("irrelevance", "relevance"):
            where = f"in {answers_path}" if answers_path else "(no --answers file was given)"
            raise InputError(f"test {entry.id!r} (category {entry.category}) has no possible answer {where}")


# ---------------------------------------------------------------------------------------------- BFCL's own files


def installed_data_dir() -> Path:
    """The ``data`` folder of the installed ``bfcl-eval`` package, found without importing it."""
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        raise InputError("bfcl-eval is not installed: pass --bfcl-data DIR, or run .ci/install-bfcl.sh")
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    if not data.is_dir():
        raise InputError(f"the installed bfcl-eval has no data folder at {data}")
    return data


def _version_key(path: Path) -> int:
    match = re.match(r"BFCL_v(\d+)_", path.name)
    return int(match.group(1)) if match else -1


def category_files(data_dir: str | Path, category: str) -> tuple[Path, Path | None]:
    """(tests file, possible-answer file or None) of a category in a BFCL data folder; the newest version wins.

    ``simple`` falls back to ``simple_python`` (its name from BFCL v4 on), and the reverse.
    """
    data_dir = Path(data_dir)
    names = [category] + {"simple": ["simple_python"], "simple_python": ["simple"]}.get(category, [])
    for name in names:
        pattern = re.compile(rf"BFCL_v\d+_{re.escape(name)}\.json")  # exact: "parallel" must not match "live_parallel"
        found = sorted((p for p in data_dir.glob("BFCL_v*.json") if pattern.fullmatch(p.name)), key=_version_key)
        if found:
            tests = found[-1]
            answers = data_dir / "possible_answer" / tests.name
            return tests, answers if answers.is_file() else None
    raise InputError(f"{data_dir}: no BFCL file for category {category!r} (looked for BFCL_v*_{category}.json)")


def load_category(data_dir: str | Path, category: str) -> list[BfclEntry]:
    """All entries of one BFCL category, joined with their possible answers."""
    tests_path, answers_path = category_files(data_dir, category)
    tests = load_tests(tests_path, category)
    answers = load_answers(answers_path) if answers_path else {}
    join_answers(tests, answers, answers_path)
    return list(tests.values())
