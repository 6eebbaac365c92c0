"""`kg2tool eval`'s reports (kg2tool/evaluation/report.py): every accuracy with its count and 95% Wilson interval."""

from __future__ import annotations

import json

import pytest


def test_every_accuracy_carries_its_count_and_wilson_interval(tmp_path):
    from kg2tool.evaluation.kgqa import wilson
    from kg2tool.evaluation.report import format_table, summarize, write_reports

    ast = [{"category": "simple", "valid": i < 3, "error_type": None if i < 3 else "wrong"} for i in range(4)]
    exec_rows = [{"category": "multi_step", "pattern": "2p", "correct": i < 1, "calls_valid": True,
                  "within_gold_steps": i < 1, "steps": 2, "gold_steps": 2, "calls": 2, "gold_calls": 2,
                  "invalid_calls": 0, "execution_errors": 0, "parse_errors": 0, "stop": "answer"} for i in range(5)]  # fmt: skip
    summary, details = summarize(ast, exec_rows)
    write_reports(tmp_path, ast + exec_rows, summary, details, plot=False)
    saved = json.loads((tmp_path / "details.json").read_text())["intervals"]
    assert saved["simple"]["correct"] == 3 and saved["simple"]["total"] == 4
    assert saved["simple"]["ci95"] == pytest.approx(wilson(3, 4), abs=1e-4)
    assert saved["multi_step_exec"]["ci95"] == pytest.approx(wilson(1, 5), abs=1e-4)
    assert set(saved) == set(summary)  # every score of this summary has counts
    low, high = wilson(3, 4)
    assert f"| simple | 3 | 4 | 75.0% | {100 * low:.1f}% - {100 * high:.1f}% |" in (tmp_path / "report.md").read_text()
    table = format_table(summary, details)
    assert "1/5" in table and "95% CI" in table
    assert json.loads((tmp_path / "summary.json").read_text()) == summary  # summary.json stays {name: fraction}
