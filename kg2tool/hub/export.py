"""Export a synth dataset folder to the formats other tools read: OpenAI fine-tuning JSONL, LLaMA-Factory's
ShareGPT, and BFCL's own files.

Design choices:
- **openai** (one JSON object per line). `sft`: `{"messages", "tools"}` as OpenAI's fine-tuning docs give for
  tool calling: call `arguments` become JSON *strings*; an assistant turn that only calls tools has no `content`
  key (as in the docs' example); tool messages keep `role`, `tool_call_id`, `content` and drop `name`, which the
  Chat Completions tool message does not have. `dpo`: OpenAI's preference format
  `{"input": {"messages", "tools"}, "preferred_output": [msg], "non_preferred_output": [msg]}`.
- **sharegpt** (LLaMA-Factory, `formatting: sharegpt`; JSON lines). Roles `human`, `gpt`, `function_call`,
  `observation`; `tools` is a JSON string of the flat function schemas (`{"name", "description",
  "parameters"}`, as in LLaMA-Factory's `glaive_toolcall` demo; every version reads that form). A
  `function_call` value is JSON `{"name", "arguments": {...}}`, or a JSON *list* of those for parallel calls in
  one turn; their results become ONE `observation` turn (several results joined with
  `\\n</tool_response>\\n<tool_response>\\n`, the separator LLaMA-Factory's own `openai` converter uses), because
  LLaMA-Factory requires human/observation at odd and gpt/function_call at even positions. `dpo` rows become
  `{"conversations", "chosen", "rejected", "tools"}` (`ranking: true`). Every row is checked with
  `check_sharegpt` before it is written. `sharegpt_dataset_info` gives the `dataset_info.json` entry.
- **Untrained turns**: an assistant message with `"weight": 0` (error-recovery rows mark a call that is wrong on
  purpose this way) keeps `"weight": 0` in the openai export, OpenAI's own per-message switch for fine-tuning.
  ShareGPT (LLaMA-Factory) has no per-turn loss switch, so the sharegpt export leaves such rows out rather than
  teach the mistake; `ExportResult.rows` counts what was written.
- **bfcl**: the folder `DIR/bfcl/` that synth writes (test split, BFCL's file names) is copied as is.

Output is written to a temporary name beside `--out` and renamed when complete; an existing output is refused
unless `overwrite`. Rows are converted one at a time (a progress bar for large sets).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import InputError, OutputError, UsageError
from ..common.files import output_error, write_lines, writing
from .dataset import replace_folder

FORMATS = ("openai", "sharegpt", "bfcl")
CONFIGS = ("sft", "dpo")
OBSERVATION_SEP = "\n</tool_response>\n<tool_response>\n"
PROGRESS_MIN_ROWS = 2000


@dataclass
class ExportResult:
    """What `export` wrote: the output path, the number of rows and every file it created."""
    out: Path
    rows: int
    files: list[Path]


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ---------------------------------------------------------------- openai


def openai_message(msg: dict) -> dict:
    """One chat message in OpenAI's format (arguments as JSON strings; tool messages without `name`)."""
    role = msg["role"]
    if role == "tool":
        return {"role": "tool", "tool_call_id": msg["tool_call_id"], "content": msg["content"]}
    out = {"role": role}
    if role == "assistant" and msg.get("weight") == 0:
        out["weight"] = 0  # wrong on purpose: OpenAI fine-tuning skips its loss
    if msg.get("content") or not msg.get("tool_calls"):
        out["content"] = msg.get("content") or ""
    if msg.get("tool_calls"):
        out["tool_calls"] = [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["function"]["name"], "arguments": _dumps(c["function"]["arguments"])},
            }
            for c in msg["tool_calls"]
        ]
    return out


def to_openai(row: dict) -> dict:
    """An sft row -> one line of OpenAI's chat fine-tuning format (`messages` + `tools`)."""
    return {"messages": [openai_message(m) for m in row["messages"]], "tools": row["tools"]}


def to_openai_preference(row: dict) -> dict:
    """A dpo row -> one line of OpenAI's preference fine-tuning format (`input`, `preferred_output`, ...)."""
    return {
        "input": {"messages": [openai_message(m) for m in row["prompt"]], "tools": row["tools"]},
        "preferred_output": [openai_message(m) for m in row["chosen"]],
        "non_preferred_output": [openai_message(m) for m in row["rejected"]],
    }


# ---------------------------------------------------------------- sharegpt


def _function_call_value(calls: list[dict]) -> str:
    items = [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in calls]
    return _dumps(items[0] if len(items) == 1 else items)


def sharegpt_turns(messages: list[dict]) -> tuple[str, list[dict]]:
    """Chat messages -> (system prompt, ShareGPT turns); consecutive tool results become one observation."""
    system, turns, i = "", [], 0
    while i < len(messages):
        msg = messages[i]
        role = msg["role"]
        if role == "system" and not turns:
            system = msg["content"]
        elif role == "user":
            turns.append({"from": "human", "value": msg["content"]})
        elif role == "assistant" and msg.get("tool_calls"):
            if msg.get("content"):
                raise ValueError("an assistant turn with both text and tool calls has no ShareGPT form")
            turns.append({"from": "function_call", "value": _function_call_value(msg["tool_calls"])})
        elif role == "assistant":
            turns.append({"from": "gpt", "value": msg["content"]})
        elif role == "tool":
            results = []
            while i < len(messages) and messages[i]["role"] == "tool":
                results.append(messages[i]["content"])
                i += 1
            turns.append({"from": "observation", "value": OBSERVATION_SEP.join(results)})
            continue
        else:
            raise ValueError(f"message {i}: role {role!r} has no ShareGPT form")
        i += 1
    return system, turns


def check_sharegpt(turns: list[dict], ranking: bool = False) -> None:
    """LLaMA-Factory's rules: human/observation at even indices, gpt/function_call at odd ones; an even number of
    turns (odd for a preference prompt); function_call values are JSON calls. Raises ValueError."""
    for k, turn in enumerate(turns):
        allowed = ("human", "observation") if k % 2 == 0 else ("gpt", "function_call")
        if turn["from"] not in allowed:
            raise ValueError(f"turn {k} is {turn['from']!r}, expected one of {allowed}")
        if turn["from"] == "function_call":
            calls = json.loads(turn["value"])
            for call in calls if isinstance(calls, list) else [calls]:
                if set(call) != {"name", "arguments"} or not isinstance(call["arguments"], dict):
                    raise ValueError(f"turn {k}: a function call must be {{'name', 'arguments': {{...}}}}")
    if len(turns) % 2 != (1 if ranking else 0):
        raise ValueError(f"{len(turns)} turns: LLaMA-Factory needs an {'odd' if ranking else 'even'} number")


def _sharegpt_tools(tools: list[dict]) -> str:
    return _dumps([t["function"] if t.get("type") == "function" else t for t in tools])


def to_sharegpt(row: dict) -> dict | None:
    """An sft row -> one ShareGPT record as LLaMA-Factory reads it (`conversations`, `tools`, `system`), or None for
    a row with an untrained (`"weight": 0`) turn, which ShareGPT cannot mark."""
    if any(m.get("weight") == 0 for m in row["messages"]):
        return None
    system, turns = sharegpt_turns(row["messages"])
    check_sharegpt(turns)
    out = {"conversations": turns, "tools": _sharegpt_tools(row["tools"])}
    if system:
        out["system"] = system
    return out


def to_sharegpt_preference(row: dict) -> dict:
    """A dpo row -> one ShareGPT ranking record (`conversations`, `chosen`, `rejected`) for LLaMA-Factory."""
    system, turns = sharegpt_turns(row["prompt"])
    check_sharegpt(turns, ranking=True)
    (chosen,) = sharegpt_turns(row["chosen"])[1]
    (rejected,) = sharegpt_turns(row["rejected"])[1]
    for turn in (chosen, rejected):
        check_sharegpt([{"from": "human", "value": ""}, turn])
    out = {"conversations": turns, "chosen": chosen, "rejected": rejected, "tools": _sharegpt_tools(row["tools"])}
    if system:
        out["system"] = system
    return out


def sharegpt_dataset_info(name: str, file_name: str, config: str = "sft") -> dict:
    """The entry for LLaMA-Factory's `data/dataset_info.json` that reads an exported file."""
    columns = {"messages": "conversations", "tools": "tools", "system": "system"}
    entry: dict = {"file_name": file_name, "formatting": "sharegpt"}
    if config == "dpo":
        entry["ranking"] = True
        columns.update(chosen="chosen", rejected="rejected")
    entry["columns"] = columns
    return {name: entry}


CONVERTERS: dict[tuple[str, str], Callable[[dict], dict | None]] = {
    ("openai", "sft"): to_openai,
    ("openai", "dpo"): to_openai_preference,
    ("sharegpt", "sft"): to_sharegpt,
    ("sharegpt", "dpo"): to_sharegpt_preference,
}


# ---------------------------------------------------------------- reading and writing


def load_split(folder: Path, config: str, split: str):
    """Rows of one config and split of a dataset folder (`datasets.load_dataset`); InputError naming what is
    missing."""
    from datasets import load_dataset
    from datasets.utils.logging import disable_progress_bar

    from .card import load_card, split_files

    card = load_card(folder)
    configs = {c.get("config_name"): c for c in card.data.to_dict().get("configs") or []}
    if config not in configs:
        raise InputError(f"{folder}: no config {config!r} in its card (configs: {', '.join(map(str, configs))})")
    splits = split_files(configs[config])
    if split not in splits:
        raise InputError(f"{folder}: config {config!r} has no split {split!r} (splits: {', '.join(splits)})")
    disable_progress_bar()
    try:
        return load_dataset(str(folder), config, split=split)
    except Exception as exc:
        raise InputError(
            f"{folder}: cannot load config {config!r} split {split!r}: {type(exc).__name__}: {exc}"
        ) from None


def check_output(out: Path, overwrite: bool) -> None:
    """Refuse an existing `out` without `overwrite` and an unwritable folder (OutputError), before any work."""
    if out.exists() and not overwrite:
        raise OutputError(f"{out} already exists (pass --overwrite to replace it)")
    try:
        out.resolve().parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {out.resolve().parent}: {exc}") from None
    if not os.access(out.resolve().parent, os.W_OK):
        raise OutputError(f"{out.resolve().parent} is not writable")


def _converted(rows, convert: Callable[[dict], dict], progress: bool) -> Iterable[str]:
    from tqdm.auto import tqdm

    disable = not progress or len(rows) < PROGRESS_MIN_ROWS
    for row in tqdm(rows, desc="export", unit="row", disable=disable):
        try:
            got = convert(row)
            if got is not None:
                yield _dumps(got)
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"row {row.get('id')!r} cannot be converted: {exc}") from None


def export_bfcl(folder: Path, out: Path, overwrite: bool) -> ExportResult:
    """Copy `folder/bfcl/` (written by synth) to `out`, atomically."""
    src = folder / "bfcl"
    if not src.is_dir():
        raise InputError(
            f"{folder}: this dataset has no bfcl config (no {src}); re-run kg2tool synth "
            f"(version >= 0.1.0, which writes bfcl/ for the test split)"
        )
    check_output(out, overwrite)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} exists and is not a folder; --out for bfcl is a folder")
    parent = out.resolve().parent
    with writing(out, "the BFCL export"):
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=parent)) / "bfcl"
    try:
        shutil.copytree(src, tmp)
        replace_folder(tmp, out)
    except shutil.Error as exc:  # copytree gathers its errors: the first one's reason
        first = exc.args[0][0] if exc.args and exc.args[0] else ("", "", str(exc))
        raise output_error(out, OSError(None, first[2]), "the BFCL export") from None
    except OSError as exc:
        raise output_error(out, exc, "the BFCL export") from None
    finally:
        shutil.rmtree(tmp.parent, ignore_errors=True)
    files = sorted(p for p in out.rglob("*") if p.is_file())
    rows = sum(1 for p in files if p.parent == out for line in p.read_text(encoding="utf-8").splitlines() if line)
    return ExportResult(out=out, rows=rows, files=files)


def export(
    folder: str | Path,
    fmt: str,
    out: str | Path,
    config: str = "sft",
    split: str | None = None,
    overwrite: bool = False,
    progress: bool = True,
) -> ExportResult:
    """Export one config and split of a synth dataset folder to `fmt` at `out` (bfcl: the test split's files)."""
    folder, out = Path(folder), Path(out)
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if config not in CONFIGS:
        raise UsageError(f"--config {config!r}: choose one of {', '.join(CONFIGS)}")
    if not folder.is_dir():
        raise InputError(f"{folder}: no such dataset folder")
    if fmt == "bfcl":
        if config != "sft" or split not in (None, "test"):
            raise UsageError("--format bfcl writes the test split of the conversations; drop --config/--split")
        return export_bfcl(folder, out, overwrite)
    check_output(out, overwrite)
    if out.is_dir():
        raise OutputError(f"{out} is a folder; --out for {fmt} is a JSON-lines file")
    rows = load_split(folder, config, split or "train")
    n = write_lines(out, _converted(rows, CONVERTERS[fmt, config], progress), what=f"the {fmt} export")
    return ExportResult(out=out, rows=n, files=[out])
