"""The dataset card of a real synth folder passes the offline checks; broken cards are caught with a clear reason.

Only offline checks are tested: huggingface_hub's `RepoCard.validate()` posts to the Hub and is not called here."""

from __future__ import annotations

import shutil

import pytest
import yaml
from conftest import EXAMPLE

from kg2tool.cli import main
from kg2tool.common.errors import InputError
from kg2tool.hub.card import check_card


@pytest.fixture(scope="module")
def wiki(tmp_path_factory):
    out = tmp_path_factory.mktemp("card") / "wiki"
    assert (
        main(["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "200", "--seed", "0", "--no-progress"]) == 0
    )
    return out


def edit_front_matter(folder, change) -> None:
    readme = folder / "README.md"
    _, front, body = readme.read_text(encoding="utf-8").split("---\n", 2)
    data = yaml.safe_load(front)
    change(data)
    readme.write_text(f"---\n{yaml.safe_dump(data, sort_keys=False)}---\n{body}", encoding="utf-8")


@pytest.fixture
def copy(wiki, tmp_path):
    dst = tmp_path / "wiki"
    shutil.copytree(wiki, dst)
    return dst


def test_synth_card_is_valid(wiki, capsys):
    from huggingface_hub import DatasetCard

    report = check_card(wiki, load=True)
    assert report.errors == [], report.format()
    assert list(report.configs) == ["sft", "dpo"]
    assert all(list(s) == ["train", "validation", "test"] for s in report.configs.values())
    data = DatasetCard.load(wiki / "README.md").data
    for key in ("license", "task_categories", "tags", "size_categories", "configs"):
        assert data.get(key), key
    assert main(["card", "check", str(wiki)]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and "config sft: train, validation, test" in out


def test_missing_data_file(copy, capsys):
    next((copy / "sft").glob("test-*.parquet")).unlink()
    report = check_card(copy)
    assert any("split 'test'" in e and "does not exist" in e for e in report.errors)
    assert main(["card", "check", str(copy)]) == 3
    assert "INVALID" in capsys.readouterr().out


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda d: d.pop("license"), "`license`"),
        (lambda d: d.pop("tags"), "`tags`"),
        (lambda d: d.update(size_categories=["lots"]), "unknown size category"),
        (lambda d: d.update(task_categories=["tool-using"]), "unknown task category"),
        (lambda d: d["configs"][1].update(default=True), "several default"),
        (lambda d: d["configs"][0].pop("config_name"), "config_name"),
        (lambda d: d["configs"][0]["data_files"][0].update(split="tr-ain"), "data_files"),
        (lambda d: d.update(configs={"sft": "x"}), "to be a list"),
    ],
)
def test_broken_fields_are_errors(copy, change, reason):
    edit_front_matter(copy, change)
    report = check_card(copy)
    assert not report.ok and any(reason in e for e in report.errors), report.errors


def test_size_category_must_match_rows(copy):
    edit_front_matter(copy, lambda d: d.update(size_categories=["10K<n<100K"]))
    report = check_card(copy)
    assert report.ok and any("has 200 rows" in w for w in report.warnings)


def test_unreadable_cards(tmp_path, copy):
    with pytest.raises(InputError, match="no such dataset folder"):
        check_card(tmp_path / "nope")
    with pytest.raises(InputError, match="no dataset card"):
        check_card(tmp_path)
    (copy / "README.md").write_text("---\nlicense: [unclosed\n---\n# x\n", encoding="utf-8")
    with pytest.raises(InputError, match="README.md"):
        check_card(copy)
    assert main(["card", "check", str(copy)]) == 3
