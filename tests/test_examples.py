"""The second bundled example graph, examples/company.ttl: it is exactly what its generator writes, and the
end-to-end pipeline runs on it (every row passes the independent checker)."""

import subprocess
import sys

import pytest
from checks import check_row
from conftest import ROOT

COMPANY = ROOT / "examples" / "company.ttl"
GENERATOR = ROOT / "examples" / "make_company_graph.py"
BFCL_CATEGORIES = {"simple", "multiple", "parallel", "parallel_multiple", "irrelevance"}


def test_company_graph_is_what_the_generator_writes(tmp_path):
    out = tmp_path / "company.ttl"
    res = subprocess.run([sys.executable, str(GENERATOR), "--out", str(out)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert out.read_bytes() == COMPANY.read_bytes(), "stale examples/company.ttl: run examples/make_company_graph.py"


@pytest.fixture(scope="module")
def company_kg():
    from kg2tool.graph.build import load_graph

    return load_graph([COMPANY])


def test_company_graph_loads_typed_and_labelled(company_kg):
    kg = company_kg
    assert 2000 <= len(kg) <= 4000 and len(kg.relations) >= 25
    assert kg.stats.unlabeled_entities == 0 and kg.stats.ill_typed_literals_skipped == 0
    kinds = {a.kind for a in kg.attributes.values()}
    assert {"integer", "number", "date", "string"} <= kinds
    assert all(kg.types[i] for i in range(len(kg))), "every entity has an rdf:type"


def test_company_graph_synthesizes_verified_rows(tmp_path, company_kg):
    from datasets import load_dataset

    from kg2tool.cli import main
    from kg2tool.synth.tools.toolset import ToolSet

    out = tmp_path / "company"
    assert (
        main(["synth", "--graph", str(COMPANY), "--out", str(out), "-n", "200", "--seed", "0", "--no-progress"]) == 0
    )
    ts = ToolSet.from_graph(company_kg)
    ds = load_dataset(str(out), "sft")
    assert sum(len(ds[s]) for s in ds) == 200 and len(ds["test"]) > 0
    patterns, cats = set(), set()
    for split in ds:
        for row in ds[split]:
            assert check_row(row, ts) == [], row["id"]
            patterns.add(row["pattern"])
            cats.add(row["category"])
    assert cats >= BFCL_CATEGORIES | {"multi_step", "multi_turn"}
    assert len(patterns) >= 15
