"""Names of entities: readable local names of IRIs, language preference, cleaned text, the lenient lookup key,
display names unique per entity, and the name accessors both graph kinds share.

- The preferred text of an entity is chosen by language: the exact `--lang` tag, then the same base language
  (`en-GB` for `en`), then untagged text, then any other language; ties by tag, then by text (deterministic).
- A display name is the label, or for a label shared by several entities the label with the entity's
  description (or its local name) in parentheses, so that every entity has its own name.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from urllib.parse import unquote


def readable_local_name(iri: str) -> str:
    """The readable local part of an IRI: `http://ex.org/Barack_Obama` -> `Barack Obama`; `.../resource/ZeroX`
    stays `ZeroX`; an IRI without a local part comes back whole."""
    local = re.split(r"[#/:]", iri.rstrip("/#"))[-1] or iri
    local = unquote(local).replace("_", " ").strip()
    return local or iri


def lang_rank(lang: str | None, pref: str) -> int:
    """How well a language tag fits the preferred language `pref` (lower is better): 0 the same tag, 1 the same
    base language, 2 no tag, 3 another language. Only ranks below 3 count as the preferred languages."""
    if lang and lang.lower() == pref.lower():
        return 0
    if lang and lang.lower().split("-")[0] == pref.lower().split("-")[0]:
        return 1
    if not lang:
        return 2
    return 3


def pick_texts(values: list[tuple[str, str | None]], pref: str) -> list[str]:
    """The texts of `(text, language tag)` pairs ordered by language preference (`lang_rank`), then tag, then
    text (deterministic); the first one is the preferred text."""
    return [v for v, _ in sorted(values, key=lambda x: (lang_rank(x[1], pref), x[1] or "", x[0]))]


def clean_text(s: str, limit: int = 500) -> str:
    """`s` with every run of whitespace made one space, cut to `limit` characters (the last one an ellipsis)."""
    s = " ".join(str(s).split())
    return s if len(s) <= limit else s[: limit - 1] + "\u2026"


_ASCII_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def normalize_name(s: str) -> str:
    """Case-, accent-, space- and punctuation-insensitive key used for lenient name lookup (may be empty)."""
    if s.isascii():  # the same key, 5x faster: NFKD and casefold change nothing here but the case
        return _ASCII_NON_ALNUM.sub("", s.lower())
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "", s.casefold())


def unique_names(labels: Sequence[str], description: Callable[[int], str], entities: Sequence[str]) -> list[str]:
    """Display names, unique per entity: the label, or for a label shared by several entities the label with the
    entity's description (`description(i)`, asked only for those) or its local name in parentheses.

    `labels` and `entities` (IRIs) are indexed by entity id; returns one name per entity, in id order."""
    by_label: dict[str, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels):
        by_label[lab].append(i)
    names = list(labels)
    for lab, ids in by_label.items():
        if len(ids) == 1:
            continue
        descs = [description(i) for i in ids]
        for i, d in zip(ids, descs):
            if d and descs.count(d) == 1:
                names[i] = f"{lab} ({clean_text(d, 80)})"
            else:
                names[i] = f"{lab} ({readable_local_name(entities[i])})"
    # last resort: anything still colliding gets its full IRI (rare: same label, description and local name)
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n in seen:
            names[i] = f"{labels[i]} <{entities[i]}>"
        seen[names[i]] = i
    return names


class EntityNames:
    """Accessors shared by the in-memory `KnowledgeGraph` and the on-disk `StoreGraph`: both hold `entities`,
    `names`, `labels`, `alt_labels` indexed by entity id, `relations`, `attributes` and a `resolve(name)`."""

    def __len__(self) -> int:
        return len(self.entities)

    def summary(self) -> str:
        """One line: the number of entities, relations (and their edges) and attributes."""
        n_edges = sum(r.support for r in self.relations.values())
        return (
            f"{len(self.entities):,} entities, {len(self.relations)} relations ({n_edges:,} edges), "
            f"{len(self.attributes)} attributes"
        )

    def name(self, eid: int) -> str:
        """The display name of entity `eid`."""
        return self.names[eid]

    def acceptable_names(self, eid: int) -> list[str]:
        """Every string that resolves to this entity: display name first, then label and alternative labels."""
        out = [self.names[eid]]
        for text in (self.labels[eid], *self.alt_labels[eid]):
            if text not in out and self.resolve(text) == eid:
                out.append(text)
        return out

    def entity_names(self) -> list[str]:
        """The display names of all entities, in id order (a new list)."""
        return list(self.names)


__all__ = [
    "EntityNames",
    "clean_text",
    "lang_rank",
    "normalize_name",
    "pick_texts",
    "readable_local_name",
    "unique_names",
]
