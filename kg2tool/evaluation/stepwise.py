"""Step-wise (teacher-forced) accuracy: which step of a multi-step conversation a model gets wrong.

``multi_step_exec`` says whether a whole conversation came out right; a small model that fails it does so at some
step, and the product of per-step accuracies is what the end-to-end figure hides. Here every assistant turn of the
executable test rows is scored on its own: the model sees the *gold* conversation up to that turn (the earlier
calls, their real tool results, earlier answers) and generates one turn. Each turn is one of:

* ``first_call``: a call turn right after a user message: function choice, plus arguments copied from the
  question;
* ``later_call``: a call turn after tool results: the next step of the plan, with arguments copied out of the
  results (a name, or whole lists for ``intersection`` / ``union`` / ``count``);
* ``answer``: the row's last assistant turn: no call, and every gold answer string in the text (the executable
  loop's own rule);
* ``reply``: any other text turn (a multi-turn row's answer before its follow-up question, or a question back to
  the user): no call.

A call turn is right when its calls equal the gold turn's calls as a multiset of (name, arguments), arguments
compared as JSON values (exact strings, key order ignored). The deliberately failed calls of ``error_recovery`` rows
are gold turns like any other: the model is asked to repeat the question's misspelled name, then to recover.

Summary metrics (``stepwise_<kind>``, fractions of turns) and details (counts by kind and by pattern) come from
``summarize``; rows are the same ones the executable loop runs (``--limit`` per category).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..llm.backends import Backend
from ..llm.parsers import Parsed
from .execution import parsed_completion

STEP_KINDS = ("first_call", "later_call", "answer", "reply")


@dataclass
class StepItem:
    """One assistant turn of a test row, with the gold conversation before it."""

    row_id: str
    category: str
    pattern: str
    kind: str
    turn: int  # index of the assistant turn within the row (0 = first)
    messages: list[dict]
    tools: list[dict]
    gold_calls: list[dict]  # [{"name", "arguments"}]; empty for text turns
    answers: list[str]  # the row's answers (checked on the `answer` turn only)
    gold_text: str = ""  # the gold text of a text turn


def _call_key(name: Any, arguments: Any) -> str:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            pass
    return json.dumps([name, arguments], sort_keys=True, ensure_ascii=False)


def step_items(rows: Sequence[dict]) -> list[StepItem]:
    """One StepItem per assistant turn of each row (``messages``, ``tools``, ``answers``, ``category``, ``id``)."""
    items: list[StepItem] = []
    for row in rows:
        messages = list(row["messages"])
        assistant = [i for i, m in enumerate(messages) if m.get("role") == "assistant"]
        for turn, i in enumerate(assistant):
            message = messages[i]
            calls = message.get("tool_calls") or []
            previous = messages[i - 1].get("role") if i else None
            if calls:
                kind = "later_call" if previous == "tool" else "first_call"
            else:
                kind = "answer" if i == assistant[-1] else "reply"
            gold = [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in calls]
            items.append(
                StepItem(
                    row_id=str(row["id"]),
                    category=row["category"],
                    pattern=row.get("pattern") or row["category"],
                    kind=kind,
                    turn=turn,
                    messages=[dict(m) for m in messages[:i]],
                    tools=list(row["tools"]),
                    gold_calls=gold,
                    answers=[str(a) for a in row.get("answers") or []],
                    gold_text="" if calls else str(message.get("content") or ""),
                )
            )
    return items


def score_step(item: StepItem, parsed: Parsed) -> bool:
    """Whether one generated turn is right (see the module docstring)."""
    if item.kind in ("first_call", "later_call"):
        if parsed.errors:
            return False
        got = sorted(_call_key(c.get("name"), c.get("arguments")) for c in parsed.calls)
        return got == sorted(_call_key(c["name"], c["arguments"]) for c in item.gold_calls)
    if parsed.calls or parsed.errors:
        return False
    if item.kind == "answer":
        return all(a in parsed.text for a in item.answers)
    return True


def run_stepwise(
    items: Sequence[StepItem],
    backend: Backend,
    parse: Callable[[str], Parsed],
    batch: int = 64,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict]:
    """Generate one turn per item and score it; one result row (``kind: "step"``) per item, in order.
    ``progress(done, total)`` is called after each batch of ``batch`` items."""
    results: list[dict] = []
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        completions = backend.generate(
            [it.messages for it in chunk],
            [it.tools for it in chunk],
            [f"step:{it.row_id}" for it in chunk],
        )
        if len(completions) != len(chunk):
            raise RuntimeError(f"backend {backend.name} returned {len(completions)} completions for {len(chunk)}")
        for item, completion in zip(chunk, completions, strict=True):
            parsed = parsed_completion(completion, parse)
            results.append(
                {
                    "id": f"{item.row_id}#{item.turn}",
                    "kind": "step",
                    "category": item.category,
                    "pattern": item.pattern,
                    "step": item.kind,
                    "turn": item.turn,
                    "correct": score_step(item, parsed),
                    "output": completion.text,
                    "calls": parsed.calls,
                    "gold_calls": item.gold_calls,
                    "parse_errors": parsed.errors,
                }
            )
        if progress:
            progress(len(results), len(items))
    return results


def summarize(step_rows: Sequence[dict]) -> tuple[dict[str, float], dict]:
    """(``{stepwise_<kind>: fraction}``, details by kind and by pattern) of ``run_stepwise`` rows."""
    summary: dict[str, float] = {}
    by_kind: dict[str, dict] = {}
    by_pattern: dict[str, dict[str, dict]] = {}
    for kind in STEP_KINDS:
        rows = [r for r in step_rows if r["step"] == kind]
        if not rows:
            continue
        correct = sum(r["correct"] for r in rows)
        summary[f"stepwise_{kind}"] = correct / len(rows)
        by_kind[kind] = {"correct": correct, "total": len(rows), "accuracy": correct / len(rows)}
    for row in step_rows:
        cell = by_pattern.setdefault(row["pattern"], {}).setdefault(row["step"], {"correct": 0, "total": 0})
        cell["correct"] += bool(row["correct"])
        cell["total"] += 1
    return summary, {"by_kind": by_kind, "by_pattern": dict(sorted(by_pattern.items()))}
