"""`kg2tool card check DIR`: validate a dataset folder's card offline (what the Hub and `datasets` read).

kg2tool card check out/wiki            # YAML fields, configs, data files; datasets resolves every config
kg2tool card check out/wiki --online   # also the Hub's own validator (needs network)
"""

from __future__ import annotations

import sys

from ..common.errors import InputError


def register(sub) -> None:
    """Add the `card` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser("card", help="check a dataset folder's card (README.md)", description=__doc__.split("\n")[0])
    actions = p.add_subparsers(dest="card_action", metavar="ACTION", required=True)
    c = actions.add_parser("check", help="validate the card offline; exit 3 if invalid")
    c.add_argument("dir", help="dataset folder written by kg2tool synth")
    c.add_argument("--online", action="store_true", help="also run the Hub's validator (huggingface_hub, network)")
    c.add_argument("--strict", action="store_true", help="treat warnings as errors")
    c.set_defaults(func=run)


def run(args) -> int:
    """Run `kg2tool card` (check a dataset folder's card) with the parsed `args`; return the exit code."""
    from ..hub.card import check_card

    report = check_card(args.dir, load=True, online=args.online)
    print(report.format())
    if not report.ok or (args.strict and report.warnings):
        raise InputError(f"{report.path}: the card does not validate ({len(report.errors)} error(s))")
    print(f"card ok ({len(report.warnings)} warning(s))", file=sys.stderr)
    return 0
