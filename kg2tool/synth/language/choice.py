"""Lists, choices and steps from sets: a named entity's set asked as a choice among it (`Which of Norrish's affiliations are in
Cambridge`, `Which of X-wing's pilots come from Tatooine`), one relation looked up from several names asked as
one question (`Where were A and B born`), a union of them as one list (`the genres of A and B`), a
step from a set asked with its verb (`Which languages do the people born in A speak`) or, from the one entity an
intersection gives, as two sentences (`Someone was born in A and won B. Where did that person die`): the part of
the Speaker (kg2tool.synth.language.wording) that says them."""

from __future__ import annotations

import itertools

from ..plans.index import sorted_keys
from ..plans.tree import Anchor, Node, Project, SetOp
from .grammar import a_kind, and_join, base, be, capfirst, do, unprep
from .lexicon import PERSON_KINDS, PREPOSITIONS, SAMPLE, UNKNOWN_NOUN, plural


class ChoiceWording:
    """Mixed into `wording.Speaker`: uses its `kg`, `w`, `name`, `np`, `size`, `kinds`, `person`, `clause`,
    `_clause`, `_clauses` and `_same_relation`."""

    def top_np(self, node: Node, n: int | None = None) -> str:
        """`np` for a whole question or answer: a union of one relation looked up forward from names is one list,
        "the genres of A and B" (inside a longer phrase it is "the genres of A or B"). A reader rejected every
        "either A or B" and every "... between them"; "have in common" and "both" say an intersection."""
        kids = tuple(self.said_as(k) for k in node.children) if isinstance(node, SetOp) and node.op == "union" else ()
        if not (kids and self._same_relation(kids) and not kids[0].inverse):
            return self.np(node, n)
        n = self.size(node) if n is None else n
        w, names = self.w(kids[0]), and_join([self.name(k.child.eid) for k in kids])
        if w.form == "noun":
            return f"the {w.noun if n == 1 else w.plural} of {names}"
        return f"the {self.kinds(node, n)} {self._clause(w, False, names, n, self.person(node), len(kids))}"

    def wh_together(self, kids: list[Project]) -> str:
        """One question for one relation looked up forward from several anchors (a parallel plan), its subject
        the anchors joined: `Where were A and B born`, `Which awards did A, B and C receive`, `What are the
        genres of A and B`; "" when the relation is not looked up forward."""
        kids = [self.said_as(k) for k in kids]  # "Who won A and B" for the laureates of A and B
        if not all(isinstance(k, Project) and isinstance(k.child, Anchor) and not k.inverse for k in kids):
            return ""
        w, names = self.w(kids[0]), and_join([self.name(k.child.eid) for k in kids])
        person, k = self.person(kids[0]), self.kinds(kids[0], 2)
        which = "Who" if person else ("What" if k == plural(UNKNOWN_NOUN) else f"Which {k}")
        if w.form == "noun":
            return f"{'Who' if person else 'What'} are the {w.plural} of {names}"
        if w.form == "by":
            return f"{which} {w.active} {names}"
        if w.form == "verb":
            return f"{'Where' if w.where else which} {do(2, w.tense)} {names} {unprep(base(w)) if w.where else base(w)}"
        if w.where:
            return f"Where {be(2, w.tense)} {names} {unprep(w.verbs)}"
        return f"{which} {be(2, w.tense)} {names} {w.verbs}"

    def _which_of(self, node: Node, n: int) -> str:
        """An intersection with one named entity's set of a noun or verb relation asked as a choice among that set:
        `Which of Norrish's affiliations are in Cambridge`, `Which of Ada's siblings was born in Paris and whose
        ...`, `Which of the universities where Ada worked are in Paris`; ""
        when no branch is such a set of two or more, or its name takes no possessive."""
        if not (isinstance(node, SetOp) and node.op == "intersection"):
            return ""
        owned = [k for k in node.children if isinstance(k, Project) and isinstance(k.child, Anchor) and not k.inverse
                 and self.w(k).form in ("noun", "verb") and self.size(k) > 1]  # fmt: skip
        if not owned:
            return ""
        if self.w(owned[0]).form == "noun":  # Norrish's affiliations
            own = self.own(owned[0].child.eid)
            own = own and f"{own} {self.w(owned[0]).plural}"
        else:  # the universities where Ada worked, the languages Ada speaks
            own = self.np(owned[0], 2)
        if not own:
            return ""
        person, k = self.person(node), owned[0]
        rest = [c for c in node.children if c is not k]
        if not all(isinstance(c, Project) and c.inverse and c.rel != k.rel for c in rest):
            return ""  # "Which of A's pilots Liam Neeson played": only what the entities themselves do or have
        preds = []
        for c in self._clauses(SetOp("intersection", tuple(rest)), n, person) if len(rest) > 1 else [self.clause(rest[0], n, person)]:
            if c.startswith(("who ", "that ")):
                preds.append(c.split(" ", 1)[1])
            elif c.startswith("whose ") and " is " not in c:
                return ""  # "whose starships include A and B" takes no "has ... as" form
            elif c.startswith("whose "):  # whose city is Boston -> has Boston as its city
                noun, _, name = c[6:].partition(" is ")
                preds.append(f"{'has' if n == 1 else 'have'} {name} as {'their' if person or n > 1 else 'its'} {noun}")
            elif c.startswith("where "):
                preds.append(f"{be(n)} {c}")
            else:  # a reduced participle: born in A
                first = rest[0].children[0] if isinstance(rest[0], SetOp) else rest[0]
                preds.append(f"{be(n, self.w(first).tense if isinstance(first, Project) else 'present')} {c}")
        if any(" one of " in p for p in preds):
            return ""
        return f"Which of {own} {and_join(preds)}"

    def _two_sentences(self, node: Node) -> str:
        """One step from the single entity an intersection gives, said as two sentences the way people set up a
        question: `Someone was born in Dulwich and received X. Which country is that person a citizen of`, `A film
        features A and B. Where was that film released`; "" when the intersection has no direct question or
        gives several entities."""
        if not (isinstance(node, Project) and not node.inverse and isinstance(node.child, SetOp)):
            return ""
        inner = node.child
        if inner.op == "union" or self.size(inner) != 1:
            return ""
        # "Who received A and was born in B", "Which film features A and B", "Who else was born where X was born"
        first = self._direct_wh(inner, 1) if inner.op == "intersection" else self.wh(inner)
        kind = self.kinds(inner, 1)
        if first.startswith("Who else "):
            setup, that = "Someone else " + first[9:], "that person"
        elif first.startswith("Who ") and not first.startswith(("Who is ", "Who are ")):
            setup, that = "Someone " + first[4:], "that person"
        elif first.startswith(f"Which other {kind} "):
            setup, that = f"Another {kind} {first[len(kind) + 13:]}", f"that {kind}"
        elif first.startswith(f"Which {kind} "):
            setup, that = f"{a_kind(kind).capitalize()} {first[len(kind) + 7:]}", f"that {kind}"
        else:
            return ""
        if " but " in setup:
            return ""
        w = self.w(node)
        if w.form == "noun":  # What is that person's affiliation
            many = w.multi or self.size(node) > 1
            return f"{setup}. {'Who' if self.person(node) else 'What'} {'are' if many else 'is'} {that}'s {w.plural if many else w.noun}"
        return f"{setup}. {self._wh_of(node, that)}"

    def from_several(self, node: Node) -> bool:
        """True for a step from a set said in the plural ("the films that X appears in"): asked in the plural
        whatever the answer count, as a person who does not know it asks ("What are the planets in the films that X
        appears in?", not "What is the planet in the films ..." nor "Which film do X's vehicles appear in?")."""
        return isinstance(node, Project) and not isinstance(node.child, Anchor) and self.said_n(node.child) > 1

    def said_n(self, node: Node) -> int:
        """The number a set inside a longer question is said in: its size, or the plural when it holds one entity
        of a step that usually gives several ("the films that X appears in", not "the film that X appears in":
        readers took the singular for presuming there is one; "Which films do people who lived in Epsom appear
        in?")."""
        n = self.size(node)
        return 2 if n == 1 and isinstance(node, Project) and self.expects_many(node) else n

    def expects_many(self, node: Project) -> bool:
        """Whether the node's step usually gives several entities: backwards from anything but a person, always (a
        place has several people born in it, a genre several artists, even where a small graph holds one); else
        more than 1.3 on average from the first SAMPLE entities it starts from (`Wording.multi` forward; "the
        country whose head of state is X", not "the countries")."""
        key = (node.rel, node.inverse)
        if key not in self._many:
            rel, w = self.kg.relations.get(node.rel), self.lex.relations.get(node.rel)
            adj = None if rel is None else (rel.inverse if node.inverse else rel.forward)
            starts = [] if adj is None else list(itertools.islice(sorted_keys(adj), SAMPLE))
            if node.inverse and w is not None and w.object not in PERSON_KINDS:
                self._many[key] = adj is not None
            else:
                self._many[key] = sum(len(adj[e]) for e in starts) > 1.3 * max(len(starts), 1)
        return self._many[key]

    def inner_np(self, node: Node, n: int) -> str:
        """A set inside a longer question: several entities a name picks out said without an article (`people
        born in A`, `films released in Turkey`: "Which languages do people born in A speak"); anything else as
        `np` ("the film released in Turkey" read to readers as presuming there is one)."""
        if n > 1 and isinstance(node, Project) and node.inverse and isinstance(node.child, Anchor):
            return self.bare(node, n)
        return self.np(node, n)

    def _said_first(self, node: Project) -> str:
        """A forward step from what one name has by a relation said of its objects by a clause ("the places that X
        was related to"), asked as two sentences, the set first: `X was related to some places. Which place are
        they part of` ("Which place are the places that X was related to part of" ends on two prepositions, "the
        place that the places that X was related to are part of" puts a clause inside a clause: readers rejected
        both); "" for other steps and for kinds not known."""
        inner = self.said_as(node.child)
        if not (isinstance(inner, Project) and not inner.inverse and isinstance(inner.child, Anchor)):
            return ""
        if self.w(inner).form not in ("verb", "prep"):
            return ""  # "X's starships", "the director of X": no clause
        k = self.kinds(node, 2 if self.size(node) > 1 else 1)
        if UNKNOWN_NOUN in (self.kinds(inner, 1), self.kinds(node, 1)):
            return ""
        clause = self._clause(self.w(inner), False, self.name(inner.child.eid), 2, self.person(inner))
        if not clause.startswith("that "):
            return ""  # "where X was born", "spoken by X": said otherwise
        m = 2 if self.size(inner) > 1 else 1
        setup = clause[5:] + (f" some {self.kinds(inner, 2)}" if m > 1 else f" {a_kind(self.kinds(inner, 1))}")
        they, w = ("they" if m > 1 else "it"), self.w(node)
        which = "Who" if self.person(node) else f"Which {k}"
        if w.form == "by":
            ask = f"{which} {w.active} {'them' if m > 1 else 'it'}"
        elif w.form == "verb":
            ask = f"Where {do(m, w.tense)} {they} {unprep(base(w))}" if w.where else f"{which} {do(m, w.tense)} {they} {base(w)}"
        elif w.form == "prep":
            verb = w.verbs if m > 1 else w.verb
            ask = f"Where {be(m, w.tense)} {they} {unprep(verb)}" if w.where else f"{which} {be(m, w.tense)} {they} {verb}"
        else:
            return ""
        return f"{capfirst(setup)}. {ask}"

    def _wh_of_set(self, node: Node, n: int) -> str:
        """A forward step from a set asked with its verb: `Which languages do the people born in A speak`, `Which
        organizations were the people influenced by B members of`, `Who directed the films that C appears in`;
        "" for nouns (`What is the genre of ...` reads) and for kinds not known."""
        if not (isinstance(node, Project) and not node.inverse and not isinstance(node.child, Anchor)):
            return ""
        w, k = self.w(node), self.kinds(node, n)
        sub_n = self.said_n(node.child)
        sub = self.inner_np(node.child, sub_n)
        if w.form == "noun" or len(sub.split()) > (10 if isinstance(node.child, SetOp) else 13) or " where " in sub:
            return ""  # a long subject loses the reader (a prize's laureates take 11 words; an intersection is split)
        if sub.split()[-1] in (*PREPOSITIONS, "about") and not w.where:
            # "Which continents is the country that X is in in"; "Where were the films X appears in released"; a
            # noun phrase with a clause inside its clause is asked in two sentences, any other as a noun phrase
            nested = self.bare(node, n).startswith(f"{k} that ")
            return self._said_first(node) if nested else ""
        if w.where:  # Where did the people born in A die?
            if w.form == "verb":
                return f"Where {do(sub_n, w.tense)} {sub} {unprep(base(w))}"
            return f"Where {be(sub_n, w.tense)} {sub} {unprep(w.verb if sub_n == 1 else w.verbs)}"
        if k in (UNKNOWN_NOUN, plural(UNKNOWN_NOUN)):
            return ""
        which = "Who" if self.person(node) else f"Which {k}"
        if w.form == "by":
            return f"{which} {w.active} {sub}"
        if w.form == "verb":
            return f"{which} {do(sub_n, w.tense)} {sub} {base(w)}"
        return f"{which} {be(sub_n, w.tense)} {sub} {w.verb if sub_n == 1 else w.verbs}"
