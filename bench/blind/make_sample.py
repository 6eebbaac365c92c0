"""Blind reading of generated questions: a shuffled sample of generated first questions mixed with people's.

    python bench/blind/make_sample.py --out /tmp/blind1 --seed 108
    python bench/blind/make_sample.py --out /tmp/blind2 --seed 109 --graph NAME=PATH ... \
        --kgqa metaqa=tests/data/kgqa/metaqa/metaqa-test-sample.jsonl

Synthesizes `-n` rows on each graph (`kg2tool synth --seed S`), takes random first user questions from every
graph (100 in all), mixes them with 20 questions per graph that people wrote (`people.jsonl` here, and the
hand-written question file of the bundled graph), shuffles, and writes:
- OUT/questions.tsv   `id<TAB>question`: the only file a reader sees;
- OUT/key.tsv         `id<TAB>source<TAB>graph<TAB>pattern`: who wrote each question (keep it from the reader);
- OUT/reader.md       the reader's instructions, with the paths filled in.
Give reader.md to a reader who has not seen the key (a helper session that sees only questions.tsv), then
`python bench/blind/score.py OUT/key.tsv OUT/ratings.tsv`. Use a fresh seed per round.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GRAPHS = {
    "bundled": ROOT / "examples" / "wiki.ttl",
    "starwars": ROOT / "tests" / "data" / "real" / "swapi-starwars.ttl.gz",
    "nobel": ROOT / "tests" / "data" / "real" / "nobelprize.nt.gz",
}


def generated(graph: str, path: Path, work: Path, n: int, seed: int) -> list[dict]:
    """Every row's first user question from a fresh `kg2tool synth` of the graph."""
    out = work / f"synth-{graph}"
    cmd = [sys.executable, "-m", "kg2tool", "synth", "--graph", str(path), "--out", str(out), "-n", str(n),
           "--seed", str(seed), "--overwrite", "--no-progress"]
    done = subprocess.run(cmd, cwd=ROOT)
    if done.returncode not in (0, 7):  # 7: partial, the graph ran out of distinct questions (its rows are written)
        raise subprocess.CalledProcessError(done.returncode, cmd)
    rows = []
    for file in sorted((out / "sft").glob("*.parquet")):
        for row in pq.read_table(file, columns=["messages", "pattern"]).to_pylist():
            first = json.loads(row["messages"][0])
            rows.append({"graph": graph, "pattern": row["pattern"], "question": first["content"]})
    return rows


def people(rng: random.Random, per_graph: int) -> list[dict]:
    """People's questions: people.jsonl, and the bundled graph's hand-written question file."""
    by_graph: dict[str, list[str]] = {}
    for line in (HERE / "people.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        by_graph.setdefault(item["graph"], []).append(item["question"])
    wiki = ROOT / "examples" / "wiki-questions.jsonl"
    by_graph["bundled"] = [json.loads(line)["question"] for line in wiki.read_text(encoding="utf-8").splitlines()]
    out = []
    for graph in GRAPHS:
        for q in rng.sample(by_graph[graph], per_graph):
            out.append({"graph": graph, "pattern": "-", "question": q, "source": "people"})
    return out


def kgqa(rng: random.Random, files: list[str], count: int) -> list[dict]:
    """People's questions from public KGQA test sets (`NAME=FILE`, kg2tool's question-file JSONL: a `question`
    field per line): `count` from each, the graph named NAME in the key."""
    out = []
    for spec in files:
        name, path = spec.split("=", 1)
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        for line in rng.sample(lines, min(count, len(lines))):
            out.append({"graph": name, "pattern": "-", "question": json.loads(line)["question"], "source": "people"})
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("-n", type=int, default=600, help="rows synthesized per graph")
    ap.add_argument("--generated", type=int, default=100, help="generated questions in the sample, all graphs")
    ap.add_argument("--people", type=int, default=20, help="people's questions per graph")
    ap.add_argument("--graph", action="append", default=[], metavar="NAME=PATH",
                    help="read generated questions from these graphs instead (repeatable): graphs the wording rules "
                         "were not written against; people's questions still come from the three usual graphs")
    ap.add_argument("--kgqa", action="append", default=[], metavar="NAME=JSONL",
                    help="also mix in people's questions from a public KGQA test set (question-file JSONL, repeatable)")
    ap.add_argument("--kgqa-count", type=int, default=30, help="questions taken from each --kgqa file")
    args = ap.parse_args(argv)
    graphs = dict(g.split("=", 1) for g in args.graph) if args.graph else GRAPHS
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    sample = []
    for i, (graph, path) in enumerate(graphs.items()):
        take = args.generated // len(graphs) + (1 if i < args.generated % len(graphs) else 0)
        rows = generated(graph, path, args.out, args.n, args.seed)
        sample += [dict(r, source="generated") for r in rng.sample(rows, take)]
    sample += people(rng, args.people)
    sample += kgqa(rng, args.kgqa, args.kgqa_count)
    rng.shuffle(sample)
    questions, key = [], []
    for i, item in enumerate(sample, 1):
        qid = f"Q{i:03d}"
        questions.append(f"{qid}\t{' '.join(item['question'].split())}")
        key.append(f"{qid}\t{item['source']}\t{item['graph']}\t{item['pattern']}")
    (args.out / "questions.tsv").write_text("\n".join(questions) + "\n", encoding="utf-8")
    (args.out / "key.tsv").write_text("\n".join(key) + "\n", encoding="utf-8")
    reader = (HERE / "reader.md").read_text(encoding="utf-8")
    reader = reader.replace("QFILE", str(args.out / "questions.tsv"))
    reader = reader.replace("OUTFILE", str(args.out / "ratings.tsv"))
    (args.out / "reader.md").write_text(reader, encoding="utf-8")
    print(f"{len(sample)} questions in {args.out / 'questions.tsv'}; key in {args.out / 'key.tsv'}")


if __name__ == "__main__":
    main()
