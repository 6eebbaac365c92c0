"""The whole `kg2tool synth` command as a user runs it, in a subprocess: load, shards, filters, DPO pairs, BFCL
files, parquet, card and report.

    python bench/bench_whole.py                                   # all graphs, 5k/20k/40k rows, 1 core and 2 workers
    python bench/bench_whole.py --graphs nobel --sizes 20000 --workers 1   # a quick run

Graphs: `bundled` (examples/wiki.ttl), `nobel` (tests/data/real/nobelprize.nt.gz) and `gen`, a graph from
bench/gen_graph.py (`--gen-triples`, default 1,000,000: large enough not to run out of questions at 40,000 rows),
read through `--store` (what the README tells users to do with a graph that size; the store is built once, before
the timed runs, and its build is timed on its own line). Each run is `kg2tool synth --graph G --out DIR -n N --seed
S --no-progress`: with 1 worker pinned to one core (`taskset -c 0`), with `--workers 2` on two (`taskset -c 0,1`);
`--cores LIST` pins every run to LIST instead (`--cores 1` where another job holds core 0).

Printed per run: rows made (a graph that runs out of questions stops early: exit 7, `partial`), wall seconds, CPU
seconds of the command and its workers (`resource.getrusage` of the children: on a busy machine compare CPU, not
wall), conversations per wall second and per CPU second, the per-row cost (CPU ms per row made: flat across sizes
means linear), candidates tried per kept row (from the validation report), and the 1-minute load average before
and after the run (wall figures taken at a load over ~0.3 per free core are not an idle machine's). Then per graph:
the per-row cost at the largest size over the smallest's, and the wall time of 1 worker over 2 workers' at each
size. `--repeat R` runs each configuration R times, alternating them (1 worker, 2 workers, 1, 2, ...), and keeps the
best wall and the best CPU. `--baseline CHECKOUT` pairs every run with the same run of another version's package
(run just before it, so both see the same machine) and prints their CPU ratio: a before/after comparison on a busy
machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
GRAPHS = {"bundled": ROOT / "examples" / "wiki.ttl", "nobel": ROOT / "tests" / "data" / "real" / "nobelprize.nt.gz"}


def load() -> float:
    return os.getloadavg()[0]


def synth(graph: Path, out: Path, n: int, seed: int, workers: int, store: Path | None, cores: str,
          src: Path = ROOT) -> dict:  # fmt: skip
    """One `kg2tool synth` run in a subprocess, of the kg2tool package in `src`: its figures (see module docstring)."""
    cmd = ["taskset", "-c", cores] if shutil.which("taskset") else []
    cmd += [PY, "-m", "kg2tool", "synth", "--graph", str(graph), "--out", str(out), "-n", str(n), "--seed",
            str(seed), "--no-progress", "--overwrite", "--workers", str(workers)]  # fmt: skip
    if store is not None:
        cmd += ["--store", str(store)]
    env = {**os.environ, "PYTHONPATH": str(src) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    before, load0 = resource.getrusage(resource.RUSAGE_CHILDREN), load()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=src, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 7):  # 7: partial, the graph ran out of distinct questions (the rows are written)
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    report = json.loads((out / "validation_report.json").read_text(encoding="utf-8"))
    made = report["kept"]["total"]
    tried = sum(report["tried_by_shape"].values())
    loop = re.search(r"wrote \d+ conversations .* in ([0-9.]+)s", proc.stderr)
    shutil.rmtree(out, ignore_errors=True)
    return {
        "made": made, "partial": proc.returncode == 7, "wall": wall, "loop": float(loop[1]) if loop else float("nan"),
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "tried": tried, "load0": load0, "load1": load(),
    }  # fmt: skip


def generated(triples: int, work: Path) -> tuple[Path, Path]:
    """The generated graph (made once, kept in `work`) and its store, built here before any timed run."""
    graph = work / f"gen{triples}.nt"
    if not graph.exists():
        subprocess.run(
            [PY, "bench/gen_graph.py", "--triples", str(triples), "--out", str(graph)], cwd=ROOT, check=True
        )
    store = work / f"gen{triples}.store"
    t0 = time.perf_counter()
    code = f"from kg2tool.graph.store import open_store; print(open_store({str(store)!r}, [{str(graph)!r}]).summary())"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([PY, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    print(f"gen: {graph.name}: {out.strip()}; store ready in {time.perf_counter() - t0:.1f}s (built on first use, "
          "then reused: not in the figures below)")  # fmt: skip
    return graph, store


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", default="bundled,nobel,gen", help="comma-separated: bundled, nobel, gen")
    ap.add_argument("--sizes", default="5000,20000,40000", help="rows asked, comma-separated")
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated (1 runs on one core)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=1, help="runs per configuration, alternating; best kept")
    ap.add_argument("--cores", default=None, metavar="LIST",
                    help="cores to pin to (taskset -c LIST), e.g. `1` where another job holds core 0; default: core 0 "
                    "for 1 worker, cores 0..w-1 for w workers")  # fmt: skip
    ap.add_argument("--gen-triples", type=int, default=1_000_000, help="size of the generated graph")
    ap.add_argument("--dir", default="/tmp/kg2tool-bench", help="where the generated graph, its store and outputs go")
    ap.add_argument("--baseline", default=None, metavar="CHECKOUT",
                    help="another checkout of kg2tool (e.g. `git worktree add /tmp/kg2tool-main main`): each run is "
                    "paired with the same run of its package, alternating, and the CPU ratio printed")  # fmt: skip
    args = ap.parse_args()
    work = Path(args.dir)
    work.mkdir(parents=True, exist_ok=True)
    names = [g.strip() for g in args.graphs.split(",") if g.strip()]
    unknown = sorted(set(names) - {*GRAPHS, "gen"})
    if unknown:
        ap.error(f"--graphs: unknown graph(s) {', '.join(unknown)}; known: bundled, nobel, gen")
    sizes = [int(s) for s in args.sizes.split(",")]
    workers = [int(w) for w in args.workers.split(",")]
    print(f"load average at start: {load():.2f} ({os.cpu_count()} cores); python {sys.version.split()[0]}")
    header = (f"{'graph':8} {'rows':>6} {'made':>6} {'w':>2} {'wall s':>7} {'cpu s':>7} {'conv/s':>7} "
              f"{'conv/cpu-s':>10} {'ms/row':>7} {'cand/row':>8} {'loop s':>7}  load before/after")  # fmt: skip
    results: dict = {}
    for name in names:
        graph, store = generated(args.gen_triples, work) if name == "gen" else (GRAPHS[name], None)
        print(header)
        for n in sizes:
            for _ in range(args.repeat):
                for w in workers:
                    default = "0" if w == 1 else ",".join(str(c) for c in range(min(w, os.cpu_count() or 1)))
                    cores = args.cores or default
                    if args.baseline:  # the same run of the baseline's package, just before
                        b = synth(graph, work / f"out-{name}", n, args.seed, w, store, cores, Path(args.baseline))
                        base = results.setdefault(("baseline", name, n, w), b)
                        base["cpu"] = min(base["cpu"], b["cpu"])
                        print(f"{'baseline':8} {n:>6} {b['made']:>6}{'*' if b['partial'] else ' '}{w:>2} "
                              f"{b['wall']:>7.1f} {b['cpu']:>7.1f}  (load {b['load0']:.2f}/{b['load1']:.2f})")  # fmt: skip
                    r = synth(graph, work / f"out-{name}", n, args.seed, w, store, cores)
                    best = results.setdefault((name, n, w), r)
                    best["wall"], best["cpu"] = min(best["wall"], r["wall"]), min(best["cpu"], r["cpu"])
                    print(f"{name:8} {n:>6} {r['made']:>6}{'*' if r['partial'] else ' '}{w:>2} {r['wall']:>7.1f} "
                          f"{r['cpu']:>7.1f} {r['made'] / r['wall']:>7.0f} {r['made'] / r['cpu']:>10.0f} "
                          f"{1000 * r['cpu'] / r['made']:>7.2f} {r['tried'] / r['made']:>8.2f} {r['loop']:>7.1f}  "
                          f"{r['load0']:.2f}/{r['load1']:.2f}", flush=True)  # fmt: skip
        for n in sizes:
            for w in workers if args.baseline else ():
                a, b = results[("baseline", name, n, w)], results[(name, n, w)]
                print(f"{name}: {n:,} rows, {w} worker(s): CPU of the baseline / this checkout (best of "
                      f"{args.repeat}): {a['cpu'] / b['cpu']:.2f}x (rows made per CPU-second: "
                      f"{a['made'] / a['cpu']:.0f} vs {b['made'] / b['cpu']:.0f})")  # fmt: skip
        for w in workers:
            per = [(n, results[(name, n, w)]) for n in sizes]
            if len(per) > 1:
                (n0, a), (n1, b) = per[0], per[-1]
                print(f"{name}: {w} worker(s): per-row CPU cost at {n1:,} rows / at {n0:,}: "
                      f"{(b['cpu'] / b['made']) / (a['cpu'] / a['made']):.2f}x")  # fmt: skip
        if 1 in workers and len(workers) > 1:
            for n in sizes:
                one = results[(name, n, 1)]
                for w in workers[1:]:
                    print(
                        f"{name}: {n:,} rows: wall of 1 worker / {w} workers: {one['wall'] / results[(name, n, w)]['wall']:.2f}x"
                    )
    if any(r.get("partial") for r in results.values()):
        print(
            "* partial: the graph ran out of distinct questions before the rows asked (exit 7; the rows are written)"
        )
    print(f"load average at end: {load():.2f}")


if __name__ == "__main__":
    main()
