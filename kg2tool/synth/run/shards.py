"""Producing shards: in this process, in a process pool, or on Ray; with on-disk checkpoints for `--resume`.

A shard is `Synthesizer.candidates(i)`: its candidates depend only on (graph, config, seed, i), so shards can be
computed anywhere, in any order, and merged in index order to give exactly the single-worker result. `iter_shards`
yields `(i, candidates, stats)` for i = 0, 1, 2, ... in order; the caller stops consuming when it has enough rows
(a few shards computed ahead by the workers are then discarded).

Checkpoints: every finished shard is written atomically to `WORK/shards/NNNNNN.json.gz`
(gzip level 1: a row repeats its tool schemas, so a checkpoint is ~1/15 of its JSON), where WORK is a hidden
folder beside `--out` (`.<name>.work`). `--resume` reads them back instead of recomputing; WORK also holds the run's
fingerprint (graph bytes, config, templates, kg2tool version) so a resume with different inputs is refused.
WORK is deleted once the dataset folder is complete, so a killed run never leaves a partial dataset at `--out`.
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import itertools
import json
import math
import multiprocessing as mp
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ...common.errors import OutputError, UsageError
from ...common.files import atomic_path, write_atomic, writing
from ..candidate import Candidate, ShardStats
from .gauge import CoreMeter, HelperGauge, Horizon  # noqa: F401 (CoreMeter: re-exported)

_WORKER = None  # the Synthesizer of a pool worker (inherited by fork, or built by _init_worker)
_KEYS = None  # a pool worker's DiversityFilter, used only to compute rows' diversity keys
AHEAD = 8  # shards per helper held ahead of the merge at most (computed or queued)


def fingerprint(graph_sha256: list[str], config: dict, lang: str, template_dir: Path, version: str) -> str:
    """The identity of a run's inputs: graph file digests, config, language, templates, kg2tool version."""
    h = hashlib.sha256()
    for d in graph_sha256:
        h.update(d.encode())
    for f in sorted(Path(template_dir).glob("*.yaml")):
        h.update(f.name.encode() + f.read_bytes())
    h.update(json.dumps([config, lang, version], sort_keys=True, default=str).encode())
    return h.hexdigest()


class ShardStore:
    """Checkpointed shards of one run, in a hidden work folder beside the output."""

    def __init__(self, out: Path, fp: str, resume: bool, overwrite: bool):
        out = Path(out)
        self.work = out.resolve().parent / f".{out.name}.work"
        self.dir = self.work / "shards"
        state = self.work / "state.json"
        if self.work.exists():
            if resume:
                try:
                    old = json.loads(state.read_text())["fingerprint"]
                except (OSError, ValueError, KeyError):
                    old = None
                if old != fp:
                    raise UsageError(
                        f"--resume: the unfinished run in {self.work} was made from other graphs, options or "
                        "kg2tool version; rerun with the same ones, or with --overwrite to start over"
                    )
            elif overwrite:
                shutil.rmtree(self.work)
            else:
                raise OutputError(
                    f"an unfinished run of this output exists ({self.work}): pass --resume to continue it, "
                    "or --overwrite to start over"
                )
        with writing(self.work, "the run's work folder (shard checkpoints)"):
            self.dir.mkdir(parents=True, exist_ok=True)
        if not state.exists():
            write_atomic(state, json.dumps({"fingerprint": fp}), what="the run's fingerprint")
        self.resumed = sum(1 for _ in self.dir.glob("*.json.gz"))

    def path(self, i: int) -> Path:
        """Where shard i's checkpoint is."""
        return self.dir / f"{i:06d}.json.gz"

    def load(self, i: int):
        """Shard i's (candidates, stats) from its checkpoint, or None when it has none."""
        p = self.path(i)
        if not p.exists():
            return None
        data = json.loads(gzip.decompress(p.read_bytes()).decode("utf-8"))
        rows = data["rows"]
        if "tools" in data:  # the tool schemas written once per shard (`_save_shard`): rows and pairs hold indices
            table = data["tools"]
            rows = [_with_tools(r, table) for r in rows]
        return [Candidate.from_json(r) for r in rows], ShardStats.from_json(data["stats"])

    def save(self, i: int, candidates: list[Candidate], stats: ShardStats) -> None:
        """Checkpoint shard i (atomically)."""
        _save_shard(self.path(i), i, candidates, stats)

    @contextmanager
    def kept_for_resume(self) -> Iterator[None]:
        """An OutputError raised in the block (a full disk, say) gets told that the finished shards are kept and
        that `--resume` continues from them once the cause is fixed."""
        try:
            yield
        except OutputError as exc:
            done = sum(1 for _ in self.dir.glob("*.json.gz"))
            raise OutputError(
                f"{exc}; the {done} finished shard(s) are kept in {self.work}: rerun the same command with --resume "
                "to continue"
            ) from None

    def remove(self) -> None:
        """Delete the work folder (once the dataset is written)."""
        shutil.rmtree(self.work, ignore_errors=True)


@contextmanager
def frozen_heap():
    """While the block runs, the objects alive when it starts (the graph, its tools, the walker's indexes: they
    last the whole run) are kept out of the cyclic garbage collector (`gc.freeze`), so that its full collections,
    which the rows' short-lived objects set off, do not walk them again and again (~10% of a shard's time on the
    bundled graph). At the end everything is handed back to the collector (garbage frozen with the rest included)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _init_worker(build_args) -> None:
    global _WORKER
    # A forked worker inherits the parent's signal handlers. Where a library in the parent catches SIGTERM (seen in a
    # test process after the store and training tests: the handler never returned while the worker was blocked
    # writing a result), Pool.terminate() could not stop the worker and the parent waited on it forever.
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if build_args is not None:  # spawn start method or Ray: rebuild the synthesizer in this process
        from .synthesizer import Synthesizer

        graphs, lang, config, template_dir, store, *rest = build_args
        predicates = rest[0] if rest else None  # PredicateRules of --include/--exclude-predicate
        if store:  # the store must be at the same path for the worker (a shared file system on a cluster)
            from ...graph.store import open_store

            kg = open_store(store, graphs, lang=lang, log=lambda msg: None, predicates=predicates)
        else:
            from ...graph.build import load_graph

            kg = load_graph(graphs, lang=lang, predicates=predicates)
        _WORKER = Synthesizer(kg, config, template_dir)
        gc.collect()  # the worker's graph lasts as long as the worker: out of its garbage collections (frozen_heap)
        gc.freeze()


def _run_shard(i: int, save_dir: str | None = None):
    """Shard i, computed in a worker. The worker also does what would otherwise be serial in the merging process:
    it writes the shard's checkpoint (into `save_dir`) and computes each row's diversity keys (normalized question,
    plan key, MinHash), so the merging process only looks keys up; that is what lets 2 workers be ~2x one."""
    global _KEYS
    candidates, stats = _WORKER.candidates(i)
    if save_dir is not None:
        _save_shard(Path(save_dir) / f"{i:06d}.json.gz", i, candidates, stats)
    if _KEYS is None:
        from ..checks.diversity import DiversityFilter

        _KEYS = DiversityFilter(_WORKER.cfg.near_dup_threshold, _WORKER.cfg.max_per_topic)
    for cand in candidates:
        if not cand.admitted:  # admitted: filtered already, in this process (its gate was open)
            cand.diversity_keys = _KEYS.keys(cand.row)
    return i, candidates, stats


def _save_shard(path: Path, i: int, candidates: list[Candidate], stats: ShardStats) -> None:
    """A checkpoint, written atomically: the candidates as the shard made them (diversity keys are recomputed on
    resume), as gzipped JSON. Every row and preference pair repeats tool schemas (the same objects, from the
    tool set): each schema is written once, in `tools`, and the rows and pairs hold its index (encoding the
    repeated schemas was most of a checkpoint's cost, ~20% of the shard's own time)."""
    table: list[dict] = []
    index: dict[int, int] = {}  # id of a schema object -> its place in `table` (all alive while the shard is)

    def refs(tools: list[dict]) -> list[int]:
        out = []
        for t in tools:
            k = index.get(id(t))
            if k is None:
                k = index[id(t)] = len(table)
                table.append(t)
            out.append(k)
        return out

    rows = []
    for c in candidates:
        row = c.to_json()
        row["tools"] = refs(row["tools"])
        if row["_dpo"] is not None:  # None: pairs not made yet (the pipeline makes them for the kept rows)
            row["_dpo"] = [{**p, "tools": refs(p["tools"])} if "tools" in p else p for p in row["_dpo"]]
        rows.append(row)
    text = json.dumps({"rows": rows, "stats": stats.to_json(), "tools": table}, ensure_ascii=False)
    with atomic_path(path, what=f"the checkpoint of shard {i}") as tmp:
        tmp.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=1, mtime=0))


def _with_tools(row: dict, table: list[dict]) -> dict:
    """A checkpoint row with its and its pairs' tool indices replaced by the schemas of `table`."""
    row = {**row, "tools": [table[k] for k in row["tools"]]}
    if row.get("_dpo") is not None:
        row["_dpo"] = [{**p, "tools": [table[k] for k in p["tools"]]} if "tools" in p else p for p in row["_dpo"]]
    return row


def auto_workers(cores: int | None = None, load: float | None = None) -> int:
    """`--workers auto`: the cores this process may run on (os.sched_getaffinity) that the 1-minute load average
    leaves free, rounded up, at least 1. Where other jobs keep every core busy this is 1: Linux shares the CPU
    fairly between sessions (autogroup scheduling), so a second worker would only split this run's share and add
    the cost of sending its rows (see `iter_shards`)."""
    import os

    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # no load average on this system: assume the cores are free
            load = 0.0
    return max(1, min(cores, math.ceil(cores - load - 1e-9)))


def iter_shards(synth, workers: int = 1, store: ShardStore | None = None, backend: str = "process",
                build_args=None, warm_up=None, horizon: Horizon | None = None, busy: float | None = None,
                ) -> Iterator[tuple[int, list[Candidate], ShardStats]]:  # fmt: skip
    """Shards 0, 1, 2, ... in order (see module docstring). With `workers` > 1 this process is one of the workers:
    `workers - 1` helper processes (or Ray actors) compute shards ahead while this one merges, and whenever the
    next shard in order is not ready yet this process computes a later shard itself instead of waiting: no process
    only merges, and where the helper gets no free core this process does the work, so two workers cost little more
    than one (the helper's rows are pickled to this process). `warm_up()`, when given, is called in this process
    once the helpers have started: work the run needs later anyway (imports), done while they compute shards.
    `horizon` (a Horizon the consumer updates) bounds how far ahead shards are started. `busy`: the cores other
    processes kept busy while the run started (`CoreMeter`): from half a core the helpers begin paused.

    Long because the merge loop and its helpers' lifetime (start, feed, stop on every exit path) must be read
    together.
    """
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if workers == 1:
        i = 0
        while True:
            cached = store.load(i) if store else None
            rows, stats = cached if cached else synth.candidates(i)
            if store and not cached:
                store.save(i, rows, stats)
            yield i, rows, stats
            i += 1
    global _WORKER
    _WORKER = synth
    if backend == "ray":
        yield from _iter_ray(synth, workers - 1, store, build_args, warm_up, horizon)
        return
    # Fork shares the loaded graph (or the open store's memory maps) with the workers, copy-on-write: nothing is
    # reloaded or rebuilt per worker. But not after this process opened an on-disk store's RocksDB
    # (kg2tool.graph.store), whose threads a forked child can deadlock on: spawned workers then open the store
    # themselves (its index is memory-mapped, so they share its pages with this process).
    fork = "fork" in mp.get_all_start_methods() and getattr(synth.kg, "forkable", True)
    ctx = mp.get_context("fork" if fork else "spawn")
    init = None if fork else build_args
    save_dir = str(store.dir) if store is not None else None
    frozen = gc.get_freeze_count() > 0  # a caller's frozen_heap: it unfreezes, at its end
    started: list = []  # the pool, started when a helper is first handed a shard (never where none is)

    def start():
        if fork:  # the graph's objects stay out of the forked workers' garbage collections: their pages stay shared
            gc.freeze()
        try:
            started.append(ctx.Pool(workers - 1, initializer=_init_worker, initargs=(init,)))
            _widen_pipes(started[0])
        finally:  # the workers are forked (Pool starts them at once): this process collects as before
            if fork and not frozen:
                gc.unfreeze()

    def submit(i: int):
        if not started:
            start()
            handle = started[0].apply_async(_run_shard, (i, save_dir))
            if warm_up is not None:  # while the helpers compute their first shards
                warm_up()
            return handle
        return started[0].apply_async(_run_shard, (i, save_dir))

    gauge = HelperGauge(busy=busy is not None and busy >= 0.5)
    try:
        yield from _in_order(submit, lambda fut: fut.ready(), lambda fut: fut.get()[1:], workers - 1, store,
                             gauge=gauge, horizon=horizon)  # fmt: skip
    finally:
        if started:
            started[0].terminate()  # what leaving `with pool:` does


PIPE_BYTES = 1 << 20  # Linux's default limit for an unprivileged process (/proc/sys/fs/pipe-max-size)


def _widen_pipes(pool) -> None:
    """Let a helper write a shard's result (~250 KB pickled on the bundled graph) into the pool's pipe at once: with
    the default 64 KB pipe it waits until this process has read all but the last 64 KB, and this process reads it in
    a thread that gets the interpreter lock only between the merging loop's time slices (a helper idled ~35 ms a
    shard, ~20% of its run; ~20 ms with 1 MB pipes). Linux only (F_SETPIPE_SZ); elsewhere, or where the pool has no
    such pipes, nothing changes."""
    try:
        import fcntl

        set_size = getattr(fcntl, "F_SETPIPE_SZ", 1031)
        for queue in (pool._outqueue, pool._inqueue):
            fcntl.fcntl(queue._reader.fileno(), set_size, PIPE_BYTES)
    except (ImportError, AttributeError, OSError, ValueError):
        pass


def _in_order(submit, ready, get, helpers: int, store: ShardStore | None, saved: bool = True, gauge=None,
              horizon: Horizon | None = None):  # fmt: skip
    """Shards in index order from `helpers` remote workers (`submit(i)` starts shard i and returns a handle,
    `ready(handle)`, `get(handle)` -> (rows, stats)) and this process. Finished shards are collected as soon as they
    are ready, and every helper is kept 2 shards ahead (its next shard is always queued); while the next shard in
    order is not ready, this process computes the next unassigned one itself. At most AHEAD shards per helper are
    held ahead of the merge. `saved`: the helpers write their shards' checkpoints themselves. `gauge` (a
    HelperGauge) stops handing shards to the helpers for a while where they do not pay off. `horizon` (updated by
    the merge) says how far ahead shards are worth starting: none is started beyond it, since the run will have
    its rows before (the next shard in order is always computed, so the rows do not depend on it)."""
    pending: dict[int, object] = {}  # shard -> handle, given to a helper and not collected yet
    done: dict[int, tuple] = {}  # shard -> (rows, stats), ahead of the merge
    nxt = 0  # the next shard no one was given yet
    save_dir = str(store.dir) if store is not None else None

    def collect(i: int) -> None:
        done[i] = tuple(get(pending.pop(i)))
        if gauge is not None:
            gauge.computed += 1
        if store is not None and not saved:
            store.save(i, *done[i])

    def here(k: int) -> None:
        cached = store.load(k) if store is not None and store.path(k).exists() else None
        cpu = time.process_time()
        done[k] = cached or tuple(_run_shard(k, save_dir)[1:])
        if gauge is not None:
            gauge.computed += 1
            if not cached:
                gauge.own(time.process_time() - cpu)

    ahead = AHEAD * helpers
    for j in itertools.count():
        feed = gauge is None or gauge.feed(j)
        if horizon is not None and gauge is not None:
            horizon.helpers_paid = gauge.paying
        last = horizon.last if horizon is not None else None
        while j not in done:
            for i in [i for i, h in pending.items() if ready(h)]:
                collect(i)
            while feed and len(pending) < 2 * helpers and len(done) + len(pending) < ahead and (last is None or nxt <= last):
                if store is not None and store.path(nxt).exists():
                    done[nxt] = store.load(nxt)
                else:
                    pending[nxt] = submit(nxt)
                nxt += 1
            if j in done:
                break
            if j not in pending:  # not given out yet (many shards held ahead): this process computes it
                here(j)
                nxt = max(nxt, j + 1)
            elif len(done) + len(pending) >= ahead or (last is not None and nxt > last):
                collect(j)  # far enough ahead, or past what the run needs: wait for it
            else:  # compute a later shard here rather than wait
                nxt += 1
                here(nxt - 1)
        yield j, *done.pop(j)


def _iter_ray(synth, helpers: int, store: ShardStore | None, build_args, warm_up=None, horizon=None):
    """Ray backend: `helpers` actors each hold a Synthesizer (rebuilt once per actor from `build_args`; the store's
    index is memory-mapped, so on one machine the actors share its pages) and compute shards as `iter_shards`'s
    pool does; this process merges and computes shards too. Checkpoints are written here (an actor may run on
    another machine)."""
    from ...common.errors import require_extra

    require_extra("ray", "ray")
    import ray

    if build_args is None:
        raise UsageError("the ray backend needs the graph paths and config to rebuild the synthesizer on workers")
    if not ray.is_initialized():
        ray.init(num_cpus=helpers, include_dashboard=False, log_to_driver=False)

    @ray.remote
    class ShardActor:
        def __init__(self, args):
            _init_worker(args)

        def run(self, i):
            return _run_shard(i)

    actors = [ShardActor.remote(build_args) for _ in range(helpers)]
    if warm_up is not None:
        warm_up()

    def ready(ref) -> bool:
        return bool(ray.wait([ref], timeout=0)[0])

    def submit(i: int):
        return actors[i % helpers].run.remote(i)

    yield from _in_order(submit, ready, lambda ref: tuple(ray.get(ref)[1:]), helpers, store, saved=False,
                         horizon=horizon)  # fmt: skip
