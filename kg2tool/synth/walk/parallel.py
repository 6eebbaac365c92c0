"""The BFCL parallel shapes, sampled for the Walker (kg2tool.synth.walk.walker): `parallel` (one relation looked up for 2-3
entities in one turn: a reader takes four unrelated names in one question for a machine's grab-bag) and `parallel_multiple` (2-3 different lookups in one turn about one entity, as people
ask: "Tell me X's place of birth, spouse and genres")."""

from __future__ import annotations

from functools import lru_cache

from ..language.grammar import pronouns
from ..language.known_wordings import CONTAINING, PERSONAL
from ..language.lexicon import PERSON_KINDS, WORK_KINDS, split_label
from ..plans.tree import Anchor, Parallel, Project
from .co import HUB_KINDS
from .union import related


def parallel(walker, rng):
    """One relation, one direction, 2-3 distinct anchors (2 twice as often), the others related to the first by
    another relation (`walk_union.related`: two people of one band, two films of one director); readers rejected
    "Which instruments do William Herschel, Martie Maguire and Falco play?" as a grab-bag."""
    first = walker.one_hop(rng)
    if first is None:
        return None
    k = rng.choice((2, 2, 3))
    adj = walker.adj(first.rel, first.inverse)
    names = [first.child.eid]
    for _ in range(3 * k):
        e = related(walker, rng, first)
        if e is not None and e not in names and len(adj[e]) <= walker.cfg.max_answers and e not in adj[e]:
            names.append(e)
        if len(names) == k:
            return Parallel(tuple(Project(first.rel, Anchor(e), first.inverse) for e in names))
    return None


def about_one(walker, rng, k: int) -> Parallel | None:
    """k forward lookups of different relations on one entity ("X's place of birth, spouse and genres")."""
    for _ in range(walker.cfg.tries):
        first = walker.one_hop(rng)
        if first is None:
            return None
        kind = walker.lex.kind_of(first.child.eid)
        if first.inverse or kind in WORK_KINDS or kind in HUB_KINDS or where_it_is(walker.lex, first.rel) or personal(walker.lex, first.rel):
            continue  # a film's parts asked together read as a schema dump ("What are the locations of X and what
            # are its planets?"); so do a country's ("Who is the head of state of Dominica and which countries does
            # it have diplomatic relations with?")
        e = first.child.eid
        rels = [r for r in dict.fromkeys(r for r, inv in walker.options[e] if not inv) if r != first.rel and not where_it_is(walker.lex, r) and not personal(walker.lex, r)
                and 1 <= len(walker.adj(r, False)[e]) <= walker.cfg.max_answers and e not in walker.adj(r, False)[e]]  # fmt: skip
        if len(rels) >= k - 1:
            picked = [first.rel, *rng.sample(rels, k - 1)]
            if any(_echo(walker, e, a, b) for i, a in enumerate(picked) for b in picked[i + 1:]):
                continue
            if len({_said(walker.lex, r) for r in picked}) < len(picked):
                continue  # two relations said alike: "What is the olympics of Panama and what is its olympics?"
            if walker.lex.kind_of(e) in PERSON_KINDS and pronouns(walker.kg, e) is None:
                # no pronoun for a later question: only nouns, listed once ("What are X's siblings and religion?")
                if not all(getattr(walker.lex.relations.get(r), "form", "") == "noun" for r in picked):
                    continue
                if len({getattr(walker.lex.relations.get(r), "object", "") in PERSON_KINDS for r in picked}) > 1:
                    continue  # one list of kin and career: "What are Joe Jackson's children and occupations?", "Carrie
                    # Fisher's partner and cause of death" (readers rejected them)
            return Parallel((first, *(Project(r, Anchor(e)) for r in picked[1:])))
    return None


def where_it_is(lex, rel: str) -> bool:
    """True for a relation of what a thing is in or part of (country, continent, part of): asked beside another
    question about the same thing, readers accepted it far less often than the other parallel_multiple questions
    ("Which countries is Capitol Records in", "What is Chile part of and what is its official language?")."""
    w = lex.relations.get(rel)
    return w is not None and _where_label(w.label)


def personal(lex, rel: str) -> bool:
    """True for what a person believes, belongs to by birth or died of (`known_wordings.PERSONAL`): not asked beside
    other things about the person."""
    w = lex.relations.get(rel)
    return w is not None and _personal_label(w.label)


@lru_cache(maxsize=4096)
def _personal_label(label: str) -> bool:
    return split_label(label).lower() in PERSONAL


@lru_cache(maxsize=4096)
def _where_label(label: str) -> bool:
    """`where_it_is` of one label (asked per draw on the walker's hot path: split once per label)."""
    said = split_label(label).lower()
    return said in CONTAINING or said == "part of"


def _said(lex, rel: str) -> tuple:
    """The words a relation is said with (its form, noun and verb)."""
    w = lex.relations.get(rel)
    return (w.form, w.noun, w.verb) if w is not None else (rel,)


def _echo(walker, e: int, a: str, b: str) -> bool:
    """True when two lookups of one entity ask one thing twice: one relation's answers are asked for by the other's
    noun ("Which contributor created X and what is its contributor?"), or answers of different kinds share a word
    ("Which prize did X win and which category did he win a prize in?": Chemistry 2003 and Chemistry)."""
    wa, wb = walker.lex.relations.get(a), walker.lex.relations.get(b)
    if wa is not None and wb is not None and any(x.form != "noun" and y.form == "noun" and x.object == y.noun
                                                 for x, y in ((wa, wb), (wb, wa))):  # fmt: skip
        return True  # one asked by the other's noun: "Which contributor created X and what is its contributor?"
    ids_a, ids_b = walker.adj(a, False)[e], walker.adj(b, False)[e]
    kind = walker.lex.kind_of
    if {kind(i) for i in ids_a} & {kind(i) for i in ids_b}:
        return False  # born in and died in Germany: two questions
    words = lambda ids: {w for i in ids for w in walker.kg.name(i).split() if len(w) > 3 and w.isalpha()}  # noqa: E731
    return bool(words(ids_a) & words(ids_b))


def parallel_multiple(walker, rng):
    """2-3 lookups of different relations about one entity, as people ask several things at once (readers rejected
    most three-part questions: "Where did X die, which category did he win a prize in and what are his fields?";
    three one time in six). Never about different names: two unrelated requests in one message read as glued
    together (0 of 13 such questions accepted by either reader on a graph of diaries, blind readings of unseen
    graphs in docs/research/blind-reading.md; "Tell me the person who founded Reprise Records, Lenny Kravitz's child
    and Ashanti's partner" before); a graph whose entities have one relation each gives none."""
    return about_one(walker, rng, rng.choice((2, 2, 2, 2, 2, 3)))
