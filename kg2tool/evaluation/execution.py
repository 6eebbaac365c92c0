"""Executable multi-step accuracy: run a model in a loop on conversational test rows, executing its calls on the graph.

For each row (``multi_step`` and ``multi_turn`` rows of a synth dataset's test split) the model sees the
conversation up to the first assistant turn. Each completion is parsed (``parsers``); its calls are executed with
the synth executor (``ToolSet.execute``: schema validation, then the graph) and answered with tool messages whose
content is exactly what synth writes (``result_json`` or, on error, ``error_json``); then the model goes again. A
completion without a call is a text answer: the next user message of the row is fed if there is one (multi-turn
rows: a follow-up question, or the name the assistant asked for), else the text is the final answer. A row stops
when the model has made ``max_steps`` call turns since the last user message and calls again.

Scores per row:
* ``correct``: the model gave a final answer and every gold answer string appears in it (synth's own rule, see
  ``kg2tool.synth.checks.verify``: ``answer_not_stated``);
* ``calls_valid``: at least one call, every call names an offered tool with schema-valid arguments, and no
  malformed call was emitted (an executor error such as an unknown entity does not make a call invalid);
* ``steps`` / ``calls`` against ``gold_steps`` / ``gold_calls`` (call turns and calls of the gold conversation,
  leaving out the deliberately failed calls of ``error_recovery`` rows: a perfect model does not make them);
  ``within_gold_steps``: correct with at most the gold number of call turns.

Rows are advanced together, one model turn per round, so a backend gets whole batches.

A dataset made with ``--tool-style refs`` (``kg2tool.synth.tools.refs``) offers its multi_step rows the refs tools: each
such row is executed with its own handle table (``RefToolSet.fork``), so the model's set results are kept as r1,
r2, ... in the order its calls run, exactly as synth numbered them; other rows use the values tools. A
``--tool-style batch`` dataset's multi_step rows run on the batch tools (``BatchToolSet``) the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..common.errors import InputError
from ..llm.backends import Backend, Completion
from ..llm.parsers import Parsed
from ..synth.tools.toolset import ToolError, ToolSet, error_json, result_json

EXEC_CATEGORIES = ("multi_step", "multi_turn")
INVALID_KINDS = ("unknown_tool", "schema")  # ToolError kinds that make a call invalid (not just unsuccessful)


@dataclass
class ExecTask:
    """One conversational test row, ready to be replayed."""

    id: str
    category: str
    pattern: str
    tools: list[dict]
    prefix: list[dict]  # the messages before the first assistant turn
    later_user: list[dict]  # user messages that come after an assistant text turn, in order
    answers: list[str]
    gold_turns: list[dict]  # {"calls": [{"name", "arguments"}]} or {"text": str}, failed calls left out

    @property
    def gold_steps(self) -> int:
        """How many assistant turns of the gold conversation make calls."""
        return sum(1 for t in self.gold_turns if t.get("calls"))

    @property
    def gold_calls(self) -> int:
        """How many calls the gold conversation makes in all."""
        return sum(len(t.get("calls") or ()) for t in self.gold_turns)


def _is_error(content: Any) -> bool:
    try:
        value = json.loads(content)
    except (TypeError, json.JSONDecodeError):
        return False
    return isinstance(value, dict) and "error" in value


def task_from_row(row: dict) -> ExecTask:
    """An ExecTask from a synth ``sft`` row (``messages``, ``tools``, ``answers``, ``category``, ``pattern``, ``id``)."""
    messages = row["messages"]
    first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), None)
    if first is None or first == 0:
        raise InputError(f"row {row.get('id')!r}: no user message before an assistant turn")
    replies = {m.get("tool_call_id"): m.get("content") for m in messages if m.get("role") == "tool"}
    gold_turns, later_user = [], []
    for message in messages[first:]:
        role = message.get("role")
        if role == "user":
            later_user.append(message)
        elif role == "assistant" and message.get("tool_calls"):
            calls = [
                {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}
                for c in message["tool_calls"]
                if not _is_error(replies.get(c.get("id")))
            ]
            if calls:
                gold_turns.append({"calls": calls})
        elif role == "assistant":
            gold_turns.append({"text": message.get("content") or ""})
    return ExecTask(
        id=str(row["id"]),
        category=row["category"],
        pattern=row.get("pattern") or row["category"],
        tools=list(row["tools"]),
        prefix=[dict(m) for m in messages[:first]],
        later_user=later_user,
        answers=[str(a) for a in row.get("answers") or []],
        gold_turns=gold_turns,
    )


def check_tools_match(tasks: Sequence[ExecTask], ts: ToolSet, graph_hint: str = "", refs=None) -> None:
    """Raise InputError when a row offers a tool the graph does not derive identically (the wrong ``--graph``);
    with `refs` (the dataset's RefToolSet or BatchToolSet), a tool may also equal that style's one."""
    bad, example = 0, None
    for task in tasks:
        for tool in task.tools:
            name = tool.get("function", {}).get("name")
            spec = ts.specs.get(name)
            if refs is not None and spec is not None and spec.schema != tool:
                spec = refs.specs.get(name)
            if spec is None or spec.schema != tool:
                bad += 1
                if example is None:
                    how = "is not derived from" if spec is None else "differs from the one derived from"
                    example = f"tool {name!r} of row {task.id!r} {how} the graph"
                break
    if bad:
        raise InputError(
            f"--graph does not match the dataset: {example} ({bad} of {len(tasks)} rows affected). Pass the "
            f"graph file(s) the dataset was made from{graph_hint}"
        )


def parsed_completion(completion: Completion, parse: Callable[[str], Parsed]) -> Parsed:
    """Calls of a completion: the endpoint's own when it gave them, else parsed from its text."""
    if completion.tool_calls is not None:
        return Parsed(list(completion.tool_calls), list(completion.errors), completion.text)
    return parse(completion.text)


@dataclass
class _State:
    task: ExecTask
    messages: list[dict]
    next_user: int = 0
    segment_steps: int = 0
    steps: int = 0
    calls: int = 0
    call_ids: int = 0
    invalid_calls: int = 0
    execution_errors: int = 0
    parse_errors: int = 0
    final: str | None = None
    stop: str | None = None
    turns: list[dict] = field(default_factory=list)
    ts: Any = None  # the tools this row's calls run on (a refs row: its own handle table)


def toolset_for(task: ExecTask, ts: ToolSet, refs=None):
    """`refs.fork()` (refs: a fresh handle table) for a row offered refs- or batch-style tools, else `ts`."""
    if refs is None:
        return ts
    for tool in task.tools:
        spec = ts.specs.get(tool.get("function", {}).get("name"))
        if spec is not None and spec.schema != tool:
            return refs.fork()
    return ts


def _execute(ts: ToolSet, offered: set[str], call: dict) -> tuple[str, str | None]:
    """(tool message content, error kind or None) for one parsed call."""
    name, args = call["name"], call["arguments"]
    try:
        if name not in offered:
            raise ToolError("unknown_tool", f"unknown tool {name!r}: it is not among the offered tools")
        return result_json(ts.execute(name, args)), None
    except ToolError as exc:
        return error_json(exc), exc.kind
    except Exception as exc:  # noqa: BLE001 - arbitrary model output must not end a long run; counted as such
        return error_json(ToolError("internal", f"{name}: {type(exc).__name__}: {exc}")), "internal"


def _advance(state: _State, completion: Completion, parse, ts: ToolSet, max_steps: int) -> None:
    parsed = parsed_completion(completion, parse)
    turn: dict[str, Any] = {"output": completion.text}
    if completion.tool_calls is not None:
        turn["tool_calls"] = completion.tool_calls
    if parsed.errors:
        state.parse_errors += len(parsed.errors)
        turn["parse_errors"] = parsed.errors
    state.turns.append(turn)
    if parsed.calls:
        if state.segment_steps >= max_steps:
            state.stop = "max_steps"
            turn["executed"] = False
            return
        state.steps += 1
        state.segment_steps += 1
        offered = {t.get("function", {}).get("name") for t in state.task.tools}
        tool_calls, replies, results = [], [], []
        for call in parsed.calls:
            state.call_ids += 1
            state.calls += 1
            call_id = f"call_{state.call_ids}"
            content, kind = _execute(state.ts or ts, offered, call)
            if kind in INVALID_KINDS:
                state.invalid_calls += 1
            elif kind is not None:
                state.execution_errors += 1
            tool_calls.append({"id": call_id, "type": "function", "function": dict(call)})
            replies.append({"role": "tool", "tool_call_id": call_id, "name": call["name"], "content": content})
            results.append({"name": call["name"], "arguments": call["arguments"], "result": content, "error": kind})
        turn["calls"] = results
        state.messages.append({"role": "assistant", "content": "", "tool_calls": tool_calls})
        state.messages.extend(replies)
        return
    state.messages.append({"role": "assistant", "content": parsed.text})
    if state.next_user < len(state.task.later_user):
        state.messages.append(dict(state.task.later_user[state.next_user]))
        state.next_user += 1
        state.segment_steps = 0
        return
    state.final = parsed.text
    state.stop = "answer"


def _result(state: _State) -> dict:
    task = state.task
    correct = state.stop == "answer" and all(a in (state.final or "") for a in task.answers)
    return {
        "id": task.id,
        "kind": "exec",
        "category": task.category,
        "pattern": task.pattern,
        "correct": correct,
        "calls_valid": state.calls > 0 and state.invalid_calls == 0 and state.parse_errors == 0,
        "within_gold_steps": correct and state.steps <= task.gold_steps,
        "stop": state.stop,
        "steps": state.steps,
        "gold_steps": task.gold_steps,
        "calls": state.calls,
        "gold_calls": task.gold_calls,
        "invalid_calls": state.invalid_calls,
        "execution_errors": state.execution_errors,
        "parse_errors": state.parse_errors,
        "final": state.final,
        "answers": task.answers,
        "turns": state.turns,
    }


def run_exec(
    tasks: Sequence[ExecTask],
    backend: Backend,
    parse: Callable[[str], Parsed],
    ts: ToolSet,
    *,
    max_steps: int = 6,
    progress: Callable[[int, int], None] | None = None,
    refs=None,
) -> list[dict]:
    """Run every task to its end (see the module docstring); one result row per task, in the tasks' order.

    Backends get the key ``exec:<row id>`` with each conversation. ``progress(round, active)`` is called before
    each round of generation. `refs`: the dataset's RefToolSet or BatchToolSet (``--tool-style refs|batch``).
    """
    states = [_State(task, [dict(m) for m in task.prefix], ts=toolset_for(task, ts, refs)) for task in tasks]
    active = list(states)
    rounds = 0
    while active:
        rounds += 1
        if progress:
            progress(rounds, len(active))
        completions = backend.generate(
            [s.messages for s in active], [s.task.tools for s in active], [f"exec:{s.task.id}" for s in active]
        )
        if len(completions) != len(active):
            raise RuntimeError(f"backend {backend.name} returned {len(completions)} completions for {len(active)}")
        for state, completion in zip(active, completions, strict=True):
            _advance(state, completion, parse, ts, max_steps)
        active = [s for s in active if s.stop is None]
    return [_result(s) for s in states]
