"""The parts of a person's name held as properties of their own (a given, a middle and a family name), and the
whole name they say for a thing without a label: shared by the in-memory load (kg2tool.graph.build) and the on-disk
store's index."""

from __future__ import annotations

from collections import defaultdict

from .names import name_words, property_words, schema_name, without_codes

# The parts of a person's name as public vocabularies and people's own schemas call them: FOAF's givenName,
# familyName, firstName, lastName and surname, schema.org's givenName, familyName and additionalName, vCard's
# given-name, family-name and additional-name, and their English words.
_NAME_PARTS = {"given name": "given", "first name": "given", "forename": "given", "family name": "family",
               "last name": "family", "surname": "family", "middle name": "middle", "middle initial": "middle",
               "additional name": "middle"}  # fmt: skip


def name_part(iri: str, label: str = "") -> str:
    """Which part of a person's name a literal property holds: "given", "middle" or "family" (`foaf:givenName`,
    `last-name`, `surname`, vCard's `additional-name`), or "" for any other property."""
    for text in (schema_name(iri), without_codes(label)):
        if text and (part := _NAME_PARTS.get(" ".join(name_words(text)))):
            return part
    return ""


def is_name_link(iri: str, label: str = "") -> bool:
    """True for a link whose local name or label says "name" (GND's `realNameOfThePerson`,
    `fullerFormOfNameOfThePerson`): what it leads to is a name of its subject, not a thing of its own."""
    return any("name" in property_words(t) for t in (schema_name(iri), label) if t)


# What a data set writes for a part it does not have ("Ethel nil Skakel" is Ethel Skakel).
_MISSING = frozenset(("nil", "null", "none", "n/a", "na", "unknown", "-", "?"))


def full_name(parts: dict[str, str]) -> str:
    """The name a person's given, middle and family names say together ("Joseph P. Kennedy": a middle initial
    takes its period; a part written as missing, "nil", is left out), or "" without both a given and a family
    name."""
    parts = {k: v.strip() for k, v in parts.items() if v.strip().lower() not in _MISSING}
    if not parts.get("given") or not parts.get("family"):
        return ""
    middle = parts.get("middle", "")
    middle = f"{middle}." if len(middle) == 1 and middle.isalpha() else middle
    return " ".join(p for p in (parts["given"], middle, parts["family"]) if p)


def names_from_parts(values: dict, prop_label, named: set, things: set) -> dict:
    """The names that a person's given, middle and family names say (`full_name`) for each subject of `values`
    (property -> subject -> [(text, lang)]) in `things` (the nodes with a link or a type of their own) and not in
    `named`; each part its least value."""
    parts: dict = defaultdict(dict)
    for p in sorted(values):
        if role := name_part(p, prop_label(p)):
            for s, vals in values[p].items():
                if s not in named and s in things and vals:
                    least = min(v for v, _ in vals)
                    parts[s][role] = min(parts[s].get(role, least), least)
    return {s: name for s, got in parts.items() if (name := full_name(got))}
