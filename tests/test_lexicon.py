"""The relation lexicon (kg2tool.synth.language.lexicon): label forms, kinds, lexicon.yaml out and back in, and the language
of whole datasets on the bundled graphs (tests/lint.py)."""

from pathlib import Path

import pytest
from lint import language_problems
from synth_rows import turtle_graph

from kg2tool.common.errors import InputError
from kg2tool.graph.build import load_graph
from kg2tool.synth.language.lexicon import derive_lexicon, plural, singular, split_label, word_relation
from kg2tool.synth.language.lexicon_file import load_lexicon
from kg2tool.synth.language.wording import Speaker
from kg2tool.synth.plans.tree import Anchor, Project
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    "label, form, said",
    [
        ("place of origin", "noun", "place of origin"),
        ("hasMaker", "noun", "maker"),
        ("has color", "noun", "color"),
        ("country_of_origin", "noun", "country of origin"),
        ("directedBy", "by", "directed by"),
        ("written by", "by", "written by"),
        ("educated at", "prep", "educated at"),
        ("member of", "prep", "a member of"),
        ("in region", "prep", "in"),  # X is in Y, a region: "Which region is X in?"
        ("starred actors", "noun", "actor"),  # a participle before a role noun: the actors
        ("in_language", "prep", "in"),
        ("place_founded", "prep", "founded in"),  # where X was founded
        ("capital_of", "prep", "a capital of"),  # a role in another thing ("the" where each object has one)
        ("author of", "prep", "an author of"),
        ("produces", "verb", "produces"),
        ("worksAt", "verb", "works at"),
        ("isPanelistAt", "prep", "a panelist at"),  # any "NOUN PREP" label is a role in another thing
        ("isSubEventOf", "prep", "a sub event of"),
        ("givesKeynoteTalk", "verb", "gives"),  # an ontology's verb and its object (Which keynote talk does X give?)
        ("sports team", "noun", "sports team"),  # a plural noun before a noun: no verb
        ("relatedToEvent", "prep", "related to"),  # a participle, a preposition, the objects' kind
        ("made", "verb", "made"),  # a past verb alone (FOAF): What did X make?
        ("based near", "prep", "based near"),
        ("P52 has current owner", "noun", "current owner"),  # a CIDOC-CRM code is no word
        ("P131_is_identified_by", "by", "identified by"),
        ("wasBornIn", "prep", "born in"),  # was/is said by the question's own tense
        ("actedIn", "verb", "acted in"),  # an intransitive verb's past is the subject's act: no passive
        ("wroteMusicFor", "verb", "wrote music for"),  # a past that is no participle
        ("basedOn", "prep", "based on"),  # a participle: a passive
        ("hasWonPrize", "verb", "won"),  # has + participle + noun: Which prizes did X win?
        ("P14 carried out by", "by", "carried out by"),  # a phrasal verb: Who carried out X?
        ("narrowerThan", "prep", "narrower than"),  # a comparative
        ("coversTopic", "verb", "covers"),  # a plural-form first word before a singular noun: a verb and its object
        ("holdsRole", "verb", "holds"),
        ("p108i was produced by P4 has time span", "prep", "produced by"),  # codes anywhere
    ],
)
def test_label_forms(label, form, said):
    w, _ = word_relation(label)
    assert w.form == form
    assert (w.noun if form == "noun" else w.verb) == said


@pytest.mark.parametrize(
    "label, kind",
    [
        ("directed by", "director"),  # who does what a participle says: its agent noun
        ("composed by", "composer"),
        ("written by", "writer"),
        ("in language", "language"),  # a preposition and a noun: the noun names the objects
        ("starred actors", "actor"),
        ("influenced by", ""),  # no agent noun in the dictionary: no kind from the label
        ("givesKeynoteTalk", "keynote talk"),
        ("relatedToEvent", "event"),
        ("isAbout", ""),  # a preposition is no kind
        ("hasWonPrize", "prize"),
        ("E39 Actor", "actor"),  # a class label's CIDOC-CRM code dropped too
    ],
)
def test_kinds_from_role_nouns(label, kind):
    assert word_relation(label)[1].lstrip("!~") == kind


@pytest.mark.parametrize(
    "label, question, inverse, statement",
    [
        ("place of birth", "Where was Ada born?", "Who was born in Paris?", "Ada was born in Paris"),
        ("birthPlace", "Where was Ada born?", "Who was born in Paris?", "Ada was born in Paris"),
        ("deathPlace", "Where did Ada die?", "Who died in Paris?", "Ada died in Paris"),
        ("residence", "Where did Ada live?", "Who lived in Paris?", "Ada lived in Paris"),
        ("languages spoken, written, or signed", "Which language does Ada speak?", "Who speaks Paris?",
         "Ada speaks Paris"),
        ("country of citizenship", "Which country is Ada a citizen of?", "Who is a citizen of Paris?",
         "Ada is a citizen of Paris"),
        ("educated at", "Where was Ada educated?", "Who was educated at Paris?", "Ada was educated at Paris"),
        ("homeworld", "Where does Ada come from?", "Who comes from Paris?", "Ada comes from Paris"),
        ("field of work", "Which field does Ada work in?", "Who works in Paris?", "Ada works in Paris"),
    ],
)
def test_known_relations_are_said_with_their_verbs(tmp_path, label, question, inverse, statement):
    """Relations people say with a verb of their own (kg2tool.synth.language.known_wordings) get questions with
    auxiliaries in the right tense, `where` for places, and statements without the label's noun."""
    ttl = tmp_path / "g.ttl"
    ttl.write_text(
        '@prefix : <http://x.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n'
        f':rel rdfs:label "{label}" .\n:ada rdfs:label "Ada" ; :knows :bo ; :rel :paris .\n'
        ':bo rdfs:label "Bo" ; :rel :paris ; :knows :ada .\n:paris rdfs:label "Paris" .\n'
    )
    kg = load_graph(str(ttl))
    rel_iri = next(i for i in kg.relations if kg.relations[i].label == label)
    sp = Speaker(kg, derive_lexicon(kg))
    ada, paris = kg.resolve("Ada"), kg.resolve("Paris")
    assert sp.wh(Project(rel_iri, Anchor(ada))) + "?" == question
    who = sp.wh(Project(rel_iri, Anchor(paris), inverse=True)) + "?"
    assert who.split()[1:] == inverse.split()[1:]  # `Who` / `Which people`: the kind is the graph's
    assert sp.statement(Project(rel_iri, Anchor(ada)), ["Paris"]) == statement


def test_plurals_and_tenses_come_from_the_libraries():
    assert word_relation("place of birth")[0].plural == "places of birth"
    assert word_relation("written by")[0].active == "wrote"
    assert word_relation("produces")[0].verbs == "produce"
    assert word_relation("member of")[0].verbs == "members of"
    assert word_relation("notable works")[0].noun == "notable work"
    assert word_relation("languages spoken, written, or signed")[0].noun == "language"  # known: "speaks"
    assert split_label("hasMaker") == "has maker" and split_label("ISBN_code") == "ISBN code"


def test_a_noun_with_a_participle_after_it_takes_the_plural_on_the_noun():
    """English puts a participle after its noun ("area served", schema.org's areaServed; "language spoken"): the
    plural is the noun's ("areas served", not "area serveds"); a noun that ends in -ed stays a noun ("speeds")."""
    from kg2tool.synth.language.lexicon import plural

    assert [plural(n) for n in ("area served", "language spoken", "date founded", "speed", "related item",
                                "celebrities impersonated")] == [
        "areas served", "languages spoken", "dates founded", "speeds", "related items", "celebrities impersonated"]  # fmt: skip


def test_kinds_are_inferred_without_types_and_read_from_types():
    wiki = derive_lexicon(load_graph([EXAMPLES / "wiki.ttl"]))  # no rdf:type / P31 in this file
    by_label = {w.label: w for w in wiki.relations.values()}
    assert by_label["place of birth"].subject == "person"
    assert by_label["country of citizenship"].object == "country"
    assert by_label["influenced by"].object == "person"
    company = derive_lexicon(load_graph([EXAMPLES / "company.ttl"]))  # typed: ex:Person, ex:Company, ...
    by_label = {w.label: w for w in company.relations.values()}
    assert (by_label["founded by"].subject, by_label["founded by"].object) == ("company", "person")


def test_questions_and_answers_agree_in_number():
    kg = load_graph([EXAMPLES / "company.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    founded = next(iri for iri, r in kg.relations.items() if r.label == "founded by")
    company = next(e for e, objs in kg.relations[founded].forward.items() if len(objs) >= 2)
    node = Project(founded, Anchor(company))
    name = kg.name(company)
    assert sp.wh(node) == f"Who founded {name}"
    assert sp.statement(node, ["A", "B"]) == f"{name} was founded by A and B"
    ceo = next(iri for iri, r in kg.relations.items() if r.label == "chief executive officer")
    node = Project(ceo, Anchor(company))
    assert sp.statement(node, ["A"]) == f"{name}'s chief executive officer is A"
    assert sp.statement(node, ["A", "B"]) == f"{name}'s chief executive officers are A and B"


def test_edited_lexicon_changes_the_wording_and_bad_entries_name_file_and_key(tmp_path, example_kg):
    lex = derive_lexicon(example_kg)
    iri = sorted(lex.relations)[0]
    path = tmp_path / "lexicon.yaml"
    path.write_text(lex.to_yaml(), encoding="utf-8")
    assert load_lexicon(path, example_kg).relations[iri] == lex.relations[iri]  # the written file reads back
    path.write_text(f"relations:\n  {iri}:\n    form: noun\n    noun: birthplace\n    plural: birthplaces\n")
    assert load_lexicon(path, example_kg).relations[iri].noun == "birthplace"
    for text, needle in [
        ("relations:\n  http://nope/x:\n    noun: y\n", "relations.http://nope/x"),
        (f"relations:\n  {iri}:\n    colour: y\n", "colour: unknown field"),
        (f"relations:\n  {iri}:\n    form: adverb\n", "form: 'adverb' is not one of"),
        (f"relations:\n  {iri}:\n    multi: maybe\n", "multi: must be a bool"),
    ]:
        path.write_text(text)
        with pytest.raises(InputError, match=str(path)) as err:
            load_lexicon(path, example_kg)
        assert needle in str(err.value)


def test_the_lint_flags_the_wording_it_is_for():
    def row(q, a, answers):
        return {"messages": [{"role": "user", "content": q}, {"role": "assistant", "content": a}], "answers": answers}

    bad = [
        row("What is what everything that is both X and Y is educated at?", "It is A.", ["A"]),
        row("How many entities are the entities that are written by X?", "The count is 2.", ["2"]),
        row("What is the has color of X?", "The color of X is A.", ["A"]),
        row("What is X?", "The country of citizenship of X are A.", ["A"]),
        row("What is X?", "The country of citizenship of X is A and B.", ["A", "B"]),
        row("What is X??", "It is A.", ["A"]),
        row("What " + "very " * 30 + "long?", "It is A.", ["A"]),
    ]
    assert all(language_problems(r) for r in bad)
    good = row("Who founded Acme Inc.?", "Acme Inc. was founded by A and B.", ["A", "B"])
    assert language_problems(good) == []


@pytest.mark.parametrize("graph", ["wiki.ttl", "company.ttl"])
def test_datasets_on_the_bundled_graphs_pass_the_language_lint(graph):
    kg = load_graph([EXAMPLES / graph])
    synth = Synthesizer(kg, SynthConfig(n=300, seed=0, shard_size=300))
    rows, stats = synth.shard(0)
    assert len(rows) > 200
    problems = [p for row in rows for p in language_problems(row)]
    assert problems == []
    descriptions = [s["function"]["description"] for s in synth.ts.schemas()]
    assert not [d for d in descriptions if " of of " in d or "the has " in d or "Get the founded by" in d]


def test_synth_writes_the_lexicon_and_reads_an_edited_one_back(tmp_path, small_graph_path):
    """`kg2tool synth` writes OUT/lexicon.yaml; `--lexicon FILE` with one relation reworded changes its questions
    (and tool descriptions), and a bad entry fails naming the file and key before anything is written."""
    import json

    import pyarrow.parquet as pq

    from kg2tool.cli import main

    base = ["synth", "--graph", str(small_graph_path), "-n", "60", "--only", "simple", "--no-progress"]
    assert main(base + ["--out", str(tmp_path / "a")]) == 0
    written = tmp_path / "a" / "lexicon.yaml"
    lex = load_lexicon(written, load_graph([small_graph_path]))  # the written file is a valid lexicon
    iri = next(k for k, w in sorted(lex.relations.items()) if w.form == "noun")
    edited = tmp_path / "edited.yaml"
    edited.write_text(f"relations:\n  {iri}:\n    noun: zorblax\n    plural: zorblaxes\n", encoding="utf-8")
    assert main(base + ["--out", str(tmp_path / "b"), "--lexicon", str(edited)]) == 0
    rows = [r for p in sorted((tmp_path / "b" / "sft").glob("*.parquet")) for r in pq.read_table(p).to_pylist()]
    texts = [json.loads(r["messages"][0])["content"] for r in rows]
    assert any("zorblax" in t for t in texts)
    descriptions = [t["function"]["description"] for r in rows for t in map(json.loads, r["tools"])]
    assert any("zorblax" in d for d in descriptions)
    edited.write_text("relations:\n  http://nope/x:\n    noun: y\n", encoding="utf-8")
    assert main(base + ["--out", str(tmp_path / "c"), "--lexicon", str(edited)]) != 0
    assert not (tmp_path / "c").exists()


def test_class_labels_become_common_nouns(tmp_path):
    """A graph's own class labels name the kinds as common nouns: `University` -> `university` (so `universities`,
    not inflect's proper-noun `Universitys`), `ResearchAward` -> `research award`."""
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon, plural

    lines = ["@prefix ex: <http://example.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             'ex:University rdfs:label "University" .', 'ex:ResearchAward rdfs:label "ResearchAward" .']  # fmt: skip
    for i in range(6):
        lines += [f'ex:u{i} a ex:University ; rdfs:label "Uni {i}" .',
                  f'ex:a{i} a ex:ResearchAward ; rdfs:label "Award {i}" ; ex:givenBy ex:u{i} .']  # fmt: skip
    path = tmp_path / "g.ttl"
    path.write_text("\n".join(lines) + "\n")
    kg = load_graph([path])
    lex = derive_lexicon(kg)
    kinds = {name: lex.kind_of(kg.resolve(name)) for name in ("Uni 0", "Award 0")}
    assert kinds == {"Uni 0": "university", "Award 0": "research award"}
    assert plural(kinds["Uni 0"]) == "universities"


def test_a_credit_line_is_said_by_who_did_the_work(tmp_path):
    """English credit lines ("production design by X", "story by X") name who made a work: by the agent noun of the
    work's last word where it is a verb too ("the production designer", its subject's kind not repeated), else as
    "credited with the story of"; never as what the work features."""
    ttl = tmp_path / "g.ttl"
    ttl.write_text(
        "@prefix : <http://x.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        ":Film rdfs:label \"film\" . :Person rdfs:label \"person\" .\n"
        ":film_production_design_by rdfs:label \"film production design by\" . :story_by rdfs:label \"story by\" .\n"
        ":cape a :Film ; rdfs:label \"Cape Fear\" ; :film_production_design_by :riva ; :story_by :dumas .\n"
        ":gigi a :Film ; rdfs:label \"Gigi\" ; :film_production_design_by :riva ; :story_by :colette .\n"
        ":riva a :Person ; rdfs:label \"J. Michael Riva\" . :dumas a :Person ; rdfs:label \"Alexandre Dumas\" .\n"
        ":colette a :Person ; rdfs:label \"Colette\" ; :story_by :dumas .\n"
    )
    kg = load_graph(str(ttl))
    sp = Speaker(kg, derive_lexicon(kg))
    design, story = "http://x.org/film_production_design_by", "http://x.org/story_by"
    cape, riva, dumas = kg.resolve("Cape Fear"), kg.resolve("J. Michael Riva"), kg.resolve("Alexandre Dumas")
    assert sp.wh(Project(design, Anchor(cape))) + "?" == "Who is the production designer of Cape Fear?"
    assert sp.wh(Project(design, Anchor(riva), inverse=True)) + "?" == (
        "Which films have J. Michael Riva as their production designer?"
    )
    assert sp.wh(Project(story, Anchor(cape))) + "?" == "Who was credited with the story of Cape Fear?"
    assert "credited with the story of" in sp.wh(Project(story, Anchor(dumas), inverse=True))
    assert word_relation("costume design by")[0].noun == "costume designer"


def test_people_are_known_by_what_only_people_do_whatever_the_label_convention(tmp_path):
    """Untyped subjects of `wasBornIn`, `isMarriedTo`, `actedIn` (YAGO's camelCase, with is/was in front) are people,
    asked with who, as the subjects of "place of birth" are."""
    ttl = tmp_path / "g.ttl"
    ttl.write_text(
        "@prefix y: <http://yago-knowledge.org/resource/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        + "".join(f'y:p{k} rdfs:label "Person {k}" ; y:wasBornIn y:c{k % 2} ; y:actedIn y:f{k % 3} ; '
                  f'y:isMarriedTo y:p{(k + 1) % 6} .\n' for k in range(6))
        + "".join(f'y:c{k} rdfs:label "City {k}" .\n' for k in range(2))
        + "".join(f'y:f{k} rdfs:label "Film {k}" .\n' for k in range(3))
    )  # fmt: skip
    kg = load_graph(str(ttl))
    lex = derive_lexicon(kg)
    assert lex.kind_of(kg.resolve("Person 1")) == "person"
    sp = Speaker(kg, lex)
    married = "http://yago-knowledge.org/resource/isMarriedTo"
    assert sp.wh(Project(married, Anchor(kg.resolve("Person 1")))).startswith("Who ")


def test_class_labels_read_as_common_nouns_and_shapes_are_no_facts(tmp_path):
    """Title Case class labels are common nouns ("Software Product" -> software product), a participle after its
    noun goes before it ("Feature Classified" -> classified feature), a capitalised preposition in a label is a
    preposition ("published In Journal"), and W3C SHACL shapes describe the data, not the world: no relations."""
    ttl = tmp_path / "g.ttl"
    ttl.write_text(
        "@prefix ex: <http://ex.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        'ex:Product rdfs:label "Software Product" . ex:Feature rdfs:label "Feature Classified" .\n'
        'ex:offers rdfs:label "offers feature" . ex:inJournal rdfs:label "published In Journal" .\n'
        + "".join(f'ex:p{k} a ex:Product ; rdfs:label "Product {k}" ; ex:offers ex:f{k % 3} ; ex:inJournal ex:j{k % 2} .\n'
                  for k in range(6))
        + "".join(f'ex:f{k} a ex:Feature ; rdfs:label "Feature {k}" .\n' for k in range(3))
        + "".join(f'ex:j{k} rdfs:label "Journal {k}" .\n' for k in range(2))
        + 'ex:shape a sh:NodeShape ; sh:targetClass ex:Product ; sh:property ex:pshape .\n'
        + 'ex:pshape a sh:PropertyShape ; sh:path ex:offers .\n'
    )  # fmt: skip
    kg = load_graph(str(ttl))
    assert not [r.label for r in kg.relations.values() if r.iri.startswith("http://www.w3.org/ns/shacl#")]
    lex = derive_lexicon(kg)
    assert lex.kind_of(kg.resolve("Product 1")) == "software product"
    assert lex.kind_of(kg.resolve("Feature 1")) == "classified feature"
    w = lex.relations["http://ex.org/inJournal"]
    assert (w.form, w.verb, w.object) == ("prep", "published in", "journal")


def test_a_one_word_s_label_is_a_verb_unless_its_objects_are_the_nouns_kind_or_a_role(tmp_path):
    """A one-word label that English reads both as a plural noun and as a verb in the third person is the verb
    (property names are singular nouns or verb phrases): "Which sessions does X moderate?", "Which features does X
    offer?", not "the moderates of X"; it stays a noun where its objects are of the noun's kind (a person's
    `papers`), the noun names people's role (a paper's `authors`), or its objects are people of a thing that is
    none (a session's `chairs`)."""
    rels = {"moderates": ("Person", "Session"), "offers": ("Product", "Feature"), "papers": ("Person", "Paper"),
            "authors": ("Paper", "Person"), "chairs": ("Session", "Person")}  # fmt: skip
    lines = ["@prefix : <http://x.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for cls in {c for pair in rels.values() for c in pair}:
        lines.append(f':{cls} rdfs:label "{cls.lower()}" .')
        lines += [f':{cls.lower()}{k} a :{cls} ; rdfs:label "{cls} {k}" .' for k in range(3)]
    for rel, (s, o) in rels.items():
        lines += [f":{s.lower()}{k} :{rel} :{o.lower()}{k}, :{o.lower()}{(k + 1) % 3} ." for k in range(3)]
    ttl = tmp_path / "g.ttl"
    ttl.write_text("\n".join(lines) + "\n")
    kg = load_graph(str(ttl))
    lex = derive_lexicon(kg)
    forms = {rel: lex.relations[f"http://x.org/{rel}"].form for rel in rels}
    assert forms == {"moderates": "verb", "offers": "verb", "papers": "noun", "authors": "noun", "chairs": "noun"}
    sp = Speaker(kg, lex)
    moderates = "http://x.org/moderates"
    assert sp.wh(Project(moderates, Anchor(kg.resolve("Person 1")))) == "Which sessions does Person 1 moderate"
    assert sp.wh(Project(moderates, Anchor(kg.resolve("Session 1")), inverse=True)).startswith("Who moderates ")


def test_a_label_ending_in_a_verb_form_that_is_no_noun_is_a_verb(tmp_path):
    """A label whose last word is a verb in the third person that English has no noun for (`implies`) is never said
    as a noun ("the implies of X"): the verb, with an adverb before it kept ("commonly implies") and another word
    before it dropped ("related implies" -> implies)."""
    lines = [':relatedImplies rdfs:label "related implies" .', ':commonlyImplies rdfs:label "commonly implies" .']
    lines += [f':t{k} rdfs:label "Tag {k}" ; :relatedImplies :t{(k + 1) % 4} ; :commonlyImplies :t{(k + 2) % 4} .'
              for k in range(4)]  # fmt: skip
    kg, lex = turtle_graph(tmp_path, lines)
    related, commonly = lex.relations["http://x.org/relatedImplies"], lex.relations["http://x.org/commonlyImplies"]
    assert (related.form, related.verb, commonly.form, commonly.verb) == ("verb", "implies", "verb", "commonly implies")
    sp = Speaker(kg, lex)
    assert sp.wh(Project("http://x.org/relatedImplies", Anchor(kg.resolve("Tag 1")))) == "What does Tag 1 imply"


def test_a_plural_concept_name_takes_a_plural_verb(tmp_path):
    """Thesauri name concepts by plural common noun phrases ("Be stars", "Infrared observatories"): English agrees
    the verb and the pronoun with them ("What do Be stars fall under?", "Be stars fall under Variable stars", "...
    and what do they include?"); a singular or proper name keeps the singular, and so does a title of a work."""
    from kg2tool.synth.language.grammar import plural_name
    from kg2tool.synth.language.render import _own_wh
    from kg2tool.synth.plans.tree import Parallel

    assert [plural_name(n) for n in ("Be stars", "AGN host galaxies", "Calendars", "DQ Herculis stars", "Black hole physics",
                                     "United States", "Time series", "Athens", "Relativity")] == [True, True, True, True, False, False, False, False, False]  # fmt: skip
    names = ["Be stars", "Variable stars", "Stars", "Black hole physics", "Gravitation", "Infrared observatories"]
    lines = [f':c{i} a skos:Concept ; skos:prefLabel "{n}"@en .' for i, n in enumerate(names)]
    lines += [":c0 skos:broader :c1 .", ":c1 skos:broader :c2 .", ":c3 skos:broader :c4 .", ":c5 skos:broader :c2 .",
              ":c0 skos:narrower :c5 .", ":c3 skos:narrower :c0 ."]  # fmt: skip
    kg, lex = turtle_graph(tmp_path, lines)
    sp = Speaker(kg, lex)
    broader, narrower = "http://www.w3.org/2004/02/skos/core#broader", "http://www.w3.org/2004/02/skos/core#narrower"
    be_stars, physics = Anchor(kg.resolve("Be stars")), Anchor(kg.resolve("Black hole physics"))
    assert sp.wh(Project(broader, be_stars)) == "What do Be stars fall under"
    assert sp.wh(Project(broader, physics)) == "What does Black hole physics fall under"
    assert sp.statement(Project(broader, be_stars), ["Variable stars"]) == "Be stars fall under Variable stars"
    assert sp.statement(Project(broader, physics), ["Gravitation"]) == "Black hole physics falls under Gravitation"
    plan = Parallel((Project(narrower, be_stars), Project(broader, be_stars)))
    whs = [sp.wh(k) for k in plan.children]
    assert _own_wh(sp, kg, plan, whs) == "What do Be stars include and what do they fall under"


def test_words_that_name_no_kind_are_no_kind_and_the_doer_is_asked_with_who(tmp_path):
    """A label that opens with a word naming no kind of its subject (`Concept_In_Subset`) is said by the rest ("Which
    subsets is X in?"); a vocabulary's own root class (`Agent`) names no kind, so a by-relation's doer is asked
    with who ("Who created X?", not "Which agents created X?" nor "Which creators created X?"); "rights holder" is a
    noun ("rights" stands before a noun in the plural)."""
    assert word_relation("Concept_In_Subset")[0].form == "prep" and word_relation("Concept_In_Subset")[1] == "subset"
    assert word_relation("concept of")[0].verb == "a concept of"
    assert word_relation("rightsHolder")[0].form == "noun"
    lines = [f':a{k} a :Agent ; rdfs:label "Agency {k}" .' for k in range(3)]
    lines += [f':v{k} a :Asset ; rdfs:label "Vocabulary {k}" ; dct:creator :a{k % 3} .' for k in range(6)]
    kg, lex = turtle_graph(tmp_path, lines)
    assert lex.kind_of(kg.resolve("Agency 1")) != "agent"
    sp = Speaker(kg, lex)
    assert sp.wh(Project("http://purl.org/dc/terms/creator", Anchor(kg.resolve("Vocabulary 1")))) == "Who created Vocabulary 1"


def test_a_label_shaped_as_a_sentence_is_said_without_its_subject():
    """English puts the subject first: the nouns that open "relation has source", "thing is target of relation" or
    "relation connects" name the subject's kind, not the relation; nouns between "is" and a participle with its
    preposition too ("is agent associated with agent"). A noun that is a verb too opens a compound, not a
    sentence ("works for", "record label")."""
    def said(label):
        w, hint = word_relation(label)
        return w.form, w.noun or w.verb, hint

    assert said("relationHasSource") == ("noun", "source", "source")
    assert said("thingIsTargetOfRelation") == ("prep", "a target of", "relation")  # X *is* a target of Y
    assert said("relationConnects") == ("verb", "connects", "")
    assert said("isAgentAssociatedWithAgent") == ("prep", "associated with", "agent")
    assert said("isRecordResourceAssociatedWithRecordResource") == ("prep", "associated with", "record resource")
    assert said("record label") == ("noun", "record label", "record label")
    assert said("worksFor")[0] == "verb" and said("isPartOf") == ("prep", "part of", "")


def test_an_adverb_before_a_verb_leaves_the_verb_to_agree():
    """"directly includes": the verb after an adverb agrees with its subject ("Which record resources does X
    directly include?"), the adverb stays in front."""
    w = word_relation("directlyIncludes")[0]
    assert (w.form, w.verb, w.verbs, w.base) == ("verb", "directly includes", "directly include", "directly include")
    assert word_relation("directlyFollowsInSequence")[0].base == "directly follow in sequence"
    assert word_relation("isDirectlyIncludedIn")[0].verb == "directly included in"


def test_a_noun_of_type_is_said_by_its_noun():
    """"has occupation of type": the objects are types of occupation, each said as the occupation it is."""
    w, hint = word_relation("hasOrHadOccupationOfType")
    assert (w.form, w.noun, w.plural, hint) == ("noun", "occupation", "occupations", "!occupation")


def test_an_optional_plural_and_an_acronym_take_the_sentence_s_number():
    """"has part(s)": the parenthesis leaves the number open, the sentence says it ("parts", "part"); an acronym's
    plural takes a lower-case s ("URLs", "CDs")."""
    w, hint = word_relation("has part(s)")
    assert (w.noun, w.plural, hint) == ("part", "parts", "part")
    assert plural("URL") == "URLs" and plural("CD") == "CDs" and singular("part(s)") == "part"


def test_skos_related_holds_now():
    """SKOS's `related` is a state that holds: "What is X related to?", not "What was X related to?"."""
    w = word_relation("related")[0]
    assert (w.form, w.verb, w.tense) == ("prep", "related to", "present")


def test_a_word_the_dictionary_lacks_after_a_verb_is_its_object():
    """"serves dataset": a verb and then a noun lemminflect's dictionary lacks (a new compound, a term of the field)
    is a verb and its object ("Which datasets does X serve?"), not a noun "serves dataset"; a plural noun before a
    noun stays a noun ("sports team")."""
    w, hint = word_relation("servesDataset")
    assert (w.form, w.verb, w.verbs, hint) == ("verb", "serves", "serve", "dataset")
    assert word_relation("sports team")[0].form == "noun"


def test_has_a_noun_and_a_preposition_is_a_verb_phrase():
    """"has full sovereignty over": X has sovereignty over Y, a verb phrase ("Which regions does X have full
    sovereignty over?"), not a noun "full sovereignty over" with a plural "sovereignty overs"."""
    w = word_relation("hasFullSovereigntyOver")[0]
    assert (w.form, w.verb, w.verbs, w.base) == ("verb", "has full sovereignty over", "have full sovereignty over",
                                                 "have full sovereignty over")
    assert word_relation("has part")[0].form == "noun"


def test_an_ing_noun_before_of_is_a_role():
    """"scaling of": an -ing form the dictionary knows as a noun is the noun ("Which unit is X a scaling of?"), not
    a past participle phrase ("Which unit was X scaling of?")."""
    w = word_relation("scalingOf")[0]
    assert (w.form, w.verb, w.verbs) == ("prep", "a scaling of", "scalings of")


def test_a_noun_of_the_objects_kind_is_the_subjects_role_in_them(tmp_path):
    """"defined unit of system", whose objects are systems of units: X is a defined unit of Y ("Which systems of
    units is Coulomb a defined unit of?"), not "the defined unit of system of Coulomb"; a noun of another word stays
    a noun ("place of birth"); "KIND PREPOSITION KIND" led by the subject's kind and ending in the objects' is the
    subject's role in them too ("unit for quantity kind" of a unit: Which quantity kinds is Coulomb a unit for?)."""
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon

    path = tmp_path / "units.ttl"
    path.write_text("""@prefix : <http://u.org/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Unit rdfs:label "unit" .  :System rdfs:label "system of units" .  :Kind rdfs:label "quantity kind" .
:si a :System ; rdfs:label "International System of Units" .  :cgs a :System ; rdfs:label "CGS System" .
:c a :Unit ; rdfs:label "Coulomb" ; :definedUnitOfSystem :si ; :unitForQuantityKind :charge .
:m a :Unit ; rdfs:label "Metre" ; :definedUnitOfSystem :si, :cgs ; :unitForQuantityKind :length .
:charge a :Kind ; rdfs:label "Electric Charge" .  :length a :Kind ; rdfs:label "Length" .
""", encoding="utf-8")  # fmt: skip
    lex = derive_lexicon(load_graph([path]))
    defined = lex.relations["http://u.org/definedUnitOfSystem"]
    assert (defined.form, defined.verbs, defined.object) == ("prep", "defined units of", "system of units")
    assert defined.verb in ("a defined unit of", "the defined unit of")
    unit_for = lex.relations["http://u.org/unitForQuantityKind"]
    assert (unit_for.form, unit_for.verbs, unit_for.object) == ("prep", "units for", "quantity kind")
    assert unit_for.verb in ("a unit for", "the unit for")  # "the" where each object has one


def test_kind_preposition_kind_without_types_names_the_objects_by_what_follows_the_preposition(tmp_path):
    """Without types, the objects of "event in competition phase" are competition phases (what follows the
    preposition), not "events in competition phase"; the subject is an event in one (Which competition phase is X an
    event in?). A subject of another kind keeps the noun ("time in office" of a person)."""
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon, word_relation

    assert word_relation("place of birth")[1] == "place"  # "of": the head names them, as before
    path = tmp_path / "sport.ttl"
    path.write_text("""@prefix : <http://s.org/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Event rdfs:label "event" .
:m1 a :Event ; rdfs:label "Leeds v Burnley" ; :eventInCompetitionPhase :w1 .
:m2 a :Event ; rdfs:label "Everton v Fulham" ; :eventInCompetitionPhase :w1, :w2 .
:w1 rdfs:label "Week 1" .  :w2 rdfs:label "Week 2" .
:Cup rdfs:label "tournament" .  :c1 a :Cup ; rdfs:label "Open 2011" ; :championInSingleMale :p1 .
:c2 a :Cup ; rdfs:label "Open 2012" ; :championInSingleMale :p2 .  :p1 rdfs:label "Ann Bee" .  :p2 rdfs:label "Cy Dee" .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    lex = derive_lexicon(kg)
    rel = lex.relations["http://s.org/eventInCompetitionPhase"]
    assert (rel.form, rel.verb, rel.object) == ("prep", "an event in", "competition phase")
    assert lex.kind_of(kg.resolve("Week 1")) == "competition phase"  # said so in every question, not "events in ..."
    champion = lex.relations["http://s.org/championInSingleMale"]
    assert (champion.form, champion.object) == ("noun", "champion in single male")


def test_a_ship_noun_of_is_the_role_it_names_the_state_of():
    """English "-ship" names the state of being the stem: "membership of" is "member of" (Which team is X a member
    of?); a "-ship" noun of its own meaning stays ("relationship to")."""
    from kg2tool.synth.language.lexicon import word_relation

    member = word_relation("membership of")[0]
    assert (member.form, member.verb, member.verbs) == ("prep", "a member of", "members of")
    assert word_relation("isMembershipOf")[0].verb == "a member of"
    assert "relationship" in word_relation("relationship to")[0].verb


def test_a_records_role_of_the_classs_word_family_is_said_alone():
    """A relation composed through a folded record whose class and role are one word family (a nomination's
    nominee) is said by the role ("Who are the nominees of X?"); another role keeps the class ("nomination
    category")."""
    from urllib.parse import quote

    from kg2tool.synth.language.lexicon import Wording, _folded_wording

    def folded(to: str, noun: str) -> Wording:
        iri = "urn:kg2tool:fold?class=" + "&".join(
            [quote("http://x.org/Nomination", safe=""), "from=" + quote("http://x.org/hasFilm", safe=""),
             "to=" + quote(f"http://x.org/{to}", safe="")])  # fmt: skip
        w = Wording(noun, "noun", noun=noun, plural=noun + "s", subject="film", object="person")
        return _folded_wording(iri, w)

    assert (folded("hasNominee", "nomination nominee").noun, folded("hasNominee", "nomination nominee").plural) == (
        "nominee", "nominees")  # fmt: skip
    assert folded("hasCategory", "nomination category").noun == "nomination category"
