"""Counts and comparisons said in English (`How many languages does X speak`, `X speaks 3 languages`, `Who has
more children, A or B`): the part of the Speaker (kg2tool.synth.language.wording) that says numbers of things."""

from __future__ import annotations

from ..plans.tree import Anchor, Node, Project
from .grammar import a_kind, base, be, cap, do, possessive, unprep
from .lexicon import UNKNOWN_NOUN, Wording, plural

# A kin noun said the other way round: the people whose child is X are X's parents.
KIN_BACK = {"child": "parent", "father": "child", "mother": "child", "parent": "child",
            "doctoral advisor": "doctoral student", "doctoral student": "doctoral advisor"}  # fmt: skip


class CountWording:
    """Mixed into `wording.Speaker`: uses its `w`, `name`, `kinds`, `bare`, `person`, `kind`, `said_as` and
    `_clause`."""

    def noun_back(self, node: Project, name: str, which: str, many: bool, count: bool = False) -> str:
        """A noun relation asked the other way round from one entity said as `name` (no final mark): "Which films
        feature X" (works), "Who are X's parents" / "How many parents does X have" (kin), "How many people are poets"
        (an occupation); else "Which starships have X as their pilot".
        "as their/its Y" reads well of some nouns (pilot, official language, record label, head of state) and badly of
        others (child, religion): works are asked by what they feature, kin by the other noun (readers' counts per
        noun: docs/research/rules.md)."""
        w = self.w(node)
        if self.features(node):
            return f"{which} {'feature' if many else 'features'} {name}"
        if self.person(node) and (back := KIN_BACK.get(w.noun)) and name != "that person" and (own := possessive(name)):
            if count:
                return f"How many {plural(back)} does {name} have"
            return f"Who are {own} {plural(back)}"  # in the plural whatever the graph holds: "Who are X's parents"
        if count and self._is_a(w, name):
            return f"{which} are {a_kind(name, 2)}"  # How many people are poets
        return f"{which} {'have' if many else 'has'} {name} as {'their' if self.person(node) or many else 'its'} {w.noun}"

    def _predicate(self, w: Wording, n: int) -> str:
        """What the subjects of w are said to do to an object, in number n: `were born in`, `live in`, `are
        citizens of`, `were directed by`."""
        if w.form == "verb":
            return w.verb if n == 1 else w.verbs
        return f"{be(n, w.tense)} {w.verb if n == 1 else w.verbs}"

    def how_many(self, node: Node) -> str:
        """`How many genres does X have` / `How many people were educated at Y` / `How many languages does X
        speak`; a relation said by its mirror or the other way round as in questions: `How many laureates won X`,
        `How many countries was X released in` (no final mark)."""
        node = self.said_as(node)
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
                return self.noun_back(node, name, f"How many {kinds}", True, count=True)
            return f"How many {kinds} {self._predicate(w, 2)} {name}"
        return f"How many {self.bare(node, 2)} are there"

    def _symmetric_here(self, node: Project) -> bool:
        """True when the node's anchor has the same entities by its relation both ways round (its diplomatic
        relations are the countries that have it as theirs), so "A has more diplomatic relations" is true of the
        count."""
        return self.value(Project(node.rel, node.child, not node.inverse)) == self.value(node)

    def count_statement(self, node: Node, number: str) -> str:
        """`X has 4 instruments` / `20 people were educated at Y` / `X speaks 3 languages` (no final mark)."""
        return cap(self._count_statement(node, number))

    def _count_statement(self, node: Node, number: str) -> str:
        node = self.said_as(node)  # as `how_many` asks it: "X was released in 6 countries", "3 laureates won X"
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
                if w.form == "noun" and self.features(node):  # as asked: "How many films feature X"
                    return f"{number} {kinds} {'features' if n == 1 else 'feature'} {name}"
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

    def compared(self, node: Project, a: str, b: str, more: bool, other: Project | None = None) -> tuple[str, str]:
        """Two anchors compared by how many entities take a verb relation to them, asked and stated the way people
        say it: ("Where did more laureates die, A or B", "More laureates died in {w} ({v}) than in {l} ({v})")
        with `{w}`, `{l}` and the values for the template to fill; ("", "") for other relations."""
        said = self.said_as(node)
        # a symmetric relation said forward (the people whose sibling is A: A's siblings) stays a count of its own
        node = node if isinstance(said, Project) and said.rel == getattr(node, "rel", None) else said
        if not (isinstance(node, Project) and node.inverse and self.w(node).form in ("verb", "prep", "noun")):
            return "", ""
        w, kinds, word = self.w(node), self.kinds(node), "more" if more else "fewer"
        if kinds == plural(UNKNOWN_NOUN):
            return "", ""
        pred = self._predicate(w, 2) if w.form != "noun" else ""
        if w.where and pred:
            prep = pred.rsplit(" ", 1)[1]
            ask = f"Where {do(2, w.tense) if w.form == 'verb' else be(2, w.tense)} {word} {kinds} {unprep(base(w) if w.form == 'verb' else w.verbs)}, {a} or {b}"
            return ask, f"{word.capitalize()} {kinds} {pred} {{w}} ({{vw}}) than {prep} {{l}} ({{vl}})"
        kind = self.kinds(node.child, 1) if isinstance(node.child, Anchor) else UNKNOWN_NOUN
        which = "Which one" if kind == UNKNOWN_NOUN else f"Which {kind}"
        if w.form == "noun" and kinds == plural(kind) and all(self._symmetric_here(k) for k in (node, other) if k):  # "Which country has more
            # diplomatic relations", "Who has fewer siblings" (not "is the sibling of fewer people"); not for
            # parent organizations, whose count is of subsidiaries
            return (f"{'Who' if self.person(node) else which} has {word} {w.plural}, {a} or {b}",
                    f"{{w}} has {word} {w.plural} ({{vw}}) than {{l}} ({{vl}})")
        anchors_people = isinstance(node.child, Anchor) and self.person(node.child)
        if w.form == "noun" and kinds == "people" and more and not anchors_people:  # "Which is the more common
            # occupation, A or B" (readers read "has more people" as staff, and rejected "Which occupation is the
            # occupation of more people"); not of people (readers: "Which is the more common parent, A or B?")
            return (f"Which is the more common {w.noun}, {a} or {b}",
                    f"{{w}} is the {w.noun} of {word} {kinds} ({{vw}}) than {{l}} ({{vl}})")
        if w.form == "noun" and kinds in ("people", plural(kind)):  # "... the parent organization of more
            # organizations" (not "has more organizations")
            return (f"{'Who' if anchors_people else which} is the {w.noun} of {word} {kinds}, {a} or {b}",
                    f"{{w}} is the {w.noun} of {word} {kinds} ({{vw}}) than {{l}} ({{vl}})")
        if w.verb == "in" or w.form == "noun":  # "Which country has more universities", "Which university has
            # more laureates" (whose affiliation it is)
            return f"{which} has {word} {kinds}, {a} or {b}", f"{{w}} has {word} {kinds} ({{vw}}) than {{l}} ({{vl}})"
        role = w.verb.split() if w.form == "prep" else []
        noun = " ".join(role[1:-1]) if role[:1] in (["a"], ["an"], ["the"]) else " ".join(role[:-1])
        if len(role) >= 2 and role[-1] == "of" and noun and " of " not in f" {noun} ":
            # "Which country has more citizens", "Which system of units has more defined units", "Which agency has
            # more parts", not "Which country are more people citizens of" (rejected by readers)
            return (f"{which} has {word} {plural(noun)}, {a} or {b}",
                    f"{{w}} has {word} {plural(noun)} ({{vw}}) than {{l}} ({{vl}})")
        head = f"{do(2, w.tense)} {word} {kinds} {base(w)}" if w.form == "verb" else f"{be(2, w.tense)} {word} {kinds} {w.verbs}"
        return f"{which} {head}, {a} or {b}", f"{word.capitalize()} {kinds} {pred} {{w}} ({{vw}}) than {{l}} ({{vl}})"
