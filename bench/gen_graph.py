"""A generated knowledge graph of a given size with realistic degree skew, as N-Triples or Turtle (or gzipped).

    python bench/gen_graph.py --triples 1000000 --out /tmp/kg2tool-bench/g1m.nt

Entities are people (60%), places (15%), organizations (10%), works (13%) and concepts (2%, occupations and
genres), each with an `rdfs:label` drawn from a syllable vocabulary (so labels collide, as real names do), a type,
a description for half of them and an alternative label for a tenth. Thirteen relations link them; the object of
most relations is drawn with a power law over its target class (a few hubs get most edges: like countries, big
employers and famous authors), the rest uniformly. Attributes: dates (birth, founding) and integers (population,
pages). About 6.6 triples per entity. The same arguments give the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import random
from pathlib import Path

EX = "http://example.org/"
RDFS_LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
ALT = "<http://www.w3.org/2004/02/skos/core#altLabel>"
DESC = "<http://schema.org/description>"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
XSD = "http://www.w3.org/2001/XMLSchema#"

CLASSES = (("Person", 0.60), ("Place", 0.15), ("Organization", 0.10), ("Work", 0.13), ("Concept", 0.02))
# relation, subject class, object class, probability a subject has it, mean extra objects, skew (0: uniform)
RELATIONS = (
    ("place_of_birth", "Person", "Place", 0.9, 0.0, 3.0),
    ("citizenship", "Person", "Place", 0.8, 0.1, 6.0),
    ("occupation", "Person", "Concept", 0.7, 0.4, 3.0),
    ("employer", "Person", "Organization", 0.4, 0.2, 3.0),
    ("member_of", "Person", "Organization", 0.2, 0.5, 2.0),
    ("spouse", "Person", "Person", 0.15, 0.0, 0.0),
    ("knows", "Person", "Person", 0.35, 1.5, 2.5),
    ("located_in", "Place", "Place", 0.95, 0.0, 5.0),
    ("headquarters", "Organization", "Place", 0.8, 0.0, 3.0),
    ("founded_by", "Organization", "Person", 0.4, 0.3, 2.0),
    ("author", "Work", "Person", 0.95, 0.2, 3.0),
    ("genre", "Work", "Concept", 0.8, 0.5, 2.0),
    ("publisher", "Work", "Organization", 0.6, 0.0, 3.0),
)
ATTRIBUTES = (
    ("date_of_birth", "Person", 0.6, "date"),
    ("population", "Place", 0.7, "integer"),
    ("inception", "Organization", 0.6, "date"),
    ("number_of_pages", "Work", 0.5, "integer"),
)
SYLLABLES = (
    "ka ri to mo la ne si ve da lu ga bo re mi an el or is ul en ta ko ru sa fi de no ha pe zu ya vi lo ma te "
    "ber gar mon sel tan dor kel vin ros mar"
).split()
TRIPLES_PER_ENTITY = 6.6  # measured on the output: sets the entity count for a target triple count


def _name(rng: random.Random, words: int) -> str:
    out = []
    for _ in range(words):
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
        out.append(w.capitalize())
    return " ".join(out)


def generate(triples: int, out: Path, seed: int = 0) -> int:
    """Write about `triples` triples to `out` (.nt or .ttl, optionally .gz); return the number written."""
    rng = random.Random(seed)
    n = max(50, int(triples / TRIPLES_PER_ENTITY))
    # Class ranges: entity ids [start, end) per class, in a fixed order.
    ranges: dict[str, tuple[int, int]] = {}
    start = 0
    for i, (cls, frac) in enumerate(CLASSES):
        end = n if i == len(CLASSES) - 1 else start + max(5, int(n * frac))
        ranges[cls] = (start, end)
        start = end
    cls_of = [c for c, (a, b) in ranges.items() for _ in range(a, b)]

    def pick(cls: str, skew: float) -> int:
        a, b = ranges[cls]
        u = rng.random()
        return a + min(b - a - 1, int((b - a) * (u ** (1 + skew) if skew else u)))

    turtle = ".ttl" in out.suffixes
    opener = gzip.open if out.suffix == ".gz" else open
    out.parent.mkdir(parents=True, exist_ok=True)
    count = 0

    def block(s: str, pairs: list[tuple[str, str]]) -> str:
        """One subject's triples: N-Triples lines, or a Turtle block with prefixed names."""
        if not turtle:
            return "".join(f"{s} {p} {o} .\n" for p, o in pairs)
        short = [(p.replace(f"<{EX}", "ex:").rstrip(">") if p.startswith(f"<{EX}") else p,
                  o.replace(f"<{EX}", "ex:")[:-1] if o.startswith(f"<{EX}") else o) for p, o in pairs]  # fmt: skip
        subject = s.replace(f"<{EX}", "ex:")[:-1]
        return subject + " " + " ;\n    ".join(f"{p} {o}" for p, o in short) + " .\n"

    with opener(out, "wt", encoding="utf-8") as f:
        buf: list[str] = []
        if turtle:
            buf.append(f"@prefix ex: <{EX}> .\n")
        for name in [c for c, _ in CLASSES] + [r[0] for r in RELATIONS] + [a[0] for a in ATTRIBUTES]:
            text = name.lower() if name[0].isupper() else name.replace("_", " ")
            buf.append(block(f"<{EX}{name}>", [(RDFS_LABEL, f'"{text}"@en')]))
            count += 1
        for e in range(n):
            cls = cls_of[e]
            s = f"<{EX}e{e}>"
            pairs = [(RDFS_LABEL, f'"{_name(rng, 2 if cls == "Person" else 1)}"@en'), (TYPE, f"<{EX}{cls}>")]
            if rng.random() < 0.5:
                pairs.append((DESC, f'"{cls.lower()} from {_name(rng, 1)}"@en'))
            if rng.random() < 0.1:
                pairs.append((ALT, f'"{_name(rng, 1)}"@en'))
            for rel, scls, ocls, prob, extra, skew in RELATIONS:
                if scls != cls or rng.random() >= prob:
                    continue
                k = 1
                while extra and rng.random() < extra / (1 + extra):
                    k += 1
                for _ in range(k):
                    o = pick(ocls, skew)
                    if o != e:
                        pairs.append((f"<{EX}{rel}>", f"<{EX}e{o}>"))
            for attr, acls, prob, kind in ATTRIBUTES:
                if acls != cls or rng.random() >= prob:
                    continue
                if kind == "date":
                    v = f"{rng.randint(1700, 2020)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                else:
                    v = str(int(10 ** rng.uniform(1, 7)))
                pairs.append((f"<{EX}{attr}>", f'"{v}"^^<{XSD}{kind}>'))
            buf.append(block(s, pairs))
            count += len(pairs)
            if len(buf) >= 20_000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))
    return count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--triples", type=int, required=True)
    ap.add_argument("--out", required=True, help="file to write: .nt or .ttl, optionally .gz")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    written = generate(args.triples, Path(args.out), args.seed)
    print(f"wrote {written:,} triples to {args.out}")


if __name__ == "__main__":
    main()
