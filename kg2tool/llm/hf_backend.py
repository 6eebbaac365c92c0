"""The ``transformers`` backend: a local checkpoint through ``AutoModelForCausalLM``, prompts from the tokenizer's
chat template (``apply_chat_template(messages, tools=..., add_generation_prompt=True)``), batched left-padded
greedy ``generate``, CPU or GPU; and ``load_tokenizer``, which loads a checkpoint's tokenizer as it was saved.

MoE configs saved by TRL carry ``output_router_logits: true``, which breaks batched generation (a tensor size
mismatch in the load-balancing loss): the config is loaded first and the flag turned off.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from ..common.errors import InputError, UsageError
from .backend import Backend, Completion, need_extra
from .copy_constraint import MODES, CopyStrings, token_texts


def load_tokenizer(path: str):
    """The checkpoint's tokenizer as it was saved.

    A tokenizer saved as a generic one (``tokenizer_class`` ``TokenizersBackend`` or ``PreTrainedTokenizerFast``,
    what kg2tool's own tokenizer is) is loaded as such: with transformers 5.24, ``AutoTokenizer`` in a folder
    whose ``config.json`` says ``qwen2`` returns ``Qwen2Tokenizer``, which replaces the saved pre-tokenizer with
    Qwen2's, so the model would see other tokens than in training. Other tokenizers load with ``AutoTokenizer``.
    """
    from transformers import AutoTokenizer, PreTrainedTokenizerFast

    config_file = Path(path) / "tokenizer_config.json"
    saved_class = None
    if config_file.is_file():
        try:
            saved_class = json.loads(config_file.read_text(encoding="utf-8")).get("tokenizer_class")
        except (OSError, ValueError):
            saved_class = None
    if saved_class in ("TokenizersBackend", "PreTrainedTokenizerFast") and (Path(path) / "tokenizer.json").is_file():
        return PreTrainedTokenizerFast.from_pretrained(path)
    return AutoTokenizer.from_pretrained(path)


class TransformersBackend(Backend):
    """A local checkpoint through transformers: batched greedy generation, CPU or GPU.

    Parameters:
        path: checkpoint folder (config, weights, tokenizer with a chat template).
        device: ``auto`` (cuda when available), ``cpu``, ``cuda``, ``cuda:1``...
        dtype: ``auto`` (bfloat16 on a GPU that supports it, float32 on CPU), ``float32``, ``bfloat16``, ``float16``.
        batch_size: prompts per ``generate`` call (prompts are sorted by length first, to pad less).
        max_new_tokens: generation budget per turn.
        constrain: ``none``, or ``copy``: every string inside a tool call is copied from the prompt
            (`kg2tool.llm.copy_constraint`; scores then measure a different thing and are reported as such).
    """

    name = "transformers"

    def __init__(
        self,
        path: str,
        *,
        device: str = "auto",
        dtype: str = "auto",
        batch_size: int = 8,
        max_new_tokens: int = 512,
        constrain: str = "none",
    ):
        if constrain not in MODES:
            raise UsageError(f"unknown --constrain {constrain!r}; choose {' or '.join(MODES)}")
        self.constrain = constrain
        self._texts: list[str] | None = None
        self.path = path
        self.device = device
        self.dtype = dtype
        self.batch_size = batch_size
        self.max_new_tokens = max_new_tokens
        self.model = None
        self.tokenizer = None

    def load(self) -> None:
        need_extra("torch", "train", "the transformers backend")
        need_extra("transformers", "train", "the transformers backend")
        import torch
        from transformers import AutoConfig, AutoModelForCausalLM

        device = self.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        dtype = self.dtype
        if dtype == "auto":
            dtype = "bfloat16" if device.startswith("cuda") and torch.cuda.is_bf16_supported() else "float32"
        try:
            torch_dtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
        except KeyError:
            raise UsageError(f"unknown --dtype {dtype!r}; choose auto, float32, bfloat16 or float16") from None
        try:
            tokenizer = load_tokenizer(self.path)
            config = AutoConfig.from_pretrained(self.path)
        except (OSError, ValueError) as exc:
            raise InputError(f"{self.path}: cannot load a tokenizer and config: {exc}") from None
        if not tokenizer.chat_template:
            raise InputError(f"{self.path}: the tokenizer has no chat template")
        # TRL saves MoE configs with output_router_logits=True / use_cache=False; batched generate() then fails
        # in the load-balancing loss with a tensor size mismatch.
        for cfg in (config, getattr(config, "text_config", None)):
            if cfg is not None and hasattr(cfg, "output_router_logits"):
                cfg.output_router_logits = False
        config.use_cache = True
        try:
            model = AutoModelForCausalLM.from_pretrained(self.path, config=config, dtype=torch_dtype)
        except (OSError, ValueError) as exc:
            raise InputError(f"{self.path}: cannot load the model: {exc}") from None
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        eos = {tokenizer.eos_token_id}
        gen_eos = getattr(model.generation_config, "eos_token_id", None)
        eos |= set(gen_eos) if isinstance(gen_eos, (list, tuple)) else {gen_eos}
        self.eos_ids = sorted(e for e in eos if e is not None)
        self.torch = torch
        self.model = model.to(device).eval()
        self.tokenizer = tokenizer
        self.resolved = {"device": device, "dtype": dtype}

    def render(self, messages: list[dict], tools: list[dict]) -> str:
        return self.tokenizer.apply_chat_template(
            messages, tools=tools or None, add_generation_prompt=True, tokenize=False
        )

    def generate(self, conversations, tools, keys=None):
        if self.model is None:
            raise RuntimeError("call load() first")
        prompts = [self.render(m, t) for m, t in zip(conversations, tools, strict=True)]
        order = sorted(range(len(prompts)), key=lambda i: len(prompts[i]))
        texts: list[str] = [""] * len(prompts)
        tok = self.tokenizer
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            enc = tok([prompts[i] for i in chunk], return_tensors="pt", padding=True, add_special_tokens=False)
            enc = enc.to(self.model.device)
            with self.torch.inference_mode():
                out = self.model.generate(
                    **enc,
                    max_new_tokens=self.max_new_tokens,
                    do_sample=False,
                    pad_token_id=tok.pad_token_id,
                    eos_token_id=self.eos_ids,
                    use_cache=True,
                    **self._processors(enc["input_ids"].shape[1]),
                )
            new = out[:, enc["input_ids"].shape[1] :]
            for i, text in zip(chunk, tok.batch_decode(new, skip_special_tokens=True), strict=True):
                texts[i] = text
        return [Completion(t) for t in texts]

    def _processors(self, prompt_len: int) -> dict:
        """generate()'s logits_processor for `constrain` (empty for none)."""
        if self.constrain != "copy":
            return {}
        from transformers import LogitsProcessorList

        if self._texts is None:
            self._texts = token_texts(self.tokenizer)
        return {"logits_processor": LogitsProcessorList([CopyStrings(self._texts, prompt_len, self.tokenizer.pad_token_id)])}

    def unload(self) -> None:
        self.model = None
        self.tokenizer = None
        if importlib.util.find_spec("torch") is not None:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()
