"""The pretraining corpus: verbalized graph facts, tool-call conversations, user text; tokenized and packed.

Design choices:
- Facts are grouped by subject into short documents, each fact verbalized with a template drawn at random from
  a small family, so the same fact appears in several surface forms across passes (`fact_passes`).
- Tool-call conversations with *random* entity names make up `synthetic_fraction` of the corpus by characters.
  They teach the wire format and, above all, copying: a name must be copied from the question into the call,
  and from a tool result into the next call and the answer, without the model being able to recall it
  (measured by this project: copying from the question fell to 3% after SFT on recalled names).
  `synthetic_style="synth"` (the default, when a graph is given): rows of
  `kg2tool synth` over randomly renamed copies of the graph (`copy_data`), i.e. the real tool schemas, question
  templates and shapes with unseen names; they also put the schema text into the tokenizer's training text, so
  a rendered synth row costs ~20% fewer tokens. `"chat"`: short hand-written shapes (one call, parallel calls,
  a two-hop chain) with tools named after the graph's relations.
- Synth dataset conversations (`--dataset_name`) are rendered through the same chat template as SFT will use.
- Plain text files: one document per blank-line-separated paragraph block (whole file if it has none).
- All documents are shuffled with one seeded generator, joined with `<|endoftext|>`, and cut into
  `seq_len`-token blocks (the remainder is dropped): packed, no padding, labels = inputs.
- Nothing here imports torch; tokenization goes through the tokenizer passed in.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..common.errors import InputError
from ..llm.chat_format import normalize_row


class FactSource(Protocol):
    """What the corpus needs from a knowledge graph (`kg2tool.graph.model.KnowledgeGraph` satisfies it)."""

    def iter_facts(self) -> Iterator[tuple[str, str, str]]:
        """(subject name, relation label, object name) for every fact."""

    def entity_names(self) -> list[str]:
        """Every entity's unique name."""


FACT_TEMPLATES = [
    "The {r} of {s} is {o}.",
    "{s} has {r} {o}.",
    "{s}: {r} = {o}.",
    "{o} is the {r} of {s}.",
    "Q: What is the {r} of {s}? A: {o}.",
    "{s} | {r} | {o}",
]

_SYLLABLES = (
    "ba be bi bo bu da de di do ka ke ki ko lu la li lo ma me mi mo na ne ni no ra re ri ro sa se si so ta te ti to "
    "va ve vi zo zu"
).split()


@dataclass
class CorpusConfig:
    """What goes into the pretraining corpus.

    Parameters:
        fact_passes: how many times each graph fact is verbalized (each time with a random template).
        synthetic_fraction: share of the corpus (by characters) made of random-name tool-call conversations.
        max_synthetic: upper bound on the number of random-name conversations.
        dataset_repeats: how many times the synth dataset's conversations are included.
        synthetic_style: `synth` (synth rows over renamed copies of the graph; needs a `KnowledgeGraph`, falls back
            to `chat` for other fact sources) or `chat` (short hand-written conversation shapes).
        synthetic_tools_share: share of `synth`-style rows rendered with their tool schemas; the others are rendered
            without them (a schema block is ~600 tokens, the question, calls and answer ~150: without it a row
            carries ~5x more copy events per token).
        synthetic_first_turns: share of `synth`-style rows cut after their first assistant turn (the question and
            the call or reply that answers it): many more questions per token, each asking the model to find the
            name in a differently worded question and copy it into a call.
        copy_drill_fraction: share of the corpus (by characters) made of copy drills (`copy_drill`): random names
            written twice, so the second copy can only be predicted by copying (induction heads).
        copy_warmup_fraction: a block of copy drills this large (a share of the rest of the corpus, by characters)
            is put *first*, before the shuffled documents: with sequential sampling (`train_sampling_strategy:
            sequential`) the model starts on pure copying, which forms induction heads within ~150 steps; mixed
            in at random, the same drills did not (measured by this project).
        seed: seed of the one generator that drives templates, random names and document order.
    """

    fact_passes: int = 2
    synthetic_fraction: float = 0.5
    max_synthetic: int = 200_000
    dataset_repeats: int = 1
    synthetic_style: str = "synth"
    synthetic_tools_share: float = 0.25
    synthetic_first_turns: float = 0.0
    copy_drill_fraction: float = 0.0
    copy_warmup_fraction: float = 0.0
    seed: int = 0


@dataclass
class CorpusStats:
    """What went into the corpus: documents and characters per kind, tokens and packed blocks."""

    documents: dict[str, int] = field(default_factory=dict)
    characters: dict[str, int] = field(default_factory=dict)
    tokens: int = 0
    blocks: int = 0
    padding: int = 0  # document packing: pad tokens that fill the blocks' ends (no loss)

    def add(self, kind: str, docs: list[str]) -> None:
        """Count `docs` (documents and characters) under their kind."""
        self.documents[kind] = self.documents.get(kind, 0) + len(docs)
        self.characters[kind] = self.characters.get(kind, 0) + sum(len(d) for d in docs)


def verbalize_facts(facts: Iterable[tuple[str, str, str]], rng: random.Random, passes: int = 1) -> list[str]:
    """One document per (subject, pass): the subject's facts in random order, each through a random template."""
    by_subject: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s, r, o in facts:
        by_subject[s].append((r, o))
    docs = []
    for _ in range(passes):
        for s in sorted(by_subject):
            pairs = list(by_subject[s])
            rng.shuffle(pairs)
            docs.append(" ".join(rng.choice(FACT_TEMPLATES).format(s=s, r=r, o=o) for r, o in pairs))
    return docs


def tool_name(relation: str) -> str:
    """A function name for a relation label: `place of birth` -> `get_place_of_birth`."""
    slug = re.sub(r"[^0-9a-zA-Z]+", "_", relation).strip("_").lower() or "relation"
    return f"get_{slug}"


def relation_tool(relation: str) -> dict[str, Any]:
    """An OpenAI-format tool that looks up one relation of an entity (used for random-name conversations)."""
    return {
        "type": "function",
        "function": {
            "name": tool_name(relation),
            "description": f"Return the {relation} of an entity.",
            "parameters": {
                "type": "object",
                "properties": {"entity": {"type": "string", "description": "The entity's name."}},
                "required": ["entity"],
            },
        },
    }


class RandomNames:
    """Entity-like names the model cannot have memorized: graph name words recombined, or invented syllables."""

    def __init__(self, names: Sequence[str], rng: random.Random):
        self.rng = rng
        self.words = sorted({w for n in names for w in n.split() if w[:1].isalpha()}) or ["Alpha", "Beta"]

    def __call__(self) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return " ".join(rng.choice(self.words) for _ in range(rng.choice((1, 2, 2, 3))))
        parts = ["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 2))]
        return " ".join(p.capitalize() for p in parts)


def _call(i: int, relation: str, entity: str) -> dict[str, Any]:
    return {
        "id": f"call_{i}",
        "type": "function",
        "function": {"name": tool_name(relation), "arguments": {"entity": entity}},
    }


def _tool_msg(i: int, relation: str, values: list[str]) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"call_{i}", "name": tool_name(relation), "content": json.dumps(values)}


def _join(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def synthetic_conversation(relations: Sequence[str], names: RandomNames, rng: random.Random) -> dict[str, Any]:
    """One random-name tool-call conversation (`messages`, `tools`) of shape simple, parallel or chain."""
    shape = rng.choice(("simple", "simple", "parallel", "chain"))
    values = lambda: [names() for _ in range(rng.choice((1, 1, 2)))]  # noqa: E731
    r1, r2 = rng.choice(relations), rng.choice(relations)
    e1, e2 = names(), names()
    if shape == "simple":
        v1 = values()
        q = rng.choice(["What is the {r} of {e}?", "Find the {r} of {e}.", "{e}: what is its {r}?"]).format(r=r1, e=e1)
        turns = [
            {"role": "assistant", "content": "", "tool_calls": [_call(1, r1, e1)]},
            _tool_msg(1, r1, v1),
            {"role": "assistant", "content": f"The {r1} of {e1} is {_join(v1)}."},
        ]
    elif shape == "parallel":
        v1, v2 = values(), values()
        q = f"What is the {r1} of {e1}, and the {r2} of {e2}?"
        turns = [
            {"role": "assistant", "content": "", "tool_calls": [_call(1, r1, e1), _call(2, r2, e2)]},
            _tool_msg(1, r1, v1),
            _tool_msg(2, r2, v2),
            {"role": "assistant", "content": f"The {r1} of {e1} is {_join(v1)}; the {r2} of {e2} is {_join(v2)}."},
        ]
    else:
        mid, v2 = names(), values()
        q = f"What is the {r2} of the {r1} of {e1}?"
        turns = [
            {"role": "assistant", "content": "", "tool_calls": [_call(1, r1, e1)]},
            _tool_msg(1, r1, [mid]),
            {"role": "assistant", "content": "", "tool_calls": [_call(2, r2, mid)]},
            _tool_msg(2, r2, v2),
            {"role": "assistant", "content": f"The {r1} of {e1} is {mid}, whose {r2} is {_join(v2)}."},
        ]
    pool = sorted({r1, r2} | set(rng.sample(list(relations), min(len(relations), rng.randint(1, 4)))))
    rng.shuffle(pool)
    return {"messages": [{"role": "user", "content": q}, *turns], "tools": [relation_tool(r) for r in pool]}


def copy_drill(names: RandomNames, rng: random.Random) -> str:
    """A list of random names, then the same names again: as text and as a JSON list, or as a JSON list and as
    text, or one JSON call per name. Only copying predicts the second half."""
    picked = [names() for _ in range(rng.randint(2, 8))]
    text = _join(picked)
    as_json = json.dumps(picked, ensure_ascii=False)
    form = rng.randrange(3)
    if form == 0:
        return f"{text}. {as_json}"
    if form == 1:
        return f"{as_json} {text}."
    calls = " ".join(json.dumps({"entity": n}, ensure_ascii=False) for n in picked)
    return f"Look up {text}. {calls}"


def first_turn(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` up to and including the first assistant message (all of them if there is none)."""
    for i, message in enumerate(messages):
        if message.get("role") == "assistant":
            return list(messages[: i + 1])
    return list(messages)


def render_conversations(rows: Iterable[dict[str, Any]], tokenizer) -> list[str]:
    """Render `messages` + `tools` rows to text with the tokenizer's chat template."""
    out = []
    for row in rows:
        messages, tools = normalize_row(row["messages"], row.get("tools"))
        out.append(tokenizer.apply_chat_template(messages, tools=tools or None, tokenize=False))
    return out


def read_text_files(paths: Sequence[str]) -> list[str]:
    """Documents from plain text files: blank-line-separated blocks."""
    docs = []
    for p in paths:
        try:
            text = Path(p).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read text file {p}: {exc}") from exc
        docs.extend(block.strip() for block in re.split(r"\n\s*\n", text) if block.strip())
    return docs


def load_synth_rows(path: str, config_name: str = "sft", split: str = "train") -> list[dict[str, Any]]:
    """Rows (`messages`, `tools`) of a local synth dataset folder, or of a folder whose rows have a `text` field."""
    import datasets

    if not Path(path).exists():
        raise InputError(f"dataset folder not found: {path}")
    try:
        try:
            ds = datasets.load_dataset(path, config_name, split=split)
        except ValueError:  # no such config: a plain dataset folder
            ds = datasets.load_dataset(path, split=split)
    except Exception as exc:  # datasets raises many types for unreadable folders
        raise InputError(f"cannot load dataset {path}: {type(exc).__name__}: {exc}") from exc
    if "messages" not in ds.column_names and "text" not in ds.column_names:
        raise InputError(f"dataset {path} has neither a 'messages' nor a 'text' column: {ds.column_names}")
    return list(ds)


def build_documents(
    kg: FactSource | None,
    tokenizer_for_chat,
    config: CorpusConfig,
    dataset_rows: Sequence[dict[str, Any]] = (),
    text_docs: Sequence[str] = (),
    stats: CorpusStats | None = None,
) -> list[str]:
    """All corpus documents, shuffled. `tokenizer_for_chat` only needs `apply_chat_template` (any tokenizer
    carrying the kg2tool template works, so documents can be built before the real tokenizer is trained).

    Long because it lists every kind of corpus document and its share in one place.
    """
    rng = random.Random(config.seed)
    stats = stats if stats is not None else CorpusStats()
    docs: list[str] = []

    def add(kind: str, new: list[str]) -> None:
        stats.add(kind, new)
        docs.extend(new)

    relations: list[str] = []
    entity_names: list[str] = []
    if kg is not None:
        facts = list(kg.iter_facts())
        relations = sorted({r for _, r, _ in facts})
        entity_names = kg.entity_names()
        add("facts", verbalize_facts(facts, rng, config.fact_passes))
    chat_rows = [r for r in dataset_rows if "messages" in r]
    for _ in range(config.dataset_repeats):
        add("dataset", render_conversations(chat_rows, tokenizer_for_chat))
    add("text", [r["text"] for r in dataset_rows if "messages" not in r and r.get("text")] + list(text_docs))

    if config.synthetic_fraction > 0:
        other = sum(len(d) for d in docs)
        target = other * config.synthetic_fraction / max(1e-9, 1 - config.synthetic_fraction)
        if config.synthetic_style not in ("synth", "chat"):
            raise ValueError(f"unknown synthetic_style {config.synthetic_style!r}; known: synth, chat")
        if config.synthetic_style == "synth" and hasattr(kg, "labels") and hasattr(kg, "relations"):
            from .copy_data import iter_random_name_rows

            source = iter_random_name_rows(kg, seed=config.seed)
        else:
            relations = relations or ["country", "occupation", "place of birth"]
            names = RandomNames(entity_names, rng)
            source = (synthetic_conversation(relations, names, rng) for _ in iter(int, 1))
        synthetic, size = [], 0
        for row in source:
            if size >= target or len(synthetic) >= config.max_synthetic:
                break
            if config.synthetic_style == "synth" and rng.random() >= config.synthetic_tools_share:
                row = {"messages": row["messages"]}
            if config.synthetic_style == "synth" and config.synthetic_first_turns and (
                rng.random() < config.synthetic_first_turns
            ):
                row = dict(row, messages=first_turn(row["messages"]))
            text = render_conversations([row], tokenizer_for_chat)[0]
            synthetic.append(text)
            size += len(text)
        add("synthetic_tool_calls", synthetic)
    if config.copy_drill_fraction > 0:
        names = RandomNames(entity_names, rng)
        other = sum(len(d) for d in docs)
        target = other * config.copy_drill_fraction / max(1e-9, 1 - config.copy_drill_fraction)
        drills, size = [], 0
        while size < target:
            drills.append(copy_drill(names, rng))
            size += len(drills[-1])
        add("copy_drills", drills)
    rng.shuffle(docs)
    if config.copy_warmup_fraction > 0:
        names = RandomNames(entity_names, rng)
        target = sum(len(d) for d in docs) * config.copy_warmup_fraction
        warmup, size = [], 0
        while size < target:
            warmup.append(copy_drill(names, rng))
            size += len(warmup[-1])
        stats.add("copy_warmup", warmup)
        docs = warmup + docs
    return docs


def pack(docs: Iterable[str], tokenizer, seq_len: int, stats: CorpusStats | None = None) -> list[list[int]]:
    """Tokenize documents, join them with `<|endoftext|>`, and cut into `seq_len` blocks (remainder dropped)."""
    sep = tokenizer.pad_token_id  # <|endoftext|>
    stream: list[int] = []
    docs = list(docs)
    for start in range(0, len(docs), 1000):
        for ids in tokenizer(docs[start : start + 1000], add_special_tokens=False)["input_ids"]:
            stream.extend(ids)
            stream.append(sep)
    blocks = [stream[i : i + seq_len] for i in range(0, len(stream) - seq_len + 1, seq_len)]
    if stats is not None:
        stats.tokens = len(stream)
        stats.blocks = len(blocks)
    return blocks


def pack_documents(
    docs: Iterable[str], tokenizer, seq_len: int, stats: CorpusStats | None = None, window: int = 16
) -> dict[str, list[list[int]]]:
    """Pack whole documents into `seq_len` blocks: a document is never cut across two blocks (one longer than a
    block is cut into block-sized pieces, each its own document), its positions start at 0, and the blocks'
    ends are padding with no loss. Returns the columns `input_ids`, `position_ids` and `labels` (-100 on padding).

    With the position ids restarting at each document and no attention mask, transformers' masking builds a
    block-diagonal causal mask (`find_packed_sequence_indices`), so no token attends to another document. Each
    document goes into the first of the last `window` open blocks it fits in (first fit: little padding, the
    order of the corpus kept roughly), so the result is the same for the same documents."""
    sep = tokenizer.pad_token_id  # <|endoftext|>
    docs = list(docs)
    open_blocks: list[list[int]] = []  # token ids of each open block
    open_pos: list[list[int]] = []
    closed_ids: list[list[int]] = []
    closed_pos: list[list[int]] = []
    tokens = 0

    def close(i: int) -> None:
        ids, pos = open_blocks.pop(i), open_pos.pop(i)
        closed_ids.append(ids)
        closed_pos.append(pos)

    for start in range(0, len(docs), 1000):
        for ids in tokenizer(docs[start : start + 1000], add_special_tokens=False)["input_ids"]:
            ids = [*ids, sep]
            tokens += len(ids)
            for piece in (ids[i : i + seq_len] for i in range(0, len(ids), seq_len)):
                slot = next((i for i, b in enumerate(open_blocks) if len(b) + len(piece) <= seq_len), None)
                if slot is None:
                    if len(open_blocks) >= window:
                        close(0)
                    open_blocks.append([])
                    open_pos.append([])
                    slot = len(open_blocks) - 1
                open_blocks[slot].extend(piece)
                open_pos[slot].extend(range(len(piece)))
                if len(open_blocks[slot]) == seq_len:
                    close(slot)
    while open_blocks:
        close(0)
    labels, padding = [], 0
    for ids, pos in zip(closed_ids, closed_pos, strict=True):
        fill = seq_len - len(ids)
        padding += fill
        labels.append(ids + [-100] * fill)
        pos.extend(range(fill))  # the padding is a document of its own: nothing attends across it
        ids.extend([sep] * fill)
    if stats is not None:
        stats.tokens = tokens
        stats.blocks = len(closed_ids)
        stats.padding = padding
    return {"input_ids": closed_ids, "position_ids": closed_pos, "labels": labels}
