"""A named entity's set asked as a choice among it (`Which of Norrish's affiliations are in Cambridge`, `Which of
X-wing's pilots come from Tatooine`): the part of the Speaker (kg2tool.synth.wording) that says an intersection
of one name's noun set with what its members do or have."""

from __future__ import annotations

from .grammar import and_join, be, possessive
from .plans import Anchor, Node, Project, SetOp


class ChoiceWording:
    """Mixed into `wording.Speaker`: uses its `kg`, `w`, `size`, `person`, `clause` and `_clauses`."""

    def _which_of(self, node: Node, n: int) -> str:
        """An intersection with one named entity's set of a noun relation asked as a choice among that set: `Which
        of Norrish's affiliations are in Cambridge`, `Which of Ada's siblings was born in Paris and whose ...`; ""
        when no branch is such a set of two or more, or its name takes no possessive."""
        if not (isinstance(node, SetOp) and node.op == "intersection"):
            return ""
        owned = [k for k in node.children if isinstance(k, Project) and isinstance(k.child, Anchor) and not k.inverse
                 and self.w(k).form == "noun" and self.size(k) > 1]  # fmt: skip
        own = possessive(self.kg.name(owned[0].child.eid)) if owned else ""
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
        return f"Which of {own} {self.w(k).plural} {and_join(preds)}"
