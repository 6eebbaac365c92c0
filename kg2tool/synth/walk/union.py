"""The union shape (`2u`, and `up` before its step), sampled for the Walker (kg2tool.synth.walk.walker): one relation looked
up from two names, the second name related to the first where the graph has one (two people of one country, two
films of one director): a reader takes "the siblings of A or B" for two unrelated names as a machine's."""

from __future__ import annotations

from ..plans.tree import Anchor, Project, SetOp, execute


def union(walker, rng, hi: int) -> SetOp | None:
    """Two 1p branches of one relation and direction from different anchors whose union adds to each and holds
    neither anchor (at most `hi` entities); None after `tries` draws."""
    kg = walker.kg
    for _ in range(walker.cfg.tries):
        first = walker.one_hop(rng)
        if first is None:
            return None
        other = related(walker, rng, first)  # not "the causes of death of Frank Sinatra and Pedro II of Brazil"
        if other is None or other == first.child.eid:  # (only related pairs: readers rejected unrelated ones)
            continue
        second = Project(first.rel, Anchor(other), first.inverse)
        a, b = execute(kg, first), execute(kg, second)
        both = a | b
        if len(both) <= hi and both != a and both != b and not {first.child.eid, other} & both:
            return SetOp("union", (first, second))
    return None


RELATED_MAX = 25  # a shared neighbour with this many others or more does not make two names related


def related(walker, rng, first: Project) -> int | None:
    """An anchor for `first`'s relation that shares a neighbour with `first`'s anchor by another relation, a
    neighbour of fewer than RELATED_MAX others, or None when the one draw finds none."""
    e, key = first.child.eid, (first.rel, first.inverse)
    ok = walker.source_sets.get(key) or walker.source_sets.setdefault(key, frozenset(walker.sources[key]))
    steps = [(r, inv) for r, inv in walker.options.get(e, ()) if r != first.rel]
    return draw_peer(walker, rng, e, steps, ok.__contains__)


def draw_peer(walker, rng, e: int, steps, ok) -> int | None:
    """One draw of an entity related to `e`: a step of `steps` (relation, inverse), one of `e`'s neighbours along
    it, and one of that neighbour's other entities that passes `ok`; None when the neighbour has RELATED_MAX others
    or more (a country, "singer": "which countries are Roger Penrose, Randy Newman and Little Richard citizens
    of?" reads as a random group) or none passes."""
    if not steps:
        return None
    r, inv = rng.choice(steps)
    via = walker.adj(r, inv).get(e, ())
    peers = [p for p in walker.adj(r, not inv).get(rng.choice(via), ()) if p != e] if via else []
    peers = [p for p in peers if ok(p)] if len(peers) < RELATED_MAX else []
    return rng.choice(peers) if peers else None


def share_small(walker, a: int, b: int, skip: str) -> bool:
    """Whether `a` and `b` share a neighbour of fewer than RELATED_MAX others by a relation other than `skip` (two
    names related as `related` draws them)."""
    for r, inv in walker.options.get(a, ()):
        if r == skip:
            continue
        adj = walker.adj(r, inv)
        near_b = adj.get(b)
        if not near_b:
            continue
        back = walker.adj(r, not inv)
        if any(len(back.get(m, ())) <= RELATED_MAX for m in set(near_b).intersection(adj.get(a, ()))):
            return True
    return False
