"""`PretrainConfig`: `TrainingArguments` plus the pretraining recipe (corpus, tokenizer, model shape, MoE losses,
spike guard, copy curriculum), so every Trainer option (and `accelerate launch` for several GPUs) works unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from transformers import TrainingArguments

from ..llm.chat_format import TEMPLATES
from .copy_task import LAYOUTS
from .moe import MoePreset, get_preset
from .tokenizer import PRETOKENIZE_PATTERNS


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
        document_packing: pack whole documents (a conversation is never cut across two blocks) with no attention
            across documents, the blocks' ends padded (`corpus.pack_documents`); false: one token stream cut every
            `max_length` tokens, documents attending to the ones before them in the block.
        fact_passes: times each graph fact is verbalized (random template each time).
        synthetic_fraction: share of the corpus made of random-name tool-call conversations.
        synthetic_tools_share: share of the random-name conversations rendered with their tool listing (the rest
            without it: shorter, denser in copy events, and the tool listing is left for SFT to teach).
        synthetic_first_turns: share of the random-name conversations cut after their first assistant turn
            (question -> call): more questions per token to learn to find and copy the name from.
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
        copy_layout: `fixed` (a segment, then the same again) or `varied` (random length, place and gap: only
            content-based copying solves it; `kg2tool.train.copy_task.CopyTask`).
        copy_warmup_lr: the warm-up's learning rate; 0 uses `learning_rate` (the varied layout needs ~1e-3: at
            5e-3 its loss stays at chance, measured).
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
    document_packing: bool = field(default=False, metadata={"help": "whole documents per block, no cross-attention"})
    fact_passes: int = field(default=2, metadata={"help": "verbalizations per graph fact"})
    synthetic_fraction: float = field(default=0.5, metadata={"help": "share of random-name tool-call chats"})
    synthetic_tools_share: float = field(default=0.25, metadata={"help": "share of them with their tool listing"})
    synthetic_first_turns: float = field(default=0.0, metadata={"help": "share of them cut after the first turn"})
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
    copy_layout: str = field(default="fixed", metadata={"help": "copy task layout: fixed | varied"})
    copy_warmup_lr: float = field(default=0.0, metadata={"help": "copy warm-up learning rate (0: learning_rate)"})
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
        if not 0 <= self.synthetic_first_turns <= 1:
            raise ValueError("synthetic_first_turns must be in [0, 1]")
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
        if self.copy_layout not in LAYOUTS:
            raise ValueError(f"copy_layout must be {' or '.join(LAYOUTS)}, not {self.copy_layout!r}")
        super().__post_init__()

    def preset(self) -> MoePreset:
        """The model preset with `model_overrides` applied."""
        return get_preset(self.model_preset).with_overrides(**(self.model_overrides or {}))
