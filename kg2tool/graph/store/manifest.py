"""The store's `manifest.json`: the files a store was built from (path, size, modification time, sha256), the label
language and the index format. It is written last, so a folder without it is not a store; a store is reused only
while the same files (same size and modification time) and the same language are asked for.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...common.errors import InputError

INDEX_FORMAT = 1


def read_manifest(path: Path) -> dict | None:
    """The manifest of the store folder `path` as a dict, or None when there is none (or it cannot be read)."""
    try:
        return json.loads((Path(path) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def file_info(path: Path) -> dict:
    """{path (resolved), size, mtime_ns} of a graph file; InputError when it is missing, unreadable or a folder."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected an RDF file")
    return {"path": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def rules_record(predicates) -> dict:
    """The manifest's record of `PredicateRules` (--include/--exclude-predicate): {} for the defaults."""
    if predicates is None or not (predicates.include or predicates.exclude):
        return {}
    return {"include": sorted(predicates.include), "exclude": sorted(predicates.exclude)}


def mismatch(manifest: dict, files: list[dict], lang: str, predicates: dict | None = None) -> str:
    """Why a store with `manifest` cannot serve the graph files `files` (file_info of each) in language `lang` with
    the predicate rules `predicates` (`rules_record`), or "" when it can."""
    if manifest.get("index_format") != INDEX_FORMAT:
        return "it was built by another version of kg2tool"
    if manifest.get("lang") != lang:
        return f"it was built with --lang {manifest.get('lang')}, not {lang}"
    if manifest.get("predicates", {}) != (predicates or {}):
        return "it was built with other --include-predicate/--exclude-predicate options"
    built = [{k: f[k] for k in ("path", "size", "mtime_ns")} for f in manifest.get("files", [])]
    if [f["path"] for f in built] != [f["path"] for f in files]:
        was = ", ".join(f["path"] for f in built)
        return f"it was built from other graph files ({was})"
    changed = [f["path"] for f, b in zip(files, built) if f != b]
    if changed:
        return f"graph file(s) changed since it was built (size or modification time): {', '.join(changed)}"
    return ""


__all__ = ["INDEX_FORMAT", "file_info", "mismatch", "read_manifest", "rules_record"]
