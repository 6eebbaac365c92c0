"""kg2tool.synth.shards' HelperGauge: helpers that bring no CPU of their own (another session holds the other core)
are given no shards for a while, and the shards still come out in order, the same rows as one worker's."""

import os

from kg2tool.synth import shards
from kg2tool.synth.shards import HelperGauge


class Clock:
    """Wall and CPU clocks that the test moves (the gauge reads both through the time module)."""

    def __init__(self):
        self.wall = self.cpu = 0.0

    def perf_counter(self):
        return self.wall

    def process_time(self):
        return self.cpu


def run(gauge, clock, shards_, cores, first=0):
    """feed() for shards first..first+shards_-1, each shard taking 1 s of wall time while the run gets `cores` cores (this
    process 1 of them at most, the helpers the rest)."""
    fed = []
    for j in range(first, first + shards_):
        fed.append(gauge.feed(j))
        clock.wall += 1.0
        clock.cpu += min(cores, 1.0)
        gauge.helper_cpu += max(cores - 1.0, 0.0)
    return fed


def test_helpers_are_paused_where_the_run_gets_one_core_and_measured_again(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(shards.time, "perf_counter", clock.perf_counter)
    monkeypatch.setattr(shards.time, "process_time", clock.process_time)
    gauge = HelperGauge()
    w, p = HelperGauge.WINDOW, HelperGauge.PAUSE
    fed = run(gauge, clock, w + p + w + 2 * p + w + 1, cores=1.05)
    assert fed[:w] == [True] * w  # the first window measures
    assert fed[w:w + p] == [False] * p  # then no shard for the helpers
    assert fed[w + p:w + p + w] == [True] * w  # measured again,
    assert fed[2 * w + p:2 * w + 3 * p] == [False] * 2 * p  # and paused again, twice as long
    assert fed[-w - 1:] == [True] * w + [False] and gauge.pauses == 3
    # the machine frees up: once the running pause (4 * p) is over, the helpers are fed again, for good
    fed = run(gauge, clock, 4 * p + 3 * w, cores=1.9, first=len(fed))
    assert fed == [False] * (4 * p - 1) + [True] * (3 * w + 1) and gauge.in_a_row == 0 and gauge.pauses == 3


def test_helpers_that_add_a_core_are_always_fed(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(shards.time, "perf_counter", clock.perf_counter)
    monkeypatch.setattr(shards.time, "process_time", clock.process_time)
    gauge = HelperGauge()
    assert all(run(gauge, clock, 100, cores=1.9)) and gauge.pauses == 0


def test_paused_helpers_still_give_the_rows_of_one_worker(example_kg, monkeypatch):
    """A gauge that never lets the helper be fed after the first window: this process computes the rest, in order,
    with the rows one worker makes."""
    from kg2tool.synth.synthesizer import SynthConfig, Synthesizer

    class Never(HelperGauge):
        def feed(self, j):
            return j < 2

    monkeypatch.setattr(shards, "HelperGauge", Never)
    synth = Synthesizer(example_kg, SynthConfig(n=100, seed=3, shard_size=40))
    here, candidates, parent = [], synth.candidates, os.getpid()

    def counted(i):
        if os.getpid() == parent:
            here.append(i)
        return candidates(i)

    monkeypatch.setattr(synth, "candidates", counted)
    gen = shards.iter_shards(synth, workers=2)
    got = [next(gen) for _ in range(12)]
    gen.close()
    assert [i for i, _, _ in got] == list(range(12))
    assert set(range(6, 12)) <= set(here)  # once the helper's queued shards are done, this process does the rest
    alone = Synthesizer(example_kg, SynthConfig(n=100, seed=3, shard_size=40))
    for i, rows, _ in got:
        assert [c.row for c in rows] == [c.row for c in alone.candidates(i)[0]]
