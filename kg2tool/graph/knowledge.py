"""Load RDF files into a compact, read-only knowledge graph that the walker and the executor share.

Design choices:
- Parsing is rdflib's (Turtle, N-Triples, N-Quads, RDF/XML, JSON-LD; format by file extension, `.gz` allowed).
  Several files are merged into one rdflib graph, so duplicate triples across files count once.
- After parsing, one pass over the triples builds integer-indexed adjacency (`dict[int, tuple[int, ...]]` per
  relation, forward and inverse) and typed attribute tables; the rdflib graph is then dropped. Everything is
  sorted by IRI, so the same files give the same indexes whatever the parse order.
- An *entity* is an IRI that is the subject or object of a relation triple (a triple whose object is an IRI).
  Blank nodes get random ids from the parser, which would break determinism and cannot be named by a user;
  triples that touch them are skipped and counted in `LoadStats`.
- Names: the preferred label (rdfs:label, skos:prefLabel, schema:name; language by `lang`, then untagged, then
  any), else a readable form of the IRI's local part. `display_name` is unique per entity: a shared label gets
  the entity's description, or its local name, in parentheses. Tool arguments and results use display names.
- Literal objects of other predicates are typed attributes (integer, number, date, datetime, boolean, string).
  Literals whose lexical form is invalid for their datatype (`"abc"^^xsd:integer`) are skipped and counted.
"""

from __future__ import annotations

import gzip
import logging
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ..common.errors import InputError

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDF_PROPERTY = "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
XSD = "http://www.w3.org/2001/XMLSchema#"
WIKIDATA_P31 = "http://www.wikidata.org/prop/direct/P31"

LABEL_PREDICATES = (
    RDFS + "label",
    SKOS + "prefLabel",
    "http://schema.org/name",
    "https://schema.org/name",
)
ALT_LABEL_PREDICATES = (
    SKOS + "altLabel",
    "http://schema.org/alternateName",
    "https://schema.org/alternateName",
)
DESCRIPTION_PREDICATES = (
    "http://schema.org/description",
    "https://schema.org/description",
    RDFS + "comment",
    SKOS + "definition",
)
TYPE_PREDICATES = (RDF_TYPE, WIKIDATA_P31)
# Predicates about the schema itself, never turned into relation tools.
META_PREDICATES = frozenset(
    LABEL_PREDICATES
    + ALT_LABEL_PREDICATES
    + DESCRIPTION_PREDICATES
    + TYPE_PREDICATES
    + (RDFS + "domain", RDFS + "range", RDFS + "subPropertyOf", RDFS + "subClassOf", RDFS + "seeAlso")
)

# File extension -> rdflib parser name.
FORMATS = {
    ".ttl": "turtle",
    ".turtle": "turtle",
    ".n3": "n3",
    ".nt": "nt",
    ".ntriples": "nt",
    ".nq": "nquads",
    ".nquads": "nquads",
    ".rdf": "xml",
    ".xml": "xml",
    ".owl": "xml",
    ".jsonld": "json-ld",
    ".json": "json-ld",
}

_INTEGER_TYPES = {
    "integer", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger",
    "nonPositiveInteger", "negativeInteger", "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte",
}  # fmt: skip
_NUMBER_TYPES = {"decimal", "double", "float"}


@dataclass(frozen=True)
class Relation:
    """A predicate linking two entities. `forward[s]` are the objects of s; `inverse[o]` the subjects of o."""

    iri: str
    label: str
    description: str
    forward: dict[int, tuple[int, ...]]
    inverse: dict[int, tuple[int, ...]]

    @property
    def support(self) -> int:
        return sum(len(v) for v in self.forward.values())


@dataclass(frozen=True)
class Attribute:
    """A predicate with literal values of one kind: integer, number, date, datetime, boolean or string."""

    iri: str
    label: str
    description: str
    kind: str
    values: dict[int, tuple]  # entity id -> sorted JSON-ready values

    @property
    def support(self) -> int:
        return len(self.values)


@dataclass
class LoadStats:
    files: list[str] = field(default_factory=list)
    triples: int = 0
    relation_triples: int = 0
    attribute_values: int = 0
    blank_node_triples_skipped: int = 0
    ill_typed_literals_skipped: int = 0
    unlabeled_entities: int = 0


def detect_format(path: Path) -> tuple[str, bool]:
    """Return (rdflib format, gzipped?) from the file name, or raise InputError naming the file."""
    suffixes = [s.lower() for s in path.suffixes]
    gz = bool(suffixes) and suffixes[-1] in (".gz", ".gzip")
    ext = suffixes[-2] if gz and len(suffixes) >= 2 else (suffixes[-1] if suffixes and not gz else "")
    if ext not in FORMATS:
        known = ", ".join(sorted(FORMATS))
        raise InputError(
            f"{path}: cannot tell the RDF format from the extension {ext or '(none)'!r}; "
            f"use one of {known} (optionally followed by .gz)"
        )
    return FORMATS[ext], gz


def _read_text(path: Path, gz: bool) -> str:
    try:
        raw = gzip.decompress(path.read_bytes()) if gz else path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected an RDF file") from None
    except (OSError, EOFError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: the file is not valid UTF-8 (byte offset {exc.start})") from None


def _parse_error(path: Path, fmt: str, text: str, exc: Exception) -> InputError:
    """Turn an rdflib/SAX/JSON parser exception into an InputError naming the file and line."""
    line = None
    if hasattr(exc, "lines") and isinstance(exc.lines, int):  # notation3 BadSyntax: 0-based line index
        line = exc.lines + 1
    elif hasattr(exc, "getLineNumber"):  # xml.sax.SAXParseException
        line = exc.getLineNumber()
    elif isinstance(getattr(exc, "lineno", None), int):  # json.JSONDecodeError
        line = exc.lineno
    elif fmt in ("nt", "nquads"):
        line = _first_bad_line(text, fmt)
    msg = str(exc).strip().splitlines()
    reason = next((m for m in msg if m.strip() and not m.startswith("at line")), type(exc).__name__)
    where = f"{path}:{line}" if line else str(path)
    return InputError(f"{where}: malformed {fmt} ({reason.strip()[:200]})")


def _first_bad_line(text: str, fmt: str) -> int | None:
    """N-Triples/N-Quads errors carry no line number: find the first line that does not parse on its own."""
    import rdflib

    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            rdflib.Dataset().parse(data=line, format=fmt) if fmt == "nquads" else rdflib.Graph().parse(
                data=line, format=fmt
            )
        except Exception:
            return i
    return None


# -- linear-time parsing of long literals ------------------------------------------------------------------
# rdflib's Turtle, N-Triples/N-Quads and RDF/XML parsers build long literals by repeated string concatenation
# (Turtle: once per newline, escape or quote inside the literal; N-Triples: once per 2 KiB read of a long line,
# re-matching the whole line each time; RDF/XML: once per SAX `characters` event, i.e. per line or entity
# reference). A 5 MB multi-line description took minutes. The classes below give the same triples in linear time.


def _linear_strconst(self, argstr: str, i: int, delim: str):
    """rdflib's `SinkParser.strconst` (notation3.py, BSD-3) with the value collected in a list instead of by
    repeated `+=`; otherwise line for line the same rules and errors."""
    from rdflib.plugins.parsers.notation3 import BadSyntax, interesting

    delim1 = delim[0]
    delim2, delim3, delim4, delim5 = delim1 * 2, delim1 * 3, delim1 * 4, delim1 * 5
    j = i
    parts: list[str] = []
    startline = self.lines
    len_argstr = len(argstr)
    while j < len_argstr:
        if argstr[j] == delim1:
            if delim == delim1:
                return j + 1, "".join(parts)
            if delim == delim3:
                if argstr[j : j + 5] == delim5:
                    parts.append(delim2)
                    return j + 5, "".join(parts)
                if argstr[j : j + 4] == delim4:
                    parts.append(delim1)
                    return j + 4, "".join(parts)
                if argstr[j : j + 3] == delim3:
                    return j + 3, "".join(parts)
                j += 1
                parts.append(delim1)
                continue
        m = interesting.search(argstr, j)
        if not m:
            break  # unterminated: reported below
        i = m.start()
        parts.append(argstr[j:i])
        ch = argstr[i]
        if ch == delim1:
            j = i
            continue
        elif ch in {'"', "'"} and ch != delim1:
            parts.append(ch)
            j = i + 1
            continue
        elif ch in {"\r", "\n"}:
            if delim == delim1:
                raise BadSyntax(self._thisDoc, startline, argstr, i, "newline found in string literal")
            self.lines += 1
            parts.append(ch)
            j = i + 1
            self.startOfLine = j
        elif ch == "\\":
            j = i + 1
            ch = argstr[j : j + 1]
            if not ch:
                raise BadSyntax(self._thisDoc, startline, argstr, i, "unterminated string literal (2)")
            k = "abfrtvn\\\"'".find(ch)
            if k >= 0:
                parts.append("\a\b\f\r\t\v\n\\\"'"[k])
                j += 1
            elif ch == "u":
                j, ch = self.uEscape(argstr, j + 1, startline)
                parts.append(ch)
            elif ch == "U":
                j, ch = self.UEscape(argstr, j + 1, startline)
                parts.append(ch)
            else:
                self.BadSyntax(argstr, i, "bad escape")
    self.BadSyntax(argstr, i, "unterminated string literal")


def _turtle_parser_class():
    from rdflib.plugins.parsers.notation3 import RDFSink, SinkParser, TurtleParser

    class LinearSinkParser(SinkParser):
        strconst = _linear_strconst

    class LinearTurtleParser(TurtleParser):
        """rdflib's TurtleParser.parse with the linear string-constant reader."""

        def parse(self, source, graph, encoding="utf-8", turtle=True):
            sink = RDFSink(graph)
            base = graph.absolutize(source.getPublicId() or source.getSystemId() or "")
            p = LinearSinkParser(sink, baseURI=base, turtle=turtle)
            p.loadStream(source.getCharacterStream() or source.getByteStream())
            for prefix, namespace in p._bindings.items():
                graph.bind(prefix, namespace)

    return LinearTurtleParser


def _rdfxml_parser_class():
    from xml.sax.handler import ErrorHandler, feature_namespaces

    from rdflib.plugins.parsers.rdfxml import RDFXMLHandler, RDFXMLParser, make_parser

    class CoalescingHandler(RDFXMLHandler):
        """Consecutive `characters` events joined into one before the next structural event (rdflib appends each
        event to the literal with `+=`, quadratic in the number of events)."""

        def reset(self):
            super().reset()
            self._text: list[str] = []

        def characters(self, content):
            self._text.append(content)

        def _flush(self):
            if self._text:
                text = "".join(self._text)
                self._text = []
                super().characters(text)

        def startElementNS(self, name, qname, attrs):
            self._flush()
            super().startElementNS(name, qname, attrs)

        def endElementNS(self, name, qname):
            self._flush()
            super().endElementNS(name, qname)

        def processingInstruction(self, target, data):
            self._flush()
            super().processingInstruction(target, data)

        def endDocument(self):
            self._flush()
            super().endDocument()

    class LinearRDFXMLParser(RDFXMLParser):
        def parse(self, source, sink, **args):
            parser = make_parser()
            try:
                parser.start_namespace_decl("xml", "http://www.w3.org/XML/1998/namespace")
            except AttributeError:
                pass
            parser.setFeature(feature_namespaces, 1)
            content = CoalescingHandler(sink)
            content.setDocumentLocator(source)
            parser.setContentHandler(content)
            parser.setErrorHandler(ErrorHandler())
            self._parser = parser
            parser.parse(source)

    return LinearRDFXMLParser


class _LineChunks:
    """A text stream whose `read(n)` returns at least n characters (when left) and always ends at a line end, so
    rdflib's N-Triples reader (which re-matches its whole buffer after every 2 KiB read) sees each line at once."""

    encoding = "utf-8"

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def read(self, n: int = -1) -> str:
        if self.pos >= len(self.text):
            return ""
        end = len(self.text) if n is None or n < 0 else self.pos + max(n, 1)
        if end < len(self.text):
            nl = self.text.find("\n", end - 1)
            end = len(self.text) if nl < 0 else nl + 1
        chunk = self.text[self.pos : end]
        self.pos = end
        return chunk

    def close(self) -> None:
        pass


def _line_source(text: str):
    from rdflib.parser import StringInputSource

    src = StringInputSource(b"")
    src.setCharacterStream(_LineChunks(text))
    src.setByteStream(None)
    return src


_PARSERS_REGISTERED = False


def _register_parsers() -> None:
    global _PARSERS_REGISTERED
    if _PARSERS_REGISTERED:
        return
    import rdflib.plugin
    from rdflib.parser import Parser

    mod = __name__
    globals()["_LinearTurtleParser"] = _turtle_parser_class()
    globals()["_LinearRDFXMLParser"] = _rdfxml_parser_class()
    rdflib.plugin.register("kg2tool-turtle", Parser, mod, "_LinearTurtleParser")
    rdflib.plugin.register("kg2tool-xml", Parser, mod, "_LinearRDFXMLParser")
    _PARSERS_REGISTERED = True


def _check_jsonld_contexts(path: Path, text: str) -> None:
    """Refuse JSON-LD that names an external @context or @import: rdflib would fetch the URL (or read the local
    file it names) while loading, so a graph file could make kg2tool read other files or reach the network, and
    its output would depend on what the URL serves that day."""
    import json

    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}: malformed json-ld ({exc.msg})") from None
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for key, val in node.items():
                refs = []
                if key == "@context":
                    refs = [v for v in (val if isinstance(val, list) else [val]) if isinstance(v, str)]
                elif key == "@import" and isinstance(val, str):
                    refs = [val]
                if refs:
                    raise InputError(
                        f"{path}: JSON-LD names an external context ({refs[0][:200]!r}); kg2tool does not fetch "
                        "contexts from URLs or other files: put the context inline in the document"
                    )
                stack.append(val)


def parse_files(paths: Sequence[str | Path]):
    """Parse every file into one rdflib graph (merged). Raises InputError with file and line on bad input."""
    import rdflib

    if not paths:
        raise InputError("no graph file given (use --graph FILE)")
    # rdflib logs a traceback for every literal with an invalid lexical form; we count and skip those instead.
    logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
    # SimpleMemory keeps one index instead of the default store's several: ~20% faster parsing, and we only
    # iterate the triples once anyway.
    graph = rdflib.Graph(store="SimpleMemory")
    _register_parsers()
    for p in paths:
        path = Path(p)
        fmt, gz = detect_format(path)
        text = _read_text(path, gz)
        if fmt == "json-ld":
            _check_jsonld_contexts(path, text)
        try:
            if fmt == "nquads":  # quads: graph names are dropped, triples merged
                ds = rdflib.Dataset()
                ds.parse(source=_line_source(text), format=fmt)
                for s, pr, o, _ in ds.quads():
                    graph.add((s, pr, o))
            elif fmt == "nt":
                graph.parse(source=_line_source(text), format=fmt)
            elif fmt == "json-ld":  # the JSON-LD parser needs a context-aware store
                for triple in rdflib.Graph().parse(data=text, format=fmt):
                    graph.add(triple)
            elif fmt in ("turtle", "xml"):  # same parsers, linear in the length of literals (see above)
                graph.parse(data=text, format="kg2tool-" + fmt)
            else:
                graph.parse(data=text, format=fmt)
        except InputError:
            raise
        except Exception as exc:  # rdflib raises many types: BadSyntax, ParserError, SAXParseException, ...
            raise _parse_error(path, fmt, text, exc) from None
    return graph


def readable_local_name(iri: str) -> str:
    """`http://ex.org/Barack_Obama` -> `Barack Obama`; `.../resource/ZeroX` stays `ZeroX`."""
    local = re.split(r"[#/:]", iri.rstrip("/#"))[-1] or iri
    local = unquote(local).replace("_", " ").strip()
    return local or iri


def _lang_rank(lang: str | None, pref: str) -> int:
    if lang and lang.lower() == pref.lower():
        return 0
    if lang and lang.lower().split("-")[0] == pref.lower().split("-")[0]:
        return 1
    if not lang:
        return 2
    return 3


def _pick(values: list[tuple[str, str | None]], pref: str) -> list[str]:
    """Order text values by language preference, then text (deterministic)."""
    return [v for v, _ in sorted(values, key=lambda x: (_lang_rank(x[1], pref), x[1] or "", x[0]))]


def _clean_text(s: str, limit: int = 500) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= limit else s[: limit - 1] + "\u2026"


_ASCII_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def normalize_name(s: str) -> str:
    """Case-, accent-, space- and punctuation-insensitive key used for lenient name lookup."""
    if s.isascii():  # the same key, 5x faster: NFKD and casefold change nothing here but the case
        return _ASCII_NON_ALNUM.sub("", s.lower())
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "", s.casefold())


def unique_names(labels: Sequence[str], description, entities: Sequence[str]) -> list[str]:
    """Display names, unique per entity: the label, or for a label shared by several entities the label with the
    entity's description (`description(i)`, asked only for those) or its local name in parentheses."""
    by_label: dict[str, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels):
        by_label[lab].append(i)
    names = list(labels)
    for lab, ids in by_label.items():
        if len(ids) == 1:
            continue
        descs = [description(i) for i in ids]
        for i, d in zip(ids, descs):
            if d and descs.count(d) == 1:
                names[i] = f"{lab} ({_clean_text(d, 80)})"
            else:
                names[i] = f"{lab} ({readable_local_name(entities[i])})"
    # last resort: anything still colliding gets its full IRI (rare: same label, description and local name)
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n in seen:
            names[i] = f"{labels[i]} <{entities[i]}>"
        seen[names[i]] = i
    return names


class EntityNames:
    """Accessors shared by the in-memory `KnowledgeGraph` and the on-disk `store.StoreGraph`: both hold `entities`,
    `names`, `labels`, `alt_labels` indexed by entity id, `relations`, `attributes` and a `resolve(name)`."""

    def __len__(self) -> int:
        return len(self.entities)

    def summary(self) -> str:
        n_edges = sum(r.support for r in self.relations.values())
        return (
            f"{len(self.entities):,} entities, {len(self.relations)} relations ({n_edges:,} edges), "
            f"{len(self.attributes)} attributes"
        )

    def name(self, eid: int) -> str:
        return self.names[eid]

    def acceptable_names(self, eid: int) -> list[str]:
        """Every string that resolves to this entity: display name first, then label and alternative labels."""
        out = [self.names[eid]]
        for text in (self.labels[eid], *self.alt_labels[eid]):
            if text not in out and self.resolve(text) == eid:
                out.append(text)
        return out

    def entity_names(self) -> list[str]:
        return list(self.names)


class KnowledgeGraph(EntityNames):
    """Entities, names, types, relations and attributes of a loaded RDF graph (read-only)."""

    def __init__(
        self,
        entities: list[str],
        labels: list[str],
        alt_labels: list[tuple[str, ...]],
        descriptions: list[str],
        types: list[tuple[str, ...]],
        relations: dict[str, Relation],
        attributes: dict[str, Attribute],
        stats: LoadStats,
    ):
        self.entities = entities
        self.labels = labels
        self.alt_labels = alt_labels
        self.descriptions = descriptions
        self.types = types
        self.relations = relations
        self.attributes = attributes
        self.stats = stats
        self.index = {iri: i for i, iri in enumerate(entities)}
        self.degree = [0] * len(entities)
        for rel in relations.values():
            for s, objs in rel.forward.items():
                self.degree[s] += len(objs)
                for o in objs:
                    self.degree[o] += 1
        self.names = self._unique_names()
        self._build_lookup()

    # -- names -------------------------------------------------------------------------------------------
    def _unique_names(self) -> list[str]:
        return unique_names(self.labels, self.descriptions.__getitem__, self.entities)

    def _build_lookup(self) -> None:
        # Tie-break for ambiguous labels: the entity with the highest degree, then the smallest IRI.
        def better(a: int, b: int) -> int:
            return a if (-self.degree[a], self.entities[a]) < (-self.degree[b], self.entities[b]) else b

        self._by_name = {n: i for i, n in enumerate(self.names)}
        self._by_label: dict[str, int] = {}
        self._by_norm: dict[str, int] = {}
        for i in range(len(self.entities)):
            lab = self.labels[i]
            self._by_label[lab] = better(self._by_label[lab], i) if lab in self._by_label else i
            for text in (self.names[i], lab, *self.alt_labels[i]):
                key = normalize_name(text)
                if key:
                    self._by_norm[key] = better(self._by_norm[key], i) if key in self._by_norm else i

    def resolve(self, name: str) -> int | None:
        """Entity id for a name, or None. Rule, in order: exact display name; exact label (ambiguous labels go
        to the entity with the highest degree, then the smallest IRI); the same on a case-, accent-, space- and
        punctuation-insensitive key over names, labels and alternative labels."""
        if name in self._by_name:
            return self._by_name[name]
        if name in self._by_label:
            return self._by_label[name]
        return self._by_norm.get(normalize_name(name))

    def longest_name_in(self, text: str) -> str | None:
        """The longest entity name that occurs in `text` (the first in id order among equally long), or None."""
        return max((n for n in self.names if n in text), key=len, default=None)

    def iter_facts(self) -> Iterator[tuple[str, str, str]]:
        """(subject name, relation label, object name) for every relation triple, in a fixed order."""
        for rel in self.relations.values():
            for s in sorted(rel.forward):
                for o in rel.forward[s]:
                    yield self.names[s], rel.label, self.names[o]


def _literal_value(lit) -> tuple[str, object] | None:
    """(kind, JSON-ready value) of an rdflib Literal, or None when its lexical form is invalid."""
    if getattr(lit, "ill_typed", False):
        return None
    dt = str(lit.datatype) if lit.datatype else ""
    local = dt[len(XSD) :] if dt.startswith(XSD) else ""
    value = lit.toPython()
    if local in _INTEGER_TYPES:
        return ("integer", int(value)) if isinstance(value, int) and not isinstance(value, bool) else None
    if local in _NUMBER_TYPES:
        try:
            f = float(value)
        except (TypeError, ValueError):
            return None
        return ("number", f) if f == f and f not in (float("inf"), float("-inf")) else None
    if local == "date":
        return ("date", value.isoformat()) if hasattr(value, "isoformat") else None
    if local == "dateTime":
        return ("datetime", value.isoformat()) if hasattr(value, "isoformat") else None
    if local == "boolean":
        return ("boolean", value) if isinstance(value, bool) else None
    return ("string", _clean_text(str(lit)))


def build_graph(rdf, lang: str = "en", files: Iterable[str] = ()) -> KnowledgeGraph:
    """Index an rdflib graph into a KnowledgeGraph (see the module docstring for the rules)."""
    from rdflib import BNode, Literal

    stats = LoadStats(files=[str(f) for f in files])
    texts: dict[str, dict[str, list]] = {
        "label": defaultdict(list),
        "alt": defaultdict(list),
        "desc": defaultdict(list),
    }
    kinds = {p: "label" for p in LABEL_PREDICATES} | {p: "alt" for p in ALT_LABEL_PREDICATES}
    kinds |= {p: "desc" for p in DESCRIPTION_PREDICATES}
    type_links: dict[str, set[str]] = defaultdict(set)
    rel_edges: dict[str, set[tuple[str, str]]] = defaultdict(set)
    attr_vals: dict[str, dict[str, list[tuple[str, object]]]] = defaultdict(lambda: defaultdict(list))
    str_attr_lang: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    properties: set[str] = set()

    for s, p, o in rdf:
        stats.triples += 1
        if isinstance(s, BNode) or isinstance(o, BNode):
            stats.blank_node_triples_skipped += 1
            continue
        s, p = str(s), str(p)
        if isinstance(o, Literal):
            kind = kinds.get(p)
            if kind:
                texts[kind][s].append((_clean_text(str(o)), o.language))
                continue
            if p in TYPE_PREDICATES:
                continue
            val = _literal_value(o)
            if val is None:
                stats.ill_typed_literals_skipped += 1
                continue
            if val[0] == "string":
                str_attr_lang[p][s].append((val[1], o.language))
            else:
                attr_vals[p][s].append(val)
            continue
        o = str(o)
        if p in TYPE_PREDICATES:
            type_links[s].add(o)
            if p == RDF_TYPE and o == RDF_PROPERTY:
                properties.add(s)
            continue
        if p in META_PREDICATES:
            continue
        rel_edges[p].add((s, o))

    def best(kind: str, iri: str) -> str:
        vals = texts[kind].get(iri)
        return _pick(vals, lang)[0] if vals else ""

    # Entities: subjects and objects of relation triples (a predicate used as a node is still an entity).
    ent_set: set[str] = set()
    for edges in rel_edges.values():
        for s, o in edges:
            ent_set.add(s)
            ent_set.add(o)
    for _p, by_s in list(attr_vals.items()) + list(str_attr_lang.items()):
        ent_set.update(by_s)
    entities = sorted(ent_set)
    index = {iri: i for i, iri in enumerate(entities)}

    labels, alts, descs, types = [], [], [], []
    for iri in entities:
        lab_vals = _pick(texts["label"].get(iri, []), lang)
        lab = lab_vals[0] if lab_vals else ""
        if not lab:
            stats.unlabeled_entities += 1
            lab = readable_local_name(iri)
        labels.append(lab)
        pref_alts = [
            v for v, lg in texts["alt"].get(iri, []) + texts["label"].get(iri, []) if _lang_rank(lg, lang) < 3
        ]
        alts.append(tuple(sorted({a for a in pref_alts if a and a != lab})))
        descs.append(best("desc", iri))
        types.append(tuple(sorted(best("label", t) or readable_local_name(t) for t in type_links.get(iri, ()))))

    relations: dict[str, Relation] = {}
    for p in sorted(rel_edges):
        fwd: dict[int, list[int]] = defaultdict(list)
        inv: dict[int, list[int]] = defaultdict(list)
        for s, o in sorted(rel_edges[p]):
            fwd[index[s]].append(index[o])
            inv[index[o]].append(index[s])
        stats.relation_triples += len(rel_edges[p])
        relations[p] = Relation(
            iri=p,
            label=best("label", p) or readable_local_name(p),
            description=best("desc", p),
            forward={k: tuple(sorted(v)) for k, v in sorted(fwd.items())},
            inverse={k: tuple(sorted(v)) for k, v in sorted(inv.items())},
        )

    attributes: dict[str, Attribute] = {}
    for p in sorted(set(attr_vals) | set(str_attr_lang)):
        by_kind: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
        for s, vals in attr_vals.get(p, {}).items():
            for kind, v in vals:
                by_kind[kind][index[s]].append(v)
        for s, vals in str_attr_lang.get(p, {}).items():
            ranked = sorted(vals, key=lambda x: (_lang_rank(x[1], lang), x[0]))
            top = _lang_rank(ranked[0][1], lang)
            by_kind["string"][index[s]].extend(v for v, lg in ranked if _lang_rank(lg, lang) == top)
        if not by_kind:
            continue
        # One kind per predicate: the most common one (ties: a fixed order); values of other kinds are dropped.
        order = ["integer", "number", "date", "datetime", "boolean", "string"]
        kind = max(by_kind, key=lambda k: (sum(len(v) for v in by_kind[k].values()), -order.index(k)))
        values = {s: tuple(sorted(set(v))) for s, v in sorted(by_kind[kind].items())}
        stats.attribute_values += sum(len(v) for v in values.values())
        attributes[p] = Attribute(
            iri=p,
            label=best("label", p) or readable_local_name(p),
            description=best("desc", p),
            kind=kind,
            values=values,
        )
    return KnowledgeGraph(entities, labels, alts, descs, types, relations, attributes, stats)


def load_graph(paths: Sequence[str | Path], lang: str = "en") -> KnowledgeGraph:
    """Parse and index one or more RDF files (merged). Raises InputError on unreadable or malformed input."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    rdf = parse_files(paths)
    kg = build_graph(rdf, lang=lang, files=[str(p) for p in paths])
    if not kg.entities:
        raise InputError(
            f"{', '.join(map(str, paths))}: the graph has no relation between two IRIs and no typed attribute "
            f"({kg.stats.triples} triples read); nothing to build tools from"
        )
    return kg


__all__ = ["KnowledgeGraph", "Relation", "Attribute", "LoadStats", "load_graph", "parse_files", "build_graph"]
