"""The store's `manifest.json`: the files a store was built from (path, size, modification time, sha256), the label
language, the index format and kg2tool version, and the size and checksum of every file of `index/`. It is written
last, so a folder without it is not a store; a store is reused only while the same files (same size and
modification time) and the same language are asked for, and only while its index files are as they were built.

The integrity check (`check_files`) runs every time a store is opened, so it must stay cheap next to the run it
guards. Each index file's size is compared exactly (a copy that did not finish, a disk that filled while writing:
the usual damage, and the one that made numpy's mmap fail with "mmap length is greater than file size"), and a
sha256 digest is compared too:
- over the whole file for files up to `FULL_HASH_MAX` (4 MiB): every index file of graphs up to ~900k triples, so
  any flipped bit there is found;
- over `SAMPLES` blocks of `SAMPLE_BLOCK` bytes spread evenly from the first byte to the last for larger files:
  2 MiB read per file, whatever its size, so opening a 10M-triple store does not read (and page in) hundreds of
  megabytes of arrays that synthesis only touches sparsely. This finds truncation, a tail of zeros, an
  overwritten header or region, but not a single flipped bit between two samples; `--rebuild-store` is the fix
  for any doubt.
Why sha256 and not blake2b: hashlib's sha256 is OpenSSL's, which uses the CPU's SHA instructions; measured on a
1M-triple store of `bench/gen_graph.py` (41 MB of index files, page cache warm): sha256 of every file 0.11 s,
blake2b 0.19 s; the check as done here (the one file over 4 MiB sampled) 0.13 s, next to ~7-10 s to build that
store; the bundled example graph's 4 MB index: 2 ms.
The pyoxigraph folder (the triple store, built on first use) is RocksDB's, which checksums its own blocks; it is
not checked here.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ... import __version__
from ...common.errors import InputError

# 2: the manifest records the index files' sizes and checksums; 3: reified nodes folded; 4: descriptions in the
# index (index/desc), the triple store built on first use, `triples` counted by the index pass; 5: HTML character
# references in texts decoded (`Universit&eacute;` -> `Université`)
INDEX_FORMAT = 5
FULL_HASH_MAX = 4 << 20
SAMPLE_BLOCK = 64 << 10
SAMPLES = 32
FIX = "rerun with --rebuild-store to rebuild it from the graph files (or use another --store path)"


def read_manifest(path: Path) -> dict | None:
    """The manifest of the store folder `path` as a dict, or None when it has no manifest.json. InputError when
    the manifest exists but cannot be read or is not a JSON object (a damaged store), naming the fix."""
    file = Path(path) / "manifest.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except UnicodeDecodeError:
        data = None
    except OSError as exc:
        raise InputError(f"--store {path}: cannot read {file}: {exc.strerror or exc}; {FIX}") from None
    except ValueError as exc:
        raise InputError(f"--store {path}: {file} is damaged (not valid JSON: {exc}); {FIX}") from None
    if not isinstance(data, dict):
        raise InputError(f"--store {path}: {file} is damaged (not a JSON object of a kg2tool store); {FIX}")
    return data


def file_digest(path: Path, size: int) -> str:
    """The sha256 digest (hex) of the file `path` of `size` bytes: of all of it up to FULL_HASH_MAX bytes, else of
    SAMPLES evenly spread blocks (see the module docstring)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        if size <= FULL_HASH_MAX:
            while block := f.read(1 << 20):
                h.update(block)
        else:
            for k in range(SAMPLES):
                f.seek((size - SAMPLE_BLOCK) * k // (SAMPLES - 1))
                h.update(f.read(SAMPLE_BLOCK))
    return h.hexdigest()


def checksums(store: Path) -> dict[str, dict]:
    """{relative path: {size, sha256}} of every file under `store/index` (for the manifest)."""
    out = {}
    for f in sorted((Path(store) / "index").rglob("*")):
        if f.is_file():
            size = f.stat().st_size
            out[f.relative_to(store).as_posix()] = {"size": size, "sha256": file_digest(f, size)}
    return out


def check_files(store: Path, manifest: dict) -> None:
    """Raise InputError naming the first index file of the store folder `store` that is missing, of another size
    or with another checksum than `manifest` records (and the fix, --rebuild-store); also when the manifest is not
    a complete one of this kg2tool's index format."""
    store = Path(store)
    where = f"--store {store}"
    if manifest.get("index_format") != INDEX_FORMAT:
        made = manifest.get("kg2tool_version") or "an older version"
        raise InputError(
            f"{where}: {store / 'manifest.json'} says index format {manifest.get('index_format')!r} (built by kg2tool "
            f"{made}); this kg2tool ({__version__}) reads index format {INDEX_FORMAT}; {FIX}"
        )
    recorded = manifest.get("checksums")
    if not isinstance(recorded, dict) or not recorded or not isinstance(manifest.get("files"), list):
        raise InputError(f"{where}: {store / 'manifest.json'} is damaged (no checksums or files recorded); {FIX}")
    for rel, want in recorded.items():
        f = store / rel
        try:
            size = f.stat().st_size
            if size != want.get("size"):
                raise InputError(
                    f"{where}: {f} is damaged: {size:,} bytes where {want.get('size'):,} were written (cut short by an "
                    f"unfinished copy or a full disk?); {FIX}"
                )
            if file_digest(f, size) != want.get("sha256"):
                raise InputError(f"{where}: {f} is damaged: its checksum differs from the one recorded at build; {FIX}")
        except FileNotFoundError:
            raise InputError(f"{where}: {f} is missing; {FIX}") from None
        except OSError as exc:
            raise InputError(f"{where}: cannot read {f}: {exc.strerror or exc}; {FIX}") from None


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
    """The manifest's record of `PredicateRules` (--include/--exclude-predicate, --no-fold): {} for the defaults."""
    if predicates is None or not (predicates.include or predicates.exclude or not predicates.fold):
        return {}
    got = {"include": sorted(predicates.include), "exclude": sorted(predicates.exclude)}
    return got | ({} if predicates.fold else {"fold": False})


def mismatch(manifest: dict, files: list[dict], lang: str, predicates: dict | None = None) -> str:
    """Why a store with `manifest` cannot serve the graph files `files` (file_info of each) in language `lang` with
    the predicate rules `predicates` (`rules_record`), or "" when it can (the index format is checked by
    check_files)."""
    if manifest.get("lang") != lang:
        return f"it was built with --lang {manifest.get('lang')}, not {lang}"
    if manifest.get("predicates", {}) != (predicates or {}):
        return "it was built with other --include-predicate/--exclude-predicate/--no-fold options"
    built = [{k: f.get(k) for k in ("path", "size", "mtime_ns")} for f in manifest.get("files", [])]
    if [f["path"] for f in built] != [f["path"] for f in files]:
        was = ", ".join(str(f["path"]) for f in built)
        return f"it was built from other graph files ({was})"
    changed = [f["path"] for f, b in zip(files, built) if f != b]
    if changed:
        return f"graph file(s) changed since it was built (size or modification time): {', '.join(changed)}"
    return ""


__all__ = [
    "FIX", "INDEX_FORMAT", "check_files", "checksums", "file_digest", "file_info", "mismatch", "read_manifest",
    "rules_record",
]  # fmt: skip
