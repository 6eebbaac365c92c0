"""Regenerate the README's command outputs from the commands themselves: `make readme-figures`.

A block in README.md between `<!-- figures: NAME -->` and `<!-- /figures -->` holds what the command of FIGURES[NAME]
prints, run here from a temporary folder (so `out/...` paths read as in the README and nothing lands in the
checkout). Timings change from run to run; counts do not, and `tests/test_readme.py` checks that the README's
blocks still match what the commands print, with timings masked.

    python docs/readme_figures.py            # rewrite the blocks in README.md
    python docs/readme_figures.py --check    # exit 1 if a block's counts differ from the command's output
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# name -> the kg2tool arguments, as the README prints them (paths relative to the repository root)
FIGURES = {
    "synth": ["synth", "--graph", "examples/wiki.ttl", "--out", "out/wiki", "-n", "2000", "--seed", "0"],
}
BLOCK = re.compile(r"(<!-- figures: (?P<name>[\w-]+) -->\n```(?:text)?\n)(?P<body>.*?)(```\n<!-- /figures -->)", re.S)
PROGRESS = re.compile(r"^[\w ]+:\s+\d+%\|")
# Figures that vary between runs of the same command: seconds, rates, progress-bar clocks.
VOLATILE = [
    (re.compile(r"\d[\d,]*\.\d+s\b"), "<s>"),
    (re.compile(r"\d[\d,]*(?:\.\d+)?conv/s"), "<rate>"),
    (re.compile(r"\[\d\d:\d\d<\d\d:\d\d, *"), "["),
]


def run(name: str) -> str:
    """What `kg2tool ARGS` prints (stderr and stdout as a terminal would show them, last state of a progress bar)."""
    args = list(FIGURES[name])
    with tempfile.TemporaryDirectory() as tmp:
        args = [str(ROOT / a) if a.startswith("examples/") else a for a in args]
        env = dict(os.environ, COLUMNS="100")
        res = subprocess.run([sys.executable, "-m", "kg2tool", *args], cwd=tmp, capture_output=True, text=True, env=env)
    if res.returncode != 0:
        raise SystemExit(f"kg2tool {' '.join(FIGURES[name])} failed ({res.returncode}):\n{res.stderr}")
    lines = [line.split("\r")[-1].rstrip() for line in (res.stderr + res.stdout).splitlines()]
    # a progress bar written to a pipe leaves one line per update: keep its final state only
    lines = [line for line in lines if line]
    lines = [line for k, line in enumerate(lines)  # "100%" at 1997/2000 too: the bar's last line only
             if not (PROGRESS.match(line) and k + 1 < len(lines) and PROGRESS.match(lines[k + 1]))]  # fmt: skip
    lines = [line for k, line in enumerate(lines) if k == 0 or masked(line) != masked(lines[k - 1])]
    return "\n".join(lines) + "\n"


def masked(text: str) -> str:
    for pattern, repl in VOLATILE:
        text = pattern.sub(repl, text)
    return text


def blocks(text: str) -> dict[str, str]:
    """The figure blocks of the README, by name."""
    return {m["name"]: m["body"] for m in BLOCK.finditer(text)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting; exit 1 on a mismatch")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    found = blocks(text)
    missing = sorted(set(FIGURES) - set(found))
    if missing:
        raise SystemExit(f"README.md has no figure block for {missing}")
    fresh = {name: run(name) for name in FIGURES}
    if args.check:
        bad = [n for n in FIGURES if masked(fresh[n]) != masked(found[n])]
        for n in bad:
            print(f"README block {n!r} differs from the command's output:\n{fresh[n]}", file=sys.stderr)
        return 1 if bad else 0
    new = BLOCK.sub(lambda m: m.group(1) + fresh.get(m["name"], m["body"]) + m.group(4), text)
    tmp = README.with_name(".README.md.tmp")
    tmp.write_text(new, encoding="utf-8")
    os.replace(tmp, README)
    print(f"README.md: {len(fresh)} figure blocks regenerated ({', '.join(fresh)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
