"""How often the chain shapes (2p, 3p) fail to sample, and how many of their rows walk a relation back, per graph.

    python bench/bench_chains.py examples/wiki.ttl tests/data/real/*.gz

One shard of `--rows` candidates (seed 0, half 2p and half 3p, `min_support` 3) per graph: for each shape the
candidates tried, those the walker could not sample (`sampling_failed`), the rows kept, and the kept rows with at
least one step walked backwards.
"""

from __future__ import annotations

import argparse
import json

from kg2tool.common.errors import InputError
from kg2tool.graph.build import load_graph
from kg2tool.synth.run.pipeline import SynthConfig
from kg2tool.synth.run.synthesizer import Synthesizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graphs", nargs="+", help="graph files")
    parser.add_argument("--rows", type=int, default=400, help="candidates per graph (default 400)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for path in args.graphs:
        try:
            kg = load_graph(path)
        except InputError as exc:  # e.g. a file of rdf:type triples only, meant to be loaded beside its graph
            print(f"{path}\tskipped: {exc}")
            continue
        cfg = SynthConfig(seed=args.seed, shard_size=args.rows, mix={"2p": 1.0, "3p": 1.0}, min_support=3)
        rows, stats = Synthesizer(kg, cfg).shard(0)
        for shape in ("2p", "3p"):
            tried, failed = stats.tried[shape], stats.dropped_by_shape[(shape, "sampling_failed")]
            kept = [r for r in rows if r["pattern"] == shape]
            back = sum('"inverse": true' in json.dumps(r["plan"]) for r in kept)
            print(f"{path}\t{shape}\tsampling failed {failed}/{tried} ({failed / max(tried, 1):.0%})\t"
                  f"rows {len(kept)}\twith a step walked back {back}")  # fmt: skip


if __name__ == "__main__":
    main()
