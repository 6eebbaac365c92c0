"""Document packing for pretraining (`corpus.pack_documents`): whole documents per block, positions restarting at
each, padding without loss, and a real qwen2_moe model that then attends within documents only."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.train
torch = pytest.importorskip("torch")

from kg2tool.train.corpus import CorpusStats, pack_documents  # noqa: E402
from kg2tool.train.moe_trainer import collate_blocks  # noqa: E402
from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer  # noqa: E402

DOCS = [
    "Ada Lovelace was born in London. " * (1 + i % 4) + f"Document {i} ends here."
    for i in range(40)
]


@pytest.fixture(scope="module")
def tokenizer():
    return train_tokenizer(DOCS, config=TokenizerConfig(vocab_size=300, pretokenizer="words"))


def test_documents_are_packed_whole_with_positions_from_zero_and_unlabelled_padding(tokenizer):
    stats = CorpusStats()
    cols = pack_documents(DOCS + ["word " * 200], tokenizer, 64, stats, window=4)
    sep = tokenizer.pad_token_id
    assert all(len(c) == 64 for name in cols for c in cols[name])
    assert stats.blocks == len(cols["input_ids"]) and stats.padding > 0
    seen = []
    for ids, pos, labels in zip(cols["input_ids"], cols["position_ids"], cols["labels"], strict=True):
        starts = [i for i, p in enumerate(pos) if p == 0]
        for a, b in zip(starts, [*starts[1:], 64], strict=True):
            if labels[a] == -100:  # the padding at the block's end
                assert all(x == -100 for x in labels[a:b]) and b == 64
                continue
            assert ids[a:b] == labels[a:b] and ids[b - 1] == sep or b - a == 64  # a whole document (or a piece)
            seen.append(tokenizer.decode(ids[a:b]))
    whole = [d for d in seen if d.endswith("<|endoftext|>")]
    assert sorted(d.removesuffix("<|endoftext|>") for d in whole if "Document" in d) == sorted(DOCS)
    assert "".join(d for d in seen if "word" in d).count("word") == 200  # the long one in block-sized pieces
    assert stats.tokens == sum(1 for labels in cols["labels"] for x in labels if x != -100)


def test_a_packed_document_sees_nothing_of_the_one_before_it(tokenizer):
    from transformers import Qwen2MoeConfig, Qwen2MoeForCausalLM

    torch.manual_seed(0)
    model = Qwen2MoeForCausalLM(
        Qwen2MoeConfig(
            vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
            num_key_value_heads=1, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=16,
            shared_expert_intermediate_size=32, max_position_embeddings=128,
        )  # fmt: skip
    ).eval()
    cols = pack_documents(DOCS[:6], tokenizer, 128, window=1)
    batch = collate_blocks([{k: cols[k][0] for k in cols}])
    pos = batch["position_ids"][0].tolist()
    second = [i for i, p in enumerate(pos) if p == 0][1]
    end = next((i for i in range(second + 1, 128) if pos[i] == 0), 128)
    with torch.no_grad():
        packed = model(**batch).logits[0, second:end]
        alone = model(input_ids=batch["input_ids"][:, second:end]).logits[0]
        leaky = model(input_ids=batch["input_ids"]).logits[0, second:end]  # positions running on: attends back
    assert torch.allclose(packed, alone, atol=1e-5)
    assert not torch.allclose(leaky, alone, atol=1e-3)
    assert batch["use_cache"] is False  # with a cache transformers builds no per-document mask
    assert torch.isfinite(model(**batch).loss)
