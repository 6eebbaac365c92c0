"""Preference optimization on the `dpo` config of a `kg2tool synth` dataset with TRL's `DPOTrainer`.

    kg2tool dpo --config dpo/tiny.yaml
    kg2tool dpo --config dpo/tiny.yaml --model_name_or_path runs/sft-lora --use_peft

Design choices:
- Starts from the SFT output: full weights, or an adapter folder, which is merged onto its base on load; with
  `--use_peft` a fresh LoRA adapter is trained on top and TRL uses the adapter-disabled model as the reference
  (no second copy in memory); without it TRL keeps a frozen reference copy.
- Rows are the dataset's `prompt` / `chosen` / `rejected` conversations with their `tools`, as loaded; the
  rejected side is one of kg2tool's named mistakes (wrong function, wrong argument, hallucinated answer, ...).
- The reward margin (TRL's `rewards/margins`) is the figure to watch: it should rise from 0.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from trl import DPOConfig, DPOTrainer

from . import finetune as ft


@dataclass
class KgDPOConfig(DPOConfig):
    """TRL's `DPOConfig` without activation (gradient) checkpointing by default (slower for small models, STACK.md)."""

    activation_checkpointing: bool | None = False


def run_dpo(setup: ft.RunSetup) -> dict[str, Any]:
    """Train, save, report. Returns the report (also `dpo_report.json` in `output_dir`)."""
    from .trl_patches import compact_scoring_on_cpu

    started = time.time()
    compact_scoring_on_cpu()  # score only the completion positions on CPU too
    ft.set_threads(setup.extra)
    args = setup.training
    resume_from = ft.check_output_dir(setup)
    tokenizer = ft.load_tokenizer_checked(
        setup.extra.tokenizer_name_or_path or setup.model.model_name_or_path, need_generation_markers=False
    )
    train, evaluation, full = ft.load_rows(setup, ["prompt", "chosen", "rejected", "tools"])
    if args.eval_strategy == "no":
        evaluation = None
    model = ft.load_model(setup.model.model_name_or_path, setup.model.dtype)
    peft = ft.peft_config(setup, model)
    trainer_cls = ft.moe_trainer_class(DPOTrainer, model)
    trainer = trainer_cls(
        model=model,
        args=args,
        train_dataset=train,
        eval_dataset=evaluation,
        processing_class=tokenizer,
        peft_config=peft,
    )
    params = ft.trainable_parameters(trainer.model)
    print(
        f"dpo: {len(train):,} preference pairs, beta {args.beta}, {params['trainable']:,} of "
        f"{params['total']:,} parameters trainable ({'LoRA' if peft else 'full fine-tuning'}"
        f"{', MoE losses' if ft.is_moe(model) else ''})",
        flush=True,
    )
    t_train = time.time()
    result = trainer.train(resume_from_checkpoint=resume_from)
    train_seconds = time.time() - t_train
    if hasattr(trainer, "router_capture"):
        trainer.router_capture.remove()
    trainer.save_metrics("train", result.metrics)
    saved = ft.save_outputs(trainer, setup, tokenizer)
    losses = ft.loss_history(trainer)
    margins = ft.loss_history(trainer, "rewards/margins")
    accuracies = ft.loss_history(trainer, "rewards/accuracies")
    report: dict[str, Any] = {
        "stage": "dpo",
        "model": setup.model.model_name_or_path,
        "dataset": [setup.script.dataset_name, *setup.extra.extra_dataset_name],
        "train_pairs": len(train),
        "peft": bool(peft),
        "parameters": params,
        "global_step": trainer.state.global_step,
        "train_seconds": round(train_seconds, 1),
        "total_seconds": round(time.time() - started, 1),
        "train_loss": result.training_loss,
        "first_loss": losses[0][1] if losses else None,
        "last_loss": losses[-1][1] if losses else None,
        "first_margin": margins[0][1] if margins else None,
        "last_margin": margins[-1][1] if margins else None,
        "last_accuracy": accuracies[-1][1] if accuracies else None,
        "loss_history": losses,
        "margin_history": margins,
        "saved": saved,
        "resumed_from": resume_from,
    }
    if setup.extra.sample and args.should_save:
        split = full["test"] if "test" in full else full[setup.script.dataset_train_split]
        report["sample"] = ft.sample_tool_call(args.output_dir, split[0])
        ft.print_sample(report["sample"])
    ft.write_report(setup, "dpo", report)
    return report
