"""The run the SFT and DPO stages share, as named steps: check the paths and the output folder, load the
tokenizer, rows and model, build the (MoE- and copy-loss-aware) TRL trainer, train, save and report.

A short run (`--max_steps` whose rows are fewer than the training rows) prepares and keeps only the rows it can
draw, when the stage asks for it (SFT): the tiny recipe generates 15,000 extra rows and TRL tokenizes all 16,609
before the first step, which took longer than five steps of training (a 5-step `kg2tool sft` went from 81 s to
20 s, measured on the 2-core machine).
"""

from __future__ import annotations

import time
from typing import Any

from ..common.errors import InputError, UsageError
from .finetune import RunSetup
from .finetune_model import (
    check_model_path,
    is_moe,
    load_model,
    load_tokenizer_checked,
    moe_trainer_class,
    peft_config,
    set_threads,
    trainable_parameters,
)
from .finetune_outputs import (
    check_output_dir,
    loss_history,
    print_sample,
    sample_tool_call,
    save_outputs,
    write_report,
)
from .finetune_rows import graph_names, load_rows
from .runs import LogLastStep, RestoreTokenCount, round_loss, rows_needed

# The command that writes a stage's starting model with the shipped tiny recipes (named in the missing-model error).
MAKES_MODEL = {
    "sft": "kg2tool pretrain --config pretrain/tiny.yaml --output_dir {path}",
    "dpo": "kg2tool sft --config sft/tiny.yaml --output_dir {path}",
}


def check_inputs(setup: RunSetup, stage: str) -> None:
    """Fail at once when the model (or tokenizer) path is a missing local folder, naming it and the command that
    writes it, instead of letting transformers retry the Hugging Face Hub for a minute."""
    model_path = setup.model.model_name_or_path
    make_it = MAKES_MODEL.get(stage, "").format(path=model_path)
    check_model_path(model_path, "model", make_it)
    if setup.extra.tokenizer_name_or_path:
        check_model_path(setup.extra.tokenizer_name_or_path, "tokenizer")


def load_tokenizer_for(setup: RunSetup, need_generation_markers: bool):
    """The checked tokenizer of the run (its chat template replaced by `chat_template_path` when given)."""
    args = setup.training
    tokenizer = load_tokenizer_checked(
        setup.extra.tokenizer_name_or_path or setup.model.model_name_or_path,
        need_generation_markers=need_generation_markers,
        template_path=getattr(args, "chat_template_path", None),
    )
    if getattr(args, "chat_template_path", None):
        args.chat_template_path = None  # applied above; TRL would otherwise load it again
    return tokenizer


def short_run_rows(args) -> int | None:
    """The rows a `--max_steps` run can draw (`rows_needed`), or None when it is bounded by epochs or packs
    several rows into one sequence (then a row count says nothing about the rows used)."""
    return None if getattr(args, "packing", False) else rows_needed(args)


def trim_to_steps(train, args, stage: str):
    """The first rows of `train` a run of `args.max_steps` can draw, or `train` itself when it can use them all
    (or is bounded by epochs, or packs several rows into one sequence). The rows are already in their seeded
    mixed order."""
    needed = short_run_rows(args)
    if needed is None or needed >= len(train):
        return train
    print(f"{stage}: --max_steps {args.max_steps} draws at most {needed:,} rows: keeping {needed:,} of {len(train):,}",
          flush=True)  # fmt: skip
    return train.select(range(needed))


def attach_copy_task(trainer, setup: RunSetup, tokenizer, train) -> None:
    """Give `trainer` the auxiliary copy task (`copy_aux_weight` > 0): segments drawn from the training rows'
    string arguments or, with `--copy_pool names`, the graph's entity names."""
    from .copy_task import CopyTask, argument_strings, name_token_pool

    extra = setup.extra
    if extra.copy_pool == "names":
        pool = name_token_pool(tokenizer, graph_names(setup))
    else:
        pool = name_token_pool(tokenizer, argument_strings(train))
    if len(pool) < 2:
        raise InputError("--copy_aux_weight: the training rows have no string call arguments to draw from")
    trainer.copy_task = CopyTask(pool, extra.copy_segment_length, seed=setup.training.seed, layout=extra.copy_layout)
    trainer.copy_aux_weight, trainer.copy_aux_batch = extra.copy_aux_weight, extra.copy_aux_batch


def build_trainer(setup: RunSetup, base_cls, model, tokenizer, train, evaluation):
    """The TRL trainer of class `base_cls`, with the MoE losses and the copy loss mixed in as the run asks.
    Returns `(trainer, peft_config)`."""
    args, extra = setup.training, setup.extra
    peft = peft_config(setup, model)
    if is_moe(model):
        args.router_aux_loss_coef = 0.0  # the MoE losses come from MoeLossMixin (aux + z), not from the model
    trainer = moe_trainer_class(base_cls, model, copy_loss=extra.copy_aux_weight > 0)(
        model=model,
        args=args,
        train_dataset=train,
        eval_dataset=evaluation,
        processing_class=tokenizer,
        peft_config=peft,
        callbacks=[LogLastStep()],
    )
    trainer.add_callback(RestoreTokenCount(trainer))
    # MoeLossMixin reads its coefficients from here (TRL's configs have no such fields)
    trainer.loss_coefs = {"aux_loss_coef": extra.aux_loss_coef, "z_loss_coef": extra.z_loss_coef}
    if extra.copy_aux_weight > 0:
        attach_copy_task(trainer, setup, tokenizer, train)
    attach_pointing(trainer, setup, tokenizer)
    return trainer, peft


def attach_pointing(trainer, setup: RunSetup, tokenizer) -> None:
    """Give an SFT trainer the argument supervision the run asks for (`--pointer_loss_weight`,
    `--argument_loss_weight`; `kg2tool.train.pointing`)."""
    extra = setup.extra
    if extra.pointer_loss_weight <= 0 and extra.argument_loss_weight == 1.0:
        return
    if not hasattr(trainer, "pointing"):
        raise UsageError("--pointer_loss_weight / --argument_loss_weight are SFT options (kg2tool sft)")
    if getattr(setup.training, "fused_lm_head", True):
        raise UsageError("--pointer_loss_weight / --argument_loss_weight need --fused_lm_head false")
    from .pointing import PointingSetup

    model = trainer.accelerator.unwrap_model(trainer.model)
    trainer.pointing = PointingSetup(
        model, tokenizer, extra.pointer_head, extra.pointer_loss_weight, extra.argument_loss_weight,
        extra.pointer_warmup_steps,
    )


def run_stage(
    setup: RunSetup,
    stage: str,
    base_cls,
    columns: list[str],
    what: str,
    *,
    need_generation_markers: bool,
    trim: bool = False,
):
    """Everything SFT and DPO do alike: load tokenizer, rows and model, build the (MoE-aware) TRL trainer, train,
    save. With `trim`, a short run keeps only the rows it can draw (`trim_to_steps`). Returns
    `(trainer, report, full_dataset)`; `report` holds the fields common to both stages' reports.

    Long because it is SFT's and DPO's one shared sequence (tokenizer, rows, model, trainer, train, save).
    """
    from .trl_patches import compact_scoring_on_cpu

    started = time.time()
    check_inputs(setup, stage)
    compact_scoring_on_cpu()  # TRL scores only the labelled positions on CPU too
    set_threads(setup.extra)
    args = setup.training
    resume_from = check_output_dir(setup, stage)
    tokenizer = load_tokenizer_for(setup, need_generation_markers)
    train, evaluation, full = load_rows(setup, columns, short_run_rows(args) if trim else None)
    if trim:
        train = trim_to_steps(train, args, stage)
    if args.eval_strategy == "no":
        evaluation = None
    model = load_model(setup.model.model_name_or_path, setup.model.dtype)
    trainer, peft = build_trainer(setup, base_cls, model, tokenizer, train, evaluation)
    params = trainable_parameters(trainer.model)
    kind = f"LoRA {','.join(sorted(peft.target_modules or []))}" if peft else "full fine-tuning"
    print(
        f"{stage}: {len(train):,} {what}, {params['trainable']:,} of {params['total']:,} parameters trainable "
        f"({kind}{', MoE losses' if is_moe(model) else ''})",
        flush=True,
    )
    t_train = time.time()
    result = trainer.train(resume_from_checkpoint=resume_from)
    train_seconds = time.time() - t_train
    if hasattr(trainer, "router_capture"):
        trainer.router_capture.remove()
    trainer.save_metrics("train", result.metrics)
    saved = save_outputs(trainer, setup, tokenizer)
    losses = loss_history(trainer)
    report: dict[str, Any] = {
        "stage": stage,
        "model": setup.model.model_name_or_path,
        "dataset": [setup.script.dataset_name, *setup.extra.extra_dataset_name],
        "train_rows": len(train),
        "peft": bool(peft),
        "parameters": params,
        "global_step": trainer.state.global_step,
        "train_seconds": round(train_seconds, 1),
        "total_seconds": round(time.time() - started, 1),
        "train_loss": result.training_loss,
        "first_loss": round_loss(losses[0][1]) if losses else None,
        "last_loss": round_loss(losses[-1][1]) if losses else None,
        "loss_history": losses,
        "eval_loss": [h["eval_loss"] for h in trainer.state.log_history if "eval_loss" in h],
        "saved": saved,
        "resumed_from": resume_from,
    }
    return trainer, report, full


def finish_report(setup: RunSetup, stage: str, report: dict[str, Any], sample_split) -> dict[str, Any]:
    """Add the post-training sample (reloaded from disk) when asked, write `<stage>_report.json`. Returns the
    report."""
    if setup.extra.sample and setup.training.should_save and sample_split is not None and len(sample_split):
        report["sample"] = sample_tool_call(setup.training.output_dir, sample_split[0])
        print_sample(report["sample"])
    write_report(setup, stage, report)
    return report
