"""Relation wordings drafted by a language model, each checked and else the rule's (`kg2tool lexicon --backend ...`).

    lex, drafts = draft_lexicon(kg, derive_lexicon(kg), backend)    # one prompt per relation, one generate() call

The model is asked once per relation (not per question): `PROMPT` gives it the relation's words, the kinds it
links, one example pair, the rule's draft (`derive_lexicon`) as JSON and the two questions that draft asks, and
asks for the same fields a user edits in `lexicon.yaml` (`DRAFTED`: form, noun, plural, verb, verbs, active, base,
tense, subject, object) as one JSON object. Its draft replaces the rule's only when every check passes, in order
(the first that fails is the reason shown in the review table, and the rule's draft is kept):

    bad JSON        no JSON object in the answer, a field that is not a string, an unknown form or tense
    schema          a drafted phrase holds schema words (`kg2tool.synth.language.schema_words`: a dotted path, an
                    underscore word, a camelCase word, an IRI or id, ...) or names a placeholder kind (item, thing,
                    entity, resource, named individual, ...)
    slot            a phrase does not fit its slot: not plain words, over MAX_WORDS words, a noun form without its
                    noun, a `by` verb not ending in "by" or without its active past, a `prep` verb not ending in a
                    preposition, a verb form without its verbs
    dropped words   the draft drops a word of the relation: a content word of its label the rule's draft says (where
                    it says none, as in `nationality` said "a citizen of", the draft says a word of the label, or the
                    rule's own words); words match by their first letters, as the paraphrase filter matches relation
                    words ("vote count" keeps "votes")
    question        the questions the draft asks cannot be said, run over MAX_QUESTION_WORDS words, repeat a word
                    ("by by") or hold schema words, where the rule's questions do not

The rule's own draft passes every check on the project's graphs (a model that echoes it changes nothing). Kinds
the rule knows (from rdf:type or the relations' votes, shared by every relation that meets the entity) are
kept whatever the model says; a drafted kind is taken only where the rule's is the fallback `item`. A backend is
anything with `generate(conversations, tools)` (`kg2tool.llm.backends`, built by the command); it is not loaded here.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import asdict, dataclass, replace

from ...graph.model import KnowledgeGraph
from ..plans.index import sorted_keys
from ..plans.tree import Anchor, Project
from .lexicon import FALLBACK_KIND, FORMS, PREPOSITIONS, TENSES, Lexicon, Wording, singular, split_label
from .schema_words import schema_words

DRAFTED = ("form", "noun", "plural", "verb", "verbs", "active", "base", "tense", "subject", "object")
KINDS = ("subject", "object")
MAX_WORDS = 6  # words of one drafted phrase
MAX_KIND_WORDS = 3
MAX_QUESTION_WORDS = 25
# Kinds that name nothing (the schema languages' own classes, and the words people use for "some node").
PLACEHOLDER_KINDS = frozenset(
    "item thing entity resource individual concept agent object node instance class named individual".split()
) | {"named individual"}
# Words of a label that say no relation of their own.
FUNCTION_WORDS = PREPOSITIONS | frozenset("has have is are was were be the a an and or".split())
_PLAIN = re.compile(r"[^\W_]+(?:(?:[ '’-]|, )[^\W_]+)*")
_THINK = re.compile(r"<think>.*?</think>", re.S)

PROMPT = """You word one relation of a knowledge graph so that questions about it read the way a person asks them.

The relation: "{words}". It links a {subject} to a {object}, for example: {example}.
Its draft wording, as JSON:
{draft}
Asked with that draft: "{forward}" and "{inverse}"

Fields:
- form: "noun" (the object is the subject's noun: "the genre of X"), "by" ("directed by": "Who directed X?"), \
"prep" ("educated at", "a member of") or "verb" ("works for", "produces").
- noun, plural: the object's role as a noun, singular and plural ("place of birth", "places of birth").
- verb: for the by, prep and verb forms, the predicate after one subject ("directed by", "a member of", \
"produces"); verbs: the same after several ("directed by", "members of", "produce").
- active: for the by form, the active past ("directed"). base: for the verb form, the bare verb ("produce").
- tense: "present" or "past".
- subject, object: the kind of thing at each end, a common noun in the singular ("film", "person", "country").

Improve the draft where it reads unnaturally and keep it where it reads well. Keep the relation's own words. \
Write plain English: no underscores, dots, camelCase or ids, and never "item", "thing", "entity" or "resource" \
as a kind. Answer with one JSON object with the fields above and nothing else."""


@dataclass
class Draft:
    """Where one relation's wording came from: `source` "model" (the model's draft passed every check; `same`: it
    is the rule's draft as it was) or "rule" (the rule's draft, kept because of `reason`)."""

    wording: Wording
    source: str
    reason: str = ""
    same: bool = False

    @property
    def flag(self) -> str:
        """The review table's column: `model`, `model (same as rule)`, or `rule: REASON`."""
        if self.source == "model":
            return "model (same as rule)" if self.same else "model"
        return f"rule: {self.reason}"


def sample_questions(kg: KnowledgeGraph, lex: Lexicon, iri: str) -> tuple[str, str]:
    """The forward and inverse question of a relation on its first subject / object in id order, as synth words
    them (what the review table shows)."""
    from .wording import Speaker

    rel = kg.relations[iri]
    subj, obj = sorted_keys(rel.forward)[0], sorted_keys(rel.inverse)[0]
    sp = Speaker(kg, lex)
    return sp.wh(Project(iri, Anchor(subj))) + "?", sp.wh(Project(iri, Anchor(obj), inverse=True)) + "?"


def drafted_fields(w: Wording) -> dict[str, str]:
    """The fields of a wording the model drafts (`DRAFTED`)."""
    return {k: v for k, v in asdict(w).items() if k in DRAFTED}


def draft_prompt(kg: KnowledgeGraph, lex: Lexicon, iri: str) -> str:
    """The prompt for one relation (`PROMPT` filled in; by str.replace: graph text may hold braces)."""
    w, rel = lex.relations[iri], kg.relations[iri]
    subj = sorted_keys(rel.forward)[0]
    forward, inverse = sample_questions(kg, lex, iri)
    fill = {
        "words": split_label(w.label),
        "subject": w.subject,
        "object": w.object,
        "example": f"{kg.name(subj)} -> {kg.name(min(rel.forward[subj]))}",
        "draft": json.dumps(drafted_fields(w), ensure_ascii=False),
        "forward": forward,
        "inverse": inverse,
    }
    text = PROMPT
    for key, value in fill.items():
        text = text.replace("{" + key + "}", value)
    return text


def read_draft(text: str, rule: Wording) -> tuple[Wording | None, str]:
    """The model's answer as a wording over the rule's (fields it leaves out keep the rule's value; a kind only where
    the rule's is `item`), or (None, reason) when it is no usable JSON object."""
    text = _THINK.sub("", text or "")
    start, end = text.find("{"), text.rfind("}")
    try:
        doc = json.loads(text[start : end + 1]) if 0 <= start < end else None
    except json.JSONDecodeError:
        doc = None
    if not isinstance(doc, dict):
        return None, "bad JSON"
    fields = {}
    for name in DRAFTED:
        if name not in doc:
            continue
        if not isinstance(doc[name], str):
            return None, f"bad JSON: {name} is not a string"
        fields[name] = " ".join(doc[name].split())
    if fields.get("form", rule.form) not in FORMS or fields.get("tense", rule.tense) not in TENSES:
        return None, "bad JSON: unknown form or tense"
    for kind in KINDS:  # a kind the rule knows stays; `item` left as it was is no drafted kind
        if getattr(rule, kind) != FALLBACK_KIND or fields.get(kind, FALLBACK_KIND) == FALLBACK_KIND:
            fields.pop(kind, None)
    return replace(rule, **fields), ""


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[^\W\d_]+", text)]


def _holds(text: str, word: str) -> bool:
    """Whether a word of `text` begins as `word` does (its first 5 letters, or all of its singular when shorter)."""
    n = min(5, len(singular(word)))
    return any(len(t) >= n and t[:n] == word[:n] for t in _words(text))


def _phrases(w: Wording) -> str:
    return " ".join((w.noun, w.plural, w.verb, w.verbs, w.active, w.base))


def missing_words(rule: Wording, draft: Wording) -> list[str]:
    """The relation's words the draft drops: each content word of its label that the rule's draft says (held by some
    word of the draft's phrases, `_holds`). Where the rule's draft says none of them (a wording people use instead:
    `nationality` said "a citizen of"), the draft holds a word of the label, or every content word of the rule's
    draft, or the rule's words as they were (`in language` said "in")."""
    label = [w for w in _words(split_label(rule.label)) if w not in FUNCTION_WORDS]
    said = [w for w in label if _holds(_phrases(rule), w)]
    if said:
        return [w for w in said if not _holds(_phrases(draft), w)]
    own = [w for w in _words(_phrases(rule)) if w not in FUNCTION_WORDS]
    if any(_holds(_phrases(draft), w) for w in label) or _words(_phrases(draft)) == _words(_phrases(rule)):
        return []
    return [] if own and all(_holds(_phrases(draft), w) for w in own) else label or own


def _schema_reason(draft: Wording, rule: Wording) -> str:
    """`schema: ...` for the first schema word or placeholder kind among the drafted phrases and kinds (a kind the
    draft leaves as the rule's is not the model's: `item` where it names none); ""."""
    for name in DRAFTED:
        value = getattr(draft, name)
        if name in ("form", "tense") or not value or (name in KINDS and value == getattr(rule, name)):
            continue
        if name in KINDS and (value.lower() in PLACEHOLDER_KINDS or singular(value.lower()) in PLACEHOLDER_KINDS):
            return f"schema: placeholder kind {value!r} in {name}"
        first = value.split()[0].lower()
        if name not in KINDS and (first in PLACEHOLDER_KINDS or singular(first) in PLACEHOLDER_KINDS):
            return f"schema: placeholder kind {value.split()[0]!r} in {name}"  # "item genre": the kind leaked in
        found = schema_words(f"the {value}")  # "the": the placeholder rule needs a determiner ("the item of")
        if found:
            return f"schema: {found[0][0]} {found[0][1].removeprefix('the ')!r} in {name}"
    return ""


def _slot_reason(draft: Wording) -> str:
    """`slot: ...` for the first drafted phrase that does not fit its slot (see the module docstring); ""."""
    for name in DRAFTED:
        value = getattr(draft, name)
        if name in ("form", "tense") or not value:
            continue
        if not _PLAIN.fullmatch(value):
            return f"slot: {name} {value!r} is not plain words"
        limit = MAX_KIND_WORDS if name in KINDS else MAX_WORDS
        if len(value.split()) > limit:
            return f"slot: {name} {value!r} has over {limit} words"
    verb = draft.verb.lower().split()
    if draft.form == "noun" and (
        not draft.noun or not draft.plural or draft.noun.split()[0].lower() in FUNCTION_WORDS
    ):
        return "slot: a noun form needs its noun and plural"
    if draft.form == "by" and (verb[-1:] != ["by"] or not draft.active):
        return "slot: a by form needs a verb ending in 'by' and its active past"
    if draft.form == "prep" and (not verb or verb[-1] not in PREPOSITIONS):
        return "slot: a prep form needs a verb ending in a preposition"
    if draft.form == "verb" and (not verb or not draft.verbs):
        return "slot: a verb form needs its verb and verbs"
    for kind in KINDS:
        if not getattr(draft, kind):
            return f"slot: no {kind} kind"
    return ""


def _question_reason(kg: KnowledgeGraph, lex: Lexicon, iri: str, draft: Wording) -> str:
    """`question: ...` when the draft's questions cannot be said or read badly (see the module docstring); "".
    What the rule's own questions already have (a long name, "Duran Duran", a schema word in a name) is no fault of
    the draft."""
    trial = copy.copy(lex)
    trial.relations = {**lex.relations, iri: draft}
    try:
        asked = sample_questions(kg, trial, iri)
    except Exception as exc:  # a wording the grammar cannot say (any error of the Speaker): the rule's stays
        return f"question: cannot be said ({type(exc).__name__})"
    said = sample_questions(kg, lex, iri)
    limit = max(MAX_QUESTION_WORDS, *(len(q.split()) for q in said))
    repeats = {pair for q in said for pair in _repeats(q)}
    before = {word for q in said for _, word in schema_words(q)}
    for q in asked:
        if len(q.split()) > limit:
            return f"question: over {limit} words: {q}"
        if _repeats(q) - repeats:
            return f"question: a word repeated: {q}"
        new = [f"{rule} {word!r}" for rule, word in schema_words(q) if word not in before]
        if new:
            return f"question: schema {new[0]}: {q}"
    return ""


def _repeats(text: str) -> set[str]:
    """The words a text says twice in a row ("directed by by")."""
    words = text.lower().split()
    return {a for a, b in zip(words, words[1:]) if a == b}


def check_draft(kg: KnowledgeGraph, lex: Lexicon, iri: str, draft: Wording) -> str:
    """Why a drafted wording of relation `iri` cannot replace the rule's (`lex.relations[iri]`), the first check
    that fails (see the module docstring); "" when it passes them all."""
    rule = lex.relations[iri]
    reason = _schema_reason(draft, rule) or _slot_reason(draft)
    if not reason and (dropped := missing_words(rule, draft)):
        reason = f"dropped words: {', '.join(dropped)}"
    return reason or _question_reason(kg, lex, iri, draft)


def draft_lexicon(kg: KnowledgeGraph, lex: Lexicon, backend) -> tuple[Lexicon, dict[str, Draft]]:
    """Ask `backend` (loaded) for a wording of every relation of `lex`, one prompt each, in one `generate` call;
    return a copy of `lex` with the drafts that pass `check_draft`, and each relation's `Draft` (model or rule, and
    why). Greedy backends give the same lexicon for the same graph and model."""
    iris = sorted(lex.relations)
    prompts = [[{"role": "user", "content": draft_prompt(kg, lex, iri)}] for iri in iris]
    completions = backend.generate(prompts, [[] for _ in iris]) if iris else []
    drafts: dict[str, Draft] = {}
    for iri, completion in zip(iris, completions, strict=True):
        rule = lex.relations[iri]
        draft, reason = (None, "bad JSON: a tool call") if completion.tool_calls else read_draft(completion.text, rule)
        reason = reason or check_draft(kg, lex, iri, draft)
        drafts[iri] = Draft(rule, "rule", reason) if reason else Draft(draft, "model", same=draft == rule)
    out = copy.copy(lex)
    out.relations = {iri: d.wording for iri, d in drafts.items()}
    return out, drafts
