"""Reading graph files with pyoxigraph for the store: the formats it reads, files opened for streaming (gzip
decompressed on the way, the sha256 of the stored bytes computed as they are read), and literal values as the
in-memory load (kg2tool.graph.build.literal_value) gives them.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from datetime import date
from pathlib import Path

from ...common.errors import InputError
from ..build import literal_value
from ..model import XSD
from ..names import clean_text

# rdflib format name (kg2tool.graph.parse.detect_format) -> pyoxigraph.RdfFormat attribute.
OX_FORMATS = {"turtle": "TURTLE", "nt": "N_TRIPLES", "nquads": "N_QUADS", "xml": "RDF_XML", "n3": "N3",
              "trig": "TRIG"}
# Plain lexical forms of common datatypes, converted directly (rdflib gives the same value for these forms; any
# other form goes through rdflib): datatype -> (kind, pattern, conversion).
_FAST = {
    XSD + "integer": ("integer", re.compile(r"-?[0-9]+"), int),
    XSD + "decimal": ("number", re.compile(r"-?[0-9]+(\.[0-9]+)?"), float),
    XSD + "double": ("number", re.compile(r"-?[0-9]+(\.[0-9]+)?"), float),
    XSD + "date": ("date", re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"), lambda x: date.fromisoformat(x).isoformat()),
    XSD + "boolean": ("boolean", re.compile(r"true|false"), lambda x: x == "true"),
}


class HashingReader:
    """A binary file whose bytes are also fed to sha256 as they are read (the digest of the file as stored)."""

    def __init__(self, f):
        self.f = f
        self.sha = hashlib.sha256()

    def read(self, n: int = -1) -> bytes:
        """Up to n bytes (all with n < 0), hashed."""
        b = self.f.read(n)
        self.sha.update(b)
        return b

    def readinto(self, buf) -> int:
        """Read into `buf`, hash what was read, return the number of bytes."""
        n = self.f.readinto(buf)
        self.sha.update(memoryview(buf)[:n])
        return n

    def readable(self) -> bool:
        """True: a readable stream (asked by gzip and pyoxigraph)."""
        return True

    def close(self) -> None:
        """Close the file."""
        self.f.close()


def open_graph_file(path: Path, gz: bool):
    """A graph file opened for reading bytes (decompressed when `gz`); InputError when it cannot be opened."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    return gzip.GzipFile(fileobj=f, mode="rb") if gz else f


def ox_literal_value(lit, rdflib_literal) -> tuple[str, object] | None:
    """(kind, JSON-ready value) of a pyoxigraph literal, or None when its lexical form is invalid: the value
    `kg2tool.graph.build.literal_value` gives. Plain forms of the common types are converted directly, anything else
    through rdflib's own conversion (`rdflib_literal` is rdflib's Literal class), so invalid lexical forms are
    judged exactly as in memory."""
    if lit.language:
        return ("string", clean_text(lit.value))
    dt = lit.datatype.value
    lex = lit.value
    if dt == XSD + "string":
        return ("string", clean_text(lex))
    fast = _FAST.get(dt)
    if fast is not None and fast[1].fullmatch(lex):
        kind, convert = fast[0], fast[2]
        try:
            return (kind, convert(lex))
        except ValueError:  # e.g. 2021-02-30: rdflib's conversion below decides
            pass
    return literal_value(rdflib_literal(lex, datatype=dt))


__all__ = ["OX_FORMATS", "HashingReader", "open_graph_file", "ox_literal_value"]
