"""`kg2tool sft`: supervised fine-tuning on a synth dataset's conversations with TRL's SFTTrainer (full or LoRA).

    kg2tool sft --config sft/tiny.yaml
    kg2tool sft --config sft/tiny-lora.yaml --output_dir runs/sft-lora --max_steps 100
    kg2tool sft --config sft/gpu-1b.yaml --model_name_or_path PATH_OR_HUB_ID --dataset_name out/wiki
    accelerate launch --config_file sft/accelerate/multi_gpu.yaml -m kg2tool.cli sft --config sft/gpu-1b.yaml
    kg2tool sft --help     # every field: TRL's ScriptArguments, SFTConfig and ModelConfig, and kg2tool's

Flags use TRL's names and override the YAML recipe.
"""

from __future__ import annotations

import argparse

from ..common.errors import require_extra
from .pretrain import register_raw

HELP = "fine-tune a model on synthesized tool-use conversations (TRL SFTTrainer; full or LoRA)"


def register(subparsers) -> None:
    register_raw(subparsers, "sft", HELP, __doc__, run)


def run(args: argparse.Namespace) -> int:
    for module in ("torch", "transformers", "trl", "peft"):
        require_extra(module, "train")
    from ..train.finetune import parse_stage
    from ..train.sft import KgSFTConfig, run_sft

    report = run_sft(parse_stage(KgSFTConfig, list(args.args), prog="kg2tool sft"))
    print(
        f"sft: {report['global_step']} steps in {report['train_seconds']:.0f} s, loss {report['first_loss']} -> "
        f"{report['last_loss']}; saved {', '.join(f'{k} to {v}' for k, v in report['saved'].items())}"
    )
    return 0
