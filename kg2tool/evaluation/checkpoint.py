"""The generation checkpoint of `kg2tool eval`: every `generate()` call's completions appended to
`OUT/checkpoint.jsonl` as it returns, so `kg2tool eval ... --resume` after a kill replays them instead of asking
the model again, and ends with the report an uninterrupted run writes.

Design choices:
- What is saved is the model's output, not the scored rows: scoring (BFCL's checker, execution on the graph) is
  deterministic and cheap, generation is what costs. A multi-step conversation spans several generation rounds, so
  saving completions per call also resumes a conversation in the middle of its rounds.
- One line per `generate()` call, in call order (`{"call": n, "keys": [...], "completions": [...]}`), after a
  header line with the run's settings. The run makes the same calls in the same order with the same prompts, so
  call n of the resumed run is call n of the killed one (its keys are checked). The calls not yet answered are
  made with the same batches as in the uninterrupted run, which matters for a batched local model: which prompts
  share a padded batch can change a greedy decode.
- Appends are written as one `write` of a whole line, flushed and fsynced before the call returns. A kill in the
  middle of a line leaves a last line without its newline (or not valid JSON): it is dropped, and the file is cut
  back to the last whole line before anything is appended. Hand-written here (not in `kg2tool.common.files`,
  whose helpers write whole files atomically) because an append-only log is what a kill must leave intact.
- A checkpoint written with other settings (model, data, limit, batch size, ...) is refused by name: replaying it
  would mix two runs into one report.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..common.errors import UsageError
from ..llm.backend import Completion

CHECKPOINT_NAME = "checkpoint.jsonl"


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, sort_keys=True, default=str) + "\n").encode("utf-8")


def read_checkpoint(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int]:
    """`(header, calls, good_bytes)` of a checkpoint file: the header's settings (None when the file is empty),
    the recorded calls in order, and the length of the file up to its last whole, valid line."""
    if not path.exists():
        return None, [], 0
    data = path.read_bytes()
    header, calls, good = None, [], 0
    for raw in data.splitlines(keepends=True):
        if not raw.endswith(b"\n"):
            break  # cut off by a kill mid-write
        try:
            record = json.loads(raw)
        except ValueError:
            break
        if header is None:
            header = record.get("settings")
        else:
            calls.append(record)
        good += len(raw)
    return header, calls, good


class ResumableBackend:
    """A backend that appends each `generate()` call's completions to a checkpoint file and, when resuming,
    answers the calls the file already holds from it (the wrapped backend is not asked for them).

    `settings` identify the run (compared with the header of an existing checkpoint when resuming). Without
    `resume` an existing checkpoint is replaced. Other attributes (`name`, `resolved`, ...) are the wrapped
    backend's."""

    def __init__(self, backend, path: Path, settings: dict[str, Any], resume: bool):
        self._backend = backend
        self.path = Path(path)
        self.replayed = 0
        self._next = 0
        self._calls: list[dict[str, Any]] = []
        settings = json.loads(json.dumps(settings, sort_keys=True, default=str))
        if resume:
            header, self._calls, good = read_checkpoint(self.path)
            if header is not None and header != settings:
                changed = sorted(k for k in set(header) | set(settings) if header.get(k) != settings.get(k))
                raise UsageError(
                    f"{self.path} was written by a run with other settings ({', '.join(changed)}): resuming would "
                    "mix two runs; pass the same flags, or --overwrite without --resume to start over"
                )
            if header is not None:
                with open(self.path, "r+b") as f:  # drop a line a kill cut short
                    f.truncate(good)
                return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "wb") as f:
            f.write(_line({"settings": settings}))
            f.flush()
            os.fsync(f.fileno())

    def __getattr__(self, name):
        return getattr(self._backend, name)

    def _append(self, record: dict[str, Any]) -> None:
        with open(self.path, "ab") as f:
            f.write(_line(record))
            f.flush()
            os.fsync(f.fileno())

    def generate(self, conversations, tools, keys=None):
        """The completions of call n: from the checkpoint when it holds call n, else from the wrapped backend
        (then appended to the checkpoint)."""
        keys = list(keys) if keys is not None else [str(i) for i in range(len(conversations))]
        call = self._next
        self._next += 1
        if call < len(self._calls):
            record = self._calls[call]
            if record.get("keys") != keys:
                raise UsageError(
                    f"{self.path}: generation call {call} of the checkpoint was for other items than this run's "
                    "(the data changed?); pass --overwrite without --resume to start over"
                )
            self.replayed += 1
            return [Completion(c["text"], c.get("tool_calls"), list(c.get("errors") or [])) for c in record["completions"]]
        completions = self._backend.generate(conversations, tools, keys)
        self._append(
            {
                "call": call,
                "keys": keys,
                "completions": [{"text": c.text, "tool_calls": c.tool_calls, "errors": c.errors} for c in completions],
            }
        )
        return completions
