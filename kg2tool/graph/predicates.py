"""A predicate's words read as English grammar, shared by the relation lexicon (kg2tool.synth.language.lexicon) and
the composed labels of folded n-ary nodes (kg2tool.graph.reify): a label shaped as a whole sentence names its own
subject first, and that subject is no part of the relation."""

from __future__ import annotations

from functools import lru_cache

AUXILIARIES = frozenset("is was are were has had have".split())
PREPOSITIONS = frozenset("at by of in on to for with from after into as under within near about than over against between among upon through across toward towards via during".split())


@lru_cache(maxsize=8192)
def _lemmas(word: str) -> dict:
    import lemminflect

    return lemminflect.getAllLemmas(word)


@lru_cache(maxsize=8192)
def _participle(word: str) -> bool:
    """A past participle: a verb form in -ed or -en, or one lemminflect inflects as VBN (`held`, `made`)."""
    import lemminflect

    verbs = _lemmas(word).get("VERB")
    if not verbs:
        return False
    return word.endswith(("ed", "en")) or word in lemminflect.getInflection(verbs[0], "VBN")


@lru_cache(maxsize=8192)
def _noun(word: str) -> bool:
    return "NOUN" in _lemmas(word) and not _participle(word) and word not in AUXILIARIES


@lru_cache(maxsize=8192)
def _third_person(word: str) -> bool:
    lemmas = _lemmas(word)
    return word.endswith("s") and not word.endswith("ss") and "VERB" in lemmas and "NOUN" not in lemmas


def predicate_of_sentence(words: list[str] | tuple[str, ...]) -> list[str] | None:
    """The predicate of a label shaped as a sentence that names its own subject first, or None. English puts the
    subject before the verb, so the nouns that open "relation has source", "thing is target of relation" (ICA's
    Records in Contexts: `relationHasSource`, `thingIsTargetOfRelation`) or "relation connects" name the subject's
    kind, not the relation: it is what follows ("has source", "is target of relation", "connects"). Likewise nouns
    between "is" and a participle with its preposition ("is agent associated with agent": is associated with). A
    noun that is a verb too opens a compound, not a sentence ("works for", "record label")."""
    words = list(words)
    if len(words) >= 4 and words[0] in ("is", "was"):
        lead = _nouns(words, 1)
        if lead > 1 and _participle(words[lead]) and lead + 2 < len(words) and words[lead + 1] in PREPOSITIONS:
            return [words[0], *words[lead:]]
        return None
    lead = _nouns(words, 0)
    if not lead:
        return None
    nxt = words[lead]
    if nxt in AUXILIARIES and lead + 1 < len(words):
        return words[lead:]
    if lead == 1 and "VERB" not in _lemmas(words[0]) and _third_person(nxt) and (
            lead + 1 == len(words) or words[lead + 1] in PREPOSITIONS):
        return words[lead:]  # "relation connects"
    return None


def _nouns(words: list[str], start: int) -> int:
    """The index after the run of nouns that starts at `start` (the last word is never counted)."""
    at = start
    while at < len(words) - 1 and _noun(words[at]):
        at += 1
    return at


def is_adverb(word: str) -> bool:
    """A word lemminflect's dictionary knows only as an adverb (`directly`, `partly`; not `early`, `weekly`)."""
    return set(_lemmas(word)) == {"ADV"}
