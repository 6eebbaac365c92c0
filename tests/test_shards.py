"""kg2tool.synth.shards' HelperGauge: helpers that bring no CPU of their own (another session holds the other core)
are given no shards for a while, and the shards still come out in order, the same rows as one worker's."""

import os

from kg2tool.synth import shards
from kg2tool.synth.shards import HelperGauge


class Clock:
    """A wall clock that the test moves (the gauge reads it through the time module)."""

    def __init__(self):
        self.wall = 0.0

    def perf_counter(self):
        return self.wall


def run(gauge, clock, shards_, speedup, first=0):
    """feed() for shards first..first+shards_-1, a shard taking 1 s to compute alone and 1/speedup s with the
    helpers fed."""
    fed = []
    for j in range(first, first + shards_):
        fed.append(gauge.feed(j))
        clock.wall += 1.0 / speedup if fed[-1] else 1.0
        gauge.computed += 1
    return fed


def gauge_on(monkeypatch, helpers=1):
    clock = Clock()
    monkeypatch.setattr(shards.time, "perf_counter", clock.perf_counter)
    return HelperGauge(helpers), clock


def test_helpers_that_bring_nothing_are_paused_and_measured_again(monkeypatch):
    gauge, clock = gauge_on(monkeypatch)
    w, p = HelperGauge.WINDOW, HelperGauge.PAUSE
    fed = run(gauge, clock, 2 * w + p + 2 * w + 2 * p + 2 * w + 1, speedup=1.05)
    assert fed[:2 * w] == [False] * w + [True] * w  # a window alone, a window with the helpers
    assert fed[2 * w:2 * w + p] == [False] * p  # not worth it: no shard for the helpers
    at = 2 * w + p
    assert fed[at:at + 2 * w] == [False] * w + [True] * w  # measured again
    assert fed[at + 2 * w:at + 2 * w + 2 * p] == [False] * 2 * p  # and paused again, twice as long
    assert fed[-1] is False and gauge.pauses == 3 and gauge.gains == [1.05] * 3
    # the machine frees up: once the running pause (4 * p) is over, the helpers are measured and fed, for good
    more = run(gauge, clock, 4 * p - 1 + 2 * w + HelperGauge.RUN, speedup=1.9, first=len(fed))
    assert more == [False] * (4 * p - 1 + w) + [True] * (w + HelperGauge.RUN) and gauge.gains[-1] == 1.9


def test_helpers_that_pay_off_are_fed_and_measured_after_a_drain(monkeypatch):
    gauge, clock = gauge_on(monkeypatch, helpers=1)
    w, run_ = HelperGauge.WINDOW, HelperGauge.RUN
    fed = run(gauge, clock, 2 * w + run_ + 2 + 2 * w + 1, speedup=1.9)
    assert fed[:2 * w] == [False] * w + [True] * w
    assert fed[2 * w:2 * w + run_] == [True] * run_
    assert fed[2 * w + run_:] == [False] * (2 + w) + [True] * (w + 1)  # 2 shards left to the helper, then alone
    assert gauge.pauses == 0 and gauge.gains == [1.9, 1.9]


def test_paused_helpers_still_give_the_rows_of_one_worker(example_kg, monkeypatch):
    """A gauge that never lets the helper be fed after the first window: this process computes the rest, in order,
    with the rows one worker makes."""
    from kg2tool.synth.synthesizer import SynthConfig, Synthesizer

    class Never(HelperGauge):
        def feed(self, j):
            return j < 2  # the helper gets shards while 0 and 1 are the next to merge, none after

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
