"""The `dpo` config is accepted by TRL's DPOTrainer as loaded (conversational preference rows with `tools`)."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.train


def test_dpo_config_trains_with_trl_dpotrainer(tmp_path, small_graph_path):
    pytest.importorskip("torch")
    trl = pytest.importorskip("trl")
    from datasets import load_dataset
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from kg2tool.train.corpus import render_conversations
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer, wrap_tokenizer

    out = tmp_path / "data"
    res = subprocess.run([sys.executable, "-m", "kg2tool.cli", "synth", "--graph", str(small_graph_path), "--out",
                          str(out), "-n", "60", "--no-progress"], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr
    dpo = load_dataset(str(out), "dpo", split="train")
    sft = load_dataset(str(out), "sft", split="train")
    from tokenizers import Tokenizer, models

    texts = render_conversations(list(sft), wrap_tokenizer(Tokenizer(models.BPE()))) * 3
    tok = train_tokenizer(texts, config=TokenizerConfig(vocab_size=700))
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=2048,
                      pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id)  # fmt: skip
    path = tmp_path / "model"  # loaded back by path, as a user's checkpoint would be
    Qwen2ForCausalLM(cfg).save_pretrained(path)
    tok.save_pretrained(path)
    model = str(path)
    args = trl.DPOConfig(output_dir=str(tmp_path / "run"), max_steps=2, per_device_train_batch_size=2,
                         report_to=[], logging_steps=1, save_strategy="no", bf16=False, use_cpu=True)  # fmt: skip
    trainer = trl.DPOTrainer(model=model, args=args, train_dataset=dpo, processing_class=tok)
    result = trainer.train()
    assert result.global_step == 2
    logged = [h for h in trainer.state.log_history if "loss" in h]
    assert logged and all(h["loss"] == h["loss"] for h in logged)  # finite, not NaN
