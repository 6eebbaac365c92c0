"""`kg2tool demo`: graph -> data -> pretrain -> SFT -> DPO, with an evaluation on the held-out test split after each
training stage, and one report of the whole run.

Design choices:
- Each stage is the real command (`kg2tool synth`, `pretrain`, `sft`, `dpo`, `eval`) called in-process with flags,
  so the demo exercises exactly what a user runs, and every stage's own outputs (reports, logs, checkpoints) are
  kept under `--out`: `data/`, `pretrain/`, `sft/`, `dpo/`, `eval-<stage>/`.
- The pipeline file (YAML, `examples/demo.yaml`) names the stage recipes and per-stage flag overrides. String
  values may use `{graph}`, `{out}`, `{data}`, `{pretrain}`, `{sft}`, `{dpo}`, `{seed}`.
- A stage whose output is complete (its report file exists) is skipped on a rerun with `--resume`, and the stage a
  kill interrupted continues with its own resume (synth's finished shards, a training stage's last complete
  checkpoint, eval's saved generations), so an interrupted demo ends with the report an uninterrupted one writes;
  without `--resume` a non-empty `--out` is refused.
- The report: `report.json` `{stage: {category_or_metric: score}}` (fractions; `multi_step_exec` for executable
  multi-step accuracy), `report.md` (that table, then counts with 95% Wilson intervals, and stage times),
  `report.png` (grouped bars); `run.json` keeps timings, the resolved commands and the intervals.
- `questions` (`kg2tool demo --questions FILE`): after each stage's eval, `kg2tool eval --questions FILE` scores the
  model on questions people wrote (`eval-<stage>-questions/`); report.json gets its `questions_*` scores.
- Learning curves: each training stage's logged losses (Trainer's `trainer_state.json`, from the stage folder or its
  last checkpoint) go to `curves.json` (`{stage: {metric: [[step, value], ...]}}`) and `curves.png`.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common.errors import PARTIAL, InputError, Kg2ToolError, OutputError, UsageError
from .evaluation.demo_plots import collect_curves, plot, plot_curves
from .evaluation.report import interval_cells, markdown_table, score_keys

STAGES = ("pretrain", "sft", "dpo")
REPORT_KEYS = ("simple", "multiple", "parallel", "parallel_multiple", "irrelevance", "multi_step_exec",
               "multi_turn_exec", "exec_call_validity", "exec_within_gold_steps", "stepwise_first_call",
               "stepwise_later_call", "stepwise_answer")  # fmt: skip


@dataclass
class DemoPlan:
    """The pipeline file, parsed.

    Parameters:
        synth: flags for `kg2tool synth` (mapping of flag name to value; lists repeat the flag's values).
        pretrain, sft, dpo: `{"recipe": PATH, "args": {flag: value}}` for each training stage.
        eval: flags for `kg2tool eval` (e.g. `limit`, `max_new_tokens`, `batch_size`); a key named after a stage
            holds that stage's own overrides (`pretrain: {stepwise: false}`), `questions` the question-file runs',
            `constrained` the stages evaluated a second time with `--constrain copy` (report rows `<stage>-copy`).
    """

    synth: dict[str, Any] = field(default_factory=dict)
    pretrain: dict[str, Any] = field(default_factory=dict)
    sft: dict[str, Any] = field(default_factory=dict)
    dpo: dict[str, Any] = field(default_factory=dict)
    eval: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str) -> DemoPlan:
        """Read a pipeline file (YAML); unknown top-level keys are a UsageError naming the file."""
        from .train.args import load_yaml

        data = load_yaml(path)
        unknown = sorted(set(data) - {"synth", "pretrain", "sft", "dpo", "eval"})
        if unknown:
            raise UsageError(f"unknown section(s) in {path}: {', '.join(unknown)}")
        for name, value in data.items():
            if not isinstance(value, dict):
                raise InputError(f"{path}: section {name!r} must be a mapping")
        for stage in STAGES:
            section = data.get(stage, {})
            extra = sorted(set(section) - {"recipe", "args"})
            if extra:
                raise UsageError(f"{path}: section {stage!r} takes `recipe` and `args`, not {', '.join(extra)}")
            if "recipe" not in section:
                raise InputError(f"{path}: section {stage!r} needs a `recipe` (e.g. {stage}/tiny.yaml)")
        for key in (*STAGES, "questions"):
            if not isinstance(data.get("eval", {}).get(key, {}), dict):
                raise InputError(f"{path}: eval.{key} must be a mapping of flags for that evaluation")
        constrained = data.get("eval", {}).get("constrained", [])
        if not isinstance(constrained, list) or not set(constrained) <= set(STAGES):
            raise InputError(f"{path}: eval.constrained must be a list of stages ({', '.join(STAGES)}), got {constrained!r}")
        return cls(**data)


def cli_flags(values: dict[str, Any], context: dict[str, str]) -> list[str]:
    """Flags for the argparse commands (synth, eval): `max_new_tokens` -> `--max-new-tokens`, `n` -> `-n`; `True` ->
    bare flag; `False`/None -> omitted."""
    out: list[str] = []
    for key, value in values.items():
        name = ("-" + key) if len(key) == 1 else "--" + key.replace("_", "-")
        if value is not False and value is not None:  # True: a bare flag
            items = [] if value is True else value if isinstance(value, list) else [value]
            out += [name, *(str(v).format(**context) for v in items)]
    return out


def train_flags(values: dict[str, Any], context: dict[str, str]) -> list[str]:
    """Flags for the training commands (TRL/TrainingArguments names, kept as written)."""
    out: list[str] = []
    for key, value in values.items():
        items = value if isinstance(value, list) else [value]
        rendered = [("true" if item else "false") if isinstance(item, bool) else json.dumps(item)
                    if isinstance(item, dict) else str(item).format(**context) for item in items]  # fmt: skip
        out += [f"--{key}", *rendered]
    return out


@dataclass
class StageRun:
    """One command of the demo: its argv, the file that marks it done, its time, whether it was skipped."""

    name: str
    argv: list[str]
    done_marker: Path
    seconds: float | None = None
    skipped: bool = False


class StageFailed(Kg2ToolError):
    """A stage's command failed: its own message is already printed; the demo exits with the stage's code."""

    def __init__(self, name: str, argv: list[str], code: int):
        super().__init__(f"stage {name} failed (exit code {code}): kg2tool {shlex.join(argv)}")
        self.exit_code = code if code in (2, 3, 4, 5, 6, 130) else 1


def _run(run_command: Callable[[list[str]], int], name: str, argv: list[str]) -> None:
    try:
        code = run_command(argv)
    except SystemExit as exc:  # argparse rejected a flag of the pipeline file
        code = exc.code if isinstance(exc.code, int) else 2
    if code == PARTIAL and name == "synth":  # a complete dataset of fewer rows than asked: train on what was made
        print("demo: synth made fewer rows than asked (the graph ran out of distinct questions); going on",
              file=sys.stderr)  # fmt: skip
        return
    if code != 0:
        raise StageFailed(name, argv, code)


def check_demo_inputs(graph: list[str], out_dir: Path, resume: bool) -> None:
    """Refuse a non-empty `out_dir` (unless resuming) and graph files that do not exist."""
    if out_dir.exists() and any(out_dir.iterdir()) and not resume:
        raise OutputError(f"{out_dir} is not empty: pass --resume to continue a demo there, or choose another --out")
    for g in graph:
        if not Path(g).is_file():
            raise InputError(f"graph file not found: {g}")


def demo_context(graph: list[str], out_dir: Path, seed: int) -> dict[str, str]:
    """The placeholders of a plan (`{graph}`, `{out}`, `{data}`, `{pretrain}`, `{sft}`, `{dpo}`, `{seed}`): where
    each stage of the demo in `out_dir` writes."""
    return {
        "graph": graph[0],
        "out": str(out_dir),
        "data": str(out_dir / "data"),
        "pretrain": str(out_dir / "pretrain"),
        "sft": str(out_dir / "sft"),
        "dpo": str(out_dir / "dpo"),
        "seed": str(seed),
    }


def training_run(stage: str, section: dict, graph: list[str], context: dict[str, str], previous: str | None,
                 seed: int) -> StageRun:  # fmt: skip
    """The `kg2tool <stage> --config RECIPE ...` run of a training stage, chained to the `previous` stage's
    output (pretraining reads the graph)."""
    args: dict[str, Any] = {"seed": seed}
    if stage == "pretrain":
        args["graph"] = list(graph)
    else:
        args["model_name_or_path"] = context[previous]
        args["dataset_name"] = context["data"]
    args.update(section.get("args", {}))
    args["output_dir"] = context[stage]
    return StageRun(
        stage,
        [stage, "--config", section["recipe"], *train_flags(args, context)],
        Path(context[stage]) / f"{stage}_report.json",
    )


def eval_run(stage: str, plan: DemoPlan, graph: list[str], context: dict[str, str], out_dir: Path,
             questions: str | None = None, constrained: bool = False) -> StageRun:  # fmt: skip
    """The `kg2tool eval` run scoring the model `stage` wrote, with the plan's eval settings and this stage's own
    overrides; with `questions`, on that file of questions (and synth's tool derivation options) instead of the
    dataset's test split; `constrained`: the test split again with `--constrain copy` (`eval-<stage>-copy/`)."""
    name = f"eval-{stage}-questions" if questions else f"eval-{stage}-copy" if constrained else f"eval-{stage}"
    source = {"data": context["data"]}
    if questions:
        source = {"questions": questions, **{k: plan.synth[k] for k in SYNTH_TO_EVAL if k in plan.synth}}
        source.setdefault("lexicon", str(Path(context["data"]) / "lexicon.yaml"))  # the words the model learned
    eval_args = {
        **{k: v for k, v in plan.eval.items() if k not in (*STAGES, "questions", "constrained")},
        **plan.eval.get(stage, {}),  # this stage's own overrides, e.g. `pretrain: {stepwise: false}`
        **(plan.eval.get("questions", {}) if questions else {}),  # the question-file run's, e.g. `offer: related`
        "model": context[stage],
        **source,
        **({"constrain": "copy"} if constrained else {}),
        "out": str(out_dir / name),
    }
    return StageRun(
        name,
        ["eval", *[x for g in graph for x in ("--graph", g)], *cli_flags(eval_args, context), "--overwrite"],
        out_dir / name / "summary.json",
    )


QUESTION_KEYS = ("hits@1", "exact_match", "f1", "call_validity", "first_call")  # shown as questions_<key> in the report
SYNTH_TO_EVAL = ("min_support", "lexicon", "lang")  # synth's tool derivation options the questions eval repeats


def plan_runs(graph: list[str], out_dir: Path, plan: DemoPlan, context: dict[str, str], seed: int,
              questions: str | None = None) -> list[StageRun]:  # fmt: skip
    """Every command of the demo in order: synth, then each training stage followed by its eval(s)."""
    synth_args = {"seed": seed, **plan.synth, "out": context["data"], "no_progress": True}
    runs = [
        StageRun(
            "synth",
            ["synth", *[x for g in graph for x in ("--graph", g)], *cli_flags(synth_args, context)],
            out_dir / "data" / "validation_report.json",
        )
    ]
    previous = None
    for stage in STAGES:
        runs.append(training_run(stage, getattr(plan, stage), graph, context, previous, seed))
        runs.append(eval_run(stage, plan, graph, context, out_dir))
        if stage in plan.eval.get("constrained", []):
            runs.append(eval_run(stage, plan, graph, context, out_dir, constrained=True))
        if questions:
            runs.append(eval_run(stage, plan, graph, context, out_dir, questions))
        previous = stage
    return runs


def resume_flags(run: StageRun, context: dict[str, str]) -> list[str]:
    """The flags that make an unfinished stage continue where a killed demo left it: synth and eval take their own
    `--resume` (finished shards, saved generations), a training stage `--resume true` from its last complete
    checkpoint (it starts over when a kill came before the first one finished), or `--overwrite true` when its
    folder holds no checkpoint at all."""
    if run.name == "synth" or run.name.startswith("eval-"):
        return ["--resume"]
    stage_dir = Path(context[run.name])
    if stage_dir.exists() and any(stage_dir.glob("checkpoint-*")):
        return ["--resume", "true"]
    return ["--overwrite", "true"] if stage_dir.exists() else []


def execute_runs(runs: list[StageRun], run_command: Callable[[list[str]], int], context: dict[str, str],
                 resume: bool) -> None:  # fmt: skip
    """Run each command in turn, timing it. With `resume`, a finished one (its done marker exists) is skipped and
    an unfinished one continues from what it saved (`resume_flags`), so the demo ends with the report of an
    uninterrupted run."""
    for run in runs:
        if resume and run.done_marker.exists():
            run.skipped = True
            print(f"== {run.name}: done already ({run.done_marker}), skipped", flush=True)
            continue
        if resume:
            run.argv = [*run.argv, *resume_flags(run, context)]
        print(f"== {run.name}: kg2tool {shlex.join(run.argv)}", flush=True)
        t0 = time.time()
        _run(run_command, run.name, run.argv)
        run.seconds = round(time.time() - t0, 1)
        print(f"== {run.name}: {run.seconds:.0f} s", flush=True)


def run_demo(
    graph: list[str],
    out: str,
    plan: DemoPlan,
    run_command: Callable[[list[str]], int],
    *,
    seed: int = 0,
    resume: bool = False,
    questions: str | None = None,
) -> dict[str, Any]:
    """Run the pipeline into `out`; returns `{"report": ..., "run": ...}` (also written as files).

    `run_command(argv)` runs one `kg2tool` command in-process and returns its exit code (`kg2tool demo` passes the
    CLI's own dispatcher); taking it as a parameter keeps this module below the command layer."""
    out_dir = Path(out)
    check_demo_inputs(graph, out_dir, resume)
    out_dir.mkdir(parents=True, exist_ok=True)
    context = demo_context(graph, out_dir, seed)
    if questions and not Path(questions).is_file():
        raise InputError(f"--questions {questions}: no such file")
    runs = plan_runs(graph, out_dir, plan, context, seed, questions)
    started = time.time()
    execute_runs(runs, run_command, context, resume)
    report = collect_report(out_dir, report_rows(plan))
    info = {
        "graph": graph,
        "seed": seed,
        "total_seconds": round(time.time() - started, 1),
        "stages": [
            {"name": r.name, "command": "kg2tool " + shlex.join(r.argv), "seconds": r.seconds, "skipped": r.skipped}
            for r in runs
        ],
    }
    info["intervals"] = {stage: interval_cells(out_dir, stage) for stage in report}
    write_report(out_dir, report, info)
    return {"report": report, "run": info}


def report_rows(plan: DemoPlan) -> list[str]:
    """The report's rows: each training stage, followed by `<stage>-copy` where the plan also evaluates it with
    copy-constrained decoding (`eval: {constrained: [sft]}`)."""
    constrained = plan.eval.get("constrained", [])
    return [row for stage in STAGES for row in ([stage, f"{stage}-copy"] if stage in constrained else [stage])]


def collect_report(out_dir: Path, stages) -> dict[str, dict[str, float]]:
    """`{row: {score: value}}` from each row's `eval-<row>/summary.json` (`report_rows`), the main categories
    first."""
    report: dict[str, dict[str, float]] = {}
    for stage in stages:
        summary = json.loads((out_dir / f"eval-{stage}" / "summary.json").read_text(encoding="utf-8"))
        ordered = {k: summary[k] for k in REPORT_KEYS if k in summary}
        ordered.update({k: v for k, v in summary.items() if k not in ordered})
        asked = out_dir / f"eval-{stage}-questions" / "summary.json"
        if asked.is_file():
            scores = json.loads(asked.read_text(encoding="utf-8"))
            ordered.update({f"questions_{k}": scores[k] for k in QUESTION_KEYS if k in scores})
        report[stage] = ordered
    return report


def markdown(report: dict[str, dict[str, float]], info: dict[str, Any]) -> str:
    """`report.md`: the score table per stage, each step's seconds and the total."""
    keys = score_keys(report)
    lines = [
        f"# kg2tool demo: {', '.join(Path(g).name for g in info['graph'])}",
        "",
        "Held-out test split (no topic entity + relation path shared with train). Scores are fractions.",
        "",
        *markdown_table(report, keys, lambda scores, k: f"{scores[k]:.3f}" if k in scores else ""),
    ]
    if cells := {s: c for s, c in (info.get("intervals") or {}).items() if c}:
        shown = [k for k in keys if any(k in c for c in cells.values())]
        lines += ["", "Counts and 95% Wilson intervals:", "", *markdown_table(cells, shown, lambda c, k: c.get(k, ""))]
    lines += ["", "| step | seconds |", "|---|---|"]
    for stage in info["stages"]:
        seconds = "skipped (done)" if stage["skipped"] else f"{stage['seconds']:.0f}"
        lines.append(f"| {stage['name']} | {seconds} |")
    lines += ["", f"Total: {info['total_seconds']:.0f} s.", "", "Learning curves: curves.png (data: curves.json).", ""]
    return "\n".join(lines)


def write_report(out_dir: Path, report: dict, info: dict) -> None:
    """Write report.json, run.json, report.md, report.png, curves.json and curves.png into `out_dir`."""
    from .common.files import write_atomic

    write_atomic(out_dir / "report.json", json.dumps(report, indent=2) + "\n")
    write_atomic(out_dir / "run.json", json.dumps(info, indent=2) + "\n")
    write_atomic(out_dir / "report.md", markdown(report, info))
    plot(report, out_dir / "report.png", REPORT_KEYS)
    curves = collect_curves(out_dir, STAGES)
    write_atomic(out_dir / "curves.json", json.dumps(curves) + "\n")
    plot_curves(curves, out_dir / "curves.png")
