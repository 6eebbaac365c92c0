"""tests/lint.py's `schema_problems`: a graph's conventions leaking into questions and answers (property paths,
ids, underscore and camelCase words, placeholder kinds), and real names that must pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lint import SCHEMA_RULES, schema_problems

from kg2tool.graph.build import load_graph

REAL = Path(__file__).parent / "data" / "real"
ROOT = Path(__file__).parent.parent


def row(question: str, answer: str = "Yes.", answers=("x",), tool: str = "") -> dict:
    messages = [
        {"role": "system", "content": "Use the tools. people.person.place_of_birth is a tool's target."},
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_place_of_birth", "arguments": {"entity": "m.07s9rl0"}}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": "get_place_of_birth", "content": tool or '["http://x.org/a_b"]'},
        {"role": "assistant", "content": answer},
    ]
    return {"messages": messages, "answers": list(answers), "category": "simple"}


def rules(question: str, answer: str = "Yes.", **kw) -> list[tuple[str, str]]:
    """(rule, quoted word) of each problem."""
    out = []
    for p in schema_problems(row(question, answer, **kw)):
        rule, word = re.match(r"(.+?) (\'[^\']*\'|\"[^\"]*\"): ", p).groups()
        out.append((rule, word[1:-1]))
    return out


@pytest.mark.parametrize("text, rule, word", [
    ("What is Larry Gelbart's people.person.place_of_birth?", "dotted path", "people.person.place_of_birth"),
    ("Who is film.film.directed_by of Tootsie?", "dotted path", "film.film.directed_by"),
    ("Which films have film.film as their type?", "dotted path", "film.film"),
    ("What is the a..b of Tootsie?", "dotted path", "a..b"),
    ("Who played m.07s9rl0 in Tootsie?", "Freebase id", "m.07s9rl0"),
    ("What is g.11b6x0c3dq's genre?", "Freebase id", "g.11b6x0c3dq"),
    ("Which country is Q42 a citizen of?", "Wikidata id", "Q42"),
    ("What does P31 link Douglas Adams to?", "Wikidata id", "P31"),
    ("Which album106591815s have Cinepoly Records as their record label?", "id-suffixed word", "album106591815s"),
    ("Where was http://dbpedia.org/resource/Berlin founded?", "IRI", "http://dbpedia.org/resource/Berlin"),
    ("Which book has urn:isbn:0451450523 as its edition?", "IRI", "urn:isbn:0451450523"),
    ("What is the dbo:birthPlace of Ada Lovelace?", "prefixed name", "dbo:birthPlace"),
    ("Who is the ex:_author of Dune?", "prefixed name", "ex:_author"),
    ("What is Ada Lovelace's place_of_birth?", "underscore word", "place_of_birth"),
    ("Which films have the highest _score?", "underscore word", "_score"),
    ("Who are the lead_singers of Blondie?", "underscore word", "lead_singers"),
    ("What is the birthPlace of Ada Lovelace?", "camelCase word", "birthPlace"),
    ("Which albums hasMaker Blondie?", "camelCase word", "hasMaker"),
    ("What isPartOf Europe?", "camelCase word", "isPartOf"),
    ("Which SportsTeamMember plays for Ajax?", "PascalCase word", "SportsTeamMember"),
    ("Which other films were directed by the same item as Tootsie?", "placeholder kind", "the same item"),
    ("Which items were made by Blondie?", "placeholder kind", "Which items"),
    ("Which named individuals have Blondie as their maker?", "placeholder kind", "named individuals"),
    ("How many things are part of Europe?", "placeholder kind", "How many things"),
    ("What entities were founded in Lyon?", "placeholder kind", "What entities"),
    ("Which resources does Tootsie link to?", "placeholder kind", "Which resources"),
    ("Which concepts are broader than jazz?", "placeholder kind", "Which concepts"),
    ("Which other films were directed by the same agent as Tootsie?", "placeholder kind", "the same agent"),
])
def test_schema_wording_is_found_and_quoted(text, rule, word):
    assert (rule, word) in rules(text), rules(text)
    assert len(rules(text)) == 1, rules(text)  # one word, one problem (a dotted path is not also an underscore word)


def test_the_answer_is_linted_too_and_each_problem_quotes_the_text():
    problems = schema_problems(row("Who directed Tootsie?", "Tootsie was directed by m.0bxtg."))
    assert problems == ["Freebase id 'm.0bxtg': Tootsie was directed by m.0bxtg."]


def test_system_prompt_tool_calls_and_tool_results_are_not_read():
    # the system prompt, the call's arguments and the tool result all hold schema wording; the question does not
    assert schema_problems(row("Where was Larry Gelbart born?", "Larry Gelbart was born in Chicago.",
                               tool='["m.07s9rl0", "people.person.place_of_birth", "http://x.org/a_b"]')) == []


def test_the_rows_own_tool_names_are_cited_on_purpose():
    """An irrelevance answer names the tools it has; a snake_case word that is no tool of the row still counts."""
    r = row("Who is Tootsie's composer?", "None of the available tools (get_place_of_birth and find_by_genre) gives "
            "the composer, so I can't look that up.")
    r["tools"] = ['{"type": "function", "function": {"name": "find_by_genre", "parameters": {}}}']
    assert schema_problems(r) == []
    r["messages"][-1]["content"] = "None of the available tools (get_music_by) gives the composer."
    assert [p.split(":")[0] for p in schema_problems(r)] == ["underscore word 'get_music_by'"]


def test_url_answers_are_data():
    """A link attribute's value (an image, a record page) is the answer itself; the same URL elsewhere is not."""
    url = "https://example.org/images/Tootsie_poster.jpg"
    assert schema_problems(row("What is Tootsie's poster?", f"Tootsie's poster is {url}.", answers=[url])) == []
    assert schema_problems(row(f"Which film has {url} as its poster?", "Tootsie.", answers=["Tootsie"]))


@pytest.mark.parametrize("text", [
    # abbreviations, initials, decimals, versions
    "Which films released in the U.S. did J. R. R. Tolkien write?",
    "Which cities, e.g. St. Louis, lie on the Mississippi, i.e. in the Midwest?",
    "Which films rated 7.5 or more came out at 9 a.m. on version 1.2 or v2.0.1?",
    "Who founded Washington, D.C.-based Acme Inc.?",
    # names with inner capitals
    "Where was Ronald McDonald born, and did Douglas MacArthur visit LaGuardia Airport?",
    "Which companies own iPhone, eBay, YouTube, DreamWorks, PlayStation and McGraw-Hill?",
    "Where was Neil deGrasse Tyson born, and where did Leonardo DiCaprio and Paul McCartney study?",
    "Which label released k.d. lang's albums?",
    # numbers and names that look like ids
    "Where were R2-D2 and C-3PO built, and who flew the P-51 in Q-Force?",
    "What happened at 10:30 in Star Wars: Episode IV?",
    # kind words used as English, and titles
    "Which books did the author of Things Fall Apart and The Things They Carried write?",
    "What are the natural resources of Chile, and which legal entities are in Lyon?",
    "Which everything-bagel shops opened in Nothing Hill?",
    "Who did the Item Records label sign in 1999?",
])
def test_english_and_real_names_pass(text):
    assert rules(text, text) == []


def test_rules_are_named_and_compiled():
    assert set(SCHEMA_RULES) == {"IRI", "prefixed name", "Freebase id", "dotted path", "id-suffixed word",
                                 "Wikidata id", "underscore word", "camelCase word", "PascalCase word",
                                 "placeholder kind"}


def _name_hits(paths: list[Path]) -> list[tuple[str, str, str]]:
    kg = load_graph(paths)
    return [(rule, hit[0], name) for name in kg.names for rule, rx in SCHEMA_RULES.items() for hit in rx.finditer(name)]


def test_real_names_of_the_fast_real_graphs_pass():
    """Every display name of FIBO and Schrijverskabinet (Dutch titles, banks, legal entities). FIBO's one hit is a
    true one: an ontology module's name that a label carries ("New York (BusinessCentersIndividuals)")."""
    assert _name_hits([REAL / "schrijverskabinet.trig.gz"]) == []
    assert _name_hits([REAL / "fibo-financial-institution-examples.rdf.gz"]) == [
        ("PascalCase word", "BusinessCentersIndividuals", "New York (BusinessCentersIndividuals)")]


@pytest.mark.slow
@pytest.mark.parametrize("paths", [
    [REAL / "nobelprize.nt.gz"], [REAL / "swapi-starwars.ttl.gz"],
    [REAL / "wiki-codex-s.ttl.gz", REAL / "wiki-codex-s-types.ttl.gz"], [ROOT / "examples" / "company.ttl"],
], ids=["nobel", "starwars", "codex", "company"])
def test_real_names_of_the_other_real_graphs_pass(paths):
    """~15,000 names: laureates, cities, Star Wars characters, Wikidata people and places, company products."""
    assert _name_hits(paths) == []


def test_convention_fixtures_are_the_scripts_output_and_parse(tmp_path):
    """tests/data/conventions: the committed graphs are what make_fixtures.py writes (deterministic) and rdflib
    reads each of them whole, with the conventions it imitates."""
    import importlib.util

    import rdflib

    folder = Path(__file__).parent / "data" / "conventions"
    spec = importlib.util.spec_from_file_location("make_fixtures", folder / "make_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    counts = mod.main(tmp_path)
    assert set(counts) == {"freebase.nt", "snake_kb.ttl", "owl_individuals.ttl", "dbpedia.ttl", "underscore.ttl"}
    preds = {}
    for name, n in counts.items():
        assert (tmp_path / name).read_bytes() == (folder / name).read_bytes(), f"{name}: rerun make_fixtures.py"
        g = rdflib.Graph().parse(folder / name, format="nt" if name.endswith(".nt") else "turtle")
        assert len(g) == n and 300 <= n <= 1600, (name, n)
        preds[name] = {str(p) for p in g.predicates()}
    assert "http://rdf.freebase.com/ns/film.performance.actor" in preds["freebase.nt"]
    assert "http://example.org/kb/has_imdb_votes" in preds["snake_kb.ttl"]
    assert rdflib.RDF.type not in {rdflib.URIRef(p) for p in preds["snake_kb.ttl"] | preds["underscore.ttl"]}
    assert "http://example.org/ontology/culture#hasMaker" in preds["owl_individuals.ttl"]
    assert "http://dbpedia.org/ontology/populationTotal" in preds["dbpedia.ttl"]
    assert {"http://example.org/data/_author", "http://example.org/data/lead-singer"} <= preds["underscore.ttl"]
