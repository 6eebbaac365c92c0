"""Which chains (2p, 3p) the walker samples: the rules of `kg2tool.synth.walk.chain` (chains readers took for
contrived), a chain's first step, and the synthesizer's drop of a question whose answers open its own names. The
blind readings behind each rule: docs/research/rules.md."""

from __future__ import annotations

import json
import random
import re

import pytest
from synth_rows import REAL, chain_steps, question, turtle_graph

from kg2tool.graph.build import load_graph
from kg2tool.synth.plans.tree import Anchor, Project, execute
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer


def test_a_question_whose_answers_open_its_own_names_is_not_asked():
    """"Which category did the laureates who won Chemistry 2005 win a prize in?" (Chemistry): readers took it for
    nonsense."""
    from kg2tool.synth.run.synthesizer import answered_by_a_name

    assert answered_by_a_name(["Chemistry"], ["Chemistry 2005"]) and not answered_by_a_name(["Chem"], ["Chemistry 2005"])
    assert not answered_by_a_name(["Chemistry", "Physics"], ["Chemistry 2005"]) and not answered_by_a_name([], ["X"])
    # up to a word boundary whatever the separator ("What is the key of leisure=park?"), never inside a word
    assert answered_by_a_name(["leisure"], ["leisure=park"]) and answered_by_a_name(["fence:type"], ["fence:type = metal"])
    assert not answered_by_a_name(["Paris"], ["Parisian Ballet"]) and not answered_by_a_name(["Paris"], ["Paris"])
    kg = load_graph([REAL / "nobelprize.nt.gz"])
    rows, stats = Synthesizer(kg, SynthConfig(seed=2, min_support=3, shard_size=300, mix={"2p": 1.0})).shard(0)
    assert len(rows) >= 200  # the walker keeps "won ... win a prize in" chains out before this check (two steps, same words)
    for row in rows:
        named = re.findall(r'"op": "entity", "name": "([^"]+)"', json.dumps(row["plan"]))
        assert not answered_by_a_name(row["answers"], named), question(row)


def test_an_answer_that_only_opens_a_name_is_dropped_whatever_its_homonym_note():
    """An answer that only opens a name of the question, its homonym note aside, is dropped ("Physiology or Medicine
    (Category)" for a question that names "Physiology or Medicine 1913")."""
    from kg2tool.synth.run.synthesizer import answered_by_a_name

    assert answered_by_a_name(["Physiology or Medicine (category)"], ["Physiology or Medicine 1913"])


def test_a_step_to_namesakes_of_its_start_is_no_question(tmp_path):
    """"The concept of Abdomen (topical descriptor) is Abdomen (concept)", "the siblings of X's children" (the
    children themselves): a step whose every result is labelled as something it starts from gives itself away."""
    from kg2tool.synth.run.synthesizer import restates_a_subject

    kg, _ = turtle_graph(tmp_path, [
        ':d1 a :Descriptor ; rdfs:label "Abdomen" ; :concept :c1, :c2 .', ':c1 a :Concept ; rdfs:label "Abdomen" .',
        ':c2 a :Concept ; rdfs:label "Belly" .', ':d2 a :Descriptor ; rdfs:label "Heart" ; :concept :c3 .',
        ':c3 a :Concept ; rdfs:label "Heart" .', ':p a :Pair ; rdfs:label "Heart/metabolism" ; :descriptor :d2 .',
        ':m rdfs:label "Ann" ; :child :k1, :k2 .', ':k1 rdfs:label "Bo" ; :sibling :k2 .',
        ':k2 rdfs:label "Cy" ; :sibling :k1 .'])  # fmt: skip
    x = "http://x.org/"
    ann = Anchor(kg.resolve("Ann"))
    assert restates_a_subject(kg, Project(f"{x}concept", Anchor(kg.resolve("Heart (descriptor)"))))
    assert not restates_a_subject(kg, Project(f"{x}concept", Anchor(kg.resolve("Abdomen (descriptor)"))))  # Belly
    assert restates_a_subject(kg, Project(f"{x}concept", Project(f"{x}descriptor", Anchor(kg.resolve("Heart/metabolism")))))
    assert restates_a_subject(kg, Project(f"{x}sibling", Project(f"{x}child", ann)))
    assert not restates_a_subject(kg, Project(f"{x}child", ann))


def test_chains_mostly_start_from_the_names_own_facts(example_kg):
    """A chain's first step mostly goes forward from the name (under a fifth of 2p chains start backwards)."""
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng = random.Random(3)
    chains = [p for p in (walker.sample("2p", rng) for _ in range(300)) if p is not None]
    backwards = sum(p.child.inverse for p in chains)
    assert len(chains) >= 200 and backwards / len(chains) < 0.2, (backwards, len(chains))


def test_no_chain_starts_from_where_a_name_is_or_takes_two_such_steps(example_kg, nobel_kg):
    """No chain that starts from where a name is ("born in the city that the University of Pittsburgh is in") or
    takes two steps of where things are."""
    from kg2tool.synth.walk.parallel import where_it_is

    for kg in (example_kg, nobel_kg):
        walker = Synthesizer(kg, SynthConfig(seed=1)).walker
        rng = random.Random(35)
        chains = [p for p in (walker.sample(s, rng) for s in ("2p", "3p") * 60) if p is not None]
        assert len(chains) >= 40
        for plan in chains:
            steps = chain_steps(plan)
            assert not (where_it_is(walker.lex, steps[-1].rel) and not steps[-1].inverse)
            assert sum(where_it_is(walker.lex, s.rel) for s in steps) < 2


def test_chains_do_not_stray_from_a_place(example_kg, swapi_kg):
    """No chain from a place it reached to things of another kind than its start ("the films released in the
    country that Michael Sheard is a citizen of", "the person buried where Jive is headquartered"), or back to the
    start place's own country ("Which country are organizations headquartered in Santa Monica in?"); "the
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


def test_a_step_said_the_other_way_round_from_a_place_strays_like_a_backward_one(swapi_kg):
    """A step said the other way round from a place counts as one walked back ("the films released in the country
    that Emun Elliott is a citizen of")."""
    from kg2tool.synth.walk.chain import _strays_from_place

    lex = Synthesizer(swapi_kg, SynthConfig(seed=1, min_support=3)).walker.lex
    release = next(i for i in lex.relations if "FilmRelease" in i)
    elliott = Project("https://swapi.co/vocabulary/citizenOf", Anchor(swapi_kg.resolve("Emun Elliott")))
    assert _strays_from_place(swapi_kg, lex, Project(release, elliott, False))


def test_no_chain_walks_kin_back_after_another_step_between_people(example_kg):
    """No chain walks a relation between people back after another ("Who is the person whose child is one of
    Michael Mann's siblings?": his parents asked the long way); "Who were Elvis Presley's children married to?"
    stays; no sampled chain is one `odd_chain` rules out."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex = walker.lex
    mann = Project(wd + "P3373", Anchor(example_kg.resolve("Michael Mann")))
    assert odd_chain(example_kg, lex, Project(wd + "P40", mann, True))
    elvis = Project(wd + "P40", Anchor(example_kg.resolve("Elvis Presley")))
    assert not odd_chain(example_kg, lex, Project(wd + "P26", elvis))
    rng = random.Random(42)
    for shape in ("2p", "3p"):
        plans = [p for p in (walker.sample(shape, rng) for _ in range(150)) if p is not None]
        assert len(plans) >= 60, shape
        for plan in plans:
            assert not odd_chain(example_kg, lex, plan), plan


def test_no_chain_walks_a_relation_there_and_back_or_says_one_verb_for_two_steps(example_kg, swapi_kg):
    """No chain walks one relation there and back ("Who are the people who had Mae West's cause of death?") or says
    one verb for two steps ("the award received by people who received an award for X")."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex = walker.lex
    west = Project(wd + "P509", Anchor(example_kg.resolve("Mae West")))
    assert odd_chain(example_kg, lex, Project(wd + "P509", west, True))
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


def test_no_chain_asks_the_present_of_people_found_by_their_death_or_burial(example_kg):
    """No chain asks the present of people found by their death or burial ("Which language do people buried in
    Göttingen speak?"); of people found by their birth it may."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    lex = Synthesizer(example_kg, SynthConfig(seed=1)).walker.lex
    buried = Project(wd + "P119", Anchor(example_kg.resolve("Göttingen")), True)
    assert odd_chain(example_kg, lex, Project(wd + "P1412", buried))
    born = Project(wd + "P19", Anchor(example_kg.resolve("Göttingen")), True)
    assert not odd_chain(example_kg, lex, Project(wd + "P1412", born))


def test_no_chain_walks_a_noun_back_from_a_set(example_kg):
    """No chain walks a noun back from a set ("the countries whose official language is one of the languages spoken
    by X")."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    lex = Synthesizer(example_kg, SynthConfig(seed=1)).walker.lex
    spoken = Project(wd + "P1412", Anchor(example_kg.resolve("Alexander Alexandrovich Fadeyev")))
    assert odd_chain(example_kg, lex, Project(wd + "P37", spoken, True))


def test_no_chain_says_two_steps_with_the_same_words():
    """A chain says no two steps with the same words, a relation said by its mirror included ("Which category did
    the laureates who won the Nobel Prize in Literature 1993 win a prize in?", its answer in the question)."""
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.walk.chain import odd_chain

    nobel = load_graph([REAL / "nobelprize.nt.gz"])
    lex = derive_lexicon(nobel)
    category = next(i for i in lex.relations if i.endswith("terms%2Fcategory"))
    won = Project("http://data.nobelprize.org/terms/laureate", Anchor(nobel.resolve("Literature 1993")))
    assert odd_chain(nobel, lex, Project(category, won))


def test_no_chain_finds_people_by_a_shared_value_other_than_a_place(example_kg):
    """No chain finds people by a value they share that is not a place ("the people who had Felix Mendelssohn's
    cause of death") or by a burial place ("the person buried where Pierre-Simon Laplace died"); "the people who died
    where Duke Ellington was born" stays."""
    from kg2tool.synth.walk.chain import odd_chain

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex, kg = walker.lex, example_kg

    def chain(name, first, back):
        return Project(wd + back, Project(wd + first, Anchor(kg.resolve(name))), True)

    assert odd_chain(kg, lex, chain("Felix Mendelssohn", "P509", "P1050"))  # had X's cause of death
    assert odd_chain(kg, lex, chain("Pierre-Simon Laplace", "P20", "P119"))  # buried where X died
    assert not odd_chain(kg, lex, chain("Duke Ellington", "P19", "P20"))  # died where X was born


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


def test_no_chain_walks_one_verb_forward_twice(tmp_path):
    """A chain that walks one relation said by a verb or preposition forward twice puts a clause inside a clause
    ("What are the places that the places that X was related to were related to?": readers rejected it); a chain
    of two different relations is still sampled."""
    from kg2tool.synth.walk.chain import odd_chain

    lines = [':relatedTo rdfs:label "related to" .', ':partOf rdfs:label "part of" .']
    lines += [f':p{k} rdfs:label "Place {k}" ; :relatedTo :p{(k + 1) % 9} ; :partOf :r{k % 3} .' for k in range(9)]
    lines += [f':r{k} rdfs:label "Region {k}" ; :relatedTo :r{(k + 1) % 3} .' for k in range(3)]
    kg, lex = turtle_graph(tmp_path, lines)
    rel, part = "http://x.org/relatedTo", "http://x.org/partOf"
    p0 = Anchor(kg.resolve("Place 0"))
    assert odd_chain(kg, lex, Project(rel, Project(rel, p0)))
    assert not odd_chain(kg, lex, Project(rel, Project(part, p0)))
    assert not odd_chain(kg, lex, Project(rel, Project(rel, p0, inverse=True), inverse=True))


def test_a_relative_clause_inside_another_is_not_asked():
    """Center embedding ("the places that the places that X was related to are part of") is dropped as
    `nested_clause`; a clause after a clause ("the places that are part of the places that X was related to") and
    names holding "that" are not."""
    from kg2tool.synth.run.synthesizer import nests_clauses

    q = "What are the places that the places that the places that Rabban Hormizd is part of were related to are part of?"
    assert nests_clauses(q, ["Rabban Hormizd"])
    assert nests_clauses("Tell me the place that the places that Mar Quryaqos was related to are part of.", ["Mar Quryaqos"])
    assert not nests_clauses("What are the places that are part of the places that Zāz was related to?", ["Zāz"])
    assert not nests_clauses("Who directed That Thing That You Do?", ["That Thing That You Do"])
    # with "who": the clause's subject a noun phrase with its own clause; not a clause after a clause, a question
    # word or a demonstrative
    assert nests_clauses("Who are the people who the sets that Phi 847 occurred in the presence of are about?", ["Phi 847"])
    assert nests_clauses("What are the films that the people who lived where Ann was born appear in?", ["Ann"])
    assert not nests_clauses("Tell me the films that feature the characters who come from Ryloth.", ["Ryloth"])
    assert not nests_clauses("Which of the sets that Phi 847 occurred in the presence of is about Ann?", ["Phi 847", "Ann"])
    assert not nests_clauses("Where is Epic headquartered? And which country is that place in?", ["Epic"])


def test_an_answer_that_is_a_word_of_its_question_is_not_asked():
    """"What is the license of X?" -> "license" (a node named by the word of the link to it) tells nothing; a name
    the question asks about (a comparison's winner) is no such word."""
    from kg2tool.synth.run.synthesizer import answered_by_its_words

    assert answered_by_its_words(["license"], "What is the license of The Witness?", ["The Witness"])
    assert answered_by_its_words(["license"], "What are the licenses of ebooks created by X?", ["X"])
    assert not answered_by_its_words(["will.i.am"], "Who has more record labels, will.i.am or Lily Allen?",
                                     ["will.i.am", "Lily Allen"])  # fmt: skip
    assert not answered_by_its_words(["rock", "license"], "What is the genre and license of X?", ["X"])
    assert not answered_by_its_words(["Paris"], "Where was Paris Hilton born?", ["Paris Hilton"])
