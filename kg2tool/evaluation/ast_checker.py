"""BFCL-style AST scoring of decoded function calls: our own implementation of BFCL's official semantics.

A *decoded output* is what a model's answer parses into: a list of calls, each a one-key dict
``{"function_name": {"arg": value, ...}}`` (``[]`` when the model made no call). A *ground truth* is BFCL's
possible answer: the same shape, but every argument maps to a list of acceptable values, where ``""``
among them means the argument may be omitted.

The rules follow ``bfcl_eval.eval_checker.ast_eval.ast_checker`` (Python language) plus the two checks
BFCL's runner does around it (the output-format check, and irrelevance on decoded output), so that
``check`` returns the same ``valid`` as the official pipeline on any decoded output. Error types reuse
BFCL's names, so results can be compared line by line. Design choices:

* Dispatch by category like BFCL: a category containing ``parallel`` is matched order-free (this includes
  ``parallel_multiple``), one containing ``multiple`` checks exactly one call, ``irrelevance`` passes
  when there is no call, anything else is ``simple``.
* Values are compared with Python equality, as BFCL does, so ``1 == 1.0 == True`` inside lists and for
  ``value in acceptable``; the *type* checks are exact (``type(v) is int``), which is what rejects a
  bool for an int. The few places where BFCL's behaviour is questionable are matched by default and
  listed in ``docs/eval.md`` (e.g. greedy parallel matching, an empty list accepted for an optional
  list argument, a string variable compared without normalization).
* Where BFCL would crash (a model value of the wrong shape deep inside a list of dicts, say) we return
  ``valid=False`` instead; malformed *test data* (a function the answer names but the test does not
  define, an unknown parameter type) raises ``InputError``.
* JSON-schema type names (``number``, ``object``) are accepted as aliases of BFCL's ``float`` and ``dict``,
  so our own exported schemas score the same way; BFCL itself only knows its own names.
* ``matching="optimal"`` replaces BFCL's greedy parallel matching by a maximum bipartite matching;
  the default ``"greedy"`` is BFCL's.
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
        return {"valid": self.valid, "error_type": self.error_type, "error": self.error}


OK = CheckResult(True)


def _fail(error_type: str, error: str) -> CheckResult:
    return CheckResult(False, error_type, error)


# ---------------------------------------------------------------------------------------------- categories


def checker_kind(category: str) -> str:
    """Map a BFCL category name to the rule set that scores it: simple, multiple, parallel, irrelevance, relevance.

    Mirrors BFCL's substring dispatch (``parallel_multiple`` is scored as parallel). Java and JavaScript
    categories need BFCL's language converters and are not supported.
    """
    if "java" in category:  # simple_java, simple_javascript
        raise InputError(f"category {category!r}: only Python categories are supported (no Java/JavaScript)")
    if "multi_turn" in category or "memory" in category or "web_search" in category:
        raise InputError(f"category {category!r} is not an AST category")
    if "irrelevance" in category:
        return "irrelevance"
    if "relevance" in category:
        return "relevance"
    if "parallel" in category:
        return "parallel"
    if "multiple" in category:
        return "multiple"
    return "simple"


_ID_SUFFIX = re.compile(r"_\d+(?:[-_:]\d+)*$")


def category_from_id(entry_id: str) -> str:
    """Category of a BFCL-style id: ``simple_python_0`` -> ``simple_python``, ``live_simple_3-1-0`` -> ``live_simple``.

    Raises ``InputError`` when the id has no numeric suffix to strip.
    """
    category = _ID_SUFFIX.sub("", str(entry_id))
    if not category or category == entry_id:
        raise InputError(
            f"cannot infer a category from id {entry_id!r}: expected e.g. 'simple_python_0' (or pass --category)"
        )
    return category


# ---------------------------------------------------------------------------------------------- output shape


def is_call_list(output: Any) -> bool:
    """BFCL's format check: a list of one-key dicts whose value is a dict of arguments (``[]`` passes)."""
    if type(output) is not list:
        return False
    for call in output:
        if type(call) is not dict or len(call) != 1:
            return False
        if type(next(iter(call.values()))) is not dict:
            return False
    return True


def has_no_call(output: Any) -> bool:
    """BFCL's irrelevance test on decoded output: anything that is not a well-formed, non-empty call list."""
    return not is_call_list(output) or len(output) == 0


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
        return _fail(
            "type_error:nested",
            f"Nested type checking failed for parameter {param!r}: expected {type_name} of "
            f"{item_type.__name__ if item_type else '?'}, got {value!r}.",
        ), True
    return _fail(
        "type_error:simple",
        f"Incorrect type for parameter {param!r}: expected {type_name}, got {type(value).__name__} ({value!r}).",
    ), is_variable


def _check_string(param: str, value: str, acceptable: list) -> CheckResult:
    options = [normalize_string(a) for a in acceptable if type(a) is str]
    if normalize_string(value) in options:
        return OK
    return _fail(
        "value_error:string", f"Invalid value for parameter {param!r}: {value!r}. Expected one of {acceptable}"
    )


def _check_list(param: str, value: list, acceptable: list) -> CheckResult:
    """Order-sensitive list comparison; string elements (one level deep) are normalized."""
    normalized = [_norm(item) for item in value]
    if any(normalized == _norm_items(answer) for answer in acceptable):
        return OK
    return _fail(
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
            error = _fail("value_error:dict_key", f"Unexpected dict key parameter: {key!r}.")
            break
        options = _norm_items(answer[key])
        if options is None or _norm(item) not in options:
            error = _fail("value_error:dict_value", f"Invalid value for dict key {key!r}: {item!r}.")
            break
    for key, options in answer.items():
        if key not in value and not (isinstance(options, (list, tuple, str)) and "" in options):
            error = _fail("value_error:dict_key", f"Missing dict key parameter: {key!r}.")
            break
    return error


def _check_dict(param: str, value: Any, acceptable: list) -> CheckResult:
    """A dict argument matches if it matches one acceptable dict (``""`` entries are skipped)."""
    result = _fail("dict_checker:unclear", f"No acceptable dict for parameter {param!r}: {value!r}.")
    if type(value) is not dict:  # BFCL would crash here (only reachable inside a list of dicts)
        return _fail("value_error:dict_value", f"Expected a dict in parameter {param!r}, got {value!r}.")
    for answer in acceptable:
        if answer == "":
            continue
        if type(answer) is not dict:
            result = _fail("dict_checker:unclear", f"No acceptable dict for parameter {param!r}: {value!r}.")
            continue
        error = _dict_against(value, answer)
        if error is None:
            return OK
        result = error
    return result


def _check_list_of_dicts(param: str, value: list, acceptable: list) -> CheckResult:
    """Lists of dicts: same length as an acceptable list, and each dict matches the dict at its position."""
    result = _fail("list_dict_checker:unclear", f"No acceptable list of dicts for parameter {param!r}.")
    for answer in acceptable:
        if not isinstance(answer, (list, str)) or len(value) != len(answer):
            result = _fail("value_error:list_dict_count", "Wrong number of dictionaries in the list.")
            continue
        for item, expected in zip(value, answer, strict=True):
            result = _check_dict(param, item, [expected])
            if not result.valid:
                break
        else:
            return OK
    return result


# ---------------------------------------------------------------------------------------------- one call


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


def _check_value(param: str, value: Any, acceptable: list, spec: dict, func_name: str) -> CheckResult:
    """Type and value check of one argument the model gave."""
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
    return _fail(
        "value_error:others", f"Invalid value for parameter {param!r}: {value!r}. Expected one of {acceptable}"
    )


def expected_name(name: str, underscore_to_dot: bool) -> str:
    """The function name a model must emit: dots become underscores for models that cannot emit dots."""
    return name.replace(".", "_") if underscore_to_dot else name


def check_call(function: dict, call: dict, answer: dict, *, underscore_to_dot: bool = False) -> CheckResult:
    """Score one decoded call against one function schema and one ground-truth call.

    ``function`` is a BFCL function doc (``name``, ``parameters.properties``, ``parameters.required``);
    ``call`` is ``{name: {arg: value}}``; ``answer`` is ``{name: {arg: [acceptable values]}}``. The checks
    run in BFCL's order, so the first failure reported is the one BFCL reports.
    """
    acceptable_by_param = next(iter(answer.values()))
    name = expected_name(function["name"], underscore_to_dot)
    if name not in call:
        return _fail("simple_function_checker:wrong_func_name", f"Function name {name!r} not found in model output.")
    args = call[name]
    params = function.get("parameters") or {}
    properties = params.get("properties") or {}
    for param in params.get("required") or []:
        if param not in args:
            return _fail("simple_function_checker:missing_required", f"Missing required parameter: {param!r}.")
    for param, value in args.items():
        if param not in properties or param not in acceptable_by_param:
            return _fail("simple_function_checker:unexpected_param", f"Unexpected parameter: {param!r}.")
        result = _check_value(param, value, acceptable_by_param[param], properties[param], function["name"])
        if not result.valid:
            return result
    for param, acceptable in acceptable_by_param.items():
        if param not in args and "" not in acceptable:
            return _fail(
                "simple_function_checker:missing_optional",
                f"Optional parameter {param!r} not provided and not marked as optional.",
            )
    return OK


# ---------------------------------------------------------------------------------------------- entries


def _find_function(functions: list, name: str) -> dict:
    for function in functions:
        if function.get("name") == name:
            return function
    raise InputError(f"the possible answer calls {name!r}, which is not among the test's functions")


def _check_parallel(functions: list, output: list, ground_truth: list, opts: dict, matching: Matching) -> CheckResult:
    if len(output) != len(ground_truth):
        return _fail(
            "parallel_function_checker_no_order:wrong_count",
            f"Wrong number of functions: {len(output)} calls, expected {len(ground_truth)}.",
        )
    docs = [_find_function(functions, next(iter(answer))) for answer in ground_truth]
    if matching == "optimal":
        return _match_optimal(docs, output, ground_truth, opts)
    used: set[int] = set()
    for i, (doc, answer) in enumerate(zip(docs, ground_truth, strict=True)):
        last = None
        for j, call in enumerate(output):
            if j in used:
                continue
            last = check_call(doc, call, answer, **opts)
            if last.valid:
                used.add(j)
                break
        if last is None or not last.valid:
            return _fail(
                "parallel_function_checker_no_order:cannot_find_match",
                f"No unmatched call fits expected call {i} ({next(iter(answer))!r}); last error: "
                f"{last.error if last else 'none left'}",
            )
    return OK


def _match_optimal(docs: list, output: list, ground_truth: list, opts: dict) -> CheckResult:
    """Maximum bipartite matching (Kuhn's augmenting paths) between expected calls and model calls."""
    pairs = zip(docs, ground_truth, strict=True)
    fits = [[check_call(doc, call, answer, **opts).valid for call in output] for doc, answer in pairs]
    owner: dict[int, int] = {}  # model call -> expected call

    def augment(i: int, seen: set[int]) -> bool:
        for j, ok in enumerate(fits[i]):
            if ok and j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(ground_truth)):
        if not augment(i, set()):
            return _fail(
                "parallel_function_checker_no_order:cannot_find_match",
                f"No one-to-one matching covers expected call {i} ({next(iter(ground_truth[i]))!r}).",
            )
    return OK


def check(
    functions: list | dict,
    output: Any,
    ground_truth: list | None,
    category: str,
    *,
    underscore_to_dot: bool = False,
    matching: Matching = "greedy",
) -> CheckResult:
    """Score one decoded model output for one test entry, as BFCL's pipeline does.

    ``functions``: the entry's function docs; ``output``: the decoded calls (any JSON value; anything that is
    not a list of ``{name: {args}}`` dicts counts as no call); ``ground_truth``: BFCL's possible answer (unused
    for irrelevance); ``category``: e.g. ``simple_python``, ``parallel_multiple``, ``irrelevance``.
    """
    kind = checker_kind(category)
    if kind == "irrelevance":
        if has_no_call(output):
            return OK
        return _fail("irrelevance_error:decoder_success", "The model made a call where none was expected.")
    if kind == "relevance":
        if has_no_call(output):
            return _fail("relevance_error:decoder_failed", "The model made no call where one was expected.")
        return OK
    if not is_call_list(output):
        return _fail("ast_decoder:decoder_wrong_output_format", "The output is not a list of {name: {args}} calls.")
    if ground_truth is None:
        raise InputError(f"category {category!r} needs a possible answer, and none was given")
    if isinstance(functions, dict):  # BFCL's older single-function format
        functions = [functions]
    opts = {"underscore_to_dot": underscore_to_dot}
    if kind == "parallel":
        return _check_parallel(functions, output, ground_truth, opts, matching)
    if kind == "multiple":  # BFCL compares the count, then checks only the first call
        if len(output) != len(ground_truth):
            return _fail("multiple_function_checker:wrong_count", f"Wrong number of functions: {len(output)} calls.")
        function = _find_function(functions, next(iter(ground_truth[0])))
    else:  # simple: exactly one call, checked against the entry's first function
        if len(output) != 1:
            return _fail("simple_function_checker:wrong_count", f"Wrong number of functions: {len(output)} calls.")
        function = functions[0]
    return check_call(function, output[0], ground_truth[0], **opts)
