"""`kg2tool pretrain`: pretrain a Ling-style MoE (qwen2_moe) on a graph's facts and tool-call conversations.

    kg2tool pretrain --config pretrain/tiny.yaml
    kg2tool pretrain --config pretrain/tiny.yaml --graph examples/wiki.ttl --output_dir runs/tiny --max_steps 200
    kg2tool pretrain --config pretrain/tiny.yaml --output_dir runs/tiny --resume
    accelerate launch --config_file pretrain/accelerate/multi_gpu.yaml -m kg2tool.cli pretrain \\
        --config pretrain/small.yaml
    kg2tool pretrain --help     # the recipe's fields and the common ones (output_dir, max_steps, ...)
    kg2tool pretrain --help-all # every field: the recipe's and all of TrainingArguments'

Flags use the `TrainingArguments` names and override the YAML. This module imports nothing heavy: the field
list needs transformers, so the subcommand takes its arguments raw and parses them inside `run`.
The resolved values are saved as `output_dir/kg2tool_config.yaml`.
"""

from __future__ import annotations

import argparse

from ..common.errors import require_extra

HELP = "pretrain a Ling-style MoE on the graph's facts and tool-call conversations (flags: TrainingArguments names)"


def register_raw(subparsers, name: str, help: str, description: str, func) -> None:
    """A training subcommand whose flags are parsed later, against dataclass fields, by `func`.

    prefix_chars="+" makes argparse pass every `--flag` through untouched (transformers must not be imported while
    building the top-level parser, and the field list needs it)."""
    parser = subparsers.add_parser(
        name,
        help=help,
        description=description,
        prefix_chars="+",
        add_help=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("args", nargs="*", help="--config FILE and TrainingArguments-style flags")
    parser.set_defaults(func=func)


def register(subparsers) -> None:
    """Add the `pretrain` subcommand (flags parsed later by `run`) to `subparsers`."""
    register_raw(subparsers, "pretrain", HELP, __doc__, run)


def run(args: argparse.Namespace) -> int:
    """Parse the raw flags into `PretrainConfig`, pretrain, save kg2tool_config.yaml, print a summary."""
    require_extra("torch", "train")
    require_extra("transformers", "train")
    from ..train.args import parse_config, save_run_config
    from ..train.pretrain import PretrainConfig, run_pretrain

    config = parse_config(PretrainConfig, list(args.args), prog="kg2tool pretrain")
    from ..common.files import writing

    with writing(config.output_dir, "the training run (checkpoints, weights)"):  # a full disk is exit 4
        report = run_pretrain(config)
    if config.should_save:
        save_run_config(config.output_dir, "pretrain", {"pretrain": config}, lang=config.lang, graphs=config.graph)
    from ..train.runs import loss_summary

    loss = loss_summary("LM loss", report["first_lm_loss"], report["last_lm_loss"])
    print(
        f"pretrained {report['preset']} in {report['train_seconds']:.0f} s ({report['global_step']} steps): "
        + (f"{loss}, " if loss else "")
        + f"{report['spike_skipped']} update(s) skipped by the spike guard; saved to {config.output_dir}"
    )
    return 0
