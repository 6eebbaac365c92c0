"""Router losses and expert-load statistics from router logits captured with forward hooks.

Design choices:
- Router logits are captured by forward hooks on the routers (`*.mlp.gate` modules), not taken from the model's
  output: TRL's fused forward and DPO's concatenated forward do not return them, and the model computes its own
  auxiliary loss only when `output_router_logits=True`, which must stay False in saved configs (True
  breaks batched `generate()` inside the load-balancing loss). The same capture therefore serves pretraining, SFT and DPO trainers.
- Load-balancing loss: Switch/qwen2_moe form `E * sum_i f_i * P_i` (f_i: share of top-k assignments to expert i,
  P_i: mean router probability), computed per layer and averaged over layers (transformers pools the layers
  before multiplying, which lets one layer's imbalance hide behind another's). It is about top_k at perfect
  balance.
- Router z-loss (ST-MoE): mean over tokens of logsumexp(logits)^2, averaged over layers; keeps logits small.
- Padding is excluded from both losses and from the statistics when an attention mask is given.
- Statistics are accumulated as counts on the logits' device and only turned into floats at logging time.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field


def find_routers(model) -> list[tuple[str, object]]:
    """The router modules of a MoE decoder: modules named `...mlp.gate` (qwen2_moe, ernie4_5_moe, mixtral-style
    `block_sparse_moe.gate` too), in layer order. A dense model has none."""
    out = []
    for name, module in model.named_modules():
        if name.endswith(("mlp.gate", "block_sparse_moe.gate")) and hasattr(module, "weight"):
            out.append((name, module))
    return out


class RouterCapture:
    """Forward hooks that record each router's logits and chosen experts while `recording()` is active.

    After a forward pass inside `recording()`, `logits` holds one `[tokens, num_experts]` tensor per MoE layer
    and `selected` the matching `[tokens, top_k]` expert indices (taken from the router's output when it returns
    them, else recomputed with top-k).
    """

    def __init__(self, model, top_k: int):
        self.top_k = top_k
        self.names: list[str] = []
        self.logits: list = []
        self.selected: list = []
        self._active = False
        self._handles = []
        for name, module in find_routers(model):
            self.names.append(name)
            self._handles.append(module.register_forward_hook(self._hook))

    def _hook(self, module, inputs, output) -> None:
        import torch

        # Forward passes without autograd (DPO's reference pass through the same modules with LoRA disabled,
        # evaluation) add nothing a loss could use.
        if not self._active or not torch.is_grad_enabled():
            return
        if isinstance(output, tuple):
            logits = output[0]
            selected = output[2] if len(output) >= 3 else None
        else:
            logits, selected = output, None
        logits = logits.reshape(-1, logits.shape[-1])
        if selected is None:
            selected = logits.topk(self.top_k, dim=-1).indices
        self.logits.append(logits)
        self.selected.append(selected.reshape(logits.shape[0], -1))

    @contextmanager
    def recording(self):
        """Record during the `with` block; previous records are cleared on entry."""
        self.logits, self.selected = [], []
        self._active = True
        try:
            yield self
        finally:
            self._active = False

    def remove(self) -> None:
        """Detach the forward hooks from the model."""
        for handle in self._handles:
            handle.remove()
        self._handles = []

    def __len__(self) -> int:
        return len(self.names)


def _flat_mask(mask, n_tokens: int, like):
    if mask is None:
        return None
    flat = mask.reshape(-1).to(device=like.device, dtype=like.dtype)
    return flat if flat.numel() == n_tokens else None  # a mask that does not match (e.g. packed) is ignored


def load_balancing_loss(logits: list, selected: list, num_experts: int, mask=None):
    """Mean over layers of `num_experts * sum_i f_i * P_i`; about top_k at perfect balance.

    Input: per-layer router logits `[tokens, E]`, their top-k indices `[tokens, k]`, and an optional attention
    mask (`[batch, seq]`, 1 = real token). Output: a scalar tensor (0 if there are no MoE layers).
    """
    import torch

    if not logits:
        return torch.zeros(())
    losses = []
    for layer_logits, layer_sel in zip(logits, selected, strict=True):
        probs = torch.softmax(layer_logits.float(), dim=-1)
        counts = torch.zeros_like(probs).scatter_add_(1, layer_sel, torch.ones_like(layer_sel, dtype=probs.dtype))
        m = _flat_mask(mask, probs.shape[0], probs)
        if m is not None:
            probs, counts = probs * m[:, None], counts * m[:, None]
            n = m.sum().clamp(min=1)
        else:
            n = probs.shape[0]
        f = counts.sum(0) / n  # top-k assignments per token, per expert (sums to k)
        p = probs.sum(0) / n
        losses.append(num_experts * (f * p).sum())
    return torch.stack(losses).mean()


def router_z_loss(logits: list, mask=None):
    """Mean over layers of mean_tokens(logsumexp(logits)^2) (ST-MoE). Output: a scalar tensor."""
    import torch

    if not logits:
        return torch.zeros(())
    losses = []
    for layer_logits in logits:
        z = torch.logsumexp(layer_logits.float(), dim=-1).pow(2)
        m = _flat_mask(mask, z.shape[0], z)
        losses.append((z * m).sum() / m.sum().clamp(min=1) if m is not None else z.mean())
    return torch.stack(losses).mean()


@dataclass
class ExpertLoadTracker:
    """Accumulates, per MoE layer, how many tokens each expert received and the routing entropy, between logs.

    `summary()` returns, for layer i, `moe/L{i}_max_load` (busiest expert's load / mean load; 1.0 is perfect
    balance, num_experts/top_k means every token goes to the same experts) and `moe/L{i}_entropy` (entropy of
    the load distribution / log(num_experts); 1.0 is uniform), plus their means over layers and the mean
    per-token router entropy (`moe/router_entropy`, nats; low means confident routing).
    """

    num_experts: int
    counts: list = field(default_factory=list)
    token_entropy_sum: float = 0.0
    tokens: int = 0

    def update(self, capture: RouterCapture, mask=None) -> None:
        """Add the expert choices of one forward pass (tokens under `mask` only) to the per-layer counts."""
        import torch

        with torch.no_grad():
            for i, (logits, sel) in enumerate(zip(capture.logits, capture.selected, strict=True)):
                m = _flat_mask(mask, sel.shape[0], logits.float())
                weights = torch.ones_like(sel, dtype=torch.float32)
                if m is not None:
                    weights = weights * m[:, None]
                c = torch.zeros(self.num_experts, device=sel.device).scatter_add_(
                    0, sel.reshape(-1), weights.reshape(-1)
                )
                if len(self.counts) <= i:
                    self.counts.append(torch.zeros_like(c))
                self.counts[i] += c
                if i == 0:
                    probs = torch.softmax(logits.float(), dim=-1)
                    ent = -(probs * probs.clamp(min=1e-12).log()).sum(-1)
                    if m is not None:
                        ent = ent * m
                    self.token_entropy_sum += float(ent.sum())
                    self.tokens += int(m.sum()) if m is not None else ent.shape[0]

    def summary(self) -> dict[str, float]:
        """Figures since the last reset, for the logs: per layer the max expert load (relative to an even share) and
        the load entropy (normalized), their means, and the mean router entropy per token."""
        if not self.counts:
            return {}
        out: dict[str, float] = {}
        max_loads, entropies = [], []
        for i, c in enumerate(self.counts):
            c = c.float().cpu()
            total = float(c.sum())
            if total <= 0:
                continue
            load = c / total
            max_loads.append(float(c.max()) / (total / self.num_experts))
            nz = load[load > 0]
            entropies.append(float(-(nz * nz.log()).sum()) / math.log(self.num_experts))
            out[f"moe/L{i}_max_load"] = round(max_loads[-1], 3)
            out[f"moe/L{i}_entropy"] = round(entropies[-1], 4)
        if max_loads:
            out["moe/max_load"] = round(sum(max_loads) / len(max_loads), 3)
            out["moe/load_entropy"] = round(sum(entropies) / len(entropies), 4)
        if self.tokens:
            out["moe/router_entropy"] = round(self.token_entropy_sum / self.tokens, 4)
        return out

    def reset(self) -> None:
        """Start counting afresh (after each logging step)."""
        self.counts = []
        self.token_entropy_sum = 0.0
        self.tokens = 0
