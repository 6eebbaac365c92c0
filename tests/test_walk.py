"""The walker (kg2tool.synth.walk): every walk shape is sampled within its bounds, and sampling is seeded."""

import random

from kg2tool.synth.synthesizer import gold_answers
from kg2tool.synth.tools import ToolSet
from kg2tool.synth.walk import ALL_SHAPES, CATEGORY, DIALOGUE_SHAPES, WALK_SHAPES, Walker


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


def test_every_walk_shape_has_one_sampler_and_every_shape_a_category(small_kg):
    walker = Walker(ToolSet.from_graph(small_kg))
    assert set(walker.samplers) == set(WALK_SHAPES)
    assert set(ALL_SHAPES) == set(WALK_SHAPES) | set(DIALOGUE_SHAPES) and not set(WALK_SHAPES) & set(DIALOGUE_SHAPES)
    assert set(CATEGORY) >= set(ALL_SHAPES)
