"""Reading RDF files (kg2tool.graph.parse, through load_graph): formats by extension, gzip, merged files, and
clear errors naming the file and line."""

import gzip
import json
from pathlib import Path

import pytest

from kg2tool.common.errors import InputError
from kg2tool.graph.build import load_graph
from kg2tool.graph.parse import detect_format

NT = """<http://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "Alpha"@en .
<http://ex.org/b> <http://www.w3.org/2000/01/rdf-schema#label> "Beta"@en .
<http://ex.org/a> <http://ex.org/knows> <http://ex.org/b> .
<http://ex.org/a> <http://ex.org/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .
"""


@pytest.mark.parametrize(
    "name,fmt_text",
    [
        ("g.nt", NT),
        ("g.nq", NT.replace(" .\n", " <http://ex.org/graph> .\n")),
        ("g.trig", "<http://ex.org/graph> {\n" + NT + "}\n"),  # a named graph: merged like N-Quads
        (
            "g.jsonld",
            json.dumps(
                [
                    {
                        "@id": "http://ex.org/a",
                        "http://www.w3.org/2000/01/rdf-schema#label": [{"@value": "Alpha", "@language": "en"}],
                        "http://ex.org/knows": [{"@id": "http://ex.org/b"}],
                        "http://ex.org/age": [{"@value": "42", "@type": "http://www.w3.org/2001/XMLSchema#integer"}],
                    },
                    {
                        "@id": "http://ex.org/b",
                        "http://www.w3.org/2000/01/rdf-schema#label": [{"@value": "Beta", "@language": "en"}],
                    },
                ]
            ),
        ),
        (
            "g.rdf",
            """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:ex="http://ex.org/">
  <rdf:Description rdf:about="http://ex.org/a"><rdfs:label xml:lang="en">Alpha</rdfs:label>
    <ex:knows rdf:resource="http://ex.org/b"/>
    <ex:age rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">42</ex:age></rdf:Description>
  <rdf:Description rdf:about="http://ex.org/b"><rdfs:label xml:lang="en">Beta</rdfs:label></rdf:Description>
</rdf:RDF>""",
        ),
    ],
)
def test_formats_by_extension_and_gzip(tmp_path, name, fmt_text):
    for path in (tmp_path / name, tmp_path / (name + ".gz")):
        data = fmt_text.encode()
        path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
        kg = load_graph([path])
        a, b = kg.resolve("Alpha"), kg.resolve("Beta")
        assert kg.relations["http://ex.org/knows"].forward == {a: (b,)}
        age = kg.attributes["http://ex.org/age"]
        assert age.kind == "integer" and age.values == {a: (42,)}


def test_merge_several_files(tmp_path, small_graph_path):
    extra = tmp_path / "extra.nt"
    extra.write_text(NT)
    kg = load_graph([small_graph_path, extra])
    assert kg.resolve("Alpha") is not None and kg.resolve("Person 3") is not None


def test_malformed_turtle_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text('@prefix ex: <http://ex.org/> .\nex:a ex:p ex:b .\nex:c ex:p "oops ;\n')
    with pytest.raises(InputError, match=r"bad\.ttl:3: malformed turtle"):
        load_graph([bad])


@pytest.mark.parametrize(
    "name,text,line",
    [
        ("bad.nt", "<http://a> <http://p> <http://b> .\n<http://a> <http://p> oops .\n", 2),
        (
            "bad.rdf",
            '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n<rdf:Description>\n</rdf:RDF>',
            3,
        ),
        ("bad.jsonld", '{"@id": "http://a",\n "http://p": [', 2),
    ],
)
def test_malformed_other_formats_name_line(tmp_path, name, text, line):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError, match=rf"{name}:{line}: malformed"):
        load_graph([path])


def test_bad_inputs_are_clear_errors(tmp_path):
    with pytest.raises(InputError, match="cannot tell the RDF format"):
        load_graph([tmp_path / "graph.csv"])
    with pytest.raises(InputError, match="no such file"):
        load_graph([tmp_path / "missing.ttl"])
    latin = tmp_path / "latin.ttl"
    latin.write_bytes(b'@prefix ex: <http://ex.org/> .\nex:a ex:p "caf\xe9" .\n')
    with pytest.raises(InputError, match=r"latin\.ttl:2: the file is not valid UTF-8"):
        load_graph([latin])
    empty = tmp_path / "empty.ttl"
    empty.write_text("")
    with pytest.raises(InputError, match="no relation between two IRIs"):
        load_graph([empty])


def test_detect_format_by_extension():
    assert detect_format(Path("g.TTL")) == ("turtle", False)
    assert detect_format(Path("dump.nt.gz")) == ("nt", True)
    assert detect_format(Path("x.owl.gzip")) == ("xml", True)
    with pytest.raises(InputError, match=r"'\(none\)'"):
        detect_format(Path("graph.gz"))


def test_trig_named_graphs_merge_and_errors_name_the_line(tmp_path):
    trig = tmp_path / "two.trig"
    trig.write_text("<http://ex.org/g1> {\n" + NT + "}\n<http://ex.org/g2> { <http://ex.org/b> <http://ex.org/knows> "
                    "<http://ex.org/a> . }\n", encoding="utf-8")  # fmt: skip
    kg = load_graph([trig])
    a, b = kg.resolve("Alpha"), kg.resolve("Beta")
    assert kg.relations["http://ex.org/knows"].forward == {a: (b,), b: (a,)}  # both named graphs, one relation
    bad = tmp_path / "bad.trig"
    bad.write_text("<http://ex.org/g1> {\n<http://ex.org/a> <http://ex.org/knows> .\n}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.trig:2: malformed trig"):
        load_graph([bad])
