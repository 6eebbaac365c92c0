"""`--resume` of `kg2tool pretrain`, `kg2tool sft` and `kg2tool dpo` (`kg2tool.train.runs.check_run_dir`, the copy
task's checkpointed generator in `kg2tool.train.copy_task`): a run resumed from a checkpoint ends with the same
weights, tensor for tensor, as an uninterrupted run. Full fine-tuning with the auxiliary copy loss, LoRA, DPO and
pretraining with the copy loss. The fast tests resume from a checkpoint an uninterrupted run left behind (the code
path of a resume, without a kill); the slow ones kill a `python -m kg2tool` process with SIGKILL mid-run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.train
torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("peft")

TINY = {"hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
        "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16,
        "shared_expert_intermediate_size": 32}  # fmt: skip

# what each stage adds to the common flags: the copy loss and the recipes' `batch_rebalance` sampler (full SFT),
# LoRA with dropout (its RNG is resumed too) and gradient accumulation, DPO on the preference config (full:
# a frozen reference copy; LoRA: the adapter-disabled model as reference)
STAGES = {
    "sft": ["--fused_lm_head", "false", "--copy_aux_weight", "0.5", "--first_turn_rows", "10",
            "--train_sampling_strategy", "batch_rebalance"],  # fmt: skip
    "sft-lora": ["--fused_lm_head", "false", "--use_peft", "true", "--lora_r", "4", "--lora_alpha", "8",
                 "--lora_dropout", "0.1", "--gradient_accumulation_steps", "2",
                 "--train_sampling_strategy", "batch_rebalance"],  # fmt: skip
    "dpo": ["--dataset_config", "dpo", "--beta", "0.1"],
    "dpo-lora": ["--dataset_config", "dpo", "--beta", "0.1", "--use_peft", "true", "--lora_r", "4", "--lora_alpha", "8"],
}


def flags(**kw) -> list[str]:
    return [x for k, v in kw.items() for x in (f"--{k}", str(v))]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory, small_graph_path) -> Path:
    from kg2tool.cli import main

    out = tmp_path_factory.mktemp("resume") / "data"
    assert main(["synth", "--graph", str(small_graph_path), "--out", str(out), "-n", "200", "--seed", "3",
                 "--no-progress"]) == 0  # fmt: skip
    return out


def pretrain_argv(graph: Path, data: Path, out: Path, **extra) -> list[str]:
    args = dict(graph=graph, dataset_name=data, output_dir=out, model_overrides=json.dumps(TINY), vocab_size=600,
                max_length=128, max_steps=1, per_device_train_batch_size=2, learning_rate=0.003, logging_steps=1,
                save_strategy="no", use_cpu="true", report_to="none", disable_tqdm="true", sample_prompt="",
                spike_warmup_steps=2, torch_num_threads=1, seed=0)  # fmt: skip
    args.update(extra)
    return ["pretrain", *flags(**args)]


@pytest.fixture(scope="module")
def base(tmp_path_factory, small_graph_path, data_dir) -> Path:
    """A tiny MoE built from its config by a one-step `kg2tool pretrain` (tokenizer, chat template, weights)."""
    from kg2tool.cli import main

    out = tmp_path_factory.mktemp("resume") / "base"
    assert main(pretrain_argv(small_graph_path, data_dir, out)) == 0
    return out


def stage_argv(stage: str, base: Path, data: Path, out: Path, max_steps: int) -> list[str]:
    command = stage.split("-")[0]
    common = flags(model_name_or_path=base, dataset_name=data, output_dir=out, max_length=512, max_steps=max_steps,
                   per_device_train_batch_size=2, learning_rate=0.01, logging_steps=1, save_steps=2,
                   eval_strategy="no", use_cpu="true", bf16="false", report_to="none", disable_tqdm="true",
                   torch_num_threads=1, seed=0, sample="false")  # fmt: skip
    return [command, *common, *STAGES[stage]]


def weights(out: Path) -> dict:
    from safetensors.torch import load_file

    files = sorted(out.glob("*.safetensors"))
    assert files, f"no weights in {out}"
    return {f"{f.name}:{k}": v for f in files for k, v in load_file(str(f)).items()}


def assert_same_weights(a: Path, b: Path) -> None:
    wa, wb = weights(a), weights(b)
    assert wa.keys() == wb.keys()
    differ = [k for k in wa if not torch.equal(wa[k], wb[k])]
    assert not differ, f"{len(differ)} of {len(wa)} tensors differ after resume, e.g. {differ[:3]}"


# ------------------------------------------------------------------------------------------ which checkpoint
def write_checkpoint(out: Path, step: int, state: str | None) -> Path:
    folder = out / f"checkpoint-{step}"
    folder.mkdir(parents=True)
    if state is not None:
        (folder / "trainer_state.json").write_text(state)
    return folder


def config(out: Path, **kw):
    from types import SimpleNamespace

    base = dict(output_dir=str(out), resume=True, resume_from_checkpoint=None, overwrite=False, max_steps=10)
    return SimpleNamespace(**{**base, **kw})


def test_resume_skips_a_checkpoint_a_kill_cut_short(tmp_path, capsys):
    from kg2tool.train.runs import check_run_dir

    out = tmp_path / "run"
    write_checkpoint(out, 2, json.dumps({"global_step": 2}))
    write_checkpoint(out, 4, '{"global_st')  # killed while Trainer wrote its last file
    assert check_run_dir(config(out)) == str(out / "checkpoint-2")
    assert "skipping" in capsys.readouterr().out


def test_resume_with_no_complete_checkpoint_starts_over_and_a_finished_run_has_nothing_to_do(tmp_path, capsys):
    from kg2tool.common.errors import InputError, NothingToDoError, OutputError
    from kg2tool.train.runs import check_run_dir

    out = tmp_path / "run"
    write_checkpoint(out, 2, None)
    assert check_run_dir(config(out)) is None
    assert "starting the run over" in capsys.readouterr().out
    with pytest.raises(OutputError, match="already holds a run"):  # an incomplete checkpoint is still a run
        check_run_dir(config(out, resume=False))
    with pytest.raises(InputError, match="does not exist"):
        check_run_dir(config(tmp_path / "nowhere"))
    write_checkpoint(out, 10, json.dumps({"global_step": 10}))
    # killed while saving the final model: the report is missing, so the run resumes (to save again) ...
    assert check_run_dir(config(out), finished_marker="sft_report.json") == str(out / "checkpoint-10")
    (out / "sft_report.json").write_text("{}")
    with pytest.raises(NothingToDoError):  # ... and once it is written there is nothing left to do
        check_run_dir(config(out), finished_marker="sft_report.json")


# ----------------------------------------------------------------------------- resume from a left checkpoint
@pytest.mark.parametrize("stage", list(STAGES))
def test_resume_from_a_checkpoint_gives_the_uninterrupted_weights(stage, base, data_dir, tmp_path):
    from kg2tool.cli import main

    full, resumed = tmp_path / "full", tmp_path / "resumed"
    assert main(stage_argv(stage, base, data_dir, full, 4)) == 0
    shutil.copytree(full / "checkpoint-2", resumed / "checkpoint-2")
    assert main([*stage_argv(stage, base, data_dir, resumed, 4), "--resume", "true"]) == 0
    report = json.loads((resumed / f"{stage.split('-')[0]}_report.json").read_text())
    assert report["resumed_from"].endswith("checkpoint-2") and report["global_step"] == 4
    assert_same_weights(full, resumed)

    def logged(out):  # every logged figure but the run's own averages and times
        return [{k: v for k, v in h.items() if not k.startswith("train_")} for h in
                json.loads((out / "trainer_state.json").read_text())["log_history"]]  # fmt: skip

    assert logged(resumed) == logged(full)  # losses, and TRL's token count continued (RestoreTokenCount)


def test_pretrain_with_the_copy_loss_resumes_exactly(small_graph_path, data_dir, tmp_path):
    """The auxiliary copy loss draws its segments from its own generator, saved in each checkpoint."""
    from kg2tool.cli import main

    def argv(out):
        return pretrain_argv(small_graph_path, data_dir, out, max_steps=4, save_strategy="steps", save_steps=2,
                             copy_aux_weight=0.5, copy_warmup_steps=2)  # fmt: skip

    full, resumed = tmp_path / "full", tmp_path / "resumed"
    assert main(argv(full)) == 0
    assert (full / "checkpoint-2" / "copy_task_rng.pth").is_file()
    shutil.copytree(full / "prepared", resumed / "prepared")
    shutil.copytree(full / "checkpoint-2", resumed / "checkpoint-2")
    shutil.copy(full / "copy_warmup.json", resumed / "copy_warmup.json")  # written by the run before the kill
    assert main([*argv(resumed), "--resume", "true"]) == 0
    assert_same_weights(full, resumed)

    def report(out):
        data = json.loads((out / "pretrain_report.json").read_text())
        return {k: v for k, v in data.items() if not k.endswith("seconds") and k not in ("resumed_from", "train_loss")}

    assert report(resumed) == report(full)  # the copy warm-up's history included


# --------------------------------------------------------------------------------------------- SIGKILL mid-run
def kill_after_first_checkpoint(argv: list[str], out: Path, timeout: float = 300) -> None:
    """Run `python -m kg2tool argv` and SIGKILL it once its first checkpoint is complete (before the run ends)."""
    proc = subprocess.Popen([sys.executable, "-m", "kg2tool", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.time() + timeout
    while time.time() < deadline and proc.poll() is None and not (out / "checkpoint-2" / "trainer_state.json").exists():
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run ended before it could be killed"


@pytest.mark.slow
@pytest.mark.parametrize("stage", list(STAGES))
def test_a_run_killed_with_sigkill_resumes_to_the_uninterrupted_weights(stage, base, data_dir, tmp_path):
    from kg2tool.cli import main

    full, killed = tmp_path / "full", tmp_path / "killed"
    assert main(stage_argv(stage, base, data_dir, full, 10)) == 0
    kill_after_first_checkpoint(stage_argv(stage, base, data_dir, killed, 10), killed)
    assert not (killed / f"{stage.split('-')[0]}_report.json").exists()
    res = subprocess.run([sys.executable, "-m", "kg2tool", *stage_argv(stage, base, data_dir, killed, 10),
                          "--resume", "true"], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    report = json.loads((killed / f"{stage.split('-')[0]}_report.json").read_text())
    assert "checkpoint-" in report["resumed_from"] and report["global_step"] == 10
    assert_same_weights(full, killed)


@pytest.mark.slow
def test_a_pretrain_killed_with_sigkill_resumes_to_the_uninterrupted_weights(small_graph_path, data_dir, tmp_path):
    from kg2tool.cli import main

    def argv(out):
        return pretrain_argv(small_graph_path, data_dir, out, max_steps=10, save_strategy="steps", save_steps=2,
                             copy_aux_weight=0.5, copy_warmup_steps=2)  # fmt: skip

    full, killed = tmp_path / "full", tmp_path / "killed"
    assert main(argv(full)) == 0
    kill_after_first_checkpoint(argv(killed), killed)
    res = subprocess.run([sys.executable, "-m", "kg2tool", *argv(killed), "--resume", "true"], capture_output=True,
                         text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads((killed / "pretrain_report.json").read_text())["global_step"] == 10
    assert_same_weights(full, killed)
