"""Dialogue shapes (kg2tool.synth.dialogue): follow-up, missing-info and error-recovery conversations verify."""

import pytest
from checks import check_row

from kg2tool.graph.build import load_graph
from kg2tool.synth.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools import ToolSet
from kg2tool.synth.walk import ALL_SHAPES, DIALOGUE_SHAPES


@pytest.mark.parametrize("shape", DIALOGUE_SHAPES)
def test_dialogue_shapes_pass_verification(shape, small_kg):
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


def test_every_dialogue_shape_has_one_builder(small_kg):
    synth = Synthesizer(small_kg, SynthConfig(seed=1))
    assert set(synth.dialogue.builders) == set(DIALOGUE_SHAPES)
    assert synth.dialogue.kg is small_kg and synth.dialogue.ts is synth.ts  # the graph and tools the walker uses
