"""Anchors no question names: names kg2tool made up for homonyms, labels that carry their own note, placeholder
nodes, labels that name nothing on their own (the drop reasons `made_up_name`, `annotated_name`, `placeholder`,
`not_a_name` of kg2tool.synth.run.synthesizer)."""

from __future__ import annotations

import re
from functools import lru_cache

from ...graph.names import english_word
from ..plans.tree import anchors

PLACEHOLDERS = frozenset(("unknown", "n/a", "na", "none", "null", "nil", "tbd", "various", "other", "anonymous"))


def is_placeholder(name: str) -> bool:
    """True for a node that stands for a missing value ("unknown-planet" in the Star Wars data, "N/A", "None"):
    nobody asks about it."""
    low = name.lower()
    # "unknown-planet", "unknown_species": an id-like name; "Unknown Pleasures" (an album) is a name
    return low in PLACEHOLDERS or (name == low and low.startswith(("unknown-", "unknown_")))


_INSIDE_NOTE = re.compile(r"\([^)]*\) \S")  # "Earl (Bertrand Arthur William) Russell": a note before the end
_UNITS = frozenset("University Institute Institutet Laboratory Laboratories College Hospital Department School".split())
_LONG_NOTE = re.compile(r"\(\S+ [^)]*\)")  # "Comité international ... (International Committee of the Red Cross)"


def annotated(name: str) -> bool:
    """True for a label that carries its own note: "Posen (now Poznan, Poland)", "Germany (now Poland)", a maiden
    name ("Bertha von Suttner, née Countess Kinsky von Chinic und Tettau"), a note inside the name ("Earl (Bertrand
    Arthur William) Russell"), a translation beside it ("Comité international de la Croix Rouge (International
    Committee of the Red Cross)"): a record's full form, not what a person types. One word in parentheses is
    kg2tool's own note for a homonym (`made_up_name`)."""
    if "(now " in name or ", née " in name or _INSIDE_NOTE.search(name) or _LONG_NOTE.search(name):
        return True
    after = name.partition(", ")[2]  # "Harvard University, Biological Laboratories": a unit of an institution
    return any(word in after.split() for word in _UNITS)


# A part of a publication named by its number: a plate, page, figure, volume, part, fascicle, chapter, section,
# issue, number, folio or supplement, in English words ("Plate XXVII", "Volume 2") or with the abbreviations of
# bibliographic description and their dot ("Pl. XIII", "pt.II", "fasc.2", "No. 5"), numbered by digits or Roman
# numerals (after a whole word also by one letter), maybe several in a row ("pt.II: fasc.2"): what a page says of
# itself, meaningful only beside the book it is part of. "PT 109" (a film) and "P.S." are names.
_PART_WORD = (r"(?:(?:plates?|pages?|figures?|volumes?|parts?|fascicles?|chapters?|sections?|issues?|numbers?|folios?|"
              r"supplements?|tables?|appendix|leaf|leaves)\s+(?:\d+[a-z]?|[ivxlcdm]+|[a-z])|"
              r"(?:pl|pp?|figs?|vols?|v|pt|fasc|ch|sect?|nos?|nr|fol|suppl|tab)\.\s*(?:\d+[a-z]?|[ivxlcdm]+))")
_PART = re.compile(rf"(?:{_PART_WORD}\.?(?:\s*[-,:;/&]\s*|\s+|$))+", re.I)
_ROMAN = re.compile(r"m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})\.?", re.I)
# A file name: a stem with no space that is written as files are (lower case, or with a hyphen, underscore or
# digit), a dot and an extension Python's `mimetypes` knows (IANA media types and common ones): "lcu.xml",
# "De-Weltall2.ogg"; a slug, a snake-case or a lower-case hyphenated stem with any lower-case extension
# ("verdeling-van-het-personeel.parquet", "velocite-panneaux-b22.gpx"). "Node.js", "TP-2.com" (a web address:
# `.com` is also a top-level domain) or "Waarnemingen.be" are names.
_FILE = re.compile(r"(?P<stem>[^\s/]+)\.(?P<ext>[A-Za-z0-9]{1,8})")
# A URL slug: lower-case parts joined by hyphens, three of them words of three letters or more
# ("lars-loekke-rasmussen", "34-totaal-aantal-actieve-allocatiepunten"), one of those no English word
# ("mother-in-law" is English; a chemical name's locants are no words: "glyceraldehyde-3-phosphate").
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+){2,}")
# An identifier in camel case with two capitalised words or more inside ("infoProductAccessService"; "iPhone",
# "eBay", "miRNA172" have fewer).
_CAMEL = re.compile(r"[a-z]+(?:[A-Z][a-z]+\d*){2,}")
_FUNCTION_WORDS = frozenset("a an the of in on at by to for and or with from de la le des du et".split())


def _extensions() -> frozenset[str]:
    import mimetypes

    mimetypes.init()
    return frozenset(e.lstrip(".").lower() for e in mimetypes.types_map)


def _file_name(token: str) -> bool:
    m = _FILE.fullmatch(token)
    if not m or m["ext"].lower() in ("com", "org", "net") or "@" in token:
        return False
    stem = m["stem"]
    if _slug(stem) or "_" in stem or (stem == stem.lower() and "-" in stem and m["ext"].islower()):
        return True  # a slug, a snake-case or lower-case hyphenated stem: a file whatever its extension (".parquet")
    return m["ext"].lower() in _EXTENSIONS and (stem == stem.lower() or bool(re.search(r"[-_\d%]", stem)))


def _roman(text: str) -> bool:
    """A Roman numeral written in one case: "xxiv", "XIII"; two upper-case letters only of I, V and X ("MC", "DC"
    are also abbreviations); "Mix", "Vivid", "Li" are words and names."""
    if not _ROMAN.fullmatch(text) or text != text.lower() and text != text.upper():
        return False
    if text == text.lower():
        return len(text) < 3 or not _english(text.rstrip("."))  # "mix", "dim" are words
    return len(text.rstrip(".")) >= 3 or set(text.rstrip(".")) <= set("IVX")


def _english(word: str) -> bool:
    """A word of English (`kg2tool.graph.names.english_word`), articles and the French function words of slugs too."""
    return word in _FUNCTION_WORDS or english_word(word)


def _slug(token: str) -> bool:
    words = [w for w in token.split("-") if w.isalpha() and len(w) >= 3]
    return bool(_SLUG.fullmatch(token)) and len(words) >= 3 and not all(map(_english, words))


_EXTENSIONS = _extensions()
# A compact IRI (W3C CURIE Syntax 1.0: prefix, colon, reference) whose reference holds a digit: a record's id in a
# catalogue ("imdb:nm0000002", "wikidata:Q832732", "doi:10.1000/182"); "Star Wars: Episode IV" has a space.
_CURIE = re.compile(r"[a-z][a-z0-9_.-]*:(?=\S*\d)[^\s:]+")
# A label of more words than this, in parts (" : ", ". ", " - ", "; ": a title with its subtitle, a catalogue entry
# with its notes), or of more than LONG_NAME_WORDS in all, is a description: nobody types it into a question.
MAX_NAME_WORDS, LONG_NAME_WORDS = 12, 16
_PARTS = re.compile(r" [:;-]+ |\. |; ")


@lru_cache(maxsize=1 << 16)  # asked of every anchor of every plan drawn; lemminflect copies its tables per call
def not_a_name(name: str) -> bool:
    """True for a label that names nothing a person would type on its own: a number of up to three digits or a
    Roman numeral ("365", "xxiv"), one or two lower-case letters ("v", "mr"), a part of a publication by its number
    ("Plate XXVII", "pt.II: fasc.2"), a file name ("lcu.xml"), a URL slug or a URL ("lars-loekke-rasmussen"), a
    camel-case identifier ("infoProductAccessService"), a compact IRI with a number ("imdb:nm0000002"), a label with
    a percent-escape or a `|` ("108|PLAAT%II") or
    an unfilled build variable ("Version $$QUDT_VERSION$$", "${version}"; a label in Jinja's syntax is printed as
    it is, like any other), or a description: more than `MAX_NAME_WORDS` words in parts, more than
    `LONG_NAME_WORDS` in all. Such an entity is still said as an answer, never as what a question is about."""
    text = name.strip()
    if not text or (text.isdigit() and len(text) <= 3) or (len(text) <= 2 and text.isascii() and text == text.lower()):
        return True
    if _PART.fullmatch(text) or _roman(text):
        return True
    if _CURIE.fullmatch(text):  # a compact IRI with a number ("imdb:nm0000002", "tmdb:10400"): an id, no name
        return True
    if "://" in text or "|" in text or re.search(r"%[0-9A-Fa-f]{2}|%[A-Z]|\$\$\w+\$\$|\$\{\w+\}", text):
        return True
    words = len(text.split())
    if words > LONG_NAME_WORDS or (words > MAX_NAME_WORDS and _PARTS.search(text)):
        return True
    return any(_file_name(t) or _slug(t) or _CAMEL.fullmatch(t) for t in text.split())


def made_up_name(kg, eid: int) -> bool:
    """True for a name kg2tool had to tell apart from a homonym ("Cambridge (Location, no. 2)", "Poland (Country)":
    `kg2tool.graph.names.unique_names`): nobody would type it, so it is never named in a question."""
    label = kg.labels[eid]
    return bool(label) and kg.name(eid) != label and kg.name(eid).startswith(label + " (")


def unsaid_anchor(kg, plan) -> str | None:
    """Why no question names the plan's anchors, or None: a name kg2tool made up (`made_up_name`), a label with its
    own note ("Posen (now Poznan, Poland)", "Germany (now Poland)": `annotated_name`, rejected by readers wherever
    named; any label with a parenthesis: "California Institute of Technology (Caltech)"), a placeholder node (`placeholder`),
    a label that names nothing on its own (`not_a_name`: a page number, a file name, a slug)."""
    eids = list(anchors(plan))
    for why, bad in (("made_up_name", lambda e: made_up_name(kg, e)), ("annotated_name", lambda e: annotated(kg.name(e)) or "(" in (kg.labels[e] or "")),
                     ("placeholder", lambda e: is_placeholder(kg.name(e))), ("not_a_name", lambda e: not_a_name(kg.name(e)))):  # fmt: skip
        if any(map(bad, eids)):
            return why
    return None


__all__ = ["PLACEHOLDERS", "annotated", "is_placeholder", "made_up_name", "not_a_name", "unsaid_anchor"]
