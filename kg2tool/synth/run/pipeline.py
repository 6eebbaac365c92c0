"""The synth pipeline: graph -> tools -> plans -> conversations -> verification -> rows.

Candidates are produced in shards of `shard_size`; candidate j of shard i draws all its randomness from
`random.Random(f"{seed}:{i}:{j}")`, so a row depends only on (graph, config, seed, its shard and position), never on
how many shards were processed before it or by whom. Kept rows are deduplicated (plan, topic cap, normalized
question text, near duplicates) in shard order, split by a hash of (topic entity, relation path) so that no test
question shares both with a train question, and cut at `n`. The shard the merge takes next, made in this process,
skips the candidates the filters would drop for their plan alone before making them (`Gate`), with the same rows
and counts as a shard made elsewhere. DPO pairs are made only for the kept rows, as the merge keeps them.
"""

from __future__ import annotations

from collections import Counter

from ...common.files import file_sha256
from ...hub.bfcl import bfcl_records
from ..candidate import Candidate, ShardStats
from ..checks.diversity import DiversityFilter, Gate
from ..tools.refs import BIG_SET, big_sets
from .saturation import Saturation
from .shards import CoreMeter, Horizon, ShardStore, fingerprint, frozen_heap, iter_shards
from .synthesizer import STAGES, SynthConfig, Synthesizer, split_of, stage_of


def run_synth(
    graphs: list[str],
    out,
    config: SynthConfig,
    lang: str = "en",
    template_dir=None,
    overwrite: bool = False,
    progress: bool = True,
    meta: dict | None = None,
    log=print,
    workers: int = 1,
    resume: bool = False,
    backend: str = "process",
    store_path=None,
    rebuild_store: bool = False,
    predicates=None,
    max_candidates: int | None = None,
) -> dict:
    """Load the graph(s), synthesize `config.n` verified conversations, write the dataset folder; return the report.

    `workers` > 1 computes shards in parallel (same output as one worker); finished shards are checkpointed beside
    `out` and `resume` continues an interrupted run from them (see kg2tool.synth.run.shards). `store_path` reads the graph
    from an on-disk store built from `graphs` on first use (see kg2tool.graph.store) instead of loading it in memory.
    A graph that runs out of distinct questions stops the run early (kg2tool.synth.run.saturation; `max_candidates`:
    try up to that many candidates instead): the dataset of the rows made is written, the report's `partial` says why.

    Long because it is the pipeline's one readable sequence (load, shards, filters, write, report), each step a
    call of its own.
    """
    import time
    from pathlib import Path

    from ... import __version__
    from ...common.errors import NothingToDoError
    from ...hub.dataset import SPLITS, check_output, write_dataset

    out, meter = Path(out), CoreMeter()  # how busy the other cores are while the graph loads (a core for helpers?)
    check_output(out, overwrite)  # fail before the expensive part
    paraphrase_backend = _check_options(config, workers, backend, store_path, rebuild_store)
    kg, graph_sha256 = _load_graph(graphs, lang, store_path, rebuild_store, log, predicates)
    synth = Synthesizer(kg, config, template_dir)
    log(f"derived {len(synth.ts.specs)} tools; sampling shapes: {', '.join(synth.shapes)}")
    fp = fingerprint(graph_sha256, _fingerprinted(config, predicates), lang, synth.renderer.dir, __version__)
    store = ShardStore(out, fp, resume=resume, overwrite=overwrite)
    if store.resumed:
        log(f"resuming: {store.resumed} finished shard(s) found in {store.work}")
    build_args = (list(graphs), lang, config, template_dir, store_path and str(store_path), predicates)
    t1, horizon = time.perf_counter(), Horizon()  # the merge tells the workers how many shards the run still needs
    saturation = Saturation(max_candidates)
    synth.lazy_pairs = True  # DPO pairs for the kept rows only, made as the merge keeps them (`add_pairs`)
    synth.gate = gate = Gate(DiversityFilter(config.near_dup_threshold, config.max_per_topic), config.n)
    with store.kept_for_resume(), frozen_heap():  # a full disk, say: the finished shards are kept, --resume goes on
        kept, stats = merge_shards(iter_shards(synth, workers, store, backend, build_args, _import_writer, horizon,
                                               meter.others()), config, progress, horizon, synth.add_pairs,
                                   saturation, gate)  # fmt: skip
    synth.gate = None
    elapsed, total = time.perf_counter() - t1, sum(len(v) for v in kept.values())
    if total == 0:
        raise NothingToDoError(f"every candidate was dropped: {stats.to_json()}")
    paraphrased = None
    if paraphrase_backend is not None:
        paraphrased = paraphrase_pass(synth, kept, paraphrase_backend, store.work / "paraphrase", progress, log)
    pairs, rows = make_preference_pairs(kept), {s: [c.row for c in v] for s, v in kept.items()}
    report = build_report(synth, rows, stats)
    if total < config.n:  # a partial dataset: written whole, and said so (the command exits with PARTIAL)
        report["partial"] = saturation.report(total, config.n)
    if paraphrased is not None:
        report["paraphrase"] = paraphrased
    meta = _card_meta(meta, graphs, config, lang, graph_sha256, __version__)
    report["config"], report["tool_style"] = config.to_dict(), tool_style_report(rows, config)
    if config.style.passes_handles:
        log(f"tool style refs: {report['tool_style']['rows_with_a_set_over_100']} rows pass or answer a set of more "
            f"than {BIG_SET} names")  # fmt: skip
    report["graph"] = {"files": [str(g) for g in graphs], "summary": kg.summary(), "load": vars(kg.stats)}
    report["dpo"] = {
        "by_split": {s: len(v) for s, v in pairs.items()},
        "by_rejection_type": dict(sorted(Counter(p["rejection_type"] for v in pairs.values() for p in v).items())),
    }
    bfcl = bfcl_records(rows["test"], kg)
    report["bfcl"] = {cat: len(tests) for cat, (tests, _) in bfcl.items()}
    lexicon = {"lexicon.yaml": synth.lexicon.to_yaml()}  # edit it and pass it back with --lexicon
    writers = _writers(kg, workers if horizon.helpers_paid else 1, backend)  # one, where the helpers did not pay
    with store.kept_for_resume():
        write_dataset(out, rows, report, meta, overwrite, pairs, bfcl, lexicon, writers)
    store.remove()
    log(
        f"wrote {total} conversations to {out} ({', '.join(f'{len(rows[s])} {s}' for s in SPLITS)}) "
        f"in {elapsed:.1f}s; dropped: {sum(report['dropped'].values())} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(report['dropped'].items())) or 'none'})"
    )
    if total < config.n:
        log(saturation.message(total, config.n))
    if no_kind := report["no_kind_by_relation"]:
        top = ", ".join(f"{rel} {n}" for rel, n in list(no_kind.items())[:5])
        log(f"no_kind: {report['dropped'].get('no_kind', 0)} candidates could only call their entities 'things' "
            f"(relations they use: {top}); give them kinds in lexicon.yaml (subject/object) or rdf:type in the graph")
    return report


def _writers(kg, workers: int, backend: str) -> int:
    """Processes that write the parquet files: the run's workers where this process may fork (not after an on-disk
    store opened RocksDB, whose threads a forked child can deadlock on; see kg2tool.synth.run.shards)."""
    return workers if backend == "process" and getattr(kg, "forkable", True) else 1


def _import_writer() -> None:
    """Import what writing the dataset needs (`datasets`, pyarrow: ~1 s), while helper workers compute shards."""
    from ...hub.dataset import dpo_features, sft_features

    sft_features()
    dpo_features()


def tool_style_report(rows: dict[str, list[dict]], config: SynthConfig) -> dict:
    """The tool style of the dataset; for refs, the names a ref shows and how many rows hold a ref of more than
    BIG_SET names (a hub question: an intermediate or answer set that the values style never passes)."""
    style = config.style
    out: dict = {"style": style.value}
    if style.passes_handles:
        out["ref_items"] = config.ref_items
        out["rows_with_a_set_over_100"] = sum(big_sets(r) for split in rows.values() for r in split)
    return out


def _card_meta(meta: dict | None, graphs, config: SynthConfig, lang: str, graph_sha256: list[str], version: str) -> dict:
    """What the dataset card records of the run: the caller's `meta` (its command, license, ...) completed with the
    graph files and their sha256, a default command, the version, the seed and the label language."""
    meta = dict(meta or {})
    meta.setdefault("graphs", [str(g) for g in graphs])
    meta.setdefault(
        "command", f"kg2tool synth {' '.join('--graph ' + str(g) for g in graphs)} -n {config.n} --seed {config.seed}"
    )
    meta |= {"version": version, "seed": config.seed, "lang": lang}
    meta["graph_sha256"] = graph_sha256
    return meta


def _fingerprinted(config: SynthConfig, predicates) -> dict:
    """What of the config identifies a run for resuming: the SynthConfig, plus the --include/--exclude-predicate
    rules when given (left out otherwise, so runs without them keep their fingerprint)."""
    if predicates is None:
        return config.to_dict()
    return config.to_dict() | {"predicates": [sorted(predicates.include), sorted(predicates.exclude)]}


def _check_options(config: SynthConfig, workers: int, backend: str, store_path, rebuild_store: bool):
    """UsageError / MissingExtraError / InputError for options that cannot work, before any work; returns the
    paraphrase backend (not loaded yet) when `config.paraphrase.model` is set, else None."""
    from ...common.errors import UsageError, require_extra

    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if backend == "ray":
        require_extra("ray", "ray")
    if store_path:
        require_extra("pyoxigraph", "store")
    elif rebuild_store:
        raise UsageError("--rebuild-store needs --store PATH")
    if not config.paraphrase.model:
        return None
    from ..paraphrase.rewrite import make_paraphrase_backend  # checks the model folder and the backend's packages

    return make_paraphrase_backend(config.paraphrase)


def _load_graph(graphs: list[str], lang: str, store_path, rebuild_store: bool, log, predicates=None):
    """(graph, its identity for the fingerprint and card): loaded in memory (identity: the files' SHA-256), or
    opened from the on-disk store at `store_path` (identity: the store's)."""
    import time

    from ...graph.build import load_graph

    t0 = time.perf_counter()
    if store_path:
        from ...graph.store import open_store

        kg = open_store(store_path, graphs, lang=lang, rebuild=rebuild_store, log=log, predicates=predicates)
        graph_sha256 = kg.sha256
    else:
        kg = load_graph(graphs, lang=lang, predicates=predicates)
        graph_sha256 = [file_sha256(g) for g in graphs]
    log(f"loaded {kg.summary()} from {len(graphs)} file(s) in {time.perf_counter() - t0:.1f}s")
    return kg, graph_sha256


def merge_shards(
    shards, config: SynthConfig, progress: bool = False, horizon: Horizon | None = None, keep=None,
    saturation: Saturation | None = None, gate: Gate | None = None,
) -> tuple[dict[str, list[Candidate]], ShardStats]:  # fmt: skip
    """Take candidates from `shards` (`iter_shards`'s generator, closed here) in order through the diversity
    filters into their splits, until `config.n` are kept, the graph is spent (`saturation`: 20 shards in a row add
    none, the yield fell below its floor, or --max-candidates were tried; kg2tool.synth.run.saturation) or
    `config.max_shards` shards were read. Returns (candidates by split, the shards' counts plus the diversity
    drops). `horizon`, when given, is told after each shard how many more the run is likely to need (the workers
    start none beyond). `keep(candidate)`, when given, is called on each kept candidate (the pipeline makes its
    DPO pairs there: only kept rows get them). `gate`: the filter the synthesizer's next shard sees
    (`Synthesizer.gate`); its candidates come filtered already (`Candidate.admitted`), and those of shards made
    elsewhere are filtered here, their late drops counted as the gate would have (`_late_drop`)."""
    from tqdm.auto import tqdm

    from ...hub.dataset import SPLITS

    kept: dict[str, list[Candidate]] = {s: [] for s in SPLITS}
    diversity = gate.diversity if gate is not None else DiversityFilter(config.near_dup_threshold, config.max_per_topic)
    saturation = saturation if saturation is not None else Saturation()
    stats = ShardStats()
    total = 0
    bar = tqdm(total=config.n, disable=not progress, desc="synth", unit="conv", dynamic_ncols=True)
    for shard, candidates, st in shards:
        before, counted = total, stats.dropped.copy()  # the shard's drops: its own and the merge's (saturation)
        stats.update(st)
        late = iter(st.late)
        drop = next(late, None)
        for cand in candidates:
            while drop is not None and drop[0] < cand.pos:
                _late_drop(stats, diversity, drop)
                drop = next(late, None)
            reason = None if cand.admitted else diversity.reject(cand.row, cand.diversity_keys)
            if reason:
                stats.drop(reason)
                continue
            if keep is not None:
                keep(cand)
            kept[split_of(cand.split_key, config.splits)].append(cand)
            total += 1
            if total >= config.n:
                break
        else:  # the drops after the shard's last candidate (after the n-th row, they keep their own reasons)
            while drop is not None:
                _late_drop(stats, diversity, drop)
                drop = next(late, None)
        if gate is not None:
            gate.next, gate.total = shard + 1, total
        bar.update(total - before)
        if horizon is not None:
            horizon.update(shard, total, config.n)
        saturation.add(sum(st.tried.values()), total - before, stats.dropped - counted)
        if total >= config.n or saturation.spent() or shard + 1 >= config.max_shards:
            break
    shards.close()  # stops the worker pool
    bar.close()
    return kept, stats


def _late_drop(stats: ShardStats, diversity: DiversityFilter, drop: list) -> None:
    """A candidate of a shard made where the gate was closed, dropped after the gate's point: counted as the gate
    would have counted it, `duplicate_plan` or `topic_cap` when the filter says so at its place in the order."""
    _, shape, reason, plan, topic, no_kind = drop
    why = diversity.taken(plan, topic)
    if why:
        stats.undrop(reason, shape, no_kind)
        stats.drop(why)


def paraphrase_pass(
    synth: Synthesizer, kept: dict[str, list[Candidate]], backend, cache_dir, progress: bool, log
) -> dict:
    """Rewrite the kept rows' questions with the paraphrase model, in split order, in this process (see
    kg2tool.synth.paraphrase.rewrite); return the counts for the report."""
    import time

    from ...hub.dataset import SPLITS
    from ..paraphrase.rewrite import Paraphraser, name_index, paraphrase_rows

    cfg = synth.cfg.paraphrase
    t0 = time.perf_counter()
    backend.load()
    try:
        paraphraser = Paraphraser(backend, cfg.prompt, cfg.batch_size)
        candidates = [c for s in SPLITS for c in kept[s]]
        counts = paraphrase_rows(candidates, synth.ts, paraphraser, cfg, seed=synth.cfg.seed,
                                 names=name_index(synth.kg), progress=progress, cache_dir=cache_dir)  # fmt: skip
    finally:
        backend.unload()
    tried = counts["questions_tried"]
    log(
        f"paraphrase: kept {counts['kept']} of {tried} rewrites ({100 * counts['kept'] / max(tried, 1):.1f}%) in "
        f"{counts['rows_rewritten']} of {counts['rows_tried']} rows, with {cfg.model} ({cfg.backend}) in "
        f"{time.perf_counter() - t0:.1f}s; rejected: "
        + (", ".join(f"{k} {v}" for k, v in sorted(counts["rejected"].items(), key=lambda kv: -kv[1])) or "none")
    )
    return counts


def make_preference_pairs(kept: dict[str, list[Candidate]]) -> dict[str, list[dict]]:
    """The DPO pairs made with each kept conversation (see Synthesizer.candidates), split like the conversations."""
    return {split: [p for cand in cands for p in cand.dpo] for split, cands in kept.items()}


def build_report(synth: Synthesizer, kept: dict[str, list[dict]], stats: ShardStats) -> dict:
    """The validation report (deterministic: no timings) from the kept rows by split and the counts."""
    rows = [r for split in kept.values() for r in split]
    coverage: Counter = Counter()
    for r in rows:
        for rel in set(r["relation_path"]):
            coverage[rel.removeprefix("inverse ")] += 1
    all_rels = sorted(synth.kg.relations[r].label for r in synth.walker.rels)
    train_keys = {(r["topic_entity"], tuple(r["relation_path"])) for r in kept["train"]}
    test_keys = {(r["topic_entity"], tuple(r["relation_path"])) for r in kept["test"]}
    return {
        "kept": {
            "total": len(rows),
            "by_split": {s: len(v) for s, v in kept.items()},
            "by_pattern": dict(sorted(Counter(r["pattern"] for r in rows).items())),
            "by_category": dict(sorted(Counter(r["category"] for r in rows).items())),
            "by_entity_kind": dict(Counter(k for r in rows for k in _plan_kinds(r.get("plan"))).most_common()),
            "by_split_and_category": {
                s: dict(sorted(Counter(r["category"] for r in v).items())) for s, v in kept.items()
            },
        },
        "tried_by_shape": dict(sorted(stats.tried.items())),
        "dropped": dict(sorted(stats.dropped.items())),
        "dropped_by_stage": dropped_by_stage(stats.dropped),
        "redrawn": dict(sorted(stats.redrawn.items())),
        "dropped_by_shape": dict(sorted((f"{s}:{r}", v) for (s, r), v in stats.dropped_by_shape.items())),
        "no_kind_by_relation": dict(sorted(stats.no_kind.items(), key=lambda kv: (-kv[1], kv[0]))),
        "relation_coverage": {rel: coverage.get(rel, 0) for rel in all_rels},
        "relations_unused": [rel for rel in all_rels if not coverage.get(rel)],
        "train_test_key_overlap": len(train_keys & test_keys),
    }


def dropped_by_stage(dropped: Counter) -> dict[str, int]:
    """Drops summed by the stage of the candidate's making that found them (`synthesizer.stage_of`), in the order
    of the stages: a drop at an early stage cost little, a late one cost the whole candidate."""
    by: Counter = Counter()
    for reason, n in dropped.items():
        by[stage_of(reason)] += n
    return {stage: by[stage] for stage in STAGES if by[stage]}


def _plan_kinds(plan) -> list[str]:
    """The kinds of the entities a row's plan names (its `entity` nodes), in order."""
    if isinstance(plan, str):
        import json

        plan = json.loads(plan)
    if isinstance(plan, dict):
        own = [plan["kind"]] if plan.get("op") == "entity" and "kind" in plan else []
        return own + [k for v in plan.values() if isinstance(v, (dict, list)) for k in _plan_kinds(v)]
    if isinstance(plan, list):
        return [k for v in plan for k in _plan_kinds(v)]
    return []
