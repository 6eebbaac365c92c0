"""Blank nodes named by their content (kg2tool.graph.blank): the same IRIs whatever the parse, parts of their
owner, values of their owner, provenance dropped; the in-memory load and the on-disk store agree."""

from __future__ import annotations

import random

import pytest
import rdflib

from kg2tool.graph.blank import GENID, blank_names, is_blank_iri, literal_key
from kg2tool.graph.build import build_graph, load_graph
from kg2tool.graph.hygiene import is_opaque_id, local_part

DATED = """
:hadrian rdfs:label "Hadrian" ; :death [ :date "138" ; :place :baiae ] ; :friend [ rdfs:label "Antinous" ] .
:trajan rdfs:label "Trajan" ; :friend :hadrian ; :death [ :date "117" ; :place :selinus ] .
:baiae rdfs:label "Baiae" . :selinus rdfs:label "Selinus" .
:edessa rdfs:label "Edessa" ; dct:description [ rdfs:label "a city of upper Mesopotamia" ; dct:license :ccby ] .
:edessa :partOf :osrhoene . :osrhoene rdfs:label "Osrhoene" .
:edessa <http://www.w3.org/ns/prov#wasGeneratedBy> [ <http://www.w3.org/ns/prov#atTime> "2015-08-22" ;
    <http://www.w3.org/ns/prov#wasAssociatedWith> :editor ] .
:editor rdfs:label "An Editor" ; :friend :trajan .
"""


PREFIXES = (
    "@prefix : <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "@prefix dct: <http://purl.org/dc/terms/> .\n"
)


def turtle_file(tmp_path):
    path = tmp_path / "g.ttl"
    path.write_text(PREFIXES + DATED, encoding="utf-8")
    return path


def _names(triples):
    def text(t):
        if isinstance(t, rdflib.Literal):
            return literal_key(str(t), t.language, str(t.datatype) if t.datatype else None)
        return t if isinstance(t, rdflib.BNode) else str(t)

    held = [(text(s), str(p), text(o)) for s, p, o in triples if isinstance(s, rdflib.BNode) or isinstance(o, rdflib.BNode)]
    things = {str(p) for s, p, o in triples if isinstance(o, rdflib.URIRef) and not isinstance(s, rdflib.BNode)}
    return blank_names(held, lambda t: t if isinstance(t, rdflib.BNode) else None, things.__contains__)


def test_the_same_graph_gives_the_same_iris_whatever_the_parse_and_order(tmp_path):
    path = turtle_file(tmp_path)
    seen = []
    for order in range(3):
        g = rdflib.Graph().parse(path)  # fresh random blank-node ids each time
        triples = list(g)
        random.Random(order).shuffle(triples)
        names = _names(triples)
        seen.append((sorted(names.iris.values()), len(names.values), len(names.dropped)))
    assert seen[0] == seen[1] == seen[2]
    kgs = [load_graph([path]) for _ in range(2)]
    assert kgs[0].entities == kgs[1].entities


def test_a_blank_node_with_one_owner_is_a_part_of_it_and_folds_into_it(tmp_path):
    kg = load_graph([turtle_file(tmp_path)])
    parts = [iri for iri in kg.entities if is_blank_iri(iri)]
    # Antinous is a thing (`friend` links things elsewhere), named by its label, a part of Hadrian's IRI
    (antinous,) = parts
    assert kg.labels[kg.index[antinous]] == "Antinous" and antinous.startswith("http://example.org/hadrian#")
    assert is_opaque_id(local_part(antinous))
    # the deaths are folded: their places become a composed relation of the emperors; a blank node's own literal
    # values (the dates) stay with it, no attribute of its owner
    death_place = [r for r in kg.relations.values() if "place" in r.label]
    assert death_place and {kg.labels[s] for s in death_place[0].forward} == {"Hadrian", "Trajan"}
    assert not any("date" in a.label for a in kg.attributes.values())


def test_a_value_node_gives_its_text_to_its_owner_and_provenance_is_dropped(tmp_path):
    kg = load_graph([turtle_file(tmp_path)])
    edessa = kg.index["http://example.org/edessa"]
    assert kg.attributes["http://purl.org/dc/terms/description"].values == {edessa: ("a city of upper Mesopotamia",)}
    assert kg.stats.blank_value_nodes == 1
    assert not any("prov#" in iri or "associated" in r.label for iri, r in kg.relations.items())
    assert not any("2015" in str(a.values) for a in kg.attributes.values())
    assert all(not iri.startswith(GENID) for iri in kg.entities)


def test_an_owner_iri_with_a_fragment_takes_a_slash_and_a_cycle_of_parts_has_no_owner():
    ex = rdflib.Namespace("http://ex.org/onto#")
    g = rdflib.Graph()
    a, b, c = rdflib.BNode(), rdflib.BNode(), rdflib.BNode()
    g.add((ex.thing, ex.part, a))
    g.add((a, ex.size, rdflib.Literal(3)))
    g.add((b, ex.next, c))
    g.add((c, ex.next, b))
    names = _names(list(g))
    assert names.iris[a].startswith("http://ex.org/onto#thing/") and is_blank_iri(names.iris[a])
    assert names.iris[b].startswith(GENID) and names.iris[c].startswith(GENID)


def test_a_long_rdf_list_gets_short_iris():
    ex = rdflib.Namespace("http://ex.org/")
    g = rdflib.Graph()
    items = [ex[f"item{k}"] for k in range(3000)]
    rdflib.collection.Collection(g, rdflib.BNode(), items)
    g.add((ex.owner, ex.members, next(iter(g.subjects(rdflib.RDF.first, items[0])))))
    names = _names(list(g))
    assert len(names.iris) == 3000 and max(map(len, names.iris.values())) < 400


def test_build_graph_counts_named_and_value_nodes():
    ex = rdflib.Namespace("http://ex.org/")
    g = rdflib.Graph()
    g.add((ex.a, ex.knows, ex.b))
    g.add((ex.a, ex.knows, rdflib.BNode("x")))
    g.add((rdflib.BNode("x"), rdflib.RDFS.label, rdflib.Literal("Xavier")))
    g.add((ex.a, ex.motto, rdflib.BNode("m")))
    g.add((rdflib.BNode("m"), rdflib.RDF.value, rdflib.Literal("carpe diem")))
    kg = build_graph(g)
    assert (kg.stats.blank_nodes_named, kg.stats.blank_value_nodes) == (1, 1)
    assert "Xavier" in kg.names
    assert kg.attributes["http://ex.org/motto"].values == {kg.index["http://ex.org/a"]: ("carpe diem",)}
    assert kg.stats.triples == 5


def test_the_store_names_blank_nodes_as_memory_does(tmp_path):
    pytest.importorskip("pyoxigraph", reason="the on-disk store needs the `store` extra (pyoxigraph)")
    from test_store import quiet, same_graph

    from kg2tool.graph.store import open_store

    a = turtle_file(tmp_path)
    b = tmp_path / "b.nt"  # a second file that reuses a blank-node label: its own node
    b.write_text(
        '_:b1 <http://www.w3.org/2000/01/rdf-schema#label> "Sabina" .\n'
        "<http://example.org/hadrian> <http://example.org/spouse> _:b1 .\n"
        "<http://example.org/trajan> <http://example.org/spouse> <http://example.org/plotina> .\n"
        '<http://example.org/plotina> <http://www.w3.org/2000/01/rdf-schema#label> "Plotina" .\n'
        '_:b1 <http://example.org/born> "83"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',
        encoding="utf-8",
    )
    for files in ([a], [a, b]):
        mem = load_graph(files)
        same_graph(mem, open_store(tmp_path / f"st{len(files)}", files, log=quiet))
    assert "Sabina" in mem.names
