"""Conversations beyond one question and a clean chain of calls, still verified by execution.

    followup        multi-turn: a 1p question with one answer, answered; then a follow-up user turn about that
                    answer without naming it ("And what is its genre?"); the calls take the name from the
                    earlier tool result.
    missing_info    the user leaves out part of what the call needs; the assistant asks instead of guessing; the
                    user supplies it; the call follows (BFCL's miss-param idea). Where the graph has several people
                    of one family name, the user names a person by it alone ("Where was Mann born?") and the
                    assistant asks for the full name; elsewhere the user leaves the entity out, saying its name
                    will follow.
    error_recovery  the first call fails for real and the assistant recovers. Mostly the mistake comes from the
                    situation: the user misspells the entity's name, the assistant passes the name on as written,
                    the executor's error offers the closest names, and the assistant retries with the one that
                    fits (grounded in that error message). Sometimes the assistant's own first call is wrong (a
                    wrong argument key or type): that turn carries `"weight": 0` (OpenAI's fine-tuning
                    convention), so training masks it from the loss (kg2tool.llm.chat_format's template) and only
                    the correction is learnt. Only the corrected trajectory's answer is judged.

Each builder returns (messages, the calls of the trajectory that is judged), or (None, None) when the shape cannot
be made from this plan; verification (`verify_row`) then checks the whole conversation like any other, with failed
calls allowed only in error_recovery rows.
"""

from __future__ import annotations

import copy
import random

from .language.lexicon import PERSON_KINDS, article
from .language.render import Renderer, swap_name
from .plans.tree import Anchor, Node, Project, execute
from .tools.toolset import ToolError, error_json
from .traces import Call, Compiler, Trace, messages_for
from .walk.walker import Walker


class DialogueBuilder:
    """Builds the conversations of the dialogue shapes (`kg2tool.synth.walk.walker.DIALOGUE_SHAPES`) from the walker's
    plans, the templates and the trace compiler (all over the same graph and tools)."""

    def __init__(self, walker: Walker, renderer: Renderer, compiler: Compiler):
        self.walker = walker
        self.renderer = renderer
        self.compiler = compiler
        self.ts = walker.ts
        self.kg = walker.kg
        self._surnames: list[int] | None = None  # see _shared_surnames
        self._surname_set: frozenset[int] = frozenset()
        self.builders = {"followup": self._followup, "missing_info": self._missing_info,
                         "error_recovery": self._error_recovery}  # fmt: skip

    def plan(self, shape: str, rng: random.Random) -> Node | None:
        """A plan for `shape` (the question the conversation ends up answering), or None when none was found."""
        if shape == "followup":
            first = self.walker.one_hop(rng, hi=1)
            return first and self.walker.extend(rng, first, execute(self.kg, first))
        if shape == "missing_info":  # forward lookups only: "the genre?" reads better than "whose genre is?"
            if (plan := self._shared_surname_plan(rng)) is not None:
                return plan
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

    def _shared_surname_plan(self, rng: random.Random) -> Project | None:
        """A forward lookup about a person whose family name other people of the graph share, or None."""
        people = self._shared_surnames()
        for _ in range(10 if people else 0):
            eid = rng.choice(people)
            rels = [r for r in self.walker.rels if 1 <= len(self.walker.adj(r, False).get(eid, ())) <= self.walker.cfg.max_answers]  # noqa: E501
            if rels:
                return Project(rng.choice(rels), Anchor(eid), False)
        return None

    def _shared_surnames(self) -> list[int]:
        """People (by kind) whose family name (a name's last word) two to six people of the graph have, that no name
        has before its last word (a given name: "James"; a word: "Best") and that is no entity's name: "Mann" for
        Thomas and Heinrich Mann. Found once per graph (one pass over the names)."""
        if self._surnames is None:
            groups: dict[str, list[int]] = {}
            # a word some name has before its end is no family name alone: "James" (William James, James Watt),
            # "Best" (Ahmed Best, Academy Award for Best Actor), "West" (Kanye West, West Village)
            inner = set()
            for eid in range(len(self.kg.entities)):
                name = self.kg.name(eid)
                inner.update(name.split()[:-1])
                if (last := family_name(name)) is not None:
                    groups.setdefault(last, []).append(eid)
            kind_of = self.renderer.speaker(self.kg).lex.kind_of
            people = {last: [e for e in ids if kind_of(e) in PERSON_KINDS] for last, ids in groups.items() if len(ids) > 1}
            self._surnames = sorted(
                e for last, ids in people.items() if 2 <= len(ids) <= 6 and last not in inner and self.kg.resolve(last) is None
                for e in ids
            )  # fmt: skip
            self._surname_set = frozenset(self._surnames)
        return self._surnames

    def _missing_info(self, plan: Project, gold, rng):
        trace = self.compiler.compile(plan)
        ctx = self.renderer.context(self.kg, "simple", plan, gold)
        eid = plan.child.eid
        last = family_name(ctx["e1"])
        if last is not None and self._shared_surnames() and eid in self._surname_set:
            # "Where was Mann born?" - "Which Mann do you mean? Could you give me the full name?" - "Thomas Mann."
            for _ in range(4):  # a whole question: "Scott's genre?" was too terse to say with a family name alone
                q, a = self.renderer.render("simple", ctx, rng)
                if len(q.split()) > 3:
                    break
            if ctx["e1"] not in q or len(q.split()) <= 3:
                return None, None
            ctx |= {"short": last}
            clarify = self.renderer.render_extra("missing_info", "clarify_name", ctx, rng)
            supply = self.renderer.render_extra("missing_info", "supply", ctx, rng)
            asked = swap_name(q, ctx["e1"], last)
            if self.renderer.extras.get("missing_info", {}).get("surname_only"):  # "I forget the first name."
                asked += " " + self.renderer.render_extra("missing_info", "surname_only", ctx, rng)
            first = {"role": "user", "content": asked}
            return [first, {"role": "assistant", "content": clarify}] + messages_for(supply, trace, a), trace.calls
        ctx["kind"] = self.kg.types[eid][0] if self.kg.types[eid] else "entity"
        # the entity left out as a person would leave it out, saying the name will follow ("Can you look up the
        # prize won by a laureate? I'll tell you which laureate."): blind readers rejected all 13 first turns
        # that named no one and said nothing more ("my neighbor's sibling", "the film I'm reading about")
        e1 = ctx["e1"]
        said = untold(ctx["entity_kind"])
        # "Charles Nicolle' affiliation" -> "a laureate's affiliation", not "a laureate' ..."
        own = lambda t: t.replace(f"{e1}' ", f"{e1}'s ") if e1.endswith("s") else t  # noqa: E731
        ctx["q_some"] = swap_name(own(ctx["q"]), e1, said)
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
        # two in three rows: the user's typo; else the assistant's own slip, kept out of the loss (weight 0)
        user_typo = rng.random() < 2 / 3
        if user_typo:
            got = self._user_typo(q, first, rng)
            if got is None:
                return None, None
            q, bad_args = got
        else:
            bad_args = self._slip(first.arguments, rng)
        try:
            self.ts.execute(first.name, bad_args)
        except ToolError as exc:
            failed = Call(first.name, bad_args, None, 0)
            content = error_json(exc)
            if user_typo and first.arguments[next(iter(first.arguments))] not in exc.suggestions:
                return None, None  # the error does not offer the right name: the retry would be a guess
        else:
            return None, None  # the mistake happened to work: not an error-recovery example
        shifted = Trace(calls=[Call(c.name, c.arguments, c.result, c.turn + 1) for c in trace.calls])
        msgs = messages_for(q, Trace(calls=[failed] + shifted.calls), a)
        msgs[2]["content"] = content  # the failed call's tool message: the real error
        if not user_typo:
            msgs[1]["weight"] = 0  # wrong on purpose: shown to the model, never trained
        return msgs, trace.calls

    @staticmethod
    def _user_typo(question: str, first: Call, rng: random.Random) -> tuple[str, dict] | None:
        """(the question with the first call's entity name misspelled, the call's arguments as the user wrote the
        name), or None when the name has no word to misspell or is not written exactly once in the question.

        The slip is one a person makes typing a word: two neighbouring letters swapped, a letter dropped or a
        letter doubled, inside a word of at least five letters and never its first letter; digits and
        punctuation stay as written ("Physiology or Medicine 1908", not "... 108s")."""
        key = next(iter(first.arguments))
        name = first.arguments[key]
        if not isinstance(name, str) or question.count(name) != 1:
            return None
        words = [(i, w) for i, w in enumerate(name.split(" ")) if len(w) >= 5 and w.isalpha()]
        if not words:
            return None
        i, word = rng.choice(words)
        k = rng.randrange(1, len(word) - 1)
        kind = rng.randrange(3)
        if kind == 0 and word[k] != word[k + 1]:
            typo_word = word[:k] + word[k + 1] + word[k] + word[k + 2 :]  # swapped
        elif kind == 1:
            typo_word = word[:k] + word[k + 1 :]  # dropped
        else:
            typo_word = word[: k + 1] + word[k] + word[k + 1 :]  # doubled
        parts = name.split(" ")
        parts[i] = typo_word
        typo = " ".join(parts)
        return question.replace(name, typo), {**first.arguments, key: typo}

    @staticmethod
    def _slip(args: dict, rng: random.Random) -> dict:
        """The assistant's own mistake on the first call's arguments: a wrong key or a wrong type."""
        bad = copy.deepcopy(args)
        key = next(iter(bad))
        if rng.random() < 0.5:
            return {"name" if key != "name" else "id": bad[key]}
        bad[key] = [bad[key]]
        return bad


_SUFFIXES = frozenset("Jr Jr. Sr Sr. II III IV".split())


def family_name(name: str) -> str | None:
    """The last word of a name of two or three capitalized words ("Mann" of "Thomas Mann"); None for other names
    (one word, a suffix, a comma, a parenthesis, a digit)."""
    words = name.split()
    if not 2 <= len(words) <= 3 or any(c in name for c in "(),/") or words[-1] in _SUFFIXES:
        return None
    if not all(w[:1].isupper() for w in words) or not words[-1].replace("-", "").isalpha() or len(words[-1]) < 3:
        return None
    return words[-1]


def untold(kind: str) -> str:
    """How a user refers to an entity of `kind` before naming it: "someone" for people, else "a film",
    "an organization" (inflect's article)."""
    if kind in ("person", "people", "human"):
        return "someone"
    return article(kind)


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
