"""Conversations beyond one question and a clean chain of calls, still verified by execution.

    followup        multi-turn: a 1p question with one answer, answered; then a follow-up user turn about that
                    answer without naming it ("And what is its genre?"); the calls take the name from the
                    earlier tool result.
    missing_info    the user leaves out part of what the call needs; the assistant asks instead of guessing; the
                    user supplies it; the call follows (BFCL's miss-param idea). The user gives a name in part,
                    as people do when they remember only part of it: a family name several people of the graph
                    share ("Where was Mann born?"), or the words several things' names of one kind begin with
                    ("the physical constant whose name starts with "Planck""); the assistant asks for the full
                    name. A graph with neither has no missing_info rows.
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
import re

from ..graph.predicates import PREPOSITIONS
from .language.lexicon import FALLBACK_KIND, PERSON_KINDS
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
        self._partials: dict[int, str] | None = None  # see _partial_names
        self.builders = {"followup": self._followup, "missing_info": self._missing_info,
                         "error_recovery": self._error_recovery}  # fmt: skip

    def plan(self, shape: str, rng: random.Random) -> Node | None:
        """A plan for `shape` (the question the conversation ends up answering), or None when none was found."""
        if shape == "followup":
            first = self.walker.one_hop(rng, hi=1)
            return first and self.walker.extend(rng, first, execute(self.kg, first))
        if shape == "missing_info":  # forward lookups only: "the genre?" reads better than "whose genre is?"
            people, things = self._shared_surnames(), self._partial_names()
            if not people and not things:
                return None
            if things and (not people or rng.random() < len(things) / (len(things) + len(people))):
                return self._forward_lookup(list(things), rng)
            return self._shared_surname_plan(rng)
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

    def can_leave_out(self) -> bool:
        """Whether the graph has names a user can give in part: a family name several people share, or the start
        several things' names share (missing_info is made of nothing else)."""
        return bool(self._shared_surnames() or self._partial_names())

    def _shared_surname_plan(self, rng: random.Random) -> Project | None:
        """A forward lookup about a person whose family name other people of the graph share, or None."""
        return self._forward_lookup(self._shared_surnames(), rng)

    def _forward_lookup(self, ids: list[int], rng: random.Random) -> Project | None:
        """A forward lookup about one of `ids` (sorted entity ids) that has one to max_answers answers, or None."""
        for _ in range(10 if ids else 0):
            eid = rng.choice(ids)
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

    def _partial_names(self) -> dict[int, str]:
        """Things (of a known kind, not people) whose names two to six things of their kind begin alike, each with
        that beginning: the longest run of words the names share from the start ("Planck" of "Planck constant" and
        "Planck length") as `shared_start` finds it (a capitalised word of four or more letters in it, not "The", not
        a year), and no entity's name. Said alone it leaves the thing open, as a
        family name does a person. Found once per graph (one pass over the names, kinds only where names share a
        first word)."""
        if self._partials is None:
            firsts: dict[str, list[int]] = {}
            for eid in range(len(self.kg.entities)):
                words = self.kg.name(eid).split()
                if 2 <= len(words) <= 8:
                    firsts.setdefault(words[0].casefold(), []).append(eid)
            kind_of = self.renderer.speaker(self.kg).lex.kind_of
            found: dict[int, str] = {}
            for ids in firsts.values():
                by_kind: dict[str, list[int]] = {}
                for e in ids if len(ids) > 1 else ():
                    if (kind := kind_of(e)) not in PERSON_KINDS and kind != FALLBACK_KIND:
                        by_kind.setdefault(kind, []).append(e)
                for same in by_kind.values():
                    names = [self.kg.name(e) for e in same]
                    if 2 <= len(same) <= 6 and (start := shared_start(names)) and self.kg.resolve(start) is None:
                        found.update((e, start) for e in same)
            self._partials = dict(sorted(found.items()))
        return self._partials

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
        start = self._partial_names().get(eid)
        if start is None:
            return None, None
        # "What is the quantity kind of the physical constant whose name starts with "Planck"?" - "Which one do you
        # mean? I need the full name to look it up." - "Planck length." Blind readers accepted 22 of 104 ratings of
        # first turns that gave no name at all ("Can you look up a unit's factor units? I'll give you the name.";
        # none of 34 in the last three readings), and most of a family name said alone.
        e1 = ctx["e1"]
        for _ in range(4):
            q, _a = self.renderer.render("simple", ctx, rng)
            at = q.rfind(e1)
            if at >= 0 and not q[at + len(e1) :].startswith("'") and len(q.split()) > 3:
                break
        else:
            return None, None  # said only with a possessive ("Planck length's ...") or too terse to cut
        partial = swap_name(q, e1, f'the {ctx["entity_kind"]} whose name starts with "{start}"')
        ctx |= {"short": start, "q_partial": partial, "q_cut": swap_name(q, e1, f"{start}...")}
        if re.search(rf"\b{re.escape(ctx['entity_kind'])}\b", q.replace(e1, "")):
            return None, None  # the kind said twice: "which ingredient category does the ingredient category whose ..."
        asked, a = self.renderer.render("missing_info", ctx, rng)
        if q[at + len(e1) :] not in ("?", "."):  # cut short only at the end: not "Which city is Royal... in?"
            asked = partial
        clarify = self.renderer.render_extra("missing_info", "clarify", ctx, rng)
        supply = self.renderer.render_extra("missing_info", "supply", ctx, rng)
        msgs = messages_for(supply, trace, a)
        return [{"role": "user", "content": asked}, {"role": "assistant", "content": clarify}] + msgs, trace.calls

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


# words a remembered beginning does not end on: English prepositions and articles, and those of names in other
# languages ("Instituto de", "Institut für")
_FUNCTION_WORDS = PREPOSITIONS | frozenset("a an and or per the de del der des di du für la le les und van von".split())


def shared_start(names: list[str]) -> str | None:
    """The words `names` begin with alike, as a user who remembers only them says them ("Planck" of "Planck
    constant" and "Planck length"), or None: none shared, no capitalised word of four or more letters, or as long as
    a name. It ends before a number, and a trailing mark or function word goes ("Robert Motherwell:" -> "Robert
    Motherwell", "University of" -> "University", "Energy per" -> "Energy")."""
    split = [n.split() for n in names]
    common = []
    for words in zip(*split):
        if any(w != words[0] for w in words) or any(c.isdigit() for c in words[0]):
            break  # a number is no part people remember alone ("Sackur-Tetrode constant 1 K...")
        common.append(words[0])
    while common:
        common[-1] = common[-1].rstrip(":;,-–—/(")
        if common[-1] and common[-1].casefold() not in _FUNCTION_WORDS:
            break
        common.pop()
    if not common or len(common) >= min(len(w) for w in split):
        return None
    if not any(len(w) >= 4 and w.replace("-", "").isalpha() and w[0].isupper() for w in common):
        return None  # what people remember of a name is a proper noun: "Planck", not "national" or "standard"
    return " ".join(common)


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
