#!/usr/bin/env python3
"""Rebuild tests/data/kgqa/metaqa/ (a MetaQA test sample and the part of its KB it needs) from the source files.

MetaQA (Zhang et al., AAAI 2018; CC BY 3.0) asks 1-, 2- and 3-hop questions over the WikiMovies KB
(``kb.txt``: ``movie|relation|object``). Neither ``kb.txt`` (5.2 MB) nor a copy of it fits a snapshot that can be
fetched here, so the KB is rebuilt from the MetaQA files stored in github.com/vaijsc/keallm (pinned below):

* ``data/MetaQA/{train,dev,test_old}.tsv``: every ``kb.txt`` line as ids (keallm's ``preprocess2.step_one``
  shuffles kb.txt and cuts it 129,000 / 1,000 / rest), mapped back with ``entity2text.txt`` and
  ``relation2text.txt`` (relation text with ``_`` for spaces is the KB name). ``train.tsv`` comes from another
  shuffle than ``dev.tsv`` and ``test_old.tsv`` (they overlap it), so about 5,500 kb.txt lines are in none of them;
* ``data/MetaQA/1-hop/dev.txt`` with ``qa_dev_qtype.txt``: a 1-hop dev question of type ``movie_to_director``
  about ``[F]`` lists all of F's ``directed_by`` objects, so its answers restate kb.txt facts (some of the missing
  ones). No *test* question's answers are used to build the graph.

The questions are MetaQA's vanilla test files (``N-hop/test.txt`` with ``N-hop/qa_test_qtype.txt``). The question
type gives the relation path (``movie_to_director_to_movie``: ``directed_by``, ``^directed_by``). A question is
kept when walking that path from its topic entity on the rebuilt KB, the topic left out of every hop's set (as
MetaQA's answers are), reaches exactly its answer set (this walker is independent of kg2tool: 20 lines below).
The rest are counted per reason in ``stats.json``: the KB rebuilt here lacks a fact, or MetaQA's answer set is
not what its KB says (a title shared by a film and its remake is one KB node, whose facts merge both films, while
the answers are one film's; titles with a comma split in two answers, yuyuz/MetaQA issue #2).

From the kept ones, 100 per hop count are taken in the order of the SHA-256 of their source line (deterministic,
spread over the file). The graph written is every KB triple those questions' walks go through (for each entity a
hop reaches, all its triples of the next relation, so the walk on the subset equals the walk on the whole KB), plus
every triple of each film on a walk (its other people, year, genres, tags: the names a model's answer may collide
with, e.g. a person and a lower-case tag of the same words).

    git clone --bare https://github.com/vaijsc/keallm MIRROR/vaijsc+keallm/repo
    .venv/bin/python tests/data/kgqa/metaqa/make_metaqa.py --mirror MIRROR

Deterministic (sorted output, gzip without a timestamp): a rerun writes the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
REPO = "vaijsc/keallm"
COMMIT = "cf68f911e2484809bf5b0da413ba3d9768a747b7"
PER_HOP = 100
KB = "http://example.org/kb/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"

# a MetaQA question-type word -> the KB relation linking a movie to it
NODE = {
    "director": "directed_by",
    "writer": "written_by",
    "actor": "starred_actors",
    "year": "release_year",
    "language": "in_language",
    "genre": "has_genre",
    "tags": "has_tags",
    "tag": "has_tags",
    "imdbrating": "has_imdb_rating",
    "imdbvotes": "has_imdb_votes",
}


def read_source(mirror: Path, path: str) -> str:
    base = mirror / REPO.replace("/", "+") / "repo"
    git_dir = base / ".git" if (base / ".git").is_dir() else base
    out = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:data/MetaQA/{path}"], check=True, capture_output=True
    )
    return out.stdout.decode("utf-8")


def lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def relation_path(qtype: str) -> list[str]:
    """'movie_to_director_to_movie' -> ['directed_by', '^directed_by'] ('^': walked from object to subject)."""
    parts = qtype.split("_to_")
    return [NODE[b] if a == "movie" else "^" + NODE[a] for a, b in zip(parts, parts[1:])]


def topic_of(question: str) -> str:
    return re.search(r"\[([^\[\]]+)\]", question).group(1)


def kb_triples(mirror: Path) -> tuple[set, dict]:
    # ids are line positions (keallm looks names up with list.index), names the text after the first tab
    names = {str(i): line.split("\t", 1)[1] for i, line in enumerate(lines(read_source(mirror, "entity2text.txt")))}
    rels = {
        str(i): line.split("\t", 1)[1].replace(" ", "_")
        for i, line in enumerate(lines(read_source(mirror, "relation2text.txt")))
    }
    triples, counts = set(), {}
    for part in ("train.tsv", "dev.tsv", "test_old.tsv"):
        rows = lines(read_source(mirror, part))
        counts[part] = len(rows)
        for row in rows:
            h, r, t = row.split("\t")
            triples.add((names[h], rels[r], names[t]))
    counts["kb_lines_unique"] = len(triples)
    known = set(names.values())
    qa = lines(read_source(mirror, "1-hop/dev.txt"))
    qt = lines(read_source(mirror, "1-hop/qa_dev_qtype.txt"))
    assert len(qa) == len(qt)
    before = len(triples)
    for line, qtype in zip(qa, qt):
        question, answers = line.split("\t")
        topic, (step,) = topic_of(question), relation_path(qtype.strip())
        for ans in answers.split("|"):
            if ans in known and topic in known:
                triples.add((ans, step[1:], topic) if step.startswith("^") else (topic, step, ans))
    counts["added_from_1hop_dev"] = len(triples) - before
    counts["triples"] = len(triples)
    return triples, counts


class Walker:
    """The benchmark's semantics, independent of kg2tool: follow the path, the topic out of every hop's set."""

    def __init__(self, triples):
        self.out, self.inv = defaultdict(set), defaultdict(set)
        self.by_subject = defaultdict(set)
        for s, r, o in triples:
            self.out[s, r].add(o)
            self.inv[o, r].add(s)
            self.by_subject[s].add((s, r, o))

    def walk(self, topic: str, path: list[str], used: set | None = None) -> set:
        current = {topic}
        for step in path:
            reached = set()
            for e in sorted(current):
                if step.startswith("^"):
                    found = self.inv[e, step[1:]]
                    if used is not None:
                        used.update((s, step[1:], e) for s in found)
                else:
                    found = self.out[e, step]
                    if used is not None:
                        used.update((e, step, o) for o in found)
                reached |= found
            current = reached - {topic}
        return current


def iri(name: str) -> str:
    return "<" + KB + "entity/" + quote(name.replace(" ", "_"), safe="_-.()',!&:") + ">"


def literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def gz_bytes(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", type=Path, default=Path("/work/.mirror"), help="folder holding owner+name/repo")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)

    triples, stats = kb_triples(args.mirror)
    walker = Walker(triples)
    films_of_walks, used, records = set(), set(), []
    stats["questions"] = {}
    for hops in (1, 2, 3):
        qa = lines(read_source(args.mirror, f"{hops}-hop/test.txt"))
        qt = lines(read_source(args.mirror, f"{hops}-hop/qa_test_qtype.txt"))
        assert len(qa) == len(qt)
        kept, why = [], Counter()
        for lineno, (line, qtype) in enumerate(zip(qa, qt), 1):
            question, answers = line.split("\t")
            topic, path, gold = topic_of(question), relation_path(qtype.strip()), set(answers.split("|"))
            got = walker.walk(topic, path)
            if got == gold:
                kept.append((hashlib.sha256(line.encode("utf-8")).hexdigest(), lineno, question, answers, qtype, path))
            else:
                why["answers the KB does not reach" if gold - got else "KB reaches more than the answers"] += 1
        stats["questions"][f"{hops}-hop"] = {"test": len(qa), "reproduced": len(kept), **why}
        for _, lineno, question, answers, qtype, path in sorted(kept)[:PER_HOP]:
            topic = topic_of(question)
            walk_used = set()
            walker.walk(topic, path, walk_used)
            used |= walk_used
            films_of_walks |= {s for s, _, _ in walk_used}
            records.append(
                {
                    "id": f"metaqa-{hops}hop-test-{lineno}",
                    "question": question.replace("[", "").replace("]", ""),
                    "answers": sorted(answers.split("|")),
                    "topic_entity": topic,
                    "relation_path": path,
                    "hops": hops,
                    "qtype": qtype.strip(),
                }
            )
    context = {t for f in films_of_walks for t in walker.by_subject[f]}
    sub = used | context
    names = sorted({n for s, _, o in sub for n in (s, o)})
    iris = {n: iri(n) for n in names}
    assert len(set(iris.values())) == len(iris), "two names share an IRI"
    nt = sorted({f"{iris[s]} <{KB}relation/{r}> {iris[o]} ." for s, r, o in sub})
    nt += sorted(f"{iris[n]} <{LABEL}> {literal(n)} ." for n in names)
    stats["graph"] = {"edges": len(sub), "walk_edges": len(used), "entities": len(names), "triples": len(nt)}

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "metaqa-kb.nt.gz").write_bytes(gz_bytes(("\n".join(nt) + "\n").encode("utf-8")))
    (args.out / "metaqa-test-sample.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    (args.out / "stats.json").write_text(json.dumps(stats, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for name in ("metaqa-kb.nt.gz", "metaqa-test-sample.jsonl", "stats.json"):
        print(f"{name}: {(args.out / name).stat().st_size} bytes", file=sys.stderr)
    print(json.dumps(stats, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
