"""Supervised fine-tuning on `kg2tool synth` conversations with TRL's `SFTTrainer` (full or LoRA).

    kg2tool sft --config sft/tiny.yaml
    kg2tool sft --config sft/tiny-lora.yaml --output_dir runs/sft-lora --max_steps 100

Design choices:
- The trainer is TRL's `SFTTrainer` on the dataset's `messages` + `tools` columns as loaded: TRL renders them
  through the tokenizer's chat template and, with `assistant_only_loss`, trains only on what the assistant writes
  (tool calls, answers, the closing `<|im_end|>`), via the template's `{% generation %}` markers.
- Shared machinery (arguments, loading, LoRA targets, MoE losses, saving, reports) is in the `finetune*.py`
  modules; a short run (`--max_steps` drawing fewer rows than there are) keeps only the rows it can draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trl import SFTConfig, SFTTrainer

from .finetune import RunSetup
from .finetune_run import finish_report, run_stage


@dataclass
class KgSFTConfig(SFTConfig):
    """TRL's `SFTConfig` with the defaults a kg2tool recipe wants on any machine: assistant-only loss, no
    activation (gradient) checkpointing (TRL's CPU default: slower than plain backprop for small models, measured by
    this project at 0.37-0.51 s per batch-8 step without it), the `validation` split for evaluation."""

    assistant_only_loss: bool = True
    activation_checkpointing: bool | None = False
    fused_lm_head: bool = field(
        default=True,
        metadata={
            "help": "TRL's chunked LM-head loss over every position (saves memory on large vocabularies); false "
            "projects only the labelled (assistant) positions onto the vocabulary: much faster on CPU for small models"
        },
    )


class KgSFTTrainer(SFTTrainer):
    """`SFTTrainer` that can compute the loss on the trained positions only (`fused_lm_head: false`).

    TRL 1.16 always routes the loss through its chunked log-prob kernel, which projects every position onto the
    vocabulary; on a CPU with a 3M-parameter model and an 8k vocabulary that took ~7 s of an ~11.7 s step
    (profiled). With assistant-only loss most positions (the tool schemas, the question) carry no label, so here
    the decoder's hidden states are gathered at the labelled positions first and only those go through the LM
    head: the same cross-entropy (summed, divided by `num_items_in_batch` like TRL's), a fraction of the work.
    Hand-written because neither TRL nor transformers offers a per-position `logits_to_keep` for training.
    `mean_token_accuracy` is logged from the same logits; TRL's `entropy` metric is not."""

    pointing = None  # a PointingSetup (kg2tool.train.pointing) when the run asks for argument supervision

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        """Cross-entropy on the labelled positions (argument tokens weighted when `pointing` asks), plus the
        pointer loss on the last layer's head (`kg2tool.train.pointing`).

        Long because the one decoder pass feeds both losses and TRL's token metrics, which must stay together."""
        if self.args.fused_lm_head or return_outputs:
            return super().compute_loss(model, inputs, return_outputs, num_items_in_batch)
        import torch
        import torch.nn.functional as F

        from .copy_task import grad_accum_divisor
        from .pointing import batch_targets

        mode = "train" if self.model.training else "eval"
        labels = inputs["labels"]
        model_inputs = {k: v for k, v in inputs.items() if k not in ("labels", "num_items_in_batch")}
        unwrapped = self.accelerator.unwrap_model(model)
        pointing = self.pointing if model.training else None
        rows = batch_targets(pointing.spans, inputs["input_ids"], labels) if pointing is not None else None
        if pointing is not None:
            pointing.capture.clear()
        hidden = unwrapped.get_decoder()(**model_inputs, use_cache=False).last_hidden_state
        targets = labels[:, 1:]
        keep = targets != -100
        logits = unwrapped.get_output_embeddings()(hidden[:, :-1][keep]).float()
        picked = targets[keep]
        per_token = F.cross_entropy(logits, picked, reduction="none")
        if pointing is not None:
            pointing.record_ce(float(per_token.detach().mean()) if per_token.numel() else 0.0)
            per_token = pointing.weighted(per_token, rows, labels, keep)
        total = per_token.sum()
        count = num_items_in_batch if num_items_in_batch is not None else keep.sum()
        loss = total / torch.as_tensor(count, device=total.device).clamp(min=1)
        if self.args.average_tokens_across_devices and num_items_in_batch is not None:
            loss = loss * self.accelerator.num_processes
        if pointing is not None:
            point = pointing.loss(rows, inputs.get("attention_mask"))
            if point is not None:
                weight = pointing.weight_at(self.state.global_step)
                loss = loss + weight * point / grad_accum_divisor(self, num_items_in_batch)
        with torch.no_grad():
            num_valid = self.accelerator.gather_for_metrics(keep.sum()).sum()
            num_correct = self.accelerator.gather_for_metrics((logits.argmax(-1) == picked).sum()).sum()
        self._metrics[mode]["mean_token_accuracy"].append((num_correct / num_valid).item() if num_valid > 0 else 0.0)
        if mode == "train" and "attention_mask" in inputs:
            self._total_train_tokens += (
                self.accelerator.gather_for_metrics(inputs["attention_mask"].sum()).sum().item()
            )
            self._metrics[mode]["num_tokens"] = [self._total_train_tokens]
        return loss

    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        if "loss" in logs and self.pointing is not None:
            logs.update(self.pointing.summary())
        super().log(logs, start_time)


def run_sft(setup: RunSetup) -> dict[str, Any]:
    """Train, save, report, from a parsed `RunSetup` (`finetune.parse_stage`). Returns the report (also
    `sft_report.json` in `output_dir`)."""
    _, report, full = run_stage(
        setup,
        "sft",
        KgSFTTrainer,
        ["messages", "tools"],
        "training conversations",
        need_generation_markers=setup.training.assistant_only_loss,
        trim=True,
    )
    return finish_report(setup, "sft", report, full["test"] if "test" in full else None)
