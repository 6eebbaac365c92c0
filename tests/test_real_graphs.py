"""Synthesis on real published graphs (tests/data/real, see its README for sources and licences) and on the bundled
ones, with a language lint (`checks.lint_row`) over every question and answer.

The hygiene rules of kg2tool.graph (no raw IRI, no opaque or numeric id as a name, no axiom predicate as a tool,
TriG loads) are asserted, and so are the wording rules (`checks.WORDING_RULES`: "the has", "of of", "the entities
whose") and the language lint of tests/lint.py (agreement, one final mark, length, machine phrases) on every row."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from checks import HYGIENE_RULES, WORDING_RULES, check_row, lint_row
from conftest import EXAMPLE
from lint import language_problems, schema_problems

from kg2tool.graph.build import load_graph
from kg2tool.graph.hygiene import is_opaque_id
from kg2tool.graph.model import AXIOM_PREDICATES, PredicateRules
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet

REAL = Path(__file__).parent / "data" / "real"
ROOT = Path(__file__).parent.parent
GRAPHS = {
    "nobel": [REAL / "nobelprize.nt.gz"],
    "starwars": [REAL / "swapi-starwars.ttl.gz"],
    "fibo": [REAL / "fibo-financial-institution-examples.rdf.gz"],
    "schrijverskabinet": [REAL / "schrijverskabinet.trig.gz"],
    "codex": [REAL / "wiki-codex-s.ttl.gz", REAL / "wiki-codex-s-types.ttl.gz"],
    "wiki": [Path(EXAMPLE)],
    "company": [ROOT / "examples" / "company.ttl"],
}


@pytest.fixture(scope="module")
def made():
    """name -> (graph, rows of one shard of ~100 kept conversations), made once per graph on first use."""
    cache: dict = {}

    def make(name: str):
        if name not in cache:
            kg = load_graph(GRAPHS[name])
            synth = Synthesizer(kg, SynthConfig(n=100, seed=0, min_support=3, shard_size=160))
            rows, _ = synth.shard(0)
            cache[name] = (kg, synth.ts, rows)
        return cache[name]

    return make


@pytest.mark.parametrize("name", GRAPHS)
def test_real_graph_rows_verify_and_pass_the_hygiene_lint(name, made):
    kg, ts, rows = made(name)
    assert len(rows) >= 60, len(rows)
    fresh = ToolSet.from_graph(load_graph(GRAPHS[name]), min_support=3)
    problems = Counter()
    for row in rows:
        assert check_row(row, fresh) == [], row["messages"]
        for p in lint_row(row, HYGIENE_RULES):
            problems[p] += 1
        for ans in row["answers"]:
            assert not (isinstance(ans, str) and is_opaque_id(ans) and kg.resolve(ans) is not None), ans
    assert not problems, problems.most_common(5)
    # no schema/axiom predicate became a tool; no display name holds an IRI or is an opaque id of an unlabeled node
    assert not {s.target for s in ts.specs.values()} & AXIOM_PREDICATES
    assert not [n for n in kg.names if "://" in n or "<" in n and ">" in n]


@pytest.mark.parametrize("name", GRAPHS)
def test_real_graph_wording_lint(name, made):
    kg, _, rows = made(name)
    problems = Counter(p.split(":")[0] for row in rows for p in lint_row(row, WORDING_RULES))
    assert not problems, dict(problems)
    language = [p for row in rows for p in language_problems(row)]
    assert not language, language[:5]
    # no dotted path, id, code word or placeholder kind in the wording; a graph's own names are data (FIBO labels a
    # city "New York (BusinessCentersIndividuals)")
    names = " ".join(kg.names)
    schema = [p for row in rows for p in schema_problems(row) if p.split("'")[1] not in names]
    assert not schema, schema[:5]


def test_real_graphs_hygiene_at_load(made):
    """What each graph's conventions give after loading: the cases observed on them, pinned."""
    nobel = made("nobel")[0]
    assert "http://www.w3.org/2002/07/owl#sameAs" not in nobel.relations
    work = nobel.attributes["http://data.nobelprize.org/terms/work"]  # PubMed records: URLs, not "13951335"
    assert work.kind == "string" and all(v.startswith("http") for vals in work.values.values() for v in vals)
    golding = [n for n in nobel.names if n.startswith("William Golding")]
    assert golding and not any(c.isdigit() for n in golding for c in n), golding
    starwars = made("starwars")[0]
    assert not any("-" in e.rsplit("/", 1)[-1] and e.rsplit("/", 1)[-1].startswith("Q") for e in starwars.entities)
    # statement-id nodes: film roles and award records are folded (kg2tool.graph.reify); wikidataLink (a link by
    # its name) keeps the Wikidata IRIs as URLs, so no opaque node is left to drop
    assert starwars.stats.reified_nodes_folded > 500
    assert starwars.attributes["https://swapi.co/vocabulary/wikidataLink"].kind == "string"
    assert starwars.attributes["https://swapi.co/vocabulary/image"].kind == "string"
    fibo = made("fibo")[0]
    assert "United States Of America" in fibo.names  # an imported individual without a label: words, not an IRI
    trig = made("schrijverskabinet")[0]  # TriG, gzipped
    assert len(trig) > 1000 and trig.stats.blank_nodes_named > 0


@pytest.mark.slow
def test_store_gives_the_same_dataset_on_real_graphs(tmp_path):
    """In memory and --store (pyoxigraph reads TriG too) write byte-identical conversations, hygiene rules included
    (Nobel: links and opaque nodes). Star Wars is left out: pyoxigraph refuses its language tags longer than eight
    characters (`@be-tarask`-style subtags), a limit of the store's parser."""
    pytest.importorskip("pyoxigraph")
    from kg2tool.cli import main

    for name in ("schrijverskabinet", "fibo", "nobel"):
        outs = []
        for store in (None, tmp_path / f"{name}.store"):
            out = tmp_path / f"{name}-{'store' if store else 'mem'}"
            args = ["synth", "--out", str(out), "-n", "60", "--min-support", "3", "--no-progress"]
            args += [x for g in GRAPHS[name] for x in ("--graph", str(g))] + (["--store", str(store)] if store else [])
            assert main(args) == 0
            outs.append(out)
        for f in sorted(p.relative_to(outs[0]) for p in (outs[0] / "sft").rglob("*.parquet")):
            assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f
    # the executor's view of shared names (ids_named) is the same in memory and in the store
    from kg2tool.graph.store import open_store

    mem = load_graph(GRAPHS["nobel"])
    disk = open_store(tmp_path / "nobel.store", GRAPHS["nobel"], log=lambda msg: None)
    shared = sorted(lab for lab, n in Counter(mem.labels).items() if n > 1)[:40]
    assert len(shared) > 5
    for text in shared + ["naples", "William Golding", "no such name"]:
        assert [mem.name(i) for i in mem.ids_named(text)] == [disk.name(i) for i in disk.ids_named(text)], text


def test_predicate_flags_reach_the_graph_and_are_recorded(tmp_path):
    """--include-predicate makes owl:sameAs a relation, --exclude-predicate drops one; both land in
    kg2tool_config.yaml and the card's command."""
    from kg2tool.cli import main
    from kg2tool.common.config import read_resolved, recorded_predicates

    owl_same, city = "http://www.w3.org/2002/07/owl#sameAs", "http://data.nobelprize.org/terms/city"
    graph = tmp_path / "g.ttl"
    lines = ["@prefix ex: <http://ex.org/> . @prefix owl: <http://www.w3.org/2002/07/owl#> ."]
    for i in range(8):
        lines.append(f'ex:p{i} <http://www.w3.org/2000/01/rdf-schema#label> "Person {i}" ; ex:knows ex:p{(i + 1) % 8} ;'
                     f' owl:sameAs ex:q{i} ; <{city}> ex:c{i % 2} .')  # fmt: skip
        lines.append(f'ex:q{i} <http://www.w3.org/2000/01/rdf-schema#label> "Twin {i}" .')
    graph.write_text("\n".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    args = ["synth", "--graph", str(graph), "--out", str(out), "-n", "20", "--no-progress", "--min-support", "2"]
    assert main(args + ["--include-predicate", owl_same, "--exclude-predicate", city]) == 0
    options = read_resolved(out)["options"]
    assert options["include_predicate"] == [owl_same] and options["exclude_predicate"] == [city]
    assert recorded_predicates(out) == ([owl_same], [city])  # for eval/train to load the graph the same way
    assert f"--include-predicate '{owl_same}' --exclude-predicate {city}" in read_resolved(out)["card_command"]
    kg = load_graph([graph], predicates=PredicateRules(frozenset({owl_same}), frozenset({city})))
    assert owl_same in kg.relations and city not in kg.relations
    assert owl_same not in load_graph([graph]).relations
    bad = ["synth", "--graph", str(graph), "--out", str(tmp_path / "bad"), "--include-predicate", city]
    assert main(bad + ["--exclude-predicate", city]) == 2 and not (tmp_path / "bad").exists()
