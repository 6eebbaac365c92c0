"""Scale benchmark: loading and synthesizing from generated graphs of 1M and 10M triples, in memory and on disk.

    python bench/bench_scale.py                        # 1M and 10M triples, files and stores under /tmp/kg2tool-bench
    python bench/bench_scale.py --sizes 1000000 -n 2000 --rdflib-max 1000000

For each size, a graph from bench/gen_graph.py (power-law degrees, 13 relations, labels, attributes; N-Triples) is
generated once, then every step runs in its own process (so peak memories do not mix), measured for wall time,
CPU time (the process and its children) and peak memory (the largest sum of RSS over the process tree, sampled
every 20 ms; with, in parentheses, the anonymous part: RSS less the pages of memory-mapped files, which the
store's index is read through and which the kernel can drop):
- `rdflib`: rdflib's own parse of the file (Graph().parse), skipped above --rdflib-max triples or when it would not
  fit in the free memory (~1.3 KB per triple);
- `in-memory`: kg2tool's default load (rdflib parse + kg2tool's index, kg2tool.graph.build.load_graph), skipped above
  --memory-max triples (default 1M: at 10M it needs more than 16 GiB);
- `pyoxigraph's parser alone`: pyoxigraph's parser over the file, reading each term's value and nothing else (the
  floor of the store build's pass: every triple is parsed and its terms read there too);
- `pyoxigraph bulk load alone`: pyoxigraph's own bulk load of the file into a new RocksDB store (the part of the
  build kg2tool does not control: the build runs it in a second process beside its index pass);
- `store build`: `--store` on first use (kg2tool.graph.store: one pass of pyoxigraph's parser, the index); the
  ratio to rdflib's parse is given for wall time and for CPU time;
- `triple store on first use`: `StoreGraph.triple_store()` on the built store (pyoxigraph's bulk load, for SPARQL;
  synthesis never asks for it);
- `store open`: reusing the store: opening it and deriving the tools (what a second `--store` run does first);
- `synth w1` / `synth w2`: `kg2tool synth --store ... -n N --workers 1|2` (conversations per second of the synth
  loop; peak memory of the whole run: the main process and its workers).
Then `kg2tool synth -n 20000 --workers 1|2` on the bundled examples/wiki.ttl (in memory), the 2-worker speedup
figure of the README, twice: as the machine is, and beside a process of ours that keeps one core busy
(`while True: pass`, in a session of its own, as another user's job is: with autogroup scheduling, Linux's default,
the CPU is shared fairly between sessions, so on a loaded machine one run's workers together get about one
session's share, and a second worker pays off only for a core no other session wants). Targets: store build >= 8x
faster than rdflib's parse; 2 workers >= 1.8x one (whole run), and never slower than one when a core is busy; the
memory of a synth run on the store flat in graph size. The ratios are measured side by side in one run and printed
in one table with the machine's load average during each step (the mean of the 1-minute load average at its start
and end: on a shared machine wall times depend on how many cores are free); with two sizes or more, the cost
growth of each step (seconds and peak MiB per million triples) from the smallest size to the largest.

    python bench/bench_scale.py --sizes 1000000 -n 2000   # the quick run of `make bench`
    python bench/bench_scale.py --phases --wiki-n 20000   # where a wiki.ttl run's time goes, 1 vs 2 workers
"""

from __future__ import annotations

import argparse
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
KG2TOOL = [PY, "-m", "kg2tool.cli"]


def measure(cmd: list[str], timeout: float = 7200) -> dict:
    """Run cmd; wall seconds, CPU seconds of it and its children, peak RSS (MiB) of its process tree, output."""
    import psutil

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    root = psutil.Process(proc.pid)
    peak = peak_anon = 0
    out, err = "", ""
    while True:
        try:
            out, err = proc.communicate(timeout=0.02)
            break
        except subprocess.TimeoutExpired:
            if time.perf_counter() - t0 > timeout:
                proc.kill()
                raise
        try:
            tree = [root, *root.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree))
            peak_anon = max(peak_anon, sum(_anon(p.pid) for p in tree))
        except psutil.Error:
            pass
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = max(peak, after.ru_maxrss * 1024 if after.ru_maxrss > before.ru_maxrss else 0)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err[-3000:]}")
    load = (load0 + os.getloadavg()[0]) / 2  # the machine's 1-minute load average, at the start and the end
    return {"wall": wall, "cpu": cpu, "mib": peak / 2**20, "anon": peak_anon / 2**20, "out": out, "err": err,
            "load": load}  # fmt: skip


def _anon(pid: int) -> int:
    """Anonymous resident memory of a process in bytes (its own memory, without mapped file pages, which the kernel
    can drop: the store's index is read through mmap)."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def py(code: str) -> list[str]:
    return [PY, "-c", code]


def loop_seconds(stderr: str) -> float:
    m = re.search(r"wrote \d+ conversations .* in ([0-9.]+)s", stderr)
    return float(m.group(1)) if m else float("nan")


def load_avg() -> str:
    return open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"


def mem(m: dict | None) -> str:
    return "-" if m is None else f"{m['mib']:,.0f} MiB ({m['anon']:,.0f} anon)"


def fmt(x: float, unit: str = "") -> str:
    return "-" if x != x else (f"{x:,.1f}{unit}" if x < 100 else f"{x:,.0f}{unit}")


def wiki_runs(n: int, work: Path, busy: bool) -> dict:
    """`kg2tool synth` on examples/wiki.ttl in memory, -n `n`, with 1 and 2 workers in turn (1, 2, 1, 2: the best
    of two each), with `busy`: beside a process that keeps one core busy (`while True: pass`). Returns
    {(busy, workers): (loop s, whole run s, main process CPU s, workers' CPU s)}."""
    print(f"\n== examples/wiki.ttl in memory, -n {n}{', one core kept busy' if busy else ''} "
          f"(load average {load_avg()})", flush=True)  # fmt: skip
    # In a session of its own: Linux's autogroup scheduling shares a core fairly between sessions, not processes, so
    # a spinner in our session would only slow our own runs (another user's busy process is in another session).
    spinner = subprocess.Popen([PY, "-c", "while True: pass"], start_new_session=True) if busy else None
    got: dict = {}
    try:
        for w in (1, 2, 1, 2):
            m = measure(py(
                "import resource; from kg2tool.synth.run.pipeline import run_synth; from kg2tool.synth.run.synthesizer import SynthConfig; logs = []; "
                f"run_synth(['examples/wiki.ttl'], {str(work / 'wiki.out')!r}, SynthConfig(n={n}, seed=0), "
                f"progress=False, log=logs.append, workers={w}, overwrite=True); "
                "s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN); "
                "import sys; print(logs[-1], file=sys.stderr); "
                "print(s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime)"
            ))  # fmt: skip
            loop = loop_seconds(m["err"])
            main_cpu, workers_cpu = map(float, m["out"].split())
            if (busy, w) not in got or loop < got[busy, w][0]:
                got[busy, w] = (loop, m["wall"], main_cpu, workers_cpu)
            print(f"--workers {w}: loop {loop:.1f}s, run {m['wall']:.1f}s, {mem(m)}; CPU: main process "
                  f"{main_cpu:.1f}s, workers {workers_cpu:.1f}s (load average {load_avg()})", flush=True)  # fmt: skip
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    shutil.rmtree(work / "wiki.out", ignore_errors=True)
    return got


STEPS = (("rdflib", "rdflib's parse"), ("parse", "pyoxigraph's parser alone"), ("ox", "pyoxigraph bulk load alone"),
         ("build", "kg2tool --store build"), ("triples", "triple store on first use"))  # fmt: skip


def side_by_side(rows: list[dict]) -> None:
    """Each size's steps side by side: wall, CPU, peak memory, the ratio of rdflib's parse to the step, and the
    load average during the step."""
    print("\n| triples | step | wall | CPU | peak memory | rdflib's parse / step (wall / CPU) | load average |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        rd = r.get("rdflib")
        for key, what in STEPS:
            m = r.get(key)
            if m is None:
                continue
            ratio = f"{rd['wall'] / m['wall']:.1f}x / {rd['cpu'] / m['cpu']:.1f}x" if rd else "-"
            print(f"| {r['size'] / 1e6:g}M | {what} | {m['wall']:.1f}s | {m['cpu']:.1f}s | {mem(m)} | {ratio} "
                  f"| {m['load']:.1f} |")  # fmt: skip


def growth(a: dict, b: dict) -> None:
    """Cost per million triples of each step at the sizes of rows `a` and `b`, and its growth."""
    ma, mb = a["size"] / 1e6, b["size"] / 1e6
    print(f"\n| step | per million triples at {ma:g}M | at {mb:g}M | growth {ma:g}M -> {mb:g}M |")
    print("|---|---|---|---|")
    for key, what in STEPS:
        if key in a and key in b:
            x, y = a[key], b[key]
            print(f"| {what} | {x['wall'] / ma:.1f}s, {x['mib'] / ma:,.0f} MiB | {y['wall'] / mb:.1f}s, "
                  f"{y['mib'] / mb:,.0f} MiB | time {y['wall'] / x['wall']:.1f}x, memory {y['mib'] / x['mib']:.1f}x |")  # fmt: skip


PHASES = """
import json, resource, sys, time
t0 = time.perf_counter()
from kg2tool.synth.run import pipeline as P
from kg2tool.hub import dataset as D
from kg2tool.synth.run.synthesizer import SynthConfig
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
times = [("imports", time.perf_counter() - t0, cpu())]
def timed(mod, name, label):
    f = getattr(mod, name)
    def g(*a, **k):
        w, c = time.perf_counter(), cpu()
        try:
            return f(*a, **k)
        finally:
            times.append((label, time.perf_counter() - w, cpu() - c))
    setattr(mod, name, g)
for name, label in (("_load_graph", "graph load"), ("Synthesizer", "tools, walker, templates (Synthesizer)"),
                    ("merge_shards", "shard loop + merge"), ("make_preference_pairs", "DPO pairs"),
                    ("build_report", "report"), ("bfcl_records", "BFCL files")):
    timed(P, name, label)
timed(D, "write_dataset", "parquet, card, files (write_dataset)")
w, c = time.perf_counter(), cpu()
P.run_synth(["examples/wiki.ttl"], sys.argv[1], SynthConfig(n=int(sys.argv[2]), seed=0), progress=False,
            log=lambda m: None, workers=int(sys.argv[3]), overwrite=True)
times.append(("whole process", time.perf_counter() - t0, cpu()))
print(json.dumps(times))
"""


def phases(n: int, work: Path) -> None:
    """Where a whole `run_synth` of examples/wiki.ttl -n `n` spends its time with 1 and 2 workers (wall and CPU,
    children included, per phase), and the bound the serial phases put on 2 workers (Amdahl)."""
    import json

    got = {}
    for w in (1, 2):
        res = subprocess.run([PY, "-c", PHASES, str(work / "phases.out"), str(n), str(w)], cwd=ROOT,
                             capture_output=True, text=True, check=True)  # fmt: skip
        got[w] = json.loads(res.stdout.strip().splitlines()[-1])
        print(f"(--workers {w} done, load average {load_avg()})", flush=True)
    shutil.rmtree(work / "phases.out", ignore_errors=True)
    print(f"\n| phase, -n {n} | w1 wall | w1 CPU | w2 wall | w2 CPU |\n|---|---|---|---|---|")
    for (name, w1, c1), (_, w2, c2) in zip(got[1], got[2]):
        print(f"| {name} | {w1:.2f}s | {c1:.2f}s | {w2:.2f}s | {c2:.2f}s |")
    total = got[1][-1][1]
    loop = next(w for name, w, _ in got[1] if name.startswith("shard loop"))
    serial = total - loop
    print(f"Amdahl, from the 1-worker run: {serial:.1f}s of {total:.1f}s outside the shard loop; with the loop "
          f"halved, 2 workers can be at most {total / (serial + loop / 2):.2f}x one (measured: "
          f"{total / got[2][-1][1]:.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000000,10000000", help="triple counts, comma-separated")
    ap.add_argument("--dir", default="/tmp/kg2tool-bench", help="where graphs, stores and outputs go")
    ap.add_argument("-n", type=int, default=3000, help="conversations per synth run on the generated graphs")
    ap.add_argument("--rdflib-max", type=int, default=10_000_000,
                    help="skip rdflib's parse above this many triples (or when free memory is short)")  # fmt: skip
    ap.add_argument("--memory-max", type=int, default=1_000_000, help="skip the in-memory load above this size")
    ap.add_argument("--wiki-n", type=int, default=20000, help="conversations for the wiki.ttl workers run (0: skip)")
    ap.add_argument("--phases", action="store_true", help="only: where a wiki.ttl run's time goes, 1 vs 2 workers")
    args = ap.parse_args()
    import psutil

    work = Path(args.dir)
    work.mkdir(parents=True, exist_ok=True)
    if args.phases:
        return phases(args.wiki_n, work)
    sizes = [int(s) for s in args.sizes.split(",") if s]  # --sizes "": the wiki.ttl workers runs only
    print(f"machine: {os.cpu_count()} cores; load average at start {load_avg()}; python {sys.version.split()[0]}")
    rows = []
    for size in sizes:
        graph = work / f"g{size // 1_000_000 if size >= 1_000_000 else size}{'m' if size >= 1_000_000 else ''}.nt"
        if not graph.exists():
            subprocess.run(
                [PY, "bench/gen_graph.py", "--triples", str(size), "--out", str(graph)], cwd=ROOT, check=True
            )
        store, out = work / f"{graph.stem}.store", work / f"{graph.stem}.out"
        r: dict = {"size": size, "file_mb": graph.stat().st_size / 1e6}
        print(f"\n== {graph.name}: {graph.stat().st_size / 1e6:,.0f} MB (load average {load_avg()})", flush=True)
        need = size * 1.35e3 / 2**30  # rdflib: ~1.3 KB per triple (measured at 1M)
        avail = psutil.virtual_memory().available / 2**30
        if size > args.rdflib_max or need > avail - 4:
            print(f"rdflib parse: skipped (about {need:.0f} GiB needed, {avail:.0f} GiB available, --rdflib-max "
                  f"{args.rdflib_max:,}); in-memory load skipped above {args.memory_max:,} triples", flush=True)  # fmt: skip
        if size <= args.rdflib_max and need <= avail - 4:
            r["rdflib"] = measure(
                py(f"import rdflib; g = rdflib.Graph(); g.parse({str(graph)!r}, format='nt'); print(len(g))")
            )
            print(f"rdflib parse: {r['rdflib']['wall']:.1f}s, {mem(r['rdflib'])}", flush=True)
        if size <= args.memory_max:
            r["memory"] = measure(
                py(f"from kg2tool.graph.build import load_graph; print(load_graph([{str(graph)!r}]).summary())")
            )
            print(f"in-memory load: {r['memory']['wall']:.1f}s, {mem(r['memory'])}", flush=True)
        r["parse"] = measure(py(
            f"import pyoxigraph as ox; f = open({str(graph)!r}, 'rb'); n = 0\n"
            "for q in ox.parse(f, format=ox.RdfFormat.N_TRIPLES):\n"
            "    q.subject.value, q.predicate.value, q.object.value; n += 1\n"
            "print(n)"
        ))  # fmt: skip
        print(f"pyoxigraph's parser alone (term values read): {r['parse']['wall']:.1f}s, {r['parse']['cpu']:.1f}s CPU, "
              f"{mem(r['parse'])}", flush=True)  # fmt: skip
        ox_dir = work / f"{graph.stem}.oxigraph"
        shutil.rmtree(ox_dir, ignore_errors=True)
        r["ox"] = measure(py(
            f"import pyoxigraph as ox; s = ox.Store({str(ox_dir)!r}); "
            f"s.bulk_load(path={str(graph)!r}, format=ox.RdfFormat.N_TRIPLES); s.flush(); print(len(s))"
        ))  # fmt: skip
        shutil.rmtree(ox_dir, ignore_errors=True)
        print(f"pyoxigraph bulk load alone: {r['ox']['wall']:.1f}s, {mem(r['ox'])} (load average {load_avg()})",
              flush=True)  # fmt: skip
        shutil.rmtree(store, ignore_errors=True)
        r["build"] = measure(py(f"from kg2tool.graph.store import open_store; print(open_store({str(store)!r}, [{str(graph)!r}]).summary())"))  # fmt: skip
        print(r["build"]["out"].strip().replace("\n", "\n  "), f"\nstore build: {r['build']['wall']:.1f}s wall, "
              f"{r['build']['cpu']:.1f}s CPU, {mem(r['build'])}", flush=True)  # fmt: skip
        r["triples"] = measure(py(
            f"from kg2tool.graph.store import open_store; kg = open_store({str(store)!r}, [{str(graph)!r}]); "
            "print(len(kg.triple_store()), 'triples')"
        ))  # fmt: skip
        print(f"triple store on first use (bulk load, then opened): {r['triples']['wall']:.1f}s, {mem(r['triples'])} "
              f"(load average {r['triples']['load']:.1f})", flush=True)  # fmt: skip
        r["open"] = measure(py(
            "from kg2tool.graph.store import open_store; from kg2tool.synth.run.synthesizer import Synthesizer, SynthConfig; "
            f"kg = open_store({str(store)!r}, [{str(graph)!r}], log=lambda m: None); "
            "s = Synthesizer(kg, SynthConfig()); print(len(s.ts.specs), 'tools')"
        ))  # fmt: skip
        print(f"store open + tools: {r['open']['wall']:.1f}s, {mem(r['open'])}", flush=True)
        for w in (1, 2):
            cmd = KG2TOOL + ["synth", "--graph", str(graph), "--store", str(store), "--out", str(out), "-n", str(args.n),
                             "--seed", "0", "--workers", str(w), "--no-progress", "--overwrite"]  # fmt: skip
            m = measure(cmd)
            m["loop"] = loop_seconds(m["err"])
            r[f"w{w}"] = m
            print(f"synth --workers {w}: {args.n / m['loop']:,.0f} conv/s (loop {m['loop']:.1f}s; run {m['wall']:.1f}s), "
                  f"{mem(m)} (load average {load_avg()})", flush=True)  # fmt: skip
        shutil.rmtree(out, ignore_errors=True)
        rows.append(r)

    wiki = {}  # (busy core?, workers) -> best (loop s, run s, main CPU s, workers' CPU s)
    if args.wiki_n:
        for busy in (False, True):
            wiki.update(wiki_runs(args.wiki_n, work, busy))
    def g(r, key, field):
        return r[key][field] if key in r else float("nan")

    print("\n| triples | file | rdflib parse | in-memory load | store build (wall / CPU) | x rdflib (wall / CPU) "
          "| store open | synth w1 | synth w2 | w2/w1 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        rd = g(r, "rdflib", "wall")
        rd_cpu = g(r, "rdflib", "cpu")
        w1, w2 = args.n / r["w1"]["loop"], args.n / r["w2"]["loop"]
        print(
            f"| {r['size'] / 1e6:g}M | {r['file_mb']:,.0f} MB "
            f"| {fmt(rd, 's')}, {fmt(g(r, 'rdflib', 'mib'), ' MiB')} "
            f"| {fmt(g(r, 'memory', 'wall'), 's')}, {fmt(g(r, 'memory', 'mib'), ' MiB')} "
            f"| {fmt(r['build']['wall'], 's')} / {fmt(r['build']['cpu'], 's')}, {mem(r['build'])} "
            f"| {fmt(rd / r['build']['wall'], 'x')} / {fmt(rd_cpu / r['build']['cpu'], 'x')} "
            f"| {fmt(r['open']['wall'], 's')}, {mem(r['open'])} "
            f"| {w1:,.0f}/s, {mem(r['w1'])} | {w2:,.0f}/s, {mem(r['w2'])} "
            f"| {w2 / w1:.2f}x |"
        )
    side_by_side(rows)
    for busy in (False, True):
        if (busy, 1) in wiki:
            (l1, r1, *_), (l2, r2, *_) = wiki[busy, 1], wiki[busy, 2]
            print(f"wiki.ttl -n {args.wiki_n}, {'one core kept busy' if busy else 'no other process of ours'}: "
                  f"--workers 2 vs 1: synth loop {l1:.1f}s / {l2:.1f}s = {l1 / l2:.2f}x, whole run {r1:.1f}s / "
                  f"{r2:.1f}s = {r1 / r2:.2f}x (target {'>= 1.0x' if busy else '>= 1.8x'})")  # fmt: skip
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        print(f"memory of a synth run on the store, {a['size'] / 1e6:g}M -> {b['size'] / 1e6:g}M triples: "
              f"{mem(a['w1'])} -> {mem(b['w1'])} (1 worker)")  # fmt: skip
        growth(a, b)
    print(f"load average at the end {load_avg()}")


if __name__ == "__main__":
    main()
