"""One targeted adjustment of TRL 1.16's fused LM head for CPU training.

TRL's SFT and DPO trainers compute per-token log-probabilities with a chunked kernel
(`trl.kernels.chunked_logprob`) instead of materializing the logits. On Triton devices it scores only the
positions that carry a label ("compact"); everywhere else it scores every position, because on Neuron-like
devices a varying number of rows would recompile the tiles (comment in `trl/trainer/utils.py`). A CPU does not
compile anything, so there the full scoring is pure waste: with assistant-only loss most positions (tool
schemas, the question) carry no label. `compact_scoring_on_cpu()` makes the CPU take the compact path too; the
loss and metrics are the same sums over the same labelled positions.

Measured (tiny MoE, `kg2tool sft --config sft/tiny.yaml`, 6 steps, 2-core machine): see sft/README.md.
"""

from __future__ import annotations

import logging

logger = logging.getLogger("kg2tool.train")


def compact_scoring_on_cpu() -> bool:
    """Patch `trl.trainer.utils._use_triton` (used there only to choose compact scoring) to say yes on CPU.

    Returns whether the patch is in place (False when this TRL has no such hook: nothing is changed then)."""
    try:
        from trl.trainer import utils as trl_utils
    except ImportError:
        return False
    original = getattr(trl_utils, "_use_triton", None)
    if original is None:
        logger.info("TRL has no _use_triton hook: CPU log-prob scoring left as is")
        return False
    if getattr(original, "_kg2tool_compact_cpu", False):
        return True

    def use_compact(device) -> bool:
        return device.type == "cpu" or original(device)

    use_compact._kg2tool_compact_cpu = True
    trl_utils._use_triton = use_compact
    return True
