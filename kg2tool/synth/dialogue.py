"""Conversations beyond one question and a clean chain of calls, still verified by execution.

    followup        multi-turn: a 1p question with one answer, answered; then a follow-up user turn about that
                    answer without naming it ("And what is its genre?"); the calls take the name from the
                    earlier tool result.
    missing_info    the user leaves out the entity; the assistant asks which one instead of guessing; the user
                    supplies it; the call follows (BFCL's miss-param idea).
    error_recovery  the first call has a real mistake (a misspelled entity name, a wrong argument key, or a
                    wrong type); its tool message is the executor's or validator's real error; the assistant
                    corrects the call and goes on. Only the corrected trajectory's answer is judged.

Each builder returns (messages, the calls of the trajectory that is judged), or (None, None) when the shape cannot
be made from this plan; verification (`verify_row`) then checks the whole conversation like any other, with failed
calls allowed only in error_recovery rows.
"""

from __future__ import annotations

import copy
import random

from .plans import Anchor, Node, Project, execute
from .render import Renderer
from .tools import ToolError, error_json
from .traces import Call, Compiler, Trace, messages_for
from .walk import Walker


class DialogueBuilder:
    """Builds the conversations of the dialogue shapes (`kg2tool.synth.walk.DIALOGUE_SHAPES`) from the walker's
    plans, the templates and the trace compiler (all over the same graph and tools)."""

    def __init__(self, walker: Walker, renderer: Renderer, compiler: Compiler):
        self.walker = walker
        self.renderer = renderer
        self.compiler = compiler
        self.ts = walker.ts
        self.kg = walker.kg
        self.builders = {"followup": self._followup, "missing_info": self._missing_info,
                         "error_recovery": self._error_recovery}  # fmt: skip

    def plan(self, shape: str, rng: random.Random) -> Node | None:
        """A plan for `shape` (the question the conversation ends up answering), or None when none was found."""
        if shape == "followup":
            first = self.walker.one_hop(rng, hi=1)
            return first and self.walker.extend(rng, first, execute(self.kg, first))
        if shape == "missing_info":  # forward lookups only: "the genre?" reads better than "whose genre is?"
            for _ in range(10):
                plan = self.walker.one_hop(rng)
                if plan is not None and not plan.inverse:
                    return plan
            return None
        return self.walker.sample(rng.choice(("simple", "2p")), rng)

    def build(self, shape: str, plan: Node, gold: list[str], rng: random.Random):
        """(messages, calls of the judged trajectory), (None, None) when the shape cannot be made, or ToolError."""
        return self.builders[shape](plan, gold, rng)

    # -- shapes ------------------------------------------------------------------------------------------
    def _followup(self, plan: Project, gold, rng):
        first_plan = plan.child
        first_trace = self.compiler.compile(first_plan)
        first_answers = [str(x) for x in first_trace.value]
        ctx1 = self.renderer.context(self.kg, "simple", first_plan, first_answers)
        q1, a1 = self.renderer.render("simple", ctx1, rng)
        # the follow-up is a 1p plan on the first answer, which the user does not name again
        follow_plan = Project(plan.rel, Anchor(self.kg.resolve(first_answers[0])), plan.inverse)
        follow_trace = self.compiler.compile(follow_plan)
        ctx2 = self.renderer.context(self.kg, "simple", follow_plan, gold)
        ctx2["first"] = first_answers[0]
        q2, a2 = self.renderer.render("followup", ctx2, rng)
        turn1 = messages_for(q1, first_trace, a1)
        turn2 = messages_for(q2, follow_trace, a2)
        _renumber(turn2, start=1 + sum(len(m.get("tool_calls", [])) for m in turn1))
        return turn1 + turn2, first_trace.calls + follow_trace.calls

    def _missing_info(self, plan: Project, gold, rng):
        trace = self.compiler.compile(plan)
        ctx = self.renderer.context(self.kg, "simple", plan, gold)
        eid = plan.child.eid
        ctx["kind"] = self.kg.types[eid][0] if self.kg.types[eid] else "entity"
        q, a = self.renderer.render("missing_info", ctx, rng)
        clarify = self.renderer.render_extra("missing_info", "clarify", ctx, rng)
        supply = self.renderer.render_extra("missing_info", "supply", ctx, rng)
        msgs = messages_for(supply, trace, a)
        return [{"role": "user", "content": q}, {"role": "assistant", "content": clarify}] + msgs, trace.calls

    def _error_recovery(self, plan: Node, gold, rng):
        trace = self.compiler.compile(plan)
        shape = "simple" if isinstance(plan, Project) and isinstance(plan.child, Anchor) else "2p"
        ctx = self.renderer.context(self.kg, shape, plan, gold)
        q, a = self.renderer.render(shape, ctx, rng)
        first = trace.calls[0]
        bad_args = self._mistake(first.arguments, rng)
        try:
            self.ts.execute(first.name, bad_args)
        except ToolError as exc:
            failed = Call(first.name, bad_args, None, 0)
            content = error_json(exc)
        else:
            return None, None  # the mistake happened to work: not an error-recovery example
        shifted = Trace(calls=[Call(c.name, c.arguments, c.result, c.turn + 1) for c in trace.calls])
        msgs = messages_for(q, Trace(calls=[failed] + shifted.calls), a)
        msgs[2]["content"] = content  # the failed call's tool message: the real error
        return msgs, trace.calls

    def _mistake(self, args: dict, rng: random.Random) -> dict:
        bad = copy.deepcopy(args)
        key = next(iter(bad))
        kind = rng.choice(("misspelled", "wrong_key", "wrong_type"))
        if kind == "misspelled" and isinstance(bad[key], str) and len(bad[key]) > 3:
            name = bad[key]
            k = rng.randrange(1, len(name) - 1)
            bad[key] = name[:k] + name[k + 1 :] + rng.choice("aeiourstn")  # drop a letter, add one at the end
        elif kind == "wrong_key":
            bad = {"name" if key != "name" else "id": bad[key]}
        else:
            bad[key] = [bad[key]]
        return bad


def _renumber(msgs: list[dict], start: int) -> None:
    """Give the calls of a later turn ids that continue the conversation's numbering."""
    mapping = {}
    n = start
    for m in msgs:
        for c in m.get("tool_calls", []):
            mapping[c["id"]] = f"call_{n}"
            c["id"] = mapping[c["id"]]
            n += 1
    for m in msgs:
        if m.get("role") == "tool":
            m["tool_call_id"] = mapping[m["tool_call_id"]]
