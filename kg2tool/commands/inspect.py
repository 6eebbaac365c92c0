"""`kg2tool inspect DIR`: summary table, PNG plots and sample conversations of a synth dataset folder."""

from __future__ import annotations

import json


def register(sub) -> None:
    """Add the `inspect` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "inspect",
        help="summarize a synth dataset folder (table, plots, samples)",
        description="Print what a dataset folder holds; write plots with --out.",
    )
    p.add_argument("dir", help="dataset folder written by kg2tool synth")
    p.add_argument("--out", default=None, help="folder for PNG plots (shape mix, hops, relation coverage, ...)")
    p.add_argument("--samples", type=int, default=3, help="sample conversations to print (default 3)")
    p.add_argument("--seed", type=int, default=0, help="which samples (default 0)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of tables")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run `kg2tool inspect` (summarize a dataset folder) with the parsed `args`; return the exit code."""
    from ..hub.inspect import format_conversation, format_summary, load_rows, plot, samples, summarize

    rows = load_rows(args.dir)
    summary = summarize(rows)
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        print(format_summary(summary))
    if args.out:
        paths = plot(summary, args.out)
        print(f"\nwrote {len(paths)} plots to {args.out}: {', '.join(p.name for p in paths)}")
    if args.samples and not args.json:
        print()
        for row in samples(rows, args.samples, args.seed):
            print(format_conversation(row))
            print()
    return 0
