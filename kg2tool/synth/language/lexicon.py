"""The relation lexicon: how to say each relation and attribute of a graph in English, and what kinds of entity
they link.

A relation's label is split (`hasMaker` -> `has maker`, `place_of_birth` -> `place of birth`) and sorted into one
of four *forms*, each said its own way:

    noun    "place of birth", "has color" -> "color"   the place of birth of X / people whose place of birth is Y
    by      "directed by", "founded by"                 who directed X? / films directed by Y
    prep    "educated at", "member of", "located in"    which universities is X educated at? / people educated at Y
    verb    "produces", "worksFor"                       what does X produce? / companies that produce Y

Kinds name the entities in questions ("which films", "who"): from the graph's types (rdf:type / P31) where it
has them, otherwise inferred from the relations an entity takes part in (the subjects of `place of birth` are
people; the objects of `country of citizenship` are countries), else the neutral noun `item`.

`derive_lexicon(kg)` gives a `Lexicon`; `Lexicon.to_yaml()` is what `kg2tool synth` writes as `lexicon.yaml`;
`lexicon_file.load_lexicon(path, kg)` reads an edited copy back over the derived one (`kg2tool synth --lexicon FILE`), naming
the file and key of any unknown relation or bad field. Plural nouns and verb agreement come from `inflect`,
verb tenses from `lemminflect`.

Long because the label rules, the wordings of folded records and the kind votes share the `Wording` class and one
derivation (`derive_lexicon` calls each); the parts that need none of them live beside it (`types.py`: the choice
among several types; `verbs.py`: English verb facts; `known_wordings.py`: public vocabularies' wordings).
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from dataclasses import asdict, dataclass, replace
from functools import lru_cache

from ...graph.model import KnowledgeGraph
from ...graph.names import one_tense, without_codes
from ...graph.predicates import PREPOSITIONS, is_adverb, predicate_of_sentence
from ..plans.index import sorted_keys
from .known_wordings import ATTRIBUTE_NOUNS, CONTAINING, GROUP_ONLY, KIND_NAMES, KNOWN, SUBJECT_KINDS, WORK_PLACES
from .mirror import mirrors
from .types import type_choice
from .verbs import (
    PARTICLES,
    PLURAL_MODIFIERS,
    active_past,
    agent_noun,
    is_participle,
    lemma_of,
    participle_of,
    past,
    third_person,
)

FORMS = ("noun", "by", "prep", "verb")
# Subjects of these relations are people (labels after splitting, lowercased).
PERSON_CUES = frozenset(
    """place of birth|date of birth|place of death|date of death|country of citizenship|occupation|spouse|sibling|
    child|father|mother|educated at|employer|cause of death|place of burial|given name|family name|job title|
    languages spoken, written, or signed|unmarried partner|line manager|hire date|skill|native language|
    member of political party|residence|work location|gender|sex or gender|religion|ethnic group|instrument|
    field of work|award received|nationality|birth date|birth place|knows|works for|works at|lives in|born in|
    died in|married to|citizen of|acted in|graduated from
    """.replace("\n", "").split("|")
)
PERSON_CUES = frozenset(c.strip() for c in PERSON_CUES)
# Kinds of entity that are people: asked about with `who`.
PLACE_KINDS = frozenset("country location place city town region state".split())
# Kinds of creative works (an award record's work is one).
WORK_KINDS = frozenset("film movie book novel work album song play series episode game painting".split())
PERSON_KINDS = frozenset("""person human people laureate character actor actress author writer poet scientist
    politician employee artist musician singer composer director player athlete officer member student""".split())
# Kinds of entity that act: people, and the groups and organizations that do what people do (employ, offer, host).
AGENT_KINDS = PERSON_KINDS | frozenset("""organization organisation company group band institution university agency
    government business firm corporation team club publisher""".split())
# Nouns that name a role in another thing: "member of X" is said like a preposition form ("a member of").
ROLE_NOUNS = frozenset("member part citizen subsidiary division resident subject".split())
# Role nouns that are no kind of their own: the objects of `employer` are organizations, not "employers".
ROLE_KINDS = {"employer": "organization", "spouse": "person", "sibling": "person", "child": "person",
              "parent": "person", "father": "person", "mother": "person", "unmarried partner": "person",
              "partner": "person", "line manager": "person", "head": "person", "head of state": "person",
              "chief executive officer": "person", "founder": "person", "supplier": "organization",
              "sponsor": "organization", "operator": "organization", "parent organization": "organization",
              "project lead": "person", "cast member": "person", "director": "person", "author": "person",
              "successor": "", "predecessor": "",  # a place in a series: the kind of whatever is in it
              "starring": "person"}  # DBpedia's `starring`: the actors of a film
# Words of a place in a series: `previous event` names an event, `subsequent work` a work.
SEQUENCE_WORDS = frozenset("previous next following subsequent prior preceding succeeding".split())
# Nouns that name no kind: a relation called by one is said by its objects' kind.
PLACEHOLDER_NOUNS = frozenset("entity thing item object resource individual element node".split())
# Words a label may open with to name its subject that name no kind of it (the schema languages' own classes:
# skos:Concept, owl:Thing, foaf:Agent, ...): dropped from the label's wording.
PLACEHOLDER_SUBJECTS = PLACEHOLDER_NOUNS | frozenset("concept agent instance".split())
MASS_ROLES = frozenset(("part",))  # said without an article: "is part of"
FALLBACK_KIND = "item"
UNKNOWN_NOUN = "thing"  # how an entity of no known kind (`item`) is said in a question
SAMPLE = 500  # entities looked at per relation and direction to name its kinds


@lru_cache(maxsize=1)
def _inflect():
    import inflect

    return inflect.engine()


# English: a noun in -ics names one field or event though plural in form (physics, athletics, the Olympics), and
# `data`/`metadata` are mass nouns in today's usage: number does not change them.
def _numberless(noun: str) -> bool:
    last = noun.rsplit(" ", 1)[-1].lower()
    return last.endswith("ics") or last in ("data", "metadata")


@lru_cache(maxsize=65536)
def plural(noun: str) -> str:
    """The plural of a noun phrase: `place of birth` -> `places of birth`, `person` -> `people`; `physics` and
    `data` stay (`_numberless`)."""
    if _numberless(noun):
        return noun
    if noun.endswith("(s)"):  # "part(s)": the plural the parenthesis leaves open
        return noun[:-3] + "s"
    last = noun.rsplit(" ", 1)[-1]
    if len(last) > 1 and last.isupper() and last.isalpha():  # an acronym takes a lower-case s: URLs, CDs
        return noun + "s"
    head, _, after = noun.rpartition(" ")
    if head and last.islower() and is_participle(last) and not _noun(last):  # a participle after its noun:
        word = head.rsplit(" ", 1)[-1]  # "area served" -> "areas served", "language spoken" -> "languages spoken"
        one = singular(word)
        return noun if one != word and plural(one) == word else f"{plural(head)} {after}"  # "celebrities impersonated"
    try:
        return _inflect().plural_noun(noun) or noun
    except Exception:  # inflect refuses some strings (empty, odd characters): keep the text as it is
        return noun


@lru_cache(maxsize=65536)
def singular(noun: str) -> str:
    """The singular of a noun (unchanged when it is not a plural): `languages` -> `language`; a last word in -us,
    -ss or -is is singular already (`genus`, `campus`, `census`, `class`, `thesis`: inflect would cut its s), and
    so is a `_numberless` one (`olympics`, `data`)."""
    if noun.endswith("(s)"):  # "part(s)": one part
        return noun[:-3]
    if noun.rsplit(" ", 1)[-1].lower().endswith(("us", "ss", "is")) or _numberless(noun):
        return noun
    try:
        return _inflect().singular_noun(noun) or noun
    except Exception:  # see plural
        return noun


@lru_cache(maxsize=65536)
def article(noun: str) -> str:
    """`a person` / `an organization`."""
    try:
        return _inflect().a(noun)
    except Exception:  # see plural
        return f"a {noun}"




def split_label(label: str) -> str:
    """Words of a relation label: a one-token label's camelCase and snake_case split and lowercased except acronyms
    (`hasMaker` -> `has maker`); a label that already has spaces is kept as written, one space apart; a CIDOC-CRM
    code in front is dropped ("P52 has current owner" -> `has current owner`, "E39 Actor" -> `actor`); two tenses
    of one verb joined by "or" are said by the first (`one_tense`: `isOrWasRegulatedBy` -> `is regulated by`)."""
    return one_tense(_split_label(label))


def _split_label(label: str) -> str:
    coded = without_codes(label.strip())
    if coded != label.strip():
        label = " ".join(w.lower() if w[:1].isupper() and not w.isupper() else w for w in coded.split())
    if " " in label.strip():
        words = label.split()
        if words[0][:1].isupper() and words[0][1:].islower() and all(w.islower() for w in words[1:]):
            words[0] = words[0].lower()  # a sentence-case label ("Award keyword") said inside a sentence
        # a preposition is a preposition however the label capitalises it ("published In Journal")
        return " ".join(w.lower() if w.lower() in PREPOSITIONS and w[1:].islower() else w for w in words)
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", label.replace("_", " "))
    words = [w if (w.isupper() and len(w) > 1) else w.lower() for w in text.split()]
    return " ".join(words)


@dataclass
class Wording:
    """How one relation is said.

    form: noun | by | prep | verb (see the module docstring).
    noun: the object's role as a noun, singular (`place of birth`); plural: its plural (`places of birth`).
    verb: the predicate for prep/by/verb forms, third person singular (`educated at`, `a member of`, `produces`).
    verbs: the same predicate for a plural subject (`members of`, `produce`).
    active: the active past for the by form (`directed` for `directed by`; `wrote` for `written by`).
    subject, object: the kinds of its subjects and objects, singular (`person`, `country`).
    multi: True when a subject usually has several objects (asked in the plural).
    base: the bare verb of the verb form, after `does`/`did` (`speak`, `die in`); derived from `verb` when "".
    tense: `present` or `past`: the tense prep, by and verb forms are said in (`is`/`was`, `does`/`did`).
    where: asked with "where", its final preposition dropped (`Where was X born?`).
    mirror: the IRI of a relation that links the same pairs the other way round and says them with a verb, used
        for this noun relation's clauses ("who won Physics 1956" for "who is the laureate of Physics 1956"); "".
    reverse: a participle that says the relation the other way round, its object first: `released in` for a
        country's film release ("Where was X released?", "the films released in Y"); "".
    """

    label: str
    form: str
    noun: str = ""
    plural: str = ""
    verb: str = ""
    verbs: str = ""
    active: str = ""
    subject: str = FALLBACK_KIND
    object: str = FALLBACK_KIND
    multi: bool = False
    base: str = ""
    tense: str = "present"
    where: bool = False
    mirror: str = ""
    reverse: str = ""

    @property
    def asked_many(self) -> bool:
        """Whether a lookup from one name asks for several: `multi`, but not where a thing is ("Which country is
        Washington, D.C. in?", though a city may lie in several historical countries: "Can you tell me the countries
        that Washington, D.C. is in?" was rejected by both readers)."""
        return self.multi and split_label(self.label).lower() not in CONTAINING


TENSES = ("present", "past")
# Participles of a state that still holds (`located in`, `based in`): said in the present. Others (`educated at`,
# `founded by`) tell of an event: said in the past.
STATIVE = frozenset("""located based situated headquartered known named called used owned listed included contained
    related connected affiliated associated involved made spoken set""".split())


@dataclass
class AttrWording:
    """How one attribute is said: its noun (`date of birth`) and the kind of entity that has it."""

    label: str
    noun: str
    subject: str = FALLBACK_KIND


def word_relation(label: str) -> tuple[Wording, str]:
    """The wording of a relation label without kinds, and a kind its objects suggest (`country` for `country of
    citizenship`; "" when the label says none; a leading `!` marks a strong hint, the head of `X of Y`, and a
    leading `~` a weak one, a by-relation's agent noun). Labels people say with a verb of their own
    (kg2tool.synth.language.known_wordings) get that wording."""
    w, hint = _word_relation(one_tense(label))  # "is or was regulated by": a label with spaces is not split
    w.label = label
    if hint.lstrip("!~") in PREPOSITIONS:  # `isAbout`: "about" is no kind of thing
        hint = ""
    # a kind is a common noun however the label capitalises it ("published In Journal": journals)
    hint = " ".join(w.lower() if w[:1].isupper() and w[1:].islower() else w for w in hint.split())
    known = KNOWN.get(split_label(label).lower())
    if known is not None:  # the label's noun stays (`places of birth`); the verb, form and tense are the table's
        noun = (w.noun, w.plural) if w.form == "noun" else (split_label(label), plural(split_label(label)))
        if "noun" in known:
            noun = (known["noun"], plural(known["noun"]))
        w = replace(w, noun=noun[0], plural=noun[1], verb="", verbs="", active="")
        return replace(w, **{k: v for k, v in known.items() if k not in ("kind", "noun")}), known.get("kind", hint)
    if w.form == "by" or (w.form == "prep" and _participle(w.verb.split()[0]) and w.verb.split()[0] not in STATIVE):
        w.tense = "past"
    return w, hint


def _word_relation(label: str) -> tuple[Wording, str]:
    """`word_relation` without the table of known wordings: the label's form and hint by English grammar.

    Long because the label forms are one ordered list of rules, each a few lines, tried first to last (the first
    that fits the label's words decides): a reading of one is only right after the ones above it failed.
    """
    # "part(s)": the plural the parenthesis leaves open is said by the sentence's number
    words = [w[:-3] if w.endswith("(s)") and len(w) > 3 else w for w in split_label(label).split()]
    if not words:
        return Wording(label, "noun", "relation", "relations"), ""
    if len(words) >= 3 and words[0].lower() in PLACEHOLDER_SUBJECTS and words[1].lower() != "of":
        # the subject said by a word that names no kind: `Concept_In_Subset` is "in subset", `entity has part`
        # "has part" (the rest read as any label); `concept of X` stays a noun
        w, hint = _word_relation(" ".join(words[1:]))
        return replace(w, label=label), hint
    if (rest := predicate_of_sentence(words)) is not None:  # "relation has source": the subject is no relation
        w, hint = _word_relation(" ".join(rest))
        return replace(w, label=label), hint
    if len(words) >= 2 and is_adverb(words[0]) and third_person(words[1]):  # "directly includes": the verb is next
        w, hint = _word_relation(" ".join(words[1:]))
        if w.form == "verb":
            return replace(w, label=label, verb=f"{words[0]} {w.verb}", verbs=f"{words[0]} {w.verbs}",
                           base=f"{words[0]} {w.base or w.verbs}"), hint
    perfect = False
    copula = had = False
    if words[0].lower() in ("has", "have") and len(words) > 1:
        words, had = words[1:], True
        perfect = len(words) > 1 and _participle(words[0]) and all(_noun(x) for x in words[1:])
    elif words[0].lower() in ("is", "was", "were", "are") and len(words) > 1:  # `isPartOf`, YAGO's `wasBornIn`
        words, copula = words[1:], True
    text = " ".join(words)
    last = words[-1]
    if had and len(words) >= 2 and last in PREPOSITIONS and last not in ("of", "by") and all(map(_modifier_or_noun, words[:-1])):
        # "has full sovereignty over": X has sovereignty over Y (Which regions does X have full sovereignty over?),
        # a verb phrase; not a noun "full sovereignty over"
        return Wording(label, "verb", verb=f"has {text}", verbs=f"have {text}", base=f"have {text}"), ""
    if perfect:  # "has won prize": Which prizes did X win?
        lemma = lemma_of(words[0])
        return Wording(label, "verb", verb=words[0], verbs=words[0], base=lemma, tense="past"), singular(" ".join(words[1:]))
    if len(words) >= 2 and last in PREPOSITIONS and last != "by" and (lemma := active_past(words[0])):
        # a past the subject did, not one done to it: "acted in" (Which films did X act in?), "wrote music for"
        return Wording(label, "verb", verb=text, verbs=text, base=" ".join([lemma, *words[1:]]), tense="past"), ""
    if words[0] in PREPOSITIONS and len(words) > 1:  # "in region": X is in Y, and Y is a region
        return Wording(label, "prep", verb=words[0], verbs=words[0]), singular(" ".join(words[1:]))
    if len(words) > 1 and words[1] == "of" and (stem := _ship_stem(words[0])):
        # a state said by its role noun: "membership of" is "member of" (X is a member of Y)
        w, hint = _word_relation(" ".join(["has"] * had + ["is"] * copula + [stem] + words[1:]))
        return replace(w, label=label), hint
    if len(words) > 1 and words[1] == "of" and not had and (
            words[0] in ROLE_NOUNS or ((len(words) == 2 or copula) and (_noun(words[0]) or _ing_noun(words[0])))):
        # a role in another thing: "member of", and any "NOUN of" label (`capital_of`: Berlin is a capital of
        # Germany; `derive_lexicon` says "the" where each object has one), with the kind after it when the label
        # says the subject *is* one ("is source of relation": X is a source of Y, and Y is a relation); not after
        # "has" ("has part of the class": X has parts)
        rest = " ".join(words[2:])
        head = f"{words[0]} of"
        verb = head if words[0] in MASS_ROLES else f"{article(words[0]).split()[0]} {head}"
        verbs = head if words[0] in MASS_ROLES else f"{plural(words[0])} of"
        return Wording(label, "prep", verb=verb, verbs=verbs), singular(rest) if rest else ""
    if len(words) >= 3 and _participle(words[0]) and words[1] in PREPOSITIONS and last not in PREPOSITIONS:
        # "related to event": X is related to Y, and Y is an event
        verb = " ".join(words[:2])
        return Wording(label, "prep", verb=verb, verbs=verb), singular(" ".join(words[2:]))
    if (len(words) >= 2 and words[1] not in PREPOSITIONS and words[0] not in PLURAL_MODIFIERS
            and third_person(words[0], strict=False) and all(_noun(x) or _unknown(x) for x in words[1:])):
        # an ontology's verb and its object: "gives keynote talk" (Which keynote talk does X give?), "serves dataset"
        # (a word the dictionary lacks after a verb is its object); not a plural noun before a noun ("headquarters
        # location", "sports team")
        base = _inflect().plural_verb(words[0]) or words[0]
        return Wording(label, "verb", verb=words[0], verbs=base), singular(" ".join(words[1:]))
    if len(words) == 1 and _participle(last) and not _noun(last) and past(last) == last:
        # a past verb alone: FOAF's `made` (What did X make? Who made Y?)
        return Wording(label, "verb", verb=last, verbs=last, tense="past"), ""
    if last in PREPOSITIONS and len(words) == 2 and third_person(words[0], strict=False):  # "works for"
        base = _inflect().plural_verb(words[0]) or words[0]
        return Wording(label, "verb", verb=text, verbs=f"{base} {last}"), ""
    if last in PREPOSITIONS and len(words) > 1:
        if last == "by" and len(words) >= 3 and words[-2] in PARTICLES and is_participle(words[-3]):
            # a phrasal verb: "carried out by" (Who carried out X?)
            return Wording(label, "by", verb=text, verbs=text, active=f"{past(words[-3])} {words[-2]}"), ""
        if last == "by" and is_participle(words[-2]):
            # who does it is named by the verb's agent noun: the objects of `directed by` are directors
            return (Wording(label, "by", verb=text, verbs=text, active=" ".join(words[:-2] + [past(words[-2])])),
                    f"~{agent}" if len(words) == 2 and (agent := agent_noun(words[-2])) else "")
        if last == "by" and _noun(words[-2]):  # a credit line: "production design by X", "story by X"
            return _credit(label, words[:-1])
        if last == "than":  # a comparative: X is narrower than Y
            return Wording(label, "prep", verb=text, verbs=text), ""
        if all(_noun(x) for x in words[:-1]) and words[-2] not in MASS_ROLES:
            # a role at another thing, as "NOUN of" above: "panelist at" (X is a panelist at Y), "sub event of"
            role = " ".join(words[:-1])
            return Wording(label, "prep", verb=f"{article(role)} {last}", verbs=f"{plural(role)} {last}"), ""
        return Wording(label, "prep", verb=text, verbs=text), ""
    if third_person(words[0]) and (len(words) == 1 or words[1] in PREPOSITIONS):
        base = _inflect().plural_verb(words[0]) or words[0]
        return Wording(label, "verb", verb=text, verbs=" ".join([base] + words[1:])), ""
    noun, nouns = text, plural(text)
    if "," in text and " " in text:  # "languages spoken, written, or signed": the first word carries the number
        first, tail = text.split(" ", 1)
        noun, nouns = f"{singular(first)} {tail}", text
    elif (h := _head(words)) is not None and (one := singular(words[h])) != words[h] and plural(one) == words[h]:
        # a plural head: "notable works", "people" (a person), "notable people with this condition"
        noun, nouns = " ".join(words[:h] + [one] + words[h + 1 :]), text
    if noun in ROLE_KINDS:
        return Wording(label, "noun", noun=noun, plural=nouns), ROLE_KINDS[noun]
    if len(words) > 1 and words[0].lower() in SEQUENCE_WORDS:  # "previous event": an event, in a series
        return Wording(label, "noun", noun=noun, plural=nouns), singular(" ".join(words[1:]))
    if len(words) > 2 and words[-2:] in (["of", "type"], ["of", "kind"]):
        # "occupation of type": its objects are types of occupation, each said as the occupation it is
        head = " ".join(words[:-2])
        return Wording(label, "noun", noun=singular(head), plural=plural(singular(head))), "!" + singular(head)
    if " of " in noun:
        return Wording(label, "noun", noun=noun, plural=nouns), "!" + noun.split(" of ", 1)[0]
    if "," in noun and " " in noun:
        return Wording(label, "noun", noun=noun, plural=nouns), "!" + noun.split(" ", 1)[0]
    if len(words) == 2 and words[0] in ("place", "location") and is_participle(words[1]):
        # "place founded" (Freebase's place_founded): where X was founded
        verb = f"{words[1]} in"
        return Wording(label, "prep", noun=f"place {words[1]}", plural=f"places {words[1]}", verb=verb, verbs=verb,
                       tense="past", where=True), "place"
    if len(words) > 1 and is_participle(words[0]) and words[0].endswith("ed"):  # "starred actors": the actors
        noun, nouns = noun.split(" ", 1)[1], nouns.split(" ", 1)[1]
        return Wording(label, "noun", noun=noun, plural=nouns), singular(noun)
    return Wording(label, "noun", noun=noun, plural=nouns), singular(noun)


def _head(words: list[str]) -> int | None:
    """The index of a noun phrase's head word: the last word before its first preposition ("people" in "notable
    people with this condition"), else its last word; None when that is no plain word."""
    at = next((i - 1 for i, w in enumerate(words) if i and w in PREPOSITIONS), len(words) - 1)
    return at if words[at].isalpha() else None


def _credit(label: str, work: list[str]) -> tuple[Wording, str]:
    """A credit line's relation ("production design by", "story by": X's production design is by Y) said by who
    did the work: the agent noun of its last word where it is also a verb ("production designer"), else "credited
    with the N of" the other way round ("Who was credited with the story of X?")."""
    agent = agent_noun(work[-1])  # "" unless the word is a verb too
    if agent:
        noun = " ".join(work[:-1] + [agent])
        return Wording(label, "noun", noun=noun, plural=plural(noun)), "~person"
    noun = " ".join(work)
    return Wording(label, "noun", noun=noun, plural=plural(noun), reverse=f"credited with the {noun} of"), "~person"


# Roles of folded n-ary records (kg2tool.graph.reify) said otherwise than the same word as a relation: an actor's
# film role's `character` is the character the actor played.
FOLDED = {
    "character": (Wording("character", "verb", noun="character", plural="characters", verb="played",
                          verbs="played", base="play", tense="past"), "character"),
    "category": (Wording("category", "verb", noun="category", plural="categories", verb="won a prize in",
                         verbs="won a prize in", base="win a prize in", tense="past"), "category"),
}  # fmt: skip
# A membership record's organization (W3C ORG, `org:Membership` -> `org:organization`) is what its member is a member
# of: ORG's own shortcut for the record is `org:memberOf`; its `role` is the member's role ("membership role").
MEMBERSHIP = ("membership", "organization", "role")
# An award record's work (a film, a book) is what the person received the award for.
AWARD_RECORD = frozenset(("award", "prize", "recognition", "nomination"))
_AWARDED_FOR = Wording("for work", "verb", noun="awarded work", plural="awarded works", verb="received an award for",
                       verbs="received an award for", base="receive an award for", tense="past")  # fmt: skip


def _fold_words(iri: str, key: str) -> str:
    """The words of one part of a folded relation's IRI (`urn:kg2tool:fold?class=<C>&from=<P>&to=<P>`): the local
    name of `key`'s IRI, split (`AwardRecognition` -> `award recognition`); "" for any other relation."""
    if not iri.startswith("urn:kg2tool:fold?") or f"{key}=" not in iri:
        return ""
    from urllib.parse import unquote

    value = unquote(iri.rsplit(f"{key}=", 1)[1].split("&", 1)[0]).lstrip("^")
    return split_label(re.split(r"[#/:]", value.rstrip("/#"))[-1])


def folded_role(iri: str) -> str:
    """The words of the role a folded relation leads to (`...&to=<P>` -> P's local name, split), or "" for any
    other relation."""
    return _fold_words(iri, "&to")


def needs_be(w: Wording) -> bool:
    """True for a prep/by predicate said with `is`/`are` before it (`a member of`, `part of`), False for a
    participle that stands alone in a reduced clause (`educated at`, `directed by`)."""
    if w.form not in ("prep", "by"):
        return False
    first = w.verb.split()[0] if w.verb else ""
    return not _participle(first)


def says(w: Wording, *words: str) -> bool:
    """True when a relation's label or verb holds one of `words` ("burial", "died", ...)."""
    text = f"{w.label} {w.verb}".lower()
    return any(word in text for word in words)


@lru_cache(maxsize=4096)
def _noun(word: str) -> bool:
    """A word lemminflect's dictionary knows as a noun and not as a verb form (`capital`, `author`; not `made`)."""
    import lemminflect

    lemmas = lemminflect.getAllLemmas(word)
    return "NOUN" in lemmas and not _participle(word)


def _modifier_or_noun(word: str) -> bool:
    """A noun, an adjective or a participle: a word of a noun phrase ("full", "shared", "sovereignty")."""
    import lemminflect

    return _noun(word) or "ADJ" in lemminflect.getAllLemmas(word) or _participle(word)


def _ship_stem(word: str) -> str:
    """The noun a noun in "-ship" names the state of (English derivation: membership, being a member; ownership,
    citizenship, authorship, partnership), or "" for another word ("hardship": "hard" is no noun)."""
    stem = word[:-4] if word.endswith("ship") and len(word) > 6 else ""
    return stem if stem and _noun(stem) and word not in _SHIP_NOUNS else ""


# "-ship" nouns of their own meaning, whose stem names no role in them (lexicalised: a dictionary's senses, not the
# suffix's): a relationship is no relation's state
_SHIP_NOUNS = frozenset("relationship worship township flagship courtship hardship airship spaceship".split())


def _ing_noun(word: str) -> bool:
    """An -ing form the dictionary also knows as a noun (`scaling`, `painting`, `recording`): before "of" it is the
    noun ("X is a scaling of Y"), not a verb ("consisting of" has no noun)."""
    import lemminflect

    return word.endswith("ing") and "NOUN" in lemminflect.getAllLemmas(word)


def _unknown(word: str) -> bool:
    """A word of letters lemminflect's dictionary does not know at all (`dataset`, `metadata`): in a relation's
    label, a noun the dictionary lacks (a new compound, a term of the field), never a verb form."""
    import lemminflect

    return word.isalpha() and len(word) > 2 and not lemminflect.getAllLemmas(word)


def _participle(word: str) -> bool:
    return bool(word) and word not in ("a", "an", "the") and is_participle(word)


class Lexicon:
    """The wording of every relation (`relations[iri]`) and attribute (`attributes[iri]`) of a graph."""

    def __init__(self, relations: dict[str, Wording], attributes: dict[str, AttrWording], kinds: dict[int, str],
                 vote=None):  # fmt: skip
        self.relations = relations
        self.attributes = attributes
        self._kinds = kinds
        self._looked_at = len(kinds)  # the entities the derivation looked at (`known_share`)
        self._vote = vote  # eid -> kind for an entity the derivation did not look at (None: `item`)

    def kind_of(self, eid: int) -> str:
        """The kind of one entity, singular (`person`), or `item`: voted when first asked (the derivation looks at a
        sample of each relation's entities; a prize's 3rd laureate may be asked about all the same)."""
        got = self._kinds.get(eid)
        if got is None:
            got = self._kinds[eid] = self._vote(eid) if self._vote is not None else FALLBACK_KIND
        return got

    def known_share(self) -> float:
        """The share of the entities the derivation looked at whose kind is known (not `item`); 0 when none."""
        if not self._looked_at:
            return 0.0
        looked = itertools.islice(self._kinds.values(), self._looked_at)
        return sum(k != FALLBACK_KIND for k in looked) / self._looked_at

    def to_yaml(self) -> str:
        """The lexicon as YAML (relations then attributes, by IRI), as written to `lexicon.yaml`."""
        import yaml

        doc = {
            "relations": {k: asdict(w) for k, w in sorted(self.relations.items())},
            "attributes": {k: asdict(w) for k, w in sorted(self.attributes.items())},
        }
        head = (
            "# How kg2tool says each relation (see kg2tool/synth/language/lexicon.py). Edit a field and pass this file back\n"
            "# with `kg2tool synth --lexicon FILE`; relations left out keep their derived wording.\n"
            f"# form: one of {', '.join(FORMS)}.\n"
        )
        return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=119)


def derive_lexicon(kg: KnowledgeGraph) -> Lexicon:
    """Derive the lexicon of a graph: the wording of every relation and attribute, and kinds (deterministic)."""
    words: dict[str, Wording] = {}
    hints: dict[str, str] = {}
    for iri in sorted(kg.relations):
        words[iri], hints[iri] = word_relation(kg.relations[iri].label)

        rel = kg.relations[iri]
        obj = list(itertools.islice(sorted_keys(rel.inverse), SAMPLE))
        known = split_label(rel.label).lower() in KNOWN
        if sum(e in rel.forward for e in obj) > 0.5 * len(obj) and hints[iri] not in ROLE_KINDS.values() and not known:
            hints[iri] = ""  # objects that are mostly subjects too (diplomatic relation): the label is no kind
    voted: dict[int, str] = {}
    choice = type_choice(kg)

    def kind(eid: int) -> str:
        if eid not in voted:
            voted[eid] = _entity_kind(kg, eid, words, hints, choice)
        return voted[eid]

    if _settle(kg, words, hints, kind):
        voted.clear()
        _settle(kg, words, hints, kind)
    for iri, w in list(words.items()):
        if _acts(w):  # "moderates": Which sessions does X moderate?, not "the moderates of X"
            verb = _act_verb(split_label(w.label).lower())
            w = words[iri] = replace(w, form="verb", noun="", plural="", verb=verb,
                                     verbs=_inflect().plural_verb(verb) or verb)  # fmt: skip
        if w.form == "noun" and not folded_role(iri) and " " in (short := _without_kind(w.noun, w.subject)):
            # a film's "film production designer" is its production designer; a prize's "prize file" stays (a
            # compound's one word left says less than the compound)
            w = replace(w, noun=short, plural=plural(short))
        words[iri] = _shared_record(iri, _folded_wording(iri, w))
        if w.subject in PERSON_KINDS and split_label(w.label).lower() in GROUP_ONLY:  # a band's "formed in"
            words[iri] = replace(words[iri], **GROUP_ONLY[split_label(w.label).lower()])  # said of a person
        elif w.subject in WORK_KINDS and split_label(w.label).lower() in WORK_PLACES:  # "Where was X filmed?"
            words[iri] = replace(words[iri], **WORK_PLACES[split_label(w.label).lower()])
    for iri, other in mirrors(kg, words, SAMPLE).items():
        words[iri] = replace(words[iri], mirror=other)
    attrs = {}
    for iri in sorted(kg.attributes):
        attr = kg.attributes[iri]
        subj = list(itertools.islice(sorted_keys(attr.values), SAMPLE))
        subject = _majority([kind(e) for e in subj])
        noun = _without_kind(split_label(attr.label), subject)  # a laureate's "laureate deaddate": "deaddate"
        attrs[iri] = AttrWording(attr.label, ATTRIBUTE_NOUNS.get(noun, noun), subject)
    return Lexicon(words, attrs, voted, kind)


def _settle(kg: KnowledgeGraph, words: dict[str, Wording], hints: dict[str, str], kind) -> bool:
    """Kinds of every relation's subjects and objects (`kind`: an entity's kind, voted once), and the wordings that
    depend on them, in place; True when a relation's objects turned out to be of another kind than its label said
    (`hints` changed: the caller votes their kinds again)."""
    relabelled = False
    for iri, w in words.items():
        rel = kg.relations[iri]
        subj = list(itertools.islice(sorted_keys(rel.forward), SAMPLE))
        obj = list(itertools.islice(sorted_keys(rel.inverse), SAMPLE))
        w.subject = _majority([kind(e) for e in subj])
        w.object = _majority([kind(e) for e in obj]) if obj else hints[iri].lstrip("!~") or FALLBACK_KIND
        w.multi = sum(len(rel.forward[e]) for e in subj) > 1.3 * max(len(subj), 1)
        if (role := _role_in_object(w)) is not None:  # "defined unit of system": X is a defined unit of Y
            if role.object != w.object:  # "unit for quantity kind": the objects are quantity kinds
                hints[iri], relabelled = role.object, True
            w = words[iri] = role
        if w.form == "prep" and w.verb.startswith(("a ", "an ")) and obj and all(len(rel.inverse[e]) == 1 for e in obj):
            w.verb = "the " + w.verb.split(" ", 1)[1]  # each object has one: Berlin is the capital of Germany
        if w.form == "noun" and w.noun in PLACEHOLDER_NOUNS and w.object != FALLBACK_KIND:
            # `hasEntity`: "the entity of X" says nothing; its objects' kind does ("the legal entity of X")
            w.noun, w.plural = w.object, plural(w.object)
    return relabelled


def _acts(w: Wording) -> bool:
    """True when a one-word label that English reads both as a plural noun and as a verb in the third person
    (`moderates`, `offers`, `supports`, `influences`, `references`) is the verb. Property names are singular nouns
    or verb phrases by the conventions of RDF vocabularies (`author`, not `authors`), so such a form is what the
    subject does, unless the objects are things of the noun's kind (a person's `papers`), the noun names a role of
    people (`authors`, `members`, `sponsors`), or the objects are people or organizations of a subject that is
    neither (a session's `chairs`, an event's `hosts`: their role in it)."""
    word = split_label(w.label).lower()
    if w.form == "noun" and " " in word and third_person(word.rsplit(" ", 1)[1]):
        return True  # a label ending in a verb form that is no noun ("related implies"): never "the implies of X"
    if w.form != "noun" or not word.isalpha() or word in PLURAL_MODIFIERS or not third_person(word, strict=False):
        return False
    one = singular(word)
    if one == w.object.lower() or one in PERSON_KINDS or one in ROLE_KINDS:
        return False
    return not (w.object in AGENT_KINDS and w.subject not in AGENT_KINDS)


def _act_verb(said: str) -> str:
    """The verb `_acts` says a label with: the label itself (`moderates`, `commonly implies`: adverbs kept), else
    its last word (`related implies` -> `implies`: what stands before a verb that is no adverb is no part of it)."""
    *before, last = said.split()
    return said if all(b.endswith("ly") for b in before) else last


def _role_in_object(w: Wording) -> Wording | None:
    """A noun relation "NOUN of KIND" whose last word names the objects' kind (its head noun: "system" of "system of
    units") said as the subject's role in the object: "defined unit of system" is "X is a defined unit of Y" (Which
    systems of units is Coulomb a defined unit of?), not "the defined unit of system of X"; None for any other
    ("place of birth": the objects are places, not births). So is a noun relation "KIND PREPOSITION KIND" whose first
    noun is the subject's kind and whose last names the objects' kind: an event's "event in competition phase" is
    "X is an event in Y" (Which competition phase is X an event in?), a unit's "unit for quantity kind" "X is a unit
    for Y"; objects whose kind was read off the label itself are then of the kind named after the preposition."""
    if w.form != "noun" or not w.object:
        return None
    head = w.object.split(" of ")[0].split()[-1].lower()
    role, of, tail = w.noun.rpartition(" of ")
    if of and role and " " not in tail:
        if singular(tail).lower() != head:
            return None
        return replace(w, form="prep", noun="", plural="", verb=f"{article(role)} of", verbs=f"{plural(role)} of")
    words = w.noun.split()
    at = next((i for i, x in enumerate(words) if x in PREPOSITIONS), 0)
    if not 0 < at < len(words) - 1 or words[at] in ("of", "by", "than") or not w.subject:
        return None
    role, prep, tail = " ".join(words[:at]), words[at], " ".join(words[at + 1 :])
    if words[at - 1].lower() != w.subject.split(" of ")[0].split()[-1].lower():
        return None  # "time in office": the subject is no time
    if w.object == singular(w.noun):  # no types: the objects' kind was the label's
        w = replace(w, object=singular(tail))
        head = w.object.split()[-1].lower()
    if singular(tail.split()[-1]).lower() != head:
        return None
    return replace(w, form="prep", noun="", plural="", verb=f"{article(role)} {prep}", verbs=f"{plural(role)} {prep}")


def _without_kind(noun: str, kind: str) -> str:
    """A noun without the subject's kind in front: a laureate's "laureate award keyword" (a folded record) is their
    "award keyword", a film's "film production designer" its "production designer"; the noun itself when nothing
    would be left, or when a preposition follows the kind (a unit's "unit for quantity kind")."""
    head, rest = kind.lower().split(), noun.split()
    if len(rest) > len(head) and rest[len(head)] in PREPOSITIONS:
        return noun  # a unit's "unit for quantity kind": the kind is the noun's head, not a modifier in front
    return " ".join(rest[len(head) :]) if len(rest) > len(head) and [w.lower() for w in rest[: len(head)]] == head else noun


def _folded_wording(iri: str, w: Wording) -> Wording:
    """The wording of a relation composed through a folded n-ary record (`kg2tool.graph.reify`): a person's record
    said by its role's verb ("Which films did X appear in?", "Who played Y?", "Which films did X receive an award
    for?"), a noun without the record's repeated role ("film release film" -> "film release") or without the
    subject's kind ("laureate award keyword" -> "award keyword"); any other relation as it is."""
    role = folded_role(iri)
    if not role:
        return w
    cls = set(_fold_words(iri, "?class").lower().split())
    other = cls - {role.lower()}
    keep = dict(label=w.label, subject=w.subject, object=w.object, multi=w.multi)
    if other == {MEMBERSHIP[0]} and role.lower() in MEMBERSHIP[1:]:  # a member of X; its role in it
        said = word_relation("member of")[0] if role.lower() == MEMBERSHIP[1] else replace(w, noun=role, plural=plural(role))
        return replace(said, **keep)
    if w.subject in PERSON_KINDS:
        if role in FOLDED:  # "Who played Y?" (a film role's character), "won a prize in Physics" (an award's category)
            return replace(FOLDED[role][0], **keep)
        if other & AWARD_RECORD and w.object in WORK_KINDS:  # the work of an award record
            return replace(_AWARDED_FOR, **keep)
        # an award record's `film` is not a film the person appears in: a role is said by its own verb only when
        # the record's class names no other known relation ("film role": yes; "award recognition": no)
        if role.lower() in KNOWN and not other & set(KNOWN):
            said, _ = word_relation(role)
            return replace(said, **keep)
    lead, _, last = w.noun.rpartition(" ")
    if w.form == "noun" and " " not in lead and _one_family(lead, last):
        # the record's class and its role of one word family: a nomination's nominee is a "nominee" (Who are the
        # nominees of X?), not a "nomination nominee"
        return replace(w, noun=last, plural=plural(last))
    if w.form == "noun" and w.noun.endswith(" " + role) and role in w.noun[: -len(role) - 1].split():
        short = w.noun[: -len(role) - 1]  # "film release film" -> "film release"
        head = short.split()[-1]
        done = participle_of(head) if short.split()[0] == role and w.subject in PLACE_KINDS else ""
        # a place's record of an event its role had there: a country's film release -> films "released in" it
        return replace(w, noun=short, plural=plural(short), reverse=f"{done} in" if done else "")
    if w.form == "noun":
        short = _without_kind(w.noun, w.subject)
        return replace(w, noun=short, plural=plural(short)) if short != w.noun else w
    return w


def _one_family(a: str, b: str) -> bool:
    """True when two nouns share a stem of five letters or more and are not one word (a derivational family: nomination,
    nominee; application, applicant; election, elector): the second says the first's role in itself."""
    a, b = a.lower(), b.lower()
    return a != b and len(os.path.commonprefix([a, b])) >= 5


def _shared_record(iri: str, w: Wording) -> Wording:
    """A Freebase mediator path from a role through a record back to the same role
    (`award.award_nominee.award_nominations..award.award_nomination.award_nominee`: the others nominated with X)
    said as sharing the record ("Who did Lily Tomlin share an award nomination with?", not "What is the award
    nominee of Lily Tomlin?"); any other relation as it is."""
    local = iri.rsplit("/", 1)[-1]
    if ".." not in local:
        return w
    into, out = (part.split(".") for part in local.split("..", 1))
    if len(into) < 3 or len(out) < 3 or into[1] != out[2]:
        return w
    record = out[1].replace("_", " ")
    verb = f"shared {article(record)} with"
    return replace(w, form="verb", noun=record, plural=plural(record), verb=verb, verbs=verb,
                   base=f"share {article(record)} with", active="", tense="past", where=False)


def _majority(kinds: list[str]) -> str:
    named = Counter(k for k in kinds if k != FALLBACK_KIND)
    if not named:
        return FALLBACK_KIND
    k, c = max(named.items(), key=lambda kv: (kv[1], kv[0]))
    return k if c >= 0.4 * len(kinds) else FALLBACK_KIND


@lru_cache(maxsize=4096)  # asked once per typed entity, of a few class labels
def _class_noun(label: str) -> str:
    """A class label as a common noun (`University` -> university, `LaureateAward` -> laureate award, "Software
    Product" -> software product, "Feature Classified" -> classified feature: a participle goes before its noun)."""
    said = split_label(label)
    if " " in said and all(w[:1].isupper() for w in said.split()):
        said = " ".join(w if w.isupper() else w.lower() for w in said.split())
    parts = said.split()
    if len(parts) > 1 and _participle(parts[-1]) and not _noun(parts[-1]):
        said = " ".join([parts[-1], *parts[:-1]])
    return KIND_NAMES.get(said.lower(), said)


def _entity_kind(kg: KnowledgeGraph, eid: int, words: dict[str, Wording], hints: dict[str, str],
                 choice: dict[tuple[str, ...], str]) -> str:
    """The entity's type (`type_choice` where it has several), else a kind voted by its relations, else `item`."""
    types = kg.types[eid]
    if types:  # a class label as a common noun: `University` -> `university`, `LaureateAward` -> `laureate award`
        said = _class_noun(choice.get(types, types[0]))
        if said.lower() not in PLACEHOLDER_SUBJECTS:
            return said
        # a vocabulary's own root class (an `Agent`, a `Concept`): another type, else what the relations say
        said = next((n for n in map(_class_noun, types) if n.lower() not in PLACEHOLDER_SUBJECTS), "")
        if said:
            return said
    votes: Counter = Counter()
    for iri, w in words.items():
        rel = kg.relations[iri]
        said = re.sub(r"^(?:is|was|has|have) ", "", split_label(w.label).lower())  # YAGO's `wasBornIn`, `hasChild`
        if eid in rel.forward and said in PERSON_CUES:
            votes["person"] += 2
        elif eid in rel.forward and said in SUBJECT_KINDS:
            votes[SUBJECT_KINDS[said]] += 1
        hint = hints[iri]
        if eid in rel.inverse and hint:
            # "!": the head of `X of Y`, a strong hint; "~": a by-relation's agent noun, a weak one (an organization
            # that founded another is an organization, not "a founder")
            votes[singular(hint.lstrip("!~"))] += 2 if hint.startswith("!") else 0.5 if hint.startswith("~") else 1
    if not votes:
        return FALLBACK_KIND
    # most votes; then the shorter noun ("language" before "official language"); then by name
    return min(votes.items(), key=lambda kv: (-kv[1], len(kv[0].split()), kv[0]))[0]
