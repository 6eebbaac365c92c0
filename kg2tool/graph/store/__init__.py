"""An on-disk knowledge graph for graphs that do not fit comfortably in memory (`kg2tool synth --store PATH`).

    PATH/manifest.json  the files it was built from (path, size, mtime, sha256), the label language, the index
                        format, the size and checksum of every index file; written last, and the folder is built
                        under a hidden temporary name and renamed into place only when complete, so a killed or
                        failed build never leaves anything at PATH
    PATH/index/         kg2tool's index of the graph as flat arrays, read through mmap: entity IRIs, labels,
                        unique names, alternative labels, descriptions and types, sorted name/label/normalized-name
                        lookup tables, degrees, every relation's adjacency both ways (CSR), attribute values
    PATH/oxigraph/      pyoxigraph's persistent (RocksDB) store of every triple, for SPARQL; not built with the
                        index but on first use (`StoreGraph.triple_store()`, a bulk load of the files: see
                        `triples`); then also `pyoxigraph.Store.read_only("PATH/oxigraph")`

`open_store(PATH, graphs)` builds the store on first use and reuses it after; it refuses a store built from other
files (path, size or modification time changed) or with another `--lang` unless asked to rebuild it (exit 2), and
a damaged store (an index file missing, cut short or changed; a damaged manifest) or one of another index format
(exit 3, naming the file and `--rebuild-store`; see `manifest` for the cost of the check).
`StoreGraph` has the interface of `kg2tool.graph.model.KnowledgeGraph` that the walker, the executor and the
writers use.

Design choices:
- Same ids as the in-memory graph (entities numbered in sorted IRI order) and the same rules for labels, names,
  types, attributes and name resolution, computed once at build time. Every draw of the walker depends only on
  those, so the same files and seed give the same dataset with or without `--store` (tested on small graphs;
  differences only where rdflib and pyoxigraph read a file differently, e.g. the case of language tags).
- Everything synthesis reads is in `index/`, as arrays that are memory-mapped, not loaded: a CSR lookup costs ~2 us
  where a pyoxigraph pattern lookup costs ~12 us plus an id lookup per neighbour, and asking RocksDB for entity
  types grew the process by ~90 MB on a 10M-triple graph (its per-file index blocks) and cost each spawned worker
  ~3 s. No Python object is kept per entity or per edge, so the memory of a synth run barely grows with the
  graph; the pages of the index it touches are file-backed and can be dropped by the kernel.
- Build: one streaming pass of pyoxigraph's parser over the files computes the index (per triple: a few dict and
  array operations; edges are kept as typed arrays, texts per entity only as needed) and counts the distinct
  triples. Gzipped files are decompressed while streaming, and each file's sha256 is computed from the bytes the
  parser reads (no second read). The triple store is not built then: synthesis never reads it, and its bulk load
  costs about as much as the index pass (at 1M generated triples 5.1 s CPU alone, bench/bench_scale.py); whoever
  wants SPARQL gets it built on the first `triple_store()` call, from the files the manifest records (refused if
  they changed since).

Modules: `build` (open_store, build_store), `manifest`, `source` (reading files with pyoxigraph), `index` (the
index builder), `tidy` (the hygiene rules over id arrays), `arrays` (the on-disk arrays, strings and lookup
tables), `reader` (StoreGraph and its mappings), `triples` (the triple store, built on first use, and its
bulk-load process).
"""

from .build import build_store, open_store
from .manifest import read_manifest
from .reader import CSRMap, StoreGraph

__all__ = ["StoreGraph", "open_store", "build_store", "read_manifest", "CSRMap"]
