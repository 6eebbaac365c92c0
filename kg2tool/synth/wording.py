"""Plans said in English with the relation lexicon (kg2tool.synth.lexicon): noun phrases, relative clauses,
questions and answer sentences, with agreement by number.

    np(Project(place of birth, Anchor(X)), 1)          the place of birth of X
    np(Project(directed by, Anchor(Y), inverse), 2)    the films directed by Y
    np(intersection of two inverse projections, 2)     the people educated at A and whose place of birth is B

A plan's number is the size of its value (`execute`): one answer is said in the singular, several in the plural.
"""

from __future__ import annotations

from ..graph.model import KnowledgeGraph
from .lexicon import Lexicon, Wording, needs_be, plural
from .plans import Anchor, Count, Node, Project, SetOp, execute
from .wording_co import co_bare

PERSON = "person"


def _and(items: list[str], last: str = "and") -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


class Speaker:
    """Says plan nodes of one graph with its lexicon (see the module docstring)."""

    def __init__(self, kg: KnowledgeGraph, lexicon: Lexicon):
        self.kg = kg
        self.lex = lexicon

    def w(self, node: Project) -> Wording:
        """The wording of a projection's relation."""
        return self.lex.relations[node.rel]

    def size(self, node: Node) -> int:
        """How many entities a node gives."""
        v = execute(self.kg, node)
        return len(v) if isinstance(v, frozenset) else 1

    def kind(self, node: Node) -> str:
        """The kind of the entities a node gives, singular."""
        if isinstance(node, Anchor):
            return self.lex.kind_of(node.eid)
        if isinstance(node, Project):
            return self.w(node).subject if node.inverse else self.w(node).object
        if isinstance(node, SetOp):
            return self.kind(node.children[0])
        return "item"

    def kinds(self, node: Node, n: int = 2) -> str:
        """The kind in number n: `person` / `people`."""
        k = self.kind(node)
        return k if n == 1 else plural(k)

    # -- relative clauses: what the entities of a node are ---------------------------------------------------------
    def clause(self, node: Node, n: int = 2, person: bool | None = None) -> str:
        """A relative clause for the entities of a node (`whose place of birth is X`, `directed by Y`); `person`:
        whether they are people (who/that), by default from the node's kind."""
        person = self.kind(node) == PERSON if person is None else person
        if isinstance(node, Project):
            if isinstance(node.child, Anchor):
                return self._clause(self.w(node), node.inverse, self.kg.name(node.child.eid), n, person)
            sub_n = self.size(node.child)
            return self._clause(self.w(node), node.inverse, self.np(node.child, sub_n), n, person, sub_n)
        if isinstance(node, SetOp) and node.op == "intersection" and self._same_relation(node.children):
            w, first = self.w(node.children[0]), node.children[0]
            names = _and([self.kg.name(k.child.eid) for k in node.children])
            if first.inverse and w.form == "noun":  # whose occupations include poet and lawyer
                return f"whose {w.plural} include {names}"
            return self._clause(w, first.inverse, names, n, person, 1 if first.inverse else len(node.children))
        if isinstance(node, SetOp) and node.op in ("intersection", "union"):
            clauses = [self.clause(k, n, person) for k in node.children]
            rel, be = ("who" if person else "that"), ("is" if n == 1 else "are")
            # a reduced participle after a full clause reads as a new subject: "who influenced X and who is
            # influenced by Y", not "who influenced X and influenced by Y"
            clauses = clauses[:1] + [c if c.startswith(("who ", "that ", "whose ")) else f"{rel} {be} {c}"
                                     for c in clauses[1:]]  # fmt: skip
            return _and(clauses, "and" if node.op == "intersection" else "or")
        return f"{'who' if person else 'that'} {'is' if n == 1 else 'are'} {self.np(node, n)}"

    def _clause(self, w: Wording, inverse: bool, name: str, n: int, person: bool, sub_n: int = 1) -> str:
        """The clause of one relation with `name` at its other end; n: the number of the entities the clause is
        about, sub_n: the number of `name`'s entities."""
        rel = "who" if person else "that"
        be = "is" if n == 1 else "are"
        if inverse:  # the subjects of w whose object is `name`
            if w.form == "noun":
                return f"whose {w.noun} is {name}" if sub_n == 1 else f"whose {w.noun} is one of {name}"
            if w.form == "verb":
                return f"{rel} {w.verb if n == 1 else w.verbs} {name}"
            if needs_be(w):
                return f"{rel} {be} {w.verb if n == 1 else w.verbs} {name}"
            return f"{w.verb} {name}"
        # the objects of `name` by w
        if w.form == "noun":
            return f"{rel} {be} the {w.noun if n == 1 else w.plural} of {name}"
        if w.form == "by":
            return f"{rel} {w.active} {name}"
        if w.form == "verb":
            return f"{rel} {name} {w.verb if sub_n == 1 else w.verbs}"
        return f"{rel} {name} {'is' if sub_n == 1 else 'are'} {w.verb if sub_n == 1 else w.verbs}"

    # -- noun phrases ------------------------------------------------------------------------------------------------
    def np(self, node: Node, n: int | None = None) -> str:
        """A noun phrase for the node's entities in number n (its own size when None)."""
        if isinstance(node, Anchor):
            return self.kg.name(node.eid)
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
            return f"{self.kinds(node, n)} {self.clause(node, n)}"
        if isinstance(node, SetOp):
            kids = node.children
            if node.op == "union" and self._same_relation(kids):  # the people born in A or B
                w, names = self.w(kids[0]), _and([self.kg.name(k.child.eid) for k in kids], "or")
                if not kids[0].inverse and w.form == "noun":
                    return f"{w.noun if n == 1 else w.plural} of {names}"
                return f"{self.kinds(node, n)} {self._clause(w, kids[0].inverse, names, n, self.kind(node) == PERSON)}"
            if node.op == "intersection" and self._same_relation(kids) and not kids[0].inverse:
                w = self.w(kids[0])
                if w.form == "noun":  # the genres that A and B have in common
                    names = _and([self.kg.name(k.child.eid) for k in kids])
                    return f"{w.noun if n == 1 else w.plural} that {names} have in common"
            if node.op == "difference":  # people whose X is A and whose Y is not B
                inc = kids[0]
                joint = " " if isinstance(inc, Project) and not inc.inverse and self.w(inc).form == "noun" else " and "
                return f"{self.bare(inc, n)}{joint}{self.negated(kids[1], n, self.kind(node) == PERSON)}"
            return f"{self.kinds(node, n)} {self.clause(node, n)}"
        raise TypeError(f"no noun phrase for {type(node).__name__}")

    def negated(self, node: Node, n: int, person: bool) -> str:
        """A clause saying the entities are not among the node's: `whose record label is not Jive`, `not
        influenced by X`, `that are not among the languages of Y`."""
        rel = "who" if person else "that"
        be = "is" if n == 1 else "are"
        if isinstance(node, Project) and isinstance(node.child, Anchor) and node.inverse:
            w, name = self.w(node), self.kg.name(node.child.eid)
            if w.form == "noun":
                return f"whose {w.noun} is not {name}"
            if w.form == "verb":
                return f"{rel} {'does' if n == 1 else 'do'} not {w.verbs} {name}"
            if needs_be(w):
                return f"{rel} {be} not {w.verb if n == 1 else w.verbs} {name}"
            return f"not {w.verb} {name}"
        return f"{rel} {be} not among {self.np(node, 2)}"

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
            w, name = self.w(node), self.kg.name(node.child.eid)
            person = self.kind(node) == PERSON
            many = node.inverse or w.multi
            k = self.kinds(node, 2 if many else 1)
            if node.inverse:
                which = "Who" if person else f"Which {k}"
                if w.form == "noun":
                    return f"{which} {'have' if many and not person else 'has'} {name} as {'their' if person or many else 'its'} {w.noun}"  # noqa: E501
                if w.form == "verb":
                    return f"{which} {w.verbs if many and not person else w.verb} {name}"
                if needs_be(w):
                    return f"{which} {'are' if many and not person else 'is'} {w.verbs if many and not person else w.verb} {name}"  # noqa: E501
                return f"{which} {'were' if many and not person else 'was'} {w.verb} {name}"
            if w.form == "noun":
                return f"{'Who' if person else 'What'} {'are' if many else 'is'} the {w.plural if many else w.noun} of {name}"  # noqa: E501
            which = "Who" if person else (f"Which {k}" if k != "item" else "What")
            if w.form == "by":
                return f"{which} {w.active} {name}"
            if w.form == "verb":
                return f"{which} does {name} {w.verbs}"
            return f"{which} is {name} {w.verb}"
        many = self.size(node) > 1
        if self.kind(node) == PERSON:
            return f"Who {'are' if many else 'is'} {self.np(node, 2 if many else 1)}"
        return f"What {'are' if many else 'is'} {self.np(node, 2 if many else 1)}"

    def statement(self, node: Node, answers: list[str]) -> str:
        """A sentence stating every answer of the node (no final mark)."""
        n = len(answers)
        ans = _and(answers)
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name = self.w(node), self.kg.name(node.child.eid)
            if node.inverse and w.form != "noun":
                return f"{ans} {self._clause(w, True, name, n, False).removeprefix('that ')}".replace(
                    f"{ans} {w.verb} {name}", f"{ans} {'was' if n == 1 else 'were'} {w.verb} {name}"
                )
            if not node.inverse and w.form == "by":
                return f"{name} was {w.verb} {ans}"
            if not node.inverse and w.form == "verb":
                return f"{name} {w.verb} {ans}"
            if not node.inverse and w.form == "prep":
                return f"{name} is {w.verb} {ans}"
        np = self.np(node, n)
        return f"{np[:1].upper() + np[1:]} {'is' if n == 1 else 'are'} {ans}"

    # -- counts and comparisons --------------------------------------------------------------------------------------
    def how_many(self, node: Node) -> str:
        """`How many genres does X have` / `How many people were educated at Y` (no final mark)."""
        if isinstance(node, Project) and isinstance(node.child, Anchor):
            w, name = self.w(node), self.kg.name(node.child.eid)
            if not node.inverse and w.form == "noun":
                return f"How many {w.plural} does {name} have"
            if node.inverse and w.form in ("by", "prep") and not needs_be(w):
                return f"How many {self.kinds(node)} were {w.verb} {name}"
        return f"How many {self.bare(node, 2)} are there"

    def count_statement(self, node: Node, number: str) -> str:
        """`X has 4 instruments` / `There are 20 people educated at Y` (no final mark)."""
        if isinstance(node, Project) and isinstance(node.child, Anchor) and not node.inverse:
            w = self.w(node)
            if w.form == "noun":
                return f"{self.kg.name(node.child.eid)} has {number} {w.plural}"
        return f"There are {number} {self.bare(node, 2)}"

    def measure(self, node: Project) -> tuple[str, str]:
        """(verb, counted noun phrase) for comparing two anchors by a count, said as `<anchor> <verb> more
        <phrase>`: ("has", "residences"), ("is the country of citizenship of", "people"), ("directed", "films"),
        ("has", "people educated at it")."""
        w = self.w(node)
        if not node.inverse:
            if w.form == "noun":
                return "has", w.plural
            return "has", f"{self.kinds(node)} {self._clause(w, False, 'it', 2, self.kind(node) == PERSON)}"
        if w.form == "noun":
            return f"is the {w.noun} of", self.kinds(node)
        if w.form == "by":
            return w.active, self.kinds(node)
        return "has", f"{self.kinds(node)} {self._clause(w, True, 'it', 2, self.kind(node) == PERSON)}"
