"""The ``openai`` backend: any OpenAI-compatible chat-completions endpoint (``vllm serve``, ...): ``--base-url``,
the API key from the environment variable named by ``--api-key-env``. Uses the ``openai`` package when it is
installed, plain ``urllib`` otherwise; requests run concurrently, with retries on connection errors and
5xx/429 answers. Endpoints parse tool calls themselves, so a ``Completion`` carries them already parsed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from ..common.errors import UsageError
from .backend import Backend, Completion, EndpointError


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
