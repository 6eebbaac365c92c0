"""Relations that say the same pairs the other way round (`kg2tool.synth.language.lexicon`'s `Wording.mirror`): a prize's
`laureate` and a laureate's `won`. A clause of the noun relation is said with the other one's verb."""

from __future__ import annotations

import itertools

from ...graph.model import KnowledgeGraph
from ..plans.index import sorted_keys


def mirrors(kg: KnowledgeGraph, words: dict, sample: int) -> dict[str, str]:
    """Relations with a verb-like relation of the same pairs the other way round (the prize's `laureate` and the
    laureate's `won`), and symmetric relations (a sibling's sibling, a spouse's spouse), mirrors of themselves, by IRI: checked on up to `sample` subjects of each, 75% of which must give the same entities."""
    found = {}
    for iri, w in words.items():
        rel = kg.relations[iri]
        subj = list(itertools.islice(sorted_keys(rel.forward), sample))
        for other in sorted(words):
            o = words[other]
            if (other != iri and o.form == "noun") or (o.subject, o.object) != (w.object, w.subject):
                continue  # another noun relation says nothing better; itself: symmetric (a sibling's sibling)
            back = kg.relations[other]
            same = sum(sorted(rel.forward[s]) == sorted(back.inverse.get(s, ())) for s in subj)
            if subj and same >= 0.75 * len(subj):  # most pairs: the Speaker checks each node it says this way
                found[iri] = other
                break
    return found

