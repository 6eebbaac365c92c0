"""Shared fixtures: small graphs written by the tests themselves (no downloads)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "wiki.ttl"
sys.path.insert(0, str(Path(__file__).resolve().parent))

# A small typed graph: people, cities, countries, films; numeric and date attributes; a shared label; a blank
# node; an ill-typed literal; a label with template syntax; an unlabeled IRI.
SMALL_TTL = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .

ex:bornIn rdfs:label "place of birth"@en ; schema:description "where the person was born"@en .
ex:livesIn rdfs:label "residence"@en .
ex:country rdfs:label "country"@en .
ex:actedIn rdfs:label "cast member of"@en .
ex:friend rdfs:label "friend"@en .
ex:population rdfs:label "population"@en .
ex:founded rdfs:label "inception"@en .
ex:height rdfs:label "height"@en .
"""


def make_small_graph(n_people: int = 40) -> str:
    """Deterministic synthetic graph text with enough structure for every shape."""
    lines = [SMALL_TTL]
    cities = [f"City{i}" for i in range(8)]
    countries = ["Atlantis", "Borduria", "Carpania"]
    for i, c in enumerate(cities):
        lines.append(f'ex:{c} rdfs:label "{c.replace("City", "City ")}"@en ; ex:country ex:{countries[i % 3]} ;')
        lines.append(f'    ex:population "{1000 * (i + 1) + 7 * i}"^^xsd:integer ;')
        lines.append(f'    ex:founded "{1800 + 13 * i}-0{1 + i % 9}-1{i % 9}"^^xsd:date .')
    for c in countries:
        lines.append(f'ex:{c} rdfs:label "{c}"@en ; rdfs:label "{c.upper()}"@de ; skos:altLabel "{c} Republic"@en .')
    films = [f"Film{i}" for i in range(6)]
    for f in films:
        lines.append(f'ex:{f} rdfs:label "The {f}"@en .')
    for i in range(n_people):
        name = f"Person {i}" if i != 7 else "{{ 7*7 }} <b>Robert'); DROP TABLE--</b>"
        lines.append(f'ex:P{i} rdfs:label "{name}"@en ; schema:description "person number {i}"@en ;')
        lines.append(
            f"    ex:bornIn ex:{cities[i % 8]} ; ex:livesIn ex:{cities[(i * 3) % 8]} , ex:{cities[(i * 5 + 1) % 8]} ;"
        )
        lines.append(f"    ex:actedIn ex:{films[i % 6]} , ex:{films[(i * 7 + 2) % 6]} ;")
        lines.append(f"    ex:friend ex:P{(i + 1) % n_people} , ex:P{(i * 3 + 5) % n_people} ;")
        lines.append(f'    ex:height "{150 + (i * 37) % 50}.5"^^xsd:decimal .')
    # duplicate label, different descriptions
    lines.append('ex:P1000 rdfs:label "Person 1"@en ; schema:description "another person"@en ; ex:bornIn ex:City1 .')
    # blank node and ill-typed literal
    lines.append('ex:P0 ex:friend [ rdfs:label "anonymous" ] .')
    lines.append('ex:P2 ex:height "tall"^^xsd:decimal .')
    # unlabeled IRI
    lines.append("ex:P3 ex:livesIn ex:Old_Town .")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="session")
def small_graph_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("graphs") / "small.ttl"
    path.write_text(make_small_graph(), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def small_kg(small_graph_path):
    from kg2tool.graph.build import load_graph

    return load_graph([small_graph_path])


@pytest.fixture(scope="session")
def example_kg():
    from kg2tool.graph.build import load_graph

    return load_graph([EXAMPLE])


@pytest.fixture(scope="session")
def swapi_kg():
    """The bundled Star Wars graph (`tests/data/real/swapi-starwars.ttl.gz`), loaded once for the wording and walk tests."""
    from kg2tool.graph.build import load_graph

    return load_graph([ROOT / "tests" / "data" / "real" / "swapi-starwars.ttl.gz"])


@pytest.fixture(scope="session")
def nobel_kg():
    """The bundled Nobel graph (`tests/data/real/nobelprize.nt.gz`), loaded once for the wording and walk tests."""
    from kg2tool.graph.build import load_graph

    return load_graph([ROOT / "tests" / "data" / "real" / "nobelprize.nt.gz"])
