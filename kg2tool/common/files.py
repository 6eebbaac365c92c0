"""Files written whole or not at all, JSON Lines, and file hashes: the one implementation every stage uses.

Every output of kg2tool is written to a temporary name in the destination folder and renamed into place, so a
killed run or a full disk never leaves a half-written file at the final path (rename is atomic within one file
system). Write errors become `OutputError` naming the path, what was being written and the free space left on
its file system (`output_error`, `writing`), which the CLI turns into exit code 4: a full disk (ENOSPC, EDQUOT), a
read-only file system (EROFS) or a folder without write permission (EACCES, EPERM) is a fault of the output, not
a bug of kg2tool.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import OutputError

_NO_SPACE = {errno.ENOSPC, errno.EDQUOT}


def _size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def free_space(path: str | Path) -> int | None:
    """Bytes free (for this user) on the file system of `path` (or of its nearest existing parent), or None."""
    p = Path(path).absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    try:
        return shutil.disk_usage(p).free
    except OSError:
        return None


# How libraries that do not raise OSError say the disk is full (safetensors' SafetensorError "... (os error 28)",
# torch.save's RuntimeError, RocksDB's message).
_NO_SPACE_TEXT = ("No space left on device", "os error 28", "Disk quota exceeded", "os error 122")


def is_output_fault(exc: BaseException) -> bool:
    """Whether `exc` can only come from the disk written to: full (ENOSPC, EDQUOT) or read-only (EROFS); an OSError
    with that errno, or any library's error whose text says the disk is full."""
    if isinstance(exc, OSError) and (exc.errno in _NO_SPACE or exc.errno == errno.EROFS):
        return True
    return isinstance(exc, Exception) and any(s in str(exc) for s in _NO_SPACE_TEXT)


def as_oserror(exc: BaseException) -> OSError:
    """`exc` as an OSError for `output_error` (a library's disk-full error becomes ENOSPC with its own text)."""
    if isinstance(exc, OSError):
        return exc
    return OSError(errno.ENOSPC, str(exc).strip() or "No space left on device")


def output_error(path: str | Path, exc: OSError, what: str = "") -> OutputError:
    """The OutputError (exit 4) for the OSError `exc` raised while writing `what` (e.g. "the dataset") at `path`:
    the path, what, the reason, the free space left and, for a full disk, what to do."""
    reason = exc.strerror or str(exc)
    free = free_space(path)
    left = f"{_size(free)} free there" if free is not None else "free space unknown"
    no_space = exc.errno in _NO_SPACE or any(s in str(exc) for s in _NO_SPACE_TEXT)
    if no_space:
        hint = f"; the disk is full ({left}): free some space or write elsewhere, then rerun"
    elif exc.errno == errno.EROFS:
        hint = f"; the file system is read-only ({left}): write elsewhere"
    elif exc.errno in (errno.EACCES, errno.EPERM):
        hint = f"; no permission to write there ({left}): write elsewhere or fix the folder's permissions"
    else:
        hint = f" ({left})"
    return OutputError(f"{path}: cannot write{' ' + what if what else ''}: {reason}{hint}")


@contextmanager
def writing(path: str | Path, what: str = "") -> Iterator[None]:
    """Turn an OSError raised in the block, or any library's disk-full error, into `output_error(path, exc, what)`
    (exit 4)."""
    try:
        yield
    except OSError as exc:
        raise output_error(path, exc, what) from None
    except Exception as exc:
        if not is_output_fault(exc):
            raise
        raise output_error(path, as_oserror(exc), what) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(
    path: str | Path, *, folder: bool = False, keep_suffix: bool = False, what: str = ""
) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (a file, or a folder with ``folder=True``); when the block ends
    normally it replaces ``path``, when it raises the temporary is removed and ``path`` is left as it was.

    The temporary is a hidden name (``.NAME.tmp-XXXX``), so globs such as ``*.json`` never see it; with
    ``keep_suffix=True`` it ends in ``path``'s suffix, for writers that choose a format by extension. An OSError
    (a full disk...) becomes an OutputError naming ``path``, ``what`` was written and the free space left.
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
        raise output_error(path, exc, what) from None
    old = None  # where an existing folder at `path` is set aside until the new one is in place
    try:
        yield tmp
        if folder:
            os.chmod(tmp, 0o777 & ~_umask())
            if path.is_dir():
                # Set the old folder aside (a rename) rather than deleting it in place: a run killed while deleting
                # would leave a folder that still has some of its files, which could pass for complete.
                old = Path(tempfile.mkdtemp(prefix=f".{path.name}.old-", dir=path.parent))
                os.replace(path, old / "old")
        else:
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the file the usual permissions
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        # The error (and the free space it reports) is made before the temporary is removed, which frees space.
        error = output_error(path, exc, what) if isinstance(exc, OSError) else None
        if old is not None:
            try:
                if not path.exists() and (old / "old").exists():  # the new folder could not be moved in
                    os.replace(old / "old", path)  # put the old one back
                shutil.rmtree(old, ignore_errors=True)
            except OSError:  # leave the old folder where it was set aside rather than lose the first error
                pass
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)
        if error is not None:
            raise error from None
        raise


def write_atomic(path: str | Path, text: str, what: str = "") -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file renamed into place (OutputError on failure)."""
    with atomic_path(path, what=what) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_lines(path: str | Path, lines: Iterable[str], what: str = "") -> int:
    """Write ``lines`` (each gets a newline) to ``path`` atomically; returns the number written."""
    n = 0
    with atomic_path(path, what=what) as tmp, open(tmp, "w", encoding="utf-8") as fh:
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


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (the names of files just written into it) to disk, where the system allows."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.fsync(fd)
    os.close(fd)
