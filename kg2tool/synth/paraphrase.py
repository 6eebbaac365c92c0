"""Paraphrase user questions with a language model; keep a rewrite only if it still asks the same question.

    kg2tool synth ... --paraphrase PATH_OR_NAME [--paraphrase-backend transformers|vllm|openai]

Templates give every question of a family the same few wordings; a model can vary them. The risk is a rewrite
that asks something else, so a candidate is kept only if `keep_paraphrase` finds nothing wrong with it and the
conversation with the rewrite still passes `verify_row`. `keep_paraphrase` rejects, by reason (the counts go into
the validation report):

    empty                  nothing left after cleaning (surrounding quotes, a "Question:" label, a <think> block)
    multi_line             more than one line (chatter such as "Sure! Here is ...")
    markup                 tool-call or chat markup (<tool_call>, <|...|>, code fences, a structured tool call)
    unchanged              the same words as the template question (case and punctuation aside)
    too_short / too_long   under `min_ratio` or over `max_ratio` times the template question's length
    missing_name           an entity name of the question is not there exactly as written (the tool calls copy
                           names from the question verbatim, so case matters)
    missing_relation       a relation the question names is no longer named: no word of the rewrite holds the
                           first 5 letters of a content word of its label ("birthplace" and "befriended" name
                           "place of birth" and "friend"; "born" does not);
                           this catches a dropped hop ("the residence of the friends of X" -> "the friends of X")
    missing_constraint     the question counts / compares (more, fewer, later...) / excludes (not, except...) and
                           the rewrite no longer says so
    contradicts_constraint a comparison turned around (fewer for more, earlier for later)
    missing_number / new_number   a number of the question dropped, or one added
    new_entity             a name of another graph entity added (a guessed answer, an extra constraint)
    duplicate              the same question as another row's
    verification:<reason>  the conversation with the rewrite fails verification (see kg2tool.synth.verify)

Which turns: the first user message of every selected row, and the follow-up question of `followup` rows (their
required names are none: the follow-up must not name its entity, and new_entity catches one that does). The
`missing_info` supply turn ("I mean X.") is left as it is. Worded constraints and relations are demanded only
when the template question states them (so custom templates work). What is not checked: the direction of a
relation (whose X vs. which has X as its ...) and and/or (intersection vs. union); the rewrite may still drift
there, which is why the template question is kept: a kept
rewrite replaces the user message and the template text goes into the row's `plan` as `template_question` (and
`template_followup` for a rewritten follow-up turn).

Determinism: generation is greedy; rows are taken in split order and prompts sent in fixed chunks of
`8 * batch_size`, so the same rows, model and options give the same files. Each chunk's outputs are checkpointed
in the run's work folder, so `--resume` does not ask the model again for what it already answered.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import InputError, MissingExtraError, UsageError
from ..common.files import write_atomic
from .diversity import normalize_question

BACKENDS = ("transformers", "vllm", "openai")

DEFAULT_PROMPT = (
    "Rewrite the question below in other words, the way a person might ask it. Keep its meaning exactly. "
    "Copy these names exactly as written: {names}. Do not add any other name or number. "
    "Answer with the rewritten question only, on one line.\n\nQuestion: {question}"
)


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
    base_url, api_key_env: openai: the endpoint and the environment variable holding its key.
    """

    model: str | None = None
    backend: str = "transformers"
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


# ---------------------------------------------------------------------------------------------- the filter


@dataclass(frozen=True)
class WordRule:
    """A constraint worded in the question: the rewrite must match `need` (when the template question does), and
    must not match `avoid` unless the template question does."""

    name: str
    need: re.Pattern
    avoid: re.Pattern | None = None


def _words(*alternatives: str) -> re.Pattern:
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


MORE = _words("more", "most", "greater", "greatest", "larger", "largest", "higher", "highest", "bigger", "biggest",
              "later", "latest", "newer", "newest", "more recent", "most recent", "max", "maximum")  # fmt: skip
FEWER = _words("fewer", "fewest", "less", "least", "smaller", "smallest", "lower", "lowest", "earlier", "earliest",
               "older", "oldest", "min", "minimum")  # fmt: skip
COUNT_RULE = WordRule("count", _words("how many", "number", "count", "counts", "total", "amount", "tally"))
MORE_RULE = WordRule("compare_max", MORE, FEWER)
FEWER_RULE = WordRule("compare_min", FEWER, MORE)
NEGATION_RULE = WordRule(
    "negation",
    _words("not", "no", "none", "never", "neither", "nor", "without", "except", "excepting", "excluding", "exclude",
           "excludes", "leaving out", "leave out", "other than", "apart from", "aside from", "minus", r"\w+n[’']t"),
)  # fmt: skip

MARKUP = re.compile(r"<tool_call|</tool_call|<function|</function|<\|[\w/ ]*\|>|\[TOOL_CALLS\]|```|\"arguments\"\s*:")
_LABEL = re.compile(r"^(?:paraphrase|paraphrased question|rewritten question|rewrite|question)\s*:\s*", re.IGNORECASE)
_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"[^\W\d_]+")
_STOPWORDS = frozenset("a an the of in on at by for to from with as into after is are was has have its and or".split())


def relation_stems(label: str) -> list[str]:
    """Stems of a relation label's content words: "place of birth" -> ["place", "birth"], "population" ->
    ["popul"] (a word of the rewrite that holds one of them names the relation)."""
    words = [w.casefold() for w in _WORD.findall(label.removeprefix("inverse "))]
    return [w[:5] for w in words if w not in _STOPWORDS and len(w) > 2] or [w[:5] for w in words]


def names_relation(text: str, label: str) -> bool:
    stems = relation_stems(label)
    return any(stem in w.casefold() for w in _WORD.findall(text) for stem in stems)


class NameIndex:
    """Finds the graph's entity names (and labels, alternative labels) in a text, case-insensitively, at token
    boundaries: `find("Where was Person 12 born?")` is {"person 12"}, never {"person 1"}."""

    def __init__(self, names: Iterable[str], max_tokens: int = 16):
        self.names: set[str] = set()
        longest = 1
        for name in names:
            key = " ".join(str(name).split()).casefold()
            if key:
                self.names.add(key)
                longest = max(longest, len(_TOKEN.findall(key)))
        self.max_tokens = min(longest, max_tokens)

    def find(self, text: str) -> set[str]:
        folded = " ".join(text.split()).casefold()
        spans = [(m.start(), m.end()) for m in _TOKEN.finditer(folded)]
        found = set()
        for i, (start, _) in enumerate(spans):
            for j in range(i, min(len(spans), i + self.max_tokens)):
                piece = folded[start : spans[j][1]]
                if piece in self.names:
                    found.add(piece)
        return found


def _has_name(text: str, name: str) -> bool:
    """`name` in `text` exactly (case-sensitive), not inside a longer word or number ("Person 1" in "Person 12")."""
    left = r"(?<!\w)" if name[:1].isalnum() or name[:1] == "_" else ""
    right = r"(?!\w)" if name[-1:].isalnum() or name[-1:] == "_" else ""
    return re.search(left + re.escape(name) + right, text) is not None


def clean_candidate(text: str) -> str:
    """A model's answer as a candidate question: a leading <think> block, surrounding whitespace and quotes and a
    "Question:" / "Paraphrase:" label removed; inner newlines are kept (they mean chatter, see keep_paraphrase)."""
    text = _THINK.sub("", text or "").strip()
    text = _LABEL.sub("", text).strip()
    for left, right in (('"', '"'), ("“", "”"), ("'", "'"), ("«", "»")):
        if len(text) > 1 and text.startswith(left) and text.endswith(right):
            text = text[1:-1].strip()
    return text


def keep_paraphrase(
    original: str,
    candidate: str,
    required: Sequence[str],
    *,
    rules: Sequence[WordRule] = (),
    relations: Sequence[str] = (),
    names: NameIndex | None = None,
    min_ratio: float = 0.5,
    max_ratio: float = 2.0,
) -> str | None:
    """None if `candidate` may replace the question `original`, else the reason (see the module docstring).

    `required`: strings the rewrite must contain exactly (the question's entity names). `rules`: worded
    constraints (count, comparison direction, negation), checked only when the original states them.
    `relations`: relation labels the rewrite must still name when the original does (see names_relation). `names`:
    the graph's names, to catch an entity the original does not mention. Pure: no model, no graph access."""
    if not candidate or not candidate.strip():
        return "empty"
    if "\n" in candidate.strip():
        return "multi_line"
    if MARKUP.search(candidate):
        return "markup"
    candidate = " ".join(candidate.split())
    if normalize_question(candidate) == normalize_question(original):
        return "unchanged"
    if len(candidate) < min_ratio * len(original):
        return "too_short"
    if len(candidate) > max_ratio * len(original) + 20:
        return "too_long"
    if any(not _has_name(candidate, name) for name in required):
        return "missing_name"
    if any(names_relation(original, r) and not names_relation(candidate, r) for r in relations):
        return "missing_relation"
    for rule in rules:
        if rule.avoid is not None and rule.avoid.search(candidate) and not rule.avoid.search(original):
            return "contradicts_constraint"
        if rule.need.search(original) and not rule.need.search(candidate):
            return "missing_constraint"
    numbers_before, numbers_after = set(_NUMBER.findall(original)), set(_NUMBER.findall(candidate))
    if numbers_before - numbers_after:
        return "missing_number"
    if numbers_after - numbers_before:
        return "new_number"
    if names is not None and names.find(candidate) - names.find(original):
        return "new_entity"
    return None


# ---------------------------------------------------------------------------------------------- what to rewrite


def plan_names(plan: dict) -> list[str]:
    """Entity names of a plan (as stored in the `plan` column), in order, without repeats."""
    out: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("op") == "entity" and node.get("name") not in out:
                out.append(node["name"])
            walk(node.get("of"))
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(plan)
    return out


def plan_rules(plan: dict) -> list[WordRule]:
    """The worded constraints of a plan: a count (not one inside a comparison), a comparison's direction, a
    difference (negation)."""
    rules: list[WordRule] = []

    def walk(node, in_compare: bool):
        if isinstance(node, list):
            for child in node:
                walk(child, in_compare)
            return
        if not isinstance(node, dict):
            return
        op = node.get("op")
        rule = None
        if op == "count" and not in_compare:
            rule = COUNT_RULE
        elif op == "compare":
            rule = MORE_RULE if node.get("mode") == "max" else FEWER_RULE
        elif op == "difference":
            rule = NEGATION_RULE
        if rule is not None and rule not in rules:
            rules.append(rule)
        walk(node.get("of"), in_compare or op == "compare")

    walk(plan, False)
    return rules


@dataclass
class Target:
    """One user message to rewrite: row, message index, the names, rules and relations it must keep."""

    row: dict
    index: int
    required: list[str]
    rules: list[WordRule]
    relations: list[str]

    @property
    def text(self) -> str:
        return self.row["messages"][self.index]["content"]


def targets_of(row: dict, followups: bool = True, relations: bool = True) -> list[Target]:
    """The user messages of a row that are rewritten (see the module docstring)."""
    users = [i for i, m in enumerate(row["messages"]) if m.get("role") == "user"]
    labels = list(dict.fromkeys(row["relation_path"])) if relations else []
    first = Target(row, users[0], [], [], labels)
    if row["pattern"] != "missing_info":  # there the first turn leaves the entity out on purpose
        first.required, first.rules = plan_names(row["plan"]), plan_rules(row["plan"])
    out = [first]
    if followups and row["pattern"] == "followup" and len(users) > 1:
        out.append(Target(row, users[1], [], [], labels))
    return out


def selected(row_id: str, seed: int, fraction: float) -> bool:
    if fraction >= 1:
        return True
    digest = hashlib.sha256(f"{seed}:paraphrase:{row_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction


# ---------------------------------------------------------------------------------------------- the model


def make_paraphrase_backend(cfg: ParaphraseConfig):
    """The eval backend for `cfg` (not loaded yet). Checks, before any sampling, that the model folder exists
    (InputError) and that the backend's packages are installed (MissingExtraError)."""
    import importlib.util

    cfg.check()
    if cfg.backend in ("transformers", "vllm") and not Path(cfg.model).exists():
        raise InputError(f"--paraphrase {cfg.model}: no such model folder")
    if cfg.backend == "transformers":
        for module in ("torch", "transformers"):
            if importlib.util.find_spec(module) is None:
                raise MissingExtraError(
                    f"--paraphrase with the transformers backend needs {module!r}: `pip install 'kg2tool[train]'`"
                )
    if cfg.backend == "vllm" and importlib.util.find_spec("vllm") is None:
        raise MissingExtraError("--paraphrase-backend vllm needs vLLM on a CUDA GPU: `pip install 'kg2tool[vllm]'`")
    from ..llm import backends

    if cfg.backend == "transformers":
        return backends.TransformersBackend(
            cfg.model, device=cfg.device, dtype=cfg.dtype, batch_size=cfg.batch_size, max_new_tokens=cfg.max_new_tokens
        )
    if cfg.backend == "vllm":
        return backends.VllmBackend(cfg.model, dtype=cfg.dtype, max_new_tokens=cfg.max_new_tokens)
    return backends.OpenAIBackend(
        cfg.model,
        cfg.base_url or "",
        api_key_env=cfg.api_key_env,
        max_new_tokens=cfg.max_new_tokens,
        concurrency=cfg.batch_size,
    )


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
        listed = "; ".join(names) if names else "(none)"
        # replace, not str.format: a user's prompt may hold other braces, and graph text may too
        return self.prompt.replace("{names}", listed).replace("{question}", question)

    def rewrite(
        self, questions: Sequence[str], names: Sequence[Sequence[str]], *, progress: bool = False, cache_dir=None
    ) -> list[str]:
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


# ---------------------------------------------------------------------------------------------- rows


def paraphrase_rows(
    rows: list[dict],
    ts,
    paraphraser: Paraphraser,
    cfg: ParaphraseConfig,
    *,
    seed: int = 0,
    names: NameIndex | None = None,
    progress: bool = False,
    cache_dir=None,
) -> dict:
    """Rewrite the user questions of `rows` in place; return the counts for the validation report.

    A kept rewrite replaces the message content (a new message dict; the DPO pairs made with the row, in
    `row["_dpo"]`, get the same prompt message), and the template question goes into `row["plan"]`. Each rewrite
    is verified with the conversation as it then stands (`verify_row`), and each DPO pair of a rewritten row is
    judged again (`check_continuation`); a pair that no longer holds is dropped and counted."""
    from .preference import check_continuation
    from .verify import verify_row

    picked = [r for r in rows if selected(r["id"], seed, cfg.fraction)]
    targets = [t for r in picked for t in targets_of(r, cfg.followups, cfg.require_relations)]
    candidates = paraphraser.rewrite(
        [t.text for t in targets], [t.required for t in targets], progress=progress, cache_dir=cache_dir
    )
    taken = {normalize_question(r["messages"][0]["content"]) for r in rows}
    stats: Counter = Counter()
    kept_by_category: Counter = Counter()
    rewritten_rows: dict[str, dict] = {}
    for target, candidate in zip(targets, candidates, strict=True):
        row, i, original = target.row, target.index, target.text
        reason = keep_paraphrase(
            original,
            candidate,
            target.required,
            rules=target.rules,
            relations=target.relations,
            names=names,
            min_ratio=cfg.min_ratio,
            max_ratio=cfg.max_ratio,
        )
        candidate = " ".join(candidate.split())
        first = i == 0
        if reason is None and first and normalize_question(candidate) in taken:
            reason = "duplicate"
        if reason is None:
            messages = list(row["messages"])
            messages[i] = {**messages[i], "content": candidate}
            failed = verify_row(ts, messages, row["tools"], row["answers"], row["category"],
                                allow_errors=row["pattern"] == "error_recovery")  # fmt: skip
            reason = f"verification:{failed}" if failed else None
        if reason is not None:
            stats[reason] += 1
            continue
        row["messages"] = messages
        row["plan"] = {**row["plan"], ("template_question" if first else "template_followup"): original}
        if first:
            taken.add(normalize_question(candidate))
        kept_by_category[row["category"]] += 1
        rewritten_rows[row["id"]] = row
    dpo_dropped = 0
    for row in rewritten_rows.values():
        pairs = []
        for pair in row.get("_dpo", []):
            n = len(pair["prompt"])
            pair = {**pair, "prompt": row["messages"][:n]}
            args = (ts, pair["prompt"])
            rest = (pair["tools"], row["answers"], pair["category"], pair["chosen"])
            if check_continuation(*args, pair["chosen"], *rest) is None and check_continuation(
                *args, pair["rejected"], *rest
            ):
                pairs.append(pair)
            else:
                dpo_dropped += 1
        if "_dpo" in row:
            row["_dpo"] = pairs
    kept = sum(kept_by_category.values())
    return {
        "model": cfg.model,
        "backend": cfg.backend,
        "rows_tried": len(picked),
        "questions_tried": len(targets),
        "kept": kept,
        "rows_rewritten": len(rewritten_rows),
        "kept_by_category": dict(sorted(kept_by_category.items())),
        "rejected": dict(sorted(stats.items())),
        "dpo_pairs_dropped": dpo_dropped,
    }


def name_index(kg) -> NameIndex:
    """Every name, label and alternative label of the graph's entities."""
    return NameIndex([*kg.names, *kg.labels, *(a for alts in kg.alt_labels for a in alts)])


__all__ = [
    "DEFAULT_PROMPT",
    "NameIndex",
    "ParaphraseConfig",
    "Paraphraser",
    "clean_candidate",
    "keep_paraphrase",
    "make_paraphrase_backend",
    "paraphrase_rows",
    "plan_names",
    "plan_rules",
]
