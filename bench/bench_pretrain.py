"""Benchmark: the tiny MoE preset vs a dense model with the same active parameter count, in one run.

    python bench/bench_pretrain.py                                  # bundled graph, 150 steps each
    python bench/bench_pretrain.py --steps 300 --bf16 --png runs/bench/loss.png

Both models are qwen2_moe configs trained with the same `MoePretrainer` on the same packed corpus (the bundled
graph's facts plus random-name tool-call conversations), one after the other in this process, so the CPU and
its load are the same for both. The dense model makes every layer a plain MLP whose width is top_k x routed
width + shared width, so its parameters equal the MoE's active parameters (less the routers).

Reported per model: parameters (total / active), tokens per second (over all steps after `--skip` warm-up
steps), seconds per step, peak memory, first and last LM loss. Peak memory is the process's peak RSS
(`ru_maxrss`), measured for each model in a fresh child process so the first run does not mask the second.
The MoE/dense ratio of seconds per step is the MoE overhead. The loss curves go to a PNG (needs matplotlib;
without it a CSV is written instead).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _train_one(kind: str, args: argparse.Namespace, data_dir: str, queue) -> None:
    """Train one model for `args.steps` steps on the prepared corpus; put its figures on `queue`."""
    import datasets
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback, set_seed

    from kg2tool.train.moe import count_model_params, get_preset
    from kg2tool.train.moe_trainer import MoePretrainer, collate_blocks
    from kg2tool.train.pretrain_config import PretrainConfig

    if args.threads:
        torch.set_num_threads(args.threads)
    tokenizer = AutoTokenizer.from_pretrained(Path(data_dir) / "tokenizer")
    dataset = datasets.load_from_disk(str(Path(data_dir) / "blocks"))
    config = PretrainConfig(
        output_dir=str(Path(data_dir) / kind),
        max_steps=args.steps,
        per_device_train_batch_size=args.batch_size,
        learning_rate=args.lr,
        warmup_steps=min(30, args.steps // 5),
        lr_scheduler_type="cosine",
        weight_decay=0.1,
        adam_beta2=0.95,
        logging_steps=args.log_every,
        save_strategy="no",
        report_to="none",
        disable_tqdm=True,
        use_cpu=True,
        bf16=args.bf16,
        seed=0,
        spike_factor=0.0,  # measure the plain step
    )
    preset = get_preset("tiny").with_overrides(vocab_size=len(tokenizer))
    ids = {"pad_token_id": tokenizer.pad_token_id, "eos_token_id": tokenizer.eos_token_id, "bos_token_id": None}
    model_config = preset.to_config(**ids) if kind == "moe" else preset.dense_counterpart_config(**ids)
    set_seed(0)
    model = AutoModelForCausalLM.from_config(model_config)
    step_times: list[float] = []

    class Timer(TrainerCallback):
        def on_step_begin(self, a, state, control, **kw):
            self.t = time.perf_counter()

        def on_step_end(self, a, state, control, **kw):
            step_times.append(time.perf_counter() - self.t)

    trainer = MoePretrainer(
        model=model,
        args=config,
        train_dataset=dataset,
        data_collator=collate_blocks,
        processing_class=tokenizer,
        callbacks=[Timer()],
    )
    trainer.train()
    timed = step_times[args.skip :] or step_times
    sec_per_step = sum(timed) / len(timed)
    curve = [(h["step"], h["lm_loss"]) for h in trainer.state.log_history if "lm_loss" in h]
    counts = count_model_params(model)
    queue.put(
        {
            "kind": kind,
            "params_total": counts["total"],
            "params_active": counts["active"],
            "sec_per_step": sec_per_step,
            "tokens_per_sec": args.batch_size * len(dataset[0]["input_ids"]) / sec_per_step,
            "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
            "curve": curve,
        }
    )


def prepare(args: argparse.Namespace, work: Path) -> str:
    """Build the corpus + tokenizer once (same code path as `kg2tool pretrain`)."""
    from kg2tool.train.pretrain_config import PretrainConfig
    from kg2tool.train.pretrain_data import prepare_data

    config = PretrainConfig(
        output_dir=str(work),
        graph=args.graph,
        max_length=args.seq_len,
        fact_passes=1,
        vocab_size=8192,
        report_to="none",
        use_cpu=True,
    )
    tokenizer, dataset, stats = prepare_data(config, work / "prepared")
    print(f"corpus: {stats['tokens']:,} tokens, {stats['blocks']:,} blocks of {args.seq_len}, vocab {len(tokenizer)}")
    return str(work / "prepared")


def plot(results: list[dict], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        csv = path.with_suffix(".csv")
        rows = ["model,step,lm_loss"] + [f"{r['kind']},{s},{v}" for r in results for s, v in r["curve"]]
        csv.write_text("\n".join(rows) + "\n")
        print("matplotlib is not installed: wrote the curves as CSV instead")
        return csv
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in results:
        steps, losses = zip(*r["curve"], strict=True)
        label = f"{r['kind']} ({r['params_total'] / 1e6:.2f}M total, {r['params_active'] / 1e6:.2f}M active)"
        ax.plot(steps, losses, label=label)
    ax.set_xlabel("optimizer step")
    ax.set_ylabel("LM loss")
    ax.set_title("tiny qwen2_moe vs dense of equal active size")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graph", nargs="+", default=[str(ROOT / "examples" / "wiki.ttl")])
    p.add_argument("--steps", type=int, default=150)
    p.add_argument("--skip", type=int, default=10, help="warm-up steps left out of the timing")
    p.add_argument("--batch_size", type=int, default=8)
    p.add_argument("--seq_len", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--log_every", type=int, default=10)
    p.add_argument("--bf16", action="store_true", help="bf16 autocast (CPU: often faster)")
    p.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    p.add_argument("--png", default=str(ROOT / "runs" / "bench" / "pretrain_loss.png"))
    p.add_argument("--json", default=None, help="also write the figures here")
    args = p.parse_args(argv)

    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = prepare(args, Path(tmp))
        ctx = mp.get_context("spawn")
        results = []
        for kind in ("moe", "dense"):
            queue = ctx.Queue()
            proc = ctx.Process(target=_train_one, args=(kind, args, data_dir, queue))
            proc.start()
            results.append(queue.get())
            proc.join()
            if proc.exitcode:
                print(f"{kind} run failed with exit code {proc.exitcode}", file=sys.stderr)
                return 1
    moe, dense = results
    print(f"\n{'model':6} {'total':>8} {'active':>8} {'s/step':>7} {'tokens/s':>9} {'peak RSS':>9} {'LM loss':>15}")
    for r in results:
        first, last = r["curve"][0][1], r["curve"][-1][1]
        print(
            f"{r['kind']:6} {r['params_total'] / 1e6:7.2f}M {r['params_active'] / 1e6:7.2f}M "
            f"{r['sec_per_step']:7.3f} {r['tokens_per_sec']:9.0f} {r['peak_rss_gb']:8.2f}G "
            f"{first:7.3f}->{last:6.3f}"
        )
    ratio = moe["sec_per_step"] / dense["sec_per_step"]
    print(f"MoE overhead: a MoE step costs {ratio:.2f}x a dense step of equal active size")
    print(f"load average (1 min) at start {load_start:.2f}, at end {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    out = plot(results, Path(args.png))
    print(f"loss curves: {out}")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "moe_over_dense": ratio}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
