"""From RDF files to a `KnowledgeGraph`: parse (kg2tool.graph.parse), then one pass over the triples and the tables.

Rules:
- After parsing, one pass over the triples sorts each into texts (labels, alternative labels, descriptions), type
  links, relation edges and literal values; the rdflib graph is then dropped. Everything is sorted by IRI, so the
  same files give the same indexes whatever the parse order.
- Schema and axiom predicates (owl:sameAs, rdfs:subClassOf, ...) are skipped, link predicates (foaf:page,
  schema:image, ...) and link-only relations become URL string attributes, unlabeled nodes with
  opaque ids are dropped (kg2tool.graph.hygiene; `PredicateRules` from --include/--exclude-predicate override).
- Before that, reified n-ary nodes (a film role, an award record, an address) are folded into composed relations
  between their named participants (kg2tool.graph.reify; off with `PredicateRules(fold=False)`, `--no-fold`).
- Blank nodes get random ids from the parser, so they are named by their content (kg2tool.graph.blank: a part of
  the one node that links to it, `<owner>#<hash>`, else `urn:kg2tool:genid:<hash>`) and their triples read after
  the others; folding then treats them as it treats any unlabelled part or n-ary node.
- Names: the preferred label (rdfs:label, skos:prefLabel, schema:name; language by `lang`, then untagged, then
  any), else a readable form of the IRI's local part (kg2tool.graph.names).
- Literal objects of other predicates are typed attributes (integer, number, date, datetime, boolean, string),
  one kind per predicate (the most common). Literals whose lexical form is invalid for their datatype
  (`"abc"^^xsd:integer`) are skipped and counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import chain
from pathlib import Path

from ..common.errors import InputError
from .blank import blank_names, is_text, literal_key
from .hygiene import (
    change_records,
    code_name,
    is_forgotten_code,
    is_opaque_node,
    kebab_namespaces,
    named_namespaces,
    namespace,
    namespace_classes,
    tidy_edges,
)
from .model import (
    ALT_LABEL_PREDICATES,
    DESCRIPTION_PREDICATES,
    LABEL_PREDICATES,
    META_PREDICATES,
    TYPE_PREDICATES,
    XSD,
    Attribute,
    KnowledgeGraph,
    LoadStats,
    PredicateRules,
    Relation,
    kept_types,
)
from .names import (
    APPELLATION_TEXTS,
    appellations,
    clean_label,
    clean_text,
    entity_name_from_iri,
    lang_rank,
    name_property,
    pick_texts,
    relation_label,
    schema_name,
)
from .parse import parse_files
from .personal_names import is_name_link, names_from_parts
from .reify import fold_reified, value_parts
from .wikibase import SCHEMA_ABOUT, documents, property_entity, property_nodes

_INTEGER_TYPES = {
    "integer", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger",
    "nonPositiveInteger", "negativeInteger", "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte",
}  # fmt: skip
_NUMBER_TYPES = {"decimal", "double", "float"}
# The attribute kinds in the order that breaks a tie between equally common kinds of one predicate.
ATTRIBUTE_KINDS = ["integer", "number", "date", "datetime", "boolean", "string"]


def literal_value(lit) -> tuple[str, object] | None:
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
    return ("string", clean_text(str(lit)))


class _Triples:
    """What one pass over the triples keeps, by IRI: texts per kind, type links, relation edges, literal values."""

    def __init__(self, lang: str):
        self.lang = lang
        self.texts: dict[str, dict[str, list]] = {
            "label": defaultdict(list),
            "alt": defaultdict(list),
            "desc": defaultdict(list),
        }
        self.type_links: dict[str, set[str]] = defaultdict(set)
        self.rel_edges: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self.attr_vals: dict[str, dict[str, list[tuple[str, object]]]] = defaultdict(lambda: defaultdict(list))
        self.str_attr_lang: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))

    def best(self, kind: str, iri: str) -> str:
        """The preferred text of one kind ("label", "alt", "desc") for an IRI, or ""."""
        vals = self.texts[kind].get(iri)
        return pick_texts(vals, self.lang)[0] if vals else ""


def _collect(rdf, lang: str, stats: LoadStats, rules: PredicateRules) -> _Triples:
    """One pass over the rdflib graph: sort every triple into `_Triples`, counting skipped ones in `stats`; schema,
    axiom and excluded predicates (`rules`) are skipped, link predicates keep their object IRIs as URL strings.

    Long because it is the loader's hot loop: one pass over every triple with its lookups bound to locals
    (a call per triple costs a measurable share of the load).
    """
    from rdflib import BNode, Literal

    got = _Triples(lang)
    texts, type_links, rel_edges = got.texts, got.type_links, got.rel_edges
    attr_vals, str_attr_lang = got.attr_vals, got.str_attr_lang
    kinds = {p: "label" for p in LABEL_PREDICATES} | {p: "alt" for p in ALT_LABEL_PREDICATES}
    kinds |= {p: "desc" for p in DESCRIPTION_PREDICATES}
    rule_of: dict[str, str] = {}  # predicate -> rules.kind(p): asked once per predicate, not per triple

    def rule(p: str) -> str:
        got = rule_of.get(p)
        if got is None:
            got = rule_of[p] = rules.kind(p)
        return got

    blank: dict[type, bool] = {}  # term class -> is a blank node (isinstance through rdflib's ABCs, once per class)
    literal: dict[type, bool] = {}
    held: list = []  # the triples that touch a blank node, read again with the nodes named (kg2tool.graph.blank)
    named = _BlankNamed(held, stats, rel_edges)
    for s, p, o in chain(rdf, named):
        stats.triples += 1
        ts, to = type(s), type(o)
        b_s, b_o = blank.get(ts), blank.get(to)
        if b_s is None:
            b_s = blank[ts] = issubclass(ts, BNode)
        if b_o is None:
            b_o = blank[to] = issubclass(to, BNode)
        if b_s or b_o:
            held.append((s, p, o))
            continue
        s, p = str(s), str(p)
        is_lit = literal.get(to)
        if is_lit is None:
            is_lit = literal[to] = issubclass(to, Literal)
        if is_lit:
            kind = kinds.get(p)
            if kind:
                texts[kind][s].append(((clean_text if kind == "desc" else clean_label)(str(o)), o.language))
                continue
            if p in TYPE_PREDICATES:
                continue
            if rule(p) == "skip":
                stats.schema_triples_skipped += 1
                continue
            val = literal_value(o)
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
            continue
        rule_p = rule(p)
        if rule_p == "skip" or (p in META_PREDICATES and p not in rules.include):
            stats.schema_triples_skipped += 1
            continue
        if rule_p == "link":
            str_attr_lang[p][s].append((o, None))
            continue
        rel_edges[p].add((s, o))
    stats.triples -= named.count
    return got


class _BlankNamed:
    """The held triples that touch blank nodes, with the nodes named (kg2tool.graph.blank), in sorted order; read
    after the others (`count`: how many, as the pass counts them again)."""

    def __init__(self, held: list, stats: LoadStats, things: dict):
        self.held, self.stats, self.things, self.count = held, stats, things, 0

    def __iter__(self):
        from rdflib import BNode, Literal, URIRef

        if not self.held:
            return
        stats = self.stats

        def text(t):
            if isinstance(t, Literal):
                return literal_key(str(t), t.language, str(t.datatype) if t.datatype else None)
            return t if isinstance(t, BNode) else str(t)

        key = lambda t: t if isinstance(t, BNode) else None  # noqa: E731
        names = blank_names([(text(s), str(p), text(o)) for s, p, o in self.held], key, self.things.__contains__)
        stats.blank_nodes_named, stats.blank_value_nodes = len(names.iris), len(names.values)
        iris, values = names.iris, names.values
        out = []
        for s, p, o in self.held:
            if (isinstance(o, BNode) and (o in values or o in names.dropped)) or s in names.dropped:
                continue  # the link into a value node: its texts are linked to the owner below
            if isinstance(s, BNode) and s in values:
                if isinstance(o, Literal) and is_text(str(p)):
                    got = names.owner(s)
                    if got is not None:
                        out.append((URIRef(got[0]), URIRef(got[1]), o))
                continue
            out.append(
                (URIRef(iris[s]) if isinstance(s, BNode) else s, p, URIRef(iris[o]) if isinstance(o, BNode) else o)
            )
        out.sort(key=lambda t: (t[0], t[1], text(t[2])))
        self.held.clear()
        self.count = len(out)
        yield from out


def _names_from_properties(got: _Triples) -> None:
    """The string values of name properties (kg2tool.graph.names.name_property: `foaf:name`, `dcterms:title`, a
    vocabulary's own `name` or `preferredNameForThePerson`) read as texts, in place: a whole name is the label of
    a subject that has none (else one of its alternative labels), another name an alternative label; the property
    is then no attribute (not "the name of X")."""
    about = [(s, o) for p in SCHEMA_ABOUT for s, o in got.rel_edges.get(p, ())]
    if drop := documents(about, lambda s: got.type_links.get(s, ())):
        _drop_nodes(got, drop)  # Wikibase: the pages about an entity (kg2tool.graph.wikibase)
    typed = [(s, {str(t) for t in ts}) for s, ts in got.type_links.items()]
    if drop := change_records(typed) | property_nodes(typed):
        _drop_nodes(got, drop)  # a feed's records of publishing its members (graph.hygiene); Wikibase properties
    for p in sorted({*got.rel_edges, *got.attr_vals, *got.str_attr_lang}):  # Wikibase: a property names its claims
        if not got.texts["label"].get(p) and got.texts["label"].get(entity := property_entity(p)):
            got.texts["label"][p] = list(got.texts["label"][entity])
    labelled = {s for s, vals in got.texts["label"].items() if vals}
    for p in sorted(got.str_attr_lang):
        role = name_property(p, got.best("label", p))
        if not role:
            continue
        for s, vals in got.str_attr_lang.pop(p).items():
            kind = "label" if role == "label" and s not in labelled else "alt"
            got.texts[kind][s].extend((clean_label(v), lg) for v, lg in vals)
    _appellations(got, labelled)
    # after the appellations, whose name nodes hold their own parts: "Rose Kennedy" of a first and a last name
    named = {s for s, vals in got.texts["label"].items() if vals}
    # only a thing of its own (a link or a type of its own): a node that only holds a name's parts is its owner's
    # name (GND's name entities), no person
    things = {s for edges in got.rel_edges.values() for s, _ in edges} | {s for s, ts in got.type_links.items() if ts}
    things -= {o for p, edges in got.rel_edges.items() if is_name_link(p, got.best("label", p)) for _, o in edges}
    for s, name in names_from_parts(got.str_attr_lang, lambda p: got.best("label", p), named, things).items():
        got.texts["label"][s].append((name, None))


def _appellations(got: _Triples, labelled: set) -> None:
    """Appellation nodes (kg2tool.graph.names.appellations: a thing's names and identifiers as nodes of their own,
    CIDOC-CRM's P1/P131 is identified by, P102 has title) folded into their owners, in place: their names are the
    owner's label where it has none (else alternative labels), the nodes and their parts are gone."""

    def texts(n) -> list:
        vals = list(got.texts["label"].get(n, ()))
        return vals + [v for p in APPELLATION_TEXTS for v in got.str_attr_lang.get(p, {}).get(n, ())]

    def type_labels(n) -> list:
        return [got.best("label", t) or schema_name(t) for t in sorted(got.type_links.get(n, ()))]

    drop, names = appellations(got.rel_edges, lambda p: got.best("label", p), type_labels, texts)
    if not drop:
        return
    for s, said in names.items():
        got.texts["alt" if s in labelled else "label"][s].extend((clean_label(t), lg) for t, lg in said)
    _drop_nodes(got, drop)


def _drop_nodes(got: _Triples, drop: set, merged: dict | None = None) -> None:
    """Nodes `drop` gone from the collected edges and values, in place; edges to a node of `merged` go to the
    node it is one with."""
    merged = merged or {}
    for p in list(got.rel_edges):
        got.rel_edges[p] = {
            (s, merged.get(o, o)) for s, o in got.rel_edges[p] if s not in drop and (o not in drop or o in merged)
        }
        if not got.rel_edges[p]:
            del got.rel_edges[p]
    for table in (got.attr_vals, got.str_attr_lang):
        for by_s in table.values():
            for n in drop & by_s.keys():
                del by_s[n]


def _values(got: _Triples) -> None:
    """Labelled parts of other nodes that are one value (kg2tool.graph.reify.value_parts: the place "Washington"
    of every birth that names it) made one node, in place."""
    merged = value_parts(got.rel_edges, str, lambda n: got.best("label", n), got.type_links)
    if merged:
        _drop_nodes(got, set(merged), merged)


def _fold(got: _Triples, stats: LoadStats) -> None:
    """Fold reified n-ary nodes into composed relations and attributes (kg2tool.graph.reify), in place: the
    nodes' edges and values are dropped, the composed ones added with their labels and descriptions."""
    tables = (got.attr_vals, got.str_attr_lang)
    subjects = {p: set(by_s) for table in tables for p, by_s in table.items()}
    folded = fold_reified(
        got.rel_edges, str, lambda n: got.best("label", n), got.type_links,
        lambda t: got.best("label", t) or schema_name(t),
        lambda p: got.best("label", p) or schema_name(p), subjects,
    )  # fmt: skip
    if not folded.nodes:
        return
    got.rel_edges = defaultdict(set, {p: set(v) for p, v in folded.edges.items()})
    for rel in folded.relations:
        got.rel_edges[rel.iri] = set(rel.pairs)
    for new in folded.relations + folded.attributes:
        got.texts["label"][new.iri] = [(new.label, None)]
        got.texts["desc"][new.iri] = [(new.description, None)]
    for attr in folded.attributes:
        for table in tables:
            src = table.get(attr.source, {})
            for node, owner in sorted(attr.owner_of.items()):
                if node in src:
                    table[attr.iri][owner].extend(src[node])
    for table in tables:
        for by_s in table.values():
            for node in folded.nodes & by_s.keys():
                del by_s[node]
    stats.reified_nodes_folded = len(folded.nodes)
    stats.folded = [new.iri for new in folded.relations + folded.attributes]


def _tidy(got: _Triples, stats: LoadStats, rules: PredicateRules) -> None:
    """Apply kg2tool.graph.hygiene's rules to the collected edges in place: opaque unlabeled nodes
    dropped, link-only relations turned into URL string attributes."""
    subjects = set(got.type_links) | set(got.texts["label"]) | set(got.texts["desc"])
    for by_s in list(got.attr_vals.values()) + list(got.str_attr_lang.values()):
        subjects.update(by_s)
    for edges in got.rel_edges.values():
        subjects.update(s for s, _ in edges)
    labels = got.texts["label"]
    nodes = {n for edges in got.rel_edges.values() for pair in edges for n in pair}
    for by_s in list(got.attr_vals.values()) + list(got.str_attr_lang.values()):
        nodes.update(by_s)
    named = named_namespaces((n, bool(labels.get(n))) for n in nodes)
    code_of = lambda n: code_name(got.best("label", n) if labels.get(n) else "", n)  # noqa: E731
    tidy = tidy_edges(
        got.rel_edges, str, lambda n: bool(labels.get(n)), subjects.__contains__, rules.include, named, code_of
    )
    got.rel_edges = defaultdict(set, {p: set(v) for p, v in tidy.edges.items()})
    for table in (tidy.links, tidy.codes):
        for p, vals in table.items():
            for s, text in vals:
                got.str_attr_lang[p][s].append((text, None))
    dropped = set(tidy.opaque)
    for by_s in list(got.attr_vals.values()) + list(got.str_attr_lang.values()):
        for s in [s for s in by_s if not labels.get(s) and (is_opaque_node(s) or is_forgotten_code(s, named))]:
            dropped.add(s)
            del by_s[s]
    stats.opaque_nodes_skipped += len(dropped)
    stats.link_relations += len(tidy.links)
    stats.code_relations += len(tidy.codes)


def _entities(got: _Triples) -> list[str]:
    """Entities in sorted IRI order: subjects and objects of relation triples (a predicate used as a node is still
    an entity) and subjects of attribute values."""
    ent_set: set[str] = set()
    for edges in got.rel_edges.values():
        for s, o in edges:
            ent_set.add(s)
            ent_set.add(o)
    for _p, by_s in list(got.attr_vals.items()) + list(got.str_attr_lang.items()):
        ent_set.update(by_s)
    return sorted(ent_set)


def _entity_texts(got: _Triples, entities: list[str], stats: LoadStats) -> tuple[list, list, list, list]:
    """Per entity: label (else the readable local name, counted as unlabeled), alternative labels in the preferred
    languages, description, and the sorted labels of its types."""
    lang, texts = got.lang, got.texts
    labels, alts, descs, types = [], [], [], []
    classes = namespace_classes(t for ts in got.type_links.values() for t in ts)
    kebab = kebab_namespaces(entities)
    for iri in entities:
        lab_vals = pick_texts(texts["label"].get(iri, []), lang)
        lab = lab_vals[0] if lab_vals else ""
        if not lab:
            stats.unlabeled_entities += 1
            ns = namespace(iri)
            lab = entity_name_from_iri(iri, got.type_links.get(iri) or classes.get(ns, ()), ns in kebab)
        labels.append(lab)
        pref_alts = [v for v, lg in texts["alt"].get(iri, []) + texts["label"].get(iri, []) if lang_rank(lg, lang) < 3]
        alts.append(tuple(sorted({a for a in pref_alts if a and a != lab})))
        descs.append(got.best("desc", iri))
        types.append(
            tuple(sorted(got.best("label", t) or schema_name(t) for t in kept_types(got.type_links.get(iri, ()))))
        )
    return labels, alts, descs, types


def _relations(got: _Triples, index: dict[str, int], stats: LoadStats) -> dict[str, Relation]:
    """Every relation by predicate IRI (sorted), its adjacency both ways as sorted tuples of entity ids."""
    relations: dict[str, Relation] = {}
    for p in sorted(got.rel_edges):
        fwd: dict[int, list[int]] = defaultdict(list)
        inv: dict[int, list[int]] = defaultdict(list)
        for s, o in sorted(got.rel_edges[p]):
            fwd[index[s]].append(index[o])
            inv[index[o]].append(index[s])
        stats.relation_triples += len(got.rel_edges[p])
        relations[p] = Relation(
            iri=p,
            label=relation_label(p, got.best("label", p)),
            description=got.best("desc", p),
            forward={k: tuple(sorted(v)) for k, v in sorted(fwd.items())},
            inverse={k: tuple(sorted(v)) for k, v in sorted(inv.items())},
        )
    return relations


def _attributes(got: _Triples, index: dict[str, int], stats: LoadStats) -> dict[str, Attribute]:
    """Every attribute by predicate IRI (sorted): one kind per predicate, the most common (ties: ATTRIBUTE_KINDS
    order; values of other kinds are dropped); strings only in the best-ranked language of each entity."""
    lang = got.lang
    attributes: dict[str, Attribute] = {}
    for p in sorted(set(got.attr_vals) | set(got.str_attr_lang)):
        by_kind: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
        for s, vals in got.attr_vals.get(p, {}).items():
            for kind, v in vals:
                by_kind[kind][index[s]].append(v)
        for s, vals in got.str_attr_lang.get(p, {}).items():
            ranked = sorted(vals, key=lambda x: (lang_rank(x[1], lang), x[0]))
            top = lang_rank(ranked[0][1], lang)
            by_kind["string"][index[s]].extend(v for v, lg in ranked if lang_rank(lg, lang) == top)
        if not by_kind:
            continue
        kind = max(by_kind, key=lambda k: (sum(len(v) for v in by_kind[k].values()), -ATTRIBUTE_KINDS.index(k)))
        values = {s: tuple(sorted(set(v))) for s, v in sorted(by_kind[kind].items())}
        stats.attribute_values += sum(len(v) for v in values.values())
        attributes[p] = Attribute(
            iri=p,
            label=got.best("label", p) or schema_name(p),
            description=got.best("desc", p),
            kind=kind,
            values=values,
        )
    return attributes


def build_graph(
    rdf, lang: str = "en", files: Iterable[str] = (), predicates: PredicateRules | None = None
) -> KnowledgeGraph:
    """Index an rdflib graph (any iterable of rdflib triples) into a KnowledgeGraph, texts chosen by language
    `lang`, predicates kept or skipped by `predicates`; `files` are recorded in its stats. See the module
    docstring for the rules."""
    stats = LoadStats(files=[str(f) for f in files])
    rules = predicates or PredicateRules()
    got = _collect(rdf, lang, stats, rules)
    _names_from_properties(got)
    if rules.fold:
        _values(got)
        _fold(got, stats)
    _tidy(got, stats, rules)
    entities = _entities(got)
    index = {iri: i for i, iri in enumerate(entities)}
    labels, alts, descs, types = _entity_texts(got, entities, stats)
    relations = _relations(got, index, stats)
    attributes = _attributes(got, index, stats)
    return KnowledgeGraph(entities, labels, alts, descs, types, relations, attributes, stats)


def load_graph(
    paths: Sequence[str | Path], lang: str = "en", predicates: PredicateRules | None = None
) -> KnowledgeGraph:
    """Parse and index one or more RDF files (merged; one path is accepted too) into a KnowledgeGraph (predicates
    kept or skipped by `predicates`, see `PredicateRules`). Raises InputError on unreadable or malformed input, or
    when the graph has nothing to build tools from."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    rdf = parse_files(paths)
    kg = build_graph(rdf, lang=lang, files=[str(p) for p in paths], predicates=predicates)
    if not kg.entities:
        raise InputError(
            f"{', '.join(map(str, paths))}: the graph has no relation between two IRIs and no typed attribute "
            f"({kg.stats.triples} triples read); nothing to build tools from"
        )
    return kg


__all__ = ["build_graph", "literal_value", "load_graph"]
