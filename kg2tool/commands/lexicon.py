"""`kg2tool lexicon`: draft a graph's relation lexicon without synthesizing, and print a table to review it.

One line per relation: its label, form, the question it asks forward and inverse (on the first subject / object
in id order, worded as synth words them), its subject and object kinds, and flags on each guess:
`no-label` (the predicate has no label in the graph, or one that only repeats its IRI's local name: its label is
`schema_name(iri)`), `no-type` (a sampled end has no rdf:type, so its kind was inferred) and `kind-unknown` (a
kind is the fallback `item`). `--out FILE` writes the lexicon as YAML to edit and pass back with
`kg2tool synth --lexicon FILE`.
"""

from __future__ import annotations

import sys


def register(sub) -> None:
    """Add the `lexicon` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "lexicon",
        help="draft and review the relation lexicon of an RDF graph",
        description="Derive how each relation is worded (no synthesis), print one review line per relation and "
        "optionally write the lexicon YAML for `kg2tool synth --lexicon FILE`.",
    )
    p.add_argument("--graph", action="append", required=True, metavar="FILE", help="RDF file; repeat to merge")
    p.add_argument("--lang", default="en", help="preferred label language (default en)")
    p.add_argument("--out", metavar="FILE", help="write the lexicon YAML here (default: only print the table)")
    p.set_defaults(func=run)


def review_lines(kg, lex) -> list[str]:
    """The review table: a header, then one line per relation (by label), columns aligned."""
    from ..graph.names import schema_name
    from ..synth.language.lexicon import FALLBACK_KIND
    from ..synth.language.wording import Speaker
    from ..synth.plans.index import sorted_keys
    from ..synth.plans.tree import Anchor, Project

    sp = Speaker(kg, lex)
    rows = []
    for iri, w in sorted(lex.relations.items(), key=lambda kv: (kv[1].label.lower(), kv[0])):
        rel = kg.relations[iri]
        subj, obj = sorted_keys(rel.forward)[0], sorted_keys(rel.inverse)[0]
        flags = []
        if rel.label == schema_name(iri):
            flags.append("no-label")
        if not kg.types[subj] or not kg.types[obj]:
            flags.append("no-type")
        if FALLBACK_KIND in (w.subject, w.object):
            flags.append("kind-unknown")
        forward = sp.wh(Project(iri, Anchor(subj))) + "?"
        inverse = sp.wh(Project(iri, Anchor(obj), inverse=True)) + "?"
        rows.append((w.label, w.form, f"{w.subject} -> {w.object}", ",".join(flags) or "-", forward, inverse))
    head = ("label", "form", "kinds", "flags", "forward question", "inverse question")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    return ["  ".join([*(c.ljust(n) for c, n in zip(r, widths)), r[-1]]) for r in [head, *rows]]


def run(args) -> int:
    """Run `kg2tool lexicon` (draft and review the relation lexicon) with the parsed `args`; return the exit code."""
    from ..common.files import write_atomic
    from ..graph.build import load_graph
    from ..synth.language.lexicon import derive_lexicon

    kg = load_graph(args.graph, lang=args.lang)
    lex = derive_lexicon(kg)
    print(f"# {kg.summary()}; one line per relation (attribute nouns: in --out's YAML)", file=sys.stderr)
    for line in review_lines(kg, lex):
        print(line)
    if args.out:
        write_atomic(args.out, lex.to_yaml(), what="lexicon")
        print(f"wrote {args.out}: edit it and pass it to `kg2tool synth --lexicon {args.out}`", file=sys.stderr)
    return 0
