"""Walked-back relations with the topic excluded (the `co` shapes), and the entity kinds that keep chains
type-consistent.

    co:   x -r-> M <-r- y, y != x      "Who else shares a place of birth with x?"
          SetOp("difference", (Project(r, Project(r, Anchor(x)), inverse=True), Anchor(x)))   (plans.co_plan)
    cop:  a co set projected one hop further (walk.Walker.extend)
          "What are the places of education of the other people who share a place of birth with x?"

The first step may go either way (x <-r- M -r-> y: "the other children of the people whose child is x"). Walking
the same relation back is type-consistent by construction; every other hop of a chain must fit: the kind the
previous step produced (its relation's object kind, or subject kind when walked backwards) and the kinds of the
intermediate entities must be the kind the next relation starts from (`kinds_fit`). A node that merely stands for
two things (a rating value and a tag both "good") is so never hopped through from one kind to the other. The
relations' kinds must be equal (`item`, a relation whose kind is unknown, continues only from `item`); an entity
whose own kind is unknown (`item`) fits any relation.
"""

from __future__ import annotations

import random

from .lexicon import FALLBACK_KIND, Lexicon
from .plans import Anchor, Node, Project, SetOp, co_plan


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


def kinds_fit(lex: Lexicon, have: str, ids, rel: str, inverse: bool) -> bool:
    """Whether a step along `rel` (backwards when `inverse`) may start from `ids`, entities of the kind `have`: the
    relation's starting kind (its subject kind, or object kind backwards) is `have` and fits every entity's own
    kind."""
    w = lex.relations.get(rel)
    if w is None:
        return True
    need = w.object if inverse else w.subject
    return have == need and all(_same(lex.kind_of(e), need) for e in ids)


def sample_co(walker, rng: random.Random, hi: int | None = None) -> SetOp | None:
    """A `co` plan (see the module docstring) whose first step gives at most `max_fanout` entities and whose answer,
    the topic excluded, has 1 to `hi` (default `max_answers`) entities, all of the topic's kind; None after `tries`
    attempts. The relation is drawn first, then the topic among the entities that have it (as `Walker.one_hop`)."""
    cfg = walker.cfg
    hi = hi or cfg.max_answers
    if not walker.rels:
        return None
    for _ in range(cfg.tries):
        rel = rng.choice(walker.rels)
        inv = rng.random() < cfg.inverse_prob
        src = walker.sources[(rel, inv)]
        if not src:
            continue
        x = rng.choice(src)
        mids = walker.adj(rel, inv)[x]
        if len(mids) > cfg.max_fanout:
            continue
        others = walker.project_ids(rel, not inv, mids)
        others.discard(x)
        kind = walker.lex.kind_of(x)  # "which other films ...": the others are of the topic's kind
        if 1 <= len(others) <= hi and all(_same(walker.lex.kind_of(e), kind) for e in others):
            return co_plan(x, rel, inv)
    return None
