"""Errors the CLI turns into one clear line and a documented exit code (no traceback).

Exit codes (also in the README):
    0  success
    1  unexpected internal error (a bug: please report it; rerun with KG2TOOL_DEBUG=1 for the traceback)
    2  usage error: a wrong flag, option value or config field
    3  input error: a missing, unreadable or malformed input file (graph, dataset, config), or a damaged --store
    4  output error: the output exists (use --overwrite) or cannot be written (a full or read-only disk: the message
       names the path, what was being written and the free space left; nothing half-written is left)
    5  a missing optional extra (the message says which `pip install kg2tool[...]` to run)
    6  nothing to produce: e.g. no relation with enough support, or every candidate was dropped
    7  partial: `synth` made fewer rows than asked (the graph ran out of distinct questions, or --max-candidates
       were tried); the dataset of the rows made is written, complete and valid, and the message says how many
  130  interrupted (Ctrl-C); nothing half-written is left at the output path
"""

from __future__ import annotations


class Kg2ToolError(Exception):
    """Base class: an error with a user-facing message and an exit code."""

    exit_code = 1


class UsageError(Kg2ToolError):
    """A wrong flag, option value or config field (exit 2)."""
    exit_code = 2


class InputError(Kg2ToolError):
    """A missing, unreadable or malformed input file; the message names file and line (exit 3)."""
    exit_code = 3


class OutputError(Kg2ToolError):
    """An output that exists without --overwrite or cannot be written, e.g. a full disk (exit 4)."""
    exit_code = 4


class MissingExtraError(Kg2ToolError):
    """An optional extra is not installed; the message says which `pip install 'kg2tool[...]'` (exit 5)."""
    exit_code = 5


class NothingToDoError(Kg2ToolError):
    """Nothing to produce: no relation with enough support, or every candidate dropped (exit 6)."""
    exit_code = 6


PARTIAL = 7  # the exit code of a run that wrote a complete dataset of fewer rows than asked (not an error)


def require_extra(module: str, extra: str) -> None:
    """Import check for an optional dependency; raises MissingExtraError naming the extra to install."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(
            f"this command needs the optional package {module!r}: install it with `pip install 'kg2tool[{extra}]'`"
        )
