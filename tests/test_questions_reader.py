"""`kg2tool eval --questions`: the final-answer reader on real collisions (a person and a lower-case tag of the same
words, a year and a tag, "Paris" inside "Paris, Texas", two cities named Paris), and `--exclude-topic` at every hop
(a 2-hop and a 3-hop question whose topic comes back in a hop's set), on small graphs written by the tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg2tool.cli import main
from kg2tool.evaluation.kgqa import score_answer
from kg2tool.evaluation.kgqa_run import path_ends
from kg2tool.evaluation.questions import bind, read_questions
from kg2tool.graph.build import load_graph

# Films with MovieLens-style tags next to the people and years they are about: a tag "ernst lubitsch" beside the
# person Ernst Lubitsch, a tag "1942" beside the release year 1942, a tag "romero" beside George A. Romero; a film
# "Paris, Texas" beside the city Paris and the state Texas; and two cities labelled "Paris".
COLLISIONS_TTL = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:directedBy rdfs:label "directed by" .
ex:hasTags rdfs:label "has tags" .
ex:releaseYear rdfs:label "release year" .
ex:bornIn rdfs:label "place of birth" .
ex:ToBe rdfs:label "To Be or Not to Be" ; ex:directedBy ex:Lubitsch ; ex:hasTags ex:tagLubitsch , ex:tag1942 ;
    ex:releaseYear "1942"^^xsd:gYear .
ex:Night rdfs:label "Night of the Living Dead" ; ex:directedBy ex:Romero ; ex:hasTags ex:tagRomero .
ex:ParisTexas rdfs:label "Paris, Texas" ; ex:directedBy ex:Wenders ; ex:hasTags ex:tagWenders .
ex:Lubitsch rdfs:label "Ernst Lubitsch" ; ex:bornIn ex:Berlin .
ex:Romero rdfs:label "George A. Romero" ; ex:bornIn ex:NewYork .
ex:Wenders rdfs:label "Wim Wenders" ; ex:bornIn ex:Duesseldorf .
ex:Renoir rdfs:label "Jean Renoir" ; ex:bornIn ex:Paris .
ex:Lovett rdfs:label "Lyle Lovett" ; ex:bornIn ex:Texas .
ex:Cooper rdfs:label "Gary Cooper" ; ex:bornIn ex:ParisTX .
ex:tagLubitsch rdfs:label "ernst lubitsch" .
ex:tag1942 rdfs:label "1942" .
ex:tagRomero rdfs:label "romero" .
ex:tagWenders rdfs:label "wim wenders" .
ex:Berlin rdfs:label "Berlin" .
ex:NewYork rdfs:label "New York City" .
ex:Duesseldorf rdfs:label "Düsseldorf" .
ex:Paris rdfs:label "Paris" ; schema:description "capital of France" .
ex:ParisTX rdfs:label "Paris" ; schema:description "city in Texas" .
ex:Texas rdfs:label "Texas" .
"""

QUESTIONS = [
    {"id": "lubitsch", "question": "Who directed To Be or Not to Be?", "answers": ["Ernst Lubitsch"],
     "topic_entity": "To Be or Not to Be", "relation_path": ["directed by"]},
    {"id": "romero", "question": "who directed night of the living dead", "answers": ["George A. Romero"],
     "topic_entity": "Night of the Living Dead", "relation_path": ["directed by"]},
    {"id": "tags", "question": "What is To Be or Not to Be tagged with?", "answers": ["ernst lubitsch", "1942"],
     "topic_entity": "To Be or Not to Be", "relation_path": ["has tags"]},
    {"id": "wenders", "question": "Which films did Wim Wenders direct?", "answers": ["Paris, Texas"],
     "topic_entity": "Wim Wenders", "relation_path": ["^directed by"]},
    {"id": "renoir", "question": "Where was Jean Renoir born?", "answers": ["Paris (capital of France)"],
     "topic_entity": "Jean Renoir", "relation_path": ["place of birth"]},
    {"id": "year", "question": "When was To Be or Not to Be released?", "answers": ["1942"],
     "topic_entity": "To Be or Not to Be"},
]  # fmt: skip


@pytest.fixture(scope="module")
def collisions(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("collisions")
    graph = base / "films.ttl"
    graph.write_text(COLLISIONS_TTL, encoding="utf-8")
    questions = base / "q.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return graph, questions


@pytest.fixture(scope="module")
def bound(collisions):
    graph, questions = collisions
    kg = load_graph([graph])
    return kg, {b.q.id: b for b in bind(kg, read_questions(questions))}


def read(bound, qid: str, text: str, returned=()) -> dict:
    """The scores of `text` as the final answer of question `qid`, the calls having returned `returned` (names)."""
    kg, by_id = bound
    b = by_id[qid]
    ids = {kg.resolve(name) for name in returned}
    return score_answer(text, b.q.answers, b.answer_ids, kg, b.topic_ids, ids, path_ends(kg, b))


def test_a_person_is_not_also_the_lower_case_tag_of_the_same_words(bound):
    for text in ("Ernst Lubitsch", "ernst lubitsch", "It was directed by Ernst Lubitsch."):
        got = read(bound, "lubitsch", text, returned=["Ernst Lubitsch"])
        assert (got["named"], got["wrong"], got["exact"], got["precision"]) == (["Ernst Lubitsch"], [], True, 1.0)
    got = read(bound, "romero", "George A. Romero")  # the initial's full stop cuts no item out: "Romero" is inside
    assert (got["named"], got["wrong"], got["exact"]) == (["George A. Romero"], [], True)
    # the tag question the other way round: the tags are the answers, the person is of another kind
    got = read(bound, "tags", "ernst lubitsch, 1942", returned=["ernst lubitsch", "1942"])
    assert (sorted(got["named"]), got["wrong"], got["exact"]) == (["1942", "ernst lubitsch"], [], True)
    # a person of the answers' kind is still a wrong answer
    got = read(bound, "lubitsch", "Wim Wenders")
    assert (got["named"], got["wrong"], got["hits1"], got["precision"]) == ([], ["Wim Wenders"], False, 0.0)


def test_a_year_is_not_also_the_tag_of_the_same_digits(bound):
    for text in ("1942", "It came out in 1942."):
        got = read(bound, "year", text)
        assert (got["named"], got["wrong"], got["exact"]) == (["1942"], [], True)
    got = read(bound, "year", "1942, or maybe 1943")
    assert (got["named"], got["wrong"], got["hits1"], got["exact"]) == (["1942"], ["1943"], True, False)


def test_paris_inside_paris_texas_is_no_mention_of_paris(bound):
    got = read(bound, "wenders", "Paris, Texas", returned=["Paris, Texas"])
    assert (got["named"], got["wrong"], got["exact"]) == (["Paris, Texas"], [], True)
    # the city asked for is not named by the film's title; the film is of another kind than a birthplace
    got = read(bound, "renoir", "Paris, Texas")
    assert (got["named"], got["wrong"], got["recall"], got["hits1"]) == ([], [], 0.0, False)
    got = read(bound, "renoir", "Paris, Texas and Paris")  # the second mention is the city
    assert (got["named"], got["wrong"], got["exact"]) == (["Paris (capital of France)"], [], True)
    got = read(bound, "renoir", "Texas")  # a birthplace, but not his
    assert (got["named"], got["wrong"]) == ([], ["Texas"])


def test_a_shared_name_means_the_entity_the_calls_returned(bound):
    right = read(bound, "renoir", "Paris", returned=["Paris (capital of France)"])
    assert (right["named"], right["wrong"], right["exact"]) == (["Paris (capital of France)"], [], True)
    other = read(bound, "renoir", "Paris", returned=["Paris (city in Texas)"])
    assert (other["named"], other["wrong"], other["exact"]) == ([], ["Paris (city in Texas)"], False)
    assert read(bound, "renoir", "Paris")["exact"]  # no calls (the gold model): the gold answer


def test_the_oracle_is_exact_on_the_collisions(collisions, tmp_path):
    graph, questions = collisions
    out = tmp_path / "path"
    argv = ["eval", "--questions", str(questions), "--graph", str(graph), "--model", "path", "--min-support", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    rows = {r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text(encoding="utf-8").splitlines())}
    assert set(rows) == {"lubitsch", "romero", "tags", "wenders", "renoir"}  # "year" has no relation path
    assert {qid: (r["wrong"], r["exact"]) for qid, r in rows.items()} == {qid: ([], True) for qid in rows}


# ---------------------------------------------------------------------------------------------- --exclude-topic

# MetaQA-style: films, their writers and genres. Dust's writers also wrote Harvest and Ashes. With the topic left out of every hop, "the genres of the films written by Dust's writers" are those of
# Harvest and Ashes (Comedy, Horror), not Dust's own (Drama, Western).
FILMS_TTL = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:writtenBy rdfs:label "written by" .
ex:hasGenre rdfs:label "has genre" .
ex:Dust rdfs:label "Dust" ; ex:writtenBy ex:Ann , ex:Bo ; ex:hasGenre ex:Drama , ex:Western .
ex:Harvest rdfs:label "Harvest" ; ex:writtenBy ex:Ann ; ex:hasGenre ex:Comedy .
ex:Ashes rdfs:label "Ashes" ; ex:writtenBy ex:Bo ; ex:hasGenre ex:Horror .
ex:Ann rdfs:label "Ann Ames" .
ex:Bo rdfs:label "Bo Berg" .
ex:Drama rdfs:label "Drama" .
ex:Western rdfs:label "Western" .
ex:Comedy rdfs:label "Comedy" .
ex:Horror rdfs:label "Horror" .
"""

HOP_QUESTIONS = [
    {"id": "2hop", "question": "which films share a writer with Dust", "answers": ["Harvest", "Ashes"],
     "topic_entity": "Dust", "relation_path": ["written by", "^written by"], "hops": 2},
    {"id": "3hop", "question": "what genres are the films written by Dust screenwriters", "answers": ["Comedy", "Horror"],
     "topic_entity": "Dust", "relation_path": ["written by", "^written by", "has genre"], "hops": 3},
]  # fmt: skip


def _run_hops(tmp_path: Path, *flags: str) -> dict[str, dict]:
    graph, questions = tmp_path / "films.ttl", tmp_path / "q.jsonl"
    graph.write_text(FILMS_TTL, encoding="utf-8")
    questions.write_text("".join(json.dumps(q) + "\n" for q in HOP_QUESTIONS), encoding="utf-8")
    out = tmp_path / ("out" + "".join(flags))
    argv = ["eval", "--questions", str(questions), "--graph", str(graph), "--min-support", "1", "--out", str(out)]
    assert main([*argv, "--model", "path", *flags]) == 0
    return {r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text(encoding="utf-8").splitlines())}


def test_exclude_topic_leaves_the_topic_out_of_every_hop(tmp_path):
    rows = _run_hops(tmp_path, "--exclude-topic")
    for qid in ("2hop", "3hop"):
        assert (rows[qid]["exact"], rows[qid]["wrong"]) == (True, []), qid
    calls = [[c["arguments"] for c in turn["calls"]] for turn in rows["3hop"]["turns"] if turn.get("calls")]
    # hop 2 reached Dust again; hop 3 is called on the other films only
    assert calls == [[{"entity": "Dust"}], [{"value": "Ann Ames"}, {"value": "Bo Berg"}],
                     [{"entity": "Ashes"}, {"entity": "Harvest"}]]  # fmt: skip
    assert rows["3hop"]["final"] == "Comedy, Horror"
    # without it, the walk goes through Dust again and names its genres, which the file does not list
    plain = _run_hops(tmp_path)
    assert plain["3hop"]["wrong"] == ["Drama", "Western"] and not plain["3hop"]["exact"]
    assert plain["2hop"]["exact"]  # naming the topic itself is never a wrong answer
