"""The arguments of the SFT and DPO stages: TRL's dataclasses plus kg2tool's `FinetuneArguments`, parsed and
checked into a `RunSetup`. What the two stages do alike lives beside it, one idea a module:
`finetune_rows` (loading and mixing the training rows), `finetune_model` (tokenizer, model, LoRA, trainer class),
`finetune_outputs` (output folder, saving, reports, the sample tool call) and `finetune_run` (the shared run).

Design choices:
- Arguments are TRL's own dataclasses (`ScriptArguments`, `SFTConfig`/`DPOConfig`, `ModelConfig`, as in TRL's
  `trl sft`/`trl dpo` scripts), so every TRL flag works with its TRL name (`--model_name_or_path`,
  `--dataset_name`, `--use_peft`, `--lora_r`, ...), plus `FinetuneArguments` for what kg2tool adds. The YAML recipe
  gives defaults, flags override it (`kg2tool.train.args.parse_configs`).
- `--dataset_name` is anything `datasets.load_dataset` takes: a local folder written by `kg2tool synth` or a Hub
  id; `--dataset_config` picks `sft` or `dpo`. Only the columns the trainer needs are kept.
- A model folder holding a PEFT adapter (`adapter_config.json`) is loaded as base + adapter and merged, so DPO can
  start from either kind of SFT output. Tokenizers are loaded as saved (`load_tokenizer`: transformers'
  `AutoTokenizer` would swap kg2tool's pre-tokenizer for Qwen2's on a qwen2 checkpoint).
- MoE models (a config with `num_experts`) train with `MoeLossMixin`: load-balancing and router z-losses from
  router hooks (TRL's forwards return no router logits), expert-load logging, the spike guard off by default,
  and the resume fix for fused experts. `output_router_logits` stays off, so the model adds no loss of its own.
- LoRA targets when none are given: attention and MLP projections by name (`q/k/v/o_proj`, `gate/up/down_proj`).
  On qwen2_moe those MLP names match the shared expert only; the routed experts are fused 3-D parameters, which
  `lora_target_parameters: [mlp.experts.gate_up_proj, mlp.experts.down_proj]` adds (rank r per expert). The
  router (`mlp.gate`) is never a target: LoRA there would fight the load-balancing loss. Seen by this project:
  PEFT's `"all-linear"` adds LoRA to the router, and on model types PEFT maps to fused experts (qwen3_moe,
  olmoe, ...; not qwen2_moe) it silently turns `gate/up/down_proj` targets into routed-expert parameters.
- Outputs are plain Hugging Face folders: full weights, or the adapter (plus `--merge`: merged weights at the top
  and the adapter in `adapter/`), always with the tokenizer and its chat template, `train_results.json`,
  `trainer_state.json` (TRL's logs) and `<stage>_report.json` (first/last loss, reward margin, time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..common.errors import UsageError


@dataclass
class FinetuneArguments:
    """kg2tool's additions to TRL's arguments (shared by `kg2tool sft` and `kg2tool dpo`).

    Parameters:
        tokenizer_name_or_path: load the tokenizer from here instead of the model folder.
        extra_dataset_name: more local datasets (same config) whose train split is added to the training rows,
            e.g. a synth run on another graph. Rows are shuffled together with `seed`.
        max_train_samples: use at most this many training rows (after mixing; 0 = all).
        merge: with `--use_peft`, also save the merged weights (top level; adapter in `adapter/`).
        aux_loss_coef: load-balancing loss weight for MoE models.
        z_loss_coef: router z-loss weight for MoE models.
        copy_aux_weight: weight of an auxiliary in-context copying loss added to every step (random segments of
            the training rows' argument tokens shown twice; `kg2tool.train.copy_task`): keeps the copying circuit
            that `kg2tool pretrain --copy_warmup_steps` formed. 0 disables.
        copy_aux_batch / copy_segment_length: segments per step and tokens per segment for it.
        copy_layout: its layout, `fixed` or `varied` (`kg2tool.train.copy_task.CopyTask`).
        copy_pool: the tokens its segments are drawn from: `arguments` (the training rows' string call arguments,
            misspelled names of error-recovery rows included) or `names` (the entity names of the dataset's
            graph, as `kg2tool pretrain` draws them; `random_name_graph` or the recorded graph files).
        random_name_rows: SFT only: add this many verified conversations over randomly renamed copies of the
            dataset's graph to the training rows (`kg2tool.train.copy_data`): their names cannot have been
            memorized, so the model learns to copy names from the question and tool results. 0 disables.
        random_name_graph: graph file(s) for them (default: those recorded in the dataset's validation_report.json).
        first_turn_rows: SFT only: add this many training conversations cut after their first assistant message
            (drawn with `seed` from the training rows, random-name ones included). Short rows whose loss is the
            first call alone: the question -> function + copied arguments step that every AST category scores gets
            several times the weight of the later calls and the answer sentence. 0 disables.
        later_turn_rows: SFT only: add this many copies of training conversations with two or more call turns
            (random-name ones included) cut after a later assistant message (a later call turn or the answer; seeded
            draw): the steps that copy names and lists out of tool results get rows of their own, as
            `first_turn_rows` gives the first step. 0 disables.
        first_turn_no_tools: share of those first-turn copies (the ones that answer with a call) rendered without
            their tool listing. In a plain training loop a tiny model learned which function a question asks for in
            400 steps without a listing and not at all with one (docs/research/learning-effect.md, session 4); the
            rest keep it, so reading the listing (irrelevance, the offered arguments) is still trained.
        typed_names: SFT only: share of the first-turn copies whose names are written as people type them in both
            the question and the call (lower case, no accents or punctuation; half of them with the whole question
            in lower case, no question mark). The executor resolves such names.
        pointer_loss_weight: SFT only: weight of the argument-pointing loss (`kg2tool.train.pointing`): one attention
            head of the last layer pulled toward the earlier copies (in the question or a tool result) of each
            string argument token a call writes. 0 disables. Needs `fused_lm_head: false`.
        pointer_head: SFT only: which head of the last layer the pointing loss trains.
        pointer_warmup_steps: SFT only: the pointing loss weight ramps up linearly from 0 over this many optimizer
            steps (0: the full weight from the start), so the first updates are not dominated by a loss that starts
            several times the cross-entropy.
        argument_loss_weight: SFT only: the cross-entropy of string argument value tokens multiplied by this (1: as
            any other assistant token). Needs `fused_lm_head: false`.
        rejection_types: DPO only: train on the preference pairs of these rejection types only (the dataset's
            `rejection_type` column; `kg2tool.synth.checks.preference.REJECTION_TYPES`). Empty = all.
        balance_rejection_types: DPO only: keep the same number of pairs of every (kept) rejection type: each type
            cut, by a seeded draw, to the count of the rarest one. The synth split has ~6 text-for-call rejections
            (premature/unsupported answer) per call-for-text one (unneeded call): as they come, DPO learns "call
            rather than answer" and loses irrelevance.
        resume: continue from the last checkpoint in `output_dir`.
        overwrite: allow an `output_dir` that already holds a model or checkpoints.
        torch_num_threads: CPU threads for torch (0 = torch's default).
        sample: after training, reload the output and generate for the first test question (printed, reported).
    """

    tokenizer_name_or_path: str | None = field(default=None, metadata={"help": "tokenizer folder (default: model)"})
    extra_dataset_name: list[str] = field(default_factory=list, metadata={"help": "more datasets to train on"})
    max_train_samples: int = field(default=0, metadata={"help": "cap on training rows (0 = all)"})
    merge: bool = field(default=False, metadata={"help": "with --use_peft, also save merged weights"})
    aux_loss_coef: float = field(default=0.015, metadata={"help": "MoE load-balancing loss weight"})
    z_loss_coef: float = field(default=1e-4, metadata={"help": "MoE router z-loss weight"})
    copy_aux_weight: float = field(default=0.0, metadata={"help": "auxiliary copy-loss weight (0: none)"})
    copy_aux_batch: int = field(default=4, metadata={"help": "segments per step for the copy loss"})
    copy_segment_length: int = field(default=24, metadata={"help": "tokens per copy segment"})
    copy_layout: str = field(default="fixed", metadata={"help": "copy task layout: fixed | varied"})
    copy_pool: str = field(default="arguments", metadata={"help": "copy-loss tokens: arguments | names"})
    random_name_rows: int = field(default=0, metadata={"help": "SFT: add this many random-name conversations"})
    random_name_graph: list[str] = field(default_factory=list, metadata={"help": "graph for them (default: recorded)"})
    first_turn_rows: int = field(default=0, metadata={"help": "SFT: add this many first-turn-only conversations"})
    first_turn_no_tools: float = field(default=0.0, metadata={"help": "share of them without the tool listing"})
    later_turn_rows: int = field(default=0, metadata={"help": "SFT: add this many rows cut after a later turn"})
    typed_names: float = field(default=0.0, metadata={"help": "SFT: share of first-turn copies with typed names"})
    pointer_loss_weight: float = field(default=0.0, metadata={"help": "SFT: argument-pointing loss weight (0: none)"})
    pointer_head: int = field(default=0, metadata={"help": "SFT: the last layer's head the pointing loss trains"})
    pointer_warmup_steps: int = field(default=0, metadata={"help": "SFT: steps over which the pointer weight ramps up"})
    argument_loss_weight: float = field(default=1.0, metadata={"help": "SFT: loss weight of argument value tokens"})
    rejection_types: list[str] = field(default_factory=list, metadata={"help": "DPO: keep only these rejection types"})
    balance_rejection_types: bool = field(default=False, metadata={"help": "DPO: rejection types in equal shares"})
    resume: bool = field(default=False, metadata={"help": "resume from the last checkpoint in output_dir"})
    overwrite: bool = field(default=False, metadata={"help": "allow an output_dir that already holds a run"})
    torch_num_threads: int = field(default=0, metadata={"help": "CPU threads for torch (0: torch's default)"})
    sample: bool = field(default=True, metadata={"help": "generate for one test question after training"})


@dataclass
class RunSetup:
    """Everything parsed for one stage: TRL's script, training and model arguments, kg2tool's, and the label
    language of the dataset's graph (`--lang`, else the one recorded in the dataset folder, else en)."""

    script: Any
    training: Any
    model: Any
    extra: FinetuneArguments
    lang: str = "en"


def parse_stage(config_cls, argv: list[str], prog: str) -> RunSetup:
    """Parse `--config FILE` + flags into TRL's dataclasses and `FinetuneArguments`; check the combination.

    `setup.lang` is the dataset's label language: `--lang`, else the one recorded in the dataset folder
    (`kg2tool.common.config.recorded_lang`), else en."""
    from trl import ModelConfig, ScriptArguments

    from ..common.config import recorded_lang
    from .args import LabelArguments, parse_configs

    script, training, model, extra, labels = parse_configs(
        (ScriptArguments, config_cls, ModelConfig, FinetuneArguments, LabelArguments), argv, prog
    )
    lang = labels.lang or (script.dataset_name and recorded_lang(script.dataset_name)) or "en"
    if not model.model_name_or_path:
        raise UsageError(f"{prog}: --model_name_or_path is required (a checkpoint folder or Hub id)")
    if not script.dataset_name:
        raise UsageError(f"{prog}: --dataset_name is required (a `kg2tool synth` output folder or Hub id)")
    if extra.first_turn_rows < 0 or extra.random_name_rows < 0 or extra.later_turn_rows < 0:
        raise UsageError("--first_turn_rows, --later_turn_rows and --random_name_rows must be 0 or more")
    if extra.copy_pool not in ("arguments", "names"):
        raise UsageError(f"--copy_pool must be arguments or names, not {extra.copy_pool!r}")
    if not 0 <= extra.first_turn_no_tools <= 1:
        raise UsageError(f"--first_turn_no_tools must be a share in [0, 1], not {extra.first_turn_no_tools}")
    from ..synth.checks.preference import REJECTION_TYPES

    unknown = [t for t in extra.rejection_types if t not in REJECTION_TYPES]
    if unknown:
        raise UsageError(f"--rejection_types: unknown type(s) {', '.join(unknown)}; known: {', '.join(REJECTION_TYPES)}")
    if extra.merge and not model.use_peft:
        raise UsageError("--merge only applies with --use_peft (full fine-tuning already saves full weights)")
    return RunSetup(script, training, model, extra, lang)
