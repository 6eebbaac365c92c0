"""`kg2tool publish`, offline: the dry run, the upload's arguments (HfApi's network methods are patched: they are
the boundary, not the thing under test), token handling, and the folder loading under HF_HUB_OFFLINE=1."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest
from conftest import EXAMPLE

from kg2tool.cli import main

TOKEN = "hf_TESTtokenDoNotPrint0123456789abcd"


@pytest.fixture(scope="module")
def wiki(tmp_path_factory):
    out = tmp_path_factory.mktemp("publish") / "wiki"
    assert (
        main(["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "200", "--seed", "0", "--no-progress"]) == 0
    )
    return out


@pytest.fixture
def hub(monkeypatch, wiki):
    """Record the Hub calls; `fail` maps a method name to the exception it raises."""
    from huggingface_hub import DatasetCard, HfApi

    calls: list[tuple[str, tuple, dict]] = []
    fail: dict[str, Exception] = {}
    (current,) = (wiki / "sft").glob("train-*.parquet")  # already on the Hub: kept, not deleted
    remote = ["README.md", "sft/train-0000000000000000.parquet", f"sft/{current.name}", "notes.txt"]

    def record(name, result=None):
        def method(self, *args, **kwargs):
            calls.append((name, args, {**kwargs, "_token": getattr(self, "token", None)}))
            if name in fail:
                raise fail[name]
            return result

        return method

    class Info:
        commit_url = "https://huggingface.co/datasets/me/wiki/commit/abc"

    monkeypatch.setattr(HfApi, "create_repo", record("create_repo"))
    monkeypatch.setattr(HfApi, "list_repo_files", record("list_repo_files", remote))
    monkeypatch.setattr(HfApi, "create_commit", record("create_commit", Info()))
    monkeypatch.setattr(HfApi, "upload_folder", record("upload_folder"))
    monkeypatch.setattr(DatasetCard, "validate", record("validate"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    return calls, fail


def test_dry_run_lists_files_and_makes_no_call(wiki, hub, capsys):
    calls, _ = hub
    assert main(["publish", str(wiki), "--repo-id", "me/wiki", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "https://huggingface.co/datasets/me/wiki" in out and "card: ok" in out
    files = sorted(str(p.relative_to(wiki)) for p in wiki.rglob("*") if p.is_file())
    assert len(files) > 10 and f"would upload {len(files)} files" in out
    for rel in files:
        line = next(line for line in out.splitlines() if line.strip().startswith(rel + " "))
        assert line.split()[-1] in ("B", "KiB", "MiB")
    assert calls == []


def test_upload_is_one_commit_with_the_right_arguments(wiki, hub, monkeypatch, capsys):
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    calls, _ = hub
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    assert main(["publish", str(wiki), "--repo-id", "me/wiki", "--private"]) == 0
    names = [c[0] for c in calls]
    assert names == ["validate", "create_repo", "list_repo_files", "create_commit"]
    _, args, kwargs = calls[1]
    assert args == ("me/wiki",) and kwargs["repo_type"] == "dataset" and kwargs["exist_ok"] is True
    assert kwargs["private"] is True and kwargs["_token"] == TOKEN
    _, args, kwargs = calls[3]
    assert args[0] == "me/wiki" and kwargs["repo_type"] == "dataset" and kwargs["commit_message"]
    ops = list(args[1])
    adds = {op.path_in_repo: op for op in ops if isinstance(op, CommitOperationAdd)}
    files = {str(p.relative_to(wiki)) for p in wiki.rglob("*") if p.is_file()}
    assert set(adds) == files
    assert all(os.path.samefile(op.path_or_fileobj, wiki / p) for p, op in adds.items())
    deletes = [op.path_in_repo for op in ops if isinstance(op, CommitOperationDelete)]
    assert deletes == ["sft/train-0000000000000000.parquet"]  # stale shard only; not README, not other files
    out = capsys.readouterr()
    assert "published" in out.out and TOKEN not in out.out + out.err


def test_token_env(wiki, hub, monkeypatch, capsys):
    calls, _ = hub
    monkeypatch.setenv("MY_TOKEN", TOKEN)
    assert main(["publish", str(wiki), "--repo-id", "me/wiki", "--token-env", "MY_TOKEN"]) == 0
    assert calls[1][2]["_token"] == TOKEN and calls[1][2]["private"] is None
    assert main(["publish", str(wiki), "--repo-id", "me/wiki", "--token-env", "UNSET_VAR_X"]) == 2
    assert "UNSET_VAR_X" in capsys.readouterr().err


@pytest.mark.parametrize(
    "method, exc, code, words",
    [
        ("create_commit", RuntimeError(f"403 Forbidden for token {TOKEN}"), 4, "upload failed"),
        ("create_repo", ConnectionError(f"cannot connect (Authorization: Bearer {TOKEN})"), 4, "network failure"),
        ("validate", ValueError(f"bad yaml, sent with {TOKEN}"), 3, "rejects the card"),
    ],
)
def test_errors_never_show_the_token(wiki, hub, monkeypatch, capsys, caplog, method, exc, code, words):
    _, fail = hub
    fail[method] = exc
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    caplog.set_level(logging.DEBUG)
    assert main(["publish", str(wiki), "--repo-id", "me/wiki"]) == code
    out = capsys.readouterr()
    assert words in out.err and "***" in out.err and "Traceback" not in out.err
    assert TOKEN not in out.out + out.err + caplog.text


def test_network_error_type(wiki, hub, monkeypatch, capsys):
    import httpx

    _, fail = hub
    fail["create_repo"] = httpx.ConnectError("[Errno -2] Name or service not known")
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    assert main(["publish", str(wiki), "--repo-id", "me/wiki"]) == 4
    assert "cannot reach the Hugging Face Hub" in capsys.readouterr().err


def run_cli(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "kg2tool.cli", *map(str, args)], capture_output=True, text=True, env=env
    )


def test_missing_token_and_bad_input_in_a_fresh_process(wiki, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HOME=str(tmp_path / "hf"), HF_HUB_OFFLINE="1")  # no stored login
    res = run_cli("publish", wiki, "--repo-id", "me/wiki", env=env)
    assert res.returncode == 2 and "no Hugging Face token" in res.stderr and "Traceback" not in res.stderr
    res = run_cli("publish", tmp_path / "nope", "--repo-id", "me/wiki", "--dry-run", env=env)
    assert res.returncode == 3 and "no such dataset folder" in res.stderr
    res = run_cli("publish", wiki, "--repo-id", "not a/valid/id", "--dry-run", env=env)
    assert res.returncode == 2 and "--repo-id" in res.stderr


def test_hidden_files_are_not_uploaded(wiki, tmp_path):
    import shutil

    from kg2tool.hub.publish import plan_upload

    copy = tmp_path / "wiki"
    shutil.copytree(wiki, copy)
    (copy / ".cache").mkdir()
    (copy / ".cache" / "lock").write_text("x")
    (copy / "sft" / ".train.parquet.tmp").write_text("x")
    plan = plan_upload(copy, "me/wiki")
    assert [p for p, _ in plan.files] == sorted(str(p.relative_to(wiki)) for p in wiki.rglob("*") if p.is_file())


def test_invalid_card_blocks_the_dry_run(wiki, tmp_path, capsys):
    import shutil

    copy = tmp_path / "wiki"
    shutil.copytree(wiki, copy)
    next((copy / "dpo").glob("train-*.parquet")).unlink()
    assert main(["publish", str(copy), "--repo-id", "me/wiki", "--dry-run"]) == 3
    assert "does not exist" in capsys.readouterr().err


def test_folder_loads_offline(wiki, tmp_path):
    code = (
        "import sys; from datasets import load_dataset\n"
        "for config in ('sft', 'dpo'):\n"
        "    ds = load_dataset(sys.argv[1], config)\n"
        "    print(config, {s: len(ds[s]) for s in ds})\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    res = subprocess.run([sys.executable, "-c", code, str(wiki)], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("sft {'train'") and lines[1].startswith("dpo {'train'")
    assert sum(int(x.split(": ")[1]) for x in lines[0].split("{")[1].rstrip("}").split(", ")) == 200
