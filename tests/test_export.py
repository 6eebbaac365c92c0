"""`kg2tool export`: OpenAI fine-tuning JSONL, LLaMA-Factory ShareGPT and BFCL files from a real synth folder.

Every exported row is checked against the source row it came from (loaded with `datasets`), and against the
format's own rules written out here (OpenAI's message keys; LLaMA-Factory's role alternation)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import EXAMPLE

from kg2tool.cli import main
from kg2tool.hub.export import OBSERVATION_SEP, check_sharegpt, sharegpt_turns, to_openai, to_sharegpt

OPENAI_KEYS = {
    "user": {"role", "content"},
    "assistant": {"role", "content", "tool_calls", "weight"},
    "tool": {"role", "tool_call_id", "content"},
}


@pytest.fixture(scope="module")
def wiki(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "wiki"
    # error-recovery rows weighed up (a third of them carry the assistant's own slip: an untrained turn), and
    # clarifying questions (missing_info), rare in the default mix
    args = ["--graph", str(EXAMPLE), "--out", str(out), "-n", "200", "--seed", "0", "--mix", "error_recovery=4,missing_info=1"]
    assert main(["synth", *args, "--no-progress"]) == 0
    return out


@pytest.fixture(scope="module")
def sft(wiki):
    from datasets import load_dataset

    return load_dataset(str(wiki), "sft")


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def export(*args) -> int:
    return main(["export", *map(str, args), "--no-progress"])


def check_openai_messages(messages: list[dict]) -> None:
    """OpenAI's chat fine-tuning rules for tool calling, as its docs state them."""
    open_calls: set[str] = set()
    for m in messages:
        assert set(m) <= OPENAI_KEYS[m["role"]], m
        if m["role"] == "assistant":
            assert "content" in m or m.get("tool_calls"), m
            assert m.get("weight", 1) in (0, 1)  # OpenAI's per-message loss switch
            for c in m.get("tool_calls", []):
                assert set(c) == {"id", "type", "function"} and c["type"] == "function"
                assert isinstance(c["function"]["arguments"], str)
                assert isinstance(json.loads(c["function"]["arguments"]), dict)
                open_calls.add(c["id"])
        if m["role"] == "tool":
            assert m["tool_call_id"] in open_calls and isinstance(m["content"], str)


def test_openai_sft_matches_source_rows(wiki, sft, tmp_path):
    out = tmp_path / "train.jsonl"
    assert export(wiki, "--format", "openai", "--out", out) == 0
    lines = read_jsonl(out)
    assert len(lines) == len(sft["train"]) > 100
    for line, row in zip(lines, sft["train"]):
        assert set(line) == {"messages", "tools"} and line["tools"] == row["tools"]
        check_openai_messages(line["messages"])
        assert len(line["messages"]) == len(row["messages"])
        for got, src in zip(line["messages"], row["messages"]):
            assert got["role"] == src["role"] and got.get("tool_call_id") == src.get("tool_call_id")
            assert got.get("content", "") == src["content"]
            assert got.get("weight") == (0 if src.get("weight") == 0 else None)  # an untrained turn stays untrained
            calls = [
                (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in got.get("tool_calls", [])
            ]
            assert calls == [(c["function"]["name"], c["function"]["arguments"]) for c in src.get("tool_calls") or []]


def test_sharegpt_sft_alternates_and_round_trips(wiki, sft, tmp_path, capsys):
    out = tmp_path / "lf" / "wiki.jsonl"
    assert export(wiki, "--format", "sharegpt", "--split", "test", "--out", out) == 0
    entry = json.loads(capsys.readouterr().out)
    assert entry == {
        "kg2tool_wiki": {
            "file_name": "wiki.jsonl",
            "formatting": "sharegpt",
            "columns": {"messages": "conversations", "tools": "tools", "system": "system"},
        }
    }
    lines = read_jsonl(out)
    # ShareGPT cannot mark an untrained turn: rows with one are left out
    kept = [row for row in sft["test"] if not any(m.get("weight") == 0 for m in row["messages"])]
    assert len(lines) == len(kept) > 0
    for line, row in zip(lines, kept):
        check_sharegpt(line["conversations"])
        assert json.loads(line["tools"]) == [t["function"] for t in row["tools"]]
        # calls in order, and one observation per call-turn holding every result of that turn
        src_calls = [m["tool_calls"] for m in row["messages"] if m.get("tool_calls")]
        got = [json.loads(t["value"]) for t in line["conversations"] if t["from"] == "function_call"]
        got = [g if isinstance(g, list) else [g] for g in got]
        assert got == [
            [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in t] for t in src_calls
        ]
        obs = [t["value"].split(OBSERVATION_SEP) for t in line["conversations"] if t["from"] == "observation"]
        assert [len(o) for o in obs] == [len(t) for t in src_calls]
        assert sum(obs, []) == [m["content"] for m in row["messages"] if m["role"] == "tool"]


def test_every_pattern_converts(sft):
    """Dialogue shapes too: clarifying questions (missing_info), follow-ups, a failed call then a retry."""
    seen = Counter()
    for split in sft:
        for row in sft[split]:
            check_openai_messages(to_openai(row)["messages"])
            untrained = any(m.get("weight") == 0 for m in row["messages"])
            got = to_sharegpt(row)
            assert (got is None) == untrained
            if got is not None:
                check_sharegpt(got["conversations"])
            seen[row["pattern"]] += 1
            seen["untrained"] += untrained
    assert {"1p", "parallel", "parallel_multiple", "irrelevance", "missing_info", "error_recovery"} <= set(seen)
    assert seen["untrained"] > 0  # error-recovery rows with a slip of the assistant's own


@pytest.mark.parametrize(
    "turns, ranking",
    [
        ([{"from": "gpt", "value": "hi"}], False),
        ([{"from": "human", "value": "a"}, {"from": "human", "value": "b"}], False),
        ([{"from": "human", "value": "a"}, {"from": "observation", "value": "b"}], False),
        ([{"from": "human", "value": "a"}, {"from": "gpt", "value": "b"}, {"from": "human", "value": "c"}], False),
        ([{"from": "human", "value": "a"}, {"from": "gpt", "value": "b"}], True),
        ([{"from": "human", "value": "a"}, {"from": "function_call", "value": '{"name": "f"}'}], False),
        ([{"from": "human", "value": "a"}, {"from": "function_call", "value": "not json"}], False),
    ],
)
def test_check_sharegpt_rejects_what_llamafactory_skips(turns, ranking):
    with pytest.raises(ValueError):
        check_sharegpt(turns, ranking=ranking)


def test_sharegpt_refuses_text_and_calls_in_one_turn():
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": {}}}
    with pytest.raises(ValueError, match="both text and tool calls"):
        sharegpt_turns([{"role": "user", "content": "q"}, {"role": "assistant", "content": "x", "tool_calls": [call]}])


def test_dpo_exports(wiki, tmp_path, capsys):
    from datasets import load_dataset

    dpo = load_dataset(str(wiki), "dpo", split="validation")
    assert (
        export(wiki, "--format", "sharegpt", "--config", "dpo", "--split", "validation", "--out", tmp_path / "s.jsonl")
        == 0
    )
    assert json.loads(capsys.readouterr().out)["kg2tool_s"]["ranking"] is True
    for line, row in zip(read_jsonl(tmp_path / "s.jsonl"), dpo, strict=True):
        check_sharegpt(line["conversations"], ranking=True)
        for key in ("chosen", "rejected"):
            assert line[key]["from"] in ("gpt", "function_call")
            check_sharegpt([line["conversations"][-1], line[key]])
            src = row[key][0]
            if src.get("tool_calls"):
                calls = json.loads(line[key]["value"])
                calls = calls if isinstance(calls, list) else [calls]
                assert calls == [
                    {"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in src["tool_calls"]
                ]
            else:
                assert line[key] == {"from": "gpt", "value": src["content"]}
        assert sum(t["from"] == "human" for t in line["conversations"]) == sum(
            m["role"] == "user" for m in row["prompt"]
        )
        assert line["chosen"] != line["rejected"]
    assert (
        export(wiki, "--format", "openai", "--config", "dpo", "--split", "validation", "--out", tmp_path / "o.jsonl")
        == 0
    )
    for line, row in zip(read_jsonl(tmp_path / "o.jsonl"), dpo, strict=True):
        assert set(line) == {"input", "preferred_output", "non_preferred_output"}
        assert line["input"]["tools"] == row["tools"]
        check_openai_messages(line["input"]["messages"])
        for key in ("preferred_output", "non_preferred_output"):
            assert len(line[key]) == 1 and line[key][0]["role"] == "assistant"
            check_openai_messages(line["input"]["messages"] + line[key])


def test_bfcl_copies_synth_files(wiki, tmp_path):
    out = tmp_path / "bfcl"
    assert export(wiki, "--format", "bfcl", "--out", out) == 0
    src = {p.relative_to(wiki / "bfcl"): p.read_bytes() for p in (wiki / "bfcl").rglob("*.json")}
    got = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.json")}
    assert got == src and any(str(p).startswith("possible_answer") for p in got)
    assert export(wiki, "--format", "bfcl", "--out", out) == 4
    assert export(wiki, "--format", "bfcl", "--out", out, "--overwrite") == 0
    assert export(wiki, "--format", "bfcl", "--split", "train", "--out", tmp_path / "x") == 2


def test_bfcl_missing_gives_clear_error(wiki, tmp_path, capsys):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(wiki, old, ignore=shutil.ignore_patterns("bfcl"))
    assert export(old, "--format", "bfcl", "--out", tmp_path / "b") == 3
    assert "no bfcl config" in capsys.readouterr().err and not (tmp_path / "b").exists()


def test_errors_and_atomic_output(wiki, tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    out.write_text("keep\n")
    assert export(wiki, "--format", "openai", "--out", out) == 4
    assert out.read_text() == "keep\n" and "--overwrite" in capsys.readouterr().err
    assert export(wiki, "--format", "openai", "--out", out, "--overwrite") == 0
    assert out.read_text() != "keep\n" and sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl"]
    assert export(tmp_path / "missing", "--format", "openai", "--out", tmp_path / "x.jsonl") == 3
    assert str(tmp_path / "missing") in capsys.readouterr().err
    assert export(tmp_path, "--format", "openai", "--out", tmp_path / "x.jsonl") == 3  # a folder without a card
    assert export(wiki, "--format", "openai", "--split", "dev", "--out", tmp_path / "x.jsonl") == 2
    (tmp_path / "d").mkdir()
    assert export(wiki, "--format", "sharegpt", "--out", tmp_path / "d", "--overwrite") == 4
    with pytest.raises(SystemExit) as exc:
        export(wiki, "--format", "csv", "--out", tmp_path / "x.jsonl")
    assert exc.value.code == 2
    assert not (tmp_path / "x.jsonl").exists()
