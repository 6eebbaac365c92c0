"""Anchors no question names: names kg2tool made up for homonyms, labels that carry their own note, placeholder
nodes (the drop reasons `made_up_name`, `annotated_name`, `placeholder` of kg2tool.synth.run.synthesizer)."""

from __future__ import annotations

import re

from ..plans.tree import anchors

PLACEHOLDERS = frozenset(("unknown", "n/a", "na", "none", "null", "nil", "tbd", "various", "other", "anonymous"))


def is_placeholder(name: str) -> bool:
    """True for a node that stands for a missing value ("unknown-planet" in the Star Wars data, "N/A", "None"):
    nobody asks about it."""
    low = name.lower()
    # "unknown-planet", "unknown_species": an id-like name; "Unknown Pleasures" (an album) is a name
    return low in PLACEHOLDERS or (name == low and low.startswith(("unknown-", "unknown_")))


_INSIDE_NOTE = re.compile(r"\([^)]*\) \S")  # "Earl (Bertrand Arthur William) Russell": a note before the end
_UNITS = frozenset("University Institute Institutet Laboratory Laboratories College Hospital Department School".split())
_LONG_NOTE = re.compile(r"\(\S+ [^)]*\)")  # "Comité international ... (International Committee of the Red Cross)"


def annotated(name: str) -> bool:
    """True for a label that carries its own note: "Posen (now Poznan, Poland)", "Germany (now Poland)", a maiden
    name ("Bertha von Suttner, née Countess Kinsky von Chinic und Tettau"), a note inside the name ("Earl (Bertrand
    Arthur William) Russell"), a translation beside it ("Comité international de la Croix Rouge (International
    Committee of the Red Cross)"): a record's full form, not what a person types. One word in parentheses is
    kg2tool's own note for a homonym (`made_up_name`)."""
    if "(now " in name or ", née " in name or _INSIDE_NOTE.search(name) or _LONG_NOTE.search(name):
        return True
    after = name.partition(", ")[2]  # "Harvard University, Biological Laboratories": a unit of an institution
    return any(word in after.split() for word in _UNITS)


def made_up_name(kg, eid: int) -> bool:
    """True for a name kg2tool had to tell apart from a homonym ("Cambridge (Location, no. 2)", "Poland (Country)":
    `kg2tool.graph.names.unique_names`): nobody would type it, so it is never named in a question."""
    label = kg.labels[eid]
    return bool(label) and kg.name(eid) != label and kg.name(eid).startswith(label + " (")


def unsaid_anchor(kg, plan) -> str | None:
    """Why no question names the plan's anchors, or None: a name kg2tool made up (`made_up_name`), a label with its
    own note ("Posen (now Poznan, Poland)", "Germany (now Poland)": `annotated_name`, rejected by readers wherever
    named; any label with a parenthesis: "California Institute of Technology (Caltech)"), a placeholder node (`placeholder`)."""
    eids = list(anchors(plan))
    for why, bad in (("made_up_name", lambda e: made_up_name(kg, e)), ("annotated_name", lambda e: annotated(kg.name(e)) or "(" in (kg.labels[e] or "")),
                     ("placeholder", lambda e: is_placeholder(kg.name(e)))):  # fmt: skip
        if any(map(bad, eids)):
            return why
    return None


__all__ = ["PLACEHOLDERS", "annotated", "is_placeholder", "made_up_name", "unsaid_anchor"]
