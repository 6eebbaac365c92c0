"""The walker (kg2tool.synth.walk.walker, walk_co): every walk shape is sampled within its bounds, sampling is seeded, the
co shapes exclude their topic on every graph, chains rarely fail to sample and never hop across kinds."""

import random
from collections import Counter
from pathlib import Path

import pytest
from checks import check_row
from conftest import EXAMPLE

from kg2tool.graph.build import load_graph
from kg2tool.synth.language.lexicon import derive_lexicon
from kg2tool.synth.plans.tree import Anchor, Project, SetOp, co_parts, execute
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer, gold_answers
from kg2tool.synth.tools.toolset import ToolSet
from kg2tool.synth.walk.walker import ALL_SHAPES, CATEGORY, DIALOGUE_SHAPES, WALK_SHAPES, Walker


def test_walker_samples_every_shape_within_bounds(small_kg):
    ts = ToolSet.from_graph(small_kg)
    walker = Walker(ts)
    rng = random.Random(0)
    for shape in WALK_SHAPES:
        plans = [p for p in (walker.sample(shape, rng) for _ in range(60)) if p is not None]
        # parallel_multiple asks several things about one entity: no one here has two to ask together (people
        # without pronouns and one noun relation each; test_walk_lookups samples it on the bundled graph)
        assert plans or shape == "parallel_multiple", f"no plan for {shape}"
        for p in plans:
            gold, _ = gold_answers(small_kg, p)
            assert gold, shape
            assert len(gold) <= max(
                walker.cfg.max_answers, 4 * walker.cfg.max_answers if shape.startswith("parallel") else 0
            )


def test_walker_is_seeded(small_kg):
    walker = Walker(ToolSet.from_graph(small_kg))
    a = [walker.sample(s, random.Random(5)) for s in WALK_SHAPES]
    b = [walker.sample(s, random.Random(5)) for s in WALK_SHAPES]
    assert a == b


def test_every_walk_shape_has_one_sampler_and_every_shape_a_category(small_kg):
    walker = Walker(ToolSet.from_graph(small_kg))
    assert set(walker.samplers) == set(WALK_SHAPES)
    assert set(ALL_SHAPES) == set(WALK_SHAPES) | set(DIALOGUE_SHAPES) and not set(WALK_SHAPES) & set(DIALOGUE_SHAPES)
    assert set(CATEGORY) >= set(ALL_SHAPES)


# -- co: walked-back relations, the topic excluded -------------------------------------------------------------------
REAL = Path(__file__).parent / "data" / "real"
CO_GRAPHS = {
    "wiki": [Path(EXAMPLE)],
    "nobel": [REAL / "nobelprize.nt.gz"],
    "starwars": [REAL / "swapi-starwars.ttl.gz"],
    "fibo": [REAL / "fibo-financial-institution-examples.rdf.gz"],
    "schrijverskabinet": [REAL / "schrijverskabinet.trig.gz"],
    "codex": [REAL / "wiki-codex-s.ttl.gz", REAL / "wiki-codex-s-types.ttl.gz"],
}


@pytest.mark.parametrize("name", CO_GRAPHS)
def test_co_rows_exclude_the_topic_and_verify_on_every_graph(name):
    kg = load_graph(CO_GRAPHS[name])
    synth = Synthesizer(kg, SynthConfig(n=30, seed=0, min_support=3, shard_size=30, mix={"co": 1.0, "cop": 1.0}))
    rows, stats = synth.shard(0)
    fresh = ToolSet.from_graph(load_graph(CO_GRAPHS[name]), min_support=3)
    co = [r for r in rows if r["pattern"] == "co"]
    assert co and any(r["pattern"] == "cop" for r in rows), (Counter(r["pattern"] for r in rows), stats.dropped)
    for row in rows:
        assert check_row(row, fresh) == [], row["messages"]
        assert row["category"] == "multi_step"
        calls = [c["function"] for m in row["messages"] for c in m.get("tool_calls") or ()]
        excluded = [c["arguments"]["exclude"] for c in calls if c["name"] == "difference"]
        assert excluded == [[row["topic_entity"]]], calls  # one exclusion: the topic, named in the question
        assert row["topic_entity"] in row["messages"][0]["content"]
    for row in co:
        assert row["topic_entity"] not in row["answers"]
        assert calls_of(row)[-1] == "difference" and row["plan"]["of"][1]["name"] == row["topic_entity"]


def calls_of(row) -> list[str]:
    return [c["function"]["name"] for m in row["messages"] for c in m.get("tool_calls") or ()]


def test_co_plan_walks_the_relation_back_and_drops_only_the_topic(small_kg):
    walker = Walker(ToolSet.from_graph(small_kg))
    rng = random.Random(2)
    plans = [p for p in (walker.sample("co", rng) for _ in range(40)) if p is not None]
    assert len(plans) >= 30
    for plan in plans:
        first, back, x = co_parts(plan)
        shared = execute(small_kg, first)
        others = execute(small_kg, plan)
        assert x.eid not in others and others
        for e in others:  # each answer has the relation to one of the topic's neighbours
            assert set(walker.adj(back.rel, first.inverse).get(e, ())) & shared
        assert others | {x.eid} == execute(small_kg, back) | {x.eid}


CHAINS = ("2p", "3p", "ip", "pi", "up", "inp", "pin", "pni", "co", "cop")


def test_chain_shapes_fail_to_sample_under_30_percent_on_the_bundled_graph(example_kg):
    mix = {s: 1.0 for s in CHAINS}
    synth = Synthesizer(example_kg, SynthConfig(seed=0, shard_size=400, mix=mix))
    _, stats = synth.shard(0)
    for shape in CHAINS:
        failed = stats.dropped_by_shape[(shape, "sampling_failed")]
        assert stats.tried[shape] >= 20 and failed / stats.tried[shape] < 0.3, (shape, failed, stats.tried[shape])


def test_fanout_bounds_the_calls_of_a_chain(example_kg):
    cfg = SynthConfig(seed=1, shard_size=120, mix={"3p": 1.0, "cop": 1.0})
    cfg.walk.max_fanout = 2
    rows, _ = Synthesizer(example_kg, cfg).shard(0)
    assert rows
    for row in rows:  # a lookup, then per hop at most max_fanout lookups and a union (cop: and the difference)
        assert row["num_calls"] <= 1 + 2 * (2 + 1) + (row["pattern"] == "cop"), row["messages"]
        for m in row["messages"]:
            assert len(m.get("tool_calls") or ()) <= 2


# A rating and a tag are one node "good"; a year and a film are both named "2010"; the films are typed.
PLANTED = """@prefix ex: <http://example.org/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:rating rdfs:label "rating" . ex:tag rdfs:label "tag" . ex:director rdfs:label "director" .
ex:year rdfs:label "release year" . ex:born rdfs:label "place of birth" . ex:Film rdfs:label "Film" .
ex:good rdfs:label "good" . ex:bad rdfs:label "bad" . ex:great rdfs:label "great" .
ex:funny rdfs:label "funny" . ex:scary rdfs:label "scary" . ex:long rdfs:label "long" .
ex:y2010 rdfs:label "2010" . ex:y2011 rdfs:label "2011" . ex:f2010 rdfs:label "2010" ; rdf:type ex:Film ;
    ex:rating ex:good ; ex:director ex:d0 ; ex:year ex:y2011 .
"""


def planted_graph() -> str:
    lines = [PLANTED]
    for i in range(4):
        lines.append(f'ex:d{i} rdfs:label "Director {i}" ; ex:born ex:c{i % 2} .')
        lines.append(f'ex:c{i} rdfs:label "City {i}" .')
    for i in range(12):
        rating, year = ("good", "bad", "great")[i % 3], ("y2010", "y2011")[i % 2]
        lines.append(f'ex:f{i} rdfs:label "Film {i}" ; rdf:type ex:Film ; ex:rating ex:{rating} ; '
                     f"ex:director ex:d{i % 4} ; ex:year ex:{year} .")  # fmt: skip
        lines.append(f'ex:b{i} rdfs:label "Book {i}" ; ex:tag ex:{("good", "funny", "scary", "long")[i % 4]} .')
    return "\n".join(lines) + "\n"


# What the entities at each end of a planted relation really are: (label, walked backwards) -> role.
ROLE = {("rating", False): "rating", ("tag", False): "tag", ("release year", False): "year",
        ("director", False): "person", ("place of birth", False): "city", ("place of birth", True): "person"}
ROLE |= {(r, True): "book" if r == "tag" else "film" for r in ("rating", "tag", "release year", "director")}


def ends(kg, node) -> set[str]:
    """The roles of a node's entities (from its last projections)."""
    if isinstance(node, Project):
        return {ROLE[(kg.relations[node.rel].label, node.inverse)]}
    return {r for c in getattr(node, "children", ()) if not isinstance(c, Anchor) for r in ends(kg, c)}


def meeting(kg, node) -> set[tuple[str, str]]:
    """Every pair of roles that meet in a plan: the entities a projection starts from and the role it starts from
    (its relation's other end), and the branches of an intersection or difference."""
    out: set[tuple[str, str]] = set()
    if isinstance(node, Project) and not isinstance(node.child, Anchor):
        start = ROLE[(kg.relations[node.rel].label, not node.inverse)]
        out |= {(a, start) for a in ends(kg, node.child)} | meeting(kg, node.child)
    elif isinstance(node, SetOp):
        kids = [ends(kg, c) for c in node.children if not isinstance(c, Anchor)]
        out |= {(a, b) for i, x in enumerate(kids) for y in kids[i + 1 :] for a in x for b in y}
        out |= {p for c in node.children for p in meeting(kg, c)}
    return out


def test_walks_never_hop_across_kinds_through_a_shared_node_or_name(tmp_path):
    path = tmp_path / "planted.ttl"
    path.write_text(planted_graph(), encoding="utf-8")
    kg = load_graph([path])
    ts = ToolSet.from_graph(kg, min_support=3)
    lex = derive_lexicon(kg)
    rel = {kg.relations[r].label: r for r in kg.relations}
    assert lex.relations[rel["rating"]].object != lex.relations[rel["tag"]].object  # two kinds, one node "good"
    walker = Walker(ts, lexicon=lex)
    rng = random.Random(0)
    meets = Counter()  # (role, role) pairs whose sets meet: a hop from one to the next, or a set operation
    for shape in ("2p", "3p", "2i", "ip", "pi", "up", "2in", "inp", "pin", "pni", "cop"):
        for _ in range(40):
            plan = walker.sample(shape, rng)
            if plan is not None:
                meets.update(meeting(kg, plan))
    assert len(meets) >= 3 and all(a == b for a, b in meets), meets  # never rating-to-tag, nor year-to-film
    # the same walker does hop through "good" within one kind: the other films rated like one film
    assert walker.sample("co", random.Random(1)) is not None
    rows, _ = Synthesizer(kg, SynthConfig(seed=0, min_support=3, shard_size=60, mix={"co": 1, "2p": 1})).shard(0)
    assert rows and all(check_row(r, ToolSet.from_graph(kg, min_support=3)) == [] for r in rows)


def test_every_condition_of_an_intersection_narrows_its_answer(example_kg):
    """"Which universities are in Sweden and in Stockholm?" asks a condition the other implies: every branch of a
    sampled intersection holds more than the intersection (fails with `any` instead of `all`)."""
    walker = Walker(ToolSet.from_graph(example_kg))
    rng = random.Random(3)
    seen = 0
    for shape in ("2i", "3i"):
        for _ in range(80):
            plan = walker.sample(shape, rng)
            if plan is None:
                continue
            sets = [execute(example_kg, b) for b in plan.children]
            inter = execute(example_kg, plan)
            assert all(len(s) > len(inter) for s in sets), plan
            seen += 1
    assert seen > 100


def test_a_union_names_two_related_entities_where_the_graph_has_them(example_kg):
    """The second name of a union shares a neighbour with the first by another relation where one is found (two
    people of one country): such pairs are more common than among random pairs of the same relation's subjects,
    whose neighbours are counted the same way; neither name is in the answer."""
    walker = Walker(ToolSet.from_graph(example_kg))
    rng, base_rng = random.Random(5), random.Random(6)

    def near(e, rel):
        return {(r, v) for r, inv in walker.options.get(e, ()) if r != rel for v in walker.adj(r, inv).get(e, ())
                if len(walker.adj(r, not inv).get(v, ())) <= 20}  # a rare shared value, not "English"  # fmt: skip

    related = baseline = total = 0
    for _ in range(80):
        plan = walker.sample("2u", rng)
        if plan is None:
            continue
        (a, b), rel = (k.child.eid for k in plan.children), plan.children[0].rel
        assert {a, b}.isdisjoint(execute(example_kg, plan))
        related += bool(near(a, rel) & near(b, rel))
        c = base_rng.choice(walker.sources[(rel, plan.children[0].inverse)])
        baseline += bool(near(a, rel) & near(c, rel))
        total += 1
    assert total > 50 and related > baseline + 0.1 * total, (related, baseline, total)  # measured: 26 vs 14 of 80
