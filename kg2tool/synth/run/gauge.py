"""How the shard loop of kg2tool.synth.run.shards decides whether helper processes pay off, and how far ahead it works:
`HelperGauge` (helpers measured while they work, paused where they bring nothing), `CoreMeter` (the cores other
processes keep busy, from /proc/stat), `Horizon` (the shards a run is still likely to need, from the merge)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass


class CoreMeter:
    """The cores that other processes keep busy, measured between its creation and `others()`: the machine's busy
    CPU time (/proc/stat, Linux) less this process's own, per second of wall time. None where /proc/stat cannot be
    read. Unlike the load average, it is not raised by a run that just ended, and it sees a busy core at once."""

    def __init__(self):
        self.start = self._sample()

    @staticmethod
    def _sample():
        import os

        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait, in clock ticks
        ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        return sum(fields[:8]) / ticks, idle / ticks, time.monotonic(), time.process_time()

    def others(self) -> float | None:
        """Cores busy with other processes since the meter started (None when unknown or too soon to tell)."""
        end = self._sample()
        if self.start is None or end is None:
            return None
        (total0, idle0, wall0, own0), (total1, idle1, wall1, own1) = self.start, end
        wall = wall1 - wall0
        if wall < 0.2 or total1 <= total0:
            return None
        busy = (total1 - total0) - (idle1 - idle0)  # CPU seconds all processes used
        return max(0.0, (busy - (own1 - own0)) / wall)


@dataclass
class Horizon:
    """How far ahead shards are worth computing: `last`, the highest shard index the run is expected to need (None:
    no bound yet), set by the merge from the rows still wanted and the rows a shard has given so far (`update`).
    `helpers_paid`: whether the helper processes paid off when last measured (HelperGauge), set by the shard loop;
    the run writes its files with one process where they did not."""

    last: int | None = None
    helpers_paid: bool = True

    def update(self, shard: int, kept: int, wanted: int) -> None:
        """After merging shard `shard`, with `kept` rows of the `wanted` kept so far: the shards still needed at
        the rate so far, plus one for chance."""
        if kept <= 0:
            self.last = None
            return
        per_shard = kept / (shard + 1)
        self.last = shard + 1 + math.ceil(max(wanted - kept, 0) / per_shard)


class HelperGauge:
    """Whether helper processes on this machine pay off, measured while they work. Over each WINDOW shards merged
    with the helpers fed: the shards computed per second by all processes, against what this process would compute
    alone, one shard per the CPU seconds its own shards took (process CPU time: it does not grow when another job
    takes the core, as wall time does). With less than GAIN times that rate (another session's job holds the other
    core: Linux shares CPU between sessions, so the helpers only split this run's core, and sending their rows and
    the shards computed ahead cost CPU), the helpers get no shards for the next PAUSE shards (twice as long after
    each pause in a row, up to 8 times), then are fed a window again to measure, unless a CoreMeter read over the
    pause says other processes still keep half a core busy (the pause then goes on: measuring costs CPU). Nothing
    stops while the helpers pay off: the measure needs no window alone (an earlier gauge's alone windows cost ~5% of
    a run on an idle machine). `busy` (other processes kept a core busy while the run started, by a CoreMeter): the
    helpers begin with a pause. Which process computes a shard never changes its rows."""

    WINDOW, PAUSE, GAIN = 8, 32, 1.15

    def __init__(self, busy: bool = False):
        self.pauses = self.in_a_row = 0
        self.gains: list[float] = []  # measured: rate with the helpers / rate of this process alone
        # `busy`: another process held a core while the run started (CoreMeter): begin with a pause, then measure
        self.feeding, self.stop_at = not busy, self.PAUSE if busy else 0
        self.meter = CoreMeter() if busy else None  # during a pause: are the other cores still busy?
        self.start: tuple | None = None  # (j, wall, computed, own shards, own CPU seconds) where the window began
        self.computed = 0  # shards computed so far by any process (counted by the caller)
        self.own_n, self.own_cpu = 0, 0.0  # shards this process computed, and their CPU seconds (`own`)

    @property
    def paying(self) -> bool:
        """Whether the helpers pay off: as last measured; before any measure, whether they are fed."""
        return self.gains[-1] >= self.GAIN if self.gains else self.feeding

    def own(self, cpu_seconds: float) -> None:
        """Count a shard this process computed itself, in `cpu_seconds` of its CPU time."""
        self.own_n += 1
        self.own_cpu += cpu_seconds

    def feed(self, j: int) -> bool:
        """Whether shards may be handed to the helpers while shard j is the next to merge (called once per j)."""
        if not self.feeding:
            if j < self.stop_at:
                return False
            others = self.meter.others() if self.meter is not None else None
            if others is not None and others >= 0.5:  # another job still holds a core: no need to measure
                self.meter, self.stop_at = CoreMeter(), j + self.PAUSE
                return False
            self.feeding, self.start = True, None  # measure again
        now = time.perf_counter()
        if self.start is None:
            self.start = (j, now, self.computed, self.own_n, self.own_cpu)
            return True
        j0, t0, c0, n0, cpu0 = self.start
        if j - j0 < self.WINDOW:
            return True
        self.start = (j, now, self.computed, self.own_n, self.own_cpu)
        own, cpu = self.own_n - n0, self.own_cpu - cpu0
        if own == 0 or cpu <= 0:  # the helpers computed every shard of the window: nothing to compare
            return True
        gain = (self.computed - c0) / max(now - t0, 1e-9) * (cpu / own)
        self.gains.append(round(gain, 2))
        if gain >= self.GAIN:
            self.in_a_row = 0
            return True
        self.pauses, self.in_a_row = self.pauses + 1, self.in_a_row + 1
        self.feeding, self.start, self.meter = False, None, CoreMeter()
        self.stop_at = j + self.PAUSE * 2 ** min(self.in_a_row - 1, 3)
        return False


__all__ = ["CoreMeter", "HelperGauge", "Horizon"]
