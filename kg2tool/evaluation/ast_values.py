"""Argument checks of the BFCL-style AST scoring (`ast_checker`): BFCL's parameter types, string normalization,
and the type and value check of one argument a model gave against its acceptable values, with BFCL's error
types. `CheckResult` is the outcome both modules return.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from ..common.errors import InputError

Matching = Literal["greedy", "optimal"]

# BFCL's Python type names, plus JSON-schema aliases ("number", "object") for our own schemas.
PYTHON_TYPES: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "number": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "object": dict,
    "any": str,
}
_NESTED_TYPES = ("array", "tuple")  # element types are checked one level deep, as in BFCL
_FLOAT_TYPES = ("float", "number")  # an int value is converted to float for these
_STRIP = re.compile(r"[ ,./\-_*^]")


@dataclass(frozen=True)
class CheckResult:
    """Outcome for one entry: ``valid``, BFCL's ``error_type`` (``None`` when valid) and a readable ``error``."""

    valid: bool
    error_type: str | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The result as BFCL's dict: `{"valid", "error_type", "error"}`."""
        return {"valid": self.valid, "error_type": self.error_type, "error": self.error}


OK = CheckResult(True)




def fail(error_type: str, error: str) -> CheckResult:
    """A failed `CheckResult` with BFCL's `error_type` and a readable `error`."""
    return CheckResult(False, error_type, error)


# ---------------------------------------------------------------------------------------------- values


def normalize_string(text: str) -> str:
    """BFCL's string normalization: drop spaces and ``,./-_*^``, lowercase, and turn ``'`` into ``"``."""
    return _STRIP.sub("", text).lower().replace("'", '"')


def _norm(value: Any) -> Any:
    return normalize_string(value) if type(value) is str else value


def _norm_items(answer: Any) -> list | None:
    """Normalize the items of one acceptable list value (BFCL indexes into it; a string yields its characters)."""
    if isinstance(answer, (list, tuple, str)):
        return [_norm(item) for item in answer]
    return None


def _answer_type(acceptable: list) -> type | None:
    """Type of the first acceptable value other than ``""``: BFCL's guess at what the answer's type is."""
    for answer in acceptable:
        if answer != "":
            return type(answer)
    return None


def _items_type_ok(values: list, acceptable_list: list, item_type: type) -> bool:
    """One-level element check against one acceptable list: each element has the item type or the answer's."""
    answer_type = _answer_type(acceptable_list)
    return all(type(v) is item_type or (answer_type is not None and type(v) is answer_type) for v in values)


def _nested_ok(value: list, acceptable: list, item_type: type) -> bool:
    """BFCL's nested check: passes if some acceptable value is not a list, or is a list whose types all fit."""
    for answer in acceptable:
        if type(answer) is not list or _items_type_ok(value, answer, item_type):
            return True
    return False


def _check_type(
    param: str, value: Any, acceptable: list, type_name: str, expected: type, item_type: type | None
) -> tuple[CheckResult, bool]:
    """Type check of one argument; returns (result, is_variable).

    BFCL treats an acceptable value whose type differs from the schema's as a *variable* name: a value of
    that type is then accepted and compared for equality only (no normalization, no dict/list rules).
    """
    answer_type = _answer_type(acceptable)
    is_variable = answer_type is not None and answer_type is not expected
    nested_failed = False
    if type(value) is expected:
        if item_type is None or _nested_ok(value, acceptable, item_type):
            return OK, is_variable
        nested_failed = True
    if answer_type is not None and type(value) is answer_type:
        if not nested_failed:
            return OK, True
        return fail(
            "type_error:nested",
            f"Nested type checking failed for parameter {param!r}: expected {type_name} of "
            f"{item_type.__name__ if item_type else '?'}, got {value!r}.",
        ), True
    return fail(
        "type_error:simple",
        f"Incorrect type for parameter {param!r}: expected {type_name}, got {type(value).__name__} ({value!r}).",
    ), is_variable


def _check_string(param: str, value: str, acceptable: list) -> CheckResult:
    options = [normalize_string(a) for a in acceptable if type(a) is str]
    if normalize_string(value) in options:
        return OK
    return fail(
        "value_error:string", f"Invalid value for parameter {param!r}: {value!r}. Expected one of {acceptable}"
    )


def _check_list(param: str, value: list, acceptable: list) -> CheckResult:
    """Order-sensitive list comparison; string elements (one level deep) are normalized."""
    normalized = [_norm(item) for item in value]
    if any(normalized == _norm_items(answer) for answer in acceptable):
        return OK
    return fail(
        "value_error:list/tuple", f"Invalid value for parameter {param!r}: {value!r}. Expected one of {acceptable}."
    )


def _dict_against(value: dict, answer: dict) -> CheckResult | None:
    """Compare one dict value to one acceptable dict; ``None`` when it matches.

    Like BFCL: every key of the value must be in the answer with an acceptable (normalized) value, and every
    answer key whose acceptable values lack ``""`` must be present. As in BFCL, a missing key reported by the
    second pass replaces the first pass's error.
    """
    error = None
    for key, item in value.items():
        if key not in answer:
            error = fail("value_error:dict_key", f"Unexpected dict key parameter: {key!r}.")
            break
        options = _norm_items(answer[key])
        if options is None or _norm(item) not in options:
            error = fail("value_error:dict_value", f"Invalid value for dict key {key!r}: {item!r}.")
            break
    for key, options in answer.items():
        if key not in value and not (isinstance(options, (list, tuple, str)) and "" in options):
            error = fail("value_error:dict_key", f"Missing dict key parameter: {key!r}.")
            break
    return error


def _check_dict(param: str, value: Any, acceptable: list) -> CheckResult:
    """A dict argument matches if it matches one acceptable dict (``""`` entries are skipped)."""
    result = fail("dict_checker:unclear", f"No acceptable dict for parameter {param!r}: {value!r}.")
    if type(value) is not dict:  # BFCL would crash here (only reachable inside a list of dicts)
        return fail("value_error:dict_value", f"Expected a dict in parameter {param!r}, got {value!r}.")
    for answer in acceptable:
        if answer == "":
            continue
        if type(answer) is not dict:
            result = fail("dict_checker:unclear", f"No acceptable dict for parameter {param!r}: {value!r}.")
            continue
        error = _dict_against(value, answer)
        if error is None:
            return OK
        result = error
    return result


def _check_list_of_dicts(param: str, value: list, acceptable: list) -> CheckResult:
    """Lists of dicts: same length as an acceptable list, and each dict matches the dict at its position."""
    result = fail("list_dict_checker:unclear", f"No acceptable list of dicts for parameter {param!r}.")
    for answer in acceptable:
        if not isinstance(answer, (list, str)) or len(value) != len(answer):
            result = fail("value_error:list_dict_count", "Wrong number of dictionaries in the list.")
            continue
        for item, expected in zip(value, answer, strict=True):
            result = _check_dict(param, item, [expected])
            if not result.valid:
                break
        else:
            return OK
    return result


def _param_types(param: str, spec: dict, func_name: str) -> tuple[str, type, type | None]:
    """(type name, Python type, element type or None) of one documented parameter."""
    type_name = spec.get("type")
    if not isinstance(type_name, str) or type_name not in PYTHON_TYPES:
        raise InputError(f"function {func_name!r}: parameter {param!r} has an unsupported type {type_name!r}")
    item_type = None
    if type_name in _NESTED_TYPES:
        items = spec.get("items")
        # BFCL requires items.type; we skip the element check when a schema leaves it out.
        item_name = items.get("type") if isinstance(items, dict) else None
        if item_name is not None:
            if not isinstance(item_name, str) or item_name not in PYTHON_TYPES:
                raise InputError(f"function {func_name!r}: parameter {param!r} has unsupported items {item_name!r}")
            item_type = PYTHON_TYPES[item_name]
    return type_name, PYTHON_TYPES[type_name], item_type


def check_value(param: str, value: Any, acceptable: list, spec: dict, func_name: str) -> CheckResult:
    """Type and value check of one argument the model gave: `value` of parameter `param` (documented by `spec` in
    function `func_name`) against the ground truth's `acceptable` values."""
    if not isinstance(acceptable, list):
        raise InputError(f"function {func_name!r}: acceptable values of {param!r} must be a list, got {acceptable!r}")
    type_name, expected, item_type = _param_types(param, spec, func_name)
    if type_name == "tuple" and type(value) is tuple:
        value = list(value)
    if type_name in _FLOAT_TYPES and type(value) is int:  # an int is fine for a float (never the reverse)
        value = float(value)
    result, is_variable = _check_type(param, value, acceptable, type_name, expected, item_type)
    if not result.valid:
        return result
    if not is_variable:
        if expected is dict:
            return _check_dict(param, value, acceptable)
        if expected is list and item_type is dict:
            return _check_list_of_dicts(param, value, acceptable)
        if expected is str:
            return _check_string(param, value, acceptable)
        if expected is list:
            return _check_list(param, value, acceptable)
    if value in acceptable:
        return OK
    return fail(
        "value_error:others", f"Invalid value for parameter {param!r}: {value!r}. Expected one of {acceptable}"
    )
