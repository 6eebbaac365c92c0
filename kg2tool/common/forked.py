"""Independent jobs over data already in memory, shared among forked processes (no pickling of the data).

`run_forked(jobs, processes)` runs zero-argument callables and returns their results in order. With
`processes` > 1 (and the fork start method available), `processes - 1` children forked from this process take a
share of the jobs each while this process runs the rest: the children see the callables' data through fork's
copy-on-write pages, so only the results (small: file names) cross back. A job's exception is raised here, as
raised in the child. Jobs are shared by their `weights` (largest first, each to the process with the least
weight so far), and the order of the results never depends on which process ran what.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
from collections.abc import Callable, Sequence


def run_forked(jobs: Sequence[Callable[[], object]], processes: int = 1,
               weights: Sequence[float] | None = None) -> list:  # fmt: skip
    """Each job's result, in order (see module docstring)."""
    if processes <= 1 or len(jobs) <= 1 or "fork" not in mp.get_all_start_methods():
        return [job() for job in jobs]
    weights = list(weights) if weights is not None else [1.0] * len(jobs)
    shares: list[list[int]] = [[] for _ in range(min(processes, len(jobs)))]
    load = [0.0] * len(shares)
    for k in sorted(range(len(jobs)), key=lambda k: -weights[k]):
        p = min(range(len(shares)), key=lambda p: (load[p], p))
        shares[p].append(k)
        load[p] += weights[k]
    ctx = mp.get_context("fork")
    children = []
    frozen = gc.get_freeze_count() > 0
    gc.freeze()  # the children's collections leave the shared data alone: its pages stay shared
    try:
        for share in shares[1:]:
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(send, [jobs[k] for k in share]), daemon=True)
            proc.start()
            send.close()
            children.append((share, recv, proc))
    finally:
        if not frozen:
            gc.unfreeze()
    results: list = [None] * len(jobs)
    error = None
    try:
        for k in shares[0]:
            results[k] = jobs[k]()
    except BaseException as exc:
        error = exc
    for share, recv, proc in children:
        try:
            ok, values = recv.recv()
        except EOFError:  # the child died without a word (killed)
            proc.join()
            ok, values = False, ChildProcessError(f"a forked process ended with exit code {proc.exitcode}")
        recv.close()
        proc.join()
        if not ok:
            error = error or values
        else:
            for k, v in zip(share, values):
                results[k] = v
    if error is not None:
        raise error
    return results


def _child(send, jobs) -> None:
    try:
        payload = (True, [job() for job in jobs])
    except BaseException as exc:  # handed to the parent, which raises it
        payload = (False, exc)
    try:
        send.send(payload)
    except Exception:  # an exception that does not pickle: its text
        send.send((False, RuntimeError(f"{type(payload[1]).__name__}: {payload[1]}")))
    send.close()
