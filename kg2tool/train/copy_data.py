"""Random-name tool-use conversations shaped exactly like synth rows: the copy curriculum for tiny models.

A from-scratch model learns the call format and the choice of function from a few hundred conversations, but it
learns to *copy* an unseen entity name from the question into the call arguments only when it cannot recall the
name instead (measured by this project: after SFT on real entities it drifts to memorized names). So the graph is
copied with every entity renamed at random, and `kg2tool.synth.run.pipeline`'s own `Synthesizer` walks the copy: the rows have
the real tool schemas, question templates, shapes and answer sentences, and every entity name in them is one the
model has never seen with its facts.

Design choices:
- Structure kept, names replaced: relations, attributes, types and the entity ids stay, so the walker samples the
  same plans and the executor verifies every row exactly as for the real graph. Only labels change (alternative
  labels are dropped, so a random label is the only accepted name).
- A new random name keeps the shape of the old one, word by word: capitalized words become capitalized words,
  lowercase words lowercase words, short lowercase particles (`of`, `de`, `von`) stay, and punctuation inside a
  word travels with the word it was drawn from. Words are drawn from the graph's own label words (so the
  tokens are the ones real names use, recombined) or, with probability `invented_share`, invented from
  syllables (so copying does not depend on a word being a known token).
- Every `shard_size` candidates the graph is renamed again with a new seed: an entity is not the same random name
  in many rows, so the names cannot be memorized either.
- Pure Python over the loaded graph; no torch. Deterministic for a given graph and seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

_SYLLABLES = (
    "ba be bi bo bu da de di do du fa fe fi ga go ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu "
    "pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo za ze zi zo dra gri kla ste tor ven"
).split()
# Lowercase words of at most this many letters stay as they are (particles: of, de, von, and, the, für).
PARTICLE_MAX_LEN = 3


def _invented(rng: random.Random, capitalized: bool) -> str:
    word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
    return word.capitalize() if capitalized else word


class NameMaker:
    """Random entity names in the shape of real ones (see the module docstring)."""

    def __init__(self, labels: Sequence[str], invented_share: float = 0.3):
        words = {w for label in labels for w in label.split(" ") if w}
        self.upper = sorted(w for w in words if w[:1].isupper())
        self.lower = sorted(w for w in words if w[:1].islower() and len(w) > PARTICLE_MAX_LEN)
        self.invented_share = invented_share

    def word(self, old: str, rng: random.Random) -> str:
        """A new word for `old` of the same kind: short lowercase particles kept, capitalized/lowercase words drawn
        from the graph's pools (or invented), digits varied."""
        if old[:1].islower() and len(old) <= PARTICLE_MAX_LEN:
            return old
        if old[:1].isupper():
            pool, capitalized = self.upper, True
        elif old[:1].islower():
            pool, capitalized = self.lower, False
        else:  # digits, brackets: keep their kind, vary digits
            return re.sub(r"\d", lambda _: str(rng.randint(0, 9)), old)
        if not pool or rng.random() < self.invented_share:
            return _invented(rng, capitalized)
        return rng.choice(pool)

    def name(self, old: str, rng: random.Random) -> str:
        """A new name with one new word per word of `old`."""
        return " ".join(self.word(w, rng) for w in old.split(" ") if w) or _invented(rng, True)


def renamed_graph(kg, seed: int | str, invented_share: float = 0.3, maker: NameMaker | None = None):
    """A copy of `kg` (a `kg2tool.graph.model.KnowledgeGraph`) whose entities all carry new, unique random labels, none
    of them a real label or name.

    Relations, attributes, types, descriptions and entity ids are shared with `kg` (read-only, not copied);
    alternative labels are dropped."""
    from ..graph.model import KnowledgeGraph

    rng = random.Random(f"rename:{seed}")
    maker = maker or NameMaker(kg.labels, invented_share)
    real = set(kg.labels) | set(kg.names)
    taken: set[str] = set()
    labels = []
    for old in kg.labels:
        new = maker.name(old, rng)
        for _ in range(5):  # a recombination can hit a real name, mostly one-word ones ("Milan"): draw again
            if new not in real:
                break
            new = maker.name(old, rng)
        while new in taken or new in real:  # unique labels: display names need no disambiguating parentheses
            new = f"{new} {_invented(rng, new[:1].isupper())}"
        taken.add(new)
        labels.append(new)
    return KnowledgeGraph(
        entities=kg.entities,
        labels=labels,
        alt_labels=[()] * len(labels),
        descriptions=kg.descriptions,
        types=kg.types,
        relations=kg.relations,
        attributes=kg.attributes,
        stats=kg.stats,
    )


def iter_random_name_rows(
    kg,
    seed: int = 0,
    synth_config=None,
    invented_share: float = 0.3,
    shard_size: int = 64,
    max_shards: int = 100_000,
) -> Iterator[dict[str, Any]]:
    """Verified synth rows (up to `max_shards` shards, or until 20 shards in a row bring no new question) over freshly renamed copies of `kg`.

    Every `shard_size` candidates come from a new renaming. `synth_config` is a `kg2tool.synth.run.synthesizer.SynthConfig`
    (its `mix`, `min_support`, `walk`, ... are used; `seed` and `shard_size` are set here). Rows carry
    `messages`, `tools` (lists of dicts, as synth writes them), `pattern` and `category`; exact duplicate questions
    are skipped."""
    from ..synth.run.synthesizer import SynthConfig, Synthesizer

    base = synth_config or SynthConfig()
    maker = NameMaker(kg.labels, invented_share)
    seen: set[str] = set()
    idle = 0
    for shard in range(max_shards):
        copy = renamed_graph(kg, f"{seed}:{shard}", maker=maker)
        cfg = replace(base, seed=f"{seed}:{shard}", shard_size=shard_size)
        rows, _ = Synthesizer(copy, cfg).shard(0)
        idle += 1
        for row in rows:
            question = row["messages"][0]["content"]
            if question in seen:
                continue
            seen.add(question)
            idle = 0
            yield {k: row[k] for k in ("messages", "tools", "pattern", "category")}
        if idle >= 20:  # a graph too small to give new questions
            return


def random_name_rows(kg, n: int, seed: int = 0, synth_config=None, invented_share: float = 0.3) -> list[dict]:
    """`n` rows of `iter_random_name_rows` (fewer only if the graph cannot produce them)."""
    out = []
    for row in iter_random_name_rows(kg, seed, synth_config, invented_share):
        out.append(row)
        if len(out) >= n:
            break
    return out
