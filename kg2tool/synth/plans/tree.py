"""Query plans: small trees of graph operations from which question, calls, answer and BFCL answers all derive.

    2i:  SetOp("intersection", (Project(r1, Anchor(e1)), Project(r2, Anchor(e2))))
    ip:  Project(r3, SetOp("intersection", ...))
    2in: SetOp("difference", (Project(r1, Anchor(e1)), Project(r2, Anchor(e2))))
    co:  SetOp("difference", (Project(r, Project(r, Anchor(x)), inverse=True), Anchor(x)))   (`co_plan`)
         the others that share an r-object with x ("who else was born in the same city as x?"), x excluded

`execute(kg, plan)` evaluates a plan on entity ids, with no tool in between: it is the independent gold answer
that verification compares the executed tool calls against. `Parallel` groups independent sub-plans answered in
one assistant turn (the BFCL parallel shapes). `plan_to_json` gives a stable, id-free form stored with each row.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...graph.model import KnowledgeGraph


@dataclass(frozen=True)
class Anchor:
    """One entity (its id): a question's named starting point."""

    eid: int


@dataclass(frozen=True)
class Project:
    """The entities `rel` leads to from the child's entities (backwards when `inverse`)."""

    rel: str
    child: Node
    inverse: bool = False


@dataclass(frozen=True)
class SetOp:
    """Intersection, union or difference of the children's entity sets."""

    op: str  # intersection | union | difference (children[0] minus the rest)
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Count:
    """How many entities the child gives."""

    child: Node


@dataclass(frozen=True)
class Attr:
    """The value of attribute `attr` of one anchor entity."""

    attr: str
    child: Anchor


@dataclass(frozen=True)
class Compare:
    """Which item has the largest (`max`) or smallest (`min`) count or attribute value."""

    items: tuple[Node, ...]  # each Count(...) or Attr(...), whose topic anchor names the item
    mode: str  # max | min


@dataclass(frozen=True)
class Parallel:
    """Independent questions asked together (answered with calls in one turn)."""

    children: tuple[Node, ...]


Node = Anchor | Project | SetOp | Count | Attr | Compare | Parallel


def co_plan(x: int, rel: str, inverse: bool = False) -> SetOp:
    """The entities that share an r-neighbour with x, x excluded: x's r-neighbours (walked forward, or backward when
    `inverse`), then `rel` walked back from them, minus the topic x itself (an explicit `difference` with its
    anchor, so execution, the calls and verification all see the exclusion)."""
    first = Project(rel, Anchor(x), inverse)
    return SetOp("difference", (Project(rel, first, not inverse), Anchor(x)))


def co_parts(node: Node) -> tuple[Project, Project, Anchor] | None:
    """(first step, walked-back step, topic anchor) when `node` is a `co_plan`, else None."""
    if not (isinstance(node, SetOp) and node.op == "difference" and len(node.children) == 2):
        return None
    back, x = node.children
    if not (isinstance(x, Anchor) and isinstance(back, Project) and isinstance(back.child, Project)):
        return None
    first = back.child
    if first.child != x or first.rel != back.rel or first.inverse == back.inverse:
        return None
    return first, back, x


def execute(kg: KnowledgeGraph, node: Node):
    """Gold value of a plan on ids: frozenset of ids, int (count), attribute value, winner id, or tuple."""
    if isinstance(node, Anchor):
        return frozenset((node.eid,))
    if isinstance(node, Project):
        rel = kg.relations[node.rel]
        adj = rel.inverse if node.inverse else rel.forward
        out: set[int] = set()
        for e in execute(kg, node.child):
            out.update(adj.get(e, ()))
        return frozenset(out)
    if isinstance(node, SetOp):
        sets = [execute(kg, c) for c in node.children]
        if node.op == "intersection":
            return frozenset.intersection(*sets)
        if node.op == "union":
            return frozenset.union(*sets)
        return sets[0].difference(*sets[1:])
    if isinstance(node, Count):
        return len(execute(kg, node.child))
    if isinstance(node, Attr):
        vals = kg.attributes[node.attr].values.get(node.child.eid, ())
        return vals[0] if len(vals) == 1 else None
    if isinstance(node, Compare):
        scored = [(execute(kg, it), topic(it)) for it in node.items]
        best = (max if node.mode == "max" else min)(v for v, _ in scored)
        winners = [e for v, e in scored if v == best]
        return winners[0] if len(winners) == 1 else None
    if isinstance(node, Parallel):
        return tuple(execute(kg, c) for c in node.children)
    raise TypeError(f"not a plan node: {node!r}")


def grouped_branches(kids) -> list:
    """Branches of an intersection with one relation from several anchors merged into one intersection of their
    own, as the wording says them (kg2tool.synth.language.wording: "whose genres include A and B and whose cause of death is
    C", not "whose genre is A, whose genre is B and ..."); the other branches as they are, in order."""
    key = lambda k: (k.rel, k.inverse) if isinstance(k, Project) and isinstance(k.child, Anchor) else None  # noqa: E731
    groups: dict = {}
    for k in kids:
        if key(k) is not None:
            groups.setdefault(key(k), []).append(k)
    out, done = [], set()
    for k in kids:
        g = key(k)
        if g is None or len(groups[g]) == 1:
            out.append(k)
        elif g not in done:
            done.add(g)
            out.append(SetOp("intersection", tuple(groups[g])))
    return out


def anchors(node: Node) -> list[int]:
    """Anchor entity ids in depth-first order (the first is the topic entity)."""
    if isinstance(node, Anchor):
        return [node.eid]
    if isinstance(node, (Project, Count, Attr)):
        return anchors(node.child)
    kids = node.items if isinstance(node, Compare) else node.children
    return [a for c in kids for a in anchors(c)]


def passed_through(kg: KnowledgeGraph, node: Node) -> set[frozenset]:
    """The values of the sets inside `node` (not node itself): the anchors and every projection below it."""
    out: set[frozenset] = set()
    todo = list(node.children) if isinstance(node, SetOp) else [node.child] if isinstance(node, Project) else []
    while todo:
        sub = todo.pop()
        if isinstance(sub, (Anchor, Project)):
            out.add(execute(kg, sub))
        todo.extend(sub.children if isinstance(sub, SetOp) else [sub.child] if isinstance(sub, Project) else [])
    return out


def topic(node: Node) -> int:
    """The plan's topic entity: its first anchor."""
    return anchors(node)[0]


def relation_path(node: Node) -> list[str]:
    """Relations (with `^` for inverse) and attributes in depth-first order."""
    if isinstance(node, Anchor):
        return []
    if isinstance(node, Project):
        return relation_path(node.child) + [("^" if node.inverse else "") + node.rel]
    if isinstance(node, Attr):
        return [node.attr]
    if isinstance(node, Count):
        return relation_path(node.child)
    kids = node.items if isinstance(node, Compare) else node.children
    return [r for c in kids for r in relation_path(c)]


def plan_to_json(kg: KnowledgeGraph, node: Node, kind_of=None) -> dict:
    """Stable JSON form with entity names and predicate IRIs (no internal ids); with `kind_of` (entity id -> kind,
    e.g. `Lexicon.kind_of`) each entity also records its kind."""
    if isinstance(node, Anchor):
        out = {"op": "entity", "name": kg.name(node.eid), "iri": kg.entities[node.eid]}
        return out | ({"kind": kind_of(node.eid)} if kind_of else {})
    if isinstance(node, Project):
        of = plan_to_json(kg, node.child, kind_of)
        return {"op": "project", "relation": node.rel, "inverse": node.inverse, "of": of}
    if isinstance(node, SetOp):
        return {"op": node.op, "of": [plan_to_json(kg, c, kind_of) for c in node.children]}
    if isinstance(node, Count):
        return {"op": "count", "of": plan_to_json(kg, node.child, kind_of)}
    if isinstance(node, Attr):
        return {"op": "attribute", "attribute": node.attr, "of": plan_to_json(kg, node.child, kind_of)}
    if isinstance(node, Compare):
        return {"op": "compare", "mode": node.mode, "of": [plan_to_json(kg, c, kind_of) for c in node.items]}
    return {"op": "parallel", "of": [plan_to_json(kg, c, kind_of) for c in node.children]}


def num_calls_lower_bound(node: Node) -> int:
    """Calls the plan needs at least (one per operation node)."""
    if isinstance(node, Anchor):
        return 0
    if isinstance(node, (Project, Count, Attr)):
        return 1 + num_calls_lower_bound(node.child)
    kids = node.items if isinstance(node, Compare) else node.children
    own = 0 if isinstance(node, Parallel) else 1
    return own + sum(num_calls_lower_bound(c) for c in kids)
