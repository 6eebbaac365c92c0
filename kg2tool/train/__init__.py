"""Training stages (need the `train` extra: torch, transformers, trl, peft, accelerate).

Small modules, one job each:
    moe.py              qwen2_moe presets (tiny / small / ling-lite) and total/active parameter counts
    tokenizer.py        byte-level BPE training (names tokenize alike in text and JSON), wrapped for transformers
    corpus.py           verbalized facts + random-name tool-call conversations + synth/text documents, packed
    copy_data.py        synth conversations over randomly renamed copies of the graph
    copy_task.py        the in-context copying task: warm-up, auxiliary loss, accuracy
    router.py           router-logit capture (hooks on mlp.gate), load-balancing and z-losses, expert-load stats
    runs.py             what every run shares: output folder check, last-step logging, --max_steps bounds
    pretrain_config.py  PretrainConfig (TrainingArguments plus the pretraining recipe)
    pretrain_data.py    corpus, tokenizer, packed blocks and copy pool under prepared/; the fresh model
    moe_trainer.py      MoeLossMixin, SpikeGuard, MoePretrainer
    pretrain.py         run_pretrain, as named steps
    args.py             YAML recipe + TrainingArguments-named flags -> config dataclass
    finetune.py         SFT/DPO arguments (FinetuneArguments, RunSetup, parse_stage)
    finetune_rows.py    SFT/DPO training rows: splits, extra datasets, random-name and turn cuts, rejection types
    finetune_model.py   SFT/DPO tokenizer, model (a missing local path fails at once), LoRA, trainer class
    finetune_outputs.py SFT/DPO output folder, saving, reports, the sample tool call
    finetune_run.py     the run SFT and DPO share (run_stage, finish_report)
    sft.py, dpo.py      the two stages on TRL's SFTTrainer and DPOTrainer
    trl_patches.py      a TRL scoring shortcut on CPU

Nothing is imported here, so `import kg2tool.llm.chat_format` works without torch.
"""
