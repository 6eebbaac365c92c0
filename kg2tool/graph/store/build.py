"""Opening a store, and building it on first use: kg2tool's index (kg2tool.graph.store.index), from one pass of
pyoxigraph's parser over the files; the folder is built beside its final path and moved into place only when
complete. The triple store is built on its first use (kg2tool.graph.store.triples).
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Sequence
from pathlib import Path

from ... import __version__
from ...common.errors import InputError, UsageError, require_extra
from ...common.files import atomic_path
from .index import IndexBuilder
from .manifest import FIX, INDEX_FORMAT, check_files, checksums, file_info, mismatch, read_manifest, rules_record
from .reader import StoreGraph


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
        log(f"store {path}: reusing the index built from {len(files)} file(s)")
    else:
        t0 = time.perf_counter()
        build_store(path, [Path(g) for g in graphs], lang, log=log, predicates=predicates)
        log(f"store {path}: built in {time.perf_counter() - t0:.1f}s")
    kg = StoreGraph(path)
    kg.stats.files = [str(g) for g in graphs]
    return kg


def build_store(path: Path, graphs: list[Path], lang: str = "en", log=print, predicates=None) -> None:
    """Build the index of the files `graphs` (labels in `lang`) in a folder beside `path`, then move it into place
    (an interrupted build leaves no store behind; a previous store at `path` is replaced only when complete).
    Raises InputError for an unreadable or malformed file, OutputError when the folder cannot be written.

    One pass of pyoxigraph's parser over the files; the triple store (`oxigraph/`, for SPARQL) is not built here
    but on its first use (kg2tool.graph.store.triples): synthesis never reads it."""
    path = Path(path)
    with atomic_path(path, folder=True, what="the graph store") as tmp:
        _build_into(tmp, path, graphs, lang, log, predicates)


def _build_into(tmp: Path, path: Path, graphs: list[Path], lang: str, log, predicates=None) -> None:
    """The build of `build_store` in the empty folder `tmp`: index the files, write the manifest."""
    t0 = time.perf_counter()
    index = IndexBuilder(lang, predicates)
    # The pass allocates millions of small objects that all stay alive until the tables are written: the cyclic
    # garbage collector would walk them again and again for nothing (it took ~7% of the pass at 1M triples).
    collecting = gc.isenabled()
    gc.disable()
    try:
        digests = [index.read(g) for g in graphs]
        stats = index.write(tmp / "index")
    finally:
        del index
        if collecting:
            gc.enable()
    log(
        f"store {path}: indexed {stats['triples']:,} triples: {stats['entities']:,} entities, "
        f"{stats['relation_triples']:,} edges in {time.perf_counter() - t0:.1f}s"
    )
    manifest = {
        "index_format": INDEX_FORMAT,
        "kg2tool_version": __version__,
        "lang": lang,
        **({"predicates": rules_record(predicates)} if rules_record(predicates) else {}),
        "files": [file_info(g) | {"sha256": d} for g, d in zip(graphs, digests)],
        "entities": stats["entities"],
        "triples": stats["triples"],
        "checksums": checksums(tmp),
    }
    # Written last, and the folder is renamed into place only after: a store with a manifest is complete.
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")


__all__ = ["build_store", "open_store"]
