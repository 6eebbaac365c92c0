"""Any graph a user brings: synthesis on graphs of other naming conventions (tests/data/conventions: Freebase
ids and mediator paths, a snake_case untyped KB, an OWL ontology of NamedIndividuals, DBpedia, leading underscores
and kebab-case) and on the real graphs in tests/data/real writes questions and answers without schema words
(tests/lint.py's `schema_problems`: dotted paths, ids, underscore and camelCase words, placeholder kinds)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from lint import schema_problems

from kg2tool.graph.build import load_graph
from kg2tool.synth.language.lexicon import derive_lexicon
from kg2tool.synth.language.types import type_choice
from kg2tool.synth.language.wording import Speaker
from kg2tool.synth.plans.tree import Anchor, Project
from kg2tool.synth.run.pipeline import run_synth
from kg2tool.synth.run.synthesizer import SynthConfig

DATA = Path(__file__).parent / "data"
GRAPHS = sorted((DATA / "conventions").glob("*.[nt]t*")) + [DATA / "real" / "swapi-starwars.ttl.gz"]


def rows_of(out: Path) -> list[dict]:
    rows = []
    for f in sorted((out / "sft").glob("*.parquet")):
        for r in pq.read_table(f).to_pylist():
            rows.append(r | {"messages": [json.loads(m) for m in r["messages"]]})
    return rows


@pytest.mark.parametrize("graph", GRAPHS, ids=lambda p: p.name.split(".")[0])
def test_no_schema_words_on_graphs_of_other_conventions(tmp_path, graph):
    report = run_synth([str(graph)], tmp_path / "out", SynthConfig(n=300, seed=1), progress=False, log=lambda *a: None)
    rows = rows_of(tmp_path / "out")
    assert len(rows) == 300
    problems = [p for r in rows for p in schema_problems(r)]
    assert not problems, problems[:5]
    # candidates dropped because they could only call their entities "things" are counted by relation
    assert sum(report["no_kind_by_relation"].values()) >= report["dropped"].get("no_kind", 0)


def test_several_types_are_said_by_the_most_common_and_agents_are_no_kind(tmp_path):
    kg = load_graph([DATA / "conventions" / "dbpedia.ttl"])
    said = set(type_choice(kg).values())
    assert "Person" in said and not {"Agent", "Q5"} & said


def _typed_graph(path: Path, same_relations: bool) -> Path:
    """Six things typed `Place` whose relations differ (cities are in countries; countries have capitals) or not,
    three of them typed `City` too, plus people born in the cities."""
    lines = ["@prefix ex: <http://example.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for i in range(3):
        lines += [f'ex:c{i} a ex:Place, ex:City ; rdfs:label "City {i}" .', f'ex:k{i} a ex:Place ; rdfs:label "Land {i}" .',
                  f'ex:p{i} a ex:Person ; rdfs:label "Person {i}" ; ex:birthPlace ex:c{i} .']
        lines.append(f"ex:c{i} ex:country ex:k{i} ." if not same_relations else f"ex:k{i} ex:country ex:k{(i + 1) % 3} .")
        lines.append(f"ex:k{i} ex:capital ex:c{i} ." if not same_relations else f"ex:c{i} ex:capital ex:c{(i + 1) % 3} .")
        if same_relations:
            lines += [f"ex:p{i} ex:birthPlace ex:k{i} .", f"ex:c{i} ex:country ex:k{i} .", f"ex:k{i} ex:capital ex:c{i} ."]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_subtype_whose_members_do_other_things_is_said_by_its_own_name(tmp_path):
    # DBpedia writes the class hierarchy out on every entity (City, Settlement, PopulatedPlace, Place): the cities
    # are cities and the countries countries, not both "places" ("What is the place of the place where ...")
    kg = load_graph([DATA / "conventions" / "dbpedia.ttl"])
    said = set(type_choice(kg).values())
    assert {"City", "Country", "Film", "Book", "Person"} <= said and not {"Place", "Work"} & said
    lex = derive_lexicon(kg)
    country, born = "http://dbpedia.org/ontology/country", "http://dbpedia.org/ontology/birthPlace"
    assert lex.relations[country].object == "country" and lex.relations[born].object == "city"
    person = next(iter(kg.relations[born].forward))
    wh = Speaker(kg, lex).wh(Project(country, Project(born, Anchor(person))))
    assert wh.startswith("Which country") and "place" not in wh, wh  # the city folds into "born in"


def test_a_subtype_whose_members_do_what_the_others_do_keeps_the_broad_name(tmp_path):
    # humans among Star Wars characters appear in films and have homeworlds like the droids: all are characters
    kg = load_graph([DATA / "real" / "swapi-starwars.ttl.gz"])
    assert set(type_choice(kg).values()) == {"Character"}
    kg = load_graph([_typed_graph(tmp_path / "same.ttl", same_relations=True)])
    assert set(type_choice(kg).values()) == {"Place"}
    kg = load_graph([_typed_graph(tmp_path / "split.ttl", same_relations=False)])
    assert set(type_choice(kg).values()) == {"City"}


def test_works_feature_people_and_things_not_the_values_that_describe_them():
    kg = load_graph([DATA / "conventions" / "snake_kb.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    rel = {kg.relations[i].label: i for i in kg.relations}
    genre, actors = rel["has genre"], rel["starred actors"]
    by_genre = Project(genre, Anchor(next(iter(kg.relations[genre].inverse))), inverse=True)
    by_actor = Project(actors, Anchor(next(iter(kg.relations[actors].inverse))), inverse=True)
    assert not sp.features(by_genre) and "feature" not in sp.wh(by_genre)
    assert sp.features(by_actor) and "feature" in sp.wh(by_actor)


def test_a_noun_of_label_is_said_with_its_article():
    """`capital_of` (Berlin -> Germany): each country has one capital, so "the capital of", both ways."""
    kg = load_graph([DATA / "conventions" / "underscore.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    rel = next(i for i in kg.relations if kg.relations[i].label == "capital of")
    city = next(iter(kg.relations[rel].forward))
    country = kg.relations[rel].forward[city][0]
    assert sp.wh(Project(rel, Anchor(city))) == f"Which country is {sp.name(city)} the capital of"
    assert sp.wh(Project(rel, Anchor(country), inverse=True)) == f"What is the capital of {sp.name(country)}"


def test_a_compound_kind_whose_head_is_a_person_is_asked_with_who():
    kg = load_graph([DATA / "conventions" / "underscore.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    rel = next(i for i in kg.relations if kg.relations[i].label == "lead singer")
    band = next(iter(kg.relations[rel].forward))
    assert sp.wh(Project(rel, Anchor(band))).startswith("Who is the lead singer of ")


def test_untyped_relations_are_reported_where_rows_say_no_kind(tmp_path):
    """On a graph whose relations leave kinds unknown, the dropped `no_kind` candidates are counted per relation."""
    report = run_synth([str(DATA / "conventions" / "underscore.ttl")], tmp_path / "out", SynthConfig(n=200, seed=1),
                       progress=False, log=lambda *a: None)  # fmt: skip
    assert report["dropped"]["no_kind"] > 0
    assert report["no_kind_by_relation"] and all(n > 0 for n in report["no_kind_by_relation"].values())


def test_no_count_of_what_is_where_related_to_a_place():
    """ "How many people lived in San Francisco?" is an open class a graph holds a few of: not asked."""
    from kg2tool.synth.plans.tree import Count
    from kg2tool.synth.run.synthesizer import counts_places

    kg = load_graph([DATA / "real" / "swapi-starwars.ttl.gz"])
    lex = derive_lexicon(kg)
    born = next(i for i, w in lex.relations.items() if w.where)
    place = next(iter(kg.relations[born].inverse))
    assert counts_places(Count(Project(born, Anchor(place), inverse=True)), lex)


def test_freebase_system_domains_are_no_relations(tmp_path):
    # Freebase's /common, /type and /freebase domains are its bookkeeping (topic web pages, keys): a path through
    # one is no fact ("What is the category of the University of Chicago?" was a web page's category)
    ns = "http://rdf.freebase.com/ns/"
    lines = []
    for i in range(4):
        lines += [f'<{ns}m.0u{i}> <{ns}type.object.name> "University {i}"@en .',
                  f'<{ns}m.0c{i}> <{ns}type.object.name> "City {i}"@en .',
                  f"<{ns}m.0u{i}> <{ns}common.topic.webpage..common.webpage.category> <{ns}m.0w> .",
                  f"<{ns}m.0u{i}> <{ns}type.object.key> <{ns}m.0k> .",
                  f"<{ns}m.0u{i}> <{ns}business.business_operation.revenue..measurement_unit.dated_money_value.currency> <{ns}m.0d> .",
                  f"<{ns}m.0u{i}> <{ns}user.jdoe.default_domain.favorite> <{ns}m.0c{i}> .",
                  f"<{ns}m.0u{i}> <{ns}location.location.containedby> <{ns}m.0c{i}> ."]
    (tmp_path / "fb.nt").write_text("\n".join(lines) + "\n")
    kg = load_graph([tmp_path / "fb.nt"])
    assert set(kg.relations) == {ns + "location.location.containedby"}


def test_tags_are_keywords_a_work_is_tagged_with_and_values_of_several_works_are_theirs():
    # folksonomy tags (MovieLens-style `has_tags`) are said as people say them, not "the tags of X"; what describes
    # several films is "of" them ("the genres of films directed by Y"), what they feature is "in" them
    kg = load_graph([DATA / "conventions" / "snake_kb.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    rel = {kg.relations[i].label: i for i in kg.relations}
    tags, directed = rel["has tags"], rel["directed by"]
    film, tag = sorted(kg.relations[tags].forward)[0], sorted(kg.relations[tags].inverse)[0]
    assert sp.wh(Project(tags, Anchor(film))).startswith("Which keywords is ")
    assert sp.wh(Project(tags, Anchor(tag), inverse=True)).startswith("Which films are tagged with ")
    director = sorted(kg.relations[directed].inverse)[0]
    by = Project(directed, Anchor(director), inverse=True)
    assert sp.wh(Project(tags, by)).startswith("Which keywords are films directed by ")
    assert "genres of films directed by" in sp.wh(Project(rel["has genre"], by))
    assert not sp.own_facts(tags) and sp.own_facts(rel["starred actors"])


def test_skos_and_dublin_core_relations_are_said_as_people_say_them(tmp_path):
    # a thesaurus's broader concept is what a concept falls under; its change notes are no facts; a record covers
    # places (Dublin Core's spatial)
    lines = ["@prefix skos: <http://www.w3.org/2004/02/skos/core#> .", "@prefix dct: <http://purl.org/dc/terms/> .",
             "@prefix ex: <http://example.org/> ."]
    for i in range(4):
        lines += [f'ex:c{i} a skos:Concept ; skos:prefLabel "Coin type {i}"@en ; skos:broader ex:top ;',
                  f'    skos:changeNote "edited {i}" ; dct:spatial ex:p{i} .', f'ex:p{i} skos:prefLabel "Region {i}"@en .']
    lines.append('ex:top skos:prefLabel "Coinage"@en .')
    (tmp_path / "skos.ttl").write_text("\n".join(lines) + "\n")
    kg = load_graph([tmp_path / "skos.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    broader, spatial = "http://www.w3.org/2004/02/skos/core#broader", "http://purl.org/dc/terms/spatial"
    assert set(kg.relations) == {broader, spatial} and not kg.attributes
    concept = sorted(kg.relations[broader].forward)[0]
    assert sp.wh(Project(broader, Anchor(concept))).endswith("fall under")
    assert " cover" in sp.wh(Project(spatial, Anchor(concept)))


def test_a_freebase_path_back_to_the_same_role_is_a_shared_record(tmp_path):
    # nominee -> nomination -> nominee: the others nominated with X ("Who shared an award nomination with X?")
    ns = "http://rdf.freebase.com/ns/"
    path = "award.award_nominee.award_nominations..award.award_nomination.award_nominee"
    lines = []
    for i in range(4):
        lines += [f'<{ns}m.0p{i}> <{ns}type.object.name> "Person {i}"@en .',
                  f"<{ns}m.0p{i}> <{ns}type.object.type> <{ns}people.person> .",
                  f"<{ns}m.0p{i}> <{ns}{path}> <{ns}m.0p{(i + 1) % 4}> ."]
    (tmp_path / "fb.nt").write_text("\n".join(lines) + "\n")
    kg = load_graph([tmp_path / "fb.nt"])
    sp = Speaker(kg, derive_lexicon(kg))
    assert sp.wh(Project(ns + path, Anchor(0))) == "Who did Person 0 share an award nomination with"
    assert sp.wh(Project(ns + path, Anchor(1), inverse=True)) == "Who shared an award nomination with Person 1"


def test_yago_and_upper_ontology_types_yield_to_the_graphs_own():
    from kg2tool.graph.model import kept_types

    dbo, yago, dul = "http://dbpedia.org/ontology/", "http://dbpedia.org/class/yago/", \
        "http://www.ontologydesignpatterns.org/ont/dul/DUL.owl#"
    # DBpedia ships YAGO's WordNet classes and DOLCE's beside its own ontology: its own are said
    assert kept_types([dbo + "Album", yago + "Album106591815", dul + "InformationObject"]) == [dbo + "Album"]
    assert kept_types([yago + "Album106591815", dul + "Agent"]) == [yago + "Album106591815"]  # YAGO alone: kept


def test_series_places_placeholder_nouns_latin_singulars_and_agent_nouns(tmp_path):
    from kg2tool.synth.language.lexicon import singular

    assert [singular(w) for w in ("genus", "campus", "status", "films")] == ["genus", "campus", "status", "film"]
    ex = "http://example.org/"
    lines = [f"@prefix ex: <{ex}> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for i in range(4):
        lines += [f'ex:f{i} a ex:Film ; rdfs:label "Film {i}" ; ex:previousWork ex:f{(i + 1) % 4} ;',
                  f"    ex:hasEntity ex:c{i} ; ex:directedBy ex:d{i} .",
                  f'ex:c{i} a ex:Company ; rdfs:label "Company {i}" .', f'ex:d{i} rdfs:label "Dee {i}" .']
    (tmp_path / "g.ttl").write_text("\n".join(lines) + "\n")
    kg = load_graph([tmp_path / "g.ttl"])
    lex = derive_lexicon(kg)
    sp = Speaker(kg, lex)
    # a place in a series names no kind: the works before a film are films
    assert lex.relations[ex + "previousWork"].object == "film"
    # `hasEntity` says nothing: its objects' kind does
    assert lex.relations[ex + "hasEntity"].noun == "company"
    # a by-relation whose kind is its own agent noun: "the director of X", not "the director who directed X"
    assert lex.relations[ex + "directedBy"].object == "director"  # untyped: the agent noun of `directed`
    assert sp.np(Project(ex + "directedBy", Anchor(kg.resolve("Film 0")))) == "the director of Film 0"


# Each relation's roles, known by construction (the graph below carries no types: synthesis must find them).
_ROLES = {"directed_by": ("film", "person"), "starred_actors": ("film", "person"), "has_tags": ("film", "tag"),
          "has_imdb_rating": ("film", "rating"), "in_language": ("film", "language")}  # fmt: skip


def _role_graph(path: Path) -> Path:
    """An untyped movie KB in MetaQA's shape where two rating values ("good", "famous") are also tags: one node plays
    two roles."""
    import random

    rng = random.Random(5)
    people = [f"p{k}" for k in range(14)]
    tags = [f"t{k}" for k in range(10)] + ["good", "famous"]
    lines = ["@prefix ex: <http://ex.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    names = {f"p{k}": n for k, n in enumerate("Ada Bo Cy Dee Eve Fay Gus Hal Ivy Jo Kit Lu Max Ned".split())}
    names |= {f"t{k}": w for k, w in enumerate("noir heist space war romance satire robots zombies pirates ninjas".split())}
    names |= {"good": "good", "famous": "famous", "bad": "bad", "en": "English", "fr": "French"}
    for k in range(40):
        f = f"ex:f{k}"
        lines.append(f'{f} rdfs:label "Film {k}" ; ex:directed_by ex:{rng.choice(people)} ; '
                     f'ex:starred_actors ex:{rng.choice(people)}, ex:{rng.choice(people)} ; '
                     f'ex:has_tags ex:{rng.choice(tags)}, ex:{rng.choice(tags)} ; '
                     f'ex:has_imdb_rating ex:{rng.choice(["good", "famous", "bad"])} ; '
                     f'ex:in_language ex:{rng.choice(["en", "fr"])} .')  # fmt: skip
    lines += [f'ex:{k} rdfs:label "{v}" .' for k, v in names.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _role_out(node: dict, bad: list) -> str | None:
    """The role of what a plan node (its JSON) gives, by `_ROLES`; a hop whose step starts from another role than the
    step before gave is added to `bad`. None where the role is open (a named entity, a count, a value)."""
    op = node.get("op")
    if op == "project":
        rel = node["relation"].rsplit("/", 1)[-1]
        if rel not in _ROLES:
            return None
        start, end = _ROLES[rel][::-1] if node.get("inverse") else _ROLES[rel]
        got = _role_out(node["of"], bad)
        if got is not None and got != start:
            bad.append((got, rel, start))
        return end
    kids = [v for k, v in node.items() if isinstance(v, dict)] + [
        x for v in node.values() if isinstance(v, list) for x in v if isinstance(x, dict)
    ]
    roles = {r for r in (_role_out(k, bad) for k in kids) if r is not None}
    return roles.pop() if op in ("intersection", "union", "difference", "setop") and len(roles) == 1 else None


def test_no_chain_steps_from_one_role_into_another(tmp_path):
    """A node reached by a relation plays that relation's role: a chain steps on from it only along relations that
    start from that role, so a rating value that is also a tag never bridges the two ("What is the film that
    features The Big Chill's imdb rating?"). Checked on every plan by each relation's roles as the graph was built,
    not by the walker's own kinds."""
    graph = _role_graph(tmp_path / "roles.ttl")
    run_synth([str(graph)], tmp_path / "out", SynthConfig(n=400, seed=2, min_support=1), progress=False,
              log=lambda *a: None)  # fmt: skip
    rows = rows_of(tmp_path / "out")
    chained = bad = 0
    for r in rows:
        hops: list = []
        _role_out(json.loads(r["plan"]), hops)
        bad += bool(hops)
        chained += '"of": {"op": "project"' in r["plan"]
    assert chained >= 20, chained  # chains were walked
    assert bad == 0, bad


def test_a_role_that_is_the_kind_is_said_once(tmp_path):
    """`isJurisdictionOf` between jurisdictions and governments: the jurisdictions that are jurisdictions of X are
    "the jurisdictions of X" in a longer question, not "the jurisdictions that are jurisdictions of X"."""
    path = tmp_path / "juris.ttl"
    path.write_text("""@prefix : <http://j.org/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:J rdfs:label "jurisdiction" .  :G rdfs:label "national government" .  :R rdfs:label "country" .
:jf a :J ; rdfs:label "French jurisdiction" ; :isJurisdictionOf :gf ; :hasReach :fr .
:jd a :J ; rdfs:label "Danish jurisdiction" ; :isJurisdictionOf :gd ; :hasReach :dk .
:gf a :G ; rdfs:label "Government of France" .  :gd a :G ; rdfs:label "Government of Denmark" .
:fr a :R ; rdfs:label "France" .  :dk a :R ; rdfs:label "Denmark" .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    sp = Speaker(kg, derive_lexicon(kg))
    of, reach = "http://j.org/isJurisdictionOf", "http://j.org/hasReach"
    gov = kg.resolve("Government of France")
    assert sp.np(Project(of, Anchor(gov), inverse=True)) == "the jurisdiction of Government of France"
    assert "that are" not in sp.wh(Project(reach, Project(of, Anchor(gov), inverse=True)))


def test_a_relation_named_by_ids_alone_gets_no_tool(tmp_path):
    """A relation said by no word (the RDA Registry's numbered elements: "c 10001 p 10004") gets no tool, so no
    question says it; a graph with no other relation ends with a message that says how to name them."""
    from kg2tool.common.errors import NothingToDoError
    from kg2tool.synth.tools.toolset import ToolSet

    lines = ["@prefix c: <http://rdaregistry.info/Elements/c/C10001/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    lines += [f'<http://x.org/w{i}> rdfs:label "Work {i}" ; c:P10004 <http://x.org/k{i % 2}> .' for i in range(8)]
    lines += ['<http://x.org/k0> rdfs:label "novels" .  <http://x.org/k1> rdfs:label "poems" .']
    path = tmp_path / "rda.ttl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg = load_graph([path])
    with pytest.raises(NothingToDoError, match="named by ids alone"):
        ToolSet.from_graph(kg)
    lex = derive_lexicon(kg)
    iri = next(iter(kg.relations))
    lex.relations[iri].noun, lex.relations[iri].plural = "category of work", "categories of work"  # as lexicon.yaml
    assert ToolSet.from_graph(kg, lexicon=lex).forward_tool


def test_one_of_several_is_said_with_include(tmp_path):
    """The things whose many-valued role a name fills are those "whose members include X" (a group has several
    members), not "whose member is X"; a role each has one of stays "whose parent organization is X"."""
    from kg2tool.synth.plans.tree import Anchor, Project

    path = tmp_path / "groups.ttl"
    path.write_text("""@prefix : <http://g.org/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Group rdfs:label "research group" .  :Person rdfs:label "person" .  :Org rdfs:label "organization" .
:g1 a :Group ; rdfs:label "Semantic Abstraction" ; :member :p1, :p2, :p3 ; :parentOrganization :o1 .
:g2 a :Group ; rdfs:label "Machine Learning" ; :member :p1, :p4 ; :parentOrganization :o1 .
:p1 a :Person ; rdfs:label "Norman Radtke" .  :p2 a :Person ; rdfs:label "Marvin Hofer" .
:p3 a :Person ; rdfs:label "Ann Bee" .  :p4 a :Person ; rdfs:label "Cy Dee" .  :o1 a :Org ; rdfs:label "InfAI" .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    sp = Speaker(kg, derive_lexicon(kg))
    member, parent = "http://g.org/member", "http://g.org/parentOrganization"
    assert sp.clause(Project(member, Anchor(kg.resolve("Norman Radtke")), inverse=True)) == (
        "whose members include Norman Radtke")  # fmt: skip
    assert sp.clause(Project(parent, Anchor(kg.resolve("InfAI")), inverse=True)) == "whose parent organization is InfAI"
