"""`kg2tool lexicon`: the relation lexicon drafted alone, one review line per relation, and `--out` YAML that
`kg2tool synth --lexicon` reads back."""

from conftest import ROOT

from kg2tool.cli import main
from kg2tool.graph.build import load_graph
from kg2tool.synth.language.lexicon import derive_lexicon
from kg2tool.synth.language.lexicon_file import load_lexicon

SWAPI = ROOT / "tests" / "data" / "real" / "swapi-starwars.ttl.gz"
SNAKE = ROOT / "tests" / "data" / "conventions" / "snake_kb.ttl"


def table(capsys, *args) -> tuple[list[str], list[str]]:
    """The command's header and relation lines."""
    assert main(["lexicon", *map(str, args)]) == 0
    head, *lines = capsys.readouterr().out.splitlines()
    assert head.split()[:4] == ["label", "form", "kinds", "flags"]
    return head, lines


def test_one_line_per_relation_with_both_questions(capsys, swapi_kg):
    _, lines = table(capsys, "--graph", SWAPI)
    lex = derive_lexicon(swapi_kg)
    assert len(lines) == len(swapi_kg.relations) == len(lex.relations)
    assert sorted(line.split("  ")[0].strip() for line in lines) == sorted(w.label for w in lex.relations.values())
    for line in lines:
        assert line.count("?") == 2, line  # the forward and the inverse question
    by_label = {line.split("  ")[0].strip(): line for line in lines}
    assert "person -> location" in by_label["birthPlace"] and "Where was Alec Guinness born?" in by_label["birthPlace"]
    assert "no-type" not in "\n".join(lines)  # swapi types its entities
    assert "no-label" in by_label["birthPlace"] and "no-label" not in by_label["film role film"]


def test_untyped_unlabeled_graph_is_flagged_and_out_is_a_lexicon_file(capsys, tmp_path):
    out = tmp_path / "lexicon.yaml"
    _, lines = table(capsys, "--graph", SNAKE, "--out", out)
    kg = load_graph([SNAKE])
    assert len(lines) == len(kg.relations)
    for line in lines:
        assert "no-label" in line and "no-type" in line and line.count("?") == 2, line
    assert any(line.startswith("directed by ") and "Who directed" in line for line in lines)
    lex = load_lexicon(out, kg)  # what `kg2tool synth --lexicon FILE` does with it
    assert lex.relations == derive_lexicon(kg).relations


def test_kind_unknown_is_flagged(capsys, tmp_path):
    ttl = tmp_path / "g.ttl"
    ttl.write_text(
        "@prefix : <http://x.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        ':p7 rdfs:label "zorbles" .\n:a rdfs:label "Ada" ; :p7 :b .\n:b rdfs:label "Bo" .\n',
        encoding="utf-8",
    )
    _, lines = table(capsys, "--graph", ttl)
    assert len(lines) == 1 and "kind-unknown" in lines[0] and "no-label" not in lines[0], lines


def test_the_graph_is_loaded_with_synths_flags(capsys, tmp_path):
    """--exclude-predicate, --no-fold and --store load the graph as `kg2tool synth` does with the same flags, so the
    drafted lexicon is the one synth will use; a bad IRI is a usage error naming the flag."""
    import pytest
    from test_reify import roles_ttl

    from kg2tool.common.errors import UsageError

    graph = tmp_path / "roles.ttl"  # film roles and award records: folded relations
    graph.write_text(roles_ttl(), encoding="utf-8")
    head, plain = table(capsys, "--graph", graph)
    labels = {line.split("  ")[0].strip() for line in plain}
    assert "film role film" in labels and "homeworld" in labels
    _, fewer = table(capsys, "--graph", graph, "--exclude-predicate", "http://example.org/homeworld")
    assert {line.split("  ")[0].strip() for line in fewer} == labels - {"homeworld"}
    _, unfolded = table(capsys, "--graph", graph, "--no-fold")
    assert "film role film" not in {line.split("  ")[0].strip() for line in unfolded}
    pytest.importorskip("pyoxigraph")
    assert table(capsys, "--graph", graph, "--store", tmp_path / "st") == (head, plain)
    assert main(["lexicon", "--graph", str(graph), "--exclude-predicate", "homeworld"]) == UsageError.exit_code
    assert "--include-predicate/--exclude-predicate 'homeworld'" in capsys.readouterr().err
