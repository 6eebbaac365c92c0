"""The compare shape, sampled for the Walker (kg2tool.synth.walk): two entities compared by an attribute that has a
comparative people use ("Who was born later", "Which is taller", "Which costs more": `known_wordings.COMPARATIVES`),
or by how many entities a relation gives each, asked as "more" (readers: "Who worked in fewer fields, A or B?" is
asked by no one), the second entity related to the first by another relation (`walk_union.related`: readers
rejected "Which one works in more fields: Mylène Farmer or Ernst Chladni?" as an arbitrary pairing)."""

from __future__ import annotations

from .known_wordings import COMPARATIVES
from .plans import Anchor, Attr, Compare, Count, Project
from .walk_union import related


def compare(walker, rng) -> Compare | None:
    """A Compare plan (see the module docstring), or None when the draws find none."""
    attr = rng.choice(walker.attrs) if walker.attrs and rng.random() < 0.5 else None
    # only an attribute said with a comparative of its own: not "Which has the lower surface water", "the earlier
    # award recognition award date"; a count otherwise (any attribute where the graph has no relation to count)
    said = getattr(walker.lex.attributes.get(attr), "noun", "").lower() in COMPARATIVES
    if attr is not None and (said or not walker.rels):
        vals = walker.kg.attributes[attr].values
        picks = walker.distinct(rng, walker.attr_keys[attr], lambda e: len(vals[e]) == 1, 2)
        if picks:
            a, b = picks
            if vals[a][0] != vals[b][0]:
                return Compare((Attr(attr, Anchor(a)), Attr(attr, Anchor(b))), rng.choice(("max", "min")))
    for _ in range(walker.cfg.tries if walker.rels else 0):
        rel, inv = rng.choice(walker.rels), rng.random() < walker.cfg.inverse_prob
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
