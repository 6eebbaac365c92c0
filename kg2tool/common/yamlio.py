"""Reading the YAML files users write (synth configs, templates, training recipes, demo plans), with one set of
error messages: each names the file and, for a syntax error, the line (PyYAML's `problem_mark`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import InputError


def load_mapping(path: str | Path, kind: str = "config file", expected: str = "a mapping of field names to values"):
    """The YAML mapping in `path` (an empty file gives {}).

    Raises `InputError` naming `path` when the file is missing or unreadable ("no such {kind}"), is not valid YAML
    (with the line and column), or holds something other than a mapping ("expected {expected}")."""
    import yaml

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such {kind}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read {kind}: {exc}") from None
    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise InputError(f"{path}: invalid YAML{where}: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected {expected}")
    return data
