"""Write a synth run as a Hugging Face dataset repository folder, atomically.

Layout:
    OUT/README.md                          dataset card (YAML front matter: configs, license, task_categories, ...)
    OUT/sft/{train,validation,test}-<content hash>.parquet
    OUT/validation_report.json             counts by shape, category, split and drop reason; relation coverage
    OUT/kg2tool_config.yaml                the resolved configuration: every SynthConfig field, the label language,
                                           each graph file's sha256, the card's command (kg2tool.common.config)

`messages`, `tools` and `plan` use the `datasets.Json` feature: Arrow would otherwise merge the keys of nested
dicts across rows (call arguments would come back with other rows' keys set to null), so each message, tool
schema and plan comes back exactly as written. Everything is first written to a temporary folder beside OUT and
renamed at the end; an existing OUT is only replaced with `overwrite`, and only once the new one is complete.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import yaml

from ..common.config import SAVED_NAME, resolved_record, resolved_yaml
from ..common.errors import OutputError
from ..common.files import fsync_dir, output_error, writing
from .card import DPO_HEADER, dpo_rows, tool_style_section

SPLITS = ("train", "validation", "test")
DPO_WEIGHT = 0.7  # writing a DPO pair costs about this much of writing a conversation (their parquet sizes)


def sft_features():
    """The `datasets.Features` of the `sft` config (Json columns for messages, tools and plan)."""
    from datasets import Features, Json, List, Value

    return Features(
        {
            "id": Value("string"),
            "messages": List(Json()),
            "tools": List(Json()),
            "pattern": Value("string"),
            "category": Value("string"),
            "answers": List(Value("string")),
            "topic_entity": Value("string"),
            "relation_path": List(Value("string")),
            "num_calls": Value("int32"),
            "num_turns": Value("int32"),
            "plan": Json(),
        }
    )


def _is_json(feature) -> bool:
    from datasets import Json

    return isinstance(feature, Json) or isinstance(getattr(feature, "feature", None), Json)


_DUMPS = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(x, ensure_ascii=False), made once


def encode_json(value, memo: dict | None = None):
    """A `Json` (or `List(Json)`) column value as the JSON string(s) `Dataset.from_list` takes for it: datasets'
    own encoder (ujson) keeps only 10 decimals of a float. `memo` (kept by the caller over the rows of one file)
    encodes an object met again once: the same tool schema offered in many rows."""
    if isinstance(value, list):
        return [_DUMPS(x) if memo is None else _encode_once(x, memo) for x in value]
    return _DUMPS(value) if memo is None else _encode_once(value, memo)


def _encode_once(value, memo: dict) -> str:
    """`value` as JSON, remembered by identity (memo: id -> (the object, kept alive so its id stays its own,
    its text)) for dicts and lists, which the rows being written may share and do not change."""
    hit = memo.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    text = _DUMPS(value)
    if isinstance(value, (dict, list)):
        memo[id(value)] = (value, text)
    return text


def write_parquet(rows: list[dict], folder: Path, stem: str, features, memo: dict | None = None) -> str:
    """Write rows to `folder/<stem>-<content hash>.parquet`; return the file name. `memo`: the JSON texts of
    objects encoded before (`encode_json`), shared by the files of one dataset (a DPO pair's prompt and chosen
    turn are its row's own messages: encoded once for both files).

    The content hash in the name matters: `datasets.load_dataset(DIR, CONFIG)` caches a local folder under its
    base name and card metadata only, not the files' content, so two different folders both called `out`, or a
    folder rewritten with a new seed, would otherwise load the first one's cached rows (seen with datasets 5.2)."""
    import hashlib

    import pyarrow as pa
    from datasets import Dataset, DatasetInfo
    from datasets.table import InMemoryTable
    from datasets.utils.logging import disable_progress_bar

    from ..common.arrow import column

    disable_progress_bar()
    cols, schema = list(features), features.arrow_schema
    # Json columns go in as json.dumps strings: datasets' own encoder (ujson) keeps only 10 decimals of a float.
    json_cols = {k for k, f in features.items() if _is_json(f)}
    memo = {} if memo is None else memo  # each tool schema once, not once per row that offers it (see encode_json)
    data = {k: [encode_json(r[k], memo) if k in json_cols else r[k] for r in rows] for k in cols}
    # The table Dataset.from_list would make, without its second parse of every JSON string (kg2tool.common.arrow)
    table = pa.Table.from_arrays([column(data[k], schema.field(k).type) for k in cols], schema=schema)
    ds = Dataset(InMemoryTable(table), info=DatasetInfo(features=features))
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{stem}.parquet.tmp"
    ds.to_parquet(str(tmp))
    name = f"{stem}-{hashlib.sha256(tmp.read_bytes()).hexdigest()[:16]}.parquet"
    os.replace(tmp, folder / name)
    return name


def _write_parquets(tmp: Path, rows_by_split, pairs_by_split, processes: int) -> dict[str, dict[str, str]]:
    """The sft (and dpo) parquet files of each split, in `processes` processes (kg2tool.common.forked: each file is
    one job, weighted by its rows); returns {config: {split: file name}}."""
    from ..common.forked import run_forked

    jobs = [("sft", s, rows_by_split.get(s) or [], sft_features()) for s in SPLITS]
    jobs += [("dpo", s, (pairs_by_split or {}).get(s) or [], dpo_features()) for s in SPLITS]
    jobs = [j for j in jobs if j[2]]
    memo: dict = {}  # shared by the jobs a process runs (a forked one its own copy): the messages a row and its pairs share
    names = run_forked([lambda j=j: write_parquet(j[2], tmp / j[0], j[1], j[3], memo) for j in jobs], processes,
                       [(1.0 if j[0] == "sft" else DPO_WEIGHT) * len(j[2]) for j in jobs])  # fmt: skip
    files: dict[str, dict[str, str]] = {"sft": {}} | ({"dpo": {}} if pairs_by_split else {})
    for (config, split, _, _), name in zip(jobs, names):
        files[config][split] = name
    return files


def dpo_features():
    """The `datasets.Features` of the `dpo` config (TRL's conversational preference format)."""
    from datasets import Features, Json, List, Value

    return Features(
        {
            "id": Value("string"),
            "prompt": List(Json()),
            "chosen": List(Json()),
            "rejected": List(Json()),
            "tools": List(Json()),
            "rejection_type": Value("string"),
            "pattern": Value("string"),
            "category": Value("string"),
        }
    )


def size_category(n: int) -> str:
    """The Hub's size category for `n` rows (`n<1K`, `1K<n<10K`, ...)."""
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "1M<n<10M"


def _table(header: tuple[str, ...], rows: list[tuple]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def front_matter(meta: dict, report: dict, files: dict[str, dict[str, str]]) -> dict:
    """The card's YAML front matter (license, language, tags, size, the `sft`/`dpo` configs and their files)."""
    license_id = meta.get("license", "other")
    return {
        "license": license_id,
        **({"license_name": "source-graph-license", "license_link": "LICENSE"} if license_id == "other" else {}),
        "language": [meta.get("lang", "en")],
        "pretty_name": meta.get("pretty_name", "kg2tool synthetic tool-use conversations"),
        "task_categories": ["text-generation"],
        "tags": ["function-calling", "tool-use", "synthetic", "knowledge-graph", "kg2tool"],
        "size_categories": [size_category(report["kept"]["total"])],
        "annotations_creators": ["machine-generated"],
        "language_creators": ["machine-generated"],
        "multilinguality": ["monolingual"],
        "configs": [
            {
                "config_name": config,
                **({"default": True} if config == "sft" else {}),
                "data_files": [{"split": s, "path": f"{config}/{name}"} for s, name in by_split.items()],
            }
            for config, by_split in files.items()
        ],
    }


def _coverage_line(coverage: dict[str, int]) -> str:
    """One sentence on how many relations with tools appear, and the most and least used."""
    if not coverage:
        return ""
    lo, hi = min(coverage.items(), key=lambda kv: kv[1]), max(coverage.items(), key=lambda kv: kv[1])
    return (
        f"Relation coverage: {sum(1 for v in coverage.values() if v)} of {len(coverage)} relations with tools "
        f"appear (most: {hi[0]!r} in {hi[1]} conversations; least: {lo[0]!r} in {lo[1]})."
    )


def _card_parts(meta: dict, report: dict) -> dict[str, str]:
    """The computed pieces of the card's text (tables, lists, counts), by name."""
    kept = report["kept"]
    used = [s for s in SPLITS if kept["by_split"].get(s)]
    by_split_cat = kept.get("by_split_and_category", {})
    dpo = report.get("dpo", {})
    dropped_rows = sorted(report["dropped"].items(), key=lambda kv: -kv[1]) or [("(none)", 0)]
    tried = sum(report.get("tried_by_shape", {}).values())
    return {
        "cat_table": _table(
            ("category", *used, "total"),
            [(c, *(by_split_cat.get(s, {}).get(c, 0) for s in used), kept["by_category"][c])
             for c in sorted(kept["by_category"])],
        ),  # fmt: skip
        "shape_table": _table(("pattern", "rows"), sorted(kept["by_pattern"].items())),
        "kinds_line": ", ".join(f"{k} {v}" for k, v in list(kept.get("by_entity_kind", {}).items())[:12]) or "(none)",
        "tried": str(tried),
        "kept_share": f"{100 * kept['total'] / max(tried, 1):.1f}",
        "dropped_table": _table(("reason", "count"), dropped_rows),
        "cov_line": _coverage_line(report.get("relation_coverage", {})),
        "dpo_table": _table(DPO_HEADER, dpo_rows(dpo.get("by_rejection_type", {}))),
        "dpo_splits": ", ".join(f"{v} {k}" for k, v in dpo.get("by_split", {}).items() if v),
        "loaded": report.get("graph", {}).get("summary", ""),
        "repo": meta.get("repo_id", "path/or/repo-id"),
        "bfcl_counts": ", ".join(f"{k} {v}" for k, v in report.get("bfcl", {}).items()) or "no rows",
        "graphs": "\n".join(
            f"- `{g}`" + (f" (sha256 `{h[:16]}`)" if h else "")
            for g, h in zip(meta["graphs"], meta.get("graph_sha256", []) or [""] * 99)
        ),
        "attribution": meta.get("attribution", "").strip()
        or (
            "No attribution was given for the source graph (`kg2tool synth --attribution FILE`); check its licence "
            "before sharing this dataset."
        ),
    }


def card_text(meta: dict, report: dict, files: dict[str, dict[str, str]]) -> str:
    """README.md for the dataset folder: YAML front matter the Hub reads, then a readable description.

    `meta` holds graphs, graph_sha256, lang, license, command, version, seed (and optionally attribution,
    pretty_name, repo_id); `report` is the validation report; `files` the parquet file names by config and split.
    Long because it is the card's text: one template read top to bottom; its computed parts are in `_card_parts`."""
    kept = report["kept"]
    splits = kept["by_split"]
    front = front_matter(meta, report, files)
    part = _card_parts(meta, report)
    repo = part["repo"]
    paraphrase = _paraphrase_section(report.get("paraphrase"))
    return f"""---
{yaml.safe_dump(front, sort_keys=False, allow_unicode=True).strip()}
---

# {front["pretty_name"]}

Tool-use (function-calling) conversations synthesized from a knowledge graph by
[kg2tool](https://github.com/kg2tool/kg2tool). Every call in every conversation was validated against its JSON
Schema and executed on the graph, and every final answer was checked against the answer computed independently
from the sampled query plan, so the answers are true of the source graph by construction.

## Source graph(s)
{part["graphs"]}

Loaded: {part["loaded"]}.

{part["attribution"]}

## How it was made
```
{meta["command"]}
```
kg2tool {meta["version"]}, seed {meta["seed"]}. The same graph, options and seed give byte-identical files.

## Contents
{kept["total"]} conversations: {", ".join(f"{splits.get(s, 0)} {s}" for s in SPLITS)}.
Test questions share no (topic entity, relation path) with train questions.

{part["cat_table"]}

{part["shape_table"]}

Columns of `sft`: `id`, `messages` (user / assistant with `tool_calls` / `tool` / assistant; call `arguments`
are JSON objects; failed calls in `error_recovery` rows carry the real error), `tools` (OpenAI / Hugging Face
function schemas offered in that conversation), `pattern` (query shape), `category` (simple, multiple, parallel,
parallel_multiple, irrelevance, multi_step, multi_turn), `answers`, `topic_entity`, `relation_path`, `num_calls`,
`num_turns`, `plan` (the query plan; each entity records its `kind`, from the graph's types or inferred from its
relations). Questions and answers are worded with the relation lexicon written beside the data as `lexicon.yaml`.
Kinds of the entities the questions name (the most frequent): {part["kinds_line"]}.

## Validation
{part["tried"]} candidates were sampled; {kept["total"]} were kept ({part["kept_share"]}%). Dropped, by
reason (never written):

{part["dropped_table"]}

{part["cov_line"]} Full report: `validation_report.json`. Resolved options (every SynthConfig
field, the label language, each graph file's sha256): `kg2tool_config.yaml`.
{paraphrase}{tool_style_section(report.get("tool_style"))}
## Configs
- `sft`: the conversations.
- `dpo`: preference pairs in TRL's conversational format ({part["dpo_splits"]}): columns `id`, `prompt`, `chosen`,
  `rejected`, `tools`, `rejection_type`, `pattern`, `category`. The conversation is cut before one assistant
  turn; `chosen` is the verified turn and `rejected` the same turn with the named mistake. Every chosen
  continuation passes and every rejected one fails the same schema / execution / answer checks as above.

{part["dpo_table"]}

- `bfcl/`: the test split's single-turn rows in the Berkeley Function Calling Leaderboard's own format, one
  JSON-lines file per category (`BFCL_v4_<category>.json`) and possible answers in `bfcl/possible_answer/`
  ({part["bfcl_counts"]}); score with BFCL's checker or `kg2tool eval score`.

## Load
```python
from datasets import load_dataset
sft = load_dataset("{repo}", "sft")
dpo = load_dataset("{repo}", "dpo")
# the BFCL files, from the Hub:
from huggingface_hub import snapshot_download
bfcl_dir = snapshot_download("{repo}", repo_type="dataset", allow_patterns=["bfcl/*"])
```
"""


def synth_record(meta: dict, report: dict) -> dict:
    """What `kg2tool_config.yaml` of a dataset folder holds: the card's command, the label language, each graph
    file with its sha256, the options that are not SynthConfig fields (when the CLI gave them) and every resolved
    SynthConfig field (`report["config"]`)."""
    record = resolved_record(
        "synth", report.get("config", {}), version=meta.get("version", ""), lang=meta.get("lang"), graphs=meta.get("graphs", []),
        graph_sha256=meta.get("graph_sha256") or [None] * len(meta.get("graphs", [])),
    )  # fmt: skip
    head = {k: record.pop(k) for k in ("command", "kg2tool_version", "lang", "graphs")}
    extra = {"card_command": meta["command"]} if meta.get("command") else {}
    if meta.get("options"):
        extra["options"] = meta["options"]
    return {**head, **extra, **record}


def _paraphrase_section(p: dict | None) -> str:
    """The card's paragraph on `kg2tool synth --paraphrase` (empty when the run did not paraphrase)."""
    if not p:
        return ""
    rejected = sorted(p["rejected"].items(), key=lambda kv: -kv[1]) or [("(none)", 0)]
    return f"""
## Paraphrases
The questions of {p["rows_tried"]} conversations were sent to `{p["model"]}` ({p["backend"]} backend, greedy) to be
reworded.
{p["kept"]} of {p["questions_tried"]} rewrites were kept ({p["rows_rewritten"]} conversations): a rewrite is kept only
if it still names every entity of the question exactly and every relation it names, keeps its count / comparison /
negation wording and its numbers, names no other entity of the graph, and the conversation with it passes
verification. In those rows the
template question is in `plan["template_question"]` (`plan["template_followup"]` for a rewritten follow-up turn).
Rewrites rejected, by reason:

{_table(("reason", "count"), rejected)}
"""


def check_output(out: Path, overwrite: bool) -> None:
    """Refuse an existing output unless overwrite; fail early if the parent cannot be written."""
    if out.exists() and not overwrite:
        raise OutputError(f"{out} already exists (pass --overwrite to replace it)")
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} exists and is not a folder")
    parent = out.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {parent}: {exc}") from None
    if not os.access(parent, os.W_OK):
        raise OutputError(f"{parent} is not writable")


def replace_folder(new: Path, out: Path) -> None:
    """Move the complete folder `new` to `out`; an existing `out` is set aside first and removed only after."""
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.resolve().parent))
        os.rename(out, old / "data")
        os.rename(new, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(new, out)


def write_dataset(
    out: Path,
    rows_by_split: dict[str, list[dict]],
    report: dict,
    meta: dict,
    overwrite: bool,
    pairs_by_split: dict[str, list[dict]] | None = None,
    bfcl: dict[str, tuple[list[dict], list[dict]]] | None = None,
    extra_files: dict[str, str] | None = None,
    processes: int = 1,
) -> None:
    """Write every file into a temporary folder beside `out`, then move it into place. `extra_files` maps more
    file names (in the folder) to their text, e.g. the synth run's `lexicon.yaml`. `processes` > 1 writes the
    parquet files in that many processes (forked: pass 1 where forking is unsafe); the bytes are the same."""
    out = Path(out)
    check_output(out, overwrite)
    parent = out.resolve().parent
    with writing(out, "the dataset"):
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=parent))
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private; the dataset folder should not be
        files = _write_parquets(tmp, rows_by_split, pairs_by_split, processes)
        if bfcl:
            from ..common.files import jsonl

            (tmp / "bfcl" / "possible_answer").mkdir(parents=True)
            for cat, (tests, answers) in bfcl.items():
                (tmp / "bfcl" / f"BFCL_v4_{cat}.json").write_text(jsonl(tests), encoding="utf-8")
                if answers:
                    (tmp / "bfcl" / "possible_answer" / f"BFCL_v4_{cat}.json").write_text(
                        jsonl(answers), encoding="utf-8"
                    )
        (tmp / "validation_report.json").write_text(
            json.dumps(report, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
        )
        (tmp / "README.md").write_text(card_text(meta, report, files), encoding="utf-8")
        (tmp / SAVED_NAME).write_text(resolved_yaml(synth_record(meta, report)), encoding="utf-8")
        for name, text in (extra_files or {}).items():
            (tmp / name).write_text(text, encoding="utf-8")
        fsync_dir(tmp)
        replace_folder(tmp, out)
    except BaseException as exc:
        # A full disk, say: made into an OutputError (with the free space) before the temporary folder is removed.
        error = output_error(out, exc, "the dataset") if isinstance(exc, OSError) else None
        shutil.rmtree(tmp, ignore_errors=True)
        if error is not None:
            raise error from None
        raise


def read_report(data: str | Path) -> dict:
    """A dataset folder's validation_report.json as a dict ({} when it is missing or unreadable)."""
    path = Path(data) / "validation_report.json"
    try:
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        return {}


def recorded_graph_files(data: str | Path) -> list[str]:
    """The graph files a synth dataset folder was made from, as its validation_report.json records them."""
    return (read_report(data).get("graph") or {}).get("files") or []
