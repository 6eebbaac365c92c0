"""Real-graph hygiene shared by the in-memory load (kg2tool.graph.build) and the on-disk store's index: which
relation edges are kept, which become URL attributes, and which nodes are never shown to a user.

Rules, applied after the pass over the triples (they need to know which nodes have a label or outgoing triples):
- A node without any label whose local name is an opaque id (a number, a Wikidata id or statement id, a Freebase
  machine id, a UUID, a long hex string) is dropped with its edges and values: it would be an entity named "13951335" or
  "Q181795-7ED1FB19-...". Such nodes are mostly the intermediate nodes of reified n-ary relations (a film role,
  an award record, a statement).
- So is an unlabelled node whose local part is a catalogue code (`C100110`) in a namespace whose other nodes are
  labelled (`named_namespaces`): the graph forgot its name (a class outside a thesaurus subset).
- A relation whose every object is a *link* becomes a string attribute holding the object IRIs (URLs): a link is
  an http(s) IRI without a label and without outgoing triples that names a document or image (by its file
  extension), a web site, or an opaque record on another host than its subject (a PubMed record, a Wikidata
  item). Link-only relations are decided before opaque nodes are dropped, so such links are kept as URLs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from .predicates import PREPOSITIONS

# Numbers, Wikidata ids (Q42, P31, L1, statement ids), Freebase machine ids (m.0d05w3, g.11b6ddnq6x), long hex, UUIDs.
_OPAQUE = re.compile(
    r"\d+|\d+-[a-z]+|(?=(?:[a-z]*\d){2})(?=(?:\d*[a-z]){2})[a-z0-9]{6,}|.*\d{4}-\d{3}[\dxX]\..*|[a-z]+(?:-[a-z]+)*-(?=[a-z]*\d)[0-9a-z]{8,}|[QPLM]\d+([-$][0-9A-Fa-f-]+)?|[mg]\.[0-9][0-9a-z_]+|(?:[A-Za-z]+[-_ ])?[0-9A-Fa-f]{16,}|.*[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-"
    r"[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}.*"
)
_DOC_EXT = re.compile(r"\.(jpe?g|png|gif|svg|webp|tiff?|bmp|pdf|html?|php|aspx?|txt|docx?|xlsx?|mp[34]|og[gv])$", re.I)


# A feed's structure, not its data: the TREE hypermedia specification's pages and relations (`tree:member`,
# `tree:relation`) and Linked Data Event Streams' own terms. Their predicates are never relations.
FEED_NAMESPACES = ("https://w3id.org/tree#", "https://w3id.org/ldes#")
# ActivityStreams 2.0's activities that record a change to a thing (W3C Activity Vocabulary: Create, Update,
# Delete, Add, Remove, Move): the event of publishing it, as an event stream lists its members, no thing to ask about
# (readers: "Which event streams have X as their create object?"). Other activities (a Like, a Follow) stay.
_AS = "https://www.w3.org/ns/activitystreams#"
CHANGE_ACTIVITIES = frozenset(
    ns + c
    for ns in (_AS, "http://www.w3.org/ns/activitystreams#")
    for c in ("Create", "Update", "Delete", "Add", "Remove", "Move")
)


# An OWL ontology's header (`owl:Ontology`): the document that holds the schema, its version, maturity and imports,
# no thing the data is about.
OWL_ONTOLOGY = "http://www.w3.org/2002/07/owl#Ontology"


def change_records(typed: Iterable[tuple[Hashable, Iterable[str]]]) -> set:
    """The nodes among `typed` (node, its type IRIs) that record a change (`CHANGE_ACTIVITIES`), are a feed's own
    (an event stream, its pages: a class of `FEED_NAMESPACES`) or an ontology's header (`OWL_ONTOLOGY`): records of
    publishing, no things; dropped with their links and values by both loaders."""
    return {
        s
        for s, types in typed
        if any(t in CHANGE_ACTIVITIES or t == OWL_ONTOLOGY or t.startswith(FEED_NAMESPACES) for t in types)
    }


def wordless(text: str) -> bool:
    """True when `text` (how a relation or attribute is said) has no word: no preposition ("in" is a relation's
    word) and no run of three letters or more that is no opaque id ("c 10001 p 10004": the RDA Registry's numbered
    elements, a label made of an IRI's codes). Nothing can be asked with it; a user names it in lexicon.yaml."""
    words = re.findall(r"[^\W\d_]+", text)
    return not any(w.lower() in PREPOSITIONS or (len(w) >= 3 and not is_opaque_id(w)) for w in words)


def local_part(iri: str) -> str:
    """The last segment of an IRI after `/`, `#` or `:` (may be empty)."""
    return re.split(r"[#/:]", iri.rstrip("/#"))[-1]


def is_opaque_id(text: str) -> bool:
    """True when `text` (a label or the local part of an IRI) is an identifier no user would say: a number, a
    record's counter with its class word (`108-annotation`), a catalogue key of lower-case letters and digits
    (`igch0280`, `p03tqbz`), a random mixed-case key (`gzNoWGDHpBcr`), a slug with a key
    (`karen-ryckbosch-2o4vg0tf3iklb`), a DOI or ISSN-numbered key (`j.1468-0092.2008.00303.x`), a Wikidata
    item/property/statement id, a UUID, a long hex string, alone or after a class word
    (`membership_bd17e2d21cbc5a487c852bea4809dbbe`), a short hex key (`a130a`), a name around a number of seven
    digits or more (`IT-0100127432_parthood`), hex letters that are no word (`bdafb`), or such keys and numbers
    joined (`ide660d29b_2`), a zero-padded counter joined to numbers, keys or a short class word (`009663-005075`,
    `top-059801`, `051211-c1nnlr73poqk--1gz4re3oz7wxp-i2`), or a slug ending in a hash digest
    (`Nomination_dga_2008_..._frost_nixon_a6b4b0fd30eebdb7`)."""
    text = text.strip()
    if _COUNTED_CLASS.fullmatch(text):  # `68322PathwayStep920`: a record's numbers around its class word
        return True
    if _OPAQUE.fullmatch(text) or _random_key(text) or _SHORT_HEX.fullmatch(text) or _LONG_NUMBER.search(text):
        return True
    if _HEX_LETTERS.fullmatch(text):  # `bdafb`, `cddae`: hex letters only, and no English word (`faded`, `decaf`)
        import lemminflect

        return not lemminflect.getAllLemmas(text)
    parts = [p for p in re.split(r"[-_ ]+", text) if p]
    if len(parts) > 1 and _DIGEST.fullmatch(parts[-1]):  # a slug minted with a content hash, whatever it says
        return True
    keys = [p for p in parts if not p.isdigit()]  # `ide660d29b_2`; not a year range `1939-1945`
    if len(parts) > 1 and any(_PADDED.fullmatch(p) for p in parts):  # `009663-005075`, `top-059801`
        return all(is_opaque_id(k) or len(k) <= 3 or _CLASS_WORD.fullmatch(k) or _KEYISH.fullmatch(k) for k in keys)
    return len(parts) > 1 and bool(keys) and all(map(is_opaque_id, keys))


# A short lower-case hex key with digits and letters (GPML's graph ids `a130a`, `fee6e`, `dc535`), and a run of
# seven digits or more inside a name (a catalogue number: `IT-0100127432_parthood`): no one's name.
_SHORT_HEX = re.compile(r"(?:id)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{5,}")
_HEX_LETTERS = re.compile(r"[a-f]{5,}")
# A hash digest (twelve hex digits or more, digits and letters, one case) minted onto a record's slug
# (`Nomination_dga_2008_outstanding_directing_feature_film_frost_nixon_a6b4b0fd30eebdb7`): the words before it only
# repeat the record's fields; the key is what identifies it.
_DIGEST = re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{12,}|(?=[0-9A-F]*[A-F])(?=[0-9A-F]*\d)[0-9A-F]{12,}")
_LONG_NUMBER = re.compile(r"\d{7,}")
_COUNTED_CLASS = re.compile(r"\d+[A-Z][a-z]+(?:[A-Z][a-z]+)*\d+")
# A zero-padded number (`005075`): a record counter, never how a name writes a number (`ISO-8859-1`, `B-52`,
# `1939-1945` have none); joined to other numbers, keys, short codes or a short lower-case class word it is an id.
_PADDED = re.compile(r"0\d{2,}")
_CLASS_WORD = re.compile(r"[a-z]{1,5}|[A-Z]{1,4}")  # a class word or a fonds' code beside a counter: `top`, `FRAN`
# a lower-case key beside a counter: letters and digits mixed (`zu0efiq3ap4v`), or letters with at most one vowel
# (`ktmsglhlnhvr`)
_KEYISH = re.compile(r"(?=[a-z0-9]{6,}$)(?:(?=.*\d)(?=.*[a-z]).*|[^aeiouy]*(?:[aeiouy][^aeiouy]*)?)")
# Names are short: a local part of more than this many words is a text (a listing, a description), no name.
MAX_NAME_WORDS = 12
_WORD = re.compile(r"[^\W_]+")


def is_opaque_node(iri: str) -> bool:
    """True when an unlabelled node of IRI `iri` has no name a user would say: its local part is an opaque id
    (`is_opaque_id`), a text of more than `MAX_NAME_WORDS` words, or a code of a public code list (`_CODE_LIST`:
    ISO 639 languages, ISO 3166 countries, as id.loc.gov and lexvo.org publish them: `.../iso639-2/fre`), which
    names nothing without its label."""
    local = local_part(iri)
    if len(_WORD.findall(unquote(local))) > MAX_NAME_WORDS:
        return True  # a sentence or a listing made into an IRI names nothing a user types
    return is_opaque_id(local) or (len(local) <= 3 and bool(_CODE_LIST.search(iri)))


# A catalogue code: up to three letters and three digits or more, maybe dotted or hyphenated further, or two such
# codes run together (`C100110`, `D016027`, `B01.300.107`, a descriptor-qualifier pair `D009921Q000031`): what a
# thesaurus or catalogue calls its entries, not their names.
_CODE = re.compile(r"[A-Za-z]{0,3}\d{3,}(?:[A-Za-z]{1,3}\d{3,})?(?:\.\d+)*|[A-Za-z]{1,3}\d{2,}(?:\.\d+)+")
_NAMED_SHARE, _NAMED_MIN = 0.8, 20
# A code written as a label: a catalogue code with a letter in it, or a letter-prefixed number with two digits or
# more (`E05`, `C10.597.690`, `D016027`): a year or a plain number is a value people name things by, not a code.
_CODE_LABEL = re.compile(r"(?=.*[A-Za-z])(?:" + _CODE.pattern + r"|[A-Za-z]{1,3}\d{2,})")


def is_code_label(text: str) -> bool:
    """True when a node's label is a catalogue code (`_CODE_LABEL`: a MeSH tree number `C10.597.690`, `E05`), not
    a name: a node the graph names only by a code is an identifier, and the link to it says a value."""
    return _CODE_LABEL.fullmatch(text.strip()) is not None


def code_name(label: str, iri: str) -> str:
    """The code a node is named by: its label (`label`, "" when it has none: then its IRI's local part) when that
    is a code (`is_code_label`), else "". Both loaders ask it of relation objects (`tidy_edges`' `code_of`)."""
    text = label or local_part(iri)
    return text if is_code_label(text) else ""


def namespace(iri: str) -> str:
    """An IRI without its local part (`local_part`)."""
    return iri[: len(iri.rstrip("/#")) - len(local_part(iri))]


def namespace_classes(types: Iterable[str]) -> dict[str, frozenset[str]]:
    """The classes (type IRIs) a graph uses, by namespace (`namespace`): what an untyped node's IRI in that
    namespace may be minted from (`Film_Cinema_Paradiso_1990` beside the class `Film`)."""
    got: dict[str, set[str]] = {}
    for t in types:
        got.setdefault(namespace(t), set()).add(t)
    return {ns: frozenset(ts) for ns, ts in got.items()}


def kebab_namespaces(iris: Iterable[str]) -> frozenset[str]:
    """The namespaces that mint their IRIs in kebab case (`has-child`, `birth-place`, `Boston-University`): at least
    five local names of several parts there, four in five of them joined by hyphens alone (no `_`, no space). A
    hyphen in a local name there separates words; elsewhere it is part of a name ("Stratford-upon-Avon" among
    DBpedia's `Barack_Obama`)."""
    counts: dict[str, list[int]] = {}
    for iri in iris:
        local = local_part(iri)
        if "-" in local or "_" in local or "%20" in local:
            got = counts.setdefault(namespace(iri), [0, 0])
            got[0] += "_" not in local and "%20" not in local
            got[1] += 1
    return frozenset(ns for ns, (kebab, parts) in counts.items() if parts >= 5 and kebab >= 0.8 * parts)


def named_namespaces(nodes: Iterable[tuple[str, bool]]) -> frozenset[str]:
    """The namespaces whose nodes the graph names: at least `_NAMED_MIN` of the (IRI, labelled) `nodes` in it and
    `_NAMED_SHARE` of them labelled. A node there without a label is one the graph forgot to name (a class outside
    a thesaurus subset, a descriptor the sample does not describe)."""
    counts: dict = {}
    for iri, labelled in nodes:
        got = counts.setdefault(namespace(iri), [0, 0])
        got[0] += labelled
        got[1] += 1
    return frozenset(ns for ns, (named, every) in counts.items() if every >= _NAMED_MIN and named >= _NAMED_SHARE * every)


def is_forgotten_code(iri: str, named: frozenset[str]) -> bool:
    """True for an unlabelled node whose local part is a catalogue code (`_CODE`) in a namespace whose other nodes
    are named (`named_namespaces`): the code is all a user could call it (`C100110`), and the graph's own names say
    the code is not what its entries are called. Where a namespace's nodes are mostly unlabelled, a code stays the
    name (`WP1461`)."""
    return bool(named) and _CODE.fullmatch(local_part(iri)) is not None and namespace(iri) in named


# IRIs of public code lists: ISO 639 (languages) and ISO 3166 (countries), whatever the publisher.
_CODE_LIST = re.compile(r"iso[-_]?639|iso[-_]?3166", re.I)


def _random_key(text: str) -> bool:
    """A generated key (`gzNoWGDHpBcr`, `YOyP9TLDuhrb`, `CAuKexBhwcy1`, `p0gjgrsmhnc`): eight letters and digits or
    more, and either mixed-case letters with digits inside or three capitals or more after the first, or too few
    vowels for words (under a quarter, with a lower-case first letter and three capitals, or with a digit);
    `iPhone`, `eBay`, `McDonald`, `Windows95`, `R2D2` are names."""
    if len(text) < 8 or not text.isalnum():
        return False
    upper, lower, digits = (sum(map(f, text)) for f in (str.isupper, str.islower, str.isdigit))
    vowels = sum(c in "aeiouAEIOU" for c in text) / len(text)
    if upper and lower and digits:
        return bool(re.search(r"[A-Za-z]\d+[A-Za-z]", text)) or sum(c.isupper() for c in text[1:]) >= 3
    if digits and not upper:
        return vowels < 0.25
    return not digits and text[0].islower() and upper >= 3 and vowels < 0.25


def _host(iri: str) -> str:
    try:
        return urlsplit(iri).netloc.lower()
    except ValueError:
        return ""


def is_link(subject_iri: str, object_iri: str) -> bool:
    """True when `object_iri` (a node without label or outgoing triples) is a web link rather than a thing: an
    http(s) IRI that names a document or image (by its file extension), a web site (no path), a Wikipedia category
    page (`dbr:Category:1960_births`: navigation, not a fact), or a record on
    another host than `subject_iri` whose local name is an opaque id (a PubMed number, a Wikidata item)."""
    if not object_iri.startswith(("http://", "https://")):
        return False
    try:
        parts = urlsplit(object_iri)
    except ValueError:
        return False
    if _DOC_EXT.search(parts.path) or parts.path.strip("/") == "" or "/Category:" in parts.path:
        return True  # a document, a web site, or a Wikipedia category page (DBpedia's dct:subject objects)
    return _host(object_iri) != _host(subject_iri) and is_opaque_id(local_part(object_iri))


@dataclass
class Tidied:
    """What `tidy_edges` keeps: relation edges by predicate, URL values by predicate (subject node, IRI text), code
    values by predicate (subject node, the code), the opaque nodes dropped, and the number of edges dropped with
    them."""

    edges: dict = field(default_factory=dict)
    links: dict = field(default_factory=dict)
    codes: dict = field(default_factory=dict)
    opaque: set = field(default_factory=set)
    opaque_edges: int = 0


def tidy_edges(
    rel_edges: dict[str, Iterable[tuple[Hashable, Hashable]]],
    iri: Callable[[Hashable], str],
    labelled: Callable[[Hashable], bool],
    has_out: Callable[[Hashable], bool],
    forced: frozenset = frozenset(),
    named: frozenset = frozenset(),
    code_of: Callable[[Hashable], str] = lambda n: "",
) -> Tidied:
    """Apply the module's rules to relation edges (`rel_edges`: predicate -> (subject, object) node pairs; nodes
    are any hashable key, `iri(node)` its IRI). `labelled(node)`: the node has a label in any language;
    `has_out(node)`: the node is the subject of any triple. Predicates in `forced` (named by --include-predicate)
    stay relations; `named`: the namespaces whose unlabelled codes are dropped too (`named_namespaces`);
    `code_of(node)`: the node's label when it is a code (`is_code_label`), else "": a relation whose every object
    is named by a code becomes a string attribute of those codes. Returns a `Tidied` whose dicts are in sorted
    predicate order, edges sorted."""
    out = Tidied()
    opaque_cache: dict = {}

    def opaque(n) -> bool:
        got = opaque_cache.get(n)
        if got is None:
            got = opaque_cache[n] = not labelled(n) and (is_opaque_node(iri(n)) or is_forgotten_code(iri(n), named))
        return got

    for p in sorted(rel_edges):
        pairs = []
        for s, o in rel_edges[p]:
            if opaque(s):
                out.opaque_edges += 1
                out.opaque.add(s)
            else:
                pairs.append((s, o))
        if not pairs:
            continue
        pairs.sort()
        if p not in forced and all(not labelled(o) and not has_out(o) and is_link(iri(s), iri(o)) for s, o in pairs):
            out.links[p] = [(s, iri(o)) for s, o in pairs]
            continue
        kept = [(s, o) for s, o in pairs if not opaque(o)]
        out.opaque_edges += len(pairs) - len(kept)
        out.opaque.update(o for s, o in pairs if opaque(o))
        if kept and p not in forced and all(code_of(o) for _, o in kept):  # stops at the first object named by words
            out.codes[p] = [(s, code_of(o)) for s, o in kept]
        elif kept:
            out.edges[p] = kept
    return out


__all__ = [
    "CHANGE_ACTIVITIES", "FEED_NAMESPACES", "OWL_ONTOLOGY", "Tidied", "change_records", "code_name", "is_code_label", "is_forgotten_code", "is_link", "is_opaque_id", "kebab_namespaces", "local_part", "named_namespaces", "namespace", "namespace_classes", "tidy_edges", "wordless",
]  # fmt: skip
