"""What every training run of kg2tool does alike, whatever its trainer: decide whether an output folder is
resumed or refused, log the last step, bound warm-ups and data preparation by `--max_steps`, and summarize the
logged loss in one line.
"""

from __future__ import annotations

import json
from pathlib import Path

from transformers import TrainerCallback

from ..common.errors import InputError, NothingToDoError, OutputError


def checkpoint_step(folder: Path) -> int | None:
    """The `global_step` a `checkpoint-*` folder was saved at, or None when the folder is incomplete.

    Trainer writes `trainer_state.json` last, after the weights, optimizer, scheduler and RNG states, so a folder
    whose state file is missing or cut short is a checkpoint a kill interrupted mid-write."""
    try:
        return int(json.loads((folder / "trainer_state.json").read_text()).get("global_step", 0))
    except (OSError, ValueError, TypeError):
        return None


def complete_checkpoints(out: Path) -> tuple[list[Path], list[Path]]:
    """`(complete, incomplete)` `checkpoint-<n>` folders of `out`, each in step order."""
    found = sorted(
        (p for p in out.glob("checkpoint-*") if p.name.split("-")[-1].isdigit()),
        key=lambda p: int(p.name.split("-")[-1]),
    )
    complete = [p for p in found if checkpoint_step(p) is not None]
    return complete, [p for p in found if p not in complete]


def check_run_dir(
    config, run_markers: tuple[str, ...] = ("prepared",), finished_marker: str | None = None
) -> str | None:
    """Decide what to resume from; refuse to silently mix a new run into an old one.

    `config` has `output_dir`, `resume`, `resume_from_checkpoint`, `overwrite` and `max_steps`; a folder holding a
    `checkpoint-*` or any of `run_markers` already holds a run. Returns the checkpoint folder to resume from, or
    None for a fresh run (an `--overwrite` run also drops `prepared/`).

    `--resume` takes the last *complete* checkpoint (`checkpoint_step`): one a kill cut short is skipped, and when
    no complete one exists the run starts over (printed), which is where an uninterrupted run started too. A run
    whose last checkpoint is already at `max_steps` has nothing left to do once `finished_marker` (the stage's
    report, written last) exists; before that (killed while saving the final model) it resumes to save again."""
    out = Path(config.output_dir)
    checkpoints, incomplete = complete_checkpoints(out)
    if config.resume or config.resume_from_checkpoint:
        if config.resume_from_checkpoint:
            if not Path(config.resume_from_checkpoint).is_dir():
                raise InputError(f"checkpoint not found: {config.resume_from_checkpoint}")
            return config.resume_from_checkpoint
        for folder in incomplete:
            if not checkpoints or int(folder.name.split("-")[-1]) > checkpoint_step(checkpoints[-1]):
                print(f"--resume: skipping {folder} (incomplete: the run was stopped while saving it)", flush=True)
        if not checkpoints:
            if not out.exists():
                raise InputError(f"--resume: no checkpoint-* folder in {out} (the folder does not exist)")
            print(f"--resume: no complete checkpoint in {out} yet: starting the run over", flush=True)
            return None
        last = checkpoints[-1]
        step = checkpoint_step(last) or 0
        done = finished_marker is None or (out / finished_marker).exists()
        if 0 < config.max_steps <= step and done:
            raise NothingToDoError(
                f"{last} is already at step {step} >= max_steps={config.max_steps}; raise --max_steps to go on"
            )
        return str(last)
    held = checkpoints or incomplete or any((out / marker).exists() for marker in run_markers)
    if out.exists() and held and not config.overwrite:
        raise OutputError(f"{out} already holds a run: pass --resume to continue it or --overwrite to start over")
    if config.overwrite and (out / "prepared").exists():
        import shutil

        shutil.rmtree(out / "prepared")
    return None


def bounded_steps(configured: int, max_steps: int) -> int:
    """The steps a warm-up of `configured` steps gets in a run of `max_steps` (<= 0: no bound): at most ten times
    `max_steps`, so `--max_steps 5` makes a short try of the whole run, warm-up included, while a long warm-up
    before a short corpus run (the varied copy layout needs thousands of steps) keeps its length."""
    return min(configured, 10 * max_steps) if max_steps > 0 else configured


def rows_needed(args) -> int | None:
    """Rows a run of `args.max_steps` optimizer steps can draw (steps x per-device batch x accumulation x
    processes), or None when the run is bounded by epochs instead."""
    if args.max_steps <= 0:
        return None
    return args.max_steps * args.per_device_train_batch_size * args.gradient_accumulation_steps * args.world_size


class LogLastStep(TrainerCallback):
    """Logs the last optimizer step when `logging_steps` does not fall on it, so a run shorter than
    `logging_steps` (a `--max_steps 5` try) still logs its loss, and every run's report has a last loss."""

    def on_step_end(self, args, state, control, **kwargs):
        if state.max_steps > 0 and state.global_step >= state.max_steps:
            control.should_log = True
        return control


class RestoreTokenCount(TrainerCallback):
    """On a resumed run, TRL's running count of trained tokens (`num_tokens` in the log) continues from the last
    value the checkpoint logged instead of restarting at 0 (TRL keeps it on the trainer, outside the checkpoint).
    Logging only: the weights resume exactly without it."""

    def __init__(self, trainer):
        self.trainer = trainer

    def on_train_begin(self, args, state, control, **kwargs):
        logged = [h["num_tokens"] for h in state.log_history if "num_tokens" in h]
        if logged and hasattr(self.trainer, "_total_train_tokens"):
            self.trainer._total_train_tokens = int(logged[-1])
        return control


def round_loss(value: float | None, digits: int = 3) -> float | None:
    """`value` rounded to `digits` decimals (None stays None): the first/last losses of the run reports."""
    return None if value is None else round(float(value), digits)


def loss_summary(label: str, first: float | None, last: float | None) -> str | None:
    """`"<label> 7.341 -> 2.518"` (3 decimals), or None when nothing was logged (the caller then prints no
    loss at all, rather than `None -> None`)."""
    if first is None or last is None:
        return None
    return f"{label} {first:.3f} -> {last:.3f}"
