"""Ling-style MoE pretraining on Hugging Face `Trainer`: the run, as named steps.

    kg2tool pretrain --config pretrain/tiny.yaml

The pieces, one idea a module:
    pretrain_config.py  `PretrainConfig`: `TrainingArguments` plus the recipe (corpus, tokenizer, model, losses)
    pretrain_data.py    corpus, tokenizer, packed blocks and copy pool under `output_dir/prepared/`; the model
    moe_trainer.py      `MoeLossMixin` (router losses, expert load, spike guard), `SpikeGuard`, `MoePretrainer`
    runs.py             output folder check (resume or refuse), last-step logging, warm-up bound, loss summary

A run: check the output folder, prepare (or reuse) the data, build the model, run the copy warm-up (bounded by
`--max_steps`, so a 5-step try takes seconds, not the recipe's 300-step warm-up), train with the spike guard and
the auxiliary copy loss, save the model with its tokenizer and chat template, write `pretrain_report.json`.
Saved checkpoints load with `AutoModelForCausalLM/AutoTokenizer.from_pretrained` and generate.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ..common.errors import InputError
from .copy_task import CopyTask, copy_accuracy, copy_warmup
from .moe_trainer import MoePretrainer, SpikeGuard, collate_blocks
from .pretrain_config import PretrainConfig
from .pretrain_data import build_model, prepare_data
from .runs import LogLastStep, bounded_steps, check_run_dir, round_loss

__all__ = ["PretrainConfig", "run_pretrain", "sample_generation"]


def print_setup(config: PretrainConfig, preset, data_stats: dict[str, Any]) -> None:
    """Print the model and corpus lines that open a run."""
    print(f"model: {preset.describe()}", flush=True)
    print(
        f"corpus: {data_stats['tokens']:,} tokens in {data_stats['blocks']:,} blocks of {config.max_length} "
        + (f"(whole documents, {data_stats['padding']:,} padding) " if data_stats.get("padding") else "")
        + f""
        f"({data_stats['documents']}); vocab {data_stats['vocab_size']}, "
        f"{data_stats['tokens_per_name']} tokens/name, name consistency {data_stats['name_consistency']}",
        flush=True,
    )


def spike_guard(config: PretrainConfig) -> SpikeGuard:
    """The loss-spike guard with the recipe's settings."""
    return SpikeGuard(
        config.spike_factor,
        config.spike_warmup_steps,
        config.spike_ema_beta,
        config.spike_max_consecutive,
        config.spike_sigma,
    )


def copy_task_for(config: PretrainConfig, pool: list[int]) -> CopyTask | None:
    """The copy task over `pool` (token ids of names and call arguments) when the recipe has a copy warm-up or an
    auxiliary copy loss, else None."""
    if not (config.copy_warmup_steps or config.copy_aux_weight):
        return None
    if len(pool) < 2:
        raise InputError("the copy task needs entity names (--graph) or tool calls (--dataset_name) in the corpus")
    return CopyTask(pool, config.copy_segment_length, seed=config.seed, layout=config.copy_layout)


def run_copy_warmup(config: PretrainConfig, model, copy_task: CopyTask | None, pool_size: int) -> list[dict]:
    """Train `model` on the copy task alone before the corpus: `copy_warmup_steps`, but never more than
    ten times `max_steps`. Returns the warm-up history (empty when there is none)."""
    steps = bounded_steps(config.copy_warmup_steps, config.max_steps)
    if copy_task is None or not steps:
        return []
    bound = f" (bounded by 10 x --max_steps {config.max_steps})" if steps < config.copy_warmup_steps else ""
    print(f"copy warm-up: {steps} steps{bound} on random segments of {pool_size:,} name tokens", flush=True)
    lr = config.copy_warmup_lr or config.learning_rate
    return copy_warmup(model, copy_task, steps, lr, weight_decay=config.weight_decay)


def warmup_history_for(config: PretrainConfig, model, copy_task: CopyTask | None, pool: list[int],
                       resume_from: str | None) -> list[dict]:  # fmt: skip
    """Run the copy warm-up of a fresh run and keep its history in `output_dir/copy_warmup.json`; a resumed run
    (whose checkpoint holds the warmed-up weights) reads the history back, so its report equals an uninterrupted
    run's."""
    from ..common.files import write_atomic

    path = Path(config.output_dir) / "copy_warmup.json"
    if resume_from is not None:
        return json.loads(path.read_text()) if path.exists() else []
    history = run_copy_warmup(config, model, copy_task, len(pool))
    if history and config.should_save:
        write_atomic(path, json.dumps(history))
    return history


def make_report(config, trainer, result, model, copy_task, **fields) -> dict[str, Any]:
    """The run report (`pretrain_report.json`): preset, parameter counts, data, steps, times, first and last
    logged LM loss (3 decimals), skipped updates, copy warm-up and copy accuracy; `fields` fill the rest."""
    history = [h for h in trainer.state.log_history if "lm_loss" in h]
    return {
        "preset": config.model_preset,
        "params": fields["counts"],
        "data": fields["data_stats"],
        "global_step": trainer.state.global_step,
        "train_seconds": round(fields["train_seconds"], 1),
        "total_seconds": round(time.time() - fields["t_start"], 1),
        "train_loss": result.training_loss,
        "first_lm_loss": round_loss(history[0]["lm_loss"]) if history else None,
        "last_lm_loss": round_loss(history[-1]["lm_loss"]) if history else None,
        "spike_skipped": next(
            (cb.skipped for cb in trainer.callback_handler.callbacks if isinstance(cb, SpikeGuard)), 0
        ),
        "resumed_from": fields["resume_from"],
        "copy_warmup": fields["warmup_history"],
        "copy_accuracy": round(copy_accuracy(model, copy_task), 4) if copy_task is not None else None,
    }


def run_pretrain(config: PretrainConfig, extra_callbacks: list | None = None) -> dict[str, Any]:
    """Prepare data, build the model, warm up, train, save. Returns the run report (also written to
    `pretrain_report.json` in `output_dir`)."""
    t_start = time.time()
    if config.torch_num_threads > 0:
        import torch

        torch.set_num_threads(config.torch_num_threads)
    resume_from = check_run_dir(config, finished_marker="pretrain_report.json")
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    with config.main_process_first(desc="prepare the corpus and tokenizer"):  # other ranks then reuse it
        tokenizer, dataset, data_stats = prepare_data(config, out / "prepared")
    model, preset = build_model(config, tokenizer)
    print_setup(config, preset, data_stats)
    pool = data_stats.pop("copy_pool", None) or []
    copy_task = copy_task_for(config, pool)
    warmup_history = warmup_history_for(config, model, copy_task, pool, resume_from)
    trainer = MoePretrainer(
        model=model,
        args=config,
        train_dataset=dataset,
        data_collator=collate_blocks,
        processing_class=tokenizer,
        callbacks=[spike_guard(config), LogLastStep(), *(extra_callbacks or [])],
    )
    if copy_task is not None and config.copy_aux_weight:
        trainer.copy_task = CopyTask(pool, config.copy_segment_length, seed=config.seed + 1, layout=config.copy_layout)
        trainer.copy_aux_weight, trainer.copy_aux_batch = config.copy_aux_weight, config.copy_aux_batch
    t_train = time.time()
    result = trainer.train(resume_from_checkpoint=resume_from)
    train_seconds = time.time() - t_train
    trainer.save_model(config.output_dir)
    trainer.save_state()  # trainer_state.json: the logged history (the demo's learning curves)
    report = make_report(config, trainer, result, model, copy_task, counts=preset.param_counts(),
                         data_stats=data_stats, train_seconds=train_seconds, t_start=t_start,
                         resume_from=resume_from, warmup_history=warmup_history)  # fmt: skip
    if config.should_save:
        from ..common.files import write_atomic

        write_atomic(out / "pretrain_report.json", json.dumps(report, indent=2))
    trainer.router_capture.remove()
    if config.sample_prompt and config.should_save:
        report["sample"] = sample_generation(config.output_dir, config.sample_prompt)
        print(f"sample: {config.sample_prompt!r} -> {report['sample']!r}", flush=True)
    return report


def sample_generation(path: str, prompt: str, max_new_tokens: int = 24) -> str:
    """Reload a checkpoint with plain `from_pretrained` and greedy-generate a continuation of `prompt`."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path)
    model.eval()
    inputs = tokenizer(prompt, return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**inputs, max_new_tokens=max_new_tokens, do_sample=False)
    return tokenizer.decode(out[0, inputs["input_ids"].shape[1] :], skip_special_tokens=False)
