"""Reports of ``kg2tool eval``: a flat summary of scores, details, a Markdown table and a PNG bar chart.

Files written to the output folder (each to a temporary name, then renamed):

* ``results.jsonl``: one line per AST entry (``kind: "ast"``: ``valid``, ``error_type``, the raw ``output``, the
  ``decoded`` calls) and per executable row (``kind: "exec"``: ``correct``, ``calls_valid``, ``steps`` vs
  ``gold_steps``, ``calls`` vs ``gold_calls``, ``final``, the generated ``turns`` with each call's result);
* ``summary.json``: ``{category_or_metric: score}``, scores as fractions in [0, 1]: AST categories by name
  (``simple``, ``multiple``, ...), ``multi_step_exec`` and ``multi_turn_exec`` (final answer correct),
  ``exec_call_validity`` (rows whose calls were all schema-valid), ``exec_within_gold_steps`` (correct with at
  most the gold number of call turns); with ``--stepwise`` also ``stepwise_first_call``, ``stepwise_later_call``,
  ``stepwise_answer`` (``stepwise_reply``): each assistant turn scored after the gold conversation before it;
* ``details.json``: counts behind every score (``intervals``: each accuracy's correct/total and 95% Wilson
  interval), error types, per-pattern figures, mean steps and calls against
  gold, the run's settings and timings;
* ``report.md``: the same as Markdown tables, every accuracy with its count and 95% Wilson interval; ``summary.png``: a bar chart of ``summary.json`` (matplotlib,
  ``pip install 'kg2tool[plot]'``);
* ``report.html``: one self-contained page (``kg2tool.hub.report_html``): the scores with their counts and 95%
  Wilson intervals, the chart, and every result row as chat turns, filterable, a failed row's expected turns
  beside its produced ones (``report_page``).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

from ..common.errors import MissingExtraError
from ..common.files import atomic_path, write_atomic, writing
from .stepwise import STEP_KINDS

EXEC_METRICS = {
    "multi_step_exec": "executable multi-step: final answer correct (multi_step rows)",
    "multi_turn_exec": "executable multi-turn: final answer correct (multi_turn rows)",
    "exec_call_validity": "executable rows whose calls were all schema-valid (at least one call)",
    "exec_within_gold_steps": "executable rows correct within the gold number of call turns",
    "stepwise_first_call": "step-wise: call turns after a user message right (gold conversation before them)",
    "stepwise_later_call": "step-wise: call turns after tool results right (gold conversation before them)",
    "stepwise_answer": "step-wise: final answers with every gold answer (gold conversation before them)",
    "stepwise_reply": "step-wise: other text turns without a call (gold conversation before them)",
}
REPORT_FILES = ("results.jsonl", "summary.json", "details.json", "report.md", "summary.png", "report.html")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% with z=1.96), as fractions in [0, 1];
    ``(0.0, 1.0)`` for ``n == 0`` (no evidence either way). Hand-written (a few lines) instead of a dependency:
    statsmodels' ``proportion_confint(method="wilson")`` would pull in pandas and patsy for one formula."""
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"wilson: need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


def _frac(correct: int, total: int) -> float:
    return correct / total if total else 0.0


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


def _exec_group(rows: list[dict]) -> dict:
    correct = sum(r["correct"] for r in rows)
    return {
        "correct": correct,
        "total": len(rows),
        "accuracy": _frac(correct, len(rows)),
        "calls_valid": sum(r["calls_valid"] for r in rows),
        "within_gold_steps": sum(r["within_gold_steps"] for r in rows),
        "mean_steps": _mean([r["steps"] for r in rows]),
        "mean_gold_steps": _mean([r["gold_steps"] for r in rows]),
        "mean_calls": _mean([r["calls"] for r in rows]),
        "mean_gold_calls": _mean([r["gold_calls"] for r in rows]),
    }


def summarize(ast_rows: list[dict], exec_rows: list[dict]) -> tuple[dict[str, float], dict]:
    """(summary ``{category_or_metric: score}``, details) of result rows."""
    summary: dict[str, float] = {}
    details: dict = {"ast": {}, "exec": {}}
    by_category: dict[str, list[dict]] = {}
    for row in ast_rows:
        by_category.setdefault(row["category"], []).append(row)
    for category, rows in by_category.items():
        correct = sum(r["valid"] for r in rows)
        summary[category] = _frac(correct, len(rows))
        details["ast"][category] = {
            "correct": correct,
            "total": len(rows),
            "accuracy": summary[category],
            "error_types": dict(Counter(r["error_type"] for r in rows if not r["valid"]).most_common()),
            "parse_errors": sum(bool(r.get("parse_errors")) for r in rows),
        }
    if exec_rows:
        for category in ("multi_step", "multi_turn"):
            rows = [r for r in exec_rows if r["category"] == category]
            if rows:
                summary[f"{category}_exec"] = _frac(sum(r["correct"] for r in rows), len(rows))
        summary["exec_call_validity"] = _frac(sum(r["calls_valid"] for r in exec_rows), len(exec_rows))
        summary["exec_within_gold_steps"] = _frac(sum(r["within_gold_steps"] for r in exec_rows), len(exec_rows))
        patterns: dict[str, list[dict]] = {}
        categories: dict[str, list[dict]] = {}
        for row in exec_rows:
            patterns.setdefault(row["pattern"], []).append(row)
            categories.setdefault(row["category"], []).append(row)
        details["exec"] = {
            "overall": {
                **_exec_group(exec_rows),
                "invalid_calls": sum(r["invalid_calls"] for r in exec_rows),
                "execution_errors": sum(r["execution_errors"] for r in exec_rows),
                "parse_errors": sum(r["parse_errors"] for r in exec_rows),
                "stops": dict(Counter(r["stop"] for r in exec_rows).most_common()),
            },
            "by_category": {c: _exec_group(rs) for c, rs in categories.items()},
            "by_pattern": {p: _exec_group(rs) for p, rs in sorted(patterns.items())},
        }
    return summary, details


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def counts(name: str, details: dict) -> tuple[int, int] | None:
    """(correct, total) behind the summary score `name`, from `details`; None when it has none."""
    exec_overall = details.get("exec", {}).get("overall", {})
    exec_categories = details.get("exec", {}).get("by_category", {})
    step_kinds = details.get("stepwise", {}).get("by_kind", {})
    stats = None
    if name in details.get("ast", {}):
        stats = details["ast"][name]
    elif name.endswith("_exec") and name[: -len("_exec")] in exec_categories:
        stats = exec_categories[name[: -len("_exec")]]
    elif name == "exec_call_validity" and exec_overall:
        return exec_overall["calls_valid"], exec_overall["total"]
    elif name == "exec_within_gold_steps" and exec_overall:
        return exec_overall["within_gold_steps"], exec_overall["total"]
    elif name.startswith("stepwise_") and name[len("stepwise_") :] in step_kinds:
        stats = step_kinds[name[len("stepwise_") :]]
    return (stats["correct"], stats["total"]) if stats else None


def intervals(summary: dict[str, float], details: dict) -> dict[str, dict]:
    """``{score name: {correct, total, score, ci95: [low, high]}}`` for every summary score with counts: the 95%
    Wilson score interval of each accuracy (``wilson``)."""
    out = {}
    for name, score in summary.items():
        got = counts(name, details)
        if got is not None:
            low, high = wilson(*got)
            out[name] = {"correct": got[0], "total": got[1], "score": score, "ci95": [round(low, 4), round(high, 4)]}
    return out


def markdown(summary: dict[str, float], details: dict, title: str = "kg2tool eval") -> str:
    """Markdown tables: every summary score with its counts and 95% Wilson interval, then the executable rows by
    pattern."""
    lines = [f"# {title}", "", "| category / metric | correct | total | score | 95% CI (Wilson) |",
             "|---|---:|---:|---:|---:|"]  # fmt: skip
    exec_overall = details.get("exec", {}).get("overall", {})
    step_kinds = details.get("stepwise", {}).get("by_kind", {})
    cis = intervals(summary, details)
    for name, score in summary.items():
        ci = cis.get(name)
        if ci is None:
            lines.append(f"| {name} |  |  | {_pct(score)} |  |")
        else:
            low, high = ci["ci95"]
            lines.append(f"| {name} | {ci['correct']} | {ci['total']} | {_pct(score)} | {_pct(low)} - {_pct(high)} |")
    by_pattern = details.get("exec", {}).get("by_pattern")
    if by_pattern:
        lines += [
            "",
            "## Executable rows by pattern",
            "",
            "| pattern | correct | total | accuracy | steps (gold) | calls (gold) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for pattern, s in [*by_pattern.items(), ("**all**", exec_overall)]:
            lines.append(
                f"| {pattern} | {s['correct']} | {s['total']} | {_pct(s['accuracy'])} | "
                f"{s['mean_steps']:.2f} ({s['mean_gold_steps']:.2f}) | {s['mean_calls']:.2f} ({s['mean_gold_calls']:.2f}) |"
            )
        o = exec_overall
        stops = ", ".join(f"{k} {v}" for k, v in o["stops"].items())
        lines += [
            "",
            f"Invalid calls: {o['invalid_calls']}; executor errors (valid calls): {o['execution_errors']}; "
            f"malformed calls: {o['parse_errors']}; stops: {stops}.",
        ]
    step_patterns = details.get("stepwise", {}).get("by_pattern")
    if step_patterns:
        kinds = [k for k in STEP_KINDS if k in step_kinds]
        lines += [
            "",
            "## Step-wise: each assistant turn after the gold conversation before it (correct / total)",
            "",
            "| pattern | " + " | ".join(kinds) + " |",
            "|---|" + "---:|" * len(kinds),
        ]
        for pattern, cells in [*step_patterns.items(), ("**all**", step_kinds)]:
            shown = [f"{cells[k]['correct']}/{cells[k]['total']}" if k in cells else "" for k in kinds]
            lines.append(f"| {pattern} | " + " | ".join(shown) + " |")
    run = details.get("run")
    if run:
        lines += [
            "",
            f"Model `{run['model']}`, backend `{run['backend']}`, parser `{run['parser']}`, data "
            f"`{run['data']}`, max steps {run['max_steps']}, limit {run['limit']}.",
        ]
    return "\n".join(lines) + "\n"


def require_matplotlib() -> None:
    """Raise MissingExtraError (exit 5) when matplotlib is missing; checked before any generation."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise MissingExtraError(
            "the PNG chart needs matplotlib: `pip install 'kg2tool[plot]'` (or pass --no-plot to skip the chart)"
        )


def chart_png(summary: dict[str, float], title: str = "kg2tool eval") -> bytes:
    """A horizontal bar chart of the summary's scores (0-100%), as PNG bytes."""
    require_matplotlib()
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(summary)
    values = [100 * summary[n] for n in names]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(names) + 1.2))
    try:
        colors = ["#4C72B0" if n in EXEC_METRICS or n.endswith("_exec") else "#55A868" for n in names]
        bars = ax.barh(names, values, color=colors)
        ax.invert_yaxis()
        ax.set_xlim(0, 110)
        ax.set_xlabel("score (%)")
        ax.set_title(title)
        for bar, value in zip(bars, values, strict=True):
            ax.text(value + 1, bar.get_y() + bar.get_height() / 2, f"{value:.1f}", va="center", fontsize=8)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
    finally:
        plt.close(fig)
    return buffer.getvalue()


def bar_chart(
    summary: dict[str, float], path: str | Path, title: str = "kg2tool eval", png: bytes | None = None
) -> Path:
    """Write the bar chart of the summary's scores (``png``, else drawn now) to ``path``."""
    png = chart_png(summary, title) if png is None else png
    path = Path(path)
    with atomic_path(path, what="the eval chart") as tmp:
        tmp.write_bytes(png)
    return path


def counts_of(name: str, details: dict) -> tuple[int, int] | None:
    """(correct, total) behind the summary score ``name``, None when details do not hold them."""
    exec_part = details.get("exec", {})
    overall, categories = exec_part.get("overall", {}), exec_part.get("by_category", {})
    step_kinds = details.get("stepwise", {}).get("by_kind", {})
    if name in details.get("ast", {}):
        stats = details["ast"][name]
    elif name.endswith("_exec") and name[: -len("_exec")] in categories:
        stats = categories[name[: -len("_exec")]]
    elif name == "exec_call_validity" and overall:
        return overall["calls_valid"], overall["total"]
    elif name == "exec_within_gold_steps" and overall:
        return overall["within_gold_steps"], overall["total"]
    elif name.startswith("stepwise_") and name[len("stepwise_") :] in step_kinds:
        stats = step_kinds[name[len("stepwise_") :]]
    else:
        return None
    return stats["correct"], stats["total"]


def _interval(correct: int, total: int) -> str:
    lo, hi = wilson(correct, total)
    return f"{_pct(lo)} \u2013 {_pct(hi)}"


def html_tables(summary: dict[str, float], details: dict) -> list:
    """The page's tables: every score with its counts and 95% Wilson interval; executable rows by pattern."""
    from ..hub.report_html import Table

    rows = []
    for name, score in summary.items():
        counts = counts_of(name, details)
        what = EXEC_METRICS.get(name, "AST, BFCL's rules" if name in details.get("ast", {}) else "")
        if counts:
            rows.append([name, str(counts[0]), str(counts[1]), _pct(score), _interval(*counts), what])
        else:
            rows.append([name, "", "", _pct(score), "", what])
    tables = [
        Table(
            "Scores", ["category / metric", "correct", "total", "score", "95% interval (Wilson)", "what"], rows,
            {1, 2, 3, 4}, note="95% interval: the Wilson score interval of the correct/total proportion; few rows make it wide.",
        )
    ]  # fmt: skip
    by_pattern = details.get("exec", {}).get("by_pattern")
    if by_pattern:
        rows = [
            [p, str(s["correct"]), str(s["total"]), _pct(s["accuracy"]), _interval(s["correct"], s["total"]),
             f"{s['mean_steps']:.2f} ({s['mean_gold_steps']:.2f})", f"{s['mean_calls']:.2f} ({s['mean_gold_calls']:.2f})"]
            for p, s in by_pattern.items()
        ]  # fmt: skip
        header = ["pattern", "correct", "total", "accuracy", "95% interval", "steps (gold)", "calls (gold)"]
        tables.append(Table("Executable rows by query shape", header, rows, {1, 2, 3, 4, 5, 6}))
    return tables


RUN_SHOWN = ("model", "backend", "parser", "data", "max_steps", "limit")  # settings named at the top of report.html


def html_report(rows: list[dict], summary: dict, details: dict, title: str, chart: bytes | None, expected=None) -> str:
    """``report.html`` of an eval: scores with intervals, the chart, the result rows as conversations."""
    from ..hub.report_html import Image, render
    from .report_page import Expected, items

    run = details.get("run") or {}
    settings = [f"{key.replace('_', ' ')} {run[key]}" for key in RUN_SHOWN if run.get(key) is not None]
    if "total_s" in run.get("timing", {}):
        settings.append(f"{run['timing']['total_s']} s in all")
    intro = ["; ".join(settings) + "."] if settings else []
    page_items, note = items(rows, expected or Expected())
    if expected is None:
        note += " (The expected turns were not loaded for this report.)"
    images = [Image("Scores (%)", chart)] if chart else []
    return render(title, intro=intro, tables=html_tables(summary, details), images=images, items=page_items,
                  items_note=note, always={"result": ["fail", "pass"]})  # fmt: skip


def write_reports(
    out: str | Path,
    rows: list[dict],
    summary: dict,
    details: dict,
    *,
    plot: bool = True,
    title: str = "kg2tool eval",
    expected=None,
) -> list[Path]:
    """Write the report files into ``out``; returns their paths. ``expected`` (``report_page.load_expected`` of the
    data folder) gives report.html the expected turns of each row."""
    out = Path(out)
    dump = lambda value: json.dumps(value, indent=2, ensure_ascii=False) + "\n"  # noqa: E731
    results = "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in rows)
    write_atomic(out / "results.jsonl", results, what="the eval results")
    write_atomic(out / "summary.json", dump(summary), what="the eval summary")
    details = {**details, "intervals": intervals(summary, details)}
    write_atomic(out / "details.json", dump(details), what="the eval details")
    write_atomic(out / "report.md", markdown(summary, details, title), what="the eval report")
    paths = [out / name for name in REPORT_FILES[:4]]
    chart = chart_png(summary, title) if plot else None
    if plot:
        paths.append(bar_chart(summary, out / "summary.png", title, chart))
    else:
        with writing(out / "summary.png", "the eval chart (removing an earlier one)"):
            (out / "summary.png").unlink(missing_ok=True)  # never leave an earlier run's chart beside new results
    from ..hub.report_html import write_html

    paths.append(write_html(out / "report.html", html_report(rows, summary, details, title, chart, expected)))
    return paths


def format_table(summary: dict[str, float], details: dict | None = None) -> str:
    """A fixed-width terminal table of the summary; with `details`, each score's count and 95% Wilson interval."""
    width = max([len(n) for n in summary] + [8])
    cis = intervals(summary, details) if details else {}
    lines = []
    for name, score in summary.items():
        line = f"{name:<{width}}  {_pct(score):>7}"
        if name in cis:
            ci = cis[name]
            line += f"  {ci['correct']:>5}/{ci['total']:<5}  95% CI {_pct(ci['ci95'][0])} - {_pct(ci['ci95'][1])}"
        lines.append(line)
    return "\n".join(lines)


def interval_entries(out_dir: Path, stage: str) -> dict[str, dict]:
    """`{score: {"correct", "total", "ci95", ...}}` for one stage of a demo in `out_dir`: its test-split eval's
    counted scores (`eval-<stage>/details.json`), and its question-file eval's hits@1, exact match and call validity
    as `questions_hits@1`, `questions_exact_match`, `questions_call_validity` (`eval-<stage>-questions/`)."""
    out: dict[str, dict] = {}
    details = Path(out_dir) / f"eval-{stage}" / "details.json"
    if details.is_file():
        out |= json.loads(details.read_text(encoding="utf-8")).get("intervals") or {}
    asked = Path(out_dir) / f"eval-{stage}-questions" / "details.json"
    if asked.is_file():
        overall = json.loads(asked.read_text(encoding="utf-8")).get("overall") or {}
        names = {"hits1": "hits@1", "exact": "exact_match", "calls_valid": "call_validity", "first_call": "first_call"}
        out |= {f"questions_{v}": overall[k] for k, v in names.items() if k in overall}
    return out


def interval_counts(out_dir: Path, stage: str) -> dict[str, tuple[int, int]]:
    """`{score: (correct, total)}` of `interval_entries`."""
    return {k: (e["correct"], e["total"]) for k, e in interval_entries(out_dir, stage).items()}


def interval_cells(out_dir: Path, stage: str) -> dict[str, str]:
    """`{score: "k/n [low%, high%]"}` of `interval_entries` (the interval each evaluation saved)."""

    def cell(e: dict) -> str:
        return f"{e['correct']}/{e['total']} [{100 * e['ci95'][0]:.1f}%, {100 * e['ci95'][1]:.1f}%]"

    return {k: cell(e) for k, e in interval_entries(out_dir, stage).items()}


def score_keys(rows: dict[str, dict]) -> list[str]:
    """Every score name of the rows `{row: {score: ...}}`, in order of first sight."""
    keys: list[str] = []
    for scores in rows.values():
        keys += [k for k in scores if k not in keys]
    return keys


def markdown_table(rows: dict[str, dict], keys: list[str], cell) -> list[str]:
    """The lines of a Markdown table with a `stage` column, then one column per key; `cell(row_scores, key)` gives
    each cell's text."""
    lines = ["| stage | " + " | ".join(keys) + " |", "|---|" + "---|" * len(keys)]
    return lines + [f"| {name} | " + " | ".join(cell(scores, k) for k in keys) + " |" for name, scores in rows.items()]

