"""What every training run shares (kg2tool/train/runs.py): warm-up bound, rows a short run can use, last-step
logging, the loss summary."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("transformers")

from kg2tool.train.runs import LogLastStep, bounded_steps, loss_summary, round_loss, rows_needed  # noqa: E402


def test_max_steps_bounds_a_warmup_and_no_bound_leaves_it():
    assert bounded_steps(300, 5) == 50
    assert bounded_steps(5000, 600) == 5000
    assert bounded_steps(300, 600) == 300
    assert bounded_steps(300, -1) == 300  # a run bounded by epochs keeps its warm-up
    assert bounded_steps(0, 5) == 0


def test_rows_needed_counts_every_row_a_run_can_draw():
    args = SimpleNamespace(max_steps=5, per_device_train_batch_size=4, gradient_accumulation_steps=4, world_size=2)
    assert rows_needed(args) == 160
    assert rows_needed(SimpleNamespace(**{**vars(args), "max_steps": -1})) is None


def test_the_last_step_is_logged_even_off_the_logging_interval():
    from transformers.trainer_callback import TrainerControl, TrainerState

    cb = LogLastStep()
    state = TrainerState(max_steps=5)
    for step, expected in ((4, False), (5, True)):
        state.global_step = step
        control = cb.on_step_end(None, state, TrainerControl())
        assert control.should_log is expected


def test_loss_summary_shows_three_decimals_or_nothing():
    assert loss_summary("LM loss", 7.34127, 2.5) == "LM loss 7.341 -> 2.500"
    assert loss_summary("loss", None, None) is None
    assert round_loss(2.123456) == 2.123 and round_loss(None) is None
