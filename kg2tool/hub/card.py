"""Offline checks of a dataset folder's card (`README.md`), as the Hugging Face Hub and `datasets` read it.

`check_card(DIR)` returns a `CardReport` with `errors` (the folder would not load or would be rejected) and
`warnings` (it loads, but the Hub page would be poorer). What is checked, all without network:

- `huggingface_hub.DatasetCard.load` parses the YAML front matter;
- `card.data` has `license`, `task_categories`, `tags`, `size_categories` and `configs`; known values for
  task categories (the list `datasets` ships) and size categories; the size category matches the row count;
- the `configs` field passes `datasets.utils.metadata.MetadataConfigs.from_dataset_card_data` (what
  `load_dataset` itself calls), at most one config is the default, and every `data_files` path exists;
- optionally (`load=True`) `datasets.load_dataset_builder(DIR, config)` resolves every config and split.

`huggingface_hub`'s `RepoCard.validate()` posts the card to the Hub's `/api/validate-yaml`; it is run only when
`online=True` (publish does so before uploading), never in the offline check or in tests.
"""

from __future__ import annotations

import glob
from dataclasses import dataclass, field
from pathlib import Path

from ..common.errors import InputError
from ..common.toolstyle import ToolStyle

REQUIRED_FIELDS = ("license", "task_categories", "tags", "size_categories", "configs")
SIZE_CATEGORIES = (
    "n<1K",
    "1K<n<10K",
    "10K<n<100K",
    "100K<n<1M",
    "1M<n<10M",
    "10M<n<100M",
    "100M<n<1B",
    "1B<n<10B",
    "10B<n<100B",
    "100B<n<1T",
    "n>1T",
)


@dataclass
class CardReport:
    """Result of `check_card`: `configs` maps config -> split -> data file paths (relative to the folder)."""

    path: Path
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    configs: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    data: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the card has no errors (warnings allowed)."""
        return not self.errors

    def format(self) -> str:
        """The check's result as printed by `kg2tool card check`: status, configs and splits, errors, warnings."""
        lines = [f"card {self.path}: {'ok' if self.ok else 'INVALID'}"]
        for name, splits in self.configs.items():
            lines.append(f"  config {name}: {', '.join(splits) or '(no splits)'}")
        lines += [f"  error: {e}" for e in self.errors]
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


# what the rejected turn of a DPO pair of each rejection type does (kg2tool.synth.checks.preference), for the card's table
MISTAKES = {
    "wrong_tool": "calls another tool with the same arguments",
    "wrong_argument": "passes an entity the conversation never mentioned",
    "schema_violation": "passes an argument of the wrong type, leaves a required one out or adds an unknown one",
    "premature_answer": "answers (with wrong entities) where a tool call is still needed",
    "unneeded_call": "calls a tool where no offered tool fits (irrelevance rows)",
    "wrong_call_count": "drops or repeats one of a parallel turn's calls",
    "unsupported_answer": "states an entity the tool results do not give",
    "wrong_operation": "at a later turn, does another operation on the same input (`union` for `intersection`, "
    "`count` for a lookup, `min` for `max`)",
    "wrong_carried_name": "at a later turn, passes another name or ref from an earlier result or the question "
    "than the one due",
}


DPO_HEADER = ("rejection_type", "pairs", "the rejected turn")


def dpo_rows(by_type: dict[str, int]) -> list[tuple[str, int, str]]:
    """The rows of the card's DPO table: (rejection type, pairs, what its rejected turn does)."""
    return [(kind, n, MISTAKES.get(kind, "")) for kind, n in sorted(by_type.items())]


def tool_style_section(report: dict | None) -> str:
    """The card's paragraph on `kg2tool synth --tool-style refs|batch` (empty for the default values style);
    `report` is the validation report's `tool_style` ({"style": name, ...}; None or no name for values)."""
    if not report or "style" not in report:
        return ""
    style = ToolStyle.parse(report["style"], where="validation_report.json: tool_style.style", error=InputError)
    if not style.has_own_tools:
        return ""
    if style.batches_lookups:
        return """
## Tool style: batch
The `multi_step` conversations use the batch tool style: a lookup (`get_<relation>`, `find_by_<relation>`) takes an
entity name or a list of names and returns the union of their results (with `"per_entity": true`, an object of
each name's own list), so a set is looked up in one call instead of one call per entity and a `union`.
Single-call rows (and the `bfcl/` files) and multi-turn dialogues use one name per lookup. The DPO pairs of
`multi_step` rows are made and judged with the batch tools.
"""
    k = report.get("ref_items", 5)
    return f"""
## Tool style: refs
The `multi_step` conversations use the refs tool style: a tool whose result is a set of entities keeps it under a
handle and answers `{{"ref": "r1", "count": N, "items": [...]}}` (the first {k} names, all when N <= {k}). Later
calls pass the handle: lookups (`get_<relation>`, `find_by_<relation>`) take an entity name or a ref (a ref is
looked up for each of its names, and one ref for the union comes back); `intersection`, `union`, `difference` and
`count` take refs or lists of names. Handles are numbered r1, r2, ... in call order and live for one
conversation. An answer set larger than {k} is stated as its count and the names its ref shows (the `answers`
column holds those names). {report.get("rows_with_a_set_over_100", 0)} conversations pass or answer a set of more
than 100 names. Single-call rows (simple, multiple, parallel, parallel_multiple, irrelevance, and the `bfcl/`
files) and multi-turn dialogues use plain lists of names. The DPO pairs of `multi_step` rows are made and judged
with the refs tools: the judge replays the prompt's calls, in order, on a fresh handle table before it runs the
continuation, so a rejected turn is rejected for what it does with the handles the prompt shows.
"""


def _as_list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def load_card(folder: Path):
    """Parse `folder/README.md` with huggingface_hub; InputError naming the file if missing or malformed."""
    from huggingface_hub import DatasetCard

    readme = Path(folder) / "README.md"
    if not Path(folder).is_dir():
        raise InputError(f"{folder}: no such dataset folder")
    if not readme.is_file():
        raise InputError(f"{readme}: no dataset card (is {folder} a folder written by kg2tool synth?)")
    try:
        return DatasetCard.load(readme)
    except Exception as exc:  # yaml errors, ValueError on a non-dict front matter, ...
        raise InputError(f"{readme}: cannot parse the card's YAML front matter: {exc}") from None


def split_files(config: dict) -> dict[str, list[str]]:
    """`data_files` of one YAML config -> split -> paths (a bare string or list means split `train`)."""
    data_files = config.get("data_files")
    if isinstance(data_files, str) or (isinstance(data_files, list) and all(isinstance(x, str) for x in data_files)):
        return {"train": _as_list(data_files)}
    return {item["split"]: _as_list(item["path"]) for item in data_files or []}


def _check_fields(data: dict, report: CardReport) -> None:
    from datasets.utils.metadata import known_task_ids

    for key in REQUIRED_FIELDS:
        if not data.get(key):
            report.errors.append(f"missing or empty `{key}`")
    for cat in _as_list(data.get("task_categories")):
        if cat not in known_task_ids:
            report.errors.append(f"unknown task category {cat!r}")
    for size in _as_list(data.get("size_categories")):
        if size not in SIZE_CATEGORIES:
            report.errors.append(f"unknown size category {size!r} (one of {', '.join(SIZE_CATEGORIES)})")
    if data.get("license") == "other" and not (data.get("license_name") or data.get("license_link")):
        report.warnings.append("license is `other` without `license_name`/`license_link`: the Hub shows no license")
    if not data.get("language"):
        report.warnings.append("no `language`")
    if not data.get("pretty_name"):
        report.warnings.append("no `pretty_name`")


def _check_configs(folder: Path, card_data, report: CardReport) -> None:
    from datasets.utils.metadata import MetadataConfigs

    try:
        configs = MetadataConfigs.from_dataset_card_data(card_data)
        configs.get_default_config_name()  # raises on several defaults
    except ValueError as exc:
        report.errors.append(f"`configs` is not what datasets reads: {' '.join(str(exc).split())[:300]}")
        return
    for name, config in configs.items():
        report.configs[name] = files = split_files(config)
        if not files:
            report.errors.append(f"config {name!r} has no data_files")
        for split, paths in files.items():
            for rel in paths:
                if not glob.glob(str(folder / rel)):
                    report.errors.append(f"config {name!r} split {split!r}: data file {rel} does not exist")


def _check_size(folder: Path, data: dict, report: CardReport) -> None:
    """The size category should match the rows of the default config (parquet metadata: no data read)."""
    if report.errors or not report.configs:
        return
    import pyarrow.parquet as pq

    name = next((c["config_name"] for c in data.get("configs", []) if c.get("default")), next(iter(report.configs)))
    paths = [p for files in report.configs[name].values() for rel in files for p in glob.glob(str(folder / rel))]
    if not all(p.endswith(".parquet") for p in paths):
        return
    rows = sum(pq.ParquetFile(p).metadata.num_rows for p in paths)
    expected = next(s for s, limit in zip(SIZE_CATEGORIES, _LIMITS) if rows < limit)
    if expected not in _as_list(data.get("size_categories")):
        report.warnings.append(f"size_categories {data.get('size_categories')} but config {name!r} has {rows} rows")


_LIMITS = tuple(10**k for k in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12)) + (float("inf"),)


def _check_loadable(folder: Path, report: CardReport) -> None:
    """Resolve every config with `datasets.load_dataset_builder` (reads the card and file lists, no rows)."""
    from datasets import load_dataset_builder

    for name, files in report.configs.items():
        try:
            builder = load_dataset_builder(str(folder), name)
        except Exception as exc:
            report.errors.append(f"datasets cannot resolve config {name!r}: {type(exc).__name__}: {exc}")
            continue
        got = set((builder.config.data_files or {}).keys())
        if got != set(files):
            report.errors.append(
                f"config {name!r}: datasets sees splits {sorted(got)}, the card lists {sorted(files)}"
            )


def check_card(folder: str | Path, load: bool = False, online: bool = False) -> CardReport:
    """Check the card of a dataset folder offline (and with the Hub's validator when `online`)."""
    folder = Path(folder)
    card = load_card(folder)
    data = card.data.to_dict()
    report = CardReport(path=folder / "README.md", data=data)
    _check_fields(data, report)
    _check_configs(folder, card.data, report)
    _check_size(folder, data, report)
    if load and not report.errors:
        _check_loadable(folder, report)
    if online and not report.errors:
        try:
            card.validate(repo_type="dataset")
        except ValueError as exc:
            report.errors.append(f"the Hub rejects the card: {exc}")
        except Exception as exc:  # network: not a fault of the card
            report.warnings.append(f"the Hub's validator could not be reached ({type(exc).__name__}: {exc})")
    return report
