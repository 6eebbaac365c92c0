"""Seeded sampling of query plans from the graph, one sampler per shape.

Shapes: the BetaE structures 1p 2p 3p 2i 3i ip pi 2u up and the negation shapes 2in 3in inp pin pni; `co` (the
others that share a relation's neighbour with the topic, the topic excluded) and `cop` (a co set one hop further,
see kg2tool.synth.walk.co); `count` and `compare` (aggregation and comparison); and the BFCL shapes `simple` and
`multiple` (a 1p question answered with one call, offered alone or among related distractor tools), `parallel`
(one tool on several entities in one turn), `parallel_multiple` (several tools in one turn) and `irrelevance`.

How hubs are kept from dominating: relations are drawn first, uniformly, then an anchor uniformly among the
entities that have that relation; and every set an answer or an argument holds is bounded (`max_answers`,
`max_set`; a chain step fans out over at most `max_fanout` entities, one call each). Chains are type-consistent:
a hop continues only through a relation whose starting kind fits the kind of the entities it starts from
(`walk_co.StepKinds`). A sampler that cannot meet its constraints in a few tries returns None (sampling_failed).

Only relations/attributes that have tools (enough support) are used. All randomness comes from the `random.Random`
passed in, and every index is built in sorted order, so the same graph and seed give the same plans.
"""

from __future__ import annotations

import random
from functools import cached_property

from ...graph.model import KnowledgeGraph
from ..language.known_wordings import UNASKED_VERBS, is_document_kind
from ..language.lexicon import Lexicon, derive_lexicon
from ..plans.index import PerEntity, lookup_from_name, redrawn, sorted_keys, two_anchors
from ..plans.tree import Anchor, Count, Node, Project, SetOp, anchors, execute, passed_through, topic
from ..tools.toolset import ToolSet
from .chain import odd_chain
from .co import StepKinds, drop_kind_nouns, kind_out, linked, odd_intersection, one_kind, sample_co
from .compare import compare
from .config import WalkConfig
from .parallel import parallel, parallel_multiple, where_it_is
from .union import share_small, union

SHARE_MEMO = 1 << 18  # answers of `Walker._share_small` kept at most
IN_MEMORY_WEIGHT = 2_000_000  # entries of per-entity lists a walker of an in-memory graph keeps (`PerEntity`)
BETAE_SHAPES = ("1p", "2p", "3p", "2i", "3i", "ip", "pi", "2u", "up")
NEGATION_SHAPES = ("2in", "3in", "inp", "pin", "pni")
VAGUE_PLACES = frozenset(("place", "location", "item", "thing"))  # kinds too broad to ask what lies in a place
CO_SHAPES = ("co", "cop")
AGGREGATE_SHAPES = ("count", "compare")
BFCL_SHAPES = ("simple", "multiple", "parallel", "parallel_multiple", "irrelevance")
DIALOGUE_SHAPES = ("followup", "missing_info", "error_recovery")  # built by kg2tool.synth.dialogue
WALK_SHAPES = BFCL_SHAPES + BETAE_SHAPES[1:] + NEGATION_SHAPES + CO_SHAPES + AGGREGATE_SHAPES
ALL_SHAPES = WALK_SHAPES + DIALOGUE_SHAPES

# Shape -> BFCL category of the conversation.
CATEGORY = {s: "multi_step" for s in BETAE_SHAPES + NEGATION_SHAPES + CO_SHAPES + AGGREGATE_SHAPES}
CATEGORY |= {s: s for s in BFCL_SHAPES} | {"1p": "simple"}
CATEGORY |= {"followup": "multi_turn", "missing_info": "multi_turn", "error_recovery": "multi_step"}


class Walker:
    """Samples query plans of the walk shapes (`sample`) and the building blocks the dialogue shapes use (`one_hop`,
    `extend`) from a graph's tools and the lexicon's entity kinds (derived from the graph when None); see the
    module docstring."""

    def __init__(self, toolset: ToolSet, config: WalkConfig | None = None, lexicon: Lexicon | None = None):
        self.ts = toolset
        self.kg: KnowledgeGraph = toolset.kg
        self.cfg = config or WalkConfig()
        self.lex = lexicon or derive_lexicon(toolset.kg)
        self.kinds = StepKinds(self)
        self.co_kinds: dict = {}  # (relation, inverse) -> how many of each kind have it walked back (walk.co._alone)
        kg = self.kg
        self._adj = {(r, inv): rel.inverse if inv else rel.forward for r, rel in kg.relations.items()
                     for inv in (False, True)}  # fmt: skip
        rel_words, attr_words = self.lex.relations, self.lex.attributes
        self.rels = sorted(  # questions are about things, not about the files that document them; nor by a
            r for r in toolset.forward_tool  # wording readers found vague (UNASKED_VERBS)
            if r not in rel_words or not (is_document_kind(rel_words[r].subject) or is_document_kind(rel_words[r].object)
                                          or rel_words[r].verb in UNASKED_VERBS)
        )  # fmt: skip
        self._rel_set = set(self.rels)
        self._shared: dict[tuple[int, int, str], bool] = {}  # see _share_small
        self._mirrors: dict[str, tuple[str, ...]] | None = None  # see _mirrored
        self.source_sets: dict[tuple[str, bool], frozenset] = {}  # walk_union.related
        self.attrs = sorted(
            a for a in toolset.attribute_tool if kg.attributes[a].kind in ("integer", "number", "date", "datetime")
            and (a not in attr_words or not is_document_kind(attr_words[a].subject))
        )  # fmt: skip
        # Sorted id sequences to sample anchors from, per relation and direction, and per attribute. A graph whose
        # adjacency has its own sorted key array (kg2tool.graph.store) hands out a view of it instead of a list.
        self.sources = {(r, inv): sorted_keys(self.adj(r, inv)) for r in self.rels for inv in (False, True)}
        self.attr_keys = {a: sorted_keys(kg.attributes[a].values) for a in self.attrs}
        drop_kind_nouns(self)  # not "Who works in physicist?"
        # For each entity, the (relation, inverse) projections it can start from; and for each entity t, the
        # (relation, inverse, anchor) projections whose result contains t. Both are computed per entity when asked
        # (from the adjacency, in the order a full index built relation by relation would list them), so the
        # walker holds nothing per edge: an on-disk graph stays on disk.
        self.countable: dict[tuple[str, bool], bool] = {}  # steps compared by count (`walk_compare._countable`)
        # A graph in memory holds its edges anyway: its per-entity lists are kept for every entity (an LRU of 4,096
        # entities recomputed them again and again on Nobel's 9,834: ~10% of the walk). An on-disk graph
        # (`relations_of`) keeps the bounded cache. Cached or not, the lists are the same.
        on_disk = getattr(kg, "relations_of", None) is not None
        room = {} if on_disk else {"max_entries": len(kg) + 1, "max_weight": IN_MEMORY_WEIGHT}
        self.options = PerEntity(self._options, **room)
        self.incoming = PerEntity(self._incoming, **room)
        weigh = lambda d: sum(map(len, d.values()))  # noqa: E731
        self.incoming_by = PerEntity(self._incoming_by, weigh=weigh, **room)  # t -> {step: anchors}
        self._targets = bytearray(len(kg))  # per entity: 0 not known yet, 1 no target, 2 a target (`target`)
        # shape -> sampler (rng -> plan or None), for every shape of WALK_SHAPES
        self.samplers = {
            "simple": self.one_hop, "multiple": self.one_hop, "irrelevance": self.one_hop,
            "parallel": lambda rng: parallel(self, rng), "parallel_multiple": lambda rng: parallel_multiple(self, rng),
            "2p": lambda rng: self._chain(rng, 2), "3p": lambda rng: self._chain(rng, 3),
            "2i": lambda rng: self._inter(rng, 2), "3i": lambda rng: self._inter(rng, 3), "ip": self._ip,
            "pi": self._pi, "2u": self._union, "up": self._up, "2in": self._2in, "3in": self._3in, "inp": self._inp,
            "pin": self._pin, "pni": self._pni, "co": lambda rng: sample_co(self, rng), "cop": self._cop,
            "count": self._count, "compare": lambda rng: compare(self, rng),
        }  # fmt: skip

    def _options(self, e: int) -> list[tuple[str, bool]]:
        own = getattr(self.kg, "relations_of", None)  # a graph that lists them per entity (kg2tool.graph.store)
        if own is not None:
            return [ri for ri in own(e) if ri[0] in self._rel_set]
        return [(r, inv) for r in self.rels for inv in (False, True) if e in self.adj(r, inv)]

    def _incoming(self, t: int) -> list[tuple[str, bool, int]]:
        out: list[tuple[str, bool, int]] = []
        opts = set(self.options[t])
        for r in dict.fromkeys(r for r, _ in self.options[t]):  # only the relations t has facts in, in order
            rel = self.kg.relations[r]
            subjects = rel.inverse.get(t, ()) if (r, True) in opts else ()  # (r, False, s): t is an object of s
            objects = rel.forward.get(t, ()) if (r, False) in opts else ()  # (r, True, o): t is the subject
            if not objects:
                out.extend((r, False, s) for s in subjects)
                continue
            out.extend((r, False, s) for s in subjects if s < t)
            for o in objects:
                if o == t:  # a self-loop: t is its own subject's object
                    out.append((r, False, t))
                out.append((r, True, o))
            out.extend((r, False, s) for s in subjects if s > t)
        return out

    def _incoming_by(self, t: int) -> dict[tuple[str, bool], list[int]]:
        """`incoming[t]` grouped by step: (relation, inverse) -> its anchors, in `incoming` order."""
        out: dict[tuple[str, bool], list[int]] = {}
        for r, inv, a in self.incoming[t]:
            out.setdefault((r, inv), []).append(a)
        return out

    @cached_property
    def targets(self) -> list[int]:
        """Entities reached from at least two different anchors (the sampler draws them by rejection instead;
        this full list is for tests and small graphs)."""
        return [t for t in range(len(self.kg)) if two_anchors(self.incoming.get(t, ()))]

    def target(self, rng: random.Random) -> int | None:
        """A uniformly drawn entity reached from at least two different anchors (the target of an intersection),
        by rejection from all entities; None when `10 * tries` draws found none."""
        n, known = len(self.kg), self._targets
        for _ in range(10 * self.cfg.tries):
            t = rng.randrange(n)
            if not known[t]:  # a graph fact, remembered (one byte an entity): most draws are of entities seen before
                known[t] = 2 if two_anchors(self.incoming.get(t, ())) else 1
            if known[t] == 2:
                return t
        return None

    def distinct(self, rng: random.Random, seq, ok, k: int, avoid=()) -> list[int] | None:
        """k different ids drawn uniformly from `seq` among those with `ok(id)` and not in `avoid`, by rejection
        (`tries * k` draws at most), in the order drawn; None when fewer were found."""
        if len(seq) < k:
            return None
        picks: list[int] = []
        for _ in range(self.cfg.tries * k):
            e = rng.choice(seq)
            if e in avoid or e in picks or not ok(e):
                continue
            picks.append(e)
            if len(picks) == k:
                return picks
        return None

    # -- primitives --------------------------------------------------------------------------------------
    def adj(self, rel: str, inverse: bool) -> dict[int, tuple[int, ...]]:
        """The adjacency of a relation: subject -> objects, or object -> subjects when `inverse`."""
        return self._adj[(rel, inverse)]

    def project_ids(self, rel: str, inverse: bool, ids) -> set[int]:
        """The entities the relation leads to from any of `ids`."""
        adj = self.adj(rel, inverse)
        out: set[int] = set()
        for e in ids:
            out.update(adj.get(e, ()))
        return out

    def one_hop(self, rng: random.Random, lo: int = 1, hi: int | None = None, back: float | None = None) -> Project | None:
        """A 1p projection with a result size in [lo, hi], relation drawn first, walked backwards with probability
        `back` (the config's `inverse_prob` when None)."""
        hi, back = hi or self.cfg.max_answers, self.cfg.inverse_prob if back is None else back
        if not self.rels:
            return None
        for _ in range(self.cfg.tries):
            rel = rng.choice(self.rels)
            inv = rng.random() < back
            src = self.sources[(rel, inv)]
            if not src:
                continue
            e = rng.choice(src)
            objects = self.adj(rel, inv)[e]
            if lo <= len(objects) <= hi and e not in objects:  # not "Poland is in Poland"
                kind = self.lex.kind_of(e)
                if not inv and (kind in ("country", "continent") or kind == self.lex.relations[rel].object) and where_it_is(self.lex, rel):
                    continue  # no lookup of where a country is, or a thing of the kind it would be in ("the
                    # countries that Sri Lanka is in", "What is Uruguay part of?")
                if inv and where_it_is(self.lex, rel) and {self.lex.kind_of(o) for o in objects} <= VAGUE_PLACES:
                    continue  # what lies in a place is asked by a kind narrower than places, not "Which places
                    # are in the Czech Republic?", "What is in France?"
                return Project(rel, Anchor(e), inv)
        return None

    def extend(self, rng: random.Random, node: Node, ids, hi: int | None = None) -> Project | None:
        """Project `node` (whose value is `ids`, at most max_fanout of them) one more hop: uniformly among the
        (relation, direction) steps that every entity of `ids` has (each fanned-out call must be a valid lookup:
        enums list only entities with facts), that do not walk straight back the way `ids` came, whose kinds fit
        (`walk_co.StepKinds.fit`), whose result has 1 to `hi` entities, is no set the plan already passed through
        and holds none of the plan's named entities (circular questions: the answer is a step of their own wording
        or a name they give); None when there is none."""
        hi = hi or self.cfg.max_answers
        if not 1 <= len(ids) <= self.cfg.max_fanout:
            return None
        kids = node.children if isinstance(node, SetOp) else (node,)
        came = {(k.rel, k.inverse) for k in kids if isinstance(k, Project)}
        # straight back along a relation's mirror too (the prizes X won, then their laureates: `co` says that one)
        came |= {(m, not inv) for rel, inv in list(came) for m in self._mirrored(rel)}
        have = kind_out(self.lex, node)
        passed = passed_through(self.kg, node)
        named = set(anchors(node))
        # values (entities with no facts of their own: a rating, a tag, a year) are walked on only in the role they
        # were reached in: "good" reached as a rating is no tag ("the films tagged with X's imdb rating")
        role = self.kinds.role(node.rel, not node.inverse) if isinstance(node, Project) and self._values(ids) else None
        steps = []
        for rel, inv in self.options.get(min(ids), ()):  # the steps of any one member hold all shared ones
            if (rel, not inv) in came or not self.kinds.fit(have, ids, rel, inv):
                continue
            if role is not None and rel != node.rel and self.kinds.role(rel, inv) != role:
                continue
            adj = self.adj(rel, inv)
            if all(i in adj for i in ids) and 1 <= len(got := self.project_ids(rel, inv, ids)) <= hi:
                # circular: "the planet of the others from Bib Fortuna's planet", or an answer that holds a name
                # of the question ("the siblings of the siblings of Erika Mann" are Erika Mann and ...)
                if frozenset(got) not in passed and named.isdisjoint(got) and one_kind(self.lex, got):
                    steps.append((rel, inv))
        if not steps:
            return None
        rel, inv = rng.choice(steps)
        return Project(rel, node, inv)

    def _values(self, ids) -> bool:
        """Whether every entity of `ids` is a value: it is the subject of no relation (a tag, a rating, a year)."""
        return all(not any(not inv for _, inv in self.options.get(e, ())) for e in ids)

    def _mirrored(self, rel: str) -> tuple[str, ...]:
        """The relations that say `rel`'s pairs the other way round (`Wording.mirror`, either side)."""
        if self._mirrors is None:
            ws = self.lex.relations.items()
            self._mirrors = {i: tuple(sorted({w.mirror} - {""} | {j for j, v in ws if v.mirror == i})) for i, w in ws}
        return self._mirrors.get(rel, ())

    def joins(self, node: Node, rel: str, inverse: bool) -> bool:
        """Whether a 1p branch along `rel` gives entities of the kind `node` gives (sets of two kinds that meet in a
        node standing for both, a rating and a tag "good", are never intersected or subtracted)."""
        return kind_out(self.lex, node) in self.kinds.ends(rel, inverse)

    def _joining(self, node: Node) -> frozenset[tuple[str, bool]]:
        """The (relation, inverse) steps of the walker's relations that `joins` `node` (those of `incoming`)."""
        return self.kinds.ending_in(kind_out(self.lex, node))

    def branches_to(self, rng: random.Random, k: int) -> tuple[int, list[Project]] | None:
        """k distinct 1p branches (different anchors) whose results all contain one target entity."""
        for _ in range(self.cfg.tries):
            t = self.target(rng)
            if t is None:
                return None
            opts = self.incoming[t]
            picked: list[Project] = []
            used: set[int] = {t}
            for _ in range(4 * k):
                r, inv, a = rng.choice(opts)
                if a in used or len(self.adj(r, inv)[a]) > self.cfg.max_set or (picked and not self.joins(picked[0], r, inv)):
                    continue
                picked.append(Project(r, Anchor(a), inv))
                used.add(a)
                if len(picked) == k:
                    return t, picked
        return None

    # -- shapes ------------------------------------------------------------------------------------------
    def sample(self, shape: str, rng: random.Random) -> Node | None:
        """A plan of the given shape (one of WALK_SHAPES), or None when none was found in `tries` attempts."""
        return self.samplers[shape](rng)

    def _chain(self, rng, hops: int):
        """A chain of `hops` projections, its first hop drawn as `one_hop` (backwards with `chain_inverse_prob`); a
        start that leads nowhere is redrawn (`tries` times)."""
        for _ in range(self.cfg.tries):
            node = self.one_hop(rng, hi=self.cfg.max_fanout if hops > 1 else None, back=self.cfg.chain_inverse_prob)
            if node is None:
                return None
            if not node.inverse and where_it_is(self.lex, node.rel):
                continue  # "the laureates born in the city that the University of Pittsburgh is in": readers said
                # a person would name the city
            for h in range(1, hops):
                last, ids = h == hops - 1, execute(self.kg, node)
                for _ in range(3):  # a step that makes the chain odd is drawn again (a few times) before the start
                    step = self.extend(rng, node, ids, hi=None if last else self.cfg.max_fanout)
                    if step is None or not odd_chain(self.kg, self.lex, step):
                        break
                node = step
                if node is None:
                    break
            if node is not None and not odd_chain(self.kg, self.lex, node):
                return node  # not "Which city are universities in Cleveland, OH in?" (two steps of where things are)
        return None

    def _inter(self, rng, k: int, hi: int | None = None):
        hi = hi or self.cfg.max_answers
        for _ in range(self.cfg.tries):
            got = self.branches_to(rng, k)
            if got is None:
                return None
            _, branches = got
            if odd_intersection(self.lex, branches) or linked(self, branches):
                continue
            sets = [execute(self.kg, b) for b in branches]
            inter = frozenset.intersection(*sets)
            if 1 <= len(inter) <= hi and all(len(s) > len(inter) for s in sets):
                return SetOp("intersection", tuple(branches))
        return None

    def _ip(self, rng):
        return self._then_extend(rng, lambda: self._inter(rng, 2, hi=self.cfg.max_fanout), 10)

    def _pi(self, rng):
        for _ in range(self.cfg.tries):
            two_hop = self._chain(rng, 2)
            if two_hop is None:
                return None
            ids = execute(self.kg, two_hop)
            if len(ids) > self.cfg.max_set:
                continue
            t = rng.choice(sorted(ids))
            joins = self._joining(two_hop)
            opts = [o for o in self.incoming.get(t, ()) if o[2] not in (two_hop.child.child.eid, t) and o[:2] in joins]
            if not opts:
                continue
            r, inv, a = rng.choice(opts)
            other = Project(r, Anchor(a), inv)
            other_ids = execute(self.kg, other)
            inter = ids & other_ids
            if (
                len(other_ids) <= self.cfg.max_set
                and 1 <= len(inter) <= self.cfg.max_answers
                and (len(ids) > len(inter) or len(other_ids) > len(inter))
            ):
                return SetOp("intersection", (two_hop, other))
        return None

    def _union(self, rng, hi: int | None = None):
        return union(self, rng, hi or self.cfg.max_answers)

    def _up(self, rng):
        return self._then_extend(rng, lambda: self._union(rng, hi=self.cfg.max_fanout))

    def _cop(self, rng):
        return self._then_extend(rng, lambda: sample_co(self, rng, hi=self.cfg.max_fanout), 10)

    def _then_extend(self, rng, first, rounds: int = 5):
        """`first()` (a set of at most max_fanout entities) projected one more hop; a set that leads nowhere is
        redrawn (`rounds` times)."""
        return redrawn(lambda: (node := first()) and self.extend(rng, node, execute(self.kg, node)), rounds)

    def _difference(self, rng, include: Node | None, hi: int | None = None) -> SetOp | None:
        """include minus a 1p branch that removes some but not all of include (leaving 1 to `hi` entities, default
        max_answers); a lookup from a name loses its members by the same relation from another name."""
        hi = hi or self.cfg.max_answers
        if include is None:
            return None
        inc = execute(self.kg, include)
        if not 2 <= len(inc) <= self.cfg.max_set:
            return None
        top, joins, members = topic(include), self._joining(include), sorted(inc)
        same = lookup_from_name(include)
        w = self.lex.relations.get(same[0]) if same else None
        if w is not None and (not w.multi or (w.where and not same[1]) or (w.form == "noun" and same[1])):
            return None  # "the city A was born in but B was not" (one place each); "whose pilot is A but not B"
        branches: dict[int, list] = {}  # member -> its branches: a member drawn again is not filtered again
        for _ in range(self.cfg.tries):
            m = rng.choice(members)
            opts = branches.get(m)
            if opts is None and same:  # the anchors of one step: looked up by it, not filtered from all
                r0, i0 = same
                opts = branches[m] = [(r0, i0, a) for a in self.incoming_by[m].get(same, ()) if a != top and a not in inc]
            elif opts is None:
                opts = branches[m] = [o for o in self.incoming.get(m, ()) if o[2] != top and o[2] not in inc and o[:2] in joins]
            for r, inv, a in rng.sample(opts, min(len(opts), 8)):  # a few branches through m, not just one
                exc_ids = self.adj(r, inv)[a]  # the branch's value (a sorted tuple of distinct ids), not copied
                if len(exc_ids) <= self.cfg.max_set and 1 <= len(inc.difference(exc_ids)) <= hi:
                    if same and not self._share_small(top, a, r):
                        continue  # only between names that share a small neighbour, not "Which record label
                        # does Selena Gomez have that Brian May doesn't?"
                    return SetOp("difference", (include, Project(r, Anchor(a), inv)))
        return None

    def _share_small(self, a: int, b: int, skip: str) -> bool:
        """`union.share_small`, remembered: a difference's sampler asks it of the same pairs again and again (~7% of a
        run's time on the bundled graph before). A graph fact, so the answers never change; at most SHARE_MEMO."""
        key = (a, b, skip)
        got = self._shared.get(key)
        if got is None:
            if len(self._shared) >= SHARE_MEMO:
                self._shared.clear()
            got = self._shared[key] = share_small(self, a, b, skip)
        return got

    def _2in(self, rng):
        return redrawn(lambda: self._difference(rng, self.one_hop(rng, lo=2, hi=self.cfg.max_set)))

    def _3in(self, rng):
        return redrawn(lambda: self._difference(rng, self._inter(rng, 2, hi=self.cfg.max_set)))

    def _inp(self, rng):
        hi = self.cfg.max_fanout
        return self._then_extend(rng, lambda: self._difference(rng, self.one_hop(rng, 2, self.cfg.max_set), hi), 20)  # 10: 21% failed

    def _pin(self, rng):
        return redrawn(lambda: self._difference(rng, self._chain(rng, 2)), 10)

    def _pni(self, rng):
        """A 1p set minus a two-hop chain: the chain first, then a 1p branch that overlaps it."""
        for _ in range(self.cfg.tries):
            chain = self._chain(rng, 2)
            if chain is None:
                return None
            exc = execute(self.kg, chain)
            if len(exc) > self.cfg.max_set:
                continue
            m = rng.choice(sorted(exc))
            joins = self._joining(chain)
            opts = [o for o in self.incoming.get(m, ()) if o[2] != chain.child.child.eid and o[:2] in joins]
            for r, inv, a in rng.sample(opts, min(len(opts), 8)):  # a few branches through m, not just one
                include = Project(r, Anchor(a), inv)
                inc = execute(self.kg, include)
                if len(inc) <= self.cfg.max_set and 1 <= len(inc - exc) <= self.cfg.max_answers:
                    return SetOp("difference", (include, chain))
        return None

    def _count(self, rng):
        return (p := self.one_hop(rng, lo=2, hi=self.cfg.max_set)) and Count(p)
