"""`kg2tool synth`: graph file(s) -> a verified tool-use dataset folder."""

from __future__ import annotations

import argparse
import shlex
import sys

from ..common.errors import PARTIAL, InputError, UsageError

EXAMPLES = """examples:
  kg2tool synth --graph examples/wiki.ttl --out out/wiki -n 2000 --seed 0
  kg2tool synth --graph a.ttl --graph b.nt.gz --out out/ab --mix "2p=2,3p=0,irrelevance=0.5"
  kg2tool synth --config synth.yaml --graph g.ttl --out out/g --overwrite
  kg2tool synth --graph big.nt.gz --store big.store --out out/big -n 20000 --workers 2
  kg2tool synth --graph g.ttl --out out/g --paraphrase models/qwen-0.5b-instruct --paraphrase-fraction 0.5
  kg2tool synth --graph g.ttl --out out/g --paraphrase Qwen/Qwen2.5-7B-Instruct --paraphrase-backend openai \
      --paraphrase-base-url http://localhost:8000/v1
"""


def register(sub) -> None:
    """Add the `synth` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "synth",
        help="synthesize an execution-verified tool-use dataset from an RDF graph",
        description="Load RDF graph(s), derive tools, sample query plans, build and verify conversations, and "
        "write a Hugging Face dataset folder (parquet + dataset card + validation report + kg2tool_config.yaml).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    options = config_options()
    _add_data_options(p, options)
    _add_run_options(p)
    _add_paraphrase_options(p, options)
    options.add(p.add_argument_group(MORE))  # every other SynthConfig field: a new one appears here
    p.set_defaults(func=lambda args: run(args, p))


MORE = "more SynthConfig fields (a --config file sets them by name too, e.g. max_words: 25 or walk: {tries: 50})"


def config_options():
    """SynthConfig's fields as flags (`kg2tool.common.options`): help from the docstrings of SynthConfig, WalkConfig
    and ParaphraseConfig, choices from the fields' metadata. The flags older than that keep their names; `mix`,
    `splits` and the prompt get flags of their own (shape weights, three fractions, a file)."""
    from ..common.options import ConfigOptions
    from ..synth.run.config import SynthConfig

    return ConfigOptions(
        SynthConfig,
        flags={"n": ("-n", "--num"), "walk.max_answers": "--max-answers", "walk.max_fanout": "--max-fanout",
               "walk.max_set": "--max-set", "paraphrase.model": "--paraphrase"},
        metavars={"ref_items": "K", "lexicon": "FILE", "paraphrase.model": "MODEL", "paraphrase.base_url": "URL",
                  "paraphrase.api_key_env": "VAR"},
        skip=("mix", "splits", "paraphrase.prompt"),
    )  # fmt: skip


def _add_data_options(p: argparse.ArgumentParser, options) -> None:
    """The flags that decide what the dataset holds (all of them appear in the card's command). The SynthConfig
    fields among them come from `options`, placed where their flags always were: the card's command lists the flags
    given in the parser's order."""
    p.add_argument(
        "--graph",
        action="append",
        required=True,
        metavar="FILE",
        help="RDF file (.ttl .nt .nq .trig .rdf/.xml/.owl .jsonld/.json, optionally .gz); repeat to merge",
    )
    p.add_argument("--out", required=True, help="output folder (must not exist unless --overwrite)")
    options.add(p, "n", "seed")
    p.add_argument("--lang", default="en", help="preferred label language (default en)")
    p.add_argument("--mix", default=None, help='shape weights, e.g. "simple=1,2p=2,3p=0" (others keep defaults)')
    p.add_argument("--only", default=None, help="comma-separated shapes to sample, all others get weight 0")
    p.add_argument("--splits", default=None, help="train,validation,test fractions (default 0.8,0.1,0.1)")
    options.add(p, "min_support", "walk.max_answers", "walk.max_fanout", "walk.max_set")
    p.add_argument("--include-predicate", action="append", default=None, metavar="IRI",
                   help="use this predicate even if it is a schema/axiom or link predicate (owl:sameAs, "
                   "rdfs:subClassOf, foaf:page, ...; skipped or made URLs by default); repeatable")  # fmt: skip
    p.add_argument("--exclude-predicate", action="append", default=None, metavar="IRI",
                   help="never use this predicate (no relation, no attribute); repeatable")  # fmt: skip
    options.add(p, "fold", "tool_style", "ref_items")
    p.add_argument("--max-candidates", type=int, default=None, metavar="N",
                   help="try up to N candidates before giving up on -n rows, however few each keeps (default: stop "
                   "when the graph runs out of distinct questions, exit code 7 with the rows made)")  # fmt: skip
    p.add_argument("--config", default=None, help="YAML file with SynthConfig fields; flags override it")
    p.add_argument("--templates", default=None, help="folder of question templates (default: the bundled ones)")
    options.add(p, "lexicon")
    p.add_argument("--license", default="other", help="license written in the dataset card (default other)")
    p.add_argument(
        "--attribution",
        default=None,
        metavar="FILE",
        help="Markdown file with the source graph's attribution and licence, copied into the card",
    )


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """The flags that change how the run goes, not the data (left out of the card's command)."""
    p.add_argument(
        "--overwrite", action="store_true", help="replace an existing --out folder (and any unfinished run)"
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted run from its finished shards (same graphs and options)",
    )
    p.add_argument(
        "--workers",
        type=_workers,
        default=1,
        help="processes computing shards, this one included (same output as 1; default 1); 'auto': the cores the "
        "load average leaves free",
    )
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="where --workers run: local processes (default) or a Ray cluster (needs kg2tool[ray])",
    )
    p.add_argument(
        "--store",
        default=None,
        metavar="PATH",
        help="on-disk graph store for large graphs: built from the --graph files on first use (pyoxigraph, needs "
        "kg2tool[store]), reused after; same output as without it",
    )
    p.add_argument(
        "--rebuild-store", action="store_true", help="rebuild --store from the --graph files (e.g. after they changed)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_paraphrase_options(p: argparse.ArgumentParser, options) -> None:
    """The --paraphrase* flags (a model rewording the questions): ParaphraseConfig's fields from `options` and the
    prompt file."""
    para = p.add_argument_group(
        "paraphrasing (optional): rewrite questions with a language model; a rewrite is kept only if it still "
        "names the question's entities and constraints and the conversation still verifies (see kg2tool.synth.paraphrase.rewrite)"
    )
    options.add(para, *(f"paraphrase.{name}" for name in ("model", "backend", "base_url", "api_key_env", "fraction",
                                                         "batch_size", "max_new_tokens")))  # fmt: skip
    para.add_argument("--paraphrase-prompt", default=None, metavar="FILE",
                      help="text file with the instruction; {question} and {names} are filled in")  # fmt: skip
    options.add(para, "paraphrase")  # the other ParaphraseConfig fields


def parse_weights(text: str, flag: str) -> dict[str, float]:
    """`"simple=1,2p=2"` as {shape: weight} (a shape alone weighs 1); UsageError naming `flag` for unknown shapes
    and bad weights."""
    from ..synth.walk.walker import ALL_SHAPES

    out = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        name, _, val = part.partition("=")
        name = name.strip()
        if name not in ALL_SHAPES:
            raise UsageError(f"{flag}: unknown shape {name!r}; known shapes: {', '.join(ALL_SHAPES)}")
        try:
            out[name] = float(val) if val else 1.0
        except ValueError:
            raise UsageError(f"{flag}: weight for {name!r} must be a number, got {val!r}") from None
        if out[name] < 0:
            raise UsageError(f"{flag}: weight for {name!r} must be >= 0")
    return out


def load_config(path: str | None):
    """SynthConfig from the YAML file `path` (its fields, `walk:` and `paraphrase:` as sub-mappings), or the
    defaults when `path` is None. Unknown keys are a UsageError and values of the wrong kind an InputError, both
    naming the file and the key (`kg2tool.common.config`)."""
    from ..common.config import fields_of_dataclass, read_config, update_dataclass
    from ..synth.run.config import SynthConfig

    cfg = SynthConfig()
    if not path:
        return cfg
    return update_dataclass(cfg, read_config(path, fields_of_dataclass(SynthConfig)))


def build_config(args):
    """The resolved SynthConfig: `--config`'s file (or the defaults) with the command line's flags over it: the
    SynthConfig fields' flags (`config_options`) in one loop, then --only, --mix, --splits and --paraphrase-prompt;
    then checked."""
    from ..common.options import apply_options
    from ..synth.walk.walker import ALL_SHAPES

    cfg = apply_options(args, load_config(args.config))
    cfg.style  # noqa: B018 (reading it checks a config file's tool_style: a UsageError naming it and the choices)
    if cfg.ref_items < 1:
        raise UsageError(f"--ref-items: must be at least 1, got {cfg.ref_items}")
    if args.only:
        only = parse_weights(args.only, "--only")
        cfg.mix = {s: only.get(s, 0.0) for s in ALL_SHAPES}
    if args.mix:
        cfg.mix = {**cfg.mix, **parse_weights(args.mix, "--mix")}
    if args.splits:
        cfg.splits = parse_splits(args.splits)
    check_config(cfg)
    paraphrase_options(args, cfg.paraphrase)
    return cfg


def parse_splits(text: str) -> tuple[float, float, float]:
    """`--splits 0.8,0.1,0.1` as three fractions; UsageError unless three non-negative numbers summing to 1."""
    try:
        parts = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise UsageError(f"--splits: expected three numbers like 0.8,0.1,0.1, got {text!r}") from None
    if len(parts) != 3 or any(x < 0 for x in parts) or abs(sum(parts) - 1) > 1e-6:
        raise UsageError(f"--splits: expected three non-negative fractions summing to 1, got {text!r}")
    return parts  # type: ignore[return-value]


def check_config(cfg) -> None:
    """UsageError for a resolved SynthConfig that cannot work (named by its flag)."""
    if cfg.n <= 0:
        raise UsageError(f"-n must be positive, got {cfg.n}")
    if not any(w > 0 for w in cfg.mix.values()):
        raise UsageError("the shape mix gives every shape weight 0")
    if cfg.walk.max_answers < 1:
        raise UsageError("--max-answers must be at least 1")
    if cfg.walk.max_fanout < 1:
        raise UsageError(f"--max-fanout (walk.max_fanout) must be at least 1, got {cfg.walk.max_fanout}")
    if cfg.walk.max_set < 2:
        raise UsageError(f"--max-set (walk.max_set) must be at least 2, got {cfg.walk.max_set}")


def paraphrase_options(args, pcfg) -> None:
    """--paraphrase-prompt's file over the YAML's `paraphrase.prompt` (the other --paraphrase* flags are set by
    `build_config`); the options are checked when a model is set."""
    if args.paraphrase_prompt:
        try:
            pcfg.prompt = open(args.paraphrase_prompt, encoding="utf-8").read().strip()
        except OSError as exc:
            raise InputError(f"{args.paraphrase_prompt}: cannot read the paraphrase prompt: {exc.strerror}") from None
    if pcfg.model:
        pcfg.check()


# Flags that do not change the data: left out of the reproduction command written into the card.
_NO_EFFECT = {"out", "overwrite", "resume", "no_progress", "workers", "backend", "store", "rebuild_store", "help"}


def reproduce_command(argv: list[str]) -> str:
    """The card's command for the synth flags `argv` (parsed with the synth parser; see `command_from_args`)."""
    sub = argparse.ArgumentParser(prog="kg2tool").add_subparsers()
    register(sub)
    parser = sub.choices["synth"]
    return command_from_args(parser.parse_args(argv), parser)


def command_from_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """The synth command line written into the dataset card, rebuilt from the parsed flags `args` (not from
    `sys.argv`, so a run made in-process, as `kg2tool demo` makes it, gets its own flags): every flag whose value
    differs from its default, in the parser's order, then `--out OUT`; flags that do not change the data
    (--overwrite, --resume, --workers, ...) are left out."""
    out = ["kg2tool", "synth"]
    for action in parser._actions:
        if action.dest in _NO_EFFECT or not action.option_strings:
            continue
        value = getattr(args, action.dest, action.default)
        if value is None or value == action.default:
            continue
        flag = action.option_strings[0]
        if action.nargs == 0:
            out.append(flag)
        else:
            out += [part for item in (value if isinstance(value, list) else [value]) for part in (flag, str(item))]
    return " ".join(shlex.quote(a) for a in out + ["--out", "OUT"])


def _card_meta(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict:
    """What the dataset card and kg2tool_config.yaml record beside the SynthConfig: license, attribution text,
    the reproduction command and the options that are not SynthConfig fields."""
    meta = {"license": args.license}
    if args.attribution:
        try:
            meta["attribution"] = open(args.attribution, encoding="utf-8").read()
        except OSError as exc:
            raise InputError(f"{args.attribution}: cannot read the attribution file: {exc.strerror}") from None
    meta["command"] = command_from_args(args, parser)
    meta["options"] = {
        "config": args.config,
        "templates": args.templates,
        "license": args.license,
        "attribution": args.attribution,
        "paraphrase_prompt": args.paraphrase_prompt,
        "store": args.store,
    }
    if args.max_candidates is not None:  # recorded only when given, as the predicates below
        meta["options"]["max_candidates"] = args.max_candidates
    for flag in ("include_predicate", "exclude_predicate"):  # recorded only when given: other configs unchanged
        if getattr(args, flag, None):
            meta["options"][flag] = sorted(set(getattr(args, flag)))
    return meta


def predicate_rules(args: argparse.Namespace, fold: bool = True):
    """The `PredicateRules` of --include-predicate / --exclude-predicate and `fold` (False: --no-fold or the config's
    `fold: false`), or None for the defaults. UsageError for an IRI named by both or one that is not an absolute
    IRI."""
    from ..common.errors import UsageError
    from ..graph.model import PredicateRules

    include, exclude = set(args.include_predicate or ()), set(args.exclude_predicate or ())
    if not include and not exclude and fold:
        return None
    for iri in sorted(include | exclude):
        if ":" not in iri or any(c.isspace() for c in iri):
            raise UsageError(f"--include-predicate/--exclude-predicate {iri!r}: expected a full IRI (http://...)")
    both = include & exclude
    if both:
        raise UsageError(f"{', '.join(sorted(both))}: given to both --include-predicate and --exclude-predicate")
    return PredicateRules(include=frozenset(include), exclude=frozenset(exclude), fold=fold)


def _workers(text: str) -> int | str:
    """--workers: a number (checked by the pipeline, so 0 gets its message and exit 2) or 'auto'."""
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes or 'auto', got {text!r}") from None


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run `kg2tool synth` with the parsed `args` (`parser`: the synth parser, for the card's command)."""
    from ..synth.run.pipeline import run_synth

    cfg = build_config(args)
    predicates = predicate_rules(args, fold=cfg.fold)
    if args.max_candidates is not None and args.max_candidates < 1:
        raise UsageError(f"--max-candidates: must be at least 1, got {args.max_candidates}")
    if args.workers == "auto":
        from ..synth.run.shards import auto_workers

        args.workers = auto_workers()
        print(f"--workers auto: {args.workers} (the free cores by the load average)", file=sys.stderr)
    report = run_synth(
        args.graph,
        args.out,
        cfg,
        lang=args.lang,
        template_dir=args.templates,
        overwrite=args.overwrite,
        progress=not args.no_progress,
        meta=_card_meta(args, parser),
        log=lambda msg: print(msg, file=sys.stderr),
        workers=args.workers,
        resume=args.resume,
        backend=args.backend,
        store_path=args.store,
        rebuild_store=args.rebuild_store,
        **({"predicates": predicates} if predicates is not None else {}),
        **({"max_candidates": args.max_candidates} if args.max_candidates is not None else {}),
    )
    return PARTIAL if report.get("partial") else 0
