"""Chains readers took for contrived, kept out by the Walker's 2p and 3p samplers (kg2tool.synth.walk.walker): two steps of
where things are, a step from a place a chain reached to things of another kind, a step back to the start place's own
country, a step between people walked back after another, a relation there and back, two steps with the same words,
the present of the dead, a noun walked back from a set, people found by a value they share that is not a place, or
by a burial place. The blind readings behind each rule (`bench/blind/`): docs/research/rules.md."""

from __future__ import annotations

from ..language.lexicon import PERSON_KINDS, PLACE_KINDS, WORK_KINDS, says
from ..plans.tree import Anchor, Node, Project, execute
from .parallel import where_it_is

BURIAL = ("burial", "buried")  # where someone lies buried (its label or verb says so)
DEATH = ("death", "died", *BURIAL)  # where or how someone died or lies buried


def odd_chain(kg, lex, node: Node) -> bool:
    """True for a chain of projections that `_hops_in`, `_strays_from_place`, `_kin_said_back`, `_said_twice` or
    `_people_by_shared_value` rules out."""
    return (_hops_in(lex, node) >= 2 or _strays_from_place(kg, lex, node) or _kin_said_back(lex, node)
            or _said_twice(lex, node) or _people_by_shared_value(kg, lex, node))


def _people_by_shared_value(kg, lex, node: Node) -> bool:
    """True for a chain that walks back, after a first step, to the people who share a value other than a place
    ("Who are the people who had Felix Mendelssohn's cause of death?", "the people educated at the organizations
    that Paul Simon worked for", "the people who received an award for the films that X appears in") or a burial
    place ("the person buried where Pierre-Simon Laplace died"); "the people who died where Duke Ellington was born"
    stays."""
    places = PLACE_KINDS | {"continent"}
    for step in _said_order(node)[1:]:
        w = lex.relations.get(step.rel)
        if not (step.inverse or getattr(w, "reverse", "")):
            continue
        if {lex.kind_of(e) for e in execute(kg, step)} <= PERSON_KINDS:
            if not {lex.kind_of(e) for e in execute(kg, step.child)} <= places or (w is not None and says(w, *BURIAL)):
                return True
    return False


def _said_twice(lex, node: Node) -> bool:
    """True for a chain that walks one relation there and back ("Who are the people who had Mae West's cause of
    death?": a `co` question said badly), walks one relation said by a verb forward twice (clause inside clause: "the
    places that the places that X was related to were related to"), says two steps with the same words ("the award received by people who
    received an award for Revenge of the Sith"), or asks the present of people found by their death or burial ("Which
    language do people buried in Göttingen speak?"), or walks a noun back from a set ("the countries whose official
    language is one of the languages spoken by X")."""
    steps = _said_order(node)
    for a, b in zip(steps, steps[1:]):
        if a.rel == b.rel and a.inverse != b.inverse:
            return True
        wa, wb = lex.relations.get(a.rel), lex.relations.get(b.rel)
        if wa is None or wb is None:
            continue
        if a.rel == b.rel and wa.form != "noun" and not a.inverse and not b.inverse:
            return True  # one verb twice, clause in clause: "the places that the places that X was related to were
            # related to"; a noun stacks ("the parent of X's parent"), "the people who influenced the people who
            # influenced X" branches to the right
        if a.rel != b.rel and len(_words(lex, wa) & _words(lex, wb)) >= 2:
            return True  # "received (an) award" twice, "won (a) prize" twice; "worked at" then "worked in" stays
        if a.inverse and says(wa, *DEATH) and wb.tense == "present":
            return True
        if b.inverse and wb.form == "noun" and wb.subject not in WORK_KINDS:
            return True  # "the countries whose official language is one of the languages X speaks" (0 of 6 read)
    return False


_SMALL = frozenset("a an the in at for of to by on with from".split())


def _words(lex, w) -> set[str]:
    """The content words of a relation's verb and noun (`received an award for`, `awarded work`), and of its mirror's
    (a prize's `laureate` is said by its mirror: "the laureates who won X")."""
    m = lex.relations.get(w.mirror) if w.mirror else None
    return set(f"{w.verb} {w.noun} {f'{m.verb} {m.noun}' if m else ''}".lower().split()) - _SMALL


def _kin_said_back(lex, node: Node) -> bool:
    """True for a chain that walks a relation between people back after another step between people: "Who is the
    person whose child is one of Michael Mann's siblings?" is a roundabout way to ask for his parents; "Who were Elvis
    Presley's children married to?" stays."""
    steps = _said_order(node)
    kin = [w is not None and w.subject in PERSON_KINDS and w.object in PERSON_KINDS
           for w in (lex.relations.get(s.rel) for s in steps)]  # fmt: skip
    return any(k1 and k2 and b.inverse for k1, k2, b in zip(kin, kin[1:], steps[1:]))


def _said_order(node: Node) -> list[Project]:
    """A chain's projections in the order it is said: the step from the name first."""
    steps = []
    while isinstance(node, Project):
        steps.append(node)
        node = node.child
    return steps[::-1]


def _hops_in(lex, node: Node) -> int:
    """How many steps of a chain are of where a thing is (`where_it_is`: country, city, part of)."""
    n = 0
    while isinstance(node, Project):
        n += where_it_is(lex, node.rel)
        node = node.child
    return n


def _strays_from_place(kg, lex, node: Node) -> bool:
    """True for a chain that goes from a place it reached to things of another kind than its start: "the films
    released in the country that X is a citizen of", "the person buried where Jive is headquartered" (readers took
    the intent for contrived), or back to where the start place is; "the people who died where Joan
    Rivers was born" stays."""
    steps = []
    while isinstance(node, Project):
        steps.append(node)
        node = node.child
    start = lex.kind_of(node.eid) if isinstance(node, Anchor) else ""
    if start in PLACE_KINDS and where_it_is(lex, steps[0].rel) and not steps[0].inverse:
        return True  # "Which country are organizations headquartered in Santa Monica in?": the place's own country
    places = PLACE_KINDS | {"continent"}
    for step in steps[:-1]:  # a later step; the first starts from the name itself (kinds of the entities: a
        # relation's majority kind says `person` for the bands formed in a place)
        said_back = step.inverse or bool(getattr(lex.relations.get(step.rel), "reverse", ""))  # "released in"
        if said_back and {lex.kind_of(e) for e in execute(kg, step.child)} <= places:
            if {lex.kind_of(e) for e in execute(kg, step)} != {start}:
                return True
    return False
