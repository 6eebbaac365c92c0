"""kg2tool.common.fastschema: the fast check proves only what jsonschema accepts, and proves the calls synthesis
makes (so ToolSet.validate gives jsonschema's answers, and its error messages, at a fraction of the cost)."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from kg2tool.common.fastschema import compile_check
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolError, ToolSet

FORMATS = Draft202012Validator.FORMAT_CHECKER


@pytest.fixture(scope="module")
def synth(small_kg):
    return Synthesizer(small_kg, SynthConfig(n=300, seed=3, shard_size=300))


@pytest.fixture(scope="module")
def calls(synth):
    """(tool name, arguments) of every call in a shard's rows and in their DPO rejections (wrong types, missing and
    unknown keys, other tools: valid and invalid arguments alike)."""
    out = []
    for cand in synth.candidates(0)[0]:
        turns = [m for m in cand.row["messages"]] + [m for p in cand.dpo for m in p["rejected"]]
        for m in turns:
            for c in m.get("tool_calls") or []:
                out.append((c["function"]["name"], c["function"]["arguments"]))
    assert len(out) > 500
    return out


def _valid(schema, value) -> bool:
    return next(Draft202012Validator(schema, format_checker=FORMATS).iter_errors(value), None) is None


def _mutations(value, rng: random.Random) -> list:
    """Near misses of a valid value: each leaf or list replaced by other JSON types, keys dropped or added."""
    out = []
    if isinstance(value, dict):
        for key in value:
            for other in (None, 1, 1.5, True, "", "x", [], {}, ["a"], [1], [["a"]]):
                out.append({**value, key: other})
            out.append({k: v for k, v in value.items() if k != key})
            out += [{**value, key: m} for m in _mutations(value[key], rng)]
        out.append({**value, "limit": 10})
    elif isinstance(value, list):
        out += [value[:1], [], value + [3], value + [None], value + [[]], [True] * len(value)]
        if value:
            i = rng.randrange(len(value))
            out += [value[:i] + [m] + value[i + 1 :] for m in _mutations(value[i], rng)]
    elif isinstance(value, str):
        out += [value + " ", value.upper(), value[:-1], 0]
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out += [str(value), float(value) + 0.5, True, "2020-13-45", "2020-01-02", "2020-01-02T03:04:05Z"]
    return out


def test_every_call_synthesis_makes_or_rejects_gets_jsonschemas_answer(synth, calls):
    rng = random.Random(0)
    proven = tested = 0
    for name, args in calls:
        schema = synth.ts.specs[name].parameters
        ok = compile_check(schema)
        for case in [args, *_mutations(copy.deepcopy(args), rng)]:
            tested += 1
            if ok(case):
                proven += 1
                assert _valid(schema, case), (name, case)
    assert tested > 5000 and proven > 500


def test_the_valid_calls_of_rows_are_proven_without_the_validator(synth, calls):
    entity_or_sets = [(n, a) for n, a in calls if n != "compare" and _valid(synth.ts.specs[n].parameters, a)]
    assert len(entity_or_sets) > 300
    assert all(compile_check(synth.ts.specs[n].parameters)(a) for n, a in entity_or_sets)


def test_validate_words_errors_as_jsonschema_does(small_kg):
    ts = ToolSet.from_graph(small_kg)
    cases = [
        ("get_place_of_birth", {"entity": ""}),
        ("get_place_of_birth", {"entity": 3}),
        ("get_place_of_birth", {}),
        ("get_place_of_birth", {"entity": "Person 1", "limit": 10}),
        ("intersection", {"sets": [["a"], [1]]}),
        ("count", {"items": "abc"}),
        ("compare", {"items": [{"name": "a", "value": "2020-13-01"}, {"name": "b", "value": 1}], "mode": "max"}),
        ("compare", {"items": [{"name": "a", "value": 1}, {"name": "b", "value": 2}], "mode": "maximum"}),
    ]
    for name, args in cases:
        err = next(ts.validators[name].iter_errors(args))
        where = "/".join(str(p) for p in err.absolute_path) or "(arguments)"
        with pytest.raises(ToolError) as got:
            ts.validate(name, args)
        assert got.value.kind == "schema" and str(got.value) == f"{name}: invalid argument {where}: {err.message}"


def test_keywords_it_does_not_know_prove_nothing():
    assert not compile_check({"type": "string", "format": "date"})("2020-01-01")
    assert not compile_check({"type": "string", "pattern": "^a"})("abc")
    assert not compile_check({"const": 1})(1)
    assert not compile_check({"type": "object", "patternProperties": {}})({})
    anyof = compile_check({"anyOf": [{"type": "number"}, {"type": "string", "format": "date"}]})
    assert anyof(3) and anyof(2.5) and not anyof("2020-01-01") and not anyof(True)
    assert compile_check({"type": ["integer", "null"]})(None) and not compile_check({"type": "integer"})(1.0)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(["entity", "sets", "x", "mode"]), kids),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON, which=st.integers(0, 10_000))
def test_random_json_is_never_proven_valid_wrongly(synth, value, which):
    specs = list(synth.ts.specs.values())
    schema = specs[which % len(specs)].parameters
    if compile_check(schema)(value):
        assert _valid(schema, value)
