"""Preference pairs for DPO: a verified continuation (chosen) against a realistic, verifiably wrong one (rejected).

Each pair cuts a verified conversation before one assistant turn: `prompt` is everything up to it, `chosen` is
that turn as written (it passed verification), `rejected` is the same turn with one named mistake:

    wrong_tool          a call names another tool (same argument names when one is offered)
    wrong_argument      an entity argument replaced by a real entity the conversation never mentioned
    schema_violation    an argument of the wrong type, a required argument missing, or an unknown key
    premature_answer    a final answer (naming wrong entities) where a tool call is still needed
    unneeded_call       a call in an irrelevance conversation, where no offered tool fits
    wrong_call_count    a parallel turn with a call dropped or one call repeated
    unsupported_answer  a final answer in which an answer is replaced by an entity the tool results do not give
    wrong_operation     at a later call turn, the next operation replaced by another offered one that takes the
                        same input: `union` for `intersection` (and back), `difference` for either, `count`
                        where a lookup is due, `compare` with `max` and `min` swapped
    wrong_carried_name  at a later call turn, an argument copied from a tool result replaced by another name (or
                        ref) from an earlier result or from the question: it runs, to a different result

A pair is kept only when the judge rejects its rejected side for a reason that fits its type (`REASONS_OF`): a
mistake that happens to be harmless, or that fails for another reason, is not written.

Rows in the refs and batch tool styles (kg2tool.synth.tools.refs) are judged with their style's tools: the refs style's
handles live in a per-conversation table, so `check_continuation` runs on a fresh fork of the tool set whose table
is rebuilt by replaying the prompt's calls in order (`replayed`); results that are refs are compared by the names
they hold.

`check_continuation` is the independent judge used by the tests and available to users: it applies synth
verification's named checks (`kg2tool.synth.checks.verify.CHECKS`: offered tool, JSON Schema, grounding, execution, answer
supported and stated, and the `next` checks that compare with the verified turn) to one continuation, with the
same reason names. Every chosen continuation passes it and every rejected one fails it; pairs whose rejection happens
to pass are dropped. Rows are in TRL's conversational preference format (`prompt`/`chosen`/`rejected` lists of
messages plus `tools`), which `DPOTrainer` takes as is.
"""

from __future__ import annotations

import copy
import json
import random

from ...common.closenames import LongestName
from ...graph.model import KnowledgeGraph
from ..tools.refs import REF_RE, is_ref, result_key
from ..tools.toolset import ToolError, ToolSet, error_json, result_json
from .verify import AnswerView, CallView, NextView, RowView, check_call, first_failure, json_leaves

REJECTION_TYPES = (
    "wrong_tool",
    "wrong_argument",
    "schema_violation",
    "premature_answer",
    "unneeded_call",
    "wrong_call_count",
    "unsupported_answer",
    "wrong_operation",
    "wrong_carried_name",
)
# the judge's reasons (kg2tool.synth.checks.verify.REASONS) a rejected side of each type may fail with
REASONS_OF = {
    "wrong_tool": ("wrong_calls", "unknown_tool", "schema_invalid", "execution_error"),
    "wrong_argument": ("ungrounded_argument",),
    "schema_violation": ("schema_invalid",),
    "premature_answer": ("missing_call",),
    "unneeded_call": ("bad_structure",),
    "wrong_call_count": ("wrong_calls",),
    "unsupported_answer": ("answer_not_stated", "answer_mismatch"),
    "wrong_operation": ("wrong_calls",),
    "wrong_carried_name": ("wrong_calls",),
}
_ATOMIC = frozenset((str, int, float, bool, type(None)))  # what deepcopy returns as it is (_copy)


def _calls(msg: dict) -> list[dict]:
    return msg.get("tool_calls") or []


def _copy(value, memo: dict):
    """`copy.deepcopy(value, memo)` for a message (dicts, lists, strings, numbers), without deepcopy's dispatch per
    object: an object met twice is copied once, as deepcopy does; anything else is handed to deepcopy."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is dict or kind is list:
        got = memo.get(id(value))
        if got is None:
            if kind is dict:
                got = memo[id(value)] = {}
                for key, item in value.items():
                    got[key] = item if type(item) in _ATOMIC else _copy(item, memo)
            else:  # a list of names, mostly: its strings are taken as they are, without a call each
                got = memo[id(value)] = []
                got.extend([item if type(item) in _ATOMIC else _copy(item, memo) for item in value])
        return got
    return copy.deepcopy(value, memo)


def _copied(msg: dict) -> dict:
    """A deep copy of a message (see _copy)."""
    return _copy(msg, {})


def check_continuation(
    ts: ToolSet, prompt: list[dict], continuation: list[dict], tools: list[dict], answers: list[str], category: str,
    expected: list[dict],
) -> str | None:  # fmt: skip
    """None if `continuation` (one assistant message) is a correct next turn after `prompt`, else the reason.

    `expected` is the verified next turn. The checks are synth verification's (`kg2tool.synth.checks.verify.CHECKS`):
    a final answer passes the row and answer checks as the last message after `prompt` and comes only where
    `expected` answers too; a tool-call continuation passes the call checks for each call and must make calls
    that execute to the same results with the same tools as `expected`. `ts` is the row's tool style's tool set;
    the refs style is judged on a fork whose handle table the prompt's calls have filled (`replayed`)."""
    ts = replayed(ts, prompt)
    nxt = NextView(ts, continuation, expected)
    reason = first_failure("next", nxt, skip=("same_calls",))
    if reason:
        return reason
    msg = continuation[0]
    calls = _calls(msg)
    if category == "irrelevance" or not calls:
        reason = first_failure("row", RowView(ts, [*prompt, msg], tools))
        if reason:
            return reason
        last = [json.loads(m["content"]) for m in _last_tool_turn(prompt)]
        return first_failure("answer", AnswerView(category, answers, len(prompt) + 1, last, str(msg["content"])))
    offered = {t["function"]["name"] for t in tools}
    question = "\n".join(m["content"] for m in prompt if m["role"] == "user")
    known = _known_leaves(ts, prompt)  # results, and the names an error offered (error-recovery prompts)
    for call in calls:
        fn = call.get("function", {})
        view = CallView(ts, offered, fn.get("name"), fn.get("arguments"), question, known)
        reason, _ = check_call(view)
        if reason:
            return reason
        nxt.results.append(result_key(ts, view.result))
        nxt.names.append(view.name)
    return first_failure("next", nxt)


def replayed(ts: ToolSet, prompt: list[dict]) -> ToolSet:
    """The tool set that judges a continuation of `prompt`: for a style that keeps results between calls (the
    refs style's handle table, kg2tool.synth.tools.refs) a fresh `fork()` on which the prompt's calls have been run again
    in order, so that its handles are the ones the prompt shows; otherwise `ts` itself. Raises ValueError naming
    the call when a replayed call does not give its tool message (the prompt does not belong to this tool set)."""
    if not hasattr(ts, "fork"):
        return ts
    twin = ts.fork()
    twin.begin()
    replies = {m.get("tool_call_id"): m.get("content") for m in prompt if m.get("role") == "tool"}
    for i, m in enumerate(prompt):
        for call in _calls(m):
            fn = call.get("function", {})
            try:
                got = result_json(twin.execute(fn.get("name"), fn.get("arguments")))
            except ToolError as exc:  # a failed call (error-recovery prompts) keeps nothing
                got = error_json(exc)
            if call.get("id") in replies and replies[call["id"]] != got:
                raise ValueError(
                    f"prompt message {i}: call {call.get('id')} ({fn.get('name')}) replays to {got}, "
                    f"not to its tool message {replies[call['id']]}"
                )
    return twin


def _known_leaves(ts: ToolSet, messages: list[dict]) -> set:
    """What a prompt's tool messages make known: the leaves of every result, and for a failed call (an
    error-recovery prompt) the names its error offers, re-derived by running the call again."""
    calls = {c["id"]: c["function"] for m in messages for c in (m.get("tool_calls") or [])}
    known: set = set()
    for m in messages:
        if m.get("role") != "tool":
            continue
        value = json.loads(m["content"])
        known.update(json_leaves(value))
        fn = calls.get(m.get("tool_call_id"))
        if isinstance(value, dict) and set(value) == {"error"} and fn is not None:
            try:
                ts.execute(fn["name"], fn["arguments"])
            except ToolError as exc:
                known.update(exc.suggestions)
    return known


def _last_tool_turn(prompt: list[dict]) -> list[dict]:
    out: list[dict] = []
    for m in reversed(prompt):
        if m["role"] != "tool":
            break
        out.append(m)
    return out[::-1]


class PairMaker:
    """Builds preference pairs from verified rows (see module docstring) of the tool style of `ts` (a ToolSet, or
    a RefToolSet or BatchToolSet of kg2tool.synth.tools.refs for the rows of that style)."""

    def __init__(self, ts: ToolSet):
        self.ts = ts
        self.kg = ts.kg
        self.entity_tools = {n: s for n, s in ts.specs.items() if s.kind != "operator"}
        self.arg_names = {n: frozenset(s.parameters["properties"]) for n, s in ts.specs.items()}
        self.required = {n: frozenset(s.parameters.get("required", ())) for n, s in ts.specs.items()}
        # rejection type -> (turn, prompt, row, rng) -> the rejected turn, or None when the mistake cannot be made
        self.mistakes = {
            "wrong_tool": self._wrong_tool, "wrong_argument": self._wrong_argument,
            "schema_violation": self._schema_violation, "premature_answer": self._premature_answer,
            "unneeded_call": self._unneeded_call, "wrong_call_count": self._wrong_call_count,
            "unsupported_answer": self._unsupported_answer, "wrong_operation": self._wrong_operation,
            "wrong_carried_name": self._wrong_carried_name,
        }  # fmt: skip
        self._names_in = None  # the in-memory graph's `longest_name_in`, indexed on first use (LongestName)

    def _longest_name_in(self, text: str) -> str | None:
        """`kg.longest_name_in(text)`; for the in-memory graph, which tests every name, from an index of them."""
        if type(self.kg).longest_name_in is not KnowledgeGraph.longest_name_in:
            return self.kg.longest_name_in(text)  # a graph with its own lookup (the on-disk store)
        if self._names_in is None:
            self._names_in = LongestName(self.kg.names).find
        return self._names_in(text)

    def pairs(self, row: dict, rng: random.Random, k: int = 1) -> list[dict]:
        """Up to k pairs for one row, each with a different rejection type where possible."""
        msgs, category = row["messages"], row["category"]
        # cut before a call turn whose calls succeed, or before the final answer (not before a failed call that
        # an error-recovery row makes on purpose, nor before an intermediate answer or clarifying question)
        cuts = [
            i
            for i, m in enumerate(msgs)
            if m["role"] == "assistant"
            and (i == len(msgs) - 1 or (_calls(m) and not msgs[i + 1]["content"].startswith('{"error"')))
        ]
        options: list[tuple[int, str]] = []
        for i in cuts:
            if category == "irrelevance":
                options.append((i, "unneeded_call"))
            elif _calls(msgs[i]):
                options += [(i, "wrong_tool"), (i, "wrong_argument"), (i, "schema_violation"), (i, "premature_answer")]
                if len(_calls(msgs[i])) > 1 and category in ("parallel", "parallel_multiple"):
                    options += [(i, "wrong_call_count")] * 2
                if any(m["role"] == "tool" for m in msgs[:i]):  # a later call turn: it carries earlier results
                    options += [(i, "wrong_operation"), (i, "wrong_carried_name")]
            else:
                options.append((i, "unsupported_answer"))
        rng.shuffle(options)
        out, used = [], set()
        for i, kind in options:
            if len(out) >= k:
                break
            if kind in used:
                continue
            rejected = self.mistakes[kind](msgs[i], msgs[:i], row, rng)
            if rejected is None:
                continue
            prompt, chosen = msgs[:i], [msgs[i]]
            fails = check_continuation(self.ts, prompt, [rejected], row["tools"], row["answers"], category, chosen)
            if fails not in REASONS_OF[kind]:  # harmless (None), or wrong for another reason than its type says
                continue
            used.add(kind)
            out.append(
                {
                    "id": f"{row['id']}-{kind}",
                    "prompt": prompt,
                    "chosen": chosen,
                    "rejected": [rejected],
                    "tools": row["tools"],
                    "rejection_type": kind,
                    "pattern": row["pattern"],
                    "category": category,
                }
            )
        return out

    # -- mistakes ----------------------------------------------------------------------------------------
    def _other_entity(self, avoid_text: str, rng: random.Random) -> str:
        for _ in range(50):
            name = self.kg.names[rng.randrange(len(self.kg))]
            if name not in avoid_text:
                return name
        return "Unknown Entity"

    def _wrong_tool(self, msg, prompt, row, rng):
        new = _copied(msg)
        call = rng.choice(new["tool_calls"])["function"]
        keys = frozenset(call["arguments"])
        offered = [t["function"]["name"] for t in row["tools"]]
        same_args = [n for n in offered if n != call["name"] and self._takes(n, keys)]
        pool = same_args or [n for n in self.entity_tools if n != call["name"] and self._takes(n, keys)]
        if not pool:
            return None
        call["name"] = rng.choice(sorted(pool))
        return new

    def _takes(self, name: str, keys: frozenset) -> bool:
        """True when tool `name` takes exactly the arguments `keys` (all its required ones, no unknown one)."""
        return self.required[name] <= keys <= self.arg_names[name]

    def _wrong_argument(self, msg, prompt, row, rng):
        new = _copied(msg)
        entity_calls = [c for c in new["tool_calls"] if c["function"]["name"] in self.entity_tools]
        if not entity_calls:
            return None
        args = rng.choice(entity_calls)["function"]["arguments"]
        key = next(iter(args))
        args[key] = self._other_entity(json.dumps(prompt, ensure_ascii=False), rng)
        return new

    def _schema_violation(self, msg, prompt, row, rng):
        new = _copied(msg)
        fn = rng.choice(new["tool_calls"])["function"]
        args = fn["arguments"]
        key = rng.choice(sorted(args))
        how = rng.choice(("wrong_type", "missing_required", "unknown_key"))
        if how == "wrong_type":
            args[key] = 42 if isinstance(args[key], (str, list)) else str(args[key])
        elif how == "missing_required":
            del args[key]
        else:
            args["limit"] = 10
        return new

    def _premature_answer(self, msg, prompt, row, rng):
        avoid = json.dumps(row["messages"], ensure_ascii=False)
        guesses = sorted({self._other_entity(avoid, rng) for _ in range(rng.randint(1, 2))})
        return {"role": "assistant", "content": f"The answer is {' and '.join(guesses)}."}

    def _unneeded_call(self, msg, prompt, row, rng):
        if not row["tools"]:
            return None
        tool = rng.choice([t["function"] for t in row["tools"]])
        props = tool["parameters"]["properties"]
        question = prompt[0]["content"]
        args = {}
        for key, spec in props.items():
            if "enum" in spec:
                args[key] = spec["enum"][0]
            else:
                args[key] = self._longest_name_in(question) or question
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": tool["name"], "arguments": args}}
            ],
        }

    def _wrong_call_count(self, msg, prompt, row, rng):
        new = _copied(msg)
        calls = new["tool_calls"]
        if rng.random() < 0.5:
            calls.pop(rng.randrange(len(calls)))
        else:
            dup = _copied(rng.choice(calls))
            dup["id"] = f"call_{len(calls) + 1}_dup"
            calls.append(dup)
        for i, c in enumerate(calls):  # keep ids unique and ordered
            c["id"] = f"call_{i + 1}"
        return new

    def _unsupported_answer(self, msg, prompt, row, rng):
        answers = row["answers"]
        if not answers:
            return None
        content = msg["content"]
        victim = rng.choice(answers)
        wrong = self._other_entity(json.dumps(row["messages"], ensure_ascii=False), rng)
        text = content.replace(victim, wrong)
        return None if text == content else {"role": "assistant", "content": text}

    def _wrong_operation(self, msg, prompt, row, rng):
        offered = {t["function"]["name"] for t in row["tools"]}
        new = _copied(msg)
        swaps = [(fn, name, args) for c in new["tool_calls"] for fn in [c["function"]]
                 for name, args in self._other_operations(fn["name"], fn["arguments"]) if name in offered]  # fmt: skip
        if not swaps:
            return None
        fn, name, args = rng.choice(swaps)
        fn["name"], fn["arguments"] = name, args
        return new

    def _other_operations(self, name: str, args: dict) -> list[tuple[str, dict]]:
        """(tool, arguments) of the operations a model may do instead of `name` on the same input."""
        if name in ("intersection", "union"):
            sets = args["sets"]
            out = [("union" if name == "intersection" else "intersection", {"sets": sets})]
            return out + ([("difference", {"include": sets[0], "exclude": sets[1]})] if len(sets) == 2 else [])
        if name == "difference":
            sets = [args["include"], args["exclude"]]
            return [("intersection", {"sets": sets}), ("union", {"sets": sets})]
        if name == "compare":
            return [("compare", {**args, "mode": "min" if args["mode"] == "max" else "max"})]
        spec = self.entity_tools.get(name)
        if spec is None or spec.kind not in ("forward", "inverse"):
            return []
        value = args[spec.arg]
        return [("count", {"items": value if isinstance(value, list) or REF_RE.match(value) else [value]})]

    def _wrong_carried_name(self, msg, prompt, row, rng):
        refs, found = _carried(prompt)
        question = "\n".join(m["content"] for m in prompt if m["role"] == "user")
        asked = [v for m in prompt for c in _calls(m) for v in json_leaves(c["function"]["arguments"])
                 if isinstance(v, str) and v in question]  # fmt: skip
        names = (refs, found, list(dict.fromkeys(found + asked + [self._longest_name_in(question) or ""])))
        new = _copied(msg)
        spots = []  # (container, key or index, other values it may take)
        for call in new["tool_calls"]:
            args, props = call["function"]["arguments"], self.ts.specs[call["function"]["name"]].parameters
            here = set(json_leaves(args))
            for key in sorted(args):
                if not _enum(props["properties"].get(key, {})):
                    spots += _spots(args, key, names, here)
        if not spots:
            return None
        box, where, others = rng.choice(spots)
        box[where] = rng.choice(others)
        return new


def _enum(prop: dict) -> bool:
    return "enum" in prop or any("enum" in p for p in prop.get("anyOf", ()))


def _carried(prompt: list[dict]) -> tuple[list[str], list[str]]:
    """The refs and the names the prompt's tool results give, in order."""
    refs: list[str] = []
    names: list[str] = []
    for m in prompt:
        if m["role"] != "tool":
            continue
        value = json.loads(m["content"])
        if is_ref(value):
            refs.append(value["ref"])
            value = value["items"]
        if isinstance(value, dict) and "error" not in value:  # per_entity results: names and their lists
            value = [*value, *value.values()]
        names += [v for v in json_leaves(value) if isinstance(v, str)] if isinstance(value, (list, str)) else []
    return refs, names


def _spots(box, where, names: tuple[list, list, list], here: set) -> list[tuple]:
    """The places under box[where] that hold a ref or a name copied from a tool result, each with the others it
    could be swapped for. `names`: (the results' refs, the results' names, those names and the question's)."""
    value = box[where]
    if isinstance(value, list):
        return [s for k in range(len(value)) for s in _spots(value, k, names, here)]
    refs, found, pool = names
    if not isinstance(value, str) or (value not in refs and value not in found):
        return []
    others = [v for v in (refs if value in refs else pool) if v and v not in here]
    return [(box, where, others)] if others else []
