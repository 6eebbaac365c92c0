"""`kg2tool sft`: supervised fine-tuning on a synth dataset's conversations with TRL's SFTTrainer (full or LoRA).

    kg2tool sft --config sft/tiny.yaml
    kg2tool sft --config sft/tiny-lora.yaml --output_dir runs/sft-lora --max_steps 100
    kg2tool sft --config sft/gpu-1b.yaml --model_name_or_path PATH_OR_HUB_ID --dataset_name out/wiki
    accelerate launch --config_file sft/accelerate/multi_gpu.yaml -m kg2tool.cli sft --config sft/gpu-1b.yaml
    kg2tool sft --help     # kg2tool's fields and the common ones (output_dir, max_steps, learning_rate, ...)
    kg2tool sft --help-all # every field: TRL's ScriptArguments, SFTConfig and ModelConfig, and kg2tool's

Flags use TRL's names and override the YAML recipe. The resolved values, the dataset's label language (`--lang`,
default: the one recorded in the dataset folder) and graph files are saved as `output_dir/kg2tool_config.yaml`.
"""

from __future__ import annotations

import argparse

from ..common.errors import require_extra
from .pretrain import register_raw

HELP = "fine-tune a model on synthesized tool-use conversations (TRL SFTTrainer; full or LoRA)"


def register(subparsers) -> None:
    """Add the `sft` subcommand (flags parsed later by `run`) to `subparsers`."""
    register_raw(subparsers, "sft", HELP, __doc__, run)


def run(args: argparse.Namespace) -> int:
    """Parse the raw flags into TRL's and kg2tool's dataclasses, fine-tune, save kg2tool_config.yaml, summarize."""
    for module in ("torch", "transformers", "trl", "peft"):
        require_extra(module, "train")
    from ..train.finetune import parse_stage
    from ..train.sft import KgSFTConfig, run_sft

    setup = parse_stage(KgSFTConfig, list(args.args), prog="kg2tool sft")
    from ..common.files import writing

    with writing(setup.training.output_dir, "the training run (checkpoints, weights)"):  # a full disk is exit 4
        report = run_sft(setup)
    save_stage_config(setup, "sft")
    from ..train.runs import loss_summary

    parts = [f"{report['global_step']} steps in {report['train_seconds']:.0f} s"]
    parts += [s for s in [loss_summary("loss", report["first_loss"], report["last_loss"])] if s]
    print(f"sft: {', '.join(parts)}; saved {', '.join(f'{k} to {v}' for k, v in report['saved'].items())}")
    return 0


def save_stage_config(setup, command: str) -> None:
    """Write the resolved SFT/DPO `setup` (TRL's and kg2tool's arguments, the label language, the dataset's graph
    files) as `output_dir/kg2tool_config.yaml`, from the process that saves the model."""
    from ..hub.dataset import recorded_graph_files
    from ..train.args import save_run_config

    if not setup.training.should_save:
        return
    graphs = list(setup.extra.random_name_graph) or recorded_graph_files(setup.script.dataset_name)
    parts = {"script": setup.script, "training": setup.training, "model": setup.model, "kg2tool": setup.extra}
    save_run_config(setup.training.output_dir, command, parts, lang=setup.lang, graphs=graphs)
