"""An independent checker for synth output, written for the tests without kg2tool's own verify module.

It re-validates every call with jsonschema directly and re-executes it through a fresh ToolSet, so a bug in
`kg2tool.synth.verify` cannot hide a bad row.
"""

from __future__ import annotations

import json
import re

from jsonschema import Draft202012Validator


def check_row(row: dict, toolset) -> list[str]:
    """Problems found in one row (empty list: the row is good)."""
    problems = []
    tools = {t["function"]["name"]: t for t in row["tools"]}
    for t in row["tools"]:
        Draft202012Validator.check_schema(t["function"]["parameters"])
    msgs = row["messages"]
    if msgs[0]["role"] != "user" or msgs[-1]["role"] != "assistant" or msgs[-1].get("tool_calls"):
        problems.append("structure")
    pending: dict[str, tuple[str, dict]] = {}
    answered: set[str] = set()
    last_results = []
    for m in msgs[1:-1]:
        if m["role"] == "user" or (m["role"] == "assistant" and not m.get("tool_calls")):
            continue  # a later user turn, or an intermediate answer / clarifying question
        if m["role"] == "assistant":
            if pending:
                problems.append("new turn before all calls were answered")
            last_results = []
            for call in m["tool_calls"]:
                fn = call["function"]
                if fn["name"] not in tools:
                    problems.append(f"tool not offered: {fn['name']}")
                    continue
                errors = list(
                    Draft202012Validator(tools[fn["name"]]["function"]["parameters"]).iter_errors(fn["arguments"])
                )
                if errors and row["pattern"] != "error_recovery":
                    problems.append(f"invalid arguments: {errors[0].message}")
                if call["id"] in pending or call["id"] in answered:
                    problems.append("duplicate call id")
                pending[call["id"]] = (fn["name"], fn["arguments"])
        elif m["role"] == "tool":
            if m["tool_call_id"] not in pending:
                problems.append("tool message without a call")
                continue
            name, args = pending.pop(m["tool_call_id"])
            answered.add(m["tool_call_id"])
            try:
                expected = toolset.execute(name, args)
            except Exception as exc:  # only error-recovery rows may show a failed call, with its real error
                if row["pattern"] != "error_recovery":
                    problems.append(f"failed call in a {row['pattern']} row: {exc}")
                expected = {"error": str(exc)}
            if json.loads(m["content"]) != expected:
                problems.append(f"tool result differs from execution: {name}")
            last_results.append(expected)
    if pending:
        problems.append("unanswered calls")
    final = msgs[-1]["content"]
    for ans in row["answers"]:
        if ans not in final:
            problems.append(f"answer not stated: {ans}")
    if row["category"] == "irrelevance":
        if len(msgs) != 2 or row["answers"]:
            problems.append("irrelevance row with calls or answers")
    else:
        got = set()
        for r in last_results:
            got |= {str(x) for x in r} if isinstance(r, list) else {str(r)}
        if got != set(row["answers"]):
            problems.append("last results differ from answers")
    return problems


# ---------------------------------------------------------------------------------------------- language lint
# Rules over the questions and answers a user would read. HYGIENE rules are about the graph's data (kg2tool.graph:
# IRIs, opaque ids, numeric disambiguators); WORDING rules are about the templates and relation wording.
HYGIENE_RULES = {
    "raw IRI": re.compile(r"<?https?://|urn:[a-z]"),
    "numeric-id disambiguator": re.compile(r"\(\d{3,}\)"),
    "statement id": re.compile(r"\bQ\d+-[0-9A-Fa-f]{8}"),
    "uuid": re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
}
WORDING_RULES = {
    "the has": re.compile(r"\bthe has[A-Z_ ]"),
    "of of": re.compile(r"\bof of\b"),
    "entities whose": re.compile(r"\b(?:the|which|all|what) entities whose\b", re.IGNORECASE),  # not "business entities"
}


def lint_row(row: dict, rules: dict) -> list[str]:
    """Problems `rules` (name -> regex) find in the text a user reads: every user message and the final answer.
    Gold answers that are URLs (values of link attributes such as an image) are allowed in the answer, nowhere
    else. Returns "rule: snippet" strings (empty: clean)."""
    urls = [a for a in row["answers"] if str(a).startswith(("http://", "https://"))]
    texts = [m["content"] for m in row["messages"] if m["role"] == "user"]
    final = row["messages"][-1]["content"]
    for url in urls:
        final = final.replace(url, "URL")
    problems = []
    for text in texts + [final]:
        for name, rx in rules.items():
            hit = rx.search(text)
            if hit:
                problems.append(f"{name}: ...{text[max(0, hit.start() - 40) : hit.end() + 40]}...")
    return problems
