"""Property tests over generated graphs, with hypothesis.

Random small graphs (entities with random unicode labels or none, random relations with random labels, typed
literals), serialized by rdflib as Turtle or N-Triples and loaded from the file like a user's graph:
- every conversation synth keeps passes verification again and the independent `checks.check_row`;
- every derived schema is a valid Draft 2020-12 schema, and tool names are unique and match `^[a-zA-Z0-9_]{1,64}$`;
- a written dataset folder loads back with `datasets.load_dataset` to exactly the rows in memory.
"""

from __future__ import annotations

import json
import re
import tempfile
from datetime import date
from pathlib import Path

import pytest
import rdflib
from checks import check_row
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from rdflib import RDFS, XSD, Literal, Namespace

from kg2tool.common.errors import NothingToDoError
from kg2tool.graph.build import load_graph
from kg2tool.synth.checks.verify import verify_row
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet

EX = Namespace("http://example.org/")
NAME_RE = re.compile(r"^[a-zA-Z0-9_]{1,64}$")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# any Unicode text that UTF-8 can carry: CJK, RTL, emoji, combining marks, controls, template/JSON syntax
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=14)
LABEL = st.one_of(
    st.none(),
    TEXT,
    st.sampled_from(["{{ 7*7 }}", '"}]', "<b>x</b>", "$(rm -rf /)", "東京", "القاهرة", "🚀", "Same", "Same"]),
)
KINDS = ("integer", "decimal", "date", "boolean", "string")


@st.composite
def graphs(draw):
    """(rdflib graph, n entities): 5-12 entities, 1-3 relations with >= 4 edges each, 0-2 typed attributes."""
    n = draw(st.integers(5, 12))
    idx = st.integers(0, n - 1)
    g = rdflib.Graph()
    for i in range(n):
        lab = draw(LABEL)
        if lab is not None:
            g.add((EX[f"e{i}"], RDFS.label, Literal(lab, lang=draw(st.sampled_from([None, "en", "de"])))))
        if draw(st.booleans()):
            g.add((EX[f"e{i}"], RDFS.comment, Literal(draw(TEXT))))
    for r in range(draw(st.integers(1, 3))):
        rel = EX[f"rel{r}"]
        lab = draw(LABEL)
        if lab is not None:
            g.add((rel, RDFS.label, Literal(lab)))
        for s, o in draw(st.lists(st.tuples(idx, idx), min_size=4, max_size=24)):
            g.add((EX[f"e{s}"], rel, EX[f"e{o}"]))
    for a in range(draw(st.integers(0, 2))):
        attr = EX[f"attr{a}"]
        kind = draw(st.sampled_from(KINDS))
        lab = draw(LABEL)
        if lab is not None:
            g.add((attr, RDFS.label, Literal(lab)))
        for i in draw(st.lists(idx, min_size=3, max_size=n, unique=True)):
            if kind == "integer":
                lit = Literal(draw(st.integers(-(10**12), 10**12)), datatype=XSD.integer)
            elif kind == "decimal":
                # whole numbers only: datasets' Json feature changes fractional floats (xfailed below)
                lit = Literal(float(draw(st.integers(-(10**6), 10**6))), datatype=XSD.double)
            elif kind == "date":
                lit = Literal(draw(st.dates(date(1000, 1, 1), date(2100, 12, 31))), datatype=XSD.date)
            elif kind == "boolean":
                lit = Literal(draw(st.booleans()))
            else:
                lit = Literal(draw(TEXT))
            g.add((EX[f"e{i}"], attr, lit))
    return g


def write_graph(g: rdflib.Graph, folder: Path, fmt: str) -> Path:
    path = folder / ("g.ttl" if fmt == "turtle" else "g.nt")
    path.write_text(g.serialize(format=fmt), encoding="utf-8")
    return path


def synthesizer(path: Path, seed: int, n: int = 30) -> Synthesizer:
    kg = load_graph([path])
    try:
        synth = Synthesizer(kg, SynthConfig(n=n, seed=seed, min_support=3, shard_size=n))
    except NothingToDoError:
        assume(False)  # every relation lost its support to duplicate edges: not a case for this property
        raise
    # Tools from attributes only (no relation with support) crash the walker: a known bug, xfailed in
    # test_bad_inputs.py::test_attribute_tools_without_any_relation_tool; left out here.
    assume(synth.walker.rels)
    # A graph whose only tools are one relation's pair crashes the DPO pair maker on irrelevance rows offered no
    # tool: a known bug, xfailed in test_bad_inputs.py::test_single_relation_graph; left out here.
    assume(len(synth.relation_tools) > 2)
    # No entity reached from two different anchors crashes the intersection shapes: a known bug, xfailed in
    # test_bad_inputs.py::test_graph_of_disjoint_pairs; left out here.
    assume(synth.walker.targets)
    return synth


@SETTINGS
@given(graphs(), st.sampled_from(["turtle", "nt"]), st.integers(0, 2**16))
def test_every_kept_conversation_passes_verification(g, fmt, seed):
    with tempfile.TemporaryDirectory() as tmp:
        path = write_graph(g, Path(tmp), fmt)
        synth = synthesizer(path, seed)
        rows, _ = synth.shard(0)
        fresh = ToolSet.from_graph(load_graph([path]), min_support=3)  # executor built anew from the file
        names = set(synth.kg.names)
        assert len(names) == len(synth.kg.names)  # display names are unique
        for row in rows:
            reason = verify_row(
                synth.ts,
                row["messages"],
                row["tools"],
                row["answers"],
                row["category"],
                allow_errors=row["pattern"] == "error_recovery",
            )
            assert reason is None, (reason, row["messages"])
            assert check_row(row, fresh) == [], (check_row(row, fresh), row["messages"])
            assert row["topic_entity"] in names
            json.dumps(row["messages"], ensure_ascii=False)  # JSON-ready


@SETTINGS
@given(graphs(), st.integers(1, 4))
def test_every_derived_schema_is_valid(g, min_support):
    with tempfile.TemporaryDirectory() as tmp:
        kg = load_graph([write_graph(g, Path(tmp), "turtle")])
    try:
        ts = ToolSet.from_graph(kg, min_support=min_support)
    except NothingToDoError:
        assume(False)
        raise
    schemas = ts.schemas()
    names = [s["function"]["name"] for s in schemas]
    assert len(names) == len(set(names))
    for s in schemas:
        assert s["type"] == "function" and set(s["function"]) == {"name", "description", "parameters"}
        assert NAME_RE.match(s["function"]["name"]), s["function"]["name"]
        params = s["function"]["parameters"]
        Draft202012Validator.check_schema(params)
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"])
        json.loads(json.dumps(s))
    # every entity that a lookup tool accepts validates against its schema (enums included)
    for name, spec in ts.specs.items():
        if spec.kind in ("forward", "attribute"):
            rel = kg.relations.get(spec.target) or kg.attributes[spec.target]
            ids = rel.forward if spec.kind == "forward" else rel.values
            for eid in ids:
                ts.validate(name, {"entity": kg.name(eid)})
                assert ts.execute(name, {"entity": kg.name(eid)}) is not None


# no shrinking: each example writes and loads a dataset, and shrinking a failure took minutes
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(graphs(), st.integers(0, 2**16))
def test_written_dataset_loads_back_equal(g, seed):
    from datasets import load_dataset

    from kg2tool.hub.dataset import SPLITS, dpo_features, sft_features, write_dataset
    from kg2tool.synth.run.pipeline import build_report, make_preference_pairs

    with tempfile.TemporaryDirectory() as tmp:
        path = write_graph(g, Path(tmp), "nt")
        synth = synthesizer(path, seed)
        candidates, stats = synth.candidates(0)
        assume(candidates)
        by_split = {s: [] for s in SPLITS}
        for i, cand in enumerate(candidates):
            by_split[SPLITS[i % 3] if len(candidates) >= 3 else "train"].append(cand)
        pairs = make_preference_pairs(by_split)
        kept = {s: [c.row for c in v] for s, v in by_split.items()}
        report = build_report(synth, kept, stats)
        meta = {"graphs": [str(path)], "command": "kg2tool synth (property test)", "version": "test", "seed": seed}
        out = Path(tmp) / "out"
        write_dataset(out, kept, report, meta, overwrite=False, pairs_by_split=pairs)
        ds = load_dataset(str(out), "sft", cache_dir=str(Path(tmp) / "cache"))
        cols = list(sft_features())
        for split in SPLITS:
            expected = [{k: r[k] for k in cols} for r in kept[split]]
            got = list(ds[split]) if split in ds else []
            for a, b in zip(got, expected):
                assert a == b, json.dumps([(x, y) for x, y in zip(a["messages"], b["messages"]) if x != y] or a)
            assert len(got) == len(expected), split
        if any(pairs.values()):
            dpo = load_dataset(str(out), "dpo", cache_dir=str(Path(tmp) / "cache"))
            cols = list(dpo_features())
            for split in SPLITS:
                expected = [{k: p[k] for k in cols} for p in pairs[split]]
                assert (list(dpo[split]) if split in dpo else []) == expected, split


@pytest.mark.xfail(
    strict=True,
    reason="datasets.Json decodes with pandas' ujson_loads (not precise_float), which reads '0.3' as "
    "0.30000000000000004; kg2tool now writes exact JSON strings, so the stored bytes are right, but "
    "load_dataset still returns the imprecise float (a datasets issue)",
)
def test_floats_with_many_digits_round_trip(tmp_path):
    from datasets import load_dataset

    from kg2tool.hub.dataset import sft_features, write_dataset

    value = 92355.89279423654
    row = {
        "id": "compare_0",
        "messages": [
            {"role": "user", "content": "Which is larger?"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function", "function": {
                "name": "compare", "arguments": {"items": [{"name": "A", "value": value}, {"name": "B", "value": 1 / 3}],
                                                 "mode": "max"}}}]},
            {"role": "tool", "tool_call_id": "call_1", "name": "compare", "content": '"A"'},
            {"role": "assistant", "content": "A."},
        ],
        "tools": [],
        "pattern": "compare",
        "category": "multi_step",
        "answers": ["A"],
        "topic_entity": "A",
        "relation_path": [],
        "num_calls": 1,
        "num_turns": 1,
        "plan": {"values": [value, 1 / 3, 0.3]},
    }  # fmt: skip
    report = {"kept": {"total": 1, "by_split": {"train": 1}, "by_pattern": {}, "by_category": {}}, "dropped": {}}
    meta = {"graphs": [], "command": "test", "version": "test", "seed": 0}
    write_dataset(tmp_path / "out", {"train": [row]}, report, meta, overwrite=False)
    got = load_dataset(str(tmp_path / "out"), "sft", cache_dir=str(tmp_path / "cache"))["train"][0]
    assert got == {k: row[k] for k in sft_features()}
