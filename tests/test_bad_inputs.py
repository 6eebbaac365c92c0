"""A corpus of bad and awkward graph inputs, each with the behaviour it must get (issue 10, item 1).

Failures run the real console entry point in a subprocess (exit code, one clear line naming file and line, no
traceback, nothing written at --out and no temporary folder beside it). Inputs that must work run `kg2tool.cli.main`
in-process (same code path, no interpreter start-up) and every written row is re-checked with `checks.check_row`.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import rdflib
from checks import check_row
from rdflib import RDFS, XSD, Literal, Namespace, URIRef

from kg2tool.cli import main as cli_main
from kg2tool.graph.build import load_graph
from kg2tool.synth.tools.toolset import ToolSet

EX = Namespace("http://example.org/")
SCHEMA_DESC = URIRef("http://schema.org/description")
HEAD = "@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"


def run_cli(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "kg2tool.cli", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def base_graph(labels: list[str] | None = None, n: int = 12) -> rdflib.Graph:
    """n people in a friendship ring with chords, 4 cities, an integer attribute: every relation has support >= 5.
    `labels` (if given) name the people in order; people without one keep a plain label."""
    g = rdflib.Graph()
    for c in range(4):
        g.add((EX[f"city{c}"], RDFS.label, Literal(f"Town {c}", lang="en")))
    for i in range(n):
        lab = labels[i] if labels and i < len(labels) else f"Person {i}"
        g.add((EX[f"p{i}"], RDFS.label, Literal(lab, lang="en")))
        g.add((EX[f"p{i}"], EX.friend, EX[f"p{(i + 1) % n}"]))
        g.add((EX[f"p{i}"], EX.friend, EX[f"p{(i + 3) % n}"]))
        g.add((EX[f"p{i}"], EX.livesIn, EX[f"city{i % 4}"]))
        g.add((EX[f"p{i}"], EX.age, Literal(20 + 3 * i, datatype=XSD.integer)))
    g.add((EX.friend, RDFS.label, Literal("friend", lang="en")))
    g.add((EX.livesIn, RDFS.label, Literal("residence", lang="en")))
    g.add((EX.age, RDFS.label, Literal("age", lang="en")))
    return g


def write(tmp_path: Path, name: str, content: str | bytes | rdflib.Graph) -> Path:
    path = tmp_path / name
    if isinstance(content, rdflib.Graph):
        fmt = {".ttl": "turtle", ".nt": "nt"}[path.suffix]
        content = content.serialize(format=fmt)
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def read_rows(out: Path, config: str = "sft") -> list[dict]:
    rows = []
    for f in sorted((out / config).glob("*.parquet")):
        for r in pq.read_table(f).to_pylist():
            rows.append(
                {k: json.loads(v) if k in ("tools", "plan") and isinstance(v, str) else v for k, v in r.items()}
            )
    for r in rows:
        for key in ("messages", "tools", "prompt", "chosen", "rejected"):
            if key in r and r[key] and isinstance(r[key][0], str):
                r[key] = [json.loads(x) for x in r[key]]
    return rows


def synth_ok(capsys, graph: Path, out: Path, *extra) -> tuple[list[dict], ToolSet, str]:
    """Run `kg2tool synth` in-process; it must succeed. Returns (rows, a fresh ToolSet, stderr)."""
    rc = cli_main(["synth", "--graph", str(graph), "--out", str(out), "--no-progress", *map(str, extra)])
    err = capsys.readouterr().err
    assert rc == 0, err
    rows = read_rows(out)
    assert rows, err
    ts = ToolSet.from_graph(load_graph([graph]))
    for row in rows:
        assert check_row(row, ts) == [], (row["id"], check_row(row, ts))
    return rows, ts, err


def questions(rows: list[dict]) -> list[str]:
    return [m["content"] for r in rows for m in r["messages"] if m["role"] == "user"]


# -- inputs that must fail cleanly ----------------------------------------------------------------------------
NT_HEAD = "<http://example.org/a> <http://example.org/p> <http://example.org/b> .\n"
RDF_OPEN = (
    '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:ex="http://example.org/">\n'
)
FAILURES = {
    # name: (file name, content, exit code, fragments the message must contain)
    "turtle_syntax": ("g.ttl", HEAD + "ex:a ex:p ex:b .\nex:c ex:p ex:d ;;; ]\n", 3, ["g.ttl:4", "malformed turtle"]),
    "turtle_unterminated_string": ("g.ttl", HEAD + 'ex:a ex:p ex:b .\nex:a rdfs:label """open\n\n', 3, ["g.ttl:"]),
    "turtle_unbound_prefix": ("g.ttl", HEAD + "ex:a ex:p ex:b .\nex:a nope:p ex:c .\n", 3, ["g.ttl:4", "nope:"]),
    "ntriples": ("g.nt", NT_HEAD * 2 + '<http://example.org/a> <http://example.org/p> "oops .\n', 3, ["g.nt:3"]),
    "nquads": ("g.nq", NT_HEAD + "<http://example.org/a> <http://example.org/p> .\n", 3, ["g.nq:2", "nquads"]),
    "rdfxml": (
        "g.rdf",
        RDF_OPEN + '<rdf:Description rdf:about="http://example.org/a">\n<ex:p>\n</rdf:Description>\n</rdf:RDF>\n',
        3,
        ["g.rdf:5", "malformed xml"],
    ),
    "jsonld": (
        "g.jsonld",
        '[\n {"@id": "http://example.org/a",\n  "http://example.org/p": [],\n }\n]\n',
        3,
        ["g.jsonld:4"],
    ),
    "jsonld_remote_context": (
        "g.jsonld",
        '{"@context": "http://schema.org/", "@id": "http://example.org/a", "name": "A"}',
        3,
        ["g.jsonld", "external context", "http://schema.org/"],
    ),
    "jsonld_local_file_context": (
        "g.jsonld",
        '{"@context": ["file:///etc/hostname"], "@id": "http://example.org/a", "name": "A"}',
        3,
        ["g.jsonld", "external context"],
    ),
    "not_utf8": ("g.ttl", HEAD.encode() + b'ex:a ex:p ex:b .\nex:a rdfs:label "caf\xe9" .\n', 3, ["g.ttl:4", "UTF-8"]),
    "corrupt_gzip": ("g.ttl.gz", b"this is not gzip", 3, ["g.ttl.gz", "cannot read"]),
    "wrong_extension": ("g.txt", NT_HEAD, 3, ["g.txt", "'.txt'", ".ttl"]),
    "no_extension": ("graph", NT_HEAD, 3, ["graph", "(none)"]),
    "empty_file": ("g.ttl", "", 3, ["g.ttl", "no relation between two IRIs", "0 triples"]),
    "comments_only": ("g.nt", "# nothing here\n\n", 3, ["g.nt", "0 triples"]),
    "labels_only": (
        "g.ttl",
        HEAD + 'ex:a rdfs:label "A" .\nex:b rdfs:label "B" .\n',
        3,
        ["no relation between two IRIs"],
    ),
    "too_little_support": (
        "g.ttl",
        HEAD + "ex:a ex:knows ex:b .\nex:b ex:knows ex:c .\nex:c ex:likes ex:a .\n",
        6,
        ["at least 5 facts", "--min-support", "'knows' (2)"],
    ),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_bad_graph_fails_cleanly_and_writes_nothing(tmp_path, case):
    name, content, code, fragments = FAILURES[case]
    graph = write(tmp_path, name, content)
    out = tmp_path / "out"
    t0 = time.perf_counter()
    res = run_cli("synth", "--graph", graph, "--out", out, "-n", 20, "--no-progress")
    assert time.perf_counter() - t0 < 60
    assert res.returncode == code, res.stderr
    for frag in fragments:
        assert frag in res.stderr, (frag, res.stderr)
    assert "Traceback" not in res.stderr + res.stdout
    assert res.stderr.strip().splitlines()[-1].startswith("kg2tool synth: error: "), res.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name], "a temporary or work folder was left behind"


def test_attribute_tools_without_any_relation_tool(tmp_path):
    """Six entities with an integer attribute and a single relation edge: either a dataset of attribute questions
    or exit 6 saying what is missing; never an internal error, never a work folder left behind."""
    lines = [HEAD, "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> ."]
    lines += [f'ex:node{i} ex:age "{20 + i}"^^xsd:integer .' for i in range(6)]
    lines.append("ex:node0 ex:knows ex:node1 .")
    graph = write(tmp_path, "attrs.ttl", "\n".join(lines) + "\n")
    res = run_cli("synth", "--graph", graph, "--out", tmp_path / "out", "-n", 10, "--no-progress")
    assert res.returncode in (0, 6), res.stderr
    if res.returncode == 6:
        assert "relation" in res.stderr and "--min-support" in res.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["attrs.ttl"]


def test_single_relation_graph(tmp_path, capsys):
    lines = [HEAD] + [f"ex:node{i} ex:knows ex:node{(i + 1) % 8} , ex:node{(i + 3) % 8} ." for i in range(8)]
    graph = write(tmp_path, "onerel.ttl", "\n".join(lines) + "\n")
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 20)
    assert all(r["tools"] for r in rows), "a row offers no tool"


def test_graph_of_disjoint_pairs(tmp_path, capsys):
    lines = [HEAD] + [f"ex:node{2 * i} ex:knows ex:node{2 * i + 1} ; ex:likes ex:node{2 * i + 1} ." for i in range(6)]
    graph = write(tmp_path, "pairs.ttl", "\n".join(lines) + "\n")
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 10)
    assert rows


def test_missing_and_directory_graph(tmp_path):
    out = tmp_path / "out"
    res = run_cli("synth", "--graph", tmp_path / "nope.ttl", "--out", out)
    assert res.returncode == 3 and "nope.ttl: no such file" in res.stderr and "Traceback" not in res.stderr
    (tmp_path / "dir.ttl").mkdir()
    res = run_cli("synth", "--graph", tmp_path / "dir.ttl", "--out", out)
    assert res.returncode == 3 and "is a directory" in res.stderr
    assert not out.exists()


def test_second_graph_bad_names_that_file(tmp_path):
    """With several --graph files the message names the bad one, and nothing is written."""
    good = write(tmp_path, "good.ttl", base_graph())
    bad = write(tmp_path, "bad.nt", NT_HEAD + "garbage\n")
    res = run_cli("synth", "--graph", good, "--graph", bad, "--out", tmp_path / "out")
    assert res.returncode == 3 and "bad.nt:2" in res.stderr and "good.ttl" not in res.stderr
    assert not (tmp_path / "out").exists()


def test_billion_laughs_is_refused_quickly(tmp_path):
    import pyexpat

    if pyexpat.version_info < (2, 4, 0):
        pytest.skip("expat without amplification limits")
    ents = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    text = (
        f'<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [ {ents} ]>\n'
        + RDF_OPEN.split("\n", 1)[1]
        + '<rdf:Description rdf:about="http://example.org/a"><ex:name>&l9;</ex:name>'
        '<ex:p rdf:resource="http://example.org/b"/></rdf:Description></rdf:RDF>\n'
    )
    graph = write(tmp_path, "laughs.rdf", text)
    t0 = time.perf_counter()
    res = run_cli("synth", "--graph", graph, "--out", tmp_path / "out", timeout=60)
    assert time.perf_counter() - t0 < 30
    assert res.returncode == 3 and "laughs.rdf:" in res.stderr and "Traceback" not in res.stderr


# -- awkward inputs that must work ------------------------------------------------------------------------------
def test_graph_without_labels_is_named_from_iris(tmp_path, capsys):
    g = base_graph()
    for s, p, o in list(g):
        if p == RDFS.label:
            g.remove((s, p, o))
    # IRIs with underscores, percent-encoding, non-ASCII characters and fragments
    odd = [
        URIRef("http://example.org/Old_Town"),
        URIRef("http://example.org/Caf%C3%A9_Central"),
        URIRef("http://example.org/S\u00e3o_Paulo"),
        URIRef("http://example.org/places#Harbour_District"),
    ]
    for i, iri in enumerate(odd * 2):
        g.add((EX[f"p{i}"], EX.visited, iri))
    graph = write(tmp_path, "nolabels.nt", g)
    kg = load_graph([graph])
    assert kg.stats.unlabeled_entities == len(kg)
    assert {"Old Town", "Caf\u00e9 Central", "S\u00e3o Paulo", "Harbour District", "p3"} <= set(kg.names)
    assert {r.label for r in kg.relations.values()} == {"friend", "livesIn", "visited"}
    rows, ts, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 60)
    assert {"get_friend", "get_livesin", "find_by_visited"} <= set(ts.specs)
    text = json.dumps([r["messages"] for r in rows], ensure_ascii=False)
    assert "http://" not in text and "%C3" not in text


def test_self_loops_and_cycles(tmp_path, capsys):
    g = base_graph()
    for i in range(12):
        g.add((EX[f"p{i}"], EX.friend, EX[f"p{i}"]))  # every person is their own friend
    for a, b in (("city0", "city1"), ("city1", "city2"), ("city2", "city0"), ("city3", "city3")):
        g.add((EX[a], EX.twinned, EX[b]))
    g.add((EX.city0, EX.twinned, EX.city0))
    graph = write(tmp_path, "loops.ttl", g)
    kg = load_graph([graph])
    p0 = kg.resolve("Person 0")
    friend = next(r for r in kg.relations.values() if r.label == "friend")
    assert p0 in friend.forward[p0]
    t0 = time.perf_counter()
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 80, "--seed", 3)
    assert time.perf_counter() - t0 < 30
    assert len(rows) >= 40


def test_blank_nodes_are_named_by_their_content_and_no_id_reaches_the_data(tmp_path, capsys):
    """A blank node is a thing where it has a name (a friend `[ rdfs:label "anonymous friend" ]`, a resident named
    by its label), and gone where it has none; the ids the parser or the loader give it never reach the data."""
    text = (
        base_graph().serialize(format="turtle")
        + HEAD
        + (
            '\nex:p0 ex:friend [ rdfs:label "anonymous friend" ] .\n'
            "ex:p1 ex:friend [ ex:friend ex:p2 ] .\n"
            '_:b1 ex:livesIn ex:city0 .\n_:b1 rdfs:label "blank resident" .\n'
            "ex:p3 ex:livesIn _:b2 .\n"
        )
    )
    graph = write(tmp_path, "bnodes.ttl", text)
    kg = load_graph([graph])
    assert kg.stats.blank_nodes_named == 4
    assert all(not iri.startswith("_:") and ":" in iri for iri in kg.entities)
    assert "anonymous friend" in kg.names and "blank resident" in kg.names
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 60)
    text = json.dumps([row["messages"] for row in rows], ensure_ascii=False)  # what a model reads and writes
    assert "_:" not in text and not re.search(r"\bN[0-9a-f]{32}\b", text), "a parser's blank-node id reached the data"
    assert "genid" not in text and not re.search(r"[#/][0-9a-f]{16}\b", text), "a blank node's IRI reached the data"


def test_duplicate_labels_get_unique_names(tmp_path, capsys):
    labels = ["Springfield"] * 6 + ["Person 6"] * 2
    g = base_graph(labels)
    g.add((EX.p0, SCHEMA_DESC, Literal("town in Illinois", lang="en")))
    g.add((EX.p1, SCHEMA_DESC, Literal("town in Oregon", lang="en")))
    g.add((EX.p2, SCHEMA_DESC, Literal("town in Oregon", lang="en")))  # same description as p1
    graph = write(tmp_path, "dups.ttl", g)
    kg = load_graph([graph])
    assert len(set(kg.names)) == len(kg.names)
    names = {kg.entities[i].rsplit("/", 1)[1]: kg.names[i] for i in range(len(kg))}
    assert names["p0"] == "Springfield (town in Illinois)"
    assert names["p1"] == "Springfield (p1)" and names["p2"] == "Springfield (p2)"
    assert names["p3"] == "Springfield (p3)"
    assert names["p6"] == "Person 6 (p6)" and names["p7"] == "Person 6 (p7)"
    for eid in range(len(kg)):
        assert kg.resolve(kg.names[eid]) == eid
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 80)
    text = json.dumps([r["messages"] for r in rows], ensure_ascii=False)
    assert "Springfield (" in text
    # a bare shared label is never used as an argument: it would be ambiguous
    for r in rows:
        for m in r["messages"]:
            for c in m.get("tool_calls") or []:
                assert "Springfield" not in json.dumps(c["function"]["arguments"]) or "Springfield (" in json.dumps(
                    c["function"]["arguments"]
                )


@pytest.mark.parametrize("ext", [".ttl", ".nt", ".nq", ".rdf", ".jsonld"])
def test_huge_literals_load_fast_and_stay_small(tmp_path, ext):
    """A 5 MB multi-line label and description (with quotes, escapes and markup) in every format: linear-time
    parsing (rdflib's own parsers took minutes on such literals) and names cut to a bounded length."""
    big = 'A "long" line of text & <markup> \\ with\ttabs\n' * 120_000
    assert len(big) > 5_000_000
    g = base_graph()
    g.add((EX.p0, RDFS.label, Literal(big, lang="en")))
    g.add((EX.p0, RDFS.label, Literal("ignored", lang="de")))
    g.add((EX.p1, SCHEMA_DESC, Literal(big)))
    g.add((EX.p2, EX.motto, Literal(big)))
    fmt = {".ttl": "turtle", ".nt": "nt", ".nq": "nquads", ".rdf": "xml", ".jsonld": "json-ld"}[ext]
    if fmt == "nquads":
        ds = rdflib.Dataset()
        ctx = ds.graph(URIRef("http://example.org/g"))
        for t in g:
            ctx.add(t)
        data = ds.serialize(format="nquads")
    else:
        data = g.serialize(format=fmt)
    graph = write(tmp_path, "big" + ext, data)
    t0 = time.perf_counter()
    kg = load_graph([graph])
    assert time.perf_counter() - t0 < 15, f"loading a 5 MB literal took {time.perf_counter() - t0:.1f}s"
    p0 = kg.index["http://example.org/p0"]
    assert kg.labels[p0].startswith('A "long" line of text & <markup> \\ with tabs A "long"')
    assert 100 < len(kg.names[p0]) <= 500 and "\n" not in kg.names[p0]
    assert len(kg.descriptions[kg.index["http://example.org/p1"]]) <= 500


def test_huge_literals_do_not_blow_up_output(tmp_path, capsys):
    big = "word " * 1_000_000 + "\n"
    g = base_graph()
    g.add((EX.p0, RDFS.label, Literal("Longname " + big, lang="en")))
    g.add((EX.p1, SCHEMA_DESC, Literal(big)))
    for i in range(8):
        g.add((EX[f"p{i}"], EX.motto, Literal(f"motto {i} " + big)))
    graph = write(tmp_path, "big.ttl", g)
    t0 = time.perf_counter()
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 60)
    assert time.perf_counter() - t0 < 40
    size = sum(f.stat().st_size for f in (tmp_path / "out").rglob("*") if f.is_file())
    assert size < 3_000_000, f"output is {size} bytes"
    longest = max(len(m["content"] or "") for r in rows for m in r["messages"])
    assert longest < 20_000


def test_invalid_lexical_forms_are_skipped_and_counted(tmp_path, capsys):
    bad = [
        ("abc", "integer"),
        ("12.5", "integer"),
        ("2020-13-45", "date"),
        ("yesterday", "dateTime"),
        ("maybe", "boolean"),
        ("NaN", "double"),
        ("INF", "double"),
        ("seven", "decimal"),
    ]
    # written as raw Turtle: rdflib's serializer would rewrite some of them (`"maybe"^^xsd:boolean` as `false`)
    lines = [HEAD, "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> ."]
    lines += [f'ex:p{i} ex:score "{lex}"^^xsd:{dt} .' for i, (lex, dt) in enumerate(bad)]
    lines += [f'ex:p{i} ex:born "19{50 + i}-0{1 + i % 9}-1{i}"^^xsd:date .' for i in range(8)]
    lines.append('ex:p9 ex:born "19xx-01-01"^^xsd:date .')
    graph = write(tmp_path, "lexical.ttl", base_graph().serialize(format="turtle") + "\n".join(lines) + "\n")
    kg = load_graph([graph])
    assert kg.stats.ill_typed_literals_skipped == len(bad) + 1
    born = next(a for a in kg.attributes.values() if a.label == "born")
    assert born.kind == "date" and len(born.values) == 8
    score = [a for a in kg.attributes.values() if a.label == "score"]
    assert not score or all(str(v) not in ("abc", "maybe", "nan", "inf") for a in score for v in a.values.values())
    rows, _, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 60)
    text = json.dumps(rows, ensure_ascii=False)
    for word in ("abc", "2020-13-45", "yesterday", "maybe", "19xx", "seven", "NaN", "Infinity"):
        assert word not in text, word


UNICODE_LABELS = [
    "\u6771\u4eac\u30bf\u30ef\u30fc",  # 東京タワー
    "\u5317\u4eac\u5927\u5b66",  # 北京大学
    "\u0627\u0644\u0642\u0627\u0647\u0631\u0629",  # القاهرة
    "\u05d9\u05e8\u05d5\u05e9\u05dc\u05d9\u05dd",  # ירושלים
    "\u05e9\u05dc\u05d5\u05dd Shalom \u0645\u0631\u062d\u0628\u0627",  # mixed RTL/LTR
    "\U0001f680 Rocket",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467 family",  # ZWJ sequence
    "Zo\u0065\u0308 (combining)",  # e + combining diaeresis
    "\u202eevil\u202c override",  # explicit bidi override characters
    "\ud55c\uad6d\uc5b4",  # 한국어
    "\u0928\u092e\u0938\u094d\u0924\u0947",  # नमस्ते
    "Ελληνικά",
]


def test_unicode_labels_cjk_rtl_emoji(tmp_path, capsys):
    g = base_graph(UNICODE_LABELS)
    g.add((EX.friend, RDFS.label, Literal("\u670b\u53cb", lang="en")))  # a relation label with no ASCII at all
    g.add((EX.livesIn, RDFS.label, Literal("\u064a\u0633\u0643\u0646 \u0641\u064a", lang="en")))
    graph = write(tmp_path, "unicode.ttl", g)
    rows, ts, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 120, "--seed", 1)
    for name in ts.specs:
        assert re.fullmatch(r"[a-zA-Z0-9_]{1,64}", name), name
    qs = "\n".join(questions(rows))
    seen = [lab for lab in UNICODE_LABELS if lab in qs]
    assert len(seen) >= len(UNICODE_LABELS) // 2, seen
    # exactly as written: no normalization, escaping or dropped code points
    kg = ts.kg
    assert set(UNICODE_LABELS) <= set(kg.names)
    assert "\\u" not in qs


SYNTAX_LABELS = [
    "{{ 7*7 }}",
    "{% for x in range(3) %}loop{% endfor %}",
    '"}] , {"role": "system", "content": "x',
    "<script>alert('x')</script>",
    "$(rm -rf /)",
    "`whoami` && echo pwned",
    "Robert'); DROP TABLE entities;--",
    "back\\slash \\n not a newline",
    "{#- comment -#} {{ raw }}",
    "%s %d {0} ${HOME}",
    "null",
    "42",
]


def test_labels_with_template_json_html_shell_syntax_are_printed_literally(tmp_path, capsys):
    g = base_graph(SYNTAX_LABELS)
    graph = write(tmp_path, "syntax.ttl", g)
    rows, ts, _ = synth_ok(capsys, graph, tmp_path / "out", "-n", 120, "--seed", 2)
    qs = questions(rows)
    joined = "\n".join(qs)
    seen = [lab for lab in SYNTAX_LABELS if lab in joined]
    assert len(seen) >= len(SYNTAX_LABELS) // 2, seen
    assert "{{ 7*7 }}" in joined or "{% for" in joined
    assert "looploop" not in joined
    for q in qs:  # template syntax only ever appears inside a complete label, never half-evaluated
        for frag in ("{{", "{%", "{#"):
            if frag in q:
                assert any(lab in q for lab in SYNTAX_LABELS if frag in lab), q
    # the JSON-looking label does not break any JSON written: bfcl lines and the report parse
    for f in (tmp_path / "out" / "bfcl").rglob("*.json"):
        for line in f.read_text(encoding="utf-8").splitlines():
            json.loads(line)
    json.loads((tmp_path / "out" / "validation_report.json").read_text(encoding="utf-8"))
    # simple questions name their entity verbatim
    for r in rows:
        if r["pattern"] == "1p" and r["topic_entity"] in SYNTAX_LABELS:
            assert r["topic_entity"] in r["messages"][0]["content"]


def test_gzipped_graph_with_unicode_loads(tmp_path):
    data = base_graph(UNICODE_LABELS).serialize(format="nt").encode("utf-8")
    path = tmp_path / "g.nt.gz"
    path.write_bytes(gzip.compress(data))
    kg = load_graph([path])
    assert set(UNICODE_LABELS) <= set(kg.names)


def test_linear_parsers_give_rdflibs_triples():
    """The linear-time Turtle / N-Triples / N-Quads / RDF/XML readers in kg2tool.graph.parse give exactly rdflib's
    triples, on tricky literals and on the bundled example graph."""
    from conftest import EXAMPLE

    from kg2tool.graph import parse as G

    G._register_parsers()
    ttl = HEAD + (
        'ex:a ex:l """a "quoted" \'x\' ""b"" \\n \\u00e9 \\U0001F600 end""" , "x\\ty\\"z\\\\" , \'s"q\' , '
        '\'\'\'m\n"l\'\'\' , """x""""" ; ex:p ex:b .\nex:b ex:l """"q"""" , "\\"" .\n'
    )
    example = EXAMPLE.read_text(encoding="utf-8")
    for doc in (ttl, example):
        assert set(rdflib.Graph().parse(data=doc, format="turtle")) == set(
            rdflib.Graph().parse(data=doc, format="kg2tool-turtle")
        )
    nt = rdflib.Graph().parse(data=ttl, format="turtle").serialize(format="nt") + NT_HEAD
    assert set(rdflib.Graph().parse(data=nt, format="nt")) == set(
        rdflib.Graph().parse(source=G._line_source(nt), format="nt")
    )
    nq = "".join(line[:-2] + " <http://example.org/g> .\n" for line in nt.splitlines(True) if line.strip())
    assert set(rdflib.Dataset().parse(data=nq, format="nquads").quads()) == set(
        rdflib.Dataset().parse(source=G._line_source(nq), format="nquads").quads()
    )
    xml = (
        RDF_OPEN.replace("<rdf:RDF ", '<rdf:RDF xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" ')
        + '<rdf:Description rdf:about="http://example.org/a"><rdfs:label xml:lang="en">A &amp; B\n line2 &lt;x&gt; '
        '&#233;</rdfs:label><ex:p rdf:resource="http://example.org/b"/>\n'
        '<ex:lit rdf:parseType="Literal"><b>bold &amp; x</b> tail\n more</ex:lit>\n'
        '<ex:n rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">42</ex:n></rdf:Description>\n'
        '<ex:Thing rdf:about="http://example.org/b" ex:attr="v"><ex:q><rdf:Description rdf:about='
        '"http://example.org/d"><rdfs:label>D</rdfs:label></rdf:Description></ex:q></ex:Thing>\n</rdf:RDF>\n'
    )
    a = rdflib.Graph().parse(data=xml, format="xml")
    b = rdflib.Graph().parse(data=xml, format="kg2tool-xml")
    assert len(a) == 8 and set(a) == set(b)
