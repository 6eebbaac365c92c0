"""Names of entities: readable local names of IRIs, language preference, cleaned text, the lenient lookup key,
display names unique per entity, and the name accessors both graph kinds share.

- The preferred text of an entity is chosen by language: the exact `--lang` tag, then the same base language
  (`en-GB` for `en`), then untagged text, then any other language; ties by tag, then by text (deterministic).
- A display name is the label, or for a label shared by several entities the label with the entity's
  description, kind, local name or namespace in parentheses (never an IRI or an opaque id), so that every entity
  has its own name.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from urllib.parse import unquote

from .hygiene import is_opaque_id
from .vocabularies import VOCABULARY_LABELS, code_list_name

# Fragments that say "the thing this document describes" by the hash-URI convention of Linked Data (W3C, "Cool
# URIs for the Semantic Web", 2008: `http://www.example.com/about#alice`, FOAF's `#me`, `#this`, `#i`, `#id`): the
# thing is named by the document's local part (`.../id/thrace#this` -> `thrace`).
_SELF_FRAGMENTS = {"this", "me", "i", "id", "it", "self", "thing", "subject", "entity", "resource", "object"}


def readable_local_name(iri: str) -> str:
    """The readable local part of an IRI: `http://ex.org/Barack_Obama` -> `Barack Obama`; `.../resource/ZeroX`
    stays `ZeroX`; `.../id/thrace#this` -> `thrace` (`_SELF_FRAGMENTS`); an IRI without a local part comes back
    whole."""
    base, _, frag = iri.rstrip("/#").rpartition("#")
    if base and frag.lower() in _SELF_FRAGMENTS:
        iri = base
    local = re.split(r"[#/:]", iri.rstrip("/#"))[-1] or iri
    local = unquote(local).replace("_", " ").strip()
    return local or iri


# A Freebase-style schema id: lower-case segments joined by dots (`people.person`, `film.film.directed_by`).
_DOTTED_ID = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+")
_KEBAB_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


# YAGO's classes are WordNet nouns with the synset's id: `yago:Album106591815` (DBpedia), `wordnet_album_106591815`
# (YAGO 3); the id is no word: the class is said by its noun.
_WORDNET = re.compile(r"^wordnet_|(?<=[A-Za-z])_?1?\d{8}$")


# Freebase property names that are no English word: a mailing address's `citytown` is its city.
_FREEBASE_WORDS = {"citytown": "city"}


def schema_name(iri: str) -> str:
    """The readable name of a predicate or class without a label, by the naming conventions of public graphs:
    - Freebase / WebQSP ids name a property after its domain and type (`people.person.place_of_birth` ->
      `place of birth`, a type `people.person` -> `person`), and a path through a mediator node joins two ids
      with `..` (`film.film.starring..film.performance.actor` -> `actor`: what the path leads to);
    - YAGO's WordNet classes by their noun (`Album106591815` -> `Album`, `wordnet_album_106591815` -> `album`);
    - snake_case and leading or trailing underscores (`_published_in` -> `published in`), and kebab-case
      identifiers (`lead-singer` -> `lead singer`);
    otherwise the readable local name (`readable_local_name`; camelCase is split by the relation lexicon)."""
    local = unquote(re.split(r"[#/:]", iri.rstrip("/#"))[-1])
    local = _WORDNET.sub("", local) or local
    if ".." in local:
        local = local.rsplit("..", 1)[1]
    if _DOTTED_ID.fullmatch(local):
        local = local.rsplit(".", 1)[1]
    if _KEBAB_ID.fullmatch(local):
        local = local.replace("-", " ")
    local = " ".join(local.replace("_", " ").split())
    return _FREEBASE_WORDS.get(local, local) or readable_local_name(iri)


_PASCAL_PART = re.compile(r"[A-Z][a-z]+|[A-Z]+(?=[A-Z][a-z]|$)|[0-9]+")


# A local name led by its class and a dot (`Topic.Graph`, `Author.Moritz_Hardt`, `LearningPath.Modeling`): the
# class word is no part of the name.
_CLASS_PREFIX = re.compile(r"[A-Z][a-z]{3,}(?:[A-Z][a-z]+)*\.(?=[A-Za-z])")  # a class word, not `St.`, `Mrs.`


_LINKING_WORDS = frozenset("of in on at to for by from with and or de du des von van".split())  # a title goes on: "A ..."


def entity_name_from_iri(iri: str, classes: Iterable[str] = (), kebab: bool = False) -> str:
    """The name of an entity without a label: its readable local name (`readable_local_name`), PascalCase split
    into words, a number its own word (`UnitedStatesOfAmerica` -> `United States Of America`, `Zinfandel1998` ->
    `Zinfandel 1998`; `ZeroX`, `iPhone`, `R2D2` stay), camelCase of English words said in lower case (`notKnown`
    -> `not known`; `eBay`, `iPhone` stay), without the name of one of its `classes` (type IRIs; for an untyped
    node, the classes of its namespace) in front (`Film_Frost_Nixon_2008` of a Film: `Frost Nixon 2008`; not
    "Person of Interest"), hyphens read as spaces in a capitalised name where the namespace mints its IRIs in kebab
    case (`kebab`: kg2tool.graph.hygiene.kebab_namespaces), and never the IRI itself (an IRI without a readable
    local part gives its host)."""
    if said := code_list_name(iri):  # a public code list's code (`.../authority/language/FRA`: French)
        return said
    local = readable_local_name(iri)
    parts = local.split("-")
    if kebab and local != iri and local[:1].isupper() and all(p.isalpha() for p in parts) and local != local.upper():
        # kebab case: `Georgetown-University` is Georgetown University; a lower-case slug stays one (no name:
        # kg2tool.synth.checks.unsaid.not_a_name), and so do codes (`XA-DE`, `A-1E0L0I0M0H0T0D0`)
        local = " ".join(parts)
    if (m := _CLASS_PREFIX.match(local)) and local != iri:  # `Topic.Graph`, `Media.MongoDB`: the class, then the name
        local = local[m.end() :]
    for cls in sorted(classes):  # an IRI minted as Class_Name: `Person_Ron_Howard`, `Film_Frost_Nixon_2008`
        word = readable_local_name(cls)
        rest = local[len(word) + 1 :] if local.startswith(word + " ") and local != iri else ""
        if re.search(r"[^\W\d_]{2}", rest) and rest.split()[0] not in _LINKING_WORDS:  # not "Person of Interest"
            local = rest
            break
    if local == iri:
        from urllib.parse import urlsplit

        try:
            return urlsplit(iri).netloc or iri.split(":", 1)[-1].strip("/") or "unnamed"
        except ValueError:
            return "unnamed"
    if " " not in local and local[:1].isupper():
        parts = _PASCAL_PART.findall(local)
        if len(parts) >= 2 and "".join(parts) == local and all(len(p) >= 2 or p.isdigit() for p in parts):
            return " ".join(parts)
    if " " not in local and local[:1].islower():  # `notKnown`, `creationOfNursingCarePlans`: English words
        parts = _CAMEL_PART.findall(local)
        if len(parts) >= 2 and "".join(parts) == local and all(len(p) >= 2 and english_word(p.lower()) for p in parts):
            return " ".join(p.lower() for p in parts)
    return local


_CAMEL_PART = re.compile(r"^[a-z]+|[A-Z][a-z]+")
_FUNCTION_WORDS = frozenset("of to for and or with at by on as from".split())


@lru_cache(maxsize=65536)
def english_word(word: str) -> bool:
    """True for a word of English: one lemminflect's dictionary knows, or a preposition or conjunction."""
    import lemminflect

    return word in _FUNCTION_WORDS or bool(lemminflect.getAllLemmas(word))


def lang_rank(lang: str | None, pref: str) -> int:
    """How well a language tag fits the preferred language `pref` (lower is better): 0 the same tag, 1 the same
    base language, 2 no tag or ISO 639's `mul` (a text for many languages: Wikidata's default labels), 3 another
    language. Only ranks below 3 count as the preferred languages."""
    if lang and lang.lower() == pref.lower():
        return 0
    if lang and lang.lower().split("-")[0] == pref.lower().split("-")[0]:
        return 1
    if not lang or lang.lower() == "mul":
        return 2
    return 3


def pick_texts(values: list[tuple[str, str | None]], pref: str) -> list[str]:
    """The texts of `(text, language tag)` pairs ordered by language preference (`lang_rank`), then tag, then
    text (deterministic); the first one is the preferred text."""
    return [v for v, _ in sorted(values, key=lambda x: (lang_rank(x[1], pref), x[1] or "", x[0]))]


def clean_text(s: str, limit: int = 500) -> str:
    """`s` with HTML character references decoded (`Universit&eacute;` -> `Université`: some datasets store
    labels HTML-escaped), every run of whitespace made one space, cut to `limit` characters (the last one an
    ellipsis)."""
    s = str(s)
    if "&" in s and ";" in s:
        s = html.unescape(s)
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 1] + "\u2026"


# A label's trailing punctuation that belongs to the sentence it was cut from, not to the name: a colon, semicolon
# or comma, or a full stop after a number ("6 maart 1941." -> "6 maart 1941"); a stop after a word stays ("Jr.").
_TRAILING = re.compile(r"(?:\s*[:;,]+|(?<=\d)\.)$")


# CIDOC-CRM (ISO 21127) and the models built on it (FRBRoo, CRMdig, ...) number their classes and properties in the
# label: "E39 Actor", "P52 has current owner", "P14i performed", `P131_is_identified_by`. The code is no word.
_CODE = re.compile(r"(?:^|(?<=[ _]))[A-Za-z]\d{1,3}i?(?:[ _.:]+|(?=[A-Z][a-z]))(?=[A-Za-z])")


def without_codes(label: str) -> str:
    """`label` without CIDOC-CRM-style codes ("E22 Man-Made Object" -> "Man-Made Object", "p108i was produced by
    P4 has time span" -> "was produced by has time span"); the label itself when nothing would be left."""
    return _CODE.sub("", label).strip() or label


_TENSES = re.compile(r"\b([a-z]+) or ([a-z]+)\b")


def one_tense(words: str) -> str:
    """`words` with each pair of two forms of one verb joined by "or" said by its first ("is or was regulated by"
    -> "is regulated by", "has or had holder" -> "has holder", "performs or performed" -> "performs"): a vocabulary
    that leaves open whether a fact still holds (ICA's Records in Contexts) says it once, where a person says one
    tense."""
    if " or " not in words:
        return words

    from lemminflect import getAllLemmas

    def lemmas(word: str) -> set[str]:
        return {x for forms in getAllLemmas(word, "VERB").values() for x in forms}

    return _TENSES.sub(lambda m: m[1] if m[1] != m[2] and lemmas(m[1]) & lemmas(m[2]) else m[0], words)


def kind_qualifier(type_label: str) -> str:
    """A type label as the qualifier that tells homonyms apart, a common noun as in Wikipedia's "Mercury
    (planet)": without a CIDOC-CRM code, a one-word camelCase name split, capitalised words lowercased, acronyms
    kept ("TopicalDescriptor" -> "topical descriptor", "E22 Man-Made Object" -> "man-made object", "DNA Sequence"
    -> "DNA sequence")."""
    label = without_codes(type_label.strip())
    if " " not in label:
        label = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", label.replace("_", " "))
    return " ".join(w if (w.isupper() and len(w) > 1) or not w[:1].isupper() else w.lower() for w in label.split())


def clean_label(s: str) -> str:
    """`clean_text` for a label or alternative label, without `_TRAILING` punctuation (unless nothing is left), and
    without the parts in another script of a label that joins one name in two scripts (`_one_script`)."""
    s = clean_text(s)
    s = _TRAILING.sub("", s) or s
    return _one_script(s) if (" \u2014 " in s or " \u2013 " in s or " / " in s) else s


_SCRIPT_SEP = re.compile(r" (?:\u2014|\u2013|/) ")


def _latin(part: str) -> bool | None:
    """Whether the letters of `part` are Latin (None when it has no letter, or letters of both kinds)."""
    kinds = {  # letters only: a modifier letter (the half ring of `Talʿafar`) belongs to no script
        unicodedata.name(ch, "").startswith("LATIN") for ch in part if ch.isalpha() and unicodedata.category(ch) != "Lm"
    }
    return next(iter(kinds)) if len(kinds) == 1 else None


def _one_script(s: str) -> str:
    """A gazetteer's display label that joins a name in Latin letters and the same name in another script with a
    spaced dash or slash ("Urmia \u2014 <the name in Syriac>") is said by its Latin part: a user types one
    name, in the script of the question."""
    parts = _SCRIPT_SEP.split(s)
    kinds = [_latin(p) for p in parts]
    if True in kinds and False in kinds and None not in kinds:
        return " \u2014 ".join(p for p, k in zip(parts, kinds) if k)
    return s


# Name properties: literal properties that name their subject, by the English of their local name or label (a
# head noun "name", "title" or "label", its modifier saying which one) and by public vocabularies. What a whole
# name is: the noun alone or with a modifier that picks the main one; what another name is: a modifier that says
# it is another one. A modifier that names a part or another thing ("given name", "font name", "job title", "book
# title") is neither.
_NAME_NOUNS = frozenset(("name", "title", "label", "appellation"))
_MAIN_NAME = frozenset("preferred pref full display official main primary canonical standard formatted proper".split())
_OTHER_NAME = frozenset("variant alternative alternate alt other also alias additional".split())
# FOAF's `title` is an honorific ("Mr", "Dr"), DBpedia's a person's office or rank: no name of their subject.
_HONORIFIC_TITLES = ("http://xmlns.com/foaf/0.1/title", "http://dbpedia.org/ontology/title",
                     "http://dbpedia.org/property/title")  # fmt: skip
# Public vocabularies' name properties whose local name is no English phrase: vCard's formatted name (`fn`),
# FOAF's `nick` (another name).
_KNOWN_NAME_PROPERTIES = {"http://www.w3.org/2006/vcard/ns#fn": "label", "http://xmlns.com/foaf/0.1/nick": "alt"}


def property_words(text: str) -> list[str]:
    """All the words of a property's local name or label, lower case (`realNameOfThePerson` -> ["real", "name",
    "of", "the", "person"], `last-name` -> ["last", "name"])."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text.replace("_", " ").replace("-", " ")).lower().split()


def name_words(text: str) -> list[str]:
    """The words of a property's local name or label, lower case, without a leading "has" and a trailing "of/for
    (the) X" (`preferredNameForThePerson` -> ["preferred", "name"], `hasTitle` -> ["title"])."""
    words = property_words(text)
    if words[:1] == ["has"]:
        words = words[1:]
    for i, w in enumerate(words):
        if w in ("of", "for") and i:
            return words[:i]
    return words


def name_property(iri: str, label: str = "") -> str:
    """How a literal property names its subject: "label" (its whole name: `foaf:name`, `dcterms:title`, `name`,
    `hasTitle`, `preferredNameForThePerson`), "alt" (another name: `variantNameForThePerson`, `otherName`,
    `foaf:nick`) or "" (no name, or a part of one: `givenName`, `fontName`, `jobTitle`, FOAF's honorific
    `title`), by the property's local name and by its label (either may say it)."""
    if iri in _KNOWN_NAME_PROPERTIES:
        return _KNOWN_NAME_PROPERTIES[iri]
    if iri in _HONORIFIC_TITLES:
        return ""
    for text in (schema_name(iri), without_codes(label)):
        words = name_words(text) if text else []
        if not words or words[-1] not in _NAME_NOUNS or len(words) > 2:
            continue
        if len(words) == 1 or words[0] in _MAIN_NAME:
            return "label"
        if words[0] in _OTHER_NAME:
            return "alt"
    return ""


def relation_label(iri: str, label: str) -> str:
    """The label of a relation (a property whose objects are things): `label`, else the words a public
    vocabulary's specification says it by (`VOCABULARY_LABELS`), else the readable local name (`schema_name`); a
    label that says a name ("name", "title") of a property whose local name says another thing is read by its
    local name (a name is text, no thing: a label copied from another property, as the Stardog tutorial's `member`
    labelled "name")."""
    if not label:
        return VOCABULARY_LABELS.get(iri) or schema_name(iri)
    local = schema_name(iri)
    if name_property("", label) and not name_property(iri) and not is_opaque_id(local):
        return local
    return label


# Links from a thing to its appellations (CIDOC-CRM, ISO 21127: P1 is identified by, P131 is identified by, P102
# has title, P48 has preferred identifier): nodes that hold one of its names or identifiers, no things of their own.
_APPELLATION_LINKS = frozenset(("is identified by", "identified by", "has title", "has preferred identifier"))
_APPELLATION_NOUNS = frozenset(("name", "appellation"))
# The text of an appellation node beside its label: RDF's main value (`rdf:value`), CIDOC-CRM's P190 has symbolic
# content.
APPELLATION_TEXTS = ("http://www.w3.org/1999/02/22-rdf-syntax-ns#value",
                     "http://www.cidoc-crm.org/cidoc-crm/P190_has_symbolic_content")  # fmt: skip


def appellation_link(iri: str, label: str = "") -> bool:
    """True for a link from a thing to its appellations (`_APPELLATION_LINKS`, by the words of its label or local
    name without a CIDOC-CRM code: `P131_is_identified_by`, `P102_has_title`)."""
    said = [" ".join(without_codes(t).lower().replace("_", " ").split()) for t in (label, schema_name(iri)) if t]
    if any(t in _APPELLATION_LINKS for t in said):
        return True
    # a link named by "has" and a noun phrase whose head is "name" ("has or had agent name", "has variant name"):
    # what it points at is a name of the subject
    text = label or schema_name(iri)
    words = one_tense(" ".join(w.lower() for w in (text.split() if " " in text else _camel_words(text)))).split()
    return len(words) >= 2 and words[0] == "has" and words[-1] in _APPELLATION_NOUNS


# Links from a thing to the record about its description (who catalogued it, when, under which rules, its
# licence), not to the thing: BIBFRAME 2's administrative metadata (id.loc.gov/ontologies/bibframe), POWDER's
# `describedby` (used by the GND and other authority files).
RECORD_LINKS = frozenset(
    ("http://id.loc.gov/ontologies/bibframe/adminMetadata", "http://www.w3.org/2007/05/powder-s#describedby")
)


def appellations(
    rel_edges: dict, pred_label: Callable[[str], str], type_labels: Callable, texts: Callable
) -> tuple[set, dict]:
    """The appellation nodes of a graph and the names they give: (the nodes, and their parts reached only through
    them, which are no entities; owner -> [(text, language tag)] of the names of its appellations). `rel_edges`:
    predicate -> (subject, object) pairs; `type_labels(node)`: its class labels; `texts(node)`: its label and
    `APPELLATION_TEXTS` values as (text, tag). An identifier (its class or link says "identifier", or its text is
    an opaque id) names nothing: it is dropped without a name; so is the record about a description
    (`RECORD_LINKS`), with what only it links to (the cataloguing agency, the rules it follows)."""
    owners: dict = defaultdict(set)
    ids: set = set()
    for p in sorted(rel_edges):
        if p in RECORD_LINKS or appellation_link(p, pred_label(p)):
            said = p in RECORD_LINKS or "identifier" in pred_label(p).lower() or "identifier" in p.lower()
            for s, o in rel_edges[p]:
                owners[o].add(s)
                if said:
                    ids.add(o)
    if not owners:
        return set(), {}
    drop = set(owners)
    incoming: dict = defaultdict(set)
    for pairs in rel_edges.values():
        for s, o in pairs:
            incoming[o].add(s)
    grown = True
    while grown:  # the parts of a name (a family name, a given name) reached only through appellations
        grown = False
        for o, subjects in incoming.items():
            if o not in drop and subjects <= drop:
                drop.add(o)
                grown = True
    names: dict = defaultdict(list)
    for o in sorted(owners):
        if o in ids or any("identifier" in t.lower() for t in type_labels(o)):
            continue
        said = [(t, lg) for t, lg in texts(o) if t and not is_opaque_id(t)]
        for s in sorted(owners[o]):
            if s not in drop:
                names[s].extend(said)
    return drop, dict(names)


_ASCII_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def normalize_name(s: str) -> str:
    """Case-, accent-, space- and punctuation-insensitive key used for lenient name lookup (may be empty)."""
    if s.isascii():  # the same key, 5x faster: NFKD and casefold change nothing here but the case
        return _ASCII_NON_ALNUM.sub("", s.lower())
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "", s.casefold())


# Path words of Linked Data IRIs that name no kind of thing (`/resource/`, `/entity/`, `/id/`, `/ns/`).
_PATH_WORDS = frozenset("ns id resource resources entity entities item items object objects thing things page data node".split())
_HOST_WORDS = frozenset(("www", "data", "com", "org", "net", "rdf", "lod", "ld", "id", ""))  # `rdf.freebase.com`


def _namespace(iri: str) -> tuple[str, str]:
    """(the path segment before the local part, the host's main label) of an IRI, for telling apart homonyms:
    `http://data.nobelprize.org/resource/city/Naples` -> ("city", "nobelprize")."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(iri)
    except ValueError:
        return "", ""
    segs = [seg for seg in re.split(r"[/#]", parts.path) if seg]
    folder = unquote(segs[-2]).replace("_", " ") if len(segs) >= 2 else ""
    if folder.lower() in _PATH_WORDS:  # Freebase's `ns`, DBpedia's `resource`: says nothing
        folder = ""
    host = [h for h in parts.netloc.lower().split(".") if h not in _HOST_WORDS]
    return folder, (host[0] if host else "")


_WORDS = re.compile(r"[^\W_]+")


def _camel_words(text: str) -> list[str]:
    """The words of a text with camelCase split, lower case ("forwardIntoArchive" -> [forward, into, archive]): a
    local name that only restates the label in another case tells nothing apart."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", text)]


class _Disambiguators:
    """The texts that may follow a shared label in parentheses, best first: the description, the kind (a type
    label), the readable local name, the IRI's folder and host; never an opaque id (a number, a Wikidata id). A
    sequence of 5 ("" where a text is unusable); the IRI is parsed for its folder and host only when one of them
    is asked for (most groups of homonyms are told apart before)."""

    __slots__ = ("lab", "iri", "vals", "at")

    def __init__(self, i: int, lab: str, description, kind, entities):
        self.lab, self.iri = lab, entities[i]
        desc = qualifier(clean_text(description(i), 80), lab)
        local = entity_name_from_iri(self.iri)
        # a long description makes a long name: the kind, local name or folder first when one of them is unique
        if len(desc) <= 60:
            self.vals, self.at = [self._ok(desc), self._ok(kind(i)), self._ok(local), None, None], 3
        else:
            self.vals, self.at = [self._ok(kind(i)), self._ok(local), None, self._ok(desc), None], 2

    def _ok(self, g: str) -> str:
        same = _WORDS.findall(g.lower()) == _WORDS.findall(self.lab.lower()) or _camel_words(g) == _camel_words(self.lab)
        return g if g and not same and not is_opaque_id(g) and "://" not in g else ""

    def __getitem__(self, level: int) -> str:
        got = self.vals[level]
        if got is None:
            folder, host = _namespace(self.iri)
            self.vals[self.at], self.vals[4] = self._ok(folder), self._ok(host)
            got = self.vals[level]
        return got

    def __iter__(self):
        return (self[level] for level in range(5))


_SENTENCE_END = re.compile(r"(?<=[a-z]{2})[.!?]\s+(?=[A-Z])")
_ARTICLE = re.compile(r"^(?:A|An|The)\s+(?=[a-z])")


def qualifier(desc: str, label: str) -> str:
    """A description as the qualifier in parentheses after a shared name, by the convention of Wikipedia's
    disambiguated titles ("Mercury (planet)"): a noun phrase, not a definition. Its first sentence only, without
    a final stop or a leading article ("A class of road between X and Y." -> "class of road between X and Y"); ""
    when it opens with the name itself ("historic (historic For historic places ...)" repeats the name); without
    a parenthesis of its own (parentheses are not nested)."""
    first = re.sub(r"(?<=[a-z]{2})\.$", "", _SENTENCE_END.split(desc, maxsplit=1)[0].strip())
    first = _ARTICLE.sub("", first)
    # a parenthesis inside the parentheses nests them, which English typography avoids: the note goes without it
    # ("British science fiction writer and humorist (1952–2001)" -> "British science fiction writer and humorist")
    first = re.sub(r"\s*\([^()]*\)", "", first).strip() if "(" in first else first
    repeats = (first.lower() + " ").startswith(label.lower() + " ")
    return "" if not first or repeats else first


def _numbered(name: str, k: int) -> str:
    """`name` with the ordinal k: "Cambridge (Location)" -> "Cambridge (Location, no. 2)", "Paris" -> "Paris (no. 2)"."""
    return f"{name[:-1]}, no. {k})" if name.endswith(")") else f"{name} (no. {k})"


def _noted(label: str, note: str) -> str:
    """`label` with the homonym `note` in parentheses; a label that already ends with a note takes it inside
    ("Unconscious (Psychology)" -> "Unconscious (Psychology, concept)"), as `_numbered` does."""
    return f"{label[:-1]}, {note})" if label.endswith(")") and "(" in label else f"{label} ({note})"


def unique_names(
    labels: Sequence[str],
    description: Callable[[int], str],
    entities: Sequence[str],
    kind: Callable[[int], str] | None = None,
) -> list[str]:
    """Display names, unique per entity: the label, or for a label shared by several entities the label with a
    disambiguator in parentheses: the first of the entity's description (`description(i)`), kind (`kind(i)`, a
    type label), readable local name, IRI folder and IRI host that no other entity of the group shares. Opaque
    ids (numbers, Wikidata ids) and IRIs are never used; what still collides gets "no. 2", "no. 3", ...

    `labels` and `entities` (IRIs) are indexed by entity id; `description` and `kind` are asked only for entities
    whose label is shared; returns one name per entity, in id order."""
    kind = kind or (lambda i: "")
    by_label: dict[str, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels):
        by_label[lab].append(i)
    names = list(labels)
    for lab, ids in by_label.items():
        if len(ids) == 1:
            continue
        cands = {i: _Disambiguators(i, lab, description, kind, entities) for i in ids}
        counts: dict[int, Counter] = {}  # level -> how many of the group have each text there (counted when asked)
        for i in ids:
            for level, c in enumerate(cands[i]):
                if not c:
                    continue
                if level not in counts:
                    counts[level] = Counter(cands[j][level] for j in ids)
                if counts[level][c] == 1:
                    names[i] = _noted(lab, c)
                    break
            else:
                first = next((c for c in cands[i] if c), "")
                names[i] = _noted(lab, first) if first else lab
    # last resort: anything still colliding gets an ordinal (rare: same label and the same texts everywhere)
    seen: dict[str, int] = {}
    taken = set(names)
    next_number: dict[str, int] = {}  # the numbers below it are taken: a name shared 10,000 times stays linear
    for i, n in enumerate(names):
        if n in seen:
            k = next_number.get(n, 2)
            names[i] = _numbered(n, k)
            while names[i] in taken:
                k += 1
                names[i] = _numbered(n, k)
            next_number[n] = k + 1
            taken.add(names[i])
        seen[names[i]] = i
    return names


class EntityNames:
    """Accessors shared by the in-memory `KnowledgeGraph` and the on-disk `StoreGraph`: both hold `entities`,
    `names`, `labels`, `alt_labels` indexed by entity id, `relations`, `attributes` and a `resolve(name)`."""

    def __len__(self) -> int:
        return len(self.entities)

    def summary(self) -> str:
        """One line: the number of entities, relations (and their edges) and attributes."""
        n_edges = sum(r.support for r in self.relations.values())
        return (
            f"{len(self.entities):,} entities, {len(self.relations)} relations ({n_edges:,} edges), "
            f"{len(self.attributes)} attributes"
        )

    def name(self, eid: int) -> str:
        """The display name of entity `eid`."""
        return self.names[eid]

    def acceptable_names(self, eid: int) -> list[str]:
        """Every string that resolves to this entity: display name first, then label and alternative labels."""
        out = [self.names[eid]]
        for text in (self.labels[eid], *self.alt_labels[eid]):
            if text not in out and self.resolve(text) == eid:
                out.append(text)
        return out

    def entity_names(self) -> list[str]:
        """The display names of all entities, in id order (a new list)."""
        return list(self.names)


__all__ = [
    "EntityNames",
    "clean_text",
    "english_word",
    "entity_name_from_iri",
    "lang_rank",
    "normalize_name",
    "pick_texts",
    "readable_local_name",
    "schema_name",
    "unique_names",
]
