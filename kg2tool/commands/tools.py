"""`kg2tool tools`: list the tools derived from a graph (names and descriptions, or full JSON schemas)."""

from __future__ import annotations

import json
import sys


def register(sub) -> None:
    """Add the `tools` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "tools",
        help="list the tools derived from an RDF graph",
        description="Derive function schemas from a graph's relations and print them.",
    )
    p.add_argument("--graph", action="append", required=True, metavar="FILE", help="RDF file; repeat to merge")
    p.add_argument("--lang", default="en", help="preferred label language (default en)")
    p.add_argument("--min-support", type=int, default=5, help="facts a relation needs to get tools (default 5)")
    p.add_argument("--json", action="store_true", help="print the OpenAI-format schemas as a JSON list")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run `kg2tool tools` (list the tools derived from a graph) with the parsed `args`; return the exit code."""
    from ..graph.build import load_graph
    from ..synth.tools.toolset import ToolSet

    kg = load_graph(args.graph, lang=args.lang)
    ts = ToolSet.from_graph(kg, min_support=args.min_support)
    if args.json:
        json.dump(ts.schemas(), sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    print(f"# {kg.summary()}; {len(ts.specs)} tools", file=sys.stderr)
    width = max(len(n) for n in ts.specs)
    for name, spec in ts.specs.items():
        params = ", ".join(spec.parameters["properties"])
        desc = spec.schema["function"]["description"]
        print(f"{name:<{width}}  ({params})  [{spec.kind}]  {desc}")
    return 0
