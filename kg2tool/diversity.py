"""Diversity filters applied, in order, while merging shards (so they are deterministic):

1. exact duplicate questions (normalized text);
2. duplicate plans: the same query plan in other words ("What is the genre of X?" / "Tell me the genre of X.");
3. near-duplicate questions: MinHash LSH (datasketch) over word 3-gram shingles, Jaccard >= `threshold`
   (templated questions that differ in one word of a long question, for example);
4. a cap on conversations per topic entity, so popular entities do not dominate.

Relations are balanced upstream: the walker draws the relation first, uniformly, then the anchor.
"""

from __future__ import annotations

import json
import re
from collections import Counter


class DiversityFilter:
    def __init__(self, threshold: float = 0.9, max_per_topic: int = 25, num_perm: int = 64):
        self.threshold = threshold
        self.max_per_topic = max_per_topic
        self.questions: set[str] = set()
        self.plans: set[str] = set()
        self.topics: Counter = Counter()
        self.lsh = None
        if threshold and threshold < 1:
            from datasketch import MinHash, MinHashLSH

            self._minhash = MinHash
            base = MinHash(num_perm=num_perm, seed=1)
            self._perms, self._scheme, self._num_perm = base.permutations, base.scheme, num_perm
            self.lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)

    def reject(self, row: dict) -> str | None:
        """None to keep the row (and remember it), else the drop reason."""
        question = " ".join(m["content"] for m in row["messages"] if m["role"] == "user")
        key = normalize_question(question)
        if key in self.questions:
            return "duplicate_question"
        plan_key = row["pattern"] + json.dumps(row["plan"], sort_keys=True, ensure_ascii=False)
        if plan_key in self.plans:
            return "duplicate_plan"
        mh = None
        if self.lsh is not None:
            words = key.split()
            shingles = {" ".join(words[i : i + 3]).encode() for i in range(max(1, len(words) - 2))}
            mh = self._minhash(num_perm=self._num_perm, permutations=self._perms, scheme=self._scheme)
            mh.update_batch(sorted(shingles))
            if self.lsh.query(mh):
                return "near_duplicate_question"
        if self.max_per_topic and self.topics[row["topic_entity"]] >= self.max_per_topic:
            return "topic_cap"
        self.questions.add(key)
        self.plans.add(plan_key)
        self.topics[row["topic_entity"]] += 1
        if mh is not None:
            self.lsh.insert(str(len(self.questions)), mh)
        return None


def normalize_question(q: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", q.casefold())).strip()
