"""When a graph runs out of distinct questions: the run's yield (rows kept per candidate tried), measured as the
shards are merged, and the rule that stops a run whose yield has fallen too far.

A graph holds a finite number of distinct questions. As a run nears it, more and more candidates are duplicates of
kept questions or plans, or hit the per-topic cap, and each row costs more candidates (the bundled graph asked for
40,000 rows tried ~4x as many candidates per row at the end as at the start). `Saturation` keeps, per merged
shard, how many candidates it tried and how many rows it kept. The run stops early (a partial dataset, exit code 7:
`kg2tool.common.errors.PARTIAL`) when the last `WINDOW` shards kept fewer than `FLOOR` of what the first `WINDOW`
shards kept per candidate: a relative floor, so a sparse graph whose walks often fail (a low yield from the start)
is not taken for a spent one. `--max-candidates N` replaces the rule with a budget: the run tries up to N
candidates, however low the yield.

Every decision is made on counts of whole shards in shard order, so it is the same for any number of workers.
"""

from __future__ import annotations

from collections import Counter, deque

WINDOW = 20  # shards (5,120 candidates at the default shard size) in the yield's sliding window
FLOOR = 1 / 3  # stop when the window's yield is below this fraction of the first window's
IDLE = 20  # shards in a row that keep no row: the graph has given all it can (as before this module)
MERGE_REASONS = ("duplicate_question", "duplicate_plan", "near_duplicate_question", "topic_cap")


class Saturation:
    """The yield of the shards merged so far and whether the run should stop (see module docstring).

    `max_candidates`: a budget of candidates in place of the yield floor (None: the floor decides)."""

    def __init__(self, max_candidates: int | None = None, window: int = WINDOW, floor: float = FLOOR):
        self.max_candidates = max_candidates
        self.window, self.floor = window, floor
        self.tried = 0
        self.kept = 0
        self.first: tuple[int, int] | None = None  # (tried, kept) of the first `window` shards
        self.recent: deque[tuple[int, int, Counter]] = deque(maxlen=window)  # per shard: tried, kept, drops
        self.idle = 0
        self.why = ""  # why the run stopped before its rows: "yield", "idle", "max_candidates", "max_shards"

    def add(self, tried: int, kept: int, drops: Counter) -> None:
        """Count one merged shard: its candidates, its kept rows and its drops by reason."""
        self.tried += tried
        self.kept += kept
        self.recent.append((tried, kept, drops))
        if self.first is None and len(self.recent) == self.window:
            self.first = (self.tried, self.kept)
        self.idle = self.idle + 1 if kept == 0 else 0

    def first_yield(self) -> float:
        tried, kept = self.first or (self.tried, self.kept)
        return kept / max(tried, 1)

    def recent_yield(self) -> float:
        return sum(k for _, k, _ in self.recent) / max(sum(t for t, _, _ in self.recent), 1)

    def spent(self) -> bool:
        """True when the run should stop before it has its rows (and `why` says why)."""
        if self.idle >= IDLE:
            self.why = "idle"
        elif self.max_candidates is not None:
            if self.tried >= self.max_candidates:
                self.why = "max_candidates"
        elif self.first is not None and len(self.recent) == self.window and self.tried > self.first[0]:
            if self.recent_yield() < self.floor * self.first_yield():
                self.why = "yield"
        return bool(self.why)

    def recent_drops(self) -> Counter:
        """The window's drops by reason."""
        out: Counter = Counter()
        for _, _, drops in self.recent:
            out.update(drops)
        return out

    def report(self, made: int, asked: int) -> dict:
        """What the report records of a run that made fewer rows than asked (deterministic: counts only)."""
        drops = self.recent_drops()
        return {
            "rows": made,
            "asked": asked,
            "why": self.why or "max_shards",
            "candidates_tried": self.tried,
            "first_yield": round(self.first_yield(), 4),
            "last_yield": round(self.recent_yield(), 4),
            "last_drops": dict(sorted(drops.items(), key=lambda kv: (-kv[1], kv[0]))),
        }

    def message(self, made: int, asked: int) -> str:
        """The line that tells the user how many rows the graph gave and why the run stopped."""
        tried = sum(t for t, _, _ in self.recent)
        drops = self.recent_drops()
        total = sum(drops.values()) or 1
        top = ", ".join(f"{r} {100 * n / total:.0f}%" for r, n in drops.most_common(4)) or "none"
        if self.why == "yield":
            first = self.first[0] if self.first else self.tried
            why = (f"the last {tried:,} candidates kept {self.recent_yield():.2f} rows each, under {self.floor:.2f} "
                   f"times the first {first:,}'s {self.first_yield():.2f}")  # fmt: skip
        elif self.why == "idle":
            why = f"the last {IDLE} shards ({tried:,} candidates) kept no row"
        elif self.why == "max_candidates":
            why = f"--max-candidates {self.max_candidates:,} were tried"
        else:
            why = "max_shards shards were read"
        spent = "the graph is running out of distinct questions" if self.why in ("yield", "idle") else "stopped"
        return (
            f"partial: made {made:,} of the {asked:,} rows asked ({spent}: {why}; dropped there: {top}); the dataset "
            f"of {made:,} rows is written. Ask for at most {made:,} rows, or pass --max-candidates N (now "
            f"{self.tried:,} tried) to keep trying at a higher cost per row"
        )


__all__ = ["FLOOR", "IDLE", "WINDOW", "Saturation"]
