"""An on-disk knowledge graph for graphs that do not fit comfortably in memory (`kg2tool synth --store PATH`).

    PATH/manifest.json  the files it was built from (path, size, mtime, sha256), the label language, the index
                        format; written last, so a folder without it is not a store
    PATH/oxigraph/      pyoxigraph's persistent (RocksDB) store of every triple, bulk-loaded from the files; it can
                        be queried with SPARQL (`pyoxigraph.Store.read_only("PATH/oxigraph")`)
    PATH/index/         kg2tool's index of the graph as flat arrays, read through mmap: entity IRIs, labels,
                        unique names, alternative labels and types, sorted name/label/normalized-name lookup tables,
                        degrees, every relation's adjacency both ways (CSR), attribute values

`open_store(PATH, graphs)` builds the store on first use and reuses it after; it refuses a store built from other
files (path, size or modification time changed) or with another `--lang` unless asked to rebuild it.
`StoreGraph` has the interface of `kg2tool.graph.knowledge.KnowledgeGraph` that the walker, the executor and the writers use.

Design choices:
- Same ids as the in-memory graph (entities numbered in sorted IRI order) and the same rules for labels, names,
  types, attributes and name resolution, computed once at build time. Every draw of the walker depends only on
  those, so the same files and seed give the same dataset with or without `--store` (tested on small graphs;
  differences only where rdflib and pyoxigraph read a file differently, e.g. the case of language tags).
- Everything synthesis reads is in `index/`, as arrays that are memory-mapped, not loaded: a CSR lookup costs ~2 us
  where a pyoxigraph pattern lookup costs ~12 us plus an id lookup per neighbour, and asking RocksDB for entity
  types grew the process by ~90 MB on a 10M-triple graph (its per-file index blocks) and cost each spawned worker
  ~3 s. The triple store answers what synthesis never needs per step (descriptions) and everything else through
  SPARQL. No Python object is kept per entity or per edge, so the memory of a synth run barely grows with the
  graph; the pages of the index it touches are file-backed and can be dropped by the kernel.
- Build: one streaming pass of pyoxigraph's parser over the files computes the index (per triple: a few dict and
  array operations; edges are kept as typed arrays, texts per entity only as needed) while a second process
  bulk-loads the same files into RocksDB. Gzipped files are decompressed while streaming. The build's memory
  grows with the number of entities, not with the size of the files.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mmap
import os
import re
import shutil
import time
from array import array
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from functools import lru_cache
from pathlib import Path

from ..common.errors import InputError, UsageError, require_extra
from .knowledge import (
    ALT_LABEL_PREDICATES,
    DESCRIPTION_PREDICATES,
    LABEL_PREDICATES,
    META_PREDICATES,
    TYPE_PREDICATES,
    XSD,
    Attribute,
    EntityNames,
    LoadStats,
    Relation,
    _clean_text,
    _lang_rank,
    _literal_value,
    _pick,
    detect_format,
    normalize_name,
    readable_local_name,
    unique_names,
)

INDEX_FORMAT = 1
_OX_FORMATS = {"turtle": "TURTLE", "nt": "N_TRIPLES", "nquads": "N_QUADS", "xml": "RDF_XML", "n3": "N3"}
_TEXT_KIND = {p: 0 for p in LABEL_PREDICATES} | {p: 1 for p in ALT_LABEL_PREDICATES}
_TEXT_KIND |= {p: 2 for p in DESCRIPTION_PREDICATES}
_TYPE, _META, _OTHER = 3, 4, 5
# Plain lexical forms of common datatypes, converted directly (rdflib gives the same value for these forms; any
# other form goes through rdflib): datatype -> (kind, pattern, conversion).
_FAST = {
    XSD + "integer": ("integer", re.compile(r"-?[0-9]+"), int),
    XSD + "decimal": ("number", re.compile(r"-?[0-9]+(\.[0-9]+)?"), float),
    XSD + "double": ("number", re.compile(r"-?[0-9]+(\.[0-9]+)?"), float),
    XSD + "date": ("date", re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"), lambda x: date.fromisoformat(x).isoformat()),
    XSD + "boolean": ("boolean", re.compile(r"true|false"), lambda x: x == "true"),
}


# -- opening and building --------------------------------------------------------------------------------------
def open_store(path, graphs: Sequence[str | Path], lang: str = "en", rebuild: bool = False, log=print) -> StoreGraph:
    """The StoreGraph at `path`, built from `graphs` first if there is none (or if `rebuild`). Raises UsageError
    when the store was built from other files or another language, InputError for unreadable graph files."""
    require_extra("pyoxigraph", "store")
    path = Path(path)
    if not graphs:
        raise InputError("no graph file given (use --graph FILE)")
    files = [_file_info(Path(g)) for g in graphs]
    manifest = read_manifest(path)
    if manifest is None and path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"--store {path}: exists and is not a kg2tool store (no manifest.json); choose another path")
    if manifest is not None and not rebuild:
        problem = _mismatch(manifest, files, lang)
        if problem:
            raise UsageError(
                f"--store {path}: {problem}; rerun with --rebuild-store to rebuild it from the given files "
                "(or use another --store path)"
            )
        log(f"store {path}: reusing the index and triple store built from {len(files)} file(s)")
    else:
        t0 = time.perf_counter()
        build_store(path, [Path(g) for g in graphs], lang, log=log)
        log(f"store {path}: built in {time.perf_counter() - t0:.1f}s")
    kg = StoreGraph(path)
    kg.stats.files = [str(g) for g in graphs]
    return kg


def read_manifest(path: Path) -> dict | None:
    try:
        return json.loads((Path(path) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _file_info(path: Path) -> dict:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected an RDF file")
    return {"path": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _mismatch(manifest: dict, files: list[dict], lang: str) -> str:
    if manifest.get("index_format") != INDEX_FORMAT:
        return "it was built by another version of kg2tool"
    if manifest.get("lang") != lang:
        return f"it was built with --lang {manifest.get('lang')}, not {lang}"
    built = [{k: f[k] for k in ("path", "size", "mtime_ns")} for f in manifest.get("files", [])]
    if [f["path"] for f in built] != [f["path"] for f in files]:
        was = ", ".join(f["path"] for f in built)
        return f"it was built from other graph files ({was})"
    changed = [f["path"] for f, b in zip(files, built) if f != b]
    if changed:
        return f"graph file(s) changed since it was built (size or modification time): {', '.join(changed)}"
    return ""


def build_store(path: Path, graphs: list[Path], lang: str = "en", log=print) -> None:
    """Build the index and the pyoxigraph store in a folder beside `path`, then move it into place (an
    interrupted build leaves no store behind; a previous store at `path` is replaced only when complete).

    pyoxigraph's bulk load runs in a second process while this one computes the index from the same files: on two
    free cores the build takes about as long as the bulk load alone."""
    import subprocess
    import sys

    path = Path(path)
    tmp = path.parent / f".{path.name}.building-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    # A new interpreter, not a fork (a process with a RocksDB store open has threads a forked child can deadlock
    # on) nor multiprocessing's spawn (which would rerun the caller's main script).
    cmd = [sys.executable, "-m", "kg2tool.graph.store", str(tmp / "oxigraph"), str(tmp / "loaded.json"), *map(str, graphs)]
    loader = None
    try:
        t0 = time.perf_counter()
        with open(tmp / "loader.log", "wb") as err:
            loader = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        index = _IndexBuilder(lang)
        digests = [index.read(g) for g in graphs]
        stats = index.write(tmp / "index")
        log(
            f"store {path}: indexed {stats['entities']:,} entities, {stats['relation_triples']:,} edges in "
            f"{time.perf_counter() - t0:.1f}s"
        )
        code = loader.wait()
        loaded = json.loads((tmp / "loaded.json").read_text(encoding="utf-8")) if code == 0 else {}
        if "triples" not in loaded:
            log_text = (tmp / "loader.log").read_text(errors="replace").strip().splitlines()
            why = loaded.get("error") or (log_text[-1] if log_text else f"exit status {code}")
            raise InputError(f"the bulk load into pyoxigraph failed: {why}")
        triples = loaded["triples"]
        log(f"store {path}: bulk-loaded {triples:,} triples into pyoxigraph in {loaded['seconds']:.1f}s")
        meta_path = tmp / "index" / "meta.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta["stats"]["triples"] = triples
        meta_path.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        manifest = {
            "index_format": INDEX_FORMAT,
            "lang": lang,
            "files": [_file_info(g) | {"sha256": d} for g, d in zip(graphs, digests)],
            "entities": stats["entities"],
            "triples": triples,
        }
        (tmp / "loaded.json").unlink()
        (tmp / "loader.log").unlink()
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if path.exists():
            shutil.rmtree(path)
        os.replace(tmp, path)
    except BaseException:
        if loader is not None and loader.poll() is None:
            loader.terminate()
            loader.wait()
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _bulk_load(store_dir: str, graphs: list[str], result: str) -> None:
    """pyoxigraph bulk load of the files into a new store (in the loader process); writes {triples, seconds} or
    {error} to `result`."""
    import pyoxigraph as ox

    t0 = time.perf_counter()
    out: dict = {}
    try:
        store = ox.Store(store_dir)
        for name in graphs:
            g = Path(name)
            fmt, gz = detect_format(g)
            kw = {"format": getattr(ox.RdfFormat, _OX_FORMATS[fmt]), "base_iri": g.resolve().as_uri()}
            try:
                if gz:
                    with _open(g, gz) as f:
                        store.bulk_load(input=f, **kw)
                else:
                    store.bulk_load(path=str(g), **kw)
            except (SyntaxError, ValueError) as exc:
                raise InputError(f"{g}: malformed {fmt} ({str(exc).strip()[:200]})") from None
        store.flush()
        out = {"triples": len(store), "seconds": time.perf_counter() - t0}
        del store
    except Exception as exc:  # reported by the building process
        out = {"error": str(exc) if isinstance(exc, InputError) else f"bulk load failed: {type(exc).__name__}: {exc}"}
    Path(result).write_text(json.dumps(out), encoding="utf-8")


class _HashingReader:
    """A binary file whose bytes are also fed to sha256 as they are read (the digest of the file as stored)."""

    def __init__(self, f):
        self.f = f
        self.sha = hashlib.sha256()

    def read(self, n: int = -1) -> bytes:
        b = self.f.read(n)
        self.sha.update(b)
        return b

    def readinto(self, buf) -> int:
        n = self.f.readinto(buf)
        self.sha.update(memoryview(buf)[:n])
        return n

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self.f.close()


def _open(path: Path, gz: bool):
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    return gzip.GzipFile(fileobj=f, mode="rb") if gz else f


def _ox_literal_value(lit, rdflib_literal) -> tuple[str, object] | None:
    """`kg2tool.graph.knowledge._literal_value` of a pyoxigraph literal: plain forms of the common types directly, anything
    else through rdflib's own conversion (so invalid lexical forms are judged exactly as in memory)."""
    if lit.language:
        return ("string", _clean_text(lit.value))
    dt = lit.datatype.value
    lex = lit.value
    if dt == XSD + "string":
        return ("string", _clean_text(lex))
    fast = _FAST.get(dt)
    if fast is not None and fast[1].fullmatch(lex):
        kind, convert = fast[0], fast[2]
        try:
            return (kind, convert(lex))
        except ValueError:  # e.g. 2021-02-30: rdflib's conversion below decides
            pass
    return _literal_value(rdflib_literal(lex, datatype=dt))


class _IndexBuilder:
    """One streaming pass over the graph files (pyoxigraph's parser) that collects what the index needs, then
    `write()` computes the same tables as `kg2tool.graph.knowledge.build_graph` and saves them as arrays."""

    def __init__(self, lang: str):
        self.lang = lang
        self.ids: dict[str, int] = {}  # IRI -> provisional id, in order of first sight
        self.rels: dict[str, tuple[array, array]] = {}  # predicate -> (subjects, objects) provisional ids
        self.best: list[dict[int, tuple]] = [{}, {}, {}]  # label / (unused) / description: pid -> (key, text)
        self.pool: dict[int, list[str]] = defaultdict(list)  # pid -> label and alt texts in the preferred languages
        self.attr_vals: dict[str, list] = defaultdict(list)  # predicate -> [(pid, kind, value)]
        self.str_vals: dict[str, list] = defaultdict(list)  # predicate -> [(pid, text, lang)]
        self.type_s, self.type_o = array("i"), array("i")  # (entity, type) provisional ids of rdf:type / P31 links
        self.blank = 0
        self.ill_typed = 0

    def read(self, path: Path) -> str:
        """Index one file; return the sha256 of its bytes."""
        import pyoxigraph as ox
        from rdflib import Literal as RdfLiteral

        # rdflib logs a traceback for every literal with an invalid lexical form; they are counted and skipped.
        logging.getLogger("rdflib.term").setLevel(logging.CRITICAL)
        fmt, gz = detect_format(path)
        if fmt not in _OX_FORMATS:
            raise UsageError(
                f"{path}: the on-disk store loads Turtle, N-Triples, N-Quads, N3 and RDF/XML files, not {fmt}; "
                "convert it (e.g. to N-Triples) or leave out --store"
            )
        NN, LIT = ox.NamedNode, ox.Literal
        ids, rels, best, pool, lang = self.ids, self.rels, self.best, self.pool, self.lang
        kinds: dict[str, int] = {}
        try:
            raw = open(path, "rb")
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror}") from None
        reader = _HashingReader(raw)
        f = gzip.GzipFile(fileobj=reader, mode="rb") if gz else reader
        parser = ox.parse(f, format=getattr(ox.RdfFormat, _OX_FORMATS[fmt]), base_iri=path.resolve().as_uri())
        try:
            for q in parser:
                s, o = q.subject, q.object
                to = type(o)
                if type(s) is not NN or (to is not NN and to is not LIT):
                    self.blank += 1
                    continue
                p = q.predicate.value
                kind = kinds.get(p)
                if kind is None:
                    kind = kinds[p] = _TEXT_KIND.get(p, _TYPE if p in TYPE_PREDICATES else _META if p in META_PREDICATES else _OTHER)  # fmt: skip
                if to is LIT:
                    if kind <= 2:
                        sv = s.value
                        i = ids.get(sv)
                        if i is None:
                            i = ids[sv] = len(ids)
                        text, lg = _clean_text(o.value), o.language
                        rank = _lang_rank(lg, lang)
                        if kind != 2 and rank < 3:
                            pool[i].append(text)
                        if kind != 1:
                            key = (rank, lg or "", text)
                            cur = best[kind].get(i)
                            if cur is None or key < cur:
                                best[kind][i] = key
                        continue
                    if kind == _TYPE:
                        continue
                    val = _ox_literal_value(o, RdfLiteral)
                    if val is None:
                        self.ill_typed += 1
                        continue
                    sv = s.value
                    i = ids.get(sv)
                    if i is None:
                        i = ids[sv] = len(ids)
                    if val[0] == "string":
                        self.str_vals[p].append((i, val[1], o.language))
                    else:
                        self.attr_vals[p].append((i, val[0], val[1]))
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
                        self.type_s.append(i)
                        self.type_o.append(j)
                    continue  # schema predicates are no relation
                sv, ov = s.value, o.value
                i = ids.get(sv)
                if i is None:
                    i = ids[sv] = len(ids)
                j = ids.get(ov)
                if j is None:
                    j = ids[ov] = len(ids)
                edges = rels.get(p)
                if edges is None:
                    edges = rels[p] = (array("i"), array("i"))
                edges[0].append(i)
                edges[1].append(j)
        except SyntaxError as exc:
            raise InputError(f"{path}: malformed {fmt} ({str(exc).strip()[:200]})") from None
        except (OSError, EOFError) as exc:
            raise InputError(f"{path}: cannot read: {exc}") from None
        finally:
            f.close()
        return reader.sha.hexdigest()

    def _text(self, kind: int, pid: int | None) -> str:
        got = self.best[kind].get(pid) if pid is not None else None
        return got[2] if got else ""

    def write(self, out: Path) -> dict:
        """Compute the tables (the rules of kg2tool.graph.knowledge.build_graph) and save them under `out`."""
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        out.mkdir(parents=True)
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
        _save_strings(out, "iri", iris)

        # Relations: deduplicated edges, CSR both ways; degrees.
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
            pp = pred_pid[p]
            rel_meta.append(
                {
                    "iri": p,
                    "label": self._text(0, pp) or readable_local_name(p),
                    "description": self._text(2, pp),
                    "support": len(pair),
                    "forward": segs[0],
                    "inverse": segs[1],
                }
            )
        self.rels = {}
        # Per entity, the (relation, direction) segments it is a key of, as codes 2 * relation + inverse, in
        # relation order (the walker's `options`, without asking every relation).
        codes = (
            np.concatenate([np.full(len(k), c, dtype=np.int32) for c, k in enumerate(keys)])
            if keys
            else np.zeros(0, np.int32)
        )
        owners = np.concatenate(keys) if keys else np.zeros(0, np.int32)
        by_owner = np.lexsort((codes, owners))
        _save(out, "opt_ends", np.cumsum(np.bincount(owners, minlength=n)).astype(np.int64))
        _save(out, "opt_vals", codes[by_owner])
        del codes, owners, by_owner
        _save(out, "rel_keys", np.concatenate(keys) if keys else np.zeros(0, np.int32))
        _save(out, "rel_ends", np.concatenate(ends).astype(np.int64) if ends else np.zeros(0, np.int64))
        _save(out, "rel_vals", np.concatenate(vals) if vals else np.zeros(0, np.int32))
        _save(out, "degree", degree.astype(np.int32))

        # Labels, alternative labels, unique names.
        unlabeled = 0
        labels = []
        best_label, pool = self.best[0], self.pool
        ent_pid_list, final_list = ent_pids.tolist(), final.tolist()  # Python ints: fast to index in loops
        for pid in ent_pid_list:
            got = best_label.get(pid)
            if got is None or not got[2]:
                unlabeled += 1
                labels.append(readable_local_name(pid_iri[pid]))
            else:
                labels.append(got[2])
        alts = [()] * n
        for pid, texts in pool.items():
            fid = final_list[pid]
            if fid >= 0:
                lab = labels[fid]
                alts[fid] = tuple(sorted({a for a in texts if a and a != lab}))
        names = unique_names(labels, lambda i: self._text(2, ent_pid_list[i]), _Ids(iris))
        # Types: the labels of an entity's distinct type IRIs, sorted (as build_graph's `types`).
        types = [""] * n
        if len(self.type_s):
            ts = final[np.frombuffer(self.type_s, dtype=np.int32)]
            to = np.frombuffer(self.type_o, dtype=np.int32).astype(np.int64)
            keep = ts >= 0
            pair = np.unique(ts[keep] * len(pid_iri) + to[keep])
            ts, to = (pair // len(pid_iri)).tolist(), (pair % len(pid_iri)).tolist()
            type_label: dict[int, str] = {}
            for t in set(to):
                type_label[t] = self._text(0, t) or readable_local_name(pid_iri[t])
            start = 0
            for k in range(1, len(ts) + 1):
                if k == len(ts) or ts[k] != ts[start]:
                    types[ts[start]] = json.dumps(sorted(type_label[t] for t in to[start:k]), ensure_ascii=False)
                    start = k
        self.type_s = self.type_o = array("i")
        _save_strings(out, "types", pa.array(types, type=pa.large_string()))
        del types
        _save_strings(out, "label", pa.array(labels, type=pa.large_string()))
        _save_strings(out, "name", pa.array(names, type=pa.large_string()))
        _save_strings(out, "alts", pa.array([json.dumps(a, ensure_ascii=False) if a else "" for a in alts],
                                            type=pa.large_string()))  # fmt: skip

        # Lookup tables (resolve): exact name; exact label and normalized key, ties to the highest degree, then
        # the smallest IRI (= the smallest id).
        neg_deg = -degree
        _save_table(out, "by_name", names, np.arange(n), neg_deg)
        _save_table(out, "by_label", labels, np.arange(n), neg_deg)
        norm_keys, norm_ids = [], []
        for i in range(n):
            for text in {names[i], labels[i], *alts[i]}:
                key = normalize_name(text)
                if key:
                    norm_keys.append(key)
                    norm_ids.append(i)
        _save_table(out, "by_norm", norm_keys, np.array(norm_ids, dtype=np.int64), neg_deg)
        del names, labels, alts, norm_keys, norm_ids

        # Attributes: one kind per predicate (the most common), values sorted and deduplicated per entity.
        akeys, aends, ablob, attr_meta = [], [], [], []
        nb = 0
        attribute_values = 0
        order_kinds = ["integer", "number", "date", "datetime", "boolean", "string"]
        for p in sorted(set(self.attr_vals) | set(self.str_vals)):
            by_kind: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
            for pid, kind, v in self.attr_vals.get(p, ()):
                by_kind[kind][final_list[pid]].append(v)
            per_s: dict[int, list] = defaultdict(list)
            for pid, text, lg in self.str_vals.get(p, ()):
                per_s[final_list[pid]].append((text, lg))
            for fid, vs in per_s.items():
                ranked = sorted(vs, key=lambda x: (_lang_rank(x[1], self.lang), x[0]))
                top = _lang_rank(ranked[0][1], self.lang)
                by_kind["string"][fid].extend(v for v, lg in ranked if _lang_rank(lg, self.lang) == top)
            if not by_kind:
                continue
            kind = max(by_kind, key=lambda k: (sum(len(v) for v in by_kind[k].values()), -order_kinds.index(k)))
            values = sorted(by_kind[kind].items())
            k0 = sum(len(k) for k in akeys)
            akeys.append(np.array([fid for fid, _ in values], dtype=np.int32))
            texts = [json.dumps(sorted(set(v)), ensure_ascii=False).encode("utf-8") for _, v in values]
            attribute_values += sum(len(set(v)) for _, v in values)
            lens = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
            aends.append(nb + np.cumsum(lens))
            ablob.append(b"".join(texts))
            pp = pred_pid[p]
            attr_meta.append(
                {
                    "iri": p,
                    "label": self._text(0, pp) or readable_local_name(p),
                    "description": self._text(2, pp),
                    "kind": kind,
                    "keys": [k0, k0 + len(values), nb],
                }
            )
            nb += int(lens.sum())
        _save(out, "attr_keys", np.concatenate(akeys) if akeys else np.zeros(0, np.int32))
        _save(out, "attr_ends", np.concatenate(aends) if aends else np.zeros(0, np.int64))
        (out / "attr_vals.bin").write_bytes(b"".join(ablob))

        stats = {
            "entities": n,
            "triples": 0,  # set once the triple store is loaded (distinct triples)
            "relation_triples": relation_triples,
            "attribute_values": attribute_values,
            "blank_node_triples_skipped": self.blank,
            "ill_typed_literals_skipped": self.ill_typed,
            "unlabeled_entities": unlabeled,
        }
        meta = {"relations": rel_meta, "attributes": attr_meta, "stats": stats, "lang": self.lang}
        (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        return stats


class _Ids(Sequence):
    """Entity IRIs by final id, from the sorted Arrow array (for unique_names' rare fallbacks)."""

    def __init__(self, iris):
        self.iris = iris

    def __len__(self) -> int:
        return len(self.iris)

    def __getitem__(self, i):
        return self.iris[i].as_py()


def _save(out: Path, name: str, arr) -> None:
    import numpy as np

    np.save(out / f"{name}.npy", arr)


def _save_strings(out: Path, name: str, arr) -> None:
    """Strings as one UTF-8 blob plus int64 offsets (Arrow's large_string buffers as they are)."""
    import numpy as np
    import pyarrow as pa

    arr = pa.concat_arrays([arr]) if isinstance(arr, pa.Array) else arr.combine_chunks()
    arr = arr.cast(pa.large_string())
    _, offsets, data = arr.buffers()
    off = np.frombuffer(offsets, dtype=np.int64)[arr.offset : arr.offset + len(arr) + 1]
    _save(out, f"{name}_off", off - off[0])
    (out / f"{name}.bin").write_bytes(data.to_pybytes()[off[0] : off[-1]] if data is not None else b"")


def _save_table(out: Path, name: str, keys: list[str], ids, neg_deg) -> None:
    """A lookup table: keys sorted (UTF-8 byte order), one id per distinct key, the best by (-degree, id)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    table = pa.table({"k": pa.array(keys, type=pa.large_string()), "d": neg_deg[ids], "i": ids})
    table = table.take(pc.sort_indices(table, sort_keys=[("k", "ascending"), ("d", "ascending"), ("i", "ascending")]))
    k = table.column("k").combine_chunks()
    first = np.ones(len(k), dtype=bool)
    if len(k) > 1:
        first[1:] = pc.not_equal(k.slice(1), k.slice(0, len(k) - 1)).to_numpy(zero_copy_only=False)
    sel = pa.array(np.flatnonzero(first))
    _save_strings(out, f"{name}_keys", k.take(sel))
    _save(out, f"{name}_ids", table.column("i").combine_chunks().take(sel).to_numpy().astype(np.int32))


# -- reading ---------------------------------------------------------------------------------------------------
def _mapped(path: Path):
    """A saved array, memory-mapped, as a plain ndarray view (numpy's memmap subclass costs ~1 us per access)."""
    import numpy as np

    return np.asarray(np.load(path, mmap_mode="r"))


class _Blob:
    """Read-only strings: an mmap'd UTF-8 blob and its offsets (np.load mmap)."""

    def __init__(self, folder: Path, name: str):

        self.off = _mapped(folder / f"{name}_off.npy")
        path = folder / f"{name}.bin"
        self._f = open(path, "rb")
        size = path.stat().st_size
        self.data = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        self.n = len(self.off) - 1

    def bytes(self, i: int) -> bytes:
        return self.data[self.off[i] : self.off[i + 1]]

    def text(self, i: int) -> str:
        return self.data[self.off[i] : self.off[i + 1]].decode("utf-8")

    def lower_bound(self, key: bytes, lo: int = 0, hi: int | None = None) -> int:
        """First position whose string is >= key (strings sorted by their UTF-8 bytes)."""
        hi = self.n if hi is None else hi
        off, data = self.off, self.data
        while lo < hi:
            mid = (lo + hi) // 2
            if data[off[mid] : off[mid + 1]] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo


class _Strings(Sequence):
    """A Sequence[str] over a _Blob (entity IRIs, labels, names by id)."""

    def __init__(self, blob: _Blob):
        self.blob = blob

    def __len__(self) -> int:
        return self.blob.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.blob.text(j) for j in range(*i.indices(self.blob.n))]
        if i < 0:
            i += self.blob.n
        if not 0 <= i < self.blob.n:
            raise IndexError(i)
        return self.blob.text(i)

    def __iter__(self) -> Iterator[str]:
        for i in range(self.blob.n):
            yield self.blob.text(i)


class _Table:
    """A sorted lookup table: key -> id (see _save_table)."""

    def __init__(self, folder: Path, name: str):

        self.keys = _Blob(folder, f"{name}_keys")
        self.ids = _mapped(folder / f"{name}_ids.npy")

    def get(self, key: str) -> int | None:
        kb = key.encode("utf-8", "surrogatepass")
        i = self.keys.lower_bound(kb)
        if i < self.keys.n and self.keys.bytes(i) == kb:
            return int(self.ids[i])
        return None


class _IdSeq(Sequence):
    """Sorted ids as a Sequence[int] (a view of a memory-mapped int32 array)."""

    def __init__(self, arr):
        self.arr = arr

    def __len__(self) -> int:
        return len(self.arr)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [int(x) for x in self.arr[i]]
        return int(self.arr[i])

    def __iter__(self) -> Iterator[int]:
        for start in range(0, len(self.arr), 65536):
            yield from self.arr[start : start + 65536].tolist()


class CSRMap(Mapping):
    """One relation in one direction: entity id -> sorted tuple of neighbour ids, from the CSR arrays."""

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
        return iter(_IdSeq(self.keys))

    def sorted_keys(self) -> _IdSeq:
        return _IdSeq(self.keys)

    @property
    def n_values(self) -> int:
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
        return iter(_IdSeq(self.keys))

    def sorted_keys(self) -> _IdSeq:
        return _IdSeq(self.keys)


class StoreRelation(Relation):
    @property
    def support(self) -> int:
        return self.forward.n_values


class _PerId(Sequence):
    """A Sequence whose item i is fn(i), cached (descriptions from the triple store; alternative labels, types)."""

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

    def __init__(self, blob: _Blob):
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
        return iter(_Strings(self.blob))


class StoreGraph(EntityNames):
    """A knowledge graph read from a store folder (see the module docstring); the interface of KnowledgeGraph."""

    def __init__(self, path):

        self.path = Path(path)
        folder = self.path / "index"
        manifest = read_manifest(self.path) or {}
        self.sha256 = [f.get("sha256", "") for f in manifest.get("files", [])]
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        self.lang = meta["lang"]
        self._iri_blob = _Blob(folder, "iri")
        self.entities = _Strings(self._iri_blob)
        self.labels = _Strings(_Blob(folder, "label"))
        self.names = _Strings(_Blob(folder, "name"))
        self._alts = _Blob(folder, "alts")
        n = len(self.entities)
        self.alt_labels = _PerId(lambda i: tuple(json.loads(t)) if (t := self._alts.text(i)) else (), n)
        self.descriptions = _PerId(self._description, n)
        self._types_blob = _Blob(folder, "types")
        self.types = _PerId(lambda i: tuple(json.loads(t)) if (t := self._types_blob.text(i)) else (), n)
        self.degree = _IdSeq(_mapped(folder / "degree.npy"))
        self.index = _IriIndex(self._iri_blob)
        keys = _mapped(folder / "rel_keys.npy")
        ends = _mapped(folder / "rel_ends.npy")
        vals = _mapped(folder / "rel_vals.npy")
        self._opt_ends = _mapped(folder / "opt_ends.npy")
        self._opt_vals = _mapped(folder / "opt_vals.npy")
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
        akeys = _mapped(folder / "attr_keys.npy")
        aends = _mapped(folder / "attr_ends.npy")
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
        self._by_name = _Table(folder, "by_name")
        self._by_label = _Table(folder, "by_label")
        self._by_norm = _Table(folder, "by_norm")
        self.resolve = lru_cache(maxsize=65536)(self._resolve)
        self._ox = None
        self._ox_pid = None

    # -- the triple store (descriptions) ---------------------------------------------------------------
    def _store(self):
        """The pyoxigraph store, opened read-only once per process (a forked worker opens its own)."""
        if self._ox is None or self._ox_pid != os.getpid():
            import pyoxigraph as ox

            self._ox = ox.Store.read_only(str(self.path / "oxigraph"))
            self._ox_pid = os.getpid()
        return self._ox

    @property
    def forkable(self) -> bool:
        """Whether a process may fork with this graph: not once it has opened the triple store (RocksDB's threads
        would be copied mid-state). Synthesis reads only the index, so it never opens it."""
        return self._ox is None

    def _objects(self, iri: str, predicates) -> list:
        import pyoxigraph as ox

        store, s = self._store(), ox.NamedNode(iri)
        seen, out = set(), []
        for p in predicates:
            for q in store.quads_for_pattern(s, ox.NamedNode(p), None, None):
                if q.object not in seen:  # N-Quads: the same triple in several graphs counts once
                    seen.add(q.object)
                    out.append(q.object)
        return out

    def _texts(self, iri: str, predicates) -> list[tuple[str, str | None]]:
        import pyoxigraph as ox

        return [
            (_clean_text(o.value), o.language) for o in self._objects(iri, predicates) if isinstance(o, ox.Literal)
        ]

    def _description(self, i: int) -> str:
        vals = self._texts(self.entities[i], DESCRIPTION_PREDICATES)
        return _pick(vals, self.lang)[0] if vals else ""

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
        for rel in self.relations.values():
            for s in rel.forward:
                for o in rel.forward[s]:
                    yield self.names[s], rel.label, self.names[o]


__all__ = ["StoreGraph", "open_store", "build_store", "read_manifest", "CSRMap"]

if __name__ == "__main__":  # the bulk-load process of build_store: STORE_DIR RESULT_JSON GRAPH...
    import sys

    _bulk_load(sys.argv[1], sys.argv[3:], sys.argv[2])
