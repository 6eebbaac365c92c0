"""Command-line flags declared by a config dataclass (TRL's `HfArgumentParser` idea, for kg2tool's own configs):
one flag per field, and the flags given set back on a config instance in one loop.

Design choices:
- A field's flag is its name in kebab case, a nested dataclass's fields under its name (`walk.tries` ->
  `--walk-tries`); a command may keep an older spelling (`flags={"n": ("-n", "--num")}`).
- The help is the field's entry in its class docstring's `Parameters:` section (`name: text`, continuation lines
  indented; `a, b: text` documents two fields), the convention of kg2tool's config classes, with the default
  appended. The type comes from the annotation (int, float, str or bool, `| None` allowed, or a list of one of
  them: a repeatable flag); `choices` from the field's metadata (`field(..., metadata={"choices": (...)})`).
- A bool field is one flag that sets the value which is not the default: `--no-fold` for `fold: bool = True`.
- Every flag defaults to None, so a flag not given is told apart from any value and leaves a config file's value
  (`apply_options` sets only the flags given).
- Fields of other types (dicts, tuples) get no flag: the config file sets them, or the command writes its own flag
  (and lists the field in `skip`).
- Which flag sets which field is kept in the parser's defaults (`_config_fields` on the parsed namespace), so
  `apply_options(args, config)` needs nothing else. A field already on a parser is not added again: a command can
  place some fields among its own flags (`add(parser, "n", "seed")`) and then add all the others (`add(parser)`),
  so a new field appears on the command line, with its help, without touching the command. One config class per
  parser.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_origin

RECORD = "_config_fields"  # the namespace attribute: {flag destination: field path}

_SCALARS: dict[str, type] = {"int": int, "float": float, "str": str, "bool": bool}
_ENTRY = re.compile(r"([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:\s*(.*)")


def field_docs(cls) -> dict[str, str]:
    """Field name -> text of the `Parameters:` section of `cls`'s docstring (continuation lines joined)."""
    lines = inspect.cleandoc(cls.__doc__ or "").splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if line.strip() == "Parameters:"), len(lines))
    docs: dict[str, list[str]] = {}
    names: list[str] = []
    level = None
    for line in lines[start:]:
        if not line.strip():
            break
        indent = len(line) - len(line.lstrip())
        level = indent if level is None else level
        entry = _ENTRY.fullmatch(line.strip())
        if indent == level and entry:
            names = [n.strip() for n in entry.group(1).split(",")]
            for name in names:
                docs[name] = [entry.group(2).strip()]
        elif indent > level and names:
            for name in names:
                docs[name].append(line.strip())
        else:
            break
    return {name: " ".join(parts) for name, parts in docs.items()}


def _flag_type(annotation: Any) -> tuple[type | None, bool]:
    """(the scalar type a flag's values have, whether the field is a list) for a field annotation (a string under
    `from __future__ import annotations`, or a type); (None, False) when the field has no flag form."""
    if isinstance(annotation, str):
        text = annotation
    else:  # a plain class by its name; list[str], int | None, Optional[int] as they print
        plain = isinstance(annotation, type) and get_origin(annotation) is None
        text = annotation.__name__ if plain else str(annotation)
    text = re.sub(r"^Optional\[(.*)\]$", r"\1", text.replace("typing.", "").strip())
    parts = [p.strip() for p in text.split("|") if p.strip() != "None"]
    if len(parts) != 1:
        return None, False
    listed = re.fullmatch(r"(?:list|List)\[(\w+)\]", parts[0])
    if listed:
        scalar = _SCALARS.get(listed.group(1))
        return (scalar, True) if scalar not in (None, bool) else (None, False)
    return _SCALARS.get(parts[0]), False


def _default(f: dataclasses.Field) -> Any:
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def config_fields(cls, prefix: str = "") -> list[tuple[str, dataclasses.Field, str]]:
    """(dotted path, field, help text) of every field of `cls`, a nested dataclass (a field whose default is a
    dataclass instance) by its fields, in declaration order."""
    out = []
    docs = field_docs(cls)
    for f in dataclasses.fields(cls):
        default = _default(f)
        if dataclasses.is_dataclass(default):
            out += config_fields(type(default), prefix=f"{prefix}{f.name}.")
        else:
            out.append((prefix + f.name, f, docs.get(f.name, "")))
    return out


def _help(doc: str, default: Any) -> str:
    """The help of a field's flag: its docstring entry and its default (argparse's `%` escaped)."""
    if isinstance(default, bool):
        tail = "(on by default; this flag turns it off)" if default else "(off by default; this flag turns it on)"
    elif default is None or default == "" or default == []:
        tail = ""
    else:
        tail = f"(default {default})"
    return " ".join(part for part in (doc, tail) if part).replace("%", "%%")


class ConfigOptions:
    """The flags of the config dataclass `cls`'s fields.

    `flags`: field path -> flag string(s) where the derived `--kebab-case` name is not the one used; `metavars`:
    field path -> metavar (default: the flag's name in capitals); `skip`: field paths (or a nested dataclass's
    name) that get no flag here (the command writes its own, say)."""

    def __init__(self, cls, *, flags: Mapping[str, str | Sequence[str]] | None = None,
                 metavars: Mapping[str, str] | None = None, skip: Iterable[str] = ()):  # fmt: skip
        self.cls = cls
        self.fields = {path: (f, doc) for path, f, doc in config_fields(cls)}
        self.flags = {k: (v,) if isinstance(v, str) else tuple(v) for k, v in (flags or {}).items()}
        self.metavars = dict(metavars or {})
        self.skip = tuple(skip)
        unknown = sorted((set(self.flags) | set(self.metavars)) - set(self.fields))
        if unknown:
            raise ValueError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")

    def _skipped(self, path: str) -> bool:
        return any(path == s or path.startswith(s + ".") for s in self.skip)

    def _expand(self, names: Sequence[str]) -> list[str]:
        """The field paths `names` stand for (all fields when empty; a nested dataclass's name: its fields), less
        the skipped fields and those without a flag form; a leaf named outright must have a flag form."""
        if not names:
            return [p for p in self.fields if not self._skipped(p) and _flag_type(self.fields[p][0].type)[0]]
        out = []
        for name in names:
            if name in self.fields:
                if self._skipped(name) or _flag_type(self.fields[name][0].type)[0] is None:
                    raise ValueError(f"{self.cls.__name__}.{name}: skipped or of a type that has no flag form")
                out.append(name)
                continue
            inner = [p for p in self.fields if p.startswith(name + ".")]
            if not inner:
                raise ValueError(f"{self.cls.__name__} has no field {name!r}")
            out += [p for p in inner if not self._skipped(p) and _flag_type(self.fields[p][0].type)[0]]
        return out

    def flag_of(self, path: str) -> tuple[str, ...]:
        """The flag strings of the field `path`: the command's spelling, else the derived one (`--no-x` for a bool
        field that defaults to true)."""
        if path in self.flags:
            return self.flags[path]
        name = path.replace(".", "-").replace("_", "-")
        return (f"--no-{name}",) if _default(self.fields[path][0]) is True else (f"--{name}",)

    def add(self, parser, *names: str) -> list[str]:
        """Add to `parser` (an ArgumentParser or an argument group) the flags of the fields `names` (dotted paths;
        a nested dataclass's name stands for its fields), in this order; with no names, of every field. Fields
        skipped, without a flag form or already on `parser` are left out. Returns the destinations added."""
        record = dict(parser.get_default(RECORD) or {})
        added = []
        for path in self._expand(names):
            if path in record.values():
                continue
            f, doc = self.fields[path]
            flags = self.flag_of(path)
            default = _default(f)
            scalar, listed = _flag_type(f.type)
            kwargs: dict[str, Any] = {"default": None, "help": _help(doc, default)}
            if scalar is bool:
                kwargs.update(action="store_const", const=not default if isinstance(default, bool) else True)
            else:
                kwargs.update(type=scalar, action="append" if listed else "store")
                if "choices" in f.metadata:
                    kwargs["choices"] = tuple(f.metadata["choices"])
                if path in self.metavars:
                    kwargs["metavar"] = self.metavars[path]
            action = parser.add_argument(*flags, **kwargs)
            record[action.dest] = path
            added.append(action.dest)
        parser.set_defaults(**{RECORD: record})
        return added


def apply_options(args: argparse.Namespace, config):
    """Set every config flag given in `args` (those `ConfigOptions.add` put on its parser; a flag not given is None)
    on the dataclass instance `config`, nested fields on its nested dataclasses. Returns `config`."""
    for dest, path in (getattr(args, RECORD, None) or {}).items():
        value = getattr(args, dest, None)
        if value is None:
            continue
        *outer, name = path.split(".")
        target = config
        for part in outer:
            target = getattr(target, part)
        setattr(target, name, value)
    return config
