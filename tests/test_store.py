"""The on-disk graph store (`kg2tool synth --store PATH`, kg2tool.graph.store): built from the graph files on first use,
reused after, refused when the files changed; the same graph as the in-memory load, hence the same dataset bytes."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from checks import check_row
from conftest import EXAMPLE, make_small_graph

pytest.importorskip("pyoxigraph", reason="the on-disk store needs the `store` extra (pyoxigraph)")

from kg2tool.common.errors import InputError, MissingExtraError, OutputError, UsageError  # noqa: E402
from kg2tool.graph.build import load_graph  # noqa: E402
from kg2tool.graph.store import open_store, read_manifest  # noqa: E402
from kg2tool.synth.run.pipeline import run_synth  # noqa: E402
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer  # noqa: E402
from kg2tool.synth.tools.toolset import ToolSet  # noqa: E402


def quiet(msg: str) -> None:
    pass


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def same_graph(a, b) -> None:
    """Every table the walker, executor and writers read is equal."""
    n = len(a)
    assert len(b) == n
    for attr in ("entities", "labels", "names", "alt_labels", "descriptions", "types", "degree"):
        assert [getattr(b, attr)[i] for i in range(n)] == list(getattr(a, attr)), attr
    assert list(b.relations) == list(a.relations)
    for iri, ra in a.relations.items():
        rb = b.relations[iri]
        assert (rb.label, rb.description, rb.support) == (ra.label, ra.description, ra.support)
        assert {k: rb.forward[k] for k in rb.forward} == ra.forward
        assert {k: rb.inverse[k] for k in rb.inverse} == ra.inverse
    assert list(b.attributes) == list(a.attributes)
    for iri, xa in a.attributes.items():
        xb = b.attributes[iri]
        assert (xb.label, xb.kind, xb.support) == (xa.label, xa.kind, xa.support)
        assert {k: xb.values[k] for k in xb.values} == xa.values
    for i in range(n):
        for text in (a.names[i], a.labels[i], *a.alt_labels[i], a.labels[i].upper(), a.names[i] + "x"):
            assert b.resolve(text) == a.resolve(text), text
    assert vars(b.stats) == vars(a.stats)
    assert b.summary() == a.summary()


@pytest.fixture(scope="module")
def small_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("g") / "small.ttl"
    path.write_text(make_small_graph(), encoding="utf-8")
    return path


def test_store_is_the_same_graph_and_is_reused(tmp_path, small_file):
    logs: list[str] = []
    kg = open_store(tmp_path / "st", [small_file], log=logs.append)
    assert any("built" in m for m in logs)
    manifest = read_manifest(tmp_path / "st")
    assert manifest["files"][0]["sha256"] == hashlib.sha256(small_file.read_bytes()).hexdigest()
    same_graph(load_graph([small_file]), kg)
    logs.clear()
    again = open_store(tmp_path / "st", [small_file], log=logs.append)
    assert any("reusing" in m for m in logs) and not any("built in" in m for m in logs)
    assert read_manifest(tmp_path / "st") == manifest
    assert again.names[3] == kg.names[3]


def test_store_folds_reified_nodes_as_the_in_memory_load(tmp_path):
    from test_reify import roles_ttl

    from kg2tool.graph.model import PredicateRules

    path = tmp_path / "roles.ttl"
    path.write_text(roles_ttl(), encoding="utf-8")
    kg = open_store(tmp_path / "st", [path], log=quiet)
    same_graph(load_graph([path]), kg)
    assert kg.stats.reified_nodes_folded > 0 and kg.stats.folded
    # --no-fold is part of what the store was built with: the same store is refused, a new one is today's graph
    off = PredicateRules(fold=False)
    with pytest.raises(UsageError, match="--no-fold"):
        open_store(tmp_path / "st", [path], log=quiet, predicates=off)
    plain = open_store(tmp_path / "st2", [path], log=quiet, predicates=off)
    same_graph(load_graph([path], predicates=off), plain)
    assert plain.stats.folded == [] and not [i for i in plain.relations if i.startswith("urn:kg2tool:fold")]
    assert "film role character" in {r.label for r in kg.relations.values()}


def test_changed_graph_file_is_refused_then_rebuilt(tmp_path):
    g = tmp_path / "g.ttl"
    g.write_text(make_small_graph(30), encoding="utf-8")
    open_store(tmp_path / "st", [g], log=quiet)
    g.write_text(make_small_graph(35), encoding="utf-8")
    with pytest.raises(UsageError, match=r"changed since it was built.*--rebuild-store"):
        open_store(tmp_path / "st", [g], log=quiet)
    with pytest.raises(UsageError, match="other graph files"):
        open_store(tmp_path / "st", [g, EXAMPLE], log=quiet)
    with pytest.raises(UsageError, match="--lang en, not de"):
        open_store(tmp_path / "st", [g], lang="de", log=quiet)
    kg = open_store(tmp_path / "st", [g], rebuild=True, log=quiet)
    same_graph(load_graph([g]), kg)


def test_gzipped_ntriples_and_merged_files(tmp_path, small_file):
    import rdflib

    nt = rdflib.Graph().parse(small_file).serialize(format="nt")
    gz = tmp_path / "small.nt.gz"
    gz.write_bytes(gzip.compress(nt.encode("utf-8")))
    kg = open_store(tmp_path / "st", [gz, EXAMPLE], log=quiet)
    same_graph(load_graph([gz, EXAMPLE]), kg)
    assert read_manifest(tmp_path / "st")["files"][0]["sha256"] == hashlib.sha256(gz.read_bytes()).hexdigest()


def test_bad_paths_and_formats(tmp_path, small_file, monkeypatch):
    other = tmp_path / "not-a-store"
    other.mkdir()
    (other / "keep.txt").write_text("x")
    with pytest.raises(UsageError, match="not a kg2tool store"):
        open_store(other, [small_file], log=quiet)
    assert (other / "keep.txt").exists()
    with pytest.raises(InputError, match="no such file"):
        open_store(tmp_path / "st", [tmp_path / "missing.ttl"], log=quiet)
    jsonld = tmp_path / "g.jsonld"
    jsonld.write_text("{}")
    with pytest.raises(UsageError, match="Turtle, N-Triples"):
        open_store(tmp_path / "st", [jsonld], log=quiet)
    bad = tmp_path / "bad.nt"
    bad.write_text("<http://a> <http://b> .\n")
    with pytest.raises(InputError, match="bad.nt: malformed nt"):
        open_store(tmp_path / "st", [bad], log=quiet)
    assert not (tmp_path / "st").exists() and not list(tmp_path.glob(".st.*"))  # no temporary folder left
    monkeypatch.setitem(sys.modules, "pyoxigraph", None)
    with pytest.raises(MissingExtraError, match=r"kg2tool\[store\]"):
        open_store(tmp_path / "st", [small_file], log=quiet)


def test_unwritable_store_path_is_an_output_error(tmp_path, small_file):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="cannot write"):
        open_store(tmp_path / "file" / "st", [small_file], log=quiet)
    assert (tmp_path / "file").read_text() == "x" and sorted(p.name for p in tmp_path.iterdir()) == ["file"]

def test_store_rows_pass_the_independent_check(tmp_path, small_file):
    kg = open_store(tmp_path / "st", [small_file], log=quiet)
    synth = Synthesizer(kg, SynthConfig(seed=3, shard_size=400))
    rows, _ = synth.shard(0)
    assert len(rows) > 200
    fresh = ToolSet.from_graph(load_graph([small_file]))  # the executor of an in-memory load of the file
    for row in rows:
        assert check_row(row, fresh) == [], row["messages"]


def test_synth_with_store_writes_the_same_dataset(tmp_path):
    """Same bytes as the in-memory path, on the first run (build) and on a reuse with two workers."""
    cfg = dict(lang="en", progress=False, log=quiet)
    run_synth([str(EXAMPLE)], tmp_path / "mem", SynthConfig(n=600, seed=4), **cfg)
    run_synth([str(EXAMPLE)], tmp_path / "st1", SynthConfig(n=600, seed=4), store_path=tmp_path / "store", **cfg)
    run_synth([str(EXAMPLE)], tmp_path / "st2", SynthConfig(n=600, seed=4), store_path=tmp_path / "store",
              workers=2, **cfg)  # fmt: skip
    ref = digest(tmp_path / "mem")
    assert digest(tmp_path / "st1") == ref
    assert digest(tmp_path / "st2") == ref
    report = json.loads((tmp_path / "st1" / "validation_report.json").read_text())
    assert report["kept"]["total"] == 600


def test_cli_store_flags(tmp_path, small_file):
    def synth(*args):
        cmd = [sys.executable, "-m", "kg2tool.cli", "synth", "--graph", str(small_file), "-n", "50", "--no-progress"]
        return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, cwd=tmp_path)

    first = synth("--out", "a", "--store", "st")
    assert first.returncode == 0, first.stderr
    assert "built in" in first.stderr
    os.utime(small_file, ns=(1, 1))  # same bytes, other modification time: refused (the check is size + mtime)
    refused = synth("--out", "b", "--store", "st")
    assert refused.returncode == 2 and "--rebuild-store" in refused.stderr and not (tmp_path / "b").exists()
    rebuilt = synth("--out", "b", "--store", "st", "--rebuild-store")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert digest(tmp_path / "a") == digest(tmp_path / "b")
    card = (tmp_path / "a" / "README.md").read_text()
    assert "--store" not in card  # the reproduction command leaves out flags that do not change the data
    usage = synth("--out", "c", "--rebuild-store")
    assert usage.returncode == 2 and "needs --store" in usage.stderr


def test_workers_after_the_triple_store_was_opened(tmp_path, small_file):
    """The triple store is not built with the index (synthesis never reads it): it is built on first use and gives
    the graph's triples. A process that opened its RocksDB must not fork: the pool spawns workers that open the
    store themselves, and their shards are the ones computed here."""
    from itertools import islice

    import rdflib

    from kg2tool.synth.run.shards import iter_shards

    kg = open_store(tmp_path / "st", [small_file], log=quiet)
    assert not (tmp_path / "st" / "oxigraph").exists()  # not built with the index
    cfg = SynthConfig(seed=5, shard_size=64)
    synth = Synthesizer(kg, cfg)
    assert kg.descriptions[kg.resolve("Person 3")] == "person number 3"  # from the index
    assert kg.forkable  # synthesis reads only the index
    logs: list[str] = []
    store = kg.triple_store(log=logs.append)
    assert any("triple store built" in m for m in logs) and not kg.forkable
    assert len(store) == len(rdflib.Graph().parse(small_file)) == kg.stats.triples == read_manifest(tmp_path / "st")["triples"]
    ask = "SELECT ?d WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> 'Person 3'@en ; <http://schema.org/description> ?d }"
    assert [row[0].value for row in store.query(ask)] == ["person number 3"]
    again = open_store(tmp_path / "st", [small_file], log=quiet)  # reused as it is, the triple store with it
    again.triple_store(log=logs.append)
    assert sum("triple store built" in m for m in logs) == 1
    build_args = ([str(small_file)], "en", cfg, None, str(tmp_path / "st"))
    got = [(i, candidates) for i, candidates, _ in islice(iter_shards(synth, 2, None, build_args=build_args), 3)]
    for i, candidates in got:
        assert [c.row for c in candidates] == synth.shard(i)[0]


def test_triple_store_of_changed_files_is_refused(tmp_path):
    g = tmp_path / "g.ttl"
    g.write_text(make_small_graph(30), encoding="utf-8")
    kg = open_store(tmp_path / "st", [g], log=quiet)
    g.write_text(make_small_graph(35), encoding="utf-8")
    with pytest.raises(UsageError, match=r"g.ttl changed since the store was built.*--rebuild-store"):
        kg.triple_store(log=quiet)
    assert not (tmp_path / "st" / "oxigraph").exists() and sorted(p.name for p in (tmp_path / "st").iterdir()) == [
        "index", "manifest.json"
    ]


def test_distinct_triples_are_counted_as_rdflib_does(tmp_path):
    """`stats.triples` (the load report's) is counted by the index pass: repeated triples (in a file, across
    files, across named graphs), blank nodes (distinct per file), schema triples, links and ill-typed literals."""
    a = tmp_path / "a.nt"
    b = tmp_path / "b.nq"
    ex = "http://ex.org/"
    lines = [
        f'<{ex}a> <http://www.w3.org/2000/01/rdf-schema#label> "A" .',
        f'<{ex}a> <http://www.w3.org/2000/01/rdf-schema#label> "A" .',
        f'<{ex}a> <http://www.w3.org/2000/01/rdf-schema#label> "A"@en .',
        f'<{ex}b> <http://www.w3.org/2000/01/rdf-schema#label> "B" .',
        f'<{ex}a> <{ex}knows> <{ex}b> .',
        f'<{ex}a> <{ex}knows> <{ex}b> .',
        f'<{ex}a> <{ex}age> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .',
        f'<{ex}a> <{ex}age> "8"^^<http://www.w3.org/2001/XMLSchema#integer> .',
        f'<{ex}a> <{ex}born> "2020-13-45"^^<http://www.w3.org/2001/XMLSchema#date> .',
        f'<{ex}a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{ex}Person> .',
        f'<{ex}a> <http://www.w3.org/2002/07/owl#sameAs> <{ex}a2> .',
        f'<{ex}a> <http://xmlns.com/foaf/0.1/page> <https://ex.org/a.html> .',
        f"<{ex}a> <{ex}has> _:x .",
        "_:x <http://www.w3.org/2000/01/rdf-schema#label> \"x\" .",
    ]
    a.write_text("\n".join(lines) + "\n", encoding="utf-8")
    b.write_text("\n".join(f"{line[:-2]} <{ex}g{k % 2}> ." for k, line in enumerate(lines)) + "\n", encoding="utf-8")
    for files in ([a], [a, b]):
        kg = open_store(tmp_path / f"st{len(files)}", files, log=quiet)
        assert kg.stats.triples == load_graph(files).stats.triples == (12 if len(files) == 1 else 14)
        same_graph(load_graph(files), kg)


def test_vectorized_hygiene_is_tidy_edges():
    """The store's hygiene over id arrays (kg2tool.graph.store.tidy) keeps, drops and turns into links exactly what
    kg2tool.graph.hygiene.tidy_edges does, duplicates and all."""
    from array import array

    import numpy as np

    from kg2tool.graph.hygiene import tidy_edges
    from kg2tool.graph.store.tidy import tidy_arrays

    iris = ["http://ex.org/Alice", "http://ex.org/Bob", "http://ex.org/Q42", "http://www.wikidata.org/entity/Q5",
            "http://other.org/12345", "https://pics.org/a.jpg", "http://ex.org/stmt/9f86d081884c7d659a2feaa0c55ad015",
            "http://ex.org/Carol"]  # fmt: skip
    labelled = np.array([1, 1, 0, 0, 0, 0, 0, 1], dtype=bool)
    has_out = np.array([1, 1, 1, 0, 0, 0, 1, 1], dtype=bool)
    edges = {
        "http://ex.org/knows": [(0, 1), (1, 7), (0, 1), (2, 0), (7, 4)],  # an opaque subject, an opaque object
        "http://ex.org/image": [(0, 5), (1, 5), (7, 5)],  # every object a link: URL values
        "http://ex.org/same": [(0, 3), (1, 4)],  # records on other hosts: links, unless forced
        "http://ex.org/about": [(6, 0)],  # only an opaque subject: nothing left
    }
    wants = []
    for forced in (frozenset(), frozenset({"http://ex.org/same"})):
        rels = {p: (array("i", [s for s, _ in v]), array("i", [o for _, o in v])) for p, v in edges.items()}
        got, _ = tidy_arrays(rels, iris, labelled, has_out, forced)
        want = tidy_edges({p: set(v) for p, v in edges.items()}, iris.__getitem__, lambda n: bool(labelled[n]),
                          lambda n: bool(has_out[n]), forced)  # fmt: skip
        assert {p: list(zip(s.tolist(), o.tolist())) for p, (s, o) in got.edges.items()} == want.edges
        assert got.links == want.links and got.opaque == want.opaque and got.opaque_edges == want.opaque_edges
        wants.append(want)
    free, forced_ = wants  # every rule was exercised: links, forced relations (their opaque objects dropped)
    assert set(free.links) == {"http://ex.org/image", "http://ex.org/same"} and free.opaque == {2, 6, 4}
    assert "http://ex.org/same" not in forced_.links and forced_.opaque == {2, 3, 4, 6}


def test_store_reads_public_naming_conventions_as_the_in_memory_load(tmp_path):
    """Freebase names, types, ids and property paths, and OWL's own classes, read the same way by the store."""
    from test_build import CONVENTIONS_TTL

    path = tmp_path / "c.ttl"
    path.write_text(CONVENTIONS_TTL, encoding="utf-8")
    same_graph(load_graph([path]), open_store(tmp_path / "st", [path], log=quiet))


def test_the_store_drops_forgotten_codes_as_memory_does(tmp_path):
    """An unlabelled catalogue code in a namespace of named nodes (kg2tool.graph.hygiene.is_forgotten_code): the
    same nodes dropped in the store as in memory."""
    th, ex = "http://ex.org/thesaurus#", "http://ex.org/"
    lines = []
    for k in range(30):
        lines += [f'<{th}C{1000 + k}> <http://www.w3.org/2000/01/rdf-schema#label> "Concept {k}" .',
                  f"<{th}C{1000 + k}> <{ex}inSubset> <{th}C{9000 + k % 3}> .",
                  f"<{th}C{1000 + k}> <{ex}broader> <{th}C{1000 + (k + 1) % 30}> .",
                  f"<{ex}wp/WP{1400 + k}> <{ex}about> <{th}C{1000 + k}> ."]  # fmt: skip
    lines.append(f'<{th}C9001> <{ex}note> "a subset" .')
    path = tmp_path / "codes.nt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mem = load_graph([path])
    assert f"{ex}inSubset" not in mem.relations and "WP1400" in mem.names
    same_graph(mem, open_store(tmp_path / "st", [path], log=quiet))


def test_a_relation_to_nodes_named_only_by_codes_is_a_string_value_in_the_store_as_in_memory(tmp_path):
    """Nodes named only by a catalogue code (a label like `C10.597.690`, or no label and a code as local part:
    `E05`) are identifiers: the relation to them becomes a string value of the code (kg2tool.graph.hygiene
    `is_code_label`), in both loaders. A relation with one object named by words stays a relation, as does one
    whose objects are years."""
    ex, label = "http://ex.org/", "http://www.w3.org/2000/01/rdf-schema#label"
    lines = []
    for k in range(6):
        lines += [f'<{ex}d{k}> <{label}> "Disease {k}" .',
                  f'<{ex}tn{k}> <{label}> "C10.{597 + k}.690" .',
                  f"<{ex}d{k}> <{ex}treeNumber> <{ex}tn{k}> .",
                  f"<{ex}tn{k}> <{ex}parentTreeNumber> <{ex}E0{k}> .",
                  f'<{ex}y{k}> <{label}> "19{90 + k}" .',
                  f"<{ex}d{k}> <{ex}firstNamed> <{ex}y{k}> .",
                  f"<{ex}d{k}> <{ex}relatedTo> <{ex}{'tn' if k else 'd'}{(k + 1) % 6}> ."]  # fmt: skip
    path = tmp_path / "codes.nt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mem = load_graph([path])
    assert f"{ex}treeNumber" not in mem.relations and f"{ex}parentTreeNumber" not in mem.relations
    d0 = mem.resolve("Disease 0")
    assert mem.attributes[f"{ex}treeNumber"].values[d0] == ("C10.597.690",)
    assert mem.attributes[f"{ex}parentTreeNumber"].values[mem.resolve("C10.598.690")] == ("E01",)
    assert f"{ex}firstNamed" in mem.relations and f"{ex}relatedTo" in mem.relations
    assert mem.stats.code_relations == 2
    same_graph(mem, open_store(tmp_path / "st", [path], log=quiet))
