"""kg2tool.graph.hygiene's rules (`tidy_edges`) on the store's edges, vectorized: the index pass holds edges as
arrays of provisional ids, so opaque nodes are judged once per distinct node (not once per edge) and edges are
filtered with numpy masks. Same result as `tidy_edges` on the same edges (tests/test_store.py compares the store
with the in-memory load, which uses `tidy_edges`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..hygiene import Tidied, is_forgotten_code, is_link, is_opaque_node


def opaque_mask(nodes, pid_iri: list[str], labelled, named: frozenset = frozenset()):
    """A boolean array over all provisional ids: True for the ids in `nodes` (a numpy array) that have no label
    (`labelled`: boolean array) and whose IRI's local part is an opaque id, or a catalogue code in a namespace of
    `named` (kg2tool.graph.hygiene.is_forgotten_code)."""
    import numpy as np

    mask = np.zeros(len(pid_iri), dtype=bool)
    mask[nodes] = True  # the distinct nodes, in order (a mask, not a sort)
    cand = np.flatnonzero(mask & ~labelled)
    mask[:] = False
    if len(cand):
        mask[cand] = np.fromiter(
            (is_opaque_node(pid_iri[p]) or is_forgotten_code(pid_iri[p], named) for p in cand.tolist()),
            dtype=bool,
            count=len(cand),
        )
    return mask


def tidy_arrays(
    rels: dict[str, tuple], pid_iri: list[str], labelled, has_out, forced: frozenset, named: frozenset = frozenset(),
    code_of: Callable[[int], str] = lambda pid: "",
) -> tuple[Tidied, object]:
    """`tidy_edges` on `rels` (predicate -> (subjects, objects), int32 buffers of provisional ids; duplicates
    allowed). `labelled`, `has_out`: boolean arrays by provisional id. Returns (Tidied with `edges` as predicate
    -> (subjects, objects) deduplicated int32 numpy arrays, `links` as predicate -> [(subject, IRI)] and `codes`
    as predicate -> [(subject, code)] (`code_of(pid)`: the node's label when it is a code, else ""), all in sorted
    predicate order; the opaque mask of every node seen)."""
    import numpy as np

    n = len(pid_iri)
    cols = {p: (np.frombuffer(s, dtype=np.int32), np.frombuffer(o, dtype=np.int32)) for p, (s, o) in rels.items()}
    every = [a for pair in cols.values() for a in pair]
    opaque = opaque_mask(np.concatenate(every) if every else np.zeros(0, np.int32), pid_iri, labelled, named)
    out = Tidied()
    dropped = np.zeros(n, dtype=bool)
    for p in sorted(cols):
        pair = np.unique(cols[p][0].astype(np.int64) * n + cols[p][1])  # sorted (subject, object), as tidy_edges
        s, o = pair // n, pair % n
        bad_s = opaque[s]
        if bad_s.any():
            out.opaque_edges += int(bad_s.sum())
            dropped[s[bad_s]] = True
            s, o = s[~bad_s], o[~bad_s]
        if not len(s):
            continue
        if p not in forced and _all_links(s, o, pid_iri, labelled, has_out):
            out.links[p] = [(a, pid_iri[b]) for a, b in zip(s.tolist(), o.tolist())]
            continue
        bad_o = opaque[o]
        if bad_o.any():
            out.opaque_edges += int(bad_o.sum())
            dropped[o[bad_o]] = True
            s, o = s[~bad_o], o[~bad_o]
        if len(s) and p not in forced and all(code_of(b) for b in o.tolist()):  # stops at the first named by words
            out.codes[p] = [(a, code_of(b)) for a, b in zip(s.tolist(), o.tolist())]
        elif len(s):
            out.edges[p] = (s.astype(np.int32), o.astype(np.int32))
    out.opaque = set(np.flatnonzero(dropped).tolist())
    return out, opaque


def _all_links(s, o, pid_iri: list[str], labelled, has_out) -> bool:
    """Whether every edge (s, o) points to a link (hygiene.is_link; objects without label or outgoing triples)."""
    if (labelled[o] | has_out[o]).any():
        return False
    return all(is_link(pid_iri[a], pid_iri[b]) for a, b in zip(s.tolist(), o.tolist()))


def drop_opaque_values(table: dict[str, list], opaque_of: Callable[[object], object]) -> set[int]:
    """Remove from `table` (predicate -> [(subject pid, ...)]) the values of opaque subjects (`opaque_of(pids)`:
    a boolean array for an array of pids); return the subjects dropped."""
    import numpy as np

    dropped: set[int] = set()
    for p, vals in table.items():
        pids = np.fromiter((v[0] for v in vals), dtype=np.int64, count=len(vals))
        bad = opaque_of(pids)
        if bad.any():
            bad_set = set(pids[bad].tolist())
            dropped |= bad_set
            table[p] = [v for v in vals if v[0] not in bad_set]
    return dropped


__all__ = ["drop_opaque_values", "opaque_mask", "tidy_arrays"]
