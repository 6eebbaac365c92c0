"""Model backends for ``kg2tool eval``: one small interface, heavy imports inside ``load()``.

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

import importlib.util
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.errors import InputError, MissingExtraError, UsageError
from .parsers import render_calls

BACKENDS = ("transformers", "vllm", "openai")
REFERENCE_MODELS = ("gold", "no-call")
NO_CALL_TEXT = "I cannot help with that using the available tools."


class EndpointError(InputError):
    """An OpenAI-compatible endpoint that cannot be reached or answers with an error."""


@dataclass
class Completion:
    """One generated assistant turn.

    ``tool_calls`` is None when calls are to be parsed from ``text``; an endpoint that parsed them itself gives
    ``[{"name", "arguments"}]`` here (and ``errors`` for calls whose arguments were not a JSON object).
    """

    text: str
    tool_calls: list[dict[str, Any]] | None = None
    errors: list[str] = field(default_factory=list)


class Backend:
    """Base class: ``load()``, ``generate(conversations, tools, keys)``, ``unload()``."""

    name = "base"

    def load(self) -> None:
        pass

    def generate(
        self, conversations: Sequence[list[dict]], tools: Sequence[list[dict]], keys: Sequence[str] | None = None
    ) -> list[Completion]:
        raise NotImplementedError

    def unload(self) -> None:
        pass


# ---------------------------------------------------------------------------------------------- reference models


class GoldModel(Backend):
    """Answers from the ground truth: ``oracle[key]`` is the list of assistant turns of the item, each
    ``{"calls": [{"name", "arguments"}]}`` or ``{"text": str}``; the turn given is the one after as many assistant
    turns as the conversation already has. Calls are written in ``parser``'s format."""

    name = "gold"

    def __init__(self, oracle: dict[str, list[dict]], parser: str):
        self.oracle = oracle
        self.parser = parser

    def generate(self, conversations, tools, keys=None):
        if keys is None:
            raise ValueError("the gold model needs the item keys")
        out = []
        for messages, key in zip(conversations, keys, strict=True):
            if key not in self.oracle:
                raise KeyError(f"the gold model has no ground truth for {key!r}")
            turns = self.oracle[key]
            index = sum(m.get("role") == "assistant" for m in messages)
            turn = turns[index] if index < len(turns) else {"text": ""}
            if turn.get("calls"):
                out.append(Completion(render_calls(turn["calls"], self.parser)))
            else:
                out.append(Completion(turn.get("text", "")))
        return out


class NoCallModel(Backend):
    """Always answers with the same short text, never calls a tool."""

    name = "no-call"

    def generate(self, conversations, tools, keys=None):
        return [Completion(NO_CALL_TEXT) for _ in conversations]


# ---------------------------------------------------------------------------------------------- transformers


def _need(module: str, extra: str, what: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(f"{what} needs the optional package {module!r}: `pip install 'kg2tool[{extra}]'`")


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
    """

    name = "transformers"

    def __init__(
        self, path: str, *, device: str = "auto", dtype: str = "auto", batch_size: int = 8, max_new_tokens: int = 512
    ):
        self.path = path
        self.device = device
        self.dtype = dtype
        self.batch_size = batch_size
        self.max_new_tokens = max_new_tokens
        self.model = None
        self.tokenizer = None

    def load(self) -> None:
        _need("torch", "train", "the transformers backend")
        _need("transformers", "train", "the transformers backend")
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
                )
            new = out[:, enc["input_ids"].shape[1] :]
            for i, text in zip(chunk, tok.batch_decode(new, skip_special_tokens=True), strict=True):
                texts[i] = text
        return [Completion(t) for t in texts]

    def unload(self) -> None:
        self.model = None
        self.tokenizer = None
        if importlib.util.find_spec("torch") is not None:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()


# ---------------------------------------------------------------------------------------------- vLLM


class VllmBackend(Backend):
    """Offline vLLM on a GPU (``pip install 'kg2tool[vllm]'``); see the module docstring for why prompts are
    rendered here and sent with ``LLM.generate`` rather than ``LLM.chat``."""

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


# ---------------------------------------------------------------------------------------------- OpenAI-compatible


def to_wire_messages(messages: list[dict]) -> list[dict]:
    """Messages in OpenAI's wire format: call arguments as JSON strings, tool messages without ``name``."""
    out = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            calls = []
            for call in message["tool_calls"]:
                fn = call.get("function", call)
                args = fn.get("arguments", {})
                calls.append(
                    {
                        "id": call.get("id"),
                        "type": "function",
                        "function": {
                            "name": fn.get("name"),
                            "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False),
                        },
                    }
                )
            out.append({"role": "assistant", "content": message.get("content") or None, "tool_calls": calls})
        elif role == "tool":
            out.append({"role": "tool", "tool_call_id": message.get("tool_call_id"), "content": message["content"]})
        else:
            out.append({"role": role, "content": message.get("content") or ""})
    return out


def completion_from_message(message: dict) -> Completion:
    """A chat-completions ``message`` as a Completion; structured ``tool_calls`` are taken as parsed."""
    text = message.get("content") or ""
    raw_calls = message.get("tool_calls") or []
    if not raw_calls:
        return Completion(text)
    calls, errors = [], []
    for raw in raw_calls:
        fn = (raw or {}).get("function") or {}
        name, args = fn.get("name"), fn.get("arguments")
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except json.JSONDecodeError as exc:
                errors.append(f"arguments of {name!r} are not JSON: {exc.msg}")
                continue
        if not isinstance(name, str) or not isinstance(args, dict):
            errors.append(f"tool call {name!r}: needs a string name and an arguments object")
            continue
        calls.append({"name": name, "arguments": args})
    return Completion(text, calls, errors)


class OpenAIBackend(Backend):
    """Any OpenAI-compatible chat-completions endpoint.

    Parameters:
        model: the served model name.
        base_url: e.g. ``http://localhost:8000/v1``.
        api_key_env: name of the environment variable holding the key (none: no key sent).
        max_new_tokens: ``max_tokens`` of each request.
        concurrency: requests in flight at once.
        timeout: seconds per request.
        use_sdk: use the ``openai`` package (default: when it is installed), else ``urllib``.
        retries: extra tries after a connection error or a 5xx/429 answer.
    """

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key_env: str | None = None,
        max_new_tokens: int = 512,
        concurrency: int = 8,
        timeout: float = 120.0,
        use_sdk: bool | None = None,
        retries: int = 2,
    ):
        if not base_url:
            raise UsageError("the openai backend needs --base-url (e.g. http://localhost:8000/v1)")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.max_new_tokens = max_new_tokens
        self.concurrency = max(1, concurrency)
        self.timeout = timeout
        self.use_sdk = use_sdk
        self.retries = retries
        self.client = None

    def load(self) -> None:
        self.api_key = None
        if self.api_key_env:
            self.api_key = os.environ.get(self.api_key_env)
            if not self.api_key:
                raise UsageError(f"--api-key-env {self.api_key_env}: that environment variable is not set")
        if self.use_sdk is None:
            self.use_sdk = importlib.util.find_spec("openai") is not None
        if self.use_sdk:
            import openai

            self.client = openai.OpenAI(
                base_url=self.base_url, api_key=self.api_key or "none", timeout=self.timeout, max_retries=self.retries
            )

    def _body(self, messages: list[dict], tools: list[dict]) -> dict:
        body = {
            "model": self.model,
            "messages": to_wire_messages(messages),
            "temperature": 0,
            "max_tokens": self.max_new_tokens,
        }
        if tools:
            body["tools"] = tools
        return body

    def _post(self, body: dict) -> dict:
        url = f"{self.base_url}/chat/completions"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as exc:
                detail = exc.read().decode("utf-8", "replace")[:300]
                if exc.code in (429, 500, 502, 503, 504) and attempt < self.retries:
                    time.sleep(0.5 * 2**attempt)
                    continue
                raise EndpointError(f"{url}: HTTP {exc.code}: {detail}") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt < self.retries:
                    time.sleep(0.5 * 2**attempt)
                    continue
                raise EndpointError(f"{url}: cannot reach the endpoint: {exc}") from None
            except json.JSONDecodeError as exc:
                raise EndpointError(f"{url}: the answer is not JSON: {exc.msg}") from None
        raise AssertionError("unreachable")

    def _one(self, messages: list[dict], tools: list[dict]) -> Completion:
        body = self._body(messages, tools)
        if self.use_sdk:
            import openai

            try:
                response = self.client.chat.completions.create(**body)
            except openai.OpenAIError as exc:
                raise EndpointError(f"{self.base_url}: {type(exc).__name__}: {exc}") from None
            message = response.choices[0].message.model_dump()
        else:
            response = self._post(body)
            try:
                message = response["choices"][0]["message"]
            except (KeyError, IndexError, TypeError):
                raise EndpointError(f"{self.base_url}: unexpected answer: {json.dumps(response)[:300]}") from None
        return completion_from_message(message)

    def generate(self, conversations, tools, keys=None):
        if self.use_sdk is None:
            raise RuntimeError("call load() first")
        pairs = list(zip(conversations, tools, strict=True))
        if self.concurrency == 1 or len(pairs) == 1:
            return [self._one(m, t) for m, t in pairs]
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(lambda pair: self._one(*pair), pairs))

    def unload(self) -> None:
        self.client = None


def make_backend(
    model: str,
    backend: str = "transformers",
    *,
    parser: str = "hermes",
    oracle: dict[str, list[dict]] | None = None,
    **options: Any,
) -> Backend:
    """The backend for ``--model``/``--backend``: the reference models by name, else a real backend.

    ``options``: device, dtype, batch_size, max_new_tokens (local backends); base_url, api_key_env, concurrency,
    timeout (openai). Options a backend does not use are ignored.
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
        )
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
