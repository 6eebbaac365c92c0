"""Publish a synth dataset folder to the Hugging Face Hub as a dataset repository, in ONE commit.

Design choices:
- The files to upload are listed here (every regular file under the folder, except hidden paths such as
  checkpoints or temporary files), so `--dry-run` prints exactly what the upload sends.
- `create_repo(repo_type="dataset", exist_ok=True)`, then one `create_commit` with an add operation per file
  and a delete operation for every file left in the repo's `sft/`, `dpo/` and `bfcl/` folders by an earlier
  publish (parquet names carry a content hash, so a new run's files have new names; without the deletes the repo
  would keep stale shards). `upload_folder` is not used: with `hf_xet` installed, huggingface_hub 2.x may split
  a large folder into several commits.
- The card is checked offline first (`kg2tool.hub.card.check_card`, `datasets` resolves every config), then with
  the Hub's validator, before anything is created.
- The token comes from `--token-env VAR`, else `huggingface_hub.get_token()` (`HF_TOKEN`, then the stored
  login). It is never printed: every error message is scrubbed of it (and of anything shaped like an `hf_`
  token) before it reaches the user, and errors are re-raised without their cause.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..common.errors import InputError, OutputError, UsageError

REPO_DATA_DIRS = ("sft/", "dpo/", "bfcl/")
_TOKEN_RE = re.compile(r"hf_[A-Za-z0-9]{8,}")
_REPO_ID_RE = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$|^[A-Za-z0-9][\w.-]*$")


@dataclass
class UploadPlan:
    """What `publish` would upload: the folder, the target repo, and each file with its size; warnings to show."""
    folder: Path
    repo_id: str
    private: bool
    files: list[tuple[str, int]]  # (path in repo, size in bytes)
    warnings: list[str]

    @property
    def total_bytes(self) -> int:
        """The size of every planned file together, in bytes."""
        return sum(size for _, size in self.files)


def human_size(n: float) -> str:
    """A byte count as people read it: `512 B`, `3.4 MiB`."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def list_files(folder: Path) -> list[tuple[str, int]]:
    """Regular files under `folder` (POSIX paths relative to it, sorted), skipping any hidden path component."""
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not path.is_symlink() and not any(part.startswith(".") for part in rel.parts):
            out.append((rel.as_posix(), path.stat().st_size))
    return sorted(out)


def plan_upload(folder: str | Path, repo_id: str, private: bool = False) -> UploadPlan:
    """Check the folder and its card offline and list what would be uploaded; InputError if it is not valid."""
    from .card import check_card

    folder = Path(folder)
    if not _REPO_ID_RE.match(repo_id) or "--" in repo_id or ".." in repo_id:
        raise UsageError(f"--repo-id {repo_id!r}: expected NAME or OWNER/NAME (letters, digits, - _ .)")
    report = check_card(folder, load=True)
    if not report.ok:
        raise InputError(f"{report.path}: the card does not validate:\n" + "\n".join(f"  {e}" for e in report.errors))
    return UploadPlan(folder, repo_id, private, list_files(folder), report.warnings)


def format_plan(plan: UploadPlan) -> str:
    """The dry-run listing: target, one line per file with its size, the total and the warnings."""
    width = max(len(p) for p, _ in plan.files)
    lines = [
        f"would upload {len(plan.files)} files ({human_size(plan.total_bytes)}) from {plan.folder} to "
        f"https://huggingface.co/datasets/{plan.repo_id} ({'private' if plan.private else 'public if new'}), "
        "in one commit:"
    ]
    lines += [f"  {p:<{width}}  {human_size(size):>10}" for p, size in plan.files]
    lines.append("card: ok (checked offline; the Hub's validator runs before a real upload)")
    lines += [f"card warning: {w}" for w in plan.warnings]
    return "\n".join(lines)


def resolve_token(token_env: str | None = None) -> str:
    """The Hub token from `$token_env`, else huggingface_hub's usual places; UsageError if there is none."""
    if token_env:
        token = os.environ.get(token_env, "").strip()
        if not token:
            raise UsageError(f"--token-env {token_env}: the environment variable {token_env} is not set or empty")
        return token
    from huggingface_hub import get_token

    token = get_token()
    if not token:
        raise UsageError("no Hugging Face token: set HF_TOKEN, pass --token-env VAR, or log in with `hf auth login`")
    return token


def scrub(text: str, token: str | None) -> str:
    """`text` without the token (and anything shaped like an `hf_...` token)."""
    if token:
        text = text.replace(token, "***")
    return _TOKEN_RE.sub("hf_***", text)


def _operations(plan: UploadPlan, remote: list[str]):
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    new = {p for p, _ in plan.files}
    adds = [CommitOperationAdd(path_in_repo=p, path_or_fileobj=str(plan.folder / p)) for p, _ in plan.files]
    stale = [p for p in remote if p.startswith(REPO_DATA_DIRS) and p not in new]
    return adds + [CommitOperationDelete(path_in_repo=p) for p in sorted(stale)]


def _error_message(exc: Exception) -> str:
    name = type(exc).__name__
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if status in (401, 403):
        return f"the Hub refused the token ({status}): check that it is valid and has write access ({name}: {exc})"
    if status is not None:  # the Hub answered (HfHubHTTPError is an OSError, but not a network failure)
        return f"the Hub answered HTTP {status}: {name}: {exc}"
    if "Connect" in name or "Timeout" in name or "Network" in name or isinstance(exc, OSError):
        return f"cannot reach the Hugging Face Hub (network failure): {name}: {exc}"
    return f"upload failed: {name}: {exc}"


def publish(plan: UploadPlan, token: str, message: str | None = None):
    """Validate the card with the Hub, create the dataset repo if missing and upload the folder in one commit.
    Returns huggingface_hub's CommitInfo. Errors become OutputError with the token scrubbed from the message."""
    from huggingface_hub import DatasetCard, HfApi

    api = HfApi(token=token)
    try:
        DatasetCard.load(plan.folder / "README.md").validate(repo_type="dataset")
        api.create_repo(plan.repo_id, repo_type="dataset", private=plan.private or None, exist_ok=True)
        remote = api.list_repo_files(plan.repo_id, repo_type="dataset")
        return api.create_commit(
            plan.repo_id,
            _operations(plan, remote),
            commit_message=message or f"Upload kg2tool dataset ({len(plan.files)} files, kg2tool {__version__})",
            repo_type="dataset",
        )
    except ValueError as exc:  # DatasetCard.validate: the Hub rejected the card's YAML
        raise InputError(scrub(f"{plan.folder / 'README.md'}: the Hub rejects the card: {exc}", token)) from None
    except Exception as exc:
        raise OutputError(scrub(_error_message(exc), token)) from None
