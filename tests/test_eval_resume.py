"""`kg2tool eval --resume` (`kg2tool.evaluation.checkpoint`): a run stopped part-way (its checkpoint.jsonl holding
the first generation calls, the last one possibly cut mid-line) resumes without asking the model again for what
it answered, and writes the report of an uninterrupted run. With `gold` and with a tiny transformers model; the
slow test kills a `python -m kg2tool eval` process with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLE

from kg2tool.cli import main


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("evalresume") / "wiki"
    assert main(["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "400", "--seed", "0", "--no-progress"]) == 0
    return out


def eval_argv(data: Path, out: Path, *extra: str) -> list[str]:
    stepwise = [] if "--no-exec" in extra else ["--stepwise"]
    return ["eval", "--data", str(data), "--graph", str(EXAMPLE), "--out", str(out), "--no-plot", *stepwise,
            *extra]  # fmt: skip


def report_of(out: Path) -> dict:
    """What a user reads: every result row, the summary, the details without their wall times."""
    details = json.loads((out / "details.json").read_text())
    details["run"].pop("timing")
    return {"results": (out / "results.jsonl").read_text(), "summary": (out / "summary.json").read_text(),
            "details": details}  # fmt: skip


def stopped_copy(done: Path, out: Path, calls: int) -> None:
    """`out` as a run stopped after `calls` generation calls left it: the checkpoint's header and first calls,
    and half of the next line (a kill in the middle of an append)."""
    lines = (done / "checkpoint.jsonl").read_text().splitlines(keepends=True)
    assert len(lines) > calls + 1, "the run made too few generation calls to stop in the middle"
    out.mkdir(parents=True)
    nxt = lines[calls + 1]
    (out / "checkpoint.jsonl").write_text("".join(lines[: calls + 1]) + nxt[: len(nxt) // 2])


def test_gold_resumes_to_the_uninterrupted_report_without_regenerating(data, tmp_path, capsys):
    full, stopped = tmp_path / "full", tmp_path / "stopped"
    assert main(eval_argv(data, full, "--model", "gold")) == 0
    stopped_copy(full, stopped, calls=2)
    assert main(eval_argv(data, stopped, "--model", "gold")) == 4  # no --resume: a non-empty folder is refused
    assert "--resume" in capsys.readouterr().err
    assert main(eval_argv(data, stopped, "--model", "gold", "--resume")) == 0
    assert "2 generation call(s) replayed" in capsys.readouterr().err
    assert report_of(stopped) == report_of(full)
    assert (stopped / "checkpoint.jsonl").read_text() == (full / "checkpoint.jsonl").read_text()


def test_resume_replays_the_saved_outputs_rather_than_asking_the_model(data, tmp_path):
    full, stopped = tmp_path / "full", tmp_path / "stopped"
    assert main(eval_argv(data, full, "--model", "gold", "--no-exec", "--limit", "2")) == 0
    lines = (full / "checkpoint.jsonl").read_text().splitlines(keepends=True)
    first = json.loads(lines[1])
    first["completions"][0] = {"text": "not a call", "tool_calls": None, "errors": []}
    stopped.mkdir()
    (stopped / "checkpoint.jsonl").write_text(lines[0] + json.dumps(first) + "\n")
    assert main(eval_argv(data, stopped, "--model", "gold", "--no-exec", "--limit", "2", "--resume")) == 0
    rows = [json.loads(line) for line in (stopped / "results.jsonl").read_text().splitlines()]
    key = first["keys"][0].removeprefix("ast:")
    assert next(r for r in rows if r["id"] == key)["output"] == "not a call"  # the saved output was scored


def test_resume_refuses_a_checkpoint_of_other_settings(data, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(eval_argv(data, out, "--model", "gold", "--limit", "2")) == 0
    assert main(eval_argv(data, out, "--model", "gold", "--limit", "3", "--resume")) == 2
    assert "other settings (limit)" in capsys.readouterr().err
    # --overwrite without --resume starts over: the old checkpoint is replaced
    assert main(eval_argv(data, out, "--model", "gold", "--limit", "3", "--overwrite")) == 0
    assert '"limit": 3' in (out / "checkpoint.jsonl").read_text().splitlines()[0]


# ------------------------------------------------------------------------------------------------ transformers
@pytest.fixture(scope="module")
def tiny_model(data, tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    import torch
    from datasets import load_dataset
    from tokenizers import Tokenizer, models
    from transformers import AutoModelForCausalLM, Qwen2Config

    from kg2tool.train.corpus import render_conversations
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer, wrap_tokenizer

    rows = list(load_dataset(str(data), "sft", split="train").select(range(20)))
    tokenizer = train_tokenizer(render_conversations(rows, wrap_tokenizer(Tokenizer(models.BPE()))),
                                config=TokenizerConfig(vocab_size=800))  # fmt: skip
    torch.manual_seed(0)
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=8192,
                         tie_word_embeddings=True)  # fmt: skip
    out = tmp_path_factory.mktemp("evalresume") / "tiny"
    AutoModelForCausalLM.from_config(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def tiny_flags(model: Path, limit: int = 1) -> list[str]:
    return ["--model", str(model), "--device", "cpu", "--limit", str(limit), "--max-new-tokens", "8", "--max-steps",
            "2", "--batch-size", "2"]  # fmt: skip


@pytest.mark.train
def test_a_tiny_transformers_model_resumes_to_the_uninterrupted_report(data, tiny_model, tmp_path):
    full, stopped = tmp_path / "full", tmp_path / "stopped"
    assert main(eval_argv(data, full, *tiny_flags(tiny_model))) == 0
    stopped_copy(full, stopped, calls=2)
    assert main(eval_argv(data, stopped, *tiny_flags(tiny_model), "--resume")) == 0
    assert report_of(stopped) == report_of(full)


@pytest.mark.slow
@pytest.mark.train
def test_an_eval_killed_with_sigkill_resumes_to_the_uninterrupted_report(data, tiny_model, tmp_path):
    full, killed = tmp_path / "full", tmp_path / "killed"
    flags = tiny_flags(tiny_model, limit=3)
    assert main(eval_argv(data, full, *flags)) == 0
    calls = len((full / "checkpoint.jsonl").read_text().splitlines()) - 1
    proc = subprocess.Popen([sys.executable, "-m", "kg2tool", *eval_argv(data, killed, *flags)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    checkpoint, deadline = killed / "checkpoint.jsonl", time.time() + 300
    while time.time() < deadline and proc.poll() is None and (
        not checkpoint.exists() or checkpoint.read_text().count("\n") < 3
    ):
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the eval ended before it could be killed"
    assert not (killed / "summary.json").exists()
    saved = checkpoint.read_text().count("\n") - 1
    assert 2 <= saved < calls
    res = subprocess.run([sys.executable, "-m", "kg2tool", *eval_argv(data, killed, *flags, "--resume")],
                         capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    assert f"{saved} generation call(s) replayed" in res.stderr
    assert report_of(killed) == report_of(full)
