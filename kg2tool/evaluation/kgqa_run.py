"""``kg2tool eval --questions FILE --graph G --model M``: run a model on questions people wrote, by calling the
graph's derived tools, and score its final answers KGQA-style (``kgqa``).

Each question becomes one conversation of the executable loop (``execution.run_exec``, as for multi_step rows):
the user message is the question, the tools are the graph's derived ones (``ToolSet.from_graph`` with synth's
derivation options: ``min_support``, ``lexicon``, ``lang``), all of them or the ones the retriever picks
(``offer="related"``), and the final assistant text is scored. Models:

* ``path``, the oracle: executes the question's ``relation_path`` from its ``topic_entity`` with the derived tools
  (real calls through the ToolSet: one call turn per hop, over every entity the previous hop reached; then
  ``intersection`` of several paths, or ``count`` for ``aggregate: count``), then replays those calls and the
  resulting answer through the same loop, so its calls are validated and executed like any model's. Questions it
  cannot express (no topic or path, an unknown relation, no tool for a relation, a topic the tool does not find)
  are listed with the reason and left out of its scores;
* ``gold``: answers with the file's own answers (a check of the matcher: 100%);
* anything else: a checkpoint folder or served model on the ``transformers``/``vllm``/``openai`` backends.

``exclude_topic`` leaves the topic entities out of the set *every hop* reaches, as multi-hop KGQA sets (MetaQA)
are built: the oracle drops them from each hop's results before the next hop's calls ("the genres of the films
written by Dust's screenwriters" are those of the writers' *other* films, not Dust's own), the file's answers lose
them, and naming one is never a wrong answer. Without it, only the last point holds.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.errors import UsageError
from ..llm.backends import GoldModel, make_backend
from ..llm.parsers import get_parser
from ..synth.tools.toolset import ToolError, ToolSet
from . import kgqa
from .ast_values import normalize_string
from .execution import ExecTask, run_exec
from .questions import Bound, bind, parse_step, read_questions
from .retriever import ToolRetriever, recall

QUESTION_MODELS = ("path", "gold")
OFFERS = ("all", "related")


@dataclass
class QuestionOptions:
    """Settings of one ``kg2tool eval --questions`` run (``backend_options`` as for ``EvalOptions``)."""

    questions: str
    graphs: list[str]
    model: str
    fmt: str | None = None
    offer: str = "all"
    top_k: int = 5
    exclude_topic: bool = False
    min_support: int = 5
    lexicon: str | None = None
    lang: str = "en"
    backend: str = "transformers"
    parser: str = "hermes"
    max_steps: int = 6
    limit: int | None = None
    backend_options: dict[str, Any] = field(default_factory=dict)


def check_question_options(options: QuestionOptions) -> None:
    """UsageError for settings that cannot run (before anything is loaded)."""
    if not options.graphs:
        raise UsageError("--questions needs --graph FILE: the graph the questions are about")
    if options.offer not in OFFERS:
        raise UsageError(f"--offer must be one of {', '.join(OFFERS)}")
    if options.top_k < 1 or options.max_steps < 1 or (options.limit is not None and options.limit < 1):
        raise UsageError("--top-k, --max-steps and --limit must be at least 1")


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def path_tools(ts: ToolSet, kg, b: Bound) -> tuple[list[list[str]], str | None]:
    """The tool of each step of each relation path of a bound question, and why the path cannot be expressed
    (None when it can)."""
    if not b.q.topics:
        return [], "no topic_entity"
    if not b.q.paths:
        return [], "no relation_path"
    chains = []
    for path in b.q.paths:
        chain = []
        for text in path:
            step = parse_step(kg, text)
            if step is None:
                return [], f"unknown relation {text!r}"
            tool = (ts.inverse_tool if step.inverse else ts.forward_tool).get(step.relation)
            if tool is None:
                return [], f"no tool for relation {text!r} (fewer facts than --min-support)"
            chain.append(tool)
        chains.append(chain)
    return chains, None


def answer_set(b: Bound, kg, exclude_topic: bool) -> tuple[list[str], list]:
    """The question's answers and their ids, the topic entities left out with `exclude_topic` (they are in no
    hop's set)."""
    keep = [i for i, eid in enumerate(b.answer_ids) if not (exclude_topic and eid is not None and eid in b.topic_ids)]
    return [b.q.answers[i] for i in keep], [b.answer_ids[i] for i in keep]


def path_ends(kg, b: Bound) -> list[tuple[str, bool]]:
    """(relation IRI, walked backwards) of the last step of each relation path; [] when a step is unknown."""
    ends = []
    for path in b.q.paths:
        step = parse_step(kg, path[-1]) if path else None
        if step is None:
            return []
        ends.append((step.relation, step.inverse))
    return ends


def oracle_turns(ts: ToolSet, b: Bound, chains: list[list[str]], exclude_topic: bool) -> tuple[list[dict], str | None]:
    """The path model's assistant turns for one question, computed by executing its calls (or the reason it cannot)."""
    kg, turns, sets = ts.kg, [], []
    topics = {kg.name(t) for t in b.topic_ids} if exclude_topic else set()
    for start, chain in zip(b.topic_ids, chains, strict=True):
        frontier = [kg.name(start)]
        for hop, tool in enumerate(chain):
            key = ts.specs[tool].arg
            calls, reached = [], set()
            for name in frontier:
                args = {key: name}
                try:
                    reached.update(ts.execute(tool, args))
                except ToolError as exc:
                    return [], f"{tool}({name!r}) failed at hop {hop + 1}: {exc}"
                calls.append({"name": tool, "arguments": args})
            if calls:
                turns.append({"calls": calls})
            frontier = sorted(set(reached) - topics)  # with exclude_topic, no hop reaches a topic entity
        sets.append(frontier)
    result = sets[0]
    if len(sets) > 1:
        turns.append({"calls": [{"name": "intersection", "arguments": {"sets": sets}}]})
        result = ts.execute("intersection", {"sets": sets})
    if b.q.aggregate == "count":
        turns.append({"calls": [{"name": "count", "arguments": {"items": result}}]})
        text = str(ts.execute("count", {"items": result}))
    else:
        text = ", ".join(result) if result else "There is no such answer in the graph."
    return [*turns, {"text": text}], None


def load_run(options: QuestionOptions):
    """(graph, tool set, lexicon, bound questions) of a run."""
    from ..graph.build import load_graph
    from ..synth.language.lexicon import derive_lexicon
    from ..synth.language.lexicon_file import load_lexicon

    kg = load_graph(options.graphs, lang=options.lang)
    lexicon = derive_lexicon(kg)
    if options.lexicon:
        lexicon = load_lexicon(options.lexicon, kg, lexicon)
    ts = ToolSet.from_graph(kg, min_support=options.min_support, lexicon=lexicon)
    questions = read_questions(options.questions, options.fmt)
    if options.limit is not None:
        questions = questions[: options.limit]
    return kg, ts, lexicon, bind(kg, questions)


def _task(b: Bound, tools: list[dict], gold_turns: list[dict]) -> ExecTask:
    hops = b.q.hop_count
    return ExecTask(
        id=b.q.id, category="questions", pattern=f"{hops}-hop" if hops else "questions", tools=tools,
        prefix=[{"role": "user", "content": b.q.question}], later_user=[], answers=list(b.q.answers),
        gold_turns=gold_turns,
    )  # fmt: skip


def first_calls(ts: ToolSet, b: Bound, chains: list[list[str]]) -> list[tuple[str, str, str]]:
    """The calls a question starts with, one per relation path: (tool, argument, topic entity's name). Any of
    them is a right first call (an intersection may start with either path)."""
    return [(chain[0], ts.specs[chain[0]].arg, ts.kg.name(start)) for start, chain in zip(b.topic_ids, chains) if chain]


def _first_call_right(result: dict, firsts: list[tuple[str, str, str]]) -> bool | None:
    """Whether the model's first turn holds a right first call: the path's first tool with the topic
    entity as its one argument, strings compared as BFCL's AST checker compares them (``normalize_string``), so
    the figure is comparable with the ``simple`` category of the synthetic test split. None without a path."""
    if not firsts:
        return None
    turns = result["turns"]
    calls = (turns[0].get("calls") or []) if turns else []
    want = {(tool, arg, normalize_string(name)) for tool, arg, name in firsts}
    for call in calls:
        args = call.get("arguments")
        if isinstance(args, dict) and len(args) == 1:
            (arg, value), = args.items()
            if isinstance(value, str) and (call.get("name"), arg, normalize_string(value)) in want:
                return True
    return False


def _followed(result: dict, chains: list[list[str]]) -> bool | None:
    """Whether the model's calls walk every relation path in order (None when the question has no path)."""
    if not chains:
        return None
    called = [c["name"] for turn in result["turns"] for c in turn.get("calls", ()) if not c.get("error")]
    for chain in chains:
        it = iter(called)
        if not all(any(name == tool for name in it) for tool in chain):
            return False
    return True


def evaluate_questions(options: QuestionOptions) -> tuple[list[dict], dict, dict]:
    """Run the questions; returns (result rows, summary, details) as ``kgqa.summarize`` and ``kgqa.markdown`` use.

    Long because it is the run's one sequence: load, plan the oracle, pick the tools, generate, score."""
    check_question_options(options)
    started = time.perf_counter()
    kg, ts, lexicon, bound = load_run(options)
    timing = {"load_s": round(time.perf_counter() - started, 2)}
    retriever = ToolRetriever(ts, lexicon) if options.offer == "related" else None
    offers = {b.q.id: retriever.pick(b.q.question, options.top_k) if retriever else list(ts.specs) for b in bound}
    chains, oracle, inexpressible, keep = {}, {}, [], []
    for b in bound:
        chains[b.q.id], reason = path_tools(ts, kg, b)
        if options.model == "path":
            missing = sorted({t for chain in chains[b.q.id] for t in chain} - set(offers[b.q.id]))
            if not reason and missing:
                reason = f"the retriever did not offer {', '.join(missing)} (--offer related --top-k {options.top_k})"
            turns, reason = oracle_turns(ts, b, chains[b.q.id], options.exclude_topic) if not reason else ([], reason)
            if reason:
                inexpressible.append({"id": b.q.id, "where": b.q.where, "reason": reason})
                continue
            oracle[f"exec:{b.q.id}"] = turns
        elif options.model == "gold":
            oracle[f"exec:{b.q.id}"] = [{"text": ", ".join(answer_set(b, kg, options.exclude_topic)[0])}]
        keep.append(b)
    offered = [offers[b.q.id] for b in keep]
    tasks = [_task(b, ts.schemas(names), oracle.get(f"exec:{b.q.id}", [])) for b, names in zip(keep, offered)]
    max_steps = options.max_steps
    if options.model in QUESTION_MODELS:  # a reference model is never cut short: it makes as many turns as it needs
        backend = GoldModel(oracle, options.parser)
        max_steps = max([max_steps, *(len(turns) for turns in oracle.values())])
    else:
        backend = make_backend(options.model, options.backend, parser=options.parser, **options.backend_options)
    _log(f"eval: {len(tasks)} questions ({len(inexpressible)} not expressible); model {options.model}")
    t0 = time.perf_counter()
    backend.load()
    try:
        results = run_exec(tasks, backend, get_parser(options.parser), ts, max_steps=max_steps)
    finally:
        backend.unload()
    timing["run_s"] = round(time.perf_counter() - t0, 2)
    rate_calls = options.model != "gold"  # the gold model answers without calls
    rows = [_score(r, b, kg, chains[b.q.id], options.exclude_topic, rate_calls) for r, b in zip(results, keep)]
    for row, r, b in zip(rows, results, keep):
        row["first_call"] = _first_call_right(r, first_calls(ts, b, chains[b.q.id])) if rate_calls else None
    summary, details = kgqa.summarize(rows, sum(len(b.unmatched) for b in bound), inexpressible)
    if retriever is not None:  # over every question read, also those the path model leaves out
        expected = [sorted({t for chain in chains[b.q.id] for t in chain}) for b in bound]
        details["retriever"] = {"top_k": options.top_k, **recall([offers[b.q.id] for b in bound], expected)}
        summary["retriever_recall"] = details["retriever"]["recall"]
    if options.model == "path":
        details["oracle"] = kgqa.oracle_check(details)
    timing["total_s"] = round(time.perf_counter() - started, 2)
    details["run"] = {
        "model": options.model, "questions": options.questions, "graphs": list(options.graphs),
        "offer": options.offer if options.offer == "all" else f"related (top {options.top_k})",
        "max_steps": options.max_steps, "exclude_topic": options.exclude_topic, "lang": options.lang,
        "min_support": options.min_support, "questions_read": len(bound), "timing": timing,
    }  # fmt: skip
    return rows, summary, details


def question_kind(b: Bound) -> str:
    """``count`` (aggregate), ``intersection`` (several topic entities), ``N-hop``, or ``unknown``."""
    if b.q.aggregate:
        return b.q.aggregate
    if len(b.q.paths) > 1:
        return "intersection"
    return f"{b.q.hop_count}-hop" if b.q.hop_count else "unknown"


def _score(result: dict, b: Bound, kg, chains: list[list[str]], exclude_topic: bool, rate_calls: bool) -> dict:
    answers, ids = answer_set(b, kg, exclude_topic)
    text = result["final"] if result["stop"] == "answer" else None
    returned = kgqa.returned_entities(kg, result["turns"])
    scores = kgqa.score_answer(text, answers, ids, kg, b.topic_ids, returned, path_ends(kg, b))
    return {
        "id": b.q.id, "question": b.q.question, "hops": b.q.hop_count, "kind": question_kind(b), "answers": answers,
        "topics": [kg.name(t) for t in b.topic_ids], "relation_path": b.q.paths, **scores,
        "calls": result["calls"], "calls_valid": result["calls_valid"] if rate_calls else None,
        "path_followed": _followed(result, chains) if rate_calls else None, "unmatched": b.unmatched, "stop": result["stop"],
        "final": result["final"], "turns": result["turns"],
    }  # fmt: skip


RUN_SHOWN = ("model", "questions", "graphs", "offer", "exclude_topic", "max_steps")  # named at the top of report.html


def html_report(rows: list[dict], details: dict, title: str) -> str:
    """report.html of a questions run (the page of ``kg2tool eval``): the run's settings, the oracle's note,
    the scores with their intervals overall, per hop count and per kind, every question as a conversation."""
    from ..hub.report_html import render
    from .report_page import question_items

    run = details.get("run") or {}
    settings = [f"{key.replace('_', ' ')} {', '.join(v) if isinstance(v, list) else v}"
                for key in RUN_SHOWN if (v := run.get(key)) is not None]  # fmt: skip
    if "total_s" in run.get("timing", {}):
        settings.append(f"{run['timing']['total_s']} s in all")
    intro = ["; ".join(settings) + "."] if settings else []
    if details.get("oracle"):
        intro.append(kgqa.oracle_line(details))
    if details["inexpressible"]:
        intro.append(f"{len(details['inexpressible'])} questions the path model cannot express are left out "
                     "(listed in report.md).")  # fmt: skip
    intro.append(f"Answers no entity of the graph matches: {details['answers_not_in_graph']}.")
    page_items, note = question_items(rows)
    return render(title, intro=intro, tables=kgqa.html_tables(details), items=page_items, items_note=note,
                  always={"result": ["fail", "pass"]})  # fmt: skip


def write_question_reports(out: Path, rows: list[dict], summary: dict, details: dict, title: str) -> list[Path]:
    """results.jsonl, summary.json, details.json, report.md and report.html in `out` (each written atomically)."""
    import json

    from ..common.files import write_atomic, write_lines
    from ..hub.report_html import write_html

    dump = lambda value: json.dumps(value, indent=2, ensure_ascii=False) + "\n"  # noqa: E731
    write_lines(out / "results.jsonl", (json.dumps(r, ensure_ascii=False, default=str) for r in rows), "the results")
    write_atomic(out / "summary.json", dump(summary), what="the summary")
    write_atomic(out / "details.json", dump(details), what="the details")
    write_atomic(out / "report.md", kgqa.markdown(details, title), what="the report")
    write_html(out / "report.html", html_report(rows, details, title))
    return [out / n for n in ("results.jsonl", "summary.json", "details.json", "report.md", "report.html")]
