"""Ling-style MoE pretraining on Hugging Face `Trainer`: router losses, expert-load logging, loss-spike guard.

Design choices:
- `PretrainConfig` subclasses `TrainingArguments`, so every Trainer option (and `accelerate launch` for several
  GPUs) works unchanged; the recipe adds corpus, tokenizer, model-shape and MoE-loss fields.
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
- Data preparation (corpus documents, tokenizer, packed blocks) is written to `output_dir/prepared/` once; a
  resumed run reuses it, so resume is exact (same tokenizer, same blocks, same order).
- Saved checkpoints always have `output_router_logits=False` and `use_cache=True` (STACK.md pitfall 2), and the
  tokenizer with the chat template, so `AutoModelForCausalLM/AutoTokenizer.from_pretrained` load and generate.
"""

from __future__ import annotations

import json
import logging
import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from transformers import Trainer, TrainerCallback, TrainingArguments
from transformers.trainer_callback import ExportableState

from ..common.errors import InputError, NothingToDoError, OutputError, UsageError
from ..llm.chat_format import TEMPLATES
from .copy_task import (
    CopyAuxMixin,
    CopyTask,
    argument_strings,
    copy_accuracy,
    copy_warmup,
    grad_accum_divisor,
    name_token_pool,
)
from .corpus import CorpusConfig, CorpusStats, build_documents, load_synth_rows, pack, read_text_files
from .moe import MoePreset, get_preset
from .router import ExpertLoadTracker, RouterCapture, load_balancing_loss, router_z_loss
from .tokenizer import PRETOKENIZE_PATTERNS, TokenizerConfig, name_consistency, tokens_per_name, train_tokenizer

logger = logging.getLogger("kg2tool.pretrain")


@dataclass
class PretrainConfig(TrainingArguments):
    """`TrainingArguments` plus the pretraining recipe.

    Parameters:
        model_preset: `tiny`, `small` or `ling-lite` (see `kg2tool.train.moe.PRESETS`).
        model_overrides: preset fields to change, as a mapping (YAML) or a JSON string (flag), e.g.
            `{"num_hidden_layers": 6}`. `vocab_size` always follows the tokenizer.
        graph: graph files whose facts are verbalized into the corpus.
        lang: preferred label language when loading the graph.
        dataset_name: local synth dataset folders; their conversations are rendered with the chat template
            (folders whose rows have a `text` column contribute that text).
        dataset_config: dataset configuration to load from each folder (`sft`).
        dataset_split: split to read (`train`).
        text_files: plain text files added to the corpus.
        tokenizer_name_or_path: use this tokenizer instead of training one (must carry a chat template).
        vocab_size: BPE vocabulary size to train.
        name_repeats: times each entity name is added to the tokenizer's training text.
        pretokenizer: the tokenizer's pre-tokenization (`kg2tool.train.tokenizer.PRETOKENIZE_PATTERNS`): `names`
            (names tokenize the same in questions and JSON) or `words` (every space isolated: relation words too
            are the same tokens in a question and in a function name; ~40% more tokens).
        tool_format: the chat template's tool listing, `full` (JSON schemas), `compact` (one line per tool: tiny
            CPU models read ~100 prompt tokens instead of ~900; `chat_format.COMPACT_CHAT_TEMPLATE`) or
            `signatures` (the compact lines without descriptions).
        max_length: length of the packed training blocks, in tokens.
        fact_passes: times each graph fact is verbalized (random template each time).
        synthetic_fraction: share of the corpus made of random-name tool-call conversations.
        synthetic_tools_share: share of the random-name conversations rendered with their tool listing (the rest
            without it: shorter, denser in copy events, and the tool listing is left for SFT to teach).
        max_synthetic: cap on the number of random-name conversations.
        dataset_repeats: times the synth dataset's conversations are included.
        aux_loss_coef: weight of the load-balancing loss (Ling: ~0.015; the loss is ~top_k when balanced).
        z_loss_coef: weight of the router z-loss (Ling: ~1e-4).
        spike_factor: skip an update whose loss exceeds this multiple of the running average (0 disables)...
        spike_sigma: ... and exceeds the running average by this many running standard deviations.
        spike_warmup_steps: optimizer steps before the guard starts judging.
        spike_ema_beta: decay of the running average of the loss.
        spike_max_consecutive: after this many skips in a row, accept the new loss level.
        copy_warmup_steps: optimizer steps on random token segments shown twice before the corpus (forms the
            in-context copying circuit; `kg2tool.train.copy_task`). 0 disables.
        copy_aux_weight: weight of the same copy loss added to every training step (keeps the circuit). 0 disables.
        copy_aux_batch: segments per step for the auxiliary copy loss (and 16 per warm-up step).
        copy_segment_length: tokens per segment (each shown twice).
        resume: continue from the last checkpoint in `output_dir` (or from `resume_from_checkpoint` if set).
        overwrite: allow writing into an `output_dir` that already holds a run.
        sample_prompt: after training, greedy-generate from this prompt and print it (empty to skip).
        torch_num_threads: CPU threads for torch; 0 keeps torch's default (one per core). On a shared CPU, 1 can be
            several times faster than oversubscribed cores.
    """

    model_preset: str = field(default="tiny", metadata={"help": "tiny | small | ling-lite"})
    model_overrides: dict | str | None = field(default=None, metadata={"help": "JSON mapping of preset fields"})
    graph: list[str] = field(default_factory=list, metadata={"help": "graph files (facts -> corpus)"})
    lang: str = field(default="en", metadata={"help": "preferred label language"})
    dataset_name: list[str] = field(default_factory=list, metadata={"help": "local synth dataset folders"})
    dataset_config: str = field(default="sft", metadata={"help": "dataset configuration to load"})
    dataset_split: str = field(default="train", metadata={"help": "dataset split to read"})
    text_files: list[str] = field(default_factory=list, metadata={"help": "plain text files for the corpus"})
    tokenizer_name_or_path: str | None = field(default=None, metadata={"help": "reuse this tokenizer"})
    vocab_size: int = field(default=8192, metadata={"help": "BPE vocabulary size to train"})
    name_repeats: int = field(default=4, metadata={"help": "entity-name repeats in tokenizer training"})
    pretokenizer: str = field(
        default="names", metadata={"help": "tokenizer pre-tokenization: names | words | trailing (tokenizer.py)"}
    )
    tool_format: str = field(
        default="full", metadata={"help": "tool listing in the chat template: full | compact | signatures"}
    )
    max_length: int = field(default=256, metadata={"help": "packed block length (tokens)"})
    fact_passes: int = field(default=2, metadata={"help": "verbalizations per graph fact"})
    synthetic_fraction: float = field(default=0.5, metadata={"help": "share of random-name tool-call chats"})
    synthetic_tools_share: float = field(default=0.25, metadata={"help": "share of them with their tool listing"})
    max_synthetic: int = field(default=200_000, metadata={"help": "cap on random-name conversations"})
    dataset_repeats: int = field(default=1, metadata={"help": "repeats of the synth dataset conversations"})
    aux_loss_coef: float = field(default=0.015, metadata={"help": "load-balancing loss weight"})
    z_loss_coef: float = field(default=1e-4, metadata={"help": "router z-loss weight"})
    spike_factor: float = field(default=1.5, metadata={"help": "skip updates with loss > factor x running avg"})
    spike_sigma: float = field(default=6.0, metadata={"help": "... and > this many running std devs above it"})
    spike_warmup_steps: int = field(default=50, metadata={"help": "steps before the spike guard judges"})
    spike_ema_beta: float = field(default=0.95, metadata={"help": "running-average decay"})
    spike_max_consecutive: int = field(default=5, metadata={"help": "accept the level after this many skips"})
    copy_warmup_steps: int = field(default=0, metadata={"help": "copy-task steps before the corpus (0: none)"})
    copy_aux_weight: float = field(default=0.0, metadata={"help": "weight of the auxiliary copy loss (0: none)"})
    copy_aux_batch: int = field(default=4, metadata={"help": "segments per step for the auxiliary copy loss"})
    copy_segment_length: int = field(default=24, metadata={"help": "tokens per copy segment"})
    resume: bool = field(default=False, metadata={"help": "resume from the last checkpoint in output_dir"})
    overwrite: bool = field(default=False, metadata={"help": "allow an output_dir that already holds a run"})
    sample_prompt: str = field(default="The country of", metadata={"help": "prompt for a post-training sample"})
    torch_num_threads: int = field(default=0, metadata={"help": "CPU threads for torch (0: torch's default)"})

    def __post_init__(self):
        if isinstance(self.model_overrides, str):
            try:
                self.model_overrides = json.loads(self.model_overrides) if self.model_overrides.strip() else None
            except json.JSONDecodeError as exc:
                raise ValueError(f"--model_overrides is not a JSON object: {exc}") from exc
        if self.model_overrides is not None and not isinstance(self.model_overrides, dict):
            raise ValueError("model_overrides must be a mapping of preset field names to values")
        if not 0 <= self.synthetic_fraction < 1:
            raise ValueError("synthetic_fraction must be in [0, 1)")
        if self.pretokenizer not in PRETOKENIZE_PATTERNS:
            raise ValueError(
                f"pretokenizer must be one of {', '.join(PRETOKENIZE_PATTERNS)}, not {self.pretokenizer!r}"
            )
        if self.tool_format not in TEMPLATES:
            raise ValueError(f"tool_format must be one of {', '.join(TEMPLATES)}, not {self.tool_format!r}")
        if self.max_length < 8:
            raise ValueError("max_length must be at least 8 tokens")
        if self.copy_warmup_steps < 0 or self.copy_aux_weight < 0 or self.copy_aux_batch < 1:
            raise ValueError("copy_warmup_steps and copy_aux_weight must be >= 0, copy_aux_batch >= 1")
        if self.copy_segment_length < 2:
            raise ValueError("copy_segment_length must be at least 2")
        super().__post_init__()

    def preset(self) -> MoePreset:
        return get_preset(self.model_preset).with_overrides(**(self.model_overrides or {}))


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
        model.config.output_router_logits = False  # STACK.md pitfall 2
        model.config.use_cache = True
        super()._save(output_dir, state_dict)


class MoePretrainer(CopyAuxMixin, MoeLossMixin, Trainer):
    """`Trainer` for causal-LM pretraining of a MoE. The LM loss is a per-micro-batch mean (packed blocks all have
    the same number of tokens), so the model is not handed `num_items_in_batch`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.model_accepts_loss_kwargs = False


def collate_blocks(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Packed blocks -> `input_ids` and `labels` (the model shifts labels itself)."""
    import torch

    ids = torch.tensor([r["input_ids"] for r in rows], dtype=torch.long)
    return {"input_ids": ids, "labels": ids.clone()}


# -- data preparation ------------------------------------------------------------------------------------------
def _load_kg(config: PretrainConfig):
    if not config.graph:
        return None
    from ..graph.build import load_graph

    return load_graph(config.graph, lang=config.lang)


def prepare_data(config: PretrainConfig, prepared: Path):
    """Build (or reuse) the tokenizer and packed blocks under `prepared/`. Returns `(tokenizer, dataset, stats)`."""
    import datasets
    from tokenizers import Tokenizer, models
    from transformers import AutoTokenizer

    from .tokenizer import wrap_tokenizer

    if (prepared / "blocks").exists() and (prepared / "tokenizer").exists():
        logger.info("reusing prepared data in %s", prepared)
        tokenizer = AutoTokenizer.from_pretrained(prepared / "tokenizer")
        blocks = datasets.load_from_disk(str(prepared / "blocks"))
        stats = json.loads((prepared / "stats.json").read_text())
        if (prepared / "copy_pool.json").exists():
            stats["copy_pool"] = json.loads((prepared / "copy_pool.json").read_text())
        return tokenizer, blocks, stats

    t0 = time.time()
    kg = _load_kg(config)
    rows: list[dict[str, Any]] = []
    for path in config.dataset_name:
        rows.extend(load_synth_rows(path, config.dataset_config, config.dataset_split))
    text_docs = read_text_files(config.text_files)
    if kg is None and not rows and not text_docs:
        raise UsageError("no corpus: give --graph, --dataset_name and/or --text_files")
    corpus_cfg = CorpusConfig(
        fact_passes=config.fact_passes,
        synthetic_fraction=config.synthetic_fraction,
        synthetic_tools_share=config.synthetic_tools_share,
        max_synthetic=config.max_synthetic,
        dataset_repeats=config.dataset_repeats,
        seed=config.seed,
    )
    renderer = wrap_tokenizer(Tokenizer(models.BPE()), config.tool_format)  # renders the template; no vocabulary
    cstats = CorpusStats()
    docs = build_documents(kg, renderer, corpus_cfg, rows, text_docs, cstats)
    names = kg.entity_names() if kg is not None else []
    t1 = time.time()
    if config.tokenizer_name_or_path:
        tokenizer = AutoTokenizer.from_pretrained(config.tokenizer_name_or_path)
        if not tokenizer.chat_template:
            raise InputError(f"tokenizer {config.tokenizer_name_or_path} has no chat template")
    else:
        tok_cfg = TokenizerConfig(
            vocab_size=config.vocab_size,
            name_repeats=config.name_repeats,
            tool_format=config.tool_format,
            pretokenizer=config.pretokenizer,
        )
        tokenizer = train_tokenizer(docs, names, tok_cfg)
    t2 = time.time()
    blocks = pack(docs, tokenizer, config.max_length, cstats)
    if not blocks:
        raise InputError(f"the corpus has fewer than max_length={config.max_length} tokens")
    dataset = datasets.Dataset.from_dict({"input_ids": blocks})
    # token ids of entity names and call arguments: what the copy task draws its segments from
    pool = name_token_pool(tokenizer, list(names) + argument_strings(rows))
    sample = names[:2000]
    stats = {
        **asdict(cstats),
        "vocab_size": len(tokenizer),
        "tokens_per_name": round(tokens_per_name(tokenizer, sample), 3),
        "name_consistency": round(name_consistency(tokenizer, sample), 4),
        "seconds": {"corpus": round(t1 - t0, 1), "tokenizer": round(t2 - t1, 1), "pack": round(time.time() - t2, 1)},
    }
    stats["copy_pool_size"] = len(pool)
    if config.should_save:
        from ..common.files import atomic_path

        with atomic_path(prepared, folder=True) as tmp:
            tokenizer.save_pretrained(tmp / "tokenizer")
            dataset.save_to_disk(str(tmp / "blocks"))
            (tmp / "stats.json").write_text(json.dumps(stats, indent=2))
            (tmp / "copy_pool.json").write_text(json.dumps(pool))
        dataset = datasets.load_from_disk(str(prepared / "blocks"))
    stats["copy_pool"] = pool
    return tokenizer, dataset, stats


def build_model(config: PretrainConfig, tokenizer):
    """A freshly initialized qwen2_moe for the preset, sized to the tokenizer. Returns `(model, preset)`."""
    from transformers import AutoModelForCausalLM, set_seed

    preset = config.preset().with_overrides(vocab_size=len(tokenizer))
    model_config = preset.to_config(
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
        max_position_embeddings=max(preset.max_position_embeddings, config.max_length),
    )
    set_seed(config.seed)
    model = AutoModelForCausalLM.from_config(model_config)
    gen = model.generation_config
    gen.eos_token_id = [tokenizer.eos_token_id, tokenizer.pad_token_id]
    gen.pad_token_id = tokenizer.pad_token_id
    gen.bos_token_id = None
    return model, preset


def _check_output_dir(config, run_markers: tuple[str, ...] = ("prepared",)) -> str | bool | None:
    """Decide what to resume from; refuse to silently mix a new run into an old one.

    `config` has `output_dir`, `resume`, `resume_from_checkpoint`, `overwrite` and `max_steps`; a folder holding a
    `checkpoint-*` or any of `run_markers` already holds a run."""
    out = Path(config.output_dir)
    checkpoints = sorted(
        (p for p in out.glob("checkpoint-*") if p.name.split("-")[-1].isdigit()),
        key=lambda p: int(p.name.split("-")[-1]),
    )
    if config.resume or config.resume_from_checkpoint:
        if config.resume_from_checkpoint:
            if not Path(config.resume_from_checkpoint).is_dir():
                raise InputError(f"checkpoint not found: {config.resume_from_checkpoint}")
            return config.resume_from_checkpoint
        if not checkpoints:
            raise InputError(f"--resume: no checkpoint-* folder in {out}")
        last = checkpoints[-1]
        state_file = last / "trainer_state.json"
        step = json.loads(state_file.read_text()).get("global_step", 0) if state_file.exists() else 0
        if 0 < config.max_steps <= step:
            raise NothingToDoError(
                f"{last} is already at step {step} >= max_steps={config.max_steps}; raise --max_steps to go on"
            )
        return str(last)
    held = checkpoints or any((out / marker).exists() for marker in run_markers)
    if out.exists() and held and not config.overwrite:
        raise OutputError(f"{out} already holds a run: pass --resume to continue it or --overwrite to start over")
    if config.overwrite and (out / "prepared").exists():
        import shutil

        shutil.rmtree(out / "prepared")
    return None


def run_pretrain(config: PretrainConfig, extra_callbacks: list | None = None) -> dict[str, Any]:
    """Prepare data, build the model, train, save. Returns the run report (also written to `pretrain_report.json`)."""
    t_start = time.time()
    if config.torch_num_threads > 0:
        import torch

        torch.set_num_threads(config.torch_num_threads)
    resume_from = _check_output_dir(config)
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    with config.main_process_first(desc="prepare the corpus and tokenizer"):  # other ranks then reuse it
        tokenizer, dataset, data_stats = prepare_data(config, out / "prepared")
    model, preset = build_model(config, tokenizer)
    counts = preset.param_counts()
    print(f"model: {preset.describe()}", flush=True)
    print(
        f"corpus: {data_stats['tokens']:,} tokens in {data_stats['blocks']:,} blocks of {config.max_length} "
        f"({data_stats['documents']}); vocab {data_stats['vocab_size']}, "
        f"{data_stats['tokens_per_name']} tokens/name, name consistency {data_stats['name_consistency']}",
        flush=True,
    )
    guard = SpikeGuard(
        config.spike_factor,
        config.spike_warmup_steps,
        config.spike_ema_beta,
        config.spike_max_consecutive,
        config.spike_sigma,
    )
    pool = data_stats.pop("copy_pool", None) or []
    copy_task = None
    if config.copy_warmup_steps or config.copy_aux_weight:
        if len(pool) < 2:
            raise InputError("the copy task needs entity names (--graph) or tool calls (--dataset_name) in the corpus")
        copy_task = CopyTask(pool, config.copy_segment_length, seed=config.seed)
    warmup_history: list[dict] = []
    if copy_task is not None and config.copy_warmup_steps and resume_from is None:
        print(
            f"copy warm-up: {config.copy_warmup_steps} steps on random segments of {len(pool):,} name tokens",
            flush=True,
        )
        warmup_history = copy_warmup(
            model, copy_task, config.copy_warmup_steps, config.learning_rate, weight_decay=config.weight_decay
        )
    trainer = MoePretrainer(
        model=model,
        args=config,
        train_dataset=dataset,
        data_collator=collate_blocks,
        processing_class=tokenizer,
        callbacks=[guard, *(extra_callbacks or [])],
    )
    if copy_task is not None and config.copy_aux_weight:
        trainer.copy_task = CopyTask(pool, config.copy_segment_length, seed=config.seed + 1)
        trainer.copy_aux_weight, trainer.copy_aux_batch = config.copy_aux_weight, config.copy_aux_batch
    t_train = time.time()
    result = trainer.train(resume_from_checkpoint=resume_from)
    train_seconds = time.time() - t_train
    trainer.save_model(config.output_dir)
    trainer.save_state()  # trainer_state.json: the logged history (the demo's learning curves)
    history = [h for h in trainer.state.log_history if "lm_loss" in h]
    report = {
        "preset": config.model_preset,
        "params": counts,
        "data": data_stats,
        "global_step": trainer.state.global_step,
        "train_seconds": round(train_seconds, 1),
        "total_seconds": round(time.time() - t_start, 1),
        "train_loss": result.training_loss,
        "first_lm_loss": history[0]["lm_loss"] if history else None,
        "last_lm_loss": history[-1]["lm_loss"] if history else None,
        "spike_skipped": next(
            (cb.skipped for cb in trainer.callback_handler.callbacks if isinstance(cb, SpikeGuard)), 0
        ),
        "resumed_from": resume_from,
        "copy_warmup": warmup_history,
        "copy_accuracy": round(copy_accuracy(model, copy_task), 4) if copy_task is not None else None,
    }
    if config.should_save:
        (out / "pretrain_report.json").write_text(json.dumps(report, indent=2))
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
