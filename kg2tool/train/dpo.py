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

from dataclasses import dataclass
from typing import Any

from trl import DPOConfig, DPOTrainer

from .finetune import RunSetup
from .finetune_outputs import loss_history
from .finetune_run import finish_report, run_stage


@dataclass
class KgDPOConfig(DPOConfig):
    """TRL's `DPOConfig` without activation (gradient) checkpointing by default (TRL's CPU default; slower than
    plain backprop for small models, as this project measured)."""

    activation_checkpointing: bool | None = False


def run_dpo(setup: RunSetup) -> dict[str, Any]:
    """Train, save, report, from a parsed `RunSetup` (`finetune.parse_stage`). Returns the report (also
    `dpo_report.json` in `output_dir`)."""
    trainer, report, full = run_stage(
        setup, "dpo", DPOTrainer, ["prompt", "chosen", "rejected", "tools"], "preference pairs",
        need_generation_markers=False,
    )  # fmt: skip
    margins = loss_history(trainer, "rewards/margins")
    accuracies = loss_history(trainer, "rewards/accuracies")
    report.update(
        beta=setup.training.beta,
        first_margin=margins[0][1] if margins else None,
        last_margin=margins[-1][1] if margins else None,
        last_accuracy=accuracies[-1][1] if accuracies else None,
        margin_history=margins,
    )
    split = full["test"] if "test" in full else full[setup.script.dataset_train_split]
    return finish_report(setup, "dpo", report, split)
