"""Tool-call parsers of `kg2tool eval`: Hermes, JSON and Python-style calls; model output is parsed, never run."""

from __future__ import annotations

import pytest

from kg2tool.common.errors import UsageError
from kg2tool.llm.parsers import (
    PARSERS,
    get_parser,
    parse_hermes,
    parse_json,
    parse_python,
    render_calls,
    to_decoded,
)

CALLS = [
    {"name": "get_place_of_birth", "arguments": {"entity": "Giorgio Gaber"}},
    {"name": "intersection", "arguments": {"sets": [["Milan", "Rome"], ["Milan"]]}},
    {"name": "compare", "arguments": {"values": [{"name": "Élodie", "value": 1.5}], "mode": "largest", "x": None}},
    {"name": "flags", "arguments": {"on": True, "off": False, "n": 3, "quote": 'it\'s "quoted"\nnewline'}},
]


@pytest.mark.parametrize("parser", PARSERS)
def test_render_then_parse_round_trips(parser):
    parse = get_parser(parser)
    for calls in (CALLS[:1], CALLS):
        parsed = parse(render_calls(calls, parser))
        assert parsed.errors == []
        assert parsed.calls == calls
    assert to_decoded(CALLS[:1]) == [{"get_place_of_birth": {"entity": "Giorgio Gaber"}}]


@pytest.mark.parametrize("parser", PARSERS)
def test_plain_text_is_an_answer_without_calls(parser):
    parsed = get_parser(parser)("Giorgio Gaber was born in Milan (Italy).")
    assert parsed.calls == [] and parsed.errors == []
    assert parsed.text == "Giorgio Gaber was born in Milan (Italy)."


def test_hermes_uses_the_training_parser_and_keeps_surrounding_text():
    text = 'Let me look.\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    parsed = parse_hermes(text)
    assert parsed.calls == [{"name": "f", "arguments": {"a": 1}}] and parsed.text == "Let me look."
    bad = parse_hermes('<tool_call>\n{"name": "f", "arguments": [1]}\n</tool_call>\n<tool_call>{"name": "g"')
    assert bad.calls == [] and len(bad.errors) == 2  # arguments not an object; unterminated block
    double = parse_hermes('<tool_call>{"name": "f", "arguments": "{\\"a\\": 2}"}</tool_call>')
    assert double.calls == [{"name": "f", "arguments": {"a": 2}}]


def test_json_parser_accepts_objects_lists_fences_and_parameters():
    assert parse_json('{"name": "f", "arguments": {"a": 1}}').calls == [{"name": "f", "arguments": {"a": 1}}]
    fenced = '```json\n[{"name": "f", "parameters": {"a": 1}}, {"name": "g", "arguments": "{}"}]\n```'
    assert parse_json(fenced).calls == [{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {}}]
    assert parse_json("[1, 2").errors and not parse_json("[1, 2").calls
    mixed = parse_json('[{"name": "f", "arguments": {}}, {"arguments": {}}]')
    assert mixed.calls == [{"name": "f", "arguments": {}}] and len(mixed.errors) == 1


def test_python_parser_reads_literals_and_dotted_names():
    parsed = parse_python("[math.hypot(x=3, y=4.5), f(s='a', l=[1, (2, 3)], d={'k': None}, b=True, n=-2)]")
    assert parsed.errors == []
    assert parsed.calls == [
        {"name": "math.hypot", "arguments": {"x": 3, "y": 4.5}},
        {"name": "f", "arguments": {"s": "a", "l": [1, [2, 3]], "d": {"k": None}, "b": True, "n": -2}},
    ]
    assert parse_python("```python\nf(a=1)\n```").calls == [{"name": "f", "arguments": {"a": 1}}]


@pytest.mark.parametrize(
    "text",
    [
        "f(1)",  # positional
        "f(**{'a': 1})",  # **kwargs
        "f(a=g(1))",  # a call as a value
        "f(a=x)",  # a name as a value
        "f(a=1 + 2)",  # arithmetic is not a literal
        "f(a={1, 2})",  # a set is not JSON
        "f(a=b'x')",  # bytes
        "f(a=1",  # syntax error
        "f(a=1) or g(b=2)",
        "f(a=lambda: 1)",
    ],
)
def test_python_parser_rejects_what_is_not_a_literal_call(text):
    parsed = parse_python(text)
    assert parsed.calls == [] and len(parsed.errors) == 1


@pytest.mark.parametrize(
    "template",
    [
        "__import__('os').system('touch {path}')",
        "[__import__('os').system('touch {path}')]",
        "f(a=__import__('os').system('touch {path}'))",
        "open(file='{path}', mode='w').write('x')",
        "exec(code=\"open('{path}', 'w')\")",
        "f(a=[x for x in __import__('os').system('touch {path}')])",
    ],
)
def test_python_output_is_parsed_never_run(template, tmp_path):
    path = tmp_path / "pwned"
    parsed = parse_python(template.format(path=path))
    assert not path.exists()
    if parsed.calls:  # a well-formed literal call is only data: `exec(code="...")` names a function, runs nothing
        assert parsed.calls == [{"name": "exec", "arguments": {"code": f"open('{path}', 'w')"}}]
    else:
        assert len(parsed.errors) == 1 and parsed.errors[0].startswith("unparseable Python call")


def test_deeply_nested_output_is_an_error_not_a_crash():
    assert parse_python("f(a=" + "[" * 100_000 + "]" * 100_000 + ")").errors
    assert parse_json("[" * 100_000 + "]" * 100_000).errors


def test_unknown_parser_is_a_usage_error():
    with pytest.raises(UsageError):
        get_parser("xml")
    with pytest.raises(UsageError):
        render_calls(CALLS, "xml")
