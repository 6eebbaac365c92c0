"""The paraphrase model: `Paraphraser` sends a generation backend (`kg2tool.llm.backends`, made by
`kg2tool.synth.paraphrase.rewrite.make_paraphrase_backend`) its prompts in fixed chunks and checkpoints each chunk's
answers (so `--resume` does not ask the model again)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from ...common.files import write_atomic
from .config import DEFAULT_PROMPT
from .filter import clean_candidate


class Paraphraser:
    """Asks a backend (`kg2tool.llm.backends`: `generate(conversations, tools)`) to rewrite questions.

    `rewrite(questions, names)` returns one cleaned candidate per question, in order: each prompt is a single user
    message, `prompt` with `{question}` and `{names}` filled in. Prompts go to the backend in chunks of
    `8 * batch_size`; with `cache_dir`, each chunk's answers are saved there and reused when the same prompts come
    again (`--resume`)."""

    def __init__(self, backend, prompt: str = DEFAULT_PROMPT, batch_size: int = 16):
        self.backend = backend
        self.prompt = prompt
        self.chunk = 8 * max(1, batch_size)

    def prompt_for(self, question: str, names: Sequence[str]) -> str:
        """The prompt for one question: `prompt` with `{question}` and `{names}` (the names to keep) filled in."""
        listed = "; ".join(names) if names else "(none)"
        # replace, not str.format: a user's prompt may hold other braces, and graph text may too
        return self.prompt.replace("{names}", listed).replace("{question}", question)

    def rewrite(
        self, questions: Sequence[str], names: Sequence[Sequence[str]], *, progress: bool = False, cache_dir=None
    ) -> list[str]:
        """One cleaned candidate per question, in order (chunks answered before are read from `cache_dir`)."""
        from tqdm.auto import tqdm

        prompts = [self.prompt_for(q, n) for q, n in zip(questions, names, strict=True)]
        out: list[str] = []
        cache = Path(cache_dir) if cache_dir else None
        if cache:
            cache.mkdir(parents=True, exist_ok=True)
        bar = tqdm(total=len(prompts), disable=not progress, desc="paraphrase", unit="q", dynamic_ncols=True)
        for k, start in enumerate(range(0, len(prompts), self.chunk)):
            chunk = prompts[start : start + self.chunk]
            key = hashlib.sha256(json.dumps(chunk, ensure_ascii=False).encode()).hexdigest()
            path = cache / f"{k:06d}.json" if cache else None
            texts = _load_chunk(path, key)
            if texts is None:
                completions = self.backend.generate(
                    [[{"role": "user", "content": p}] for p in chunk], [[]] * len(chunk)
                )
                # an endpoint that answers with a structured tool call: counted as markup
                texts = [c.text if not c.tool_calls else f"<tool_call>{c.text}" for c in completions]
                if path:
                    write_atomic(path, json.dumps({"key": key, "texts": texts}, ensure_ascii=False))
            out.extend(clean_candidate(t) for t in texts)
            bar.update(len(chunk))
        bar.close()
        return out


def _load_chunk(path: Path | None, key: str) -> list[str] | None:
    if path is None or not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data["texts"] if data.get("key") == key else None
