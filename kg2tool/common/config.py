"""One way to configure a command: a YAML file of field names -> values gives the defaults, the command line's flags
win, and the resolved values are saved beside every output (`kg2tool_config.yaml`).

Design choices (TRL's `TrlParser` idea, shared by `kg2tool synth`, `kg2tool eval` and the training commands):
- The fields are those of the command's config dataclasses (synth: `SynthConfig`, with `walk:` and `paraphrase:`
  sub-mappings; training: TRL's / transformers' dataclasses) or of its parser (eval: the flag names with
  underscores). `fields_of_dataclass` and `fields_of_parser` turn either into one `Field` table.
- `read_config` reads the file and checks it against that table: an unknown key is a `UsageError` naming the file
  and the key; a value of the wrong kind (a number for a true/false flag, a choice not offered) is an `InputError`
  naming the file and the key.
- Flags win: `parse_with_config` installs the file's values as the parser's defaults and parses the command line
  (a flag the dataclass requires is satisfied by the file); `update_dataclass` sets them on a dataclass instance
  that the command's flags then override.
- `write_resolved` saves what a run used (every resolved value, the label language, each graph file's sha256) as
  `OUTPUT/kg2tool_config.yaml`; `read_resolved` and `recorded_lang` read it back (e.g. `kg2tool eval` takes the
  dataset's label language from it when `--lang` is not given). Its content is deterministic (no timestamps), so
  a dataset folder stays byte-identical for the same graph, options and seed.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .errors import InputError, UsageError

SAVED_NAME = "kg2tool_config.yaml"


@dataclasses.dataclass(frozen=True)
class Field:
    """What a config file may say about one field: its name, the Python types its value may have (empty: any),
    the values allowed (`choices`), whether a single value is taken as a one-item list (`is_list`), and for a
    nested dataclass the table of its own fields (`nested`)."""

    name: str
    types: tuple[type, ...] = ()
    choices: tuple[Any, ...] | None = None
    is_list: bool = False
    nested: dict[str, Field] | None = None


_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "str": (str,),
}


def _types_of(annotation: Any) -> tuple[tuple[type, ...], bool]:
    """The Python types a dataclass annotation (a string under `from __future__ import annotations`, or a type)
    accepts, and whether it is a list; unknown annotations accept anything."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    parts = [p.strip() for p in str(text).split("|")]
    optional = "None" in parts
    parts = [p for p in parts if p != "None"]
    if len(parts) != 1:
        return (), False
    base = parts[0].split("[", 1)[0]
    if base in ("list", "tuple", "List", "Tuple"):
        return (list, tuple) + ((type(None),) if optional else ()), True
    if base in ("dict", "Dict"):
        return (dict,) + ((type(None),) if optional else ()), False
    types = _TYPES.get(base, ())
    return (types + (type(None),) if types and optional else types), False


def fields_of_dataclass(cls) -> dict[str, Field]:
    """The `Field` table of a dataclass: one entry per field, nested dataclasses (a field whose default is a
    dataclass instance) as sub-tables."""
    table = {}
    for f in dataclasses.fields(cls):
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        if dataclasses.is_dataclass(default):
            table[f.name] = Field(f.name, (dict, type(None)), nested=fields_of_dataclass(type(default)))
            continue
        types, is_list = _types_of(f.type)
        table[f.name] = Field(f.name, types, is_list=is_list)
    return table


def fields_of_parser(parser: argparse.ArgumentParser, skip: Iterable[str] = (), lists: bool = True) -> dict[str, Field]:
    """The `Field` table of an argparse parser, by flag destination (`--max-new-tokens` -> `max_new_tokens`):
    store_true/false flags take true or false, flags with choices one of them, and (with `lists`) a single value
    for an append or nargs flag becomes a one-item list. `skip`: destinations left out."""
    table = {}
    skip = set(skip) | {"help"}
    for action in parser._actions:
        if action.dest in skip or action.dest == argparse.SUPPRESS or action.dest in table:
            continue  # the first flag of a destination decides (HfArgumentParser adds `--no_<field>` after it)
        boolean = action.nargs == 0 and isinstance(action.const, bool)
        choices = tuple(action.choices) if action.choices and not isinstance(action.choices, dict) else None
        is_list = lists and (isinstance(action, argparse._AppendAction) or action.nargs in ("*", "+"))
        table[action.dest] = Field(action.dest, (bool,) if boolean else (), choices, is_list)
    return table


def _unknown(path, key: str, known: Iterable[str]) -> UsageError:
    known = sorted(known)
    close = difflib.get_close_matches(key.rsplit(".", 1)[-1], known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    listing = f" (known: {', '.join(known)})" if len(known) <= 40 else ""
    return UsageError(f"{path}: unknown field {key!r}{hint}{listing}")


def _type_name(types: tuple[type, ...]) -> str:
    names = {bool: "true or false", int: "a number", float: "a number", str: "a string", list: "a list",
             dict: "a mapping"}  # fmt: skip
    return " or ".join(dict.fromkeys(names.get(t, t.__name__) for t in types if t is not type(None)))


def check_value(path, key: str, value: Any, spec: Field) -> Any:
    """`value` checked against `spec` (InputError naming `path` and `key` if it does not fit); a single value for a
    list field comes back as a one-item list."""
    if spec.is_list and not isinstance(value, (list, tuple)) and value is not None:
        value = [value]
    if spec.types and not isinstance(value, spec.types):
        raise InputError(f"{path}: {key} must be {_type_name(spec.types)}, not {value!r}")
    if spec.types and bool not in spec.types and isinstance(value, bool):  # bool is an int to Python
        raise InputError(f"{path}: {key} must be {_type_name(spec.types)}, not {value!r}")
    if spec.choices is not None:
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if item not in spec.choices:
                raise InputError(f"{path}: {key} must be one of {', '.join(map(str, spec.choices))}, not {item!r}")
    return value


def check_values(path, values: Mapping[str, Any], table: Mapping[str, Field], prefix: str = "") -> dict[str, Any]:
    """`values` (a file's mapping) checked against `table`: unknown keys are a UsageError, bad values an InputError,
    both naming `path` and the key (`walk.max_answers` for a nested one). Keys may use `-` for `_`."""
    checked: dict[str, Any] = {}
    for raw_key, value in values.items():
        key = str(raw_key).replace("-", "_")
        if key not in table:
            raise _unknown(path, prefix + str(raw_key), table)
        spec = table[key]
        if spec.nested is not None:
            if not isinstance(value or {}, dict):
                raise UsageError(f"{path}: {prefix}{key} must be a mapping of fields")
            checked[key] = check_values(path, value or {}, spec.nested, prefix=f"{prefix}{key}.")
        else:
            checked[key] = check_value(path, prefix + key, value, spec)
    return checked


def read_config(path, table: Mapping[str, Field], kind: str = "config file") -> dict[str, Any]:
    """The YAML file `path` as a checked mapping of field -> value (see `check_values`); a missing, unreadable or
    malformed file is an InputError naming it (`kind` says what it is: "no such {kind}")."""
    from .yamlio import load_mapping

    return check_values(path, load_mapping(path, kind, "a mapping of field names to values"), table)


def update_dataclass(obj, values: Mapping[str, Any]):
    """Set checked `values` (from `read_config` over `fields_of_dataclass`) on the dataclass instance `obj`, nested
    mappings on its nested dataclasses; tuple fields get tuples. Returns `obj`."""
    for key, value in values.items():
        current = getattr(obj, key)
        if dataclasses.is_dataclass(current) and isinstance(value, dict):
            update_dataclass(current, value)
        else:
            setattr(obj, key, tuple(value) if isinstance(current, tuple) and isinstance(value, list) else value)
    return obj


def parse_with_config(parser: argparse.ArgumentParser, argv: list[str], values: Mapping[str, Any], parse=None):
    """Parse `argv` with `parser`, the checked file `values` (by destination) standing in for the defaults, so the
    command line wins; a flag required by the parser is satisfied by the file. `parse(parser, argv)` is the parse
    call (default `parser.parse_args`). The parser's defaults and required flags are restored afterwards."""
    actions = {a.dest: a for a in parser._actions}
    originals = {dest: parser.get_default(dest) for dest in values}
    required = {dest: actions[dest].required for dest in values if dest in actions}
    parser.set_defaults(**values)
    for dest in required:
        actions[dest].required = False
    try:
        return (parse or argparse.ArgumentParser.parse_args)(parser, argv)
    finally:
        parser.set_defaults(**originals)
        for dest, was in required.items():
            actions[dest].required = was


def take_config_flag(argv: list[str]) -> tuple[str | None, list[str]]:
    """`--config PATH` (or `--config=PATH`) taken out of `argv`: (PATH or None, the other arguments)."""
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


# -- the resolved config saved beside an output ------------------------------------------------------------------
def plain(value: Any) -> Any:
    """`value` as plain YAML data: dataclasses as dicts, tuples as lists, enums by value, paths as strings, other
    objects by their string."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(getattr(value, "value", value))


def resolved_record(command: str, config: Mapping[str, Any], *, version: str, lang: str | None,
                    graphs: Iterable[str] | str = (), graph_sha256: Iterable[str | None] | None = None) -> dict[str, Any]:  # fmt: skip
    """The mapping saved as `kg2tool_config.yaml`: the command, kg2tool's `version`, the label language, each graph
    file with its sha256 (computed from the file when `graph_sha256` is not given; None for a file not found),
    and the resolved `config`."""
    from .files import file_sha256

    graphs = [str(graphs)] if isinstance(graphs, (str, Path)) else [str(g) for g in graphs]
    if graph_sha256 is None:
        graph_sha256 = [file_sha256(g) if Path(g).is_file() else None for g in graphs]
    return {
        "command": command,
        "kg2tool_version": version,
        "lang": lang,
        "graphs": [{"path": g, "sha256": h} for g, h in zip(graphs, graph_sha256, strict=False)],
        "config": plain(config),
    }


def resolved_yaml(record: Mapping[str, Any]) -> str:
    """`record` as the text of `kg2tool_config.yaml` (a header line, then YAML in the record's key order)."""
    import yaml

    header = f"# kg2tool {record.get('command', '')}: the resolved configuration of this run (written by kg2tool)\n"
    return header + yaml.safe_dump(plain(record), sort_keys=False, allow_unicode=True, width=119)


def write_resolved(folder, record: Mapping[str, Any]) -> Path:
    """Write `record` (see `resolved_record`) to `folder/kg2tool_config.yaml` atomically; return the path."""
    from .files import write_atomic

    path = Path(folder) / SAVED_NAME
    write_atomic(path, resolved_yaml(record))
    return path


def read_resolved(folder) -> dict[str, Any]:
    """`folder/kg2tool_config.yaml` as a dict ({} when the folder has none or it cannot be read)."""
    import yaml

    path = Path(folder) / SAVED_NAME
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def recorded_predicates(folder) -> tuple[list[str], list[str]]:
    """The `--include-predicate` and `--exclude-predicate` IRIs a dataset folder was made with (its
    `kg2tool_config.yaml` options; two empty lists when none were given), for loading its graph the same way again
    (`kg2tool.graph.model.PredicateRules(frozenset(include), frozenset(exclude))`)."""
    options = read_resolved(folder).get("options") or {}
    got = [options.get(key) or [] for key in ("include_predicate", "exclude_predicate")]
    return tuple([str(x) for x in v] if isinstance(v, list) else [] for v in got)  # type: ignore[return-value]


def recorded_fold(folder) -> bool:
    """Whether a dataset folder was made with reified n-ary nodes folded (its `kg2tool_config.yaml`'s `config.fold`;
    True, the default, when not recorded)."""
    config = read_resolved(folder).get("config") or {}
    return config.get("fold", True) is not False


def recorded_lang(folder) -> str | None:
    """The label language a dataset folder was made with: its `kg2tool_config.yaml`'s `lang`, else the first
    `language` of its card's front matter (folders written before the config file was saved); None if neither."""
    lang = read_resolved(folder).get("lang")
    if isinstance(lang, str) and lang:
        return lang
    readme = Path(folder) / "README.md"
    try:
        text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("---\n") or "\n---" not in text[4:]:
        return None
    import yaml

    try:
        front = yaml.safe_load(text[4 : text.index("\n---", 4)])
    except yaml.YAMLError:
        return None
    langs = front.get("language") if isinstance(front, dict) else None
    if isinstance(langs, str):
        return langs
    return langs[0] if isinstance(langs, list) and langs and isinstance(langs[0], str) else None
