"""`difflib.get_close_matches` over one fixed list of names, asked many times: the same answers, faster.

`CloseNames(names)` counts the characters of every name once. `match(word, n, cutoff)` first drops, for all names
at once (numpy), those that cannot reach `cutoff`, then hands the rest to `difflib.get_close_matches`, which decides
exactly as it would over the whole list:

- difflib keeps a name only if its `real_quick_ratio` (lengths) and its `quick_ratio` (2 * characters in common /
  total length) reach `cutoff`, and only then computes `ratio`. The prefilter keeps every name whose length bound
  and an upper bound of its characters in common (exact counts for the 63 most frequent characters of the list, one
  shared bucket for all others) reach `cutoff` (minus a rounding margin): it never drops a name difflib would keep.
- difflib returns the n best (ratio, name) pairs, which does not depend on the order of the list.

So the result is difflib's own, for the cost of one vector operation and difflib on a few names. Used by the
executor's "closest names" suggestions for an unknown entity (a misspelled name).
"""

from __future__ import annotations

import difflib
from collections import Counter

ALPHABET = 63  # characters counted exactly; the rest share one bucket


class CloseNames:
    """The names, their lengths and their character counts (see the module docstring)."""

    def __init__(self, names: list[str]):
        import numpy as np

        self.names = list(names)
        freq = Counter(ch for name in self.names for ch in name)
        self.columns = {ch: i for i, (ch, _) in enumerate(freq.most_common(ALPHABET))}
        other = len(self.columns)
        self.lengths = np.array([len(n) for n in self.names], dtype=np.int64)
        self.counts = np.zeros((len(self.names), other + 1), dtype=np.int64)
        if self.names:
            rows = np.repeat(np.arange(len(self.names)), self.lengths)
            cols = np.fromiter((self.columns.get(ch, other) for n in self.names for ch in n), np.int64, len(rows))
            np.add.at(self.counts, (rows, cols), 1)

    def _vector(self, word: str):
        import numpy as np

        vec = np.zeros(self.counts.shape[1], dtype=np.int64)
        other = len(self.columns)
        for ch in word:
            vec[self.columns.get(ch, other)] += 1
        return vec

    def candidates(self, word: str, cutoff: float) -> list[str]:
        """The names that may reach `cutoff` (a superset of those difflib keeps), in list order."""
        import numpy as np

        if not self.names:
            return []
        total = self.lengths + len(word)
        common = np.minimum(self.counts, self._vector(word)).sum(axis=1)
        shortest = np.minimum(self.lengths, len(word))
        bound = (cutoff - 1e-9) * total
        keep = (total == 0) | ((2.0 * shortest >= bound) & (2.0 * common >= bound))
        return [self.names[i] for i in np.flatnonzero(keep)]

    def match(self, word: str, n: int = 3, cutoff: float = 0.6) -> list[str]:
        """`difflib.get_close_matches(word, names, n, cutoff)`."""
        return difflib.get_close_matches(word, self.candidates(word, cutoff), n=n, cutoff=cutoff)
