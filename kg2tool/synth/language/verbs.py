"""Verb forms for the relation lexicon (`kg2tool.synth.language.lexicon`), from `lemminflect`: participles, the simple
past, the third person singular, and the participle of the verb a noun names."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=8192)  # asked per label word; lemminflect copies its tables on every call
def is_participle(word: str) -> bool:
    import lemminflect

    if word.endswith(("ed", "en")) and len(word) > 3:
        return True
    if word.endswith("s"):
        return False
    return "VERB" in lemminflect.getAllLemmas(word) and word not in lemminflect.getAllInflections(
        lemminflect.getLemma(word, "VERB")[0]
    ).get("VB", ())


def past(word: str) -> str:
    """Simple past of a participle: `written` -> `wrote`, `directed` -> `directed`."""
    import lemminflect

    lemma = lemminflect.getLemma(word, "VERB")
    out = lemminflect.getInflection(lemma[0], "VBD") if lemma else ()
    return out[0] if out else word


def participle_of(noun: str) -> str:
    """The past participle of the verb a noun names (`release` -> `released`, `screening` -> `screened`), or ""."""
    import lemminflect

    lemmas = lemminflect.getAllLemmas(noun).get("VERB")  # the dictionary's verbs only ("role" is none)
    out = lemminflect.getInflection(lemmas[0], "VBN") if lemmas else ()
    return out[0] if out and out[0] != noun else ""


def third_person(word: str, strict: bool = True) -> bool:
    """True for a verb in the third person singular (`produces`); `strict`: not also a plural noun (`works`)."""
    import lemminflect

    if not word.endswith("s") or word.endswith("ss"):
        return False
    lemmas = lemminflect.getAllLemmas(word)
    return "VERB" in lemmas and (not strict or "NOUN" not in lemmas)


# English nouns that stand before another in their plural form ("sports team", "headquarters location"): the
# rest of a noun compound's modifiers are singular, so "covers topic", "holds role" are a verb and its object.
PLURAL_MODIFIERS = frozenset("""sports arts sales goods arms clothes customs savings headquarters news works
communications operations humanities means series species earnings proceeds rights""".split())
# The particles of English phrasal verbs ("carried out", "set up", "taken over").
PARTICLES = frozenset("out up off away down over back".split())


@lru_cache(maxsize=4096)  # asked per noun phrase a by-relation makes (`Speaker._project_np`)
def agent_noun(participle: str) -> str:
    """The noun for who or what does the act of a participle (`directed` -> `director`, `written` -> `writer`,
    `composed` -> `composer`, `edited` -> `editor`), or "": English forms agent nouns with -er or -or (a final
    e dropped, a final consonant doubled); a candidate counts only if lemminflect's dictionary knows it as a noun."""
    import lemminflect

    lemma = lemminflect.getAllLemmas(participle).get("VERB")
    if not lemma:
        return ""
    verb = lemma[0]
    stem = verb[:-1] if verb.endswith("e") else verb
    for cand in (f"{stem}er", f"{stem}or", f"{verb}{verb[-1]}er", f"{verb}r"):
        if lemminflect.getAllLemmas(cand).get("NOUN") == (cand,):
            return cand
    return ""


# English verbs that take no direct object before these prepositions (one acts, dies, graduates, participates *in*
# something; nothing "is acted in"): their past with a preposition is the subject's own act, never a passive.
INTRANSITIVE = frozenset("""act appear arrive belong compete die emigrate exist fight graduate happen immigrate live
occur originate participate perform play reign remain reside retire serve sing speak star stay study teach travel
work""".split())


def lemma_of(word: str) -> str:
    """The bare verb of a verb form (`acted` -> `act`), or the word itself."""
    import lemminflect

    got = lemminflect.getLemma(word, "VERB")
    return got[0] if got else word


def active_past(word: str) -> str:
    """The bare verb of `word` where it is a simple past said of the subject's own act: a past that is no participle
    ("wrote", "sang") or the past of an `INTRANSITIVE` verb ("acted", "graduated"); "" otherwise ("born",
    "located", "based", "named": participles said of the subject as passives)."""
    import lemminflect

    lemma = lemma_of(word)
    if word == lemma or word not in lemminflect.getInflection(lemma, "VBD"):
        return ""
    return lemma if lemma in INTRANSITIVE or word not in lemminflect.getInflection(lemma, "VBN") else ""
