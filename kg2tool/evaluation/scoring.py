"""Score decoded predictions against BFCL-format tests: per-entry result rows, a summary, atomic writes.

A result row is ``{"id", "category", "valid", "error_type", "error"}`` (``error_type``/``error`` are None when valid).
A test without a prediction is invalid with ``error_type="missing_prediction"``; predictions for ids that are not
among the scored tests are counted and reported, not scored.

The summary gives, per category and overall, ``total``, ``correct``, ``accuracy`` and a count of error types.
``overall.accuracy`` is the micro average over entries; ``overall.mean_category_accuracy`` is the unweighted mean
over categories (BFCL's leaderboard uses its own weighted groups, which we do not reproduce here).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..common.errors import InputError
from ..common.files import write_atomic
from .ast_checker import Matching, check
from .bfcl_data import BfclEntry

MISSING = "missing_prediction"


def score_entries(
    tests: dict[str, BfclEntry],
    predictions: dict[str, Any],
    *,
    underscore_to_dot: bool = False,
    matching: Matching = "greedy",
) -> list[dict]:
    """One result row per test entry, in the tests' order."""
    rows = []
    for entry in tests.values():
        row = {"id": entry.id, "category": entry.category}
        if entry.id not in predictions:
            rows.append({**row, "valid": False, "error_type": MISSING, "error": "no prediction for this id"})
            continue
        try:
            result = check(
                entry.functions,
                predictions[entry.id],
                entry.ground_truth,
                entry.category,
                underscore_to_dot=underscore_to_dot,
                matching=matching,
            )
        except InputError as exc:
            raise InputError(f"test {entry.id!r}: {exc}") from None
        rows.append({**row, **result.to_dict()})
    return rows


def _stats(rows: list[dict]) -> dict:
    correct = sum(row["valid"] for row in rows)
    errors = Counter(row["error_type"] for row in rows if not row["valid"])
    return {
        "total": len(rows),
        "correct": correct,
        "accuracy": correct / len(rows) if rows else 0.0,
        "error_types": dict(errors.most_common()),
    }


def summarize(rows: list[dict], **extra: Any) -> dict:
    """Per-category and overall figures for result rows; ``extra`` keys are copied into the summary."""
    by_category: dict[str, list[dict]] = {}
    for row in rows:
        by_category.setdefault(row["category"], []).append(row)
    categories = {name: _stats(group) for name, group in by_category.items()}
    overall = _stats(rows)
    overall["mean_category_accuracy"] = (
        sum(c["accuracy"] for c in categories.values()) / len(categories) if categories else 0.0
    )
    return {**extra, "categories": categories, "overall": overall}


def format_summary(summary: dict) -> str:
    """A small fixed-width table: category, correct/total, accuracy."""
    lines = [f"{'category':<24}{'correct':>9}{'total':>8}{'accuracy':>11}"]
    items = [*summary["categories"].items(), ("overall", summary["overall"])]
    for name, stats in items:
        lines.append(f"{name:<24}{stats['correct']:>9}{stats['total']:>8}{100 * stats['accuracy']:>10.2f}%")
    return "\n".join(lines)


def summary_path(results_path: str | Path) -> Path:
    """Where the summary goes: ``results.jsonl`` -> ``results.summary.json``, beside the results."""
    path = Path(results_path)
    stem = path.name[: -len(".jsonl")] if path.name.endswith(".jsonl") else path.name
    return path.with_name(stem + ".summary.json")


def write_results(path: str | Path, rows: list[dict], summary: dict) -> Path:
    """Write result rows (JSON lines) and the summary JSON beside them; returns the summary's path."""
    results = "".join(json.dumps(row, ensure_ascii=False, default=str) + "\n" for row in rows)
    write_atomic(path, results, what="the scored results")
    target = summary_path(path)
    write_atomic(target, json.dumps(summary, indent=2, ensure_ascii=False) + "\n", what="the score summary")
    return target
