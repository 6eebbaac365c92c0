"""``report.html``: one self-contained page a person reads, for `kg2tool eval` and `kg2tool inspect`.

The page holds everything it shows: its CSS and JavaScript inline (plain JS, no framework), its plots as base64
PNG ``data:`` URIs, and a Content-Security-Policy that forbids every fetch (``default-src 'none'``), so it opens
offline and from a mail attachment alike. Its parts:

* ``tables``: titled tables (the scores of an eval with their counts and 95% Wilson intervals; the counts of a
  dataset);
* ``images``: titled PNG plots;
* ``items``: a list of conversations drawn as chat turns (user, assistant text, tool calls and tool results set
  apart), each in one or more columns (an eval's failed row: expected beside produced), with filters on their
  ``facets`` (category, shape, pass/fail, split...) and a text search.

Text from the graph is hostile input (labels may hold ``<script>`` or quotes): the template is rendered by Jinja2
with autoescaping on, and the script reads only the page's own attributes (``textContent``, never ``innerHTML``).
The template is the package file ``report_html.j2``.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..common.files import write_atomic

TEMPLATE_NAME = "report_html.j2"
ROLE_NAMES = {"call": "tool call", "tool": "tool result"}  # how a turn's role is labelled on the page
MAX_TOOL_TEXT = 4000  # characters of one tool result shown; longer ones are cut, with their length said


@dataclass
class Turn:
    """One turn as drawn: ``role`` is ``user``, ``assistant``, ``call``, ``tool``, ``system`` or ``note``."""

    role: str
    text: str
    label: str = ""


@dataclass
class Column:
    """One column of a conversation (``expected``, ``produced``, or the conversation itself)."""

    title: str
    turns: list[Turn]


@dataclass
class Item:
    """One conversation in the list: an id, a one-line summary, facets to filter on, its columns."""

    id: str
    summary: str
    facets: dict[str, str]
    columns: list[Column]
    status: str = ""  # "pass", "fail" or "" (a dataset row)
    note: str = ""

    @property
    def badges(self) -> list[tuple[str, str]]:
        """(facet, value) pairs drawn beside the id: the facets but ``result`` (drawn as the status), each value
        once (a BFCL entry's shape is its category)."""
        seen: set[str] = set()
        out = []
        for name, value in self.facets.items():
            if name != "result" and value not in seen:
                seen.add(value)
                out.append((name, value))
        return out


@dataclass
class Table:
    """A titled table; ``numeric`` marks the columns drawn right-aligned."""

    title: str
    header: list[str]
    rows: list[list[str]]
    numeric: set[int] = field(default_factory=set)
    note: str = ""


@dataclass
class Image:
    """A titled PNG plot, embedded as a data URI."""

    title: str
    png: bytes

    @property
    def uri(self) -> str:
        """The PNG as a ``data:image/png;base64,...`` URI."""
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def call_text(name: str, arguments) -> str:
    """A tool call as one line: ``name({"arg": value})``."""
    if isinstance(arguments, str):
        return f"{name}({arguments})"
    return f"{name}({json.dumps(arguments, ensure_ascii=False)})"


def _cut(text: str, limit: int = MAX_TOOL_TEXT) -> str:
    return text if len(text) <= limit else f"{text[:limit]}\u2026 ({len(text):,} characters in all)"


def turns_from_messages(messages: list[dict]) -> list[Turn]:
    """Chat messages (the dataset's ``messages``: roles, ``tool_calls``, ``tool_call_id``) as turns to draw."""
    turns = []
    for m in messages:
        role = m.get("role") or ""
        if m.get("tool_calls"):
            if m.get("content"):
                turns.append(Turn("assistant", str(m["content"])))
            for c in m["tool_calls"]:
                fn = c.get("function") or {}
                turns.append(Turn("call", call_text(fn.get("name", "?"), fn.get("arguments")), c.get("id") or ""))
        elif role == "tool":
            turns.append(Turn("tool", _cut(str(m.get("content") or "")), m.get("tool_call_id") or ""))
        else:
            turns.append(
                Turn(role if role in ("user", "assistant", "system") else "note", str(m.get("content") or ""))
            )
    return turns


def first_user_text(messages: list[dict]) -> str:
    """The first user message's text (the one-line summary of a conversation)."""
    return next((str(m.get("content") or "") for m in messages if m.get("role") == "user"), "")


def facet_values(items: list[Item], always: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Each facet's distinct values across ``items``, sorted (facets in the order they first appear), with the
    values of ``always`` offered even where no item has them (``{"result": ["pass", "fail"]}``)."""
    values: dict[str, set[str]] = {}
    for item in items:
        for name, value in item.facets.items():
            values.setdefault(name, set()).add(value)
    for name, vs in (always or {}).items():
        values.setdefault(name, set()).update(vs)
    return {name: sorted(vs) for name, vs in values.items()}


def render(
    title: str,
    *,
    intro: list[str] = (),
    tables: list[Table] = (),
    images: list[Image] = (),
    items: list[Item] = (),
    items_note: str = "",
    always: dict[str, list[str]] | None = None,
) -> str:
    """The page as HTML text (Jinja2, autoescaped); ``always``: facet values offered even where no item has them."""
    from importlib.resources import files

    import jinja2

    facets = facet_values(list(items), always)
    bad = [name for name in facets if not name.replace("_", "").isalnum() or not name.isascii()]
    if bad:  # facet names become attribute names (data-f-NAME), which autoescaping does not cover
        raise ValueError(f"facet names must be ASCII letters, digits or _: {bad}")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    template = env.from_string((files(__package__) / TEMPLATE_NAME).read_text(encoding="utf-8"))
    return template.render(
        title=title,
        intro=list(intro),
        tables=list(tables),
        images=list(images),
        items=list(items),
        items_note=items_note,
        facets=facets,
        role_names=ROLE_NAMES,
    )


def write_html(path: str | Path, html: str) -> Path:
    """Write the page to ``path`` atomically; returns the path."""
    path = Path(path)
    write_atomic(path, html, what="the HTML report")
    return path
