"""The `kg2tool` command line: one parser, one small module per subcommand in `kg2tool.commands`.

Each command module defines `register(subparsers)`, which adds its parser and sets `func`. Command modules
import nothing heavy at import time (torch, transformers, trl, vllm are imported inside `func`), so
`kg2tool --help` and `kg2tool synth --help` are instant.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from . import __version__
from .errors import Kg2ToolError

# Order here is the order in `kg2tool --help`. A module listed here must exist.
COMMAND_MODULES = [
    "kg2tool.commands.synth",
    "kg2tool.commands.tools",
    "kg2tool.commands.inspect",
    "kg2tool.commands.pretrain",
    "kg2tool.commands.sft",
    "kg2tool.commands.dpo",
    "kg2tool.commands.demo",
    "kg2tool.commands.eval",
    "kg2tool.commands.export",
    "kg2tool.commands.publish",
    "kg2tool.commands.card",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kg2tool",
        description="Knowledge graph -> verified tool-use data -> trained and scored models.",
    )
    parser.add_argument("--version", action="version", version=f"kg2tool {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args._argv = list(sys.argv[1:] if argv is None else argv)  # for commands that re-parse with a --config file
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except Kg2ToolError as exc:
        print(f"kg2tool {args.command}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"kg2tool {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: keep the message short unless asked for the traceback
        if os.environ.get("KG2TOOL_DEBUG"):
            raise
        print(
            f"kg2tool {args.command}: internal error: {type(exc).__name__}: {exc}\n"
            "(rerun with KG2TOOL_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
