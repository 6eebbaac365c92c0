"""The `refs` and `batch` tool styles: set-valued results are kept under handles (refs), or lookups take a list
of entities (batch), so that a set is not copied from call to call one name at a time.

With `--tool-style values` (the default) every tool returns whole lists of names and the next call copies them.
With `--tool-style refs` a set-valued result is kept by the executor in a per-conversation handle table and the
tool message is `{"ref": "r1", "count": N, "items": [at most k names]}` (all names when N <= k; `--ref-items`).
Handles are numbered r1, r2, ... in the order the calls are executed (a conversation's messages, in order), so
the same conversation always gets the same handles. Lookups (`get_<rel>`, `find_by_<rel>`) take an entity name
or a ref (a ref fans out inside the tool: one ref for the union of the lookups); `intersection`, `union`,
`difference` and `count` take refs where they take lists of names (and still take lists). Attribute getters and
`compare` are as in the values style.

`RefToolSet` is a ToolSet with the refs schemas whose `execute` reads and fills its `table`; `begin()` starts a
new conversation and `fork()` gives a copy with its own table (the eval loop runs several conversations at once).

With `--tool-style batch` lookups take an entity name or a list of names and return the union of their results,
or, with `"per_entity": true`, an object mapping each name to its own list: a fan-out is one call. Results and the
operators are as in the values style, and nothing is kept between calls (`BatchToolSet`).
"""

from __future__ import annotations

import copy
import json
import re

from ...common.toolstyle import ToolStyle
from .toolset import ToolError, ToolSet, ToolSpec

REF_RE = re.compile(r"^r[1-9][0-9]*$")
REF = {"type": "string", "pattern": REF_RE.pattern, "description": 'A ref from an earlier result, e.g. "r1".'}
_NAMES = {"type": "array", "items": {"type": "string"}}
BIG_SET = 100  # the synth report counts rows with a set above this many names


def _names_or_ref(description: str) -> dict:
    return {"anyOf": [_NAMES, REF], "description": description}


def ref_schema(spec: ToolSpec) -> dict:
    """The refs-style schema of one tool (the values-style schema for attribute getters and `compare`)."""
    schema = copy.deepcopy(spec.schema)
    fn = schema["function"]
    props = fn["parameters"]["properties"]
    if spec.kind in ("forward", "inverse"):
        key = spec.arg
        arg = props[key]
        desc = arg["description"].rstrip(".") + ', or a ref (e.g. "r1") from an earlier result for all of its names.'
        if "enum" in arg:
            props[key] = {"anyOf": [{"type": "string", "enum": arg["enum"]}, REF], "description": desc}
        else:
            props[key] = {**arg, "description": desc}
        fn["description"] = fn["description"].replace("Returns a list of names.", _RETURNS)
    elif spec.name in ("intersection", "union"):
        props["sets"] = {**props["sets"], "items": {"anyOf": [_NAMES, REF]},
                         "description": "Two or more refs or lists of entity names, e.g. results of earlier calls."}  # fmt: skip
        fn["description"] = fn["description"].replace("entity names", "entities").rstrip(".") + f". {_RETURNS}"
    elif spec.name == "difference":
        props["include"] = _names_or_ref("A ref or names to keep.")
        props["exclude"] = _names_or_ref("A ref or names to remove.")
        fn["description"] = "Return the entities of `include` that are not in `exclude`. " + _RETURNS
    elif spec.name == "count":
        props["items"] = _names_or_ref("A ref or a list of entity names.")
        fn["description"] = "Count the distinct entities of a ref or a list of names."
    return schema


_RETURNS = 'Returns {"ref", "count", "items"}: a ref to the names for later calls, how many, and the first few.'


class RefTable:
    """One conversation's handles: r1, r2, ... -> the full sorted list of names."""

    def __init__(self):
        self.sets: dict[str, list[str]] = {}

    def keep(self, names: list[str], k: int) -> dict:
        """Store `names` under the next handle; the tool message value for it."""
        handle = f"r{len(self.sets) + 1}"
        self.sets[handle] = names
        return {"ref": handle, "count": len(names), "items": names[:k]}

    def get(self, tool: str, handle: str) -> list[str]:
        """The names behind `handle`; ToolError('unknown_ref') when this conversation has no such handle."""
        if handle not in self.sets:
            known = ", ".join(self.sets) or "none yet"
            raise ToolError("unknown_ref", f"{tool}: no result {handle!r} in this conversation (refs: {known})")
        return self.sets[handle]


class RefToolSet(ToolSet):
    """The tools of a ToolSet in the refs style (see the module docstring); `k` names shown per ref."""

    style = ToolStyle.REFS

    def __init__(self, base: ToolSet, k: int = 5):
        if k < 1:
            raise ValueError(f"--ref-items must be at least 1, got {k}")
        specs = [ToolSpec(s.name, s.kind, s.target, ref_schema(s)) for s in base.specs.values()]
        super().__init__(base.kg, specs)
        self.k = k
        self.table = RefTable()

    def begin(self) -> None:
        """Start a new conversation: an empty handle table."""
        self.table = RefTable()

    def fork(self) -> RefToolSet:
        """A copy sharing tools and validators, with its own empty handle table."""
        twin = copy.copy(self)
        twin.table = RefTable()
        return twin

    def _names(self, tool: str, value) -> list[str]:
        return self.table.get(tool, value) if isinstance(value, str) else value

    def execute(self, name: str, arguments: dict, validate: bool = True):
        """Validate and run one call, reading refs from and keeping set results in this conversation's table."""
        if validate:
            self.validate(name, arguments)
        elif name not in self.specs:
            raise ToolError("unknown_tool", f"unknown tool {name!r}")
        spec = self.specs[name]
        if spec.kind == "attribute" or name == "compare":
            return super().execute(name, arguments, validate=False)
        if spec.kind in ("forward", "inverse"):
            key = spec.arg
            arg = arguments[key]
            if arg in self.table.sets:  # a ref: one lookup per name, their union
                found: set[str] = set()
                for one in self.table.sets[arg]:
                    found.update(super().execute(name, {key: one}, validate=False))
                return self.table.keep(sorted(found), self.k)
            if REF_RE.match(arg) and self.kg.resolve(arg) is None:
                self.table.get(name, arg)  # a handle this conversation does not have: ToolError('unknown_ref')
            return self.table.keep(super().execute(name, arguments, validate=False), self.k)
        if name in ("intersection", "union"):
            plain = {"sets": [self._names(name, s) for s in arguments["sets"]]}
        elif name == "difference":
            plain = {k: self._names(name, arguments[k]) for k in ("include", "exclude")}
        else:  # count
            return len(set(self._names(name, arguments["items"])))
        return self.table.keep(super().execute(name, plain, validate=False), self.k)


def renumber(calls) -> None:
    """Renumber the handles of compiled calls (kg2tool.synth.traces.Call, executed depth first) in the order the
    conversation lays them out (by turn, stably), rewriting results and ref arguments in place, so that replaying
    the messages in order with a fresh table gives the same handles."""
    order = sorted(range(len(calls)), key=lambda i: calls[i].turn)
    new = {}
    for i in order:
        result = calls[i].result
        if isinstance(result, dict) and "ref" in result:
            new[result["ref"]] = f"r{len(new) + 1}"
    for call in calls:
        if isinstance(call.result, dict) and "ref" in call.result:
            call.result = {**call.result, "ref": new[call.result["ref"]]}
        args = call.arguments
        for key, value in args.items():
            if isinstance(value, str) and key != "mode" and REF_RE.match(value) and value in new:
                args[key] = new[value]
            elif key == "sets":
                args[key] = [new.get(v, v) if isinstance(v, str) else v for v in value]


def is_ref(value) -> bool:
    """True for a ref result (`{"ref", "count", "items"}`)."""
    return isinstance(value, dict) and "ref" in value and "count" in value


def result_key(ts: ToolSet, result) -> str:
    """A call's result as sorted JSON, for comparing two calls: a ref of `ts`'s table as the names it holds (its
    handle number depends only on how many calls ran before it)."""
    table = getattr(ts, "table", None)
    if table is not None and is_ref(result) and result["ref"] in table.sets:
        return json.dumps({"names": table.sets[result["ref"]]}, ensure_ascii=False)
    return json.dumps(result, sort_keys=True, ensure_ascii=False)


def cut_counts(results) -> list[int]:
    """The counts of the refs among `results` that show only some of their names (an answer must state them)."""
    return [r["count"] for r in results if is_ref(r) and r["count"] > len(r["items"])]


def big_sets(row: dict, above: int = BIG_SET) -> bool:
    """True when a tool message of the row holds a ref of more than `above` names."""
    for m in row["messages"]:
        if m.get("role") == "tool" and m.get("content", "").startswith('{"ref"'):
            if json.loads(m["content"]).get("count", 0) > above:
                return True
    return False


def batch_schema(spec: ToolSpec) -> dict:
    """The batch-style schema of one tool: a lookup's argument is a name or a list of names, with `per_entity`."""
    schema = copy.deepcopy(spec.schema)
    if spec.kind not in ("forward", "inverse"):
        return schema
    fn = schema["function"]
    props = fn["parameters"]["properties"]
    key = spec.arg
    one = {k: v for k, v in props[key].items() if k != "description"}
    desc = props[key]["description"].rstrip(".") + ", or a list of names to look up together."
    props[key] = {"anyOf": [one, {"type": "array", "items": one, "minItems": 1}], "description": desc}
    props["per_entity"] = {"type": "boolean", "description": "With a list: return each name's own results."}
    fn["description"] = fn["description"].replace(
        "Returns a list of names.",
        "Returns a list of names (for a list of entities: the union; with per_entity, an object of lists by name).",
    )
    return schema


class BatchToolSet(ToolSet):
    """The tools of a ToolSet in the batch style (see the module docstring)."""

    style = ToolStyle.BATCH

    def __init__(self, base: ToolSet):
        super().__init__(base.kg, [ToolSpec(s.name, s.kind, s.target, batch_schema(s)) for s in base.specs.values()])

    def begin(self) -> None:
        """Nothing is kept between calls."""

    def fork(self) -> BatchToolSet:
        """The same tools (nothing per conversation)."""
        return self

    def execute(self, name: str, arguments: dict, validate: bool = True):
        """Validate and run one call; a lookup of a list of names runs once per name."""
        if validate:
            self.validate(name, arguments)
        spec = self.specs.get(name)
        if spec is None or spec.kind not in ("forward", "inverse"):
            return super().execute(name, arguments, validate=False)
        key = spec.arg
        arg = arguments[key]
        names = arg if isinstance(arg, list) else [arg]
        each = {n: super(BatchToolSet, self).execute(name, {key: n}, validate=False) for n in names}
        if arguments.get("per_entity"):
            return each
        if not isinstance(arg, list):
            return each[arg]
        return sorted({x for found in each.values() for x in found})
