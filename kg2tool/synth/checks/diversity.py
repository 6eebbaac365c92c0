"""Diversity filters applied, in order, while merging shards (so they are deterministic):

1. exact duplicate questions (normalized text);
2. duplicate plans: the same query plan in other words ("What is the genre of X?" / "Tell me the genre of X.");
3. near-duplicate questions: MinHash LSH (datasketch's MinHash and band choice) over word 3-gram shingles,
   Jaccard >= `threshold` (templated questions that differ in one word of a long question, for example);
4. a cap on conversations per topic entity, so popular entities do not dominate.

Relations are balanced upstream: the walker draws the relation first, uniformly, then the anchor.
"""

from __future__ import annotations

import json
import re
from collections import Counter


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

            self._minhash = MinHash
            base = MinHash(num_perm=num_perm, seed=1)
            self._perms, self._scheme, self._num_perm = base.permutations, base.scheme, num_perm
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
        plan_key = row["pattern"] + json.dumps(row["plan"], sort_keys=True, ensure_ascii=False)
        return key, plan_key, self._bands(key)

    def _bands(self, key: str) -> tuple[bytes, ...] | None:
        """The LSH bands of the MinHash of a normalized question's word 3-grams (None: near duplicates not checked)."""
        if self.bands is None:
            return None
        words = key.split()
        shingles = {" ".join(words[i : i + 3]).encode() for i in range(max(1, len(words) - 2))}
        mh = self._minhash(num_perm=self._num_perm, permutations=self._perms, scheme=self._scheme)
        mh.update_batch(sorted(shingles))
        return tuple(mh.hashvalues[a:b].tobytes() for a, b in self.bands)

    def reject(self, row: dict, keys: tuple | None = None) -> str | None:
        """None to keep the row (and remember it), else the drop reason. `keys`: `self.keys(row)` if computed (by a
        pool worker, beside the row: `Candidate.diversity_keys`); None computes them here, each only when the
        checks before it passed (a duplicate question needs no plan key and no MinHash)."""
        if keys is None:
            question = normalize_question(" ".join(m["content"] for m in row["messages"] if m["role"] == "user"))
            if question in self.questions:
                return "duplicate_question"
            plan_key = row["pattern"] + json.dumps(row["plan"], sort_keys=True, ensure_ascii=False)
            if plan_key in self.plans:
                return "duplicate_plan"
            keys = (question, plan_key, self._bands(question))
        key, plan_key, bands = keys
        if key in self.questions:
            return "duplicate_question"
        if plan_key in self.plans:
            return "duplicate_plan"
        if bands is not None and any(b in t for b, t in zip(bands, self._tables)):
            return "near_duplicate_question"
        if self.max_per_topic and self.topics[row["topic_entity"]] >= self.max_per_topic:
            return "topic_cap"
        self.questions.add(key)
        self.plans.add(plan_key)
        self.topics[row["topic_entity"]] += 1
        if bands is not None:
            for b, t in zip(bands, self._tables):
                t.add(b)
        return None


def normalize_question(q: str) -> str:
    """A question's comparison form: casefolded, punctuation turned into spaces, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", q.casefold())).strip()
