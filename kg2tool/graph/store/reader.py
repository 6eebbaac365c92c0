"""Reading a store: `StoreGraph`, a knowledge graph with the interface of `kg2tool.graph.model.KnowledgeGraph` that
the walker, the executor and the writers use, read from the store's `index/` through mmap.

Everything synthesis reads is in `index/`, as arrays that are memory-mapped, not loaded: a CSR lookup costs ~2 us
where a pyoxigraph pattern lookup costs ~12 us plus an id lookup per neighbour. No Python object is kept per
entity or per edge, so the memory of a synth run barely grows with the graph; the pages of the index it touches
are file-backed and can be dropped by the kernel. The pyoxigraph triple store (`oxigraph/`), for SPARQL, is
built and opened on first use (`StoreGraph.triple_store()`).
"""

from __future__ import annotations

import json
import mmap
import os
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from ..model import Attribute, LoadStats, Relation
from ..names import EntityNames, normalize_name
from .arrays import Blob, IdSeq, Strings, Table, mapped
from .manifest import read_manifest
from .triples import build_triple_store


class CSRMap(Mapping):
    """One relation in one direction: entity id -> sorted tuple of neighbour ids, from the CSR arrays.

    `keys` (int32 entity ids), `ends` (int64 end offsets into `vals`) and `vals` (int32 neighbour ids) are the
    store's rel_keys / rel_ends / rel_vals; `seg` = [first key, end key, first value] is this relation's segment."""

    def __init__(self, keys, ends, vals, seg):
        k0, k1, v0 = seg
        self.keys = keys[k0:k1]
        self.ends = ends[k0:k1]
        self.vals = vals
        self.v0 = v0
        self.n = k1 - k0

    def _pos(self, e) -> int:
        import numpy as np

        i = int(self.keys.searchsorted(np.int32(e)))  # an int32 key: a Python int would copy the array
        return i if i < self.n and self.keys[i] == e else -1

    def __getitem__(self, e) -> tuple[int, ...]:
        i = self._pos(e)
        if i < 0:
            raise KeyError(e)
        start = self.v0 if i == 0 else self.ends[i - 1]
        return tuple(self.vals[start : self.ends[i]].tolist())

    def get(self, e, default=None):
        """The neighbours of entity `e`, or `default` when it has none."""
        i = self._pos(e)
        if i < 0:
            return default
        start = self.v0 if i == 0 else self.ends[i - 1]
        return tuple(self.vals[start : self.ends[i]].tolist())

    def __contains__(self, e) -> bool:
        return self._pos(e) >= 0

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[int]:
        return iter(IdSeq(self.keys))

    def sorted_keys(self) -> IdSeq:
        """The entity ids with neighbours, sorted, as a view of the mapped array (no copy)."""
        return IdSeq(self.keys)

    @property
    def n_values(self) -> int:
        """The number of edges in this direction."""
        return int(self.ends[-1] - self.v0) if self.n else 0


class _AttrValues(Mapping):
    """One attribute: entity id -> sorted tuple of JSON values (one JSON array per entity in a blob)."""

    def __init__(self, keys, ends, data, seg):
        k0, k1, b0 = seg
        self.keys = keys[k0:k1]
        self.ends = ends[k0:k1]
        self.data = data
        self.b0 = b0
        self.n = k1 - k0
        self._get = lru_cache(maxsize=16384)(self._load)

    def _load(self, e):
        import numpy as np

        i = int(self.keys.searchsorted(np.int32(e)))  # an int32 key: a Python int would copy the array
        if i >= self.n or self.keys[i] != e:
            return None
        start = self.b0 if i == 0 else self.ends[i - 1]
        return tuple(json.loads(self.data[start : self.ends[i]]))

    def __getitem__(self, e):
        got = self._get(e)
        if got is None:
            raise KeyError(e)
        return got

    def get(self, e, default=None):
        got = self._get(e)
        return default if got is None else got

    def __contains__(self, e) -> bool:
        return self._get(e) is not None

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[int]:
        return iter(IdSeq(self.keys))

    def sorted_keys(self) -> IdSeq:
        return IdSeq(self.keys)


class StoreRelation(Relation):
    """A Relation whose `forward` and `inverse` are CSRMaps (support read from the segment, not summed)."""

    @property
    def support(self) -> int:
        """The number of edges."""
        return self.forward.n_values


class _PerId(Sequence):
    """A Sequence whose item i is fn(i), cached (alternative labels, types)."""

    def __init__(self, fn, n: int, size: int = 65536):
        self._fn = lru_cache(maxsize=size)(fn)
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return self._fn(int(i))


class _IriIndex(Mapping):
    """IRI -> id by binary search over the sorted IRIs (KnowledgeGraph.index)."""

    def __init__(self, blob: Blob):
        self.blob = blob

    def __getitem__(self, iri: str) -> int:
        kb = iri.encode("utf-8", "surrogatepass")
        i = self.blob.lower_bound(kb)
        if i < self.blob.n and self.blob.bytes(i) == kb:
            return i
        raise KeyError(iri)

    def __len__(self) -> int:
        return self.blob.n

    def __iter__(self):
        return iter(Strings(self.blob))


class StoreGraph(EntityNames):
    """A knowledge graph read from the store folder `path` (see kg2tool.graph.store); the interface of
    KnowledgeGraph: entities, labels, names, alt_labels, descriptions, types and degree by entity id, relations
    and attributes by predicate IRI, stats, resolve."""

    def __init__(self, path):
        self.path = Path(path)
        folder = self.path / "index"
        manifest = read_manifest(self.path) or {}
        self.sha256 = [f.get("sha256", "") for f in manifest.get("files", [])]
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        self.lang = meta["lang"]
        self._iri_blob = Blob(folder, "iri")
        self.entities = Strings(self._iri_blob)
        self.labels = Strings(Blob(folder, "label"))
        self.names = Strings(Blob(folder, "name"))
        self._alts = Blob(folder, "alts")
        n = len(self.entities)
        self.alt_labels = _PerId(lambda i: tuple(json.loads(t)) if (t := self._alts.text(i)) else (), n)
        self.descriptions = Strings(Blob(folder, "desc"))
        self._types_blob = Blob(folder, "types")
        self.types = _PerId(lambda i: tuple(json.loads(t)) if (t := self._types_blob.text(i)) else (), n)
        self.degree = IdSeq(mapped(folder / "degree.npy"))
        self.index = _IriIndex(self._iri_blob)
        keys = mapped(folder / "rel_keys.npy")
        ends = mapped(folder / "rel_ends.npy")
        vals = mapped(folder / "rel_vals.npy")
        self._opt_ends = mapped(folder / "opt_ends.npy")
        self._opt_vals = mapped(folder / "opt_vals.npy")
        self._codes = [(r["iri"], inv) for r in meta["relations"] for inv in (False, True)]
        self.relations = {
            r["iri"]: StoreRelation(
                r["iri"],
                r["label"],
                r["description"],
                CSRMap(keys, ends, vals, r["forward"]),
                CSRMap(keys, ends, vals, r["inverse"]),
            )
            for r in meta["relations"]
        }
        akeys = mapped(folder / "attr_keys.npy")
        aends = mapped(folder / "attr_ends.npy")
        self._attr_file = open(folder / "attr_vals.bin", "rb")
        size = (folder / "attr_vals.bin").stat().st_size
        adata = mmap.mmap(self._attr_file.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        self.attributes = {
            a["iri"]: Attribute(
                a["iri"], a["label"], a["description"], a["kind"], _AttrValues(akeys, aends, adata, a["keys"])
            )  # fmt: skip
            for a in meta["attributes"]
        }
        stats = dict(meta["stats"])
        stats.pop("entities", None)
        self.stats = LoadStats(**stats)
        self._by_name = Table(folder, "by_name")
        self._by_label = Table(folder, "by_label")
        self._by_norm = Table(folder, "by_norm")
        self.resolve = lru_cache(maxsize=65536)(self._resolve)
        self._ox = None
        self._ox_pid = None

    # -- the triple store (SPARQL) ------------------------------------------------------------------------
    def triple_store(self, log=print):
        """pyoxigraph's store of every triple of the graph files (for SPARQL: `kg.triple_store().query(...)`),
        opened read-only once per process (a forked worker opens its own); built on first use by a bulk load of the
        files (kg2tool.graph.store.triples). Synthesis never needs it."""
        if self._ox is None or self._ox_pid != os.getpid():
            import pyoxigraph as ox

            if not (self.path / "oxigraph").is_dir():
                build_triple_store(self.path, log=log)
            self._ox = ox.Store.read_only(str(self.path / "oxigraph"))
            self._ox_pid = os.getpid()
        return self._ox

    @property
    def forkable(self) -> bool:
        """Whether a process may fork with this graph: not once it has opened the triple store (RocksDB's threads
        would be copied mid-state). Synthesis reads only the index, so it never opens it."""
        return self._ox is None

    # -- names ---------------------------------------------------------------------------------------------
    def _resolve(self, name: str) -> int | None:
        i = self._by_name.get(name)
        if i is None:
            i = self._by_label.get(name)
        if i is None:
            key = normalize_name(name)
            i = self._by_norm.get(key) if key else None
        return i

    def resolve(self, name: str) -> int | None:  # replaced by a cached version in __init__
        """Entity id for a name, or None: the rule of KnowledgeGraph.resolve."""
        return self._resolve(name)

    def ids_named(self, name: str) -> list[int]:
        """KnowledgeGraph.ids_named from the names table: the entities labelled `name` are those whose display name
        is `name` or starts with `name (` (kg2tool.graph.names.unique_names), found by one range of sorted keys."""
        i = self._by_name.get(name)
        if i is not None:
            return [i]
        keys, ids = self._by_name.keys, self._by_name.ids
        prefix = (name + " (").encode("utf-8", "surrogatepass")
        got = []
        k = keys.lower_bound(prefix)
        while k < keys.n and keys.bytes(k).startswith(prefix):
            eid = int(ids[k])
            if self.labels[eid] == name:
                got.append(eid)
            k += 1
        if got:
            return sorted(got)
        eid = self.resolve(name)
        return [] if eid is None else [eid]

    def longest_name_in(self, text: str) -> str | None:
        """KnowledgeGraph.longest_name_in without scanning every name: from each position of `text`, the names
        table is narrowed to the keys that start with a longer and longer prefix until none does."""
        table = self._by_name
        keys = table.keys
        best: tuple[int, int] | None = None  # (-length, id)
        for start in range(len(text)):
            lo, hi = 0, keys.n
            for end in range(start + 1, len(text) + 1):
                prefix = text[start:end].encode("utf-8", "surrogatepass")
                lo = keys.lower_bound(prefix, lo, hi)
                hi = keys.lower_bound(prefix + b"\xff", lo, hi)
                if lo >= hi:
                    break
                if keys.bytes(lo) == prefix:
                    cand = (-(end - start), int(table.ids[lo]))
                    best = cand if best is None or cand < best else best
        return self.names[best[1]] if best else None

    def iter_facts(self) -> Iterator[tuple[str, str, str]]:
        """(subject name, relation label, object name) for every relation triple, in a fixed order."""
        for rel in self.relations.values():
            for s in rel.forward:
                for o in rel.forward[s]:
                    yield self.names[s], rel.label, self.names[o]


__all__ = ["CSRMap", "StoreGraph", "StoreRelation"]
