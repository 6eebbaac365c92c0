"""Gold and perturbed decoded outputs for BFCL entries: the inputs of the agreement test and benchmark.

For one entry (functions + possible answer) ``perturbations`` yields ``(kind, output)`` pairs: the gold output
(``gold.gold_output``), a naive gold (first values taken literally), every other acceptable value, and perturbations
that each target one rule of the checker: function name, required/optional/unknown/documented-but-unexpected
arguments, types (int for float, float for int, bool, string of a number, ...), string case/spacing/punctuation
variants, list order and contents, dict keys and values, call order, missing and extra calls, calls on irrelevance
entries, arbitrary JSON values in every argument, and outputs that are not call lists at all.

Many perturbations are *meant* to stay valid (case, spacing, int for float, reordered parallel calls): the point is
that our checker and BFCL's agree, not that every perturbation fails. Randomness comes from one generator per entry
seeded with ``(seed, id)``, so a case set does not depend on which entries are sampled or in which order.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from .ast_checker import checker_kind
from .bfcl_data import BfclEntry
from .gold import gold_output

Output = Any
_DUMMY = {
    "string": "foo",
    "integer": 7,
    "float": 1.5,
    "number": 1.5,
    "boolean": True,
    "array": [],
    "tuple": [],
    "dict": {},
    "object": {},
    "any": "foo",
}
_MALFORMED: list[tuple[str, Any]] = [
    ("malformed:text", "I cannot help with that."),
    ("malformed:none", None),
    ("malformed:dict_not_list", {"f": {}}),
    ("malformed:empty_call", [{}]),
    ("malformed:args_not_dict", [{"f": "x=1"}]),
    ("malformed:two_keys", [{"f": {}, "g": {}}]),
    ("malformed:nested_list", [["f", {}]]),
]


# Arbitrary JSON values swapped into every argument: the "any decoded output" probe.
_FUZZ: list[Any] = [
    0,
    1,
    -1,
    0.0,
    1.0,
    2.5,
    True,
    False,
    None,
    "",
    " ",
    "0",
    "1",
    "true",
    "None",
    "\u0130",
    "a b",
    [],
    [""],
    [None],
    [1, "1"],
    [1.0],
    [True],
    [[1]],
    {},
    {"a": 1},
    [{}],
    [{"a": [1]}],
]


# ---------------------------------------------------------------------------------------------- value variants


def _string_variants(value: str) -> list[tuple[str, Any]]:
    out = [
        ("str:upper", value.upper()),
        ("str:lower", value.lower()),
        ("str:swapcase", value.swapcase()),
        ("str:title", value.title()),
        ("str:pad", f" {value} "),
        ("str:nospace", value.replace(" ", "")),
        ("str:dash", value.replace(" ", "-")),
        ("str:underscore", value.replace(" ", "_")),
        ("str:dot_end", value + "."),
        ("str:bang_end", value + "!"),
        ("str:colon", value.replace(" ", ": ", 1)),
        ("str:tab", value.replace(" ", "\t", 1)),
        ("str:quote", value + "'"),
        ("str:dquote", value + '"'),
        ("str:comma_space", value.replace(",", ", ")),
        ("str:append", value + "x"),
        ("str:empty", ""),
        ("str:accent", value.replace("e", "\u00e9", 1)),
        ("str:paren", f"({value})"),
    ]
    if value[:1].isalpha():
        out.append(("str:drop_first", value[1:]))
    return out


def _number_variants(value: int | float) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [
        ("num:str", str(value)),
        ("num:bool", bool(value)),
        ("num:list", [value]),
        ("num:plus1", value + 1),
        ("num:neg", -value),
        ("num:null", None),
    ]
    if type(value) is int:
        out += [("num:int_as_float", float(value)), ("num:int_plus_half", value + 0.5)]
    else:
        out += [("num:float_as_int", int(value)), ("num:float_plus_half", value + 0.5)]
    return out


def _list_variants(value: list) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [
        ("list:empty", []),
        ("list:scalar", value[0] if value else "x"),
        ("list:append_dup", value + value[-1:]),
        ("list:as_str", str(value)),
    ]
    if len(value) >= 2:
        out += [("list:reverse", value[::-1]), ("list:drop_last", value[:-1]), ("list:rotate", value[1:] + value[:1])]
    if any(type(v) is str for v in value):
        out.append(("list:upper", [v.upper() if type(v) is str else v for v in value]))
        out.append(("list:pad", [f" {v}-" if type(v) is str else v for v in value]))
    if any(type(v) is int for v in value):
        out.append(("list:int_as_float", [float(v) if type(v) is int else v for v in value]))
        out.append(("list:int_as_bool", [bool(v) if type(v) is int else v for v in value]))
    if any(type(v) is float for v in value):
        out.append(("list:float_as_int", [int(v) if type(v) is float else v for v in value]))
    if any(type(v) is dict for v in value):
        out.append(("list:dict_drop_key", [dict(list(v.items())[1:]) if type(v) is dict else v for v in value]))
        out.append(("list:dict_as_str", [str(v) for v in value]))
    return out


def _dict_variants(value: dict) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [
        ("dict:empty", {}),
        ("dict:extra_key", {**value, "zz_extra": 1}),
        ("dict:in_list", [value]),
        ("dict:as_str", str(value)),
    ]
    if value:
        key = next(iter(value))
        out.append(("dict:drop_key", {k: v for k, v in value.items() if k != key}))
        inner = value[key]
        if type(inner) is str:
            out.append(("dict:upper_value", {**value, key: inner.upper()}))
            out.append(("dict:wrong_value", {**value, key: inner + "x"}))
        elif type(inner) in (int, float):
            out.append(("dict:num_value_plus1", {**value, key: inner + 1}))
            flipped = float(inner) if type(inner) is int else int(inner)
            out.append(("dict:num_value_flip_type", {**value, key: flipped}))
    return out


def value_variants(value: Any) -> list[tuple[str, Any]]:
    """Named variants of one argument value: type changes, normalization probes and wrong values."""
    if type(value) is bool:
        return [
            ("bool:flip", not value),
            ("bool:int", int(value)),
            ("bool:str", str(value).lower()),
            ("bool:null", None),
        ]
    if type(value) in (int, float):
        return _number_variants(value)
    if type(value) is str:
        return _string_variants(value) + [("str:int", 1), ("str:list", [value]), ("str:null", None)]
    if type(value) is list:
        return _list_variants(value)
    if type(value) is dict:
        return _dict_variants(value)
    return [("other:str", str(value))]


# ---------------------------------------------------------------------------------------------- call variants


def _with_args(output: list[dict], index: int, args: dict) -> list[dict]:
    new = copy.deepcopy(output)
    name = next(iter(new[index]))
    new[index] = {name: args}
    return new


def _function_doc(functions: list[dict], name: str) -> dict:
    return next((f for f in functions if f.get("name") == name), {"parameters": {"properties": {}, "required": []}})


def _call_variants(entry: BfclEntry, gold: list[dict], index: int) -> Iterator[tuple[str, Output]]:
    """Perturbations of the call at ``index`` of the gold output (argument-level and name-level)."""
    name, args = next(iter(gold[index].items()))
    answer = next(iter(entry.ground_truth[index].values()))
    doc = _function_doc(entry.functions, name)
    params = doc.get("parameters") or {}
    properties, required = params.get("properties") or {}, params.get("required") or []
    renamed = copy.deepcopy(gold)
    renamed[index] = {name + "_v2": args}
    yield "name:wrong", renamed
    if "." in name:
        underscored = copy.deepcopy(gold)
        underscored[index] = {name.replace(".", "_"): args}
        yield "name:underscored", underscored
    yield "args:none", _with_args(gold, index, {})
    for arg in args:
        kind = "drop:required" if arg in required else "drop:optional"
        yield kind, _with_args(gold, index, {k: v for k, v in args.items() if k != arg})
    for arg, acceptable in answer.items():
        for value in acceptable[1:] if arg in args else acceptable:
            if value != "":
                yield "alt:acceptable", _with_args(gold, index, {**args, arg: copy.deepcopy(value)})
    yield "extra:unknown", _with_args(gold, index, {**args, "zz_unknown_param": 1})
    for prop, spec in properties.items():
        if prop not in answer:
            dummy = spec.get("default", _DUMMY.get(spec.get("type"), "foo"))
            yield "extra:documented", _with_args(gold, index, {**args, prop: dummy})
    for arg, value in args.items():
        for kind, variant in value_variants(value):
            yield kind, _with_args(gold, index, {**args, arg: variant})
    for arg in answer:
        for number, value in enumerate(_FUZZ):
            yield f"fuzz:{number}", _with_args(gold, index, {**args, arg: copy.deepcopy(value)})


def _output_variants(entry: BfclEntry, gold: list[dict], rng: random.Random) -> Iterator[tuple[str, Output]]:
    """Perturbations of the whole call list: order, count, other functions."""
    yield "calls:empty", []
    yield "calls:duplicate_last", gold + copy.deepcopy(gold[-1:])
    other = [f for f in entry.functions if f["name"] not in {next(iter(c)) for c in gold}]
    if other:
        yield "calls:other_function", [{other[0]["name"]: copy.deepcopy(next(iter(gold[0].values())))}]
        yield "calls:plus_other_function", gold + [{other[0]["name"]: {}}]
    if len(gold) >= 2:
        yield "calls:reverse", gold[::-1]
        yield "calls:rotate", gold[1:] + gold[:1]
        shuffled = copy.deepcopy(gold)
        rng.shuffle(shuffled)
        yield "calls:shuffle", shuffled
        yield "calls:drop_first", gold[1:]
        yield "calls:drop_last", gold[:-1]
        yield "calls:swap_args", _swap_args(gold)


def _swap_args(gold: list[dict]) -> list[dict]:
    """Exchange the argument dicts of the first two calls (a cross-assignment probe for parallel matching)."""
    new = copy.deepcopy(gold)
    (n0, a0), (n1, a1) = next(iter(new[0].items())), next(iter(new[1].items()))
    new[0], new[1] = {n0: a1}, {n1: a0}
    return new


def _irrelevance_variants(entry: BfclEntry) -> Iterator[tuple[str, Output]]:
    yield "irrelevance:no_call", []
    for function in entry.functions[:2]:
        params = function.get("parameters") or {}
        properties = params.get("properties") or {}
        args = {p: _DUMMY.get(properties.get(p, {}).get("type"), "foo") for p in params.get("required") or []}
        yield "irrelevance:call", [{function["name"]: args}]
        yield "irrelevance:call_no_args", [{function["name"]: {}}]
    yield "irrelevance:two_calls", [{"some_function": {}}, {"other": {"x": 1}}]


def perturbations(entry: BfclEntry, seed: int = 0) -> Iterator[tuple[str, Output]]:
    """All ``(kind, output)`` cases for one entry; parallel cases are also emitted in a shuffled call order."""
    rng = random.Random(f"{seed}:{entry.id}")
    yield from _MALFORMED
    if checker_kind(entry.category) in ("irrelevance", "relevance"):
        yield from _irrelevance_variants(entry)
        return
    gold = gold_output(entry.ground_truth, entry.functions)
    yield "gold", gold
    naive = [
        {name: {a: copy.deepcopy(v[0]) for a, v in args.items() if v and v[0] != ""}}
        for call in entry.ground_truth
        for name, args in call.items()
    ]
    yield "gold:naive_first_values", naive
    shuffle = checker_kind(entry.category) == "parallel" and len(gold) >= 2
    for index in range(len(gold)):
        for kind, output in _call_variants(entry, gold, index):
            yield kind, output
            if shuffle and rng.random() < 0.5:
                shuffled = copy.deepcopy(output)
                rng.shuffle(shuffled)
                yield kind + "+shuffled", shuffled
    yield from _output_variants(entry, gold, rng)
