"""KGQA scores of one final answer against a question's answer set, and their summary (``kg2tool eval --questions``).

Which answers a text names (``named_answers``), in the order they first appear. The text is read as *mentions*,
spans of it, and each mention names one answer at most:

* candidate spans: every whole-word occurrence (case- and accent-insensitive) of a gold answer's names (for an
  entity every string that resolves to it, ``acceptable_names``; for a literal the value itself) and of the topic
  entities' names; when the answer set holds a number, every number (compared as numbers: ``12`` is ``12.0``);
  and the items the text is cut into at commas, semicolons, line breaks, ``|``, ``and``/``or`` and sentence ends
  (each item, or what follows its last ``is``/``are``/``was``/``were``), alone or joined with the next one or two
  (``Paris, Texas``), when the span resolves to an entity (``KnowledgeGraph.resolve`` and ``ids_named`` on the
  text as written, the lenient key against the gold answers and the entities the calls returned);
* the longest span wins where spans overlap ("Paris" inside "Paris, Texas" is no mention of Paris; "Romero"
  inside "George A. Romero" none of a tag "romero");
* a span that may mean several things means, in this order: a gold answer the model's calls returned; another
  entity the calls returned; a gold answer; the topic entity (repeating what was asked about is no answer);
  another entity of the graph; a number that is not in the answer set (a wrong answer). An entity of another kind
  than the question's answers is never a wrong answer: not when the answers are literals, not when it cannot end
  the relation path (the object of its last relation, the subject for a step walked backwards), not when it and
  the answers have types and share none. So "Ernst Lubitsch" is the person the calls returned, not a lower-case
  tag "ernst lubitsch", and "1940" is the year answered, not a tag "1940".

Scores per question, as the KGQA literature reports them: ``hits1`` (the first answer named is right),
``precision`` / ``recall`` / ``f1`` over the answer set (0 when nothing is named), ``exact`` (every gold answer
named and nothing else). Every accuracy of the summary carries its count and a 95% Wilson score interval.
"""

from __future__ import annotations

import re
import unicodedata

from ..graph.names import normalize_name
from .questions import is_literal
from .report import wilson

_SPLIT_RE = re.compile(r"[,;\n|•]+|\s(?:and|or)\s|:\s|\.(?:\s|$)|\s[-–]\s", re.IGNORECASE)
_CLAIM_RE = re.compile(r"^.*\b(?:is|are|was|were)\s+", re.IGNORECASE)
_NUMBER_RE = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w])")
CALL_SCORES = ("calls_valid", "path_followed", "first_call")  # per-question 0/1 scores of the model's calls
BINARY = ("hits1", "exact", *CALL_SCORES)  # per-question 0/1 scores (Wilson intervals)
MEANS = ("precision", "recall", "f1")  # per-question fractions, averaged


def _fold_char(c: str) -> str:
    return "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x)).casefold()


def fold_map(text: str) -> tuple[str, list[int]]:
    """``fold(text)`` and, for each of its characters, the index in `text` of the character it comes from."""
    out: list[str] = []
    where: list[int] = []
    for i, c in enumerate(text):
        if c.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                where.append(i)
            continue
        for x in c.casefold() if c.isascii() else _fold_char(c):
            out.append(x)
            where.append(i)
    if out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def fold(text: str) -> str:
    """Lower case, accents removed, runs of whitespace made one space."""
    return fold_map(text)[0]


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _occurrences(folded: str, names) -> list[tuple[int, int]]:
    """Every whole-word occurrence in `folded` of any of `names`, as (start, end)."""
    spans = []
    for key in {fold(name) for name in names} - {""}:
        spans += [m.span() for m in re.finditer(r"(?<!\w)" + re.escape(key) + r"(?!\w)", folded)]
    return spans


def returned_entities(kg, turns) -> set[int]:
    """The entities the calls of a model's turns returned (every string of their JSON results that names one)."""
    import json

    out: set[int] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            eid = kg.resolve(value)
            if eid is not None and kg.name(eid) == value:
                out.add(eid)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    for turn in turns or ():
        for call in turn.get("calls") or ():
            result = call.get("result")
            if isinstance(result, str):
                try:
                    result = json.loads(result)
                except ValueError:
                    pass
            walk(result)
    return out


def _keys(kg, eid: int) -> set[str]:
    return {normalize_name(t) for t in (kg.name(eid), kg.labels[eid], *kg.alt_labels[eid])} - {""}


class _Reader:
    """What one question's final text may name: its gold answers, topic entities, the entities the calls returned,
    and which other entities are of the answers' kind (see the module docstring)."""

    def __init__(self, answers, answer_ids, kg, topic_ids, returned, ends):
        self.answers, self.ids, self.kg = answers, answer_ids, kg
        self.topics, self.returned, self.ends = set(topic_ids), set(returned), list(ends)
        self.numbers = {
            i: _number(a) for i, a in enumerate(answers) if answer_ids[i] is None and _number(a) is not None
        }
        self.by_id = {eid: i for i, eid in enumerate(answer_ids) if eid is not None}
        self.gold_keys = {i: _keys(kg, eid) | {normalize_name(answers[i])} for eid, i in self.by_id.items()}
        self.returned_by_key: dict[str, set[int]] = {}
        for eid in self.returned:
            for key in _keys(kg, eid):
                self.returned_by_key.setdefault(key, set()).add(eid)
        unmatched = any(eid is None and not is_literal(a) for a, eid in zip(answers, answer_ids))
        self.kind_known = bool(answers) and not unmatched
        self.literal_only = self.kind_known and not self.by_id
        types = [set(kg.types[eid]) for eid in self.by_id] if self.kind_known else []
        self.types = set().union(*types) if types and all(types) else set()

    def of_answer_kind(self, eid: int) -> bool:
        """Whether an entity could be an answer of this question (its gold answers always are)."""
        if eid in self.by_id or not self.kind_known:
            return True
        if self.literal_only:
            return False
        if self.ends and not any(self._ends(eid, rel, inverse) for rel, inverse in self.ends):
            return False
        types = set(self.kg.types[eid])
        return not (self.types and types and not types & self.types)

    def _ends(self, eid: int, relation: str, inverse: bool) -> bool:
        rel = self.kg.relations.get(relation)
        return rel is None or eid in (rel.forward if inverse else rel.inverse)

    def resolve(self, original: str, folded: str) -> set[tuple]:
        """What a span (as written, and folded) may mean: ("gold", i), ("topic", eid), ("entity", eid)."""
        key = normalize_name(original)
        if not key:
            return set()
        out = {("gold", i) for i, keys in self.gold_keys.items() if key in keys}
        eids = set(self.returned_by_key.get(key, ()))
        eids.update(e for e in (self.kg.resolve(original), self.kg.resolve(folded)) if e is not None)
        eids.update(self.kg.ids_named(original))
        for eid in eids:
            if eid in self.by_id:
                out.add(("gold", self.by_id[eid]))
            else:
                out.add(("topic" if eid in self.topics else "entity", eid))
        return out

    def choose(self, targets: set[tuple]) -> tuple[str, object] | None:
        """The one thing a mention names: ("gold", answer index), ("wrong", name), or None (no answer)."""
        golds = sorted(i for kind, i in targets if kind == "gold")
        others = sorted(e for kind, e in targets if kind == "entity" and self.of_answer_kind(e))
        returned_names = {fold(self.kg.name(e)) for e in others if e in self.returned}
        for i in golds:  # a literal answer ("1942") is also the entity of that name the calls returned (a tag)
            if self.ids[i] in self.returned or (self.ids[i] is None and fold(self.answers[i]) in returned_names):
                return "gold", i
        for eid in others:
            if eid in self.returned:
                return "wrong", self.kg.name(eid)
        if golds:
            return "gold", golds[0]
        if any(kind == "topic" for kind, _ in targets):
            return None
        if others:
            return "wrong", self.kg.name(others[0])
        numbers = sorted(t for kind, t in targets if kind == "number")
        return ("wrong", numbers[0]) if numbers else None


def named_answers(
    text: str, answers: list[str], answer_ids: list, kg, topic_ids=(), returned=(), ends=()
) -> tuple[list, list]:
    """(gold answers named, wrong answers named), each a list of ``(position, answer)`` sorted by position; see the
    module docstring. `returned`: the entity ids the model's calls returned; `ends`: ``(relation IRI, inverse)``
    of the last step of each relation path (the answers are its objects, or its subjects when inverse)."""
    reader = _Reader(answers, answer_ids, kg, topic_ids, returned, ends)
    folded, where = fold_map(text or "")
    spans: dict[tuple[int, int], set] = {}
    for i, answer in enumerate(answers):
        if i not in reader.numbers:
            names = [*kg.acceptable_names(answer_ids[i]), answer] if answer_ids[i] is not None else [answer]
            for span in _occurrences(folded, names):
                spans.setdefault(span, set()).add(("gold", i))
    for eid in reader.topics:
        for span in _occurrences(folded, kg.acceptable_names(eid)):
            spans.setdefault(span, set()).add(("topic", eid))
    for m in _NUMBER_RE.finditer(folded) if reader.numbers else ():
        value = float(m.group())
        hit = next((i for i, v in reader.numbers.items() if v == value), None)
        spans.setdefault(m.span(), set()).add(("gold", hit) if hit is not None else ("number", m.group()))
    items = list(_iter_items(folded))
    for a in range(len(items)):
        for b in range(a, min(a + 3, len(items))):
            start, end = items[a][0], items[b][1]
            claim = _CLAIM_RE.match(folded[start:end])
            for s in dict.fromkeys((start, start + claim.end() if claim else start)):
                targets = reader.resolve(text[where[s] : where[end - 1] + 1], folded[s:end]) if s < end else set()
                if targets:
                    spans.setdefault((s, end), set()).update(targets)
                    break
    taken: list[tuple[int, int]] = []
    found: dict[int, int] = {}  # answer index -> first position
    wrong: dict[str, int] = {}
    for (s, e), targets in sorted(spans.items(), key=lambda kv: (kv[0][0] - kv[0][1], kv[0][0])):
        if any(s < te and ts < e for ts, te in taken):
            continue  # inside (or across) a longer mention
        taken.append((s, e))
        chosen = reader.choose(targets)
        if chosen is None:
            continue
        kind, what = chosen
        if kind == "gold":
            found[what] = min(found.get(what, s), s)
        else:
            wrong[str(what)] = min(wrong.get(str(what), s), s)
    gold = sorted((pos, answers[i]) for i, pos in found.items())
    return gold, sorted((pos, name) for name, pos in wrong.items())


def _iter_items(folded: str):
    """(start, end) of each item of the text (cut at ``_SPLIT_RE``, quotes, brackets and stops stripped)."""
    start = 0
    for m in [*_SPLIT_RE.finditer(folded), None]:
        end = m.start() if m else len(folded)
        raw = folded[start:end]
        item = raw.strip(" \t\"'`*()[]{}!?.")
        if item:
            first = start + raw.find(item)
            yield first, first + len(item)
        start = m.end() if m else end


def score_answer(
    text: str | None, answers: list[str], answer_ids: list, kg, topic_ids=(), returned=(), ends=()
) -> dict:
    """``hits1``, ``precision``, ``recall``, ``f1``, ``exact`` and the answers named (``named``, ``wrong``);
    `returned` and `ends` as for ``named_answers``."""
    gold, wrong = named_answers(text or "", answers, answer_ids, kg, topic_ids, returned, ends)
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
    if details.get("oracle"):
        lines += ["", oracle_line(details)]
    run = details.get("run") or {}
    if run:
        lines += ["", f"Model `{run['model']}`, questions `{run['questions']}`, graph {', '.join(run['graphs'])}, "
                  f"tools offered: {run['offer']}, max steps {run['max_steps']}."]  # fmt: skip
    return "\n".join(lines) + "\n"


ORACLE_FLOOR = 0.95  # below this, the oracle's answers and the file's disagree: the file or the graph is off


def oracle_check(details: dict) -> dict:
    """The oracle's (``--model path``) figure: hits@1 and exact match overall and their lowest per hop count, and
    whether they reach ``ORACLE_FLOOR`` (below it the question file and the graph disagree)."""
    overall = details["overall"]
    groups = {"all": overall, **{f"{h} hop(s)": g for h, g in details["by_hops"].items()}}
    low = {name: min(g["hits1"]["score"], g["exact"]["score"]) for name, g in groups.items() if g["total"]}
    below = sorted(name for name, score in low.items() if score < ORACLE_FLOOR)
    return {
        "hits@1": overall["hits1"]["score"], "exact_match": overall["exact"]["score"],
        "lowest": round(min(low.values(), default=0.0), 4), "below": below, "agree": not below,
        "expressible": overall["total"], "not_expressible": len(details["inexpressible"]),
    }  # fmt: skip


def oracle_line(details: dict) -> str:
    """One sentence on the oracle's figure, for the terminal and the reports."""
    o, g = details["oracle"], details["overall"]
    text = (f"oracle (--model path): hits@1 {g['hits1']['correct']}/{g['hits1']['total']} {_pct(o['hits@1'])}, "
            f"exact match {g['exact']['correct']}/{g['exact']['total']} {_pct(o['exact_match'])} on the "
            f"{o['expressible']} questions its tools express ({o['not_expressible']} they do not)")  # fmt: skip
    if o["agree"]:
        return text + f"; at least {_pct(ORACLE_FLOOR)} at every hop count: the question file and the graph agree."
    return (text + f". Below {_pct(ORACLE_FLOOR)} ({', '.join(o['below'])}): the question file and the graph "
            "disagree, so no model can score well here: the relation paths do not reach the file's answers (another "
            "version of the graph, answers that leave the topic entity out: --exclude-topic, or wrong paths); "
            "each failed question lists its missing and wrong answers.")  # fmt: skip


def _interval(score: dict) -> str:
    low, high = score["ci95"]
    return f"{_pct(low)} \u2013 {_pct(high)}"


SCORE_MEANINGS = {
    "hits1": "the first answer named is right", "exact": "every answer named, nothing else",
    "calls_valid": "every call valid against an offered tool", "path_followed": "the calls walk the relation path",
    "first_call": "the first call is the path's first tool on the topic",
}  # fmt: skip


def html_tables(details: dict) -> list:
    """report.html's tables: every score with its counts and 95% Wilson interval; hits@1 and exact match per hop
    count (and per kind of question when there are several)."""
    from ..hub.report_html import Table

    overall = details["overall"]
    rows = [[SUMMARY_KEYS[k], str(overall[k]["correct"]), str(overall[k]["total"]), _pct(overall[k]["score"]),
             _interval(overall[k]), SCORE_MEANINGS[k]] for k in BINARY if overall[k]["total"]]  # fmt: skip
    rows += [[k, "", str(overall[k]["total"]), f"{overall[k]['mean']:.3f}", "", "mean over questions"] for k in MEANS]
    note = "95% interval: the Wilson score interval of the correct/total proportion; few questions make it wide."
    header = ["score", "correct", "total", "score", "95% interval (Wilson)", "what"]
    tables = [Table("Scores", header, rows, {1, 2, 3, 4}, note=note)]

    def group_rows(groups: dict) -> list[list[str]]:
        out = []
        for name, g in groups.items():
            cells = [name, str(g["total"])]
            for k in ("hits1", "exact"):
                cells += [f"{g[k]['correct']}/{g[k]['total']} {_pct(g[k]['score'])}", _interval(g[k])]
            out.append([*cells, f"{g['f1']['mean']:.3f}", f"{g['mean_calls']:.2f}"])
        return out

    header = ["", "questions", "hits@1", "95% interval", "exact match", "95% interval", "F1", "calls"]
    tables.append(Table("By hop count", ["hops", *header[1:]], group_rows(details["by_hops"]), {1, 2, 3, 4, 5, 6, 7}))
    if len(details["by_kind"]) > 1:
        tables.append(Table("By kind of question", ["kind", *header[1:]], group_rows(details["by_kind"]),
                            {1, 2, 3, 4, 5, 6, 7}))  # fmt: skip
    return tables
