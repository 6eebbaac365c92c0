"""`kg2tool synth --paraphrase` (the filter itself: test_paraphrase_filter.py): the row pass with scripted
backends, the OpenAI-compatible path against a local HTTP server, and the transformers path with a small local model
trained here (a tiny Llama that learned to turn one template wording of a 1p question into another)."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from checks import check_row

from kg2tool.cli import main
from kg2tool.llm.backends import Backend, Completion
from kg2tool.synth.candidate import Candidate
from kg2tool.synth.checks.preference import check_continuation
from kg2tool.synth.checks.verify import verify_row
from kg2tool.synth.paraphrase.rewrite import (
    ParaphraseConfig,
    Paraphraser,
    paraphrase_rows,
    plan_names,
)

# ---------------------------------------------------------------------------------------------- rows, scripted


@pytest.fixture(scope="module")
def synth_rows(small_kg):
    from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

    synth = Synthesizer(small_kg, SynthConfig(seed=4, shard_size=200))
    candidates, _ = synth.candidates(0)
    return synth, candidates


class Scripted(Backend):
    """Rewrites by string rules; counts prompts."""

    def __init__(self, rewrite):
        self.rewrite = rewrite
        self.prompts = 0

    def generate(self, conversations, tools, keys=None):
        self.prompts += len(conversations)
        return [Completion(self.rewrite(c[0]["content"].split("Question: ", 1)[-1])) for c in conversations]


def reword(q: str) -> str:
    for a, b in (("What is the ", "Please tell me the "), ("Which entities ", "What entities "), ("Tell me ", "Say "),
                 ("Which ", "What ")):
        if q.startswith(a):
            return b + q[len(a) :]
    return q.lower() if len(q) % 3 == 0 else q  # unchanged or names lowercased: rejected


def copy_rows(candidates):
    """Independent copies of candidates (paraphrase_rows rewrites rows and DPO pairs in place)."""
    return [Candidate(json.loads(json.dumps(c.row)), c.split_key, json.loads(json.dumps(c.dpo))) for c in candidates]


def test_paraphrase_rows_keeps_verified_rewrites(synth_rows, small_kg):
    synth, templates = synth_rows
    cands = copy_rows(templates)
    template_rows = [c.row for c in templates]
    backend = Scripted(reword)
    from kg2tool.synth.paraphrase.rewrite import name_index

    counts = paraphrase_rows(
        cands, synth.ts, Paraphraser(backend), ParaphraseConfig(model="x"), names=name_index(small_kg)
    )
    assert counts["kept"] > 20 and counts["rejected"]
    assert counts["kept"] + sum(counts["rejected"].values()) == counts["questions_tried"] == backend.prompts
    assert set(counts["rejected"]) <= {"unchanged", "missing_name", "duplicate", "too_short", "missing_constraint"}
    changed = 0
    for before, cand in zip(template_rows, cands, strict=True):
        row = cand.row
        template = row["plan"].get("template_question")
        if template is not None:
            changed += 1
            assert template == before["messages"][0]["content"] != row["messages"][0]["content"]
            for name in plan_names(row["plan"]) if row["pattern"] != "missing_info" else []:
                assert name in row["messages"][0]["content"]
        elif "template_followup" not in row["plan"]:  # a follow-up turn alone may have been rewritten
            assert row["messages"] == before["messages"]
        assert check_row(row, synth.ts) == [], row["id"]
        allow = row["pattern"] == "error_recovery"
        assert verify_row(synth.ts, row["messages"], row["tools"], row["answers"], row["category"], allow) is None
        for pair in cand.dpo:
            assert pair["prompt"] == row["messages"][: len(pair["prompt"])]
            rest = (pair["tools"], row["answers"], pair["category"], pair["chosen"])
            assert check_continuation(synth.ts, pair["prompt"], pair["chosen"], *rest) is None
            assert check_continuation(synth.ts, pair["prompt"], pair["rejected"], *rest) is not None
    followups = sum("template_followup" in c.row["plan"] and "template_question" not in c.row["plan"] for c in cands)
    assert changed + followups == counts["rows_rewritten"] > 0


def test_fraction_and_checkpointed_chunks(synth_rows, tmp_path):
    synth, template_rows = synth_rows
    cfg = ParaphraseConfig(model="x", fraction=0.5, batch_size=4)
    first = Scripted(reword)
    rows_a = copy_rows(template_rows)
    counts_a = paraphrase_rows(rows_a, synth.ts, Paraphraser(first, batch_size=4), cfg, cache_dir=tmp_path / "c")
    assert 0.3 * len(template_rows) < counts_a["rows_tried"] < 0.7 * len(template_rows)
    assert list((tmp_path / "c").glob("*.json"))
    again = Scripted(lambda q: "never asked")  # a resumed run finds every chunk answered
    rows_b = copy_rows(template_rows)
    counts_b = paraphrase_rows(rows_b, synth.ts, Paraphraser(again, batch_size=4), cfg, cache_dir=tmp_path / "c")
    assert again.prompts == 0 and counts_b == counts_a and rows_b == rows_a


def test_endpoint_tool_call_answer_is_markup(synth_rows):
    class Caller(Backend):
        def generate(self, conversations, tools, keys=None):
            return [Completion("", [{"name": "get_x", "arguments": {}}]) for _ in conversations]

    synth, template_rows = synth_rows
    rows = copy_rows(template_rows[:10])
    counts = paraphrase_rows(rows, synth.ts, Paraphraser(Caller()), ParaphraseConfig(model="x"))
    assert counts["kept"] == 0 and set(counts["rejected"]) == {"markup"}


# ---------------------------------------------------------------------------------------------- command line


def run_synth_cli(capsys, *args) -> tuple[int, str]:
    code = main(["synth", *map(str, args)])
    return code, capsys.readouterr().err


def read_rows(folder: Path) -> list[dict]:
    import pyarrow.parquet as pq

    out = []
    for path in sorted((folder / "sft").glob("*.parquet")):
        for row in pq.read_table(path).to_pylist():
            for key in ("messages", "tools"):
                row[key] = [json.loads(x) for x in row[key]]
            row["plan"] = json.loads(row["plan"])
            out.append(row)
    return out


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def test_cli_errors(tmp_path, small_graph_path, capsys):
    base = ["--graph", small_graph_path, "--out", tmp_path / "o", "-n", 20, "--no-progress"]
    code, err = run_synth_cli(capsys, *base, "--paraphrase", tmp_path / "no-such-model")
    assert code == 3 and "no-such-model" in err and "no such model folder" in err
    code, err = run_synth_cli(capsys, *base, "--paraphrase", tmp_path, "--paraphrase-fraction", "1.5")
    assert code == 2 and "--paraphrase-fraction" in err
    code, err = run_synth_cli(capsys, *base, "--paraphrase", "m", "--paraphrase-backend", "openai")
    assert code == 2 and "--paraphrase-base-url" in err
    config = tmp_path / "c.yaml"
    config.write_text("paraphrase:\n  modle: x\n")
    code, err = run_synth_cli(capsys, *base, "--config", config)
    assert code == 2 and "paraphrase.modle" in err
    assert not (tmp_path / "o").exists() and not (tmp_path / ".o.work").exists()


def test_missing_extra(monkeypatch, tmp_path):
    import importlib.util

    from kg2tool.common.errors import MissingExtraError
    from kg2tool.synth.paraphrase.rewrite import make_paraphrase_backend

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else real(name, *a))
    with pytest.raises(MissingExtraError, match=r"kg2tool\[vllm\]"):
        make_paraphrase_backend(ParaphraseConfig(model=str(tmp_path), backend="vllm"))


def test_core_synth_stays_torch_free():
    code = (
        "import sys, kg2tool.synth.run.pipeline, kg2tool.synth.paraphrase.rewrite, kg2tool.commands.synth; "
        "print(sorted(m for m in ('torch', 'transformers', 'vllm') if m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"


class Handler(BaseHTTPRequestHandler):
    """A minimal OpenAI-compatible chat-completions endpoint: rewords the questions it can, echoes the others;
    answers HTTP 500 once `fail_after` requests were served (None: never)."""

    calls = 0
    fail_after: int | None = None
    lock = threading.Lock()

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with Handler.lock:
            Handler.calls += 1
            failing = Handler.fail_after is not None and Handler.calls > Handler.fail_after
        if failing:
            self.send_response(500)
            self.end_headers()
            return
        question = body["messages"][-1]["content"].split("Question: ", 1)[-1]
        answer = json.dumps({"choices": [{"message": {"role": "assistant", "content": reword(question)}}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(answer.encode())

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Handler.calls, Handler.fail_after = 0, None
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_openai_compatible_endpoint_and_resume(tmp_path, small_graph_path, endpoint, capsys, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)  # the backend's retry back-off
    args = ["--graph", small_graph_path, "-n", 60, "--seed", 2, "--no-progress", "--paraphrase", "served-model",
            "--paraphrase-backend", "openai", "--paraphrase-base-url", endpoint, "--paraphrase-batch-size", 4]  # fmt: skip
    code, err = run_synth_cli(capsys, *args, "--out", tmp_path / "ref")
    assert code == 0, err
    report = json.loads((tmp_path / "ref" / "validation_report.json").read_text())["paraphrase"]
    assert report["backend"] == "openai" and report["kept"] > 0 and report["questions_tried"] > 40
    assert Handler.calls == report["questions_tried"]
    assert f"paraphrase: kept {report['kept']} of {report['questions_tried']}" in err
    assert "## Paraphrases" in (tmp_path / "ref" / "README.md").read_text()

    # the endpoint fails during the second chunk of 32 prompts: nothing at --out, the first chunk is checkpointed
    Handler.calls, Handler.fail_after = 0, 40
    code, err = run_synth_cli(capsys, *args, "--out", tmp_path / "run")
    assert code == 3 and "500" in err and not (tmp_path / "run").exists()
    assert [p.name for p in (tmp_path / ".run.work" / "paraphrase").glob("*.json")] == ["000000.json"]
    Handler.calls, Handler.fail_after = 0, None
    code, err = run_synth_cli(capsys, *args, "--out", tmp_path / "run", "--resume")
    assert code == 0, err
    assert Handler.calls == report["questions_tried"] - 32  # the answered chunk is not asked again
    assert digest(tmp_path / "run") == digest(tmp_path / "ref")
    assert not (tmp_path / ".run.work").exists()


# ---------------------------------------------------------------------------------------------- a small local model

PROMPT = "Paraphrase: {question}"
CHAT = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def paraphrase_pairs(kg) -> list[tuple[str, str]]:
    """Real paraphrase pairs: every 1p question of the graph in the `simple` family's wordings, each wording
    paired with the next one (a function the model can learn: wording i -> wording i + 1)."""
    from kg2tool.synth.plans.tree import Anchor, Project
    from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

    synth = Synthesizer(kg, SynthConfig(mix={"simple": 1.0}))
    templates, _ = synth.renderer.families["simple"]
    pairs = []
    for rel in synth.walker.rels:
        for inverse in (False, True):
            for eid in synth.walker.sources[(rel, inverse)]:
                ctx = synth.renderer.context(kg, "simple", Project(rel, Anchor(eid), inverse), ["x"])
                texts = [" ".join(t.render(ctx).split()) for t in templates]
                pairs += [(t, texts[(i + 1) % len(texts)]) for i, t in enumerate(texts)]
    return pairs


@pytest.fixture(scope="session")
def tiny_paraphrase_model(tmp_path_factory, small_kg):
    """A 0.4M-parameter Llama with a byte-level BPE, trained for 300 steps (~35 s on one thread) on the pairs."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    torch.set_num_threads(1)
    pairs = paraphrase_pairs(small_kg)
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    special = ["<|pad|>", "<|user|>", "<|assistant|>", "<|end|>"]
    bpe.train_from_iterator(
        [PROMPT.format(question=a) for a, _ in pairs] + [b for _, b in pairs],
        trainers.BpeTrainer(vocab_size=1000, special_tokens=special, show_progress=False,
                            initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )  # fmt: skip
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, pad_token="<|pad|>", eos_token="<|end|>")
    tok.chat_template = CHAT

    def encode(question, target):
        chat = [{"role": "user", "content": PROMPT.format(question=question)}]
        prompt = tok(
            tok.apply_chat_template(chat, add_generation_prompt=True, tokenize=False), add_special_tokens=False
        )
        answer = tok(target + "<|end|>", add_special_tokens=False)["input_ids"]
        return prompt["input_ids"] + answer, [-100] * len(prompt["input_ids"]) + answer

    data = [encode(a, b) for a, b in pairs]
    config = transformers.LlamaConfig(
        vocab_size=len(tok), hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=4, max_position_embeddings=128, pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id, bos_token_id=None, tie_word_embeddings=True,
    )  # fmt: skip
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(config)
    steps, batch = 300, 32
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50) * max(0.05, 1 - s / steps))
    rng = random.Random(0)
    for _ in range(steps):
        chunk = rng.sample(data, batch)
        width = max(len(x) for x, _ in chunk)
        ids = torch.tensor([x + [tok.pad_token_id] * (width - len(x)) for x, _ in chunk])
        labels = torch.tensor([y + [-100] * (width - len(y)) for _, y in chunk])
        mask = (ids != tok.pad_token_id).long()
        model(input_ids=ids, attention_mask=mask, labels=labels).loss.backward()
        opt.step()
        sched.step()
        opt.zero_grad()
    out = tmp_path_factory.mktemp("paraphrase-model")
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


@pytest.mark.train
def test_synth_paraphrase_with_a_small_local_model(
    tmp_path, small_graph_path, small_kg, tiny_paraphrase_model, capsys
):
    import torch

    from kg2tool.synth.tools.toolset import ToolSet

    torch.set_num_threads(1)
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT)
    args = ["--graph", small_graph_path, "-n", 120, "--seed", 3, "--no-progress",
            "--only", "simple,multiple,irrelevance,2p,count,compare,2in,followup,missing_info",
            "--paraphrase", tiny_paraphrase_model, "--paraphrase-backend", "transformers",
            "--paraphrase-prompt", prompt, "--paraphrase-max-new-tokens", 40]  # fmt: skip
    t0 = time.perf_counter()
    code, err = run_synth_cli(capsys, *args, "--out", tmp_path / "a")
    with capsys.disabled():
        print(f"\nsynth --paraphrase: {time.perf_counter() - t0:.1f}s\n{err}")
    assert code == 0, err
    report = json.loads((tmp_path / "a" / "validation_report.json").read_text())["paraphrase"]
    assert report["kept"] >= 10, report  # the model learned the 1p wordings: some rewrites are kept ...
    assert sum(report["rejected"].values()) >= 10, report  # ... and the other shapes' attempts are rejected
    assert report["kept"] + sum(report["rejected"].values()) == report["questions_tried"]
    assert "paraphrase: kept" in err and "rejected:" in err

    ts = ToolSet.from_graph(small_kg)
    rows = read_rows(tmp_path / "a")
    rewritten = [r for r in rows if "template_question" in r["plan"]]
    assert report["rows_rewritten"] == sum("template_question" in r["plan"] or "template_followup" in r["plan"]
                                           for r in rows)  # fmt: skip
    for row in rows:
        assert check_row(row, ts) == [], row["id"]
        allow = row["pattern"] == "error_recovery"
        assert verify_row(ts, row["messages"], row["tools"], row["answers"], row["category"], allow) is None
    for row in rewritten:
        question = row["messages"][0]["content"]
        assert question != row["plan"]["template_question"]
        if row["pattern"] == "missing_info":  # the name is given in part on purpose; the part given stays
            words = row["plan"]["of"]["name"].split()  # a beginning, or a family name others share
            assert words[0] in question or words[-1] in question, question
            assert row["plan"]["of"]["name"] not in question
        else:
            assert all(name in question for name in plan_names(row["plan"])), (row["pattern"], question)
    card = (tmp_path / "a" / "README.md").read_text()
    assert "## Paraphrases" in card and "template_question" in card

    code, err = run_synth_cli(capsys, *args, "--out", tmp_path / "b")
    assert code == 0, err
    assert digest(tmp_path / "a") == digest(tmp_path / "b")
