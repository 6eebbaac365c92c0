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


def _merged(kg, gated: bool, workers: int = 1, monkeypatch=None):
    """rows, report, DPO pairs and the yield's counts of one merge of `kg` (n beyond what it can give)."""
    import json

    from kg2tool.synth.checks.diversity import DiversityFilter, Gate
    from kg2tool.synth.run.saturation import Saturation

    cfg = SynthConfig(n=1200, seed=3, shard_size=48)
    synth = Synthesizer(kg, cfg)
    synth.lazy_pairs = True
    gate = Gate(DiversityFilter(cfg.near_dup_threshold, cfg.max_per_topic), cfg.n) if gated else None
    synth.gate = gate
    saturation = Saturation()
    kept, stats = merge_shards(iter_shards(synth, workers=workers), cfg, keep=synth.add_pairs, saturation=saturation,
                               gate=gate)  # fmt: skip
    rows = {s: [c.row for c in v] for s, v in kept.items()}
    report = build_report(synth, rows, stats)
    return json.dumps([rows, report, make_preference_pairs(kept), saturation.tried], sort_keys=True)


def test_the_gate_skips_taken_plans_before_making_them_with_the_merges_rows_and_counts(small_kg, monkeypatch):
    """The shard the merge takes next skips candidates whose plan is taken or whose topic is full before computing
    their answers (cheap rejections), and gives the same rows, pairs and report as a merge that drops them after
    they were made whole (a shard made by a helper, or read back from a checkpoint)."""
    from kg2tool.synth.run import synthesizer

    answered = []
    real = synthesizer.gold_answers
    monkeypatch.setattr(synthesizer, "gold_answers", lambda kg, plan: answered.append(1) or real(kg, plan))
    whole = _merged(small_kg, gated=False)
    made_whole, answered[:] = len(answered), []
    assert _merged(small_kg, gated=True) == whole
    assert len(answered) < 0.8 * made_whole  # a fifth and more of the candidates skipped before their answers
    report = __import__("json").loads(whole)[1]
    assert report["dropped"]["duplicate_plan"] > 0 and report["dropped_by_stage"]["merge"] >= report["dropped"]["duplicate_plan"]


def test_shards_made_by_a_helper_and_by_the_gate_merge_to_the_rows_of_one_worker(small_kg, monkeypatch):
    """A helper makes the first shards (its gate closed: forked), this process the rest (gated): the same bytes."""
    from kg2tool.synth.run import shards
    from kg2tool.synth.run.gauge import HelperGauge

    class Early(HelperGauge):
        def feed(self, j):
            return j < 3

    monkeypatch.setattr(shards, "HelperGauge", Early)
    assert _merged(small_kg, gated=True, workers=2) == _merged(small_kg, gated=False, workers=1)
