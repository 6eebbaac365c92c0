"""`kg2tool eval --constrain copy`: strings inside a tool call are copied from the prompt (kg2tool.llm.copy_constraint),
with a tokenizer trained here the way the recipes train theirs."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from kg2tool.common.errors import UsageError  # noqa: E402
from kg2tool.llm.backends import make_backend  # noqa: E402
from kg2tool.llm.copy_constraint import CopyStrings, token_texts  # noqa: E402

CALL = '<tool_call>\n{"name": "get_place_of_birth", "arguments": {"entity": "Lewis Carroll"}}\n</tool_call>'


@pytest.fixture(scope="module")
def tok():
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer

    texts = ["Where was Lewis Carroll born?", "Where was Ada Lovelace born?", CALL, "Lewis Carroll was born in Daresbury."]
    return train_tokenizer(texts * 20, config=TokenizerConfig(vocab_size=400, min_frequency=1))


def ids(tok, text: str) -> list[int]:
    return tok(text, add_special_tokens=False)["input_ids"]


def test_a_string_in_a_call_goes_on_only_as_the_prompt_does(tok):
    texts = token_texts(tok)
    prompt = ids(tok, "<|im_start|>user\nWhere was Lewis Carroll born?<|im_end|>\n<|im_start|>assistant\n")
    proc = CopyStrings(texts, len(prompt), tok.pad_token_id)
    head = ids(tok, '<tool_call>\n{"name": "get_place_of_birth", "arguments": {"entity": "')
    lewis, space, carroll = ids(tok, "Lewis Carroll")
    assert proc.open_string(ids(tok, "The answer is")) is None  # not in a call
    assert proc.open_string(head) == ([], "value") and proc.open_string(head + [lewis]) == ([lewis], "value")
    assert proc.open_string(head + [lewis, space, carroll] + ids(tok, '"}}')) is None  # closed
    assert proc.open_string(ids(tok, '<tool_call>\n{"'))[1] == "key"  # "name" is a key: it closes with '":'
    value = set(proc.closing["value"])
    first = proc.allowed(prompt, [])
    assert lewis in first and set(first) <= set(prompt)
    # never a line break, markup or an empty string: a call cut short reads as no call (irrelevance would gain)
    assert not first & set(ids(tok, "\n<|im_end|>") + proc.closing["value"] + proc.closing["key"])
    assert proc.allowed(prompt, [lewis]) - value == {space}
    assert proc.allowed(prompt, [lewis, space]) == {carroll}  # no close after a space: "Lewis " is no name
    assert ids(tok, '"}}')[0] in value and not set(ids(tok, '{"')) & value  # closes, opens nothing
    assert set(ids(tok, '":')) <= set(proc.closing["key"]) and not set(ids(tok, '":')) & value


def test_the_processor_masks_every_token_the_prompt_does_not_continue_with(tok):
    texts = token_texts(tok)
    prompt = ids(tok, "<|im_start|>user\nWhere was Lewis Carroll born?<|im_end|>\n<|im_start|>assistant\n")
    written = ids(tok, '<tool_call>\n{"name": "get_place_of_birth", "arguments": {"entity": "Lewis ')
    pad = [tok.pad_token_id] * 3  # left padding, as in a batch
    inputs = torch.tensor([pad + prompt + written])
    proc = CopyStrings(texts, len(pad) + len(prompt), tok.pad_token_id)
    scores = proc(inputs, torch.zeros(1, len(texts)))
    kept = {i for i in range(len(texts)) if scores[0, i] > float("-inf")}
    assert kept == {ids(tok, "Carroll")[0]}  # after "Lewis ": only the prompt's next token
    outside = torch.tensor([pad + prompt + ids(tok, "Lewis Carroll was")])  # no call: nothing masked
    assert torch.isfinite(proc(outside, torch.zeros(1, len(texts)))).all()


def test_only_the_transformers_backend_takes_the_constraint(tmp_path):
    with pytest.raises(UsageError, match="needs --backend transformers"):
        make_backend(str(tmp_path), "vllm", constrain="copy")
    with pytest.raises(UsageError, match="unknown --constrain"):
        make_backend(str(tmp_path), "transformers", constrain="grammar")
