"""The default shape mix and the forms of the set shapes that blind readers accepted (README, "How natural, measured
blind"): nested set operations off by default, a name's set narrowed by the same relation from another name, the
others that share something with a topic said as sharing, comparisons said by what is compared."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from checks import check_row

from kg2tool.graph.build import load_graph
from kg2tool.synth.language.known_wordings import COMPARATIVES
from kg2tool.synth.language.lexicon import PERSON_KINDS
from kg2tool.synth.paraphrase.rewrite import plan_names
from kg2tool.synth.plans.tree import Anchor, Attr, Compare, Count, Project, SetOp, co_parts, execute
from kg2tool.synth.run.synthesizer import DEFAULT_MIX, SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet
from kg2tool.synth.walk.walker import Walker

REAL = Path(__file__).parent / "data" / "real"
NESTED = ("ip", "pi", "up", "3in", "inp", "pin", "pni", "cop")


@pytest.fixture(scope="module")
def swapi_kg():
    return load_graph([REAL / "swapi-starwars.ttl.gz"])


def question(row) -> str:
    return row["messages"][0]["content"]


def chain_steps(plan) -> list:
    """The projections of a chain, the last said first (`plan` itself, then its child, ...)."""
    steps = []
    while isinstance(plan, Project):
        steps.append(plan)
        plan = plan.child
    return steps


def test_nested_set_operations_are_off_by_default_and_on_by_mix(example_kg):
    assert all(DEFAULT_MIX[s] == 0 for s in NESTED) and sum(w > 0 for w in DEFAULT_MIX.values()) >= 15
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=1, shard_size=200)).shard(0)
    assert rows and not {r["pattern"] for r in rows} & set(NESTED)
    on = {s: 1.0 if s in ("pi", "cop") else 0.0 for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=1, shard_size=60, mix=on)).shard(0)
    assert {r["pattern"] for r in rows} == {"pi", "cop"}
    fresh = ToolSet.from_graph(example_kg)
    assert all(check_row(r, fresh) == [] for r in rows)


def test_a_names_set_leaves_out_what_another_name_has_by_the_same_relation(example_kg):
    """"the genres of A that B does not have", "who was influenced by A but not by B": the left-out branch uses the
    lookup's own relation, one a subject usually has several of, and never "the city A died in but B did not"
    (readers rejected 17 of 18 negations that mixed relations or had one value each)."""
    walker = Walker(ToolSet.from_graph(example_kg))
    rng, seen = random.Random(4), 0
    for _ in range(120):
        plan = walker.sample("2in", rng)
        if plan is None:
            continue
        include, exclude = plan.children
        assert isinstance(include, Project) and isinstance(include.child, Anchor)
        assert (exclude.rel, exclude.inverse) == (include.rel, include.inverse)
        w = walker.lex.relations[include.rel]
        assert w.multi and not (w.where and not include.inverse), (w.label, include.inverse)
        assert not (w.form == "noun" and include.inverse), w.label  # "whose pilot is A but not B": rejected
        seen += 1
    assert seen >= 40


def test_the_others_that_share_a_subject_with_the_topic_are_said_as_sharing(swapi_kg):
    """x <-r- M -r-> others (a starship's other pilots): "Which other characters share a starship with Han Solo?",
    never "apart from Han Solo, which characters are the pilots of the starships whose pilot is Han Solo"; and not
    asked where M are people unless the relation is symmetric ("countries that share a person with Sweden")."""
    synth = Synthesizer(swapi_kg, SynthConfig(seed=2, min_support=3, shard_size=80, mix={"co": 1.0}))
    rows, _ = synth.shard(0)
    back = [r for r in rows if r["plan"]["of"][0]["of"]["inverse"] is True]  # the first step walked backwards
    assert len(back) >= 5
    for row in back:
        q = question(row)
        assert not q.lower().startswith("apart from") and re.search(r"\bshares? an? [a-z]", q), q
        assert not re.search(r"\bshares? an? (person|character|people)\b", q), q
    for _ in range(200):
        plan = synth.walker.sample("co", random.Random(_))
        if plan is not None and (parts := co_parts(plan))[0].inverse:
            w = synth.walker.lex.relations[parts[0].rel]
            assert w.subject not in PERSON_KINDS and (w.subject != w.object or w.mirror == parts[0].rel)


def test_comparisons_say_what_they_compare(example_kg, swapi_kg):
    """A count of people by a noun relation is asked "Which is the more common occupation, A or B", not "has more
    people" (read as staff) or "Which occupation is the occupation of more people" (rejected in round 24); a folded record's attribute ("a country's film release date", "the earlier award recognition award
    date") is compared only where it has a comparative ("Who won the prize later?")."""
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=3, shard_size=500, mix={"compare": 1.0})).shard(0)
    counts = [r for r in rows if r["plan"]["of"][0]["op"] == "count"]
    assert len(counts) >= 20 and not any(re.search(r"has (more|fewer) people\b", question(r)) for r in counts)
    assert any(re.search(r"^Which is the more common [a-z ]+, ", question(r)) for r in counts)
    assert not any(re.search(r" is the [a-z ]+ of (more|fewer) people", question(r)) for r in counts)
    # one kind both ways (siblings): "Who has fewer siblings", not "is the sibling of"; and only where it is true
    # of both counts ("Universal Music Group has more parent organizations (11)" counted its subsidiaries)
    assert not any(re.search(r"is the sibling of", question(r)) for r in counts)
    assert any(re.search(r"has (more|fewer) siblings", question(r)) for r in counts)
    assert not any("has more parent organizations" in question(r) and r["plan"]["of"][0]["of"]["inverse"] for r in counts)
    for row in counts:
        words = re.search(r"has (?:more|fewer) ([a-z ]+?),", question(row))
        for item in row["plan"]["of"] if words and row["plan"]["of"][0]["of"]["inverse"] else ():
            rel, anchor = item["of"]["relation"], example_kg.resolve(item["of"]["of"]["name"])
            both = [execute(example_kg, Project(rel, Anchor(anchor), inv)) for inv in (False, True)]
            assert both[0] == both[1] or words[1] != plural_nouns(example_kg, rel), question(row)
    walker = Synthesizer(swapi_kg, SynthConfig(min_support=3)).walker
    rng, attrs = random.Random(0), 0
    for _ in range(300):
        plan = walker.sample("compare", rng)
        if isinstance(plan, Compare) and isinstance(plan.items[0], Attr):
            attrs += 1
            a = walker.lex.attributes[plan.items[0].attr]
            assert not plan.items[0].attr.startswith("urn:kg2tool:fold?") or a.noun in COMPARATIVES, a.noun
        else:
            assert plan is None or isinstance(plan.items[0], Count)
    assert attrs >= 30


def test_the_nobel_vocabulary_reads_as_english():
    """Readers rejected "laureate deaddate", "award keyword", "laureate award" and "whose affiliation is": an
    attribute noun without its subject's kind ("date of death"), a laureate's "fields", a "prize", "worked at"."""
    kg = load_graph([REAL / "nobelprize.nt.gz"])
    synth = Synthesizer(kg, SynthConfig(min_support=3))
    nobel = synth.walker.lex
    death = nobel.attributes["http://dbpedia.org/property/dateOfDeath"]
    assert (death.label, death.noun, death.subject) == ("laureate deaddate", "date of death", "laureate")
    affiliation = nobel.relations["http://dbpedia.org/ontology/affiliation"]
    assert (affiliation.form, affiliation.verb, affiliation.where) == ("verb", "worked at", True)
    fields = [w for iri, w in nobel.relations.items() if iri.endswith("subject")]
    assert [(w.noun, w.object) for w in fields] == [("field", "field")]
    assert nobel.relations["http://data.nobelprize.org/terms/nobelPrize"].object == "prize"
    rows, _ = synth.shard(0)
    text = " ".join(m["content"] for r in rows for m in r["messages"] if m["role"] == "user")
    assert not re.search(r"award keyword|laureate award|whose affiliation|deaddate", text)


def test_questions_about_one_entity_are_asked_as_one_with_pronouns(swapi_kg, example_kg):
    """"Where was Peter Mayhew born, who did he play and which country is he a citizen of?": the later questions
    take the pronoun of the graph's gender attribute ("it" for things), not a list of fields."""
    from kg2tool.synth.language.render import pronouns

    synth = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3, shard_size=80, mix={"parallel_multiple": 1.0}))
    rows, _ = synth.shard(0)
    fresh = ToolSet.from_graph(swapi_kg, min_support=3)
    asked = 0
    for row in rows:
        assert check_row(row, fresh) == []
        kids = row["plan"]["of"]
        names = {k["of"].get("name") for k in kids}
        q = question(row)
        if len(names) != 1 or not re.search(r"\b(he|she|his|her|him|it|its|they|them|their)\b", q):
            continue
        asked += 1
        (name,) = names
        words = pronouns(swapi_kg, swapi_kg.resolve(name)) or ("it", "its")
        assert q.count(name) == 1 and re.search(rf"\b({'|'.join(words)})\b", q), q
        assert not re.search(r"\b(he|she|his|her|him|it|its|they|them|their)\b", q.replace(name, "").split(" and ")[0].split(", ")[0]), q
        assert not re.search(r"\b(they|them|their)\b", q), q  # readers rejected "they" for one person
    assert asked >= 10
    assert pronouns(swapi_kg, swapi_kg.resolve("Leia Organa")) == ("she", "her", "her")
    # a person the graph gives no gender: their nouns listed once ("What are X's siblings and religion?"), never
    # "they", never the name twice (round 26 rejected "Which languages does X speak? And what are ... of X?")
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=1, shard_size=80, mix={"parallel_multiple": 1.0})).shard(0)
    listed = [question(r) for r in rows if re.match(r"(Tell me|[Ww]hat are) [^?]+'s? [a-z ]+(, [a-z ]+)* and ", question(r))]
    assert listed and not any(re.search(r"\b(they|them|their)\b", question(r)) for r in rows)
    assert not any(question(r).count(n) > 1 for r in rows for n in set(plan_names(r["plan"]))), listed[:3]


def test_what_one_name_has_and_another_has_not_is_asked_as_people_ask_it(example_kg):
    """"Which genres does A have that B doesn't?", "Which languages does A speak that B doesn't?", "Which
    countries are members of A but not B?" (readers rejected "What is the genre of A that B does not have?")."""
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=5, shard_size=120, mix={"2in": 1.0})).shard(0)
    named = [r for r in rows if all(k["of"]["op"] == "entity" for k in r["plan"]["of"])]
    assert len(named) >= 20
    for row in named:
        q = question(row)
        assert re.search(r"(?:that .+ (?:doesn't|don't|didn't|isn't|wasn't)\?|but (?:\w+ )?not .+[?.])$", q), q
        assert "does not have" not in q, q
    assert sum("doesn't?" in question(r) or "isn't?" in question(r) for r in named) >= len(named) // 3


def test_counts_are_asked_with_the_wording_questions_use(swapi_kg):
    """"How many countries was Star Wars released in?" (the reverse wording), not "How many countries have Star
    Wars as their film release?"."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=2, min_support=3, shard_size=150, mix={"count": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"^how many countries was .+ released in\?$", q, re.I) for q in text)
    assert not any("as their film release" in q for q in text)


def test_a_place_named_by_where_something_happened_is_said_with_where(example_kg):
    """"What is the organization headquartered where Pasolini died?", not "... headquartered in the place where
    Pasolini died" (readers rejected "the location where X lived")."""
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=2, shard_size=200, mix={"2p": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"\b(born|died|lived|headquartered|buried|educated) where ", q) for q in text), text[:20]
    assert not any(re.search(r"\b(born|died|lived|headquartered) in the (place|location) where", q) for q in text)


def plural_nouns(kg, rel: str) -> str:
    from kg2tool.synth.language.lexicon import derive_lexicon

    return derive_lexicon(kg).relations[rel].plural


def test_works_are_asked_by_what_they_feature(swapi_kg):
    """"Which films feature Cato Neimoidia?", not "Which films have Cato Neimoidia as their planet?" (readers
    rejected all nine such questions)."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=4, min_support=3, shard_size=200, mix={"simple": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"^which films? features? ", q, re.I) for q in text)
    assert not any(re.search(r"films? (?:have|has) .+ as (?:their|its) ", q, re.I) for q in text)


def test_a_choice_among_a_names_set_is_never_garbled(swapi_kg):
    """"Which of Naboo fighter's pilots has as their starships include A and B?" came out of a clause with no
    "is" to turn into "has B as their starship": such a choice is asked another way."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=5, min_support=3, shard_size=300, mix={"3i": 1.0, "2i": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(q.lower().startswith("which of ") for q in text)
    assert not any(re.search(r"\b(has|have) as ", q) for q in text), [q for q in text if " as " in q][:3]


def test_sets_inside_a_question_and_a_bands_formation_read_as_english(example_kg):
    """"Which languages do people born in A speak?" (no article before several entities a name picks out; "the
    film released in Turkey" read as presuming one); Wikidata's location of formation, given here mostly to
    people, is where they "started out", not where they were "formed" (a wording readers found vague: its questions
    are not asked, rounds 23-44)."""
    lex = Synthesizer(example_kg, SynthConfig()).walker.lex
    formed = lex.relations["http://www.wikidata.org/prop/direct/P740"]
    assert (formed.subject, formed.verb, formed.where) == ("person", "started out in", True)
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=6, shard_size=300, mix={"2p": 1.0, "co": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert not any(re.search(r"\b(was|were) formed\b|\bformed in\b", q) for q in text)
    assert not any(re.search(r"\bstart(ed)? out\b", q) for q in text)  # vague to readers: asked about by no question
    assert any(re.search(r"\b(do|did) people (born|who|whose) ", q) for q in text) or any(
        re.search(r" of people ", q) for q in text)  # fmt: skip


def test_dialogues_name_no_made_up_name_and_nothing_is_compared_with_itself():
    """"Tell me the country whose successor is Geece (resource)": an error-recovery turn named a name kg2tool made
    up for a homonym; "Which country has fewer countries, Andorra or Uzbekistan?" counted a set holding the item."""
    from kg2tool.synth.run.synthesizer import made_up_name

    kg = load_graph([REAL / "nobelprize.nt.gz"])
    mix = {"error_recovery": 1.0, "missing_info": 1.0, "followup": 1.0, "compare": 1.0}
    synth = Synthesizer(kg, SynthConfig(seed=3, min_support=3, shard_size=300, mix=mix))
    rows, stats = synth.shard(0)
    made_up = {kg.name(e) for e in range(len(kg.labels)) if made_up_name(kg, e)}
    assert made_up and stats.dropped.get("made_up_name", 0) > 0
    for row in rows:
        q = question(row)
        named = set(re.findall(r'"op": "entity", "name": "([^"]+)"', json.dumps(row["plan"])))
        assert named and not named & made_up, q  # a typo of one ("Geece (resource)") is not in q
        if row["pattern"] == "compare" and row["plan"]["of"][0]["op"] == "count":
            for item in row["plan"]["of"]:
                anchor = kg.resolve(item["of"]["of"]["name"])
                assert anchor not in execute(kg, Project(item["of"]["relation"], Anchor(anchor), item["of"]["inverse"]))


def test_a_question_whose_answers_open_its_own_names_is_not_asked():
    """"Which category did the laureates who won Chemistry 2005 win a prize in?" (Chemistry): readers took it for
    nonsense."""
    from kg2tool.synth.run.synthesizer import answered_by_a_name

    assert answered_by_a_name(["Chemistry"], ["Chemistry 2005"]) and not answered_by_a_name(["Chem"], ["Chemistry 2005"])
    assert not answered_by_a_name(["Chemistry", "Physics"], ["Chemistry 2005"]) and not answered_by_a_name([], ["X"])
    kg = load_graph([REAL / "nobelprize.nt.gz"])
    rows, stats = Synthesizer(kg, SynthConfig(seed=2, min_support=3, shard_size=300, mix={"2p": 1.0})).shard(0)
    assert len(rows) >= 200  # the walker keeps "won ... win a prize in" chains out before this check (round 47)
    for row in rows:
        named = re.findall(r'"op": "entity", "name": "([^"]+)"', json.dumps(row["plan"]))
        assert not answered_by_a_name(row["answers"], named), question(row)


def test_vehicles_take_their_article_and_compared_numbers_are_said_as_people_say_them(swapi_kg):
    """A vehicle or starship is said with `the` whatever its name ("the Naboo fighter", "the Millennium Falcon"),
    in questions, possessives and answers, and at the start of an answer as "The"; a number attribute is compared
    with its own verb ("Which costs less", "carries fewer passengers") or "the higher <attribute>", never "the
    smaller passengers"."""
    from kg2tool.synth.language.render import Renderer

    sp = Renderer().speaker(swapi_kg)
    fighter, luke = swapi_kg.resolve("Naboo fighter"), swapi_kg.resolve("Luke Skywalker")
    assert sp.name(fighter) == "the Naboo fighter" and sp.own(fighter) == "the Naboo fighter's"
    assert sp.said("Millennium Falcon") == "the Millennium Falcon" and sp.name(luke) == "Luke Skywalker"
    assert sp.own(luke) == "Luke Skywalker's" and sp.said("Tatooine") == "Tatooine"
    mix = {s: float(s == "compare") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=4, shard_size=150, mix=mix)).shard(0)
    fresh, vehicles, numbers = ToolSet.from_graph(swapi_kg), 0, 0
    for row in rows:
        q, answer = question(row), row["messages"][-1]["content"]
        assert check_row(row, fresh) == [], q
        assert not re.search(r"\bthe (larger|smaller) (passengers|cost|crew|cargo)", q), q
        for name in row["answers"]:
            if sp.takes_the(swapi_kg.resolve(name)):
                vehicles += 1
                assert f"the {name}" in q and not answer.startswith("the "), q
        numbers += bool(re.search(r"costs (more|less)|carries|is (faster|slower|longer|shorter)|the (higher|lower) ", q))
    assert vehicles >= 5 and numbers >= 5, (vehicles, numbers)


@pytest.fixture(scope="module")
def nobel_kg():
    return load_graph([REAL / "nobelprize.nt.gz"])


def test_round_23_and_24_rules(nobel_kg, example_kg):
    """What readers rejected in rounds 23-24, each rule on its own: a year's prize said by its class ("the Nobel
    Prize in Chemistry 1952", not "won Chemistry 1952"); no lookup pair of one entity that asks one thing twice
    (prize and category); counts compared as "more" only; chains that mostly start from the name's own facts; no
    intersection of one thing in two places; one co answer asked for, not requested as "Tell me the other X"."""
    from kg2tool.synth.language.grammar import prize_name
    from kg2tool.synth.walk.co import odd_intersection

    assert prize_name("Chemistry 1952", ("LaureateAward", "NobelPrize")) == "the Nobel Prize in Chemistry 1952"
    assert prize_name("Star Wars", ("NobelPrize",)) == "" and prize_name("Peace 2001", ("Film",)) == ""
    mix = {s: float(s in ("simple", "parallel_multiple", "2i")) for s in DEFAULT_MIX}
    rows, _ = Synthesizer(nobel_kg, SynthConfig(seed=5, shard_size=200, mix=mix)).shard(0)
    said = [question(r) for r in rows if any(re.fullmatch(r"[A-Z][a-z ]+ \d{4}", a) for a in plan_names(r["plan"]))]
    assert len(said) >= 10 and all("the Nobel Prize in " in q for q in said), said[:5]
    for row in rows:
        if row["pattern"] == "parallel_multiple":
            assert not ("which prize" in question(row).lower() and "category" in question(row)), question(row)
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng = random.Random(3)
    for _ in range(150):
        if isinstance(plan := walker.sample("compare", rng), Compare) and isinstance(plan.items[0], Count):
            assert plan.mode == "max"
        if isinstance(plan := walker.sample("2i", rng), SetOp):
            assert not odd_intersection(walker.lex, plan.children)
    chains = [p for p in (walker.sample("2p", rng) for _ in range(300)) if p is not None]
    backwards = sum(p.child.inverse for p in chains)
    assert len(chains) >= 200 and backwards / len(chains) < 0.2, (backwards, len(chains))
    co = {s: float(s == "co") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=2, shard_size=150, mix=co)).shard(0)
    ones = [question(r) for r in rows if len(r["answers"]) == 1]
    assert ones and not any(q.startswith("Tell me the other") for q in ones), ones[:3]



def test_round_25_rules(example_kg):
    """Round 25: the names of a parallel question are related by another relation (not "Which instruments do
    William Herschel, Martie Maguire and Falco play?"); no intersection of two different facts of two names; a
    count by a role is never "are more people citizens of" (round 36: no count of the people of a place at all); an answer that only opens a
    name of the question, its homonym note aside, is dropped."""
    from kg2tool.synth.run.synthesizer import answered_by_a_name
    from kg2tool.synth.walk.co import odd_intersection

    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng, seen = random.Random(6), 0
    for _ in range(80):
        plan = walker.sample("parallel", rng)
        if plan is None:
            continue
        seen += 1
        names = [k.child.eid for k in plan.children]
        shared = [
            any(set(walker.adj(r, inv).get(names[0], ())) & set(walker.adj(r, inv).get(e, ()))
                for r, inv in walker.options.get(e, ()) if r != plan.children[0].rel)
            for e in names[1:]
        ]  # fmt: skip
        assert all(shared), [example_kg.name(e) for e in names]
    assert seen >= 40
    wd = "http://www.wikidata.org/prop/direct/"
    born = Project(wd + "P19", Anchor(example_kg.resolve("Karl Popper")))
    lived = Project(wd + "P551", Anchor(example_kg.resolve("Ludwig Wittgenstein")))
    assert odd_intersection(walker.lex, (born, lived))
    assert answered_by_a_name(["Physiology or Medicine (Category)"], ["Physiology or Medicine 1913"])
    mix = {s: float(s == "compare") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=3, shard_size=150, mix=mix)).shard(0)
    assert len(rows) >= 50  # people of a place are not counted (round 36: read as its population), either wording
    assert not any(re.search(r"are more people citizens of|has more citizens", question(r)) for r in rows)


def test_round_26_rules(example_kg, swapi_kg):
    """Round 26: a request for what a name is found by (or has several of) asks in the plural whatever the answer
    count ("Could you look up the films released in Hungary?", not "the film"); several nouns of one person of no
    known gender are listed once ("What are X's languages and occupations?"), not asked as two questions that
    repeat the name."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=13, shard_size=150, mix={"simple": 1.0})).shard(0)
    asked = 0
    for row in rows:
        q, plan = question(row), row["plan"]
        if q.startswith(("Tell me the ", "Could you look up the ", "Can you tell me the ")) and plan["inverse"]:
            asked += 1
            noun = q.split(" the ", 1)[1].split()[0]
            assert noun.endswith("s"), q  # films, vehicles, people are asked for as many
    assert asked >= 5
    mix = {s: float(s == "parallel_multiple") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=13, shard_size=150, mix=mix)).shard(0)
    for row in rows:
        first, *rest = question(row).split("? And ")
        names = plan_names(row["plan"]) if rest else []
        assert not (len(set(names)) == 1 and names[0] in rest[0]), question(row)


def test_round_28_rules(example_kg):
    """Round 28: no co question through a country or a continent ("Which other people share a country with X?"),
    no comparison of how many places a thing is in ("Which is in more cities, A or B?")."""
    mix = {s: float(s in ("co", "compare")) for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=28, shard_size=200, mix=mix)).shard(0)
    assert sum(r["pattern"] == "co" for r in rows) >= 20 and sum(r["pattern"] == "compare" for r in rows) >= 20
    for row in rows:
        assert not re.search(r"(share a|same) (country|continent)", question(row)), question(row)
        assert not re.search(r"\bis in more\b|\bare in more\b", question(row)), question(row)


def test_round_30_rules(swapi_kg, nobel_kg):
    """Rounds 29-30: one lookup of several names whose answers differ in kind is not asked ("Which films feature
    the Executor? What about the Millennium Falcon?" answered with characters); a unit named after its institution
    ("Harvard University, Biological Laboratories") is not named in a question; no intersection of things in two
    places by two relations ("universities in Germany and in Göttingen")."""
    from kg2tool.synth.checks.unsaid import annotated
    from kg2tool.synth.walk.co import odd_intersection

    assert annotated("Harvard University, Biological Laboratories") and not annotated("University of California, Los Angeles")
    assert not annotated("Chicago, IL") and not annotated("Washington, D.C.")
    mix = {s: float(s == "parallel") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=21, shard_size=150, min_support=3, mix=mix)).shard(0)
    assert len(rows) >= 50 and not any(re.search(r"\bthings\b", r["messages"][-1]["content"]) for r in rows)
    walker = Synthesizer(nobel_kg, SynthConfig(seed=1)).walker
    country, city = (f"http://dbpedia.org/ontology/{r}" for r in ("country", "city"))
    branches = (Project(country, Anchor(nobel_kg.resolve("Germany")), True), Project(city, Anchor(nobel_kg.resolve("Göttingen")), True))
    assert odd_intersection(walker.lex, branches)


def test_round_31_rules(swapi_kg, nobel_kg):
    """Round 31: no name whose label has a parenthesis is asked about ("California Institute of Technology
    (Caltech)"); several parts of one film are not asked together ("What are the locations of X and what are its
    planets?")."""
    rows, _ = Synthesizer(nobel_kg, SynthConfig(seed=31, shard_size=200)).shard(0)
    assert rows and not any("(" in question(r) for r in rows), [question(r) for r in rows if "(" in question(r)][:3]
    mix = {s: float(s == "parallel_multiple") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=31, shard_size=100, min_support=3, mix=mix)).shard(0)
    films = {swapi_kg.name(e) for e in range(len(swapi_kg.entities)) if "Film" in swapi_kg.types[e]}
    for row in rows:
        names = set(plan_names(row["plan"]))
        assert not (len(names) == 1 and names <= films), question(row)


def test_counts_are_compared_between_related_names(example_kg):
    """A count comparison's two names share a neighbour by another relation (`walk_union.related`): not "Which one
    works in more fields: Mylène Farmer or Ernst Chladni?" (round 27)."""
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng, seen = random.Random(27), 0
    for _ in range(200):
        plan = walker.sample("compare", rng)
        if not (isinstance(plan, Compare) and isinstance(plan.items[0], Count)):
            continue
        seen += 1
        first, second = (item.child for item in plan.items)
        a, b = first.child.eid, second.child.eid
        assert any(set(walker.adj(r, inv).get(a, ())) & set(walker.adj(r, inv).get(b, ()))
                   for r, inv in walker.options.get(a, ()) if r != first.rel), (example_kg.name(a), example_kg.name(b))
    assert seen >= 30


def test_round_35_rules(example_kg, swapi_kg, nobel_kg):
    """What readers rejected in rounds 29-34, each rule on its own: no intersection of two names linked to each other
    ("universities in Australia and in Perth") or of one verb said for two relations ("who received an award for X
    and received the Academy Award for Y"); no parallel_multiple part asking where a thing is ("which countries is
    Capitol Records in"); no chain that starts from where a name is ("born in the city that the University of
    Pittsburgh is in") or takes two such steps; a set of one said in the plural where its step usually gives
    several ("Which films do people who lived in Epsom appear in?")."""
    from kg2tool.synth.walk.co import linked, odd_intersection
    from kg2tool.synth.walk.parallel import where_it_is

    for kg in (example_kg, nobel_kg):
        walker = Synthesizer(kg, SynthConfig(seed=1)).walker
        rng = random.Random(35)
        plans = [p for p in (walker.sample(s, rng) for s in ("2i", "3i") * 60) if p is not None]
        assert len(plans) >= 40 and not any(linked(walker, p.children) for p in plans)
        chains = [p for p in (walker.sample(s, rng) for s in ("2p", "3p") * 60) if p is not None]
        assert len(chains) >= 40
        for plan in chains:
            steps = chain_steps(plan)
            assert not (where_it_is(walker.lex, steps[-1].rel) and not steps[-1].inverse)
            assert sum(where_it_is(walker.lex, s.rel) for s in steps) < 2
    walker = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).walker
    award, work = (next(i for i, w in walker.lex.relations.items() if w.verb == v) for v in ("received", "received an award for"))
    person = next(iter(walker.adj(award, False)))
    a, b = walker.adj(award, False)[person][0], walker.adj(work, False)[next(iter(walker.adj(work, False)))][0]
    assert odd_intersection(walker.lex, (Project(award, Anchor(a), True), Project(work, Anchor(b), True)))
    pm_walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(35)
    parts = [k for p in (pm_walker.sample("parallel_multiple", rng) for _ in range(100)) if p is not None for k in p.children]
    labels = {pm_walker.lex.relations[k.rel].label.lower() for k in parts}
    assert len(parts) >= 150 and not labels & {"country", "continent", "part of", "located in the administrative territorial entity"}, labels
    from kg2tool.synth.language.wording import Speaker

    speaker = Speaker(swapi_kg, walker.lex)
    lived = next(i for i, w in speaker.lex.relations.items() if "lived" in w.verb)
    place = next(p for p, people in walker.adj(lived, True).items() if len(people) == 1)
    assert speaker.said_n(Project(lived, Anchor(place), True)) == 2


def test_chains_do_not_stray_from_a_place(example_kg, swapi_kg):
    """Round 35: no chain from a place it reached to things of another kind than its start ("the films released in
    the country that Michael Sheard is a citizen of", "the person buried where Jive is headquartered"), or back to
    the start place's own country ("Which country are organizations headquartered in Santa Monica in?"); "the
    people who died where Joan Rivers was born" stays."""
    from kg2tool.synth.walk.chain import _strays_from_place

    walker = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).walker
    citizen = "https://swapi.co/vocabulary/citizenOf"
    release = next(i for i in walker.lex.relations if "FilmRelease" in i)
    sheard = Project(citizen, Anchor(swapi_kg.resolve("Michael Sheard")))
    assert _strays_from_place(swapi_kg, walker.lex, Project(release, sheard, True))
    wd = "http://www.wikidata.org/prop/direct/"
    lex = Synthesizer(example_kg, SynthConfig(seed=1)).walker.lex
    rivers = Project(wd + "P19", Anchor(example_kg.resolve("Joan Rivers")))
    assert not _strays_from_place(example_kg, lex, Project(wd + "P20", rivers, True))
    santa_monica = Project(wd + "P159", Anchor(example_kg.resolve("Santa Monica")), True)
    assert _strays_from_place(example_kg, lex, Project(wd + "P17", santa_monica))
    for kg in (example_kg, swapi_kg):
        walker, rng = Synthesizer(kg, SynthConfig(seed=1, min_support=3)).walker, random.Random(36)
        chains = [p for p in (walker.sample(s, rng) for s in ("2p", "3p") * 80) if p is not None]
        assert len(chains) >= 60
        for plan in chains:
            start = plan
            while isinstance(start, Project):
                start = start.child
            node = plan
            while isinstance(node, Project) and isinstance(node.child, Project):
                if node.inverse:  # a later step walked back from a set of places ends in the start's kind
                    mids = {walker.lex.kind_of(e) for e in execute(kg, node.child)}
                    ends = {walker.lex.kind_of(e) for e in execute(kg, node)}
                    assert not (mids <= {"place", "location", "country", "city"} and ends != {walker.lex.kind_of(start.eid)}), plan
                node = node.child


def test_unions_ask_of_related_names(example_kg):
    """A union's two names share a neighbour by another relation (`walk_union.related`): not "What are the causes of
    death of Frank Sinatra and Pedro II of Brazil?" (rounds 29-35)."""
    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(36)
    plans = [p for p in (walker.sample("2u", rng) for _ in range(150)) if p is not None]
    assert len(plans) >= 100
    for plan in plans:
        first, second = plan.children
        a, b = first.child.eid, second.child.eid
        assert any(set(walker.adj(r, inv).get(a, ())) & set(walker.adj(r, inv).get(b, ()))
                   for r, inv in walker.options.get(a, ()) if r != first.rel), (example_kg.name(a), example_kg.name(b))


def test_round_36_rules(example_kg, nobel_kg):
    """Round 36: counts are compared only of steps that usually give several and count neither people at large nor
    places ("Which one has more parent organizations", "Where did more people live, A or B?"); an attribute is
    compared between two names that share a neighbour ("Who was born earlier, Mo Yan or Edward Mills Purcell?"); a
    person's noun list does not mix kin and career ("What are Joe Jackson's children and occupations?")."""
    from kg2tool.synth.language.lexicon import PLACE_KINDS, SAMPLE

    for kg in (example_kg, nobel_kg):
        walker, rng = Synthesizer(kg, SynthConfig(seed=1)).walker, random.Random(36)
        plans = [p for p in (walker.sample("compare", rng) for _ in range(200)) if isinstance(p, Compare)]
        counts = [p for p in plans if isinstance(p.items[0], Count)]
        attrs = [p for p in plans if isinstance(p.items[0], Attr)]
        assert len(counts) >= 20 and (kg is example_kg or len(attrs) >= 20)
        for plan in counts:
            step = plan.items[0].child
            w = walker.lex.relations[step.rel]
            counted = w.subject if step.inverse else w.object
            assert counted not in PLACE_KINDS and (counted != "person" or w.form == "noun"), plan
            starts = walker.sources[(step.rel, step.inverse)][:SAMPLE]
            assert sum(len(walker.adj(step.rel, step.inverse)[e]) for e in starts) > 1.3 * len(starts), plan
        for plan in attrs:
            a, b = (item.child.eid for item in plan.items)
            assert any(set(walker.adj(r, inv).get(a, ())) & set(walker.adj(r, inv).get(b, ()))
                       for r, inv in walker.options.get(a, ())), (kg.name(a), kg.name(b))
    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(36)
    lists = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(300)) if p is not None
             and len({k.child for k in p.children}) == 1 and walker.lex.kind_of(p.children[0].child.eid) in PERSON_KINDS]
    assert len(lists) >= 20
    for plan in lists:
        kin = {walker.lex.relations[k.rel].object in PERSON_KINDS for k in plan.children}
        assert len(kin) == 1, [walker.lex.relations[k.rel].label for k in plan.children]


def test_round_37_rules(swapi_kg):
    """Round 37: films picked out by a noun relation are "the films that feature Hoth", not "the films whose planet is
    Hoth"; a where-question about a set ends with its verb even after a preposition ("Where were the films that X
    appears in released?", not "What are the places where the films that X appears in were released?")."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=37, shard_size=600, min_support=3)).shard(0)
    qs = [question(r) for r in rows]
    assert len(qs) >= 150 and sum("that feature" in q or "features" in q for q in qs) >= 5
    assert not any(re.search(r"films? whose (planet|location|starship|vehicle)s? (is|are)\b", q) for q in qs), qs
    assert not any(re.search(r"\bplaces where the films\b", q) for q in qs)
    assert any(re.search(r"^Where were (the )?films .* (released|filmed)\?$", q) for q in qs)


def test_round_38_rules(example_kg):
    """Round 38: a person's "time period" is asked as when they were active ("Which period was Bill Monroe active
    in?", not "What is John Lennon's time period?"), and a century takes "the" ("active in the 20th century")."""
    from kg2tool.synth.language.grammar import the_name

    assert the_name("20th century") == "the 20th century"
    mix = {s: float(s in ("simple", "parallel")) for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=38, shard_size=600, mix=mix)).shard(0)
    period = [r for r in rows if "P2348" in json.dumps(r["plan"])]
    assert len(period) >= 3 and all("time period" not in question(r) and "active in" in question(r) for r in period)
    assert all("active in 20th" not in r["messages"][-1]["content"] for r in period)


def test_related_names_share_a_small_neighbour(example_kg):
    """Round 38: names asked about together share a neighbour of fewer than RELATED_MAX others, not a country or an
    occupation of hundreds ("which countries are Roger Penrose, Randy Newman and Little Richard citizens of?")."""
    from kg2tool.synth.walk.union import RELATED_MAX

    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(38)
    plans = [p for p in (walker.sample("parallel", rng) for _ in range(150)) if p is not None]
    assert len(plans) >= 60
    for plan in plans:
        a, b = (k.child.eid for k in plan.children[:2])
        assert any(len(walker.adj(r, not inv).get(m, ())) <= RELATED_MAX
                   for r, inv in walker.options.get(a, ()) if r != plan.children[0].rel
                   for m in set(walker.adj(r, inv).get(a, ())) & set(walker.adj(r, inv).get(b, ()))), (example_kg.name(a), example_kg.name(b))


def test_round_39_rules(example_kg, swapi_kg):
    """Round 39: no lookup of where a country is ("the countries that Sri Lanka is in", "What is Uruguay part of?");
    a film's location is where it was filmed ("Where was X filmed?", not "Which films feature Pinewood Studios?")."""
    from kg2tool.synth.walk.parallel import where_it_is

    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(39)
    hops = [p for p in (walker.one_hop(rng) for _ in range(3000)) if p is not None]
    assert sum(where_it_is(walker.lex, p.rel) and not p.inverse for p in hops) >= 20
    for p in hops:
        if where_it_is(walker.lex, p.rel) and not p.inverse:
            assert walker.lex.kind_of(p.child.eid) not in ("country", "continent"), example_kg.name(p.child.eid)
    lex = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).lexicon
    w = lex.relations["https://swapi.co/vocabulary/location"]
    assert (w.form, w.verb, w.where) == ("prep", "filmed in", True)
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=39, shard_size=300, min_support=3)).shard(0)
    assert not any(re.search(r"feature (Pinewood|Tunisia|Sicily)|whose location", question(r)) for r in rows)
    assert any("filmed" in question(r) for r in rows)


def test_round_40_rules(example_kg, swapi_kg):
    """Round 40: a name's set narrowed by another name's (2in) only between related names ("Which record label does
    Selena Gomez have that Brian May doesn't?"); a step said the other way round from a place counts as one back
    ("the films released in the country that Emun Elliott is a citizen of")."""
    from kg2tool.synth.walk.chain import _strays_from_place
    from kg2tool.synth.walk.union import share_small

    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(40)
    plans = [p for p in (walker.sample("2in", rng) for _ in range(200)) if p is not None]
    same = [p for p in plans if isinstance(p.children[0], Project) and isinstance(p.children[0].child, Anchor)
            and (p.children[0].rel, p.children[0].inverse) == (p.children[1].rel, p.children[1].inverse)]
    assert len(same) >= 20
    for plan in same:
        a, b = plan.children[0].child.eid, plan.children[1].child.eid
        assert share_small(walker, a, b, plan.children[0].rel), (example_kg.name(a), example_kg.name(b))
    lex = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).walker.lex
    release = next(i for i in lex.relations if "FilmRelease" in i)
    elliott = Project("https://swapi.co/vocabulary/citizenOf", Anchor(swapi_kg.resolve("Emun Elliott")))
    assert _strays_from_place(swapi_kg, lex, Project(release, elliott, False))


def test_round_42_rules(example_kg):
    """Round 42: no chain that walks a relation between people back after another ("Who is the person whose child is
    one of Michael Mann's siblings?"; "Who were Elvis Presley's children married to?" stays); no intersection that
    walks one relation both ways ("the countries that the Netherlands and the Soviet Union have diplomatic relations
    with and that have diplomatic relations with the Sudan")."""
    from kg2tool.synth.walk.chain import odd_chain
    from kg2tool.synth.walk.co import odd_intersection

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex = walker.lex
    mann = Project(wd + "P3373", Anchor(example_kg.resolve("Michael Mann")))
    assert odd_chain(example_kg, lex, Project(wd + "P40", mann, True))
    elvis = Project(wd + "P40", Anchor(example_kg.resolve("Elvis Presley")))
    assert not odd_chain(example_kg, lex, Project(wd + "P26", elvis))
    net, sudan = (Anchor(example_kg.resolve(n)) for n in ("Netherlands", "Sudan"))
    assert odd_intersection(lex, [Project(wd + "P530", net), Project(wd + "P530", sudan, True)])
    rng = random.Random(42)
    for shape in ("2p", "3p", "2i", "3i"):
        plans = [p for p in (walker.sample(shape, rng) for _ in range(150)) if p is not None]
        assert len(plans) >= 60, shape
        for plan in plans:
            if shape in ("2p", "3p"):
                assert not odd_chain(example_kg, lex, plan), plan
            else:
                ways = {(b.rel, b.inverse) for b in plan.children if isinstance(b, Project)}
                assert not any((r, not inv) in ways for r, inv in ways), plan


def test_round_43_rules(example_kg):
    """Round 43: a kin noun walked back is said by its other noun ("Who are John Frederick William Herschel's
    parents?", not "Who has ... as their child?", rejected by both readers); a count of an occupation names the
    people by it ("How many people are mandolinists?", as "Who is a poet?")."""
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.language.wording import Speaker

    wd = "http://www.wikidata.org/prop/direct/"
    sp = Speaker(example_kg, derive_lexicon(example_kg))
    herschel = Anchor(example_kg.resolve("John Frederick William Herschel"))
    assert sp.wh(Project(wd + "P40", herschel, True)) == "Who are John Frederick William Herschel's parents"
    assert sp.how_many(Project(wd + "P40", herschel, True)) == "How many parents does John Frederick William Herschel have"
    mandolinist = Anchor(example_kg.resolve("mandolinist"))
    assert sp.how_many(Project(wd + "P106", mandolinist, True)) == "How many people are mandolinists"


def test_round_44_rules(example_kg, swapi_kg):
    """Round 44: no chain that walks one relation there and back ("Who are the people who had Mae West's cause of
    death?"), says one verb for two steps ("the award received by people who received an award for X"), or asks
    the present of people found by their death or burial ("Which language do people buried in Göttingen speak?");
    where a thing is asked in the singular ("Which country is Berlin in?", not "the countries that Berlin is in")."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex = walker.lex
    west = Project(wd + "P509", Anchor(example_kg.resolve("Mae West")))
    assert odd_chain(example_kg, lex, Project(wd + "P509", west, True))
    buried = Project(wd + "P119", Anchor(example_kg.resolve("Göttingen")), True)
    assert odd_chain(example_kg, lex, Project(wd + "P1412", buried))
    born = Project(wd + "P19", Anchor(example_kg.resolve("Göttingen")), True)
    assert not odd_chain(example_kg, lex, Project(wd + "P1412", born))
    for kg in (example_kg, swapi_kg):
        walker, rng = Synthesizer(kg, SynthConfig(seed=1, min_support=3)).walker, random.Random(44)
        chains = [p for p in (walker.sample(s, rng) for s in ("2p", "3p") * 80) if p is not None]
        assert len(chains) >= 60
        for plan in chains:
            steps = chain_steps(plan)
            for a, b in zip(steps, steps[1:]):
                assert not (a.rel == b.rel and a.inverse != b.inverse)
                wa, wb = walker.lex.relations[a.rel], walker.lex.relations[b.rel]
                if wa.form == wb.form == "verb" and a.rel != b.rel:
                    assert wa.verb.split()[0] != wb.verb.split()[0], (wa.verb, wb.verb)
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=44, shard_size=300, mix={"simple": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"\bcountry (that|is) ", q) for q in text)
    assert not any(re.search(r"\bthe countries that [^?]* is in\b|\bWhich countries is [^?]* in\?", q) for q in text)


def test_round_45_rules(example_kg):
    """Round 45: a backward lookup by a relation other than an occupation starts from no occupation ("Who works in
    physicist?": the bundled graph gives physicist as a field of work too); "Who is a physicist?" stays; what lies in
    a place is asked by a kind narrower than "places"."""
    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    physicist, physics = example_kg.resolve("physicist"), example_kg.resolve("physics")
    assert physicist in walker.adj(wd + "P101", True)  # the graph has it as a field of work
    assert physicist not in walker.sources[(wd + "P101", True)] and physics in walker.sources[(wd + "P101", True)]
    assert physicist in walker.sources[(wd + "P106", True)]
    # what lies in a place is asked only by a kind narrower than "places" (not "Which places are in the Czech
    # Republic?", "What is in France?": rounds 43-45)
    from kg2tool.synth.walk.parallel import where_it_is

    rng, inside = random.Random(45), []
    for plan in (walker.one_hop(rng, back=1.0) for _ in range(1500)):
        if plan is not None and where_it_is(walker.lex, plan.rel):
            inside.append({walker.lex.kind_of(e) for e in execute(example_kg, plan)})
    assert len(inside) >= 10 and all(not kinds <= {"place", "location", "item", "thing"} for kinds in inside), inside


def test_round_45_chains(example_kg, swapi_kg):
    """Round 45: no chain walks a noun back from a set ("the countries whose official language is one of the
    languages spoken by X": 0 of 6 readings of "whose ... is one of" accepted); a noun of several works is "in" them
    ("the planets in the films that X appears in", not "the planets of the films": 4 of 10 accepted)."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    lex = Synthesizer(example_kg, SynthConfig(seed=1)).walker.lex
    spoken = Project(wd + "P1412", Anchor(example_kg.resolve("Alexander Alexandrovich Fadeyev")))
    assert odd_chain(example_kg, lex, Project(wd + "P37", spoken, True))
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=45, shard_size=600, min_support=3, mix={"2p": 1.0})).shard(0)
    qs = [question(r) for r in rows]
    assert sum(bool(re.search(r"\b(planets|vehicles|starships) in (the )?films\b", q)) for q in qs) >= 5
    assert not any(re.search(r"\bwhose [a-z ]+ is one of\b|\b(planets|vehicles|starships) of the films\b", q)
                   for q in qs), qs  # fmt: skip


@pytest.mark.parametrize("name", ["nobelprize.nt.gz", "schrijverskabinet.trig.gz"])
def test_chains_step_onto_sets_of_one_kind_and_redraw_an_odd_step(name):
    """A chain steps only onto sets of one kind (a set of two kinds is said "things" and not asked: "What are the
    things that are about the artist of the visual artworks that are about X?"), and a step that makes the chain
    odd is drawn again before the whole chain is: 2p chains on the Nobel and Schrijverskabinet graphs fail to sample
    under 5% of the time and none is dropped for want of a kind, 3p chains on the Nobel graph fail under 30%."""
    kg = load_graph([REAL / name])
    synth = Synthesizer(kg, SynthConfig(seed=0, shard_size=300, mix={"2p": 1.0, "3p": 1.0}, min_support=3))
    walker, rng = synth.walker, random.Random(46)
    chains = [p for p in (walker.sample(s, rng) for s in ("2p", "3p") * 60) if p is not None]
    assert len(chains) >= 60
    for plan in chains:
        node = plan
        while isinstance(node, Project) and isinstance(node.child, Project):  # every step after the first
            assert len({walker.lex.kind_of(e) for e in execute(kg, node)}) == 1, plan
            node = node.child
    _, stats = synth.shard(0)
    assert stats.dropped_by_shape[("2p", "sampling_failed")] < 0.05 * stats.tried["2p"]
    assert stats.dropped_by_shape[("2p", "no_kind")] == 0, stats.dropped_by_shape
    if name.startswith("nobel"):
        assert stats.dropped_by_shape[("3p", "sampling_failed")] < 0.3 * stats.tried["3p"]


def test_round_47_rules(example_kg):
    """Round 47: a person's movement is what they are associated with ("Which movement is Stephen Hawking associated
    with?", not "What is the movement of Stephen Hawking?": 6 of 28 such readings accepted); a chain says no two
    steps with the same words, a relation said by its mirror included ("Which category did the laureates who won
    the Nobel Prize in Literature 1993 win a prize in?", its answer in the question)."""
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.language.wording import Speaker
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    sp = Speaker(example_kg, derive_lexicon(example_kg))
    hawking = Anchor(example_kg.resolve("Stephen Hawking"))
    assert sp.wh(Project(wd + "P135", hawking)) == "Which movement is Stephen Hawking associated with"
    assert sp.wh(Project(wd + "P135", Anchor(example_kg.resolve("art rock")), True)) == "Who is associated with art rock"
    nobel = load_graph([REAL / "nobelprize.nt.gz"])
    lex = derive_lexicon(nobel)
    category = next(i for i in lex.relations if i.endswith("terms%2Fcategory"))
    won = Project("http://data.nobelprize.org/terms/laureate", Anchor(nobel.resolve("Literature 1993")))
    assert odd_chain(nobel, lex, Project(category, won))


def test_round_48_rules(example_kg, swapi_kg):
    """Round 48: what people died of is a medical condition ("Who else had the same medical condition as X?", not
    "the same cause"); several things about one entity are not asked of a country (23 of 46 accepted); no
    intersection says one link both ways by two relations ("the characters who appear in A and who are featured in
    B")."""
    from kg2tool.synth.walk.co import HUB_KINDS, odd_intersection

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    assert walker.lex.relations[wd + "P1050"].object == walker.lex.relations[wd + "P509"].object == "medical condition"
    rng = random.Random(48)
    about_one = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(200)) if p is not None]
    assert len(about_one) >= 100
    for plan in about_one:
        names = {k.child.eid for k in plan.children if isinstance(k.child, Anchor)}
        if len(names) == 1:
            assert walker.lex.kind_of(names.pop()) not in HUB_KINDS, plan
    lex = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).walker.lex
    film, character = "https://swapi.co/vocabulary/film", "https://swapi.co/vocabulary/character"
    in_a = Project(film, Anchor(swapi_kg.resolve("Star Wars: The Force Awakens")), True)
    in_b, in_c = (Project(character, Anchor(swapi_kg.resolve(n))) for n in ("The Empire Strikes Back", "Return of the Jedi"))
    assert odd_intersection(lex, [in_a, in_b]) and not odd_intersection(lex, [in_b, in_c])


def test_round_50_rules(example_kg):
    """Round 50: no chain finds people by a value they share that is not a place ("the people who had Felix
    Mendelssohn's cause of death") or by a burial place ("the person buried where Pierre-Simon Laplace died"); "the
    people who died where Duke Ellington was born" stays; several things about one person do not include what the
    person believes, belongs to by birth or died of ("George Orwell's ethnic group and cause of death")."""
    from kg2tool.synth.walk.chain import odd_chain
    from kg2tool.synth.walk.parallel import personal

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex, kg = walker.lex, example_kg

    def chain(name, first, back):
        return Project(wd + back, Project(wd + first, Anchor(kg.resolve(name))), True)

    assert odd_chain(kg, lex, chain("Felix Mendelssohn", "P509", "P1050"))  # had X's cause of death
    assert odd_chain(kg, lex, chain("Pierre-Simon Laplace", "P20", "P119"))  # buried where X died
    assert not odd_chain(kg, lex, chain("Duke Ellington", "P19", "P20"))  # died where X was born
    assert personal(lex, wd + "P172") and personal(lex, wd + "P509") and not personal(lex, wd + "P19")
    rng = random.Random(50)
    plans = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(300)) if p is not None]
    about_one = [p for p in plans if len({k.child.eid for k in p.children if isinstance(k.child, Anchor)}) == 1]
    assert len(about_one) >= 100
    assert not [p for p in about_one if any(personal(lex, k.rel) for k in p.children)]


def test_round_51_rules(example_kg, swapi_kg):
    """Round 51: an intersection says no relation by its noun beside a condition of another relation ("the people
    whose record label is Island Records and whose genre is synth-pop", "who plays drum kit and whose record label is
    Polydor Records"); one relation twice stays ("the starships whose pilots include A and B")."""
    from kg2tool.synth.walk.co import odd_intersection

    wd = "http://www.wikidata.org/prop/direct/"
    lex = Synthesizer(example_kg, SynthConfig(seed=1)).walker.lex

    def branch(kg, rel, name):
        return Project(rel, Anchor(kg.resolve(name)), True)

    label, genre, born = (wd + p for p in ("P264", "P136", "P19"))
    assert odd_intersection(lex, [branch(example_kg, label, "Island Records"), branch(example_kg, genre, "synth-pop")])
    assert odd_intersection(lex, [branch(example_kg, born, "Atlanta"), branch(example_kg, label, "Arista")])
    lex = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).walker.lex
    pilot = "https://swapi.co/vocabulary/pilot"
    two = [branch(swapi_kg, pilot, "Han Solo"), branch(swapi_kg, pilot, "Luke Skywalker")]
    assert lex.relations[pilot].form == "noun" and not odd_intersection(lex, two)
    # institutions said with "the" (readers: "missing article before institution name", rounds 50-51)
    from kg2tool.synth.language.grammar import the_name

    assert the_name("Institute for Biochemical Research") == "the Institute for Biochemical Research"
    assert the_name("German Cancer Research Center") == "the German Cancer Research Center"
    assert the_name("Italian National Council of Research") == "the Italian National Council of Research"
    assert the_name("Harvard University") == "Harvard University" and the_name("Mayo Clinic") == "Mayo Clinic"


def test_count_answers_say_it_as_the_question_asked(swapi_kg):
    """A count is answered in the question's words: "How many countries was X released in?" - "X was released in 6
    countries" (not "6 countries have X as their film release"), "How many films feature Dagobah?" - "3 films
    feature Dagobah", "the number of films released in France" (read in this session's 50 rows)."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=2, min_support=3, shard_size=400, mix={"count": 1.0})).shard(0)
    released = [r for r in rows if "released in" in question(r)]
    featured = [r for r in rows if re.match(r"(?i)(quick question: )?how many films feature ", question(r))]
    assert len(released) >= 10 and len(featured) >= 5
    for row in released + featured:
        answer = row["messages"][-1]["content"]
        assert "film release" not in answer and " as their " not in answer, (question(row), answer)
    assert all("feature" in r["messages"][-1]["content"] for r in featured)


def test_round_57_rules(example_kg, swapi_kg):
    """Rounds 56-57: a step from a set said in the plural is asked in the plural whatever the answer count ("What
    are the planets in the films that X appears in?", not "What is the planet in the films ..."); the country of a
    place where someone was born or died is asked in the singular though the graph gives several ("Which country did
    Vitaly Ginzburg die in?", not "Which countries")."""
    synth = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3))
    sp, walker = synth.renderer.speaker(swapi_kg), synth.walker
    rng = random.Random(57)
    plans = [p for p in (walker.sample("2p", rng) for _ in range(300)) if p is not None]
    one = [p for p in plans if sp.from_several(p) and sp.size(p) == 1]
    assert len(one) >= 5
    for plan in one:
        assert not sp.wh(plan).startswith(("What is the ", "Who is the ")), sp.wh(plan)
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


def test_three_part_questions_are_about_one_name(example_kg):
    """parallel_multiple asks three things only about one entity; on different names it asks two ("Tell me the person
    who founded Reprise Records, Lenny Kravitz's child and Ashanti's partner": 0 of 6 readings, rounds 51-57)."""
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng = random.Random(58)
    plans = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(400)) if p is not None]
    apart = [p for p in plans if len({k.child.eid for k in p.children if isinstance(k.child, Anchor)}) > 1]
    assert apart and all(len(p.children) == 2 for p in apart)
    assert any(len(p.children) == 3 for p in plans)
