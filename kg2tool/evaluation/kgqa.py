"""KGQA scores of one final answer against a question's answer set, and their summary (``kg2tool eval --questions``).

Which answers a text names (``named_answers``), in the order they first appear:

* a gold answer is named when one of its names occurs in the text as whole words, case- and accent-insensitively:
  for an entity every string that resolves to it (``acceptable_names``: display name, label, alternative labels),
  for a literal the value itself (numbers compared as numbers: ``12`` and ``12.0`` are the same);
* the text is also cut into items at commas, semicolons, line breaks, ``|``, ``and``/``or`` and sentence ends, and
  each item (or what follows its last ``is``/``are``/``was``/``were``) is resolved with the graph's own rule
  (``KnowledgeGraph.resolve``: display names, labels, alternative labels, the lenient key). An item that resolves
  to a gold entity names it; one that resolves to another entity is a wrong answer, except the question's topic
  entity (repeating what was asked about is no answer). When the answer set holds a number, every other number
  in the text is a wrong answer too.

Scores per question, as the KGQA literature reports them: ``hits1`` (the first answer named is right),
``precision`` / ``recall`` / ``f1`` over the answer set (0 when nothing is named), ``exact`` (every gold answer
named and nothing else). Every accuracy of the summary carries its count and a 95% Wilson score interval.
"""

from __future__ import annotations

import re
import unicodedata

from .report import wilson

_SPLIT_RE = re.compile(r"[,;\n|•]+|\s(?:and|or)\s|:\s|\.(?:\s|$)|\s[-–]\s", re.IGNORECASE)
_CLAIM_RE = re.compile(r"^.*\b(?:is|are|was|were)\s+", re.IGNORECASE)
_NUMBER_RE = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w])")
CALL_SCORES = ("calls_valid", "path_followed", "first_call")  # per-question 0/1 scores of the model's calls
BINARY = ("hits1", "exact", *CALL_SCORES)  # per-question 0/1 scores (Wilson intervals)
MEANS = ("precision", "recall", "f1")  # per-question fractions, averaged


def fold(text: str) -> str:
    """Lower case, accents removed, runs of whitespace made one space (positions are kept for ASCII text)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().split())


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _first(folded: str, names) -> int | None:
    best = None
    for name in names:
        key = fold(name)
        if not key:
            continue
        m = re.search(r"(?<!\w)" + re.escape(key) + r"(?!\w)", folded)
        if m and (best is None or m.start() < best):
            best = m.start()
    return best


def named_answers(text: str, answers: list[str], answer_ids: list, kg, topic_ids=()) -> tuple[list, list]:
    """(gold answers named, wrong answers named), each a list of ``(position, answer)`` sorted by position; see the
    module docstring."""
    folded = fold(text or "")
    found: dict[int, int] = {}  # answer index -> first position
    numbers = {i: _number(a) for i, a in enumerate(answers) if answer_ids[i] is None and _number(a) is not None}
    for i, answer in enumerate(answers):
        names = kg.acceptable_names(answer_ids[i]) + [answer] if answer_ids[i] is not None else [answer]
        pos = None if i in numbers else _first(folded, names)
        if pos is not None:
            found[i] = pos
    wrong: dict[str, int] = {}
    for m in _NUMBER_RE.finditer(folded) if numbers else ():
        value = float(m.group())
        hit = next((i for i, v in numbers.items() if v == value), None)
        if hit is not None:
            found.setdefault(hit, m.start())
        else:
            wrong.setdefault(m.group(), m.start())
    by_id = {eid: i for i, eid in enumerate(answer_ids) if eid is not None}
    for m in _iter_items(folded):
        item = m[1]
        for candidate in dict.fromkeys((item, _CLAIM_RE.sub("", item))):
            eid = kg.resolve(candidate) if candidate else None
            if eid is None:
                continue
            if eid in by_id:
                found.setdefault(by_id[eid], m[0])
            elif eid not in topic_ids:
                wrong.setdefault(kg.name(eid), m[0])
            break
    gold = sorted((pos, answers[i]) for i, pos in found.items())
    return gold, sorted((pos, name) for name, pos in wrong.items())


def _iter_items(folded: str):
    start = 0
    for m in [*_SPLIT_RE.finditer(folded), None]:
        end = m.start() if m else len(folded)
        raw = folded[start:end]
        item = raw.strip(" \t\"'`*()[]{}!?.")
        if item:
            yield start + raw.find(item[:1]), item
        start = m.end() if m else end


def score_answer(text: str | None, answers: list[str], answer_ids: list, kg, topic_ids=()) -> dict:
    """``hits1``, ``precision``, ``recall``, ``f1``, ``exact`` and the answers named (``named``, ``wrong``)."""
    gold, wrong = named_answers(text or "", answers, answer_ids, kg, topic_ids)
    n_named = len(gold) + len(wrong)
    precision = len(gold) / n_named if n_named else 0.0
    recall = len(gold) / len(answers) if answers else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    first = min([*gold, *wrong], default=None)
    return {
        "hits1": first is not None and first in gold,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "exact": bool(answers) and len(gold) == len(answers) and not wrong,
        "named": [a for _, a in gold],
        "wrong": [a for _, a in wrong],
    }


def group_scores(rows: list[dict]) -> dict:
    """Counts, means and Wilson intervals of a group of scored question rows."""
    n = len(rows)
    out: dict = {"total": n}
    for key in BINARY:
        rated = [r for r in rows if r.get(key) is not None]
        k = sum(bool(r[key]) for r in rated)
        low, high = wilson(k, len(rated))
        out[key] = {"correct": k, "total": len(rated), "score": k / len(rated) if rated else 0.0,
                    "ci95": [round(low, 4), round(high, 4)]}  # fmt: skip
    for key in MEANS:
        out[key] = {"mean": round(sum(r[key] for r in rows) / n, 4) if n else 0.0, "total": n}
    out["mean_calls"] = round(sum(r["calls"] for r in rows) / n, 3) if n else 0.0
    return out


SUMMARY_KEYS = {"hits1": "hits@1", "exact": "exact_match", "calls_valid": "call_validity",
                "path_followed": "path_followed", "first_call": "first_call"}  # fmt: skip


def summarize(rows: list[dict], unmatched: int, inexpressible: list[dict]) -> tuple[dict, dict]:
    """(summary ``{metric: fraction}`` plus ``answers_not_in_graph`` (a count), details) of scored rows."""
    overall = group_scores(rows)
    summary: dict = {SUMMARY_KEYS[k]: overall[k]["score"] for k in ("hits1", "exact")}
    summary.update({k: overall[k]["mean"] for k in MEANS})
    summary.update({SUMMARY_KEYS[k]: overall[k]["score"] for k in CALL_SCORES})
    summary["answers_not_in_graph"] = unmatched
    hops: dict[str, list[dict]] = {}
    kinds: dict[str, list[dict]] = {}
    for row in rows:
        hops.setdefault(str(row["hops"]) if row["hops"] is not None else "unknown", []).append(row)
        kinds.setdefault(row.get("kind") or "unknown", []).append(row)
    details = {
        "overall": overall,
        "by_hops": {h: group_scores(rs) for h, rs in sorted(hops.items())},
        "by_kind": {k: group_scores(rs) for k, rs in sorted(kinds.items())},
        "answers_not_in_graph": unmatched,
        "not_in_graph": [{"id": r["id"], "answers": r["unmatched"]} for r in rows if r["unmatched"]],
        "inexpressible": inexpressible,
    }
    return summary, details


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _group_line(name: str, g: dict) -> str:
    cells = []
    for key in ("hits1", "exact"):
        s = g[key]
        cells.append(f"{s['correct']}/{s['total']} {_pct(s['score'])} [{_pct(s['ci95'][0])}, {_pct(s['ci95'][1])}]")
    cells += [f"{g[k]['mean']:.3f}" for k in MEANS]
    for key in CALL_SCORES:
        s = g[key]
        cells.append(f"{s['correct']}/{s['total']} {_pct(s['score'])}" if s["total"] else "")
    return f"| {name} | {g['total']} | " + " | ".join(cells) + f" | {g['mean_calls']:.2f} |"


def markdown(details: dict, title: str) -> str:
    """report.md of a questions run: overall and per-hop scores with counts and 95% Wilson intervals."""
    lines = [
        f"# {title}",
        "",
        "Scores on questions people wrote; accuracies are correct/total, the score and its 95% Wilson interval.",
        "",
        "| questions | n | hits@1 | exact match | precision | recall | F1 | call validity | path followed | first call "
        "| calls |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        _group_line("**all**", details["overall"]),
    ]
    lines += [_group_line(f"{h} hop(s)", g) for h, g in details["by_hops"].items()]
    if len(details["by_kind"]) > 1:
        lines += [_group_line(f"kind: {k}", g) for k, g in details["by_kind"].items()]
    lines += ["", f"Answers no entity of the graph matches: {details['answers_not_in_graph']}."]
    lines += [f"- `{x['id']}`: {', '.join(map(repr, x['answers']))}" for x in details["not_in_graph"]]
    retriever = details.get("retriever")
    if retriever:
        lines += ["", f"Tools offered: the {retriever['top_k']} relations/attributes BM25 ranks highest for the "
                  f"question (both directions), plus the operators. Recall of the relation path's tools: "
                  f"{retriever['covered']}/{retriever['expected']} ({_pct(retriever['recall'])}); questions with "
                  f"every path tool offered: {retriever['full']}/{retriever['questions']}."]  # fmt: skip
    if details["inexpressible"]:
        lines += ["", "## Questions the relation path model cannot express", ""]
        lines += [f"- `{x['id']}` ({x['where']}): {x['reason']}" for x in details["inexpressible"]]
    run = details.get("run") or {}
    if run:
        lines += ["", f"Model `{run['model']}`, questions `{run['questions']}`, graph {', '.join(run['graphs'])}, "
                  f"tools offered: {run['offer']}, max steps {run['max_steps']}."]  # fmt: skip
    return "\n".join(lines) + "\n"
