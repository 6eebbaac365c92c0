"""The pretrain stage: presets and parameter counts, chat template round-trips, tokenizer, router losses, spike
guard, and short end-to-end runs (losses logged separately, reload + generate, exact resume, CLI).

Everything runs on CPU with models of a few hundred thousand parameters; the whole file takes well under a
minute on 2 cores.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from kg2tool.llm.chat_format import normalize_row, parse_tool_calls  # noqa: E402
from kg2tool.train.moe import PRESETS, count_model_params, get_preset  # noqa: E402

pytestmark = pytest.mark.train

# ------------------------------------------------------------------------------------------------ fixtures
PEOPLE = ["Giorgio Gaber", "Benoit Mandelbrot", "Ada Lovelace", "Niels Bohr", "Marie Curie", "Alan Turing"]
CITIES = ["Milan", "Warsaw", "London", "Copenhagen", "Paris", "New Haven"]
COUNTRIES = ["Italy", "Poland", "United Kingdom", "Denmark", "France", "United States of America"]


def write_graph(path: Path) -> Path:
    """A small Turtle graph: people born in cities, cities in countries."""
    lines = [
        "@prefix ex: <http://example.org/> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        'ex:born rdfs:label "place of birth"@en .',
        'ex:country rdfs:label "country"@en .',
        'ex:friend rdfs:label "friend"@en .',
    ]
    for i, name in enumerate(PEOPLE):
        lines.append(f'ex:p{i} rdfs:label "{name}"@en ; ex:born ex:c{i} ; ex:friend ex:p{(i + 1) % len(PEOPLE)} .')
    for i, (city, country) in enumerate(zip(CITIES, COUNTRIES, strict=True)):
        lines.append(f'ex:c{i} rdfs:label "{city}"@en ; ex:country ex:k{i} .')
        lines.append(f'ex:k{i} rdfs:label "{country}"@en .')
    path.write_text("\n".join(lines) + "\n")
    return path


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "place_of_birth",
            "description": "Where a person was born.",
            "parameters": {"type": "object", "properties": {"entity": {"type": "string"}}, "required": ["entity"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "country",
            "description": "Country of a place.",
            "parameters": {"type": "object", "properties": {"entity": {"type": "string"}}, "required": ["entity"]},
        },
    },
]


def call(i, name, args, as_string=False):
    return {
        "id": f"call_{i}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args) if as_string else args},
    }


def tool(i, name, value):
    return {"role": "tool", "tool_call_id": f"call_{i}", "name": name, "content": json.dumps(value)}


# Rows in the synth data contract: simple, parallel (two calls in one turn), chain, with/without system,
# arguments and tools as dicts and as JSON strings.
ROWS = [
    {
        "messages": [
            {"role": "user", "content": "Where was Giorgio Gaber born?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [call(1, "place_of_birth", {"entity": "Giorgio Gaber"})],
            },
            tool(1, "place_of_birth", ["Milan"]),
            {"role": "assistant", "content": "Giorgio Gaber was born in Milan."},
        ],
        "tools": TOOLS,
    },
    {
        "messages": [
            {"role": "system", "content": "Answer with the tools."},
            {"role": "user", "content": "Where were Ada Lovelace and Niels Bohr born?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    call(1, "place_of_birth", {"entity": "Ada Lovelace"}),
                    call(2, "place_of_birth", {"entity": "Niels Bohr"}, as_string=True),
                ],
            },
            tool(1, "place_of_birth", ["London"]),
            tool(2, "place_of_birth", ["Copenhagen"]),
            {"role": "assistant", "content": "London and Copenhagen."},
        ],
        "tools": json.dumps(TOOLS),
    },
    {
        "messages": [
            {"role": "user", "content": "In which country was Marie Curie born?"},
            {"role": "assistant", "content": "", "tool_calls": [call(1, "place_of_birth", {"entity": "Marie Curie"})]},
            tool(1, "place_of_birth", ["Warsaw"]),
            {"role": "assistant", "content": "", "tool_calls": [call(2, "country", {"entity": "Warsaw"})]},
            tool(2, "country", ["Poland"]),
            {"role": "assistant", "content": "Poland."},
        ],
        "tools": TOOLS,
    },
]


@pytest.fixture(scope="module")
def tokenizer():
    from tokenizers import Tokenizer, models

    from kg2tool.train.corpus import render_conversations
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer, wrap_tokenizer

    renderer = wrap_tokenizer(Tokenizer(models.BPE()))
    texts = render_conversations(ROWS, renderer) * 5
    texts += [f"The place of birth of {p} is {c}. {c} is in {k}." for p, c, k in zip(PEOPLE, CITIES, COUNTRIES)] * 5
    return train_tokenizer(texts, names=PEOPLE + CITIES + COUNTRIES, config=TokenizerConfig(vocab_size=600))


# ------------------------------------------------------------------------------------------------ presets
def test_param_counts_match_instantiated_model():
    from transformers import AutoModelForCausalLM

    preset = get_preset("tiny").with_overrides(vocab_size=1000)
    model = AutoModelForCausalLM.from_config(preset.to_config())
    counts = preset.param_counts()
    assert count_model_params(model) == {"total": counts["total"], "active": counts["active"]}
    dense = AutoModelForCausalLM.from_config(preset.dense_counterpart_config())
    # the dense counterpart has the active parameters, minus the routers and the shared expert's gate
    routers = preset.num_hidden_layers * (preset.num_experts + 1) * preset.hidden_size
    assert count_model_params(dense)["total"] == counts["active"] - routers


def test_presets_have_routed_and_shared_experts():
    from transformers import AutoModelForCausalLM

    dense = AutoModelForCausalLM.from_config(PRESETS["tiny-dense"].to_config())
    assert sum(p.numel() for p in dense.parameters()) == PRESETS["tiny-dense"].param_counts()["total"]
    for name, preset in PRESETS.items():
        cfg = preset.to_config()
        assert cfg.model_type == "qwen2_moe", name
        assert cfg.num_experts > cfg.num_experts_per_tok > 1, name
        assert cfg.shared_expert_intermediate_size == 2 * cfg.moe_intermediate_size, name
        assert cfg.norm_topk_prob and cfg.output_router_logits is False and cfg.use_cache is True
        counts = preset.param_counts()
        if preset.dense:  # every layer a dense MLP as wide as one token's experts: all parameters active
            assert cfg.mlp_only_layers == list(range(cfg.num_hidden_layers)), name
            # the same as tiny's active parameters, less the routers and the shared expert's gate
            assert counts["active"] == counts["total"] == PRESETS["tiny"].param_counts()["active"] - 4 * (16 + 1) * 128
            continue
        assert counts["active"] < counts["total"]
    # the ling-lite shape reproduces the report's 16.8B total / 2.75B active within 1%
    ling = PRESETS["ling-lite"].param_counts()
    assert abs(ling["total"] / 16.8e9 - 1) < 0.01 and abs(ling["active"] / 2.75e9 - 1) < 0.01


def test_preset_overrides_reject_unknown_fields():
    with pytest.raises(ValueError, match="unknown model field"):
        get_preset("tiny").with_overrides(num_layers=3)
    with pytest.raises(ValueError, match="unknown model preset"):
        get_preset("huge")


# ------------------------------------------------------------------------------------------------ chat format
def expected_assistant_text(message) -> str:
    """What the assistant produces for one turn in the Hermes format (the part the loss mask must cover)."""
    parts = [message["content"]] if message.get("content") else []
    for c in message.get("tool_calls") or []:
        fn = c["function"]
        args = fn["arguments"] if isinstance(fn["arguments"], str) else json.dumps(fn["arguments"], ensure_ascii=False)
        parts.append(f'<tool_call>\n{{"name": "{fn["name"]}", "arguments": {args}}}\n</tool_call>')
    return "\n".join(parts) + "<|im_end|>\n"


@pytest.mark.parametrize("row", ROWS, ids=["simple", "parallel", "chain"])
def test_chat_template_round_trip(tokenizer, row):
    messages, tools = normalize_row(row["messages"], row["tools"])
    out = tokenizer.apply_chat_template(
        messages, tools=tools, tokenize=True, return_dict=True, return_assistant_tokens_mask=True
    )
    ids, mask = out["input_ids"], out["assistant_masks"]
    text = tokenizer.decode(ids)
    # every tool schema, argument value and tool result is rendered
    for t in tools:
        assert json.dumps(t) in text
    for m in messages:
        if m["role"] in ("user", "tool"):
            assert m["content"] in text
    # the assistant mask covers exactly the assistant turns
    masked = tokenizer.decode([i for i, k in zip(ids, mask, strict=True) if k])
    expected = "".join(expected_assistant_text(m) for m in row["messages"] if m["role"] == "assistant")
    assert masked == expected
    # each assistant turn parses back into its calls
    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls"):
            calls, errors = parse_tool_calls(expected_assistant_text(m))
            assert errors == []
            assert calls == [
                {"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in m["tool_calls"]
            ]
    # the generation prompt is the prefix the assistant turn is trained after
    prompt = tokenizer.apply_chat_template(messages[:-1], tools=tools, tokenize=False, add_generation_prompt=True)
    full = tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)
    assert prompt.endswith("<|im_start|>assistant\n") and full.startswith(prompt)


def test_chat_template_is_trl_training_compatible(tokenizer):
    from trl.chat_template_utils import is_chat_template_prefix_preserving, is_chat_template_stop_token_trained

    assert is_chat_template_prefix_preserving(tokenizer)
    assert is_chat_template_stop_token_trained(tokenizer)


def test_parse_tool_calls_reports_malformed_blocks():
    calls, errors = parse_tool_calls('<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>')
    assert calls == [{"name": "f", "arguments": {"x": 1}}] and errors == []
    assert parse_tool_calls("Milan.") == ([], [])
    calls, errors = parse_tool_calls("<tool_call>\n{not json}\n</tool_call><tool_call>[1]</tool_call><tool_call>{")
    assert calls == [] and len(errors) == 3


def test_tokenizer_names_tokenize_alike_in_text_and_json(tokenizer, tmp_path):
    from transformers import AutoTokenizer

    from kg2tool.train.tokenizer import name_consistency

    assert name_consistency(tokenizer, PEOPLE + CITIES) == 1.0
    tokenizer.save_pretrained(tmp_path)
    reloaded = AutoTokenizer.from_pretrained(tmp_path)
    messages, tools = normalize_row(ROWS[1]["messages"], ROWS[1]["tools"])
    assert reloaded.apply_chat_template(messages, tools=tools, tokenize=False) == tokenizer.apply_chat_template(
        messages, tools=tools, tokenize=False
    )
    assert reloaded.eos_token == "<|im_end|>" and reloaded.pad_token == "<|endoftext|>"
    assert len(reloaded.encode("<tool_call>", add_special_tokens=False)) == 1


# ------------------------------------------------------------------------------------------------ router losses
def test_load_balancing_loss_matches_transformers_and_z_loss_formula():
    from transformers.models.qwen2_moe.modeling_qwen2_moe import load_balancing_loss_func

    from kg2tool.train.router import load_balancing_loss, router_z_loss

    g = torch.Generator().manual_seed(0)
    logits = torch.randn(64, 8, generator=g)
    sel = logits.topk(2, dim=-1).indices
    ours = load_balancing_loss([logits], [sel], num_experts=8)
    assert torch.allclose(ours, load_balancing_loss_func((logits,), 8, 2), atol=1e-6)
    # perfectly balanced routing gives top_k
    uniform = torch.zeros(8, 8)
    balanced_sel = torch.tensor([[i, (i + 1) % 8] for i in range(8)])
    assert torch.allclose(load_balancing_loss([uniform], [balanced_sel], 8), torch.tensor(2.0))
    # z-loss: mean of squared logsumexp; padding excluded by the mask
    z = router_z_loss([logits], mask=torch.ones(1, 64))
    assert torch.allclose(z, torch.logsumexp(logits, -1).pow(2).mean())
    mask = torch.tensor([[1.0] * 32 + [0.0] * 32])
    assert torch.allclose(router_z_loss([logits], mask), torch.logsumexp(logits[:32], -1).pow(2).mean())


def test_router_capture_sees_every_moe_layer_and_matches_model_aux():
    from transformers import AutoModelForCausalLM

    from kg2tool.train.router import ExpertLoadTracker, RouterCapture, load_balancing_loss

    preset = get_preset("tiny").with_overrides(vocab_size=300, hidden_size=32, num_hidden_layers=1)
    model = AutoModelForCausalLM.from_config(preset.to_config())
    cap = RouterCapture(model, top_k=preset.num_experts_per_tok)
    assert len(cap) == 1
    x = torch.randint(0, 300, (2, 16))
    with cap.recording():
        out = model(input_ids=x, output_router_logits=True)
    assert len(cap.logits) == 1 and cap.logits[0].shape == (32, preset.num_experts)
    ours = load_balancing_loss(cap.logits, cap.selected, preset.num_experts)
    assert torch.allclose(ours, out.aux_loss, atol=1e-5)  # one layer: per-layer mean == pooled
    tracker = ExpertLoadTracker(preset.num_experts)
    tracker.update(cap)
    stats = tracker.summary()
    assert stats["moe/L0_max_load"] >= 1.0 and 0 < stats["moe/L0_entropy"] <= 1.0
    model(input_ids=x)  # outside recording(): nothing captured
    assert len(cap.logits) == 1
    cap.remove()


# ------------------------------------------------------------------------------------------------ spike guard
def test_spike_guard_skips_spikes_and_accepts_lasting_shifts():
    from kg2tool.train.moe_trainer import SpikeGuard

    guard = SpikeGuard(factor=1.5, warmup_steps=3, beta=0.5, max_consecutive=2)
    assert [guard.should_skip(v) for v in (4.0, 3.8, 3.6, 3.5)] == [False] * 4
    assert guard.should_skip(9.0) is True  # spike
    assert guard.should_skip(3.4) is False  # back to normal
    assert guard.should_skip(float("nan")) is True
    decisions = [guard.should_skip(20.0) for _ in range(4)]  # a lasting shift is accepted after 2 skips
    assert decisions == [True, True, False, False]
    # ordinary variation of a mixed corpus (fact batches vs chat batches) is not a spike
    mixed = SpikeGuard(factor=1.5, warmup_steps=20, beta=0.9)
    rng = random.Random(0)
    assert not any(mixed.should_skip(rng.choice((1.0, 1.2, 2.2))) for _ in range(200))
    restored = SpikeGuard.from_state(guard.state())
    assert restored.state() == guard.state()


def test_dropping_gradients_leaves_adamw_state_untouched():
    layer = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(layer.parameters(), lr=0.1, weight_decay=0.1)
    layer(torch.randn(2, 4)).sum().backward()
    opt.step()
    before = [p.detach().clone() for p in layer.parameters()]
    state = {k: v.clone() for k, v in opt.state[layer.weight].items()}
    layer(torch.randn(2, 4)).sum().backward()
    for p in layer.parameters():  # what the guard does on a spike
        p.grad = None
    opt.step()
    assert all(torch.equal(a, b) for a, b in zip(before, layer.parameters(), strict=True))
    assert all(torch.equal(state[k], opt.state[layer.weight][k]) for k in state)


# ------------------------------------------------------------------------------------------------ end to end
def tiny_args(tmp_path: Path, out: str, **extra) -> list[str]:
    graph = write_graph(tmp_path / "g.ttl")
    args = {
        "graph": str(graph),
        "output_dir": str(tmp_path / out),
        "model_preset": "tiny",
        "model_overrides": json.dumps(
            {
                "hidden_size": 32,
                "num_hidden_layers": 2,
                "num_attention_heads": 2,
                "num_key_value_heads": 1,
                "num_experts": 4,
                "num_experts_per_tok": 2,
                "moe_intermediate_size": 16,
                "shared_expert_intermediate_size": 32,
            }
        ),
        "vocab_size": 400,
        "max_length": 64,
        "fact_passes": 3,
        "synthetic_fraction": 0.5,
        "max_steps": 8,
        "per_device_train_batch_size": 4,
        "learning_rate": 0.003,
        "logging_steps": 2,
        "save_steps": 4,
        "use_cpu": "true",
        "report_to": "none",
        "disable_tqdm": "true",
        "spike_warmup_steps": 2,
        "sample_prompt": "",
        "seed": 0,
    }
    args.update(extra)
    return [x for k, v in args.items() for x in (f"--{k}", str(v))]


def run(argv):
    from kg2tool.train.args import parse_config
    from kg2tool.train.pretrain import PretrainConfig, run_pretrain

    return run_pretrain(parse_config(PretrainConfig, argv, prog="test"))


def load_weights(path: Path) -> dict:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pretrain")
    report = run(tiny_args(tmp, "full"))
    return tmp, report


def test_pretrain_logs_losses_and_reloads_for_generation(finished_run):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tmp, report = finished_run
    out = tmp / "full"
    state = json.loads((out / "checkpoint-8" / "trainer_state.json").read_text())
    logs = [h for h in state["log_history"] if "lm_loss" in h]
    assert len(logs) == 4
    for h in logs:
        assert {"lm_loss", "aux_loss", "z_loss", "moe/L0_max_load", "moe/L1_entropy", "spike_skipped"} <= set(h)
        assert math.isfinite(h["lm_loss"]) and h["aux_loss"] > 0 and h["z_loss"] > 0
    assert report["last_lm_loss"] < report["first_lm_loss"]
    # plain from_pretrained; batched generation works (it fails with output_router_logits=True in the config)
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["output_router_logits"] is False and cfg["use_cache"] is True
    assert cfg["num_experts"] == 4 and cfg["shared_expert_intermediate_size"] == 32
    tok = AutoTokenizer.from_pretrained(out)
    # loading next to a qwen2_moe config keeps the trained pre-tokenizer (no swap to Qwen2's)
    text = 'Where was Ada Lovelace born? {"entity": "Ada Lovelace"}'
    assert tok.encode(text) == AutoTokenizer.from_pretrained(out / "prepared" / "tokenizer").encode(text)
    model = AutoModelForCausalLM.from_pretrained(out)
    tok.padding_side = "left"
    batch = tok(["The country of", "Where was Ada Lovelace born?"], return_tensors="pt", padding=True)
    gen = model.generate(**batch, max_new_tokens=5, do_sample=False)
    assert gen.shape[0] == 2 and batch["input_ids"].shape[1] < gen.shape[1] <= batch["input_ids"].shape[1] + 5
    assert (out / "chat_template.jinja").exists() and (out / "pretrain_report.json").exists()


def test_interrupted_run_resumes_exactly(finished_run, tmp_path):
    from transformers import TrainerCallback

    from kg2tool.train.args import parse_config
    from kg2tool.train.pretrain import PretrainConfig, run_pretrain

    tmp, _ = finished_run

    class Interrupt(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            if state.global_step == 6:  # after checkpoint-4, before checkpoint-8
                control.should_training_stop = True

    argv = tiny_args(tmp_path, "interrupted")
    run_pretrain(parse_config(PretrainConfig, argv, prog="test"), extra_callbacks=[Interrupt()])
    assert (tmp_path / "interrupted" / "checkpoint-4").exists()
    assert not (tmp_path / "interrupted" / "checkpoint-8").exists()
    report = run(argv + ["--resume", "true"])
    assert report["resumed_from"].endswith("checkpoint-4") and report["global_step"] == 8
    full = load_weights(tmp / "full")
    resumed = load_weights(tmp_path / "interrupted")
    assert full.keys() == resumed.keys()
    assert all(torch.equal(full[k], resumed[k]) for k in full)


def test_cli_yaml_with_flag_overrides(tmp_path, capsys):
    from kg2tool.cli import main

    argv = tiny_args(tmp_path, "cli")
    pairs = dict(zip(argv[::2], argv[1::2], strict=True))
    recipe = {k[2:]: v for k, v in pairs.items() if k not in ("--max_steps", "--output_dir")}
    recipe["max_steps"] = 1000
    recipe["output_dir"] = str(tmp_path / "from-yaml")
    (tmp_path / "r.yaml").write_text(json.dumps(recipe))  # JSON is valid YAML
    out = tmp_path / "from-flags"
    assert main(["pretrain", "--config", str(tmp_path / "r.yaml"), "--output_dir", str(out), "--max_steps", "2"]) == 0
    assert json.loads((out / "pretrain_report.json").read_text())["global_step"] == 2
    # an existing run is not overwritten silently; an unknown recipe field is a usage error
    assert main(["pretrain", "--config", str(tmp_path / "r.yaml"), "--output_dir", str(out), "--max_steps", "2"]) == 4
    # resuming a run that already reached max_steps has nothing to do
    assert main(["pretrain", "--config", str(tmp_path / "r.yaml"), "--output_dir", str(out), "--max_steps", "2",
                 "--resume", "true"]) == 6  # fmt: skip
    (tmp_path / "bad.yaml").write_text("max_step: 3\n")
    assert main(["pretrain", "--config", str(tmp_path / "bad.yaml")]) == 2
    assert "max_step" in capsys.readouterr().err


def test_short_run_bounds_the_copy_warmup_and_prints_real_losses(tmp_path, capsys):
    """`--max_steps 3` is a short try of the whole run: the 150-step copy warm-up takes 30 steps, and a run
    shorter than `logging_steps` still logs its last step, so the summary line shows numbers, not `None`."""
    from kg2tool.cli import main

    argv = tiny_args(tmp_path, "short", max_steps=3, logging_steps=50, save_steps=50, copy_warmup_steps=150,
                     copy_segment_length=8)  # fmt: skip
    assert main(["pretrain", *argv]) == 0
    printed = capsys.readouterr().out
    report = json.loads((tmp_path / "short" / "pretrain_report.json").read_text())
    assert [h["step"] for h in report["copy_warmup"]] == [25, 30]
    assert "copy warm-up: 30 steps (bounded by 10 x --max_steps 3)" in printed
    first, last = report["first_lm_loss"], report["last_lm_loss"]
    assert isinstance(first, float) and isinstance(last, float) and first == round(first, 3) and last == round(last, 3)
    assert f"LM loss {first:.3f} -> {last:.3f}" in printed and "None" not in printed  # 3 decimals, 5.910 too


def test_corpus_mixes_facts_and_random_name_conversations():
    from tokenizers import Tokenizer, models

    from kg2tool.train.corpus import CorpusConfig, CorpusStats, build_documents
    from kg2tool.train.tokenizer import wrap_tokenizer

    class KG:
        def iter_facts(self):
            return iter(zip(PEOPLE, ["place of birth"] * len(PEOPLE), CITIES, strict=True))

        def entity_names(self):
            return PEOPLE + CITIES

    stats = CorpusStats()
    docs = build_documents(KG(), wrap_tokenizer(Tokenizer(models.BPE())), CorpusConfig(fact_passes=2), (), (), stats)
    assert stats.documents["facts"] == 2 * len(PEOPLE)
    chats = [d for d in docs if "<tool_call>" in d]
    synthetic = stats.characters["synthetic_tool_calls"]
    other = sum(stats.characters.values()) - synthetic
    assert synthetic >= other > synthetic - max(map(len, chats))  # half, overshooting by under one conversation
    # every assistant turn of a random-name conversation parses (the system block's format example does not)
    turns = [t.split("<|im_end|>")[0] for t in random.Random(0).choice(chats).split("<|im_start|>assistant\n")[1:]]
    parsed = [parse_tool_calls(t) for t in turns]
    assert all(not errors for _, errors in parsed) and parsed[0][0]


# ------------------------------------------------------------------------------------------------ synth contract
@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory):
    """A real synth dataset folder from the bundled graph (the data contract of the SFT stage)."""
    from kg2tool.cli import main

    out = tmp_path_factory.mktemp("synth") / "wiki"
    root = Path(__file__).resolve().parent.parent
    assert main(["synth", "--graph", str(root / "examples" / "wiki.ttl"), "--out", str(out), "-n", "60"]) == 0
    return out


def test_every_synth_row_round_trips_through_the_template(tokenizer, synth_dir):
    import datasets

    rows = list(datasets.load_dataset(str(synth_dir), "sft", split="train"))
    assert rows
    for row in rows:
        messages, tools = normalize_row(row["messages"], row["tools"])
        out = tokenizer.apply_chat_template(
            messages, tools=tools, tokenize=True, return_dict=True, return_assistant_tokens_mask=True
        )
        masked = tokenizer.decode([i for i, k in zip(out["input_ids"], out["assistant_masks"], strict=True) if k])
        # a turn wrong on purpose (error recovery, `"weight": 0`) is rendered but left out of the loss
        trained = [m for m in messages if m["role"] == "assistant" and m.get("weight", 1) != 0]
        assert masked == "".join(expected_assistant_text(m) for m in trained)
        for m in messages:
            if m["role"] == "assistant" and m.get("tool_calls"):
                calls, errors = parse_tool_calls(expected_assistant_text(m))
                assert not errors
                assert calls == [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]}
                                 for c in m["tool_calls"]]  # fmt: skip
        prompt = tokenizer.apply_chat_template(messages[:2], tools=tools, tokenize=False, add_generation_prompt=True)
        assert prompt.endswith("<|im_start|>assistant\n")


def test_synth_dataset_conversations_enter_the_corpus(synth_dir, tmp_path):
    report = run(tiny_args(tmp_path, "with-dataset", max_steps=2, dataset_name=str(synth_dir)))
    assert report["data"]["documents"]["dataset"] > 0


def test_spike_guard_in_the_trainer_leaves_weights_untouched(tmp_path):
    # a guard that calls every step after the warm-up a spike: from then on no update may change the weights
    argv = tiny_args(tmp_path, "guarded", max_steps=5, save_steps=2, spike_warmup_steps=2)
    argv += ["--spike_factor", "1e-6", "--spike_sigma=-1e9", "--spike_max_consecutive", "100"]
    report = run(argv)
    assert report["spike_skipped"] == 3
    after_warmup = load_weights(tmp_path / "guarded" / "checkpoint-2")
    final = load_weights(tmp_path / "guarded")
    assert all(torch.equal(after_warmup[k], final[k]) for k in final)


@pytest.mark.slow
def test_tiny_recipe_on_the_bundled_graph(tmp_path):
    """The issue's acceptance run: `pretrain/tiny.yaml` on examples/wiki.ttl, under 10 minutes on 2 CPU cores."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from kg2tool.cli import main

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "tiny"
    argv = ["pretrain", "--config", str(root / "pretrain" / "tiny.yaml"), "--output_dir", str(out)]
    argv += ["--graph", str(root / "examples" / "wiki.ttl")]
    assert main(argv) == 0
    report = json.loads((out / "pretrain_report.json").read_text())
    assert report["total_seconds"] < 600
    assert report["last_lm_loss"] < report["first_lm_loss"] / 3
    model = AutoModelForCausalLM.from_pretrained(out)
    tok = AutoTokenizer.from_pretrained(out)
    assert model.config.num_experts > 1 and model.config.shared_expert_intermediate_size > 0
    ids = tok("The country of", return_tensors="pt")
    assert model.generate(**ids, max_new_tokens=4, do_sample=False).shape[1] > ids["input_ids"].shape[1]


# ------------------------------------------------------------------------------------------------ compact tool listing
@pytest.mark.parametrize("fmt", ["compact", "signatures"])
@pytest.mark.parametrize("row", ROWS, ids=["simple", "parallel", "chain"])
def test_compact_template_lists_each_tool_on_one_line_and_masks_like_the_full_one(tokenizer, row, fmt):
    from kg2tool.llm.chat_format import TEMPLATES

    COMPACT_CHAT_TEMPLATE = TEMPLATES[fmt]
    messages, tools = normalize_row(row["messages"], row["tools"])
    full = tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)
    compact = tokenizer.apply_chat_template(messages, tools=tools, tokenize=False, chat_template=COMPACT_CHAT_TEMPLATE)
    listing = compact.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0].split("\n")
    assert len(listing) == len(tools) and len(compact) < len(full)
    for line, tool in zip(listing, tools, strict=True):
        fn = tool["function"]
        props = fn["parameters"]["properties"]
        assert line.startswith(fn["name"] + "(") and all(f"{p}" in line for p in props)
        described = fn["description"].split(". ")[0].rstrip(".") in line
        assert described == (fmt == "compact")
        for name, spec in props.items():
            optional = "?" if name not in fn["parameters"].get("required", []) else ""
            assert f"{name}{optional}: {spec.get('type', 'any')}" in line
            for value in spec.get("enum", []):
                assert str(value) in line
    # everything after the system turn renders exactly as in the full template, assistant mask included
    assert compact.split("<|im_end|>\n", 1)[1] == full.split("<|im_end|>\n", 1)[1]
    out = tokenizer.apply_chat_template(messages, tools=tools, tokenize=True, return_dict=True,
                                        return_assistant_tokens_mask=True, chat_template=COMPACT_CHAT_TEMPLATE)
    masked = tokenizer.decode([i for i, k in zip(out["input_ids"], out["assistant_masks"], strict=True) if k])
    assert masked == "".join(expected_assistant_text(m) for m in row["messages"] if m["role"] == "assistant")


def test_compact_template_is_trl_training_compatible_and_chosen_by_tool_format():
    from tokenizers import Tokenizer, models
    from trl.chat_template_utils import is_chat_template_prefix_preserving, is_chat_template_stop_token_trained

    from kg2tool.llm.chat_format import CHAT_TEMPLATE, COMPACT_CHAT_TEMPLATE
    from kg2tool.train.tokenizer import wrap_tokenizer

    compact = wrap_tokenizer(Tokenizer(models.BPE()), "compact")
    assert compact.chat_template == COMPACT_CHAT_TEMPLATE
    assert wrap_tokenizer(Tokenizer(models.BPE())).chat_template == CHAT_TEMPLATE
    signatures = wrap_tokenizer(Tokenizer(models.BPE()), "signatures")
    assert is_chat_template_prefix_preserving(signatures) and is_chat_template_stop_token_trained(signatures)
    with pytest.raises(ValueError, match="tool_format"):
        wrap_tokenizer(Tokenizer(models.BPE()), "tiny")
    assert is_chat_template_prefix_preserving(compact)
    assert is_chat_template_stop_token_trained(compact)
