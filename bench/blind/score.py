"""Score a blind reading: acceptance and naturalness of generated vs people's questions, by graph and shape.

    python bench/blind/score.py OUT/key.tsv OUT/ratings.tsv [more ratings.tsv ...]

Prints, per ratings file: accepted % and mean naturalness for each source (all graphs, then per graph), the
gap between people's and generated acceptance, the generated questions' acceptance by shape, and the rejected
generated questions with the reader's reason. With two ratings files, also how many generated questions the
readers agreed on.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def read_tsv(path: Path, width: int) -> dict[str, list[str]]:
    out = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        cells = (line.split("\t") + [""] * width)[:width]
        if not cells[0].startswith("Q"):
            raise SystemExit(f"{path}:{n}: expected an id like Q001, got {cells[0]!r}")
        out[cells[0]] = cells
    return out


def report(key: dict, ratings: dict, questions: dict) -> dict[str, bool]:
    missing = sorted(set(key) - set(ratings))
    if missing:
        print(f"  {len(missing)} ids not rated: {' '.join(missing[:10])}")
    tally = defaultdict(lambda: [0, 0, 0.0])
    accepted = {}
    for qid, (_, source, graph, pattern) in key.items():
        if qid not in ratings:
            continue
        ok = ratings[qid][1].strip().lower().startswith("y")
        nat = float(ratings[qid][2] or 0)
        accepted[qid] = ok
        for group in ((source, "all"), (source, graph), ("shape", pattern) if source == "generated" else None):
            if group:
                t = tally[group]
                t[0] += ok
                t[1] += 1
                t[2] += nat
    for source in ("generated", "people"):
        cells = [f"{g} {100 * t[0] / t[1]:.0f}% ({t[0]}/{t[1]}, {t[2] / t[1]:.2f})"
                 for (s, g), t in sorted(tally.items(), key=lambda kv: kv[0][1] != "all") if s == source]
        print(f"  {source}: " + "; ".join(cells))
    gen, ppl = tally[("generated", "all")], tally[("people", "all")]
    if gen[1] and ppl[1]:
        print(f"  gap: {100 * ppl[0] / ppl[1] - 100 * gen[0] / gen[1]:.0f} points")
    shapes = [f"{g} {t[0]}/{t[1]}" for (s, g), t in sorted(tally.items()) if s == "shape"]
    print("  by shape: " + ", ".join(shapes))
    for qid, (_, source, graph, pattern) in key.items():
        if source == "generated" and qid in ratings and not accepted[qid]:
            print(f"    no  {qid} [{graph} {pattern}] {questions.get(qid, '')}  -- {ratings[qid][3]}")
    return accepted


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    key_path = Path(argv[0])
    key = read_tsv(key_path, 4)
    questions = {q: cells[1] for q, cells in read_tsv(key_path.parent / "questions.tsv", 2).items()}
    seen = []
    for path in argv[1:]:
        print(path)
        seen.append(report(key, read_tsv(Path(path), 4), questions))
    if len(seen) == 2:
        gen = [q for q in key if key[q][1] == "generated" and q in seen[0] and q in seen[1]]
        agree = sum(seen[0][q] == seen[1][q] for q in gen)
        print(f"readers agree on {agree}/{len(gen)} generated questions")


if __name__ == "__main__":
    main(sys.argv[1:])
