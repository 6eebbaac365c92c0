"""Reading RDF files with rdflib: the format from the file extension, gzipped and UTF-8 text, one merged rdflib
graph, and parse errors as `InputError`s that name the file and, where the parser says or it can be found, the line.

- Formats: Turtle, N3, N-Triples, N-Quads, TriG, RDF/XML and JSON-LD, chosen by extension, optionally followed by
  `.gz`. Several files are merged into one rdflib graph, so duplicate triples across files count once; the graph
  names of N-Quads and TriG (named graphs) are dropped and their triples merged. N-Triples files alone are read
  into `Triples`, which iterates its triples as that graph would, without its indexes.
- rdflib's Turtle, N-Triples/N-Quads and RDF/XML readers are quadratic in the length of a literal; the same
  readers in linear time are registered as rdflib plugins (`kg2tool-turtle`, `kg2tool-xml`) and used instead.
- JSON-LD that names an external `@context` or `@import` is refused (rdflib would fetch it).
"""

from __future__ import annotations

import gzip
import logging
from collections.abc import Sequence
from pathlib import Path

from ..common.errors import InputError

# File extension -> rdflib parser name.
FORMATS = {
    ".ttl": "turtle",
    ".turtle": "turtle",
    ".n3": "n3",
    ".nt": "nt",
    ".ntriples": "nt",
    ".nq": "nquads",
    ".nquads": "nquads",
    ".trig": "trig",
    ".rdf": "xml",
    ".xml": "xml",
    ".owl": "xml",
    ".jsonld": "json-ld",
    ".json": "json-ld",
}


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
    """The file's text (decompressed when `gz`), or an InputError naming the file (and the line of a non-UTF-8 byte)."""
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
    repeated `+=`; otherwise line for line the same rules and errors.

    Long because it stays line for line rdflib's own function, so the two can be compared.
    """
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
    """rdflib's TurtleParser with the linear string-constant reader (a class built on first use: rdflib is imported
    only when a graph is parsed)."""
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
    """rdflib's RDFXMLParser with a handler that joins consecutive character events (built on first use)."""
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
    """An rdflib input source that hands `text` to the N-Triples/N-Quads reader in whole lines (`_LineChunks`)."""
    from rdflib.parser import StringInputSource

    src = StringInputSource(b"")
    src.setCharacterStream(_LineChunks(text))
    src.setByteStream(None)
    return src


_PARSERS_REGISTERED = False


def _register_parsers() -> None:
    """Register the linear-time readers as rdflib parser plugins `kg2tool-turtle` and `kg2tool-xml` (once)."""
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


class Triples:
    """The triples of N-Triples files, merged (a triple read twice counts once) and iterated as an rdflib
    `Graph(store="SimpleMemory")` iterates them: by subject, then predicate, then object, each in the order first
    read. `triple(s, p, o)` is the sink rdflib's N-Triples reader writes to; `add((s, p, o))` is Graph.add."""

    def __init__(self):
        self._spo: dict = {}

    def triple(self, s, p, o) -> None:
        po = self._spo.get(s)
        if po is None:
            po = self._spo[s] = {}
        objects = po.get(p)
        if objects is None:
            objects = po[p] = {}
        objects[o] = None

    def add(self, triple) -> None:
        self.triple(*triple)

    def __iter__(self):
        for s, po in self._spo.items():
            for p, objects in po.items():
                for o in objects:
                    yield s, p, o

    def __len__(self) -> int:
        return sum(len(objects) for po in self._spo.values() for objects in po.values())


def parse_files(paths: Sequence[str | Path]):
    """Parse every file (paths; format by extension) into one merged graph and return it: an rdflib `Graph`, or
    for N-Triples files alone `Triples` (iterated alike). Raises InputError with file and line on a missing,
    unreadable or malformed file, or when no file is given."""
    import rdflib

    if not paths:
        raise InputError("no graph file given (use --graph FILE)")
    # rdflib logs a traceback for every literal with an invalid lexical form; we count and skip those instead.
    logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
    # N-Triples alone are read into `Triples` (the triples SimpleMemory would iterate, without its three indexes:
    # ~40% of reading them); other formats into a SimpleMemory graph (faster than the default store), whose
    # parsers need an rdflib Graph. Either is iterated once, in the same order.
    formats = [detect_format(Path(p)) for p in paths]
    graph = Triples() if all(fmt == "nt" for fmt, _ in formats) else rdflib.Graph(store="SimpleMemory")
    _register_parsers()
    for p, (fmt, gz) in zip(paths, formats):
        path = Path(p)
        text = _read_text(path, gz)
        if fmt == "json-ld":
            _check_jsonld_contexts(path, text)
        try:
            if fmt == "nquads":  # quads: graph names are dropped, triples merged
                ds = rdflib.Dataset()
                ds.parse(source=_line_source(text), format=fmt)
                for s, pr, o, _ in ds.quads():
                    graph.add((s, pr, o))
            elif fmt == "trig":  # named graphs: as N-Quads, graph names dropped
                ds = rdflib.Dataset()
                ds.parse(data=text, format=fmt)
                for s, pr, o, _ in ds.quads():
                    graph.add((s, pr, o))
            elif fmt == "nt" and isinstance(graph, Triples):
                from rdflib.plugins.parsers.ntriples import W3CNTriplesParser

                W3CNTriplesParser(graph).parse(_LineChunks(text))  # what Graph.parse(format="nt") runs, into `graph`
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


__all__ = ["FORMATS", "Triples", "detect_format", "parse_files"]
