"""The paraphrase filter: may a model's rewrite replace a template question? Pure text checks, no model.

`keep_paraphrase` runs REWRITE_CHECKS, named checks like verification's (`kg2tool.synth.checks.verify.Check`); their
reasons are listed in the module docstring of kg2tool.synth.paraphrase.rewrite. `targets_of` says which user messages of a
row are rewritten and what each must keep (entity names, worded constraints, relations).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..checks.diversity import normalize_question
from ..checks.verify import Check, first_failure


@dataclass(frozen=True)
class WordRule:
    """A constraint worded in the question: the rewrite must match `need` (when the template question does), and
    must not match `avoid` unless the template question does."""

    name: str
    need: re.Pattern
    avoid: re.Pattern | None = None


def _words(*alternatives: str) -> re.Pattern:
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


MORE = _words("more", "most", "greater", "greatest", "larger", "largest", "higher", "highest", "bigger", "biggest",
              "later", "latest", "newer", "newest", "more recent", "most recent", "max", "maximum")  # fmt: skip
FEWER = _words("fewer", "fewest", "less", "least", "smaller", "smallest", "lower", "lowest", "earlier", "earliest",
               "older", "oldest", "min", "minimum")  # fmt: skip
COUNT_RULE = WordRule("count", _words("how many", "number", "count", "counts", "total", "amount", "tally"))
MORE_RULE = WordRule("compare_max", MORE, FEWER)
FEWER_RULE = WordRule("compare_min", FEWER, MORE)
NEGATION_RULE = WordRule(
    "negation",
    _words("not", "no", "none", "never", "neither", "nor", "without", "except", "excepting", "excluding", "exclude",
           "excludes", "leaving out", "leave out", "other than", "apart from", "aside from", "minus", r"\w+n[’']t"),
)  # fmt: skip

MARKUP = re.compile(r"<tool_call|</tool_call|<function|</function|<\|[\w/ ]*\|>|\[TOOL_CALLS\]|```|\"arguments\"\s*:")
_LABEL = re.compile(r"^(?:paraphrase|paraphrased question|rewritten question|rewrite|question)\s*:\s*", re.IGNORECASE)
_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"[^\W\d_]+")
_STOPWORDS = frozenset("a an the of in on at by for to from with as into after is are was has have its and or".split())


def relation_stems(label: str) -> list[str]:
    """Stems of a relation label's content words: "place of birth" -> ["place", "birth"], "population" ->
    ["popul"] (a word of the rewrite that holds one of them names the relation)."""
    words = [w.casefold() for w in _WORD.findall(label.removeprefix("inverse "))]
    return [w[:5] for w in words if w not in _STOPWORDS and len(w) > 2] or [w[:5] for w in words]


def names_relation(text: str, label: str) -> bool:
    """True if a word of `text` holds a stem of the relation label (see relation_stems)."""
    stems = relation_stems(label)
    return any(stem in w.casefold() for w in _WORD.findall(text) for stem in stems)


class NameIndex:
    """Finds the graph's entity names (and labels, alternative labels) in a text, case-insensitively, at token
    boundaries: `find("Where was Person 12 born?")` is {"person 12"}, never {"person 1"}."""

    def __init__(self, names: Iterable[str], max_tokens: int = 16):
        self.names: set[str] = set()
        longest = 1
        for name in names:
            key = " ".join(str(name).split()).casefold()
            if key:
                self.names.add(key)
                longest = max(longest, len(_TOKEN.findall(key)))
        self.max_tokens = min(longest, max_tokens)

    def find(self, text: str) -> set[str]:
        """The names found in `text` (casefolded, whitespace collapsed)."""
        folded = " ".join(text.split()).casefold()
        spans = [(m.start(), m.end()) for m in _TOKEN.finditer(folded)]
        found = set()
        for i, (start, _) in enumerate(spans):
            for j in range(i, min(len(spans), i + self.max_tokens)):
                piece = folded[start : spans[j][1]]
                if piece in self.names:
                    found.add(piece)
        return found


def _has_name(text: str, name: str) -> bool:
    """`name` in `text` exactly (case-sensitive), not inside a longer word or number ("Person 1" in "Person 12")."""
    left = r"(?<!\w)" if name[:1].isalnum() or name[:1] == "_" else ""
    right = r"(?!\w)" if name[-1:].isalnum() or name[-1:] == "_" else ""
    return re.search(left + re.escape(name) + right, text) is not None


def clean_candidate(text: str) -> str:
    """A model's answer as a candidate question: a leading <think> block, surrounding whitespace and quotes and a
    "Question:" / "Paraphrase:" label removed; inner newlines are kept (they mean chatter, see keep_paraphrase)."""
    text = _THINK.sub("", text or "").strip()
    text = _LABEL.sub("", text).strip()
    for left, right in (('"', '"'), ("“", "”"), ("'", "'"), ("«", "»")):
        if len(text) > 1 and text.startswith(left) and text.endswith(right):
            text = text[1:-1].strip()
    return text


@dataclass
class Rewrite:
    """What the rewrite checks look at: the template question, the model's candidate (`raw`, and `text` with its
    whitespace collapsed) and what the candidate must keep (see `keep_paraphrase`)."""

    original: str
    raw: str
    required: Sequence[str]
    rules: Sequence[WordRule]
    relations: Sequence[str]
    names: NameIndex | None
    min_ratio: float
    max_ratio: float

    @property
    def text(self) -> str:
        """The candidate with its whitespace collapsed."""
        return " ".join(self.raw.split())


def _empty(r: Rewrite):
    return None if r.raw and r.raw.strip() else "empty"


def _one_line(r: Rewrite):
    return "multi_line" if "\n" in r.raw.strip() else None


def _no_markup(r: Rewrite):
    return "markup" if MARKUP.search(r.raw) else None


def _changed(r: Rewrite):
    return "unchanged" if normalize_question(r.text) == normalize_question(r.original) else None


def _length(r: Rewrite):
    if len(r.text) < r.min_ratio * len(r.original):
        return "too_short"
    return "too_long" if len(r.text) > r.max_ratio * len(r.original) + 20 else None


def _keeps_names(r: Rewrite):
    return "missing_name" if any(not _has_name(r.text, name) for name in r.required) else None


def _keeps_relations(r: Rewrite):
    lost = any(names_relation(r.original, rel) and not names_relation(r.text, rel) for rel in r.relations)
    return "missing_relation" if lost else None


def _keeps_constraints(r: Rewrite):
    for rule in r.rules:
        if rule.avoid is not None and rule.avoid.search(r.text) and not rule.avoid.search(r.original):
            return "contradicts_constraint"
        if rule.need.search(r.original) and not rule.need.search(r.text):
            return "missing_constraint"
    return None


def _same_numbers(r: Rewrite):
    before, after = set(_NUMBER.findall(r.original)), set(_NUMBER.findall(r.text))
    if before - after:
        return "missing_number"
    return "new_number" if after - before else None


def _no_new_entity(r: Rewrite):
    if r.names is not None and r.names.find(r.text) - r.names.find(r.original):
        return "new_entity"
    return None


# The rewrite checks, in order (a `kg2tool.synth.checks.verify.Check` each, stage "rewrite"); see the module docstring of
# kg2tool.synth.paraphrase.rewrite for their reasons. The conversation with a kept rewrite then passes verify.CHECKS.
REWRITE_CHECKS: list[Check] = [
    Check("nonempty", "rewrite", "empty", _empty),
    Check("one_line", "rewrite", "multi_line", _one_line),
    Check("no_markup", "rewrite", "markup", _no_markup),
    Check("changed", "rewrite", "unchanged", _changed),
    Check("length", "rewrite", "too_short", _length),  # or too_long
    Check("keeps_names", "rewrite", "missing_name", _keeps_names),
    Check("keeps_relations", "rewrite", "missing_relation", _keeps_relations),
    Check("keeps_constraints", "rewrite", "missing_constraint", _keeps_constraints),  # or contradicts_constraint
    Check("same_numbers", "rewrite", "missing_number", _same_numbers),  # or new_number
    Check("no_new_entity", "rewrite", "new_entity", _no_new_entity),
]


def keep_paraphrase(
    original: str,
    candidate: str,
    required: Sequence[str],
    *,
    rules: Sequence[WordRule] = (),
    relations: Sequence[str] = (),
    names: NameIndex | None = None,
    min_ratio: float = 0.5,
    max_ratio: float = 2.0,
) -> str | None:
    """None if `candidate` may replace the question `original`, else the reason of the first failing check of
    REWRITE_CHECKS (see the module docstring of kg2tool.synth.paraphrase.rewrite).

    `required`: strings the rewrite must contain exactly (the question's entity names). `rules`: worded
    constraints (count, comparison direction, negation), checked only when the original states them.
    `relations`: relation labels the rewrite must still name when the original does (see names_relation). `names`:
    the graph's names, to catch an entity the original does not mention. Pure: no model, no graph access."""
    view = Rewrite(original, candidate or "", required, rules, relations, names, min_ratio, max_ratio)
    return first_failure("rewrite", view, checks=REWRITE_CHECKS)


# ---------------------------------------------------------------------------------------------- what to rewrite


def plan_names(plan: dict) -> list[str]:
    """Entity names of a plan (as stored in the `plan` column), in order, without repeats."""
    out: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("op") == "entity" and node.get("name") not in out:
                out.append(node["name"])
            walk(node.get("of"))
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(plan)
    return out


def plan_rules(plan: dict) -> list[WordRule]:
    """The worded constraints of a plan: a count (not one inside a comparison), a comparison's direction, a
    difference (negation)."""
    rules: list[WordRule] = []

    def walk(node, in_compare: bool):
        if isinstance(node, list):
            for child in node:
                walk(child, in_compare)
            return
        if not isinstance(node, dict):
            return
        op = node.get("op")
        rule = None
        if op == "count" and not in_compare:
            rule = COUNT_RULE
        elif op == "compare":
            rule = MORE_RULE if node.get("mode") == "max" else FEWER_RULE
        elif op == "difference":
            rule = NEGATION_RULE
        if rule is not None and rule not in rules:
            rules.append(rule)
        walk(node.get("of"), in_compare or op == "compare")

    walk(plan, False)
    return rules


@dataclass
class Target:
    """One user message to rewrite: row, message index, the names, rules and relations it must keep."""

    row: dict
    index: int
    required: list[str]
    rules: list[WordRule]
    relations: list[str]

    @property
    def text(self) -> str:
        """The user message's current text."""
        return self.row["messages"][self.index]["content"]


def targets_of(row: dict, followups: bool = True, relations: bool = True) -> list[Target]:
    """The user messages of a row that are rewritten (see the module docstring)."""
    users = [i for i, m in enumerate(row["messages"]) if m.get("role") == "user"]
    labels = list(dict.fromkeys(row["relation_path"])) if relations else []
    first = Target(row, users[0], [], [], labels)
    if row["pattern"] != "missing_info":
        first.required, first.rules = plan_names(row["plan"]), plan_rules(row["plan"])
    else:  # the first turn gives the entity's name in part on purpose: the rewrite keeps that part, a beginning
        # ("the physical constant whose name starts with "Planck"") or a family name ("Where was Mann born?")
        words = str(row["plan"].get("of", {}).get("name", "")).split()
        parts = [" ".join(words[:k]) for k in range(len(words) - 1, 0, -1)] + words[-1:]
        said = [p for p in parts if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", first.text)]
        first.required = said[:1]
    out = [first]
    if followups and row["pattern"] == "followup" and len(users) > 1:
        out.append(Target(row, users[1], [], [], labels))
    return out


def selected(row_id: str, seed: int, fraction: float) -> bool:
    """Whether the row is among the `fraction` sent to the model (a hash of seed and row id)."""
    if fraction >= 1:
        return True
    digest = hashlib.sha256(f"{seed}:paraphrase:{row_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction
