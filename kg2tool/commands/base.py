"""What every `kg2tool` command shares: building a parser from command modules, and running one command with the
CLI's error handling (a `Kg2ToolError` becomes one line on stderr and its exit code; see `kg2tool.common.errors`).

`kg2tool.cli` builds the parser of all commands from here; `kg2tool demo` builds one of its stage commands and
runs each stage through the same `dispatch`, so a stage fails inside the demo exactly as it fails on its own.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..common.errors import Kg2ToolError
from ..common.files import as_oserror, is_output_fault, output_error


def build_parser(modules: Sequence[str]) -> argparse.ArgumentParser:
    """The `kg2tool` parser with one subcommand per module (each defines `register(subparsers)`), in this order."""
    parser = argparse.ArgumentParser(
        prog="kg2tool",
        description="Knowledge graph -> verified tool-use data -> trained and scored models.",
    )
    parser.add_argument("--version", action="version", version=f"kg2tool {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        importlib.import_module(name).register(sub)
    return parser


def dispatch(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> int:
    """Parse `argv` (default: sys.argv[1:]), run the chosen command and return its exit code."""
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
        if is_output_fault(exc):  # a full or read-only disk is never a bug
            error = output_error(getattr(exc, "filename", None) or "an output", as_oserror(exc))
            print(f"kg2tool {args.command}: error: {error}", file=sys.stderr)
            return error.exit_code
        if os.environ.get("KG2TOOL_DEBUG"):
            raise
        print(
            f"kg2tool {args.command}: internal error: {type(exc).__name__}: {exc}\n"
            "(rerun with KG2TOOL_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 1
