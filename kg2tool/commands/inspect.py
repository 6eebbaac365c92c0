"""`kg2tool inspect DIR`: summary table, PNG plots, sample conversations and report.html of a synth dataset folder."""

from __future__ import annotations

import json
from pathlib import Path


def register(sub) -> None:
    """Add the `inspect` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "inspect",
        help="summarize a synth dataset folder (table, plots, samples)",
        description="Print what a dataset folder holds; with --out, write its plots and report.html (a self-contained "
        "page: the tables, the plots and the rows as filterable conversations) there.",
    )
    p.add_argument("dir", help="dataset folder written by kg2tool synth")
    p.add_argument(
        "--out", default=None, help="folder for PNG plots (shape mix, hops, relation coverage, ...) and report.html"
    )
    p.add_argument(
        "--html-rows",
        type=int,
        default=500,
        metavar="N",
        help="rows of each split embedded in report.html (default 500)",
    )
    p.add_argument("--samples", type=int, default=3, help="sample conversations to print (default 3)")
    p.add_argument("--seed", type=int, default=0, help="which samples (default 0)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of tables")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run `kg2tool inspect` (summarize a dataset folder) with the parsed `args`; return the exit code."""
    from ..common.errors import UsageError
    from ..hub.inspect import (
        figures,
        format_conversation,
        format_summary,
        html_page,
        load_rows,
        plot,
        samples,
        summarize,
    )
    from ..hub.report_html import write_html

    if args.html_rows < 0:
        raise UsageError(f"--html-rows must be 0 or more, not {args.html_rows}")

    rows = load_rows(args.dir)
    summary = summarize(rows)
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        print(format_summary(summary))
    if args.out:
        images = figures(summary)
        paths = plot(summary, args.out, images)
        title = f"kg2tool inspect: {Path(args.dir).resolve().name}"
        page = html_page(rows, summary, images, max_rows=args.html_rows, title=title)
        paths.append(write_html(Path(args.out) / "report.html", page))
        print(f"\nwrote {len(paths) - 1} plots and report.html to {args.out}: {', '.join(p.name for p in paths)}")
    if args.samples and not args.json:
        print()
        for row in samples(rows, args.samples, args.seed):
            print(format_conversation(row))
            print()
    return 0
