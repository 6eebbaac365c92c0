"""Walked-back relations with the topic excluded (the `co` shapes), and the entity kinds that keep chains
type-consistent.

    co:   x -r-> M <-r- y, y != x      "Who else shares a place of birth with x?"
          SetOp("difference", (Project(r, Project(r, Anchor(x)), inverse=True), Anchor(x)))   (plans.co_plan)
    cop:  a co set projected one hop further (walk.Walker.extend)
          "What are the places of education of the other people who share a place of birth with x?"

The first step may go either way (x <-r- M -r-> y: "the other children of the people whose child is x"). Walking
the same relation back is type-consistent by construction; every other hop of a chain must fit: the kind the
previous step produced (its relation's object kind, or subject kind when walked backwards) and the kinds of the
intermediate entities must be kinds the next relation starts from (`StepKinds.fit`). A node that merely stands for
two things (a rating value and a tag both "good") is so never hopped through from one kind to the other. `item` (an
unknown kind) is a kind like any other for relations (a relation of unknown kind continues only a step that gave
`item`); an entity whose own kind is unknown fits any step.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from ..language.known_wordings import IS_A
from ..language.lexicon import FALLBACK_KIND, PERSON_KINDS, SAMPLE, Lexicon, split_label, word_relation
from ..plans.tree import Anchor, Node, Project, SetOp, co_plan


def kind_out(lex: Lexicon, node: Node) -> str:
    """The kind of the entities a plan node gives: the far end of its last relation, or the anchor's own kind."""
    if isinstance(node, Anchor):
        return lex.kind_of(node.eid)
    if isinstance(node, Project):
        w = lex.relations.get(node.rel)
        return FALLBACK_KIND if w is None else (w.subject if node.inverse else w.object)
    if isinstance(node, SetOp):
        return kind_out(lex, node.children[0])
    return FALLBACK_KIND


def _same(a: str, b: str) -> bool:
    return a == b or FALLBACK_KIND in (a, b)


class StepKinds:
    """The kinds each step starts from: a relation walked forward starts from its subjects, backwards from its
    objects. They are the lexicon's kind of that end (the majority) and any other kind held by at least 2 and
    `share` of the first SAMPLE starting entities (the subjects of `about` are artworks and articles); a kind that a
    single node holds (a rating value that is also a tag) is never one of them. Computed per step when first asked."""

    def __init__(self, walker, share: float = 0.2):
        self.walker = walker
        self.share = share
        self._cache: dict[tuple[str, bool], frozenset[str]] = {}
        self._ending: dict[str, frozenset[tuple[str, bool]]] = {}
        self._roles: dict[tuple[str, bool], str] = {}

    def starts(self, rel: str, inverse: bool) -> frozenset[str]:
        """The kinds a step along `rel` (backwards when `inverse`) may start from."""
        key = (rel, inverse)
        if key not in self._cache:
            lex, w = self.walker.lex, self.walker.lex.relations.get(rel)
            firsts = list(itertools.islice(self.walker.sources.get(key, ()), SAMPLE))
            counts = Counter(lex.kind_of(e) for e in firsts)
            kinds = {k for k, c in counts.items() if c >= 2 and c >= self.share * len(firsts)}
            kinds.add(FALLBACK_KIND if w is None else (w.object if inverse else w.subject))
            self._cache[key] = frozenset(kinds)
        return self._cache[key]

    def fit(self, have: str, ids, rel: str, inverse: bool) -> bool:
        """Whether a step along `rel` (backwards when `inverse`) may start from `ids`, entities of the kind `have`:
        `have` is one of the kinds the step starts from, and so is the own kind of every entity whose kind is
        known."""
        kinds = self.starts(rel, inverse)
        return have in kinds and all(k in kinds or k == FALLBACK_KIND for k in map(self.walker.lex.kind_of, ids))

    def role(self, rel: str, at_objects: bool) -> str:
        """The head noun of the role an end of `rel` plays: at its objects the noun its label gives them
        (`has_imdb_rating` -> "rating", `has_tags` -> "tag", `in_language` -> "language"), else the lexicon's kind of
        that end; at its subjects the lexicon's kind. Two steps meet in a value only where these agree."""
        key = (rel, at_objects)
        got = self._roles.get(key)
        if got is None:
            w = self.walker.lex.relations.get(rel)
            kind = FALLBACK_KIND if w is None else (w.object if at_objects else w.subject)
            hint = word_relation(w.label)[1].lstrip("!~") if w is not None and at_objects else ""
            got = self._roles[key] = (hint or kind).split()[-1].lower()
        return got

    def ends(self, rel: str, inverse: bool) -> frozenset[str]:
        """The kinds a step ends on (those the step walked the other way starts from)."""
        return self.starts(rel, not inverse)

    def ending_in(self, kind: str) -> frozenset[tuple[str, bool]]:
        """The steps (relation, inverse) of the walker's relations whose `ends` hold `kind`, computed once per kind
        (the samplers test every branch into an entity against one kind)."""
        got = self._ending.get(kind)
        if got is None:
            steps = ((r, inv) for r in self.walker.rels for inv in (False, True))
            got = self._ending[kind] = frozenset(s for s in steps if kind in self.ends(*s))
        return got


def odd_intersection(lex, branches) -> bool:
    """True for an intersection readers took for nonsense: things in two places by one relation of where things are
    ("Which university is in New York, NY and Princeton, NJ?": a record that gives two cities; "universities in
    Germany and in Göttingen"); two different facts of two different names ("the city that University College is
    in and where Synge was born"); one verb for two relations; one relation walked both ways; a relation said by
    its noun beside another (`_whose`)."""
    if all(isinstance(b, Project) and not b.inverse for b in branches) and len({b.rel for b in branches}) > 1:
        return True
    ws = [lex.relations.get(b.rel) if isinstance(b, Project) and b.inverse else None for b in branches]
    if all(w is not None and bool(w.where or w.verb == "in") for w in ws):
        return True
    # one verb said twice for two relations: "who received an award for X and received the Academy Award for Y"
    # (it reads as one thing asked twice, a query template's stacked conditions)
    verbs = [(b.rel, w.verb.split()[0]) for b, w in zip(branches, ws) if w is not None and w.form == "verb" and w.verb]
    if any(v == u and r != q for i, (r, v) in enumerate(verbs) for q, u in verbs[i + 1:]):
        return True
    # one relation walked both ways: "the countries that the Netherlands and the Soviet Union have diplomatic
    # relations with and that have diplomatic relations with the Sudan"
    ways = {(b.rel, b.inverse) for b in branches if isinstance(b, Project)}
    if any((r, not inv) in ways for r, inv in ways):
        return True
    if len({r for r, _ in ways}) > 1 and any(_whose(w) for w in ws if w is not None):
        return True
    # one link said both ways by two relations, each the other's way round: "the characters who appear in A and who
    # are featured in B" (a character's films, a film's characters: one link asked twice)
    ends = {(r, inv): (w.subject, w.object)[::-1 if inv else 1] for r, inv in ways if (w := lex.relations.get(r))}
    return any(a[0] != b[0] and a[1] != b[1] and ends[a] == ends[b] and ends[a][0] != ends[a][1]
               for a in ends for b in ends)  # (kind named, kind asked) the same, relations and directions not


def _whose(w) -> bool:
    """True for a relation said by its noun when walked back ("whose record label is A"): beside a condition of another
    relation it reads as a query's stacked fields ("Who plays drum kit and whose record label is Polydor Records?",
    "the people whose record label is Island Records and whose genre is synth-pop"); one relation twice stays ("the
    starships whose pilots include A and B"), and so does what a person is ("who is a poet")."""
    return w.form == "noun" and not (w.mirror or w.reverse) and split_label(w.label).lower() not in IS_A


def linked(walker, branches) -> bool:
    """True when one branch's name is a neighbour of another's by any relation ("the universities in Germany and in
    Göttingen", "in Australia and in Perth": the second condition holds the first; readers rejected them)."""
    names = [b.child.eid for b in branches if isinstance(b, Project) and isinstance(b.child, Anchor)]
    for a in names:
        near = {x for r, inv in walker.options.get(a, ()) for x in walker.adj(r, inv).get(a, ())}
        if any(b != a and b in near for b in names):
            return True
    return False


def sample_co(walker, rng: random.Random, hi: int | None = None) -> SetOp | None:
    """A `co` plan (see the module docstring) whose first step gives at most `max_fanout` entities and whose answer,
    the topic excluded, has 1 to `hi` (default `max_answers`) entities, all of the topic's kind; None after `2 * tries`
    attempts (twice the walker's: with `tries`, a quarter of the draws on the bundled graph found none). The relation
    is drawn first, then the topic among the entities that have it (as `Walker.one_hop`)."""
    cfg = walker.cfg
    hi = hi or cfg.max_answers
    if not walker.rels:
        return None
    for _ in range(2 * cfg.tries):
        rel = rng.choice(walker.rels)
        inv = rng.random() < cfg.inverse_prob
        src = walker.sources[(rel, inv)]
        if not src:
            continue
        if _unsaid(walker.lex.relations.get(rel), rel, inv):
            continue
        x = rng.choice(src)
        mids = walker.adj(rel, inv)[x]
        if len(mids) > cfg.max_fanout or any(_alone(walker, rel, inv, m) for m in mids):
            continue  # one thing that all share ("the other pronunciation audios that share a universe") is no choice
        others = walker.project_ids(rel, not inv, mids)
        others.discard(x)
        kind = walker.lex.kind_of(x)  # "which other films ...": the others are of the topic's kind
        if any(walker.lex.kind_of(m) in HUB_KINDS for m in mids):
            continue  # "Which other people share a country with X?": readers took it for a request without end
        if 1 <= len(others) <= hi and all(_same(walker.lex.kind_of(e), kind) for e in others):
            return co_plan(x, rel, inv)
    return None


HUB_KINDS = frozenset(("country", "continent", "state", "sovereign state"))


def _alone(walker, rel: str, inv: bool, mid: int) -> bool:
    """True when `mid` is the only thing of its kind that has `rel` (walked back from the topic's side): the
    question "which other ... share a <kind> with X" then has no other <kind> to tell apart."""
    kinds = walker.co_kinds.get((rel, inv))
    if kinds is None:
        kinds = walker.co_kinds[(rel, inv)] = Counter(walker.lex.kind_of(m) for m in walker.sources[(rel, not inv)])
    return kinds[walker.lex.kind_of(mid)] < 2


def _unsaid(w, rel: str, inverse: bool) -> bool:
    """True when the others would share a person with the topic (countries that share a citizen; "Who else shares a
    sibling with X?" was rejected too) or something of their own kind (organizations that share a subsidiary:
    "share an organization"; symmetric relations aside), or an event record ("Which other countries have the same
    film release as China?")."""
    if w is None:
        return False
    if (inverse or w.object in PERSON_KINDS) and w.subject in PERSON_KINDS:
        return True  # readers rejected "share a sibling / child / partner with X" too, either way round
    return (inverse and w.subject == w.object and w.mirror != rel) or bool(w.reverse)


def drop_kind_nouns(walker) -> None:
    """Take out of the anchors of backward lookups by any relation but an occupation the entities that are
    occupations: "Who works in physicist?" (a field of work the graph also gives as an occupation). Such a name is
    asked about as what people are ("Who is a physicist?")."""
    words = walker.lex.relations
    isa = {r for r in walker.rels if r in words and split_label(words[r].label).lower() in IS_A}
    nouns = {e for r in isa for e in walker.sources[(r, True)]}
    for r in walker.rels:
        adj = walker.adj(r, True)
        if nouns and r not in isa and any(e in adj for e in nouns):
            walker.sources[(r, True)] = [k for k in walker.sources[(r, True)] if k not in nouns]


def one_kind(lex, ids) -> bool:
    """Whether a step's result (its first 50 entities) is of one kind: a question calls a set of two kinds "things"
    and is not asked (`no_kind`), so a chain does not step onto one ("the things that are about X")."""
    return len({lex.kind_of(e) for e in itertools.islice(ids, 50)}) <= 1
