"""`kg2tool eval score` end to end on tiny BFCL-format files in a temporary folder (no bfcl-eval needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg2tool.cli import main

FUNCTION = {
    "name": "capital_of",
    "parameters": {"type": "dict", "properties": {"country": {"type": "string"}}, "required": ["country"]},
}
TESTS = [
    {"id": "simple_0", "question": [[{"role": "user", "content": "Capital of France?"}]], "function": [FUNCTION]},
    {"id": "simple_1", "question": [[{"role": "user", "content": "Capital of Peru?"}]], "function": [FUNCTION]},
    {"id": "simple_2", "question": [[{"role": "user", "content": "Capital of Chad?"}]], "function": [FUNCTION]},
    {"id": "irrelevance_0", "question": [[{"role": "user", "content": "Tell a joke"}]], "function": [FUNCTION]},
]
ANSWERS = [
    {"id": "simple_0", "ground_truth": [{"capital_of": {"country": ["France"]}}]},
    {"id": "simple_1", "ground_truth": [{"capital_of": {"country": ["Peru"]}}]},
    {"id": "simple_2", "ground_truth": [{"capital_of": {"country": ["Chad"]}}]},
]
PREDICTIONS = [
    {"id": "simple_0", "result": [{"capital_of": {"country": "france"}}]},  # normalized: valid
    {"id": "simple_1", "result": [{"capital_of": {"country": "Chile"}}]},  # wrong value
    {"id": "irrelevance_0", "result": []},  # no call: valid
]  # simple_2 has no prediction


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "tests": write_jsonl(tmp_path / "tests.json", TESTS),
        "answers": write_jsonl(tmp_path / "answers.json", ANSWERS),
        "predictions": write_jsonl(tmp_path / "pred.jsonl", PREDICTIONS),
        "out": tmp_path / "out" / "results.jsonl",
    }


def score(files: dict[str, Path], *extra: str) -> int:
    argv = ["eval", "score", "--predictions", str(files["predictions"]), "--out", str(files["out"])]
    for name in ("tests", "answers"):
        if name in files:
            argv += [f"--{name}", str(files[name])]
    return main(argv + list(extra))


def read_rows(path: Path) -> dict[str, dict]:
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines())}


def test_scores_and_writes_results_and_summary(files, capsys):
    assert score(files) == 0
    rows = read_rows(files["out"])
    assert [rows[i]["valid"] for i in ("simple_0", "simple_1", "simple_2", "irrelevance_0")] == [
        True,
        False,
        False,
        True,
    ]
    assert rows["simple_1"]["error_type"] == "value_error:string" and "Chile" in rows["simple_1"]["error"]
    assert rows["simple_2"]["error_type"] == "missing_prediction"
    assert rows["simple_0"]["error_type"] is None
    summary = json.loads((files["out"].parent / "results.summary.json").read_text())
    assert summary["categories"]["simple"] == {
        "total": 3,
        "correct": 1,
        "accuracy": pytest.approx(1 / 3),
        "error_types": {"value_error:string": 1, "missing_prediction": 1},
    }
    assert summary["overall"]["correct"] == 2 and summary["missing_predictions"] == 1
    out = capsys.readouterr().out
    assert "simple" in out and "33.33%" in out and "irrelevance" in out
    assert sorted(p.name for p in files["out"].parent.iterdir()) == ["results.jsonl", "results.summary.json"]


def test_refuses_to_overwrite_without_flag(files, capsys):
    assert score(files) == 0
    assert score(files) == 4
    assert "exists" in capsys.readouterr().err
    assert score(files, "--overwrite") == 0


def test_category_flag_overrides_ids(files):
    assert score(files, "--category", "irrelevance") == 0
    rows = read_rows(files["out"])
    # as irrelevance, simple_0's call is wrong and the missing simple_2 is still missing
    assert rows["simple_0"]["error_type"] == "irrelevance_error:decoder_success"
    assert rows["irrelevance_0"]["valid"] and rows["simple_2"]["error_type"] == "missing_prediction"


@pytest.mark.parametrize(
    ("which", "content", "message"),
    [
        (
            "predictions",
            '{"id": "simple_0", "result": []}\n{"id": "simple_1", "result": [\n',
            "pred.jsonl:2: invalid JSON",
        ),
        ("predictions", '{"id": "simple_0"}\n', "pred.jsonl:1: missing field 'result'"),
        ("predictions", '{"id": "a_1", "result": []}\n{"id": "a_1", "result": []}\n', "pred.jsonl:2: duplicate id"),
        ("answers", '{"id": "simple_0", "ground_truth": {"capital_of": {}}}\n', "answers.json:1: 'ground_truth'"),
        ("tests", '[{"id": "simple_0", "function": "capital_of"}]', "tests.json:1: 'function' must be"),
        ("tests", '{"question": []}\n', "tests.json:1: missing field 'id'"),
    ],
)
def test_malformed_input_names_file_and_line(files, capsys, which, content, message):
    files[which].write_text(content, encoding="utf-8")
    assert score(files) == 3
    assert message in capsys.readouterr().err
    assert not files["out"].exists()


def test_test_without_answer_is_an_input_error(files, capsys):
    write_jsonl(files["answers"], ANSWERS[:2])
    assert score(files) == 3
    assert "'simple_2'" in capsys.readouterr().err


def test_usage_errors(files, capsys):
    del files["tests"], files["answers"]
    assert score(files) == 2
    assert "--tests" in capsys.readouterr().err
    assert main(["eval"]) == 2


def test_bfcl_data_folder(tmp_path, files):
    data = tmp_path / "bfcl"
    (data / "possible_answer").mkdir(parents=True)
    write_jsonl(data / "BFCL_v4_simple.json", TESTS[:3])
    write_jsonl(data / "possible_answer" / "BFCL_v4_simple.json", ANSWERS)
    write_jsonl(data / "BFCL_v4_irrelevance.json", TESTS[3:])
    write_jsonl(data / "BFCL_v4_live_simple.json", [{**TESTS[0], "id": "live_simple_0-0-0"}])  # must not be picked
    del files["tests"], files["answers"]
    assert score(files, "--bfcl-data", str(data)) == 0
    rows = read_rows(files["out"])
    assert sorted(rows) == ["irrelevance_0", "simple_0", "simple_1", "simple_2"]
    assert rows["simple_0"]["valid"] and not rows["simple_1"]["valid"]


def test_installed_bfcl_data_gold_scores_100(tmp_path, files):
    pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (.ci/install-bfcl.sh)")
    from kg2tool.evaluation.bfcl_data import installed_data_dir, load_category
    from kg2tool.evaluation.gold import gold_output

    entries = load_category(installed_data_dir(), "parallel_multiple") + load_category(
        installed_data_dir(), "irrelevance"
    )
    rows = [{"id": e.id, "result": gold_output(e.ground_truth, e.functions)} for e in entries]
    write_jsonl(files["predictions"], rows)
    del files["tests"], files["answers"]
    assert score(files, "--bfcl-data") == 0
    summary = json.loads((files["out"].parent / "results.summary.json").read_text())
    assert summary["overall"] | {"error_types": {}} == {
        "total": 440,
        "correct": 440,
        "accuracy": 1.0,
        "error_types": {},
        "mean_category_accuracy": 1.0,
    }
