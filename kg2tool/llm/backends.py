"""Model backends for ``kg2tool eval``: one small interface, heavy imports inside ``load()``; ``make_backend``
picks one. The interface and reference models are in ``backend``, each real backend in a module of its own
(``hf_backend``, ``vllm_backend``, ``openai_backend``); their public names are importable from here.

    backend.load()
    completions = backend.generate(conversations, tools, keys)   # one Completion per conversation
    backend.unload()

``conversations[i]`` is a list of chat messages in the Hugging Face convention (tool-call ``arguments`` are
dicts), ``tools[i]`` the OpenAI-format tool schemas offered in it, ``keys[i]`` the id of the test item (only the
reference models look at it). Generation is greedy. A ``Completion`` is the model's text; endpoints that parse
tool calls themselves (OpenAI-compatible servers) also fill ``tool_calls``, and then the ``--parser`` is not used.

Backends:
* ``transformers``: ``AutoModelForCausalLM``/``AutoTokenizer.from_pretrained(PATH)``, prompts from the tokenizer's
  chat template (``apply_chat_template(messages, tools=..., add_generation_prompt=True)``), batched left-padded
  greedy ``generate``, CPU or GPU. MoE configs saved by TRL carry ``output_router_logits: true``, which breaks
  batched generation (a tensor size mismatch in the load-balancing loss): the config is loaded first and the
  flag turned off.
* ``vllm``: offline ``vllm.LLM`` on a GPU. Prompts are rendered with the model's own chat template (with
  ``tools``), which is what ``LLM.chat(messages, tools=...)`` does, but ``LLM.chat`` takes one tool list per
  call and our items each offer their own tools, so one ``LLM.generate`` over all rendered prompts keeps the
  whole batch on the GPU at once.
* ``openai``: any OpenAI-compatible chat-completions endpoint (``vllm serve``, ...): ``--base-url``, the API key
  from the environment variable named by ``--api-key-env``. Uses the ``openai`` package when it is installed,
  plain ``urllib`` otherwise; requests run concurrently.
* reference models ``gold`` (replays the ground truth, written in the parser's format, so it goes through the
  same parsing as any model) and ``no-call`` (always a short text answer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..common.errors import InputError, UsageError
from .backend import (
    BACKENDS,
    NO_CALL_TEXT,
    REFERENCE_MODELS,
    Backend,
    Completion,
    EndpointError,
    GoldModel,
    NoCallModel,
)
from .hf_backend import TransformersBackend, load_tokenizer
from .openai_backend import OpenAIBackend, completion_from_message, to_wire_messages
from .vllm_backend import VllmBackend

__all__ = [
    "BACKENDS",
    "NO_CALL_TEXT",
    "REFERENCE_MODELS",
    "Backend",
    "Completion",
    "EndpointError",
    "GoldModel",
    "NoCallModel",
    "OpenAIBackend",
    "TransformersBackend",
    "VllmBackend",
    "completion_from_message",
    "load_tokenizer",
    "make_backend",
    "to_wire_messages",
]


def make_backend(
    model: str,
    backend: str = "transformers",
    *,
    parser: str = "hermes",
    oracle: dict[str, list[dict]] | None = None,
    **options: Any,
) -> Backend:
    """The backend for ``--model``/``--backend``: the reference models by name, else a real backend.

    ``options``: device, dtype, batch_size, max_new_tokens (local backends), constrain (transformers); base_url,
    api_key_env, concurrency, timeout (openai). Options a backend does not use are ignored.
    """
    if model == "gold":
        return GoldModel(oracle or {}, parser)
    if model == "no-call":
        return NoCallModel()
    max_new = options.get("max_new_tokens", 512)
    if backend == "transformers":
        if not Path(model).exists():
            raise InputError(f"--model {model}: no such folder (the reference models are 'gold' and 'no-call')")
        return TransformersBackend(
            model,
            device=options.get("device", "auto"),
            dtype=options.get("dtype", "auto"),
            batch_size=options.get("batch_size", 8),
            max_new_tokens=max_new,
            constrain=options.get("constrain") or "none",
        )
    if (options.get("constrain") or "none") != "none":
        raise UsageError(f"--constrain {options['constrain']} needs --backend transformers (got {backend})")
    if backend == "vllm":
        return VllmBackend(model, dtype=options.get("dtype", "auto"), max_new_tokens=max_new)
    if backend == "openai":
        return OpenAIBackend(
            model,
            options.get("base_url") or "",
            api_key_env=options.get("api_key_env"),
            max_new_tokens=max_new,
            concurrency=options.get("concurrency", 8),
            timeout=options.get("timeout", 120.0),
        )
    raise UsageError(f"unknown --backend {backend!r}; choose one of {', '.join(BACKENDS)}")
