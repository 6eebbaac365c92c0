"""Ling-shaped Mixture-of-Experts presets built on transformers' `qwen2_moe`, with total/active parameter counts.

Design choices:
- Architecture: `qwen2_moe`. Both transformers and vLLM load it natively (no `trust_remote_code`), PEFT targets
  its layers as written, and it has fine-grained routed experts (softmax top-k, renormalized with
  `norm_topk_prob`) plus a shared expert. Ling-Lite has two shared experts of the routed width; qwen2_moe has one
  sigmoid-gated shared expert, so its width is set to twice the routed expert's width (same parameters and FLOPs).
- A preset is a plain dataclass (no torch import) so `kg2tool pretrain --help`, YAML validation and parameter
  reports stay cheap; `to_config()` imports transformers only when a model is actually built.
- Parameter counts are computed from the shape, not by instantiating the model, so the 16.8B `ling-lite` shape
  can be reported on a laptop. `tests/test_pretrain.py` checks the formula against an instantiated tiny model.
- "Active" parameters are those one token touches: everything except the routed experts it is not sent to
  (embeddings and lm_head included, as in the Ling report's 2.75B figure for Ling-Lite).
- The router's own auxiliary loss is computed by the trainer from captured router logits (see `router.py`), so
  configs are built with `output_router_logits=False`; the saved config then generates without the batched
  `generate()` failure (a tensor size mismatch inside the load-balancing loss) that `output_router_logits=True`
  causes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class MoePreset:
    """Shape of a qwen2_moe decoder.

    Parameters:
        vocab_size: tokenizer size; replaced by the trained tokenizer's length when a model is built.
        hidden_size: residual width.
        num_hidden_layers: decoder layers; every layer is a MoE layer.
        num_attention_heads / num_key_value_heads: grouped-query attention heads.
        num_experts: routed experts per layer.
        num_experts_per_tok: routed experts per token (top-k).
        moe_intermediate_size: hidden width of one routed expert.
        shared_expert_intermediate_size: width of the shared expert (2 x routed width stands for two shared experts).
        max_position_embeddings: longest sequence the rotary embedding is configured for.
        tie_word_embeddings: share the input embedding and lm_head (saves parameters at tiny sizes).
        qkv_bias: bias on q/k/v projections (Ling uses none).
        rope_theta: rotary base.
        initializer_range: std of the normal init.
        dense: every layer a dense MLP of `dense_intermediate_size` (what one token's routed + shared experts
            cost) instead of a MoE layer: the same active size, for comparisons and for tiny CPU runs, where a
            dense layer trains ~1.5x faster per step and learned tool calls in fewer steps (research log).
    """

    vocab_size: int = 8192
    hidden_size: int = 128
    num_hidden_layers: int = 4
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    num_experts: int = 16
    num_experts_per_tok: int = 4
    moe_intermediate_size: int = 64
    shared_expert_intermediate_size: int = 128
    max_position_embeddings: int = 2048
    tie_word_embeddings: bool = True
    qkv_bias: bool = False
    rope_theta: float = 10000.0
    initializer_range: float = 0.02
    dense: bool = False

    @property
    def head_dim(self) -> int:
        """Width of one attention head."""
        return self.hidden_size // self.num_attention_heads

    def to_config(self, **overrides: Any):
        """Build a `Qwen2MoeConfig` (imports transformers). `overrides` are passed to the config as-is."""
        from transformers import Qwen2MoeConfig

        kwargs = dict(
            vocab_size=self.vocab_size,
            hidden_size=self.hidden_size,
            num_hidden_layers=self.num_hidden_layers,
            num_attention_heads=self.num_attention_heads,
            num_key_value_heads=self.num_key_value_heads,
            num_experts=self.num_experts,
            num_experts_per_tok=self.num_experts_per_tok,
            moe_intermediate_size=self.moe_intermediate_size,
            shared_expert_intermediate_size=self.shared_expert_intermediate_size,
            # only used by dense layers (none here, unless `dense_counterpart` makes every layer dense)
            intermediate_size=self.dense_intermediate_size,
            max_position_embeddings=self.max_position_embeddings,
            tie_word_embeddings=self.tie_word_embeddings,
            qkv_bias=self.qkv_bias,
            rope_parameters={"rope_type": "default", "rope_theta": self.rope_theta},
            initializer_range=self.initializer_range,
            norm_topk_prob=True,
            decoder_sparse_step=1,
            mlp_only_layers=list(range(self.num_hidden_layers)) if self.dense else [],
            output_router_logits=False,
            use_cache=True,
        )
        kwargs.update(overrides)
        return Qwen2MoeConfig(**kwargs)

    @property
    def dense_intermediate_size(self) -> int:
        """MLP width of a dense model whose MLP costs what one token's routed + shared experts cost."""
        return self.num_experts_per_tok * self.moe_intermediate_size + self.shared_expert_intermediate_size

    def dense_counterpart_config(self, **overrides: Any):
        """A qwen2_moe config with every layer dense and the same active parameter count (for benchmarks)."""
        return self.to_config(mlp_only_layers=list(range(self.num_hidden_layers)), **overrides)

    def param_counts(self) -> dict[str, int]:
        """Total, active (per token) and embedding parameter counts, computed from the shape."""
        h, layers = self.hidden_size, self.num_hidden_layers
        q_out = self.num_attention_heads * self.head_dim
        kv_out = self.num_key_value_heads * self.head_dim
        attn = h * q_out + 2 * h * kv_out + q_out * h
        if self.qkv_bias:
            attn += q_out + 2 * kv_out
        norms = 2 * h
        expert = 3 * h * self.moe_intermediate_size  # gate, up, down
        shared = 3 * h * self.shared_expert_intermediate_size + h  # + its sigmoid gate
        router = self.num_experts * h
        embed = self.vocab_size * h * (1 if self.tie_word_embeddings else 2)
        per_layer_common = attn + norms + router + shared
        if self.dense:
            total = active = embed + h + layers * (attn + norms + 3 * h * self.dense_intermediate_size)
        else:
            total = embed + h + layers * (per_layer_common + self.num_experts * expert)
            active = embed + h + layers * (per_layer_common + self.num_experts_per_tok * expert)
        return {
            "total": total,
            "active": active,
            "embedding": embed,
            "total_non_embedding": total - embed,
            "active_non_embedding": active - embed,
        }

    def describe(self) -> str:
        """One line: shape and parameter counts."""
        c = self.param_counts()
        if self.dense:
            return (
                f"qwen2_moe layout, all {self.num_hidden_layers} layers dense (h{self.hidden_size}, MLP width "
                f"{self.dense_intermediate_size}), vocab {self.vocab_size}: {_human(c['total'])} parameters "
                f"({_human(c['active_non_embedding'])} without embeddings)"
            )
        return (
            f"qwen2_moe {self.num_hidden_layers}L h{self.hidden_size} "
            f"{self.num_experts} routed experts (top-{self.num_experts_per_tok}, width {self.moe_intermediate_size}) "
            f"+ shared expert (width {self.shared_expert_intermediate_size}), vocab {self.vocab_size}: "
            f"{_human(c['total'])} total, {_human(c['active'])} active parameters "
            f"({_human(c['active_non_embedding'])} active without embeddings)"
        )

    def with_overrides(self, **changes: Any) -> MoePreset:
        """A copy with some fields changed; unknown field names raise a ValueError naming them."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown model field(s) {unknown}; known: {sorted(known)}")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The preset's fields as a plain dict (for reports)."""
        return asdict(self)


def _human(n: int) -> str:
    for unit, div in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= div:
            return f"{n / div:.2f}{unit}"
    return str(n)


PRESETS: dict[str, MoePreset] = {
    # A few million parameters: runs on 2 CPU cores in minutes. 16 routed experts, top-4, plus a shared expert.
    "tiny": MoePreset(),
    # The tiny shape with dense layers of the same active size (see `dense`): the demo's CPU preset.
    "tiny-dense": MoePreset(dense=True),
    # ~100M total, ~25M active: one GPU, hours.
    "small": MoePreset(
        vocab_size=32768,
        hidden_size=512,
        num_hidden_layers=8,
        num_attention_heads=8,
        num_key_value_heads=4,
        num_experts=32,
        num_experts_per_tok=4,
        moe_intermediate_size=256,
        shared_expert_intermediate_size=512,
        max_position_embeddings=4096,
    ),
    # The shape of Ling-Lite (inclusionAI, "Every FLOP Counts", 2025): 28 layers, hidden 2048, 64 routed experts
    # of width 1408, top-6, two shared experts (one of width 2816 here), 16.8B total / 2.75B active. Config only.
    "ling-lite": MoePreset(
        vocab_size=126464,
        hidden_size=2048,
        num_hidden_layers=28,
        num_attention_heads=16,
        num_key_value_heads=4,
        num_experts=64,
        num_experts_per_tok=6,
        moe_intermediate_size=1408,
        shared_expert_intermediate_size=2816,
        max_position_embeddings=16384,
        tie_word_embeddings=False,
        rope_theta=600000.0,
        initializer_range=0.006,
    ),
}


def get_preset(name: str) -> MoePreset:
    """The preset called `name`; a ValueError lists the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown model preset {name!r}; known: {sorted(PRESETS)}") from None


def count_model_params(model, top_k: int | None = None) -> dict[str, int]:
    """Total and active parameters of an instantiated model: routed-expert tensors (`mlp.experts.*`, leading
    dimension = number of experts) count `top_k / num_experts` of their size toward the active figure."""
    top_k = top_k if top_k is not None else getattr(model.config, "num_experts_per_tok", 0)
    num_experts = getattr(model.config, "num_experts", 0) or 0
    total = active = 0
    for name, p in model.named_parameters():  # tied weights are yielded once
        total += p.numel()
        if ".mlp.experts." in name and num_experts:
            active += p.numel() * top_k // num_experts
        else:
            active += p.numel()
    return {"total": total, "active": active}
