"""Where the `--store` build's time goes against its floor, in one process (CPU seconds, so a loaded machine moves
the figures less than wall times): rdflib's parse of the file, pyoxigraph's parser alone (reading every term's
value, nothing else), and kg2tool's index build split into its pass over the parsed triples (`IndexBuilder.read`)
and its tables (`IndexBuilder.write`: unique names, lookup tables, attributes, relations, the reified-node check).
The build and the parser run twice, before and after rdflib's parse, and the faster run counts.

    python bench/gen_graph.py --triples 1000000 --out /tmp/kg2tool-bench/g1m.nt
    python bench/bench_store_floor.py /tmp/kg2tool-bench/g1m.nt
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import tempfile
import time
from pathlib import Path


def parser_alone(path: Path) -> int:
    import pyoxigraph as ox

    n = 0  # triples with their three values read
    with open(path, "rb") as f:
        for q in ox.parse(f, format=ox.RdfFormat.N_TRIPLES):
            n += len(q.subject.value) + len(q.predicate.value) + len(q.object.value) > 0
    return n


def build(path: Path) -> tuple[float, float]:
    """CPU seconds of the index build's pass and of its tables (the garbage collector paused, as the build does)."""
    from kg2tool.graph.store.index import IndexBuilder

    out = Path(tempfile.mkdtemp(prefix="kg2tool-floor-"))
    gc.disable()
    try:
        builder = IndexBuilder("en")
        t0 = time.process_time()
        builder.read(path)
        t1 = time.process_time()
        builder.write(out / "index")
        return t1 - t0, time.process_time() - t1
    finally:
        gc.enable()
        shutil.rmtree(out, ignore_errors=True)


def rdflib_parse(path: Path) -> int:
    import rdflib

    g = rdflib.Graph()
    g.parse(path, format="nt")
    return len(g)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", type=Path, help="an N-Triples file (bench/gen_graph.py makes one)")
    args = ap.parse_args()
    import pyoxigraph  # noqa: F401
    import rdflib  # noqa: F401

    import kg2tool.graph.store.index  # noqa: F401  (imports outside the timings)

    def cpu(f):
        t = time.process_time()
        f(args.graph)
        return time.process_time() - t

    parse_a, (read_a, write_a) = cpu(parser_alone), build(args.graph)
    rd = cpu(rdflib_parse)
    parse_b, (read_b, write_b) = cpu(parser_alone), build(args.graph)
    parse = min(parse_a, parse_b)
    read, write = min((read_a, write_a), (read_b, write_b), key=sum)
    total = read + write
    print(f"{args.graph} ({args.graph.stat().st_size / 1e6:,.0f} MB), load average {os.getloadavg()[0]:.1f}; CPU seconds:")
    print(f"rdflib's parse            {rd:7.2f}s")
    print(f"pyoxigraph's parser alone {parse:7.2f}s   rdflib / parser {rd / parse:5.1f}x")
    print(f"kg2tool index build       {total:7.2f}s   rdflib / build  {rd / total:5.1f}x   (target 8x: {rd / 8:.2f}s)")
    print(f"  pass over the triples   {read:7.2f}s   of which beyond the parser {read - parse:.2f}s")
    print(f"  tables                  {write:7.2f}s")


if __name__ == "__main__":
    main()
