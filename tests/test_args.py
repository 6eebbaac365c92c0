"""kg2tool.train.args: the training commands' recipe + flags (through kg2tool.common.config), their short and full
help, the label language taken from the dataset, and the resolved config saved in the output folder."""

import json
import subprocess
import sys

import pytest
import yaml

from kg2tool.cli import main


def help_text(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    assert info.value.code in (0, None)
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "command, own",
    [("pretrain", "--model_preset"), ("sft", "--random_name_rows"), ("dpo", "--balance_rejection_types")],
)
def test_help_is_short_with_kg2tools_flags_first_and_help_all_lists_everything(capsys, command, own):
    pytest.importorskip("transformers")
    if command != "pretrain":
        pytest.importorskip("trl")
    short = help_text(capsys, command, "--help")
    assert 40 < len(short.splitlines()) < 200, len(short.splitlines())
    assert short.index(own) < short.index("--output_dir") < short.index("--seed")  # kg2tool's own flags first
    for flag in ("--config", "--max_steps", "--learning_rate", "--per_device_train_batch_size", "--help-all"):
        assert flag in short
    assert "--adam_beta1" not in short and "--lang" in short
    full = help_text(capsys, command, "--help-all")
    assert len(full.splitlines()) > 500 and "--adam_beta1" in full and own in full


def test_top_level_and_synth_help_import_no_torch():
    code = (
        "import sys\nfrom kg2tool.cli import main\n"
        "for argv in (['--help'], ['synth', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "print(sorted(m for m in ('torch', 'transformers', 'trl') if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "[]"


def test_recipe_errors_name_the_file_and_the_key(tmp_path, capsys):
    pytest.importorskip("transformers")
    bad = tmp_path / "bad.yaml"
    bad.write_text("max_step: 3\n")
    assert main(["pretrain", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: unknown field 'max_step' (did you mean 'max_steps'?)" in err
    bad.write_text("lr_scheduler_type: sideways\n")
    assert main(["pretrain", "--config", str(bad)]) == 3
    assert f"{bad}: lr_scheduler_type must be one of" in capsys.readouterr().err


@pytest.fixture
def dataset(tmp_path):
    """A dataset folder as far as parsing looks at it: the card's language and the recorded graph."""
    data = tmp_path / "data"
    data.mkdir()
    graph = tmp_path / "g.ttl"
    graph.write_text("<http://e/a> <http://e/b> <http://e/c> .\n")
    (data / "README.md").write_text("---\nlanguage:\n- de\n---\n# card\n")
    (data / "validation_report.json").write_text(json.dumps({"graph": {"files": [str(graph)]}}))
    return data, graph


def test_sft_takes_the_label_language_from_the_dataset_and_saves_its_config(dataset, tmp_path):
    pytest.importorskip("trl")
    from kg2tool.commands.finetune import save_stage_config
    from kg2tool.common.files import file_sha256
    from kg2tool.train.finetune import parse_stage
    from kg2tool.train.sft import KgSFTConfig

    data, graph = dataset
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"model_name_or_path: m\ndataset_name: {data}\nlearning_rate: 0.001\nmax_steps: 50\n")
    argv = ["--config", str(recipe), "--output_dir", str(tmp_path / "run"), "--max_steps", "7", "--use_cpu", "true"]
    setup = parse_stage(KgSFTConfig, argv, prog="test")
    assert setup.lang == "de"  # from the card: the dataset was made with --lang de
    assert (setup.training.learning_rate, setup.training.max_steps) == (0.001, 7)  # the flag wins over the file
    assert parse_stage(KgSFTConfig, [*argv, "--lang", "fr"], prog="test").lang == "fr"
    (tmp_path / "run").mkdir()
    save_stage_config(setup, "sft")
    saved = yaml.safe_load((tmp_path / "run" / "kg2tool_config.yaml").read_text())
    assert saved["command"] == "sft" and saved["lang"] == "de"
    assert saved["graphs"] == [{"path": str(graph), "sha256": file_sha256(graph)}]
    assert saved["config"]["training"]["max_steps"] == 7 and saved["config"]["script"]["dataset_name"] == str(data)
    assert saved["config"]["model"]["model_name_or_path"] == "m" and "random_name_rows" in saved["config"]["kg2tool"]
