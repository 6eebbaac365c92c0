"""Argument pointing (kg2tool/train/pointing.py): the argument spans and their earlier copies found in real
chat-template token ids, and the pointer loss training one head of a real qwen2_moe model to look at them; typed
names for SFT's first-turn copies."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.train
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from kg2tool.train.finetune_rows import type_names, typed_form  # noqa: E402
from kg2tool.train.pointing import ArgumentSpans, LayerInputCapture, pointer_loss  # noqa: E402
from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer  # noqa: E402

FIRST = ["Karl", "Emma", "Ludwig", "Ada", "Kurt", "Rosa", "Niels", "Marie", "Alan", "Grace"]
LAST = ["Popper", "Noether", "Boltzmann", "Lovelace", "Gödel", "Luxemburg", "Bohr", "Curie", "Turing", "Hopper"]
CITIES = ["Vienna", "Erlangen", "London", "Brno", "Zamość", "Copenhagen", "Warsaw", "Wilmslow", "New York"]


def call(name, arguments):
    return {"type": "function", "function": {"name": name, "arguments": arguments}}


def conversation(person: str, city: str) -> list[dict]:
    return [
        {"role": "user", "content": f"Where was {person} born, and in which country is that?"},
        {"role": "assistant", "content": "", "tool_calls": [call("get_place_of_birth", {"entity": person, "n": 1})]},
        {"role": "tool", "content": f'["{city}"]'},
        {"role": "assistant", "content": "", "tool_calls": [call("get_country", {"entities": [city]})]},
        {"role": "tool", "content": '["Elsewhere"]'},
        {"role": "assistant", "content": f"{person} was born in {city}, Elsewhere."},
    ]


@pytest.fixture(scope="module")
def tokenizer():
    people = [f"{a} {b}" for a in FIRST for b in LAST]
    texts = [f"{p} was born in {c}." for p, c in zip(people, CITIES * 20)]
    return train_tokenizer(
        texts, names=people + CITIES, config=TokenizerConfig(vocab_size=600, pretokenizer="words", tool_format="signatures")
    )


def encode(tokenizer, messages):
    out = tokenizer.apply_chat_template(messages, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
    ids = out["input_ids"]
    return ids, [i if m else -100 for i, m in zip(ids, out["assistant_masks"], strict=True)]


def test_argument_values_point_at_their_copies_in_the_question_and_the_tool_result(tokenizer):
    ids, labels = encode(tokenizer, conversation("Kurt Gödel", "Brno"))
    spans = ArgumentSpans(tokenizer)
    t = spans.targets(ids, labels)
    assert [tokenizer.decode(ids[a : a + 1]) for a in t.first] == ["Kurt", "Brno"]  # string values only, not keys
    assert tokenizer.decode([ids[p] for p in t.argument]) == "Kurt GödelBrno"
    question_end = ids.index(tokenizer.convert_tokens_to_ids("<|im_start|>"), 1)  # the system turn comes first
    for q, sources in zip(t.queries, t.sources, strict=True):
        assert sources, "every supervised query has a copy to look at"
        for s in sources:
            assert s < q and ids[s] == ids[q + 1]  # the earlier copy of the very token the call writes next
    # the first call's name points into the question; the second call's city into the first tool result
    first_name = t.queries[: len(t.queries) - 1]
    assert all(max(s) < ids.index(tokenizer.convert_tokens_to_ids("<|im_start|>"), question_end + 1) for s in (t.sources[i] for i in range(len(first_name))))
    response = tokenizer.convert_tokens_to_ids("<tool_response>")
    assert t.sources[-1][0] > ids.index(response)


def test_a_value_not_in_the_conversation_is_weighted_but_not_pointed(tokenizer):
    messages = conversation("Ada Lovelace", "London")
    messages[1]["tool_calls"][0]["function"]["arguments"]["entity"] = "Grace Hopper"  # not in the question
    ids, labels = encode(tokenizer, messages)
    t = ArgumentSpans(tokenizer).targets(ids, labels)
    assert tokenizer.decode([ids[p] for p in t.argument]).startswith("Grace Hopper")
    assert all(tokenizer.decode([ids[q + 1]]) != "Grace" for q in t.queries)


def test_the_pointer_loss_teaches_a_head_of_a_real_model_to_look_at_the_name(tokenizer):
    from transformers import Qwen2MoeConfig, Qwen2MoeForCausalLM

    torch.manual_seed(0)
    config = Qwen2MoeConfig(
        vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
        num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32, shared_expert_intermediate_size=64,
        max_position_embeddings=512,
    )  # fmt: skip
    model = Qwen2MoeForCausalLM(config)
    spans = ArgumentSpans(tokenizer)
    capture = LayerInputCapture(model.model.layers[-1].self_attn)
    rng = random.Random(0)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

    def batch():
        rows = [encode(tokenizer, conversation(f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice(CITIES))) for _ in range(4)]
        width = max(len(i) for i, _ in rows)
        pad = tokenizer.pad_token_id
        ids = torch.tensor([i + [pad] * (width - len(i)) for i, _ in rows])
        labels = torch.tensor([lab + [-100] * (width - len(lab)) for _, lab in rows])
        mask = torch.tensor([[1] * len(i) + [0] * (width - len(i)) for i, _ in rows])
        return ids, labels, mask

    def step(train: bool) -> float:
        ids, labels, mask = batch()
        targets = [spans.targets(r, lab) for r, lab in zip(ids.tolist(), labels.tolist(), strict=True)]
        with torch.set_grad_enabled(train):
            model.model(input_ids=ids, attention_mask=mask)
            loss, n = pointer_loss(capture.attention, capture.hidden, capture.position_embeddings, targets, 1, mask)
        assert n > 0
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return float(loss.detach())

    before = sum(step(False) for _ in range(3)) / 3
    for _ in range(60):
        step(True)
    after = sum(step(False) for _ in range(3)) / 3
    capture.remove()
    # untrained, the head spreads over ~200 positions (loss ~ ln 200 = 5.3); trained, most mass on the copies
    assert before > 3.0
    assert after < 0.5 * before


def test_typed_names_are_written_as_people_type_them_in_question_and_call():
    assert typed_form("Émile Zola") == "emile zola"
    assert typed_form("George A. Romero") == "george a romero"
    messages = [
        {"role": "user", "content": "Where was Émile Zola born?"},
        {"role": "assistant", "content": "", "tool_calls": [call("get_place_of_birth", {"entity": "Émile Zola"})]},
    ]
    rng = random.Random(3)
    seen = {type_names(messages, rng)[0]["content"] for _ in range(20)}
    assert seen == {"Where was emile zola born?", "where was emile zola born"}
    typed = type_names(messages, rng)
    assert typed[1]["tool_calls"][0]["function"]["arguments"] == {"entity": "emile zola"}
    assert messages[0]["content"] == "Where was Émile Zola born?"  # the row itself is left as it was
    lower = [{"role": "user", "content": "Where was plato born?"}, {**messages[1], "tool_calls": [call("f", {"entity": "plato"})]}]
    assert type_names(lower, rng) is None  # nothing to type: the row stays as it is


def test_the_pointer_weight_ramps_up_over_its_warmup_steps(tokenizer):
    """`--pointer_warmup_steps N`: the pointer loss weight rises linearly from 0 to its value over N optimizer steps
    (a loss that starts several times the cross-entropy does not steer the first updates); 0 keeps it whole."""
    from transformers import Qwen2MoeConfig, Qwen2MoeForCausalLM

    from kg2tool.train.pointing import PointingSetup

    config = Qwen2MoeConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                            num_key_value_heads=1, num_experts=2, num_experts_per_tok=1, moe_intermediate_size=16,
                            shared_expert_intermediate_size=32)  # fmt: skip
    model = Qwen2MoeForCausalLM(config)
    ramp = PointingSetup(model, tokenizer, head=1, weight=0.2, warmup_steps=100)
    assert [round(ramp.weight_at(s), 6) for s in (0, 50, 100, 1000)] == [0.0, 0.1, 0.2, 0.2]
    ramp.capture.remove()
    whole = PointingSetup(model, tokenizer, head=1, weight=0.2)
    assert whole.weight_at(0) == 0.2
    whole.capture.remove()
