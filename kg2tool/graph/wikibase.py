"""Wikidata's RDF format (the Wikibase RDF mapping: mediawiki.org/wiki/Wikibase/Indexing/RDF_Dump_Format), for
any Wikibase: the truthy claims (`wdt:P31`, `<base>/prop/direct/P31`) are the graph's facts, each predicate said
by the label of its property entity (`<base>/entity/P31`: "instance of"); the full statements that restate them
(`p:`, `ps:`, `pq:`, `pr:`, their value and normalized forms, no-value classes) and the Wikibase ontology's own
predicates (ranks, counts, the links between a property and its predicates, entity-data documents) record how the
facts are stated, not facts: they are skipped, as schema is. The entity-data document about an entity (a
`schema:Dataset` that is `schema:about` it, with its licence and version) goes with them: its only links are the
ontology's and `schema:about`; so do the sitelinks, the articles about an entity in the wikis (`documents`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

WIKIBASE = "http://wikiba.se/ontology#"
# `<base>/prop/P31` (claim), `/prop/statement/P31`, `/prop/qualifier/P31`, `/prop/reference/P31`, `/prop/novalue/P31`,
# `/prop/direct-normalized/P31`, and their `value/` and `value-normalized/` forms; not `/prop/direct/P31`.
_STATEMENT = re.compile(
    r".*/prop/(?:(?:statement|qualifier|reference|novalue|direct-normalized)/(?:value(?:-normalized)?/)?)?P\d+"
)
_DIRECT = re.compile(r"(.*)/prop/direct/(P\d+)")


def is_statement_predicate(p: str) -> bool:
    """True for a predicate of the Wikibase ontology or of a Wikibase's full statements (module docstring)."""
    return p.startswith(WIKIBASE) or bool(_STATEMENT.fullmatch(p))


def property_entity(p: str) -> str:
    """The property entity a truthy-claim predicate stands for (`.../prop/direct/P31` -> `.../entity/P31`), or ""."""
    m = _DIRECT.fullmatch(p)
    return f"{m[1]}/entity/{m[2]}" if m else ""


SCHEMA_ABOUT = ("http://schema.org/about", "https://schema.org/about")
_ENTITY = re.compile(r".*/entity/[QPL]\d+")


_PAGES = frozenset(s + c for s in ("http://schema.org/", "https://schema.org/") for c in ("Article", "Dataset"))


def property_nodes(typed: Iterable[tuple, Iterable[str]]) -> set:
    """The property entities among `typed` (node, its type IRIs): a node typed `wikibase:Property`. Their claims
    ("subject item of this property", "related property") and the claims that point at them ("properties for this
    type") are about the schema, not the world: both loaders drop the nodes' links and values; their labels stay,
    to say the claims they stand for (`property_entity`)."""
    return {s for s, types in typed if WIKIBASE + "Property" in types}


def documents(about: Iterable[tuple[str, str]], types: Callable[[str], Iterable[str]]) -> set[str]:
    """The pages about Wikibase entities among the subjects of `schema:about` pairs (subject IRI, object IRI): a
    sitelink (a `schema:Article`, the Wikipedia article about an item) or the entity-data document (a
    `schema:Dataset`) about an entity (`<base>/entity/Q42`), as the mapping writes them; `types(subject)` its type
    IRIs. Pages about the entity, no things to ask about. Other things about an entity (a book about a person the
    graph names by its Wikidata IRI) stay."""
    return {s for s, o in about if _ENTITY.fullmatch(o) and _PAGES.intersection(types(s))}
