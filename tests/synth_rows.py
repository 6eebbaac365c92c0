"""Helpers shared by the tests of what the walker samples and how its questions are said (`tests/test_walk_*.py`,
`tests/test_wording_*.py`, `tests/test_shape_mix.py`)."""

from __future__ import annotations

from pathlib import Path

from kg2tool.synth.plans.tree import Project

REAL = Path(__file__).parent / "data" / "real"


def question(row) -> str:
    return row["messages"][0]["content"]


def chain_steps(plan) -> list:
    """The projections of a chain, the last said first (`plan` itself, then its child, ...)."""
    steps = []
    while isinstance(plan, Project):
        steps.append(plan)
        plan = plan.child
    return steps


def plural_nouns(kg, rel: str) -> str:
    from kg2tool.synth.language.lexicon import derive_lexicon

    return derive_lexicon(kg).relations[rel].plural


PREFIXES = """@prefix : <http://x.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix dct: <http://purl.org/dc/terms/> .
"""


def turtle_graph(tmp_path, lines: list[str]):
    """(graph, lexicon) of a small Turtle graph written under `tmp_path`: `lines` after the prefixes `:`
    (http://x.org/), rdfs, skos and dct."""
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon

    ttl = tmp_path / "g.ttl"
    ttl.write_text(PREFIXES + "\n".join(lines) + "\n", encoding="utf-8")
    kg = load_graph(str(ttl))
    return kg, derive_lexicon(kg)
