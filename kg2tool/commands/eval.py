"""`kg2tool eval`: run a model and score it BFCL-style and by execution; `kg2tool eval score` scores decoded predictions.

    kg2tool eval --model PATH --data DIR --graph GRAPH [--backend transformers|vllm|openai] [--parser hermes]
                 [--out OUT] [--limit N] [--max-steps 6]
    kg2tool eval --model gold --data DIR --graph GRAPH        # reference models: gold, no-call
    kg2tool eval --questions FILE --graph GRAPH --model M [--offer related] [--out OUT]   # questions people wrote
    kg2tool eval score --tests TESTS.json --answers ANSWERS.json --predictions PRED.jsonl --out RESULTS.jsonl
    kg2tool eval score --bfcl-data DIR --predictions PRED.jsonl --out RESULTS.jsonl   # categories from the ids

`kg2tool eval --model` generates on the BFCL-format files of DIR/bfcl (AST categories, scored with BFCL's
rules) and runs the model in a loop on the multi_step and multi_turn rows of DIR's sft test split, executing
its calls on the graph (which must be the graph DIR was made from), its labels in DIR's language (--lang). It
writes results.jsonl, summary.json, details.json, report.md, summary.png, report.html (one self-contained page:
scores with 95% intervals, the chart, every row as chat turns, a failed one beside its expected turns) and
kg2tool_config.yaml (the resolved flags, label language and graph checksums) to OUT, and checkpoint.jsonl (every generation as it returns:
`--resume` continues a killed run from it). Semantics: docs/eval.md.

`kg2tool eval --questions FILE` scores a model on questions people wrote about GRAPH (JSON Lines, MetaQA text or
WebQSP/CWQ JSON) by running it with the graph's derived tools and matching its final answer against the answer set
(hits@1, precision, recall, F1, exact match, each with its count and 95% Wilson interval; report.html as above).
`--model path` is the oracle (walks each question's relation_path with the tools; its figure is printed, below 0.95
the file and the graph disagree), `--model gold` answers with the file's answers.

For `score`, each prediction line is ``{"id": ..., "result": [{"fn": {"arg": value}}]}`` (``[]`` for no call).
Results are one line per test (``id``, ``category``, ``valid``, ``error_type``, ``error``) plus
``RESULTS.summary.json``. The category of an entry comes from its id (``parallel_multiple_3`` ->
``parallel_multiple``) unless ``--category`` is given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..common.errors import InputError, OutputError, UsageError


def register(subparsers) -> None:
    """Add `eval` (and `eval score`) to `subparsers`."""
    parser = subparsers.add_parser(
        "eval",
        help="run a model and score its tool calls (BFCL-style and executed on the graph)",
        description=__doc__.split("\n\nFor `score`")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=lambda args: run_eval(args, parser))
    _add_run_options(parser)
    sub = parser.add_subparsers(dest="eval_command", metavar="SUBCOMMAND")
    score = sub.add_parser(
        "score",
        help="score decoded predictions (no model run)",
        description=SCORE_DESCRIPTION,
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


SCORE_DESCRIPTION = """Score decoded predictions against BFCL-format tests (no model run).

    kg2tool eval score --tests TESTS.json --answers ANSWERS.json --predictions PRED.jsonl --out RESULTS.jsonl
    kg2tool eval score --bfcl-data --category simple_python --predictions PRED.jsonl --out RESULTS.jsonl
    kg2tool eval score --bfcl-data DIR --predictions PRED.jsonl --out RESULTS.jsonl   # categories from the ids

Each prediction line is {"id": ..., "result": [{"fn": {"arg": value}}]} ([] for no call). Results are one line
per test (id, category, valid, error_type, error) plus RESULTS.summary.json. The category of an entry comes from
its id (parallel_multiple_3 -> parallel_multiple) unless --category is given. Semantics: docs/eval.md.
"""


def _add_backend_options(run) -> None:
    """The flags of the generation backends (transformers' device and dtype, the openai endpoint) and of reading
    the graph (BFCL's dotted names, the label language)."""
    run.add_argument("--device", default="auto", help="transformers: auto, cpu, cuda, cuda:N (default auto)")
    run.add_argument("--dtype", default="auto", help="auto, float32, bfloat16, float16 (default auto)")
    run.add_argument("--base-url", help="openai: the endpoint, e.g. http://localhost:8000/v1")
    run.add_argument("--api-key-env", metavar="VAR", help="openai: environment variable holding the API key")
    run.add_argument("--concurrency", type=int, default=8, help="openai: requests in flight (default 8)")
    run.add_argument(
        "--underscore-to-dot",
        action="store_true",
        help="offer dotted BFCL function names with underscores and expect them so (needed by OpenAI's API)",
    )
    run.add_argument(
        "--lang",
        default=None,
        help="label language used when loading the graph (synth's --lang; default: the one recorded in DIR, else en)",
    )


def _add_report_options(run) -> None:
    """What is scored (AST, executable, step-wise) and what happens to the report folder."""
    run.add_argument("--no-ast", action="store_true", help="skip the BFCL-style AST categories")
    run.add_argument("--no-exec", action="store_true", help="skip the executable multi-step loop")
    run.add_argument(
        "--stepwise",
        action="store_true",
        help="also score each assistant turn of the executable rows after the gold conversation before it "
        "(first call, later calls, final answer): where multi-step conversations go wrong",
    )
    run.add_argument("--no-plot", action="store_true", help="do not write summary.png (no matplotlib needed)")
    run.add_argument("--overwrite", action="store_true", help="replace an existing report folder")
    run.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted run in OUT: generations saved in OUT/checkpoint.jsonl are replayed, not redone",
    )


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    run = parser.add_argument_group("running a model (kg2tool eval --model M --data DIR)")
    run.add_argument(
        "--model",
        metavar="M",
        help="checkpoint folder (transformers, vllm), served model name (openai), or a reference model: "
        "gold (replays the ground truth), no-call (always answers with text); with --questions: path (the oracle) "
        "or gold",
    )
    run.add_argument(
        "--config",
        metavar="YAML",
        help="flags from a YAML file (eval/*.yaml): keys are the flag names with underscores (max_new_tokens); "
        "flags given on the command line win",
    )
    run.add_argument("--data", metavar="DIR", help="dataset folder written by kg2tool synth (or a BFCL data folder)")
    run.add_argument(
        "--graph",
        action="append",
        metavar="FILE",
        help="graph file(s) the dataset was made from, for executing calls (repeatable; default: the files "
        "recorded in DIR/validation_report.json when they exist)",
    )
    run.add_argument(
        "--backend",
        choices=["transformers", "vllm", "openai"],
        default="transformers",
        help="how the model runs (default transformers; ignored for gold and no-call)",
    )
    run.add_argument(
        "--parser",
        choices=["hermes", "json", "python"],
        default="hermes",
        help="how tool calls are read from the model's text (default: hermes <tool_call> blocks)",
    )
    run.add_argument("--out", metavar="OUT", help="report folder (default: eval-results/<data>-<model>)")
    run.add_argument("--limit", type=int, metavar="N", help="at most N entries per category")
    run.add_argument("--max-steps", type=int, default=6, help="call turns allowed per user turn (default 6)")
    run.add_argument("--max-new-tokens", type=int, default=512, help="tokens generated per turn (default 512)")
    run.add_argument("--batch-size", type=int, default=8, help="prompts per generate() call (transformers)")
    run.add_argument(
        "--constrain",
        choices=["none", "copy"],
        default="none",
        help="transformers: 'copy' restricts every string inside a tool call to tokens copied from the prompt "
        "(names, tool names, enum values, refs); scores then say what the model picks, not whether it can copy "
        "(default none)",
    )
    _add_backend_options(run)
    _add_question_options(parser)
    _add_report_options(run)


def _add_question_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("questions people wrote (kg2tool eval --questions FILE --graph G --model M)")
    group.add_argument(
        "--questions",
        metavar="FILE",
        help="questions about --graph with their answers: .jsonl (question, answers, topic_entity, relation_path, "
        "hops, id), MetaQA text ('question with [topic]<TAB>a|b') or WebQSP/CWQ .json; --model path walks each "
        "relation_path with the tools (the oracle), --model gold answers with the file's answers",
    )
    group.add_argument(
        "--questions-format",
        choices=["jsonl", "metaqa", "webqsp"],
        help="the format of --questions (default: from the extension: .jsonl, .json, else MetaQA)",
    )
    group.add_argument(
        "--offer",
        choices=["all", "related"],
        default="all",
        help="tools offered per question: all derived tools (default), or those BM25 ranks highest",
    )
    group.add_argument(
        "--top-k",
        type=int,
        default=5,
        metavar="K",
        help="--offer related: relations/attributes whose tools are offered (default 5)",
    )
    group.add_argument(
        "--exclude-topic",
        action="store_true",
        help="leave the topic entity out of the set every hop reaches, intermediate ones included, as MetaQA-style "
        "multi-hop sets are built: the oracle's walk, the file's answers and the scoring alike",
    )
    group.add_argument(
        "--min-support",
        type=int,
        default=5,
        metavar="N",
        help="derive tools for relations with at least N facts, as synth does (default 5)",
    )
    group.add_argument("--lexicon", metavar="FILE", help="an edited lexicon.yaml, as given to synth")  # fmt: skip


def run_questions(args: argparse.Namespace) -> int:
    """Run `kg2tool eval --questions FILE`: write results.jsonl, summary.json, details.json, report.md and
    kg2tool_config.yaml to OUT (default eval-results/<questions>-<model>)."""
    from .. import __version__
    from ..common.config import resolved_record, write_resolved
    from ..evaluation.kgqa_run import (
        QuestionOptions,
        check_question_options,
        evaluate_questions,
        write_question_reports,
    )

    if not args.model:
        raise UsageError("kg2tool eval --questions needs --model (a checkpoint, a served model, path or gold)")
    options = QuestionOptions(
        questions=args.questions, graphs=args.graph or [], model=args.model, fmt=args.questions_format,
        offer=args.offer, top_k=args.top_k, exclude_topic=args.exclude_topic, min_support=args.min_support,
        lexicon=args.lexicon, lang=args.lang or "en", backend=args.backend, parser=args.parser,
        max_steps=args.max_steps, limit=args.limit, backend_options=eval_options(args).backend_options,
    )  # fmt: skip
    check_question_options(options)
    out = Path(args.out) if args.out else _default_out(args.model, args.questions)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not args.overwrite)):
        raise OutputError(f"{out} exists and is not an empty folder (use --overwrite to replace its reports)")
    rows, summary, details = evaluate_questions(options)
    title = f"kg2tool eval: {args.model} on {Path(args.questions).name}"
    paths = write_question_reports(out, rows, summary, details, title)
    record = resolved_record(
        "eval", resolved_flags(args), version=__version__, lang=options.lang, graphs=options.graphs
    )
    paths.append(write_resolved(out, record))
    from ..evaluation.kgqa import markdown

    print("\n".join(line for line in markdown(details, title).splitlines() if line.startswith("|")))
    print(f"answers no entity of the graph matches: {summary['answers_not_in_graph']}")
    if details.get("oracle"):
        from ..evaluation.kgqa import oracle_line

        print(oracle_line(details))
    if details["inexpressible"]:
        print(f"not expressible by the path model: {len(details['inexpressible'])} (listed in report.md)")
    print(f"wrote {', '.join(p.name for p in paths)} to {out}")
    return 0


def _default_out(model: str, data: str) -> Path:
    def tag(text: str) -> str:
        name = Path(text.rstrip("/")).name or text
        return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)

    return Path("eval-results") / f"{tag(data)}-{tag(model)}"


NOT_IN_CONFIG = {"help", "config", "eval_command", "func"}


def config_defaults(path: str, parser: argparse.ArgumentParser) -> dict:
    """The `--config` file's values by flag destination, checked against `parser`'s flags (`kg2tool.common.config`:
    unknown keys are a UsageError, bad values an InputError, both naming the file and the key)."""
    from ..common.config import fields_of_parser, read_config

    return read_config(path, fields_of_parser(parser, NOT_IN_CONFIG), "eval config")


def with_config(args: argparse.Namespace, parser: argparse.ArgumentParser) -> argparse.Namespace:
    """`args` re-parsed with the `--config` file's values as defaults (the command line's own flags win)."""
    from ..common.config import parse_with_config

    defaults = config_defaults(args.config, parser)
    argv = list(getattr(args, "_argv", []))
    if "eval" not in argv:
        raise UsageError("--config: cannot find the command line to re-read")
    new = parse_with_config(parser, argv[argv.index("eval") + 1 :], defaults)
    new._argv = argv
    return new


def eval_options(args: argparse.Namespace):
    """The `EvalOptions` of the parsed `kg2tool eval` flags."""
    from ..evaluation.runner import EvalOptions

    return EvalOptions(
        model=args.model,
        data=args.data,
        graphs=args.graph or [],
        backend=args.backend,
        parser=args.parser,
        limit=args.limit,
        max_steps=args.max_steps,
        ast=not args.no_ast,
        exec=not args.no_exec,
        underscore_to_dot=args.underscore_to_dot,
        lang=args.lang,
        stepwise=args.stepwise,
        backend_options={
            "device": args.device,
            "dtype": args.dtype,
            "batch_size": args.batch_size,
            "max_new_tokens": args.max_new_tokens,
            "constrain": args.constrain,
            "base_url": args.base_url,
            "api_key_env": args.api_key_env,
            "concurrency": args.concurrency,
        },
    )


def resolved_flags(args: argparse.Namespace) -> dict:
    """The parsed flags as saved in the report folder's kg2tool_config.yaml (by flag destination)."""
    return {k: v for k, v in vars(args).items() if not k.startswith("_") and k not in ("func", "eval_command")}


def run_eval(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run `kg2tool eval --model M --data DIR` with the parsed `args`; write the reports and kg2tool_config.yaml
    (the resolved flags, the label language and graph files used, with their sha256) to OUT."""
    if args.config:
        args = with_config(args, parser)
    if args.questions:
        if args.data:
            raise UsageError("give either --questions FILE or --data DIR, not both")
        return run_questions(args)
    if not args.model and not args.data:
        return _print_help(parser)
    if not args.model or not args.data:
        raise UsageError("kg2tool eval needs both --model and --data (or the `score` subcommand)")
    from .. import __version__
    from ..common.config import resolved_record, write_resolved
    from ..evaluation.report import format_table, require_matplotlib, write_reports
    from ..evaluation.runner import check_options, evaluate

    options = eval_options(args)
    check_options(options)  # before the output folder is looked at
    out = Path(args.out) if args.out else _default_out(args.model, args.data)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not (args.overwrite or args.resume):
        raise OutputError(
            f"{out} exists and is not empty (use --resume to continue an interrupted run, --overwrite to replace its "
            "reports)"
        )
    if not args.no_plot:
        require_matplotlib()  # before any generation, not after it
    from ..evaluation.checkpoint import CHECKPOINT_NAME

    rows, summary, details = evaluate(options, checkpoint=out / CHECKPOINT_NAME, resume=args.resume)
    title = f"kg2tool eval: {args.model} on {Path(args.data).name}"
    from ..evaluation.report_page import load_expected

    expected = load_expected(args.data, {r["category"] for r in rows if r.get("kind") == "ast"})
    paths = write_reports(out, rows, summary, details, plot=not args.no_plot, title=title, expected=expected)
    run = details["run"]
    record = resolved_record("eval", resolved_flags(args), version=__version__, lang=run["lang"], graphs=run["graphs"])
    paths.append(write_resolved(out, record))
    print(format_table(summary, details))
    print(f"wrote {', '.join(p.name for p in paths)} to {out}")
    return 0


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
    """Run `kg2tool eval score`: score the decoded predictions, write the results and their summary."""
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
        print(
            f"warning: {len(ignored)} predictions have no test and were ignored (e.g. {ignored[0]!r})", file=sys.stderr
        )
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
