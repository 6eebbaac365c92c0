"""The ``vllm`` backend: offline ``vllm.LLM`` on a GPU (``pip install 'kg2tool[vllm]'``).

Prompts are rendered with the model's own chat template (with ``tools``), which is what
``LLM.chat(messages, tools=...)`` does, but ``LLM.chat`` takes one tool list per call and our items each offer
their own tools, so one ``LLM.generate`` over all rendered prompts keeps the whole batch on the GPU at once.
"""

from __future__ import annotations

from typing import Any

from ..common.errors import MissingExtraError
from .backend import Backend, Completion


class VllmBackend(Backend):
    """Offline vLLM on a GPU; see the module docstring for why prompts are rendered here and sent with
    ``LLM.generate`` rather than ``LLM.chat``."""

    name = "vllm"

    def __init__(self, path: str, *, dtype: str = "auto", max_new_tokens: int = 512, **llm_kwargs: Any):
        self.path = path
        self.dtype = dtype
        self.max_new_tokens = max_new_tokens
        self.llm_kwargs = llm_kwargs
        self.llm = None

    def load(self) -> None:
        try:
            import vllm
        except ImportError as exc:
            raise MissingExtraError(
                f"the vllm backend needs vLLM on a CUDA GPU: `pip install 'kg2tool[vllm]'` ({exc})"
            ) from None
        self.llm = vllm.LLM(model=self.path, dtype=self.dtype, **self.llm_kwargs)
        self.tokenizer = self.llm.get_tokenizer()
        self.params = vllm.SamplingParams(temperature=0.0, max_tokens=self.max_new_tokens)

    def generate(self, conversations, tools, keys=None):
        if self.llm is None:
            raise RuntimeError("call load() first")
        prompts = [
            self.tokenizer.apply_chat_template(m, tools=t or None, add_generation_prompt=True, tokenize=False)
            for m, t in zip(conversations, tools, strict=True)
        ]
        outputs = self.llm.generate(prompts, self.params, use_tqdm=False)
        return [Completion(o.outputs[0].text) for o in outputs]

    def unload(self) -> None:
        self.llm = None
