"""An independent checker for synth output, written for the tests without kg2tool's own verify module.

It re-validates every call with jsonschema directly and re-executes it through a fresh ToolSet, so a bug in
`kg2tool.synth.checks.verify` cannot hide a bad row. Rows in the refs tool style (a tool message `{"ref": ...}`) are
re-executed with this module's own handle table on the plain values-style ToolSet (not `kg2tool.synth.tools.refs`).
"""

from __future__ import annotations

import json
import re

from jsonschema import Draft202012Validator


class _Refs:
    """The refs style, re-implemented: handles r1, r2, ... in call order, each keeping its full list of names."""

    def __init__(self, toolset, k: int):
        self.ts, self.k, self.sets = toolset, k, {}

    def _names(self, value):
        if isinstance(value, str):
            if value not in self.sets:
                raise KeyError(f"unknown ref {value}")
            return self.sets[value]
        return value

    def execute(self, name: str, args: dict):
        kind = self.ts.specs[name].kind
        if kind in ("forward", "inverse"):
            key = "value" if kind == "inverse" else "entity"
            names = self.sets.get(args[key], [args[key]])
            result = sorted({x for n in names for x in self.ts.execute(name, {key: n})})
        elif name == "count":
            return len(set(self._names(args["items"])))
        elif name in ("intersection", "union"):
            result = self.ts.execute(name, {"sets": [self._names(s) for s in args["sets"]]})
        elif name == "difference":
            result = self.ts.execute(name, {k: self._names(args[k]) for k in ("include", "exclude")})
        else:
            return self.ts.execute(name, args)
        handle = f"r{len(self.sets) + 1}"
        self.sets[handle] = result
        return {"ref": handle, "count": len(result), "items": result[: self.k]}


def _batch(toolset, name: str, args: dict):
    """A call, where a lookup may be given a list of names (the batch style): each name looked up on its own."""
    kind = toolset.specs[name].kind
    key = "value" if kind == "inverse" else "entity"
    if kind not in ("forward", "inverse") or (not isinstance(args.get(key), list) and "per_entity" not in args):
        return toolset.execute(name, args)
    names = args[key] if isinstance(args[key], list) else [args[key]]
    each = {n: toolset.execute(name, {key: n}) for n in names}
    if args.get("per_entity"):
        return each
    return sorted({x for v in each.values() for x in v}) if isinstance(args[key], list) else each[args[key]]


def check_row(row: dict, toolset, ref_items: int = 5) -> list[str]:
    """Problems found in one row (empty list: the row is good). `ref_items`: the names a ref shows (refs rows)."""
    problems = []
    refs = any(m["role"] == "tool" and m["content"].startswith('{"ref"') for m in row["messages"])
    batch = any("per_entity" in t["function"]["parameters"]["properties"] for t in row["tools"])  # batch style
    run = toolset.execute
    if refs or batch:
        run = _Refs(toolset, ref_items).execute if refs else lambda name, args: _batch(toolset, name, args)
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
                expected = run(name, args)
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
            if isinstance(r, dict) and "ref" in r:  # a ref: its names shown, and its count when it shows only some
                got |= {str(x) for x in r["items"]}
                if r["count"] > len(r["items"]) and f"{r['count']:,}" not in final:
                    problems.append(f"count of a cut ref not stated: {r['count']}")
                continue
            got |= {str(x) for x in r} if isinstance(r, list) else {str(r)}
        if got != set(row["answers"]):
            problems.append("last results differ from answers")
    return problems


def check_pair(pair: dict, row: dict, toolset, ref_items: int = 5) -> list[str]:
    """Problems of a DPO pair's chosen side (empty list: good): the prompt followed by `chosen` must be the start of
    `row`, the conversation the pair was cut from, with the same tools, and that conversation must pass check_row
    (every call re-executed in order, refs through this module's own handle table)."""
    problems = []
    n = len(pair["prompt"])
    if pair["prompt"] + pair["chosen"] != row["messages"][: n + 1] or len(pair["chosen"]) != 1:
        problems.append("prompt + chosen is not the start of the row")
    if pair["tools"] != row["tools"]:
        problems.append("tools differ from the row's")
    return problems + check_row(row, toolset, ref_items)


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
    else, and so are numbers in parentheses that a tool returned. Returns "rule: snippet" strings (empty: clean)."""
    urls = [a for a in row["answers"] if str(a).startswith(("http://", "https://"))]
    texts = [m["content"] for m in row["messages"] if m["role"] == "user"]
    final = row["messages"][-1]["content"]
    for url in urls:
        final = final.replace(url, "URL")
    results = " ".join(str(m["content"]) for m in row["messages"] if m["role"] == "tool")
    # a number a tool returned is data ("won the prize later (2007) than B (1946)"), not a name's disambiguator
    final = re.sub(r"\((\d{3,})\)", lambda m: "(N)" if re.search(rf"\b{m[1]}\b", results) else m[0], final)
    problems = []
    for text in texts + [final]:
        for name, rx in rules.items():
            hit = rx.search(text)
            if hit:
                problems.append(f"{name}: ...{text[max(0, hit.start() - 40) : hit.end() + 40]}...")
    return problems
