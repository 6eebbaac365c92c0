import json
import random
from collections import Counter

import pytest
from checks import check_row

from kg2tool.graph.build import load_graph
from kg2tool.synth.plans import execute
from kg2tool.synth.render import Renderer
from kg2tool.synth.synthesizer import SynthConfig, Synthesizer, gold_answers
from kg2tool.synth.tools import ToolSet
from kg2tool.synth.verify import verify_row
from kg2tool.synth.walk import CATEGORY, DIALOGUE_SHAPES, WALK_SHAPES, Walker


@pytest.fixture(scope="module")
def synth(small_kg):
    return Synthesizer(small_kg, SynthConfig(n=200, seed=3))


def test_walker_samples_every_shape_within_bounds(small_kg):
    ts = ToolSet.from_graph(small_kg)
    walker = Walker(ts)
    rng = random.Random(0)
    for shape in WALK_SHAPES:
        plans = [p for p in (walker.sample(shape, rng) for _ in range(60)) if p is not None]
        assert plans, f"no plan for {shape}"
        for p in plans:
            gold, _ = gold_answers(small_kg, p)
            assert gold, shape
            assert len(gold) <= max(
                walker.cfg.max_answers, 4 * walker.cfg.max_answers if shape.startswith("parallel") else 0
            )


def test_walker_is_seeded(small_kg):
    walker = Walker(ToolSet.from_graph(small_kg))
    a = [walker.sample(s, random.Random(5)) for s in WALK_SHAPES]
    b = [walker.sample(s, random.Random(5)) for s in WALK_SHAPES]
    assert a == b


def test_every_candidate_passes_the_independent_check(synth):
    rows, stats = synth.shard(0)
    assert len(rows) > 100
    fresh = ToolSet.from_graph(load_graph(synth.kg.stats.files))  # executor built anew from the file
    for row in rows:
        assert check_row(row, fresh) == [], row["messages"]
    assert {r["pattern"] for r in rows} >= {"1p", "2p", "2i", "3i", "2u", "count", "compare", "parallel"}
    # the gold answer is computed from the plan on ids, independently of the calls
    for row in rows:
        assert (
            row["category"] == CATEGORY[{"1p": "simple"}.get(row["pattern"], row["pattern"])]
            or row["category"] == "multiple"
        )


def test_verification_rejects_tampered_rows(synth):
    rows, _ = synth.shard(1)
    row = next(r for r in rows if r["pattern"] == "2p" or r["pattern"] == "2i")
    ts = synth.ts

    def tampered(fn):
        msgs = json.loads(json.dumps(row["messages"]))
        fn(msgs)
        return verify_row(ts, msgs, row["tools"], row["answers"], row["category"])

    assert tampered(lambda m: None) is None
    first_call = lambda m: m[1]["tool_calls"][0]["function"]  # noqa: E731
    assert tampered(lambda m: first_call(m).__setitem__("arguments", {"bogus": 1})) == "schema_invalid"
    assert tampered(lambda m: first_call(m).__setitem__("name", "count")) in ("unknown_tool", "unanswered_call")
    assert tampered(lambda m: m[2].__setitem__("content", '["Made Up"]')) == "execution_mismatch"
    assert tampered(lambda m: m[-1].__setitem__("content", "I don't know.")) == "answer_not_stated"
    assert tampered(lambda m: m.pop(2)) == "unanswered_call"
    # an argument the model could not have known: a real entity that is neither in the question nor a result
    other = next(n for n in synth.kg.names if n not in json.dumps(row["messages"]))
    key = next(iter(first_call(row["messages"])["arguments"]))
    assert tampered(lambda m: first_call(m)["arguments"].__setitem__(key, other)) in (
        "ungrounded_argument",
        "schema_invalid",
        "execution_mismatch",
    )
    wrong = verify_row(ts, row["messages"], row["tools"], row["answers"] + ["Extra"], row["category"])
    assert wrong == "answer_mismatch"


def test_templates_treat_graph_text_as_data(synth, small_kg):
    from kg2tool.synth.plans import Anchor, Project

    odd = small_kg.resolve("{{ 7*7 }} <b>Robert'); DROP TABLE--</b>")
    rel = next(r for r in small_kg.relations.values() if r.label == "place of birth")
    plan = Project(rel.iri, Anchor(odd))
    ctx = synth.renderer.context(small_kg, "simple", plan, ["City 7"])
    q, a = synth.renderer.render("simple", ctx, random.Random(0))
    assert "{{ 7*7 }}" in q and "49" not in q and "City 7" in a


def test_renderer_rejects_broken_templates(tmp_path):
    from kg2tool.common.errors import InputError
    from kg2tool.synth.render import default_template_dir

    for f in default_template_dir().glob("*.yaml"):
        (tmp_path / f.name).write_text(f.read_text())
    (tmp_path / "simple.yaml").write_text('questions: ["What is {{ q "]\nanswers: ["x"]\n')
    with pytest.raises(InputError, match=r"simple\.yaml:questions\[0\]: template error"):
        Renderer(tmp_path, shapes=["simple"])


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


def test_distractors_and_categories(synth):
    rows = []
    for i in range(3):
        rows += synth.shard(i)[0]
    by_cat = Counter(r["category"] for r in rows)
    assert set(by_cat) == {"simple", "multiple", "parallel", "parallel_multiple", "irrelevance", "multi_step", "multi_turn"}
    for r in rows:
        offered = {t["function"]["name"] for t in r["tools"]}
        called = {c["function"]["name"] for m in r["messages"] for c in m.get("tool_calls", [])}
        assert called <= offered
        if r["category"] in ("simple", "parallel"):
            assert offered == called
        if r["category"] == "multiple":
            assert len(offered) >= 3 and len(called) == 1
        if r["category"] == "irrelevance":
            assert not called and len(offered) >= 1


@pytest.mark.parametrize("shape", DIALOGUE_SHAPES)
def test_dialogue_shapes_pass_verification(shape, small_kg):
    from kg2tool.synth.walk import ALL_SHAPES

    synth = Synthesizer(small_kg, SynthConfig(seed=1, mix={s: float(s == shape) for s in ALL_SHAPES}))
    rows, stats = synth.shard(0)
    assert len(rows) > 20, stats
    fresh = ToolSet.from_graph(load_graph(small_kg.stats.files))
    for row in rows:
        assert row["pattern"] == shape
        assert check_row(row, fresh) == [], row["messages"]
        users = [m for m in row["messages"] if m["role"] == "user"]
        if shape == "error_recovery":
            errors = [m for m in row["messages"] if m["role"] == "tool" and m["content"].startswith('{"error"')]
            assert len(errors) == 1 and row["category"] == "multi_step"
        else:
            assert len(users) == 2 and row["category"] == "multi_turn"
        if shape == "missing_info":
            # the entity is named only in the second user turn, after the assistant asked
            assert row["messages"][1]["role"] == "assistant" and not row["messages"][1].get("tool_calls")
            arg = next(iter(row["messages"][3]["tool_calls"][0]["function"]["arguments"].values()))
            assert arg in users[1]["content"] and arg not in users[0]["content"]
