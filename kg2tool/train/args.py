"""YAML recipe + command-line flags -> config dataclasses (a small TrlParser), for the training commands.

Design choices:
- The YAML file gives the defaults, flags override it, and both use the dataclass field names (for training
  stages, the `TrainingArguments` names: `--output_dir`, `--max_steps`, ...). Parsing is transformers'
  `HfArgumentParser`, so every field is a flag with its documented help (`kg2tool pretrain --help`).
- Unknown YAML keys are a usage error naming them, not silently ignored.
- The CLI hands over the raw argument list (the subcommand's parser does not know the fields, since building
  them needs transformers, which `kg2tool --help` must not import).
"""

from __future__ import annotations

from typing import Any

from ..common.errors import UsageError


def load_yaml(path: str) -> dict[str, Any]:
    """A recipe file as a dict (empty file -> {}); unreadable or non-mapping files are an InputError."""
    from ..common.yamlio import load_mapping

    return load_mapping(path, "config file")


def split_config_flag(argv: list[str]) -> tuple[str | None, list[str]]:
    """Take `--config PATH` (or `--config=PATH`) out of `argv`."""
    rest, config = [], None
    it = iter(argv)
    for arg in it:
        if arg == "--config":
            config = next(it, None)
            if config is None:
                raise UsageError("--config needs a file path")
        elif arg.startswith("--config="):
            config = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    return config, rest


def parse_config(dataclass_type, argv: list[str], prog: str):
    """Parse `--config FILE` plus flags into one `dataclass_type` instance (flags win over the file)."""
    return parse_configs((dataclass_type,), argv, prog)[0]


def parse_configs(dataclass_types, argv: list[str], prog: str) -> tuple:
    """Parse `--config FILE` plus flags into one instance of each of `dataclass_types` (TRL's `TrlParser` idea:
    e.g. `ScriptArguments, SFTConfig, ModelConfig`); a YAML key or flag belongs to whichever class has the field."""
    from transformers import HfArgumentParser

    config_path, rest = split_config_flag(argv)
    parser = HfArgumentParser(tuple(dataclass_types), prog=prog)
    parser.add_argument("--config", help="YAML recipe; flags given here override its values")
    if config_path:
        values = load_yaml(config_path)
        known = {action.dest for action in parser._actions}
        unknown = sorted(set(values) - known)
        if unknown:
            raise UsageError(f"unknown field(s) in {config_path}: {', '.join(unknown)}")
        # argparse defaults are not type-converted when they are not strings; lists and bools are fine as-is
        parser.set_defaults(**values)
        for action in parser._actions:  # a field required by the dataclass is satisfied by the YAML
            if action.dest in values:
                action.required = False
    try:
        # the extra `--config` attribute comes back as a trailing namespace
        parsed = parser.parse_args_into_dataclasses(args=rest)
    except ValueError as exc:  # __post_init__ validation
        raise UsageError(str(exc)) from exc
    return tuple(parsed[: len(dataclass_types)])
