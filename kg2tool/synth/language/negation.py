"""Differences said in English (`genres of A that B does not have`, `languages that A speaks but the people born
in C do not`, `whose record label is not Jive`): the part of the Speaker (kg2tool.synth.language.wording) that says what a
set leaves out."""

from __future__ import annotations

from ..plans.tree import Anchor, Node, Project, SetOp
from .grammar import a_kind, base, be, do
from .lexicon import PREPOSITIONS, needs_be


class NegationWording:
    """Mixed into `wording.Speaker`: uses its `w`, `name`, `np`, `size`, `kinds`, `person` and `_is_a`."""

    def _not_shared(self, node: SetOp, n: int) -> str:
        """What A has by a relation and B has not, A and B names or sets: `genres of A that B does not have`,
        `instruments that A plays but the people born in C do not`, `academies that A is a member of but B is
        not`."""
        w = self.w(node.children[0])
        (a, a_n), (b, b_n) = (self._owner(k.child) for k in node.children[:2])
        rel = "who" if self.person(node) else "that"
        if w.form == "noun":
            return f"{w.noun if n == 1 else w.plural} of {a} that {b} {do(b_n)} not have"
        if w.form == "by":
            return f"{self.kinds(node, n)} who {w.active} {a} but not {b}"
        verb = w.verb if a_n == 1 else w.verbs
        if w.form == "verb":
            return f"{self.kinds(node, n)} {rel} {a} {verb} but {b} {do(b_n, w.tense)} not"
        return f"{self.kinds(node, n)} {rel} {a} {be(a_n, w.tense)} {verb} but {b} {be(b_n, w.tense)} not"

    def _wh_not_shared(self, node: Node, n: int) -> str:
        """What name A has by a relation and name B has not, asked the way people ask it: `Which genres does A have
        that B doesn't`, `Which languages does A speak that B doesn't`, `Which organizations is A a member of that B
        isn't`; "" for other plans (readers rejected "What is the genre of A that B does not have")."""
        kids = tuple(map(self.said_as, node.children)) if isinstance(node, SetOp) and node.op == "difference" else ()
        if len(kids) != 2 or not all(isinstance(k, Project) and k.inverse == kids[0].inverse and k.rel == kids[0].rel
                                     and isinstance(k.child, Anchor) for k in kids):  # fmt: skip
            return ""
        w, (a, b) = self.w(kids[0]), (self.name(k.child.eid) for k in kids)
        if kids[0].inverse:  # Which films were released in A but not B, Who is a citizen of A but not B
            who = "Who" if self.person(node) else f"Which {self.kinds(node, n)}"
            k = 1 if who == "Who" else n
            if w.form == "verb":  # Which countries have diplomatic relations with A but not with B, Who speaks A but not B
                again = f"{w.verb.split()[-1]} " if w.verb.split()[-1] in PREPOSITIONS else ""
                return f"{who} {w.verb if k == 1 else w.verbs} {a} but not {again}{b}"
            return f"{who} {be(k, w.tense)} {w.verb if k == 1 else w.verbs} {a} but not {b}" if w.form == "prep" else ""
        which = f"Which {w.noun if n == 1 else w.plural}" if w.form == "noun" else f"Which {self.kinds(node, n)}"
        if w.form == "noun":
            return f"{which} does {a} have that {b} doesn't"
        if w.form == "verb":
            return f"{which} {do(1, w.tense)} {a} {base(w)} that {b} {do(1, w.tense)}n't"
        if w.form == "prep" and not w.where:
            return f"{which} {be(1, w.tense)} {a} {w.verb} that {b} {be(1, w.tense)}n't"
        return ""

    def _owner(self, node: Node) -> tuple[str, int]:
        """How to name the subject of a lookup (a name, or a set's noun phrase) and its grammatical number."""
        if isinstance(node, Anchor):
            return self.name(node.eid), 1
        size = 1 if self.size(node) == 1 else 2
        return self.np(node, size), size

    def negated(self, node: Node, n: int, person: bool) -> str:
        """A clause saying the entities are not among the node's: `whose record label is not Jive`, `not
        influenced by X`, `but not the ones that Y speaks`."""
        rel = "who" if person else "that"
        if isinstance(node, Project) and isinstance(node.child, Anchor) and node.inverse:
            w, name = self.w(node), self.name(node.child.eid)
            if self._is_a(w, name):
                return f"{rel} {be(n)} not {a_kind(name, n)}"
            if w.form == "noun":
                return f"whose {w.noun} is not {name}"
            if w.form == "verb":
                return f"{rel} {do(n, w.tense)} not {base(w)} {name}"
            if needs_be(w):
                return f"{rel} {be(n, w.tense)} not {w.verb if n == 1 else w.verbs} {name}"
            return f"not {w.verb} {name}"
        said, k = self.np(node, 2), self.kinds(node, 2)
        rest = said[len(k) + 5:] if said.startswith(f"the {k} ") else ""
        return f"but not the ones {rest}" if rest and not rest.startswith("of ") else f"but not {said}"
