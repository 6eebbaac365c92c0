"""`kg2tool lexicon`: draft a graph's relation lexicon without synthesizing, and print a table to review it.

One line per relation: its label, form, the question it asks forward and inverse (on the first subject / object
in id order, worded as synth words them), its subject and object kinds, and flags on each guess:
`no-label` (the predicate has no label in the graph, or one that only repeats its IRI's local name: its label is
`schema_name(iri)`), `no-type` (a sampled end has no rdf:type, so its kind was inferred) and `kind-unknown` (a
kind is the fallback `item`). `--out FILE` writes the lexicon as YAML to edit and pass back with
`kg2tool synth --lexicon FILE`. The graph is loaded as synth loads it with the same `--include-predicate`,
`--exclude-predicate`, `--no-fold` and `--store` flags: a lexicon drafted without them can differ from synth's.

`--backend openai|vllm|transformers --model M` has a language model draft each relation's wording, once per
relation (`kg2tool.synth.language.drafts`): a draft that passes the checks replaces the rule's, and a `draft` column
says, per line, `model` or `rule: REASON` (the check that failed). The backend flags are eval's and synth's
--paraphrase-* ones (`--base-url`, `--api-key-env`, `--batch-size`, `--max-new-tokens`, `--device`, `--dtype`).
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
    g = p.add_argument_group("loading the graph as `kg2tool synth` will (give the same flags as to synth)")
    g.add_argument("--include-predicate", action="append", default=None, metavar="IRI",
                   help="use this predicate even if it is a schema/axiom or link predicate; repeatable")  # fmt: skip
    g.add_argument("--exclude-predicate", action="append", default=None, metavar="IRI",
                   help="never use this predicate (no relation, no attribute); repeatable")  # fmt: skip
    g.add_argument("--no-fold", dest="fold", action="store_false",
                   help="keep reified n-ary nodes (film roles, award records) as entities, as synth --no-fold")  # fmt: skip
    g.add_argument("--store", metavar="PATH", default=None,
                   help="read the graph from synth's on-disk store at PATH (built from --graph on first use)")  # fmt: skip
    _add_model_options(p)
    p.set_defaults(func=run)


def _add_model_options(p) -> None:
    """The flags of drafting with a language model (the generation backends of eval and synth's --paraphrase)."""
    from ..synth.paraphrase.config import BACKENDS

    g = p.add_argument_group("drafting with a language model (optional; each draft checked, else the rule's)")
    g.add_argument(
        "--backend", choices=BACKENDS, help="transformers, vllm or openai (default transformers with --model)"
    )
    g.add_argument("--model", metavar="M", help="checkpoint folder (transformers, vllm) or served model name (openai)")
    g.add_argument("--base-url", metavar="URL", help="openai: the endpoint, e.g. http://localhost:8000/v1")
    g.add_argument("--api-key-env", metavar="VAR", help="openai: environment variable holding the API key")
    g.add_argument(
        "--batch-size", type=int, default=16, help="prompts per generate() call; openai: requests in flight"
    )
    g.add_argument("--max-new-tokens", type=int, default=256, help="tokens generated per relation (default 256)")
    g.add_argument("--device", default="auto", help="transformers: auto, cpu, cuda, cuda:N (default auto)")
    g.add_argument("--dtype", default="auto", help="auto, float32, bfloat16, float16 (default auto)")


def review_lines(kg, lex, drafts=None) -> list[str]:
    """The review table: a header, then one line per relation (by label), columns aligned; with `drafts` (relation
    -> `Draft`, from `--backend`) a `draft` column: `model`, or `rule: REASON`."""
    from ..graph.names import schema_name
    from ..synth.language.drafts import sample_questions
    from ..synth.language.lexicon import FALLBACK_KIND
    from ..synth.plans.index import sorted_keys

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
        drafted = (drafts[iri].flag,) if drafts else ()
        rows.append((w.label, w.form, f"{w.subject} -> {w.object}", ",".join(flags) or "-", *drafted,
                     *sample_questions(kg, lex, iri)))  # fmt: skip
    head = ("label", "form", "kinds", "flags", *(("draft",) if drafts else ()), "forward question", "inverse question")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    return ["  ".join([*(c.ljust(n) for c, n in zip(r, widths)), r[-1]]) for r in [head, *rows]]


def run(args) -> int:
    """Run `kg2tool lexicon` (draft and review the relation lexicon) with the parsed `args`; return the exit code."""
    from ..common.files import write_atomic
    from ..graph.build import load_graph
    from ..synth.language.lexicon import derive_lexicon
    from .synth import predicate_rules

    backend = model_backend(args)  # before loading the graph: a bad flag fails at once
    predicates = predicate_rules(args, fold=args.fold)
    if args.store:
        from ..graph.store import open_store

        kg = open_store(args.store, args.graph, lang=args.lang, log=lambda msg: print(msg, file=sys.stderr),
                        predicates=predicates)  # fmt: skip
    else:
        kg = load_graph(args.graph, lang=args.lang, predicates=predicates)
    lex, drafts = derive_lexicon(kg), None
    print(f"# {kg.summary()}; one line per relation (attribute nouns: in --out's YAML)", file=sys.stderr)
    if backend is not None:
        lex, drafts = model_drafts(kg, lex, backend)
        used = [d for d in drafts.values() if d.source == "model"]
        print(f"# {args.model}: {len(used)} of {len(drafts)} relations worded by the model ({sum(d.same for d in used)} "
              "as the rule had them), the others by rule (the draft column says why)", file=sys.stderr)  # fmt: skip
    for line in review_lines(kg, lex, drafts):
        print(line)
    if args.out:
        write_atomic(args.out, lex.to_yaml(), what="lexicon")
        print(f"wrote {args.out}: edit it and pass it to `kg2tool synth --lexicon {args.out}`", file=sys.stderr)
    return 0


def model_backend(args):
    """The generation backend `--backend`/`--model` ask for (not loaded; synth's --paraphrase backends), or None."""
    from pathlib import Path

    from ..common.errors import InputError, UsageError
    from ..synth.paraphrase.config import ParaphraseConfig
    from ..synth.paraphrase.rewrite import make_paraphrase_backend

    if not args.model:
        if args.backend:
            raise UsageError(f"--backend {args.backend} needs --model")
        return None
    backend = args.backend or "transformers"
    if backend == "openai" and not args.base_url:
        raise UsageError("--backend openai needs --base-url (e.g. http://localhost:8000/v1)")
    if backend != "openai" and not Path(args.model).exists():
        raise InputError(f"--model {args.model}: no such model folder")
    if args.batch_size < 1 or args.max_new_tokens < 1:
        raise UsageError("--batch-size and --max-new-tokens must be at least 1")
    cfg = ParaphraseConfig(model=args.model, backend=backend, batch_size=args.batch_size,
                           max_new_tokens=args.max_new_tokens, device=args.device, dtype=args.dtype,
                           base_url=args.base_url, api_key_env=args.api_key_env)  # fmt: skip
    return make_paraphrase_backend(cfg, flags=("--model", "--backend"))


def model_drafts(kg, lex, backend):
    """`draft_lexicon` with the backend loaded for it and unloaded after."""
    from ..synth.language.drafts import draft_lexicon

    backend.load()
    try:
        return draft_lexicon(kg, lex, backend)
    finally:
        backend.unload()
