"""The on-disk arrays of the graph store (kg2tool.graph.store.arrays): strings as a UTF-8 blob with offsets, sorted
lookup tables that keep the best id per key, and id sequences over mapped arrays."""

import numpy as np
import pyarrow as pa
import pytest

from kg2tool.graph.store.arrays import Blob, IdSeq, Strings, Table, mapped, save_array, save_strings, save_table


def test_strings_round_trip(tmp_path):
    texts = ["Zürich", "", "a\nb", "日本", "x" * 1000]
    save_strings(tmp_path, "s", pa.array(texts, type=pa.large_string()))
    strings = Strings(Blob(tmp_path, "s"))
    assert list(strings) == texts and len(strings) == 5
    assert strings[-1] == texts[-1] and strings[1:3] == texts[1:3]
    with pytest.raises(IndexError):
        strings[5]
    # a slice of a larger Arrow array (non-zero offset) and a chunked array are saved as their own values only
    save_strings(tmp_path, "part", pa.array(["skip", "kept", "too"], type=pa.large_string()).slice(1))
    assert list(Strings(Blob(tmp_path, "part"))) == ["kept", "too"]
    save_strings(tmp_path, "chunked", pa.chunked_array([["a"], ["b", "c"]], type=pa.string()))
    assert list(Strings(Blob(tmp_path, "chunked"))) == ["a", "b", "c"]
    save_strings(tmp_path, "empty", pa.array([""], type=pa.large_string()))  # an empty blob file
    assert (tmp_path / "empty.bin").stat().st_size == 0 and Strings(Blob(tmp_path, "empty"))[0] == ""


def test_lookup_table_keeps_the_best_id_per_key(tmp_path):
    keys = ["beta", "alpha", "beta", "gamma", "beta", "Émile"]
    ids = np.arange(len(keys))
    neg_deg = -np.array([1, 5, 9, 2, 9, 0])  # ids 2 and 4 share the highest degree for "beta": the smaller id wins
    save_table(tmp_path, "t", keys, ids, neg_deg)
    table = Table(tmp_path, "t")
    assert table.keys.n == 4  # distinct keys, sorted by their UTF-8 bytes
    assert [table.keys.text(i) for i in range(4)] == sorted({*keys}, key=lambda k: k.encode())
    assert (table.get("beta"), table.get("alpha"), table.get("gamma"), table.get("Émile")) == (2, 1, 3, 5)
    assert table.get("bet") is None and table.get("zeta") is None and table.get("") is None
    assert table.keys.lower_bound(b"b") == 1 and table.keys.lower_bound(b"\xff") == 4


def test_id_sequence_over_a_mapped_array(tmp_path):
    save_array(tmp_path, "ids", np.arange(0, 200_000, 2, dtype=np.int32))
    arr = mapped(tmp_path / "ids.npy")
    assert type(arr) is np.ndarray  # a plain view, not numpy's slower memmap subclass
    seq = IdSeq(arr)
    assert len(seq) == 100_000 and seq[3] == 6 and type(seq[3]) is int
    assert seq[1:4] == [2, 4, 6]
    assert list(seq) == list(range(0, 200_000, 2))  # iterated in blocks
