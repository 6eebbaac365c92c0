"""How places are said: where something happened, where a set of things was released or filmed, the country a
thing is in or a birth took place in (in the singular), places of several kinds. The blind readings behind each
rule: docs/research/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

from synth_rows import question

from kg2tool.graph.build import load_graph
from kg2tool.synth.plans.tree import Anchor, Project, SetOp, execute
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer


def test_a_place_named_by_where_something_happened_is_said_with_where(example_kg):
    """"What is the organization headquartered where Pasolini died?", not "... headquartered in the place where
    Pasolini died" (readers rejected "the location where X lived")."""
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=2, shard_size=200, mix={"2p": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"\b(born|died|lived|headquartered|buried|educated) where ", q) for q in text), text[:20]
    assert not any(re.search(r"\b(born|died|lived|headquartered) in the (place|location) where", q) for q in text)


def test_a_where_question_about_a_set_ends_with_its_verb(swapi_kg):
    """A where-question about a set ends with its verb even after a preposition ("Where were the films that X appears
    in released?", not "What are the places where the films that X appears in were released?")."""
    qs = [question(r) for seed in (37, 38) for r in Synthesizer(swapi_kg, SynthConfig(seed=seed, shard_size=600,
                                                                                   min_support=3)).shard(0)[0]]
    assert len(qs) >= 300  # two samples: a set's where-question is one shape of many
    assert not any(re.search(r"\bplaces where the films\b", q) for q in qs)
    assert any(re.search(r"^Where were (the )?films .* (released|filmed)\?$", q) for q in qs)


def test_a_films_location_is_where_it_was_filmed(swapi_kg):
    """A film's location is where it was filmed ("Where was X filmed?", not "Which films feature Pinewood
    Studios?")."""
    lex = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).lexicon
    w = lex.relations["https://swapi.co/vocabulary/location"]
    assert (w.form, w.verb, w.where) == ("prep", "filmed in", True)
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=39, shard_size=300, min_support=3)).shard(0)
    assert not any(re.search(r"feature (Pinewood|Tunisia|Sicily)|whose location", question(r)) for r in rows)
    assert any("filmed" in question(r) for r in rows)


def test_the_country_a_thing_is_in_is_asked_in_the_singular(example_kg):
    """Where a thing is is asked in the singular ("Which country is Berlin in?", not "the countries that Berlin is
    in")."""
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=44, shard_size=300, mix={"simple": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"\bcountry (that|is) ", q) for q in text)
    assert not any(re.search(r"\bthe countries that [^?]* is in\b|\bWhich countries is [^?]* in\?", q) for q in text)


def test_the_country_of_a_birth_or_death_place_is_asked_in_the_singular(example_kg):
    """The country of a place where someone was born or died is asked in the singular though the graph gives several
    ("Which country did Vitaly Ginzburg die in?", not "Which countries")."""
    wd = "http://www.wikidata.org/prop/direct/"
    sp = Synthesizer(example_kg, SynthConfig(seed=1)).renderer.speaker(example_kg)
    died = Project(wd + "P17", Project(wd + "P20", Anchor(example_kg.resolve("Vitaly Ginzburg"))))
    assert sp.size(died) > 1 and sp.wh(died) == "Which country did Vitaly Ginzburg die in"


def test_places_of_several_names_are_places():
    """Where two people were born, when the graph gives cities and countries: "The places where Shimon Peres and
    Yasser Arafat were born are ...", not "The things where ..." (read in this session's 50 Nobel rows)."""
    kg = load_graph([str(Path(__file__).parent / "data" / "real" / "nobelprize.nt.gz")])
    sp = Synthesizer(kg, SynthConfig(seed=1)).renderer.speaker(kg)
    born = "http://dbpedia.org/ontology/birthPlace"
    both = SetOp("union", tuple(Project(born, Anchor(kg.resolve(n))) for n in ("Shimon Peres", "Yasser Arafat")))
    assert len({sp.lex.kind_of(e) for e in execute(kg, both)}) > 1
    assert sp.kinds(both) == "places"
