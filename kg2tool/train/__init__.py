"""Training stages (need the `train` extra: torch, transformers, trl, peft, accelerate).

Pretraining (issue 4) lives here as small modules, one job each:
    moe.py          qwen2_moe presets (tiny / small / ling-lite) and total/active parameter counts
    chat_format.py  the Hermes/Qwen2.5 chat template with {% generation %} markers, and its tool-call parser
    tokenizer.py    byte-level BPE training (names tokenize alike in text and JSON), wrapped for transformers
    corpus.py       verbalized facts + random-name tool-call conversations + synth/text documents, packed
    router.py       router-logit capture (hooks on mlp.gate), load-balancing and z-losses, expert-load stats
    pretrain.py     PretrainConfig (TrainingArguments), MoeLossMixin + MoePretrainer, spike guard, run_pretrain
    args.py         YAML recipe + TrainingArguments-named flags -> config dataclass

Nothing is imported here, so `import kg2tool.llm.chat_format` works without torch.
"""
