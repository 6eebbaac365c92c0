"""Which lookups the walker samples: one-hop lookups (`Walker.one_hop`), one relation of several names (parallel)
and several lookups in one turn (parallel_multiple), several things about one entity asked as people ask them. The
blind readings behind each rule: docs/research/rules.md."""

from __future__ import annotations

import random
import re

from checks import check_row
from synth_rows import question

from kg2tool.synth.language.lexicon import PERSON_KINDS
from kg2tool.synth.paraphrase.rewrite import plan_names
from kg2tool.synth.plans.tree import Anchor, execute
from kg2tool.synth.run.synthesizer import DEFAULT_MIX, SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet


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
    # "they", never the name twice (not "Which languages does X speak? And what are ... of X?")
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=1, shard_size=80, mix={"parallel_multiple": 1.0})).shard(0)
    listed = [question(r) for r in rows if re.match(r"(Tell me|[Ww]hat are) [^?]+'s? [a-z ]+(, [a-z ]+)* and ", question(r))]
    assert listed and not any(re.search(r"\b(they|them|their)\b", question(r)) for r in rows)
    assert not any(question(r).count(n) > 1 for r in rows for n in set(plan_names(r["plan"]))), listed[:3]


def test_several_nouns_of_one_person_are_not_asked_as_two_questions(example_kg):
    """Several nouns of one person of no known gender are listed once ("What are X's languages and occupations?"),
    not asked as two questions that repeat the name."""
    mix = {s: float(s == "parallel_multiple") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=13, shard_size=150, mix=mix)).shard(0)
    for row in rows:
        first, *rest = question(row).split("? And ")
        names = plan_names(row["plan"]) if rest else []
        assert not (len(set(names)) == 1 and names[0] in rest[0]), question(row)


def test_a_parallel_questions_names_are_related(example_kg):
    """The names of a parallel question are related by another relation (not "Which instruments do William
    Herschel, Martie Maguire and Falco play?")."""
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


def test_related_names_share_a_small_neighbour(example_kg):
    """Names asked about together share a neighbour of fewer than RELATED_MAX others, not a country or an
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


def test_one_lookup_of_several_names_has_answers_of_one_kind(swapi_kg):
    """One lookup of several names whose answers differ in kind is not asked ("Which films feature the Executor? What
    about the Millennium Falcon?" answered with characters): no answer says "things"."""
    mix = {s: float(s == "parallel") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=21, shard_size=150, min_support=3, mix=mix)).shard(0)
    assert len(rows) >= 50 and not any(re.search(r"\bthings\b", r["messages"][-1]["content"]) for r in rows)


def test_no_prize_is_asked_beside_its_category(nobel_kg):
    """No lookup pair of one entity asks one thing twice: a prize beside its category ("Which prize did X win and
    which category did he win a prize in?")."""
    mix = {s: float(s in ("simple", "parallel_multiple", "2i")) for s in DEFAULT_MIX}
    rows, _ = Synthesizer(nobel_kg, SynthConfig(seed=5, shard_size=200, mix=mix)).shard(0)
    for row in rows:
        if row["pattern"] == "parallel_multiple":
            assert not ("which prize" in question(row).lower() and "category" in question(row)), question(row)


def test_a_films_parts_are_not_asked_together(swapi_kg):
    """Several parts of one film are not asked together ("What are the locations of X and what are its planets?":
    a schema dump)."""
    mix = {s: float(s == "parallel_multiple") for s in DEFAULT_MIX}
    rows, _ = Synthesizer(swapi_kg, SynthConfig(seed=31, shard_size=100, min_support=3, mix=mix)).shard(0)
    films = {swapi_kg.name(e) for e in range(len(swapi_kg.entities)) if "Film" in swapi_kg.types[e]}
    for row in rows:
        names = set(plan_names(row["plan"]))
        assert not (len(names) == 1 and names <= films), question(row)


def test_several_things_are_not_asked_about_a_country(example_kg):
    """Several things about one entity are not asked of a country ("Who is the head of state of Dominica and which
    countries does it have diplomatic relations with?")."""
    from kg2tool.synth.walk.co import HUB_KINDS

    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng = random.Random(48)
    about_one = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(200)) if p is not None]
    assert len(about_one) >= 100
    for plan in about_one:
        names = {k.child.eid for k in plan.children if isinstance(k.child, Anchor)}
        if len(names) == 1:
            assert walker.lex.kind_of(names.pop()) not in HUB_KINDS, plan


def test_several_things_about_one_entity_never_ask_where_it_is(example_kg):
    """No parallel_multiple part asks where a thing is ("Which countries is Capitol Records in and who founded
    it?")."""
    pm_walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(35)
    parts = [k for p in (pm_walker.sample("parallel_multiple", rng) for _ in range(100)) if p is not None for k in p.children]
    labels = {pm_walker.lex.relations[k.rel].label.lower() for k in parts}
    assert len(parts) >= 150 and not labels & {"country", "continent", "part of", "located in the administrative territorial entity"}, labels


def test_a_persons_noun_list_does_not_mix_kin_and_career(example_kg):
    """A person's list of nouns does not mix kin and career ("What are Joe Jackson's children and occupations?")."""
    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(36)
    lists = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(300)) if p is not None
             and len({k.child for k in p.children}) == 1 and walker.lex.kind_of(p.children[0].child.eid) in PERSON_KINDS]
    assert len(lists) >= 20
    for plan in lists:
        kin = {walker.lex.relations[k.rel].object in PERSON_KINDS for k in plan.children}
        assert len(kin) == 1, [walker.lex.relations[k.rel].label for k in plan.children]


def test_several_things_about_a_person_leave_out_what_they_believe_belong_to_by_birth_or_died_of(example_kg):
    """Several things about one person do not include what the person believes, belongs to by birth or died of
    ("George Orwell's ethnic group and cause of death")."""
    from kg2tool.synth.walk.parallel import personal

    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    lex = walker.lex
    assert personal(lex, wd + "P172") and personal(lex, wd + "P509") and not personal(lex, wd + "P19")
    rng = random.Random(50)
    plans = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(300)) if p is not None]
    about_one = [p for p in plans if len({k.child.eid for k in p.children if isinstance(k.child, Anchor)}) == 1]
    assert len(about_one) >= 100
    assert not [p for p in about_one if any(personal(lex, k.rel) for k in p.children)]


def test_parallel_multiple_is_about_one_name(example_kg):
    """parallel_multiple asks two or three things about one entity, never about different names (two unrelated
    requests in one message read as glued together: "Tell me the person who founded Reprise Records, Lenny Kravitz's
    child and Ashanti's partner")."""
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng = random.Random(58)
    plans = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(400)) if p is not None]
    assert len(plans) >= 300
    assert all(len({k.child.eid for k in p.children if isinstance(k.child, Anchor)}) == 1 for p in plans)
    assert any(len(p.children) == 3 for p in plans) and any(len(p.children) == 2 for p in plans)


def test_no_lookup_of_where_a_country_is(example_kg):
    """No lookup of where a country is ("the countries that Sri Lanka is in", "What is Uruguay part of?")."""
    from kg2tool.synth.walk.parallel import where_it_is

    walker, rng = Synthesizer(example_kg, SynthConfig(seed=1)).walker, random.Random(39)
    hops = [p for p in (walker.one_hop(rng) for _ in range(3000)) if p is not None]
    assert sum(where_it_is(walker.lex, p.rel) and not p.inverse for p in hops) >= 20
    for p in hops:
        if where_it_is(walker.lex, p.rel) and not p.inverse:
            assert walker.lex.kind_of(p.child.eid) not in ("country", "continent"), example_kg.name(p.child.eid)


def test_backward_lookups_start_from_no_occupation(example_kg):
    """A backward lookup by a relation other than an occupation starts from no occupation ("Who works in
    physicist?": the bundled graph gives physicist as a field of work too); "Who is a physicist?" stays."""
    wd = "http://www.wikidata.org/prop/direct/"
    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    physicist, physics = example_kg.resolve("physicist"), example_kg.resolve("physics")
    assert physicist in walker.adj(wd + "P101", True)  # the graph has it as a field of work
    assert physicist not in walker.sources[(wd + "P101", True)] and physics in walker.sources[(wd + "P101", True)]
    assert physicist in walker.sources[(wd + "P106", True)]


def test_what_lies_in_a_place_is_asked_by_a_narrower_kind(example_kg):
    """What lies in a place is asked only by a kind narrower than "places" (not "Which places are in the Czech
    Republic?", "What is in France?")."""
    from kg2tool.synth.walk.parallel import where_it_is

    walker = Synthesizer(example_kg, SynthConfig(seed=1)).walker
    rng, inside = random.Random(45), []
    for plan in (walker.one_hop(rng, back=1.0) for _ in range(1500)):
        if plan is not None and where_it_is(walker.lex, plan.rel):
            inside.append({walker.lex.kind_of(e) for e in execute(example_kg, plan)})
    assert len(inside) >= 10 and all(not kinds <= {"place", "location", "item", "thing"} for kinds in inside), inside


def test_several_things_about_one_entity_are_not_one_thing_said_twice(tmp_path):
    """Two relations said with the same words (a graph's two `olympics` paths) are not asked together: "What is the
    olympics of Panama and what is its olympics?"."""
    from kg2tool.graph.build import load_graph

    lines = ["@prefix : <http://x.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             ':games_a rdfs:label "olympics" . :games_b rdfs:label "olympics" . :medal rdfs:label "medal" .']
    for k in range(12):
        lines.append(f':c{k} rdfs:label "Country {k}" ; :games_a :g{k % 3} ; :games_b :g{(k + 1) % 3} ; :medal :m{k % 2} .')
    lines += [f':g{k} rdfs:label "Games {k}" .' for k in range(3)] + [':m0 rdfs:label "Gold" .', ':m1 rdfs:label "Silver" .']
    path = tmp_path / "g.ttl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    walker = Synthesizer(load_graph([path]), SynthConfig(seed=1, min_support=1)).walker
    rng = random.Random(3)
    plans = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(100)) if p is not None]
    assert len(plans) >= 20
    for plan in plans:
        rels = {k.rel for k in plan.children}
        assert rels != {"http://x.org/games_a", "http://x.org/games_b"} and len(rels) == len(plan.children), plan


def test_no_lookup_is_asked_by_the_noun_of_another_beside_it(tmp_path):
    """Two lookups of one entity where one's answers are asked for by the other's noun ask one thing twice
    ("Which contributor created X and what is its contributor?": Dublin Core's creator and contributor, whose
    objects take the contributor's kind): never asked together; two lookups said apart still are."""
    from kg2tool.graph.build import load_graph

    lines = ["@prefix dc: <http://purl.org/dc/terms/> .", "@prefix : <http://x.org/> .",
             "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]  # fmt: skip
    for k in range(12):
        lines.append(f':c{k} rdfs:label "Concept {k}" ; dc:creator :p{k % 3} ; dc:contributor :p{k % 3}, :p{(k + 1) % 3} ;'
                     f' :broader :c{(k + 1) % 12} .')  # fmt: skip
    lines += [f':p{k} rdfs:label "Editor {k}" .' for k in range(3)]
    ttl = tmp_path / "g.ttl"
    ttl.write_text("\n".join(lines) + "\n")
    kg = load_graph(str(ttl))
    walker = Synthesizer(kg, SynthConfig(seed=1, min_support=1)).walker
    rng = random.Random(3)
    plans = [p for p in (walker.sample("parallel_multiple", rng) for _ in range(200)) if p is not None]
    asked = {frozenset(k.rel.rsplit("/", 1)[-1] for k in p.children) for p in plans}
    assert asked and frozenset({"creator", "contributor"}) not in asked
    assert any("broader" in pair for pair in asked)
