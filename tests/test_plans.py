"""Query plans (kg2tool.synth.plans.tree): execution on ids, anchors, relation paths and the stored JSON form."""

from kg2tool.synth.plans.tree import (
    Anchor,
    Count,
    Project,
    SetOp,
    anchors,
    co_parts,
    co_plan,
    execute,
    plan_to_json,
    relation_path,
    topic,
)


def test_plan_execution_follows_the_graph(small_kg):
    kg = small_kg
    born = next(r for r in kg.relations.values() if r.label == "place of birth")
    lives = next(r for r in kg.relations.values() if r.label == "residence")
    p3, p11 = kg.resolve("Person 3"), kg.resolve("Person 11")
    city = Project(born.iri, Anchor(p3))
    assert execute(kg, city) == frozenset(born.forward[p3])
    born_there = Project(born.iri, city, inverse=True)  # everyone born where Person 3 was
    assert p3 in execute(kg, born_there) and p11 in execute(kg, born_there)  # 3 and 11 are both born in City 3
    city3 = kg.resolve("City 3")
    living = Project(lives.iri, Anchor(city3), inverse=True)  # everyone living in City 3
    both = SetOp("intersection", (born_there, living))
    assert (
        execute(kg, both)
        == execute(kg, born_there) & execute(kg, living)
        == frozenset(e for e in execute(kg, born_there) if city3 in lives.forward.get(e, ()))
    )
    minus = SetOp("difference", (born_there, Project(born.iri, Anchor(p3))))
    assert execute(kg, minus) == execute(kg, born_there) - execute(kg, city)
    assert execute(kg, Count(born_there)) == len(execute(kg, born_there))


def test_anchors_path_and_json(small_kg):
    kg = small_kg
    born = next(r for r in kg.relations.values() if r.label == "place of birth")
    p3, p5 = kg.resolve("Person 3"), kg.resolve("Person 5")
    plan = SetOp("union", (Project(born.iri, Anchor(p3)), Project(born.iri, Anchor(p5))))
    assert anchors(plan) == [p3, p5] and topic(plan) == p3
    assert relation_path(plan) == [born.iri, born.iri]
    data = plan_to_json(kg, plan)
    assert data["op"] == "union" and [c["of"]["name"] for c in data["of"]] == ["Person 3", "Person 5"]


def test_co_plan_excludes_its_topic_and_is_recognized(small_kg):
    kg = small_kg
    born = next(r for r in kg.relations.values() if r.label == "place of birth")
    p3 = kg.resolve("Person 3")
    plan = co_plan(p3, born.iri)
    first, back, x = co_parts(plan)
    assert (first, x) == (Project(born.iri, Anchor(p3)), Anchor(p3)) and back.inverse
    assert execute(kg, plan) == execute(kg, back) - {p3} and kg.resolve("Person 11") in execute(kg, plan)
    assert anchors(plan) == [p3, p3] and topic(plan) == p3
    assert plan_to_json(kg, plan)["of"][1] == {"op": "entity", "name": "Person 3", "iri": kg.entities[p3]}
    # a difference with another entity, or a walk back along another relation, is no co plan
    assert co_parts(SetOp("difference", (back, Anchor(kg.resolve("Person 4"))))) is None
    lives = next(r for r in kg.relations.values() if r.label == "residence")
    assert co_parts(SetOp("difference", (Project(lives.iri, first, True), x))) is None
