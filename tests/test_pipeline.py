"""The synth pipeline (kg2tool.synth.run.pipeline): merging shards through the diversity filters into splits, the
DPO pairs and the report's counts."""

import gc

from kg2tool.synth.run.pipeline import build_report, make_preference_pairs, merge_shards
from kg2tool.synth.run.shards import frozen_heap, iter_shards
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer, split_of


def test_merge_counts_every_candidate_and_splits_by_key(small_kg):
    cfg = SynthConfig(n=150, seed=2, shard_size=64, near_dup_threshold=0.6)  # low enough that some drops happen
    synth = Synthesizer(small_kg, cfg)
    kept, stats = merge_shards(iter_shards(synth), cfg)
    total = sum(len(v) for v in kept.values())
    assert total == cfg.n
    for split, cands in kept.items():
        assert all(split_of(c.split_key, cfg.splits) == split for c in cands)
    diversity = {"duplicate_question", "duplicate_plan", "near_duplicate_question", "topic_cap"}
    assert set(stats.dropped) & diversity  # the diversity drops are counted by reason ...
    assert not set(r for _, r in stats.dropped_by_shape) & diversity  # ... and not by shape
    pairs = make_preference_pairs(kept)
    assert {s: len(v) for s, v in pairs.items()} == {s: sum(len(c.dpo) for c in v) for s, v in kept.items()}
    rows = {s: [c.row for c in v] for s, v in kept.items()}
    report = build_report(synth, rows, stats)
    assert report["kept"]["total"] == total
    assert report["dropped"] == dict(sorted(stats.dropped.items()))
    assert list(report["dropped_by_shape"]) == sorted(report["dropped_by_shape"])
    diversity_drops = sum(n for r, n in report["dropped"].items() if r in diversity)
    assert sum(report["dropped_by_shape"].values()) + diversity_drops == sum(stats.dropped.values())
    assert sum(report["tried_by_shape"].values()) == sum(stats.tried.values())


def test_the_shard_loop_runs_with_the_graph_frozen_and_hands_it_back(small_kg):
    """frozen_heap (run_synth's shard loop): what is alive when it starts (the graph, the synthesizer) is out of the
    collector's generations while shards are made, the rows are the same as without it, and at the end (also on an
    error) everything is handed back."""
    cfg = SynthConfig(n=60, seed=4, shard_size=64)
    plain, _ = merge_shards(iter_shards(Synthesizer(small_kg, cfg)), cfg)
    synth = Synthesizer(small_kg, cfg)
    assert gc.get_freeze_count() == 0
    with frozen_heap():
        assert gc.get_freeze_count() > 0
        frozen, _ = merge_shards(iter_shards(synth), cfg)
    assert gc.get_freeze_count() == 0
    assert {s: [c.row for c in v] for s, v in frozen.items()} == {s: [c.row for c in v] for s, v in plain.items()}
    try:
        with frozen_heap():
            raise ValueError("a shard failed")
    except ValueError:
        pass
    assert gc.get_freeze_count() == 0
