"""The walker's bounds (`WalkConfig`), in a module of its own: the CLI builds its flags from the dataclass without
importing the walker (`kg2tool.common.options`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class WalkConfig:
    """Parameters:
    max_answers: largest answer set a question may have.
    max_set: largest list passed as a tool argument (intersection/count inputs).
    max_fanout: largest set a chain fans out over (a call per entity and a `union`: a 3p trace has <= 17 calls).
    inverse_prob: probability that a projection walks a relation backwards (find_by_...).
    chain_inverse_prob: the same for a chain's first hop: readers rejected most chains that start backwards ("the
        laureate born in Livingston Manor"), not those from a name's own facts ("Ingeborg Bachmann's partner").
    tries: attempts per sample before giving up.
    """

    max_answers: int = 8
    max_set: int = 30
    max_fanout: int = 6
    inverse_prob: float = 0.3
    chain_inverse_prob: float = 0.15
    tries: int = 30
