"""Folding reified n-ary nodes (kg2tool.graph.reify): film roles and award records become relations between their
named participants, on a hand-made graph and on the real graphs of tests/data/real; `--no-fold` keeps today's
graph; the same files give the same graph and dataset."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml
from checks import check_row

from kg2tool.cli import main
from kg2tool.graph.build import load_graph
from kg2tool.graph.model import PredicateRules
from kg2tool.graph.records import is_record_label as _is_record_label
from kg2tool.graph.reify import FOLD_PREFIX, words_of
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

REAL = Path(__file__).parent / "data" / "real"

# Film roles named by Wikidata statement ids (no label), award records whose label restates their participants.
ROLES = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix wds: <http://www.wikidata.org/entity/statement/> .
ex:mark rdfs:label "Mark Hamill" . ex:carrie rdfs:label "Carrie Fisher" .
ex:harrison rdfs:label "Harrison Ford" . ex:anthony rdfs:label "Anthony Daniels" . ex:john rdfs:label "John Williams" .
ex:luke rdfs:label "Luke Skywalker" ; ex:film ex:anh, ex:esb, ex:rotj ; ex:homeworld ex:tatooine .
ex:leia rdfs:label "Leia Organa" ; ex:film ex:anh, ex:esb ; ex:homeworld ex:alderaan .
ex:han rdfs:label "Han Solo" ; ex:film ex:esb ; ex:homeworld ex:corellia .
ex:c3po rdfs:label "C-3PO" ; ex:film ex:anh ; ex:homeworld ex:tatooine .
ex:anh rdfs:label "A New Hope" . ex:esb rdfs:label "The Empire Strikes Back" .
ex:rotj rdfs:label "Return of the Jedi" .
ex:tatooine rdfs:label "Tatooine" . ex:alderaan rdfs:label "Alderaan" . ex:corellia rdfs:label "Corellia" .
"""
_ROLE = """wds:Q181795-{id} a ex:FilmRole ; ex:person ex:{p} ; ex:film ex:{f} ; ex:role "{r}" ;
    ex:wikidataLink wds:Q181795-{id} {c} .
"""
_CAST = [("mark", "luke", "anh"), ("mark", "luke", "esb"), ("mark", "luke", "rotj"), ("carrie", "leia", "anh"),
         ("carrie", "leia", "esb"), ("harrison", "han", "esb"), ("anthony", "c3po", "anh"),
         ("john", "", "anh")]  # fmt: skip
AWARDS = """ex:curie rdfs:label "Marie Curie" ; ex:laureateAward ex:award1, ex:award2 .
ex:einstein rdfs:label "Albert Einstein" ; ex:laureateAward ex:award3 .
ex:physics rdfs:label "Physics" . ex:chemistry rdfs:label "Chemistry" .
ex:award1 a ex:LaureateAward ; rdfs:label "Physics 1903, Marie Curie" ; ex:laureate ex:curie ;
    ex:category ex:physics ; ex:year 1903 .
ex:award2 a ex:LaureateAward ; rdfs:label "Chemistry 1911, Marie Curie" ; ex:laureate ex:curie ;
    ex:category ex:chemistry ; ex:year 1911 .
ex:award3 a ex:LaureateAward ; rdfs:label "Physics 1921, Albert Einstein" ; ex:laureate ex:einstein ;
    ex:category ex:physics ; ex:year 1921 .
"""


def roles_ttl() -> str:
    roles = "".join(
        _ROLE.format(id=f"{i:08X}-89C0-480D-A3CC-49459E0430D6", p=p, f=f, c=f"; ex:character ex:{c}" if c else "",
                     r="cast member" if c else "composer")
        for i, (p, c, f) in enumerate(_CAST)
    )  # fmt: skip
    return ROLES + roles + AWARDS


@pytest.fixture(scope="module")
def roles_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("reify") / "roles.ttl"
    path.write_text(roles_ttl(), encoding="utf-8")
    return path


def facts(kg, label: str) -> set[tuple[str, str]]:
    """(subject, object) names of the relation labelled `label` (exactly one such relation)."""
    rels = [r for r in kg.relations.values() if r.label == label]
    assert len(rels) == 1, (label, sorted(r.label for r in kg.relations.values()))
    return {(kg.names[s], kg.names[o]) for s, objs in rels[0].forward.items() for o in objs}


def test_film_roles_and_award_records_fold_into_relations(roles_file):
    kg = load_graph([roles_file])
    assert facts(kg, "film role character") == {
        ("Mark Hamill", "Luke Skywalker"), ("Carrie Fisher", "Leia Organa"), ("Harrison Ford", "Han Solo"),
        ("Anthony Daniels", "C-3PO"),
    }  # fmt: skip
    assert facts(kg, "film role film") == {
        ("Mark Hamill", "A New Hope"), ("Mark Hamill", "The Empire Strikes Back"),
        ("Mark Hamill", "Return of the Jedi"), ("Carrie Fisher", "A New Hope"),
        ("Carrie Fisher", "The Empire Strikes Back"), ("Harrison Ford", "The Empire Strikes Back"),
        ("Anthony Daniels", "A New Hope"), ("John Williams", "A New Hope"),
    }  # fmt: skip
    # the owner's link names the record ("laureateAward" shares words with the class LaureateAward)
    assert facts(kg, "laureate award category") == {
        ("Marie Curie", "Physics"), ("Marie Curie", "Chemistry"), ("Albert Einstein", "Physics"),
    }  # fmt: skip
    # character -> film is already a relation of the graph: no composed copy
    labels = sorted(r.label for r in kg.relations.values())
    assert labels == ["film", "film role character", "film role film", "homeworld", "laureate award category"]
    # the reified nodes are no entities; no statement id, record label or link to a folded node is left
    assert not [i for i in kg.entities if "statement" in i or "award" in i.rsplit("/", 1)[-1]]
    assert not any(re.search(r"Q181795|1903,|1911,|1921,", n) for n in kg.names)
    assert kg.stats.reified_nodes_folded == len(_CAST) + 3
    # values move to the owner only where it is 1:1 (Marie Curie has two awards, Mark Hamill three roles)
    year = next(a for a in kg.attributes.values() if a.label == "laureate award year")
    assert {kg.names[e]: v for e, v in year.values.items()} == {"Albert Einstein": (1921,)}
    role = next(a for a in kg.attributes.values() if a.label == "film role")
    assert {kg.names[e]: v for e, v in role.values.items()} == {
        "Harrison Ford": ("cast member",),
        "Anthony Daniels": ("cast member",),
        "John Williams": ("composer",),
    }


def test_folded_iris_name_the_class_and_the_two_predicates(roles_file):
    kg = load_graph([roles_file])
    played = next(r for r in kg.relations.values() if r.label == "film role character")
    assert played.iri == (
        f"{FOLD_PREFIX}?class=http%3A%2F%2Fexample.org%2FFilmRole&from=http%3A%2F%2Fexample.org%2Fperson"
        "&to=http%3A%2F%2Fexample.org%2Fcharacter"
    )
    award = next(r for r in kg.relations.values() if r.label == "laureate award category")
    assert "&from=%5Ehttp%3A%2F%2Fexample.org%2FlaureateAward&" in award.iri  # ^: the link points into the node
    assert kg.stats.folded == [iri for iri in kg.stats.folded if iri.startswith(FOLD_PREFIX)]
    assert set(kg.stats.folded) == {i for i in list(kg.relations) + list(kg.attributes) if i.startswith(FOLD_PREFIX)}
    assert "film role" in played.description and "person" in played.description


def test_no_fold_keeps_todays_graph(roles_file):
    kg = load_graph([roles_file], predicates=PredicateRules(fold=False))
    assert not [i for i in list(kg.relations) + list(kg.attributes) if i.startswith(FOLD_PREFIX)]
    assert kg.stats.reified_nodes_folded == 0 and kg.stats.folded == []
    # today: statement-id nodes are dropped as opaque, labelled award records stay entities
    assert kg.stats.opaque_nodes_skipped == len(_CAST)
    assert {"Physics 1903, Marie Curie", "Chemistry 1911, Marie Curie"} <= set(kg.names)
    assert "laureateAward" in {r.label for r in kg.relations.values()}


def test_record_labels_and_words():
    allowed = {"legal", "address", "has"}
    assert _is_record_label("ABN AMRO Bank N.V. legal address", ["ABN AMRO Bank N.V.", "Netherlands"], allowed)
    assert _is_record_label("Physics 1903, Marie Curie", ["Marie Curie", "Physics"], set())
    assert not _is_record_label("Paris", ["Paris", "France"], allowed)  # a name, not a record of its neighbours
    assert not _is_record_label("Mark Hamill", ["Luke Skywalker", "A New Hope"], allowed)
    assert not _is_record_label("Marie Curie Museum", ["Marie Curie", "Paris"], allowed)
    # keys count as numbers: a letter-prefixed number, a dotted key (a team's record of one match or season)
    part = {"team", "participation", "by", "event"}
    assert _is_record_label("Manchester City participation in Event E2128382", ["Manchester City", "Man City v Leeds"], part)
    assert _is_record_label("Chelsea participation in Competition l.premierleague.com-2020", ["Chelsea"], part | {"competition"})
    assert not _is_record_label("Chelsea participation in Competition Premier League", ["Chelsea"], part | {"competition"})
    assert words_of("hasLegalAddress") == ["has", "legal", "address"]
    assert words_of("FilmRole") == ["film", "role"]
    assert words_of("Legal Entity Identifier") == ["legal", "entity", "identifier"]


def _synth(args: list[str]) -> dict[str, str]:
    from kg2tool.common.errors import PARTIAL

    assert main(["synth", "--no-progress", *args]) in (0, PARTIAL)  # a small graph may make fewer rows: all written
    out = Path(args[args.index("--out") + 1])
    files = sorted(p for p in out.rglob("*") if p.is_file())
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_cli_fold_is_deterministic_and_no_fold_is_recorded(tmp_path, roles_file):
    base = ["--graph", str(roles_file), "-n", "30", "--min-support", "2"]
    a = _synth(base + ["--out", str(tmp_path / "a")])
    b = _synth(base + ["--out", str(tmp_path / "b")])
    assert a == b
    lexicon = yaml.safe_load((tmp_path / "a" / "lexicon.yaml").read_text(encoding="utf-8"))
    folded = {iri: w["label"] for iri, w in lexicon["relations"].items() if iri.startswith(FOLD_PREFIX)}
    assert sorted(folded.values()) == ["film role character", "film role film", "laureate award category"]
    config = yaml.safe_load((tmp_path / "a" / "kg2tool_config.yaml").read_text(encoding="utf-8"))
    assert config["config"]["fold"] is True
    _synth(base + ["--out", str(tmp_path / "c"), "--no-fold"])
    config = yaml.safe_load((tmp_path / "c" / "kg2tool_config.yaml").read_text(encoding="utf-8"))
    assert config["config"]["fold"] is False and "--no-fold" in config["card_command"]
    lexicon = yaml.safe_load((tmp_path / "c" / "lexicon.yaml").read_text(encoding="utf-8"))
    assert not [iri for iri in lexicon["relations"] if iri.startswith(FOLD_PREFIX)]
    # the config key does the same as the flag
    (tmp_path / "cfg.yaml").write_text("fold: false\n", encoding="utf-8")
    d = _synth(base + ["--out", str(tmp_path / "d"), "--config", str(tmp_path / "cfg.yaml")])
    c = _synth(base + ["--out", str(tmp_path / "c"), "--no-fold", "--overwrite"])
    assert {k: v for k, v in d.items() if k.endswith(".parquet")} == {
        k: v for k, v in c.items() if k.endswith(".parquet")
    }


def test_eval_loads_the_graph_with_the_folding_the_dataset_was_made_with(tmp_path, roles_file):
    """A --no-fold dataset is evaluated on the unfolded graph's tools (its folder's kg2tool_config.yaml says so):
    the gold model executes every row; loaded with folding, the tools would differ and the run would be refused."""
    _synth(["--graph", str(roles_file), "-n", "200", "--min-support", "2", "--out", str(tmp_path / "d"), "--no-fold"])
    out = tmp_path / "eval"
    code = main(["eval", "--model", "gold", "--data", str(tmp_path / "d"), "--graph", str(roles_file), "--out",
                 str(out), "--no-plot", "--no-ast"])  # fmt: skip
    assert code == 0
    summary = yaml.safe_load((out / "summary.json").read_text(encoding="utf-8"))
    assert summary and all(v == 1.0 for k, v in summary.items() if k.startswith("multi_step"))


@pytest.fixture(scope="module")
def starwars():
    kg = load_graph([REAL / "swapi-starwars.ttl.gz"])
    synth = Synthesizer(kg, SynthConfig(n=100, seed=0, min_support=3, shard_size=160))
    rows, _ = synth.shard(0)
    return kg, synth, rows


def test_starwars_rows_never_show_a_statement_id_or_a_role_node(starwars):
    kg, synth, rows = starwars
    statement = re.compile(r"Q\d+-[0-9A-Fa-f]{8}")
    assert not [n for n in kg.names if statement.search(n)]
    assert not [t for t in kg.types if {"FilmRole", "AwardRecognition"} & set(t)]
    for row in rows:
        assert check_row(row, synth.ts) == []
        text = str(row["messages"]) + str(row["answers"])
        assert not statement.search(text), text
        assert "wikidata.org/entity/statement" not in text
    labels = {r.label for r in kg.relations.values()}
    assert {"film role character", "film role film", "award recognition award"} <= labels
    used = {step for row in rows for step in row["relation_path"]}
    assert used & {"film role character", "film role film", "award recognition award", "award recognition film"}
    played = facts(kg, "film role character")
    assert ("Mark Hamill", "Luke Skywalker") in played


def test_nobel_and_fibo_get_folded_relations():
    nobel = load_graph([REAL / "nobelprize.nt.gz"])
    category = facts(nobel, "laureate award category")
    curie = {o for s, o in category if s.startswith("Marie Curie")}
    assert len(curie) == 2 and {o.split(" (")[0] for o in curie} == {"Physics", "Chemistry"}, curie
    assert not [n for n in nobel.names if re.fullmatch(r"[A-Za-z ]+ \d{4}, .+", n)]  # no award record is an entity
    assert nobel.stats.reified_nodes_folded >= 900
    fibo = load_graph([REAL / "fibo-financial-institution-examples.rdf.gz"])
    country = facts(fibo, "legal address country")
    assert ("ABN AMRO Bank N.V.", "Netherlands") in country, sorted(country)
    assert not [n for n in fibo.names if n.endswith((" legal address", " headquarters address"))]


def test_a_participant_linked_both_ways_is_named_by_the_link_out_of_the_node(tmp_path):
    """Freebase mediators link their participants both ways (`film.performance.actor` out of the node,
    `film.actor.film` into it): the composed relation is named by the link out, which names the participant."""
    from kg2tool.graph.build import load_graph

    fb = "http://rdf.freebase.com/ns/"
    lines = []
    for k in range(3):
        film, actor, char, perf = f"m.0f{k}", f"m.0a{k}", f"m.0c{k}", f"m.0p{k}"
        lines += [f"<{fb}{film}> <{fb}type.object.name> \"Film {k}\"@en .",
                  f"<{fb}{actor}> <{fb}type.object.name> \"Actor {k}\"@en .",
                  f"<{fb}{char}> <{fb}type.object.name> \"Character {k}\"@en .",
                  f"<{fb}{perf}> <{fb}type.object.type> <{fb}film.performance> .",
                  f"<{fb}{film}> <{fb}film.film.starring> <{fb}{perf}> .",
                  f"<{fb}{actor}> <{fb}film.actor.film> <{fb}{perf}> .",
                  f"<{fb}{char}> <{fb}film.film_character.portrayed_in_films> <{fb}{perf}> .",
                  f"<{fb}{perf}> <{fb}film.performance.film> <{fb}{film}> .",
                  f"<{fb}{perf}> <{fb}film.performance.actor> <{fb}{actor}> .",
                  f"<{fb}{perf}> <{fb}film.performance.character> <{fb}{char}> ."]  # fmt: skip
    path = tmp_path / "fb.nt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg = load_graph([path])
    for rel in kg.relations.values():
        for s, objs in rel.forward.items():
            for o in objs:  # every composed relation leads to what its last word names
                assert kg.labels[o].split()[0].lower() == rel.label.split()[-1], (rel.label, kg.labels[s], kg.labels[o])


PARTS = """@prefix ex: <http://example.org/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix bio: <http://purl.org/vocab/bio/0.1/> .
@prefix org: <http://www.w3.org/ns/org#> .
@prefix geo: <http://www.w3.org/2003/01/geo/wgs84_pos#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:emperor rdfs:label "Emperor" . ex:consul rdfs:label "Consul" .
ex:rome rdfs:label "Roman Empire" ; geo:location <http://example.org/id/rome#this> .
<http://example.org/id/rome#this> a geo:SpatialThing ; geo:lat 41.9 ; geo:long 12.5 ;
    dcterms:isPartOf <http://example.org/id/latium#this> .
ex:parthia rdfs:label "Parthian Empire" .
"""
_PERSON = """ex:{p} rdfs:label "{name}" ; bio:death <http://example.org/id/{p}#death> ;
    org:hasMembership <http://example.org/id/{p}#{role}> .
<http://example.org/id/{p}#death> a bio:Death ; dcterms:date "{died}"^^xsd:date .
<http://example.org/id/{p}#{role}> a org:Membership ; org:role ex:{role} ; org:organization ex:{org} .
"""


def parts_ttl() -> str:
    people = [("hadrian", "Hadrian", "emperor", "rome", "0138-07-10"), ("otho", "Otho", "emperor", "rome", "0069-04-16"),
              ("mithridates", "Mithridates I", "emperor", "parthia", "0132-01-01"),
              ("cicero", "Cicero", "consul", "rome", "0043-12-07")]  # fmt: skip
    return PARTS + "".join(
        _PERSON.format(p=p, name=n, role=r, org=o, died=d) for p, n, r, o, d in people
    )


def test_hash_uri_parts_of_a_node_fold_into_it(tmp_path):
    """Unlabelled `B#fragment` nodes that `B` links to (a death event, a membership record, a location) are parts
    of B by the hash-URI convention: never entities named "death", "this" or "emperor"; a membership's role and
    organization become relations of the person, a death's date an attribute of the person, and the same graph
    comes out of the on-disk store."""
    from test_store import quiet, same_graph

    from kg2tool.graph.store import open_store

    path = tmp_path / "parts.ttl"
    path.write_text(parts_ttl(), encoding="utf-8")
    kg = load_graph([path])
    assert not [n for n in kg.names if n.split()[0].lower() in ("death", "this", "emperor", "consul", "rome")
                and n not in ("Emperor", "Consul")], kg.names  # fmt: skip
    assert facts(kg, "membership role") == {("Hadrian", "Emperor"), ("Otho", "Emperor"),
                                            ("Mithridates I", "Emperor"), ("Cicero", "Consul")}  # fmt: skip
    assert ("Mithridates I", "Parthian Empire") in facts(kg, "membership organization")
    died = [a for a in kg.attributes.values() if a.label == "death date"]
    assert len(died) == 1 and died[0].values[kg.index["http://example.org/id/hadrian"]] == ("0138-07-10",)
    assert {a.label for a in kg.attributes.values()} >= {"location lat", "location long"}
    # `latium#this` is not a part of anything here: it names the thing its document describes ("latium")
    assert "latium" in kg.names
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))


def test_rdf_containers_fold_into_their_owners_members(tmp_path):
    """An RDF container (rdf:Seq with rdf:_1, rdf:_2, ...: an author list) is no thing of its own: the paper's
    `authorList` becomes a relation "author" to the list's members, never relations named "1", "2", in memory and
    in the store alike."""
    from test_store import quiet, same_graph

    from kg2tool.graph.store import open_store

    rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    lines = ["@prefix ex: <http://example.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             "@prefix bibo: <http://purl.org/ontology/bibo/> .", f"@prefix rdf: <{rdf}> ."]  # fmt: skip
    papers = {"p1": ["ada", "bo"], "p2": ["bo", "cy", "ada"], "p3": ["cy"]}
    for p, authors in papers.items():
        lines.append(f'ex:{p} rdfs:label "Paper {p[1]}" ; bibo:authorList ex:{p}_authors .')
        lines.append(f"ex:{p}_authors a rdf:Seq ; " + " ; ".join(f"rdf:_{i} ex:{a}" for i, a in enumerate(authors, 1)) + " .")
    lines += [f'ex:{a} rdfs:label "{a.title()}" .' for a in ("ada", "bo", "cy")]
    path = tmp_path / "seq.ttl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg = load_graph([path])
    assert sorted(r.label for r in kg.relations.values()) == ["author"]
    assert facts(kg, "author") == {("Paper 1", "Ada"), ("Paper 1", "Bo"), ("Paper 2", "Bo"), ("Paper 2", "Cy"),
                                   ("Paper 2", "Ada"), ("Paper 3", "Cy")}  # fmt: skip
    assert not [n for n in kg.names if "authors" in n]
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))


def test_unlabelled_nodes_below_their_owners_iri_are_parts_of_it(tmp_path):
    """DBpedia's intermediate nodes (`Adrian_Griffin__1`, a term period) and nodes on a path below their owner's
    (`paper/105/venue`) are parts of the node that links to them: no entity "Adrian Griffin 1"; a labelled node
    or one whose IRI merely starts alike (`Paris_Texas` beside `Paris`) stays a thing of its own."""
    dbr, ex = "http://dbpedia.org/resource/", "http://ex.org/paper/"
    lines = [f'<{dbr}Adrian_Griffin> <http://www.w3.org/2000/01/rdf-schema#label> "Adrian Griffin" .',
             f'<{dbr}Orlando_Magic> <http://www.w3.org/2000/01/rdf-schema#label> "Orlando Magic" .',
             f"<{dbr}Adrian_Griffin> <http://dbpedia.org/ontology/team> <{dbr}Orlando_Magic> .",
             f'<{dbr}Paris> <http://www.w3.org/2000/01/rdf-schema#label> "Paris" .',
             f"<{dbr}Paris> <http://dbpedia.org/ontology/twin> <{dbr}Paris_Texas> .",
             f'<{ex}105> <http://www.w3.org/2000/01/rdf-schema#label> "A Paper" .',
             f"<{ex}105> <http://ex.org/venue> <{ex}105/venue> ."]  # fmt: skip
    lines += [f"<{dbr}Adrian_Griffin> <http://dbpedia.org/ontology/termPeriod> <{dbr}Adrian_Griffin__{k}> ."
              for k in range(1, 4)]  # fmt: skip
    path = tmp_path / "g.nt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg = load_graph([path])
    assert "Paris Texas" in kg.names and "Orlando Magic" in kg.names
    assert not [n for n in kg.names if n.startswith("Adrian Griffin ") or n == "venue"], kg.names


def _crm_ttl() -> str:
    """People with birth and death events, portraits with production events (CIDOC-CRM, parts below their owners'
    IRIs, each event with a labelled time-span and place)."""
    lines = ["@prefix crm: <http://www.cidoc-crm.org/cidoc-crm/> .", "@prefix ex: <http://example.org/> .",
             "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> ."]  # fmt: skip
    people = {"p1": ("John Dulles", "1888", "Washington", "1888", "Boston"),
              "p2": ("Ann Grant", "1822", "Ohio", "1885", "New York"), "p3": ("Ed Kane", "1820", "Washington", "1857", "Havana")}  # fmt: skip
    for p, (name, born, bplace, died, dplace) in people.items():
        lines.append(f'ex:{p} a crm:E21_Person ; rdfs:label "{name}" ; crm:P92i_was_brought_into_existence_by <http://example.org/{p}/birth> ;'
                     f" crm:P93i_was_taken_out_of_existence_by <http://example.org/{p}/death> .")  # fmt: skip
        for ev, year, place in (("birth", born, bplace), ("death", died, dplace)):
            lines.append(f"<http://example.org/{p}/{ev}> crm:P4_has_time-span <http://example.org/{p}/{ev}/timespan> ; crm:P7_took_place_at <http://example.org/{p}/{ev}/place> .")
            lines.append(f'<http://example.org/{p}/{ev}/timespan> a crm:E52_Time-Span ; rdfs:label "{year}" .')
            lines.append(f'<http://example.org/{p}/{ev}/place> a crm:E53_Place ; rdfs:label "{place}" .')
    e = "http://example.org/"
    lines += [f"ex:p1 crm:P131_is_identified_by <{e}p1/primary_name>, <{e}p1/sort_name> .",
              f'<{e}p1/primary_name> a crm:E82_Actor_Appellation ; rdfs:label "John Dulles" ; rdf:value "John Dulles" ;'
              f" crm:P106_is_composed_of <{e}p1/family_name> .",
              f'<{e}p1/family_name> a crm:E82_Actor_Appellation ; rdf:value "Dulles" .',
              f'<{e}p1/sort_name> a crm:E82_Actor_Appellation ; rdf:value "Dulles, John Foster" .',
              f'ex:o1 crm:P1_is_identified_by <{e}o1/id> . <{e}o1/id> a crm:E42_Identifier ; rdfs:label "NPG.77.12" .']  # fmt: skip
    for o, (title, maker, year) in {"o1": ("Grant and His Family", "p2", "1866"), "o2": ("Kane", "p1", "c. 1855")}.items():
        lines.append(f'ex:{o} a crm:E22_Man-Made_Object ; rdfs:label "{title}" ; crm:P108i_was_produced_by <http://example.org/{o}/production> .')
        lines.append(f"<http://example.org/{o}/production> crm:P14_carried_out_by ex:{maker} ; crm:P4_has_time-span <http://example.org/{o}/production/timespan> .")
        lines.append(f'<http://example.org/{o}/production/timespan> a crm:E52_Time-Span ; rdfs:label "{year}" .')
    return "\n".join(lines) + "\n"


def test_events_fold_into_their_owner_as_the_vocabulary_means_them(tmp_path):
    """A CIDOC-CRM event between a thing and its date, place and agent is said of the thing as the model means it:
    a person's beginning and end of existence are its birth and death ("birth place", "death date"), a
    production's date is the thing's "production date" and its agent is who "produced" it; never "taken out of
    existence by has time span", and a birth place and a death place are two relations. A labelled part of an event
    with no link of its own is a value written out for each owner: the places "Washington" of two births are one
    place, not "Washington (Place, no. 2)". A thing's appellations (P1/P131 is identified by, P102 has title) are
    its names, not things: their texts are its alternative labels, an identifier names nothing. In memory and store
    alike."""
    from test_store import quiet, same_graph

    from kg2tool.graph.reify import event_label
    from kg2tool.graph.store import open_store

    assert event_label("P108i was produced by", "P14 carried out by", False) == "produced by"
    assert event_label("P92i was brought into existence by", "P4 has time-span", False) == "creation date"
    assert event_label("hasMembership", "P7 took place at", True) == ""  # no event link: the fold's own words
    path = tmp_path / "crm.ttl"
    path.write_text(_crm_ttl(), encoding="utf-8")
    kg = load_graph([path])
    labels = {r.label for r in kg.relations.values()}
    assert {"birth date", "birth place", "death date", "death place", "production date", "produced by"} <= labels
    assert not [lab for lab in labels if "existence" in lab or "span" in lab], labels
    assert facts(kg, "birth place") == {("John Dulles", "Washington"), ("Ann Grant", "Ohio"), ("Ed Kane", "Washington")}
    assert facts(kg, "death date") >= {("John Dulles", "1888")}  # the birth's and the death's year: one value
    assert not [n for n in kg.names if "(" in n or "Dulles" in n and n != "John Dulles"], kg.names
    assert kg.alt_labels[kg.resolve("John Dulles")] == ("Dulles, John Foster",)
    assert kg.resolve("NPG.77.12") is None and kg.resolve("Dulles") is None
    assert facts(kg, "produced by") == {("Grant and His Family", "Ann Grant"), ("Kane", "John Dulles")}
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))


RELATIONS = """@prefix : <http://x.org/o#> .
@prefix d: <http://x.org/d/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
d:a rdfs:label "Ministry A (1959-....)" . d:b rdfs:label "Office B (1945-1975)" . d:c rdfs:label "Office C" .
d:e rdfs:label "Office E" . d:f rdfs:label "School F" .
""" + "".join(
    f'd:{s}{t} a :AgentHierarchicalRelation{", :GroupSubdivisionRelation" if sub else ""} ; rdfs:label '
    f'"Relation {"de subdivision" if sub else "hiérarchique"} entre \\"{names[s]}\\" et \\"{names[t]}\\", début : 1959" ;\n'
    f"  :relationHasSource d:{s} ; :relationHasTarget d:{t} .\n"
    f"d:{s} :thingIsSourceOfRelation d:{s}{t} . d:{t} :thingIsTargetOfRelation d:{s}{t} .\n"
    for s, t, sub in [("a", "b", 1), ("a", "c", 1), ("a", "e", 1), ("b", "c", 0), ("b", "e", 0)]
    for names in [{"a": "Ministry A (1959-....)", "b": "Office B (1945-1975)", "c": "Office C", "e": "Office E"}]
) + "".join(
    f'd:x{i} a :AgentToAgentRelation ; rdfs:label "Associative relation between “{x}” and “School F”" ;\n'
    f"  :relationConnects d:{k}, d:f . d:{k} :thingIsConnectedToRelation d:x{i} . d:f :thingIsConnectedToRelation d:x{i} .\n"
    for i, (k, x) in enumerate([("a", "Ministry A (1959-....)"), ("c", "Office C")])
)


def test_relation_nodes_that_quote_their_participants_fold_into_related_to(tmp_path):
    """A node whose label quotes two of the names it links is a record of their link in any language ("Relation de
    subdivision entre "A" et "B""), even where each links to it (a symmetric relation); a class is folded when
    half of the nodes whose most specific type it is are records (a node typed by a subclass too counts for the
    subclass); a fact between a relation's source and target says only that they are related ("related to"). The
    on-disk store folds the same."""
    from test_store import quiet, same_graph

    from kg2tool.graph.store import open_store

    path = tmp_path / "relations.ttl"
    path.write_text(RELATIONS, encoding="utf-8")
    kg = load_graph([path])
    assert sorted(kg.names) == ["Ministry A (1959-....)", "Office B (1945-1975)", "Office C", "Office E", "School F"]
    related = facts(kg, "related to")
    assert {("Office B (1945-1975)", "Ministry A (1959-....)"), ("Office C", "Office B (1945-1975)")} <= related
    assert {("Ministry A (1959-....)", "School F"), ("Office C", "School F")} <= related
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))
