"""Backends and the executable loop of `kg2tool eval`, on the small test graph.

The OpenAI-compatible backend talks to a tiny HTTP server started here on 127.0.0.1 that answers chat-completions
requests from a script: it stands in for the network and the model, and records what it was sent.
"""

from __future__ import annotations

import json
import sys

import pytest
from chat_server import ChatServer

from kg2tool.common.errors import MissingExtraError
from kg2tool.evaluation.execution import ExecTask, check_tools_match, run_exec, task_from_row
from kg2tool.llm.backends import (
    EndpointError,
    GoldModel,
    NoCallModel,
    OpenAIBackend,
    VllmBackend,
    make_backend,
    to_wire_messages,
)
from kg2tool.llm.parsers import get_parser
from kg2tool.synth.tools.toolset import ToolError, ToolSet, error_json


@pytest.fixture(scope="module")
def ts(small_kg):
    return ToolSet.from_graph(small_kg)


def make_task(ts, question="What is the country of the place of birth of Person 3?", answers=("Atlantis",), **kw):
    names = kw.pop("tools", ["get_place_of_birth", "get_country", "get_residence"])
    return ExecTask(
        id=kw.pop("id", "t1"),
        category=kw.pop("category", "multi_step"),
        pattern=kw.pop("pattern", "2p"),
        tools=ts.schemas(names),
        prefix=[{"role": "user", "content": question}],
        later_user=kw.pop("later_user", []),
        answers=list(answers),
        gold_turns=kw.pop("gold_turns", []),
    )



def tool_call(i, name, args):
    return {"id": f"srv_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def two_hop_agent(body):
    """Calls place of birth, then country of the result, then answers with the last result."""
    messages = body["messages"]
    results = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
    if not results:
        return {"tool_calls": [tool_call(1, "get_place_of_birth", {"entity": "Person 3"})]}
    if len(results) == 1:
        return {"tool_calls": [tool_call(2, "get_country", {"entity": results[0][0]})]}
    return {"content": f"It is {results[-1][0]}."}


SDK = [False] + ([True] if __import__("importlib").util.find_spec("openai") else [])


@pytest.mark.parametrize("use_sdk", SDK, ids=lambda s: "openai-sdk" if s else "urllib")
def test_openai_backend_runs_the_loop_and_sends_wire_format(ts, use_sdk, monkeypatch):
    monkeypatch.setenv("KG2TOOL_TEST_KEY", "sk-test")
    with ChatServer(two_hop_agent) as server:
        backend = OpenAIBackend(
            "served", server.url, api_key_env="KG2TOOL_TEST_KEY", use_sdk=use_sdk, max_new_tokens=64
        )
        backend.load()
        [row] = run_exec([make_task(ts)], backend, get_parser("hermes"), ts)
    assert row["correct"] and row["calls_valid"] and row["within_gold_steps"] is False  # no gold turns given
    assert (row["steps"], row["calls"], row["stop"], row["final"]) == (2, 2, "answer", "It is Atlantis.")
    assert [c["result"] for t in row["turns"] for c in t.get("calls", [])] == ['["City 3"]', '["Atlantis"]']
    first, last = server.requests[0], server.requests[-1]
    assert first["model"] == "served" and first["temperature"] == 0 and first["max_tokens"] == 64
    assert [t["function"]["name"] for t in first["tools"]] == ["get_place_of_birth", "get_country", "get_residence"]
    assert server.headers[0]["authorization"] == "Bearer sk-test"
    # the conversation comes back in OpenAI's wire format: string arguments, tool messages by id, no name
    assistant, tool = last["messages"][1], last["messages"][2]
    assert assistant["tool_calls"][0]["function"] == {
        "name": "get_place_of_birth",
        "arguments": '{"entity": "Person 3"}',
    }
    assert tool == {"role": "tool", "tool_call_id": assistant["tool_calls"][0]["id"], "content": '["City 3"]'}


def test_text_tool_calls_are_parsed_and_errors_fed_back_as_synth_writes_them(ts):
    calls = [
        '<tool_call>\n{"name": "get_population", "arguments": {"entity": "City 3"}}\n</tool_call>',  # not offered
        '<tool_call>\n{"name": "get_place_of_birth", "arguments": {"name": "Person 3"}}\n</tool_call>',  # schema
        '<tool_call>\n{"name": "get_place_of_birth", "arguments": {"entity": "Nobody"}}\n</tool_call>',  # executor
        '<tool_call>\n{"name": "get_place_of_birth", "arguments": {"entity": "Person 3"}}\n</tool_call>',
    ]

    def agent(body):
        if body["messages"][-1]["role"] == "user":
            return {"content": "\n".join(calls)}  # a server without a tool parser: calls stay in the text
        return {"content": "Born in City 3, Atlantis."}

    with ChatServer(agent) as server:
        backend = OpenAIBackend("served", server.url, use_sdk=False)
        backend.load()
        [row] = run_exec([make_task(ts)], backend, get_parser("hermes"), ts)
    assert row["correct"] and not row["calls_valid"]
    assert (row["calls"], row["invalid_calls"], row["execution_errors"], row["steps"]) == (4, 2, 1, 1)
    tool_messages = [m for m in server.requests[-1]["messages"] if m["role"] == "tool"]
    with pytest.raises(ToolError) as schema_error:
        ts.execute("get_place_of_birth", {"name": "Person 3"})
    with pytest.raises(ToolError) as entity_error:
        ts.execute("get_place_of_birth", {"entity": "Nobody"})
    assert tool_messages[1]["content"] == error_json(schema_error.value)
    assert tool_messages[2]["content"] == error_json(entity_error.value)
    assert json.loads(tool_messages[0]["content"])["error"].startswith("unknown tool 'get_population'")
    assert tool_messages[3]["content"] == '["City 3"]'
    assert "authorization" not in server.headers[0]


def test_multi_turn_rows_replay_later_user_messages(ts):
    def agent(body):
        last = body["messages"][-1]
        if last["role"] == "user" and "which" in last["content"]:
            return {"content": "Which person do you mean?"}
        if last["role"] == "user":
            return {"tool_calls": [tool_call(1, "get_place_of_birth", {"entity": "Person 3"})]}
        return {"content": "City 3."}

    task = make_task(
        ts,
        "I need the place of birth, which one?",
        ["City 3"],
        category="multi_turn",
        later_user=[{"role": "user", "content": "The one called Person 3."}],
    )
    with ChatServer(agent) as server:
        backend = OpenAIBackend("served", server.url, use_sdk=False)
        backend.load()
        [row] = run_exec([task], backend, get_parser("hermes"), ts)
    assert row["correct"] and row["steps"] == 1
    assert [m["role"] for m in server.requests[-1]["messages"]] == ["user", "assistant", "user", "assistant", "tool"]
    assert server.requests[1]["messages"][1] == {"role": "assistant", "content": "Which person do you mean?"}


def test_loop_stops_at_max_steps(ts):
    with ChatServer(lambda body: {"tool_calls": [tool_call(1, "get_residence", {"entity": "Person 1"})]}) as server:
        backend = OpenAIBackend("served", server.url, use_sdk=False)
        backend.load()
        [row] = run_exec([make_task(ts)], backend, get_parser("hermes"), ts, max_steps=3)
    assert (row["stop"], row["steps"], row["correct"], row["final"]) == ("max_steps", 3, False, None)
    assert len(server.requests) == 4 and row["turns"][-1]["executed"] is False


@pytest.mark.parametrize("use_sdk", SDK, ids=lambda s: "openai-sdk" if s else "urllib")
def test_endpoint_errors_are_input_errors(ts, use_sdk):
    with ChatServer(two_hop_agent, status=400) as server:
        backend = OpenAIBackend("served", server.url, use_sdk=use_sdk, retries=0)
        backend.load()
        with pytest.raises(EndpointError) as err:
            backend.generate([[{"role": "user", "content": "hi"}]], [[]])
    assert err.value.exit_code == 3 and "400" in str(err.value)
    dead = OpenAIBackend("served", "http://127.0.0.1:9/v1", use_sdk=False, retries=0, timeout=5)
    dead.load()
    with pytest.raises(EndpointError, match="cannot reach"):
        dead.generate([[{"role": "user", "content": "hi"}]], [[]])


def test_vllm_backend_missing_is_a_clean_missing_extra_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "vllm", None)  # `import vllm` now raises ImportError, installed or not
    with pytest.raises(MissingExtraError, match=r"kg2tool\[vllm\]") as err:
        VllmBackend("some/model").load()
    assert err.value.exit_code == 5
    with pytest.raises(MissingExtraError):
        make_backend("some/model", "vllm").load()


def test_reference_models_and_wire_conversion(ts):
    task = task_from_row(
        {
            "id": "r1",
            "category": "multi_step",
            "pattern": "error_recovery",
            "answers": ["City 3"],
            "tools": ts.schemas(["get_place_of_birth"]),
            "messages": [
                {"role": "user", "content": "Where was Person 3 born?"},
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [tool_call(1, "get_place_of_birth", {"name": "x"})],
                },
                {"role": "tool", "tool_call_id": "srv_1", "name": "get_place_of_birth", "content": '{"error": "bad"}'},
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": "srv_2",
                            "type": "function",
                            "function": {"name": "get_place_of_birth", "arguments": {"entity": "Person 3"}},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "srv_2", "name": "get_place_of_birth", "content": '["City 3"]'},
                {"role": "assistant", "content": "Person 3 was born in City 3."},
            ],
        }
    )
    # the deliberately failed call of an error-recovery row is not part of the gold trajectory
    assert (task.gold_steps, task.gold_calls) == (1, 1)
    for parser in ("hermes", "json", "python"):
        [row] = run_exec([task], GoldModel({"exec:r1": task.gold_turns}, parser), get_parser(parser), ts)
        assert row["correct"] and row["calls_valid"] and row["within_gold_steps"], parser
    [row] = run_exec([task], NoCallModel(), get_parser("hermes"), ts)
    assert not row["correct"] and not row["calls_valid"] and row["steps"] == 0
    with pytest.raises(KeyError):
        GoldModel({}, "hermes").generate([task.prefix], [task.tools], ["exec:other"])
    wire = to_wire_messages(
        [
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": {"a": "é"}}}],
            }
        ]
    )
    assert wire[0]["content"] is None and wire[0]["tool_calls"][0]["function"]["arguments"] == '{"a": "é"}'
    # a row offering a tool the graph does not derive is refused
    other = ExecTask("x", "multi_step", "2p", [{"type": "function", "function": {"name": "nope"}}], [], [], [], [])
    with pytest.raises(Exception, match="does not match"):
        check_tools_match([task, other], ts)


def test_stepwise_kinds_and_scoring():
    from kg2tool.evaluation.stepwise import score_step, step_items
    from kg2tool.llm.parsers import Parsed

    def call(i, name, args):
        return {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": args}}

    row = {
        "id": "r1", "category": "multi_step", "pattern": "2p", "tools": [], "answers": ["Ada", "Bo"],
        "messages": [
            {"role": "user", "content": "Who studied where Alan Turing worked?"},
            {"role": "assistant", "content": "", "tool_calls": [call(1, "get_employer", {"entity": "Alan Turing"})]},
            {"role": "tool", "tool_call_id": "c1", "content": '["Oxford"]'},
            {"role": "assistant", "content": "", "tool_calls": [call(2, "find_by_educated_at", {"value": "Oxford"})]},
            {"role": "tool", "tool_call_id": "c2", "content": '["Ada", "Bo"]'},
            {"role": "assistant", "content": "Ada and Bo."},
        ],
    }  # fmt: skip
    first, later, answer = step_items([row])
    assert [s.kind for s in (first, later, answer)] == ["first_call", "later_call", "answer"]
    assert [len(s.messages) for s in (first, later, answer)] == [1, 3, 5]  # the gold conversation before the turn
    assert score_step(first, Parsed([{"name": "get_employer", "arguments": {"entity": "Alan Turing"}}]))
    assert score_step(first, Parsed([{"name": "get_employer", "arguments": '{"entity": "Alan Turing"}'}]))
    assert not score_step(first, Parsed([{"name": "get_employer", "arguments": {"entity": "Alan"}}]))
    assert not score_step(first, Parsed([], ["unterminated <tool_call> block"]))
    assert score_step(answer, Parsed(text="Bo, Ada")) and not score_step(answer, Parsed(text="Ada"))
    assert not score_step(answer, Parsed([{"name": "x", "arguments": {}}], text="Ada Bo"))
