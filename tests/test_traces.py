"""Traces (kg2tool.synth.traces): the compiled calls of a plan end with the plan's own gold answer."""

import random

import pytest

from kg2tool.synth.plans.tree import co_plan, execute
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer, gold_answers
from kg2tool.synth.traces import tools_used
from kg2tool.synth.walk.walker import WALK_SHAPES


@pytest.fixture(scope="module")
def synth(small_kg):
    return Synthesizer(small_kg, SynthConfig(n=200, seed=3))


def test_plan_execution_matches_compiled_calls(synth):
    rng = random.Random(11)
    for shape in WALK_SHAPES:
        if shape == "irrelevance":
            continue
        for _ in range(10):
            plan = synth.walker.sample(shape, rng)
            if plan is None:
                continue
            trace = synth.compiler.compile(plan)
            gold, per = gold_answers(synth.kg, plan)
            value = trace.value
            got = set()
            for v in value if per else [value]:
                got |= {str(x) for x in v} if isinstance(v, list) else {str(v)}
            assert got == set(gold), shape
            assert execute(synth.kg, plan) is not None
            used = tools_used(trace)
            assert used == list(dict.fromkeys(c.name for c in trace.calls)) and set(used) <= set(synth.ts.specs)


def test_co_plan_compiles_to_lookups_then_the_exclusion_of_the_topic(synth):
    kg = synth.kg
    born = next(r for r in kg.relations.values() if r.label == "place of birth")
    lives = next(r for r in kg.relations.values() if r.label == "residence")
    p3 = kg.resolve("Person 3")
    for rel in (born, lives):
        plan = co_plan(p3, rel.iri)
        trace = synth.compiler.compile(plan)
        mids = trace.calls[0].result
        names = [c.name for c in trace.calls]
        union = ["union"] if len(mids) > 1 else []
        assert names == [synth.ts.forward_tool[rel.iri]] + [synth.ts.inverse_tool[rel.iri]] * len(mids) + union + [
            "difference"
        ]
        last = trace.calls[-1]
        assert last.arguments["exclude"] == ["Person 3"] and "Person 3" in last.arguments["include"]
        assert sorted(trace.value) == gold_answers(kg, plan)[0] and "Person 3" not in trace.value
        assert [c.turn for c in trace.calls] == [1] + [2] * len(mids) + [3] * len(union) + [3 + len(union)]
