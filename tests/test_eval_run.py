"""`kg2tool eval --model M --data DIR` end to end on a real synth dataset of the bundled graph.

The reference models must score 100% (`gold`) and 0% except irrelevance (`no-call`) on
`kg2tool synth --graph examples/wiki.ttl -n 1500 --seed 0`; a perfect model behind an OpenAI-compatible endpoint
(a local server answering from the dataset's ground truth) scores 100% too; a tiny untrained transformers model
runs the whole pipeline on CPU and the reports are written.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLE
from test_eval_backends import ChatServer

from kg2tool.cli import main
from kg2tool.evaluation.execution import run_exec

AST = ["simple", "multiple", "parallel", "parallel_multiple", "irrelevance"]
EXEC = ["multi_step_exec", "multi_turn_exec", "exec_call_validity", "exec_within_gold_steps"]


@pytest.fixture(scope="module")
def wiki_data(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("eval") / "wiki"
    assert main(["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "1500", "--seed", "0"]) == 0
    return out


def run_eval(data: Path, out: Path, *extra: str) -> int:
    return main(["eval", "--data", str(data), "--graph", str(EXAMPLE), "--out", str(out), *extra])


def read(out: Path) -> tuple[dict, list[dict], dict]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return json.loads((out / "summary.json").read_text()), rows, json.loads((out / "details.json").read_text())


def test_gold_scores_100_everywhere(wiki_data, tmp_path, capsys):
    out = tmp_path / "gold"
    assert run_eval(wiki_data, out, "--model", "gold") == 0
    summary, rows, details = read(out)
    assert list(summary) == AST + EXEC
    assert all(score == 1.0 for score in summary.values()), summary
    ast_rows = [r for r in rows if r["kind"] == "ast"]
    exec_rows = [r for r in rows if r["kind"] == "exec"]
    bfcl_lines = sum(len(p.read_text().splitlines()) for p in (wiki_data / "bfcl").glob("BFCL_v4_*.json"))
    assert len(ast_rows) == bfcl_lines and len(exec_rows) > 50
    assert {r["category"] for r in exec_rows} == {"multi_step", "multi_turn"}
    assert all(r["steps"] == r["gold_steps"] and r["calls"] == r["gold_calls"] for r in exec_rows)
    assert "error_recovery" in details["exec"]["by_pattern"] and details["exec"]["overall"]["invalid_calls"] == 0
    report = (out / "report.md").read_text()
    assert "| multi_step_exec |" in report and "## Executable rows by pattern" in report
    assert (out / "summary.png").read_bytes().startswith(b"\x89PNG")
    assert "multi_step_exec" in capsys.readouterr().out


def test_no_call_scores_zero_except_irrelevance(wiki_data, tmp_path):
    out = tmp_path / "no-call"
    assert run_eval(wiki_data, out, "--model", "no-call", "--no-plot") == 0
    summary, rows, _ = read(out)
    assert summary == {name: float(name == "irrelevance") for name in AST + EXEC}
    assert not (out / "summary.png").exists()


@pytest.mark.parametrize("parser", ["json", "python"])
def test_gold_through_the_other_parsers(wiki_data, tmp_path, parser):
    out = tmp_path / parser
    assert run_eval(wiki_data, out, "--model", "gold", "--parser", parser, "--limit", "3", "--no-plot") == 0
    summary, rows, _ = read(out)
    assert all(score == 1.0 for score in summary.values()), summary
    assert len([r for r in rows if r["category"] == "multi_step"]) == 3


@pytest.mark.parametrize("extra", [[], ["--underscore-to-dot", "--parser", "python"]], ids=["dots", "underscores"])
def test_gold_on_bfcls_own_data(tmp_path, extra):
    from kg2tool.evaluation.bfcl_data import installed_data_dir

    pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (.ci/install-bfcl.sh)")
    out = tmp_path / "bfcl"
    argv = ["eval", "--model", "gold", "--data", str(installed_data_dir()), "--out", str(out), "--limit", "40"]
    assert main([*argv, "--no-plot", *extra]) == 0
    summary, rows, _ = read(out)
    assert summary == {
        name: 1.0 for name in ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]
    }
    dotted = [r for r in rows if any("." in name for call in r["decoded"] for name in call)]
    assert bool(dotted) == (not extra) and len(rows) == 200


def _ground_truth_server(data: Path):
    """A perfect model behind a chat-completions endpoint: answers each request from the dataset's gold turns."""
    from datasets import load_dataset

    gold = {}
    for row in load_dataset(str(data), "sft", split="test"):
        messages = row["messages"]
        failed = {m["tool_call_id"] for m in messages if m["role"] == "tool" and m["content"].startswith('{"error"')}
        turns = []
        for m in messages:
            if m["role"] == "assistant" and m.get("tool_calls"):
                calls = [c for c in m["tool_calls"] if c["id"] not in failed]
                if calls:
                    turns.append(
                        {
                            "tool_calls": [
                                {
                                    **c,
                                    "function": {**c["function"], "arguments": json.dumps(c["function"]["arguments"])},
                                }
                                for c in calls
                            ]
                        }
                    )
            elif m["role"] == "assistant":
                turns.append({"content": m["content"]})
        gold[messages[0]["content"]] = turns

    def script(body):
        done = sum(m["role"] == "assistant" for m in body["messages"])
        return gold[body["messages"][0]["content"]][done]

    return ChatServer(script)


def test_openai_backend_end_to_end_with_a_perfect_endpoint(wiki_data, tmp_path, monkeypatch):
    monkeypatch.setenv("KG2TOOL_TEST_KEY", "sk-test")
    out = tmp_path / "served"
    with _ground_truth_server(wiki_data) as server:
        argv = ["--model", "served", "--backend", "openai", "--base-url", server.url]
        assert run_eval(wiki_data, out, *argv, "--api-key-env", "KG2TOOL_TEST_KEY", "--limit", "2", "--no-plot") == 0
    summary, rows, details = read(out)
    assert all(score == 1.0 for score in summary.values()), summary
    assert len(server.requests) > len(rows) and all(h["authorization"] == "Bearer sk-test" for h in server.headers)
    assert "api_key_env" not in details["run"]["backend_options"]


def test_usage_input_and_output_errors(wiki_data, tmp_path, small_graph_path, capsys, monkeypatch):
    # without --out the report goes to eval-results/ in the working directory: run where nothing else is
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--model", "gold"]) == 2
    assert main(["eval", "--model", "gold", "--data", str(wiki_data), "--no-ast", "--no-exec"]) == 2
    assert main(["eval", "--model", str(tmp_path / "none"), "--data", str(wiki_data), "--no-exec"]) == 3
    # the wrong graph: its tools differ from the dataset's
    argv = ["eval", "--model", "gold", "--data", str(wiki_data), "--out", str(tmp_path / "x")]
    assert main([*argv, "--graph", str(small_graph_path)]) == 3
    assert "does not match the dataset" in capsys.readouterr().err
    # no --graph, and the graph recorded in the dataset's report is not found from here
    copy = shutil.copytree(wiki_data, tmp_path / "copy")
    report = json.loads((copy / "validation_report.json").read_text())
    report["graph"]["files"] = ["elsewhere/wiki.ttl"]
    (copy / "validation_report.json").write_text(json.dumps(report))
    assert main(["eval", "--model", "gold", "--data", str(copy), "--out", str(tmp_path / "x")]) == 2
    assert "needs --graph" in capsys.readouterr().err
    # an existing, non-empty report folder
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "summary.json").write_text("{}")
    assert main([*argv, "--no-exec"]) == 4


# ------------------------------------------------------------------------------------------------ transformers
@pytest.fixture(scope="module")
def tiny_tokenizer(wiki_data):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from datasets import load_dataset
    from tokenizers import Tokenizer, models

    from kg2tool.train.corpus import render_conversations
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer, wrap_tokenizer

    rows = list(load_dataset(str(wiki_data), "sft", split="train").select(range(20)))
    texts = render_conversations(rows, wrap_tokenizer(Tokenizer(models.BPE())))
    return train_tokenizer(texts, config=TokenizerConfig(vocab_size=800))


@pytest.mark.train
def test_tiny_transformers_model_runs_the_whole_eval_on_cpu(wiki_data, tiny_tokenizer, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=len(tiny_tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
    )
    model_dir = tmp_path / "tiny"
    AutoModelForCausalLM.from_config(config).save_pretrained(model_dir)
    tiny_tokenizer.save_pretrained(model_dir)
    out = tmp_path / "report"
    argv = ["--model", str(model_dir), "--device", "cpu", "--limit", "1", "--max-new-tokens", "8"]
    assert run_eval(wiki_data, out, *argv, "--max-steps", "2", "--batch-size", "4") == 0
    summary, rows, details = read(out)
    assert list(summary) == AST + EXEC and all(0.0 <= s <= 1.0 for s in summary.values())
    assert len([r for r in rows if r["kind"] == "ast"]) == 5 and len([r for r in rows if r["kind"] == "exec"]) == 2
    assert all(isinstance(r["output"], str) for r in rows if r["kind"] == "ast")
    assert all(r["turns"] and r["stop"] in ("answer", "max_steps") for r in rows if r["kind"] == "exec")
    assert details["run"]["backend_resolved"] == {"device": "cpu", "dtype": "float32"}
    # the checkpoint's tokenizer tokenizes as the trained one (AutoTokenizer would swap in Qwen2's pre-tokenizer)
    from kg2tool.llm.backends import load_tokenizer

    text = 'What is the place of birth of Giorgio Gaber? <tool_call>\n{"name": "get_x"}'
    assert load_tokenizer(str(model_dir)).encode(text) == tiny_tokenizer.encode(text)
    assert (out / "summary.png").exists() and (out / "report.md").exists()


@pytest.mark.train
def test_a_tiny_model_that_learned_a_conversation_solves_it_through_the_loop(tiny_tokenizer, small_kg, tmp_path):
    """A 1-layer model trained on the assistant tokens of one two-hop conversation until greedy decoding reproduces
    them, saved and loaded like any checkpoint: through the transformers backend its calls are parsed, executed on
    the graph, the results fed back, and its final answer is correct, also when batched (left-padded) with another
    conversation."""
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    from kg2tool.evaluation.execution import task_from_row
    from kg2tool.llm.backends import TransformersBackend
    from kg2tool.llm.parsers import get_parser
    from kg2tool.synth.tools.toolset import ToolSet

    ts = ToolSet.from_graph(small_kg)

    def call(i, name, entity):
        return {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": {"entity": entity}}}

    messages = [
        {"role": "user", "content": "What is the country of the place of birth of Person 3?"},
        {"role": "assistant", "content": "", "tool_calls": [call(1, "get_place_of_birth", "Person 3")]},
        {"role": "tool", "tool_call_id": "call_1", "name": "get_place_of_birth", "content": '["City 3"]'},
        {"role": "assistant", "content": "", "tool_calls": [call(2, "get_country", "City 3")]},
        {"role": "tool", "tool_call_id": "call_2", "name": "get_country", "content": '["Atlantis"]'},
        {"role": "assistant", "content": "It is Atlantis."},
    ]
    tools = ts.schemas(["get_place_of_birth", "get_country"])
    enc = tiny_tokenizer.apply_chat_template(
        messages, tools=tools, tokenize=True, return_dict=True, return_assistant_tokens_mask=True
    )
    ids = torch.tensor([enc["input_ids"]])
    labels = ids.masked_fill(torch.tensor([enc["assistant_masks"]]) == 0, -100)
    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=len(tiny_tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
    )
    model = AutoModelForCausalLM.from_config(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-2)
    for _ in range(400):  # until every assistant token is the argmax: greedy decoding then reproduces them
        out = model(input_ids=ids, labels=labels)
        predicted, target = out.logits[0, :-1].argmax(-1), labels[0, 1:]
        if bool((predicted[target != -100] == target[target != -100]).all()):
            break
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    else:
        pytest.fail("the tiny model did not learn the conversation in 400 steps")
    model.save_pretrained(tmp_path / "learned")
    tiny_tokenizer.save_pretrained(tmp_path / "learned")

    row = {"id": "r", "category": "multi_step", "pattern": "2p", "answers": ["Atlantis"], "tools": tools}
    task = task_from_row({**row, "messages": messages})
    other = task_from_row(
        {
            **row,
            "id": "o",
            "messages": [
                {
                    "role": "user",
                    "content": "Where was Person 12 born, and in which country is that place? Tell me please.",
                },
                *messages[1:],
            ],
        }
    )
    backend = TransformersBackend(str(tmp_path / "learned"), device="cpu", max_new_tokens=40, batch_size=2)
    backend.load()
    learned, _ = run_exec([task, other], backend, get_parser("hermes"), ts)
    assert learned["correct"] and learned["calls_valid"] and learned["within_gold_steps"], learned["turns"]
    assert [c["result"] for t in learned["turns"] for c in t.get("calls", [])] == ['["City 3"]', '["Atlantis"]']
    assert learned["final"] == "It is Atlantis."


@pytest.mark.train
def test_the_loop_shows_the_model_its_training_format(wiki_data, tiny_tokenizer, example_kg):
    """Every prompt of the executable loop (gold model) renders, with the chat template, as a prefix of the row's
    own rendered conversation: the model sees at evaluation exactly the text it was trained on."""
    from datasets import load_dataset

    from kg2tool.evaluation.execution import task_from_row
    from kg2tool.llm.backends import GoldModel
    from kg2tool.llm.parsers import get_parser
    from kg2tool.synth.tools.toolset import ToolSet

    class Recording(GoldModel):
        def generate(self, conversations, tools, keys=None):
            self.seen += [(k, [dict(m) for m in c], t) for k, c, t in zip(keys, conversations, tools, strict=True)]
            return super().generate(conversations, tools, keys)

    rows = [
        r for r in load_dataset(str(wiki_data), "sft", split="test") if r["category"] in ("multi_step", "multi_turn")
    ]
    rows = [r for r in rows if r["pattern"] != "error_recovery"]  # gold leaves out their deliberate errors
    tasks = [task_from_row(r) for r in rows]
    model = Recording({f"exec:{t.id}": t.gold_turns for t in tasks}, "hermes")
    model.seen = []
    results = run_exec(tasks, model, get_parser("hermes"), ToolSet.from_graph(example_kg))
    assert all(r["correct"] for r in results)
    full = {
        f"exec:{r['id']}": tiny_tokenizer.apply_chat_template(r["messages"], tools=r["tools"], tokenize=False)
        for r in rows
    }
    assert len(model.seen) == sum(len(t.gold_turns) for t in tasks)
    for key, messages, tools in model.seen:
        prompt = tiny_tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)
        assert full[key].startswith(prompt), key


@pytest.mark.train
def test_moe_checkpoint_saved_like_trl_generates_in_batches(tiny_tokenizer, tmp_path):
    """TRL saves `output_router_logits: true, use_cache: false`; batched generate() then fails in
    qwen2_moe's load_balancing_loss_func (a tensor size mismatch) unless the backend turns the flag off when loading."""
    from transformers import AutoModelForCausalLM

    from kg2tool.llm.backends import TransformersBackend
    from kg2tool.train.moe import MoePreset

    preset = MoePreset(
        vocab_size=len(tiny_tokenizer),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        num_experts=4,
        num_experts_per_tok=2,
        moe_intermediate_size=16,
        shared_expert_intermediate_size=32,
    )
    model_dir = tmp_path / "moe"
    AutoModelForCausalLM.from_config(preset.to_config(output_router_logits=True, use_cache=False)).save_pretrained(
        model_dir
    )
    tiny_tokenizer.save_pretrained(model_dir)
    assert json.loads((model_dir / "config.json").read_text())["output_router_logits"] is True
    backend = TransformersBackend(str(model_dir), device="cpu", batch_size=2, max_new_tokens=3)
    backend.load()
    conversations = [
        [{"role": "user", "content": "Where was Ada Lovelace born, and when?"}],
        [{"role": "user", "content": "Hi"}],
    ]
    tools = [[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {}}}], []]
    completions = backend.generate(conversations, tools)
    assert len(completions) == 2 and all(isinstance(c.text, str) for c in completions)
    assert backend.model.config.output_router_logits is False
    backend.unload()
    shutil.rmtree(model_dir)


STEPWISE = ["stepwise_first_call", "stepwise_later_call", "stepwise_answer", "stepwise_reply"]


def test_stepwise_gold_is_perfect_and_no_call_gets_only_the_replies(wiki_data, tmp_path):
    """`--stepwise`: every assistant turn of the executable rows, after the gold conversation before it."""
    out = tmp_path / "gold-steps"
    assert run_eval(wiki_data, out, "--model", "gold", "--stepwise", "--limit", "10", "--no-plot") == 0
    summary, rows, details = read(out)
    assert list(summary) == AST + EXEC + STEPWISE and all(s == 1.0 for s in summary.values()), summary
    steps = [r for r in rows if r["kind"] == "step"]
    exec_rows = [r for r in rows if r["kind"] == "exec"]
    # one step per assistant turn of the same rows the loop ran; failed calls of error_recovery rows included
    assert {r["id"].split("#")[0] for r in steps} == {r["id"] for r in exec_rows}
    assert len(steps) == sum(details["stepwise"]["by_kind"][k]["total"] for k in ("first_call", "later_call",
                                                                                   "answer", "reply"))
    assert sum(r["step"] == "answer" for r in steps) == len(exec_rows)  # one final answer per row
    later = [r for r in steps if r["step"] == "later_call"]
    assert later and all(r["turn"] > 0 for r in later)
    report = (out / "report.md").read_text()
    assert "## Step-wise" in report and "| stepwise_later_call |" in report

    out = tmp_path / "no-call-steps"
    assert run_eval(wiki_data, out, "--model", "no-call", "--stepwise", "--limit", "10", "--no-plot") == 0
    summary, _, _ = read(out)
    assert run_eval(wiki_data, tmp_path / "x", "--model", "gold", "--stepwise", "--no-exec") == 2  # nothing to step
    # the fixed text has no call and states no answer: only the non-final text turns are right
    assert {k: summary[k] for k in STEPWISE} == {"stepwise_first_call": 0.0, "stepwise_later_call": 0.0,
                                                  "stepwise_answer": 0.0, "stepwise_reply": 1.0}


def test_eval_config_file_gives_defaults_and_the_command_line_wins(wiki_data, tmp_path, capsys):
    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "cfg"
    # eval/cpu.yaml: limit 40 and stepwise; --limit 2 on the command line wins
    assert run_eval(wiki_data, out, "--config", str(root / "eval/cpu.yaml"), "--model", "gold", "--limit", "2",
                    "--no-plot") == 0  # fmt: skip
    summary, rows, details = read(out)
    assert details["run"]["limit"] == 2 and details["run"]["stepwise"] is True
    assert details["run"]["backend_options"]["batch_size"] == 16 and "stepwise_later_call" in summary
    from kg2tool.cli import build_parser
    from kg2tool.commands.eval import config_defaults

    eval_parser = build_parser()._subparsers._group_actions[0].choices["eval"]
    for recipe in ("cpu", "vllm", "endpoint"):  # every shipped recipe names only known flags with valid values
        defaults = config_defaults(str(root / f"eval/{recipe}.yaml"), eval_parser)
        assert defaults["max_steps"] == 6 and defaults["backend"] in ("transformers", "vllm", "openai"), recipe

    bad = tmp_path / "bad.yaml"
    bad.write_text("limit: 3\nmax_new_tokenz: 7\n")
    assert run_eval(wiki_data, tmp_path / "x", "--config", str(bad), "--model", "gold") == 2
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "max_new_tokenz" in err
    bad.write_text("backend: torch\n")
    assert run_eval(wiki_data, tmp_path / "x", "--config", str(bad), "--model", "gold") == 3
    assert "backend must be one of" in capsys.readouterr().err


def test_eval_saves_its_resolved_config(wiki_data, tmp_path):
    import yaml

    from kg2tool.common.files import file_sha256

    out = tmp_path / "r"
    assert run_eval(wiki_data, out, "--model", "gold", "--limit", "2", "--no-plot") == 0
    saved = yaml.safe_load((out / "kg2tool_config.yaml").read_text())
    assert saved["command"] == "eval" and saved["lang"] == "en"  # recorded by synth in the dataset folder
    assert saved["graphs"] == [{"path": str(EXAMPLE), "sha256": file_sha256(EXAMPLE)}]
    assert saved["config"]["model"] == "gold" and saved["config"]["limit"] == 2 and saved["config"]["lang"] is None
    assert saved["config"]["max_steps"] == 6 and saved["config"]["no_plot"] is True


def test_eval_loads_the_graph_in_the_datasets_label_language(small_graph_path, tmp_path):
    from conftest import make_small_graph

    graph = tmp_path / "bilingual.ttl"  # German relation labels: the tools are named after them
    graph.write_text(make_small_graph() + '\nex:bornIn rdfs:label "Geburtsort"@de .\nex:friend rdfs:label "Freund"@de .\n')
    data = tmp_path / "de"
    assert main(["synth", "--graph", str(graph), "--out", str(data), "-n", "200", "--lang", "de", "--no-progress"]) == 0
    out = tmp_path / "r"
    # no --lang: the dataset's (de), so the tools match the dataset's
    assert main(["eval", "--model", "gold", "--data", str(data), "--out", str(out), "--no-ast", "--no-plot"]) == 0
    assert json.loads((out / "details.json").read_text())["run"]["lang"] == "de"
    summary = json.loads((out / "summary.json").read_text())
    assert summary and all(score == 1.0 for score in summary.values())
    # the wrong language gives other tool names, which the check refuses
    assert main(["eval", "--model", "gold", "--data", str(data), "--out", str(tmp_path / "en"), "--no-ast",
                 "--no-plot", "--lang", "en"]) == 3  # fmt: skip


def test_eval_derives_the_tools_with_the_datasets_own_lexicon(tmp_path):
    """A dataset made with an edited lexicon (or by an earlier version whose words differ) is evaluated with the
    lexicon.yaml written beside it: its tools match, and gold scores 100%."""
    import yaml

    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon

    kg = load_graph([str(EXAMPLE)])
    iri = next(i for i, r in kg.relations.items() if r.label == "residence")
    edited = tmp_path / "lexicon.yaml"
    edited.write_text(yaml.safe_dump({"relations": {iri: {"form": "noun", "noun": "home town",
                                                          "plural": "home towns"}}}), encoding="utf-8")  # fmt: skip
    assert derive_lexicon(kg).relations[iri].noun != "home town"
    data = tmp_path / "data"
    assert main(["synth", "--graph", str(EXAMPLE), "--out", str(data), "-n", "300", "--seed", "0",
                 "--lexicon", str(edited), "--no-progress"]) == 0  # fmt: skip
    assert "home town" in (data / "lexicon.yaml").read_text(encoding="utf-8")
    assert run_eval(data, tmp_path / "e", "--model", "gold") == 0
    summary, _, _ = read(tmp_path / "e")
    assert summary["multi_step_exec"] == 1.0
