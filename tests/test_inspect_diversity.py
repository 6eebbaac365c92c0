import subprocess
import sys

from kg2tool.synth.checks.diversity import DiversityFilter


def _row(q, plan, topic="T", pattern="1p"):
    return {"messages": [{"role": "user", "content": q}], "plan": plan, "topic_entity": topic, "pattern": pattern}


def test_diversity_filter_reasons():
    f = DiversityFilter(threshold=0.8, max_per_topic=2)
    long_q = "Find everything that is both what Alpha is influenced by and what Beta is influenced by, leaving out"
    assert f.reject(_row("What is the genre of X?", {"p": 1})) is None
    assert f.reject(_row("what is the  genre of X", {"p": 2})) == "duplicate_question"
    assert f.reject(_row("Tell me the genre of X.", {"p": 1})) == "duplicate_plan"
    assert f.reject(_row(long_q + " what Alpha is influenced by, Gamma", {"p": 3}, topic="A")) is None
    assert f.reject(_row(long_q + " what Alpha is influenced by, Delta", {"p": 4}, topic="B")) == "near_duplicate_question"
    assert f.reject(_row("Which band did X found?", {"p": 6})) is None  # T's second conversation
    assert f.reject(_row("What is the genre of Y?", {"p": 5})) == "topic_cap"  # T already has 2
    assert f.reject(_row("What is the genre of Y?", {"p": 5}, topic="C")) is None


def test_inspect_prints_table_samples_and_writes_plots(tmp_path, small_graph_path):
    out = tmp_path / "data"
    res = subprocess.run([sys.executable, "-m", "kg2tool.cli", "synth", "--graph", str(small_graph_path), "--out",
                          str(out), "-n", "120", "--no-progress"], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr
    plots = tmp_path / "plots"
    res = subprocess.run([sys.executable, "-m", "kg2tool.cli", "inspect", str(out), "--out", str(plots), "--samples",
                          "2"], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "120 conversations" in res.stdout and "relation coverage" in res.stdout
    assert res.stdout.count("--- ") == 2 and "assistant ->" in res.stdout
    names = sorted(p.name for p in plots.glob("*.png"))
    assert {"shape_mix.png", "hops.png", "relation_coverage.png", "answer_sizes.png"} <= set(names)
    assert all((plots / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names)
    bad = subprocess.run([sys.executable, "-m", "kg2tool.cli", "inspect", str(tmp_path / "nope")], capture_output=True,
                         text=True)  # fmt: skip
    assert bad.returncode == 3 and "not a kg2tool dataset folder" in bad.stderr
