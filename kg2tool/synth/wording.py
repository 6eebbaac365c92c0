"""Plans said in English with the relation lexicon (kg2tool.synth.lexicon): noun phrases, relative clauses,
questions and answer sentences, with agreement by number.

    np(Project(place of birth, Anchor(X)), 1)          the place of birth of X
    np(Project(directed by, Anchor(Y), inverse), 2)    the films directed by Y
    np(intersection of two inverse projections, 2)     the people educated at A and whose place of birth is B

A plan's number is the size of its value (`execute`): one answer is said in the singular, several in the plural.
"""

from __future__ import annotations

from collections import Counter

from ..graph.model import KnowledgeGraph
from .grammar import and_join, base, be, cap, do, needs_the, unprep
from .lexicon import FALLBACK_KIND, PERSON_KINDS, UNKNOWN_NOUN, Lexicon, Wording, needs_be, plural
from .plans import Anchor, Count, Node, Project, SetOp, execute
from .wording_co import co_bare

KIND_SAMPLE = 50  # answers looked at to name their kind


def _grouped(kids) -> list:
    """Branches of an intersection with one relation from several anchors merged into one intersection of their
    own ("whose genres include A and B and whose cause of death is C", not "whose genre is A, whose genre is B
    and ..."); the other branches as they are, in order."""
    key = lambda k: (k.rel, k.inverse) if isinstance(k, Project) and isinstance(k.child, Anchor) else None  # noqa: E731
    groups: dict = {}
    for k in kids:
        if key(k) is not None:
            groups.setdefault(key(k), []).append(k)
    out, done = [], set()
    for k in kids:
        g = key(k)
        if g is None or len(groups[g]) == 1:
            out.append(k)
        elif g not in done:
            done.add(g)
            out.append(SetOp("intersection", tuple(groups[g])))
    return out


class Speaker:
    """Says plan nodes of one graph with its lexicon (see the module docstring)."""

    def __init__(self, kg: KnowledgeGraph, lexicon: Lexicon):
        self.kg = kg
        self.lex = lexicon
        self._values: dict = {}

    def name(self, eid: int) -> str:
        """An entity's name as said inside a sentence: `the United Kingdom`, `the Netherlands` for names that take
        the article (`needs_the`); the name itself otherwise."""
        name = self.kg.name(eid)
        return f"the {name}" if needs_the(name) else name

    def w(self, node: Project) -> Wording:
        """The wording of a projection's relation."""
        return self.lex.relations[node.rel]

    def value(self, node: Node):
        """The node's value (`execute`), remembered for the plans of the last few conversations."""
        got = self._values.get(node)
        if got is None:
            if len(self._values) > 4096:
                self._values.clear()
            got = self._values[node] = execute(self.kg, node)
        return got

    def size(self, node: Node) -> int:
        """How many entities a node gives."""
        v = self.value(node)
        return len(v) if isinstance(v, frozenset) else 1

    def kind(self, node: Node) -> str:
        """The kind of the entities a node gives, singular: the kind they all share; else the relation's kind when
        most of them have it; else `item`."""
        if isinstance(node, Anchor):
            return self.lex.kind_of(node.eid)
        if isinstance(node, Project):
            w = self.w(node)
            said = w.subject if node.inverse else w.object
            if not node.inverse and w.where and said == FALLBACK_KIND:
                said = "place"
        elif isinstance(node, SetOp):
            said = self.kind(node.children[0])
        else:
            return FALLBACK_KIND
        ids = self.value(node)
        if not isinstance(ids, frozenset) or not ids:
            return said
        counts = Counter(self.lex.kind_of(e) for e in sorted(ids)[:KIND_SAMPLE])
        if len(counts) == 1:
            only = next(iter(counts))
            return said if only == FALLBACK_KIND and said == "place" else only
        if isinstance(node, Project) and not node.inverse and self.w(node).where:
            return "place"  # cities and countries where X was born: places
        return said if counts[said] * 2 > sum(counts.values()) else FALLBACK_KIND

    def person(self, node: Node) -> bool:
        """True when the node's entities are people (asked with `who`)."""
        return self.kind(node) in PERSON_KINDS

    def kinds(self, node: Node, n: int = 2) -> str:
        """The kind in number n: `person` / `people`; `thing(s)` for entities of no known kind."""
        k = self.kind(node)
        if k == FALLBACK_KIND:
            k = UNKNOWN_NOUN
        return k if n == 1 else plural(k)

    # -- relative clauses: what the entities of a node are ---------------------------------------------------------
    def clause(self, node: Node, n: int = 2, person: bool | None = None) -> str:
        """A relative clause for the entities of a node (`whose place of birth is X`, `directed by Y`); `person`:
        whether they are people (who/that), by default from the node's kind."""
        person = self.person(node) if person is None else person
        if isinstance(node, Project):
            if isinstance(node.child, Anchor):
                return self._clause(self.w(node), node.inverse, self.name(node.child.eid), n, person)
            sub_n = self.size(node.child)
            return self._clause(self.w(node), node.inverse, self.np(node.child, sub_n), n, person, sub_n)
        if isinstance(node, SetOp) and node.op == "intersection" and self._same_relation(node.children):
            w, first = self.w(node.children[0]), node.children[0]
            names = and_join([self.name(k.child.eid) for k in node.children])
            if first.inverse and w.form == "noun":  # whose occupations include poet and lawyer
                return f"whose {w.plural} include {names}"
            return self._clause(w, first.inverse, names, n, person, 1 if first.inverse else len(node.children))
        if isinstance(node, SetOp) and node.op in ("intersection", "union"):
            return and_join(self._clauses(node, n, person), "and" if node.op == "intersection" else "or")
        return f"{'who' if person else 'that'} {'is' if n == 1 else 'are'} {self.np(node, n)}"

    def _clauses(self, node: SetOp, n: int, person: bool) -> list[str]:
        """The relative clauses of an intersection's or union's branches, each a full clause after the first."""
        kids = _grouped(node.children) if node.op == "intersection" else list(node.children)
        clauses = [self.clause(k, n, person) for k in kids]
        rel = "who" if person else "that"
        # a reduced participle after a full clause reads as a new subject: "who influenced X and who was
        # influenced by Y", not "who influenced X and influenced by Y"
        firsts = [k.children[0] if isinstance(k, SetOp) else k for k in kids]
        tenses = [self.w(k).tense if isinstance(k, Project) else "present" for k in firsts]
        full = ("who ", "that ", "whose ", "where ")
        keep_first = all(not c.startswith(full) for c in clauses)  # "born in A and educated at B" reads
        return [c if c.startswith(full) or (i == 0 and keep_first) else f"{rel} {be(n, t)} {c}"
                for i, (c, t) in enumerate(zip(clauses, tenses))]  # fmt: skip

    def _clause(self, w: Wording, inverse: bool, name: str, n: int, person: bool, sub_n: int = 1) -> str:
        """The clause of one relation with `name` at its other end; n: the number of the entities the clause is
        about, sub_n: the number of `name`'s entities."""
        rel = "who" if person else "that"
        if inverse:  # the subjects of w whose object is `name`
            if w.form == "noun":
                return f"whose {w.noun} is {name}" if sub_n == 1 else f"whose {w.noun} is one of {name}"
            if w.form == "verb":
                return f"{rel} {w.verb if n == 1 else w.verbs} {name}"
            if needs_be(w):
                return f"{rel} {be(n, w.tense)} {w.verb if n == 1 else w.verbs} {name}"
            return f"{w.verb} {name}"
        # the objects of `name` by w
        if w.form == "noun":
            return f"{rel} {be(n)} the {w.noun if n == 1 else w.plural} of {name}"
        if w.form == "by":
            return f"{rel} {w.active} {name}"
        if w.form == "verb":
            verb = w.verb if sub_n == 1 else w.verbs
            return f"where {name} {unprep(verb)}" if w.where else f"{rel} {name} {verb}"
        verb = w.verb if sub_n == 1 else w.verbs
        if w.where:
            return f"where {name} {be(sub_n, w.tense)} {unprep(verb)}"
        return f"{rel} {name} {be(sub_n, w.tense)} {verb}"

    # -- noun phrases ------------------------------------------------------------------------------------------------
    def np(self, node: Node, n: int | None = None) -> str:
        """A noun phrase for the node's entities in number n (its own size when None)."""
        if isinstance(node, Anchor):
            return self.name(node.eid)
        n = self.size(node) if n is None else n
        return "the " + self.bare(node, n)

    def bare(self, node: Node, n: int) -> str:
        """The noun phrase without its article (`places of birth of X`), for `how many ...` and `the ...`."""
        if (co := co_bare(self, node, n)) is not None:  # the co shapes: kg2tool.synth.wording_co
            return co
        if isinstance(node, Count):
            return f"number of {self.bare(node.child, 2)}"
        if isinstance(node, Project):
            w = self.w(node)
            if not node.inverse and w.form == "noun":
                child_n = self.size(node.child) if not isinstance(node.child, Anchor) else 1
                return f"{w.noun if n == 1 else w.plural} of {self.np(node.child, child_n)}"
            known = self.kind(node) != FALLBACK_KIND and not self.person(node)
            if not node.inverse and not isinstance(node.child, Anchor) and w.form == "prep" and known:
                # `the country of the place where X lives`, not `the country that the place where X lives is in`
                return f"{self.kinds(node, n)} of {self.np(node.child)}"
            return f"{self.kinds(node, n)} {self.clause(node, n)}"
        if isinstance(node, SetOp):
            kids = node.children
            if node.op == "union" and self._same_relation(kids):  # the people born in A or B
                w, names = self.w(kids[0]), and_join([self.name(k.child.eid) for k in kids], "or")
                if not kids[0].inverse and w.form == "noun":
                    return f"{w.noun if n == 1 else w.plural} of {names}"
                return f"{self.kinds(node, n)} {self._clause(w, kids[0].inverse, names, n, self.person(node))}"
            if node.op == "intersection" and self._same_relation(kids) and not kids[0].inverse:
                w = self.w(kids[0])
                if w.form == "noun":  # the genres that A and B have in common
                    names = and_join([self.name(k.child.eid) for k in kids])
                    return f"{w.noun if n == 1 else w.plural} that {names} have in common"
            if node.op == "difference" and self._same_relation(kids) and not kids[0].inverse:
                return self._not_shared(node, n)
            if node.op == "difference" and self._same_relation(kids) and kids[0].inverse:
                # people born in A but not B; places whose country is A but not B
                person = self.person(node)
                first = self._clause(self.w(kids[0]), True, self.name(kids[0].child.eid), n, person)
                return f"{self.kinds(node, n)} {first} but not {self.name(kids[1].child.eid)}"
            if node.op == "difference":  # people whose X is A and whose Y is not B
                inc = kids[0]
                joint = " " if isinstance(inc, Project) and not inc.inverse and self.w(inc).form == "noun" else " and "
                return f"{self.bare(inc, n)}{joint}{self.negated(kids[1], n, self.person(node))}"
            return f"{self.kinds(node, n)} {self.clause(node, n)}"
        raise TypeError(f"no noun phrase for {type(node).__name__}")

    def _not_shared(self, node: SetOp, n: int) -> str:
        """What A has by a relation and B has not: `genres of A that B does not have`, `instruments that A plays
        but B does not`, `academies that A is a member of but B is not`."""
        w = self.w(node.children[0])
        a, b = (self.name(k.child.eid) for k in node.children[:2])
        rel = "who" if self.person(node) else "that"
        if w.form == "noun":
            return f"{w.noun if n == 1 else w.plural} of {a} that {b} does not have"
        if w.form == "by":
            return f"{self.kinds(node, n)} who {w.active} {a} but not {b}"
        if w.form == "verb":
            return f"{self.kinds(node, n)} {rel} {a} {w.verb} but {b} {do(1, w.tense)} not"
        return f"{self.kinds(node, n)} {rel} {a} {be(1, w.tense)} {w.verb} but {b} {be(1, w.tense)} not"

    def negated(self, node: Node, n: int, person: bool) -> str:
        """A clause saying the entities are not among the node's: `whose record label is not Jive`, `not
        influenced by X`, `that are not among the languages of Y`."""
        rel = "who" if person else "that"
        if isinstance(node, Project) and isinstance(node.child, Anchor) and node.inverse:
            w, name = self.w(node), self.name(node.child.eid)
            if w.form == "noun":
                return f"whose {w.noun} is not {name}"
            if w.form == "verb":
                return f"{rel} {do(n, w.tense)} not {base(w)} {name}"
            if needs_be(w):
                return f"{rel} {be(n, w.tense)} not {w.verb if n == 1 else w.verbs} {name}"
            return f"not {w.verb} {name}"
        return f"{rel} {be(n)} not among {self.np(node, 2)}"

    @staticmethod
    def _same_relation(kids) -> bool:
        return all(
            isinstance(k, Project) and isinstance(k.child, Anchor) and (k.rel, k.inverse) == (kids[0].rel, kids[0].inverse)
            for k in kids
        )

    # -- questions and statements of one projection --------------------------------------------------------------
    def wh(self, node: Node) -> str:
        """A wh-question for the node (no final mark): `Who directed X`, `Which films were directed by Y`."""
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name = self.w(node), self.name(node.child.eid)
            person = self.person(node)
            many = node.inverse or w.multi
            k = self.kinds(node, 2 if many else 1)
            if node.inverse:
                unknown = k in (UNKNOWN_NOUN, plural(UNKNOWN_NOUN))
                which = "Who" if person else ("What" if unknown else f"Which {k}")
                plural_ = many and not person and not unknown  # "Which films have", "Who has", "What has"
                if w.form == "noun":
                    return f"{which} {'have' if plural_ else 'has'} {name} as {'their' if person or plural_ else 'its'} {w.noun}"  # noqa: E501
                if w.form == "verb":
                    return f"{which} {w.verbs if plural_ else w.verb} {name}"
                if needs_be(w):
                    return f"{which} {be(2 if plural_ else 1, w.tense)} {w.verbs if plural_ else w.verb} {name}"
                return f"{which} {be(2 if plural_ else 1, w.tense)} {w.verb} {name}"
            if w.form == "noun":
                return f"{'Who' if person else 'What'} {'are' if many else 'is'} the {w.plural if many else w.noun} of {name}"  # noqa: E501
            which = "Who" if person else (f"Which {k}" if k not in (UNKNOWN_NOUN, plural(UNKNOWN_NOUN)) else "What")
            if w.form == "by":
                return f"{which} {w.active} {name}"
            if w.form == "verb":
                if w.where:
                    return f"Where {do(1, w.tense)} {name} {unprep(base(w))}"
                return f"{which} {do(1, w.tense)} {name} {base(w)}"
            if w.where:
                return f"Where {be(1, w.tense)} {name} {unprep(w.verb)}"
            return f"{which} {be(1, w.tense)} {name} {w.verb}"
        many = self.size(node) > 1
        direct = self._direct_wh(node, 2 if many else 1)
        if direct:
            return direct
        if self.person(node):
            return f"Who {'are' if many else 'is'} {self.np(node, 2 if many else 1)}"
        return f"What {'are' if many else 'is'} {self.np(node, 2 if many else 1)}"

    def _direct_wh(self, node: Node, n: int) -> str:
        """An intersection asked directly, its clauses as the question's predicates: `Who received A and was born
        in B`, `Which films feature X and were directed by Y`; "" when a clause is no `who`/`that` clause or the
        kind is unknown."""
        if not isinstance(node, SetOp) or node.op != "intersection" or self.kind(node) == FALLBACK_KIND:
            return ""
        def subject_clause(k) -> bool:  # "who was born in A" (its subject is the asked entity), not "who A played"
            k = k.children[0] if isinstance(k, SetOp) and k.op == "intersection" else k
            return isinstance(k, Project) and (k.inverse or self.w(k).form in ("noun", "by"))

        if not all(subject_clause(k) for k in _grouped(node.children)):
            return ""
        person = self.person(node)
        rel = "who " if person else "that "
        clauses = self._clauses(node, n, person)
        if not all(c.startswith(rel) for c in clauses):
            return ""
        head = "Who" if person else f"Which {self.kinds(node, n)}"
        return f"{head} {and_join([c[len(rel):] for c in clauses])}"

    def statement(self, node: Node, answers: list[str]) -> str:
        """A sentence stating every answer of the node (no final mark)."""
        return cap(self._statement(node, answers))

    def _statement(self, node: Node, answers: list[str]) -> str:
        n = len(answers)
        ans = and_join(answers)
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name = self.w(node), self.name(node.child.eid)
            if node.inverse and w.form != "noun":
                return f"{ans} {self._predicate(w, n)} {name}"
            if not node.inverse and w.form == "by":
                return f"{name} {be(1, w.tense)} {w.verb} {ans}"
            if not node.inverse and w.form == "verb":
                return f"{name} {w.verb} {ans}"
            if not node.inverse and w.form == "prep":
                return f"{name} {be(1, w.tense)} {w.verb} {ans}"
        np = self.np(node, n)
        return f"{np[:1].upper() + np[1:]} {'is' if n == 1 else 'are'} {ans}"

    # -- counts and comparisons --------------------------------------------------------------------------------------
    def _predicate(self, w: Wording, n: int) -> str:
        """What the subjects of w are said to do to an object, in number n: `were born in`, `live in`, `are
        citizens of`, `were directed by`."""
        if w.form == "verb":
            return w.verb if n == 1 else w.verbs
        return f"{be(n, w.tense)} {w.verb if n == 1 else w.verbs}"

    def how_many(self, node: Node) -> str:
        """`How many genres does X have` / `How many people were educated at Y` / `How many languages does X
        speak` (no final mark)."""
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name, kinds = self.w(node), self.name(node.child.eid), self.kinds(node)
            if kinds == plural(UNKNOWN_NOUN) and w.form != "noun":
                return f"How many {self.bare(node, 2)} are there"
            if not node.inverse:
                if w.form == "noun":
                    return f"How many {w.plural} does {name} have"
                if w.form == "by":
                    return f"How many {kinds} {w.active} {name}"
                if w.form == "verb":
                    return f"How many {kinds} {do(1, w.tense)} {name} {base(w)}"
                return f"How many {kinds} {be(1, w.tense)} {name} {w.verb}"
            if w.form == "noun":
                return f"How many {kinds} have {name} as their {w.noun}"
            return f"How many {kinds} {self._predicate(w, 2)} {name}"
        return f"How many {self.bare(node, 2)} are there"

    def count_statement(self, node: Node, number: str) -> str:
        """`X has 4 instruments` / `20 people were educated at Y` / `X speaks 3 languages` (no final mark)."""
        return cap(self._count_statement(node, number))

    def _count_statement(self, node: Node, number: str) -> str:
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name, kinds = self.w(node), self.name(node.child.eid), self.kinds(node)
            n = 1 if number == "1" else 2
            if not node.inverse and w.form == "noun":
                return f"{name} has {number} {w.plural}"
            if kinds != plural(UNKNOWN_NOUN):
                kinds = self.kinds(node, n)
                if not node.inverse:
                    if w.form == "by":
                        return f"{number} {kinds} {w.active} {name}"
                    if w.form == "verb":
                        return f"{name} {w.verb} {number} {kinds}"
                    return f"{name} {be(1, w.tense)} {w.verb} {number} {kinds}"
                if w.form == "noun":
                    return f"{number} {kinds} {'has' if n == 1 else 'have'} {name} as their {w.noun}"
                return f"{number} {kinds} {self._predicate(w, n)} {name}"
        return f"There are {number} {self.bare(node, 2)}"

    def measure(self, node: Project) -> tuple[str, str]:
        """(verb, counted noun phrase) for comparing two anchors by a count, said as `<anchor> <verb> more
        <phrase>`: ("has", "residences"), ("is the country of citizenship of", "people"), ("directed", "films"),
        ("has", "people educated at it")."""
        w = self.w(node)
        if not node.inverse:
            if w.form == "noun":
                return "has", w.plural
            if w.form == "verb":
                return w.verb, self.kinds(node)
            return f"{be(1, w.tense)} {w.verb}", self.kinds(node)
        if w.form == "noun":
            return f"is the {w.noun} of", self.kinds(node)
        if w.form == "by":
            return w.active, self.kinds(node)
        return "has", f"{self.kinds(node)} {self._clause(w, True, 'it', 2, self.person(node))}"
