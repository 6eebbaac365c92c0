"""A language lint for synthesized conversations: wording a person would not write.

`language_problems(row)` returns the problems of one dataset row (its user questions and the assistant's final
answers), each as a short string naming the rule and quoting the text; an empty list means the row reads fine.
Rules:
- no machine wording: "the has", "of of", "entities whose", "what everything", "the entities that", "items
  whose", "is is", "what is the number of" (see BANNED);
- the copula agrees with the answer list: "... is A and B." and "... are A." (one answer) are errors;
- exactly one final punctuation mark (no "..", "?.", "??" at the end; "Inc.?" ends a name, then the question);
- questions are under `max_words` words (parallel questions, which ask several things, get twice as many).

`schema_problems(row)` returns the schema wording of a row: a graph's conventions that leaked into the English
(IRIs and ids, prefixed names, dotted property paths, underscore/camelCase words, placeholder kinds such as "which
items" or "named individuals"); see SCHEMA_RULES. It needs no reader, and bench/bench_anygraph.py measures it.
"""

from __future__ import annotations

import json
import re

BANNED = ("the has ", " of of ", "the entities whose", "which entities whose", "what everything", "the entities that", "everything that is",
          " items that ", " items whose ", "the item ", " is is ", " was was ", "what is the number of",
          "that is born ", "where is born")


def _final_mark(text: str) -> str | None:
    t = text.rstrip()
    if not t or t[-1] not in ".?!":
        return "no final punctuation mark"
    # a name's own mark stays before the question's: "Acme Inc.?", "Did you see Oklahoma!?"
    if re.search(r"[.?!]\s*[.?!]$", t) and not t.endswith(("...", ".?", "!?")):
        return "two final punctuation marks"
    return None


def _copula(text: str, answers: list[str]) -> str | None:
    """`X is A and B.` / `X are A.` where the sentence ends with the answer list."""
    if not answers or len(text) < 3:
        return None
    body = text.rstrip(".")
    listed = answers[0] if len(answers) == 1 else ", ".join(answers[:-1]) + " and " + answers[-1]
    if not body.endswith(" " + listed):
        return None
    verb = body[: -len(listed) - 1].rsplit(" ", 1)[-1]
    if verb == "is" and len(answers) > 1:
        return "singular copula before several answers"
    if verb == "are" and len(answers) == 1:
        return "plural copula before one answer"
    return None


def language_problems(row: dict, max_words: int = 30) -> list[str]:
    """The language problems of one dataset row (see the module docstring); [] when it reads fine."""
    problems = []
    answers = [str(a) for a in row.get("answers", [])]
    limit = max_words * (2 if str(row.get("category", "")).startswith("parallel") else 1)
    for msg in row["messages"]:
        text = msg.get("content") or ""
        if msg["role"] not in ("user", "assistant") or not text:
            continue
        low = text.lower()
        for phrase in BANNED:
            if phrase in low:
                problems.append(f"machine wording {phrase.strip()!r}: {text}")
        if msg["role"] == "user" and len(text.split()) >= limit:
            problems.append(f"question of {len(text.split())} words: {text}")
        if msg["role"] == "user" and text.strip() in (f"{a}." for a in answers):
            continue  # a user supplying a name (missing_info) may end with the name's own period
        mark = _final_mark(text)
        if mark:
            problems.append(f"{mark}: {text}")
    final = row["messages"][-1]
    if final["role"] == "assistant" and row.get("category") not in ("parallel", "parallel_multiple"):
        bad = _copula(final.get("content") or "", answers)
        if bad:
            problems.append(f"{bad}: {final['content']}")
    return problems


# ---------------------------------------------------------------------------------------------- schema wording
# A graph's conventions leaking into English: identifiers, property paths, code-style words and placeholder kinds.
# The rules live in the package (kg2tool/synth/language/schema_words.py, which says what each passes and misses),
# so `kg2tool lexicon --backend ...` checks a model's drafted wordings with the same rules.
# `schema_problems` runs them in order over each message and blanks what a rule matched, so one word is one problem.
from kg2tool.synth.language.schema_words import SCHEMA_RULES  # noqa: E402


def _tool_names(row: dict) -> set[str]:
    """Function names of the row's tool definitions and calls (dicts, or JSON strings as parquet gives them)."""
    names = set()
    for tool in row.get("tools") or []:
        tool = json.loads(tool) if isinstance(tool, str) else tool
        fn = tool.get("function", tool) if isinstance(tool, dict) else {}
        if isinstance(fn, dict) and fn.get("name"):
            names.add(str(fn["name"]))
    for msg in row["messages"]:
        for call in msg.get("tool_calls") or []:
            fn = call.get("function", {}) if isinstance(call, dict) else {}
            if fn.get("name"):
                names.add(str(fn["name"]))
    return names


def schema_problems(row: dict) -> list[str]:
    """The schema wording of one dataset row: SCHEMA_RULES over its user questions and the assistant's answers
    (messages with content; not tool calls, tool results or the system prompt), each problem as
    "rule 'word': text"; [] when the row reads as English. Gold answers that are URLs (values of link attributes
    such as an image) are data and pass where they are quoted, and so are the row's own tool names ("None of the
    available tools (get_director and get_country) gives ..."): an identifier the assistant cites on purpose."""
    problems = []
    urls = [str(a) for a in row.get("answers", []) if str(a).startswith(("http://", "https://"))]
    tools = sorted(_tool_names(row), key=len, reverse=True)
    for msg in row["messages"]:
        text = msg.get("content") or ""
        if msg.get("role") not in ("user", "assistant") or not isinstance(text, str) or not text:
            continue
        seen = text
        for url in urls:
            seen = seen.replace(url, " " * len(url))
        for name in tools:
            seen = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w])", " " * len(name), seen)
        for rule, rx in SCHEMA_RULES.items():
            for hit in list(rx.finditer(seen)):
                problems.append(f"{rule} {hit[0]!r}: {text}")
                seen = seen[: hit.start()] + " " * len(hit[0]) + seen[hit.end() :]
    return problems
