"""The chat format of kg2tool models: a Hermes/Qwen2.5-style template with `{% generation %}` markers, and its parser.

Design choices:
- Wire format (the one Qwen2.5 and vLLM's `hermes` tool parser use), so a trained checkpoint can be served by
  vLLM with `--tool-call-parser hermes` and scored by the eval stage without a custom parser:

      <|im_start|>system
      # Tools
      <tools>
      {"type": "function", "function": {...}}
      </tools>
      ...<|im_end|>
      <|im_start|>user
      Where was Giorgio Gaber born?<|im_end|>
      <|im_start|>assistant
      <tool_call>
      {"name": "place_of_birth", "arguments": {"entity": "Giorgio Gaber"}}
      </tool_call><|im_end|>
      <|im_start|>user
      <tool_response>
      ["Milan"]
      </tool_response><|im_end|>
      <|im_start|>assistant
      Giorgio Gaber was born in Milan.<|im_end|>

  Several calls in one turn are several `<tool_call>` blocks; consecutive tool messages share one user turn,
  one `<tool_response>` block each, in call order.
- Every character the assistant produces (content, tool calls, the closing `<|im_end|>` and its newline) lies
  between `{% generation %}` and `{% endgeneration %}`, so TRL's assistant-only loss trains the stop token too.
  The template uses `{{- ... }}` / `{%- ... %}` throughout, so Jinja's trim_blocks cannot eat a newline (it eats
  the one after `{% endgeneration %}`). The rendering is prefix-preserving: earlier turns render the same whatever follows them.
- An assistant message with `"weight": 0` (the OpenAI fine-tuning convention; error-recovery rows mark a call that is
  wrong on purpose this way) renders the same text outside the markers, so assistant-only loss does not train it.
- `tools` and tool-call `arguments` may be dicts or JSON strings (datasets may store them as strings to avoid
  Arrow's merging of nested keys across rows, which adds null arguments); strings are emitted verbatim, dicts
  with `tojson`.
- No default system prompt: a from-scratch model gains nothing from boilerplate, and every token costs CPU time.
- `parse_tool_calls` is pure Python (no torch), so the eval stage can import it.
"""

from __future__ import annotations

import json
import re
from typing import Any

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
END_OF_TEXT = "<|endoftext|>"
# Special tokens: never split, never produced by BPE merges. `<|endoftext|>` separates pretraining documents
# and pads; `<|im_end|>` ends a turn (the model's eos during chat generation).
SPECIAL_TOKENS = [END_OF_TEXT, IM_START, IM_END]
# Structural markers: single tokens (added tokens), but decoded as text so a completion can be parsed.
MARKUP_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<tools>", "</tools>"]

TOOLS_HEADER = (
    "# Tools\n\nYou may call one or more functions to answer the user query. "
    "Function signatures are within <tools></tools> tags:\n<tools>"
)
TOOLS_FOOTER = (
    "\n</tools>\n\nFor each function call, return a JSON object with the function name and arguments within "
    '<tool_call></tool_call> tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n'
    "</tool_call>"
)

CHAT_TEMPLATE = """{#- kg2tool chat template (Hermes / Qwen2.5 tool-call format) with generation markers. -#}
{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\\n\\n' }}
    {%- endif %}
    {{- TOOLS_HEADER }}
    {%- for tool in tools %}
        {{- '\\n' }}
        {%- if tool is string %}{{- tool }}{%- else %}{{- tool | tojson }}{%- endif %}
    {%- endfor %}
    {{- TOOLS_FOOTER + '<|im_end|>\\n' }}
{%- elif messages[0].role == 'system' %}
    {{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
{%- endif %}
{%- for message in messages %}
    {%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}
    {%- elif message.role == 'assistant' %}
        {{- '<|im_start|>assistant\\n' }}
        {%- set turn %}
        {%- if message.content %}
            {{- message.content }}
        {%- endif %}
        {%- if message.tool_calls %}
            {%- for tool_call in message.tool_calls %}
                {%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}
                {%- if message.content or not loop.first %}{{- '\\n' }}{%- endif %}
                {{- '<tool_call>\\n{"name": "' + tool_call.name + '", "arguments": ' }}
                {%- if tool_call.arguments is string %}
                    {{- tool_call.arguments }}
                {%- else %}
                    {{- tool_call.arguments | tojson }}
                {%- endif %}
                {{- '}\\n</tool_call>' }}
            {%- endfor %}
        {%- endif %}
        {{- '<|im_end|>\\n' }}
        {%- endset %}
        {%- if message.weight is defined and message.weight == 0 %}
            {{- turn }}
        {%- else %}
            {%- generation %}{{- turn }}{%- endgeneration %}
        {%- endif %}
    {%- elif message.role == 'tool' %}
        {%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' + message.content + '\\n</tool_response>' }}
        {%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
""".replace("TOOLS_HEADER", json.dumps(TOOLS_HEADER)).replace("TOOLS_FOOTER", json.dumps(TOOLS_FOOTER))

# The compact tool listing: one line per tool, `name(param: type, opt?: type in [a, b]): first sentence of the
# description`. A tiny model trained from scratch reads ~100 prompt tokens instead of ~900 (the JSON schemas of a
# row's tools), so its prompts fit the pretraining block length and a CPU step costs several times less; the call
# format is the same Hermes one. Tools given as JSON strings are listed verbatim.
COMPACT_TOOLS_HEADER = "# Tools\n<tools>"
COMPACT_TOOLS_FOOTER = (
    '\n</tools>\nCall tools as <tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
_COMPACT_TOOLS = """{%- for tool in tools %}
        {{- '\\n' }}
        {%- if tool is string %}{{- tool }}{%- else %}
            {%- set f = tool.function if tool.function is defined else tool %}
            {%- set params = f.parameters if f.parameters is defined and f.parameters else {} %}
            {%- set required = params.required if params.required is defined else [] %}
            {{- f.name + '(' }}
            {%- for pname, p in (params.properties if params.properties is defined else {}).items() %}
                {{- pname }}{%- if pname not in required %}{{- '?' }}{%- endif %}
                {{- ': ' + (p.type if p.type is defined and p.type is string else 'any') }}
                {%- if p.enum is defined %}{{- ' in [' + p.enum | map('string') | join(', ') + ']' }}{%- endif %}
                {%- if not loop.last %}{{- ', ' }}{%- endif %}
            {%- endfor %}
            {{- ')' }}
            {%- if f.description %}{{- ': ' + f.description.split('. ')[0].rstrip('.') }}{%- endif %}
        {%- endif %}
    {%- endfor %}"""
_FULL_TOOLS = """{%- for tool in tools %}
        {{- '\\n' }}
        {%- if tool is string %}{{- tool }}{%- else %}{{- tool | tojson }}{%- endif %}
    {%- endfor %}"""
COMPACT_CHAT_TEMPLATE = (
    CHAT_TEMPLATE.replace("Hermes / Qwen2.5 tool-call format", "Hermes tool calls, compact tool listing")
    .replace(_FULL_TOOLS, _COMPACT_TOOLS)
    .replace(json.dumps(TOOLS_HEADER), json.dumps(COMPACT_TOOLS_HEADER))
    .replace(json.dumps(TOOLS_FOOTER), json.dumps(COMPACT_TOOLS_FOOTER))
)
assert COMPACT_CHAT_TEMPLATE.count("COMPACT") == 0 and _COMPACT_TOOLS in COMPACT_CHAT_TEMPLATE
# Signatures only (`name(param: type in [a, b])`, no description): the shortest listing (~90-token prompts on the
# bundled graph). Shorter CPU steps, not better learning: tiny models learned the function choice no better with it
# than with the compact listing (docs/research/learning-effect.md, session 4).
_DESCRIPTION = (
    "\n            {%- if f.description %}{{- ': ' + f.description.split('. ')[0].rstrip('.') }}{%- endif %}"
)
assert _DESCRIPTION in _COMPACT_TOOLS
SIGNATURES_CHAT_TEMPLATE = COMPACT_CHAT_TEMPLATE.replace(_DESCRIPTION, "").replace(
    "compact tool listing", "tool signatures only"
)
TEMPLATES = {"full": CHAT_TEMPLATE, "compact": COMPACT_CHAT_TEMPLATE, "signatures": SIGNATURES_CHAT_TEMPLATE}

_TOOL_CALL_RE = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)


def parse_tool_calls(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Parse an assistant completion into tool calls.

    Input: the generated text (special tokens may or may not have been stripped).
    Output: `(calls, errors)`: `calls` is a list of `{"name": str, "arguments": dict}` in emission order, one per
    well-formed `<tool_call>` block; `errors` has one message per malformed block (bad JSON, missing name, or
    arguments that are not an object). No `<tool_call>` block at all means a plain-text answer: `([], [])`.
    """
    calls: list[dict[str, Any]] = []
    errors: list[str] = []
    for raw in _TOOL_CALL_RE.findall(text):
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            errors.append(f"invalid JSON in <tool_call>: {exc.msg}")
            continue
        except RecursionError:  # absurdly nested output: malformed, not a crash of the eval run
            errors.append("invalid JSON in <tool_call>: nested too deeply")
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
            errors.append("a <tool_call> object needs a string 'name'")
            continue
        args = obj.get("arguments", {})
        if isinstance(args, str):  # some models double-encode
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                errors.append(f"arguments of {obj['name']!r} are a string that is not JSON")
                continue
        if not isinstance(args, dict):
            errors.append(f"arguments of {obj['name']!r} are not a JSON object")
            continue
        calls.append({"name": obj["name"], "arguments": args})
    if "<tool_call>" in text and text.count("<tool_call>") != text.count("</tool_call>"):
        errors.append("unterminated <tool_call> block")
    return calls, errors


def normalize_row(messages: list[dict[str, Any]], tools: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Decode JSON-string `tools` and tool-call `arguments` into objects (other fields untouched, inputs not mutated).

    Input: a synth row's `messages` and `tools` (a list of dicts, a JSON string, or None).
    Output: `(messages, tools)` ready for `apply_chat_template`.
    """
    if isinstance(tools, str):
        tools = json.loads(tools) if tools.strip() else []
    tools = [json.loads(t) if isinstance(t, str) else t for t in (tools or [])]
    out = []
    for message in messages:
        calls = message.get("tool_calls")
        if calls:
            message = dict(message)
            message["tool_calls"] = [_normalize_call(c) for c in calls]
        out.append(message)
    return out, tools


def _normalize_call(call: dict[str, Any]) -> dict[str, Any]:
    fn = call.get("function", call)
    args = fn.get("arguments", {})
    if isinstance(args, str):
        args = json.loads(args) if args.strip() else {}
    return (
        {**call, "type": "function", "function": {**fn, "arguments": args}}
        if "function" in call
        else {
            **call,
            "arguments": args,
        }
    )
