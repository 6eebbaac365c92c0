"""Schema words: a graph's conventions leaking into English (identifiers, property paths, code-style words and
placeholder kinds), found by rule with no reader.

`SCHEMA_RULES` (rule name -> regex) is the check tests/lint.py's `schema_problems` runs over dataset rows and
bench/bench_anygraph.py measures; `schema_words(text)` runs it over one text. `kg2tool lexicon --backend ...`
(`kg2tool.synth.language.drafts`) runs it over a language model's drafted wordings.

The rules run in order over a text and blank what a rule matched, so one word is one problem
("people.person.place_of_birth" is a dotted path, not also an underscore word). The camelCase rules are about
naming conventions, not names: "McDonald", "MacArthur", "iPhone", "eBay", "DreamWorks", "LaGuardia", "YouTube",
"deGrasse" pass (a capital inside a word counts only after two or more lower-case letters that are not a name
particle, or as a third capitalised chunk). tests/test_lint_schema.py runs every rule over all display names of the
project's real graphs and expects one hit only, FIBO's "(BusinessCentersIndividuals)", a module name leaked into a
label. Known miss by design: one-hump class names ("PopulatedPlace", "NamedIndividual") read like company names
("DreamWorks") and are not flagged; "GlaxoSmithKline" would be (three chunks).
"""

from __future__ import annotations

import re

_PARTICLES = "de|du|da|di|del|della|des|la|le|van|von|der|den|ten|ter|mac|mc|al|el|ibn|bin|dos|das|ap|af"
_SEG = r"[a-z_][a-z0-9_]*"
_KINDS = r"items?|things?|entity|entities|resources?|concepts?|agents?"  # agent: foaf:Agent, dbo:Agent, prov:Agent
_DETERMINERS = (
    "which|what|the same|the|other|an?|these|those|all|how many|every|any|some|each|one|two|three|"
    "several|more|fewer|both|no"
)
# words after a kind word that leave it the head of its phrase ("the entity of X", "the items that ..."); any other
# lower-case word makes it a modifier of a compound noun ("the entity status", "the item number"): no placeholder
_FUNCTION = ("of|that|which|who|whose|where|with|in|on|at|by|for|from|to|as|is|are|was|were|has|have|had|and|or|"
             "but|than|does|do|did|can|could|would|will|named|called|like")
SCHEMA_RULES = {
    # http://..., urn:isbn:..., www.example.org
    "IRI": re.compile(r"\b(?:https?|ftp)://\S+|\burn:[a-z0-9-]+:\S+|\bwww\.\S+"),
    # dbo:birthPlace, ex:_author, rdfs:label (a lower-case prefix, a colon, no space)
    "prefixed name": re.compile(r"(?<![\w/:.-])[a-z][a-z0-9]{1,9}:[A-Za-z_][\w-]*"),
    # Freebase mids and ids: m.07s9rl0, g.11b6x0c3dq (a digit somewhere after the dot)
    "Freebase id": re.compile(r"(?<![\w.])[mg]\.(?=[0-9a-z_]*\d)[0-9a-z_]{4,}(?![\w])"),
    # people.person.place_of_birth, film.film, a..b; not "e.g.", "i.e.", "a.m." (one-letter segments), "U.S.",
    # "St. Louis", "J. R. R. Tolkien" (capitals, spaces), 7.5 or v1.2 (digits after the dot)
    "dotted path": re.compile(
        rf"(?<![\w.])(?:{_SEG}(?:\.{_SEG})*\.\.{_SEG}"
        rf"|(?=[\w.]*_|[a-z0-9_]{{2,}}\.[a-z_][a-z0-9_])(?:{_SEG}\.)+{_SEG})(?![\w])"
    ),
    # a word with an id glued to it: album106591815 (YAGO's WordNet synset ids), conflict100958896s; six digits or
    # more after letters (not Zinfandel1998, B52, MP3)
    "id-suffixed word": re.compile(r"(?<![\w-])[A-Za-z]+\d{6,}s?(?![\w-])"),
    # Wikidata ids: Q42, P31 (not R2-D2, C-3PO)
    "Wikidata id": re.compile(r"(?<![\w-])[QP][1-9]\d*(?![\w-])"),
    # place_of_birth, _score, lead_singers: a word holding an underscore
    "underscore word": re.compile(r"(?<!\w)(?=\w*_)(?=\w*[^\W\d_])\w+"),
    # birthPlace, hasMaker, isPartOf: two or more lower-case letters, then a capital (not after a particle: deGrasse)
    "camelCase word": re.compile(rf"(?<![\w'’-])(?!(?:{_PARTICLES})[A-Z])[a-z]{{2,}}[A-Z][A-Za-z0-9]*"),
    # SportsTeamMember, PopulatedPlaceArea: three or more capitalised chunks in one word (not DreamWorks, MacArthur)
    "PascalCase word": re.compile(r"(?<![\w'’-])[A-Z][a-z]+(?:[A-Z][a-z]+){2,}(?![\w'’])"),
    # a placeholder for the kind: "which items", "the same item as", "named individuals", "two things"; the kind
    # word is lower case, so titles ("The Things They Carried", "Stranger Things") pass, and so does a kind word
    # that modifies a noun ("the entity status": FIBO's term)
    "placeholder kind": re.compile(
        rf"\bnamed individuals?\b|(?i:\b(?:{_DETERMINERS}))(?: other)? (?:{_KINDS})\b(?! (?!(?:{_FUNCTION})\b)[a-z]+)"
    ),
}


def schema_words(text: str) -> list[tuple[str, str]]:
    """The schema words of one text as (rule, word), in rule order; [] when it reads as English."""
    found = []
    for rule, rx in SCHEMA_RULES.items():
        for hit in list(rx.finditer(text)):
            found.append((rule, hit[0]))
            text = text[: hit.start()] + " " * len(hit[0]) + text[hit.end() :]
    return found
