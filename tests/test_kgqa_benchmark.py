"""The path oracle on a public multi-hop KGQA test set over its own graph (issue 40's "Done when").

tests/data/kgqa/metaqa/: 300 MetaQA test questions (100 per hop count, 1-3 hops) and the part of the WikiMovies KB
their walks need, with each question's gold relation path (from its MetaQA question type). See the README there.
`--model path --exclude-topic` must reproduce the benchmark's answers: hits@1 and exact match >= 0.95 at every hop
count. The fast test runs a slice (20 per hop count), the slow one all 300 and the run without --exclude-topic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg2tool.cli import main

DATA = Path(__file__).parent / "data" / "kgqa" / "metaqa"
GRAPH = DATA / "metaqa-kb.nt.gz"
QUESTIONS = DATA / "metaqa-test-sample.jsonl"


def _questions(per_hop: int | None) -> list[dict]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    if per_hop is None:
        return rows
    return [r for h in (1, 2, 3) for r in [q for q in rows if q["hops"] == h][:per_hop]]


def _oracle(tmp_path: Path, rows: list[dict], *flags: str) -> dict:
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / ("out" + "".join(flags))
    argv = ["eval", "--questions", str(questions), "--graph", str(GRAPH), "--model", "path", "--out", str(out)]
    assert main([*argv, *flags]) == 0
    details = json.loads((out / "details.json").read_text(encoding="utf-8"))
    results = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    return {"details": details, "results": results, "out": out}


def _per_hop(run: dict) -> dict[str, tuple[float, float]]:
    return {h: (v["hits1"]["score"], v["exact"]["score"]) for h, v in run["details"]["by_hops"].items()}


def test_the_files_are_the_ones_the_readme_describes():
    rows = _questions(None)
    assert len(rows) == 300 and {h: sum(r["hops"] == h for r in rows) for h in (1, 2, 3)} == {1: 100, 2: 100, 3: 100}
    assert all(len(r["relation_path"]) == r["hops"] for r in rows)
    assert len({r["id"] for r in rows}) == 300


def test_the_oracle_reproduces_metaqa_on_a_slice(tmp_path):
    run = _oracle(tmp_path, _questions(20), "--exclude-topic")
    per_hop = _per_hop(run)
    assert set(per_hop) == {"1", "2", "3"}
    for hops, (hits1, exact) in per_hop.items():
        assert hits1 >= 0.95 and exact >= 0.95, (hops, hits1, exact)
    assert (run["out"] / "report.html").is_file()


@pytest.mark.slow
def test_the_oracle_reproduces_metaqa_on_all_300(tmp_path):
    per_hop = _per_hop(_oracle(tmp_path, _questions(None), "--exclude-topic"))
    assert per_hop == {"1": (1.0, 1.0), "2": (1.0, 1.0), "3": (1.0, 1.0)}
    # MetaQA leaves the topic out of every hop: without the flag, a 3-hop walk goes through the topic film again
    # and names what it reaches from there (measured: 3 hops 89/100 hits@1, 62/100 exact)
    plain = _per_hop(_oracle(tmp_path, _questions(None)))
    assert plain["1"] == plain["2"] == (1.0, 1.0) and plain["3"][1] < 0.95
