"""Places said the way people say them (the part of the Speaker, kg2tool.synth.language.wording, for what lies in what):

    the country of the place where X was born   ->  the country where X was born       (`_where_in`)
    the universities that are in Jerusalem      ->  the universities in Jerusalem      (`_in_place`)
    who was born in the place where X lived     ->  who was born where X lived         (`_where_where`)
"""

from __future__ import annotations

from ..plans.tree import Anchor, Node, Project
from .grammar import be, unprep
from .known_wordings import CONTAINING
from .lexicon import FALLBACK_KIND, Wording, needs_be, says, split_label


class PlaceWording:
    """Mixed into `wording.Speaker`: uses its `w`, `kind`, `kinds`, `name` and `_clause`."""

    def _where_in(self, node: Node) -> Project | None:
        """The where-step of `node` when node says what place a where-relation's answer lies in (`the country of
        the place where X was born`: a CONTAINING relation forward from a where-relation forward from an anchor),
        said as one clause: `the country where X was born`; None otherwise."""
        if not (isinstance(node, Project) and not node.inverse and isinstance(node.child, Project)):
            return None
        inner = node.child
        if inner.inverse or not isinstance(inner.child, Anchor) or not self.w(inner).where:
            return None
        if split_label(self.w(node).label).lower() not in CONTAINING or self.kind(node) == FALLBACK_KIND:
            return None
        return inner

    def _in_place(self, node: Project, n: int) -> str:
        """`universities in Jerusalem` (no article) for the entities a place contains, looked up from its name,
        where readers rejected `the university that is in Jerusalem`; "" for any other node."""
        if not (node.inverse and isinstance(node.child, Anchor) and self.w(node).verb == "in"):
            return ""
        if self.w(node).form != "prep" or self.kind(node) == FALLBACK_KIND:
            return ""
        return f"{self.kinds(node, n)} in {self.name(node.child.eid)}"

    def _where_where(self, w: Wording, inverse: bool, child: Node, n: int, person: bool) -> str:
        """The subjects of a where-relation whose place is the place of another where-relation of a name, said
        with `where` twice: `who was born where X lived`, `headquartered where X died` (readers rejected "born
        in the location where X lived"); "" for any other step."""
        if not (inverse and w.where and isinstance(child, Project) and not child.inverse):
            return ""
        if not (isinstance(child.child, Anchor) and self.w(child).where):
            return ""
        inner = self._clause(self.w(child), False, self.name(child.child.eid), 1, person)
        if not inner.startswith("where "):
            return ""
        rel, verb = "who" if person else "that", unprep(w.verb if n == 1 else w.verbs)
        if w.form == "verb":
            return f"{rel} {verb} {inner}"
        return f"{rel} {be(n, w.tense)} {verb} {inner}" if needs_be(w) else f"{verb} {inner}"


def once(w: Wording) -> bool:
    """True for a relation of what happens once (birth, death, burial): its place's country is asked in the
    singular ("Which country was X born in?", not "Which countries was A. A. Milne born in?")."""
    return says(w, "birth", "born", "death", "died", "burial", "buried")


def where_forward(sp, node: Node) -> bool:
    """True for a where-relation looked up forward (`where X was born`)."""
    return isinstance(node, Project) and not node.inverse and sp.w(node).where
