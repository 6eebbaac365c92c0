"""What paraphrasing is asked to do (`ParaphraseConfig`, its default prompt and the backends), in a module of its
own: the CLI builds its flags from the dataclass without importing the models and filters
(`kg2tool.common.options`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...common.errors import UsageError

DEFAULT_PROMPT = (
    "Rewrite the question below in other words, the way a person might ask it. Keep its meaning exactly. "
    "Copy these names exactly as written: {names}. Do not add any other name or number. "
    "Answer with the rewritten question only, on one line.\n\nQuestion: {question}"
)

BACKENDS = ("transformers", "vllm", "openai")


@dataclass
class ParaphraseConfig:
    """Parameters:
    model: checkpoint folder (transformers, vllm) or served model name (openai); None: no paraphrasing.
    backend: transformers, vllm or openai (the backends of `kg2tool eval`).
    fraction: share of rows whose questions are sent to the model (chosen by a hash of seed and row id).
    batch_size: prompts per generate() call (transformers; requests in flight for openai).
    max_new_tokens: generation budget per rewrite.
    prompt: the instruction; `{question}` is replaced by the question, `{names}` by the names it must keep.
    followups: also rewrite the follow-up question of `followup` rows.
    require_relations: reject a rewrite that no longer names a relation of the question (missing_relation).
    min_ratio, max_ratio: bounds on a rewrite's length relative to the template question (characters).
    device, dtype: transformers/vllm placement and precision (`auto`: GPU and bfloat16 when there is one).
    base_url: openai: the endpoint.
    api_key_env: openai: the environment variable holding the API key.
    """

    model: str | None = None
    backend: str = field(default="transformers", metadata={"choices": BACKENDS})
    fraction: float = 1.0
    batch_size: int = 16
    max_new_tokens: int = 64
    prompt: str = DEFAULT_PROMPT
    followups: bool = True
    require_relations: bool = True
    min_ratio: float = 0.5
    max_ratio: float = 2.0
    device: str = "auto"
    dtype: str = "auto"
    base_url: str | None = None
    api_key_env: str | None = None

    def check(self) -> None:
        """UsageError for an option that cannot work (before any sampling)."""
        if self.backend not in BACKENDS:
            raise UsageError(f"--paraphrase-backend: choose one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if not 0 < self.fraction <= 1:
            raise UsageError(f"--paraphrase-fraction must be in (0, 1], got {self.fraction}")
        if self.batch_size < 1 or self.max_new_tokens < 1:
            raise UsageError("--paraphrase-batch-size and --paraphrase-max-new-tokens must be at least 1")
        if "{question}" not in self.prompt:
            raise UsageError("the paraphrase prompt must contain {question}")
        if not 0 < self.min_ratio <= 1 <= self.max_ratio:
            raise UsageError("paraphrase min_ratio must be in (0, 1] and max_ratio at least 1")
        if self.backend == "openai" and not self.base_url:
            raise UsageError("--paraphrase-backend openai needs --paraphrase-base-url (e.g. http://localhost:8000/v1)")
