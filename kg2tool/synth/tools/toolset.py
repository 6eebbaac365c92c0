"""Function schemas derived from a graph's relations, and the one executor that runs them on the graph.

For each relation with at least `min_support` edges and words to say it (no relation said by an id alone, "c 10001
p 10004": `kg2tool.graph.hygiene.wordless`; a lexicon.yaml can name it): a forward lookup
`get_<relation>(entity)` and an inverse lookup `find_by_<relation>(value)`; for each literal attribute: a typed
getter `get_<attribute>(entity)`. Operator tools work on lists of names: `intersection`, `union`, `difference`,
`count`, `compare` (pick the item with the largest or smallest value). Every tool is in the OpenAI / Hugging Face format
`{"type": "function", "function": {"name", "description", "parameters"}}`, its parameters a Draft 2020-12 JSON
Schema object with `required` and `additionalProperties: false`, checked with `check_schema` when derived.

The executor (`ToolSet.execute`) is shared by synthesis, verification and the executable eval loop: entities are
passed by name and resolved with `KnowledgeGraph.resolve` (its docstring gives the tie-break rule); results are
JSON values (lists of display names sorted by name, numbers, ISO dates). Arguments are validated with a
validator compiled once per tool, after a fast check that proves the common valid case without it
(`kg2tool.common.fastschema`: the validator still decides, and words the error for, every other case). A failing call raises `ToolError`, whose message is what a model would see.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from jsonschema import Draft202012Validator, validators
from jsonschema._keywords import items as _items_keyword

from ...common.closenames import CloseNames
from ...common.errors import NothingToDoError
from ...common.fastschema import compile_check
from ...common.toolstyle import ToolStyle
from ...graph.hygiene import wordless
from ...graph.model import Attribute, KnowledgeGraph, Relation
from .schemas import operator_schemas, tool_schema

NAME_RE = re.compile(r"^[a-zA-Z0-9_]{1,64}$")
ENUM_MAX = 24  # an argument gets an `enum` when the graph allows at most this many values
OPERATORS = ("intersection", "union", "difference", "count", "compare")


def _fast_items(validator, items, instance, schema):
    """`items` for the common `{"type": "string"}` case without one sub-validator per element.

    jsonschema's own `items` descends into every element (a new validator each); lists of 30 names made that
    most of the synthesis time. Elements that pass the plain isinstance check are skipped; any that fails is
    handed to `descend`, so the errors are exactly jsonschema's. Other item schemas use the stock keyword."""
    if items == {"type": "string"} and "prefixItems" not in schema and isinstance(instance, list):
        for index, value in enumerate(instance):
            if not isinstance(value, str):
                yield from validator.descend(instance=value, schema=items, path=index)
        return
    yield from _items_keyword(validator, items, instance, schema)


# Draft 2020-12 with the faster `items` above; everything else is jsonschema's.
CallValidator = validators.extend(Draft202012Validator, {"items": _fast_items})


class ToolError(Exception):
    """A call that cannot be executed (unknown tool, invalid arguments, unknown or ambiguous entity, ...).
    `suggestions`: the entity names the message offers instead (closest names, or the candidates of an ambiguous
    name), so a retry with one of them is grounded in the tool's reply."""

    def __init__(self, kind: str, message: str, suggestions: tuple[str, ...] = ()):
        super().__init__(message)
        self.kind = kind
        self.suggestions = tuple(suggestions)


SUGGEST_MAX = 3  # closest names an unknown-entity error offers
SUGGEST_POOL = 20000  # names of the relation's domain or range compared with an unknown name (the first ones)


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its schema in OpenAI format, and what it does on the graph."""

    name: str
    kind: str  # forward | inverse | attribute | operator
    target: str  # relation or attribute IRI, or the operator name
    schema: dict = field(hash=False, compare=False)

    @property
    def parameters(self) -> dict:
        """The tool's JSON Schema for its arguments."""
        return self.schema["function"]["parameters"]

    @property
    def arg(self) -> str:
        """The argument a lookup tool takes the entity or value in: `value` for an inverse lookup (find_by_...), else
        `entity`."""
        return "value" if self.kind == "inverse" else "entity"

    @cached_property
    def canonical(self) -> str:
        """The schema as canonical JSON (sorted keys), e.g. as a cache key."""
        return json.dumps(self.schema, sort_keys=True, ensure_ascii=False)


def snake(text: str) -> str:
    """ASCII snake_case of a label: `languages spoken, written, or signed` -> `languages_spoken_written_or_signed`."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-zA-Z0-9]+", "_", text).strip("_").lower()


def _unique_name(base: str, fallback: str, taken: set[str], prefix: str) -> str:
    stem = snake(base) or snake(fallback) or "relation"
    name = f"{prefix}{stem}"[:64].rstrip("_")
    i = 2
    while name in taken or not NAME_RE.match(name):
        suffix = f"_{i}"
        name = f"{prefix}{stem}"[: 64 - len(suffix)].rstrip("_") + suffix
        i += 1
    taken.add(name)
    return name


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".") if text else ""


def _type_hint(kg: KnowledgeGraph, ids) -> str:
    """Most common entity type among ids (e.g. `human`), for parameter descriptions."""
    counts: dict[str, int] = {}
    for i in itertools.islice(ids, 2000):  # not list(ids): an on-disk graph's keys are not copied
        for t in kg.types[i]:
            counts[t] = counts.get(t, 0) + 1
    if not counts:
        return ""
    t, c = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return t if c >= 0.5 * min(len(ids), 2000) else ""


class ToolSet:
    """All tools derived from a graph, with compiled validators and the executor."""

    style = ToolStyle.VALUES  # how sets travel between its calls (kg2tool.synth.tools.refs: refs and batch)

    def __init__(self, kg: KnowledgeGraph, specs: list[ToolSpec]):
        self.kg = kg
        self.specs = {s.name: s for s in specs}
        self.validators = {
            s.name: CallValidator(s.parameters, format_checker=Draft202012Validator.FORMAT_CHECKER) for s in specs
        }
        # a sound fast path per tool (kg2tool.common.fastschema): True proves the arguments valid; otherwise the
        # validator above decides and names the error
        self.proven_valid = {s.name: compile_check(s.parameters) for s in specs}
        self._close: dict[str, CloseNames] = {}  # tool -> the names its unknown-entity errors suggest from
        self._recent: dict[tuple[str, str], tuple[str, ...]] = {}  # (tool, unknown name) -> closest names
        self.forward_tool: dict[str, str] = {}
        self.inverse_tool: dict[str, str] = {}
        self.attribute_tool: dict[str, str] = {}
        for s in specs:
            {"forward": self.forward_tool, "inverse": self.inverse_tool, "attribute": self.attribute_tool}.get(
                s.kind, {}
            )[s.target] = s.name
        self._run: dict[str, Callable[[dict], object]] = {
            "intersection": self._intersection,
            "union": self._union,
            "difference": self._difference,
            "count": self._count,
            "compare": self._compare,
        }

    # -- derivation --------------------------------------------------------------------------------------
    @classmethod
    def from_graph(cls, kg: KnowledgeGraph, min_support: int = 5, lexicon=None) -> ToolSet:
        """Derive tools for every relation/attribute with at least `min_support` facts (see module docstring); their
        descriptions say the relation with `lexicon` (kg2tool.synth.language.lexicon; derived from the graph when None)."""
        from ..language.lexicon import derive_lexicon

        lex = lexicon or derive_lexicon(kg)
        if not kg.relations:
            st = kg.stats
            raise NothingToDoError(
                f"the graph has no relation between named entities ({kg.summary()}): questions walk from one entity "
                f"to another; {st.blank_nodes_named} blank nodes were named by their content, {st.blank_value_nodes} read as "
                f"values of the node linking to them, and "
                f"{st.opaque_nodes_skipped} nodes without a name dropped: give those nodes IRIs and labels, or include "
                "predicates with --include-predicate"
            )
        taken: set[str] = set(OPERATORS)
        specs: list[ToolSpec] = []
        wordless_labels = []  # said by no word (an id): no question can ask with it until lexicon.yaml names it
        for rel in kg.relations.values():
            w = lex.relations[rel.iri]
            if wordless(w.noun or w.verb):
                wordless_labels.append(rel.label)
            elif rel.support >= min_support:
                specs.extend(_relation_tools(kg, rel, taken, w))
        for attr in kg.attributes.values():
            if wordless(lex.attributes[attr.iri].noun):
                wordless_labels.append(attr.label)
            elif attr.support >= min_support:
                specs.append(_attribute_tool(kg, attr, taken, lex.attributes[attr.iri]))
        if not specs or (wordless_labels and not any(spec.kind != "attribute" for spec in specs)):
            # no tool, or no relation to walk by because those there are named by ids alone
            supports = sorted(((r.support, r.label) for r in kg.relations.values()), reverse=True)[:5]
            best = ", ".join(f"{lab!r} ({n})" for n, lab in supports) or "none"
            ids = (f"; {len(wordless_labels)} relations and attributes are named by ids alone ({', '.join(map(repr, wordless_labels[:3]))}, ...): "
                   "name them in a lexicon (kg2tool lexicon --graph G --out lexicon.yaml, edit, then --lexicon)") if wordless_labels else ""
            raise NothingToDoError(
                f"no relation or attribute has at least {min_support} facts (--min-support) and words to say it; "
                f"the best supported relations are: {best}{ids}"
            )
        for name, schema in operator_schemas().items():
            specs.append(ToolSpec(name, "operator", name, schema))
        for s in specs:
            Draft202012Validator.check_schema(s.parameters)
            assert NAME_RE.match(s.name), s.name
        return cls(kg, specs)

    def schemas(self, names=None) -> list[dict]:
        """The tool schemas of `names` in that order (all tools when None)."""
        names = self.specs if names is None else names
        return [self.specs[n].schema for n in names]

    # -- execution ---------------------------------------------------------------------------------------
    def validate(self, name: str, arguments: dict) -> None:
        """Raise ToolError('schema', ...) naming the first schema violation."""
        if name not in self.specs:
            raise ToolError("unknown_tool", f"unknown tool {name!r}")
        if not isinstance(arguments, dict):
            raise ToolError("schema", f"{name}: arguments must be a JSON object, got {type(arguments).__name__}")
        if self.proven_valid[name](arguments):
            return
        err = next(iter(self.validators[name].iter_errors(arguments)), None)
        if err is not None:
            where = "/".join(str(p) for p in err.absolute_path) or "(arguments)"
            raise ToolError("schema", f"{name}: invalid argument {where}: {err.message}")

    def execute(self, name: str, arguments: dict, validate: bool = True):
        """Validate and run one call on the graph; returns a JSON-ready value or raises ToolError.

        `validate=False` skips the JSON Schema check, for callers that have just validated the same arguments
        (verification validates every call once; the trace compiler leaves it to verification)."""
        if validate:
            self.validate(name, arguments)
        elif name not in self.specs:
            raise ToolError("unknown_tool", f"unknown tool {name!r}")
        spec = self.specs[name]
        if spec.kind == "operator":
            return self._run[name](arguments)
        eid = self._resolve(spec, arguments[spec.arg])
        if spec.kind == "attribute":
            vals = self.kg.attributes[spec.target].values.get(eid, ())
            if not vals:
                raise ToolError(
                    "no_value", f"{name}: {self.kg.name(eid)!r} has no {self.kg.attributes[spec.target].label}"
                )
            return vals[0] if len(vals) == 1 else list(vals)
        rel = self.kg.relations[spec.target]
        ids = (rel.forward if spec.kind == "forward" else rel.inverse).get(eid, ())
        return self.names_of(ids)

    def _scope(self, spec: ToolSpec):
        """The entity ids a tool's argument is meant to name: the relation's domain (forward), range (inverse) or
        the attribute's subjects."""
        if spec.kind == "attribute":
            return self.kg.attributes[spec.target].values
        rel = self.kg.relations[spec.target]
        return rel.forward if spec.kind == "forward" else rel.inverse

    def _resolve(self, spec: ToolSpec, text: str) -> int:
        """The entity a tool's argument names. An exact display name wins; a label or spelling shared by several
        entities is resolved within the tool's domain/range first, and a name that still fits several entities
        raises ToolError('ambiguous') listing them; an unknown name raises ToolError('unknown_entity') with the
        closest names of the domain/range (`suggestions`)."""
        kg = self.kg
        eid = kg.resolve(text)
        if eid is not None and kg.name(eid) == text:
            return eid
        scope = self._scope(spec)
        cands = kg.ids_named(text)
        inside = [c for c in cands if c in scope]
        if len(inside) == 1:
            return inside[0]
        several = inside if len(inside) > 1 else (cands if len(cands) > 1 else [])
        if several:
            names = sorted(kg.name(c) for c in several)
            raise ToolError(
                "ambiguous",
                f"{spec.name}: {text!r} names several entities: {', '.join(map(repr, names))}; pass one of these names",
                tuple(names),
            )
        if eid is not None:
            return eid
        close = self._closest(spec, text)
        hint = f"; closest names: {', '.join(map(repr, close))}" if close else ""
        raise ToolError("unknown_entity", f"{spec.name}: no entity named {text!r} in the graph{hint}", tuple(close))

    def _closest(self, spec: ToolSpec, text: str) -> tuple[str, ...]:
        """`difflib.get_close_matches` of `text` among the names of the tool's domain/range (the first SUGGEST_POOL
        entities), with each tool's names set up once (kg2tool.common.closenames: the same answers). The last few
        answers are kept: synthesis, verification and the DPO judge meet one misspelling in turn."""
        key = (spec.name, text)
        if key not in self._recent:
            close = self._close.pop(spec.name, None)  # least recently used first, at most 64 tools
            if close is None:
                scope = itertools.islice(self._scope(spec), SUGGEST_POOL)
                close = CloseNames(sorted({self.kg.name(i) for i in scope}))
            while len(self._close) >= 64:
                del self._close[next(iter(self._close))]
            self._close[spec.name] = close
            self._recent[key] = tuple(close.match(text, n=SUGGEST_MAX, cutoff=0.6))
            while len(self._recent) > 8:
                del self._recent[next(iter(self._recent))]
        return self._recent[key]

    def names_of(self, ids) -> list[str]:
        """The display names of entity ids, sorted."""
        return sorted(self.kg.name(i) for i in ids)

    def _intersection(self, args: dict) -> list[str]:
        sets = [set(s) for s in args["sets"]]
        return sorted(set.intersection(*sets))

    def _union(self, args: dict) -> list[str]:
        return sorted(set().union(*args["sets"]))

    def _difference(self, args: dict) -> list[str]:
        return sorted(set(args["include"]) - set(args["exclude"]))

    def _count(self, args: dict) -> int:
        return len(set(args["items"]))

    def _compare(self, args: dict) -> str:
        items = args["items"]
        kinds = {type(it["value"]) is str for it in items}
        if len(kinds) > 1:
            raise ToolError("schema", "compare: values must be all numbers or all dates")
        pick = max if args["mode"] == "max" else min
        best = pick(it["value"] for it in items)
        winners = sorted({it["name"] for it in items if it["value"] == best})
        if len(winners) > 1:
            raise ToolError("tie", f"compare: tie between {', '.join(winners)}")
        return winners[0]


def _says(w) -> tuple[str, str]:
    """(forward, inverse) descriptions of a relation from its lexicon wording: `Get the places of birth of a person.`,
    `Find the people whose place of birth is the given place.`"""
    from ..language.lexicon import article, needs_be, plural

    subj, obj = w.subject, w.object
    a_subj, subjs = article(subj), plural(subj)
    who = "who" if obj == "person" else "what"
    if w.form == "noun":
        fwd = f"Get the {w.plural if w.multi else w.noun} of {a_subj}."
        inv = f"Find the {subjs} whose {w.noun} is the given {obj}."
    elif w.form == "by":
        fwd = f"Get {who} {w.active} {a_subj}."
        inv = f"Find the {subjs} {w.verb} the given {obj}."
    elif w.form == "verb":
        fwd = f"Get {who} {a_subj} {w.verb}."
        inv = f"Find the {subjs} that {w.verbs} the given {obj}."
    else:
        fwd = f"Get {who} {a_subj} is {w.verb}."
        inv = f"Find the {subjs} {'that are ' + w.verbs if needs_be(w) else w.verb} the given {obj}."
    return fwd, inv


def _relation_tools(kg: KnowledgeGraph, rel: Relation, taken: set[str], wording) -> list[ToolSpec]:
    local = rel.iri.rstrip("/#").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    desc = _sentence(rel.description)
    subj_t = _type_hint(kg, rel.forward) or wording.subject
    obj_t = _type_hint(kg, rel.inverse) or wording.object
    says_fwd, says_inv = _says(wording)
    fwd = _unique_name(rel.label, local, taken, "get_")
    entity = {"type": "string", "minLength": 1, "description": f"Name of the {subj_t or 'entity'} to look up."}
    if len(rel.forward) <= ENUM_MAX:
        entity["enum"] = sorted(kg.name(i) for i in rel.forward)
    forward = tool_schema(
        fwd,
        f"{says_fwd} {desc} Returns a list of names.".replace("  ", " "),
        {"entity": entity},
        ["entity"],
    )
    inv = _unique_name(rel.label, local, taken, "find_by_")
    value = {
        "type": "string",
        "minLength": 1,
        "description": f"Name of the {obj_t or 'entity'} to look up.",
    }
    if len(rel.inverse) <= ENUM_MAX:
        value["enum"] = sorted(kg.name(i) for i in rel.inverse)
    inverse = tool_schema(
        inv,
        f"{says_inv} {desc} Returns a list of names.".replace("  ", " "),
        {"value": value},
        ["value"],
    )
    return [ToolSpec(fwd, "forward", rel.iri, forward), ToolSpec(inv, "inverse", rel.iri, inverse)]


def _attribute_tool(kg: KnowledgeGraph, attr: Attribute, taken: set[str], wording) -> ToolSpec:
    local = attr.iri.rstrip("/#").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    name = _unique_name(attr.label, local, taken, "get_")
    subj_t = _type_hint(kg, attr.values) or wording.subject
    entity = {"type": "string", "minLength": 1, "description": f"Name of the {subj_t or 'entity'} to look up."}
    returns = {"integer": "an integer", "number": "a number", "date": "an ISO 8601 date",
               "datetime": "an ISO 8601 date-time", "boolean": "true or false", "string": "text"}[attr.kind]  # fmt: skip
    schema = tool_schema(
        name,
        f"Get the {wording.noun} of a{'n' if (subj_t or 'entity')[0] in 'aeiou' else ''} {subj_t or 'entity'}. "
        f"{_sentence(attr.description)} Returns {returns}.".replace("  ", " "),
        {"entity": entity},
        ["entity"],
    )
    return ToolSpec(name, "attribute", attr.iri, schema)


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(v, ensure_ascii=False), made once


def result_json(value) -> str:
    """The content of a tool message: the executor's result as compact JSON (UTF-8 kept)."""
    return _ENCODE(value)


def error_json(exc: ToolError) -> str:
    """The content of a tool message for a failed call: `{"error": message}`, what a model sees."""
    return _ENCODE({"error": str(exc)})
