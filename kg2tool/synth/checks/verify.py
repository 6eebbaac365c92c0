"""Independent verification of a conversation, as one list of named checks.

`verify_row` re-derives everything from the row itself and the shared executor; it does not look at the walker's
trace. It returns None when the row passes, or a drop reason (a short, stable key counted in the validation
report). The same checks (`CHECKS`, in this order) judge a DPO continuation (`kg2tool.synth.checks.preference.
check_continuation`) and a paraphrased conversation (`kg2tool.synth.paraphrase.rewrite`, as `verification:<reason>`).
Each check is a `Check`: a name, the stage it looks at, its drop reason and a test that returns None (ok) or a
reason. Checks, by stage, with their reasons:

    row: the conversation as a whole (for a DPO continuation: the prompt followed by a final answer)
        derived_schemas     tool_schema_mismatch   every offered tool equals the derived one and its parameters are
                                                   valid JSON Schema
        opens_with_question bad_structure          the first message is a user question with text
        ends_with_answer    bad_structure          the last message is an assistant answer: text, no tool calls
    turn: one message between the first and the last, in order
        user_after_answer   bad_structure          a later user message comes after an assistant text (not after
                                                   a call turn)
        text_then_user      bad_structure          an assistant text between turns is not empty and is followed by
                                                   a user message (an intermediate answer or a clarifying question)
        states_results      answer_not_stated      an assistant text right after tool results states every one
        calls_answered      unanswered_call        a call turn: each call has exactly one tool message, with its id
                                                   and tool name, right after it (and no tool message is stray)
    recovery: after each call turn and at the end (error-recovery rows)
        errors_recovered    error_not_recovered    a failed call is followed, in the next call turn, by a successful
                                                   call of the same tool
    call: one tool call (verify_row and the DPO judge)
        offered_tool        unknown_tool           the call names a tool offered in the row
        valid_arguments     schema_invalid         its arguments pass the tool's JSON Schema
        grounded_arguments  ungrounded_argument    every argument value (enum values aside) appears in the question
                                                   text or in an earlier turn's tool result
        executes            execution_error        the executor runs the call (unknown entity, tie, ...); it answers
                                                   schema_invalid when the executor finds the arguments invalid
        result_matches      execution_mismatch     the tool message equals re-executing the call (for a failed call
                                                   in an error-recovery row: equals the executor's error)
    answer: the final answer
        irrelevance_plain   bad_structure          an irrelevance row is one question and one answer, no gold
        has_results         bad_structure          any other row ends with tool results before its answer
        answer_supported    answer_mismatch        the last tool results give exactly the gold answers
        answer_stated       answer_not_stated      the final answer states every gold answer (and the count of a
                                                   ref that shows only some of its names: the refs style)
    next: a DPO continuation (one next turn, judged against the verified one)
        one_message         bad_structure          the continuation is exactly one assistant message
        needed_call         missing_call           a final answer comes only where the verified turn answers too
        same_calls          wrong_calls            calls execute to the same results, with the same tools, as the
                                                   verified turn's calls

In error-recovery rows (`allow_errors`) a call may fail valid_arguments or executes if its tool message is exactly
the error (result_matches); grounded_arguments is then judged only for calls that execute (a misspelled name never
is grounded), so it runs after executes there; the names a failed call's error offers ground a retry from the next
turn on. Only the corrected trajectory's answer is judged.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ..tools.refs import cut_counts, is_ref, result_key
from ..tools.toolset import ToolError, ToolSet, error_json, result_json

REASONS = (
    "unknown_tool", "tool_schema_mismatch", "schema_invalid", "execution_error", "execution_mismatch",
    "unanswered_call", "ungrounded_argument", "answer_mismatch", "answer_not_stated", "error_not_recovered",
    "bad_structure", "missing_call", "wrong_calls",
)  # fmt: skip


@dataclass(frozen=True)
class Check:
    """One named rule. `test(ctx)` returns None when the rule holds, else a drop reason (normally `reason`).
    `stage` says what `ctx` is: a RowView, TurnView, CallView, AnswerView or NextView."""

    name: str
    stage: str
    reason: str
    test: Callable[[Any], str | None]


# ---------------------------------------------------------------------------------------------- helpers


@lru_cache(maxsize=4096)
def _schema_ok(name: str, schema_json: str) -> bool:
    try:
        Draft202012Validator.check_schema(json.loads(schema_json)["function"]["parameters"])
        return True
    except (SchemaError, KeyError, TypeError):
        return False


def json_leaves(value) -> list:
    """Leaf values of a JSON value (strings and numbers), for grounding checks."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in json_leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in json_leaves(v)]
    return [value]


def _arg_leaves(args: dict, schema: dict) -> list:
    """Argument leaves that must be grounded: everything except enum-constrained values (e.g. mode)."""
    out = []
    props = schema.get("properties", {})
    for key, val in args.items():
        if "enum" in props.get(key, {}):
            continue
        out.extend(json_leaves(val))
    return out


def answer_strings(value) -> set[str]:
    """The answer strings a tool result gives: the items of a list or a ref (kg2tool.synth.tools.refs), else the value."""
    items = value["items"] if is_ref(value) else value
    if isinstance(items, list):
        return {str(v) for v in items}
    return {str(value)}


# ---------------------------------------------------------------------------------------------- what checks see


@dataclass
class RowView:
    """A whole conversation: the executor, its messages and the offered tool schemas."""

    ts: ToolSet
    messages: list[dict]
    tools: list[dict]


@dataclass
class TurnView:
    """Message `i` of a conversation, with what verification has gathered so far."""

    messages: list[dict]
    i: int
    last_results: list = field(default_factory=list)
    failed: set = field(default_factory=set)  # tools whose call failed in the previous call turn
    retried: set = field(default_factory=set)  # tools called successfully in this call turn

    @property
    def msg(self) -> dict:
        """Message `i`."""
        return self.messages[self.i]


@dataclass
class CallView:
    """One tool call: its name and arguments, the question text and earlier result leaves it may draw on, and the
    tool message answering it (None for a DPO continuation). `executes` fills `result`, or `error` on failure."""

    ts: ToolSet
    offered: set
    name: str
    args: Any
    question: str
    known: set
    reply: dict | None = None
    result: Any = None
    error: ToolError | None = None


@dataclass
class AnswerView:
    """The final answer: its text, the last tool results before it, the gold answers and the row's category."""

    category: str
    gold: list[str]
    n_messages: int
    last_results: list
    content: str


@dataclass
class NextView:
    """A DPO continuation and the verified next turn it is judged against."""

    ts: ToolSet
    continuation: list[dict]
    expected: list[dict]
    results: list = field(default_factory=list)  # the continuation's call results (kg2tool.synth.tools.refs.result_key)
    names: list = field(default_factory=list)  # the continuation's called tools


# ---------------------------------------------------------------------------------------------- the checks


def _derived_schemas(v: RowView):
    for t in v.tools:
        name = t.get("function", {}).get("name")
        spec = v.ts.specs.get(name)
        # equal to the derived schema, whose own check (cached per tool) is done on its canonical JSON
        if spec is None or spec.schema != t or not _schema_ok(name, spec.canonical):
            return "tool_schema_mismatch"
    return None


def _opens_with_question(v: RowView):
    first = v.messages[0] if v.messages else {}
    return None if first.get("role") == "user" and first.get("content") else "bad_structure"


def _ends_with_answer(v: RowView):
    final = v.messages[-1] if v.messages else {}
    ok = final.get("role") == "assistant" and not final.get("tool_calls") and str(final.get("content", "")).strip()
    return None if ok else "bad_structure"


def _user_after_answer(v: TurnView):
    if v.msg.get("role") != "user":
        return None
    prev = v.messages[v.i - 1]
    return None if prev.get("role") == "assistant" and not prev.get("tool_calls") else "bad_structure"


def _is_text(msg: dict) -> bool:
    return msg.get("role") == "assistant" and not msg.get("tool_calls")


def _text_then_user(v: TurnView):
    if not _is_text(v.msg):
        return None
    ok = str(v.msg.get("content", "")).strip() and v.messages[v.i + 1].get("role") == "user"
    return None if ok else "bad_structure"


def _states_results(v: TurnView):
    if not _is_text(v.msg) or v.messages[v.i - 1].get("role") != "tool":
        return None
    text = str(v.msg.get("content", ""))
    return "answer_not_stated" if any(a not in text for r in v.last_results for a in answer_strings(r)) else None


def _calls_answered(v: TurnView):
    if v.msg.get("role") == "user" or _is_text(v.msg):
        return None
    calls = v.msg.get("tool_calls") if v.msg.get("role") == "assistant" else None
    if not calls:  # e.g. a tool message where an assistant turn belongs
        return "unanswered_call"
    replies = v.messages[v.i + 1 : v.i + 1 + len(calls)]
    if len(replies) != len(calls) or any(r.get("role") != "tool" for r in replies):
        return "unanswered_call"
    for call, reply in zip(calls, replies):
        if reply.get("tool_call_id") != call.get("id") or reply.get("name") != call.get("function", {}).get("name"):
            return "unanswered_call"
    return None


def _errors_recovered(v: TurnView):
    return "error_not_recovered" if v.failed - v.retried else None


def _offered_tool(v: CallView):
    return None if v.name in v.offered else "unknown_tool"


def _valid_arguments(v: CallView):
    try:
        v.ts.validate(v.name, v.args)
    except ToolError as exc:
        v.error = exc
        return "schema_invalid"
    return None


def _grounded_arguments(v: CallView):
    leaves = _arg_leaves(v.args, v.ts.specs[v.name].parameters)
    ok = all(leaf in v.known or (isinstance(leaf, str) and leaf in v.question) for leaf in leaves)
    return None if ok else "ungrounded_argument"


def _executes(v: CallView):
    try:
        v.result = v.ts.execute(v.name, v.args, validate=False)  # valid_arguments has validated them
    except ToolError as exc:
        v.error = exc
        return "schema_invalid" if exc.kind == "schema" else "execution_error"
    return None


def _result_matches(v: CallView):
    if v.reply is None:  # a DPO continuation: judged by same_calls
        return None
    expected = error_json(v.error) if v.error is not None else result_json(v.result)
    return None if v.reply.get("content") == expected else "execution_mismatch"


def _irrelevance_plain(v: AnswerView):
    return None if v.category != "irrelevance" or (v.n_messages == 2 and not v.gold) else "bad_structure"


def _has_results(v: AnswerView):
    return None if v.category == "irrelevance" or v.last_results else "bad_structure"


def _answer_supported(v: AnswerView):
    got: set[str] = set()
    for r in v.last_results:
        got |= answer_strings(r)
    return None if got == set(v.gold) else "answer_mismatch"


def _answer_stated(v: AnswerView):
    said = all(a in v.content for a in v.gold) and all(f"{n:,}" in v.content for n in cut_counts(v.last_results))
    return None if said else "answer_not_stated"


def _one_message(v: NextView):
    ok = len(v.continuation) == 1 and v.continuation[0].get("role") == "assistant"
    return None if ok else "bad_structure"


def _needed_call(v: NextView):
    return None if v.continuation[0].get("tool_calls") or not v.expected[0].get("tool_calls") else "missing_call"


def _same_calls(v: NextView):
    if not v.continuation[0].get("tool_calls"):
        return None
    want = [c["function"] for c in v.expected[0].get("tool_calls") or []]
    want_results = [result_key(v.ts, v.ts.execute(f["name"], f["arguments"])) for f in want]
    if Counter(v.names) != Counter(f["name"] for f in want) or Counter(v.results) != Counter(want_results):
        return "wrong_calls"
    return None


CHECKS: list[Check] = [
    Check("derived_schemas", "row", "tool_schema_mismatch", _derived_schemas),
    Check("opens_with_question", "row", "bad_structure", _opens_with_question),
    Check("ends_with_answer", "row", "bad_structure", _ends_with_answer),
    Check("user_after_answer", "turn", "bad_structure", _user_after_answer),
    Check("text_then_user", "turn", "bad_structure", _text_then_user),
    Check("states_results", "turn", "answer_not_stated", _states_results),
    Check("calls_answered", "turn", "unanswered_call", _calls_answered),
    Check("errors_recovered", "recovery", "error_not_recovered", _errors_recovered),
    Check("offered_tool", "call", "unknown_tool", _offered_tool),
    Check("valid_arguments", "call", "schema_invalid", _valid_arguments),
    Check("grounded_arguments", "call", "ungrounded_argument", _grounded_arguments),
    Check("executes", "call", "execution_error", _executes),
    Check("result_matches", "call", "execution_mismatch", _result_matches),
    Check("irrelevance_plain", "answer", "bad_structure", _irrelevance_plain),
    Check("has_results", "answer", "bad_structure", _has_results),
    Check("answer_supported", "answer", "answer_mismatch", _answer_supported),
    Check("answer_stated", "answer", "answer_not_stated", _answer_stated),
    Check("one_message", "next", "bad_structure", _one_message),
    Check("needed_call", "next", "missing_call", _needed_call),
    Check("same_calls", "next", "wrong_calls", _same_calls),
]
# the reasons a call may fail with in an error-recovery row (its tool message must then be the error)
RECOVERABLE = ("schema_invalid", "execution_error")


def first_failure(stage: str, view, skip: tuple[str, ...] = (), checks: list[Check] | None = None) -> str | None:
    """The reason of the first check of `stage` (in the order of `checks`, CHECKS by default, leaving out the names
    in `skip`) that fails on `view`, or None when all hold."""
    for check in CHECKS if checks is None else checks:
        if check.stage == stage and check.name not in skip:
            reason = check.test(view)
            if reason:
                return reason
    return None


def check_call(view: CallView, allow_errors: bool = False) -> tuple[str | None, bool]:
    """(reason or None, failed) for one call: the call checks in order; with `allow_errors`, a call that fails
    valid_arguments or executes is a failed call (reason None, failed True) when its tool message is the error,
    and grounding is judged only for calls that execute (see the module docstring)."""
    checks = [c for c in CHECKS if c.stage == "call"]
    if allow_errors:
        grounding = [c for c in checks if c.name == "grounded_arguments"]
        checks = [c for c in checks if c.name != "grounded_arguments"]
        at = next((k + 1 for k, c in enumerate(checks) if c.name == "executes"), len(checks))
        checks[at:at] = grounding
    for check in checks:
        reason = check.test(view)
        if not reason:
            continue
        if allow_errors and reason in RECOVERABLE and view.error is not None:
            matches = [c for c in checks if c.name == "result_matches"]
            return (matches[0].test(view) if matches else None), True
        return reason, False
    return None, False


# ---------------------------------------------------------------------------------------------- verify_row


def verify_row(
    ts: ToolSet, messages: list[dict], tools: list[dict], gold: list[str], category: str, allow_errors: bool = False
) -> str | None:
    """None if the conversation passes every check, else the first failing reason (see module docstring).

    Multi-turn conversations: every user message counts as question text for grounding; an assistant message
    with text between turns either follows tool results (and must state them) or asks the user something.
    `allow_errors` (error-recovery rows): a call may fail, if its tool message is exactly the executor's or the
    validator's error and the next assistant turn calls the same tool successfully; only the corrected
    trajectory's answer is judged."""
    stages = {s: [c for c in CHECKS if c.stage == s] for s in ("row", "turn", "recovery", "answer")}  # once a row
    getattr(ts, "begin", lambda: None)()  # the refs style (kg2tool.synth.tools.refs): handles from r1 for this row
    reason = first_failure("row", RowView(ts, messages, tools), checks=stages["row"])
    if reason:
        return reason
    offered = {t.get("function", {}).get("name") for t in tools}
    question = messages[0]["content"]
    known: set = set()  # leaves of earlier tool results
    turn = TurnView(messages, 1)
    while turn.i < len(messages) - 1:
        msg = turn.msg
        reason = first_failure("turn", turn, checks=stages["turn"])
        if reason:
            return reason
        if msg.get("role") == "user":
            question += "\n" + str(msg.get("content", ""))
        if msg.get("role") == "user" or _is_text(msg):
            turn.i += 1
            continue
        calls = msg.get("tool_calls") or []
        turn_leaves: list = []
        turn.last_results, turn.retried, now_failed = [], set(), set()
        for k, call in enumerate(calls):
            fn = call.get("function", {})
            j = turn.i + 1 + k
            reply = messages[j] if j < len(messages) else {}
            view = CallView(ts, offered, fn.get("name"), fn.get("arguments"), question, known, reply)
            reason, failed = check_call(view, allow_errors)
            if reason:
                return reason
            if failed:
                now_failed.add(view.name)
                turn_leaves.extend(getattr(view.error, "suggestions", ()))
                continue
            turn.retried.add(view.name)
            turn.last_results.append(view.result)
            turn_leaves.extend(json_leaves(view.result))
        reason = first_failure("recovery", turn, checks=stages["recovery"])
        if reason:
            return reason
        turn.failed = now_failed
        known.update(turn_leaves)  # results are usable from the next turn on
        turn.i += 1 + len(calls)
    reason = first_failure("recovery", TurnView(messages, turn.i, failed=turn.failed), checks=stages["recovery"])
    final = AnswerView(category, gold, len(messages), turn.last_results, messages[-1]["content"])
    return reason or first_failure("answer", final, checks=stages["answer"])
