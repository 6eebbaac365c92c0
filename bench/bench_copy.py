"""Does a copy warm-up teach copying that carries over to tool calls? (research log, session 8)

    python bench/bench_copy.py --prepared runs/pretrain-tiny/prepared --layout fixed --steps 300 --segment 24
    python bench/bench_copy.py --prepared runs/pretrain-tiny/prepared --layout varied --steps 5000 --segment 8 --lr 1e-3
    python bench/bench_copy.py --prepared runs/pretrain-tiny/prepared --model runs/pretrain-tiny --steps 0

A fresh model of the preset (the tokenizer and copy pool of a `kg2tool pretrain` run's `prepared/` folder) is
trained on the copy task alone (`kg2tool.train.copy_task.copy_warmup`, the given layout), then read on random-name
conversations of the graph (`copy_data.iter_random_name_rows`, names no model has seen): with the conversation up to
the first call's name given (teacher forcing), how many of the name's tokens after its first does greedy prediction
get right? Only copying from the question can get them. Prints the task's own copy accuracy beside it: the fixed
layout reaches ~1.0 on its task while getting ~0 names (a positional shortcut), measured on this project's machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def name_continuation(model, tokenizer, rows) -> tuple[int, int, int, int]:
    """(right, total) greedy predictions of the first call's name tokens after its first, teacher-forced, then
    (right, total) for the first token itself (finding which name of the question goes into the call)."""
    import torch

    right = total = first_right = first_total = 0
    model.eval()
    for row in rows:
        messages = row["messages"][:2]
        args = messages[1]["tool_calls"][0]["function"]["arguments"]
        args = json.loads(args) if isinstance(args, str) else args
        name = next((v for v in args.values() if isinstance(v, str)), None)
        if not name:
            continue
        text = tokenizer.apply_chat_template(messages, tokenize=False)
        start = text.rindex(json.dumps(name, ensure_ascii=False)[:-1]) + 1  # just after the name's opening quote
        before = tokenizer(text[:start], add_special_tokens=False).input_ids
        ids = tokenizer(text[: start + len(name)], add_special_tokens=False).input_ids
        with torch.no_grad():
            pred = model(torch.tensor([ids])).logits[0].argmax(-1)
        if len(ids) > len(before) and ids[: len(before)] == before:
            first_total += 1
            first_right += int(pred[len(before) - 1] == ids[len(before)])
        for k in range(len(before) + 1, len(ids)):
            total += 1
            right += int(pred[k - 1] == ids[k])
    return right, total, first_right, first_total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prepared", required=True, help="a kg2tool pretrain run's prepared/ folder (tokenizer, pool)")
    ap.add_argument("--graph", default=str(ROOT / "examples" / "wiki.ttl"))
    ap.add_argument("--layout", choices=["fixed", "varied"], default="fixed")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--segment", type=int, default=24, help="segment length (the varied layout: at most)")
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--preset", default="tiny")
    ap.add_argument("--rows", type=int, default=80, help="random-name conversations to read")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--model", help="read this trained model (e.g. a kg2tool pretrain run) instead of a fresh one; "
                    "with --steps 0 it is only read")
    args = ap.parse_args()
    import itertools

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, set_seed

    from kg2tool.graph.build import load_graph
    from kg2tool.train.copy_data import iter_random_name_rows
    from kg2tool.train.copy_task import CopyTask, copy_accuracy, copy_warmup
    from kg2tool.train.moe import get_preset

    torch.set_num_threads(args.threads)
    prepared = Path(args.prepared)
    tokenizer = AutoTokenizer.from_pretrained(prepared / "tokenizer")
    pool = json.loads((prepared / "copy_pool.json").read_text())
    preset = get_preset(args.preset).with_overrides(vocab_size=len(tokenizer))
    config = preset.to_config(pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                              bos_token_id=None, max_position_embeddings=512)  # fmt: skip
    set_seed(0)
    model = AutoModelForCausalLM.from_pretrained(args.model) if args.model else AutoModelForCausalLM.from_config(config)
    task = CopyTask(pool, args.segment, seed=0, layout=args.layout)
    started = time.time()
    history = copy_warmup(model, task, args.steps, args.lr, log=None) if args.steps else [{"loss": float("nan")}]
    seconds = time.time() - started
    kg = load_graph([args.graph])
    calls = (r for r in iter_random_name_rows(kg, seed=999) if len(r["messages"]) > 1 and r["messages"][1].get("tool_calls"))
    rows = list(itertools.islice(calls, args.rows))
    right, total, first_right, first_total = name_continuation(model, tokenizer, rows)
    print(f"layout {args.layout}, segments up to {args.segment}, {args.steps} steps at lr {args.lr} ({seconds:.0f} s): "
          f"task loss {history[-1]['loss']:.2f}, task copy accuracy {copy_accuracy(model, task):.2f}; "
          f"name tokens after the first, teacher-forced, on {len(rows)} random-name conversations: "
          f"{right}/{total} ({right / max(1, total):.2f}); first name token: {first_right}/{first_total}")  # fmt: skip


if __name__ == "__main__":
    main()
