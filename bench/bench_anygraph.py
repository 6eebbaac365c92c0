"""Any graph a user brings (issue 39): how often a graph's conventions leak into the questions and answers.

    python bench/bench_anygraph.py [-n 500] [--seed 0] [--show K] [--only NAME,...] [--keep DIR]

For each convention fixture (tests/data/conventions: Freebase, a snake_case movie KB, OWL named individuals,
DBpedia, underscore/kebab-case relations), the project's own graphs (examples/wiki.ttl, Nobel, Star Wars) and real
graphs of other conventions (tests/data/unseen: MetaQA's movie KB, FB15k-237 with names, the W3C wine ontology, DBpedia entity
descriptions, schema.org diaries, Nomisma's SKOS thesaurus, PeriodO's periods; kept blind: Polifonia's pipe organs,
WikiPathways RDF, ISWC Semantic Web Dog Food metadata; kept blind, second batch: the National Portrait Gallery in
CIDOC-CRM, YAGO3-10, the Health IT Ontology; kept blind, third batch: the Stardog tutorial music graph,
CurriculumKG, GND person records; kept blind, fourth batch: the Unified Astronomy Thesaurus, Reactome pathways in
BioPAX, the OSM Semantic Network; kept blind, fifth batch: OntoPiA's Italian territorial classifications, the
Syriac Gazetteer, an NCI Thesaurus subset; kept blind, sixth batch: the SemOpenAlex data sample, MeSH RDF sample
records, BIBFRAME 2 Library of Congress records, an Uberon fragment in OBO OWL; kept blind, seventh batch: the
Archives nationales' RiC-O example dataset, Project Gutenberg catalogue records), runs
`kg2tool synth --graph G --out TMP -n N --seed S --overwrite` in a subprocess, reads the rows of DIR/sft/*.parquet
and prints per graph: rows written (a failed synth is reported with the tail of its stderr), rows with
`schema_problems` (tests/lint.py: dotted paths, ids, underscore/camelCase words, placeholder kinds) and with
`language_problems`, and the most frequent problem kinds. A schema problem whose word is written in one of the
graph's own literals (a label, a name, a title: "DoCoMo", "JAK1_HUMAN", the OSM tag "amenity=bank") is the data's
own text, not a convention leaking from IRIs: the `schema` column counts rows with a problem word found nowhere in
the graph's literals, `own text` the rows whose problem words are all the data's (shown apart, not counted). `--show K` prints K example problem rows per graph
(the first problem of each, rows picked evenly through the dataset). Needs no reader and no GPU.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lint import language_problems, schema_problems  # noqa: E402

CONVENTIONS = ROOT / "tests" / "data" / "conventions"
GRAPHS = {
    "freebase": CONVENTIONS / "freebase.nt",
    "snake_kb": CONVENTIONS / "snake_kb.ttl",
    "owl_individuals": CONVENTIONS / "owl_individuals.ttl",
    "dbpedia": CONVENTIONS / "dbpedia.ttl",
    "underscore": CONVENTIONS / "underscore.ttl",
    "wiki": ROOT / "examples" / "wiki.ttl",
    "nobel": ROOT / "tests" / "data" / "real" / "nobelprize.nt.gz",
    "starwars": ROOT / "tests" / "data" / "real" / "swapi-starwars.ttl.gz",
    # real graphs of other conventions kept for blind checks (tests/data/unseen/README.md): read their rows only
    # after writing a rule, to see it work on a graph it was not written against
    "metaqa": ROOT / "tests" / "data" / "unseen" / "metaqa-wikimovies.ttl.gz",
    "fb15k237": ROOT / "tests" / "data" / "unseen" / "fb15k237-freebase.nt.gz",
    "wine": ROOT / "tests" / "data" / "unseen" / "w3c-wine-owl.ttl",
    "esbm_dbpedia": ROOT / "tests" / "data" / "unseen" / "esbm-dbpedia.nt.gz",
    "diaries": ROOT / "tests" / "data" / "unseen" / "amsterdam-diaries-schemaorg.nt.gz",
    "nomisma": ROOT / "tests" / "data" / "unseen" / "nomisma-skos.nt.gz",
    "periodo": ROOT / "tests" / "data" / "unseen" / "periodo-periods.nt.gz",
    # kept blind (added 2026-12-07): nobody writing wording rules has read questions from these three; report
    # their counts only (no --show, no reading rows) until a blind reading is done
    "organs": ROOT / "tests" / "data" / "unseen" / "organs-polifonia.nt.gz",
    "wikipathways": ROOT / "tests" / "data" / "unseen" / "wikipathways-gpml.nt.gz",
    "iswc": ROOT / "tests" / "data" / "unseen" / "iswc-swdf.nt.gz",
    # kept blind (added 2026-12-07, second batch): same rule, counts only until a blind reading is done
    "npg": ROOT / "tests" / "data" / "unseen" / "npg-cidoc-crm.nt.gz",
    "yago310": ROOT / "tests" / "data" / "unseen" / "yago310-yago3.nt.gz",
    "hito": ROOT / "tests" / "data" / "unseen" / "hito-owl-skos.nt.gz",
    # kept blind (added 2026-12-07, third batch): same rule, counts only until a blind reading is done
    "stardog_music": ROOT / "tests" / "data" / "unseen" / "music-stardog.nt.gz",
    "curriculum": ROOT / "tests" / "data" / "unseen" / "curriculum-currkg.nt.gz",
    "gnd": ROOT / "tests" / "data" / "unseen" / "gnd-persons-gndo.nt.gz",
    # kept blind (added 2026-12-07, fourth batch): same rule, counts only until a blind reading is done
    "uat": ROOT / "tests" / "data" / "unseen" / "uat-astronomy-skos.nt.gz",
    "reactome": ROOT / "tests" / "data" / "unseen" / "reactome-biopax3.nt.gz",
    "osn": ROOT / "tests" / "data" / "unseen" / "osm-semantic-network-skos.nt.gz",
    # kept blind (added 2026-12-07, fifth batch): same rule, counts only until a blind reading is done
    "ontopia": ROOT / "tests" / "data" / "unseen" / "ontopia-territories-clv.nt.gz",
    "syriaca": ROOT / "tests" / "data" / "unseen" / "syriaca-gazetteer-lawd.nt.gz",
    "ncit": ROOT / "tests" / "data" / "unseen" / "ncit-thesaurus-owl.nt.gz",
    # kept blind (added 2026-12-07, sixth batch): same rule, counts only until a blind reading is done
    "semopenalex": ROOT / "tests" / "data" / "unseen" / "semopenalex-scholarly-spar.nt.gz",
    "mesh": ROOT / "tests" / "data" / "unseen" / "mesh-rdf-meshv.nt.gz",
    "bibframe": ROOT / "tests" / "data" / "unseen" / "loc-bibframe2-records.nt.gz",
    "uberon": ROOT / "tests" / "data" / "unseen" / "uberon-fragment-obo-owl.nt.gz",
    # kept blind (added 2026-12-07, seventh batch): same rule, counts only until a blind reading is done
    "rico": ROOT / "tests" / "data" / "unseen" / "anf-archives-rico.nt.gz",
    "gutenberg": ROOT / "tests" / "data" / "unseen" / "gutenberg-catalog-pgterms.nt.gz",
    # kept blind (added 2026-12-07, eighth batch): same rule, counts only until a blind reading is done
    "wikidata": ROOT / "tests" / "data" / "unseen" / "wikidata-entities-wikibase.nt.gz",
    "datagovbe": ROOT / "tests" / "data" / "unseen" / "datagovbe-dcat-ldes.nt.gz",
    # kept blind (added 2026-12-07, ninth batch): same rule, counts only until a blind reading is done
    "bhl": ROOT / "tests" / "data" / "unseen" / "bhl-pages-schemaorg.nt.gz",
    # kept blind (added 2026-12-07, tenth batch): same rule, counts only until a blind reading is done
    "moma": ROOT / "tests" / "data" / "unseen" / "moma-exhibitions-linkedart.nt.gz",
    # kept blind (added 2026-12-07, eleventh batch): same rule, counts only until a blind reading is done
    "qudt": ROOT / "tests" / "data" / "unseen" / "qudt-constants-units.nt.gz",
    "fibo": ROOT / "tests" / "data" / "unseen" / "fibo-jurisdictions-agencies.nt.gz",
    # kept blind (added 2026-12-07, twelfth batch): same rule, counts only until a blind reading is done
    "rda": ROOT / "tests" / "data" / "unseen" / "uwlib-catalogue-rda.nt.gz",
    # kept blind (added 2026-12-07, thirteenth batch): same rule, counts only until a blind reading is done
    "inspire": ROOT / "tests" / "data" / "unseen" / "foodpairing-inspire-food.nt.gz",
    "fckg": ROOT / "tests" / "data" / "unseen" / "fckg-film-awards.nt.gz",
    "iptc": ROOT / "tests" / "data" / "unseen" / "iptc-sport-football.nt.gz",
    # kept blind (added 2026-12-08, fourteenth batch): same rule, counts only until a blind reading is done
    "ies": ROOT / "tests" / "data" / "unseen" / "ies-regions-of-world.nt.gz",
    "europarl": ROOT / "tests" / "data" / "unseen" / "europarl-questions-eli.nt.gz",
    "agraph_family": ROOT / "tests" / "data" / "unseen" / "agraph-family-tree.nt.gz",
    # kept blind (added 2026-12-08, fifteenth batch): same rule, counts only until a blind reading is done
    "oxpoints": ROOT / "tests" / "data" / "unseen" / "oxpoints-university-places.nt.gz",
    "northwind": ROOT / "tests" / "data" / "unseen" / "northwind-linkeddatahub-schemaorg.nt.gz",
    "aksw": ROOT / "tests" / "data" / "unseen" / "aksw-research-group-foaf.nt.gz",
    # kept blind (added 2026-12-08, sixteenth batch): same rule, counts only until a blind reading is done
    "air_routes": ROOT / "tests" / "data" / "unseen" / "air-routes-neptune.nt.gz",
    # kept blind (added 2026-12-08, seventeenth batch): same rule, counts only until a blind reading is done
    "brick_buildings": ROOT / "tests" / "data" / "unseen" / "brick-buildings.nt.gz",
}


def read_rows(out: Path) -> list[dict]:
    """The sft rows of a dataset folder, all splits, in file order; JSON-typed columns decoded."""
    import pyarrow.parquet as pq

    rows = []
    for f in sorted((out / "sft").glob("*.parquet")):
        for row in pq.read_table(f).to_pylist():
            row["messages"] = [json.loads(m) if isinstance(m, str) else m for m in row["messages"]]
            rows.append(row)
    return rows


def kind(problem: str) -> str:
    """The rule of a problem string: "camelCase word 'hasMaker': ..." -> "camelCase word"."""
    head = problem.split(": ", 1)[0]
    return re.sub(r" ['\"].*$", "", head) if re.search(r" ['\"]", head) else head


def literal_text(graph: Path) -> str:
    """Every literal of the graph (rdflib), one per line: the text the data itself writes."""
    import logging

    import rdflib

    logging.getLogger("rdflib").setLevel(logging.ERROR)  # ill-formed typed literals are the data's, read as text
    fmt = "nt" if ".nt" in graph.name else "turtle"
    opener = gzip.open if graph.suffix == ".gz" else open
    g = rdflib.Graph()
    with opener(graph, "rb") as f:
        g.parse(f, format=fmt)
    return "\n".join(str(o) for o in g.objects() if isinstance(o, rdflib.Literal))


def word_of(problem: str) -> str:
    """The flagged word of a problem string ("camelCase word 'hasMaker': ..." -> hasMaker); "" for none."""
    m = re.search(r" ['\"](.*?)['\"]: ", problem)
    return m[1] if m else ""


def synth(graph: Path, out: Path, n: int, seed: int) -> tuple[int, str, float]:
    cmd = [sys.executable, "-m", "kg2tool", "synth", "--graph", str(graph), "--out", str(out), "-n", str(n),
           "--seed", str(seed), "--overwrite", "--no-progress"]
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return done.returncode, (done.stderr + done.stdout).strip(), time.perf_counter() - t


def measure(name: str, graph: Path, out: Path, args) -> dict:
    rc, log, secs = synth(graph, out, args.n, args.seed)
    res = {"graph": name, "rc": rc, "secs": secs, "log": log, "rows": 0, "schema": 0, "language": 0, "own": 0,
           "kinds": Counter(), "words": Counter(), "examples": []}
    if rc != 0 or not (out / "sft").is_dir():
        return res
    rows = read_rows(out)
    res["rows"] = len(rows)
    text = literal_text(graph)
    data = lambda p: bool(word_of(p)) and word_of(p) in text  # noqa: E731
    bad = []
    for row in rows:
        found, lp = schema_problems(row), language_problems(row)
        sp = [p for p in found if not data(p)]
        res["own"] += bool(found) and not sp
        res["schema"] += bool(sp)
        res["language"] += bool(lp)
        res["kinds"].update({kind(p) for p in sp} | {"lang: " + kind(p) for p in lp})  # rows per kind
        res["words"].update(re.search(r" (['\"].*?['\"]): ", p)[1] for p in sp if re.search(r" (['\"].*?['\"]): ", p))
        if sp or lp:
            bad.append((row, sp + lp))
    step = max(1, len(bad) // max(1, args.show)) if args.show else 0
    res["examples"] = [(r["category"], probs) for r, probs in bad[::step][: args.show]] if args.show else []
    return res


def pct(k: int, n: int) -> str:
    return f"{k} ({100 * k / n:.0f}%)" if n else str(k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=0, help="example problem rows per graph")
    ap.add_argument("--only", default="", help="comma-separated graph names (default: all)")
    ap.add_argument("--keep", default=None, help="write the datasets under this folder instead of a temporary one")
    ap.add_argument("--top", type=int, default=5, help="problem kinds and words listed per graph")
    args = ap.parse_args()
    names = [g for g in args.only.split(",") if g] or list(GRAPHS)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        results = [measure(name, GRAPHS[name], base / name, args) for name in names]

    print(f"kg2tool synth -n {args.n} --seed {args.seed}; rows with problems (a row counts once per kind)\n")
    print(f"{'graph':<16} {'rows':>5} {'schema':>11} {'own text':>10} {'language':>10} {'secs':>6}  top problem kinds (rows)")
    for r in results:
        if r["rc"] != 0:
            print(f"{r['graph']:<16} FAILED (exit {r['rc']}): {r['log'].splitlines()[-1] if r['log'] else ''}")
            continue
        top = ", ".join(f"{k} {v}" for k, v in r["kinds"].most_common(args.top)) or "-"
        short = "" if r["rows"] >= args.n else " <n"
        print(f"{r['graph']:<16} {r['rows']:>5}{short} {pct(r['schema'], r['rows']):>11} {pct(r['own'], r['rows']):>10} "
              f"{pct(r['language'], r['rows']):>10} {r['secs']:>6.1f}  {top}")
    print("\nmost frequent schema words (problems):")
    for r in results:
        if r["words"]:
            print(f"  {r['graph']}: " + ", ".join(f"{w} {c}" for w, c in r["words"].most_common(args.top)))
    for r in results:
        if r["rc"] != 0:
            print(f"\n== {r['graph']}: synth failed (exit {r['rc']}); last lines:\n" +
                  "\n".join(r["log"].splitlines()[-8:]))
        if r["examples"]:
            print(f"\n== {r['graph']}: {len(r['examples'])} example problem rows")
            for cat, probs in r["examples"]:
                print(f"  [{cat}] {probs[0]}" + (f"  (+{len(probs) - 1} more)" if len(probs) > 1 else ""))


if __name__ == "__main__":
    main()
