"""Reading an edited `lexicon.yaml` back (`kg2tool synth --lexicon FILE`) over the derived lexicon
(`kg2tool.synth.language.lexicon`)."""

from __future__ import annotations

from dataclasses import fields, replace

from ...common.errors import InputError
from ...graph.model import KnowledgeGraph
from .lexicon import FORMS, TENSES, AttrWording, Lexicon, Wording, derive_lexicon


def load_lexicon(path, kg: KnowledgeGraph, base: Lexicon | None = None) -> Lexicon:
    """Read an edited `lexicon.yaml` over the derived lexicon (`base`, derived when None): each relation or
    attribute entry replaces the fields it gives. InputError naming the file and key for an unknown relation or
    attribute, an unknown field, a field of the wrong type or an unknown form."""
    from ...common.yamlio import load_mapping

    lex = base or derive_lexicon(kg)
    doc = load_mapping(path, "lexicon file", "a mapping with `relations` and `attributes`")
    for section in doc:
        if section not in ("relations", "attributes"):
            raise InputError(f"{path}: unknown section {section!r} (expected relations, attributes)")
    for section, table, cls in (("relations", lex.relations, Wording), ("attributes", lex.attributes, AttrWording)):
        entries = doc.get(section) or {}
        if not isinstance(entries, dict):
            raise InputError(f"{path}: {section} must be a mapping of IRIs to fields")
        allowed = {f.name: f.type for f in fields(cls)}
        for key, entry in entries.items():
            where = f"{path}: {section}.{key}"
            if key not in table:
                raise InputError(f"{where}: no such {section[:-1]} in the graph")
            if not isinstance(entry, dict):
                raise InputError(f"{where}: must be a mapping of fields")
            for name, value in entry.items():
                if name not in allowed:
                    raise InputError(f"{where}.{name}: unknown field (expected one of {', '.join(allowed)})")
                want = bool if allowed[name] == "bool" else str
                if not isinstance(value, want):
                    raise InputError(f"{where}.{name}: must be a {want.__name__}, got {value!r}")
                if name == "form" and value not in FORMS:
                    raise InputError(f"{where}.form: {value!r} is not one of {', '.join(FORMS)}")
                if name == "tense" and value not in TENSES:
                    raise InputError(f"{where}.tense: {value!r} is not one of {', '.join(TENSES)}")
            table[key] = replace(table[key], **entry)
    return lex
