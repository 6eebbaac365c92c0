"""Synth benchmark on the bundled graph: load time vs rdflib's own parse, validated conversations/s, peak memory.

    python bench/bench_synth.py [--graph examples/wiki.ttl] [-n 4000] [--repeat 3]

Prints, on one core (the synthesis loop is single-threaded):
- graph load time (rdflib parse + kg2tool's index) next to rdflib's parse of the same file, and their ratio
  (target: within 1.2x);
- validated conversations per second: candidates sampled, compiled into calls, executed, rendered and verified
  (schema + execution + grounding + answer), with their DPO pairs, counting only rows that pass (goal 5,000/s);
  the figure excludes parquet writing, which is reported separately. It is given per second of wall
  time and per second of the process's CPU time (best of --repeat each): on a busy machine the wall figure counts
  the time other processes hold the core, the CPU figure does not, so compare versions by the CPU figure. The
  loop runs as `run_synth` runs it: the graph and indexes kept out of the garbage collector (`frozen_heap`);
- peak resident memory of the process;
- the 1-minute load average before and after (wall figures on a busy machine are not comparable).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default=str(ROOT / "examples" / "wiki.ttl"))
    ap.add_argument("-n", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    load_start = os.getloadavg()[0]

    import rdflib

    from kg2tool.graph.build import load_graph
    from kg2tool.synth.run.pipeline import run_synth
    from kg2tool.synth.run.shards import frozen_heap
    from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer

    t_rdflib, g = best_of(lambda: rdflib.Graph().parse(args.graph), args.repeat)
    t_load, kg = best_of(lambda: load_graph([args.graph]), args.repeat)
    print(f"graph: {args.graph}: {len(g):,} triples; {kg.summary()}")
    print(
        f"load: rdflib parse {t_rdflib:.3f}s | kg2tool load {t_load:.3f}s | ratio {t_load / t_rdflib:.2f}x (target <= 1.2x)"
    )

    cfg = SynthConfig(n=args.n, seed=0)
    synth = Synthesizer(kg, cfg)

    def loop():
        kept, shard = 0, 0
        while kept < args.n:
            rows, _ = synth.shard(shard)
            kept += len(rows)
            shard += 1
        return kept, shard

    walls, cpus = [], []
    with frozen_heap():
        for _ in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            kept, shards = loop()
            walls.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
    t_synth, t_cpu = min(walls), min(cpus)
    tried = shards * cfg.shard_size
    print(
        f"synth: {kept:,} validated conversations ({tried:,} candidates) in {t_synth:.2f}s = "
        f"{kept / t_synth:,.0f} validated conv/s on one core (goal 5,000); "
        f"{kept / t_cpu:,.0f} per CPU-second ({t_cpu:.2f}s)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        run_synth([args.graph], Path(tmp) / "out", cfg, progress=False, log=lambda m: None)
        t_full = time.perf_counter() - t
    print(f"end to end (load + synth + dedup + parquet + card): {args.n:,} rows in {t_full:.2f}s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MiB")
    print(f"load average (1 min) at start {load_start:.2f}, at end {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
