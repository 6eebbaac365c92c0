"""The compare shape, sampled for the Walker (kg2tool.synth.walk.walker): two entities compared by an attribute that has a
comparative people use ("Who was born later", "Which is taller", "Which costs more": `known_wordings.COMPARATIVES`),
or by how many entities a relation gives each, asked as "more" (readers: "Who worked in fewer fields, A or B?" is
asked by no one), the second entity related to the first by another relation (`walk_union.related`: readers
rejected "Which one works in more fields: Mylène Farmer or Ernst Chladni?" as an arbitrary pairing)."""

from __future__ import annotations

import itertools

from ..language.known_wordings import COMPARATIVES
from ..language.lexicon import FALLBACK_KIND, PLACE_KINDS, SAMPLE
from ..plans.tree import Anchor, Attr, Compare, Count, Project
from .union import draw_peer, related


def compare(walker, rng) -> Compare | None:
    """A Compare plan (see the module docstring), or None when the draws find none."""
    attr = rng.choice(walker.attrs) if walker.attrs and rng.random() < 0.5 else None
    # only an attribute said with a comparative of its own: not "Which has the lower surface water", "the earlier
    # award recognition award date"; a count otherwise (any attribute where the graph has no relation to count)
    said = getattr(walker.lex.attributes.get(attr), "noun", "").lower() in COMPARATIVES
    if attr is not None and (said or not walker.rels):
        vals = walker.kg.attributes[attr].values
        picks = walker.distinct(rng, walker.attr_keys[attr], lambda e: len(vals[e]) == 1, 2)
        ok = lambda e: e in vals and len(vals[e]) == 1  # noqa: E731
        b = draw_peer(walker, rng, picks[0], walker.options.get(picks[0], ()), ok) if picks else None
        b = picks[1] if picks and not walker.rels else b  # nothing relates two names: any two
        if b is not None and vals[picks[0]][0] != vals[b][0]:  # not "Who was born earlier, Mo Yan or Edward Mills
            # Purcell?" (readers rejected arbitrary pairs); the second shares a neighbour with the first
            return Compare((Attr(attr, Anchor(picks[0])), Attr(attr, Anchor(b))), rng.choice(("max", "min")))
    for _ in range(walker.cfg.tries if walker.rels else 0):
        rel, inv = rng.choice(walker.rels), rng.random() < walker.cfg.inverse_prob
        if not _countable(walker, rel, inv):
            continue
        adj = walker.adj(rel, inv)
        fits = lambda e, adj=adj: e not in adj[e] and len(adj[e]) <= walker.cfg.max_set  # noqa: E731 (not "Which country has fewer countries": itself among them)
        picks = walker.distinct(rng, walker.sources[(rel, inv)], fits, 1)
        if picks is None:
            continue
        a = picks[0]
        b = related(walker, rng, Project(rel, Anchor(a), inv))
        if b is not None and b != a and fits(b) and len(adj[a]) != len(adj[b]):
            return Compare((Count(Project(rel, Anchor(a), inv)), Count(Project(rel, Anchor(b), inv))), "max")
    return None


def _countable(walker, rel: str, inverse: bool) -> bool:
    """Whether a step's results are compared by count: it usually gives several (more than 1.3 on average over the
    first SAMPLE entities it starts from: not "Which one has more parent organizations", "more causes of death") and
    what it counts are neither people at large nor places nor of no known kind ("Which one was influenced by more
    people", "Where did more people live", "Which is in more cities", "Which one has more locations": readers
    rejected most such questions; "Where did more laureates work", "Who has more children" and "Which is the more
    common occupation" stay)."""
    key = (rel, inverse)
    got = walker.countable.get(key)
    if got is None:
        w, adj = walker.lex.relations.get(rel), walker.adj(rel, inverse)
        starts = list(itertools.islice(walker.sources[key], SAMPLE))
        counted = FALLBACK_KIND if w is None else (w.subject if inverse else w.object)
        several = bool(starts) and sum(len(adj[e]) for e in starts) > 1.3 * len(starts)
        # people said by a noun: "Who has more children", "Which is the more common occupation, A or B?"
        people = {"person", "human", "people"} - ({counted} if w is not None and w.form == "noun" else set())
        got = walker.countable[key] = several and counted not in PLACE_KINDS | {"continent", FALLBACK_KIND} | people
    return got
