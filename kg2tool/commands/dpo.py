"""`kg2tool dpo`: preference optimization on a synth dataset's `dpo` pairs with TRL's DPOTrainer.

    kg2tool dpo --config dpo/tiny.yaml
    kg2tool dpo --config dpo/tiny.yaml --model_name_or_path runs/sft-tiny-lora --use_peft --merge
    accelerate launch --config_file dpo/accelerate/multi_gpu.yaml -m kg2tool.cli dpo --config dpo/gpu-1b.yaml
    kg2tool dpo --help     # kg2tool's fields and the common ones (output_dir, max_steps, learning_rate, ...)
    kg2tool dpo --help-all # every field: TRL's ScriptArguments, DPOConfig and ModelConfig, and kg2tool's

Flags use TRL's names and override the YAML recipe. The resolved values, the dataset's label language (`--lang`,
default: the one recorded in the dataset folder) and graph files are saved as `output_dir/kg2tool_config.yaml`.
"""

from __future__ import annotations

import argparse

from ..common.errors import require_extra
from .pretrain import register_raw
from .sft import save_stage_config

HELP = "preference-tune a model on synthesized chosen/rejected tool calls (TRL DPOTrainer; full or LoRA)"


def register(subparsers) -> None:
    """Add the `dpo` subcommand (flags parsed later by `run`) to `subparsers`."""
    register_raw(subparsers, "dpo", HELP, __doc__, run)


def run(args: argparse.Namespace) -> int:
    """Parse the raw flags into TRL's and kg2tool's dataclasses, preference-tune, save kg2tool_config.yaml."""
    for module in ("torch", "transformers", "trl", "peft"):
        require_extra(module, "train")
    from ..train.dpo import KgDPOConfig, run_dpo
    from ..train.finetune import parse_stage

    setup = parse_stage(KgDPOConfig, list(args.args), prog="kg2tool dpo")
    from ..common.files import writing

    with writing(setup.training.output_dir, "the training run (checkpoints, weights)"):  # a full disk is exit 4
        report = run_dpo(setup)
    save_stage_config(setup, "dpo")
    from ..train.runs import loss_summary

    parts = [f"{report['global_step']} steps in {report['train_seconds']:.0f} s"]
    parts += [s for s in [loss_summary("loss", report["first_loss"], report["last_loss"]),
                          loss_summary("reward margin", report["first_margin"], report["last_margin"])] if s]  # fmt: skip
    print(f"dpo: {', '.join(parts)}; saved {', '.join(f'{k} to {v}' for k, v in report['saved'].items())}")
    return 0
