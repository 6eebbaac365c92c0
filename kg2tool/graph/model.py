"""The in-memory knowledge graph the walker and the executor share, and the predicates that give it its shape.

- An *entity* is an IRI that is the subject or object of a relation triple (a triple whose object is an IRI), or
  the subject of a typed attribute value. Entities are numbered in sorted IRI order.
- A `Relation` holds integer-indexed adjacency both ways (`dict[int, tuple[int, ...]]`, forward and inverse); an
  `Attribute` holds typed literal values (integer, number, date, datetime, boolean, string) per entity.
- Names: see `kg2tool.graph.names`; `KnowledgeGraph.resolve` maps a name back to an entity id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .hygiene import FEED_NAMESPACES
from .names import EntityNames, kind_qualifier, normalize_name, unique_names
from .wikibase import is_statement_predicate

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDF_PROPERTY = "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
XSD = "http://www.w3.org/2001/XMLSchema#"
WIKIDATA_P31 = "http://www.wikidata.org/prop/direct/P31"
# Freebase's own naming, typing and alias predicates (as in its RDF dumps and the WebQSP / CWQ subgraphs).
FREEBASE = "http://rdf.freebase.com/ns/"

LABEL_PREDICATES = (
    RDFS + "label",
    SKOS + "prefLabel",
    "http://schema.org/name",
    "https://schema.org/name",
    FREEBASE + "type.object.name",
)
ALT_LABEL_PREDICATES = (
    SKOS + "altLabel",
    "http://schema.org/alternateName",
    "https://schema.org/alternateName",
    FREEBASE + "common.topic.alias",
)
DESCRIPTION_PREDICATES = (
    "http://schema.org/description",
    "https://schema.org/description",
    RDFS + "comment",
    SKOS + "definition",
    FREEBASE + "common.topic.description",
)
TYPE_PREDICATES = (RDF_TYPE, WIKIDATA_P31, FREEBASE + "type.object.type")
OWL = "http://www.w3.org/2002/07/owl#"
FOAF = "http://xmlns.com/foaf/0.1/"
# Classes of the schema languages themselves, which every individual, class or property of a graph may carry
# (OWL, RDFS, SKOS, schema.org's root, Freebase's `common.topic`): no kind of thing a person asks about, so never
# an entity's kind.
SCHEMA_CLASSES = frozenset(
    [OWL + c for c in ("NamedIndividual", "Thing", "Class", "ObjectProperty", "DatatypeProperty",
                       "AnnotationProperty", "FunctionalProperty", "Ontology", "Restriction")]
    + [RDFS + c for c in ("Resource", "Class", "Datatype", "Literal")]
    + [RDF_PROPERTY, SKOS + "Concept", SKOS + "ConceptScheme", "http://schema.org/Thing", "https://schema.org/Thing",
       FREEBASE + "common.topic"]
    + ["http://www.w3.org/ns/shacl#" + c for c in ("NodeShape", "PropertyShape", "Shape")]
    # the agent classes every person and organisation carries beside its own (FOAF, DBpedia, PROV, Dublin Core)
    + [FOAF + "Agent", "http://dbpedia.org/ontology/Agent", "http://www.w3.org/ns/prov#Agent",
       "http://purl.org/dc/terms/Agent"]
)  # fmt: skip
# Upper ontologies whose classes every thing of a graph may carry beside its own (DOLCE+DnS Ultralite's Agent,
# Object, Event), like the schema classes above: never a kind.
UPPER_ONTOLOGIES = ("http://www.ontologydesignpatterns.org/ont/dul/DUL.owl#", "http://umbel.org/umbel/rc/")
# YAGO's WordNet taxonomy, which DBpedia ships beside its own ontology (`yago:Album106591815`, and the upper
# synsets `PhysicalEntity`, `Instrumentality`, ...): said only of a thing that has no type of another vocabulary.
YAGO_CLASSES = ("http://dbpedia.org/class/yago/", "http://yago-knowledge.org/resource/")


def kept_types(iris) -> list[str]:
    """The type IRIs of one entity that may name its kind: without the schema languages' classes and upper
    ontologies, and without YAGO's when it has a type of another vocabulary."""
    kept = [t for t in iris if t not in SCHEMA_CLASSES and not t.startswith(UPPER_ONTOLOGIES)
            and not is_statement_predicate(t)]  # Wikibase's own classes (Item) and no-value classes (`wdno:P102`)
    own = [t for t in kept if not t.startswith(YAGO_CLASSES)]
    return own or kept


# Schema and axiom predicates: statements about classes, properties and identity, not facts a user asks about.
# Never relations unless `--include-predicate` names them.
AXIOM_PREDICATES = frozenset(
    [RDFS + p for p in ("domain", "range", "subPropertyOf", "subClassOf", "isDefinedBy", "member")]
    + [OWL + p for p in (
        "sameAs", "differentFrom", "disjointWith", "equivalentClass", "equivalentProperty", "inverseOf",
        "imports", "versionInfo", "versionIRI", "priorVersion", "backwardCompatibleWith", "incompatibleWith",
        "onProperty", "someValuesFrom", "allValuesFrom", "hasValue", "onClass", "complementOf", "unionOf",
        "intersectionOf", "oneOf", "propertyDisjointWith", "disjointUnionOf", "hasKey", "propertyChainAxiom",
        "annotatedSource", "annotatedProperty", "annotatedTarget", "members", "distinctMembers",
    )]
    + [SKOS + p for p in ("inScheme", "topConceptOf", "hasTopConcept", "exactMatch", "closeMatch")]
    # SKOS's documentation notes: about a concept's record (its edits, its scope), no facts to ask about
    + [SKOS + p for p in ("note", "changeNote", "editorialNote", "historyNote", "scopeNote", "example")]
    # a web page's topic: the page is no entity to ask about (its link is kept by the inverse, mainEntityOfPage)
    + [FOAF + "primaryTopic", "http://schema.org/mainEntity", "https://schema.org/mainEntity"]
)  # fmt: skip
# Whole vocabularies that describe data, not the world: W3C SHACL's shapes (`sh:path`, `sh:targetClass`), RDF's list
# cells (`rdf:first`, `rdf:rest`). Their predicates are never relations unless `--include-predicate` names them.
SCHEMA_LANGUAGES = ("http://www.w3.org/ns/shacl#", "http://www.w3.org/1999/02/22-rdf-syntax-ns#first",
                    "http://www.w3.org/1999/02/22-rdf-syntax-ns#rest")  # fmt: skip
# Predicates whose objects are web pages, files or images: their IRIs become string attributes (URLs), not
# entities to ask about.
LINK_PREDICATES = frozenset(
    [RDFS + "seeAlso"]
    + [FOAF + p for p in ("page", "homepage", "depiction", "img", "logo", "isPrimaryTopicOf", "weblog")]
    + [s + p for s in ("http://schema.org/", "https://schema.org/") for p in ("image", "url", "sameAs", "logo",
                                                                              "thumbnailUrl", "contentUrl",
                                                                              "mainEntityOfPage")]
)  # fmt: skip
# Predicates about the schema itself, never turned into relation tools.
META_PREDICATES = frozenset(
    LABEL_PREDICATES + ALT_LABEL_PREDICATES + DESCRIPTION_PREDICATES + TYPE_PREDICATES
) | AXIOM_PREDICATES


# Local names of predicates that point at a page or at the same thing in another dataset (`wikidataLink`,
# `homepage`, `exactMatch`): links, not facts to ask about.
_LINK_NAME = re.compile(r"(?i).*(link|url|uri|homepage|website|webpage|sameas|seealso|exactmatch)")


# Freebase's system domains (`/type`, `/common`, `/freebase`: object keys and permissions, topic web pages, images,
# notable types, article ids): its own bookkeeping about topics, no facts about them; `/user` domains are personal
# sandboxes; `/measurement_unit` holds the records of quantities (a dated money value's amount and currency): a
# path into one leads to a unit, not a fact (`...net_worth..measurement_unit.dated_money_value.currency`). A
# predicate whose path passes through one of these (`common.topic.webpage..common.webpage.category`) is never a
# relation; the naming and alias predicates among them are read as names before this.
_FREEBASE_SYSTEM = re.compile(r"(?:^|\.\.)(?:type|common|freebase|user|measurement_unit)\.")


def is_freebase_system(predicate: str) -> bool:
    """True for a Freebase predicate in (or through) one of Freebase's system domains (`_FREEBASE_SYSTEM`)."""
    return predicate.startswith(FREEBASE) and bool(_FREEBASE_SYSTEM.search(predicate[len(FREEBASE) :]))


def is_link_name(predicate: str) -> bool:
    """True when a predicate's local name says its objects are links (`wikidataLink`, `homepageURL`)."""
    local = re.split(r"[#/:]", predicate.rstrip("/#"))[-1]
    return bool(_LINK_NAME.fullmatch(local))


@dataclass(frozen=True)
class PredicateRules:
    """Which predicates are relations: `include` IRIs are relations (or attributes) even when they are schema,
    axiom or link predicates; `exclude` IRIs are never used. Built from `--include-predicate` /
    `--exclude-predicate`."""

    include: frozenset = frozenset()
    exclude: frozenset = frozenset()
    fold: bool = True  # fold reified n-ary nodes into composed relations (kg2tool.graph.reify); --no-fold

    def kind(self, p: str) -> str:
        """"skip" (an excluded or schema/axiom predicate), "link" (objects become URL strings) or "" (as usual);
        label, description and type predicates are not decided here."""
        if p in self.exclude:
            return "skip"
        if p in self.include:
            return ""
        if p in AXIOM_PREDICATES or is_freebase_system(p) or p.startswith(SCHEMA_LANGUAGES) or p.startswith(FEED_NAMESPACES):
            return "skip"
        if is_statement_predicate(p):  # a Wikibase statement's record of a truthy claim (kg2tool.graph.wikibase)
            return "skip"
        return "link" if p in LINK_PREDICATES or is_link_name(p) else ""


def _kind(types: tuple[str, ...] | list[str]) -> str:
    """The type label that tells homonyms apart, as a common noun (`kind_qualifier`): the first of an entity's
    sorted type labels ("man-made object"), or ""."""
    return kind_qualifier(types[0]) if types else ""


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
        """The number of edges (distinct subject-object pairs)."""
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
        """The number of entities with a value."""
        return len(self.values)


@dataclass
class LoadStats:
    """What loading read and what it skipped: the files, triples read, relation edges and attribute values kept,
    blank nodes named (kg2tool.graph.blank), literals with an invalid lexical form skipped, entities without a label,
    relations turned into string values (links to web pages, nodes named only by a code: kg2tool.graph.hygiene), reified
    nodes folded and the IRIs of the composed relations and attributes (kg2tool.graph.reify)."""

    files: list[str] = field(default_factory=list)
    triples: int = 0
    relation_triples: int = 0
    attribute_values: int = 0
    blank_nodes_named: int = 0
    blank_value_nodes: int = 0
    ill_typed_literals_skipped: int = 0
    unlabeled_entities: int = 0
    schema_triples_skipped: int = 0
    opaque_nodes_skipped: int = 0
    link_relations: int = 0
    code_relations: int = 0
    reified_nodes_folded: int = 0
    folded: list[str] = field(default_factory=list)


class KnowledgeGraph(EntityNames):
    """Entities, names, types, relations and attributes of a loaded RDF graph (read-only).

    Takes per-entity lists indexed by entity id (IRIs in sorted order, labels, alternative labels, descriptions,
    type labels), the relations and attributes by predicate IRI, and the load statistics; computes degrees,
    unique display names and the lookup tables of `resolve`."""

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
        return unique_names(
            self.labels, self.descriptions.__getitem__, self.entities, lambda i: _kind(self.types[i])
        )

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

    def ids_named(self, name: str) -> list[int]:
        """Every entity `name` may mean, sorted: the one with that display name; else every entity with that label;
        else the one `resolve` gives (the lenient key), or none. The on-disk store answers the same."""
        if name in self._by_name:
            return [self._by_name[name]]
        if not hasattr(self, "_all_by_label"):
            self._all_by_label: dict[str, list[int]] = {}
            for i, lab in enumerate(self.labels):
                self._all_by_label.setdefault(lab, []).append(i)
        if name in self._all_by_label:
            return list(self._all_by_label[name])
        eid = self.resolve(name)
        return [] if eid is None else [eid]

    def longest_name_in(self, text: str) -> str | None:
        """The longest entity name that occurs in `text` (the first in id order among equally long), or None."""
        return max((n for n in self.names if n in text), key=len, default=None)

    def iter_facts(self) -> Iterator[tuple[str, str, str]]:
        """(subject name, relation label, object name) for every relation triple, in a fixed order."""
        for rel in self.relations.values():
            for s in sorted(rel.forward):
                for o in rel.forward[s]:
                    yield self.names[s], rel.label, self.names[o]


__all__ = [
    "ALT_LABEL_PREDICATES",
    "DESCRIPTION_PREDICATES",
    "LABEL_PREDICATES",
    "AXIOM_PREDICATES",
    "LINK_PREDICATES",
    "META_PREDICATES",
    "PredicateRules",
    "SCHEMA_CLASSES",
    "kept_types",
    "TYPE_PREDICATES",
    "Attribute",
    "KnowledgeGraph",
    "LoadStats",
    "Relation",
]
