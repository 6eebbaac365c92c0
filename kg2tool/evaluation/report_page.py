"""The conversations of ``report.html`` for ``kg2tool eval``: each result row as chat turns, a failed one with the
expected turns (the gold conversation of its dataset row, or its BFCL entry's possible answers) beside the
produced ones; for ``kg2tool eval --questions`` (``question_items``), each question with its calls, a failed one
beside its relation path and answer set.

``load_expected(DATA)`` reads what a row was expected to do (the ``sft`` test split of a synth dataset folder; the
BFCL entries of ``DATA/bfcl`` or of a BFCL data folder); ``items(rows, expected)`` builds the page's items
(``kg2tool.hub.report_html``). The page itself is written by ``report.write_reports``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..hub.report_html import Column, Item, Turn, call_text, first_user_text, turns_from_messages
from . import bfcl_data

MAX_ITEMS = 3000  # result rows embedded in the page; failed rows are kept first when there are more
_BFCL_FILE_RE = re.compile(r"BFCL_v\d+_(\w+)\.json")


@dataclass
class Expected:
    """What the rows were expected to do: dataset rows by id, BFCL entries (question, possible answers) by id."""

    rows: dict[str, dict] = field(default_factory=dict)
    bfcl: dict[str, bfcl_data.BfclEntry] = field(default_factory=dict)


def load_expected(data: str | Path, categories: set[str] | frozenset[str] = frozenset()) -> Expected:
    """The ``sft`` test rows and the BFCL entries of ``categories`` (the AST categories the eval ran) of an eval's
    ``--data`` folder, whatever of them it has."""
    data = Path(data)
    expected = Expected()
    if (data / "sft").is_dir():
        from datasets import load_dataset
        from datasets.utils.logging import disable_progress_bar

        disable_progress_bar()
        expected.rows = {str(r["id"]): r for r in load_dataset(str(data), "sft", split="test")}
    for folder in (data / "bfcl", data):
        found = {m.group(1) for p in folder.glob("BFCL_v*.json") if (m := _BFCL_FILE_RE.fullmatch(p.name))}
        if found:
            for category in sorted(found & set(categories)):
                expected.bfcl.update({e.id: e for e in bfcl_data.load_category(folder, category)})
            break
    return expected


def _prefix(messages: list[dict]) -> list[dict]:
    """The messages before the first assistant turn."""
    out = []
    for m in messages:
        if m["role"] == "assistant":
            break
        out.append(m)
    return out


def _first_answer(messages: list[dict]) -> list[dict]:
    """The messages up to the first assistant turn, with that turn's tool results."""
    out, seen = [], False
    for m in messages:
        if seen and m["role"] != "tool":
            break
        seen = seen or m["role"] == "assistant"
        out.append(m)
    return out


def _question(entry: bfcl_data.BfclEntry | None) -> list[dict]:
    question = entry.question if entry else None
    if isinstance(question, list) and question and isinstance(question[0], list):
        question = question[0]
    return [m for m in question if isinstance(m, dict)] if isinstance(question, list) else []


def _call_turns(calls: list[dict]) -> list[Turn]:
    """Calls ``{"name", "arguments"[, "result", "error"]}`` as call turns, each followed by its result if any."""
    turns = []
    for c in calls:
        turns.append(Turn("call", call_text(c.get("name", "?"), c.get("arguments"))))
        if c.get("error") is not None:
            turns.append(Turn("tool", str(c["error"]), "error"))
        elif "result" in c:
            turns.append(Turn("tool", str(c["result"])))
    return turns


def _decoded_turns(row: dict) -> list[Turn]:
    decoded = row.get("decoded")
    if isinstance(decoded, list) and decoded:
        return [Turn("call", call_text(name, args)) for call in decoded for name, args in call.items()]
    return [Turn("assistant", str(row.get("output") or ""))]


def _ast_item(row: dict, expected: Expected) -> tuple[list[Turn], list[Turn], str, str]:
    gold = expected.rows.get(str(row.get("kg2tool_id")))
    entry = expected.bfcl.get(row.get("id", ""))
    if gold is not None:
        question = turns_from_messages(_prefix(gold["messages"]))
        want = turns_from_messages(_first_answer(gold["messages"]))
        summary, shape = first_user_text(gold["messages"]), gold["pattern"]
    else:
        messages = _question(entry)
        question = turns_from_messages(messages)
        truth = entry.ground_truth if entry else None
        if truth:
            answers = [Turn("call", call_text(n, a), "possible values") for c in truth for n, a in c.items()]
        else:
            answers = [Turn("assistant", "(no call: none of the tools fits)" if entry else "(unknown entry)")]
        want = question + answers
        summary, shape = first_user_text(messages), row["category"]
    return want, question + _decoded_turns(row), summary, shape


def _exec_produced(row: dict, gold: dict | None) -> list[Turn]:
    messages = gold["messages"] if gold else []
    later_user = [m for m in messages[len(_prefix(messages)) :] if m["role"] == "user"]
    turns = turns_from_messages(_prefix(messages))
    for turn in row.get("turns") or []:
        if turn.get("calls"):
            turns += _call_turns(turn["calls"])
        else:
            turns.append(Turn("assistant", str(turn.get("output") or "")))
            if later_user:
                turns += turns_from_messages([later_user.pop(0)])
    return turns


def _step_expected(row: dict, gold: dict | None) -> list[Turn]:
    if gold is None:
        return _call_turns(row.get("gold_calls") or [])
    assistants = [m for m in gold["messages"] if m["role"] == "assistant"]
    turn = int(row.get("turn", 0))
    return turns_from_messages(assistants[turn : turn + 1])


def _passed(row: dict) -> bool:
    return bool(row.get("valid") if row.get("kind", "ast") == "ast" else row.get("correct"))


def item(row: dict, expected: Expected) -> Item:
    """One result row (``kind`` ast, exec or step) as a page item."""
    kind = row.get("kind", "ast")
    ok = _passed(row)
    gold = expected.rows.get(str(row.get("id", "")).split("#")[0]) if kind != "ast" else None
    note = ""
    if kind == "ast":
        want, got, summary, shape = _ast_item(row, expected)
        if not ok:
            note = f"{row.get('error_type')}: {row.get('error')}"
    elif kind == "exec":
        want, got = turns_from_messages(gold["messages"]) if gold else [], _exec_produced(row, gold)
        summary, shape = (first_user_text(gold["messages"]) if gold else ""), row.get("pattern", "")
        note = (
            f"stop: {row.get('stop')}; call turns {row.get('steps')} (gold {row.get('gold_steps')}); calls "
            f"{row.get('calls')} (gold {row.get('gold_calls')}); gold answers: {'; '.join(map(str, row.get('answers') or []))}"
        )
    else:
        want, got = _step_expected(row, gold), _call_turns(row.get("calls") or []) or _decoded_turns(row)
        summary, shape = (
            f"turn {row.get('turn')} ({row.get('step')}), after the gold conversation before it",
            row.get("pattern", ""),
        )
    columns = [Column("produced", got)] if ok else [Column("expected", want), Column("produced", got)]
    facets = {"kind": kind, "category": row.get("category", ""), "shape": shape, "result": "pass" if ok else "fail"}
    return Item(str(row.get("id", "")), summary, facets, columns, status="pass" if ok else "fail", note=note)


def items(rows: list[dict], expected: Expected, limit: int = MAX_ITEMS) -> tuple[list[Item], str]:
    """The page items of the result rows (at most ``limit``, failed rows first when cut) and a note saying so."""
    failed = [i for i, r in enumerate(rows) if not _passed(r)]
    kept = rows
    if len(rows) > limit:
        keep = set((failed + [i for i in range(len(rows)) if _passed(rows[i])])[:limit])
        kept = [r for i, r in enumerate(rows) if i in keep]
    note = f"{len(rows):,} result rows, {len(failed):,} failed"
    if len(kept) < len(rows):
        note += f"; {len(kept):,} embedded in this page (failed rows first), all of them in results.jsonl"
    note += ". A failed row shows the expected turns beside the produced ones."
    return [item(r, expected) for r in kept], note


def question_item(row: dict) -> Item:
    """One ``kg2tool eval --questions`` result row as a page item: the question, the calls with their results and
    the final answer; a failed one (not an exact match) beside what was expected (the relation path walked from
    the topic entity, and the answer set), with the answers named right, the wrong ones and the missing ones."""
    question = [Turn("user", str(row.get("question") or ""))]
    produced = question + _exec_produced(row, None)
    ok = bool(row.get("exact"))
    named, wrong = row.get("named") or [], row.get("wrong") or []
    missing = [a for a in row.get("answers") or [] if a not in named]
    note = ""
    if not ok:
        note = (f"stop: {row.get('stop')}; right: {'; '.join(named) or '(none)'}; wrong: {'; '.join(wrong) or '(none)'}; "
                f"missing: {'; '.join(missing) or '(none)'}")  # fmt: skip
    columns = [Column("produced", produced)]
    if not ok:
        paths = row.get("relation_path") or []
        walk = [" \u2192 ".join(p) + f" from {t}" for t, p in zip(row.get("topics") or [], paths)]
        want = question + [Turn("note", "walk: " + "; ".join(walk))] if walk else list(question)
        want.append(Turn("assistant", ", ".join(map(str, row.get("answers") or [])), "the answer set"))
        columns = [Column("expected", want), *columns]
    facets = {"kind": str(row.get("kind") or ""), "hops": f"{row.get('hops') or '?'} hop(s)",
              "result": "pass" if ok else "fail"}  # fmt: skip
    return Item(str(row.get("id", "")), str(row.get("question") or ""), facets, columns,
                status="pass" if ok else "fail", note=note)  # fmt: skip


def question_items(rows: list[dict], limit: int = MAX_ITEMS) -> tuple[list[Item], str]:
    """The page items of a questions run (at most ``limit``, failed questions first when cut) and a note."""
    failed = [r for r in rows if not r.get("exact")]
    kept = rows if len(rows) <= limit else (failed + [r for r in rows if r.get("exact")])[:limit]
    note = f"{len(rows):,} questions, {len(failed):,} not answered exactly"
    if len(kept) < len(rows):
        note += f"; {len(kept):,} embedded in this page (failed ones first), all of them in results.jsonl"
    note += ". A failed question shows what was expected beside what was produced, and the answers it got wrong."
    return [question_item(r) for r in kept], note
