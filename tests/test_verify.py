"""Every named check of kg2tool.synth.checks.verify is pinned: a tampered conversation that only that check catches, with
exactly one expected reason; and with the check taken out of CHECKS, the same tampering gives another answer."""

import json

import pytest

from kg2tool.synth.checks import verify
from kg2tool.synth.checks.preference import check_continuation
from kg2tool.synth.checks.verify import CHECKS, REASONS, verify_row
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import result_json
from kg2tool.synth.walk.walker import ALL_SHAPES


@pytest.fixture(scope="module")
def synth(small_kg):
    return Synthesizer(small_kg, SynthConfig(n=200, seed=3))


@pytest.fixture(scope="module")
def rows(synth, small_kg):
    """Verified rows of every pattern: the default mix's shards, plus shards of the dialogue shapes."""
    out = [r for i in range(3) for r in synth.shard(i)[0]]
    for shape in ("followup", "error_recovery"):
        only = Synthesizer(small_kg, SynthConfig(seed=1, mix={s: float(s == shape) for s in ALL_SHAPES}))
        out += only.shard(0)[0]
    return out


def pick(rows, pattern, pred=lambda r: True):
    return next(r for r in rows if r["pattern"] == pattern and pred(r))


def copied(row):
    return json.loads(json.dumps(row))


def run_verify(synth, row):
    return verify_row(synth.ts, row["messages"], row["tools"], row["answers"], row["category"],
                      allow_errors=row["pattern"] == "error_recovery")  # fmt: skip


def first_call(row):
    return row["messages"][1]["tool_calls"][0]["function"]


def unmentioned_entity(synth, row, tool):
    """A real entity the conversation never mentions on which `tool` executes."""
    text = json.dumps(row["messages"], ensure_ascii=False)
    key = next(iter(synth.ts.specs[tool].parameters["properties"]))
    for name in synth.kg.names:
        if name in text:
            continue
        try:
            return key, name, synth.ts.execute(tool, {key: name})
        except Exception:
            continue
    raise AssertionError("no unmentioned entity")


# -- tamperings: (row pattern, how) -> the conversation to verify; each is caught by one check -----------------


def t_derived_schemas(synth, rows):
    row = copied(pick(rows, "2p"))
    row["tools"][0]["function"]["description"] += " (edited)"
    return run_verify(synth, row)


def t_opens_with_question(synth, rows):
    row = copied(pick(rows, "1p", lambda r: r["category"] == "simple"))
    row["messages"][0]["content"] = ""
    return run_verify(synth, row)


def t_ends_with_answer(synth, rows):
    row = copied(pick(rows, "1p", lambda r: r["category"] == "simple"))
    row["messages"][-1]["content"] = "   "
    return run_verify(synth, row)


def t_user_after_answer(synth, rows):
    row = copied(pick(rows, "followup"))
    del row["messages"][3]  # the answer to the first question: the follow-up comes right after a tool message
    return run_verify(synth, row)


def t_text_then_user(synth, rows):
    row = copied(pick(rows, "followup"))
    row["messages"][3]["content"] = ""  # the intermediate answer left empty
    return run_verify(synth, row)


def t_states_results(synth, rows):
    row = copied(pick(rows, "followup"))
    row["messages"][3]["content"] = "Let me look that up."  # does not state the first results
    return run_verify(synth, row)


def t_calls_answered(synth, rows):
    row = copied(pick(rows, "2p"))
    row["messages"].pop(2)  # the first call's tool message
    return run_verify(synth, row)


def t_errors_recovered(synth, rows):
    row = copied(pick(rows, "error_recovery", lambda r: r["num_turns"] == 2))
    del row["messages"][3:5]  # the corrected call and its result: the failed call is never retried
    return run_verify(synth, row)


def t_offered_tool(synth, rows):
    row = copied(pick(rows, "1p", lambda r: r["category"] == "simple"))
    offered = {t["function"]["name"] for t in row["tools"]}
    other = next(n for n in synth.relation_tools if n not in offered)
    first_call(row)["name"] = other
    row["messages"][2]["name"] = other
    return run_verify(synth, row)


def t_valid_arguments(synth, rows):
    row = copied(pick(rows, "2p"))
    first_call(row)["arguments"] = {"bogus": 1}
    return run_verify(synth, row)


def free_text(row) -> bool:
    """A simple row whose call takes a name of any entity (no enum of a small set of values)."""
    call = first_call(row)
    tool = next(t["function"] for t in row["tools"] if t["function"]["name"] == call["name"])
    return row["category"] == "simple" and not any("enum" in p for p in tool["parameters"]["properties"].values())


def t_grounded_arguments(synth, rows):
    row = copied(pick(rows, "1p", free_text))
    key, other, result = unmentioned_entity(synth, row, first_call(row)["name"])
    first_call(row)["arguments"] = {key: other}
    row["messages"][2]["content"] = result_json(result)  # the tool message is the true result of the new call
    return run_verify(synth, row)


def t_executes(synth, rows):
    row = copied(pick(rows, "1p", free_text))
    key, name = next(iter(first_call(row)["arguments"].items()))
    # a piece of the question (so grounded) that names no entity
    piece = next(name[:k] for k in range(len(name) - 1, 0, -1) if synth.kg.resolve(name[:k]) is None)
    first_call(row)["arguments"][key] = piece
    return run_verify(synth, row)


def t_result_matches(synth, rows):
    row = copied(pick(rows, "2p"))
    row["messages"][2]["content"] = '["Made Up"]'
    return run_verify(synth, row)


def t_irrelevance_plain(synth, rows):
    row = copied(pick(rows, "irrelevance"))
    row["answers"] = ["Person 3"]
    row["messages"][-1]["content"] += " Person 3"
    return run_verify(synth, row)


def t_has_results(synth, rows):
    row = copied(pick(rows, "1p", lambda r: r["category"] == "simple"))
    del row["messages"][1:3]  # answered without calling the tool
    return run_verify(synth, row)


def t_answer_supported(synth, rows):
    row = copied(pick(rows, "2p"))
    row["answers"] = row["answers"] + ["Extra"]
    row["messages"][-1]["content"] += " Extra"
    return run_verify(synth, row)


def t_answer_stated(synth, rows):
    row = copied(pick(rows, "2p"))
    row["messages"][-1]["content"] = "I don't know."
    return run_verify(synth, row)


def judge(synth, row, cut, continuation):
    msgs = row["messages"]
    return check_continuation(synth.ts, msgs[:cut], continuation, row["tools"], row["answers"], row["category"],
                              [msgs[cut]])  # fmt: skip


def t_one_message(synth, rows):
    row = pick(rows, "2p")
    return judge(synth, row, 1, [row["messages"][1], row["messages"][1]])


def t_needed_call(synth, rows):
    row = pick(rows, "1p", lambda r: r["category"] == "simple")
    return judge(synth, row, 1, [row["messages"][-1]])  # the final answer, before the call that gives it


def t_same_calls(synth, rows):
    row = pick(rows, "parallel", lambda r: len(r["messages"][1]["tool_calls"]) > 1)
    turn = copied(row["messages"][1])
    turn["tool_calls"].pop()  # one call of the parallel turn left out
    return judge(synth, row, 1, [turn])


CASES = {
    "derived_schemas": (t_derived_schemas, "tool_schema_mismatch"),
    "opens_with_question": (t_opens_with_question, "bad_structure"),
    "ends_with_answer": (t_ends_with_answer, "bad_structure"),
    "user_after_answer": (t_user_after_answer, "bad_structure"),
    "text_then_user": (t_text_then_user, "bad_structure"),
    "states_results": (t_states_results, "answer_not_stated"),
    "calls_answered": (t_calls_answered, "unanswered_call"),
    "errors_recovered": (t_errors_recovered, "error_not_recovered"),
    "offered_tool": (t_offered_tool, "unknown_tool"),
    "valid_arguments": (t_valid_arguments, "schema_invalid"),
    "grounded_arguments": (t_grounded_arguments, "ungrounded_argument"),
    "executes": (t_executes, "execution_error"),
    "result_matches": (t_result_matches, "execution_mismatch"),
    "irrelevance_plain": (t_irrelevance_plain, "bad_structure"),
    "has_results": (t_has_results, "bad_structure"),
    "answer_supported": (t_answer_supported, "answer_mismatch"),
    "answer_stated": (t_answer_stated, "answer_not_stated"),
    "one_message": (t_one_message, "bad_structure"),
    "needed_call": (t_needed_call, "missing_call"),
    "same_calls": (t_same_calls, "wrong_calls"),
}


def test_every_check_has_a_tampering_and_a_known_reason():
    assert [c.name for c in CHECKS] == list(CASES)
    assert len({c.name for c in CHECKS}) == len(CHECKS)
    for check in CHECKS:
        assert check.reason in REASONS and CASES[check.name][1] == check.reason, check.name
        assert check.name in verify.__doc__ and check.reason in verify.__doc__


def test_untampered_rows_pass(synth, rows):
    for pattern in ("1p", "2p", "followup", "error_recovery", "irrelevance", "parallel"):
        assert run_verify(synth, pick(rows, pattern)) is None, pattern


@pytest.mark.parametrize("name", list(CASES))
def test_check_catches_its_tampering(name, synth, rows):
    tamper, reason = CASES[name]
    assert tamper(synth, rows) == reason


@pytest.mark.parametrize("name", list(CASES))
def test_without_the_check_the_tampering_is_missed(name, synth, rows, monkeypatch):
    """Take the check out of the list: its tampering then passes or fails for another reason."""
    tamper, reason = CASES[name]
    monkeypatch.setattr(verify, "CHECKS", [c for c in CHECKS if c.name != name])
    try:
        got = tamper(synth, rows)
    except Exception as exc:  # a later step tripping over what the check would have refused
        got = f"crash: {type(exc).__name__}"
    assert got != reason


def test_verification_rejects_tampered_rows(synth, rows):
    """The classic tamperings of one multi-step row, each with exactly one reason."""
    row = pick(rows, "2p")

    def tampered(fn):
        new = copied(row)
        fn(new["messages"])
        return run_verify(synth, new)

    assert tampered(lambda m: None) is None
    call = lambda m: m[1]["tool_calls"][0]["function"]  # noqa: E731
    assert tampered(lambda m: call(m).__setitem__("arguments", {"bogus": 1})) == "schema_invalid"
    assert tampered(lambda m: call(m).__setitem__("name", "count")) == "unanswered_call"  # the reply names another
    assert tampered(lambda m: m[2].__setitem__("content", '["Made Up"]')) == "execution_mismatch"
    assert tampered(lambda m: m[-1].__setitem__("content", "I don't know.")) == "answer_not_stated"
    assert tampered(lambda m: m.pop(2)) == "unanswered_call"
    # an argument the model could not have known: a real entity that is neither in the question nor a result
    key, other, _ = unmentioned_entity(synth, row, call(row["messages"])["name"])
    assert tampered(lambda m: call(m)["arguments"].__setitem__(key, other)) == "ungrounded_argument"
    wrong = verify_row(synth.ts, row["messages"], row["tools"], row["answers"] + ["Extra"], row["category"])
    assert wrong == "answer_mismatch"


def test_error_recovery_rows_need_allow_errors(synth, rows):
    row = pick(rows, "error_recovery")
    assert run_verify(synth, row) is None
    strict = verify_row(synth.ts, row["messages"], row["tools"], row["answers"], row["category"])
    assert strict in ("schema_invalid", "execution_error")
    bad = copied(row)
    bad["messages"][2]["content"] = '{"error": "something else"}'  # not the executor's error
    assert run_verify(synth, bad) == "execution_mismatch"


def test_judge_shares_the_call_checks(synth, rows):
    """The DPO judge answers with the same reasons as verify_row for the same mistakes in a call."""
    row = pick(rows, "2p")
    turn = copied(row["messages"][1])
    turn["tool_calls"][0]["function"]["arguments"] = {"bogus": 1}
    assert judge(synth, row, 1, [turn]) == "schema_invalid"
    turn = copied(row["messages"][1])
    offered = {t["function"]["name"] for t in row["tools"]}
    turn["tool_calls"][0]["function"]["name"] = next(n for n in synth.relation_tools if n not in offered)
    assert judge(synth, row, 1, [turn]) == "unknown_tool"
    assert judge(synth, row, 1, [row["messages"][1]]) is None
    final = len(row["messages"]) - 1
    assert judge(synth, row, final, [row["messages"][-1]]) is None
    assert judge(synth, row, final, [{"role": "assistant", "content": "No idea."}]) == "answer_not_stated"
