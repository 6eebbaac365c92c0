"""kg2tool.synth.run.shards' HelperGauge: helpers that bring no CPU of their own (another session holds the other core)
are given no shards for a while, and the shards still come out in order, the same rows as one worker's."""

import os

import pytest

from kg2tool.synth.run import shards
from kg2tool.synth.run.shards import HelperGauge


class Clock:
    """A wall clock that the test moves (the gauge reads it through the time module)."""

    def __init__(self):
        self.wall = 0.0

    def perf_counter(self):
        return self.wall


def run(gauge, clock, shards_, speedup, first=0, own_every=2):
    """feed() for shards first..first+shards_-1, a shard taking 1 s of CPU: all processes together compute
    `speedup` shards a second with the helpers fed (this process computing one shard in `own_every`), one alone."""
    fed = []
    for j in range(first, first + shards_):
        fed.append(gauge.feed(j))
        clock.wall += 1.0 / speedup if fed[-1] else 1.0
        gauge.computed += 1
        if not fed[-1] or (own_every and j % own_every == 0):
            gauge.own(1.0)
    return fed


def gauge_on(monkeypatch, others=None):
    """A gauge on the test's clock; during its pauses the other processes keep `others` cores busy (None: the
    CoreMeter cannot tell)."""
    clock = Clock()
    monkeypatch.setattr(shards.time, "perf_counter", clock.perf_counter)
    monkeypatch.setattr(shards.CoreMeter, "others", lambda self: others)
    return HelperGauge(), clock


def test_helpers_that_bring_nothing_are_paused_and_measured_again(monkeypatch):
    gauge, clock = gauge_on(monkeypatch)
    w, p = HelperGauge.WINDOW, HelperGauge.PAUSE
    fed = run(gauge, clock, w + p + w + 2 * p, speedup=1.05)
    assert fed[:w] == [True] * w  # fed from the start: measured while they work
    assert fed[w:w + p] == [False] * p  # not worth it: no shard for the helpers
    at = w + p
    assert fed[at:at + w] == [True] * w  # measured again
    assert fed[at + w:at + w + 2 * p] == [False] * 2 * p  # and paused again, twice as long
    assert gauge.pauses == 2 and gauge.gains == [1.05] * 2 and not gauge.paying
    # the machine frees up: once the pause is over, the next measure finds them paying off, and they stay fed
    more = run(gauge, clock, 4 * w, speedup=1.9, first=len(fed))
    assert more == [True] * 4 * w and gauge.gains[2:] == [1.9] * 3 and gauge.pauses == 2 and gauge.paying


def test_helpers_that_pay_off_are_never_stopped(monkeypatch):
    gauge, clock = gauge_on(monkeypatch)
    w = HelperGauge.WINDOW
    fed = run(gauge, clock, 20 * w, speedup=1.9)
    assert all(fed) and gauge.pauses == 0 and gauge.gains == [1.9] * 19
    # a window where the helpers computed every shard: nothing to compare this process with, they stay fed
    more = run(gauge, clock, 2 * w, speedup=1.9, first=len(fed), own_every=0)
    assert all(more) and len(gauge.gains) == 20  # the window before it, and none for it


def test_a_pause_goes_on_while_another_job_holds_a_core(monkeypatch):
    gauge, clock = gauge_on(monkeypatch, others=1.0)
    w, p = HelperGauge.WINDOW, HelperGauge.PAUSE
    fed = run(gauge, clock, w + 5 * p, speedup=1.05)
    assert fed == [True] * w + [False] * 5 * p and gauge.pauses == 1  # not measured again: nothing to learn
    monkeypatch.setattr(shards.CoreMeter, "others", lambda self: 0.1)  # the other job ended
    more = run(gauge, clock, p + w, speedup=1.9, first=len(fed))
    assert True in more[:p] and gauge.gains[-1] == 1.9 and gauge.paying


def test_a_run_that_starts_beside_a_busy_core_begins_with_a_pause(monkeypatch):
    gauge, clock = gauge_on(monkeypatch, others=None)
    gauge = HelperGauge(busy=True)
    p, w = HelperGauge.PAUSE, HelperGauge.WINDOW
    fed = run(gauge, clock, p + w + 1, speedup=1.9)
    assert fed[:p] == [False] * p and fed[p:] == [True] * (w + 1) and gauge.gains == [1.9]


def test_the_rate_alone_is_this_process_cpu_per_shard(monkeypatch):
    """Another job holds this process's core: its shards take 2 s of wall time each but still 1 s of CPU; the
    gauge compares with the CPU figure, what it computes alone where it has a core of its own."""
    gauge, clock = gauge_on(monkeypatch)
    w = HelperGauge.WINDOW
    for j in range(w):
        assert gauge.feed(j)
        clock.wall += 1.0  # two processes on one core's share: 1 shard a second in all
        gauge.computed += 1
        if j % 2 == 0:
            gauge.own(1.0)  # ... each of this process's shards took 2 s of wall time and 1 s of CPU
    assert not gauge.feed(w) and gauge.gains == [1.0] and gauge.pauses == 1


def test_the_horizon_follows_the_rows_a_shard_gives():
    h = shards.Horizon()
    h.update(0, 0, 100)
    assert h.last is None  # no row yet: no bound
    h.update(3, 40, 100)  # 10 rows a shard: 6 more shards (4..9), and one for chance
    assert h.last == 10
    h.update(9, 100, 100)
    assert h.last == 10


def test_paused_helpers_still_give_the_rows_of_one_worker(example_kg, monkeypatch):
    """A gauge that never lets the helper be fed after the first window: this process computes the rest, in order,
    with the rows one worker makes."""
    from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

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
    got = [next(gen) for _ in range(16)]
    gen.close()
    assert [i for i, _, _ in got] == list(range(16))
    # the helper was handed shards while 0 and 1 were next (at most AHEAD ahead of them): this process does the rest
    assert set(range(2 + shards.AHEAD, 16)) <= set(here)
    alone = Synthesizer(example_kg, SynthConfig(n=100, seed=3, shard_size=40))
    for i, rows, _ in got:
        assert [c.row for c in rows] == [c.row for c in alone.candidates(i)[0]]


@pytest.mark.solo
def test_the_core_meter_sees_a_busy_core_and_not_this_process():
    """CoreMeter counts the cores other processes keep busy: a busy child process is about one core; this
    process's own work is not counted."""
    import subprocess
    import sys
    import time

    if shards.CoreMeter().start is None:
        import pytest

        pytest.skip("no /proc/stat here")
    meter = shards.CoreMeter()
    t = time.monotonic()
    while time.monotonic() - t < 0.6:  # this process busy: not another's
        pass
    quiet = meter.others()
    if quiet is not None and quiet > (os.cpu_count() or 1) - 1.3:
        import pytest

        pytest.skip(f"other processes keep {quiet:.1f} cores busy: no free core to watch a child take")
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        meter = shards.CoreMeter()
        time.sleep(0.8)
        busy = meter.others()
    finally:
        hog.kill()
        hog.wait()
    assert busy is not None and quiet is not None
    assert busy > quiet + 0.5 and busy > 0.7  # the child's core (on a machine other jobs may share: a margin)
