"""What the SFT and DPO stages share: the recipe fields TRL lacks, loading models, data and tokenizers, LoRA
defaults, the MoE losses, saving (adapters, `--merge`), the run report and a sample tool call.

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
  router (`mlp.gate`) is never a target: LoRA there would fight the load-balancing loss (STACK.md pitfalls 3-4).
- Outputs are plain Hugging Face folders: full weights, or the adapter (plus `--merge`: merged weights at the top
  and the adapter in `adapter/`), always with the tokenizer and its chat template, `train_results.json`,
  `trainer_state.json` (TRL's logs) and `<stage>_report.json` (first/last loss, reward margin, time).
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..common.errors import InputError, UsageError

logger = logging.getLogger("kg2tool.finetune")

# Attention and MLP projection names of Llama/Qwen-style models (qwen2, qwen2_moe's shared expert, llama, mistral).
DEFAULT_LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
GENERATION_MARKER = "generation %}"


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
        rejection_types: DPO only: train on the preference pairs of these rejection types only (the dataset's
            `rejection_type` column; `kg2tool.synth.preference.REJECTION_TYPES`). Empty = all.
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
    copy_pool: str = field(default="arguments", metadata={"help": "copy-loss tokens: arguments | names"})
    random_name_rows: int = field(default=0, metadata={"help": "SFT: add this many random-name conversations"})
    random_name_graph: list[str] = field(default_factory=list, metadata={"help": "graph for them (default: recorded)"})
    first_turn_rows: int = field(default=0, metadata={"help": "SFT: add this many first-turn-only conversations"})
    first_turn_no_tools: float = field(default=0.0, metadata={"help": "share of them without the tool listing"})
    later_turn_rows: int = field(default=0, metadata={"help": "SFT: add this many rows cut after a later turn"})
    rejection_types: list[str] = field(default_factory=list, metadata={"help": "DPO: keep only these rejection types"})
    balance_rejection_types: bool = field(default=False, metadata={"help": "DPO: rejection types in equal shares"})
    resume: bool = field(default=False, metadata={"help": "resume from the last checkpoint in output_dir"})
    overwrite: bool = field(default=False, metadata={"help": "allow an output_dir that already holds a run"})
    torch_num_threads: int = field(default=0, metadata={"help": "CPU threads for torch (0: torch's default)"})
    sample: bool = field(default=True, metadata={"help": "generate for one test question after training"})


@dataclass
class RunSetup:
    """Everything parsed for one stage: TRL's script, training and model arguments, and kg2tool's."""

    script: Any
    training: Any
    model: Any
    extra: FinetuneArguments


def parse_stage(config_cls, argv: list[str], prog: str) -> RunSetup:
    """Parse `--config FILE` + flags into TRL's dataclasses and `FinetuneArguments`; check the combination.

    `setup.extra.lang` is the dataset's label language: `--lang`, else the one recorded in the dataset folder
    (`kg2tool.common.config.recorded_lang`), else en."""
    from trl import ModelConfig, ScriptArguments

    from ..common.config import recorded_lang
    from .args import LabelArguments, parse_configs

    script, training, model, extra, labels = parse_configs(
        (ScriptArguments, config_cls, ModelConfig, FinetuneArguments, LabelArguments), argv, prog
    )
    extra.lang = labels.lang or (script.dataset_name and recorded_lang(script.dataset_name)) or "en"
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
    from ..synth.preference import REJECTION_TYPES

    unknown = [t for t in extra.rejection_types if t not in REJECTION_TYPES]
    if unknown:
        raise UsageError(f"--rejection_types: unknown type(s) {', '.join(unknown)}; known: {', '.join(REJECTION_TYPES)}")
    if extra.merge and not model.use_peft:
        raise UsageError("--merge only applies with --use_peft (full fine-tuning already saves full weights)")
    return RunSetup(script, training, model, extra)


# -- loading -----------------------------------------------------------------------------------------------------
def is_adapter(path: str) -> bool:
    return (Path(path) / "adapter_config.json").is_file()


def load_tokenizer_checked(path: str, *, need_generation_markers: bool, template_path: str | None = None):
    """The tokenizer saved at `path` (its chat template replaced by the file `template_path` if given), which must
    have a chat template, with `{% generation %}` markers when the loss is on assistant tokens only."""
    from ..llm.backends import load_tokenizer

    try:
        tokenizer = load_tokenizer(path)
    except OSError as exc:
        raise InputError(f"cannot load a tokenizer from {path}: {exc}") from exc
    if template_path:
        try:
            tokenizer.chat_template = Path(template_path).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read chat template {template_path}: {exc}") from exc
        path = template_path
    template = tokenizer.chat_template
    if not template:
        raise InputError(
            f"the tokenizer in {path} has no chat template; give one with --chat_template_path FILE "
            "(kg2tool models carry theirs)"
        )
    if need_generation_markers and isinstance(template, str) and GENERATION_MARKER not in template:
        raise InputError(
            f"the chat template of {path} has no {{% generation %}} ... {{% endgeneration %}} markers, which "
            "assistant-only loss needs: wrap what the assistant writes in them and pass the file with "
            "--chat_template_path FILE (see kg2tool/train/chat_format.py for a template that has them), or train "
            "on all tokens with --assistant_only_loss false"
        )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(path: str, dtype: str | None = "float32"):
    """A causal LM from `path`; an adapter folder is loaded onto its base model and merged."""
    import torch
    from transformers import AutoModelForCausalLM

    torch_dtype = getattr(torch, dtype) if dtype and dtype != "auto" else "auto"
    if not Path(path).exists() and "/" not in path.strip("./"):
        raise InputError(f"model not found: {path}")
    try:
        if is_adapter(path):
            from peft import AutoPeftModelForCausalLM

            model = AutoPeftModelForCausalLM.from_pretrained(path, dtype=torch_dtype).merge_and_unload()
        else:
            model = AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot load a model from {path}: {exc}") from exc
    if Path(path).is_dir():  # adapters record their base by this name: absolute, so they load from any folder
        model.name_or_path = model.config._name_or_path = str(Path(path).resolve())
    if getattr(model.config, "output_router_logits", False):
        model.config.output_router_logits = False  # the MoE losses come from MoeLossMixin
    return model


def is_moe(model) -> bool:
    return bool(getattr(model.config, "num_experts", 0))


def load_rows(setup: RunSetup, columns: list[str]):
    """The training and evaluation splits with only `columns`; `extra_dataset_name` rows mixed into train."""
    import datasets

    script, extra = setup.script, setup.extra
    by_type = bool(extra.rejection_types or extra.balance_rejection_types) and "chosen" in columns
    if by_type:
        columns = [*columns, "rejection_type"]
    names = [script.dataset_name, *extra.extra_dataset_name]
    for name in names:
        local = Path(name)
        if (name.startswith((".", "/")) or local.exists()) and not local.is_dir():
            raise InputError(f"dataset folder not found: {name}")
    loaded = []
    for name in names:
        try:
            loaded.append(datasets.load_dataset(name, script.dataset_config))
        except (FileNotFoundError, ValueError) as exc:
            raise InputError(f"cannot load dataset {name} (config {script.dataset_config!r}): {exc}") from exc
    for name, ds in zip(names, loaded):
        missing = [c for c in columns if c not in ds[script.dataset_train_split].column_names]
        if missing:
            raise InputError(
                f"dataset {name} (config {script.dataset_config!r}) has no column(s) {', '.join(missing)}; "
                f"it has {', '.join(ds[script.dataset_train_split].column_names)}"
            )

    def keep(split):
        return split.select_columns([c for c in columns if c in split.column_names])

    train_parts = [keep(ds[script.dataset_train_split]) for ds in loaded]
    if extra.random_name_rows > 0 and "messages" in columns:
        train_parts.append(random_name_split(setup, train_parts[0].features))
    train = datasets.concatenate_datasets(train_parts) if len(train_parts) > 1 else train_parts[0]
    pool = train
    if extra.first_turn_rows > 0 and "messages" in columns:
        train_parts.append(
            first_turn_split(pool, extra.first_turn_rows, setup.training.seed, extra.first_turn_no_tools)
        )
    if extra.later_turn_rows > 0 and "messages" in columns:
        train_parts.append(later_turn_split(pool, extra.later_turn_rows, setup.training.seed))
    if len(train_parts) > 1:
        train = datasets.concatenate_datasets(train_parts).shuffle(seed=setup.training.seed)
    if by_type:
        train = order_by_rejection_type(train, extra.rejection_types, extra.balance_rejection_types, setup.training.seed)
    if extra.max_train_samples and len(train) > extra.max_train_samples:
        train = train.select(range(extra.max_train_samples))
    main = loaded[0]
    test_split = script.dataset_test_split
    evaluation = keep(main[test_split]) if test_split in main else None
    if by_type and evaluation is not None:
        evaluation = evaluation.remove_columns("rejection_type")
    return train, evaluation, main


def order_by_rejection_type(train, types: list[str], balance: bool, seed: int):
    """The DPO pairs of `types` (all when empty), without the `rejection_type` column; with `balance`, every type
    cut to the count of the rarest one (a seeded draw; the rows keep their order)."""
    kinds = train["rejection_type"]
    wanted = set(types) if types else set(kinds)
    groups: dict[str, list[int]] = {}
    for i, kind in enumerate(kinds):
        if kind in wanted:
            groups.setdefault(kind, []).append(i)
    if not groups:
        raise InputError(f"--rejection_types {' '.join(types)}: no training pair has these types")
    if balance:
        rng = random.Random(f"rejection-types:{seed}")
        n = min(map(len, groups.values()))
        groups = {kind: sorted(rng.sample(groups[kind], n)) for kind in sorted(groups)}
    order = sorted(i for g in groups.values() for i in g)
    counts = ", ".join(f"{k} {len(v):,}" for k, v in sorted(groups.items()))
    print(f"dpo: {len(order):,} preference pairs ({counts})", flush=True)
    return train.select(order).remove_columns("rejection_type")


def _dataset_graphs(setup: RunSetup, flag: str) -> list[str]:
    """`random_name_graph`, else the graph files recorded in the dataset's validation_report.json; `flag` names
    the option that needs them in the error."""
    from ..hub.dataset import recorded_graph_files

    graphs = list(setup.extra.random_name_graph) or recorded_graph_files(Path(setup.script.dataset_name))
    missing = [g for g in graphs if not Path(g).is_file()]
    if not graphs or missing:
        raise InputError(
            f"{flag} needs the dataset's graph: give --random_name_graph FILE"
            + (f" ({', '.join(missing)} not found)" if missing else "")
        )
    return graphs


def graph_names(setup: RunSetup) -> list[str]:
    """Entity names of the dataset's graph (`--copy_pool names`)."""
    from ..graph.build import load_graph

    return list(load_graph(_dataset_graphs(setup, "--copy_pool names")).entity_names())


def random_name_split(setup: RunSetup, features):
    """`random_name_rows` synth conversations over renamed copies of the graph, as a Dataset with `features`."""
    import datasets

    from ..graph.build import load_graph
    from ..hub.dataset import encode_json
    from .copy_data import random_name_rows

    extra = setup.extra
    graphs = _dataset_graphs(setup, "--random_name_rows")
    kg = load_graph(graphs)
    rows = random_name_rows(kg, extra.random_name_rows, seed=setup.training.seed)
    print(f"sft: {len(rows):,} random-name conversations over renamed copies of {', '.join(graphs)}", flush=True)

    cols = list(features)
    return datasets.Dataset.from_list([{k: encode_json(r[k]) for k in cols} for r in rows], features=features)


def _draw(pool: list[int], n: int, rng: random.Random) -> list[int]:
    """`n` items of `pool` in a seeded order: every item once per pass, passes repeated until `n` are drawn."""
    order: list[int] = []
    while len(order) < n:
        block = list(pool)
        rng.shuffle(block)
        order.extend(block[: n - len(order)])
    return order


def first_turn_split(train, n: int, seed: int, no_tools: float = 0.0):
    """`n` rows of `train` (drawn without replacement while they last, seeded) cut after their first assistant
    message, as a Dataset with `train`'s features; a `no_tools` share of those that answer with a tool call lose
    their tool listing."""
    import datasets

    from ..hub.dataset import encode_json

    rng = random.Random(f"first-turn:{seed}")
    order = _draw(list(range(len(train))), n, rng)
    cols = list(train.features)
    rows = []
    for row in train.select(order):
        messages = row["messages"]
        first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), None)
        if first is None:
            continue
        cut = dict(row, messages=messages[: first + 1])
        if no_tools and messages[first].get("tool_calls") and "tools" in cut and rng.random() < no_tools:
            cut["tools"] = []
        rows.append({k: encode_json(cut[k]) for k in cols})
    print(f"sft: {len(rows):,} first-turn-only copies of training conversations", flush=True)
    return datasets.Dataset.from_list(rows, features=train.features)


def later_turn_split(train, n: int, seed: int):
    """`n` copies of `train`'s rows with two or more call turns (a seeded draw, without replacement while they
    last), each cut after one of its assistant messages other than the first (drawn with the same seed), as a
    Dataset with `train`'s features."""
    import datasets

    from ..hub.dataset import encode_json

    rng = random.Random(f"later-turn:{seed}")
    cuts: dict[int, list[int]] = {}
    for i, messages in enumerate(train["messages"]):
        turns = [j for j, m in enumerate(messages) if m.get("role") == "assistant"]
        if sum(bool(messages[j].get("tool_calls")) for j in turns) >= 2:  # two call turns or more
            cuts[i] = turns[1:]
    if not cuts:
        print("sft: no multi-step training conversations: no later-turn copies", flush=True)
        return datasets.Dataset.from_list([], features=train.features)
    order = _draw(sorted(cuts), n, rng)
    cols = list(train.features)
    rows = []
    for i, row in zip(order, train.select(order), strict=True):
        end = rng.choice(cuts[i])
        rows.append({k: encode_json(dict(row, messages=row["messages"][: end + 1])[k]) for k in cols})
    print(f"sft: {len(rows):,} copies of multi-step conversations cut after a later turn", flush=True)
    return datasets.Dataset.from_list(rows, features=train.features)


def peft_config(setup: RunSetup, model):
    """TRL's LoRA config from the model arguments, with `DEFAULT_LORA_TARGETS` (those the model has) when no
    target modules are named; `lora_target_parameters` (routed experts) come on top."""
    from trl import get_peft_config

    margs = setup.model
    if not margs.use_peft:
        return None
    if margs.lora_target_modules is None:
        names = {name.rsplit(".", 1)[-1] for name, _ in model.named_modules()}
        targets = [t for t in DEFAULT_LORA_TARGETS if t in names]
        if not targets:
            raise UsageError(
                f"none of the default LoRA targets ({', '.join(DEFAULT_LORA_TARGETS)}) is a module of this model: "
                "name them with --lora_target_modules"
            )
        margs.lora_target_modules = targets
    return get_peft_config(margs)


def check_output_dir(setup: RunSetup) -> str | None:
    """What to resume from (or None); refuses an `output_dir` that already holds a run unless told."""
    from .pretrain import _check_output_dir

    args, extra = setup.training, setup.extra

    view = SimpleNamespace(
        output_dir=args.output_dir,
        resume=extra.resume,
        resume_from_checkpoint=args.resume_from_checkpoint,
        overwrite=extra.overwrite,
        max_steps=args.max_steps,
    )
    return _check_output_dir(view, run_markers=("config.json", "adapter_config.json"))


def set_threads(extra: FinetuneArguments) -> None:
    if extra.torch_num_threads > 0:
        import torch

        torch.set_num_threads(extra.torch_num_threads)


def moe_trainer_class(base_cls, model, copy_loss: bool = False):
    """`base_cls` with the MoE losses mixed in when `model` is a MoE and the auxiliary copy loss when asked."""
    from .copy_task import CopyAuxMixin
    from .pretrain import MoeLossMixin

    bases = ([CopyAuxMixin] if copy_loss else []) + ([MoeLossMixin] if is_moe(model) else [])
    if not bases:
        return base_cls
    prefix = ("Copy" if copy_loss else "") + ("Moe" if is_moe(model) else "")
    return type(f"{prefix}{base_cls.__name__}", (*bases, base_cls), {})


# -- the shared run ----------------------------------------------------------------------------------------------
def run_stage(setup: RunSetup, stage: str, base_cls, columns: list[str], what: str, *, need_generation_markers: bool):
    """Everything SFT and DPO do alike: load tokenizer, rows and model, build the (MoE-aware) TRL trainer, train,
    save. Returns `(trainer, report, full_dataset)`; `report` holds the fields common to both stages' reports."""
    from .trl_patches import compact_scoring_on_cpu

    started = time.time()
    compact_scoring_on_cpu()  # TRL scores only the labelled positions on CPU too
    set_threads(setup.extra)
    args = setup.training
    resume_from = check_output_dir(setup)
    tokenizer = load_tokenizer_checked(
        setup.extra.tokenizer_name_or_path or setup.model.model_name_or_path,
        need_generation_markers=need_generation_markers,
        template_path=getattr(args, "chat_template_path", None),
    )
    if getattr(args, "chat_template_path", None):
        args.chat_template_path = None  # applied above; TRL would otherwise load it again
    train, evaluation, full = load_rows(setup, columns)
    if args.eval_strategy == "no":
        evaluation = None
    model = load_model(setup.model.model_name_or_path, setup.model.dtype)
    peft = peft_config(setup, model)
    if is_moe(model):
        args.router_aux_loss_coef = 0.0  # the MoE losses come from MoeLossMixin (aux + z), not from the model
    extra = setup.extra
    trainer = moe_trainer_class(base_cls, model, copy_loss=extra.copy_aux_weight > 0)(
        model=model,
        args=args,
        train_dataset=train,
        eval_dataset=evaluation,
        processing_class=tokenizer,
        peft_config=peft,
    )
    # MoeLossMixin reads its coefficients from here (TRL's configs have no such fields)
    trainer.loss_coefs = {"aux_loss_coef": extra.aux_loss_coef, "z_loss_coef": extra.z_loss_coef}
    if extra.copy_aux_weight > 0:
        from .copy_task import CopyTask, argument_strings, name_token_pool

        if extra.copy_pool == "names":
            pool = name_token_pool(tokenizer, graph_names(setup))
        else:
            pool = name_token_pool(tokenizer, argument_strings(train))
        if len(pool) < 2:
            raise InputError("--copy_aux_weight: the training rows have no string call arguments to draw from")
        trainer.copy_task = CopyTask(pool, extra.copy_segment_length, seed=args.seed)
        trainer.copy_aux_weight, trainer.copy_aux_batch = extra.copy_aux_weight, extra.copy_aux_batch
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
        "first_loss": losses[0][1] if losses else None,
        "last_loss": losses[-1][1] if losses else None,
        "loss_history": losses,
        "eval_loss": [h["eval_loss"] for h in trainer.state.log_history if "eval_loss" in h],
        "saved": saved,
        "resumed_from": resume_from,
    }
    return trainer, report, full


def finish_report(setup: RunSetup, stage: str, report: dict[str, Any], sample_split) -> dict[str, Any]:
    """Add the post-training sample (reloaded from disk) when asked, write `<stage>_report.json`."""
    if setup.extra.sample and setup.training.should_save and sample_split is not None and len(sample_split):
        report["sample"] = sample_tool_call(setup.training.output_dir, sample_split[0])
        print_sample(report["sample"])
    write_report(setup, stage, report)
    return report


# -- saving and reporting ------------------------------------------------------------------------------------------
def save_outputs(trainer, setup: RunSetup, tokenizer) -> dict[str, Any]:
    """Save the final model (adapter and/or merged weights) with its tokenizer, metrics and trainer state."""
    out = Path(setup.training.output_dir)
    model = trainer.accelerator.unwrap_model(trainer.model)
    saved: dict[str, Any] = {}
    if setup.model.use_peft and setup.extra.merge:
        trainer.save_model(str(out / "adapter"))
        merged = model.merge_and_unload()
        merged.config.use_cache = True
        if hasattr(merged.config, "output_router_logits"):
            merged.config.output_router_logits = False
        if trainer.args.should_save:
            merged.save_pretrained(str(out))
            tokenizer.save_pretrained(str(out))
        saved = {"weights": str(out), "adapter": str(out / "adapter")}
    else:
        trainer.save_model(str(out))
        saved = {"adapter" if setup.model.use_peft else "weights": str(out)}
    if trainer.args.should_save:
        trainer.save_state()
    return saved


def loss_history(trainer, key: str = "loss") -> list[tuple[int, float]]:
    return [(h["step"], h[key]) for h in trainer.state.log_history if key in h and "step" in h]


def write_report(setup: RunSetup, stage: str, report: dict[str, Any]) -> None:
    from ..common.files import write_atomic

    if setup.training.should_save:
        write_atomic(Path(setup.training.output_dir) / f"{stage}_report.json", json.dumps(report, indent=2) + "\n")


def trainable_parameters(model) -> dict[str, int]:
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return {"total": total, "trainable": trainable}


def sample_tool_call(path: str, row: dict[str, Any], max_new_tokens: int = 96) -> dict[str, Any]:
    """Reload the saved output at `path` (plain `from_pretrained`, or base + adapter) and greedy-generate the
    assistant's first turn for `row` (its messages up to the first assistant turn, with its tools) through the
    chat template. Returns the prompt, the completion and the parsed tool calls."""
    import torch

    from ..llm.chat_format import normalize_row, parse_tool_calls

    tokenizer = load_tokenizer_checked(path, need_generation_markers=False)
    model = load_model(path)
    model.eval()
    messages, tools = normalize_row(row.get("messages") or row.get("prompt"), row.get("tools"))
    prompt_messages = []
    for message in messages:
        if message["role"] == "assistant":
            break
        prompt_messages.append(message)
    text = tokenizer.apply_chat_template(
        prompt_messages, tools=tools or None, add_generation_prompt=True, tokenize=False
    )
    inputs = tokenizer(text, return_tensors="pt", add_special_tokens=False)
    started = time.time()
    with torch.no_grad():
        out = model.generate(
            **inputs, max_new_tokens=max_new_tokens, do_sample=False, pad_token_id=tokenizer.pad_token_id
        )
    completion = tokenizer.decode(out[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
    calls, errors = parse_tool_calls(completion)
    question = next((m["content"] for m in prompt_messages if m["role"] == "user"), "")
    return {
        "question": question,
        "completion": completion,
        "tool_calls": calls,
        "parse_errors": errors,
        "seconds": round(time.time() - started, 2),
    }


def print_sample(sample: dict[str, Any]) -> None:
    print(f"sample question: {sample['question']}", flush=True)
    print(f"sample completion: {sample['completion'].strip()[:400]}", flush=True)
    if sample["tool_calls"]:
        print(f"parsed tool calls: {json.dumps(sample['tool_calls'], ensure_ascii=False)}", flush=True)
