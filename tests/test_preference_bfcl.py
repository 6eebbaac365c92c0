"""The dpo and bfcl configs of a synth run: every chosen passes and every rejected fails the independent check;
the BFCL files score 100% for the gold calls under BFCL's official checker, and perturbed calls fail."""

import json
import subprocess
import sys
from collections import Counter

import pytest
from conftest import EXAMPLE

from kg2tool.hub.card import MISTAKES
from kg2tool.synth.checks.preference import REASONS_OF, REJECTION_TYPES, PairMaker, check_continuation
from kg2tool.synth.checks.verify import REASONS


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("pref") / "wiki"
    res = subprocess.run(
        [sys.executable, "-m", "kg2tool.cli", "synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "1200",
         "--seed", "3", "--no-progress"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    return out


@pytest.fixture(scope="module")
def ts():
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.tools.toolset import ToolSet

    return ToolSet.from_graph(load_graph([EXAMPLE]))


def test_dpo_config_pairs_are_verifiably_right_and_wrong(run, ts):
    from datasets import load_dataset

    dpo = load_dataset(str(run), "dpo")
    sft = load_dataset(str(run), "sft")
    answers = {r["id"]: r["answers"] for split in sft for r in sft[split]}
    kinds = Counter()
    for split in dpo:
        assert len(dpo[split]) == len(sft[split])
        for row in dpo[split]:
            base = row["id"].rsplit("-", 1)[0]
            args = (row["tools"], answers[base], row["category"], row["chosen"])
            assert check_continuation(ts, row["prompt"], row["chosen"], *args) is None, row["id"]
            reason = check_continuation(ts, row["prompt"], row["rejected"], *args)
            assert reason in REASONS_OF[row["rejection_type"]], (row["id"], reason)
            assert row["prompt"][-1]["role"] in ("user", "tool")
            kinds[row["rejection_type"]] += 1
    assert set(kinds) == set(REJECTION_TYPES) == set(PairMaker(ts).mistakes) == set(REASONS_OF) == set(MISTAKES)
    assert all(set(r) <= set(REASONS) for r in REASONS_OF.values())
    card = (run / "README.md").read_text()
    for kind, n in kinds.items():  # the card's DPO table: every type, its count and what its rejected turn does
        assert f"| {kind} | {n} | {MISTAKES[kind]} |" in card


def test_dpo_rows_are_trl_conversational_preference_format(run):
    from datasets import load_dataset

    row = load_dataset(str(run), "dpo", split="train")[0]
    assert {"prompt", "chosen", "rejected", "tools"} <= set(row)
    for key in ("prompt", "chosen", "rejected"):
        assert isinstance(row[key], list) and all("role" in m for m in row[key])
    assert row["chosen"][0]["role"] == row["rejected"][0]["role"] == "assistant"


def _read_jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _official():
    try:
        from bfcl_eval.constants.enums import Language
        from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    except Exception as exc:  # pragma: no cover - depends on the optional install
        pytest.skip(f"bfcl-eval's checker is not importable ({exc}); install it with .ci/install-bfcl.sh")
    return ast_checker, Language.PYTHON


def _gold_output(truth):
    return [{fn: {k: v[0] for k, v in args.items()}} for call in truth for fn, args in call.items()]


def test_bfcl_files_score_100_percent_gold_under_official_checker(run):
    ast_checker, python = _official()
    bfcl = run / "bfcl"
    categories = sorted(p.name[len("BFCL_v4_") : -len(".json")] for p in bfcl.glob("BFCL_v4_*.json"))
    assert categories == sorted(["irrelevance", "multiple", "parallel", "parallel_multiple", "simple"])
    checked = 0
    for cat in categories:
        tests = _read_jsonl(bfcl / f"BFCL_v4_{cat}.json")
        if cat == "irrelevance":
            assert all(t["id"].startswith("irrelevance_") for t in tests)
            continue
        answers = {a["id"]: a for a in _read_jsonl(bfcl / "possible_answer" / f"BFCL_v4_{cat}.json")}
        for t in tests:
            truth = answers[t["id"]]["ground_truth"]
            result = ast_checker(t["function"], _gold_output(truth), truth, python, cat, "kg2tool")
            assert result["valid"], (t["id"], result)
            # every acceptable value (alternative labels included) passes too
            for call in truth:
                for fn, args in call.items():
                    for key, values in args.items():
                        for v in values[1:]:
                            alt = [{f: {k: (v if (f, k) == (fn, key) else vals[0]) for k, vals in a.items()}}
                                   for c in truth for f, a in c.items()]  # fmt: skip
                            assert ast_checker(t["function"], alt, truth, python, cat, "kg2tool")["valid"]
            checked += 1
    assert checked > 20


def test_bfcl_perturbed_calls_fail_under_official_checker(run):
    ast_checker, python = _official()
    bfcl = run / "bfcl"
    for cat in ("simple", "multiple", "parallel", "parallel_multiple"):
        tests = _read_jsonl(bfcl / f"BFCL_v4_{cat}.json")
        answers = {a["id"]: a for a in _read_jsonl(bfcl / "possible_answer" / f"BFCL_v4_{cat}.json")}
        for t in tests:
            truth = answers[t["id"]]["ground_truth"]
            gold = _gold_output(truth)
            fn, args = next(iter(gold[0].items()))
            key = next(iter(args))
            perturbed = [
                [{fn + "_x": args}] + gold[1:],  # wrong function name
                [{fn: {**args, key: "Definitely Not An Entity"}}] + gold[1:],  # wrong value
                [{fn: {**args, key: 7}}] + gold[1:],  # wrong type
                [{fn: {k: v for k, v in args.items() if k != key}}] + gold[1:],  # missing required
                [{fn: {**args, "limit": 3}}] + gold[1:],  # unknown argument
                [],  # no call
            ]
            if len(gold) > 1:
                perturbed.append(gold[:-1])  # a parallel call missing
            for out in perturbed:
                assert not ast_checker(t["function"], out, truth, python, cat, "kg2tool")["valid"], (t["id"], out)
