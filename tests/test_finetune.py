"""`kg2tool sft` and `kg2tool dpo` at tiny size: a pretrained MoE from `kg2tool pretrain`, a `kg2tool synth` dataset,
TRL's real trainers, full fine-tuning and LoRA, outputs reloaded with plain `from_pretrained` and asked a test
question through the chat template."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.train
pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("peft")

TINY_MOE = {
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "moe_intermediate_size": 32,
    "shared_expert_intermediate_size": 64,
}


def kv(args: dict) -> list[str]:
    """Flags as a user types them: lists as several values, mappings as JSON."""
    out = []
    for key, value in args.items():
        values = value if isinstance(value, list) else [value]
        out += [f"--{key}", *(v if isinstance(v, str) else json.dumps(v) for v in values)]
    return out


def cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg2tool.cli", *argv], capture_output=True, text=True)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory, small_graph_path) -> Path:
    out = tmp_path_factory.mktemp("ft") / "data"
    res = cli(
        # seed 8: the 200 rows hold error-recovery rows whose first call is wrong on purpose (weight 0, a third of
        # them; the first-turn test needs some: seed 3 drew none of 7) and a test split with every category but
        # parallel_multiple (the eval test needs simple and multi_step); checked for seeds 3-10
        "synth", "--graph", str(small_graph_path), "--out", str(out), "-n", "200", "--seed", "8", "--no-progress",
        "--max-fanout", "3",  # short conversations: the tiny models here see whole ones within max_length
    )
    assert res.returncode == 0, res.stderr
    return out


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory, small_graph_path, data_dir) -> Path:
    """A tiny MoE pretrained by `kg2tool pretrain` on the graph and the synth conversations."""
    from kg2tool.train.args import parse_config
    from kg2tool.train.pretrain import PretrainConfig, run_pretrain

    out = tmp_path_factory.mktemp("ft") / "pretrained"
    args = {
        "graph": str(small_graph_path),
        "dataset_name": str(data_dir),
        "output_dir": str(out),
        "model_overrides": TINY_MOE,
        "vocab_size": 1200,
        "max_length": 256,
        "max_steps": 150,
        "per_device_train_batch_size": 8,
        "learning_rate": 0.005,
        "logging_steps": 10,
        "save_strategy": "no",
        "use_cpu": "true",
        "report_to": "none",
        "disable_tqdm": "true",
        "sample_prompt": "",
        "torch_num_threads": 1,
        "seed": 0,
    }
    run_pretrain(parse_config(PretrainConfig, kv(args), prog="test"))
    return out


def sft_args(model: Path, data: Path, out: Path, **extra) -> dict:
    args = {
        "model_name_or_path": str(model),
        "dataset_name": str(data),
        "dataset_test_split": "validation",
        "output_dir": str(out),
        "max_length": 1536,
        "max_steps": 60,
        "per_device_train_batch_size": 4,
        "learning_rate": 0.01,
        "lr_scheduler_type": "constant",
        "logging_steps": 4,
        "save_steps": 30,
        "eval_strategy": "no",
        "use_cpu": "true",
        "bf16": "false",
        "report_to": "none",
        "disable_tqdm": "true",
        "torch_num_threads": 1,
        "fused_lm_head": "false",
        "seed": 0,
    }
    args.update(extra)
    return args


def write_recipe(path: Path, args: dict) -> Path:
    import yaml

    path.write_text(yaml.safe_dump(args))
    return path


@pytest.fixture(scope="module")
def sft_full(tmp_path_factory, pretrained, data_dir) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("sft")
    # the recipe says 1000 steps and another output folder; flags override it (TRL's names)
    recipe = write_recipe(tmp / "r.yaml", {**sft_args(pretrained, data_dir, tmp / "elsewhere"), "max_steps": 1000})
    # 300 steps: at 150 a model of this size fell into a loop on one data set ('{"name": "get_of_of_of_...' in
    # every test row, seed 0, on the data of 2026-12-06) while other seeds formed calls; at 300 it forms calls
    res = cli("sft", "--config", str(recipe), "--output_dir", str(tmp / "full"), "--max_steps", "300",
              "--copy_aux_weight", "0.05")
    assert res.returncode == 0, res.stderr[-3000:]
    return tmp / "full", json.loads((tmp / "full" / "sft_report.json").read_text())


def test_full_sft_learns_and_reloads_to_call_a_tool(sft_full, data_dir):
    from datasets import load_dataset

    from kg2tool.train.finetune_outputs import sample_tool_call

    out, report = sft_full
    assert report["global_step"] == 300 and not report["peft"]
    assert report["parameters"]["trainable"] == report["parameters"]["total"]
    first, last = report["loss_history"][0][1], report["loss_history"][-1][1]
    assert math.isfinite(last) and last < 0.8 * first, report["loss_history"]
    for name in ("config.json", "model.safetensors", "tokenizer.json", "chat_template.jinja", "train_results.json",
                 "trainer_state.json"):  # fmt: skip
        assert (out / name).exists(), name
    config = json.loads((out / "config.json").read_text())
    assert config["output_router_logits"] is False and config["use_cache"] is True
    logged = [h for h in json.loads((out / "trainer_state.json").read_text())["log_history"] if "lm_loss" in h]
    assert logged and all(h["aux_loss"] > 0 and h["z_loss"] > 0 for h in logged)  # the MoE losses were trained
    # ... and entered the optimized loss (with the auxiliary copy loss, also logged)
    assert all("copy_loss" in h and h["loss"] > h["lm_loss"] + 0.05 * h["copy_loss"] for h in logged), logged
    # reload from disk (plain from_pretrained) and ask test questions through the chat template
    test = load_dataset(str(data_dir), "sft", split="test")
    rows = [r for r in test if r["category"] in ("simple", "multiple", "parallel", "multi_step")][:4]
    # a budget for three parallel calls (an intersection row's first turn looks up each branch)
    samples = [sample_tool_call(str(out), row, max_new_tokens=192) for row in rows]
    calls = [s for s in samples if s["tool_calls"]]
    assert calls, [s["completion"] for s in samples]
    # mostly well-formed calls (a tiny model may also answer a long question with the refusal it learned from the
    # irrelevance rows, or run out of budget on a long fan-out); whether they are the right ones is the eval
    # stage's measure, not this 300-step model's
    formed = [s for s in calls if s["completion"].lstrip().startswith("<tool_call>") and not s["parse_errors"]]
    assert formed and 2 * len(formed) >= len(calls), samples


def test_sft_resume_continues_from_the_last_checkpoint(sft_full, pretrained, data_dir, tmp_path):
    out, _ = sft_full
    args = sft_args(pretrained, data_dir, out, max_steps=306, sample="false")
    res = cli("sft", *kv(args))
    assert res.returncode == 4 and "already holds a run" in res.stderr  # no silent overwrite
    res = cli("sft", *kv(args), "--resume", "true")
    assert res.returncode == 0, res.stderr[-3000:]
    report = json.loads((out / "sft_report.json").read_text())
    assert report["resumed_from"].endswith("checkpoint-300") and report["global_step"] == 306
    assert report["loss_history"][-1][0] == 306  # the last step is logged off the logging interval (4) too


@pytest.fixture(scope="module")
def sft_lora(tmp_path_factory, pretrained, data_dir) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("sft") / "lora"
    args = sft_args(pretrained, data_dir, out, use_peft="true", lora_r=4, lora_alpha=8, lora_dropout=0.0,
                    lora_target_parameters=["mlp.experts.gate_up_proj", "mlp.experts.down_proj"],
                    learning_rate=0.01, merge="true", sample="false")  # fmt: skip
    res = cli("sft", *kv(args))
    assert res.returncode == 0, res.stderr[-3000:]
    return out, json.loads((out / "sft_report.json").read_text())


def test_lora_sft_trains_adapters_and_merges_exactly(sft_lora, data_dir):
    import torch
    from transformers import AutoModelForCausalLM

    from kg2tool.llm.backends import load_tokenizer

    out, report = sft_lora
    assert report["peft"] and 0 < report["parameters"]["trainable"] < report["parameters"]["total"] / 2
    assert report["loss_history"][-1][1] < report["loss_history"][0][1]
    adapter = json.loads((out / "adapter" / "adapter_config.json").read_text())
    # default targets: attention + the shared expert's projections; the router is never a target
    # (named with their parent, so that no PEFT version reads the shared expert's `down_proj` as the routed experts')
    assert set(adapter["target_modules"]) == {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                                              "self_attn.o_proj", "shared_expert.gate_proj", "shared_expert.up_proj",
                                              "shared_expert.down_proj"}  # fmt: skip
    assert set(adapter["target_parameters"]) == {"mlp.experts.gate_up_proj", "mlp.experts.down_proj"}
    assert Path(adapter["base_model_name_or_path"]).is_absolute()
    # merged weights (top level) and base + adapter give the same logits
    tok = load_tokenizer(str(out))
    ids = tok("Where was someone born?", return_tensors="pt")["input_ids"]
    merged = AutoModelForCausalLM.from_pretrained(out).eval()
    with_adapter = AutoModelForCausalLM.from_pretrained(out / "adapter").eval()
    assert getattr(with_adapter, "peft_config", None)
    with torch.no_grad():
        a, b = merged(ids).logits, with_adapter(ids).logits
    assert torch.allclose(a, b, atol=1e-4), (a - b).abs().max()


def dpo_args(model: Path, data: Path, out: Path, **extra) -> dict:
    settings = {"dataset_config": "dpo", "max_steps": 16, "learning_rate": 0.0005, "beta": 0.1, "logging_steps": 1,
                "save_strategy": "no"}  # fmt: skip
    args = sft_args(model, data, out, **{**settings, **extra})
    args.pop("fused_lm_head")
    return args


def test_dpo_from_full_sft_raises_the_reward_margin(sft_full, data_dir, tmp_path):
    out = tmp_path / "dpo"
    res = cli("dpo", *kv(dpo_args(sft_full[0], data_dir, out)))
    assert res.returncode == 0, res.stderr[-3000:]
    report = json.loads((out / "dpo_report.json").read_text())
    assert report["global_step"] == 16 and not report["peft"]
    margins = [m for _, m in report["margin_history"]]
    assert abs(margins[0]) < 0.01, margins  # step 1 is measured before any update: the policy is the reference
    assert sum(margins[-3:]) / 3 > 0.05, margins
    late = [loss for _, loss in report["loss_history"][-4:]]  # one batch's loss is noisy (0.39 then 0.70)
    assert sum(late) / len(late) < math.log(2), report["loss_history"]
    assert report["sample"]["completion"]  # reloaded from disk and generated through the chat template
    assert (out / "model.safetensors").exists() and (out / "chat_template.jinja").exists()


def test_dpo_with_lora_from_an_sft_adapter(sft_lora, data_dir, tmp_path):
    out = tmp_path / "dpo-lora"
    # start from the adapter folder: merged onto its base on load, then a fresh adapter is trained
    args = dpo_args(sft_lora[0] / "adapter", data_dir, out, use_peft="true", lora_r=4, lora_alpha=8,
                    learning_rate=0.005, sample="false")  # fmt: skip
    res = cli("dpo", *kv(args))
    assert res.returncode == 0, res.stderr[-3000:]
    report = json.loads((out / "dpo_report.json").read_text())
    assert report["peft"] and (out / "adapter_config.json").exists()
    margins = [m for _, m in report["margin_history"]]
    assert sum(margins[-3:]) / 3 > margins[0], margins


def test_bad_inputs_give_clear_errors(pretrained, data_dir, tmp_path):
    base = sft_args(pretrained, data_dir, tmp_path / "x", max_steps=1)
    res = cli("sft", *kv({**base, "dataset_name": str(tmp_path / "missing")}))
    assert res.returncode == 3 and "dataset folder not found" in res.stderr and "missing" in res.stderr
    res = cli("sft", *kv({**base, "merge": "true"}))
    assert res.returncode == 2 and "--merge" in res.stderr
    recipe = write_recipe(tmp_path / "r.yaml", {**base, "no_such_field": 1})
    res = cli("sft", "--config", str(recipe))
    assert res.returncode == 2 and "no_such_field" in res.stderr
    # a chat template without {% generation %} markers cannot give an assistant-only loss: say how to fix it
    plain = tmp_path / "plain.jinja"
    plain.write_text("{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}")
    res = cli("sft", *kv({**base, "chat_template_path": str(plain)}))
    assert res.returncode == 3 and "generation" in res.stderr and "--assistant_only_loss false" in res.stderr
    res = cli("dpo", *kv({**dpo_args(pretrained, data_dir, tmp_path / "y"), "dataset_config": "sft"}))
    assert res.returncode == 3 and "prompt" in res.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_eval_runs_the_sft_model_end_to_end(sft_full, data_dir, small_graph_path, tmp_path):
    """Issue 6's loop with a model from the SFT stage: generation, parsing, execution on the graph, reports."""
    out = tmp_path / "eval"
    res = cli("eval", "--model", str(sft_full[0]), "--data", str(data_dir), "--graph", str(small_graph_path),
              "--out", str(out), "--limit", "3", "--max-new-tokens", "64", "--max-steps", "2", "--device", "cpu",
              "--no-plot")  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    categories = {r["category"] for r in results}
    assert {"simple", "multi_step"} <= categories, categories
    executed = [r for r in results if r["kind"] == "exec"]
    assert executed and all(r["turns"] and r["turns"][0]["output"] and r["stop"] for r in executed), executed[0]
    for key in ("simple", "multi_step_exec", "exec_call_validity"):
        assert 0.0 <= summary[key] <= 1.0
    assert (out / "report.md").exists()


ROOT = Path(__file__).resolve().parent.parent
RECIPES = sorted(p.relative_to(ROOT).as_posix() for stage in ("sft", "dpo") for p in (ROOT / stage).glob("*.yaml"))


@pytest.mark.parametrize("recipe", RECIPES)
def test_every_shipped_recipe_parses(recipe):
    """Every YAML in sft/ and dpo/ names only real fields (TRL's and kg2tool's); GPU recipes parse here too."""
    from kg2tool.train.dpo import KgDPOConfig
    from kg2tool.train.finetune import parse_stage
    from kg2tool.train.sft import KgSFTConfig

    config_cls = KgDPOConfig if recipe.startswith("dpo") else KgSFTConfig
    setup = parse_stage(
        config_cls, ["--config", str(ROOT / recipe), "--use_cpu", "true", "--bf16", "false"], prog="test"
    )
    assert setup.model.model_name_or_path and setup.script.dataset_name
    template = setup.training.chat_template_path if config_cls is KgSFTConfig else None
    if template:
        from kg2tool.llm.chat_format import CHAT_TEMPLATE

        assert (ROOT / template).read_text() == CHAT_TEMPLATE  # the shipped file is the template kg2tool models use


def test_random_name_rows_join_the_sft_training_split(data_dir, small_graph_path, tmp_path):
    """`--random_name_rows N` adds N verified conversations over a renamed copy of the dataset's recorded graph:
    the same columns, and names that are not the graph's."""
    import shutil

    from kg2tool.common.errors import InputError
    from kg2tool.graph.build import load_graph
    from kg2tool.train import finetune as ft
    from kg2tool.train import finetune_rows as ftr
    from kg2tool.train.copy_task import argument_strings
    from kg2tool.train.sft import KgSFTConfig

    def setup_for(data, *more):
        argv = ["--model_name_or_path", "unused", "--dataset_name", str(data), "--output_dir", str(tmp_path / "o"),
                "--use_cpu", "true", "--bf16", "false", *more]  # fmt: skip
        return ft.parse_stage(KgSFTConfig, argv, "test")

    plain, _, full = ftr.load_rows(setup_for(data_dir), ["messages", "tools"])
    mixed, _, _ = ftr.load_rows(setup_for(data_dir, "--random_name_rows", "25"), ["messages", "tools"])
    assert len(mixed) == len(plain) + 25 and mixed.features == plain.features
    # the rows beyond the plain ones, conversation by conversation (a renamed copy of a row whose opening names
    # nobody in full can ask it word for word)
    left = Counter(json.dumps(r["messages"], sort_keys=True) for r in plain)
    added = []
    for r in mixed:
        q = json.dumps(r["messages"], sort_keys=True)
        if left[q]:
            left[q] -= 1
        else:
            added.append(r)
    assert len(added) == 25
    kg = load_graph([small_graph_path])
    names = set(argument_strings(added))
    assert names and not names & set(kg.labels)
    # without the recorded graph, the option says what it needs
    bare = tmp_path / "bare"
    shutil.copytree(data_dir, bare)
    (bare / "validation_report.json").unlink()
    with pytest.raises(InputError, match="--random_name_graph"):
        ftr.load_rows(setup_for(bare, "--random_name_rows", "5"), ["messages", "tools"])
    again, _, _ = ftr.load_rows(setup_for(bare, "--random_name_rows", "5", "--random_name_graph", str(small_graph_path)),
                               ["messages", "tools"])
    assert len(again) == len(plain) + 5


def test_first_turn_rows_add_conversations_cut_after_their_first_assistant_message(data_dir, tmp_path):
    """`--first_turn_rows N` adds N training conversations (seeded draw) that end at their first assistant message."""
    import json

    from kg2tool.common.errors import UsageError
    from kg2tool.train import finetune as ft
    from kg2tool.train import finetune_rows as ftr
    from kg2tool.train.sft import KgSFTConfig

    def rows_for(*more):
        argv = ["--model_name_or_path", "unused", "--dataset_name", str(data_dir), "--output_dir", str(tmp_path / "o"),
                "--use_cpu", "true", "--bf16", "false", *more]  # fmt: skip
        return ftr.load_rows(ft.parse_stage(KgSFTConfig, argv, "test"), ["messages", "tools"])[0]

    plain = rows_for()
    n = len(plain) + 7  # more than the pool: every row once, then a second pass
    mixed = rows_for("--first_turn_rows", str(n))
    assert len(mixed) == len(plain) + n and mixed.features == plain.features
    with_tools = {json.dumps(r["messages"][0]) for r in plain if any(m["role"] == "tool" for m in r["messages"])}
    whole = {json.dumps(r["messages"][0]) for r in plain}

    def is_first_turn(r):
        roles = [m["role"] for m in r["messages"]]
        return roles[-1] == "assistant" and roles.count("assistant") == 1 and "tool" not in roles

    assert all(json.dumps(r["messages"][0]) in whole for r in mixed)
    firsts = [r for r in mixed if is_first_turn(r)]
    assert len(firsts) >= n
    # an error-recovery row's first call is wrong on purpose (weight 0): cut there it has nothing to train on (TRL
    # refuses such an example), so those rows are not drawn
    untrained = [r for r in plain if next(m for m in r["messages"] if m["role"] == "assistant").get("weight") == 0]
    assert untrained and not any(r["messages"][-1].get("weight") == 0 for r in firsts)
    assert any(json.dumps(r["messages"][0]) in with_tools for r in firsts)  # multi-step rows cut after their call
    assert [r["messages"] for r in rows_for("--first_turn_rows", "5")] == [
        r["messages"] for r in rows_for("--first_turn_rows", "5")]  # seeded
    # --first_turn_no_tools: that share of the copies that answer with a call lose their tool listing
    assert all(r["tools"] for r in mixed)
    bare = rows_for("--first_turn_rows", "40", "--first_turn_no_tools", "1")
    calls = [r for r in bare if is_first_turn(r) and r["messages"][-1].get("tool_calls")]
    listless = [r for r in bare if not r["tools"]]
    assert listless and all(is_first_turn(r) and r["messages"][-1].get("tool_calls") for r in listless)
    assert len(listless) >= len(calls) - len([r for r in plain if is_first_turn(r)])
    with pytest.raises(UsageError, match="first_turn_no_tools"):
        rows_for("--first_turn_rows", "4", "--first_turn_no_tools", "1.5")


def test_later_turn_rows_add_multi_step_conversations_cut_after_a_later_assistant_message(data_dir, tmp_path):
    """`--later_turn_rows N` adds N copies of multi-step training conversations, each ending at an assistant
    message that is not its first, with the original conversation's messages up to there."""
    import json

    from kg2tool.common.errors import UsageError
    from kg2tool.train import finetune as ft
    from kg2tool.train import finetune_rows as ftr
    from kg2tool.train.sft import KgSFTConfig

    def rows_for(*more):
        argv = ["--model_name_or_path", "unused", "--dataset_name", str(data_dir), "--output_dir", str(tmp_path / "o"),
                "--use_cpu", "true", "--bf16", "false", *more]  # fmt: skip
        return ftr.load_rows(ft.parse_stage(KgSFTConfig, argv, "test"), ["messages", "tools"])[0]

    plain = rows_for()
    originals = [json.dumps(r["messages"]) for r in plain]

    def prefix_of(r):  # the original conversations this row is a strict prefix of
        text = json.dumps(r["messages"])[:-1]
        return [o for o in originals if o.startswith(text + ",")]

    multi = [r for r in plain if sum(bool(m.get("tool_calls")) for m in r["messages"]) >= 2]
    assert multi
    n = len(multi) + 3
    mixed = rows_for("--later_turn_rows", str(n))
    assert len(mixed) == len(plain) + n and mixed.features == plain.features
    copies = [r for r in mixed if json.dumps(r["messages"]) not in originals]
    assert len(copies) >= n - len(multi)  # a cut at the last message equals its original
    for r in copies:
        assert prefix_of(r) and r["messages"][-1]["role"] == "assistant"
        assert sum(m["role"] == "assistant" for m in r["messages"]) >= 2
    assert [r["messages"] for r in rows_for("--later_turn_rows", "6")] == [
        r["messages"] for r in rows_for("--later_turn_rows", "6")]  # seeded
    with pytest.raises(UsageError, match="later_turn_rows"):
        rows_for("--later_turn_rows", "-1")


def test_copy_pool_names_draws_the_copy_segments_from_the_graphs_entity_names(data_dir, tmp_path):
    from kg2tool.common.errors import UsageError
    from kg2tool.graph.build import load_graph
    from kg2tool.hub.dataset import recorded_graph_files
    from kg2tool.train import finetune as ft
    from kg2tool.train import finetune_rows as ftr
    from kg2tool.train.sft import KgSFTConfig

    def setup(*more):
        argv = ["--model_name_or_path", "unused", "--dataset_name", str(data_dir), "--output_dir", str(tmp_path / "o"),
                "--use_cpu", "true", "--bf16", "false", *more]  # fmt: skip
        return ft.parse_stage(KgSFTConfig, argv, "test")

    names = ftr.graph_names(setup("--copy_pool", "names"))
    assert names == list(load_graph(recorded_graph_files(data_dir)).entity_names()) and len(names) > 10
    with pytest.raises(UsageError, match="copy_pool"):
        setup("--copy_pool", "everything")


def test_dpo_rejection_types_filter_and_balance_the_pairs(data_dir, tmp_path):
    """`--rejection_types` keeps only those pairs; `--balance_rejection_types` cuts every type to the rarest's count."""
    from collections import Counter

    import datasets

    from kg2tool.common.errors import UsageError
    from kg2tool.train import finetune as ft
    from kg2tool.train import finetune_rows as ftr
    from kg2tool.train.dpo import KgDPOConfig

    def rows_for(*more):
        argv = ["--model_name_or_path", "unused", "--dataset_name", str(data_dir), "--dataset_config", "dpo",
                "--output_dir", str(tmp_path / "o"), "--use_cpu", "true", "--bf16", "false", *more]  # fmt: skip
        return ftr.load_rows(ft.parse_stage(KgDPOConfig, argv, "test"), ["prompt", "chosen", "rejected", "tools"])

    source = datasets.load_dataset(str(data_dir), "dpo")["train"]
    by_prompt = {}
    for r in source:
        by_prompt.setdefault((json.dumps(r["prompt"]), json.dumps(r["rejected"])), r["rejection_type"])
    counts = Counter(source["rejection_type"])
    assert len(counts) >= 3, counts

    def kinds(rows):
        return Counter(by_prompt[(json.dumps(r["prompt"]), json.dumps(r["rejected"]))] for r in rows)

    plain, evaluation, _ = rows_for()
    assert len(plain) == len(source) and "rejection_type" not in plain.column_names
    two = sorted(counts)[:2]
    only, evaluation, _ = rows_for("--rejection_types", *two)
    assert kinds(only) == {k: counts[k] for k in two} and "rejection_type" not in only.column_names
    assert evaluation is None or "rejection_type" not in evaluation.column_names
    balanced, _, _ = rows_for("--balance_rejection_types", "true")
    assert kinds(balanced) == {k: min(counts.values()) for k in counts}
    assert [r["prompt"] for r in balanced] == [r["prompt"] for r in rows_for("--balance_rejection_types", "true")[0]]
    with pytest.raises(UsageError, match="no_such_type"):
        rows_for("--rejection_types", "no_such_type")


def test_a_missing_local_model_fails_at_once_naming_it_and_its_maker(tmp_path):
    """A local model path that does not exist is an input error at once (not a minute of Hub retries), naming the
    path and the command that writes it; a Hub id is left to the Hub, or offline to the Hugging Face cache."""
    import os
    import time

    from kg2tool.common.errors import InputError
    from kg2tool.train.finetune_model import check_model_path, looks_local

    missing = tmp_path / "runs" / "pretrain-tiny"
    started = time.time()
    res = cli("sft", "--model_name_or_path", str(missing), "--dataset_name", str(tmp_path / "data"),
              "--output_dir", str(tmp_path / "sft"), "--max_steps", "5", "--use_cpu", "true")  # fmt: skip
    seconds = time.time() - started
    assert res.returncode == 3, res.stderr[-2000:]
    assert f"model not found: {missing}" in res.stderr
    assert f"make it with: kg2tool pretrain --config pretrain/tiny.yaml --output_dir {missing}" in res.stderr
    assert "huggingface.co" not in res.stderr and seconds < 45, seconds  # it took ~57 s of Hub retries before
    res = cli("dpo", "--model_name_or_path", "runs/no-such-sft", "--dataset_name", str(tmp_path / "data"),
              "--output_dir", str(tmp_path / "dpo"), "--use_cpu", "true")  # fmt: skip
    assert res.returncode == 3 and "runs/no-such-sft" in res.stderr and "kg2tool sft --config" in res.stderr

    for path in ("runs/x", "./x", "/abs/x", "a/b/c", str(tmp_path / "x" / "y")):
        assert looks_local(path), path
    for path in ("Qwen/Qwen2.5-0.5B-Instruct", "gpt2"):
        assert not looks_local(path), path
    check_model_path("Qwen/Qwen2.5-0.5B-Instruct")  # a Hub id passes through (transformers fetches it)
    check_model_path(str(tmp_path))  # an existing folder passes
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:  # offline, a Hub id must be in the Hugging Face cache
        with pytest.raises(InputError, match="HF_HUB_OFFLINE"):
            check_model_path("kg2tool-test/no-such-model-anywhere")
    finally:
        del os.environ["HF_HUB_OFFLINE"]


def test_a_short_run_prepares_only_its_share_of_the_training_mix(data_dir, tmp_path):
    """With the rows a `--max_steps` run can draw as `limit`, every part of the mix (dataset rows, random-name and
    first-turn rows) is cut by the same share: a few rows are generated, not thousands, in the same proportions."""
    from kg2tool.train import finetune as ft
    from kg2tool.train import finetune_rows as ftr
    from kg2tool.train.sft import KgSFTConfig

    argv = ["--model_name_or_path", "unused", "--dataset_name", str(data_dir), "--output_dir", str(tmp_path / "o"),
            "--use_cpu", "true", "--bf16", "false", "--random_name_rows", "40", "--first_turn_rows", "80"]  # fmt: skip
    setup = ft.parse_stage(KgSFTConfig, argv, "test")
    full, _, _ = ftr.load_rows(setup, ["messages", "tools"])
    base = len(full) - 40 - 80
    short, _, _ = ftr.load_rows(setup, ["messages", "tools"], limit=12)
    share = 12 / len(full)
    expected = sum(math.ceil(n * share) for n in (base, 40, 80))
    assert len(short) == expected and 12 <= len(short) < 12 + 3
    assert short.features == full.features
    again, _, _ = ftr.load_rows(setup, ["messages", "tools"], limit=12)
    assert again["messages"] == short["messages"]  # seeded
    everything, _, _ = ftr.load_rows(setup, ["messages", "tools"], limit=len(full))
    assert everything["messages"] == full["messages"]  # a run that can use every row prepares them all, as before


def test_a_short_run_keeps_only_the_rows_it_can_draw(capsys):
    """`--max_steps 5` with 16 rows a step draws at most 80 rows: the first 80 of the mixed order are kept (TRL
    tokenizes every training row before the first step); a run that can use them all keeps them all."""
    from types import SimpleNamespace

    import datasets

    from kg2tool.train.finetune_run import trim_to_steps

    rows = datasets.Dataset.from_dict({"i": list(range(1000))})
    args = SimpleNamespace(max_steps=5, per_device_train_batch_size=4, gradient_accumulation_steps=4, world_size=1)
    assert trim_to_steps(rows, args, "sft")["i"] == list(range(80))
    assert "keeping 80 of 1,000" in capsys.readouterr().out
    assert len(trim_to_steps(rows, SimpleNamespace(**{**vars(args), "max_steps": 100}), "sft")) == 1000
    assert len(trim_to_steps(rows, SimpleNamespace(**{**vars(args), "max_steps": -1}), "sft")) == 1000
    assert len(trim_to_steps(rows, SimpleNamespace(**{**vars(args), "packing": True}), "sft")) == 1000


def test_argument_pointing_and_typed_names_train_through_kg2tool_sft(pretrained, data_dir, tmp_path):
    """The pointing loss and the argument weight enter the optimized loss of a real SFT run, logged; typed names
    reach the training rows; the options refuse what they cannot work with."""
    args = sft_args(pretrained, data_dir, tmp_path / "out", max_steps=12, sample="false", first_turn_rows=40)
    res = cli("sft", *kv(args), "--pointer_loss_weight", "0.5", "--argument_loss_weight", "2", "--typed_names", "1",
              "--pointer_warmup_steps", "4")  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    logged = [h for h in json.loads((tmp_path / "out" / "trainer_state.json").read_text())["log_history"] if "lm_loss" in h]
    assert logged and all(h["pointer_queries"] > 0 and h["pointer_loss"] > 0 for h in logged), logged
    assert all(0 < h["ce_loss"] < h["lm_loss"] for h in logged)  # the plain cross-entropy, logged beside
    assert all(h["loss"] > h["lm_loss"] for h in logged)  # (the MoE losses add a little too)
    res = cli("sft", *kv({**args, "output_dir": str(tmp_path / "x")}), "--pointer_loss_weight", "1",
              "--fused_lm_head", "true")  # fmt: skip
    assert res.returncode == 2 and "--fused_lm_head false" in res.stderr
    res = cli("sft", *kv({**args, "output_dir": str(tmp_path / "y")}), "--pointer_loss_weight", "1",
              "--pointer_head", "9")  # fmt: skip
    assert res.returncode == 2 and "--pointer_head 9" in res.stderr


def test_default_lora_targets_are_the_linear_layers_named_with_their_parent(tmp_path):
    """The default targets never reach the routed experts (PEFT 0.22 reads a bare `down_proj` of qwen2_moe as their
    fused parameter too); parameter targets with dropout are refused with the flags named."""
    from transformers import AutoModelForCausalLM, Qwen2MoeConfig

    from kg2tool.common.errors import UsageError
    from kg2tool.train import finetune as ft
    from kg2tool.train.finetune_model import peft_config
    from kg2tool.train.sft import KgSFTConfig

    model = AutoModelForCausalLM.from_config(Qwen2MoeConfig(
        vocab_size=64, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1,
        num_experts=4, num_experts_per_tok=2, moe_intermediate_size=8, shared_expert_intermediate_size=16))  # fmt: skip

    def setup(*more):
        argv = ["--model_name_or_path", "unused", "--dataset_name", "unused", "--output_dir", str(tmp_path / "o"),
                "--use_cpu", "true", "--bf16", "false", "--use_peft", "true", *more]  # fmt: skip
        return ft.parse_stage(KgSFTConfig, argv, "test")

    config = peft_config(setup(), model)
    assert sorted(config.target_modules) == sorted(
        ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "shared_expert.gate_proj",
         "shared_expert.up_proj", "shared_expert.down_proj"])  # fmt: skip
    experts = ["--lora_target_parameters", "mlp.experts.gate_up_proj", "mlp.experts.down_proj"]
    with pytest.raises(UsageError, match="--lora_dropout 0 .*not 0.1"):
        peft_config(setup(*experts, "--lora_dropout", "0.1"), model)
    assert peft_config(setup(*experts, "--lora_dropout", "0"), model).target_parameters
