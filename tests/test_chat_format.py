"""The chat template (kg2tool.llm.chat_format) and assistant-only loss: an assistant turn with `"weight": 0` is
rendered like any other but is outside the generation markers, so TRL's collator gives its tokens label -100."""

import pytest

pytestmark = pytest.mark.train

TOOLS = [{"type": "function", "function": {"name": "get_residence", "description": "Get the residence.",
          "parameters": {"type": "object", "properties": {"entity": {"type": "string"}}, "required": ["entity"]}}}]  # fmt: skip
SLIP = {"role": "assistant", "content": "", "weight": 0,
        "tool_calls": [{"id": "call_1", "type": "function",
                        "function": {"name": "get_residence", "arguments": {"name": "Ada Lovelace"}}}]}  # fmt: skip
RETRY = {"role": "assistant", "content": "",
         "tool_calls": [{"id": "call_2", "type": "function",
                         "function": {"name": "get_residence", "arguments": {"entity": "Ada Lovelace"}}}]}  # fmt: skip
MESSAGES = [
    {"role": "user", "content": "Where did Ada Lovelace live?"},
    SLIP,
    {"role": "tool", "tool_call_id": "call_1", "content": '{"error": "\'entity\' is a required property"}'},
    RETRY,
    {"role": "tool", "tool_call_id": "call_2", "content": '["London"]'},
    {"role": "assistant", "content": "Ada Lovelace lived in London."},
]


@pytest.fixture(scope="module")
def tokenizer():
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer

    texts = ["Where did Ada Lovelace live? London", '{"name": "get_residence", "arguments": {"entity": "x"}}'] * 20
    return train_tokenizer(texts, config=TokenizerConfig(vocab_size=400, min_frequency=1))


def _trainer_labels(tokenizer, messages, tmp_path) -> tuple[list[int], list[int]]:
    """(input_ids, labels) of one conversation as TRL's SFTTrainer prepares it with assistant-only loss (a tiny
    qwen2 model from a config; nothing is trained). Call arguments are JSON strings, as datasets store them."""
    import json

    from datasets import Dataset
    from transformers import Qwen2Config, Qwen2ForCausalLM
    from trl import SFTConfig, SFTTrainer

    rows = [{"messages": [
        {**m, "tool_calls": [{**c, "function": {**c["function"], "arguments": json.dumps(c["function"]["arguments"])}}
                             for c in m["tool_calls"]]} if m.get("tool_calls") else m
        for m in messages], "tools": TOOLS}]  # fmt: skip
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1)  # fmt: skip
    args = SFTConfig(output_dir=str(tmp_path), assistant_only_loss=True, report_to=[], use_cpu=True, max_length=None)
    trainer = SFTTrainer(Qwen2ForCausalLM(config), args=args, train_dataset=Dataset.from_list(rows),
                         processing_class=tokenizer)  # fmt: skip
    row = trainer.train_dataset[0]
    return row["input_ids"], row["labels"]


def test_a_weight_0_turn_renders_the_same_text_and_gets_label_minus_100(tokenizer, tmp_path):
    plain = [{k: v for k, v in m.items() if k != "weight"} for m in MESSAGES]
    text = tokenizer.apply_chat_template(MESSAGES, tools=TOOLS, tokenize=False)
    assert text == tokenizer.apply_chat_template(plain, tools=TOOLS, tokenize=False)  # the model still sees it
    ids, labels = _trainer_labels(tokenizer, MESSAGES, tmp_path / "w0")
    trained = tokenizer.decode([i for i, lab in zip(ids, labels) if lab != -100])
    masked = tokenizer.decode([i for i, lab in zip(ids, labels) if lab == -100])
    assert '"arguments": {"entity": "Ada Lovelace"}' in trained and "Ada Lovelace lived in London." in trained
    assert '"arguments": {"name": "Ada Lovelace"}' not in trained  # the slip: every token has label -100
    assert '"arguments": {"name": "Ada Lovelace"}' in masked
    # without the weight the same turn is trained
    ids, labels = _trainer_labels(tokenizer, plain, tmp_path / "plain")
    assert '"arguments": {"name": "Ada Lovelace"}' in tokenizer.decode([i for i, lab in zip(ids, labels) if lab != -100])
