"""What the SFT and DPO stages leave behind: the output folder check (resume or refuse), the saved model
(adapter and/or merged weights, tokenizer, trainer state), `<stage>_report.json`, the loss summary line and the
sample tool call generated from the reloaded output.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .finetune import RunSetup
from .finetune_model import load_model, load_tokenizer_checked


def check_output_dir(setup: RunSetup, stage: str) -> str | None:
    """What to resume from (or None); refuses an `output_dir` that already holds a run unless told. The stage's
    report (`<stage>_report.json`, written last) marks a run that has nothing left to do."""
    from .runs import check_run_dir

    args, extra = setup.training, setup.extra

    view = SimpleNamespace(
        output_dir=args.output_dir,
        resume=extra.resume,
        resume_from_checkpoint=args.resume_from_checkpoint,
        overwrite=extra.overwrite,
        max_steps=args.max_steps,
    )
    return check_run_dir(view, ("config.json", "adapter_config.json"), finished_marker=f"{stage}_report.json")


def save_outputs(trainer, setup: RunSetup, tokenizer) -> dict[str, Any]:
    """Save the final model (adapter and/or merged weights) with its tokenizer, metrics and trainer state."""
    out = Path(setup.training.output_dir)
    model = trainer.accelerator.unwrap_model(trainer.model)
    saved: dict[str, Any] = {}
    if setup.model.use_peft and setup.extra.merge:
        trainer.save_model(str(out / "adapter"))
        merged = model.merge_and_unload()
        merged.config.use_cache = True
        if hasattr(merged.config, "output_router_logits"):
            merged.config.output_router_logits = False
        if trainer.args.should_save:
            merged.save_pretrained(str(out))
            tokenizer.save_pretrained(str(out))
        saved = {"weights": str(out), "adapter": str(out / "adapter")}
    else:
        trainer.save_model(str(out))
        saved = {"adapter" if setup.model.use_peft else "weights": str(out)}
    if trainer.args.should_save:
        trainer.save_state()
    return saved


def loss_history(trainer, key: str = "loss") -> list[tuple[int, float]]:
    """`(step, value)` of every logged `key` in the trainer's history, in order."""
    return [(h["step"], h[key]) for h in trainer.state.log_history if key in h and "step" in h]


def write_report(setup: RunSetup, stage: str, report: dict[str, Any]) -> None:
    """Write `report` to `output_dir/<stage>_report.json` (on the process that saves)."""
    from ..common.files import write_atomic

    if setup.training.should_save:
        write_atomic(Path(setup.training.output_dir) / f"{stage}_report.json", json.dumps(report, indent=2) + "\n")


def sample_tool_call(path: str, row: dict[str, Any], max_new_tokens: int = 96) -> dict[str, Any]:
    """Reload the saved output at `path` (plain `from_pretrained`, or base + adapter) and greedy-generate the
    assistant's first turn for `row` (its messages up to the first assistant turn, with its tools) through the
    chat template. Returns the prompt, the completion and the parsed tool calls."""
    import torch

    from ..llm.chat_format import normalize_row, parse_tool_calls

    tokenizer = load_tokenizer_checked(path, need_generation_markers=False)
    model = load_model(path)
    model.eval()
    messages, tools = normalize_row(row.get("messages") or row.get("prompt"), row.get("tools"))
    prompt_messages = []
    for message in messages:
        if message["role"] == "assistant":
            break
        prompt_messages.append(message)
    text = tokenizer.apply_chat_template(
        prompt_messages, tools=tools or None, add_generation_prompt=True, tokenize=False
    )
    inputs = tokenizer(text, return_tensors="pt", add_special_tokens=False)
    started = time.time()
    with torch.no_grad():
        out = model.generate(
            **inputs, max_new_tokens=max_new_tokens, do_sample=False, pad_token_id=tokenizer.pad_token_id
        )
    completion = tokenizer.decode(out[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
    calls, errors = parse_tool_calls(completion)
    question = next((m["content"] for m in prompt_messages if m["role"] == "user"), "")
    return {
        "question": question,
        "completion": completion,
        "tool_calls": calls,
        "parse_errors": errors,
        "seconds": round(time.time() - started, 2),
    }


def print_sample(sample: dict[str, Any]) -> None:
    """Print the question, the completion and the parsed tool calls of `sample_tool_call`'s result."""
    print(f"sample question: {sample['question']}", flush=True)
    print(f"sample completion: {sample['completion'].strip()[:400]}", flush=True)
    if sample["tool_calls"]:
        print(f"parsed tool calls: {json.dumps(sample['tool_calls'], ensure_ascii=False)}", flush=True)
