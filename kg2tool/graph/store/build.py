"""Opening a store, and building it on first use: kg2tool's index (kg2tool.graph.store.index) computed in this
process while a second process bulk-loads the same files into pyoxigraph's RocksDB store; the folder is built
beside its final path and moved into place only when complete.
"""

from __future__ import annotations

import errno
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ... import __version__
from ...common.errors import InputError, UsageError, require_extra
from ...common.files import atomic_path, is_output_fault
from ..parse import detect_format
from .index import IndexBuilder
from .manifest import FIX, INDEX_FORMAT, check_files, checksums, file_info, mismatch, read_manifest, rules_record
from .reader import StoreGraph
from .source import OX_FORMATS, open_graph_file


def open_store(
    path, graphs: Sequence[str | Path], lang: str = "en", rebuild: bool = False, log=print, predicates=None
) -> StoreGraph:
    """The StoreGraph at `path`, built from `graphs` first if there is none (or if `rebuild`), predicates kept or
    skipped by `predicates` (`PredicateRules`, recorded in the manifest); `log` gets one line per step. Raises
    UsageError when the store was built from other files, another language or other predicate rules (or `path` is
    not a store), InputError for unreadable graph files and for a damaged store or one of another index format (an
    index file missing, cut short or changed: see kg2tool.graph.store.manifest), MissingExtraError without
    pyoxigraph."""
    require_extra("pyoxigraph", "store")
    path = Path(path)
    if not graphs:
        raise InputError("no graph file given (use --graph FILE)")
    files = [file_info(Path(g)) for g in graphs]
    try:
        manifest = read_manifest(path)
    except InputError:
        if not rebuild:
            raise
        manifest, damaged = None, True  # a damaged store, rebuilt as asked
    else:
        damaged = manifest is None and ((path / "index").is_dir() or (path / "oxigraph").is_dir())
    if manifest is None and not damaged and path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"--store {path}: exists and is not a kg2tool store (no manifest.json); choose another path")
    if damaged and not rebuild:
        raise InputError(f"--store {path}: {path / 'manifest.json'} is missing (a damaged or partly copied store); {FIX}")
    if manifest is not None and not rebuild:
        problem = mismatch(manifest, files, lang, rules_record(predicates))
        if problem:
            raise UsageError(
                f"--store {path}: {problem}; rerun with --rebuild-store to rebuild it from the given files "
                "(or use another --store path)"
            )
        check_files(path, manifest)
        log(f"store {path}: reusing the index and triple store built from {len(files)} file(s)")
    else:
        t0 = time.perf_counter()
        build_store(path, [Path(g) for g in graphs], lang, log=log, predicates=predicates)
        log(f"store {path}: built in {time.perf_counter() - t0:.1f}s")
    kg = StoreGraph(path)
    kg.stats.files = [str(g) for g in graphs]
    return kg


def build_store(path: Path, graphs: list[Path], lang: str = "en", log=print, predicates=None) -> None:
    """Build the index and the pyoxigraph store of the files `graphs` (labels in `lang`) in a folder beside `path`,
    then move it into place (an interrupted build leaves no store behind; a previous store at `path` is replaced
    only when complete). Raises InputError for an unreadable or malformed file or a failed bulk load, OutputError
    when the folder cannot be written.

    pyoxigraph's bulk load runs in a second process while this one computes the index from the same files: on two
    free cores the build takes about as long as the bulk load alone."""
    path = Path(path)
    with atomic_path(path, folder=True, what="the graph store") as tmp:
        _build_into(tmp, path, graphs, lang, log, predicates)


def _build_into(tmp: Path, path: Path, graphs: list[Path], lang: str, log, predicates=None) -> None:
    """The build of `build_store` in the empty folder `tmp`: start the loader, index, wait, write the manifest."""
    # A new interpreter, not a fork (a process with a RocksDB store open has threads a forked child can deadlock
    # on) nor multiprocessing's spawn (which would rerun the caller's main script).
    cmd = [
        sys.executable,
        "-m",
        "kg2tool.graph.store",
        str(tmp / "oxigraph"),
        str(tmp / "loaded.json"),
        *map(str, graphs),
    ]
    loader = None
    try:
        t0 = time.perf_counter()
        with open(tmp / "loader.log", "wb") as err:
            loader = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        index = IndexBuilder(lang, predicates)
        digests = [index.read(g) for g in graphs]
        stats = index.write(tmp / "index")
        log(
            f"store {path}: indexed {stats['entities']:,} entities, {stats['relation_triples']:,} edges in "
            f"{time.perf_counter() - t0:.1f}s"
        )
        triples = _wait_for_loader(loader, tmp, path, log)
        meta_path = tmp / "index" / "meta.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta["stats"]["triples"] = triples
        meta_path.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        manifest = {
            "index_format": INDEX_FORMAT,
            "kg2tool_version": __version__,
            "lang": lang,
            **({"predicates": rules_record(predicates)} if rules_record(predicates) else {}),
            "files": [file_info(g) | {"sha256": d} for g, d in zip(graphs, digests)],
            "entities": stats["entities"],
            "triples": triples,
            "checksums": checksums(tmp),
        }
        (tmp / "loaded.json").unlink()
        (tmp / "loader.log").unlink()
        # Written last, and the folder is renamed into place only after: a store with a manifest is complete.
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    except BaseException:
        if loader is not None and loader.poll() is None:
            loader.terminate()
            loader.wait()
        raise


def _wait_for_loader(loader: subprocess.Popen, tmp: Path, path: Path, log) -> int:
    """Wait for the bulk-load process; return the number of triples it loaded, or raise InputError with its
    reason (its result file, else the last line of its log, else its exit status)."""
    code = loader.wait()
    try:
        loaded = json.loads((tmp / "loaded.json").read_text(encoding="utf-8")) if code == 0 else {}
    except (OSError, ValueError):  # a result file cut short: the disk filled
        loaded = {}
    if "triples" not in loaded:
        log_text = (tmp / "loader.log").read_text(errors="replace").strip().splitlines()
        why = loaded.get("error") or (log_text[-1] if log_text else f"exit status {code}")
        if "No space left on device" in why:  # an output fault (exit 4), not the input's
            raise OSError(errno.ENOSPC, f"No space left on device (in pyoxigraph's bulk load: {why})")
        if loaded.get("output_fault"):
            raise OSError(errno.EROFS, f"Read-only file system (in pyoxigraph's bulk load: {why})")
        raise InputError(f"the bulk load into pyoxigraph failed: {why}")
    log(f"store {path}: bulk-loaded {loaded['triples']:,} triples into pyoxigraph in {loaded['seconds']:.1f}s")
    return loaded["triples"]


def bulk_load(store_dir: str, graphs: list[str], result: str) -> None:
    """pyoxigraph bulk load of the files `graphs` into a new store at `store_dir` (in the loader process that
    `python -m kg2tool.graph.store STORE_DIR RESULT_JSON GRAPH...` starts); writes {triples, seconds} or {error}
    as JSON to the file `result`."""
    import pyoxigraph as ox

    t0 = time.perf_counter()
    out: dict = {}
    try:
        store = ox.Store(store_dir)
        for name in graphs:
            g = Path(name)
            fmt, gz = detect_format(g)
            kw = {"format": getattr(ox.RdfFormat, OX_FORMATS[fmt]), "base_iri": g.resolve().as_uri()}
            try:
                if gz:
                    with open_graph_file(g, gz) as f:
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
        if is_output_fault(exc):  # RocksDB's "IO error: No space left on device" is an OSError without errno
            out["output_fault"] = True
    Path(result).write_text(json.dumps(out), encoding="utf-8")


__all__ = ["build_store", "bulk_load", "open_store"]
