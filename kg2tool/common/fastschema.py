"""A fast pre-check for JSON Schema validation: proves simple instances valid without running a validator.

`compile_check(schema)` turns a JSON Schema (Draft 2020-12) into a predicate `ok(instance) -> bool` with one
guarantee: `ok(x)` is True only when the full validator finds no error in `x`. False means "not proven", not
"invalid": the caller then runs the full validator, which decides and names the error. So a caller that does

    if not ok(args):
        error = next(validator.iter_errors(args), None)

accepts and rejects exactly what the validator alone would, with the same messages, and skips the validator's
per-keyword machinery for the common, valid case (most of the time of checking a tool call's arguments).

Keywords the predicate understands (each with the validator's own semantics):
    type (one name or a list), properties, required, additionalProperties: false, items (one schema, no
    prefixItems), minItems, maxItems, minLength, maxLength, enum (of strings), anyOf, and the annotations
    description, title, default, examples.
A schema node with any other keyword (format, pattern, $ref, const, ...) gets a predicate that is always False,
so the validator decides every instance that reaches it. Within `anyOf`, such a branch simply proves nothing.
"""

from __future__ import annotations

from collections.abc import Callable

Check = Callable[[object], bool]

ANNOTATIONS = frozenset(("description", "title", "default", "examples"))
_BY_TYPE = {
    "object": frozenset(("properties", "required", "additionalProperties")),
    "array": frozenset(("items", "minItems", "maxItems")),
    "string": frozenset(("minLength", "maxLength", "enum")),
    "number": frozenset(),
    "integer": frozenset(),
    "boolean": frozenset(),
    "null": frozenset(),
}


def _never(_value) -> bool:
    return False


def _always(_value) -> bool:
    return True


def _is_type(name: str) -> Check:
    """A sound test of the validator's `type` keyword (True only for values of that JSON type)."""
    return {
        "object": lambda v: type(v) is dict,
        "array": lambda v: type(v) is list,
        "string": lambda v: type(v) is str,
        "number": lambda v: type(v) is int or type(v) is float,  # bool is not a number
        "integer": lambda v: type(v) is int,
        "boolean": lambda v: type(v) is bool,
        "null": lambda v: v is None,
    }[name]


def compile_check(schema) -> Check:
    """The predicate of `schema` (see the module docstring): True proves an instance valid, False proves nothing."""
    if schema is True or schema == {}:
        return _always
    if not isinstance(schema, dict):
        return _never
    keys = set(schema) - ANNOTATIONS
    if "anyOf" in schema:
        branches = schema["anyOf"]
        if keys != {"anyOf"} or not isinstance(branches, list) or not branches:
            return _never
        checks = [compile_check(b) for b in branches]
        return lambda v: any(c(v) for c in checks)
    kind = schema.get("type")
    if isinstance(kind, list) and kind and all(k in _BY_TYPE for k in kind) and keys == {"type"}:
        tests = [_is_type(k) for k in kind]
        return lambda v: any(t(v) for t in tests)
    if not isinstance(kind, str) or kind not in _BY_TYPE or not keys - {"type"} <= _BY_TYPE[kind]:
        return _never
    builder = {"object": _object, "array": _array, "string": _string}.get(kind)
    return builder(schema) if builder else _is_type(kind)


def _object(schema: dict) -> Check:
    props = schema.get("properties", {})
    required = schema.get("required", [])
    closed = schema.get("additionalProperties", True)
    if (
        not isinstance(props, dict)
        or not isinstance(required, list)
        or not all(isinstance(r, str) for r in required)
        or type(closed) is not bool
    ):
        return _never
    checks = {k: compile_check(s) for k, s in props.items()}

    def ok(v) -> bool:
        if type(v) is not dict:
            return False
        for key in required:
            if key not in v:
                return False
        for key, value in v.items():
            check = checks.get(key)
            if check is None:
                if not closed:
                    return False
            elif not check(value):
                return False
        return True

    return ok


def _array(schema: dict) -> Check:
    lo, hi = schema.get("minItems", 0), schema.get("maxItems")
    if type(lo) is not int or (hi is not None and type(hi) is not int):
        return _never
    items = schema.get("items", True)
    if items is True:
        return lambda v: type(v) is list and len(v) >= lo and (hi is None or len(v) <= hi)
    if items == {"type": "string"}:  # the common list of names, without one call per element

        def names(v) -> bool:
            if type(v) is not list or len(v) < lo or (hi is not None and len(v) > hi):
                return False
            for x in v:
                if type(x) is not str:
                    return False
            return True

        return names
    each = compile_check(items)

    def ok(v) -> bool:
        if type(v) is not list or len(v) < lo or (hi is not None and len(v) > hi):
            return False
        for x in v:
            if not each(x):
                return False
        return True

    return ok


def _string(schema: dict) -> Check:
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    enum = schema.get("enum")
    if type(lo) is not int or (hi is not None and type(hi) is not int):
        return _never
    if enum is not None:
        if not isinstance(enum, list) or not all(type(e) is str for e in enum):
            return _never
        allowed = frozenset(enum)
        return lambda v: type(v) is str and v in allowed and len(v) >= lo and (hi is None or len(v) <= hi)
    if hi is None:
        return lambda v: type(v) is str and len(v) >= lo
    return lambda v: type(v) is str and lo <= len(v) <= hi
