"""The model backend interface of kg2tool (``Backend``, ``Completion``) and the two reference models that need no
weights: ``gold`` (replays the ground truth in the parser's format) and ``no-call`` (always a short text answer).
The real backends live beside it (``hf_backend``, ``vllm_backend``, ``openai_backend``); ``backends`` picks one.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..common.errors import InputError, MissingExtraError
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
        """Load the model (heavy imports happen here, not at import time)."""

    def generate(
        self, conversations: Sequence[list[dict]], tools: Sequence[list[dict]], keys: Sequence[str] | None = None
    ) -> list[Completion]:
        """One greedy `Completion` per conversation, given the tools offered in each (and the item keys)."""
        raise NotImplementedError

    def unload(self) -> None:
        """Free the model (and GPU memory)."""


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


def need_extra(module: str, extra: str, what: str) -> None:
    """Raise `MissingExtraError` naming the extra to install when `module` is not importable."""
    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(f"{what} needs the optional package {module!r}: `pip install 'kg2tool[{extra}]'`")
