"""kg2tool.common.config: one way to read a YAML config, check it, merge it under the flags, and save what a run
resolved (kg2tool_config.yaml)."""

import argparse

import pytest
import yaml

from kg2tool.common.config import (
    SAVED_NAME,
    check_values,
    fields_of_dataclass,
    fields_of_parser,
    parse_with_config,
    read_config,
    read_resolved,
    recorded_lang,
    resolved_record,
    take_config_flag,
    update_dataclass,
    write_resolved,
)
from kg2tool.common.errors import InputError, UsageError
from kg2tool.common.files import file_sha256
from kg2tool.synth.run.synthesizer import SynthConfig


def test_dataclass_fields_from_yaml_nested_and_typed(tmp_path):
    path = tmp_path / "synth.yaml"
    path.write_text("n: 12\nsplits: [0.5, 0.25, 0.25]\nwalk:\n  max_answers: 3\nparaphrase:\n  fraction: 1\n")
    cfg = update_dataclass(SynthConfig(), read_config(path, fields_of_dataclass(SynthConfig)))
    assert cfg.n == 12 and cfg.splits == (0.5, 0.25, 0.25) and cfg.walk.max_answers == 3
    assert cfg.paraphrase.fraction == 1 and cfg.seed == 0  # an int is a valid float; untouched fields keep defaults


@pytest.mark.parametrize(
    "text, error, fragments",
    [
        ("n: 10\nbogus_field: 1\n", UsageError, ["unknown field 'bogus_field'"]),
        ("walk:\n  max_answer: 3\n", UsageError, ["unknown field 'walk.max_answer'", "did you mean 'max_answers'"]),
        ("n: ten\n", InputError, ["n must be a number, not 'ten'"]),
        ("n: true\n", InputError, ["n must be a number, not True"]),
        ("walk: 3\n", UsageError, ["walk must be a mapping"]),
        ("paraphrase:\n  followups: 2\n", InputError, ["paraphrase.followups must be true or false"]),
        ("- a\n- b\n", InputError, ["expected a mapping"]),
    ],
)
def test_dataclass_errors_name_the_file_and_the_key(tmp_path, text, error, fragments):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(error) as info:
        read_config(path, fields_of_dataclass(SynthConfig))
    assert str(info.value).startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in str(info.value)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--backend", choices=["transformers", "vllm"], default="transformers")
    parser.add_argument("--max-new-tokens", type=int, default=512)
    parser.add_argument("--graph", action="append")
    parser.add_argument("--no-plot", action="store_true")
    return parser


def test_parser_fields_flags_win_and_defaults_come_back(tmp_path):
    parser = _parser()
    path = tmp_path / "run.yaml"
    path.write_text("data: from-file\nmax-new-tokens: 64\ngraph: g.ttl\nno_plot: true\nbackend: vllm\n")
    values = read_config(path, fields_of_parser(parser))
    assert values == {"data": "from-file", "max_new_tokens": 64, "graph": ["g.ttl"], "no_plot": True,
                      "backend": "vllm"}  # fmt: skip
    args = parse_with_config(parser, ["--max-new-tokens", "8"], values)  # --data is given by the file
    assert (args.data, args.max_new_tokens, args.graph, args.no_plot, args.backend) == ("from-file", 8, ["g.ttl"],
                                                                                       True, "vllm")  # fmt: skip
    assert parser.get_default("max_new_tokens") == 512  # the file's values do not stay in the parser
    with pytest.raises(SystemExit):  # ... nor does the file's satisfying of a required flag
        parser.parse_args([])


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("backend: torch\n", InputError, "backend must be one of transformers, vllm, not 'torch'"),
        ("no_plot: 1\n", InputError, "no_plot must be true or false"),
        ("max_new_tokenz: 7\n", UsageError, "unknown field 'max_new_tokenz' (did you mean 'max_new_tokens'?)"),
    ],
)
def test_parser_field_errors_name_the_file_and_the_key(tmp_path, text, error, fragment):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(error, match="bad.yaml") as info:
        read_config(path, fields_of_parser(_parser()))
    assert fragment in str(info.value)


def test_check_values_without_a_file_and_the_config_flag():
    assert check_values("flags", {"graph": "a"}, fields_of_parser(_parser(), lists=False)) == {"graph": "a"}
    assert take_config_flag(["--x", "1", "--config=r.yaml"]) == ("r.yaml", ["--x", "1"])
    assert take_config_flag(["--config", "r.yaml", "--y"]) == ("r.yaml", ["--y"])
    with pytest.raises(UsageError, match="needs a file path"):
        take_config_flag(["--config"])


def test_resolved_config_round_trip_with_graph_checksums(tmp_path):
    graph = tmp_path / "g.ttl"
    graph.write_text("<a> <b> <c> .\n")
    record = resolved_record("synth", SynthConfig(n=5), version="9.9", lang="de", graphs=[graph])
    (tmp_path / "out").mkdir()
    path = write_resolved(tmp_path / "out", record)
    assert path == tmp_path / "out" / SAVED_NAME
    saved = read_resolved(tmp_path / "out")
    assert saved["lang"] == "de" and saved["kg2tool_version"] == "9.9" and saved["command"] == "synth"
    assert saved["graphs"] == [{"path": str(graph), "sha256": file_sha256(graph)}]
    assert saved["config"]["n"] == 5 and saved["config"]["splits"] == [0.8, 0.1, 0.1]
    assert saved["config"]["walk"]["max_answers"] == 8  # nested dataclasses in full
    assert recorded_lang(tmp_path / "out") == "de"


def test_recorded_lang_falls_back_to_the_card(tmp_path):
    assert recorded_lang(tmp_path) is None and read_resolved(tmp_path) == {}
    front = {"license": "other", "language": ["fr"]}
    (tmp_path / "README.md").write_text(f"---\n{yaml.safe_dump(front)}---\n\n# card\n")
    assert recorded_lang(tmp_path) == "fr"  # a dataset folder written before kg2tool_config.yaml existed
    (tmp_path / SAVED_NAME).write_text("lang: es\n")
    assert recorded_lang(tmp_path) == "es"


def test_the_first_flag_of_a_destination_decides_and_one_graph_may_be_a_string(tmp_path):
    parser = argparse.ArgumentParser()  # as HfArgumentParser builds a bool field that defaults to true
    parser.add_argument("--fused", type=str, nargs="?", const=True, default=True)
    parser.add_argument("--no_fused", dest="fused", action="store_false")
    assert check_values("r.yaml", {"fused": "false"}, fields_of_parser(parser)) == {"fused": "false"}
    graph = tmp_path / "g.ttl"
    graph.write_text("")
    record = resolved_record("pretrain", {}, version="0", lang="en", graphs=str(graph))
    assert record["graphs"] == [{"path": str(graph), "sha256": file_sha256(graph)}]
