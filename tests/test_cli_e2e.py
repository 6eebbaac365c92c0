"""End to end through the real console script: the issue's acceptance checks."""

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from checks import check_row
from conftest import EXAMPLE


def run_cli(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "kg2tool.cli", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*.parquet"))
    }


@pytest.fixture(scope="module")
def wiki_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("wiki")
    outs = []
    for name in ("a", "b"):
        res = run_cli("synth", "--graph", EXAMPLE, "--out", base / name, "-n", 600, "--seed", 7, "--no-progress")
        assert res.returncode == 0, res.stderr
        outs.append(base / name)
    return outs


def test_same_seed_gives_identical_files(wiki_runs):
    a, b = wiki_runs
    assert digest(a) and digest(a) == digest(b)
    assert (a / "validation_report.json").read_bytes() == (b / "validation_report.json").read_bytes()


def test_every_row_passes_independent_check(wiki_runs):
    from datasets import load_dataset

    from kg2tool.graph.build import load_graph
    from kg2tool.synth.tools.toolset import ToolSet

    ts = ToolSet.from_graph(load_graph([EXAMPLE]))
    ds = load_dataset(str(wiki_runs[0]), "sft")
    assert sum(len(ds[s]) for s in ds) == 600
    questions, keys = Counter(), {}
    patterns, cats = set(), set()
    for split in ds:
        for row in ds[split]:
            assert check_row(row, ts) == [], row["id"]
            # a conversation's question is all its user turns (missing_info rows share a first turn)
            questions["\n".join(m["content"] for m in row["messages"] if m["role"] == "user")] += 1
            keys.setdefault(split, set()).add((row["topic_entity"], tuple(row["relation_path"])))
            patterns.add(row["pattern"])
            cats.add(row["category"])
    assert max(questions.values()) == 1, "a question appears twice"
    assert not keys["train"] & keys["test"], "a test question shares topic entity and relation path with train"
    assert len(patterns) >= 9
    assert cats >= {"simple", "multiple", "parallel", "parallel_multiple", "irrelevance"}


def test_arguments_and_schemas_round_trip_exactly(wiki_runs):
    """No keys merged in from other rows (Arrow struct merging): compare with the rows as written."""
    import pyarrow.parquet as pq
    from datasets import load_dataset

    ds = load_dataset(str(wiki_runs[0]), "sft", split="train")
    (train_file,) = (wiki_runs[0] / "sft").glob("train-*.parquet")
    raw = pq.read_table(train_file).to_pylist()
    for loaded, stored in zip(ds, raw):
        assert loaded["tools"] == [json.loads(t) for t in stored["tools"]]
        assert loaded["messages"] == [json.loads(m) for m in stored["messages"]]
        for m in loaded["messages"]:
            if m["role"] == "user":
                assert set(m) == {"role", "content"}
            for c in m.get("tool_calls", []):
                assert isinstance(c["function"]["arguments"], dict)
                if loaded["pattern"] == "error_recovery":
                    continue  # its first call has a deliberate mistake (checked in test_synth)
                name = c["function"]["name"]
                schema = next(t for t in loaded["tools"] if t["function"]["name"] == name)
                assert set(c["function"]["arguments"]) <= set(schema["function"]["parameters"]["properties"])


def test_same_folder_name_different_content_loads_fresh(tmp_path, small_graph_path):
    """datasets caches local folders by base name; content-hashed file names keep loads correct."""
    from datasets import load_dataset

    ids = []
    for seed in (1, 2):
        out = tmp_path / f"run{seed}" / "data"
        res = run_cli("synth", "--graph", small_graph_path, "--out", out, "-n", 30, "--seed", seed, "--no-progress")
        assert res.returncode == 0, res.stderr
        ids.append(load_dataset(str(out), "sft", split="train")["messages"][0][0]["content"])
    assert ids[0] != ids[1]
    # rewritten in place with the other seed: the load must see the new rows
    out = tmp_path / "run1" / "data"
    run_cli("synth", "--graph", small_graph_path, "--out", out, "-n", 30, "--seed", 2, "--overwrite", "--no-progress")
    assert load_dataset(str(out), "sft", split="train")["messages"][0][0]["content"] == ids[1]


def test_card_and_report(wiki_runs):
    import yaml

    card = (wiki_runs[0] / "README.md").read_text()
    front = yaml.safe_load(card.split("---")[1])
    assert front["configs"][0]["config_name"] == "sft"
    assert {"license", "task_categories", "tags", "size_categories"} <= set(front)
    report = json.loads((wiki_runs[0] / "validation_report.json").read_text())
    assert report["kept"]["total"] == 600 and report["train_test_key_overlap"] == 0
    assert set(report["relation_coverage"]) and isinstance(report["dropped"], dict)


def test_malformed_graph_fails_cleanly_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text('@prefix ex: <http://ex.org/> .\nex:a ex:p ex:b .\nex:c ex:p "unterminated ;\n')
    out = tmp_path / "out"
    res = run_cli("synth", "--graph", bad, "--out", out)
    assert res.returncode == 3
    assert "bad.ttl:3" in res.stderr and "Traceback" not in res.stderr
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["bad.ttl"]  # no temporary folder left either


def test_existing_output_is_refused_unless_overwrite(tmp_path, small_graph_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    res = run_cli("synth", "--graph", small_graph_path, "--out", out, "-n", 20)
    assert res.returncode == 4 and "--overwrite" in res.stderr
    assert (out / "keep.txt").read_text() == "precious"
    res = run_cli("synth", "--graph", small_graph_path, "--out", out, "-n", 20, "--overwrite", "--no-progress")
    assert res.returncode == 0, res.stderr
    assert not (out / "keep.txt").exists() and (out / "README.md").exists()


def test_usage_errors(tmp_path, small_graph_path):
    res = run_cli("synth", "--graph", small_graph_path, "--out", tmp_path / "o", "--mix", "5p=1")
    assert res.returncode == 2 and "unknown shape '5p'" in res.stderr
    res = run_cli("synth", "--graph", small_graph_path, "--out", tmp_path / "o", "--splits", "0.5,0.5")
    assert res.returncode == 2
    res = run_cli("synth", "--graph", small_graph_path, "--out", tmp_path / "o", "--min-support", "100000")
    assert res.returncode == 6 and "--min-support" in res.stderr


def test_tools_command_lists_tools(small_graph_path):
    res = run_cli("tools", "--graph", small_graph_path, "--json")
    assert res.returncode == 0
    names = [t["function"]["name"] for t in json.loads(res.stdout)]
    assert "get_place_of_birth" in names and "intersection" in names


def test_card_command_leaves_out_flags_without_effect():
    from kg2tool.commands.synth import reproduce_command

    cmd = reproduce_command(["--graph", "g.ttl", "--out", "/tmp/x", "--overwrite", "--workers", "4", "-n", "10",
                             "--resume", "--no-progress", "--backend=ray", "--seed", "3"])  # fmt: skip
    assert cmd == "kg2tool synth --graph g.ttl -n 10 --seed 3 --out OUT"


def test_in_process_synth_card_command_and_saved_config(small_graph_path, tmp_path):
    """`kg2tool demo` runs synth through kg2tool.cli.main: the card's command comes from these flags, not from
    sys.argv (which is pytest's here)."""
    import shlex

    import yaml

    from kg2tool.cli import main
    from kg2tool.common.files import file_sha256

    config = tmp_path / "synth.yaml"
    config.write_text("n: 999\nmax_per_topic: 20\n")
    out = tmp_path / "d"
    argv = ["synth", "--graph", str(small_graph_path), "--out", str(out), "--config", str(config), "-n", "40",
            "--only", "simple", "--lang", "de", "--no-progress", "--workers", "1", "--overwrite"]  # fmt: skip
    assert main(argv) == 0
    card = (out / "README.md").read_text()
    command = card.split("## How it was made\n```\n", 1)[1].split("\n```", 1)[0]
    graph = shlex.quote(str(small_graph_path))
    assert command == f"kg2tool synth --graph {graph} -n 40 --lang de --only simple --config {config} --out OUT"
    assert "`kg2tool_config.yaml`" in card and yaml.safe_load(card.split("---\n")[1])["language"] == ["de"]
    saved = yaml.safe_load((out / "kg2tool_config.yaml").read_text())
    assert saved["lang"] == "de" and saved["card_command"] == command and saved["options"]["config"] == str(config)
    assert saved["graphs"] == [{"path": str(small_graph_path), "sha256": file_sha256(small_graph_path)}]
    resolved = saved["config"]  # the file's value, the flag over it, and every other field
    assert resolved["n"] == 40 and resolved["max_per_topic"] == 20 and resolved["walk"]["max_answers"] == 8
    assert resolved["mix"]["simple"] == 1.0 and sum(resolved["mix"].values()) == 1.0
