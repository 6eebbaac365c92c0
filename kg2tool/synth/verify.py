"""Independent verification of a conversation: schemas, calls, execution, grounding and the final answer.

`verify_row` re-derives everything from the row itself and the shared executor; it does not look at the walker's
trace. It returns None when the row passes, or a drop reason (a short, stable key counted in the validation
report). Reasons:

    unknown_tool            a call names a tool that is not offered in the row
    tool_schema_mismatch    an offered tool differs from the derived one, or its schema is not valid JSON Schema
    schema_invalid          a call's arguments fail its JSON Schema
    execution_error         the executor refuses a call (unknown entity, tie, ...)
    execution_mismatch      a tool message differs from re-executing its call on the graph
    unanswered_call         a call without exactly one tool message with its id (or a stray tool message)
    ungrounded_argument     an argument value appears neither in the question nor in an earlier tool result
    answer_mismatch         the last tool results differ from the plan's gold answer
    answer_not_stated       the final assistant message does not state every answer
    error_not_recovered     (error-recovery rows) a failed call not followed by a successful call of the same tool
    bad_structure           wrong message order, empty final answer, a call in an irrelevance row, ...
"""

from __future__ import annotations

import json
from functools import lru_cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from .tools import ToolError, ToolSet, error_json, result_json

REASONS = (
    "unknown_tool",
    "tool_schema_mismatch",
    "schema_invalid",
    "execution_error",
    "execution_mismatch",
    "unanswered_call",
    "ungrounded_argument",
    "answer_mismatch",
    "answer_not_stated",
    "error_not_recovered",
    "bad_structure",
)


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
    if isinstance(value, list):
        return {str(v) for v in value}
    return {str(value)}


def verify_row(
    ts: ToolSet, messages: list[dict], tools: list[dict], gold: list[str], category: str, allow_errors: bool = False
) -> str | None:
    """None if the conversation passes every check, else the first failing reason (see module docstring).

    Multi-turn conversations: every user message counts as question text for grounding; an assistant message
    with text between turns either follows tool results (and must state them) or asks the user something.
    `allow_errors` (error-recovery rows): a call may fail, if its tool message is exactly the executor's or the
    validator's error and the next assistant turn calls the same tool successfully; only the corrected
    trajectory's answer is judged."""
    offered = {}
    for t in tools:
        name = t.get("function", {}).get("name")
        spec = ts.specs.get(name)
        # equal to the derived schema, whose own check (cached per tool) is done on its canonical JSON
        if spec is None or spec.schema != t or not _schema_ok(name, spec.canonical):
            return "tool_schema_mismatch"
        offered[name] = spec
    if not messages or messages[0].get("role") != "user" or not messages[0].get("content"):
        return "bad_structure"
    final = messages[-1]
    if final.get("role") != "assistant" or final.get("tool_calls") or not str(final.get("content", "")).strip():
        return "bad_structure"

    question = messages[0]["content"]
    known: set = set()  # leaves of earlier tool results
    last_results: list = []
    failed: set[str] = set()  # tools whose last call failed (must be retried successfully next turn)
    i = 1
    while i < len(messages) - 1:
        msg = messages[i]
        role = msg.get("role")
        if role == "user":
            if messages[i - 1].get("role") != "assistant" or messages[i - 1].get("tool_calls"):
                return "bad_structure"
            question += "\n" + str(msg.get("content", ""))
            i += 1
            continue
        calls = msg.get("tool_calls") if role == "assistant" else None
        if role == "assistant" and not calls:
            text = str(msg.get("content", ""))
            if not text.strip() or messages[i + 1].get("role") != "user":
                return "bad_structure"
            if messages[i - 1].get("role") == "tool" and any(
                a not in text for r in last_results for a in answer_strings(r)
            ):
                return "answer_not_stated"
            i += 1
            continue
        if not calls:
            return "unanswered_call"
        replies = messages[i + 1 : i + 1 + len(calls)]
        if len(replies) != len(calls) or any(r.get("role") != "tool" for r in replies):
            return "unanswered_call"
        turn_leaves: list = []
        last_results = []
        retried = set()
        now_failed: set[str] = set()
        for call, reply in zip(calls, replies):
            fn = call.get("function", {})
            name, args = fn.get("name"), fn.get("arguments")
            if reply.get("tool_call_id") != call.get("id") or reply.get("name") != name:
                return "unanswered_call"
            if name not in offered:
                return "unknown_tool"
            try:
                ts.validate(name, args)
                grounded = all(
                    leaf in known or (isinstance(leaf, str) and leaf in question)
                    for leaf in _arg_leaves(args, offered[name].parameters)
                )
                if not grounded and not allow_errors:
                    return "ungrounded_argument"
                result = ts.execute(name, args, validate=False)  # validated just above
            except ToolError as exc:
                if not allow_errors:
                    return "schema_invalid" if exc.kind == "schema" else "execution_error"
                if reply.get("content") != error_json(exc):
                    return "execution_mismatch"
                now_failed.add(name)
                continue
            if not grounded:
                return "ungrounded_argument"
            if result_json(result) != reply.get("content"):
                return "execution_mismatch"
            retried.add(name)
            last_results.append(result)
            turn_leaves.extend(json_leaves(result))
        if failed - retried:
            return "error_not_recovered"
        failed = now_failed
        known.update(turn_leaves)  # results are usable from the next turn on
        i += 1 + len(calls)
    if failed:
        return "error_not_recovered"

    if category == "irrelevance":
        return None if len(messages) == 2 and not gold else "bad_structure"
    if not last_results:
        return "bad_structure"
    got: set[str] = set()
    for r in last_results:
        got |= answer_strings(r)
    if got != set(gold):
        return "answer_mismatch"
    content = final["content"]
    if any(a not in content for a in gold):
        return "answer_not_stated"
    return None
