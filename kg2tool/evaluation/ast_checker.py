"""BFCL-style AST scoring of decoded function calls: our own implementation of BFCL's official semantics.

A *decoded output* is what a model's answer parses into: a list of calls, each a one-key dict
``{"function_name": {"arg": value, ...}}`` (``[]`` when the model made no call). A *ground truth* is BFCL's
possible answer: the same shape, but every argument maps to a list of acceptable values, where ``""``
among them means the argument may be omitted.

The rules follow ``bfcl_eval.eval_checker.ast_eval.ast_checker`` (Python language) plus the two checks
BFCL's runner does around it (the output-format check, and irrelevance on decoded output), so that
``check`` returns the same ``valid`` as the official pipeline on any decoded output. Error types reuse
BFCL's names, so results can be compared line by line. The per-argument type and value checks are in
``ast_values``; this module dispatches by category and matches calls. Design choices:

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
from typing import Any

from ..common.errors import InputError
from .ast_values import OK, CheckResult, Matching, check_value, fail, normalize_string

__all__ = ["CheckResult", "Matching", "category_from_id", "check", "check_call", "checker_kind", "normalize_string"]


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


# ---------------------------------------------------------------------------------------------- one call


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
        return fail("simple_function_checker:wrong_func_name", f"Function name {name!r} not found in model output.")
    args = call[name]
    params = function.get("parameters") or {}
    properties = params.get("properties") or {}
    for param in params.get("required") or []:
        if param not in args:
            return fail("simple_function_checker:missing_required", f"Missing required parameter: {param!r}.")
    for param, value in args.items():
        if param not in properties or param not in acceptable_by_param:
            return fail("simple_function_checker:unexpected_param", f"Unexpected parameter: {param!r}.")
        result = check_value(param, value, acceptable_by_param[param], properties[param], function["name"])
        if not result.valid:
            return result
    for param, acceptable in acceptable_by_param.items():
        if param not in args and "" not in acceptable:
            return fail(
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
        return fail(
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
            return fail(
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
            return fail(
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
        return fail("irrelevance_error:decoder_success", "The model made a call where none was expected.")
    if kind == "relevance":
        if has_no_call(output):
            return fail("relevance_error:decoder_failed", "The model made no call where one was expected.")
        return OK
    if not is_call_list(output):
        return fail("ast_decoder:decoder_wrong_output_format", "The output is not a list of {name: {args}} calls.")
    if ground_truth is None:
        raise InputError(f"category {category!r} needs a possible answer, and none was given")
    if isinstance(functions, dict):  # BFCL's older single-function format
        functions = [functions]
    opts = {"underscore_to_dot": underscore_to_dot}
    if kind == "parallel":
        return _check_parallel(functions, output, ground_truth, opts, matching)
    if kind == "multiple":  # BFCL compares the count, then checks only the first call
        if len(output) != len(ground_truth):
            return fail("multiple_function_checker:wrong_count", f"Wrong number of functions: {len(output)} calls.")
        function = _find_function(functions, next(iter(ground_truth[0])))
    else:  # simple: exactly one call, checked against the entry's first function
        if len(output) != 1:
            return fail("simple_function_checker:wrong_count", f"Wrong number of functions: {len(output)} calls.")
        function = functions[0]
    return check_call(function, output[0], ground_truth[0], **opts)
