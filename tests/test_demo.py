"""`kg2tool demo` end to end at toy size: synth, pretrain, SFT, DPO, an evaluation after each stage, one report."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.train
pytest.importorskip("torch")
pytest.importorskip("trl")

TOY_MOE = {"hidden_size": 48, "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
           "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 24,
           "shared_expert_intermediate_size": 48}  # fmt: skip
COMMON = {"torch_num_threads": 1, "disable_tqdm": True, "report_to": "none", "use_cpu": True, "logging_steps": 1}


def toy_plan(tmp_path):
    import yaml

    plan = {
        "synth": {"n": 200, "seed": 3},
        "pretrain": {
            "recipe": "pretrain/tiny.yaml",
            "args": {
                **COMMON,
                "model_overrides": TOY_MOE,
                "vocab_size": 1000,
                "max_length": 128,
                "max_steps": 6,
                "save_strategy": "no",
                "sample_prompt": "",
                "copy_warmup_steps": 10,
                "dataset_name": ["{data}"],
            },
        },  # fmt: skip
        "sft": {
            "recipe": "sft/tiny.yaml",
            "args": {**COMMON, "max_steps": 4, "save_strategy": "no", "max_length": 2048, "sample": False,
                     "random_name_rows": 20, "first_turn_rows": 30, "per_device_train_batch_size": 4},
        },  # fmt: skip
        "dpo": {
            "recipe": "dpo/tiny.yaml",
            "args": {**COMMON, "max_steps": 2, "save_strategy": "no", "sample": False},
        },  # fmt: skip
        "eval": {"limit": 2, "max_new_tokens": 24, "max_steps": 2, "batch_size": 8, "device": "cpu", "stepwise": True,
                 "pretrain": {"stepwise": False},  # per-stage override
                 "constrained": ["sft"]},  # the SFT model scored a second time with --constrain copy
    }
    path = tmp_path / "plan.yaml"
    path.write_text(yaml.safe_dump(plan))
    return path


def test_demo_runs_every_stage_and_reports(tmp_path, small_graph_path, capsys):
    from kg2tool.cli import main

    out = tmp_path / "demo"
    plan = toy_plan(tmp_path)
    # --tool-style overrides the plan's synth; training and evaluation read the style from the dataset folder
    argv = ["demo", "--graph", str(small_graph_path), "--out", str(out), "--plan", str(plan), "--tool-style", "refs"]
    assert main(argv) == 0
    report = json.loads((out / "report.json").read_text())
    assert list(report) == ["pretrain", "sft", "sft-copy", "dpo"]
    # every single-turn category of the data's test split is scored (the toy graph's split may lack one, by chance)
    data = json.loads((out / "data" / "validation_report.json").read_text())
    assert data["tool_style"]["style"] == "refs"
    categories = set(data["kept"]["by_split_and_category"]["test"]) & {"simple", "multiple", "irrelevance"}
    assert "simple" in categories
    for stage, scores in report.items():
        assert categories | {"multi_step_exec"} <= set(scores), (stage, scores)
        assert ("stepwise_later_call" in scores) == (stage != "pretrain"), (stage, scores)  # eval.pretrain override
        assert all(0.0 <= v <= 1.0 for v in scores.values())
    for name in ("report.md", "report.png", "run.json", "data/validation_report.json", "sft/sft_report.json",
                 "dpo/dpo_report.json", "eval-dpo/summary.json"):  # fmt: skip
        assert (out / name).exists(), name
    curves = json.loads((out / "curves.json").read_text())
    assert {"pretrain", "sft", "dpo"} <= set(curves) and curves["sft"]["lm_loss"], curves
    assert (out / "curves.png").exists()
    md = (out / "report.md").read_text()
    assert "| pretrain |" in md and "| dpo |" in md and "multi_step_exec" in md
    run = json.loads((out / "run.json").read_text())
    assert [s["name"] for s in run["stages"]] == ["synth", "pretrain", "eval-pretrain", "sft", "eval-sft",
                                                   "eval-sft-copy", "dpo", "eval-dpo"]  # fmt: skip
    copy_stage = next(s for s in run["stages"] if s["name"] == "eval-sft-copy")
    assert "--constrain copy" in copy_stage["command"] and "--model " + str(out / "sft") in copy_stage["command"]
    # a rerun into the same folder is refused; --resume finds every stage done and rebuilds the same report
    assert main(argv) == 4
    assert main([*argv, "--resume"]) == 0
    again = json.loads((out / "run.json").read_text())
    assert all(s["skipped"] for s in again["stages"])
    assert json.loads((out / "report.json").read_text()) == report


def test_demo_plan_errors_name_the_problem(tmp_path, small_graph_path, capsys):
    from kg2tool.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "synth: {n: 10}\npretrain: {args: {}}\nsft: {recipe: sft/tiny.yaml}\ndpo: {recipe: dpo/tiny.yaml}\n"
    )
    assert main(["demo", "--graph", str(small_graph_path), "--out", str(tmp_path / "o"), "--plan", str(bad)]) == 3
    assert "pretrain" in capsys.readouterr().err
    bad.write_text("synth: {n: 10}\ntrain: {}\n")
    assert main(["demo", "--graph", str(small_graph_path), "--out", str(tmp_path / "o"), "--plan", str(bad)]) == 2
    assert "train" in capsys.readouterr().err


@pytest.mark.parametrize("plan", ["examples/demo.yaml", "examples/demo-gpu.yaml"])
def test_shipped_plans_name_existing_recipes(plan):
    from pathlib import Path

    from kg2tool.demo import DemoPlan

    root = Path(__file__).resolve().parent.parent
    parsed = DemoPlan.load(str(root / plan))
    for stage in ("pretrain", "sft", "dpo"):
        assert (root / getattr(parsed, stage)["recipe"]).is_file()


def test_an_unfinished_stage_resumes_with_its_own_flags(tmp_path):
    from kg2tool.demo import StageRun, resume_flags

    context = {"pretrain": str(tmp_path / "pretrain"), "sft": str(tmp_path / "sft")}
    (tmp_path / "pretrain" / "checkpoint-3").mkdir(parents=True)
    (tmp_path / "sft").mkdir()

    def flags(name):
        return resume_flags(StageRun(name, [], tmp_path / "done"), context)

    assert flags("synth") == ["--resume"] and flags("eval-sft") == ["--resume"]  # finished shards, saved generations
    assert flags("pretrain") == ["--resume", "true"]  # from its checkpoint
    assert flags("sft") == ["--overwrite", "true"]  # killed before any checkpoint: start over
    context["dpo"] = str(tmp_path / "dpo")
    assert flags("dpo") == []  # not started


def resumable_plan(tmp_path):
    """The toy plan with checkpoints in the training stages, so a kill can land between two of them."""
    import yaml

    plan = yaml.safe_load(toy_plan(tmp_path).read_text())
    plan["pretrain"]["args"].update(save_strategy="steps", save_steps=3)
    plan["sft"]["args"].update(save_strategy="steps", save_steps=2, max_steps=6)
    plan["dpo"]["args"].update(save_strategy="steps", save_steps=2, max_steps=4)
    path = tmp_path / "resumable.yaml"
    path.write_text(yaml.safe_dump(plan))
    return path


def run_until(argv: list[str], ready) -> None:
    """Start `python -m kg2tool argv` and SIGKILL it as soon as `ready()` holds (it must not end before)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "kg2tool", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.time() + 600
    while time.time() < deadline and proc.poll() is None and not ready():
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the demo ended before it could be killed"


@pytest.mark.slow
def test_demo_killed_in_each_kind_of_stage_resumes_to_the_uninterrupted_report(tmp_path, small_graph_path):
    """Killed with SIGKILL while pretraining, while fine-tuning, while evaluating (each after the stage saved some
    progress), then `--resume`d to the end: the report and the trained weights are the uninterrupted run's."""
    from safetensors.torch import load_file

    from kg2tool.cli import main

    plan = resumable_plan(tmp_path)
    ref, out = tmp_path / "ref", tmp_path / "demo"

    def argv(folder, *extra):
        return ["demo", "--graph", str(small_graph_path), "--out", str(folder), "--plan", str(plan), *extra]

    assert main(argv(ref)) == 0

    def lines(path):
        return path.read_text().count("\n") if path.exists() else 0

    run_until(argv(out), lambda: (out / "pretrain" / "checkpoint-3" / "trainer_state.json").exists())
    run_until(argv(out, "--resume"), lambda: (out / "sft" / "checkpoint-2" / "trainer_state.json").exists())
    run_until(argv(out, "--resume"), lambda: lines(out / "eval-sft" / "checkpoint.jsonl") >= 3)
    assert not (out / "eval-sft" / "summary.json").exists()
    assert main(argv(out, "--resume")) == 0
    run = json.loads((out / "run.json").read_text())
    assert [s["skipped"] for s in run["stages"]] == [True, True, True, True, False, False, False]
    assert "--resume" in run["stages"][4]["command"]  # eval-sft continued from its saved generations
    assert json.loads((out / "report.json").read_text()) == json.loads((ref / "report.json").read_text())
    for stage in ("pretrain", "sft", "dpo"):
        a, b = load_file(str(ref / stage / "model.safetensors")), load_file(str(out / stage / "model.safetensors"))
        assert a.keys() == b.keys() and all(torch_equal(a[k], b[k]) for k in a), stage


def torch_equal(a, b) -> bool:
    import torch

    return torch.equal(a, b)


# slow: 39 s; one seed's whole demo runs by default (test_demo_runs_every_stage_and_reports)
@pytest.mark.slow
def test_demo_over_seeds_reports_mean_range_and_pooled_counts(tmp_path, small_graph_path, capsys):
    """`--seeds 1,2`: a whole demo per seed in OUT/seed<N>, then seeds.json / seeds.md from their own reports: the
    mean and range of each score and its counts added up over the seeds (checked against each seed's files)."""
    from kg2tool.cli import main
    from kg2tool.evaluation.report import interval_counts, wilson

    out = tmp_path / "seeds"
    argv = ["demo", "--graph", str(small_graph_path), "--out", str(out), "--plan", str(toy_plan(tmp_path))]
    assert main([*argv, "--seeds", "1,x"]) == 2 and "--seeds '1,x'" in capsys.readouterr().err
    assert main([*argv, "--seeds", "1,2"]) == 0
    reports = {s: json.loads((out / f"seed{s}" / "report.json").read_text()) for s in (1, 2)}
    runs = {s: json.loads((out / f"seed{s}" / "run.json").read_text()) for s in (1, 2)}
    assert [r["seed"] for r in runs.values()] == [1, 2]
    assert "--seed 1 " in runs[1]["stages"][1]["command"] and "--seed 2 " in runs[2]["stages"][1]["command"]  # pretrain
    record = json.loads((out / "seeds.json").read_text())
    assert record["seeds"] == [1, 2] and list(record["stages"]) == ["pretrain", "sft", "sft-copy", "dpo"]
    pooled = 0
    for stage, scores in record["stages"].items():
        for key, entry in scores.items():
            values = [reports[s][stage][key] for s in (1, 2) if key in reports[s][stage]]
            assert entry["values"] == values
            assert entry["mean"] == pytest.approx(sum(values) / len(values))
            assert (entry["min"], entry["max"]) == (min(values), max(values))
            counts = [interval_counts(out / f"seed{s}", stage).get(key) for s in (1, 2)]
            if all(counts):
                pooled += 1
                k, n = sum(c[0] for c in counts), sum(c[1] for c in counts)
                assert (entry["correct"], entry["total"]) == (k, n)
                assert entry["ci95"] == pytest.approx(list(wilson(k, n)))
    assert pooled >= 3  # simple, multiple, multi_step_exec, ... at every stage
    md = (out / "seeds.md").read_text()
    assert "over 2 seeds (1, 2)" in md and "| sft |" in md and "Counts pooled over the seeds" in md
    # every seed is finished: --resume reruns nothing and writes the same record
    assert main([*argv, "--seeds", "1,2", "--resume"]) == 0
    assert json.loads((out / "seeds.json").read_text()) == record


def test_a_partial_synth_is_trained_on_and_other_exit_codes_stop_the_demo(capsys):
    """synth's exit 7 (a complete dataset of fewer rows than asked) lets the demo go on, with a note; any other
    non-zero exit of a stage stops it."""
    from kg2tool.common.errors import PARTIAL
    from kg2tool.demo import StageFailed, _run

    _run(lambda argv: PARTIAL, "synth", ["synth"])
    assert "fewer rows than asked" in capsys.readouterr().err
    with pytest.raises(StageFailed, match="exit code 7"):
        _run(lambda argv: PARTIAL, "sft", ["sft"])
