"""Compile a query plan into tool calls, execute them with the shared executor, and lay out the conversation.

Each operation node becomes one call whose arguments are its children's *executed results* (names flow from the
question and from earlier tool messages, never from the plan's ids). A projection of a set of k > 1 entities
becomes k parallel calls plus a `union` call (in the refs style one call with the set's handle, in the batch style
one call with the list; see kg2tool.synth.tools.refs). Calls are grouped into turns by depth: every call whose inputs are
ready goes into the same assistant turn (several `tool_calls`), followed by one `tool` message per call.

Message shapes (the format transformers' chat templates and TRL take):
    {"role": "user", "content": question}
    {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
                                                          "function": {"name": ..., "arguments": {...}}}]}
    {"role": "tool", "tool_call_id": "call_1", "name": ..., "content": "<result as JSON>"}
    {"role": "assistant", "content": final answer}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..graph.model import KnowledgeGraph
from .plans.tree import Anchor, Attr, Compare, Count, Node, Parallel, Project, SetOp, topic
from .tools.refs import renumber
from .tools.toolset import ToolSet, result_json


@dataclass
class Call:
    """One tool call of a trace: tool, arguments, its result and the turn it is made in."""

    name: str
    arguments: dict
    result: object
    turn: int


@dataclass
class Trace:
    """The calls that answer a plan, in order, and the value they end with."""

    calls: list[Call] = field(default_factory=list)
    value: object = None  # the root's executed value (list of names, int, str, or list per parallel item)


class Compiler:
    """Turns a plan into the tool calls that answer it (`compile(plan) -> Trace`), executing each."""

    def __init__(self, toolset: ToolSet):
        self.ts = toolset
        self.kg: KnowledgeGraph = toolset.kg
        # kg2tool.synth.tools.refs: sets passed on as handles, or a set's lookups as one call over the list
        self.refs, self.batch = toolset.style.passes_handles, toolset.style.batches_lookups

    def compile(self, plan: Node) -> Trace:
        """Execute the plan as tool calls. Raises ToolError if a call fails (the candidate is then dropped)."""
        trace = Trace()
        if self.refs:
            self.ts.begin()
        if isinstance(plan, Parallel):
            trace.value = [self._eval(c, trace)[0] for c in plan.children]
        else:
            trace.value = self._eval(plan, trace)[0]
        if self.refs:
            renumber(trace.calls)
        return trace

    def _set(self, node: Node, value):
        """How a child's value is passed on: a named entity as a one-name list, a ref by its handle."""
        if isinstance(node, Anchor):
            return [value]
        return value["ref"] if self.refs else value

    def _call(self, trace: Trace, name: str, args: dict, turn: int):
        result = self.ts.execute(name, args, validate=False)  # verification validates every call afterwards
        trace.calls.append(Call(name, args, result, turn))
        return result

    def _eval(self, node: Node, trace: Trace) -> tuple[object, int]:
        """(value, turn at which it is known); turn 0 means 'in the question'."""
        if isinstance(node, Anchor):
            return self.kg.name(node.eid), 0
        if isinstance(node, Project):
            value, t = self._eval(node.child, trace)
            table = self.ts.inverse_tool if node.inverse else self.ts.forward_tool
            key = "value" if node.inverse else "entity"
            names = [value] if isinstance(node.child, Anchor) else value
            if self.refs or (self.batch and len(names) > 1):  # one call: a name, a ref (fanned out by the tool), a list
                arg = value if isinstance(node.child, Anchor) else (value["ref"] if self.refs else list(value))
                return self._call(trace, table[node.rel], {key: arg}, t + 1), t + 1
            results = [self._call(trace, table[node.rel], {key: n}, t + 1) for n in names]
            if len(results) == 1:
                return results[0], t + 1
            return self._call(trace, "union", {"sets": results}, t + 2), t + 2
        if isinstance(node, SetOp):
            vals = [self._eval(c, trace) for c in node.children]
            t = max(tt for _, tt in vals) + 1
            sets = [self._set(c, v) for c, (v, _) in zip(node.children, vals)]
            args = {"include": sets[0], "exclude": sets[1]} if node.op == "difference" else {"sets": sets}
            return self._call(trace, node.op, args, t), t
        if isinstance(node, Count):
            value, t = self._eval(node.child, trace)
            return self._call(trace, "count", {"items": self._set(node.child, value)}, t + 1), t + 1
        if isinstance(node, Attr):
            tool = self.ts.attribute_tool[node.attr]
            return self._call(trace, tool, {"entity": self.kg.name(node.child.eid)}, 1), 1
        if isinstance(node, Compare):
            vals = [self._eval(it, trace) for it in node.items]
            items = [{"name": self.kg.name(topic(it)), "value": v} for it, (v, _) in zip(node.items, vals)]
            t = max(tt for _, tt in vals) + 1
            return self._call(trace, "compare", {"items": items, "mode": node.mode}, t), t
        raise TypeError(f"cannot compile {type(node).__name__}")


def tools_used(trace: Trace) -> list[str]:
    """The tools a trace calls, in first-use order."""
    seen: list[str] = []
    for c in trace.calls:
        if c.name not in seen:
            seen.append(c.name)
    return seen


def messages_for(question: str, trace: Trace, final_answer: str) -> list[dict]:
    """Lay the executed calls out as chat messages, one assistant turn per depth."""
    msgs: list[dict] = [{"role": "user", "content": question}]
    n = 0
    by_turn: dict[int, list[Call]] = {}
    for c in trace.calls:
        by_turn.setdefault(c.turn, []).append(c)
    for turn in sorted(by_turn):
        batch = by_turn[turn]
        ids = [f"call_{n + i + 1}" for i in range(len(batch))]
        n += len(batch)
        msgs.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for cid, c in zip(ids, batch)
                ],
            }
        )
        for cid, c in zip(ids, batch):
            msgs.append({"role": "tool", "tool_call_id": cid, "name": c.name, "content": result_json(c.result)})
    msgs.append({"role": "assistant", "content": final_answer})
    return msgs
