"""YAML recipe + command-line flags -> config dataclasses (a small TrlParser), for the training commands.

Design choices:
- The YAML file gives the defaults, flags override it, and both use the dataclass field names (for training
  stages, the `TrainingArguments` names: `--output_dir`, `--max_steps`, ...). Parsing is transformers'
  `HfArgumentParser`, so every field is a flag with its documented help; reading and checking the file and
  merging it under the flags is `kg2tool.common.config`, the same code path as `kg2tool synth` and `kg2tool eval`.
- Unknown YAML keys are a usage error naming the file and the key, not silently ignored.
- `--help` lists kg2tool's own fields and a handful of common ones (`HELP_COMMON`); `--help-all` every field of
  every dataclass (TrainingArguments / TRL's configs: several hundred lines).
- The CLI hands over the raw argument list (the subcommand's parser does not know the fields, since building
  them needs transformers, which `kg2tool --help` must not import).
- `save_run_config` writes the resolved values as `OUTPUT_DIR/kg2tool_config.yaml`.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..common.config import take_config_flag
from ..common.errors import UsageError

# Fields shown by `--help` beside kg2tool's own (those of the kg2tool dataclasses).
HELP_COMMON = (
    "model_name_or_path",
    "dataset_name",
    "dataset_config",
    "use_peft",
    "output_dir",
    "max_steps",
    "learning_rate",
    "per_device_train_batch_size",
    "seed",
)


@dataclass
class LabelArguments:
    """The label language of the dataset's graph, for the stages that load it (SFT's `--random_name_rows` and
    `--copy_pool names`). None: the language recorded in the dataset folder (`kg2tool_config.yaml`, or the card's
    `language`), else en."""

    lang: str | None = field(
        default=None, metadata={"help": "label language of the dataset's graph (default: recorded in the dataset)"}
    )


def load_yaml(path: str) -> dict[str, Any]:
    """A recipe file as a dict (empty file -> {}); unreadable or non-mapping files are an InputError."""
    from ..common.yamlio import load_mapping

    return load_mapping(path, "config file")


def split_config_flag(argv: list[str]) -> tuple[str | None, list[str]]:
    """Take `--config PATH` (or `--config=PATH`) out of `argv`: (PATH or None, the other arguments)."""
    return take_config_flag(argv)


def parse_config(dataclass_type, argv: list[str], prog: str):
    """Parse `--config FILE` plus flags into one `dataclass_type` instance (flags win over the file)."""
    return parse_configs((dataclass_type,), argv, prog)[0]


def own_fields(dataclass_types) -> list[str]:
    """The fields kg2tool adds: those of kg2tool's dataclasses, less what they inherit from a class outside kg2tool
    (`PretrainConfig` less `TrainingArguments`, `KgSFTConfig` less TRL's `SFTConfig`)."""
    names: list[str] = []
    for cls in dataclass_types:
        if not cls.__module__.startswith("kg2tool"):
            continue
        inherited = {
            f.name
            for base in cls.__mro__[1:]
            if dataclasses.is_dataclass(base) and not base.__module__.startswith("kg2tool")
            for f in dataclasses.fields(base)
        }
        names += [f.name for f in dataclasses.fields(cls) if f.name not in inherited and f.name not in names]
    return names


def short_help(parser: argparse.ArgumentParser, dataclass_types) -> str:
    """`parser`'s help with only kg2tool's own fields (first) and `HELP_COMMON`'s (then) listed."""
    actions: dict[str, list[argparse.Action]] = {}
    for action in parser._actions:  # a bool field defaulting to true has a second, `--no_<field>`, action
        actions.setdefault(action.dest, []).append(action)
    short = argparse.ArgumentParser(
        prog=parser.prog,
        usage="%(prog)s [--config FILE] [--FIELD VALUE ...] (--help-all: every field)",
        add_help=False,
        description="Flags use the dataclass field names and override the --config YAML recipe.",
        epilog="--help-all lists every field (TrainingArguments and TRL's, several hundred lines).",
    )
    groups = (
        ("kg2tool's options", ["config", *own_fields(dataclass_types)]),
        ("common training options", list(HELP_COMMON)),
    )
    shown: set[str] = set()
    for title, names in groups:
        group = short.add_argument_group(title)
        for name in names:
            if name in actions and name not in shown:
                for action in actions[name]:
                    group._add_action(action)
                shown.add(name)
    return short.format_help()


def _argument_parser(dataclass_types, prog: str):
    from transformers import HfArgumentParser

    parser = HfArgumentParser(tuple(dataclass_types), prog=prog)
    parser.add_argument("--config", help="YAML recipe; flags given here override its values")
    return parser


def parse_configs(dataclass_types, argv: list[str], prog: str) -> tuple:
    """Parse `--config FILE` plus flags into one instance of each of `dataclass_types` (TRL's `TrlParser` idea:
    e.g. `ScriptArguments, SFTConfig, ModelConfig`); a YAML key or flag belongs to whichever class has the field.

    `--help` prints kg2tool's own fields and a few common ones, `--help-all` every field; both exit (SystemExit 0)."""
    from ..common.config import fields_of_parser, parse_with_config, read_config

    parser = _argument_parser(dataclass_types, prog)
    if "--help-all" in argv:
        parser.print_help()
        raise SystemExit(0)
    if "-h" in argv or "--help" in argv:
        print(short_help(parser, dataclass_types), end="")
        raise SystemExit(0)
    config_path, rest = take_config_flag(argv)
    values = {}
    if config_path:
        values = read_config(config_path, fields_of_parser(parser, skip={"config"}, lists=False))
    try:
        # the extra `--config` attribute comes back as a trailing namespace
        parsed = parse_with_config(parser, rest, values, parse=lambda p, a: p.parse_args_into_dataclasses(args=a))
    except ValueError as exc:  # __post_init__ validation
        raise UsageError(str(exc)) from exc
    return tuple(parsed[: len(dataclass_types)])


def save_run_config(output_dir, command: str, parts: dict[str, Any], *, lang: str | None, graphs) -> None:
    """Write `output_dir/kg2tool_config.yaml`: the resolved dataclasses `parts` (name -> instance; a
    `TrainingArguments` through its `to_dict`, which hides tokens), the label language and the graph files (with
    their sha256)."""
    from .. import __version__
    from ..common.config import resolved_record, write_resolved

    config = {name: value.to_dict() if hasattr(value, "to_dict") else value for name, value in parts.items()}
    write_resolved(output_dir, resolved_record(command, config, version=__version__, lang=lang, graphs=graphs))
