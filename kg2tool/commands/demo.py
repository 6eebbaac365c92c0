"""`kg2tool demo`: the whole pipeline on one graph — synth, pretrain, SFT, DPO — with a held-out evaluation after
each training stage and one report (report.json, report.md, report.png) in --out.

    kg2tool demo --graph examples/wiki.ttl --out runs/demo            # the tiny presets, CPU
    kg2tool demo --graph examples/company.ttl --out runs/demo-company
    kg2tool demo --graph examples/wiki.ttl --out runs/demo --resume   # continue an interrupted run
    kg2tool demo --plan examples/demo.yaml ...                        # the pipeline file (recipes + overrides)
    kg2tool demo ... --questions examples/wiki-questions.jsonl        # also score questions people wrote
    kg2tool demo ... --seeds 0,1,2   # the whole demo once per seed (OUT/seed<N>), then seeds.md: mean (min-max)
    kg2tool demo ... --tool-style refs  # synthesize (and so train and evaluate) in another tool style
"""

from __future__ import annotations

import argparse

from ..common.errors import require_extra
from ..common.toolstyle import ToolStyle
from .base import build_parser, dispatch

# The commands the demo runs in-process, each exactly as on the command line (same parser, same error handling);
# `finetune` holds sft and dpo.
STAGE_COMMANDS = [f"kg2tool.commands.{name}" for name in ("synth", "pretrain", "finetune", "eval")]

HELP = "run synth -> pretrain -> SFT -> DPO with an evaluation after each stage, and report"


def register(subparsers) -> None:
    """Add the `demo` subcommand to `subparsers` (an argparse subparsers object)."""
    parser = subparsers.add_parser(
        "demo", help=HELP, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--graph", action="append", required=True, metavar="FILE", help="graph file (repeatable)")
    parser.add_argument("--out", required=True, help="folder for every stage's outputs and the report")
    parser.add_argument("--plan", default="examples/demo.yaml", help="pipeline file (default: examples/demo.yaml)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every stage (default 0)")
    parser.add_argument(
        "--seeds",
        metavar="LIST",
        help="run the whole demo once per seed (comma-separated, e.g. 0,1,2) into OUT/seed<N>, then write "
        "OUT/seeds.json and seeds.md: every score's mean and min-max over the seeds, and the counts pooled",
    )
    parser.add_argument("--resume", action="store_true", help="skip finished stages, continue an unfinished one")
    parser.add_argument(
        "--questions",
        metavar="FILE",
        help="also score each stage on these questions people wrote (kg2tool eval --questions)",
    )
    parser.add_argument(
        "--tool-style",
        choices=ToolStyle.choices(),
        help="synth's tool style for the multi-step rows (overrides the plan's synth.tool_style; training and "
        "evaluation read it from the dataset folder)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run `kg2tool demo` (run the whole pipeline) with the parsed `args`; return the exit code."""
    seeds = _seeds(args.seeds) if args.seeds else None
    for module in ("torch", "transformers", "trl", "peft"):
        require_extra(module, "train")
    from ..demo import DemoPlan, markdown, run_demo

    parser = build_parser(STAGE_COMMANDS)

    plan = DemoPlan.load(args.plan)
    if args.tool_style:
        plan.synth["tool_style"] = args.tool_style

    def one(out: str, seed: int) -> dict:
        return run_demo(args.graph, out, plan, lambda argv: dispatch(parser, argv), seed=seed, resume=args.resume,
                        questions=args.questions)  # fmt: skip

    if seeds is None:
        result = one(args.out, args.seed)
        print(markdown(result["report"], result["run"]))
        print(f"wrote report.json, report.md, report.png and run.json to {args.out}")
        return 0
    from ..evaluation.seeds import seed_dir, seeds_markdown, write_seeds_report

    for seed in seeds:
        print(f"== seed {seed}: {seed_dir(args.out, seed)}")
        one(str(seed_dir(args.out, seed)), seed)
    print(seeds_markdown(write_seeds_report(args.out, seeds)))
    print(f"wrote seeds.json and seeds.md to {args.out} (each seed's own report in seed<N>/)")
    return 0


def _seeds(text: str) -> list[int]:
    """`--seeds 0,1,2` as distinct integers; UsageError naming the option otherwise."""
    from ..common.errors import UsageError

    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UsageError(f"--seeds {text!r}: give comma-separated integers, e.g. --seeds 0,1,2") from None
    if not seeds or len(set(seeds)) != len(seeds):
        raise UsageError(f"--seeds {text!r}: give one or more distinct integers, e.g. --seeds 0,1,2")
    return seeds
