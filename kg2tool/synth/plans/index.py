"""Per-entity indexes of the walker that hold nothing per edge: the sorted keys of an adjacency, and an LRU cache
of lists computed per entity (kg2tool.synth.walk.walker); and the walker's small helpers (redrawn samples, a lookup's
step, steps from two anchors)."""

from __future__ import annotations

from collections import OrderedDict

from .tree import Anchor, Project


def sorted_keys(mapping):
    """The keys of an adjacency or attribute mapping in id order, as a sequence to draw from."""
    own = getattr(mapping, "sorted_keys", None)
    return own() if own is not None else sorted(mapping)


class PerEntity:
    """`get(e, default)` / `[e]` over a function of one entity, behind an LRU cache bounded by the total length of
    the cached lists (a hub's incoming list can hold 100,000s of entries; the cache must not grow with the graph)."""

    def __init__(self, fn, max_entries: int = 4096, max_weight: int = 100_000, weigh=len):
        self._fn = fn
        self._weigh = weigh  # a cached value's weight: its length, or what it holds
        self._cache: OrderedDict[int, list] = OrderedDict()
        self._max_entries = max_entries
        self._max_weight = max_weight
        self._weight = 0

    def __getitem__(self, e: int):
        out = self._cache.get(e)
        if out is not None:
            self._cache.move_to_end(e)
            return out
        out = self._fn(e)
        w = self._weigh(out) + 1
        if w <= self._max_weight // 4:
            self._cache[e] = out
            self._weight += w
            while len(self._cache) > self._max_entries or self._weight > self._max_weight:
                _, old = self._cache.popitem(last=False)
                self._weight -= self._weigh(old) + 1
        return out

    def get(self, e: int, default=None):
        """The list for entity e, or `default` when it is empty."""
        out = self[e]
        return out if out else default


def redrawn(draw, rounds: int = 5):
    """The first plan `draw()` gives in `rounds` draws (a sampler's parts drawn afresh when they fit nothing)."""
    for _ in range(rounds):
        plan = draw()
        if plan is not None:
            return plan
    return None


def lookup_from_name(node) -> tuple | None:
    """(relation, inverse) of a lookup from a name: a negation leaves out by the same one ("A's genres B lacks")."""
    return (node.rel, node.inverse) if isinstance(node, Project) and isinstance(node.child, Anchor) else None


def two_anchors(opts) -> bool:
    """True when the (relation, inverse, anchor) steps `opts` come from at least two different anchors."""
    return bool(opts) and any(a != opts[0][2] for _, _, a in opts)
