"""The store's triple store, `PATH/oxigraph/`: pyoxigraph's persistent (RocksDB) store of every triple of the graph
files, for SPARQL. Synthesis never reads it (everything it reads is in `index/`), so it is not built with the
index: `StoreGraph.triple_store()` builds it on first use, by pyoxigraph's bulk load of the files the manifest
records (refused when they changed since the index was built), in a second process and under a temporary name
beside `PATH/oxigraph`, renamed into place only when complete.
"""

from __future__ import annotations

import errno
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ...common.errors import InputError, UsageError
from ...common.files import atomic_path, is_output_fault
from ..parse import detect_format
from .manifest import file_info, read_manifest
from .source import OX_FORMATS, open_graph_file


def build_triple_store(store: Path, log=print) -> None:
    """Bulk-load the graph files recorded in the manifest of the store folder `store` into `store/oxigraph` (a new
    RocksDB store, replacing none: call it when there is none). UsageError when a file changed since the store was
    built (size or modification time), InputError when the bulk load fails on the input, OutputError when the disk
    is full or not writable."""
    store = Path(store)
    manifest = read_manifest(store) or {}
    files = [f["path"] for f in manifest.get("files", [])]
    for f in manifest.get("files", []):
        if file_info(Path(f["path"])) != {k: f.get(k) for k in ("path", "size", "mtime_ns")}:
            raise UsageError(
                f"--store {store}: graph file {f['path']} changed since the store was built (size or modification "
                "time); rerun with --rebuild-store to rebuild it from the given files"
            )
    t0 = time.perf_counter()
    with atomic_path(store / "oxigraph", folder=True, what="the triple store") as tmp, tempfile.TemporaryDirectory(
        prefix="kg2tool-load-"
    ) as work:
        work = Path(work)
        # A new interpreter, not a fork (a process with a RocksDB store open has threads a forked child can deadlock
        # on) nor multiprocessing's spawn (which would rerun the caller's main script).
        cmd = [sys.executable, "-m", "kg2tool.graph.store", str(tmp), str(work / "loaded.json"), *files]
        loader = None
        try:
            with open(work / "loader.log", "wb") as err:
                loader = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
            _wait_for_loader(loader, work, store, log)
        except BaseException:
            if loader is not None and loader.poll() is None:
                loader.terminate()
                loader.wait()
            raise
    log(f"store {store}: triple store built in {time.perf_counter() - t0:.1f}s")


def _wait_for_loader(loader: subprocess.Popen, work: Path, path: Path, log) -> int:
    """Wait for the bulk-load process (its result and log in the folder `work`); return the number of triples it
    loaded, or raise InputError with its reason (its result file, else the last line of its log, else its exit
    status)."""
    code = loader.wait()
    try:
        loaded = json.loads((work / "loaded.json").read_text(encoding="utf-8")) if code == 0 else {}
    except (OSError, ValueError):  # a result file cut short: the disk filled
        loaded = {}
    if "triples" not in loaded:
        log_text = (work / "loader.log").read_text(errors="replace").strip().splitlines()
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


__all__ = ["build_triple_store", "bulk_load"]
