"""Producing shards: in this process, in a process pool, or on Ray; with on-disk checkpoints for `--resume`.

A shard is `Synthesizer.candidates(i)`: its candidates depend only on (graph, config, seed, i), so shards can be
computed anywhere, in any order, and merged in index order to give exactly the single-worker result. `iter_shards`
yields `(i, candidates, stats)` for i = 0, 1, 2, ... in order; the caller stops consuming when it has enough rows
(a few shards computed ahead by the workers are then discarded).

Checkpoints: every finished shard is written atomically to `WORK/shards/NNNNNN.json`, where WORK is a hidden
folder beside `--out` (`.<name>.work`). `--resume` reads them back instead of recomputing; WORK also holds the run's
fingerprint (graph bytes, config, templates, kg2tool version) so a resume with different inputs is refused.
WORK is deleted once the dataset folder is complete, so a killed run never leaves a partial dataset at `--out`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import multiprocessing as mp
import shutil
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..common.errors import OutputError, UsageError
from ..common.files import write_atomic, writing
from .candidate import Candidate, ShardStats

_WORKER = None  # the Synthesizer of a pool worker (inherited by fork, or built by _init_worker)
_KEYS = None  # a pool worker's DiversityFilter, used only to compute rows' diversity keys


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
        self.resumed = sum(1 for _ in self.dir.glob("*.json"))

    def path(self, i: int) -> Path:
        """Where shard i's checkpoint is."""
        return self.dir / f"{i:06d}.json"

    def load(self, i: int):
        """Shard i's (candidates, stats) from its checkpoint, or None when it has none."""
        p = self.path(i)
        if not p.exists():
            return None
        data = json.loads(p.read_text(encoding="utf-8"))
        return [Candidate.from_json(r) for r in data["rows"]], ShardStats.from_json(data["stats"])

    def save(self, i: int, candidates: list[Candidate], stats: ShardStats) -> None:
        """Checkpoint shard i (atomically)."""
        write_atomic(self.path(i), _shard_json(candidates, stats), what=f"the checkpoint of shard {i}")

    @contextmanager
    def kept_for_resume(self) -> Iterator[None]:
        """An OutputError raised in the block (a full disk, say) gets told that the finished shards are kept and
        that `--resume` continues from them once the cause is fixed."""
        try:
            yield
        except OutputError as exc:
            done = sum(1 for _ in self.dir.glob("*.json"))
            raise OutputError(
                f"{exc}; the {done} finished shard(s) are kept in {self.work}: rerun the same command with --resume "
                "to continue"
            ) from None

    def remove(self) -> None:
        """Delete the work folder (once the dataset is written)."""
        shutil.rmtree(self.work, ignore_errors=True)


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
            from ..graph.store import open_store

            kg = open_store(store, graphs, lang=lang, log=lambda msg: None, predicates=predicates)
        else:
            from ..graph.build import load_graph

            kg = load_graph(graphs, lang=lang, predicates=predicates)
        _WORKER = Synthesizer(kg, config, template_dir)


def _run_shard(i: int, save_dir: str | None = None):
    """Shard i, computed in a worker. The worker also does what would otherwise be serial in the merging process:
    it writes the shard's checkpoint (into `save_dir`) and computes each row's diversity keys (normalized question,
    plan key, MinHash), so the merging process only looks keys up; that is what lets 2 workers be ~2x one."""
    global _KEYS
    candidates, stats = _WORKER.candidates(i)
    if save_dir is not None:
        write_atomic(Path(save_dir) / f"{i:06d}.json", _shard_json(candidates, stats), what=f"the checkpoint of shard {i}")
    if _KEYS is None:
        from .diversity import DiversityFilter

        _KEYS = DiversityFilter(_WORKER.cfg.near_dup_threshold, _WORKER.cfg.max_per_topic)
    for cand in candidates:
        cand.diversity_keys = _KEYS.keys(cand.row)
    return i, candidates, stats


def _shard_json(candidates: list[Candidate], stats: ShardStats) -> str:
    """A checkpoint: the candidates as the shard made them (diversity keys are recomputed on resume)."""
    return json.dumps({"rows": [c.to_json() for c in candidates], "stats": stats.to_json()}, ensure_ascii=False)


def iter_shards(synth, workers: int = 1, store: ShardStore | None = None, backend: str = "process",
                build_args=None) -> Iterator[tuple[int, list[Candidate], ShardStats]]:  # fmt: skip
    """Shards 0, 1, 2, ... in order (see module docstring); `workers` > 1 computes them in parallel."""
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if backend == "ray":
        yield from _iter_ray(synth, workers, store, build_args)
        return
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
    # Fork shares the loaded graph (or the open store's memory maps) with the workers for free; but not after this
    # process opened an on-disk store's RocksDB (kg2tool.graph.store), whose threads a forked child can deadlock on:
    # spawned workers then open the store themselves.
    fork = "fork" in mp.get_all_start_methods() and getattr(synth.kg, "forkable", True)
    ctx = mp.get_context("fork" if fork else "spawn")
    init = None if fork else build_args
    with ctx.Pool(workers, initializer=_init_worker, initargs=(init,)) as pool:
        # Keep 2 shards per worker in flight; yield strictly in index order.
        pending: deque = deque()
        for i in itertools.count():
            cached = store is not None and store.path(i).exists()
            save_dir = str(store.dir) if store is not None else None
            pending.append((i, None if cached else pool.apply_async(_run_shard, (i, save_dir))))
            if len(pending) < 2 * workers:
                continue
            j, fut = pending.popleft()
            if fut is None:
                rows, stats = store.load(j)
            else:
                _, rows, stats = fut.get()  # the worker has checkpointed it
            yield j, rows, stats


def _iter_ray(synth, workers: int, store: ShardStore | None, build_args):
    """Ray backend: one actor per worker holds a Synthesizer; shards are dispatched in windows, merged in order."""
    from ..common.errors import require_extra

    require_extra("ray", "ray")
    import ray

    if build_args is None:
        raise UsageError("the ray backend needs the graph paths and config to rebuild the synthesizer on workers")
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)

    @ray.remote
    class ShardActor:
        def __init__(self, args):
            _init_worker(args)

        def run(self, i):
            return _run_shard(i)

    actors = [ShardActor.remote(build_args) for _ in range(workers)]
    window = 2 * workers
    start = 0
    while True:
        futures = {}
        for k, i in enumerate(range(start, start + window)):
            if not (store and store.path(i).exists()):
                futures[i] = actors[k % workers].run.remote(i)
        results = dict(zip(futures, ray.get(list(futures.values())))) if futures else {}
        for i in range(start, start + window):
            if i in results:
                _, rows, stats = results[i]
                if store:
                    store.save(i, rows, stats)
            else:
                rows, stats = store.load(i)
            yield i, rows, stats
        start += window
