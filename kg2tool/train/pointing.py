"""Argument pointing: teach the model where a call's argument comes from (SFT).

A tiny model picks the right tool and can copy the rest of a name, but does not find where the name starts in a
freely worded question (docs/research/learning-effect.md, sessions 9-17). Two supervision signals, both computed
from the token ids TRL already feeds the trainer:

- **Pointer loss.** For every token of a string argument value in an assistant tool call whose token sequence also
  occurs earlier in the conversation (the name in the question, a value in a tool result), one attention head of
  the last decoder layer is pulled toward the earlier copies: at the position that predicts the k-th value token,
  the loss is `-log sum(attention on the k-th token of each earlier occurrence)`. The head then reads the token the
  call needs next; nothing in the architecture or in decoding changes, the model stays a plain `transformers`
  model. Hand-written (no library supervises one attention head); the head's scores are recomputed from the
  layer's own projections and rotary embedding on the captured layer input, so no eager attention is needed.
- **Argument weight.** The cross-entropy of argument value tokens (the first one especially) multiplied by a
  weight: 2.6% of SFT loss tokens start an argument value, yet that token decides the call.

Spans are found on bytes: every token id maps to its bytes (byte-level BPE), an assistant turn's bytes are
scanned for `"arguments":` objects and their JSON string values (not keys), and a value counts when its tokens
lie wholly inside the string (the kg2tool pre-tokenizers never merge a quote with a letter).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

_ARGUMENTS = re.compile(rb'"arguments":\s*')
_STRING = re.compile(rb'"((?:[^"\\]|\\.)*)"(\s*:)?')


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte -> printable character table, the alphabet of byte-level BPE (`tokenizers`' ByteLevel)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, (chr(c) for c in cs), strict=True))


def token_bytes(tokenizer) -> list[bytes]:
    """The bytes of every token id of a byte-level BPE tokenizer (added tokens: their text)."""
    back = {c: b for b, c in _bytes_to_unicode().items()}
    added = set(tokenizer.get_added_vocab().values())
    out = []
    for i, piece in enumerate(tokenizer.convert_ids_to_tokens(list(range(len(tokenizer))))):
        if piece is None:
            out.append(b"")
        elif i in added or any(c not in back for c in piece):
            out.append(piece.encode("utf-8"))
        else:
            out.append(bytes(back[c] for c in piece))
    return out


@dataclass
class Targets:
    """One row's supervision: `queries[i]` (a position) should attend to the positions `sources[i]`;
    `argument` are the positions of argument value tokens (as labels: the token at that position), `first` those
    that start a value."""

    queries: list[int] = field(default_factory=list)
    sources: list[list[int]] = field(default_factory=list)
    argument: list[int] = field(default_factory=list)
    first: list[int] = field(default_factory=list)


class ArgumentSpans:
    """Finds argument value tokens and their earlier copies in tokenized conversations."""

    def __init__(self, tokenizer):
        self.pieces = token_bytes(tokenizer)

    def value_spans(self, ids: list[int], start: int, end: int) -> list[tuple[int, int]]:
        """Token spans `[a, b)` of the string argument values in `ids[start:end]` (one assistant turn)."""
        offsets, text = [], bytearray()
        for i in range(start, end):
            offsets.append(len(text))
            text += self.pieces[ids[i]] if 0 <= ids[i] < len(self.pieces) else b""
        offsets.append(len(text))
        spans = []
        for m in _ARGUMENTS.finditer(text):
            depth, pos = 0, m.end()
            while pos < len(text):  # walk the arguments object: strings, and braces/brackets outside strings
                c = text[pos]
                if c == ord('"'):
                    s = _STRING.match(text, pos)
                    if not s:
                        break
                    if s.group(2) is None and s.end(1) > s.start(1):
                        span = self._tokens_within(offsets, s.start(1), s.end(1))
                        if span:
                            spans.append((start + span[0], start + span[1]))
                    pos = s.end()
                    continue
                if c in b"{[":
                    depth += 1
                elif c in b"}]":
                    depth -= 1
                    if depth <= 0:
                        break
                pos += 1
        return spans

    @staticmethod
    def _tokens_within(offsets: list[int], lo: int, hi: int) -> tuple[int, int] | None:
        a = bisect.bisect_left(offsets, lo)
        b = bisect.bisect_left(offsets, hi)
        if a >= len(offsets) - 1 or offsets[a] != lo or offsets[b] != hi or b <= a:
            return None  # a token straddles the string's edge
        return a, b

    def targets(self, ids: list[int], labels: list[int]) -> Targets:
        """Supervision for one row: `labels` is -100 outside the trained (assistant) tokens."""
        out = Targets()
        n = len(ids)
        i = 0
        while i < n:
            if labels[i] == -100:
                i += 1
                continue
            j = i
            while j < n and labels[j] != -100:
                j += 1
            for a, b in self.value_spans(ids, i, j):
                value = ids[a:b]
                out.argument.extend(range(a, b))
                out.first.append(a)
                occurrences = _find_all(ids, value, i)
                if not occurrences:
                    continue
                for k in range(b - a):
                    out.queries.append(a + k - 1)
                    out.sources.append([o + k for o in occurrences])
            i = j
        return out


def _find_all(ids: list[int], value: list[int], before: int) -> list[int]:
    """Start positions of `value` in `ids[:before]`."""
    if not value:
        return []
    first, m = value[0], len(value)
    return [p for p in range(before - m + 1) if ids[p] == first and ids[p : p + m] == value]


def batch_targets(spans: ArgumentSpans, input_ids, labels) -> list[Targets]:
    """`Targets` of every row of a batch (tensors)."""
    rows_ids, rows_labels = input_ids.tolist(), labels.tolist()
    return [spans.targets(r, lab) for r, lab in zip(rows_ids, rows_labels, strict=True)]


class LayerInputCapture:
    """Records the input (normed hidden states, rotary cos/sin) of one attention module on every forward."""

    def __init__(self, attention):
        self.attention = attention
        self.hidden = None
        self.position_embeddings = None
        self._handle = attention.register_forward_pre_hook(self._hook, with_kwargs=True)

    def _hook(self, module, args, kwargs):
        self.hidden = kwargs.get("hidden_states", args[0] if args else None)
        self.position_embeddings = kwargs.get("position_embeddings")

    def clear(self) -> None:
        self.hidden = self.position_embeddings = None

    def remove(self) -> None:
        self._handle.remove()


def pointer_loss(attention, hidden, position_embeddings, rows: list[Targets], head: int, attention_mask=None):
    """Mean over supervised query positions of `-log(attention mass on the gold sources)` for head `head` of
    `attention` (a `q_proj`/`k_proj`/rotary attention module such as qwen2_moe's), recomputed from the layer
    input `hidden` (batch, positions, width). Returns `(loss, count)`; `(None, 0)` when no row has a target."""
    import torch
    from transformers.models.qwen2_moe.modeling_qwen2_moe import apply_rotary_pos_emb

    batch_idx, query_pos, source_rows = [], [], []
    for b, row in enumerate(rows):
        for q, sources in zip(row.queries, row.sources, strict=True):
            if q >= 0:
                batch_idx.append(b)
                query_pos.append(q)
                source_rows.append(sources)
    if not batch_idx:
        return None, 0
    hd = attention.head_dim
    groups = attention.num_key_value_groups
    kv = head // groups
    q_w = attention.q_proj.weight[head * hd : (head + 1) * hd]
    k_w = attention.k_proj.weight[kv * hd : (kv + 1) * hd]
    q_b = attention.q_proj.bias[head * hd : (head + 1) * hd] if attention.q_proj.bias is not None else None
    k_b = attention.k_proj.bias[kv * hd : (kv + 1) * hd] if attention.k_proj.bias is not None else None
    q = torch.nn.functional.linear(hidden, q_w, q_b).unsqueeze(1)  # (B, 1, T, hd)
    k = torch.nn.functional.linear(hidden, k_w, k_b).unsqueeze(1)
    cos, sin = position_embeddings
    q, k = apply_rotary_pos_emb(q, k, cos, sin)
    q, k = q[:, 0], k[:, 0]  # (B, T, hd)
    bi = torch.tensor(batch_idx, device=hidden.device)
    qi = torch.tensor(query_pos, device=hidden.device)
    scores = torch.einsum("nd,ntd->nt", q[bi, qi], k[bi]) * attention.scaling  # (N, T)
    positions = torch.arange(hidden.shape[1], device=hidden.device)
    allowed = positions.unsqueeze(0) <= qi.unsqueeze(1)
    if attention_mask is not None:
        allowed = allowed & attention_mask[bi].bool()
    scores = scores.float().masked_fill(~allowed, float("-inf"))
    logp = torch.log_softmax(scores, dim=-1)
    gold = torch.zeros_like(allowed)
    for n, sources in enumerate(source_rows):
        gold[n, sources] = True
    gold = gold & allowed
    picked = logp.masked_fill(~gold, float("-inf")).logsumexp(-1)
    keep = gold.any(-1)
    if not bool(keep.any()):
        return None, 0
    return -picked[keep].mean(), int(keep.sum())


class PointingSetup:
    """What `KgSFTTrainer` needs for argument supervision: the span finder, the capture on the last layer's
    attention, the head, the two weights, and the running mean of the pointer loss for the logs."""

    def __init__(self, model, tokenizer, head: int = 0, weight: float = 0.0, argument_weight: float = 1.0,
                 warmup_steps: int = 0):  # fmt: skip
        decoder = model.get_decoder()
        attention = decoder.layers[-1].self_attn
        heads = model.config.num_attention_heads
        if not 0 <= head < heads:
            from ..common.errors import UsageError

            raise UsageError(f"--pointer_head {head}: the model's last layer has heads 0-{heads - 1}")
        self.spans = ArgumentSpans(tokenizer)
        self.capture = LayerInputCapture(attention)
        self.head, self.weight, self.argument_weight = head, weight, argument_weight
        self.warmup_steps = max(0, warmup_steps)
        self._sum, self._n, self._queries = 0.0, 0, 0
        self._ce_sum, self._ce_n = 0.0, 0

    def weight_at(self, step: int) -> float:
        """The pointer loss weight at optimizer step `step`: rising linearly from 0 to `weight` over
        `warmup_steps` (the full weight from the start when 0)."""
        if self.warmup_steps <= 0:
            return self.weight
        return self.weight * min(1.0, step / self.warmup_steps)

    def weighted(self, per_token, rows: list[Targets], labels, keep):
        """`per_token` (the cross-entropy of the labelled positions, `labels[:, 1:][keep]` order) with argument
        value tokens multiplied by the argument weight."""
        if self.argument_weight == 1.0:
            return per_token
        import torch

        weights = torch.ones_like(labels, dtype=per_token.dtype)
        for b, row in enumerate(rows):
            if row.argument:
                weights[b, row.argument] = self.argument_weight
        return per_token * weights[:, 1:][keep]

    def loss(self, rows: list[Targets], attention_mask=None):
        """The pointer loss of the forward pass just captured (recorded for the logs), or None when the run has
        no pointer weight or the batch no supervised position; the capture is cleared either way."""
        point = None
        if self.weight > 0:
            point, n = pointer_loss(
                self.capture.attention,
                self.capture.hidden,
                self.capture.position_embeddings,
                rows,
                self.head,
                attention_mask,
            )
            if point is not None:
                self.record(float(point.detach()), n)
        self.capture.clear()
        return point

    def record_ce(self, ce: float) -> None:
        """One micro-batch's plain cross-entropy per assistant token (no argument weights, no pointer loss)."""
        self._ce_sum += ce
        self._ce_n += 1

    def record(self, loss: float, queries: int) -> None:
        self._sum += loss
        self._n += 1
        self._queries += queries

    def summary(self) -> dict[str, float]:
        """Means since the last log: `pointer_loss`, `pointer_queries` (supervised positions per micro-batch) and
        `ce_loss` (the plain cross-entropy per assistant token: comparable with a run without pointing, whose
        `lm_loss` it equals; here `lm_loss` holds the weighted and pointer terms too)."""
        out = {}
        if self._n:
            out["pointer_loss"] = round(self._sum / self._n, 4)
            out["pointer_queries"] = round(self._queries / self._n, 1)
        if self._ce_n:
            out["ce_loss"] = round(self._ce_sum / self._ce_n, 4)
        self._sum, self._n, self._queries = 0.0, 0, 0
        self._ce_sum, self._ce_n = 0.0, 0
        return out
