"""Blank nodes named by what they hold: deterministic IRIs for the anonymous nodes of a graph, shared by the
in-memory load (kg2tool.graph.build) and the on-disk store's index (kg2tool.graph.store.index).

A parser gives blank nodes ids of its own (random, or per file), so they cannot be kept as they are: the same
files must give the same dataset. They are no noise either: many graphs put their facts behind them (an n-ary
pattern of anonymous nodes: a timed location, an address, a name with its language forms, a statement). RDF 1.1
(Concepts, 3.5 "Replacing Blank Nodes with IRIs") allows replacing them with IRIs minted for the purpose; here the
IRI is a hash of the node's content, so it is the same whatever the parser or the order of the triples:

- A node's content is its triples to and from terms that are not blank (predicate and the IRI or literal), then,
  over three rounds, the predicates and contents of the blank nodes it links to (a Weisfeiler-Lehman hash, as in
  graph canonicalization). Literals are compared by lexical form, language tag (lower-cased) and datatype (a
  plain literal is an `xsd:string`). Nodes whose content is the same after the rounds are one node.
- A node that one triple points to (the link from its *owner*) is a part of that owner, named by the hash-URI
  convention of Linked Data: `<owner>#<hash>` (`<owner>/<hash>` when the owner's IRI has a fragment already), so
  kg2tool.graph.reify folds it into its owner as it folds `hadrian#death` (a part that holds values gives them to
  its owner; one that links named things gives its owner composed relations). The owner may be a part itself.
- Any other node (no owner, or several) is `urn:kg2tool:genid:<hash>`.
- Before that, `blank_names` takes out the value nodes (their texts go to their owner) and the anonymous PROV-O
  provenance records (dropped).
The hash is 16 hexadecimal digits, an opaque id (kg2tool.graph.hygiene.is_opaque_id): a node without a label is no
entity of its own, one with a label (`[ foaf:name "Jane Doe" ]`) is named by it.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from .model import LABEL_PREDICATES
from .names import APPELLATION_TEXTS, name_property

GENID = "urn:kg2tool:genid:"
PROV = "http://www.w3.org/ns/prov#"
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_ROUNDS = 3
_MAX_OWNER = 240  # characters


_PART = re.compile(r"[#/][0-9a-f]{16}")


def is_blank_iri(iri: str) -> bool:
    """True for an IRI this module gives a blank node."""
    return iri.startswith(GENID) or bool(_PART.search(iri[-17:]))


def literal_key(lexical: str, language: str | None, datatype: str | None) -> str:
    """The text a literal is compared by (never an IRI: it starts with a quote)."""
    if language:
        return f'"{lexical}"@{language.lower()}'
    return f'"{lexical}"^^{datatype or XSD_STRING}'


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _part(owner: str, digest: str) -> str:
    """The IRI of a part of `owner` (`GENID` and the digest where the owner's IRI is long: a deep chain of parts,
    such as the nodes of an RDF list, is no IRI of ever-growing length)."""
    if len(owner) > _MAX_OWNER:
        return GENID + digest
    return owner + ("/" if "#" in owner else "#") + digest


@dataclass
class BlankNames:
    """What the blank nodes of a graph become: `iris` (key -> IRI) for the nodes kept, `values` (key -> (owner,
    link predicate)) for the value nodes, whose texts become values of their owner (the owner a term or a key),
    `dropped` for the anonymous provenance records."""

    iris: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    dropped: set = field(default_factory=set)

    def owner(self, key) -> tuple[str, str] | None:
        """(the owner's IRI, the link predicate) of value node `key`; None for a value inside another value (it is
        dropped with it)."""
        is_blank, owner, p = self.values[key]
        if not is_blank:
            return owner, p
        return (self.iris[owner], p) if owner in self.iris else None


def is_text(p: str) -> bool:
    """A predicate that gives a node its name or value text: a label predicate, a name property
    (kg2tool.graph.names.name_property), `rdf:value`."""
    return p in LABEL_PREDICATES or p in APPELLATION_TEXTS or bool(name_property(p))


def blank_names(
    triples: Iterable[tuple], blank: Callable[[object], Hashable | None], links_things: Callable[[str], bool]
) -> BlankNames:
    """The names of the blank nodes of `triples` ((subject, predicate, object); a term that is no blank node is its
    IRI or `literal_key` text). `blank(term)` is the node's key (unique per node: per file where a parser reuses
    ids across files) or None for any other term; `links_things(predicate)` is true for a predicate whose objects
    elsewhere in the graph are things (IRIs).

    A *value node* (one owner, a text of its own, and a link into it whose other objects are no things: a
    description with its licence, a time interval labelled "c. 325 BCE" with its year below it, an author
    `[ foaf:name "Jane Doe" ]`) is a value of its owner, not a thing: its texts become the owner's values of the link into it, and the rest of it is dropped (what only it
    links to is left without a link, and so dropped too where it has no name). Every other blank node gets an IRI
    (`blank_iris`). An *anonymous provenance record* (a node reached only by W3C PROV-O links: the activity that
    generated or invalidated a record, with its time and agent) says how the data was made, not what it
    describes: it is dropped, with what only it links to."""
    triples = list(triples)
    iris = blank_iris(triples, blank)
    texts, owners = set(), defaultdict(list)
    for s, p, o in triples:
        bs, bo = blank(s), blank(o)
        if bs is not None and bo is None and o.startswith('"') and is_text(p):
            texts.add(bs)
        if bo is not None:
            owners[bo].append((bs is not None, bs if bs is not None else s, p))
    got = BlankNames()
    for n, iri in iris.items():
        refs = owners.get(n, ())
        if refs and all(p.startswith(PROV) for _, _, p in refs):
            got.dropped.add(n)
            continue
        if n in texts and len(refs) == 1 and refs[0][1] != n and not links_things(refs[0][2]):
            got.values[n] = refs[0]
        else:
            got.iris[n] = iri
    return got


def blank_iris(triples: Iterable[tuple], blank: Callable[[object], Hashable | None]) -> dict:
    """blank node key -> its IRI, for the blank nodes of `triples` (as `blank_names` takes them)."""
    local: dict = defaultdict(list)  # key -> [(direction, predicate, other end's text)]
    links: dict = defaultdict(list)  # key -> [(direction, predicate, other blank node's key)]
    owners: dict = defaultdict(list)  # key -> the subjects that point to it (texts or keys)
    for s, p, o in triples:
        bs, bo = blank(s), blank(o)
        if bs is not None and bo is not None:
            links[bs].append((">", p, bo))
            links[bo].append(("<", p, bs))
            owners[bo].append((True, bs))
        elif bs is not None:
            local[bs].append((">", p, o))
        elif bo is not None:
            local[bo].append(("<", p, s))
            owners[bo].append((False, s))
    nodes = set(local) | set(links)
    hashes = {n: _digest(repr(sorted(local.get(n, ())))) for n in nodes}
    for _ in range(_ROUNDS if links else 0):
        hashes = {
            n: _digest(hashes[n] + repr(sorted((d, p, hashes[m]) for d, p, m in links.get(n, ())))) for n in nodes
        }
    iris: dict = {}
    for n in sorted(nodes, key=hashes.__getitem__):
        chain, on_chain, m = [], set(), n
        while m not in iris:  # up the owners to a node with an IRI, one without a single owner, or a cycle
            refs = owners.get(m, ())
            if len(refs) != 1 or m in on_chain:
                for k in chain[chain.index(m) :] if m in on_chain else ():
                    iris[k] = GENID + hashes[k]  # a cycle of parts: none is the owner
                if m not in iris:
                    iris[m] = GENID + hashes[m]
                break
            chain.append(m)
            on_chain.add(m)
            is_blank, owner = refs[0]
            if not is_blank:
                iris[m] = _part(owner, hashes[m])
                break
            m = owner
        for k in reversed(chain):
            if k not in iris:
                is_blank, owner = owners[k][0]
                iris[k] = _part(iris[owner], hashes[k])
    return iris


__all__ = ["GENID", "BlankNames", "blank_iris", "blank_names", "is_blank_iri", "literal_key"]
