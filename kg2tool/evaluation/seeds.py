"""One demo plan run with several seeds (`kg2tool demo --seeds 0,1,2`): every score's mean and range over the
seeds, and its counts pooled over them with a 95% Wilson interval.

Each seed's run is a whole demo in `OUT/seed<N>` (its own report.json, run.json and evaluation folders); this
module reads them back and writes `OUT/seeds.json` and `OUT/seeds.md`:

    seeds.json   {"seeds": [0, 1, 2], "stages": {stage: {score: {"mean", "min", "max", "values",
                  "correct", "total", "ci95"}}}}   (`correct`/`total`/`ci95` where the evaluation counted the score:
                  the seeds' counts added up, e.g. simple 3/300, and the Wilson interval of that sum)
    seeds.md     the same as tables: "mean (min-max)" per stage and score, then the pooled counts

A score missing from one seed's report (a category its test split lacked) is aggregated over the seeds that have
it, and `values` says how many those were.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..common.errors import InputError
from ..common.files import write_atomic
from .report import interval_counts, markdown_table, score_keys, wilson


def seed_dir(out: Path | str, seed: int) -> Path:
    """Where seed `seed`'s whole demo run goes inside `out`."""
    return Path(out) / f"seed{seed}"


def aggregate(out: Path | str, seeds: list[int]) -> dict:
    """The `seeds.json` record of the finished runs `seed_dir(out, s)` for s in `seeds` (see the module docstring).
    InputError when a run has no report.json (not finished)."""
    stages: dict[str, dict[str, dict]] = {}
    for seed in seeds:
        folder = seed_dir(out, seed)
        path = folder / "report.json"
        if not path.is_file():
            raise InputError(f"{path}: missing: the demo of seed {seed} did not finish (rerun with --resume)")
        report = json.loads(path.read_text(encoding="utf-8"))
        for stage, scores in report.items():
            counts = interval_counts(folder, stage)
            for key, value in scores.items():
                entry = stages.setdefault(stage, {}).setdefault(key, {"values": []})
                entry["values"].append(value)
                if key in counts:
                    k, n = counts[key]
                    entry["correct"] = entry.get("correct", 0) + k
                    entry["total"] = entry.get("total", 0) + n
    for scores in stages.values():
        for entry in scores.values():
            vals = entry["values"]
            entry |= {"mean": sum(vals) / len(vals), "min": min(vals), "max": max(vals)}
            if "total" in entry:
                entry["ci95"] = list(wilson(entry["correct"], entry["total"]))
    return {"seeds": list(seeds), "stages": stages}


def seeds_markdown(record: dict) -> str:
    """`seeds.md`: mean (min-max) per stage and score, then the counts pooled over the seeds."""
    stages = record["stages"]
    keys = score_keys(stages)
    seeds = ", ".join(map(str, record["seeds"]))
    lines = [
        f"# kg2tool demo over {len(record['seeds'])} seed{'s' if len(record['seeds']) != 1 else ''} ({seeds})",
        "",
        "Held-out test split; mean (min-max) of the seeds' scores (fractions).",
        "",
        *markdown_table(stages, keys, lambda scores, k: _mean_cell(scores[k]) if k in scores else ""),
    ]
    counted = [k for k in keys if any("total" in s.get(k, {}) for s in stages.values())]
    if counted:
        lines += ["", "Counts pooled over the seeds, with 95% Wilson intervals:", ""]
        lines += markdown_table(stages, counted, lambda sc, k: _count_cell(sc[k]) if "total" in sc.get(k, {}) else "")
    return "\n".join(lines) + "\n"


def _mean_cell(entry: dict) -> str:
    return f"{entry['mean']:.3f} ({entry['min']:.3f}-{entry['max']:.3f})"


def _count_cell(entry: dict) -> str:
    low, high = entry["ci95"]
    return f"{entry['correct']}/{entry['total']} [{100 * low:.1f}%, {100 * high:.1f}%]"


def write_seeds_report(out: Path | str, seeds: list[int]) -> dict:
    """Aggregate the seeds' runs in `out` and write `seeds.json` and `seeds.md` there (each atomically); returns the
    record."""
    record = aggregate(out, seeds)
    write_atomic(Path(out) / "seeds.json", json.dumps(record, indent=1) + "\n")
    write_atomic(Path(out) / "seeds.md", seeds_markdown(record))
    return record


__all__ = ["aggregate", "seed_dir", "seeds_markdown", "write_seeds_report"]
