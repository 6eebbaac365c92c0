"""The demo's figures: the scores per stage as bars (`report.png`) and the training stages' learning curves
(`curves.json`, `curves.png`), drawn with matplotlib when it is installed (the `plot` extra)."""

from __future__ import annotations

import json
from pathlib import Path

# Logged training metrics drawn as learning curves, per stage, when present.
CURVE_KEYS = {
    "pretrain": ("lm_loss", "copy_loss"),
    "sft": ("lm_loss", "mean_token_accuracy"),
    "dpo": ("loss", "rewards/accuracies"),
}

def _pyplot(name: str):
    """matplotlib's pyplot on the Agg backend, or None (with a message naming the file not drawn)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not installed (`pip install 'kg2tool[plot]'`): no {name}", flush=True)
        return None
    return plt


def _save(plt, fig, path: Path) -> Path:
    """Write the figure to a temporary name, then rename it to `path`."""
    fig.tight_layout()
    from ..common.files import atomic_path

    try:
        with atomic_path(path, keep_suffix=True) as tmp:
            fig.savefig(tmp)
    finally:
        plt.close(fig)
    return path


def plot(report: dict[str, dict[str, float]], path: Path, keys_in_order) -> Path | None:
    """Bar chart of the scores per stage written to `path` (the scores of `keys_in_order` that some stage has);
    None when matplotlib is missing."""
    plt = _pyplot(path.name)
    if plt is None:
        return None
    keys = [k for k in keys_in_order if any(k in s for s in report.values())]
    width = 0.8 / max(1, len(report))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(keys) + 2), 3.6), dpi=120)
    for i, (stage, scores) in enumerate(report.items()):
        xs = [j + i * width for j in range(len(keys))]
        ax.bar(xs, [scores.get(k, 0.0) for k in keys], width, label=stage)
    ax.set_xticks([j + width * (len(report) - 1) / 2 for j in range(len(keys))])
    ax.set_xticklabels(keys, rotation=20, ha="right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("score (held-out test split)")
    ax.legend(fontsize=8)
    return _save(plt, fig, path)


def _trainer_state(stage_dir: Path) -> Path | None:
    """The stage's `trainer_state.json`: in the folder itself, else in its last checkpoint."""
    if (stage_dir / "trainer_state.json").is_file():
        return stage_dir / "trainer_state.json"
    if not stage_dir.is_dir():
        return None
    from transformers.trainer_utils import get_last_checkpoint

    last = get_last_checkpoint(str(stage_dir))
    state = Path(last) / "trainer_state.json" if last else None
    return state if state is not None and state.is_file() else None


def collect_curves(out_dir: Path, stages) -> dict[str, dict[str, list[list[float]]]]:
    """`{stage: {metric: [[step, value], ...]}}` from each stage's logged history (`CURVE_KEYS`)."""
    curves: dict[str, dict[str, list[list[float]]]] = {}
    for stage in stages:
        state = _trainer_state(out_dir / stage)
        if state is None:
            continue
        history = json.loads(state.read_text(encoding="utf-8")).get("log_history", [])
        series = {
            key: [[entry["step"], entry[key]] for entry in history if key in entry and "step" in entry]
            for key in CURVE_KEYS.get(stage, ("loss",))
        }
        curves[stage] = {k: v for k, v in series.items() if v}
    return curves


def plot_curves(curves: dict[str, dict[str, list[list[float]]]], path: Path) -> Path | None:
    """One panel of learning curves per stage written to `path`; None when there are none or no matplotlib."""
    stages = [s for s in curves if curves[s]]
    plt = _pyplot(path.name) if stages else None
    if plt is None:
        return None
    fig, axes = plt.subplots(1, len(stages), figsize=(4.2 * len(stages), 3.2), dpi=120, squeeze=False)
    for ax, stage in zip(axes[0], stages, strict=True):
        twin = None
        for i, (key, points) in enumerate(curves[stage].items()):
            target = ax if i == 0 else (twin := twin or ax.twinx())
            target.plot([p[0] for p in points], [p[1] for p in points], color=f"C{i}", label=key)
            target.set_ylabel(key, color=f"C{i}", fontsize=8)
        ax.set_title(stage, fontsize=9)
        ax.set_xlabel("step", fontsize=8)
    return _save(plt, fig, path)


__all__ = ["CURVE_KEYS", "collect_curves", "plot", "plot_curves"]
