"""What travels between synthesis modules: a verified row with what goes with it, and a shard's counts.

A `Candidate` is made by `Synthesizer.candidates` (in a shard's worker), checkpointed by `kg2tool.synth.run.shards`,
filtered by `kg2tool.synth.checks.diversity`, placed in a split and paraphrased by `kg2tool.synth.run.pipeline`, and written
as its `row` (the dataset columns) and its `dpo` pairs. `ShardStats` holds a shard's counts by kind, summed over
shards for the validation report.

Checkpoints keep the format of earlier versions (a shard may also list its tool schemas once, in `tools`, its rows
and pairs then holding their indices: kg2tool.synth.run.shards): a candidate is its row's columns plus `_split_key` and `_dpo`,
and a shard's counts are one flat object with `tried:<shape>`, `dropped:<reason>`,
`dropped_by_shape:<shape>:<reason>`, `no_kind:<relation>` and `redrawn:<reason>` keys.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Candidate:
    """A verified row on its way to the dataset.

    row: the dataset columns (messages, tools, pattern, category, answers, ..., id).
    split_key: topic entity IRI and relation path; its hash picks the split (`synthesizer.split_of`).
    dpo: the preference pairs made with the row (written only if the row is kept); None until they are made
        (`Synthesizer.add_pairs`: the pipeline makes them only for the rows it keeps).
    diversity_keys: `DiversityFilter.keys(row)` when a pool worker computed them beside the row, else None.
    pos: the candidate's place in its shard (the merge reads a shard's kept and late-dropped candidates in order).
    admitted: kept by the merge's filter while the shard was made (`kg2tool.synth.checks.diversity.Gate`; never
        checkpointed: a shard read back is filtered again, to the same result).
    """

    row: dict
    split_key: str
    dpo: list[dict] | None = None
    diversity_keys: tuple | None = None
    pos: int = -1
    admitted: bool = False

    def to_json(self) -> dict:
        """The checkpoint form: the row's columns plus `_split_key` and `_dpo` (diversity keys are recomputed)."""
        out = {**self.row, "_split_key": self.split_key, "_dpo": self.dpo}
        return out | ({"_pos": self.pos} if self.pos >= 0 else {})

    @classmethod
    def from_json(cls, data: dict) -> Candidate:
        """The inverse of `to_json`."""
        row = dict(data)
        split_key = row.pop("_split_key")
        return cls(row, split_key, row.pop("_dpo", None), pos=row.pop("_pos", -1))


@dataclass
class ShardStats:
    """Counts of one or more shards: candidates tried per shape, dropped per reason, and per (shape, reason); and
    the relations of the candidates dropped because they could only call their entities "things" (`no_kind`); the plans
    drawn again within a candidate, by the reason of the one before (`redrawn`: Synthesizer._drawn); and, for a shard made
    where the merge's gate was closed, the drops after the gate's point that the merge may count otherwise (`late`:
    [position, shape, reason, plan key, topic, no_kind relations] each; see Synthesizer.candidates)."""

    tried: Counter = field(default_factory=Counter)
    dropped: Counter = field(default_factory=Counter)
    dropped_by_shape: Counter = field(default_factory=Counter)
    no_kind: Counter = field(default_factory=Counter)
    late: list = field(default_factory=list)
    redrawn: Counter = field(default_factory=Counter)

    def drop(self, reason: str, shape: str | None = None) -> None:
        """Count one dropped candidate (of `shape`, when it is known: diversity drops count only by reason)."""
        self.dropped[reason] += 1
        if shape is not None:
            self.dropped_by_shape[(shape, reason)] += 1

    def undrop(self, reason: str, shape: str, no_kind: list[str]) -> None:
        """Take back one drop counted by reason and shape (and its no_kind relations): the merge counts it otherwise."""
        for counter, key in ((self.dropped, reason), (self.dropped_by_shape, (shape, reason))):
            counter[key] -= 1
            if not counter[key]:
                del counter[key]
        for rel in no_kind:
            self.no_kind[rel] -= 1
            if not self.no_kind[rel]:
                del self.no_kind[rel]

    def update(self, other: ShardStats) -> None:
        """Add another shard's counts (not its `late` drops: the merge reads those shard by shard)."""
        self.tried.update(other.tried)
        self.dropped.update(other.dropped)
        self.dropped_by_shape.update(other.dropped_by_shape)
        self.no_kind.update(other.no_kind)
        self.redrawn.update(other.redrawn)

    def to_json(self) -> dict:
        """The flat checkpoint form (see the module docstring), in the order the counts were first made."""
        out = {f"tried:{k}": v for k, v in self.tried.items()}
        out |= {f"dropped:{k}": v for k, v in self.dropped.items()}
        out |= {f"dropped_by_shape:{s}:{r}": v for (s, r), v in self.dropped_by_shape.items()}
        out |= {f"no_kind:{k}": v for k, v in self.no_kind.items()}
        out |= {f"redrawn:{k}": v for k, v in self.redrawn.items()}
        if self.late:
            out["late"] = self.late
        return out

    @classmethod
    def from_json(cls, data: dict) -> ShardStats:
        """The inverse of `to_json`."""
        stats = cls()
        for key, value in data.items():
            if key == "late":
                stats.late = value
                continue
            kind, rest = key.split(":", 1)
            if kind == "tried":
                stats.tried[rest] += value
            elif kind == "dropped":
                stats.dropped[rest] += value
            elif kind == "no_kind":
                stats.no_kind[rest] += value
            elif kind == "redrawn":
                stats.redrawn[rest] += value
            else:
                shape, reason = rest.split(":", 1)
                stats.dropped_by_shape[(shape, reason)] += value
        return stats
