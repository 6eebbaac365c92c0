"""The store's on-disk arrays: numpy arrays (`.npy`, read through mmap), strings as one UTF-8 blob plus int64
offsets, and sorted lookup tables (key -> entity id) searched by binary search over the blob.

    NAME.npy                  an array (np.save)
    NAME.bin + NAME_off.npy   strings: the UTF-8 bytes of all of them, and n + 1 offsets (Arrow's large_string
                              buffers as they are)
    NAME_keys.* + NAME_ids.npy  a lookup table: distinct keys sorted by their UTF-8 bytes, one id per key
"""

from __future__ import annotations

import errno
import mmap
from collections.abc import Iterator, Sequence
from pathlib import Path


# -- writing ---------------------------------------------------------------------------------------------------
def save_array(out: Path, name: str, arr) -> None:
    """Save a numpy array as `out/NAME.npy`."""
    import numpy as np

    try:
        np.save(out / f"{name}.npy", arr)
    except OSError as exc:
        if exc.errno is None and "requested and" in str(exc):
            # numpy's short write ("N requested and M written") carries no errno; a short write is a full disk.
            raise OSError(errno.ENOSPC, f"No space left on device ({exc})") from None
        raise


def save_strings(out: Path, name: str, arr) -> None:
    """Save a pyarrow string array (or chunked array) as `out/NAME.bin`, one UTF-8 blob, plus int64 offsets in
    `out/NAME_off.npy` (Arrow's large_string buffers as they are)."""
    import numpy as np
    import pyarrow as pa

    arr = pa.concat_arrays([arr]) if isinstance(arr, pa.Array) else arr.combine_chunks()
    arr = arr.cast(pa.large_string())
    _, offsets, data = arr.buffers()
    off = np.frombuffer(offsets, dtype=np.int64)[arr.offset : arr.offset + len(arr) + 1]
    save_array(out, f"{name}_off", off - off[0])
    (out / f"{name}.bin").write_bytes(data.to_pybytes()[off[0] : off[-1]] if data is not None else b"")


def save_table(out: Path, name: str, keys: list[str], ids, neg_deg) -> None:
    """Save a lookup table `NAME_keys` / `NAME_ids`: `keys[j]` names entity `ids[j]`; keys are sorted (UTF-8 byte
    order) and each distinct key keeps one id, the best by (`neg_deg[id]`, id), i.e. the highest degree first."""
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
    save_strings(out, f"{name}_keys", k.take(sel))
    save_array(out, f"{name}_ids", table.column("i").combine_chunks().take(sel).to_numpy().astype(np.int32))


# -- reading ---------------------------------------------------------------------------------------------------
def mapped(path: Path):
    """A saved array, memory-mapped, as a plain ndarray view (numpy's memmap subclass costs ~1 us per access)."""
    import numpy as np

    return np.asarray(np.load(path, mmap_mode="r"))


class Blob:
    """Read-only strings `folder/NAME.bin` + `NAME_off.npy` (see save_strings): an mmap'd UTF-8 blob and its
    offsets (np.load mmap); `n` strings."""

    def __init__(self, folder: Path, name: str):
        self.off = mapped(folder / f"{name}_off.npy")
        path = folder / f"{name}.bin"
        self._f = open(path, "rb")
        size = path.stat().st_size
        self.data = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        self.n = len(self.off) - 1

    def bytes(self, i: int) -> bytes:
        """The UTF-8 bytes of string i."""
        return self.data[self.off[i] : self.off[i + 1]]

    def text(self, i: int) -> str:
        """String i."""
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


class Strings(Sequence):
    """A Sequence[str] over a Blob (entity IRIs, labels, names by id)."""

    def __init__(self, blob: Blob):
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


class Table:
    """A sorted lookup table: key -> id (see save_table)."""

    def __init__(self, folder: Path, name: str):
        self.keys = Blob(folder, f"{name}_keys")
        self.ids = mapped(folder / f"{name}_ids.npy")

    def get(self, key: str) -> int | None:
        """The id saved for `key`, or None."""
        kb = key.encode("utf-8", "surrogatepass")
        i = self.keys.lower_bound(kb)
        if i < self.keys.n and self.keys.bytes(i) == kb:
            return int(self.ids[i])
        return None


class IdSeq(Sequence):
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
