"""Counts and comparisons: which the walker samples (count, compare) and how they are asked and answered. The
blind readings behind each rule: docs/research/rules.md."""

from __future__ import annotations

import random
import re

from checks import check_row
from synth_rows import plural_nouns, question

from kg2tool.synth.language.known_wordings import COMPARATIVES
from kg2tool.synth.plans.tree import Anchor, Attr, Compare, Count, Project, execute
from kg2tool.synth.run.synthesizer import DEFAULT_MIX, SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet


def test_comparisons_say_what_they_compare(example_kg, swapi_kg):
    """A count of people by a noun relation is asked "Which is the more common occupation, A or B", not "has more
    people" (read as staff) or "Which occupation is the occupation of more people" (rejected by readers); a folded
    record's attribute ("a country's film release date", "the earlier award recognition award date") is compared only
    where it has a comparative ("Who won the prize later?")."""
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


def test_counts_are_asked_with_the_wording_questions_use(swapi_kg):
    """"How many countries was Star Wars released in?" (the reverse wording), not "How many countries have Star
    Wars as their film release?"."""
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=2, min_support=3, shard_size=150, mix={"count": 1.0})).shard(0)
    text = [question(r) for r in rows]
    assert any(re.search(r"^how many countries was .+ released in\?$", q, re.I) for q in text)
    assert not any("as their film release" in q for q in text)


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


def test_counts_are_compared_as_more(example_kg):
    """A comparison of counts the walker samples asks which has more (`Compare.mode` "max")."""
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng = random.Random(3)
    for _ in range(150):
        if isinstance(plan := walker.sample("compare", rng), Compare) and isinstance(plan.items[0], Count):
            assert plan.mode == "max"


def test_counts_are_compared_between_related_names(example_kg):
    """A count comparison's two names share a neighbour by another relation (`walk_union.related`): not "Which one
    works in more fields: Mylène Farmer or Ernst Chladni?"."""
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


def test_counts_are_compared_of_steps_that_give_several_and_attributes_between_related_names(example_kg, nobel_kg):
    """Counts are compared only of steps that usually give several and count neither people at large nor places
    ("Which one has more parent organizations", "Where did more people live, A or B?"); an attribute is compared
    between two names that share a neighbour ("Who was born earlier, Mo Yan or Edward Mills Purcell?")."""
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


def test_people_of_a_place_are_not_counted(example_kg):
    """A count by a role is never "are more people citizens of": people of a place are not counted at all (read as
    its population), either wording."""
    mix = {s: float(s == "compare") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=3, shard_size=150, mix=mix)).shard(0)
    assert len(rows) >= 50  # people of a place are not counted (read as its population), either wording
    assert not any(re.search(r"are more people citizens of|has more citizens", question(r)) for r in rows)


def test_no_comparison_of_how_many_places_a_thing_is_in(example_kg):
    """No comparison of how many places a thing is in ("Which is in more cities, A or B?")."""
    mix = {s: float(s in ("co", "compare")) for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=28, shard_size=200, mix=mix)).shard(0)
    assert sum(r["pattern"] == "compare" for r in rows) >= 20
    for row in rows:
        assert not re.search(r"\bis in more\b|\bare in more\b", question(row)), question(row)


def test_a_count_of_an_occupation_names_the_people_by_it(example_kg):
    """A count of an occupation names the people by it ("How many people are mandolinists?", as "Who is a poet?")."""
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.language.wording import Speaker

    wd = "http://www.wikidata.org/prop/direct/"
    sp = Speaker(example_kg, derive_lexicon(example_kg))
    mandolinist = Anchor(example_kg.resolve("mandolinist"))
    assert sp.how_many(Project(wd + "P106", mandolinist, True)) == "How many people are mandolinists"


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


def test_a_count_by_a_role_of_several_words_is_had(tmp_path):
    """"a defined unit of" (a role of two words) compared: "Which system of units has more defined units, A or B",
    not "Which system of units are more units defined units of"."""
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.language.wording import Speaker

    path = tmp_path / "units.ttl"
    path.write_text("""@prefix : <http://u.org/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Unit rdfs:label "unit" .  :System rdfs:label "system of units" .
:si a :System ; rdfs:label "International System of Units" .  :cgs a :System ; rdfs:label "CGS System" .
:c a :Unit ; rdfs:label "Coulomb" ; :definedUnitOfSystem :si .
:m a :Unit ; rdfs:label "Metre" ; :definedUnitOfSystem :si, :cgs .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    sp = Speaker(kg, derive_lexicon(kg))
    node = Project("http://u.org/definedUnitOfSystem", Anchor(kg.resolve("CGS System")), inverse=True)
    ask, _ = sp.compared(node, "CGS System", "International System of Units", True)
    assert ask == "Which system of units has more defined units, CGS System or International System of Units"


def test_a_count_of_people_by_a_person_is_not_the_more_common_one(tmp_path):
    """Where the things compared are people, a count of the people whose role they fill is asked "Who is the parent of
    more people, A or B" (readers: "Which is the more common parent, A or B?" is meaningless); of values it stays
    "Which is the more common occupation"."""
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.language.wording import Speaker

    path = tmp_path / "family.ttl"
    path.write_text("""@prefix : <http://f.org/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:P rdfs:label "person" .
:a a :P ; rdfs:label "Ann Lee" ; :parent :c, :d .  :b a :P ; rdfs:label "Bob Lee" ; :parent :c .
:e a :P ; rdfs:label "Eve Lee" ; :parent :d .
:c a :P ; rdfs:label "Cy Lee" .  :d a :P ; rdfs:label "Di Lee" .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    sp = Speaker(kg, derive_lexicon(kg))
    node = Project("http://f.org/parent", Anchor(kg.resolve("Cy Lee")), inverse=True)
    ask, _ = sp.compared(node, "Cy Lee", "Di Lee", True)
    assert ask == "Who is the parent of more people, Cy Lee or Di Lee", ask
