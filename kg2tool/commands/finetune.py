"""`kg2tool sft` and `kg2tool dpo`: the two fine-tuning stages on a synth dataset, with TRL (full or LoRA).

Both take `--config RECIPE.yaml` and flags with TRL's names that override it, parsed inside `run` into TRL's
`ScriptArguments`, the stage's config and `ModelConfig` plus kg2tool's own fields (`kg2tool.train.finetune.
parse_stage`); `--help` lists kg2tool's fields and the common ones, `--help-all` every field. The resolved values,
the dataset's label language (`--lang`, default: the one recorded in the dataset folder) and graph files are saved
as `output_dir/kg2tool_config.yaml`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from ..common.errors import require_extra
from .pretrain import register_raw

SFT = """`kg2tool sft`: supervised fine-tuning on a synth dataset's conversations with TRL's SFTTrainer (full or LoRA).

    kg2tool sft --config sft/tiny.yaml
    kg2tool sft --config sft/tiny-lora.yaml --output_dir runs/sft-lora --max_steps 100
    kg2tool sft --config sft/gpu-1b.yaml --model_name_or_path PATH_OR_HUB_ID --dataset_name out/wiki
    accelerate launch --config_file sft/accelerate/multi_gpu.yaml -m kg2tool.cli sft --config sft/gpu-1b.yaml
    kg2tool sft --help     # kg2tool's fields and the common ones (output_dir, max_steps, learning_rate, ...)
    kg2tool sft --help-all # every field: TRL's ScriptArguments, SFTConfig and ModelConfig, and kg2tool's

Flags use TRL's names and override the YAML recipe. The resolved values, the dataset's label language (`--lang`,
default: the one recorded in the dataset folder) and graph files are saved as `output_dir/kg2tool_config.yaml`.
"""

DPO = """`kg2tool dpo`: preference optimization on a synth dataset's `dpo` pairs with TRL's DPOTrainer.

    kg2tool dpo --config dpo/tiny.yaml
    kg2tool dpo --config dpo/tiny.yaml --model_name_or_path runs/sft-tiny-lora --use_peft --merge
    accelerate launch --config_file dpo/accelerate/multi_gpu.yaml -m kg2tool.cli dpo --config dpo/gpu-1b.yaml
    kg2tool dpo --help     # kg2tool's fields and the common ones (output_dir, max_steps, learning_rate, ...)
    kg2tool dpo --help-all # every field: TRL's ScriptArguments, DPOConfig and ModelConfig, and kg2tool's

Flags use TRL's names and override the YAML recipe. The resolved values, the dataset's label language (`--lang`,
default: the one recorded in the dataset folder) and graph files are saved as `output_dir/kg2tool_config.yaml`.
"""


def _sft():
    from ..train.sft import KgSFTConfig, run_sft

    return KgSFTConfig, run_sft


def _dpo():
    from ..train.dpo import KgDPOConfig, run_dpo

    return KgDPOConfig, run_dpo


@dataclass(frozen=True)
class Stage:
    """One fine-tuning command: its help and description, and `load`, which imports (only when the command runs)
    its config class and run function."""

    name: str
    help: str
    description: str
    load: Callable[[], tuple[type, Callable]]
    margin: bool = False  # the report has the reward margin's first and last value (DPO)


STAGES = (
    Stage("sft", "fine-tune a model on synthesized tool-use conversations (TRL SFTTrainer; full or LoRA)", SFT, _sft),
    Stage("dpo", "preference-tune a model on synthesized chosen/rejected tool calls (TRL DPOTrainer; full or LoRA)",
          DPO, _dpo, margin=True),
)  # fmt: skip


def register(subparsers) -> None:
    """Add the `sft` and `dpo` subcommands (flags parsed later by `run`) to `subparsers`."""
    for stage in STAGES:
        register_raw(subparsers, stage.name, stage.help, stage.description, lambda args, s=stage: run(s, args))


def run(stage: Stage, args: argparse.Namespace) -> int:
    """Parse the raw flags into TRL's and kg2tool's dataclasses, fine-tune, save kg2tool_config.yaml, summarize."""
    for module in ("torch", "transformers", "trl", "peft"):
        require_extra(module, "train")
    from ..train.finetune import parse_stage

    config, run_stage = stage.load()
    setup = parse_stage(config, list(args.args), prog=f"kg2tool {stage.name}")
    from ..common.files import writing

    with writing(setup.training.output_dir, "the training run (checkpoints, weights)"):  # a full disk is exit 4
        report = run_stage(setup)
    save_stage_config(setup, stage.name)
    print(f"{stage.name}: {summary(report, stage.margin)}")
    return 0


def summary(report: dict, margin: bool) -> str:
    """One line on a finished stage: steps, time, the loss (and DPO's reward margin) from first to last, and what
    was saved where."""
    from ..train.runs import loss_summary

    parts = [f"{report['global_step']} steps in {report['train_seconds']:.0f} s"]
    losses = [loss_summary("loss", report["first_loss"], report["last_loss"])]
    if margin:
        losses.append(loss_summary("reward margin", report["first_margin"], report["last_margin"]))
    parts += [s for s in losses if s]
    return f"{', '.join(parts)}; saved {', '.join(f'{k} to {v}' for k, v in report['saved'].items())}"


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
