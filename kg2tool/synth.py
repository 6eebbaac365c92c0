"""The synth pipeline: graph -> tools -> plans -> conversations -> verification -> rows.

Candidates are produced in shards of `shard_size`; shard i draws all its randomness from
`random.Random(f"{seed}:{i}")`, so a row depends only on (graph, config, seed, its shard and position), never on
how many shards were processed before it or by whom. Kept rows are deduplicated (normalized question text) in
shard order, split by a hash of (topic entity, relation path) so that no test question shares both with a train
question, and cut at `n`.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import asdict, dataclass, field

from .bfcl import bfcl_records
from .dialogue import DialogueBuilder
from .diversity import DiversityFilter, normalize_question
from .graph import KnowledgeGraph
from .paraphrase import ParaphraseConfig
from .plans import Compare, Node, Parallel, anchors, execute, plan_to_json, relation_path, topic
from .preference import PairMaker
from .render import Renderer
from .shards import ShardStore, file_sha256, fingerprint, iter_shards
from .tools import OPERATORS, ToolError, ToolSet
from .traces import Compiler, Trace, messages_for, tools_used
from .verify import verify_row
from .walk import ALL_SHAPES, CATEGORY, DIALOGUE_SHAPES, WalkConfig, Walker

DEFAULT_MIX = {
    "simple": 1.0, "multiple": 1.0, "parallel": 1.0, "parallel_multiple": 1.0, "irrelevance": 0.8,
    "2p": 1.0, "3p": 0.7, "2i": 1.0, "3i": 0.7, "ip": 0.7, "pi": 0.7, "2u": 0.7, "up": 0.6,
    "2in": 0.6, "3in": 0.5, "inp": 0.5, "pin": 0.5, "pni": 0.5, "count": 0.8, "compare": 0.8,
    "followup": 0.6, "missing_info": 0.5, "error_recovery": 0.6,
}  # fmt: skip


@dataclass
class SynthConfig:
    """Parameters:
    n: number of conversations to write (all splits together).
    seed: random seed; the same graph, config and seed give byte-identical data.
    mix: relative weight per shape (shapes left out get weight 0); see `kg2tool.walk.ALL_SHAPES`.
    splits: fractions for train/validation/test (assigned by topic entity and relation path).
    min_support: a relation or attribute needs this many facts to get tools.
    max_distractors: at most this many extra tools offered beside the needed ones (`multiple` has at least 2).
    near_dup_threshold: drop questions whose word-3-gram Jaccard similarity (MinHash) with a kept one reaches
        this (0 disables); exact duplicate questions and duplicate plans are always dropped.
    max_per_topic: at most this many conversations per topic entity (0: no cap).
    shard_size: candidates per shard (the unit of seeding and, later, of parallel work and resume).
    max_shards: stop after this many shards even if fewer than n rows were kept.
    walk: walker bounds (answer-set sizes, fan-out, inverse probability).
    paraphrase: rewriting questions with a language model (off unless `paraphrase.model` is set); see
        `kg2tool.paraphrase.ParaphraseConfig`.
    """

    n: int = 2000
    seed: int = 0
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    splits: tuple[float, float, float] = (0.8, 0.1, 0.1)
    min_support: int = 5
    max_distractors: int = 3
    near_dup_threshold: float = 0.9
    max_per_topic: int = 25
    shard_size: int = 256
    max_shards: int = 10_000
    walk: WalkConfig = field(default_factory=WalkConfig)
    paraphrase: ParaphraseConfig = field(default_factory=ParaphraseConfig)

    def to_dict(self) -> dict:
        return asdict(self)


def pattern_of(shape: str) -> str:
    return "1p" if shape in ("simple", "multiple") else shape


def split_of(key: str, splits: tuple[float, float, float]) -> str:
    u = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") / 2**64
    if u < splits[0]:
        return "train"
    if u < splits[0] + splits[1]:
        return "validation"
    return "test"


def gold_answers(kg: KnowledgeGraph, plan: Node) -> tuple[list[str], list[list[str]]]:
    """(flat answer strings, per parallel item) computed from the plan on ids, independently of the calls."""

    def one(value, node) -> list[str]:
        if isinstance(node, Compare):
            return [kg.name(value)] if value is not None else []
        if isinstance(value, frozenset):
            return sorted(kg.name(i) for i in value)
        return [] if value is None else [str(value)]

    if isinstance(plan, Parallel):
        per = [one(execute(kg, c), c) for c in plan.children]
        flat = sorted({a for p in per for a in p})
        return flat, per
    return one(execute(kg, plan), plan), []


class Synthesizer:
    """Holds the loaded graph, tools, walker, templates and compiler; `generate()` yields candidate results."""

    def __init__(self, kg: KnowledgeGraph, config: SynthConfig, template_dir=None):
        self.kg = kg
        self.cfg = config
        self.ts = ToolSet.from_graph(kg, min_support=config.min_support)
        self.walker = Walker(self.ts, config.walk)
        shapes = [s for s, w in config.mix.items() if w > 0]
        families = [s for s in shapes if s != "error_recovery"]  # error_recovery words its question as 1p/2p
        if set(shapes) & set(DIALOGUE_SHAPES):
            families += [f for f in ("simple", "2p") if f not in families]
        self.renderer = Renderer(template_dir, shapes=families)
        self.compiler = Compiler(self.ts)
        self.shapes = shapes
        self.weights = [config.mix[s] for s in shapes]
        self.pair_maker = PairMaker(self.ts)
        self.dialogue = DialogueBuilder(self)
        self.relation_tools = sorted(n for n, s in self.ts.specs.items() if s.kind != "operator")

    # -- one candidate -----------------------------------------------------------------------------------
    def candidate(self, shape: str, rng: random.Random) -> tuple[dict | None, str]:
        """(row, "") or (None, drop reason)."""
        if shape in DIALOGUE_SHAPES:
            return self.dialogue_candidate(shape, rng)
        plan = self.walker.sample(shape, rng)
        if plan is None:
            return None, "sampling_failed"
        category = CATEGORY[shape]
        gold, per_item = gold_answers(self.kg, plan)
        if category != "irrelevance" and not gold:
            return None, "empty_answer"
        extra: dict = {"per_item": per_item}
        if category == "irrelevance":
            trace_calls, needed = [], []
        else:
            try:
                trace = self.compiler.compile(plan)
            except ToolError as exc:
                return None, f"execution_error:{exc.kind}"
            trace_calls, needed = trace.calls, tools_used(trace)
            if isinstance(plan, Compare):
                extra["values"] = {c.arguments["items"][i]["name"]: c.arguments["items"][i]["value"]
                                   for c in trace_calls if c.name == "compare" for i in range(len(plan.items))}  # fmt: skip
        tools = self.offer(shape, plan, needed, rng)
        if category == "irrelevance":
            if not tools:  # e.g. a one-relation graph: no unrelated tool to offer
                return None, "no_unrelated_tools"
            extra["tools"] = tools
        ctx = self.renderer.context(self.kg, shape, plan, gold if category != "irrelevance" else [], extra)
        question, answer = self.renderer.render(shape, ctx, rng)
        if category == "irrelevance":
            gold = []
        messages = messages_for(question, Trace(calls=trace_calls), answer)
        schemas = self.ts.schemas(tools)
        reason = verify_row(self.ts, messages, schemas, gold, category)
        if reason:
            return None, reason
        return self._row(shape, category, plan, messages, schemas, gold), ""

    def dialogue_candidate(self, shape: str, rng: random.Random) -> tuple[dict | None, str]:
        """followup, missing_info and error_recovery conversations (see kg2tool.dialogue)."""
        plan = self.dialogue.plan(shape, rng)
        if plan is None:
            return None, "sampling_failed"
        gold, _ = gold_answers(self.kg, plan)
        if not gold:
            return None, "empty_answer"
        try:
            messages, calls = self.dialogue.build(shape, plan, gold, rng)
        except ToolError as exc:
            return None, f"execution_error:{exc.kind}"
        if messages is None:
            return None, "sampling_failed"
        needed = list(dict.fromkeys(c.name for c in calls))
        schemas = self.ts.schemas(self.offer(shape, plan, needed, rng))
        category = CATEGORY[shape]
        reason = verify_row(self.ts, messages, schemas, gold, category, allow_errors=shape == "error_recovery")
        if reason:
            return None, reason
        return self._row(shape, category, plan, messages, schemas, gold), ""

    def _row(self, shape: str, category: str, plan: Node, messages: list[dict], schemas: list[dict], gold) -> dict:
        path = relation_path(plan)
        call_turns = [m for m in messages if m.get("tool_calls")]
        return {
            "messages": messages,
            "tools": schemas,
            "pattern": pattern_of(shape),
            "category": category,
            "answers": gold,
            "topic_entity": self.kg.name(topic(plan)),
            "relation_path": [self._rel_label(r) for r in path],
            "num_calls": sum(len(m["tool_calls"]) for m in call_turns),
            "num_turns": len(call_turns),
            "plan": plan_to_json(self.kg, plan),
            "_split_key": f"{self.kg.entities[topic(plan)]}|{'/'.join(path)}",
        }

    def _rel_label(self, key: str) -> str:
        inv = key.startswith("^")
        iri = key.lstrip("^")
        lab = self.kg.relations[iri].label if iri in self.kg.relations else self.kg.attributes[iri].label
        return ("inverse " if inv else "") + lab

    def offer(self, shape: str, plan: Node, needed: list[str], rng: random.Random) -> list[str]:
        """Tool names offered in the row: the needed ones plus related distractors, in a seeded order."""
        if shape in ("simple", "parallel"):
            return list(needed)
        avoid = set(needed)
        if shape == "irrelevance":
            rel = plan.rel
            avoid = {self.ts.forward_tool[rel], self.ts.inverse_tool[rel]}
        lo = 2 if shape in ("multiple", "irrelevance") else 0
        k = rng.randint(lo, max(lo, self.cfg.max_distractors))
        related = []
        for eid in anchors(plan):
            for r, inv in self.walker.options.get(eid, ()):
                name = (self.ts.inverse_tool if inv else self.ts.forward_tool)[r]
                if name not in avoid and name not in related:
                    related.append(name)
        if shape == "irrelevance":  # never offer the inverse of the asked relation either
            related = [r for r in related if r not in avoid]
        pool = (
            related
            if len(related) >= k
            else related + [t for t in self.relation_tools if t not in avoid and t not in related]
        )
        distractors = rng.sample(pool, min(k, len(pool)))
        names = list(needed) + distractors
        if shape not in ("irrelevance",) and any(s in OPERATORS for s in needed) and rng.random() < 0.5:
            extra_ops = [o for o in OPERATORS if o not in names]
            names += rng.sample(extra_ops, min(len(extra_ops), 1))
        rng.shuffle(names)
        return names

    # -- shards ------------------------------------------------------------------------------------------
    def shard(self, index: int) -> tuple[list[dict], Counter]:
        """Candidates of one shard: (kept rows in order, counts of drop reasons and of tries per shape)."""
        rng = random.Random(f"{self.cfg.seed}:{index}")
        rows: list[dict] = []
        stats: Counter = Counter()
        for j in range(self.cfg.shard_size):
            shape = rng.choices(self.shapes, weights=self.weights)[0]
            row, reason = self.candidate(shape, rng)
            stats[f"tried:{shape}"] += 1
            if row is None:
                stats[f"dropped:{reason}"] += 1
                stats[f"dropped_by_shape:{shape}:{reason}"] += 1
                continue
            row["id"] = f"{row['category']}_{index * self.cfg.shard_size + j}"
            # DPO pairs are made here, in the shard's worker, seeded by the row id (kept only if the row is)
            row["_dpo"] = self.pair_maker.pairs(row, random.Random(f"{self.cfg.seed}:dpo:{row['id']}"))
            rows.append(row)
        return rows, stats


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
) -> dict:
    """Load the graph(s), synthesize `config.n` verified conversations, write the dataset folder; return the report.

    `workers` > 1 computes shards in parallel (same output as one worker); finished shards are checkpointed beside
    `out` and `resume` continues an interrupted run from them (see kg2tool.shards). `store_path` reads the graph
    from an on-disk store built from `graphs` on first use (see kg2tool.store) instead of loading it in memory."""
    import time
    from pathlib import Path

    from tqdm.auto import tqdm

    from . import __version__
    from .dataset import SPLITS, check_output, write_dataset
    from .errors import NothingToDoError, UsageError, require_extra
    from .graph import load_graph

    out = Path(out)
    check_output(out, overwrite)  # fail before the expensive part
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if backend == "ray":
        require_extra("ray", "ray")
    if store_path:
        require_extra("pyoxigraph", "store")
    elif rebuild_store:
        raise UsageError("--rebuild-store needs --store PATH")
    paraphrase_backend = None
    if config.paraphrase.model:  # the model folder and the backend's packages are checked before any work
        from .paraphrase import make_paraphrase_backend

        paraphrase_backend = make_paraphrase_backend(config.paraphrase)
    t0 = time.perf_counter()
    if store_path:
        from .store import open_store

        kg = open_store(store_path, graphs, lang=lang, rebuild=rebuild_store, log=log)
        graph_sha256 = kg.sha256
    else:
        kg = load_graph(graphs, lang=lang)
        graph_sha256 = [file_sha256(g) for g in graphs]
    log(f"loaded {kg.summary()} from {len(graphs)} file(s) in {time.perf_counter() - t0:.1f}s")
    synth = Synthesizer(kg, config, template_dir)
    log(f"derived {len(synth.ts.specs)} tools; sampling shapes: {', '.join(synth.shapes)}")
    fp = fingerprint(graph_sha256, config.to_dict(), lang, synth.renderer.dir, __version__)
    store = ShardStore(out, fp, resume=resume, overwrite=overwrite)
    if store.resumed:
        log(f"resuming: {store.resumed} finished shard(s) found in {store.work}")
    build_args = (list(graphs), lang, config, template_dir, store_path and str(store_path))
    shards = iter_shards(synth, workers, store, backend, build_args=build_args)

    kept: dict[str, list[dict]] = {s: [] for s in SPLITS}
    diversity = DiversityFilter(config.near_dup_threshold, config.max_per_topic)
    stats: Counter = Counter()
    total, idle = 0, 0
    t1 = time.perf_counter()
    bar = tqdm(total=config.n, disable=not progress, desc="synth", unit="conv", dynamic_ncols=True)
    for shard, rows, st in shards:
        stats.update(st)
        before = total
        for row in rows:
            reason = diversity.reject(row)
            if reason:
                stats[f"dropped:{reason}"] += 1
                continue
            kept[split_of(row.pop("_split_key"), config.splits)].append(row)
            total += 1
            if total >= config.n:
                break
        bar.update(total - before)
        idle = idle + 1 if total == before else 0
        if total >= config.n or idle >= 20 or shard + 1 >= config.max_shards:
            break
    shards.close()  # stops the worker pool
    bar.close()
    elapsed = time.perf_counter() - t1
    if total == 0:
        raise NothingToDoError(f"every candidate was dropped: {dict(stats)}")
    if total < config.n:
        log(f"warning: only {total} distinct conversations could be made (asked for {config.n})")
    paraphrased = None
    if paraphrase_backend is not None:
        paraphrased = paraphrase_pass(synth, kept, paraphrase_backend, store.work / "paraphrase", progress, log)
    report = build_report(synth, kept, stats)
    if paraphrased is not None:
        report["paraphrase"] = paraphrased
    meta = dict(meta or {})
    meta.setdefault("graphs", [str(g) for g in graphs])
    meta.setdefault(
        "command", f"kg2tool synth {' '.join('--graph ' + str(g) for g in graphs)} -n {config.n} --seed {config.seed}"
    )
    meta |= {"version": __version__, "seed": config.seed, "lang": lang}
    meta["graph_sha256"] = graph_sha256
    report["config"] = config.to_dict()
    report["graph"] = {"files": [str(g) for g in graphs], "summary": kg.summary(), "load": vars(kg.stats)}
    pairs = make_preference_pairs(kept)
    report["dpo"] = {
        "by_split": {s: len(v) for s, v in pairs.items()},
        "by_rejection_type": dict(sorted(Counter(p["rejection_type"] for v in pairs.values() for p in v).items())),
    }
    bfcl = bfcl_records(kept["test"], kg)
    report["bfcl"] = {cat: len(tests) for cat, (tests, _) in bfcl.items()}
    write_dataset(out, kept, report, meta, overwrite, pairs_by_split=pairs, bfcl=bfcl)
    store.remove()
    log(
        f"wrote {total} conversations to {out} ({', '.join(f'{len(kept[s])} {s}' for s in SPLITS)}) "
        f"in {elapsed:.1f}s; dropped: {sum(report['dropped'].values())} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(report['dropped'].items())) or 'none'})"
    )
    return report


def paraphrase_pass(synth: Synthesizer, kept: dict[str, list[dict]], backend, cache_dir, progress: bool, log) -> dict:
    """Rewrite the kept rows' questions with the paraphrase model, in split order, in this process (see
    kg2tool.paraphrase); return the counts for the report."""
    import time

    from .dataset import SPLITS
    from .paraphrase import Paraphraser, name_index, paraphrase_rows

    cfg = synth.cfg.paraphrase
    t0 = time.perf_counter()
    backend.load()
    try:
        paraphraser = Paraphraser(backend, cfg.prompt, cfg.batch_size)
        rows = [r for s in SPLITS for r in kept[s]]
        counts = paraphrase_rows(rows, synth.ts, paraphraser, cfg, seed=synth.cfg.seed, names=name_index(synth.kg),
                                 progress=progress, cache_dir=cache_dir)  # fmt: skip
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


def make_preference_pairs(kept: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The DPO pairs made with each kept conversation (see Synthesizer.shard), split like the conversations."""
    return {split: [p for row in rows for p in row.pop("_dpo")] for split, rows in kept.items()}


def build_report(synth: Synthesizer, kept: dict[str, list[dict]], stats: Counter) -> dict:
    """The validation report (deterministic: no timings)."""
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
            "by_split_and_category": {
                s: dict(sorted(Counter(r["category"] for r in v).items())) for s, v in kept.items()
            },
        },
        "tried_by_shape": {k.split(":", 1)[1]: v for k, v in sorted(stats.items()) if k.startswith("tried:")},
        "dropped": {k.split(":", 1)[1]: v for k, v in sorted(stats.items()) if k.startswith("dropped:")},
        "dropped_by_shape": {
            k.split(":", 1)[1]: v for k, v in sorted(stats.items()) if k.startswith("dropped_by_shape:")
        },
        "relation_coverage": {rel: coverage.get(rel, 0) for rel in all_rels},
        "relations_unused": [rel for rel in all_rels if not coverage.get(rel)],
        "train_test_key_overlap": len(train_keys & test_keys),
    }


__all__ = ["SynthConfig", "Synthesizer", "ALL_SHAPES", "DEFAULT_MIX", "split_of", "normalize_question", "run_synth"]
