"""Tool-call parsers for model output: Hermes ``<tool_call>`` JSON, bare JSON, and Python-style calls.

Every parser maps a completion's text to a ``Parsed``: the calls (``{"name": str, "arguments": dict}`` in emission
order), one message per malformed call, and the text outside the calls. A completion with no call-like content is
a plain-text answer: no calls, no errors.

* ``hermes``: ``<tool_call>{"name": .., "arguments": {..}}</tool_call>`` blocks, the format of kg2tool's chat
  template (and Qwen2.5's, and vLLM's ``hermes`` tool parser). Parsing is ``kg2tool.llm.chat_format``'s
  ``parse_tool_calls``, the same function the training stage tests its template with.
* ``json``: the whole completion (code fences allowed) is one JSON object ``{"name", "arguments"}`` or a list of
  them (``parameters`` is accepted for ``arguments``, as Llama 3 writes it). Text that does not start with ``{``
  or ``[`` is a plain answer.
* ``python``: ``fn(a="x", b=[1])`` or a list ``[f(a=1), g.h(b=2)]``, BFCL's prompting format. The text is parsed
  with ``ast.parse`` and each *argument node* is read with ``ast.literal_eval``; nothing is ever evaluated, so
  ``__import__('os').system(...)`` is an unparseable call, not a command. Positional arguments, ``**kwargs`` and
  non-literal values are errors. Text that does not start like a call (``name(``) is a plain answer.

``render_calls`` writes calls in each format (the ``gold`` reference model speaks through it, so its output goes
through the same parser as a real model's), and ``to_decoded`` turns calls into BFCL's decoded form.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..common.errors import UsageError
from .chat_format import parse_tool_calls

PARSERS = ("hermes", "json", "python")


@dataclass
class Parsed:
    """What a completion says: calls ``[{"name", "arguments"}]``, parse errors, and its text outside the calls."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    text: str = ""


_FENCE_RE = re.compile(r"^```[\w-]*\s*\n?(.*?)\n?```$", re.DOTALL)
_HERMES_BLOCK_RE = re.compile(r"<tool_call>.*?(</tool_call>|$)", re.DOTALL)


def _strip_fence(text: str) -> str:
    text = text.strip()
    match = _FENCE_RE.match(text)
    return match.group(1).strip() if match else text


def parse_hermes(text: str) -> Parsed:
    """Calls from Hermes `<tool_call>{json}</tool_call>` blocks; the text around them is the answer text."""
    calls, errors = parse_tool_calls(text)
    return Parsed(calls, errors, _HERMES_BLOCK_RE.sub("", text).strip())


def _json_call(obj: Any) -> tuple[dict | None, str | None]:
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return None, "a call must be a JSON object with a string 'name'"
    args = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(args, str):  # double-encoded, as in OpenAI's wire format
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            return None, f"arguments of {obj['name']!r} are a string that is not JSON"
    if not isinstance(args, dict):
        return None, f"arguments of {obj['name']!r} are not a JSON object"
    return {"name": obj["name"], "arguments": args}, None


def parse_json(text: str) -> Parsed:
    """Calls from a JSON object or list of `{"name", "arguments"}` (a code fence allowed); other text is an answer."""
    body = _strip_fence(text)
    if not body.startswith(("{", "[")):
        return Parsed(text=text.strip())
    try:
        value = json.loads(body)
    except (json.JSONDecodeError, RecursionError) as exc:
        return Parsed(errors=[f"invalid JSON: {getattr(exc, 'msg', exc)}"])
    items = value if isinstance(value, list) else [value]
    parsed = Parsed()
    for item in items:
        call, error = _json_call(item)
        if call is None:
            parsed.errors.append(error)
        else:
            parsed.calls.append(call)
    return parsed


_PY_CALL_START_RE = re.compile(r"^\[?\s*[A-Za-z_][\w.]*\(")


def _dotted_name(node: ast.AST) -> str | None:
    """``f`` or ``a.b.c`` from a call's func node; None for anything else (calls, subscripts, lambdas...)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _json_ready(value: Any) -> Any:
    """A literal as JSON data: tuples become lists; sets, bytes, complex numbers and non-string keys are refused."""
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise ValueError("dict keys must be strings")
        return {k: _json_ready(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise ValueError(f"{type(value).__name__} is not a JSON value")


def _python_call(node: ast.AST) -> dict:
    if not isinstance(node, ast.Call):
        raise ValueError("not a function call")
    name = _dotted_name(node.func)
    if name is None:
        raise ValueError("the called object is not a plain (dotted) name")
    if node.args:
        raise ValueError(f"{name}: positional arguments are not allowed")
    args = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise ValueError(f"{name}: **kwargs are not allowed")
        # literal_eval on the argument node alone: only literals (strings, numbers, lists, dicts, True/None...)
        args[keyword.arg] = _json_ready(ast.literal_eval(keyword.value))
    return {"name": name, "arguments": args}


def parse_python(text: str) -> Parsed:
    """Calls from Python call syntax, `[f(a=1), g(b="x")]` or one bare call; other text is an answer."""
    body = _strip_fence(text)
    if not _PY_CALL_START_RE.match(body):
        return Parsed(text=text.strip())
    if not body.startswith("["):
        body = f"[{body}]"
    try:
        tree = ast.parse(body, mode="eval")
        if not isinstance(tree.body, (ast.List, ast.Tuple)):
            raise ValueError("not a list of calls")
        calls = [_python_call(node) for node in tree.body.elts]
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError) as exc:
        return Parsed(errors=[f"unparseable Python call: {type(exc).__name__}: {exc}"[:300]])
    return Parsed(calls=calls)


_PARSE = {"hermes": parse_hermes, "json": parse_json, "python": parse_python}


def get_parser(name: str):
    """The parse function for a ``--parser`` name."""
    try:
        return _PARSE[name]
    except KeyError:
        raise UsageError(f"unknown parser {name!r}; choose one of {', '.join(PARSERS)}") from None


# ---------------------------------------------------------------------------------------------- rendering


def _py_literal(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float, str)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py_literal(k)}: {_py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} as a Python literal")


def render_calls(calls: list[dict], parser: str) -> str:
    """Calls ``[{"name", "arguments"}]`` as a completion in ``parser``'s format (the inverse of parsing)."""
    if parser == "hermes":
        return "\n".join(
            '<tool_call>\n{"name": '
            + json.dumps(c["name"], ensure_ascii=False)
            + ', "arguments": '
            + json.dumps(c["arguments"], ensure_ascii=False)
            + "}\n</tool_call>"
            for c in calls
        )
    if parser == "json":
        return json.dumps([{"name": c["name"], "arguments": c["arguments"]} for c in calls], ensure_ascii=False)
    if parser == "python":
        inner = ", ".join(
            f"{c['name']}(" + ", ".join(f"{k}={_py_literal(v)}" for k, v in c["arguments"].items()) + ")"
            for c in calls
        )
        return f"[{inner}]"
    raise UsageError(f"unknown parser {parser!r}; choose one of {', '.join(PARSERS)}")


def to_decoded(calls: list[dict]) -> list[dict]:
    """BFCL's decoded form ``[{name: {arg: value}}]`` of parsed calls."""
    return [{c["name"]: c["arguments"]} for c in calls]
