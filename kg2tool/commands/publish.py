"""`kg2tool publish DIR --repo-id NAME`: upload a synth dataset folder to the Hugging Face Hub in one commit.

    kg2tool publish out/wiki --repo-id me/kg2tool-wiki --dry-run    # list the files and sizes, check the card
    HF_TOKEN=... kg2tool publish out/wiki --repo-id me/kg2tool-wiki --private
    kg2tool publish out/wiki --repo-id me/kg2tool-wiki --token-env MY_HF_WRITE_TOKEN

The token is read from --token-env VAR, else HF_TOKEN, else the stored `hf auth login`; it is never printed.
"""

from __future__ import annotations

import sys


def register(sub) -> None:
    """Add the `publish` subcommand to `sub` (an argparse subparsers object)."""
    p = sub.add_parser(
        "publish",
        help="upload a dataset folder to the Hugging Face Hub (one commit)",
        description="Create the dataset repository if missing and upload the folder in one commit.",
    )
    p.add_argument("dir", help="dataset folder written by kg2tool synth")
    p.add_argument("--repo-id", required=True, help="OWNER/NAME of the dataset repository")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.add_argument("--dry-run", action="store_true", help="list what would be uploaded and check the card; no network")
    p.add_argument("--token-env", metavar="VAR", default=None, help="read the token from this environment variable")
    p.add_argument("--message", default=None, help="commit message")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run `kg2tool publish` (upload a dataset folder to the Hugging Face Hub) with the parsed `args`; return the exit code."""
    from ..hub.publish import format_plan, plan_upload, publish, resolve_token

    plan = plan_upload(args.dir, args.repo_id, args.private)
    if args.dry_run:
        print(format_plan(plan))
        return 0
    token = resolve_token(args.token_env)
    print(f"uploading {len(plan.files)} files to https://huggingface.co/datasets/{plan.repo_id} ...", file=sys.stderr)
    info = publish(plan, token, args.message)
    print(f"published {plan.folder} to {getattr(info, 'commit_url', None) or plan.repo_id}")
    return 0
