"""The store's index: one streaming pass of pyoxigraph's parser over the graph files, then the tables of the
in-memory load (the rules of kg2tool.graph.build.build_graph) computed with numpy/pyarrow and saved as arrays.

    index/iri, label, name, alts, types, desc   strings by entity id (alts and types as JSON arrays, "" when
                                          none; desc: the description, "" when none)
    index/by_name, by_label, by_norm      lookup tables of `resolve`
    index/degree.npy                      edges per entity
    index/rel_keys, rel_ends, rel_vals    every relation's adjacency both ways (CSR segments, see meta.json)
    index/opt_ends, opt_vals              per entity, the (relation, direction) segments it is a key of
    index/attr_keys, attr_ends, attr_vals.bin   attribute values, one JSON array per entity
    index/meta.json                       relations, attributes (labels, segments), load stats, language

Per triple the pass does a few dict and array operations (edges are kept as typed arrays of provisional ids,
texts per entity only as needed). It also counts the distinct triples (the load stats' `triples`, as rdflib's
graph holds them): relation edges and type links are kept as id arrays anyway, literal triples as (subject id,
predicate id, the literal's 64-bit hash: pyoxigraph's, the same in every process), the few others (blank nodes,
schema triples, links) in a set; so the build's memory is ~16 bytes per literal triple and 8 per edge beyond what
grows with the entities. Two different literals of one subject and predicate with the same hash would count
once: odds of ~1e-19 per such pair.

Long because the pass, the hygiene step (kg2tool.graph.hygiene) and the tables share one builder's state, and each
mirrors a step of kg2tool.graph.build that must stay side by side with it to give the same graph.
"""

from __future__ import annotations

import gzip
import json
import logging
from array import array
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from ...common.errors import InputError, UsageError
from ..blank import blank_names, is_text, literal_key
from ..build import ATTRIBUTE_KINDS
from ..hygiene import change_records, code_name, kebab_namespaces, named_namespaces, namespace, namespace_classes
from ..model import (
    ALT_LABEL_PREDICATES,
    DESCRIPTION_PREDICATES,
    LABEL_PREDICATES,
    META_PREDICATES,
    TYPE_PREDICATES,
    PredicateRules,
    kept_types,
)
from ..names import (
    APPELLATION_TEXTS,
    appellations,
    clean_label,
    clean_text,
    entity_name_from_iri,
    kind_qualifier,
    lang_rank,
    name_property,
    normalize_name,
    relation_label,
    schema_name,
    unique_names,
)
from ..parse import detect_format
from ..personal_names import is_name_link, name_part, names_from_parts
from ..reify import FoldedRelation, fold_reified, label_tokens, value_parts
from ..wikibase import SCHEMA_ABOUT, documents, property_entity, property_nodes
from .arrays import save_array, save_strings, save_table
from .source import OX_FORMATS, HashingReader, ox_literal_value
from .tidy import drop_opaque_values, opaque_mask, tidy_arrays

# Predicate kinds of the pass: texts (label 0, alternative label 1, description 2), type links, other schema
# predicates, and everything else (relations and attributes).
_TEXT_KIND = {p: 0 for p in LABEL_PREDICATES} | {p: 1 for p in ALT_LABEL_PREDICATES}
_TEXT_KIND |= {p: 2 for p in DESCRIPTION_PREDICATES}
_TYPE, _META, _OTHER, _LINK = 3, 4, 5, 6


class _Numbering:
    """Provisional ids (order of first sight) and final entity ids (sorted IRI order) of the pass's IRIs."""

    def __init__(self, pid_iri: list[str], pred_pid: dict, ent_pids, final, iris):
        self.pid_iri = pid_iri  # provisional id -> IRI
        self.pred_pid = pred_pid  # predicate IRI -> its provisional id (or None)
        self.ent_pids = ent_pids  # final id -> provisional id (numpy)
        self.final = final  # provisional id -> final id, -1 for a non-entity (numpy int64)
        self.iris = iris  # entity IRIs by final id (pyarrow)
        self.n = len(ent_pids)


class _Ids(Sequence):
    """Entity IRIs by final id, from the sorted Arrow array (for unique_names' rare fallbacks)."""

    def __init__(self, iris):
        self.iris = iris

    def __len__(self) -> int:
        return len(self.iris)

    def __getitem__(self, i):
        return self.iris[i].as_py()


class IndexBuilder:
    """One streaming pass over the graph files (pyoxigraph's parser) that collects what the index needs (`read`,
    once per file), then `write()` computes the same tables as `kg2tool.graph.build.build_graph` and saves them
    as arrays. Built for the label language `lang`."""

    def __init__(self, lang: str, predicates: PredicateRules | None = None):
        self.lang = lang
        self.rules = predicates or PredicateRules()
        self.schema_skipped = 0
        self.tidy_stats: dict = {"opaque_nodes_skipped": 0, "link_relations": 0}
        self.tidy_stats |= {"reified_nodes_folded": 0, "folded": []}
        self.ids: dict[str, int] = {}  # IRI -> provisional id, in order of first sight
        self.rels: dict[str, tuple[array, array]] = {}  # predicate -> (subjects, objects) provisional ids
        self.best: list[dict[int, tuple]] = [{}, {}, {}]  # label / (unused) / description: pid -> (key, text)
        self.pool: dict[int, list[str]] = defaultdict(list)  # pid -> label and alt texts in the preferred languages
        self.attr_vals: dict[str, list] = defaultdict(list)  # predicate -> [(pid, kind, value)]
        self.str_vals: dict[str, list] = defaultdict(list)  # predicate -> [(pid, text, lang)]
        self.type_s, self.type_o = array("i"), array("i")  # (entity, type) provisional ids of rdf:type / P31 links
        self.type_k = array("i")  # the predicate code (`codes`) of each type link
        self.kinds: dict[str, int] = {}  # predicate IRI -> its kind in the pass
        self.codes: dict[str, int] = {}  # predicate IRI -> a number, in order of first sight
        # literal triples as (subject, predicate code, the literal's hash): for counting distinct triples
        self.lit_s, self.lit_p, self.lit_o = array("i"), array("i"), array("q")
        self.other: set = set()  # the other triples (blank nodes, schema predicates, ill-typed literals)
        self.files = 0  # files read so far
        self.blank = 0
        self.blank_named = self.blank_values = 0
        self.ill_typed = 0

    # -- the pass over the files -------------------------------------------------------------------------------
    def read(self, path: Path) -> str:
        """Index one graph file; return the sha256 of its bytes. UsageError for a format the store does not load,
        InputError for an unreadable or malformed file."""
        import pyoxigraph as ox

        # rdflib logs a traceback for every literal with an invalid lexical form; they are counted and skipped.
        logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
        fmt, gz = detect_format(path)
        if fmt not in OX_FORMATS:
            raise UsageError(
                f"{path}: the on-disk store loads Turtle, N-Triples, N-Quads, TriG, N3 and RDF/XML files, not {fmt}; "
                "convert it (e.g. to N-Triples) or leave out --store"
            )
        try:
            raw = open(path, "rb")
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror}") from None
        reader = HashingReader(raw)
        f = gzip.GzipFile(fileobj=reader, mode="rb") if gz else reader
        parser = ox.parse(f, format=getattr(ox.RdfFormat, OX_FORMATS[fmt]), base_iri=path.resolve().as_uri())
        self.files += 1
        try:
            self._scan(parser)
        except SyntaxError as exc:
            raise InputError(f"{path}: malformed {fmt} ({str(exc).strip()[:200]})") from None
        except (OSError, EOFError) as exc:
            raise InputError(f"{path}: cannot read: {exc}") from None
        finally:
            f.close()
        return reader.sha.hexdigest()

    def _scan(self, parser) -> None:
        """Sort every parsed triple into texts, literal values, type links and relation edges (provisional ids),
        and keep what counting the distinct triples needs (`count_triples`): the relation edges and type links
        are kept anyway, literal triples as (subject, predicate, literal hash) numbers, the rest (blank nodes,
        schema triples, links) as a set. Long because it is the per-triple hot loop: one loop with local names and
        no helper call per triple."""
        import pyoxigraph as ox
        from rdflib import Literal as RdfLiteral

        NN, LIT = ox.NamedNode, ox.Literal
        ids, rels, best, pool, lang = self.ids, self.rels, self.best, self.pool, self.lang
        lit_s, lit_p, lit_o, other = self.lit_s, self.lit_p, self.lit_o, self.other
        str_vals, attr_vals, type_s, type_o, type_k = (
            self.str_vals,
            self.attr_vals,
            self.type_s,
            self.type_o,
            self.type_k,
        )
        kinds, codes = self.kinds, self.codes
        ranks: dict = {}  # language tag -> lang_rank
        adds = {p: (s.append, o.append) for p, (s, o) in rels.items()}  # predicate -> the appends of its edges
        for q in parser:
            s, o = q.subject, q.object
            to = type(o)
            if type(s) is not NN or (to is not NN and to is not LIT):
                other.add(("b", self.files, s, q.predicate, o))  # blank nodes are local to their file
                continue
            p = q.predicate.value
            kind = kinds.get(p)
            if kind is None:
                kind = kinds[p] = self._kind(p)
                codes[p] = len(codes)
            if to is LIT:
                if kind > 2 and (kind == _TYPE or kind == _META):
                    other.add(("m" if kind == _META else "o", s, p, o))
                    continue
                if kind > 2:
                    val = ox_literal_value(o, RdfLiteral)
                    if val is None:
                        other.add(("i", s, p, o))
                        continue
                sv = s.value
                i = ids.get(sv)
                if i is None:
                    i = ids[sv] = len(ids)
                lit_s.append(i)
                lit_p.append(codes[p])
                lit_o.append(hash(o))
                if kind <= 2:
                    text, lg = (clean_text if kind == 2 else clean_label)(o.value), o.language
                    rank = ranks.get(lg)
                    if rank is None:
                        rank = ranks[lg] = lang_rank(lg, lang)
                    if kind != 2 and rank < 3:
                        pool[i].append(text)
                    if kind != 1:
                        key = (rank, lg or "", text)
                        cur = best[kind].get(i)
                        if cur is None or key < cur:
                            best[kind][i] = key
                elif val[0] == "string":
                    str_vals[p].append((i, val[1], o.language))
                else:
                    attr_vals[p].append((i, val[0], val[1]))
                continue
            if kind == _LINK:
                sv = s.value
                i = ids.get(sv)
                if i is None:
                    i = ids[sv] = len(ids)
                str_vals[p].append((i, o.value, None))
                other.add(("o", s, p, o))
                continue
            if kind != _OTHER:
                if kind == _TYPE:
                    sv, ov = s.value, o.value
                    i = ids.get(sv)
                    if i is None:
                        i = ids[sv] = len(ids)
                    j = ids.get(ov)
                    if j is None:
                        j = ids[ov] = len(ids)
                    type_s.append(i)
                    type_o.append(j)
                    type_k.append(codes[p])
                    continue
                other.add(("m" if kind == _META else "o", s, p, o))
                continue  # schema predicates are no relation
            sv, ov = s.value, o.value
            i = ids.get(sv)
            if i is None:
                i = ids[sv] = len(ids)
            j = ids.get(ov)
            if j is None:
                j = ids[ov] = len(ids)
            add = adds.get(p)
            if add is None:
                edges = rels[p] = (array("i"), array("i"))
                add = adds[p] = (edges[0].append, edges[1].append)
            add[0](i)
            add[1](j)

    def _blank_named(self, held: list) -> list:
        """The triples that touch blank nodes (file number, subject, predicate, object), with the nodes named as in
        memory (kg2tool.graph.blank; literals compared as rdflib reads them), in the in-memory load's order."""
        import pyoxigraph as ox
        from rdflib import Literal as RdfLiteral

        def text(t):
            if type(t) is ox.Literal:
                lang = t.language
                lit = RdfLiteral(t.value, lang=lang) if lang else RdfLiteral(t.value, datatype=t.datatype.value)
                return literal_key(str(lit), lit.language, str(lit.datatype) if lit.datatype else None)
            return t.value

        def term(f, t):
            return (f, t.value) if type(t) is ox.BlankNode else text(t)

        rows = [(term(f, s), p, term(f, o), o) for f, s, p, o in held]
        names = blank_names(
            [(s, p.value, o) for s, p, o, _ in rows], lambda t: t if type(t) is tuple else None, self.rels.__contains__
        )
        self.blank_named, self.blank_values = len(names.iris), len(names.values)
        iris, values = names.iris, names.values
        NN = ox.NamedNode
        out = []
        for s, p, o, raw in rows:
            if (type(o) is tuple and (o in values or o in names.dropped)) or s in names.dropped:
                continue  # the link into a value node: its texts are linked to the owner below
            if type(s) is tuple and s in values:
                if type(raw) is ox.Literal and is_text(p.value):
                    got = names.owner(s)
                    if got is not None:
                        out.append((got[0], NN(got[1]), o, raw))
                continue
            out.append((iris[s] if type(s) is tuple else s, p, iris[o] if type(o) is tuple else o, raw))
        out.sort(key=lambda t: (t[0], t[1].value, t[2]))
        return [ox.Quad(NN(s), p, raw if type(raw) is ox.Literal else NN(o)) for s, p, o, raw in out]

    def count_triples(self) -> int:
        """The number of distinct triples read (what rdflib's in-memory graph holds: a triple repeated in a file,
        or in two files, or in two named graphs of N-Quads, counts once), from what the pass kept; call before
        `write`. Blank nodes are distinct per file, as when rdflib parses each file. The skipped triples (blank
        nodes, schema predicates, ill-typed literals) are counted here too, each distinct triple once."""
        import numpy as np

        tags = Counter(t[0] for t in self.other)
        self.blank, self.schema_skipped, self.ill_typed = tags["b"], tags["m"], tags["i"]

        n = len(self.ids)
        total = len(self.other)
        for s, o in self.rels.values():
            total += len(np.unique(np.frombuffer(s, dtype=np.int32).astype(np.int64) * n + np.frombuffer(o, np.int32)))
        for cols in ((self.type_k, self.type_s, self.type_o), (self.lit_p, self.lit_s, self.lit_o)):
            total += _distinct_rows(
                *(np.frombuffer(c, dtype=np.int32 if c.typecode == "i" else np.int64) for c in cols)
            )
        return total

    def _kind(self, p: str) -> int:
        """The pass's kind of predicate `p`: a text kind, a type link, skipped (schema, axiom or excluded), a link
        predicate, or a relation/attribute (the rules of kg2tool.graph.build._collect)."""
        if p in _TEXT_KIND:
            return _TEXT_KIND[p]
        if p in TYPE_PREDICATES:
            return _TYPE
        rule = self.rules.kind(p)
        if rule == "skip" or (p in META_PREDICATES and p not in self.rules.include):
            return _META
        return _LINK if rule == "link" else _OTHER

    def _tidy(self) -> None:
        """kg2tool.graph.hygiene's rules on the collected edges (as kg2tool.graph.build._tidy, vectorized in
        kg2tool.graph.store.tidy): opaque unlabeled nodes dropped, link-only relations turned into URL string
        values."""
        import numpy as np

        self._names_from_properties()
        if self.rules.fold:
            self._values()
        pid_iri = list(self.ids)
        if self.rules.fold:  # kg2tool.graph.reify first, as in kg2tool.graph.build (it may add predicates)
            edges = self._fold(pid_iri)
            if edges is not None:  # nodes were folded (else the edges stay as read: tidy_arrays deduplicates)
                self.rels = {p: (array("i", [s for s, _ in v]), array("i", [o for _, o in v]))
                             for p, v in ((p, sorted(v)) for p, v in edges.items())}  # fmt: skip
        n = len(pid_iri)
        labelled = np.zeros(n, dtype=bool)
        labelled[np.fromiter(self.best[0], dtype=np.int64, count=len(self.best[0]))] = True
        has_out = labelled.copy()
        has_out[np.fromiter(self.best[2], dtype=np.int64, count=len(self.best[2]))] = True
        has_out[np.frombuffer(self.type_s, dtype=np.int32)] = True
        tables = list(self.attr_vals.values()) + list(self.str_vals.values())
        val_pids = [np.fromiter((v[0] for v in vals), dtype=np.int64, count=len(vals)) for vals in tables]
        for pids in val_pids:
            has_out[pids] = True
        for s_arr, _ in self.rels.values():
            has_out[np.frombuffer(s_arr, dtype=np.int32)] = True
        nodes = np.zeros(n, dtype=bool)
        for s_arr, o_arr in self.rels.values():
            nodes[np.frombuffer(s_arr, dtype=np.int32)] = nodes[np.frombuffer(o_arr, dtype=np.int32)] = True
        for pids in val_pids:
            nodes[pids] = True
        named = named_namespaces((pid_iri[p], bool(labelled[p])) for p in np.flatnonzero(nodes).tolist())
        code_of = lambda pid: code_name(self._text(0, pid), pid_iri[pid])  # noqa: E731
        tidy, _ = tidy_arrays(self.rels, pid_iri, labelled, has_out, self.rules.include, named, code_of)
        self.rels = tidy.edges
        for table in (tidy.links, tidy.codes):
            for p, vals in table.items():
                self.str_vals[p].extend((s, text, None) for s, text in vals)
        val_opaque = opaque_mask(
            np.concatenate(val_pids) if val_pids else np.zeros(0, np.int64), pid_iri, labelled, named
        )
        dropped = set(tidy.opaque)
        for table in (self.attr_vals, self.str_vals):
            dropped |= drop_opaque_values(table, val_opaque.__getitem__)
        self.tidy_stats |= {
            "opaque_nodes_skipped": len(dropped),
            "link_relations": len(tidy.links),
            "code_relations": len(tidy.codes),
        }

    def _names_from_properties(self) -> None:
        """The string values of name properties read as texts (as kg2tool.graph.build._names_from_properties): a
        whole name is the label of a subject that has none (else an alternative label), another name an
        alternative label; the property is then no attribute."""
        pid_iri = list(self.ids)
        about = [(s, o) for p in SCHEMA_ABOUT for s, o in self._pairs().get(p, ())]
        typed = self._type_iris(pid_iri)
        pages = documents(((pid_iri[s], pid_iri[o]) for s, o in about), lambda s: typed.get(self.ids[s], ()))
        if pages:  # Wikibase: the pages about an entity (kg2tool.graph.wikibase)
            self._drop_nodes({self.ids[iri] for iri in pages})
        if changes := change_records(typed.items()) | property_nodes(typed.items()):  # a feed's records; properties
            self._drop_nodes(changes)
        for p in sorted({*self.rels, *self.attr_vals, *self.str_vals}):  # Wikibase: a property names its claims
            entity = self.ids.get(property_entity(p))
            if entity in self.best[0] and self.ids.get(p) not in self.best[0]:
                pid = self.ids.setdefault(p, len(self.ids))
                self.best[0][pid] = self.best[0][entity]
        labelled = set(self.best[0])
        for p in sorted(self.str_vals):
            role = name_property(p, self._text(0, self.ids.get(p)))
            if not role:
                continue
            for pid, text, lg in self.str_vals.pop(p):
                self._add_name(pid, text, lg, role == "label" and pid not in labelled)
        self._appellations(labelled)
        parts: dict = {}  # after the appellations: a person's given and family names, as the in-memory load reads them
        for p in self.str_vals:
            if name_part(p, self._text(0, self.ids.get(p))):
                for pid, text, lg in self.str_vals[p]:
                    parts.setdefault(p, {}).setdefault(pid, []).append((text, lg))
        named, things = set(self.best[0]), set()
        if parts:  # only a thing of its own (a link or a type): a node that only holds a name's parts is a name
            things = {int(x) for s_arr, _ in self.rels.values() for x in s_arr} | {int(x) for x in self.type_s}
            things -= {int(x) for p, (_, o_arr) in self.rels.items()
                       if is_name_link(p, self._text(0, self.ids.get(p))) for x in o_arr}  # fmt: skip
        for pid, name in names_from_parts(parts, lambda p: self._text(0, self.ids.get(p)), named, things).items():
            self._add_name(pid, name, None, True)

    def _add_name(self, pid: int, text: str, lg: str | None, as_label: bool) -> None:
        """One name of node `pid` from a name property or an appellation: an alternative name in the preferred
        languages, and with `as_label` a candidate for its label (the best by language rank, tag, text)."""
        text, rank = clean_label(text), lang_rank(lg, self.lang)
        if rank < 3:
            self.pool[pid].append(text)
        if as_label:
            key = (rank, lg or "", text)
            cur = self.best[0].get(pid)
            if cur is None or key < cur:
                self.best[0][pid] = key

    def _pairs(self) -> dict:
        """The relation edges as sets of (subject, object) provisional ids, by predicate."""
        return {p: set(zip(s_arr, o_arr)) for p, (s_arr, o_arr) in self.rels.items()}

    def _type_iris(self, pid_iri: list[str]) -> dict:
        types: dict = defaultdict(set)
        for s, t in zip(self.type_s, self.type_o):
            types[s].add(pid_iri[t])
        return types

    def _appellations(self, labelled: set) -> None:
        """Appellation nodes folded into their owners (as kg2tool.graph.build._appellations)."""
        pid_iri = list(self.ids)
        types = self._type_iris(pid_iri)
        values = {p: defaultdict(list) for p in APPELLATION_TEXTS}
        for p in APPELLATION_TEXTS:
            for pid, text, lg in self.str_vals.get(p, ()):
                values[p][pid].append((text, lg))

        def texts(n) -> list:
            own = self._text(0, n)
            return ([(own, None)] if own else []) + [v for p in APPELLATION_TEXTS for v in values[p].get(n, ())]

        def type_labels(n) -> list:
            return [self._text(0, self.ids.get(t)) or schema_name(t) for t in sorted(types.get(n, ()))]

        drop, names = appellations(self._pairs(), lambda p: self._text(0, self.ids.get(p)), type_labels, texts)
        if not drop:
            return
        for pid, said in names.items():
            for text, lg in said:
                self._add_name(pid, text, lg, pid not in labelled)
        self._drop_nodes(drop)

    def _drop_nodes(self, drop: set, merged: dict | None = None) -> None:
        """Nodes `drop` gone from the edges and values; edges to a node of `merged` go to the one it is one with."""
        merged = merged or {}
        rels = {}
        for p, pairs in sorted(self._pairs().items()):
            kept = sorted(
                {(s, merged.get(o, o)) for s, o in pairs if s not in drop and (o not in drop or o in merged)}
            )
            if kept:
                rels[p] = (array("i", [s for s, _ in kept]), array("i", [o for _, o in kept]))
        self.rels = rels
        for table in (self.attr_vals, self.str_vals):
            for p, vals in table.items():
                table[p] = [v for v in vals if v[0] not in drop]

    def _values(self) -> None:
        """Labelled parts of other nodes that are one value made one node (as kg2tool.graph.build._values)."""
        pid_iri = list(self.ids)
        merged = value_parts(self._pairs(), pid_iri.__getitem__, lambda n: self._text(0, n), self._type_iris(pid_iri))
        if merged:
            self._drop_nodes(set(merged), merged)

    def _fold(self, pid_iri: list[str]) -> dict | None:
        """kg2tool.graph.reify's folding on the collected edges (as kg2tool.graph.build._fold): returns the edges
        with the composed relations, or None when no node was folded; the folded nodes' values are dropped and the
        moved ones added."""
        types: dict = defaultdict(set)  # by type IRI, as in kg2tool.graph.build: the same ties, the same order
        for s, t in zip(self.type_s, self.type_o):
            types[s].add(pid_iri[t])
        tables = (self.attr_vals, self.str_vals)
        subjects = {p: {v[0] for v in vals} for table in tables for p, vals in table.items()}
        import numpy as np

        maybe = self._fold_maybe(len(pid_iri))
        incident = {}  # the edges that touch a node that may be folded: all that finding the candidates reads
        for p, (s_arr, o_arr) in self.rels.items():
            s, o = np.frombuffer(s_arr, dtype=np.int32), np.frombuffer(o_arr, dtype=np.int32)
            touch = maybe[s] | maybe[o]
            incident[p] = set(zip(s[touch].tolist(), o[touch].tolist()))
        folded = fold_reified(
            lambda: {p: set(zip(s_arr, o_arr)) for p, (s_arr, o_arr) in self.rels.items()},
            pid_iri.__getitem__, lambda n: self._text(0, n), types,
            lambda t: self._text(0, self.ids.get(t)) or schema_name(t),
            lambda p: self._text(0, self.ids.get(p)) or schema_name(p), subjects,
            maybe=set(np.flatnonzero(maybe).tolist()), incident=incident,
        )  # fmt: skip
        if not folded.nodes:
            return None
        edges = {p: set(v) for p, v in folded.edges.items()}
        for new in folded.relations + folded.attributes:  # the composed IRIs get their label and description
            pid = self.ids[new.iri] = len(self.ids)
            pid_iri.append(new.iri)
            self.best[0][pid] = (0, "", new.label)
            self.best[2][pid] = (0, "", new.description)
            if isinstance(new, FoldedRelation):
                edges[new.iri] = set(new.pairs)
            else:
                for table in tables:
                    moved = [(new.owner_of[v[0]], *v[1:]) for v in table.get(new.source, ()) if v[0] in new.owner_of]
                    if moved:
                        table[new.iri] = moved
        for table in tables:
            for p, vals in table.items():
                table[p] = [v for v in vals if v[0] not in folded.nodes]
        self.tidy_stats |= {
            "reified_nodes_folded": len(folded.nodes),
            "folded": [new.iri for new in folded.relations + folded.attributes],
        }
        return edges

    def _fold_maybe(self, n: int):
        """The nodes that may be reified (`fold_reified`'s `maybe`) as a boolean array by provisional id, found with
        numpy over the edges as read: the
        unlabelled ones, and the typed ones that share a word with the first word of a linked node's label
        (`label_tokens`); on a graph of named things that is few of them."""
        import numpy as np

        typed = np.zeros(n, dtype=bool)
        typed[np.frombuffer(self.type_s, dtype=np.int32)] = True
        is_typed = typed.tolist()
        word_id: dict[str, int] = {}
        texts, firsts, first_word, owners, words = array("q"), array("q"), array("q"), array("q"), array("q")
        for pid, (_, _, text) in self.best[0].items():
            if not text:
                continue
            texts.append(pid)
            toks = label_tokens(text)
            if toks:
                firsts.append(pid)
                first_word.append(word_id.setdefault(toks[0], len(word_id)))
                if is_typed[pid]:
                    for t in set(toks):
                        owners.append(pid)
                        words.append(word_id.setdefault(t, len(word_id)))
        has_text = np.zeros(n, dtype=bool)
        has_text[np.frombuffer(texts, dtype=np.int64)] = True
        first = np.full(n, -1, dtype=np.int64)
        first[np.frombuffer(firsts, dtype=np.int64)] = np.frombuffer(first_word, dtype=np.int64)
        w = len(word_id) + 1
        known = np.unique(np.frombuffer(owners, dtype=np.int64) * w + np.frombuffer(words, dtype=np.int64))
        ends = [np.frombuffer(a, dtype=np.int32).astype(np.int64) for pair in self.rels.values() for a in pair]
        if not ends:
            return np.zeros(n, dtype=bool)
        s, o = np.concatenate(ends[0::2]), np.concatenate(ends[1::2])
        node, other = np.concatenate([s, o]), np.concatenate([o, s])
        keep = (node != other) & (first[other] >= 0) & typed[node]
        node, other = node[keep], other[keep]
        key = node * w + first[other]
        at = np.minimum(np.searchsorted(known, key), max(len(known) - 1, 0))
        maybe = np.zeros(n, dtype=bool)
        if len(known):
            maybe[node[known[at] == key]] = True
        linked = np.zeros(n, dtype=bool)
        linked[s] = linked[o] = True
        maybe |= linked & ~has_text
        return maybe

    def _text(self, kind: int, pid: int | None) -> str:
        got = self.best[kind].get(pid) if pid is not None else None
        return got[2] if got else ""

    # -- the tables ----------------------------------------------------------------------------------------------
    def write(self, out: Path) -> dict:
        """Compute the tables (the rules of kg2tool.graph.build.build_graph) and save them under the new folder
        `out`; return the load stats (`triples`: the distinct triples read). InputError when the graph has no
        entity. The builder's collections are released as they are used."""
        import pyarrow as pa

        out.mkdir(parents=True)
        triples = self.count_triples()
        held = [t[1:] for t in self.other if t[0] == "b"]
        self.other, self.lit_s, self.lit_p, self.lit_o = set(), array("i"), array("i"), array("q")
        self._scan(self._blank_named(held))
        self._tidy()
        ids = self._number_entities(out)
        degree, rel_meta, relation_triples = self._write_relations(out, ids)
        ent_pid_list, final_list = ids.ent_pids.tolist(), ids.final.tolist()  # Python ints: fast to index in loops
        labels, unlabeled = self._labels(ent_pid_list, ids.pid_iri)
        alts = self._alt_labels(final_list, labels, ids.n)
        types = self._write_types(out, ids)
        names = unique_names(
            labels, lambda i: self._text(2, ent_pid_list[i]), _Ids(ids.iris),
            lambda i: kind_qualifier(json.loads(types[i])[0]) if types[i] else "",
        )  # fmt: skip
        self._write_names(out, labels, names, alts)
        save_strings(out, "desc", pa.array([self._text(2, p) for p in ent_pid_list], type=pa.large_string()))
        self._write_lookup(out, names, labels, alts, degree)
        del names, labels, alts
        attr_meta, attribute_values = self._write_attributes(out, ids, final_list)
        stats = {
            "entities": ids.n,
            "triples": triples,
            "relation_triples": relation_triples,
            "attribute_values": attribute_values,
            "blank_nodes_named": self.blank_named,
            "blank_value_nodes": self.blank_values,
            "ill_typed_literals_skipped": self.ill_typed,
            "unlabeled_entities": unlabeled,
            "schema_triples_skipped": self.schema_skipped,
            **self.tidy_stats,
        }
        meta = {"relations": rel_meta, "attributes": attr_meta, "stats": stats, "lang": self.lang}
        (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        return stats

    def _number_entities(self, out: Path) -> _Numbering:
        """Final ids: the entities (subjects and objects of edges, subjects of attribute values) in sorted IRI
        order; saves their IRIs. InputError when there is none."""
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        preds = set(self.rels) | set(self.attr_vals) | set(self.str_vals)
        pred_pid = {p: self.ids.get(p) for p in preds}
        pid_iri = list(self.ids)
        self.ids = {}
        is_ent = np.zeros(len(pid_iri), dtype=bool)
        for s, o in self.rels.values():
            is_ent[np.frombuffer(s, dtype=np.int32)] = True
            is_ent[np.frombuffer(o, dtype=np.int32)] = True
        for vals in list(self.attr_vals.values()) + list(self.str_vals.values()):
            is_ent[np.fromiter((v[0] for v in vals), dtype=np.int32, count=len(vals))] = True
        ent_pids = np.flatnonzero(is_ent).astype(np.int32)
        if not len(ent_pids):
            raise InputError(
                "the graph has no relation between two IRIs and no typed attribute; nothing to build tools from"
            )
        iris = pa.array([pid_iri[p] for p in ent_pids], type=pa.large_string())
        order = pc.sort_indices(iris).to_numpy()
        iris = iris.take(pa.array(order))
        ent_pids = ent_pids[order]  # final id -> provisional id
        n = len(ent_pids)
        final = np.full(len(pid_iri), -1, dtype=np.int64)
        final[ent_pids] = np.arange(n)
        save_strings(out, "iri", iris)
        return _Numbering(pid_iri, pred_pid, ent_pids, final, iris)

    def _write_relations(self, out: Path, ids: _Numbering) -> tuple:
        """Deduplicated edges, CSR both ways, and degrees; saves rel_*, opt_* and degree. Returns (degree, the
        relations' meta, the number of edges)."""
        import numpy as np

        n, final = ids.n, ids.final
        degree = np.zeros(n, dtype=np.int64)
        keys, ends, vals, rel_meta = [], [], [], []
        nk = nv = 0
        relation_triples = 0
        for p in sorted(self.rels):
            s_arr, o_arr = self.rels[p]
            s = final[np.frombuffer(s_arr, dtype=np.int32)]
            o = final[np.frombuffer(o_arr, dtype=np.int32)]
            pair = np.unique(s * n + o)
            s, o = pair // n, pair % n
            relation_triples += len(pair)
            degree += np.bincount(s, minlength=n) + np.bincount(o, minlength=n)
            segs = []
            by_o = np.lexsort((s, o))
            for a, b in ((s, o), (o[by_o], s[by_o])):
                k, counts = np.unique(a, return_counts=True)
                keys.append(k.astype(np.int32))
                ends.append(nv + np.cumsum(counts))
                vals.append(b.astype(np.int32))
                segs.append([nk, nk + len(k), nv])
                nk += len(k)
                nv += len(b)
            pp = ids.pred_pid[p]
            rel_meta.append(
                {
                    "iri": p,
                    "label": relation_label(p, self._text(0, pp)),
                    "description": self._text(2, pp),
                    "support": len(pair),
                    "forward": segs[0],
                    "inverse": segs[1],
                }
            )
        self.rels = {}
        self._write_options(out, keys, n)
        save_array(out, "rel_keys", np.concatenate(keys) if keys else np.zeros(0, np.int32))
        save_array(out, "rel_ends", np.concatenate(ends).astype(np.int64) if ends else np.zeros(0, np.int64))
        save_array(out, "rel_vals", np.concatenate(vals) if vals else np.zeros(0, np.int32))
        save_array(out, "degree", degree.astype(np.int32))
        return degree, rel_meta, relation_triples

    @staticmethod
    def _write_options(out: Path, keys: list, n: int) -> None:
        """Per entity, the (relation, direction) segments it is a key of, as codes 2 * relation + inverse, in
        relation order (the walker's `options`, without asking every relation). `keys` are the segments' keys."""
        import numpy as np

        codes = (
            np.concatenate([np.full(len(k), c, dtype=np.int32) for c, k in enumerate(keys)])
            if keys
            else np.zeros(0, np.int32)
        )
        owners = np.concatenate(keys) if keys else np.zeros(0, np.int32)
        by_owner = np.lexsort((codes, owners))
        save_array(out, "opt_ends", np.cumsum(np.bincount(owners, minlength=n)).astype(np.int64))
        save_array(out, "opt_vals", codes[by_owner])

    def _labels(self, ent_pid_list: list[int], pid_iri: list[str]) -> tuple[list[str], int]:
        """The label of every entity (the best text, else the readable local name) and how many had none."""
        unlabeled = 0
        labels = []
        best_label = self.best[0]
        types = None  # each entity's type IRIs, found once an entity has no label
        for pid in ent_pid_list:
            got = best_label.get(pid)
            if got is None or not got[2]:
                unlabeled += 1
                if types is None:
                    types = self._type_iris(pid_iri)
                    classes = namespace_classes(t for ts in types.values() for t in ts)
                    kebab = kebab_namespaces(pid_iri[p] for p in ent_pid_list)
                iri, ns = pid_iri[pid], namespace(pid_iri[pid])
                labels.append(entity_name_from_iri(iri, types.get(pid) or classes.get(ns, ()), ns in kebab))
            else:
                labels.append(got[2])
        return labels, unlabeled

    def _alt_labels(self, final_list: list[int], labels: list[str], n: int) -> list[tuple]:
        """Per entity, its label and alternative-label texts in the preferred languages other than its label."""
        alts = [()] * n
        for pid, texts in self.pool.items():
            fid = final_list[pid]
            if fid >= 0:
                lab = labels[fid]
                alts[fid] = tuple(sorted({a for a in texts if a and a != lab}))
        return alts

    def _write_types(self, out: Path, ids: _Numbering) -> list[str]:
        """Types: the labels of an entity's distinct type IRIs, sorted (as build_graph's `types`), as JSON; saved
        and returned (by entity id, "" when none)."""
        import numpy as np
        import pyarrow as pa

        types = [""] * ids.n
        pid_iri, final = ids.pid_iri, ids.final
        if len(self.type_s):
            ts = final[np.frombuffer(self.type_s, dtype=np.int32)]
            to = np.frombuffer(self.type_o, dtype=np.int32).astype(np.int64)
            keep = ts >= 0
            pair = np.unique(ts[keep] * len(pid_iri) + to[keep])
            ts, to = (pair // len(pid_iri)).tolist(), (pair % len(pid_iri)).tolist()
            type_label: dict[int, str] = {}
            for t in set(to):
                type_label[t] = self._text(0, t) or schema_name(pid_iri[t])
            start = 0
            seen: dict[tuple, str] = {}  # type sets repeat: each is written as JSON once
            for k in range(1, len(ts) + 1):
                if k == len(ts) or ts[k] != ts[start]:
                    key = tuple(to[start:k])
                    text = seen.get(key)
                    if text is None:
                        iri_of = {pid_iri[t]: t for t in key}
                        said = sorted(type_label[iri_of[i]] for i in kept_types(iri_of))
                        text = seen[key] = json.dumps(said, ensure_ascii=False) if said else ""
                    types[ts[start]] = text
                    start = k
        self.type_s = self.type_o = array("i")
        save_strings(out, "types", pa.array(types, type=pa.large_string()))
        return types

    @staticmethod
    def _write_names(out: Path, labels: list[str], names: list[str], alts: list[tuple]) -> None:
        """Save labels, unique names and alternative labels (JSON arrays, "" when none) by entity id."""
        import pyarrow as pa

        save_strings(out, "label", pa.array(labels, type=pa.large_string()))
        save_strings(out, "name", pa.array(names, type=pa.large_string()))
        save_strings(out, "alts", pa.array([json.dumps(a, ensure_ascii=False) if a else "" for a in alts],
                                           type=pa.large_string()))  # fmt: skip

    @staticmethod
    def _write_lookup(out: Path, names: list[str], labels: list[str], alts: list[tuple], degree) -> None:
        """Lookup tables (resolve): exact name; exact label and normalized key, ties to the highest degree, then
        the smallest IRI (= the smallest id)."""
        import numpy as np

        n = len(names)
        neg_deg = -degree
        save_table(out, "by_name", names, np.arange(n), neg_deg)
        save_table(out, "by_label", labels, np.arange(n), neg_deg)
        norm_keys, norm_ids = [], []
        for i in range(n):
            for text in {names[i], labels[i], *alts[i]}:
                key = normalize_name(text)
                if key:
                    norm_keys.append(key)
                    norm_ids.append(i)
        save_table(out, "by_norm", norm_keys, np.array(norm_ids, dtype=np.int64), neg_deg)

    def _write_attributes(self, out: Path, ids: _Numbering, final_list: list[int]) -> tuple[list, int]:
        """Attributes: one kind per predicate (the most common), values sorted and deduplicated per entity, one
        JSON array per entity in attr_vals.bin. Returns (the attributes' meta, the number of values)."""
        import numpy as np

        akeys, aends, ablob, attr_meta = [], [], [], []
        nb = 0
        attribute_values = 0
        for p in sorted(set(self.attr_vals) | set(self.str_vals)):
            by_kind = self._values_by_kind(p, final_list)
            if not by_kind:
                continue
            kind = max(by_kind, key=lambda k: (sum(len(v) for v in by_kind[k].values()), -ATTRIBUTE_KINDS.index(k)))
            values = sorted(by_kind[kind].items())
            k0 = sum(len(k) for k in akeys)
            akeys.append(np.array([fid for fid, _ in values], dtype=np.int32))
            texts = [json.dumps(sorted(set(v)), ensure_ascii=False).encode("utf-8") for _, v in values]
            attribute_values += sum(len(set(v)) for _, v in values)
            lens = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
            aends.append(nb + np.cumsum(lens))
            ablob.append(b"".join(texts))
            pp = ids.pred_pid[p]
            attr_meta.append(
                {
                    "iri": p,
                    "label": self._text(0, pp) or schema_name(p),
                    "description": self._text(2, pp),
                    "kind": kind,
                    "keys": [k0, k0 + len(values), nb],
                }
            )
            nb += int(lens.sum())
        save_array(out, "attr_keys", np.concatenate(akeys) if akeys else np.zeros(0, np.int32))
        save_array(out, "attr_ends", np.concatenate(aends) if aends else np.zeros(0, np.int64))
        (out / "attr_vals.bin").write_bytes(b"".join(ablob))
        return attr_meta, attribute_values

    def _values_by_kind(self, p: str, final_list: list[int]) -> dict[str, dict[int, list]]:
        """The values of predicate `p` by kind, then by final entity id; strings only in the best-ranked language
        of each entity."""
        by_kind: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
        for pid, kind, v in self.attr_vals.get(p, ()):
            by_kind[kind][final_list[pid]].append(v)
        per_s: dict[int, list] = defaultdict(list)
        for pid, text, lg in self.str_vals.get(p, ()):
            per_s[final_list[pid]].append((text, lg))
        for fid, vs in per_s.items():
            ranked = sorted(vs, key=lambda x: (lang_rank(x[1], self.lang), x[0]))
            top = lang_rank(ranked[0][1], self.lang)
            by_kind["string"][fid].extend(v for v, lg in ranked if lang_rank(lg, self.lang) == top)
        return by_kind


def _distinct_rows(*cols) -> int:
    """The number of distinct rows of equal-length integer columns."""
    import numpy as np

    if not len(cols[0]):
        return 0
    order = np.lexsort(cols)
    change = np.zeros(len(order) - 1, dtype=bool)
    for c in cols:
        c = c[order]
        change |= c[1:] != c[:-1]
    return 1 + int(change.sum())


__all__ = ["IndexBuilder"]
