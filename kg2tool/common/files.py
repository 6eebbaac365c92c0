"""Files written whole or not at all, JSON Lines, and file hashes: the one implementation every stage uses.

Every output of kg2tool is written to a temporary name in the destination folder and renamed into place, so a
killed run or a full disk never leaves a half-written file at the final path (rename is atomic within one file
system). Write errors become `OutputError` naming the path, which the CLI turns into exit code 4.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import OutputError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path: str | Path, *, folder: bool = False, keep_suffix: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (a file, or a folder with ``folder=True``); when the block ends
    normally it replaces ``path``, when it raises the temporary is removed and ``path`` is left as it was.

    The temporary is a hidden name (``.NAME.tmp-XXXX``), so globs such as ``*.json`` never see it; with
    ``keep_suffix=True`` it ends in ``path``'s suffix, for writers that choose a format by extension.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if folder:
            tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.tmp-", dir=path.parent))
        else:
            handle, name = tempfile.mkstemp(
                prefix=f".{path.name}.tmp-", suffix=path.suffix if keep_suffix else "", dir=path.parent
            )
            os.close(handle)
            tmp = Path(name)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc}") from None
    try:
        yield tmp
        if folder:
            os.chmod(tmp, 0o777 & ~_umask())
            if path.is_dir():
                shutil.rmtree(path)
        else:
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the file the usual permissions
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write: {exc}") from None
        raise


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file renamed into place."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_lines(path: str | Path, lines: Iterable[str]) -> int:
    """Write ``lines`` (each gets a newline) to ``path`` atomically; returns the number written."""
    n = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
            n += 1
    return n


def jsonl(records: Iterable[dict]) -> str:
    """Records as JSON Lines text (UTF-8 kept as is, one object per line)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def file_sha256(path: str | Path) -> str:
    """sha256 of a file, read in 1 MiB blocks (a graph file can be larger than memory would like)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()
