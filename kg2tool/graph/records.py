"""Whether a node's label only restates the names of the things it links (a *record label*: "Physics 1901, Wilhelm
Conrad Röntgen", "Relation de subdivision entre "A" et "B""), for the folding of reified n-ary nodes
(kg2tool.graph.reify) and the on-disk store's index, which finds the nodes worth examining by their words."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_FILLER = {"has", "is", "the", "a", "an", "of", "for", "and", "in", "by", "at", "to"}


@lru_cache(maxsize=262144)
def _tokens(text: str) -> tuple[str, ...]:
    """The words of a label, lower-cased (cached: participants are shared by many nodes)."""
    return tuple(re.findall(r"[^\W_]+", text.lower()))


def is_record_label(text: str, parts: Iterable[str], allowed: set[str]) -> bool:
    """True when `text` restates participant labels `parts`: a participant is *found* when the words of its label
    are all in `text`, or for a label of three words or more, its leading words, at least half of them, with no
    number left out ("Citibank, N.A. US-DE" in "Citibank, N.A headquarters address"), and `text` has other words
    (a bank is no record of its "<bank> date established"). What is left without the found participants' words
    must be numbers, keys (a word with a digit: `E2128382`; a dotted key: `l.premierleague.com-2020`) and `allowed`
    words only, with two participants found or at least one allowed word."""
    if quotes_two(text, parts):
        return True
    words = set(_tokens(_without_keys(text)))
    found, used = 0, set()
    for part in set(parts):
        toks = _tokens(part)
        lead = 0
        while lead < len(toks) and toks[lead] in words:
            lead += 1
        whole = lead == len(toks) or (
            len(toks) >= 3 and 2 * lead >= len(toks) and not any(t.isdigit() for t in toks[lead:])
        )
        if toks and whole and not words <= set(toks):  # a name the participant extends is no record
            found += 1
            used.update(toks[:lead])
    rest = [w for w in words - used if not any(c.isdigit() for c in w)]  # numbers and keys: `1901`, `E2128382`
    if not found or any(w not in allowed and w not in _FILLER for w in rest):
        return False
    return found >= 2 or any(w in allowed for w in rest)


# A dotted key (a domain-style or dotted id with a number or two dots or more: `l.premierleague.com-2020`, `s.2691`):
# in a record's label it identifies, like a number.
_DOTTED_KEY = re.compile(r"(?=\S*(?:\d|\..*\.))[a-z0-9-]+(?:\.[a-z0-9-]+)+")


def _without_keys(text: str) -> str:
    """`text` without its dotted keys (`_DOTTED_KEY`), which a record's label may hold like numbers."""
    return " ".join(t for t in text.split() if not _DOTTED_KEY.fullmatch(t))


_QUOTED = re.compile(r'["\u201c\u201d\u201e\u00ab\u00bb]\s*([^"\u201c\u201d\u201e\u00ab\u00bb]+?)\s*["\u201c\u201d\u00ab\u00bb]')


def quotes_two(text: str, parts: Iterable[str]) -> bool:
    """True when `text` quotes two participants' whole labels: quotation marks mark a name as mentioned, so a
    label that quotes two of the names it links ("Relation de subdivision entre "A" et "B", début : 1945") is a
    record of their link in any language, whatever its other words."""
    if text.count('"') + sum(text.count(q) for q in "\u201c\u201d\u00ab\u00bb") < 4:
        return False
    quoted = {" ".join(q.casefold().split()) for q in _QUOTED.findall(text)}
    return sum(" ".join(p.casefold().split()) in quoted for p in set(parts)) >= 2


def label_tokens(text: str) -> tuple[str, ...]:
    """The words of a label as record labels are compared (cached). A node labelled T can be the record of a
    participant labelled P only when P's first word is one of T's (`is_record_label` finds a participant by its
    leading words): a caller can find the `maybe` set of `fold_reified` with it, without examining every node."""
    return _tokens(text)
