"""A language lint for synthesized conversations: wording a person would not write.

`language_problems(row)` returns the problems of one dataset row (its user questions and the assistant's final
answers), each as a short string naming the rule and quoting the text; an empty list means the row reads fine.
Rules:
- no machine wording: "the has", "of of", "entities whose", "what everything", "the entities that", "items
  whose", "is is", "what is the number of" (see BANNED);
- the copula agrees with the answer list: "... is A and B." and "... are A." (one answer) are errors;
- exactly one final punctuation mark (no "..", "?.", "??" at the end; "Inc.?" ends a name, then the question);
- questions are under `max_words` words (parallel questions, which ask several things, get twice as many).
"""

from __future__ import annotations

import re

BANNED = ("the has ", " of of ", "the entities whose", "which entities whose", "what everything", "the entities that", "everything that is",
          " items that ", " items whose ", "the item ", " is is ", " was was ", "what is the number of",
          "that is born ", "where is born")


def _final_mark(text: str) -> str | None:
    t = text.rstrip()
    if not t or t[-1] not in ".?!":
        return "no final punctuation mark"
    if re.search(r"[.?!]\s*[.?!]$", t) and not t.endswith(("...", ".?")):  # "Acme Inc.?" ends a name
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
