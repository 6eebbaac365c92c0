"""Paraphrase user questions with a language model; keep a rewrite only if it still asks the same question.

    kg2tool synth ... --paraphrase PATH_OR_NAME [--paraphrase-backend transformers|vllm|openai]

Templates give every question of a family the same few wordings; a model can vary them. The risk is a rewrite
that asks something else, so a candidate is kept only if `keep_paraphrase` finds nothing wrong with it and the
conversation with the rewrite still passes `verify_row`. `keep_paraphrase` (the named checks REWRITE_CHECKS of
`kg2tool.synth.paraphrase.filter`) rejects, by reason (the counts go into the validation report):

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
    verification:<reason>  the conversation with the rewrite fails verification: one of the named checks of
                           kg2tool.synth.checks.verify (the DPO pairs of a rewritten row are judged again by the same checks,
                           `check_continuation`; a pair that fails is dropped and counted)

Which turns: the first user message of every selected row, and the follow-up question of `followup` rows (their
required names are none: the follow-up must not name its entity, and new_entity catches one that does). The
`missing_info` supply turn ("I mean X.") is left as it is. Worded constraints and relations are demanded only
when the template question states them (so custom templates work). What is not checked: the direction of a
relation (whose X vs. which has X as its ...) and and/or (intersection vs. union); the rewrite may still drift
there, which is why the template question is kept: a kept
rewrite replaces the user message and the template text goes into the row's `plan` as `template_question` (and
`template_followup` for a rewritten follow-up turn).

Modules: this one (options, the pass over rows), `paraphrase_filter` (the checks on a rewrite, which turns),
`paraphrase_model` (the backend and the chunked, checkpointed prompts).

Determinism: generation is greedy; rows are taken in split order and prompts sent in fixed chunks of
`8 * batch_size`, so the same rows, model and options give the same files. Each chunk's outputs are checkpointed
in the run's work folder, so `--resume` does not ask the model again for what it already answered.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ...common.errors import InputError, MissingExtraError
from ..candidate import Candidate
from ..checks.diversity import normalize_question
from .config import DEFAULT_PROMPT, ParaphraseConfig
from .filter import (
    COUNT_RULE,
    FEWER_RULE,
    MORE_RULE,
    NEGATION_RULE,
    REWRITE_CHECKS,
    NameIndex,
    Target,
    WordRule,
    clean_candidate,
    keep_paraphrase,
    plan_names,
    plan_rules,
    selected,
    targets_of,
)
from .model import Paraphraser


def make_paraphrase_backend(cfg: ParaphraseConfig, flags: tuple[str, str] = ("--paraphrase", "--paraphrase-backend")):
    """The eval backend for `cfg` (not loaded yet). Checks, before any sampling, that the model folder exists
    (InputError) and that the backend's packages are installed (MissingExtraError); the messages name the command's
    `flags` for the model and the backend (`kg2tool lexicon` has `--model` and `--backend`)."""
    import importlib.util

    cfg.check()
    if cfg.backend in ("transformers", "vllm") and not Path(cfg.model).exists():
        raise InputError(f"{flags[0]} {cfg.model}: no such model folder")
    if cfg.backend == "transformers":
        for module in ("torch", "transformers"):
            if importlib.util.find_spec(module) is None:
                raise MissingExtraError(
                    f"{flags[0]} with the transformers backend needs {module!r}: `pip install 'kg2tool[train]'`"
                )
    if cfg.backend == "vllm" and importlib.util.find_spec("vllm") is None:
        raise MissingExtraError(f"{flags[1]} vllm needs vLLM on a CUDA GPU: `pip install 'kg2tool[vllm]'`")
    from ...llm import backends

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


def paraphrase_rows(
    candidates: list[Candidate],
    ts,
    paraphraser: Paraphraser,
    cfg: ParaphraseConfig,
    *,
    seed: int = 0,
    names: NameIndex | None = None,
    progress: bool = False,
    cache_dir=None,
) -> dict:
    """Rewrite the user questions of the candidates' rows in place; return the counts for the validation report.

    A kept rewrite replaces the message content (a new message dict; the candidate's DPO pairs get the same prompt
    message), and the template question goes into `row["plan"]`. Each rewrite is verified with the conversation as
    it then stands (`verify_row`), and each DPO pair of a rewritten row is judged again (`check_continuation`); a
    pair that no longer holds is dropped and counted."""
    picked = [c for c in candidates if selected(c.row["id"], seed, cfg.fraction)]
    targets = [(c, t) for c in picked for t in targets_of(c.row, cfg.followups, cfg.require_relations)]
    texts = paraphraser.rewrite(
        [t.text for _, t in targets], [t.required for _, t in targets], progress=progress, cache_dir=cache_dir
    )
    taken = {normalize_question(c.row["messages"][0]["content"]) for c in candidates}
    rejected: Counter = Counter()
    kept_by_category: Counter = Counter()
    rewritten: dict[str, Candidate] = {}
    for (cand, target), text in zip(targets, texts, strict=True):
        reason = rewrite_target(target, text, ts, cfg, names, taken)
        if reason is not None:
            rejected[reason] += 1
            continue
        kept_by_category[cand.row["category"]] += 1
        rewritten[cand.row["id"]] = cand
    dpo_dropped = sum(rejudge_pairs(c, ts) for c in rewritten.values())
    return {
        "model": cfg.model,
        "backend": cfg.backend,
        "rows_tried": len(picked),
        "questions_tried": len(targets),
        "kept": sum(kept_by_category.values()),
        "rows_rewritten": len(rewritten),
        "kept_by_category": dict(sorted(kept_by_category.items())),
        "rejected": dict(sorted(rejected.items())),
        "dpo_pairs_dropped": dpo_dropped,
    }


def rewrite_target(target: Target, candidate: str, ts, cfg: ParaphraseConfig, names: NameIndex | None,
                   taken: set[str]) -> str | None:  # fmt: skip
    """Put `candidate` in place of the target's user message if it passes the rewrite checks, is no other row's
    question (`taken`: normalized first questions, updated here) and the conversation still verifies; return
    None when it was put in place, else the reason (see the module docstring)."""
    from ..checks.verify import verify_row

    row, i, original = target.row, target.index, target.text
    reason = keep_paraphrase(original, candidate, target.required, rules=target.rules, relations=target.relations,
                             names=names, min_ratio=cfg.min_ratio, max_ratio=cfg.max_ratio)  # fmt: skip
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
        return reason
    row["messages"] = messages
    row["plan"] = {**row["plan"], ("template_question" if first else "template_followup"): original}
    if first:
        taken.add(normalize_question(candidate))
    return None


def rejudge_pairs(cand: Candidate, ts) -> int:
    """Give the candidate's DPO pairs the rewritten prompt messages and keep those whose chosen turn still passes
    `check_continuation` and whose rejected turn still fails it; return how many were dropped."""
    from ..checks.preference import check_continuation

    row, pairs = cand.row, []
    for pair in cand.dpo:
        pair = {**pair, "prompt": row["messages"][: len(pair["prompt"])]}
        args = (ts, pair["prompt"])
        rest = (pair["tools"], row["answers"], pair["category"], pair["chosen"])
        if check_continuation(*args, pair["chosen"], *rest) is None and check_continuation(
            *args, pair["rejected"], *rest
        ):
            pairs.append(pair)
    dropped = len(cand.dpo) - len(pairs)
    cand.dpo = pairs
    return dropped


def name_index(kg) -> NameIndex:
    """Every name, label and alternative label of the graph's entities."""
    return NameIndex([*kg.names, *kg.labels, *(a for alts in kg.alt_labels for a in alts)])


__all__ = [
    "COUNT_RULE",
    "DEFAULT_PROMPT",
    "FEWER_RULE",
    "MORE_RULE",
    "NEGATION_RULE",
    "REWRITE_CHECKS",
    "NameIndex",
    "ParaphraseConfig",
    "Paraphraser",
    "WordRule",
    "clean_candidate",
    "keep_paraphrase",
    "make_paraphrase_backend",
    "paraphrase_rows",
    "plan_names",
    "plan_rules",
]
