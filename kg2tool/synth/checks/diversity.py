"""Diversity filters applied, in order, while merging shards (so they are deterministic):

1. duplicate plans: the same query plan, however worded ("What is the genre of X?" / "Tell me the genre of X.");
2. a cap on conversations per topic entity, so popular entities do not dominate;
3. exact duplicate questions (normalized text);
4. near-duplicate questions: MinHash LSH (datasketch's MinHash and band choice) over word 3-gram shingles,
   Jaccard >= `threshold` (templated questions that differ in one word of a long question, for example).

The first two need only the plan, known before the candidate is executed and worded: a `Gate` lets the shard that
the merge expects next skip such candidates early (`Gate.taken`) and put each verified one through the filter at
once (`Gate.admit`), so that later candidates of the same shard see it.

Relations are balanced upstream: the walker draws the relation first, uniformly, then the anchor.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter

GATE_REASONS = ("duplicate_plan", "topic_cap")  # the drops known from the plan alone (`DiversityFilter.taken`)


def plan_key(pattern: str, plan_json: dict) -> str:
    """The key of a row's plan (`pattern` and the plan's JSON form): two rows with one key ask the same thing."""
    return pattern + json.dumps(plan_json, sort_keys=True, ensure_ascii=False)


class DiversityFilter:
    """The filters above, in order, over rows seen one by one: `reject(row)` says why a row is dropped, or keeps it."""

    def __init__(self, threshold: float = 0.9, max_per_topic: int = 25, num_perm: int = 64):
        self.threshold = threshold
        self.max_per_topic = max_per_topic
        self.questions: set[str] = set()
        self.plans: set[str] = set()
        self.topics: Counter = Counter()
        self.bands: list[tuple[int, int]] | None = None
        if threshold and threshold < 1:
            from datasketch import MinHash, MinHashLSH

            base = MinHash(num_perm=num_perm, seed=1)
            # One MinHash for every question: its values are set back to the empty ones before each (update_batch
            # makes a new array, it never writes into the one it starts from), instead of a MinHash made per row.
            self._mh = MinHash(num_perm=num_perm, permutations=base.permutations, scheme=base.scheme)
            self._empty = self._mh.hashvalues
            # LSH bands as datasketch's MinHashLSH chooses them for this threshold. A question is a near duplicate
            # when one band of its MinHash equals the same band of a kept question's: exactly what
            # MinHashLSH.query returns, kept here as one set per band (cheap to look up in the merging process).
            self.bands = list(MinHashLSH(threshold=threshold, num_perm=num_perm).hashranges)
            self._tables: list[set[bytes]] = [set() for _ in self.bands]

    def keys(self, row: dict) -> tuple[str, str, tuple[bytes, ...] | None]:
        """What `reject` compares, computed from the row alone: (normalized question, plan key, the MinHash's LSH
        bands or None). Pool workers compute it next to the row, so the merging process only looks keys up."""
        question = " ".join(m["content"] for m in row["messages"] if m["role"] == "user")
        key = normalize_question(question)
        return key, plan_key(row["pattern"], row["plan"]), self._bands(key)

    def _bands(self, key: str) -> tuple[bytes, ...] | None:
        """The LSH bands of the MinHash of a normalized question's word 3-grams (None: near duplicates not checked)."""
        if self.bands is None:
            return None
        words = key.split()
        shingles = {" ".join(words[i : i + 3]).encode() for i in range(max(1, len(words) - 2))}
        mh = self._mh
        mh.hashvalues = self._empty
        mh.update_batch(sorted(shingles))
        return tuple(mh.hashvalues[a:b].tobytes() for a, b in self.bands)

    def taken(self, plan: str, topic: str) -> str | None:
        """The drop reason of a row with this plan key and topic entity name, known before the row is made: its
        plan is a kept row's (`duplicate_plan`) or its topic has `max_per_topic` rows (`topic_cap`); else None."""
        if plan in self.plans:
            return "duplicate_plan"
        if self.max_per_topic and self.topics[topic] >= self.max_per_topic:
            return "topic_cap"
        return None

    def reject(self, row: dict, keys: tuple | None = None, plan: str | None = None) -> str | None:
        """None to keep the row (and remember it), else the drop reason. `keys`: `self.keys(row)` if computed (by a
        pool worker, beside the row: `Candidate.diversity_keys`); None computes them here, each only when the
        checks before it passed (a taken plan needs no question key and no MinHash). `plan`: the row's plan key,
        when known (`Gate.admit`)."""
        if keys is None:
            plan = plan or plan_key(row["pattern"], row["plan"])
            if why := self.taken(plan, row["topic_entity"]):
                return why
            question = normalize_question(" ".join(m["content"] for m in row["messages"] if m["role"] == "user"))
            if question in self.questions:
                return "duplicate_question"
            keys = (question, plan, self._bands(question))
        key, plan, bands = keys
        if why := self.taken(plan, row["topic_entity"]):
            return why
        if key in self.questions:
            return "duplicate_question"
        if bands is not None and any(b in t for b, t in zip(bands, self._tables)):
            return "near_duplicate_question"
        self.questions.add(key)
        self.plans.add(plan)
        self.topics[row["topic_entity"]] += 1
        if bands is not None:
            for b, t in zip(bands, self._tables):
                t.add(b)
        return None


class Gate:
    """The merge's filter and row count, seen from the shard the merge takes next, in the merging process (see the
    module docstring; kg2tool.synth.run.synthesizer.Synthesizer.candidates). The merge moves it on (`next`,
    `total`) after each shard; a shard made elsewhere (a helper process, a shard ahead of the merge) never sees
    it open, and the merge filters that shard's candidates itself, with the same result."""

    def __init__(self, diversity: DiversityFilter, n: int):
        self.diversity = diversity
        self.n = n
        self.next = 0  # the shard the merge takes next
        self.total = 0  # rows kept so far
        self.pid = os.getpid()  # a forked helper inherits the gate: closed there

    @property
    def full(self) -> bool:
        return self.total >= self.n

    def opens(self, shard: int) -> bool:
        """Whether shard `shard`, made now in this process, may use the gate."""
        return shard == self.next and not self.full and os.getpid() == self.pid

    def taken(self, plan: str, topic: str) -> str | None:
        """`DiversityFilter.taken`."""
        return self.diversity.taken(plan, topic)

    def admit(self, cand, plan: str | None = None) -> str | None:
        """Put a verified candidate through the filter now: None when it is kept (marked `admitted`, counted),
        else the drop reason. `plan`: its plan key, when known."""
        why = self.diversity.reject(cand.row, cand.diversity_keys, plan)
        if why is None:
            cand.admitted = True
            self.total += 1
        return why


def normalize_question(q: str) -> str:
    """A question's comparison form: casefolded, punctuation turned into spaces, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", q.casefold())).strip()
