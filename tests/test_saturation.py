"""A graph that runs out of distinct questions (kg2tool.synth.run.saturation): the run stops on its yield, says
how many rows it made and why, exits with PARTIAL (7) and leaves a complete, valid dataset of what it made;
--max-candidates replaces the yield floor with a budget."""

import json
import subprocess
import sys
from collections import Counter

import pytest

from kg2tool.common.errors import PARTIAL
from kg2tool.synth.run.saturation import IDLE, WINDOW, Saturation


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "kg2tool.cli", *map(str, args)], capture_output=True, text=True)


def test_the_yield_floor_is_relative_to_the_first_window():
    sat = Saturation()
    for _ in range(WINDOW):
        sat.add(256, 128, Counter())  # 0.5 a candidate
        assert not sat.spent()
    for _ in range(WINDOW):  # 0.25 a candidate: half the first window's, over the floor (a third)
        sat.add(256, 64, Counter(duplicate_question=150))
        assert not sat.spent()
    low = 0
    while not sat.spent():  # 0.1 a candidate: once the window's yield is under a third of 0.5, the run stops
        sat.add(256, 25, Counter(duplicate_question=200, topic_cap=31))
        low += 1
    assert sat.why == "yield" and sat.recent_yield() < sat.first_yield() / 3 and low < WINDOW
    report = sat.report(made=9_999, asked=40_000)
    assert report["why"] == "yield" and report["rows"] == 9_999 and report["first_yield"] == 0.5
    assert list(report["last_drops"])[0] == "duplicate_question"


def test_a_low_yield_from_the_start_is_not_a_spent_graph():
    """A sparse graph whose walks often fail keeps few candidates from the first shard on: that is its cost, not
    the sign that it is running dry."""
    sat = Saturation()
    for _ in range(5 * WINDOW):
        sat.add(256, 8, Counter(sampling_failed=240))
        assert not sat.spent()


def test_max_candidates_is_a_budget_in_place_of_the_floor():
    sat = Saturation(max_candidates=1000)
    for shard in range(3):
        sat.add(256, 0 if shard else 100, Counter())
        assert not sat.spent()
    sat.add(256, 0, Counter())
    assert sat.spent() and sat.why == "max_candidates"
    idle = Saturation(max_candidates=10**9)  # shards that keep nothing still end the run
    for _ in range(IDLE):
        idle.add(256, 0, Counter())
    assert idle.spent() and idle.why == "idle"


def test_a_small_graph_asked_for_too_many_rows_stops_with_partial_and_a_valid_dataset(small_graph_path, tmp_path):
    from datasets import load_dataset

    out = tmp_path / "small"
    res = run_cli("synth", "--graph", small_graph_path, "--out", out, "-n", 100_000, "--seed", 3, "--no-progress")
    assert res.returncode == PARTIAL == 7, res.stderr
    report = json.loads((out / "validation_report.json").read_text())
    made = report["kept"]["total"]
    assert 0 < made < 100_000 and report["partial"]["rows"] == made and report["partial"]["why"] == "yield"
    assert f"partial: made {made:,} of the 100,000 rows asked" in res.stderr
    assert "running out of distinct questions" in res.stderr and "--max-candidates" in res.stderr
    rows = sum(len(load_dataset(str(out), "sft", split=s)) for s in ("train", "validation", "test"))
    assert rows == made
    assert not list(tmp_path.glob(".*.work"))  # the checkpoints are gone: the dataset is complete
    check = run_cli("card", "check", out)
    assert check.returncode == 0, check.stdout + check.stderr


def test_max_candidates_flag(small_graph_path, tmp_path):
    out = tmp_path / "budget"
    res = run_cli("synth", "--graph", small_graph_path, "--out", out, "-n", 100_000, "--no-progress",
                  "--max-candidates", 600)  # fmt: skip
    assert res.returncode == PARTIAL, res.stderr
    partial = json.loads((out / "validation_report.json").read_text())["partial"]
    assert partial["why"] == "max_candidates" and 600 <= partial["candidates_tried"] < 600 + 256
    assert "--max-candidates 600 were tried" in res.stderr


@pytest.mark.parametrize("bad", ["0", "-5", "many"])
def test_max_candidates_must_be_a_positive_number(small_graph_path, tmp_path, bad):
    res = run_cli("synth", "--graph", small_graph_path, "--out", tmp_path / "x", "--max-candidates", bad)
    assert res.returncode == 2 and "--max-candidates" in res.stderr
    assert not (tmp_path / "x").exists()
