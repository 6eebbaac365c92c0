"""Agreement of kg2tool's AST checker with BFCL's official checker on gold and perturbed outputs.

Runs every entry of BFCL's simple_python, multiple, parallel, parallel_multiple and irrelevance files (from the
installed ``bfcl-eval``, or ``--bfcl-data DIR``) through ``kg2tool.evaluation.perturb.perturbations`` and scores
each case with both checkers, in both function-name modes (dots kept, and dots written as underscores as BFCL
requires of OpenAI-style models). Prints agreement on ``valid`` per category and overall, agreement on
``error_type``, how often BFCL itself crashed, and examples of disagreements.

    . .venv/bin/activate && sh .ci/install-bfcl.sh
    python bench/bench_ast_agreement.py                    # the large set: all entries x all perturbations
    python bench/bench_ast_agreement.py --limit 20 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from kg2tool.evaluation.ast_checker import check
from kg2tool.evaluation.bfcl_data import AST_CATEGORIES, installed_data_dir, load_category
from kg2tool.evaluation.bfcl_official import load_official
from kg2tool.evaluation.perturb import perturbations


@dataclass
class Tally:
    cases: int = 0
    agree: int = 0
    error_type_agree: int = 0
    valid: int = 0
    official_raised: int = 0
    kinds: Counter = field(default_factory=Counter)
    examples: list = field(default_factory=list)


def compare(entries: list, official, underscore_to_dot: bool, tally: Tally, max_examples: int) -> None:
    """Score every case of every entry with both checkers and add the outcome to ``tally``."""
    for entry in entries:
        for kind, output in perturbations(entry):
            ours = check(
                entry.functions, output, entry.ground_truth, entry.category, underscore_to_dot=underscore_to_dot
            )
            theirs = official(entry.functions, output, entry.ground_truth, entry.category, underscore_to_dot)
            tally.cases += 1
            tally.valid += theirs["valid"]
            tally.official_raised += str(theirs["error_type"]).startswith("official_raised")
            if ours.valid != theirs["valid"]:
                tally.kinds[kind] += 1
                if len(tally.examples) < max_examples:
                    tally.examples.append(
                        {
                            "id": entry.id,
                            "kind": kind,
                            "underscore_to_dot": underscore_to_dot,
                            "output": output,
                            "ours": ours.to_dict(),
                            "official": theirs,
                        }
                    )
                continue
            tally.agree += 1
            tally.error_type_agree += ours.error_type == theirs["error_type"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bfcl-data", help="BFCL data folder (default: the installed bfcl-eval's)")
    parser.add_argument("--limit", type=int, default=0, help="entries per category (0 = all)")
    parser.add_argument("--examples", type=int, default=5, help="disagreement examples to print per category")
    parser.add_argument("--json", help="also write the figures as JSON to this path")
    args = parser.parse_args(argv)

    official = load_official()
    data_dir = args.bfcl_data or installed_data_dir()
    tallies: dict[str, Tally] = {}
    start = time.perf_counter()
    for category in AST_CATEGORIES:
        entries = load_category(data_dir, category)
        entries = entries[: args.limit] if args.limit else entries
        tally = tallies[category] = Tally()
        for underscore_to_dot in (False, True):
            compare(entries, official, underscore_to_dot, tally, args.examples)
    elapsed = time.perf_counter() - start

    total = Tally()
    print(f"{'category':<20}{'cases':>9}{'valid%':>9}{'agree':>9}{'agree%':>10}{'err_type%':>11}{'bfcl_crash':>12}")
    for category, t in [*tallies.items(), ("overall", total)]:
        if category != "overall":
            for name in ("cases", "agree", "error_type_agree", "valid", "official_raised"):
                setattr(total, name, getattr(total, name) + getattr(t, name))
            total.kinds.update(t.kinds)
            total.examples += t.examples
        print(
            f"{category:<20}{t.cases:>9}{100 * t.valid / max(t.cases, 1):>8.1f}%{t.agree:>9}"
            f"{100 * t.agree / max(t.cases, 1):>9.3f}%{100 * t.error_type_agree / max(t.agree, 1):>10.2f}%"
            f"{t.official_raised:>12}"
        )
    print(f"disagreements: {total.cases - total.agree} ({elapsed:.1f} s for both checkers)")
    for kind, count in total.kinds.most_common(20):
        print(f"  {kind}: {count}")
    for example in total.examples[:20]:
        print("  example:", json.dumps(example, default=str)[:600])
    if args.json:
        figures = {
            c: {
                "cases": t.cases,
                "agree": t.agree,
                "error_type_agree": t.error_type_agree,
                "valid": t.valid,
                "official_raised": t.official_raised,
                "disagreements_by_kind": dict(t.kinds),
            }
            for c, t in [*tallies.items(), ("overall", total)]
        }
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"figures": figures, "examples": total.examples}, handle, indent=1, default=str)
    return 0 if total.agree == total.cases else 1


if __name__ == "__main__":
    sys.exit(main())
