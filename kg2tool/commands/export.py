"""`kg2tool export DIR --format F --out PATH`: write a synth dataset folder in another tool's format.

kg2tool export out/wiki --format openai --out wiki-train.jsonl                   # OpenAI fine-tuning
kg2tool export out/wiki --format openai --config dpo --out wiki-dpo.jsonl        # OpenAI preference
kg2tool export out/wiki --format sharegpt --split validation --out lf/wiki.jsonl # LLaMA-Factory
kg2tool export out/wiki --format bfcl --out wiki-bfcl/                           # BFCL's own files
"""

from __future__ import annotations

import json
import sys

from ..common.errors import UsageError


def register(sub) -> None:
    """Add the `export` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "export",
        help="write a dataset folder as OpenAI JSONL, LLaMA-Factory ShareGPT or BFCL files",
        description="Convert one config and split of a kg2tool dataset folder to another tool's format.",
    )
    p.add_argument("dir", help="dataset folder written by kg2tool synth")
    p.add_argument("--format", required=True, choices=["openai", "sharegpt", "bfcl"], help="output format")
    p.add_argument("--out", required=True, help="output file (openai, sharegpt: JSON lines) or folder (bfcl)")
    p.add_argument("--config", default="sft", choices=["sft", "dpo"], help="which config (default sft)")
    p.add_argument("--split", default=None, help="train, validation or test (default train; bfcl: always test)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run `kg2tool export` (export a dataset folder to other formats) with the parsed `args`; return the exit code."""
    from ..hub.export import export, sharegpt_dataset_info

    if args.split is not None and args.split not in ("train", "validation", "test"):
        raise UsageError(f"--split {args.split!r}: choose train, validation or test")
    res = export(args.dir, args.format, args.out, args.config, args.split, args.overwrite, not args.no_progress)
    what = "BFCL test entries" if args.format == "bfcl" else f"{args.config} rows ({args.split or 'train'})"
    print(f"wrote {res.rows} {what} to {res.out}", file=sys.stderr)
    if args.format == "sharegpt":
        entry = sharegpt_dataset_info(f"kg2tool_{res.out.stem}", res.out.name, args.config)
        print(f"LLaMA-Factory dataset_info.json entry (put {res.out.name} in the same dataset_dir):", file=sys.stderr)
        print(json.dumps(entry, indent=2))
    return 0
