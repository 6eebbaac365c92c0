"""Write a synth run as a Hugging Face dataset repository folder, atomically.

Layout:
    OUT/README.md                          dataset card (YAML front matter: configs, license, task_categories, ...)
    OUT/sft/{train,validation,test}-<content hash>.parquet
    OUT/validation_report.json             counts by shape, category, split and drop reason; relation coverage

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

from .errors import OutputError

SPLITS = ("train", "validation", "test")


def sft_features():
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


def write_parquet(rows: list[dict], folder: Path, stem: str, features) -> str:
    """Write rows to `folder/<stem>-<content hash>.parquet`; return the file name.

    The content hash in the name matters: `datasets.load_dataset(DIR, CONFIG)` caches a local folder under its
    base name and card metadata only, not the files' content, so two different folders both called `out`, or a
    folder rewritten with a new seed, would otherwise load the first one's cached rows (seen with datasets 5.2)."""
    import hashlib

    from datasets import Dataset
    from datasets.utils.logging import disable_progress_bar

    disable_progress_bar()
    cols = list(features)
    ds = Dataset.from_list([{k: r[k] for k in cols} for r in rows], features=features)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{stem}.parquet.tmp"
    ds.to_parquet(str(tmp))
    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()[:16]
    name = f"{stem}-{digest}.parquet"
    os.replace(tmp, folder / name)
    return name


def dpo_features():
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
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "1M<n<10M"


def card_text(meta: dict, report: dict, files: dict[str, dict[str, str]]) -> str:
    """README.md for the dataset folder: YAML front matter the Hub reads, then a readable description."""
    splits = report["kept"]["by_split"]
    front = {
        "license": meta.get("license", "other"),
        "language": [meta.get("lang", "en")],
        "pretty_name": meta.get("pretty_name", "kg2tool synthetic tool-use conversations"),
        "task_categories": ["text-generation"],
        "tags": ["function-calling", "tool-use", "synthetic", "knowledge-graph", "kg2tool"],
        "size_categories": [size_category(report["kept"]["total"])],
        "configs": [
            {
                "config_name": config,
                **({"default": True} if config == "sft" else {}),
                "data_files": [{"split": s, "path": f"{config}/{name}"} for s, name in by_split.items()],
            }
            for config, by_split in files.items()
        ],
    }
    by_shape = "\n".join(f"| {k} | {v} |" for k, v in sorted(report["kept"]["by_pattern"].items()))
    by_cat = "\n".join(f"| {k} | {v} |" for k, v in sorted(report["kept"]["by_category"].items()))
    dropped = "\n".join(f"| {k} | {v} |" for k, v in sorted(report["dropped"].items())) or "| (none) | 0 |"
    graphs = "\n".join(f"- `{g}`" for g in meta["graphs"])
    dpo_types = (
        ", ".join(f"{k} ({v})" for k, v in report.get("dpo", {}).get("by_rejection_type", {}).items()) or "none"
    )
    bfcl_counts = ", ".join(f"{k} {v}" for k, v in report.get("bfcl", {}).items()) or "no rows"
    return f"""---
{yaml.safe_dump(front, sort_keys=False, allow_unicode=True).strip()}
---

# {front["pretty_name"]}

Tool-use (function-calling) conversations synthesized from a knowledge graph by
[kg2tool](https://github.com/kg2tool/kg2tool). Every call in every conversation was validated against its JSON
Schema and executed on the graph, and every final answer was checked against the answer computed independently
from the sampled query plan, so the answers are true of the source graph by construction.

## Source graph(s)
{graphs}

{meta.get("attribution", "").strip()}

## How it was made
```
{meta["command"]}
```
kg2tool {meta["version"]}, seed {meta["seed"]}. The same graph, options and seed give byte-identical files.

## Contents
{report["kept"]["total"]} conversations: {", ".join(f"{splits.get(s, 0)} {s}" for s in SPLITS)}.
Test questions share no (topic entity, relation path) with train questions.

| pattern | rows |
|---|---|
{by_shape}

| category | rows |
|---|---|
{by_cat}

Columns: `id`, `messages` (user / assistant with `tool_calls` / `tool` / final assistant; call `arguments`
are JSON objects), `tools` (OpenAI / Hugging Face function schemas offered in that conversation), `pattern`
(query shape), `category` (simple, multiple, parallel, parallel_multiple, irrelevance, multi_step), `answers`,
`topic_entity`, `relation_path`, `num_calls`, `num_turns`, `plan` (the query plan).

## Validation
Candidates dropped, by reason (never written):

| reason | count |
|---|---|
{dropped}

Full report: `validation_report.json`.

## Configs
- `sft`: the conversations, splits train / validation / test.
- `dpo`: preference pairs in TRL's conversational format (`prompt`, `chosen`, `rejected`, `tools`), one per
  conversation, with `rejection_type` naming the mistake in `rejected`: {dpo_types}. Every chosen
  continuation passes and every rejected one fails the same schema / execution / answer checks as above.
- `bfcl/`: the test split's single-turn rows in the Berkeley Function Calling Leaderboard's own format, one
  JSON-lines file per category (`BFCL_v4_<category>.json`) and possible answers in `bfcl/possible_answer/`
  ({bfcl_counts}); score with BFCL's checker or `kg2tool eval`.

## Load
```python
from datasets import load_dataset
sft = load_dataset("path/or/repo-id", "sft")
dpo = load_dataset("path/or/repo-id", "dpo")
```
"""


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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


def write_dataset(
    out: Path,
    rows_by_split: dict[str, list[dict]],
    report: dict,
    meta: dict,
    overwrite: bool,
    pairs_by_split: dict[str, list[dict]] | None = None,
    bfcl: dict[str, tuple[list[dict], list[dict]]] | None = None,
) -> None:
    """Write every file into a temporary folder beside `out`, then move it into place."""
    out = Path(out)
    check_output(out, overwrite)
    parent = out.resolve().parent
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private; the dataset folder should not be
    try:
        feats = sft_features()
        files: dict[str, dict[str, str]] = {"sft": {}}
        for split in SPLITS:
            rows = rows_by_split.get(split, [])
            if rows:
                files["sft"][split] = write_parquet(rows, tmp / "sft", split, feats)
        if pairs_by_split:
            files["dpo"] = {}
            for split in SPLITS:
                if pairs_by_split.get(split):
                    files["dpo"][split] = write_parquet(pairs_by_split[split], tmp / "dpo", split, dpo_features())
        if bfcl:
            from .bfcl import jsonl

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
        _fsync_dir(tmp)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=parent))
            os.rename(out, old / "data")
            os.rename(tmp, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
