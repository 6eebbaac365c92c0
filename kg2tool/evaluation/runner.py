"""``kg2tool eval --model M --data DIR``: generate with a model, score BFCL-style and by execution, write reports.

Two parts, each optional:

* **AST** on the BFCL-format files of ``DIR/bfcl/`` (or of ``DIR`` itself when it is a BFCL data folder): one
  generation per entry, calls parsed and converted to BFCL's decoded form ``[{fn: {arg: value}}]``, scored with
  ``scoring.score_entries`` (BFCL's rules). Output that cannot be parsed is passed on as raw text, which BFCL's
  checker counts as a wrong format (and, for irrelevance, as no call). For a synth dataset the model is offered
  the row's own tool schemas (the ones it was trained on; ``kg2tool_id`` links an entry to its row); for other
  BFCL files the function docs are converted back to JSON Schema (``dict`` -> ``object``, ``float`` -> ``number``).
* **Executable** on the ``multi_step`` and ``multi_turn`` rows of ``DIR``'s ``sft`` test split (``execution``),
  with the graph the dataset was made from.

``EvalOptions`` holds the run's settings; ``evaluate`` returns ``(result rows, summary, details)`` and
``report.write_reports`` writes them.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..common.config import recorded_fold, recorded_predicates
from ..common.errors import InputError, UsageError
from ..common.toolstyle import ToolStyle
from ..graph.model import PredicateRules
from ..hub.dataset import read_report, recorded_graph_files
from ..llm.backends import REFERENCE_MODELS, Backend, make_backend
from ..llm.parsers import get_parser, to_decoded
from ..synth.language.lexicon_file import load_lexicon
from . import bfcl_data, scoring
from .execution import EXEC_CATEGORIES, ExecTask, check_tools_match, parsed_completion, run_exec, task_from_row
from .gold import gold_output
from .stepwise import StepItem, run_stepwise, step_items
from .stepwise import summarize as summarize_steps

AST_ORDER = ("simple", "simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance")
GOLD_NO_CALL_TEXT = "None of the available tools can answer this."
_BFCL_FILE_RE = re.compile(r"BFCL_v\d+_(\w+)\.json")
_TO_JSON_TYPE = {"dict": "object", "float": "number", "tuple": "array"}


@dataclass
class EvalOptions:
    """Settings of one ``kg2tool eval`` run.

    Parameters:
        model: checkpoint folder, served model name (``openai``), or a reference model: ``gold``, ``no-call``.
        data: a synth dataset folder (``sft/``, ``bfcl/``), or a BFCL data folder (AST only).
        graphs: the graph file(s) the dataset was made from (for the executable part).
        backend: ``transformers``, ``vllm`` or ``openai``.
        parser: how calls are read from text: ``hermes``, ``json``, ``python``.
        limit: at most this many entries per AST category and rows per executable category.
        max_steps: call turns allowed per user turn in the executable loop.
        ast / exec: run the AST part / the executable part.
        underscore_to_dot: offer dotted BFCL function names with underscores and score them so (BFCL's rule for
            APIs whose tool names cannot hold dots, such as OpenAI's); no effect on names without dots.
        lang: label language when loading the graph (synth's ``--lang``); None: the one recorded in the dataset
            folder (``kg2tool_config.yaml`` or the card's ``language``), else ``en``.
        stepwise: also score every assistant turn of the executable rows on its own, after the gold conversation
            before it (``stepwise``: first call, later calls, final answer).
        backend_options: device, dtype, batch_size, max_new_tokens, base_url, api_key_env, concurrency, timeout.
    """

    model: str
    data: str
    graphs: list[str] = field(default_factory=list)
    backend: str = "transformers"
    parser: str = "hermes"
    limit: int | None = None
    max_steps: int = 6
    ast: bool = True
    exec: bool = True
    underscore_to_dot: bool = False
    lang: str | None = None
    stepwise: bool = False
    backend_options: dict[str, Any] = field(default_factory=dict)


@dataclass
class AstItem:
    """One AST entry to generate for: the BFCL entry, its first-turn messages and the tools offered."""

    entry: bfcl_data.BfclEntry
    messages: list[dict]
    tools: list[dict]


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------- data


def bfcl_dir(data: Path) -> Path | None:
    """Where the BFCL-format files are: ``DATA/bfcl``, or ``DATA`` itself; None when there are none."""
    for candidate in (data / "bfcl", data):
        if candidate.is_dir() and any(_BFCL_FILE_RE.fullmatch(p.name) for p in candidate.glob("BFCL_v*.json")):
            return candidate
    return None


def ast_categories(directory: Path) -> list[str]:
    """The AST categories with a file in a BFCL data folder, in BFCL's order."""
    found = {m.group(1) for p in directory.glob("BFCL_v*.json") if (m := _BFCL_FILE_RE.fullmatch(p.name))}
    return [c for c in AST_ORDER if c in found]


def to_json_schema(schema: Any) -> Any:
    """A BFCL parameter description as JSON Schema (BFCL's type names mapped back; ``any`` leaves out the type)."""
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type":
            if value != "any":
                out["type"] = _TO_JSON_TYPE.get(value, value) if isinstance(value, str) else value
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: to_json_schema(s) for name, s in value.items()}
        elif key == "items":
            out[key] = to_json_schema(value)
        else:
            out[key] = value
    return out


def bfcl_tool(function: dict, underscore_to_dot: bool = False) -> dict:
    """A BFCL function doc as an OpenAI-format tool (dots in the name as underscores when asked)."""
    name = function["name"].replace(".", "_") if underscore_to_dot else function["name"]
    fn = {"name": name, "description": function.get("description", "")}
    fn["parameters"] = to_json_schema(function.get("parameters") or {"type": "dict", "properties": {}})
    return {"type": "function", "function": fn}


def _first_turn(entry: bfcl_data.BfclEntry) -> list[dict]:
    question = entry.question
    if isinstance(question, list) and question and isinstance(question[0], list):
        question = question[0]
    if not isinstance(question, list) or not all(isinstance(m, dict) and "role" in m for m in question):
        raise InputError(f"BFCL entry {entry.id!r}: 'question' must be [[{{role, content}}, ...]]")
    return [dict(m) for m in question]


def load_test_rows(data: Path) -> list[dict]:
    """The ``sft`` test split of a synth dataset folder (empty when the folder has no ``sft`` config)."""
    if not (data / "sft").is_dir():
        return []
    from datasets import load_dataset

    try:
        return list(load_dataset(str(data), "sft", split="test"))
    except ValueError as exc:  # e.g. no test split
        raise InputError(f"{data}: cannot load the sft test split: {exc}") from None


def load_ast_items(
    data: Path, rows_by_id: dict[str, dict], limit: int | None, underscore_to_dot: bool = False
) -> list[AstItem]:
    """The AST items of `data`'s BFCL files (at most `limit` per category), offered their synth row's tools when
    `rows_by_id` has the row, else the entry's functions as JSON Schema."""
    directory = bfcl_dir(data)
    if directory is None:
        return []
    items = []
    for category in ast_categories(directory):
        entries = bfcl_data.load_category(directory, category)[: limit if limit is not None else None]
        for entry in entries:
            row = rows_by_id.get(str(entry.extra.get("kg2tool_id")))
            if row is not None:
                tools = list(row["tools"])
            else:
                tools = [bfcl_tool(f, underscore_to_dot) for f in entry.functions]
            items.append(AstItem(entry, _first_turn(entry), tools))
    return items


def exec_rows(rows: list[dict], limit: int | None) -> list[dict]:
    """The ``multi_step`` and ``multi_turn`` test rows, at most ``limit`` of each, in that order."""
    selected: list[dict] = []
    for category in EXEC_CATEGORIES:
        selected += [r for r in rows if r["category"] == category][: limit if limit is not None else None]
    return selected


def resolve_graphs(options: EvalOptions, data: Path) -> tuple[list[str], str]:
    """The graph files for execution (``--graph``, else the dataset report's when they exist here) and a hint."""
    recorded = recorded_graph_files(data)
    hint = f" (its validation_report.json lists {', '.join(recorded)})" if recorded else ""
    if options.graphs:
        return list(options.graphs), hint
    if recorded and all(Path(p).is_file() for p in recorded):
        _log(f"eval: no --graph given; using the dataset's recorded graph: {', '.join(recorded)}")
        return list(recorded), hint
    raise UsageError(
        f"the executable part needs --graph FILE, the graph {data} was made from{hint}; or pass --no-exec"
    )


# ---------------------------------------------------------------------------------------------- running


def build_oracle(
    ast_items: list[AstItem], tasks: list[ExecTask], underscore_to_dot: bool = False, steps: list[StepItem] = ()
) -> dict[str, list[dict]]:
    """The turns the ``gold`` reference model replays, by item key."""
    oracle: dict[str, list[dict]] = {}
    for item in ast_items:
        decoded = gold_output(item.entry.ground_truth, item.entry.functions)
        calls = [
            {"name": name.replace(".", "_") if underscore_to_dot else name, "arguments": args}
            for call in decoded
            for name, args in call.items()
        ]
        oracle[f"ast:{item.entry.id}"] = [{"calls": calls}] if calls else [{"text": GOLD_NO_CALL_TEXT}]
    for task in tasks:
        oracle[f"exec:{task.id}"] = task.gold_turns
    for item in steps:  # every assistant turn of the row, failed calls included, in order
        turns = oracle.setdefault(f"step:{item.row_id}", [])
        if len(turns) == item.turn:
            turns.append({"calls": item.gold_calls} if item.gold_calls else {"text": item.gold_text})
    return oracle


AST_CHUNK = 512  # items per generate() call of the AST part: progress is reported between chunks


def run_ast(items: list[AstItem], backend: Backend, parse, underscore_to_dot: bool = False) -> list[dict]:
    """Generate once per AST item, parse, score BFCL-style; one result row per item."""
    if not items:
        return []
    completions = []
    for start in range(0, len(items), AST_CHUNK):
        chunk = items[start : start + AST_CHUNK]
        completions += backend.generate(
            [i.messages for i in chunk], [i.tools for i in chunk], [f"ast:{i.entry.id}" for i in chunk]
        )
        _log(f"eval: AST {len(completions)}/{len(items)} generated")
    predictions, outputs = {}, {}
    for item, completion in zip(items, completions, strict=True):
        parsed = parsed_completion(completion, parse)
        # a parse error makes the whole output undecodable, as in BFCL (irrelevance then counts it as no call)
        predictions[item.entry.id] = completion.text if parsed.errors else to_decoded(parsed.calls)
        outputs[item.entry.id] = {"output": completion.text, "parse_errors": parsed.errors}
    tests = {item.entry.id: item.entry for item in items}
    rows = []
    for row in scoring.score_entries(tests, predictions, underscore_to_dot=underscore_to_dot):
        entry = tests[row["id"]]
        rows.append(
            {
                "id": row["id"],
                "kind": "ast",
                **{k: v for k, v in row.items() if k != "id"},
                "kg2tool_id": entry.extra.get("kg2tool_id"),
                **outputs[row["id"]],
                "decoded": predictions[row["id"]],
            }
        )
    return rows


def check_options(options: EvalOptions) -> None:
    """UsageError for settings that cannot run (checked before anything is loaded or written)."""
    if options.max_steps < 1:
        raise UsageError("--max-steps must be at least 1")
    if options.limit is not None and options.limit < 1:
        raise UsageError("--limit must be at least 1")
    if not options.ast and not options.exec:
        raise UsageError("nothing to run: both --no-ast and --no-exec were given")
    if options.stepwise and not options.exec:
        raise UsageError("--stepwise scores the turns of the executable rows: it cannot go with --no-exec")


@dataclass
class EvalInputs:
    """What one run evaluates: the AST items, the executable tasks and step items, the tool set and graph files
    they execute on, the label language the graph was loaded with, and the loading times."""

    ast_items: list[AstItem]
    tasks: list[ExecTask]
    steps: list[StepItem]
    ts: Any = None
    refs: Any = None  # the refs or batch tools when the dataset was made with --tool-style refs|batch
    graphs: list[str] = field(default_factory=list)
    lang: str = "en"
    timing: dict[str, float] = field(default_factory=dict)


def load_inputs(options: EvalOptions, data: Path) -> EvalInputs:
    """Load the test rows, BFCL entries and (for the executable part) the graph of `data`. The label language is
    `options.lang`, else the one recorded in the dataset folder (`kg2tool_config.yaml`, or the card's
    `language`), else en."""
    from ..common.config import recorded_lang
    from ..graph.build import load_graph
    from ..synth.tools.toolset import ToolSet

    started = time.perf_counter()
    rows = load_test_rows(data)
    rows_by_id = {str(r["id"]): r for r in rows}
    ast_items = load_ast_items(data, rows_by_id, options.limit, options.underscore_to_dot) if options.ast else []
    selected = exec_rows(rows, options.limit) if options.exec else []
    tasks = [task_from_row(r) for r in selected]
    steps = step_items(selected) if options.stepwise else []
    if not ast_items and not tasks:
        raise InputError(f"{data}: nothing to evaluate (no BFCL files, and no multi_step/multi_turn test rows)")
    inputs = EvalInputs(ast_items, tasks, steps, lang=options.lang or recorded_lang(data) or "en")
    if tasks:
        inputs.graphs, hint = resolve_graphs(options, data)
        t0 = time.perf_counter()
        kg = load_graph(inputs.graphs, lang=inputs.lang, predicates=recorded_rules(data))
        recorded = read_report(data).get("config") or {}
        # the dataset's own words (the lexicon.yaml synth wrote beside it), so a dataset made by an earlier
        # version, or with an edited lexicon, gets the tool descriptions it was made with
        try:
            words = load_lexicon(data / "lexicon.yaml", kg) if (data / "lexicon.yaml").is_file() else None
        except InputError as exc:  # its relations are not this graph's: another graph than the dataset's
            if "no such" not in str(exc):
                raise
            raise InputError(f"--graph does not match the dataset: {exc}. Pass the graph file(s) the dataset was "
                             f"made from{hint}") from exc  # fmt: skip
        inputs.ts = ToolSet.from_graph(kg, min_support=int(recorded.get("min_support", 5)), lexicon=words)
        style = ToolStyle.VALUES  # a dataset that records no style (an older one, or no report) is in values
        if "tool_style" in recorded:
            style = ToolStyle.parse(recorded["tool_style"], where=f"{data / 'validation_report.json'}: config.tool_style",
                                    error=InputError)  # fmt: skip
        if style.has_own_tools:
            from ..synth.tools.refs import BatchToolSet, RefToolSet

            if style.passes_handles:
                inputs.refs = RefToolSet(inputs.ts, int(recorded.get("ref_items", 5)))
            else:
                inputs.refs = BatchToolSet(inputs.ts)
        check_tools_match(tasks, inputs.ts, hint, inputs.refs)
        inputs.timing["graph_s"] = round(time.perf_counter() - t0, 2)
    inputs.timing["load_s"] = round(time.perf_counter() - started, 2)
    return inputs


def _timed(timing: dict[str, float], key: str, func, *args, **kwargs):
    """`func(*args, **kwargs)`, its wall time (seconds, 2 decimals) stored as `timing[key]`."""
    t0 = time.perf_counter()
    result = func(*args, **kwargs)
    timing[key] = round(time.perf_counter() - t0, 2)
    return result


def run_model(options: EvalOptions, inputs: EvalInputs, backend: Backend, parse) -> tuple[list, list, list]:
    """Generate and score with a loaded `backend`: (AST rows, executable results, step-wise rows)."""
    timing = inputs.timing
    ast_rows = _timed(timing, "ast_s", run_ast, inputs.ast_items, backend, parse, options.underscore_to_dot)
    exec_results = []
    if inputs.tasks:
        progress = lambda r, n: _log(f"eval: executable round {r}: {n} conversations running")  # noqa: E731
        exec_results = _timed(timing, "exec_s", run_exec, inputs.tasks, backend, parse, inputs.ts,
                              max_steps=options.max_steps, progress=progress, refs=inputs.refs)  # fmt: skip
    else:
        timing["exec_s"] = 0.0
    step_rows = []
    if inputs.steps:
        _log(f"eval: step-wise: {len(inputs.steps)} assistant turns after the gold conversation")
        progress = lambda done, n: _log(f"eval: step-wise {done}/{n} turns generated")  # noqa: E731
        step_rows = _timed(timing, "stepwise_s", run_stepwise, inputs.steps, backend, parse, progress=progress)
    return ast_rows, exec_results, step_rows


def evaluate(
    options: EvalOptions, checkpoint: Path | None = None, resume: bool = False
) -> tuple[list[dict], dict, dict]:
    """Run the evaluation; returns (result rows, summary ``{category_or_metric: score}``, details).

    With `checkpoint` (a file path), every generation call's completions are appended to it as they come
    (``checkpoint.ResumableBackend``); with `resume` too, the calls it already holds are replayed instead of
    generated, so a killed run ends with the results of an uninterrupted one.
    ``details["run"]`` records the resolved settings, among them the graph files and the label language used."""
    from .report import summarize

    check_options(options)
    parse = get_parser(options.parser)
    data = Path(options.data)
    if not data.is_dir():
        raise InputError(f"--data {data}: no such folder")
    started = time.perf_counter()
    inputs = load_inputs(options, data)
    timing = inputs.timing
    _log(f"eval: {len(inputs.ast_items)} AST entries, {len(inputs.tasks)} executable rows; model {options.model}")

    oracle = None
    if options.model == "gold":
        oracle = build_oracle(inputs.ast_items, inputs.tasks, options.underscore_to_dot, inputs.steps)
    backend = make_backend(
        options.model, options.backend, parser=options.parser, oracle=oracle, **options.backend_options
    )
    if checkpoint is not None:  # before the model loads: a checkpoint of other settings is refused at once
        from .checkpoint import ResumableBackend

        settings = {k: v for k, v in asdict(options).items() if k != "backend_options"}
        settings["backend_options"] = {k: v for k, v in options.backend_options.items() if k != "api_key_env"}
        backend = ResumableBackend(backend, checkpoint, settings, resume)
    _timed(timing, "model_load_s", backend.load)
    try:
        ast_rows, exec_results, step_rows = run_model(options, inputs, backend, parse)
    finally:
        backend.unload()
    if getattr(backend, "replayed", 0):
        _log(f"eval: {backend.replayed} generation call(s) replayed from {checkpoint}")
    timing["total_s"] = round(time.perf_counter() - started, 2)

    summary, details = summarize(ast_rows, exec_results)
    if step_rows:
        step_summary, details["stepwise"] = summarize_steps(step_rows)
        summary.update(step_summary)
    backend_info = {k: v for k, v in options.backend_options.items() if k != "api_key_env"}
    details["run"] = {
        **{k: v for k, v in asdict(options).items() if k not in ("backend_options", "graphs", "backend")},
        "backend": "reference" if options.model in REFERENCE_MODELS else options.backend,
        "graphs": inputs.graphs,
        "lang": inputs.lang,
        "backend_options": backend_info,
        "backend_resolved": getattr(backend, "resolved", None),
        "timing": timing,
    }
    return ast_rows + exec_results + step_rows, summary, details


def recorded_rules(data: Path) -> PredicateRules:
    """The predicate rules a dataset folder was made with (--include/--exclude-predicate, --no-fold), so its graph
    loads into the same relations and tools again."""
    include, exclude = recorded_predicates(data)
    return PredicateRules(frozenset(include), frozenset(exclude), fold=recorded_fold(data))
