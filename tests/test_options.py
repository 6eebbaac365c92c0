"""kg2tool.common.options: a config dataclass's fields as flags (help from the class docstring), and the flags given
set back over a config file's values in one loop."""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from kg2tool.common.config import fields_of_dataclass, read_config, update_dataclass
from kg2tool.common.options import ConfigOptions, apply_options, field_docs


@dataclass
class Inner:
    """Parameters:
    depth: how deep a walk goes.
    rate: share of %-points
        kept (a continuation line).
    """

    depth: int = 3
    rate: float = 0.5


@dataclass
class Toy:
    """A config for the tests.

    Parameters:
    count: number of things.
    name: what to call them; None: no name.
    color: the color of the things.
    fold, keep: two switches documented on one line.
    tags: labels to add.
    inner: nested bounds.
    weights: per-kind weights (no flag form).
    """

    count: int = 10
    name: str | None = None
    color: str = field(default="red", metadata={"choices": ("red", "blue")})
    fold: bool = True
    keep: bool = False
    tags: list[str] = field(default_factory=list)
    inner: Inner = field(default_factory=Inner)
    weights: dict[str, float] = field(default_factory=dict)


def parser_for(options: ConfigOptions, *names: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toy")
    parser.add_argument("--out")  # a command's own flag, not a field
    options.add(parser, *names)
    return parser


def test_field_docs_from_the_parameters_section():
    docs = field_docs(Toy)
    assert docs["count"] == "number of things."
    assert docs["fold"] == docs["keep"] == "two switches documented on one line."
    assert field_docs(Inner)["rate"] == "share of %-points kept (a continuation line)."
    assert "A config" not in " ".join(docs.values())


def test_one_flag_per_field_with_type_choices_and_help(capsys):
    parser = parser_for(ConfigOptions(Toy))
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for flag in ("--count COUNT", "--name NAME", "--color {red,blue}", "--no-fold", "--keep", "--tags TAGS",
                 "--inner-depth INNER_DEPTH", "--inner-rate INNER_RATE"):  # fmt: skip
        assert flag in text, flag
    assert "--weights" not in text  # a dict has no flag form
    assert "number of things. (default 10)" in text
    assert "share of %-points kept (a continuation line). (default 0.5)" in text
    assert "two switches documented on one line. (on by default; this flag turns it off)" in text
    args = parser.parse_args([])
    assert args.count is None and args.no_fold is None and args.inner_depth is None  # not given: None
    with pytest.raises(SystemExit):
        parser.parse_args(["--count", "many"])
    assert "argument --count: invalid int value: 'many'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parser.parse_args(["--color", "green"])
    assert "invalid choice: 'green'" in capsys.readouterr().err


def test_flags_win_over_the_config_file_and_others_keep_its_values(tmp_path):
    path = tmp_path / "toy.yaml"
    path.write_text("count: 4\nname: file\ninner:\n  depth: 7\n  rate: 0.25\n")
    parser = parser_for(ConfigOptions(Toy))
    args = parser.parse_args(["--out", "o", "--name", "flag", "--inner-depth", "9", "--no-fold", "--keep",
                              "--tags", "a", "--tags", "b"])  # fmt: skip
    cfg = apply_options(args, update_dataclass(Toy(), read_config(path, fields_of_dataclass(Toy))))
    assert (cfg.count, cfg.name, cfg.inner.depth, cfg.inner.rate) == (4, "flag", 9, 0.25)
    assert cfg.fold is False and cfg.keep is True and cfg.tags == ["a", "b"] and cfg.color == "red"
    untouched = apply_options(parser.parse_args([]), Toy(count=2))
    assert untouched == Toy(count=2)


def test_a_command_places_fields_spells_flags_and_adds_the_rest():
    options = ConfigOptions(Toy, flags={"count": ("-c", "--num"), "inner.depth": "--depth"},
                            metavars={"name": "TEXT"}, skip=("tags",))  # fmt: skip
    parser = argparse.ArgumentParser(prog="toy")
    assert options.add(parser, "inner.depth", "count") == ["depth", "num"]
    parser.add_argument("--out")
    assert options.add(parser) == ["name", "color", "no_fold", "keep", "inner_rate"]  # placed fields not again
    assert options.add(parser) == []
    dests = [a.dest for a in parser._actions]
    assert dests.index("depth") < dests.index("num") < dests.index("out") < dests.index("name")
    assert "tags" not in dests
    args = parser.parse_args(["-c", "3", "--depth", "1", "--name", "x"])
    assert apply_options(args, Toy()) == Toy(count=3, name="x", inner=Inner(depth=1))
    assert "TEXT" in parser.format_help()


def test_mistakes_in_a_command_are_caught_when_it_registers():
    with pytest.raises(ValueError, match="no field"):
        ConfigOptions(Toy, flags={"cuont": "--count"})
    options = ConfigOptions(Toy, skip=("tags",))
    with pytest.raises(ValueError, match="Toy.tags"):
        options.add(argparse.ArgumentParser(), "tags")
    with pytest.raises(ValueError, match="Toy.weights"):
        options.add(argparse.ArgumentParser(), "weights")
    with pytest.raises(ValueError, match="no field 'nope'"):
        options.add(argparse.ArgumentParser(), "nope")


def synth_parser() -> argparse.ArgumentParser:
    from kg2tool.commands.synth import register

    sub = argparse.ArgumentParser(prog="kg2tool").add_subparsers()
    register(sub)
    return sub.choices["synth"]


def test_every_synth_config_field_is_a_synth_flag_with_its_help():
    """A field added to SynthConfig (or WalkConfig, ParaphraseConfig) appears in `kg2tool synth --help` with the
    text of its docstring entry, without touching kg2tool/commands/."""
    from kg2tool.common.options import RECORD, config_fields
    from kg2tool.synth.run.synthesizer import SynthConfig

    parser = synth_parser()
    on_parser = set(parser.get_default(RECORD).values())
    help_text = " ".join(parser.format_help().split())
    for path, _, doc in config_fields(SynthConfig):
        if path in ("mix", "splits", "paraphrase.prompt"):  # flags of their own: --mix/--only, --splits, a file
            continue
        assert path in on_parser, path
        assert doc, f"SynthConfig.{path}: no entry in its class docstring's Parameters section"
        assert " ".join(doc.split())[:40] in help_text, path


def test_synth_flags_over_a_config_file(tmp_path):
    from kg2tool.commands.synth import build_config

    config = tmp_path / "synth.yaml"
    config.write_text("n: 40\nmax_words: 28\nwalk:\n  tries: 5\n  max_answers: 6\nparaphrase:\n  fraction: 0.5\n")
    argv = ["--graph", "g.ttl", "--out", "o", "--config", str(config), "--max-words", "25", "--walk-tries", "9",
            "--no-fold", "--max-fanout", "4", "--paraphrase-min-ratio", "0.4"]  # fmt: skip
    cfg = build_config(synth_parser().parse_args(argv))
    assert (cfg.n, cfg.max_words, cfg.walk.tries, cfg.walk.max_answers, cfg.walk.max_fanout) == (40, 25, 9, 6, 4)
    assert cfg.fold is False and cfg.paraphrase.fraction == 0.5 and cfg.paraphrase.min_ratio == 0.4
    assert cfg.seed == 0 and cfg.walk.max_set == 30  # neither in the file nor given: the defaults


def test_the_parser_is_built_without_importing_the_synthesizer():
    """The config dataclasses live in light modules (kg2tool.synth.*.config), so `kg2tool --help` stays fast."""
    code = (
        "import sys\nfrom kg2tool.cli import build_parser\nbuild_parser()\n"
        "print([m for m in ('kg2tool.synth.run.synthesizer', 'kg2tool.synth.walk.walker', "
        "'kg2tool.synth.paraphrase.rewrite', 'jsonschema') if m in sys.modules])"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"
