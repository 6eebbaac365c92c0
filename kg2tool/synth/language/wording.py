"""Plans said in English with the relation lexicon (kg2tool.synth.language.lexicon): noun phrases, relative clauses,
questions and answer sentences, with agreement by number.

    np(Project(place of birth, Anchor(X)), 1)          the place of birth of X
    np(Project(directed by, Anchor(Y), inverse), 2)    the films directed by Y
    np(intersection of two inverse projections, 2)     the people educated at A and whose place of birth is B

A plan's number is the size of its value (`execute`): one answer is said in the singular, several in the plural.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ...graph.model import KnowledgeGraph
from ..plans.index import sorted_keys
from ..plans.tree import Anchor, Count, Node, Project, SetOp, execute, grouped_branches
from .choice import ChoiceWording
from .co import co_bare
from .counts import CountWording
from .grammar import (
    a_kind,
    and_join,
    base,
    be,
    cap,
    capfirst,
    do,
    in_place,
    passive,
    plural_name,
    possessive,
    said_name,
    the_name,
    unprep,
)
from .known_wordings import ARTICLE_KINDS, CONTAINING, IS_A
from .lexicon import (
    AGENT_KINDS,
    FALLBACK_KIND,
    PERSON_KINDS,
    PLACE_KINDS,
    UNKNOWN_NOUN,
    WORK_KINDS,
    Lexicon,
    Wording,
    needs_be,
    plural,
    split_label,
)
from .negation import NegationWording
from .places import PlaceWording, once, where_forward
from .verbs import agent_noun

KIND_SAMPLE = 50  # answers looked at to name their kind
REVERSED = "\t(said the other way round)"  # the IRI suffix of a relation said by its `reverse` wording
LONG_NP = 14  # words: an answer does not repeat a longer question back ("That's Asia.")
REMEMBERED = 4096  # values, kinds and phrases a Speaker keeps (those of the last few conversations' plans)


def _real(node: Node) -> Node:
    """A node as the graph executes it: a relation said the other way round (`Speaker.said_as`) back to itself."""
    if isinstance(node, Project):
        if node.rel.endswith(REVERSED):
            return Project(node.rel[: -len(REVERSED)], _real(node.child), not node.inverse)
        return node if isinstance(node.child, Anchor) else Project(node.rel, _real(node.child), node.inverse)
    if isinstance(node, SetOp):
        return SetOp(node.op, tuple(_real(k) for k in node.children))
    return node


def _reversed(base: Wording) -> Wording:
    """The wording of a relation said the other way round by its `reverse` participle (`released in`)."""
    return Wording(base.label, "prep", verb=base.reverse, verbs=base.reverse, subject=base.object, object=base.subject,
                   multi=True, tense="past", where=base.reverse.endswith(" in"))  # fmt: skip


def _remembered(cache: dict, key, make):
    """cache[key], made by make() when missing; the cache is emptied when it holds more than REMEMBERED."""
    got = cache.get(key)
    if got is None:
        if len(cache) > REMEMBERED:
            cache.clear()
        got = cache[key] = make()
    return got


class Speaker(CountWording, NegationWording, ChoiceWording, PlaceWording):
    """Says plan nodes of one graph with its lexicon (see the module docstring)."""

    def __init__(self, kg: KnowledgeGraph, lexicon: Lexicon):
        self.kg = kg
        self.lex = lexicon
        self._values: dict = {}  # what `value`, `kind` and `bare` gave (see _remembered)
        self._kinds: dict = {}
        self._bare: dict = {}
        self._reversed: dict = {}  # relations said by their `reverse` wording (`w`)
        self._many: dict = {}  # (relation, inverse) -> whether the step usually gives several (`expects_many`)
        self._featured: dict = {}  # relation -> whether works are said to feature its objects (`features`)

    def name(self, eid: int) -> str:
        """An entity's name as said in a sentence: with the article where it takes one (`needs_the`: the United
        Kingdom; `takes_the`: the Naboo fighter); a year's prize by its class (`prize_name`); else as it is."""
        return said_name(self.kg.name(eid), self.kg.types[eid], self.takes_the(eid))

    def num(self, eid: int) -> int:
        """The grammatical number of an entity's name: 2 for a plural common noun phrase (`plural_name`: "Be stars
        fall under Variable stars") that names no person, group, place or work (a title or a family name is one
        thing: "Little women was written by ..."); a one-word name only when its kind is known ("Wales")."""
        name = self.kg.name(eid)
        kind = self.lex.kind_of(eid)
        if kind in AGENT_KINDS or kind in PLACE_KINDS or kind in WORK_KINDS or not plural_name(name):
            return 1
        return 2 if " " in name or kind != FALLBACK_KIND else 1

    def said_num(self, name: str) -> int:
        """`num` of a name given as text (an answer); 1 for a name that is no entity's."""
        eid = self.kg.resolve(name)
        return self.num(eid) if eid is not None and self.kg.name(eid) == name else 1

    def takes_the(self, eid: int) -> bool:  # said with `the` by its kind: a vehicle, a starship (ARTICLE_KINDS)
        return self.lex.kind_of(eid) in ARTICLE_KINDS

    def own(self, eid: int) -> str:  # a possessive with the article the kind takes: `the X-wing's pilots`
        return possessive(self.kg.name(eid), the=self.takes_the(eid))

    def said(self, name: str) -> str:  # a name given as text (an answer), said like `name`
        eid = self.kg.resolve(name)
        return self.name(eid) if eid is not None and self.kg.name(eid) == name else the_name(name)

    def w(self, node: Project) -> Wording:
        """The wording of a projection's relation (of a relation said the other way round: `said_as`)."""
        if node.rel.endswith(REVERSED):
            return _remembered(self._reversed, node.rel, lambda: _reversed(self.lex.relations[node.rel[: -len(REVERSED)]]))
        return self.lex.relations[node.rel]

    def value(self, node: Node):
        """The node's value (`execute`), remembered for the plans of the last few conversations."""
        return _remembered(self._values, node, lambda: execute(self.kg, _real(node)))

    def size(self, node: Node) -> int:
        """How many entities a node gives."""
        v = self.value(node)
        return len(v) if isinstance(v, frozenset) else 1

    def kind(self, node: Node) -> str:
        """The kind of the entities a node gives, singular: the kind they all share; else the relation's kind when
        most of them have it; else `item`. Remembered, like `value` (a wording asks it of one node many times)."""
        return _remembered(self._kinds, node, lambda: self._kind(node))

    def _kind(self, node: Node) -> str:
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
        counts = Counter(map(self.lex.kind_of, ids if len(ids) <= KIND_SAMPLE else sorted(ids)[:KIND_SAMPLE]))
        if len(counts) == 1:
            only = next(iter(counts))
            return said if only == FALLBACK_KIND and said == "place" else only
        if where_forward(self, node) or (isinstance(node, SetOp) and all(where_forward(self, c) for c in node.children)):
            return "place"  # cities and countries where X was born (and where Y was born): places
        return said if counts[said] * 2 > sum(counts.values()) else FALLBACK_KIND

    def features(self, node: Project) -> bool:
        """Whether works found by what a noun relation leads to are said to feature it ("the films that feature
        Tatooine", "Which films feature X"): the entities are works, and the relation's objects are people or things
        with facts of their own (`own_facts`: a planet, a character), not values that only describe the work (a genre, a
        language, a year, a tag: "the films whose genre is Western"), nor who made them (a label "... by": a credit
        line, "production design by")."""
        w = self.w(node)
        return self.kind(node) in WORK_KINDS and self.own_facts(node.rel) and not w.label.lower().endswith(" by")

    def own_facts(self, rel: str) -> bool:
        """Whether a relation's objects are people or things with facts of their own (relations or attributes:
        a planet, a character, a starship with its length), not values that only describe their subjects (a genre,
        a year, a tag); by the first 20 objects, once per relation."""
        if rel not in self._featured:
            objects = list(itertools.islice(sorted_keys(self.kg.relations[rel].inverse), 20))
            people = sum(self.lex.kind_of(e) in PERSON_KINDS for e in objects)
            facts = (*(r.forward for r in self.kg.relations.values()), *(a.values for a in self.kg.attributes.values()))
            own = sum(any(e in f for f in facts) for e in objects)
            self._featured[rel] = bool(objects) and max(people, own) * 2 > len(objects)
        return self._featured[rel]

    def person(self, node: Node) -> bool:
        """True when the node's entities are people (asked with `who`): a person kind, or a compound whose head (its
        last word) is one (`lead singer`)."""
        kind = self.kind(node)
        return kind in PERSON_KINDS or kind.rsplit(" ", 1)[-1] in PERSON_KINDS

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
            node = self.said_as(node)  # "who won Physics 1956", not "who is the laureate of Physics 1956"
            w, inverse = self.w(node), node.inverse
            if not inverse and w.form in ("verb", "prep") and (m := w.mirror) in self.lex.relations:
                if self.value(Project(m, node.child, True)) == self.value(node):  # "who was married to X", not "who X was married to"
                    w, inverse = self.lex.relations[m], True
            if inverse and w.form == "noun" and self.features(node):  # not "whose planet is Hoth"
                return f"that {'features' if n == 1 else 'feature'} {self.name(node.child.eid) if isinstance(node.child, Anchor) else self.np(node.child)}"  # noqa: E501
            if isinstance(node.child, Anchor):
                return self._clause(w, inverse, self.name(node.child.eid), n, person)
            if (where := self._where_where(w, inverse, node.child, n, person)):
                return where  # "who was born where X lived", not "born in the location where X lived"
            sub_n = self.said_n(node.child)
            return self._clause(w, inverse, self.inner_np(node.child, sub_n), n, person, sub_n)
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
        kids = grouped_branches(node.children) if node.op == "intersection" else list(node.children)
        clauses = [self.clause(k, n, person) for k in kids]
        rel = "who" if person else "that"
        # a reduced participle after a full clause reads as a new subject: "who influenced X and who was
        # influenced by Y", not "who influenced X and influenced by Y"
        firsts = [k.children[0] if isinstance(k, SetOp) else k for k in kids]
        tenses = [self.w(self.said_as(k)).tense if isinstance(k, Project) else "present" for k in firsts]
        full = ("who ", "that ", "whose ", "where ")
        keep_first = all(not c.startswith(full) for c in clauses)  # "born in A and educated at B" reads
        return [c if c.startswith(full) or (i == 0 and keep_first) else f"{rel} {be(n, t)} {c}"
                for i, (c, t) in enumerate(zip(clauses, tenses))]  # fmt: skip

    @staticmethod
    def _is_a(w: Wording, name: str, sub_n: int = 1) -> bool:
        """True when `name` (one value) of an IS_A relation is a common noun said as the subject's kind."""
        return sub_n == 1 and name[:1].islower() and split_label(w.label).lower() in IS_A

    def _clause(self, w: Wording, inverse: bool, name: str, n: int, person: bool, sub_n: int = 1) -> str:
        """The clause of one relation with `name` at its other end; n: the number of the entities the clause is
        about, sub_n: the number of `name`'s entities."""
        rel = "who" if person else "that"
        if inverse:  # the subjects of w whose object is `name`
            if self._is_a(w, name, sub_n):  # who is a poet; who are poets
                return f"{rel} {be(n)} {a_kind(name, n)}"
            if w.form == "noun" and sub_n == 1 and w.multi:  # one of several: "research groups whose members
                return f"whose {w.plural} include {name}"  # include X", not "whose member is X" (readers: stilted)
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
            if not w.where and (by := passive(w)):  # the languages spoken by X, the characters featured in Y
                return f"{by} {name}"
            return f"where {name} {unprep(verb)}" if w.where else f"{rel} {name} {verb}"
        verb = w.verb if sub_n == 1 else w.verbs
        if w.where:
            return f"where {name} {be(sub_n, w.tense)} {unprep(verb)}"
        return f"{rel} {name} {be(sub_n, w.tense)} {verb}"

    # -- noun phrases ------------------------------------------------------------------------------------------------
    def said_as(self, node: Node) -> Node:
        """The node as it is said: a projection along a noun relation with a verb mirror (`Wording.mirror`) as the
        mirror's projection the other way ("the laureates who won X", "Who won X?"), one with a `reverse` wording
        as that wording's projection the other way ("Where was X released?"); any other node as it is."""
        w = self.w(node) if isinstance(node, Project) else None
        if w is not None and w.form == "noun" and (m := w.mirror) in self.lex.relations and (m != node.rel or node.inverse):
            # a symmetric noun relation forward ("X's siblings"), any other mirror with its verb; only where the
            # mirror gives the same entities for this node (mirrors hold for most pairs, not always all)
            other = Project(m, node.child, not node.inverse)
            return other if self.value(other) == self.value(node) else node
        if isinstance(node, Project) and self.w(node).reverse:  # the films released in Y, not Y's film releases
            return Project(node.rel + REVERSED, node.child, not node.inverse)
        return node

    def np(self, node: Node, n: int | None = None) -> str:
        """A noun phrase for the node's entities in number n (its own size when None)."""
        node = self.said_as(node)
        if isinstance(node, Anchor):
            return self.name(node.eid)
        n = self.size(node) if n is None else n
        if isinstance(node, Project) and isinstance(node.child, Anchor) and not node.inverse:
            w, own = self.w(node), self.own(node.child.eid)
            if w.form == "noun" and own:  # Lewis Carroll's places of birth
                return f"{own} {w.noun if n == 1 else w.plural}"
        return "the " + self.bare(node, n)

    def bare(self, node: Node, n: int) -> str:
        """The noun phrase without its article (`places of birth of X`), for `how many ...` and `the ...`;
        remembered, like `value` (the question, the answer and the templates' phrases share their parts)."""
        return _remembered(self._bare, (node, n), lambda: self._bare_np(node, n))

    def _bare_np(self, node: Node, n: int) -> str:
        """The noun phrase of `node`'s `n` answers without an article (`the` is added by `np`)."""
        if (co := co_bare(self, node, n)) is not None:  # the co shapes: kg2tool.synth.language.co
            return co
        if isinstance(node, Count):
            return f"number of {self.bare(node.child, 2)}"
        if (inner := self._where_in(node)) is not None:  # the country where X was born
            return f"{self.kinds(node, n)} {self._clause(self.w(inner), False, self.name(inner.child.eid), n, False)}"
        if isinstance(node, Project):
            return self._project_np(node, n)
        if isinstance(node, SetOp):
            return self._setop_np(node, n)
        raise TypeError(f"no noun phrase for {type(node).__name__}")

    def _project_np(self, node: Project, n: int) -> str:
        """A lookup said as a noun phrase: `places of birth of X`, `the country where X lives`, `films directed by Y`."""
        w = self.w(node)
        if not node.inverse and w.form == "noun":
            child_n = self.said_n(node.child) if not isinstance(node.child, Anchor) else 1
            # what several works feature: "the planets in the films ..." (readers accepted 4 of 10 "the planets of the
            # films"); values that describe them are theirs: "the genres of the films ..." ("the tags in films": no)
            inside = child_n > 1 and self.kind(node.child) in WORK_KINDS and self.own_facts(node.rel)
            of = "in" if inside else "of"
            return f"{w.noun if n == 1 else w.plural} {of} {self.inner_np(node.child, child_n)}"
        verb = w.verb.split()
        if not node.inverse and w.form == "by" and len(verb) == 2 and self.kind(node) == agent_noun(verb[0]):
            # the kind is the verb's own agent: "the director of X", not "the director who directed X"
            child_n = self.said_n(node.child) if not isinstance(node.child, Anchor) else 1
            return f"{self.kinds(node, n)} of {self.inner_np(node.child, child_n)}"
        known = self.kind(node) != FALLBACK_KIND and not self.person(node)
        label = split_label(w.label).lower()  # `the countries of` for `country of citizenship`, not `the place of`
        contains = label in CONTAINING or label == "part of" or (label.startswith(f"{self.kind(node)} of ") and not w.where)
        if not node.inverse and not isinstance(node.child, Anchor) and w.form == "prep" and known and contains:
            # `the country of the place where X lives`, not `the country that the place where X lives is in`
            return f"{self.kinds(node, n)} of {self.np(node.child)}"
        if node.inverse and w.form == "prep" and known and w.verb.split(" ", 1)[-1] == f"{self.kind(node)} of":
            # the role is the kind: "the jurisdictions of X", not "the jurisdictions that are jurisdictions of X"
            return f"{self.kinds(node, n)} of {self.np(node.child)}"
        return self._in_place(node, n) or f"{self.kinds(node, n)} {self.clause(node, n)}"

    def _setop_np(self, node: SetOp, n: int) -> str:
        """A set operation said as a noun phrase: unions of one relation, things in common, differences."""
        node = SetOp(node.op, tuple(self.said_as(k) for k in node.children))  # the films released in A or B
        kids = node.children
        if node.op == "union" and self._same_relation(kids):  # the people born in A or B
            w, inverse = self.w(kids[0]), kids[0].inverse
            # "the people born in A or B"; forward: "the genres of A or B" (`top_np`: "of A and B")
            names = and_join([self.name(k.child.eid) for k in kids], "or")
            if not inverse and w.form == "noun":
                return f"{w.noun if n == 1 else w.plural} of {names}"
            return f"{self.kinds(node, n)} {self._clause(w, inverse, names, n, self.person(node))}"
        if node.op == "intersection" and self._one_forward(kids):
            w = self.w(kids[0])
            names = and_join([self.np(k.child) for k in sorted(kids, key=lambda k: not isinstance(k.child, Anchor))])
            if w.form == "noun":  # the genres that A and the person who founded B have in common
                return f"{w.noun if n == 1 else w.plural} that {names} have in common"
            if w.form in ("verb", "prep") and not w.where:  # the languages that both A and B's partner speak
                rel, both = ("who" if self.person(node) else "that"), "both " if len(kids) == 2 else ""
                verb = w.verbs if w.form == "verb" else f"{be(2, w.tense)} {w.verbs}"
                return f"{self.kinds(node, n)} {rel} {both}{names} {'' if both else 'all '}{verb}"
        if node.op == "difference" and len(kids) == 2 and self._one_forward(kids) and (
            isinstance(kids[0].child, Anchor) or self.w(kids[0]).form in ("noun", "verb")
        ):  # `the continent of the countries ...` stays a noun phrase (below)
            return self._not_shared(node, n)
        if node.op == "difference" and self._same_relation(kids) and kids[0].inverse:
            # people born in A but not B; places whose country is A but not B
            person = self.person(node)
            first = self._clause(self.w(kids[0]), True, self.name(kids[0].child.eid), n, person)
            return f"{self.kinds(node, n)} {first} but not {self.name(kids[1].child.eid)}"
        if node.op == "difference":  # people whose X is A and whose Y is not B
            inc, neg = kids[0], self.negated(kids[1], n, self.person(node))
            joint = " " if isinstance(inc, Project) and not inc.inverse and self.w(inc).form == "noun" else " but "
            said = self.bare(inc, n)
            if isinstance(inc, Project) and not inc.inverse and not isinstance(inc.child, Anchor) and not neg.startswith("but"):
                # "the country of the people born in Rome but not the ones whose relation is X": the clause is
                # about the countries, not the people
                return f"{said} but not the ones {self.clause(kids[1], n, self.person(node))}"
            if neg.startswith("not ") and any(f" {r} " in said for r in ("who", "that", "whose")):
                # "... who won X but who were not born in Y", not "... who won X but not born in Y"
                neg = f"{'who' if self.person(node) else 'that'} {be(n, self.w(kids[1]).tense)} {neg}"
            return f"{said}{' ' if neg.startswith('but not') else joint}{neg}"
        return f"{self.kinds(node, n)} {self.clause(node, n)}"

    @staticmethod
    def _one_forward(kids) -> bool:
        """True when every branch looks up one relation forward (from names or from sets)."""
        return all(isinstance(k, Project) and not k.inverse and k.rel == kids[0].rel for k in kids)

    @staticmethod
    def _same_relation(kids) -> bool:
        return all(isinstance(k, Project) and isinstance(k.child, Anchor) and (k.rel, k.inverse) == (kids[0].rel, kids[0].inverse) for k in kids)  # noqa: E501

    # -- questions and statements of one projection --------------------------------------------------------------
    def wh(self, node: Node) -> str:
        """A wh-question for the node (no final mark): `Who directed X`, `Which films were directed by Y`."""
        node = self.said_as(node)
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            return self._wh_of(node, self.name(node.child.eid))
        many = self.size(node) > 1
        if (inner := self._where_in(node)) is not None:  # Which country was X born in? Which city did X die in?
            many = many and not once(self.w(inner))  # "Which country was X born in" though the graph gives two
            w, name, head = self.w(inner), self.name(inner.child.eid), f"Which {self.kinds(node, 2 if many else 1)}"
            if w.form == "verb":
                return f"{head} {do(1, w.tense)} {name} {in_place(base(w))}"
            return f"{head} {be(1, w.tense)} {name} {in_place(w.verb)}"
        many = many or self.from_several(node)
        n = 2 if many else 1
        if isinstance(node, SetOp) and node.op == "union" and (together := self.wh_together(list(node.children))):
            return together  # Which organizations did A and B work for (one list: the union)
        direct = self._which_of(node, n) or self._wh_not_shared(node, n) or self._direct_wh(node, n) or self._wh_of_set(node, n) or self._two_sentences(node)
        if direct:
            return direct
        if self.person(node):
            return f"Who {'are' if many else 'is'} {self.np(node, 2 if many else 1)}"
        return f"What {'are' if many else 'is'} {self.np(node, 2 if many else 1)}"

    def _wh_of(self, node: Project, name: str) -> str:
        """The wh-question of one step from one entity said as `name` (its name, or `that person`), the verb in the
        number of the name (`num`: "What do Be stars fall under")."""
        w = self.w(node)
        eid = node.child.eid if isinstance(node.child, Anchor) else None
        sub_n = self.num(eid) if eid is not None and name == self.name(eid) else 1
        person = self.person(node)
        many = node.inverse or w.asked_many
        k = self.kinds(node, 2 if many else 1)
        if node.inverse:
            unknown = k in (UNKNOWN_NOUN, plural(UNKNOWN_NOUN))
            which = "Who" if person else ("What" if unknown else f"Which {k}")
            plural_ = many and not person and not unknown  # "Which films have", "Who has", "What has"
            if self._is_a(w, name) and person:
                return f"Who is {a_kind(name)}"  # Who is a poet?
            if w.form == "noun":  # "Which films feature X", "Who are X's parents" (CountWording.noun_back)
                return self.noun_back(node, name, which, plural_)
            if w.form == "verb":
                return f"{which} {w.verbs if plural_ else w.verb} {name}"
            if w.form == "prep" and w.verb.startswith("the ") and w.verb.endswith(" of"):
                return f"{'Who' if person else 'What'} {be(1, w.tense)} {w.verb} {name}"  # What is the capital of X
            if needs_be(w):
                return f"{which} {be(2 if plural_ else 1, w.tense)} {w.verbs if plural_ else w.verb} {name}"
            return f"{which} {be(2 if plural_ else 1, w.tense)} {w.verb} {name}"
        if w.form == "noun":
            return f"{'Who' if person else 'What'} {'are' if many else 'is'} the {w.plural if many else w.noun} of {name}"  # noqa: E501
        which = "Who" if person else (f"Which {k}" if k not in (UNKNOWN_NOUN, plural(UNKNOWN_NOUN)) else "What")
        if w.form == "by":
            doer = agent_noun(w.active.split()[0]) if w.active else ""
            if doer and self.kinds(node, 1) == doer:
                which = "Who"  # the kind is the verb's own doer: "Who created X?", not "Which creators created X?"
            return f"{which} {w.active} {name}"
        if w.form == "verb":
            if w.where:
                return f"Where {do(sub_n, w.tense)} {name} {unprep(base(w))}"
            return f"{which} {do(sub_n, w.tense)} {name} {base(w)}"
        if w.where:
            return f"Where {be(sub_n, w.tense)} {name} {unprep(w.verb)}"
        return f"{which} {be(sub_n, w.tense)} {name} {w.verb}"

    def _direct_wh(self, node: Node, n: int) -> str:
        """An intersection asked directly, its clauses as the question's predicates: `Who received A and was born
        in B`, `Which films feature X and were directed by Y`; "" when a clause is no `who`/`that` clause or the
        kind is unknown."""
        if not isinstance(node, SetOp) or self.kind(node) == FALLBACK_KIND:
            return ""
        person, but = self.person(node), ""
        rel = "who " if person else "that "
        n = 1 if person else n  # "Who was born in A and is a citizen of B?", whatever the number of answers
        if node.op == "difference":  # ... but did not play Darth Maul
            inc, out = node.children[:2]
            if not (isinstance(out, Project) and isinstance(out.child, Anchor) and out.inverse):
                return ""
            but = self.negated(out, n, person)
            if not but.startswith(rel):
                return ""
            node = inc if isinstance(inc, SetOp) else SetOp("intersection", (inc,))
        if node.op != "intersection" or (len(node.children) > 1 and self._one_forward(node.children)):
            return ""  # "the record labels that A and B have in common", not "Which organization is the label of A and B"

        def subject_clause(k) -> bool:  # "who was born in A" (its subject is the asked entity), not "who A played"
            k = k.children[0] if isinstance(k, SetOp) and k.op == "intersection" else k
            return isinstance(k, Project) and (k.inverse or self.w(k).form in ("noun", "by"))

        if not all(subject_clause(k) for k in grouped_branches(node.children)):
            return ""
        clauses = self._clauses(node, n, person)
        if len(clauses) == 1 and isinstance(k := node.children[0], Project) and not clauses[0].startswith(("whose ", "where ", rel)):
            clauses = [f"{rel}{be(n, self.w(k).tense)} {clauses[0]}"]  # "born in A" alone: "who was born in A"
        clauses.sort(key=lambda c: c.startswith("whose "))  # "Who was buried in A and whose field is B"
        if not clauses[0].startswith(rel) or not all(c.startswith(rel) for c in clauses[:-1]) or not clauses[-1].startswith((rel, "whose ")):  # noqa: E501
            return ""  # ... but not "who ..., whose X is A and whose Y is B"
        head = "Who" if person else f"Which {self.kinds(node, n)}"
        if any(c.startswith(f"{rel}{be(n)} the {self.kinds(node, n)} of ") for c in clauses):
            return ""  # "Which location is the location of X ...": the noun phrase reads better
        if clauses[-1].startswith("whose ") and any(c.startswith(f"{rel}{be(n)} the ") for c in clauses[:-1]):
            noun, _, name = clauses[-1][6:].partition(" is ")  # "... are the relations of Syria and whose ..." reads
            own = "their" if person or n > 1 else "its"  # as "... and have Moldova as their relation"
            clauses[-1] = f"{rel}{'has' if n == 1 else 'have'} {name} as {own} {noun}"
        return f"{head} {and_join([c[len(rel):] if c.startswith(rel) else c for c in clauses])}" + (f" but {but[len(rel):]}" if but else "")

    def statement(self, node: Node, answers: list[str]) -> str:
        """A sentence stating every answer of the node (no final mark)."""
        return cap(self._statement(node, answers))

    def _statement(self, node: Node, answers: list[str]) -> str:
        node = self.said_as(node)
        n = len(answers)
        ans = and_join([self.said(a) for a in answers])  # a citizen of the United Kingdom
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name, one = self.w(node), self.name(node.child.eid), self.num(node.child.eid)
            if node.inverse and w.form != "noun":
                return f"{ans} {self._predicate(w, max([n, *map(self.said_num, answers)]))} {name}"
            if not node.inverse and w.form == "by":
                return f"{name} {be(one, w.tense)} {w.verb} {ans}"
            if not node.inverse and w.form == "verb":
                return f"{name} {w.verb if one == 1 else w.verbs} {ans}"
            if not node.inverse and w.form == "prep":
                return f"{name} {be(one, w.tense)} {w.verb} {ans}"
        if isinstance(node, Project) and not node.inverse and self._said_first(node):
            w, sub_n = self.w(node), self.said_n(node.child)
            if self.bare(node, n).startswith(f"{self.kinds(node, n)} that ") and w.form in ("verb", "prep"):
                # asked in two sentences: "The places that X was related to are part of A", one clause deep
                verb = w.verb if sub_n == 1 else w.verbs
                sub = capfirst(self.np(node.child, sub_n))
                return f"{sub} {verb} {ans}" if w.form == "verb" else f"{sub} {be(sub_n, w.tense)} {verb} {ans}"
        np = self.top_np(node, n)
        if len(np.split()) > LONG_NP or " but " in np:  # "... but the country that B is in is not is Asia": no
            return f"That's {ans}" if n == 1 else f"Those are {ans}"
        return f"{capfirst(np)} {'is' if n == 1 else 'are'} {ans}"
