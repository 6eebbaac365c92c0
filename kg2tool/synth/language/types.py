"""Which of an entity's several types names its kind (`type_choice`): the graph's broadest of them, except a
subtype whose members do other things than the rest of the broad type's (DBpedia's cities among places).

Kept apart from the lexicon (kg2tool.synth.language.lexicon), which calls it once per graph: it reads only the
graph's types and relations, no wording.
"""

from __future__ import annotations

from collections import Counter

from ...graph.hygiene import is_opaque_id
from ...graph.model import KnowledgeGraph

TYPE_SAMPLE = 100_000
SPLIT_SAMPLE = 200  # holders per side when a subtype's relations are compared with the rest of its broader type
SPLIT_MIN = 3  # a subtype said on its own is a class of at least this many things
SPLIT_COSINE = 0.5  # relation profiles less alike than this: the subtype is a kind of its own


def type_choice(kg: KnowledgeGraph) -> dict[tuple[str, ...], str]:
    """The type each set of several types is said by. The graph's most common of them (the broadest: `person`
    before `actor`, `character` before `Wookiee`), then the shorter, then by name; a type named by an opaque id
    (`Q5`, an unlabelled Wikidata class) is never said. Except where the broadest type lumps together things that
    do different things: a type of the set whose holders all hold the broad one too (a subtype, as a class
    hierarchy written out on every entity gives it: DBpedia's `City` < `Settlement` < `PopulatedPlace` < `Place`),
    held by at least SPLIT_MIN entities, whose holders take part in other relations than the broad type's other
    holders (`_relation_profile`s with a cosine under SPLIT_COSINE: cities have countries and births, countries
    have capitals) is said instead, the narrowest such. Humans among characters, or republics among sovereign
    states, do what the others do, and stay `character` and `sovereign state`."""
    n = len(kg.types)
    sample = [kg.types[i] for i in range(0, n, max(1, n // TYPE_SAMPLE))]  # every entity of graphs up to 100,000
    holders: Counter = Counter()
    for types in sample:
        holders.update(set(types))
    several = {t for t in sample if len(t) > 1}
    broad = {}
    for types in several:
        kept = [x for x in types if not is_opaque_id(x)] or list(types)
        broad[types] = min(kept, key=lambda x: (-holders[x], len(x.split()), x))
    distinct = _distinct_subtypes(kg, several, broad, holders)
    choice = {}
    for types, b in broad.items():
        subs = [x for x in types if (x, b) in distinct and not is_opaque_id(x)]
        choice[types] = min(subs, key=lambda x: (holders[x], len(x.split()), x)) if subs else b
    return choice


def _distinct_subtypes(kg: KnowledgeGraph, several, broad: dict, holders: Counter) -> set[tuple[str, str]]:
    """The (subtype, broad type) pairs of `type_choice` whose holders' relation profiles differ (cosine under
    SPLIT_COSINE) from those of the broad type's other holders, each side sampled by its first SPLIT_SAMPLE
    entities."""
    pairs = {(x, b) for types, b in broad.items() for x in types if x != b and holders[x] >= SPLIT_MIN}
    if not pairs:
        return set()
    members: dict[str, list[int]] = {}
    for e, types in enumerate(kg.types):
        for t in set(types):
            members.setdefault(t, []).append(e)
    sides = {}
    for x, b in pairs:
        inside = set(members.get(x, ()))
        if not inside <= set(members.get(b, ())) or len(inside) >= len(members.get(b, ())):
            continue  # not a subtype: some holder lacks the broad type, or the two are held alike
        rest = [e for e in members[b] if e not in inside][:SPLIT_SAMPLE]
        if rest:
            sides[x, b] = (members[x][:SPLIT_SAMPLE], rest)
    wanted = {e for a, r in sides.values() for e in (*a, *r)}
    profile = _relation_profile(kg, wanted)
    return {pair for pair, (a, r) in sides.items() if _cosine(_mean(profile, a), _mean(profile, r)) < SPLIT_COSINE}


def _relation_profile(kg: KnowledgeGraph, wanted: set[int]) -> dict[int, set[tuple[str, bool]]]:
    """The (relation, inverse) steps each wanted entity takes part in."""
    out: dict[int, set[tuple[str, bool]]] = {e: set() for e in wanted}
    for iri, rel in kg.relations.items():
        for inverse, ends in ((False, rel.forward), (True, rel.inverse)):
            for e in (x for x in wanted if x in ends) if len(wanted) < len(ends) else (x for x in ends if x in wanted):
                out[e].add((iri, inverse))
    return out


def _mean(profile: dict[int, set], entities: list[int]) -> Counter:
    got: Counter = Counter()
    for e in entities:
        got.update(profile[e])
    return got


def _cosine(a: Counter, b: Counter) -> float:
    dot = sum(v * b[k] for k, v in a.items())
    norm = (sum(v * v for v in a.values()) * sum(v * v for v in b.values())) ** 0.5
    return dot / norm if norm else 1.0
