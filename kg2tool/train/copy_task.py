"""In-context copying for tiny models trained from scratch: a random-segment warm-up and an auxiliary copy loss.

A tool call is mostly copying: the entity name of the question goes into the call's arguments, a tool result goes
into the next call and the answer. A transformer copies with induction heads ("find where the current token
occurred before, predict what followed it there"). Measured on this project's machines (research log,
docs/research/learning-effect.md, session 3): tiny models trained from scratch on tool-call conversations, on
packed text or on copy drills did not form induction heads within the step budget of 2 CPU cores, so after SFT they
emitted memorized names for unseen entities. Random token segments shown twice ("a b c ... a b c ...") form the
circuit in ~200 steps (under a minute), but training on conversations alone erases it again within a few hundred
steps, unless the copy task stays in the loss. Hence two knobs, used by `kg2tool pretrain` and `kg2tool sft`:

- `copy_warmup(...)`: before the corpus, a few hundred optimizer steps on random segments shown twice, with the
  loss on the second showing only.
- `CopyAuxMixin`: every training step adds `weight` x the same loss on a few fresh random segments.

Design choices:
- Segments are drawn from the token ids that entity names use (`name_token_pool`): the circuit is then trained on
  the tokens it must copy later, and a pool of a few thousand ids learns faster than the whole vocabulary.
- Batches come from a seeded `torch.Generator` per task, so runs repeat exactly. The auxiliary task's generator
  state is saved in every checkpoint (`copy_task_rng.pth`, beside Trainer's `rng_state.pth`) and restored on
  `--resume`: without it a resumed run redrew the segments of steps 1, 2, ... after the checkpoint and its
  final weights differed from an uninterrupted run's.
- The auxiliary forward runs outside the MoE router capture, so it does not enter the load-balancing statistics.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


def name_token_pool(tokenizer, names: Iterable[str], limit: int = 20000) -> list[int]:
    """Sorted ids of the tokens the first `limit` names tokenize into, special tokens left out."""
    names = [n for n in names if n][:limit]
    special = set(getattr(tokenizer, "all_special_ids", []) or [])
    pool: set[int] = set()
    for start in range(0, len(names), 1000):
        for ids in tokenizer(names[start : start + 1000], add_special_tokens=False)["input_ids"]:
            pool.update(i for i in ids if i not in special)
    return sorted(pool)


def argument_strings(rows: Iterable[dict[str, Any]]) -> list[str]:
    """String argument values of every assistant tool call in synth-style rows (`messages`, JSON or dicts)."""
    import json

    out: list[str] = []
    for row in rows:
        messages = row.get("messages") or []
        if isinstance(messages, str):
            messages = json.loads(messages)
        for message in messages:
            for call in message.get("tool_calls") or []:
                args = (call.get("function") or call).get("arguments")
                if isinstance(args, str):
                    try:
                        args = json.loads(args)
                    except json.JSONDecodeError:
                        continue
                for value in (args or {}).values():
                    values = value if isinstance(value, list) else [value]
                    for v in values:
                        if isinstance(v, str):
                            out.append(v)
                        elif isinstance(v, list):
                            out.extend(x for x in v if isinstance(x, str))
    return out


LAYOUTS = ("fixed", "varied")


@dataclass
class CopyTask:
    """Random segments of ids from `pool`, each shown twice; labels only on the second showing.

    `layout`: `fixed` (a segment of `segment_length` ids, then the same again: `[n, 2 * segment_length]`) or
    `varied` (`[n, 3 * segment_length]` of random ids in which a segment of 3 to `segment_length` ids appears at a
    random place and again after a random gap; labelled from its second id on, the first being unpredictable).
    The fixed layout can be solved without looking at the tokens at all ("repeat what stood `segment_length`
    positions back"), and a model trained on it copies names from a question no better than chance (research log,
    session 8); only content-based copying (induction) solves the varied one."""

    pool: Sequence[int]
    segment_length: int = 24
    seed: int = 0
    layout: str = "fixed"
    _gen: Any = field(default=None, repr=False)
    _pool: Any = field(default=None, repr=False)

    def __post_init__(self):
        if len(self.pool) < 2:
            raise ValueError("the copy task needs a pool of at least 2 token ids")
        if self.segment_length < 2 or (self.layout == "varied" and self.segment_length < 3):
            raise ValueError("copy segment length must be at least 2 (3 for the varied layout)")
        if self.layout not in LAYOUTS:
            raise ValueError(f"copy layout must be one of {', '.join(LAYOUTS)}, not {self.layout!r}")

    def batch(self, n: int, device=None):
        """`(input_ids, labels)`, `[n, 2 * segment_length]` (fixed) or `[n, 3 * segment_length]` (varied)."""
        import torch

        self._start()
        if self.layout == "varied":
            ids, labels = self._varied(n)
        else:
            picks = torch.randint(len(self._pool), (n, self.segment_length), generator=self._gen)
            seg = self._pool[picks]
            ids = torch.cat([seg, seg], dim=1)
            labels = ids.clone()
            labels[:, : self.segment_length] = -100
        if device is not None:
            ids, labels = ids.to(device), labels.to(device)
        return ids, labels

    def _varied(self, n: int):
        import torch

        length = self.segment_length
        total = 3 * length
        ids = self._pool[torch.randint(len(self._pool), (n, total), generator=self._gen)]
        labels = torch.full_like(ids, -100)
        for b in range(n):
            size = int(torch.randint(3, length + 1, (1,), generator=self._gen))
            room = total - 2 * size
            start = int(torch.randint(0, room + 1, (1,), generator=self._gen))
            again = start + size + int(torch.randint(0, room - start + 1, (1,), generator=self._gen))
            ids[b, again : again + size] = ids[b, start : start + size]
            labels[b, again + 1 : again + size] = ids[b, again + 1 : again + size]
        return ids, labels


    def _start(self) -> None:
        import torch

        if self._gen is None:
            self._gen = torch.Generator().manual_seed(self.seed)
            self._pool = torch.as_tensor(list(self.pool), dtype=torch.long)

    def get_state(self):
        """The generator's state (a uint8 tensor): where the stream of segments stands."""
        self._start()
        return self._gen.get_state()

    def set_state(self, state) -> None:
        """Continue the stream of segments from a `get_state()` result."""
        self._start()
        self._gen.set_state(state)


def grad_accum_divisor(trainer, num_items_in_batch) -> int:
    """What an extra loss term must be divided by to match the trainer's loss under gradient accumulation: the
    accumulation steps when the base loss is already normalized over the whole accumulated batch, else 1."""
    scaled = (
        trainer.loss_is_scaled_for_ga
        if getattr(trainer, "loss_is_scaled_for_ga", None) is not None
        else (trainer.model_accepts_loss_kwargs and num_items_in_batch is not None)
    )
    return trainer.current_gradient_accumulation_steps if scaled else 1


def copy_accuracy(model, task: CopyTask, n: int = 32) -> float:
    """Share of second-showing tokens (after the first) that greedy next-token prediction gets right, on `n` fresh
    segments from a separate generator (the probe does not disturb the training stream)."""
    import torch

    probe = CopyTask(task.pool, task.segment_length, seed=task.seed + 7919, layout=task.layout)
    device = next(model.parameters()).device
    ids, labels = probe.batch(n, device)
    was_training = model.training
    model.eval()
    with torch.no_grad():
        pred = model(input_ids=ids).logits.argmax(-1)
    model.train(was_training)
    if task.layout == "fixed":  # every id after the first of the second showing (as before the varied layout)
        L = task.segment_length
        return float((pred[:, L:-1] == ids[:, L + 1 :]).float().mean())
    keep = labels[:, 1:] != -100
    return float((pred[:, :-1][keep] == labels[:, 1:][keep]).float().mean())


def copy_warmup(
    model,
    task: CopyTask,
    steps: int,
    lr: float,
    batch_size: int = 16,
    warmup: int = 30,
    weight_decay: float = 0.0,
    log=print,
) -> list[dict[str, float]]:
    """`steps` AdamW steps on the copy task alone (linear learning-rate warm-up over `warmup` steps, then flat).
    Returns a history of `{step, loss, copy_accuracy, seconds}` every 25 steps and at the end."""
    import torch

    device = next(model.parameters()).device
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.95), weight_decay=weight_decay)
    model.train()
    history: list[dict[str, float]] = []
    started = time.time()
    for step in range(1, steps + 1):
        for group in opt.param_groups:
            group["lr"] = lr * min(1.0, step / max(1, warmup))
        ids, labels = task.batch(batch_size, device)
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        if step % 25 == 0 or step == steps:
            entry = {
                "step": step,
                "loss": round(loss.item(), 4),
                "copy_accuracy": round(copy_accuracy(model, task), 4),
                "seconds": round(time.time() - started, 1),
            }
            history.append(entry)
            if log:
                log(
                    f"copy warm-up {step}/{steps}: loss {entry['loss']:.3f}, copy accuracy "
                    f"{entry['copy_accuracy']:.2f} ({entry['seconds']:.0f} s)"
                )
        if not math.isfinite(loss.item()):
            raise RuntimeError(f"copy warm-up diverged at step {step} (loss {float(loss)}); lower the learning rate")
    return history


class CopyAuxMixin:
    """Adds `copy_aux_weight` x the copy-task loss on `copy_aux_batch` fresh segments to every training loss.

    Set `copy_task` (a `CopyTask`), `copy_aux_weight` and `copy_aux_batch` on the trainer after construction; with
    no task or a zero weight it changes nothing. The mean copy loss is logged as `copy_loss`."""

    copy_task: CopyTask | None = None
    copy_aux_weight: float = 0.0
    copy_aux_batch: int = 4

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        result = super().compute_loss(
            model, inputs, return_outputs=return_outputs, num_items_in_batch=num_items_in_batch
        )
        if self.copy_task is None or self.copy_aux_weight <= 0 or not model.training:
            return result
        loss, outputs = result if return_outputs else (result, None)
        ids, labels = self.copy_task.batch(self.copy_aux_batch, loss.device)
        copy_loss = model(input_ids=ids, labels=labels).loss
        loss = loss + self.copy_aux_weight * copy_loss / grad_accum_divisor(self, num_items_in_batch)
        self._copy_sum = getattr(self, "_copy_sum", 0.0) + float(copy_loss.detach())
        self._copy_n = getattr(self, "_copy_n", 0) + 1
        return (loss, outputs) if return_outputs else loss

    def _copy_rng_file(self, folder: str):
        from pathlib import Path

        suffix = f"_{self.args.process_index}" if self.args.world_size > 1 else ""
        return Path(folder) / f"copy_task_rng{suffix}.pth"

    def _save_rng_state(self, output_dir: str) -> None:
        """Trainer's RNG states plus the copy task's generator, so `--resume` draws the segments an uninterrupted
        run would have drawn."""
        super()._save_rng_state(output_dir)
        if self.copy_task is not None:
            import torch

            torch.save(self.copy_task.get_state(), self._copy_rng_file(output_dir))

    def _load_rng_state(self, checkpoint: str | None) -> None:
        super()._load_rng_state(checkpoint)
        if self.copy_task is not None and checkpoint is not None and self._copy_rng_file(checkpoint).is_file():
            import torch

            self.copy_task.set_state(torch.load(self._copy_rng_file(checkpoint), weights_only=True))

    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        if "loss" in logs and getattr(self, "_copy_n", 0):
            logs["copy_loss"] = round(self._copy_sum / self._copy_n, 4)
            self._copy_sum, self._copy_n = 0.0, 0
        super().log(logs, start_time)
