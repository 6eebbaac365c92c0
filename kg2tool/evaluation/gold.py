"""The gold decoded output of a possible answer: what a perfect model would emit (the ``gold`` reference model).

Each argument takes its first acceptable value; an argument whose first acceptable value is ``""`` is omitted.
Two refinements make the gold output pass BFCL's own checker wherever the data allows it:

* a dict value in a possible answer is itself a dict of acceptable-value lists (that is how BFCL's dict rule reads
  it), so it is collapsed recursively to ``{key: first acceptable value}``, in lists of dicts too;
* BFCL's data has a few slips that make "first value" fail: ``""`` listed first for a *required* argument
  (simple_python_200), or an argument the function does not document but which may be omitted
  (parallel_multiple_26). Given the function docs, required arguments take their first non-empty value and
  undocumented optional ones are left out.
"""

from __future__ import annotations

import copy
from typing import Any


def _collapse(value: Any) -> Any:
    """Turn an acceptable dict ``{k: [values]}`` (or a list of them) into the plain value it stands for."""
    if type(value) is dict and value and all(type(v) is list for v in value.values()):
        return {k: _collapse(v[0]) for k, v in value.items() if v and v[0] != ""}
    if type(value) is list and any(type(v) is dict for v in value):
        return [_collapse(v) for v in value]
    return copy.deepcopy(value)


def _doc(functions: list[dict] | None, name: str) -> dict | None:
    for function in functions or []:
        if function.get("name") == name:
            return function.get("parameters") or {}
    return None


def gold_call(answer: dict, functions: list[dict] | None = None) -> dict:
    """The gold call ``{name: {arg: value}}`` of one possible-answer call ``{name: {arg: [acceptable]}}``."""
    name, acceptable_by_arg = next(iter(answer.items()))
    params = _doc(functions, name)
    required = set(params.get("required") or []) if params is not None else set()
    documented = set(params.get("properties") or {}) if params is not None else None
    args = {}
    for arg, acceptable in acceptable_by_arg.items():
        values = [v for v in acceptable if v != ""] if arg in required else acceptable
        if not values or values[0] == "" or (documented is not None and arg not in documented and "" in acceptable):
            continue
        args[arg] = _collapse(values[0])
    return {name: args}


def gold_output(ground_truth: list[dict] | None, functions: list[dict] | None = None) -> list[dict]:
    """Gold calls for a whole possible answer; ``[]`` (no call) when there is none, as for irrelevance."""
    return [gold_call(answer, functions) for answer in ground_truth or []]
