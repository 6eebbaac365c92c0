"""The `kg2tool` command line: one parser, one small module per subcommand (or pair of alike subcommands:
`finetune` holds `sft` and `dpo`) in `kg2tool.commands`.

Each command module defines `register(subparsers)`, which adds its parser(s) and sets `func`. Command modules
import nothing heavy at import time (torch, transformers, trl, vllm are imported inside `func`), so
`kg2tool --help` and `kg2tool synth --help` are instant. `python -m kg2tool` and `python -m kg2tool.cli` run it.
"""

from __future__ import annotations

import argparse
import sys

from .commands.base import build_parser as _build_parser
from .commands.base import dispatch

# Order here is the order in `kg2tool --help`. A module listed here must exist.
COMMAND_MODULES = [
    "kg2tool.commands.synth",
    "kg2tool.commands.tools",
    "kg2tool.commands.lexicon",
    "kg2tool.commands.inspect",
    "kg2tool.commands.pretrain",
    "kg2tool.commands.finetune",  # sft, dpo
    "kg2tool.commands.demo",
    "kg2tool.commands.eval",
    "kg2tool.commands.export",
    "kg2tool.commands.publish",
    "kg2tool.commands.card",
]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every `kg2tool` command."""
    return _build_parser(COMMAND_MODULES)


def main(argv: list[str] | None = None) -> int:
    """Run `kg2tool ARGV` and return its exit code (the console script's entry point)."""
    return dispatch(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
