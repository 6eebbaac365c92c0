"""`kg2tool eval`: BFCL-style scoring. `kg2tool eval score` scores decoded predictions without running a model.

    kg2tool eval score --tests TESTS.json --answers ANSWERS.json --predictions PRED.jsonl --out RESULTS.jsonl
    kg2tool eval score --bfcl-data --category simple_python --predictions PRED.jsonl --out RESULTS.jsonl
    kg2tool eval score --bfcl-data DIR --predictions PRED.jsonl --out RESULTS.jsonl   # categories from the ids

Each prediction line is ``{"id": ..., "result": [{"fn": {"arg": value}}]}`` (``[]`` for no call). Results are
one line per test (``id``, ``category``, ``valid``, ``error_type``, ``error``) plus ``RESULTS.summary.json``.
The category of an entry comes from its id (``parallel_multiple_3`` -> ``parallel_multiple``) unless
``--category`` is given. Semantics: docs/eval.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError, OutputError, UsageError


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval", help="score tool calls BFCL-style", description=__doc__.splitlines()[0])
    parser.set_defaults(func=lambda args: _print_help(parser))
    sub = parser.add_subparsers(dest="eval_command", metavar="SUBCOMMAND")
    score = sub.add_parser(
        "score",
        help="score decoded predictions (no model run)",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    data = score.add_argument_group("test data (either --tests [--answers], or --bfcl-data)")
    data.add_argument("--tests", metavar="TESTS.json", help="BFCL-format test entries (JSON lines)")
    data.add_argument("--answers", metavar="ANSWERS.json", help="possible answers, joined to tests by id")
    data.add_argument(
        "--bfcl-data",
        nargs="?",
        const="",
        metavar="DIR",
        help="BFCL's data folder (BFCL_v*_<category>.json, possible_answer/); without DIR, the installed bfcl-eval's",
    )
    score.add_argument("--predictions", required=True, metavar="PRED.jsonl", help="decoded predictions, one per line")
    score.add_argument("--out", required=True, metavar="RESULTS.jsonl", help="per-entry results (JSON lines)")
    score.add_argument(
        "--category",
        action="append",
        metavar="C",
        help="category of the tests (default: from each id); with --bfcl-data, the categories to load (repeatable)",
    )
    score.add_argument(
        "--underscore-to-dot",
        action="store_true",
        help="expect dotted function names written with underscores (BFCL's rule for OpenAI-style models)",
    )
    score.add_argument(
        "--matching",
        choices=["greedy", "optimal"],
        default="greedy",
        help="parallel call matching: BFCL's greedy (default) or a maximum one-to-one matching",
    )
    score.add_argument("--overwrite", action="store_true", help="replace existing result files")
    score.set_defaults(func=run_score)


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _load_tests(args: argparse.Namespace, predictions: dict) -> dict:
    from ..evaluation import bfcl_data
    from ..evaluation.ast_checker import category_from_id

    if args.bfcl_data is not None:
        if args.tests or args.answers:
            raise UsageError("use either --bfcl-data or --tests/--answers, not both")
        data_dir = Path(args.bfcl_data) if args.bfcl_data else bfcl_data.installed_data_dir()
        categories = args.category or sorted({category_from_id(key) for key in predictions})
        tests = {}
        for category in categories:
            try:
                entries = bfcl_data.load_category(data_dir, category)
            except InputError as exc:
                hint = "" if args.category else f" (inferred from the ids in {args.predictions}; pass --category)"
                raise InputError(f"{exc}{hint}") from None
            tests.update({entry.id: entry for entry in entries})
        return tests
    if not args.tests:
        raise UsageError("give --tests TESTS.json (and --answers ANSWERS.json), or --bfcl-data [DIR]")
    if args.category and len(args.category) > 1:
        raise UsageError("with --tests, give at most one --category")
    tests = bfcl_data.load_tests(args.tests, args.category[0] if args.category else None)
    answers = bfcl_data.load_answers(args.answers) if args.answers else {}
    bfcl_data.join_answers(tests, answers, args.answers)
    return tests


def run_score(args: argparse.Namespace) -> int:
    from ..evaluation import bfcl_data, scoring

    out = Path(args.out)
    for target in (out, scoring.summary_path(out)):
        if target.exists() and not args.overwrite:
            raise OutputError(f"{target} exists (use --overwrite to replace it)")
    predictions = bfcl_data.load_predictions(args.predictions)
    tests = _load_tests(args, predictions)
    rows = scoring.score_entries(tests, predictions, underscore_to_dot=args.underscore_to_dot, matching=args.matching)
    ignored = sorted(set(predictions) - set(tests))
    if ignored:
        print(f"warning: {len(ignored)} predictions have no test and were ignored (e.g. {ignored[0]!r})", file=sys.stderr)
    summary = scoring.summarize(
        rows,
        tests=str(args.tests or args.bfcl_data or "bfcl-eval"),
        answers=args.answers,
        predictions=str(args.predictions),
        results=str(out),
        checker={"matching": args.matching, "underscore_to_dot": args.underscore_to_dot},
        missing_predictions=sum(row["error_type"] == scoring.MISSING for row in rows),
        ignored_predictions=len(ignored),
    )
    summary_file = scoring.write_results(out, rows, summary)
    print(scoring.format_summary(summary))
    print(f"wrote {out} and {summary_file}")
    return 0
