"""`kg2tool inspect`: what a synth dataset folder holds, as a terminal summary, PNG plots, sample conversations and
a self-contained ``report.html`` (the tables, the plots and the rows as browsable conversations).

Reads the folder with `datasets.load_dataset(DIR, "sft")` (and `dpo` if present). Plots need matplotlib
(`pip install 'kg2tool[plot]'`); the summary and samples do not.
"""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from pathlib import Path

from ..common.errors import InputError, MissingExtraError
from ..common.files import atomic_path, writing
from .report_html import Column, Image, Item, Table, Turn, first_user_text, render, turns_from_messages


def load_rows(folder: str | Path, config: str = "sft") -> dict[str, list[dict]]:
    """The rows of one config of a dataset folder, by split (InputError for a folder that is not a dataset)."""
    from datasets import load_dataset
    from datasets.utils.logging import disable_progress_bar

    folder = Path(folder)
    if not (folder / "README.md").is_file():
        raise InputError(f"{folder}: not a kg2tool dataset folder (no README.md dataset card)")
    disable_progress_bar()
    try:
        ds = load_dataset(str(folder), config)
    except ValueError as exc:
        raise InputError(f"{folder}: cannot load config {config!r}: {exc}") from None
    return {split: list(ds[split]) for split in ds}


def summarize(rows_by_split: dict[str, list[dict]]) -> dict:
    """Counts for the summary: rows by split, category and pattern; calls, turns, answer sizes, question words,
    relation coverage and tools offered."""
    rows = [r for rs in rows_by_split.values() for r in rs]
    if not rows:
        raise InputError("the dataset has no rows")
    qlen = [len(" ".join(m["content"] for m in r["messages"] if m["role"] == "user").split()) for r in rows]
    relations: Counter = Counter()
    for r in rows:
        for rel in set(r["relation_path"]):
            relations[rel.removeprefix("inverse ")] += 1
    return {
        "rows": len(rows),
        "splits": {s: len(v) for s, v in rows_by_split.items()},
        "categories": dict(Counter(r["category"] for r in rows).most_common()),
        "patterns": dict(Counter(r["pattern"] for r in rows).most_common()),
        "calls_per_conversation": dict(sorted(Counter(r["num_calls"] for r in rows).items())),
        "call_turns_per_conversation": dict(sorted(Counter(r["num_turns"] for r in rows).items())),
        "answer_set_sizes": dict(sorted(Counter(len(r["answers"]) for r in rows).items())),
        "question_words": {
            "mean": round(statistics.mean(qlen), 1),
            "median": statistics.median(qlen),
            "max": max(qlen),
        },
        "relation_coverage": dict(relations.most_common()),
        "tools_offered_mean": round(statistics.mean(len(r["tools"]) for r in rows), 2),
    }


def format_summary(s: dict) -> str:
    """The summary of `summarize` as plain-text tables."""

    def table(title: str, counts: dict, total: int | None = None) -> list[str]:
        width = max((len(str(k)) for k in counts), default=4)
        out = [f"{title}"]
        for k, v in counts.items():
            share = f"  {100 * v / total:5.1f}%" if total else ""
            out.append(f"  {str(k):<{width}}  {v:>7,}{share}")
        return out

    n = s["rows"]
    lines = [f"{n:,} conversations ({', '.join(f'{v:,} {k}' for k, v in s['splits'].items())})", ""]
    lines += table("category", s["categories"], n) + [""]
    lines += table("pattern (query shape)", s["patterns"], n) + [""]
    lines += table("calls per conversation", s["calls_per_conversation"], n) + [""]
    lines += table("assistant call turns (hops)", s["call_turns_per_conversation"], n) + [""]
    lines += table("answer-set size", s["answer_set_sizes"], n) + [""]
    q = s["question_words"]
    lines += [f"question length (words, user turns): mean {q['mean']}, median {q['median']}, max {q['max']}"]
    lines += [f"tools offered per conversation: mean {s['tools_offered_mean']}", ""]
    lines += table("relation coverage (conversations using the relation)", s["relation_coverage"])
    return "\n".join(lines)


def format_conversation(row: dict, width: int = 100) -> str:
    """One conversation as text a person reads: header, offered tools, then each turn (calls and results set apart)."""
    out = [f"--- {row['id']}  [{row['category']} / {row['pattern']}]  answers: {row['answers']}"]
    out.append(f"    tools: {', '.join(t['function']['name'] for t in row['tools'])}")
    for m in row["messages"]:
        role = m["role"]
        if m.get("tool_calls"):
            for c in m["tool_calls"]:
                fn = c["function"]
                out.append(
                    f"  assistant -> {fn['name']}({json.dumps(fn['arguments'], ensure_ascii=False)})  [{c['id']}]"
                )
        elif role == "tool":
            content = m["content"] if len(m["content"]) <= width else m["content"][: width - 1] + "\u2026"
            out.append(f"  tool[{m['tool_call_id']}] <- {content}")
        else:
            out.append(f"  {role}: {m['content']}")
    return "\n".join(out)


PLOTS = (
    ("shape_mix.png", "Query shapes", "patterns", "conversations"),
    ("categories.png", "Categories", "categories", "conversations"),
    ("hops.png", "Assistant call turns per conversation", "call_turns_per_conversation", "conversations"),
    ("calls.png", "Calls per conversation", "calls_per_conversation", "conversations"),
    ("answer_sizes.png", "Answer-set size", "answer_set_sizes", "conversations"),
    ("relation_coverage.png", "Relation coverage", "relation_coverage", "conversations using it"),
)


def figures(s: dict) -> list[tuple[str, str, bytes]]:
    """The summary's distributions as PNG images: ``(file name, title, PNG bytes)`` each."""
    import io

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtraError("plots need matplotlib: install it with `pip install 'kg2tool[plot]'`") from None
    out = []
    for name, title, key, xlabel in PLOTS:
        counts = s[key]
        labels = [str(k) for k in counts]
        horizontal = name in ("shape_mix.png", "relation_coverage.png", "categories.png")
        fig, ax = plt.subplots(figsize=(8, max(3, 0.28 * len(labels) + 1) if horizontal else 4))
        try:
            if horizontal:
                ax.barh(labels[::-1], list(counts.values())[::-1], color="#4C72B0")
                ax.set_xlabel(xlabel)
            else:
                ax.bar(labels, list(counts.values()), color="#4C72B0")
                ax.set_ylabel(xlabel)
            ax.set_title(title)
            fig.tight_layout()
            buffer = io.BytesIO()
            fig.savefig(buffer, dpi=100, format="png")
        finally:
            plt.close(fig)
        out.append((name, title, buffer.getvalue()))
    return out


def plot(s: dict, out_dir: str | Path, images: list[tuple[str, str, bytes]] | None = None) -> list[Path]:
    """Write the summary's distributions (``images``, else ``figures(s)``) as PNG files; return their paths."""
    images = figures(s) if images is None else images
    out_dir = Path(out_dir)
    with writing(out_dir, "the plots folder"):
        out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, _, png in images:
        path = out_dir / name
        with atomic_path(path, keep_suffix=True, what="a plot") as tmp:
            tmp.write_bytes(png)
        paths.append(path)
    return paths


def samples(rows_by_split: dict[str, list[dict]], k: int, seed: int = 0) -> list[dict]:
    """One random row per category (drawn with `seed`), shuffled, at most `k`: `kg2tool inspect --samples`."""
    rows = [r for rs in rows_by_split.values() for r in rs]
    by_cat: dict[str, list[dict]] = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(r)
    rng = random.Random(seed)
    picked = [rng.choice(v) for _, v in sorted(by_cat.items())]
    rng.shuffle(picked)
    return picked[:k]


MAX_HTML_ROWS = 500  # rows per split embedded in report.html


def _count_table(title: str, counts: dict, total: int | None = None) -> Table:
    rows = [[str(k), f"{v:,}"] + ([f"{100 * v / total:.1f}%"] if total else []) for k, v in counts.items()]
    return Table(title, [title.split(" (")[0], "conversations"] + (["share"] if total else []), rows, {1, 2})


def html_page(
    rows_by_split: dict[str, list[dict]],
    s: dict,
    images: list[tuple[str, str, bytes]] = (),
    max_rows: int = MAX_HTML_ROWS,
    title: str = "kg2tool inspect",
) -> str:
    """``report.html`` of a dataset: the summary's tables, the plots, and the first ``max_rows`` rows of each split
    as conversations (filters: split, category, shape; text search)."""
    n = s["rows"]
    q = s["question_words"]
    tables = [
        _count_table("split", s["splits"], n),
        _count_table("category", s["categories"], n),
        _count_table("query shape (pattern)", s["patterns"], n),
        _count_table("assistant call turns (hops)", s["call_turns_per_conversation"], n),
        _count_table("calls per conversation", s["calls_per_conversation"], n),
        _count_table("answer-set size", s["answer_set_sizes"], n),
        _count_table("relation (conversations using it)", s["relation_coverage"]),
    ]
    items = []
    for split, rows in rows_by_split.items():
        for row in rows[:max_rows]:
            tools = ", ".join(t["function"]["name"] for t in row["tools"])
            turns = [Turn("note", f"tools offered: {tools}")] + turns_from_messages(row["messages"])
            items.append(
                Item(
                    id=str(row["id"]),
                    summary=first_user_text(row["messages"]),
                    facets={"split": split, "category": row["category"], "shape": row["pattern"]},
                    columns=[
                        Column("conversation", turns + [Turn("note", "gold answers: " + "; ".join(row["answers"]))])
                    ],
                )
            )
    embedded = ", ".join(f"{min(len(rs), max_rows):,} of {len(rs):,} {split}" for split, rs in rows_by_split.items())
    return render(
        title,
        intro=[
            f"{n:,} conversations ({', '.join(f'{v:,} {k}' for k, v in s['splits'].items())}).",
            f"Question length (words, user turns): mean {q['mean']}, median {q['median']}, max {q['max']}; "
            f"tools offered per conversation: mean {s['tools_offered_mean']}.",
        ],
        tables=tables,
        images=[Image(t, png) for _, t, png in images],
        items=items,
        items_note=f"Rows embedded in this page: the first {max_rows:,} of each split ({embedded}).",
    )
