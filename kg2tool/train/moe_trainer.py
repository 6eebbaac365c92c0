"""The MoE trainer pieces: `MoeLossMixin` (router losses, separate loss logging, expert load, the spike guard,
the resume fix for fused experts), the `SpikeGuard` callback, and `MoePretrainer` for packed blocks.

Design choices:
- `MoeLossMixin` adds the load-balancing and router z-losses to whatever loss the base trainer computes, from
  router logits captured by forward hooks (`router.py`). It is a mixin so the SFT/DPO trainers can reuse it
  (`class MoeSFTTrainer(MoeLossMixin, SFTTrainer)`). LM, aux and z losses are logged separately, with per-layer
  expert load (busiest expert / mean, load entropy) and mean router entropy.
- Loss-spike guard (Ling report): after `spike_warmup_steps` optimizer steps, if an optimizer step's mean LM
  loss exceeds `spike_factor` x its running average (EMA) and lies `spike_sigma` running standard deviations
  above it, the accumulated gradients are dropped before the
  optimizer step, so the optimizer leaves every parameter and its moment estimates untouched (AdamW skips
  parameters without a gradient); the step counter and LR schedule still advance. After
  `spike_max_consecutive` skips in a row the level is accepted as the new normal. The guard's state is a
  stateful Trainer callback, saved in each checkpoint, so `--resume` continues it exactly. Under DDP the loss
  is averaged over processes first, so every rank takes the same decision.
- Saved checkpoints always have `output_router_logits=False` and `use_cache=True`: with the values TRL writes
  (`true` and `false`), batched `generate()` fails inside the load-balancing loss (a tensor size mismatch), as
  this project saw.
"""

from __future__ import annotations

import logging
import math
import os
from typing import Any

from transformers import Trainer, TrainerCallback
from transformers.trainer_callback import ExportableState

from .copy_task import CopyAuxMixin, grad_accum_divisor
from .router import ExpertLoadTracker, RouterCapture, load_balancing_loss, router_z_loss

logger = logging.getLogger("kg2tool.pretrain")


class SpikeGuard(TrainerCallback, ExportableState):
    """Running mean and spread of the per-step LM loss, and the skip decision (see the module docstring).

    A step is a spike when its loss is both `factor` x the running mean and `sigma` running standard deviations
    above it: the ratio alone fires on ordinary batch-to-batch variation of a mixed corpus (a batch of fact text
    next to batches of easy chat markup), the spread alone fires on tiny deviations once the loss is flat.
    """

    def __init__(
        self,
        factor: float = 1.5,
        warmup_steps: int = 50,
        beta: float = 0.95,
        max_consecutive: int = 5,
        sigma: float = 6.0,
    ):
        self.factor = factor
        self.warmup_steps = warmup_steps
        self.beta = beta
        self.max_consecutive = max_consecutive
        self.sigma = sigma
        self.ema: float | None = None
        self.var = 0.0
        self.seen = 0
        self.consecutive = 0
        self.skipped = 0

    def should_skip(self, loss: float) -> bool:
        """Record one optimizer step's loss; True if its update should be skipped."""
        if not math.isfinite(loss):
            self.skipped += 1
            return True
        spike = (
            self.factor > 0
            and self.ema is not None
            and self.seen >= self.warmup_steps
            and loss > self.factor * self.ema
            and loss > self.ema + self.sigma * math.sqrt(self.var)
            and self.consecutive < self.max_consecutive
        )
        if spike:
            self.consecutive += 1
            self.skipped += 1
            return True
        if self.consecutive >= self.max_consecutive:  # a lasting shift, not a spike: restart the statistics
            self.ema, self.var = None, 0.0
        self.consecutive = 0
        if self.ema is None:
            self.ema = loss
        else:
            delta = loss - self.ema
            self.ema += (1 - self.beta) * delta
            self.var = self.beta * (self.var + (1 - self.beta) * delta * delta)
        self.seen += 1
        return False

    def state(self) -> dict:
        """The guard's settings and counts, for the run report."""
        return {
            "args": {
                "factor": self.factor,
                "warmup_steps": self.warmup_steps,
                "beta": self.beta,
                "max_consecutive": self.max_consecutive,
                "sigma": self.sigma,
            },
            "attributes": {
                "ema": self.ema,
                "var": self.var,
                "seen": self.seen,
                "consecutive": self.consecutive,
                "skipped": self.skipped,
            },
        }


class MoeLossMixin:
    """Adds router aux + z losses, separate loss logging, expert-load stats and the spike guard to a Trainer.

    Reads `aux_loss_coef` and `z_loss_coef` from `self.loss_coefs` if set (the SFT/DPO runner sets it from
    kg2tool's own arguments), else from `self.args` (0 if absent).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        model = self.accelerator.unwrap_model(self.model) if hasattr(self, "accelerator") else self.model
        cfg = model.config
        self.router_capture = RouterCapture(model, top_k=getattr(cfg, "num_experts_per_tok", 1) or 1)
        self.num_experts = getattr(cfg, "num_experts", 0) or 0
        self.load_tracker = ExpertLoadTracker(num_experts=max(1, self.num_experts))
        self._sums: dict[str, float] = {}
        self._count = 0
        self._step_losses: list[float] = []

    # -- losses ----------------------------------------------------------------------------------------------
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        mask = inputs.get("attention_mask")
        with self.router_capture.recording() as cap:
            # Outputs only when asked: TRL's SFTTrainer recomputes the logits with an extra forward pass for them.
            result = super().compute_loss(
                model, inputs, return_outputs=return_outputs, num_items_in_batch=num_items_in_batch
            )
        loss, outputs = result if return_outputs else (result, None)
        # When the base loss is already normalized over the whole accumulated batch, scale ours the same way.
        ga = grad_accum_divisor(self, num_items_in_batch)
        lm = loss.detach() * ga
        if len(cap.logits):
            aux = load_balancing_loss(cap.logits, cap.selected, self.num_experts, mask)
            z = router_z_loss(cap.logits, mask)
            loss = loss + (self.args_coef("aux_loss_coef") * aux + self.args_coef("z_loss_coef") * z) / ga
            if model.training:
                self._record(lm=float(lm), aux=float(aux.detach()), z=float(z.detach()))
                self.load_tracker.update(cap, mask)
        elif model.training:
            self._record(lm=float(lm))
        if model.training:
            self._step_losses.append(float(lm))
        cap.logits, cap.selected = [], []
        return (loss, outputs) if return_outputs else loss

    def args_coef(self, name: str) -> float:
        """A router-loss coefficient: the stage's override (`loss_coefs`), else the training argument, else 0."""
        coefs = getattr(self, "loss_coefs", None) or {}
        return float(coefs.get(name, getattr(self.args, name, 0.0)) or 0.0)

    def _record(self, **values: float) -> None:
        for k, v in values.items():
            self._sums[k] = self._sums.get(k, 0.0) + v
        self._count += 1

    # -- spike guard -----------------------------------------------------------------------------------------
    def training_step(self, model, inputs, num_items_in_batch=None):
        loss = super().training_step(model, inputs, num_items_in_batch)
        if self.accelerator.sync_gradients and self._step_losses:
            self._guard_step(model)
        return loss

    def _guard_step(self, model) -> None:
        import torch

        step_loss = torch.tensor(sum(self._step_losses) / len(self._step_losses), device=self.args.device)
        self._step_losses = []
        if self.accelerator.num_processes > 1:
            step_loss = self.accelerator.reduce(step_loss, reduction="mean")
        guard = next((cb for cb in self.callback_handler.callbacks if isinstance(cb, SpikeGuard)), None)
        if guard is None:
            return
        ema = guard.ema
        if guard.should_skip(float(step_loss)):
            for p in model.parameters():
                p.grad = None
            logger.warning(
                "loss spike at step %d: LM loss %.4f vs running average %s; update skipped (%d so far)",
                self.state.global_step + 1,
                float(step_loss),
                f"{ema:.4f}" if ema is not None else "n/a",
                guard.skipped,
            )

    # -- logging ---------------------------------------------------------------------------------------------
    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        if "loss" in logs and self._count:
            for k, v in self._sums.items():
                logs[f"{k}_loss"] = round(v / self._count, 4)
            logs.update(self.load_tracker.summary())
            guard = next((cb for cb in self.callback_handler.callbacks if isinstance(cb, SpikeGuard)), None)
            if guard is not None:
                logs["spike_skipped"] = guard.skipped
            self._sums, self._count = {}, 0
            self.load_tracker.reset()
        super().log(logs, start_time)

    # -- checkpoints -----------------------------------------------------------------------------------------
    def _load_from_checkpoint(self, resume_from_checkpoint: str, model=None) -> None:
        """Trainer's resume path reads `model.safetensors` as a raw state dict, but MoE checkpoints store routed
        experts per expert (`experts.0.gate_proj.weight`, the layout vLLM loads) while the module holds fused
        tensors (`experts.gate_up_proj`): the experts silently stay at their fresh init (transformers 5.24 only
        warns about missing keys). Loading through `from_pretrained` applies the layout conversion."""
        target = self.accelerator.unwrap_model(model if model is not None else self.model)
        single_file = os.path.isfile(os.path.join(resume_from_checkpoint, "model.safetensors")) or os.path.isfile(
            os.path.join(resume_from_checkpoint, "model.safetensors.index.json")
        )
        if not single_file or self.is_fsdp_enabled or getattr(target, "peft_config", None):
            return super()._load_from_checkpoint(resume_from_checkpoint, model)
        loaded = type(target).from_pretrained(resume_from_checkpoint, dtype=next(target.parameters()).dtype)
        result = target.load_state_dict(loaded.state_dict(), strict=True)
        del loaded
        return result

    # -- saving ----------------------------------------------------------------------------------------------
    def _save(self, output_dir: str | None = None, state_dict=None) -> None:
        model = self.accelerator.unwrap_model(self.model)
        model.config.output_router_logits = False  # True breaks batched generate()
        model.config.use_cache = True
        super()._save(output_dir, state_dict)


class MoePretrainer(CopyAuxMixin, MoeLossMixin, Trainer):
    """`Trainer` for causal-LM pretraining of a MoE. The LM loss is a per-micro-batch mean (packed blocks all have
    the same number of tokens), so the model is not handed `num_items_in_batch`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.model_accepts_loss_kwargs = False


def collate_blocks(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Packed blocks -> `input_ids` and `labels` (the model shifts labels itself); blocks packed by document
    (`corpus.pack_documents`) also carry `position_ids` (restarting at each document: the model then masks
    attention across documents, with `use_cache=False`) and their own `labels` (-100 on padding)."""
    import torch

    ids = torch.tensor([r["input_ids"] for r in rows], dtype=torch.long)
    batch = {"input_ids": ids, "labels": ids.clone()}
    if "position_ids" in rows[0]:
        batch["position_ids"] = torch.tensor([r["position_ids"] for r in rows], dtype=torch.long)
        batch["labels"] = torch.tensor([r["labels"] for r in rows], dtype=torch.long)
        batch["use_cache"] = False  # transformers derives the per-document mask only without a cache
    return batch
