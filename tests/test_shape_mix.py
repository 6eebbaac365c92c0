"""The default shape mix (README, "How natural, measured blind"): set operations nested with a chain are off by
default and on with --mix. Which questions each shape asks: tests/test_walk_chains.py, test_walk_sets.py and
test_walk_lookups.py; how they are said: tests/test_wording_*.py; the blind readings behind each rule:
docs/research/rules.md."""

from __future__ import annotations

from checks import check_row

from kg2tool.synth.run.synthesizer import DEFAULT_MIX, SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet

NESTED = ("ip", "pi", "up", "3in", "inp", "pin", "pni", "cop")


def test_nested_set_operations_are_off_by_default_and_on_by_mix(example_kg):
    assert all(DEFAULT_MIX[s] == 0 for s in NESTED) and sum(w > 0 for w in DEFAULT_MIX.values()) >= 15
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=1, shard_size=200)).shard(0)
    assert rows and not {r["pattern"] for r in rows} & set(NESTED)
    on = {s: 1.0 if s in ("pi", "cop") else 0.0 for s in DEFAULT_MIX}
    rows, _ = Synthesizer(example_kg, SynthConfig(seed=1, shard_size=60, mix=on)).shard(0)
    assert {r["pattern"] for r in rows} == {"pi", "cop"}
    fresh = ToolSet.from_graph(example_kg)
    assert all(check_row(r, fresh) == [] for r in rows)
