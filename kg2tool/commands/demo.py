"""`kg2tool demo`: the whole pipeline on one graph — synth, pretrain, SFT, DPO — with a held-out evaluation after
each training stage and one report (report.json, report.md, report.png) in --out.

    kg2tool demo --graph examples/wiki.ttl --out runs/demo            # the tiny presets, CPU
    kg2tool demo --graph examples/company.ttl --out runs/demo-company
    kg2tool demo --graph examples/wiki.ttl --out runs/demo --resume   # continue an interrupted run
    kg2tool demo --plan examples/demo.yaml ...                        # the pipeline file (recipes + overrides)
    kg2tool demo ... --questions examples/wiki-questions.jsonl        # also score questions people wrote
"""

from __future__ import annotations

import argparse

from ..common.errors import require_extra
from .base import build_parser, dispatch

# The commands the demo runs in-process, each exactly as on the command line (same parser, same error handling).
STAGE_COMMANDS = [f"kg2tool.commands.{name}" for name in ("synth", "pretrain", "sft", "dpo", "eval")]

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
    parser.add_argument("--resume", action="store_true", help="skip finished stages, continue an unfinished one")
    parser.add_argument(
        "--questions",
        metavar="FILE",
        help="also score each stage on these questions people wrote (kg2tool eval --questions)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run `kg2tool demo` (run the whole pipeline) with the parsed `args`; return the exit code."""
    for module in ("torch", "transformers", "trl", "peft"):
        require_extra(module, "train")
    from ..demo import DemoPlan, markdown, run_demo

    parser = build_parser(STAGE_COMMANDS)
    result = run_demo(
        args.graph,
        args.out,
        DemoPlan.load(args.plan),
        lambda argv: dispatch(parser, argv),
        seed=args.seed,
        resume=args.resume,
        questions=args.questions,
    )
    print(markdown(result["report"], result["run"]))
    print(f"wrote report.json, report.md, report.png and run.json to {args.out}")
    return 0
