"""Questions people wrote about a graph (``kg2tool eval --questions FILE``): reading the three formats, and
binding each question to the graph (its topic entities, relation steps and answers).

Formats (``read_questions``; by extension, or ``fmt``):

* **JSON Lines** (``.jsonl``): one object per line: ``question`` (text) and ``answers`` (a non-empty list of entity
  names or literal values) are required; optional ``id``, ``topic_entity`` (a name, or a list of names),
  ``relation_path`` (relation labels, IRIs or local names such as ``P19``; ``^rel`` or ``inverse rel`` for a step
  walked backwards from object to subject; a list of such lists, one per topic entity, for an intersection),
  ``hops`` (an integer) and ``aggregate`` (``"count"``: the answer is the number of entities the path reaches).
* **MetaQA** (any other extension): ``question with [topic]<TAB>answer1|answer2``, the topic entity marked with
  brackets; the hop count is read from a ``N-hop`` folder or file name when there is one.
* **WebQSP / CWQ** (``.json``): WebQSP's ``{"Questions": [{"QuestionId", "RawQuestion" (or "ProcessedQuestion"),
  "Parses": [{"TopicEntityName", "InferentialChain", "Answers": [{"EntityName", "AnswerArgument"}]}]}]}`` (the
  first parse is read; an answer is its ``EntityName``, else its ``AnswerArgument``; the inferential chain becomes
  the relation path, so it counts only where the graph's relations carry those names), or CWQ's list of
  ``{"ID", "question", "answers": [{"answer", "aliases"}]}`` (no topic entity, no path).

Errors name the file and line (for ``.json`` files: the entry's index): a missing field, invalid JSON, a wrong
type, an unknown ``topic_entity`` (``InputError``, exit 3). Answers no entity of the graph matches are not errors:
``bind`` marks them (``unmatched``) and the report counts them; they are still matched as text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..common.errors import InputError
from ..graph.names import normalize_name

FORMATS = ("jsonl", "metaqa", "webqsp")
AGGREGATES = ("count",)
_LITERAL_RE = re.compile(r"^(?:[-+]?\d+(?:\.\d+)?|true|false|\d{4}-\d{2}-\d{2}(?:T[\d:.+\-Z]+)?)$", re.IGNORECASE)
_INVERSE_RE = re.compile(r"^(?:\^\s*|inverse\s+)(.+)$", re.IGNORECASE)


@dataclass
class Question:
    """One question as read from a file; ``where`` is ``file:line`` (or ``file: entry N``) for messages."""

    id: str
    question: str
    answers: list[str]
    where: str
    topics: list[str] = field(default_factory=list)
    paths: list[list[str]] = field(default_factory=list)  # one relation path per topic entity
    hops: int | None = None
    aggregate: str | None = None

    @property
    def hop_count(self) -> int | None:
        """``hops`` when given, else the length of the (longest) relation path, else None."""
        if self.hops is not None:
            return self.hops
        return max((len(p) for p in self.paths), default=None) or None


def detect_format(path: Path) -> str:
    """``jsonl`` for ``.jsonl``, ``webqsp`` for ``.json``, else ``metaqa``."""
    return {".jsonl": "jsonl", ".json": "webqsp"}.get(path.suffix.lower(), "metaqa")


def read_questions(path: str | Path, fmt: str | None = None) -> list[Question]:
    """The questions of a file in one of ``FORMATS`` (detected from the extension when ``fmt`` is None)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"--questions {path}: no such file")
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise InputError(f"--questions {path}: unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it as UTF-8 text: {exc}") from None
    questions = {"jsonl": _read_jsonl, "metaqa": _read_metaqa, "webqsp": _read_webqsp}[fmt](path, text)
    if not questions:
        raise InputError(f"{path}: no questions in it")
    seen: dict[str, str] = {}
    for q in questions:
        if q.id in seen:
            raise InputError(f"{q.where}: id {q.id!r} is used twice (first at {seen[q.id]})")
        seen[q.id] = q.where
    return questions


def _strings(value, where: str, name: str, allow_empty: bool = False) -> list[str]:
    """A field that is a string or a list of strings/numbers, as a list of strings."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not all(
        isinstance(v, (str, int, float, bool)) and str(v).strip() for v in value
    ):
        raise InputError(f"{where}: field {name!r} must be a string or a list of non-empty strings")
    if not value and not allow_empty:
        raise InputError(f"{where}: field {name!r} is empty")
    return [str(v).lower() if isinstance(v, bool) else str(v).strip() for v in value]


def _paths(value, topics: list[str], where: str) -> list[list[str]]:
    if value is None:
        return []
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        paths = [_strings(v, where, "relation_path") for v in value]
    else:
        paths = [_strings(value, where, "relation_path")]
    if topics and len(paths) != len(topics):
        raise InputError(
            f"{where}: {len(paths)} relation path(s) for {len(topics)} topic entities (give one path per topic)"
        )
    return paths


def question_from_record(record, where: str, default_id: str) -> Question:
    """A Question from one JSON Lines object (see the module docstring); InputError naming `where`."""
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected a JSON object, got {type(record).__name__}")
    for name in ("question", "answers"):
        if name not in record:
            raise InputError(f"{where}: missing field {name!r}")
    if not isinstance(record["question"], str) or not record["question"].strip():
        raise InputError(f"{where}: field 'question' must be a non-empty string")
    topics = _strings(record["topic_entity"], where, "topic_entity") if record.get("topic_entity") else []
    hops = record.get("hops")
    if hops is not None and (not isinstance(hops, int) or isinstance(hops, bool) or hops < 1):
        raise InputError(f"{where}: field 'hops' must be a positive integer")
    aggregate = record.get("aggregate")
    if aggregate is not None and aggregate not in AGGREGATES:
        raise InputError(f"{where}: field 'aggregate' must be one of {', '.join(AGGREGATES)}")
    return Question(
        id=str(record.get("id", default_id)),
        question=record["question"].strip(),
        answers=_strings(record["answers"], where, "answers"),
        where=where,
        topics=topics,
        paths=_paths(record.get("relation_path"), topics, where),
        hops=hops,
        aggregate=aggregate,
    )


def _read_jsonl(path: Path, text: str) -> list[Question]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: invalid JSON: {exc.msg} (column {exc.colno})") from None
        out.append(question_from_record(record, where, f"q{lineno}"))
    return out


_TOPIC_RE = re.compile(r"\[([^\[\]]+)\]")


def _read_metaqa(path: Path, text: str) -> list[Question]:
    hop = re.search(r"(\d)-?hop", str(path), re.IGNORECASE)
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        if "\t" not in line:
            raise InputError(f"{where}: expected 'question<TAB>answer1|answer2' (MetaQA format), found no tab")
        question, answers = line.split("\t", 1)
        topics = _TOPIC_RE.findall(question)
        if len(topics) != 1:
            raise InputError(f"{where}: mark the topic entity with brackets once, as in 'who directed [Alien]'")
        out.append(
            Question(
                id=f"{path.stem}-{lineno}",
                question=_TOPIC_RE.sub(lambda m: m.group(1), question).strip(),
                answers=_strings([a for a in answers.strip().split("|") if a.strip()], where, "answers"),
                where=where,
                topics=[topics[0].strip()],
                hops=int(hop.group(1)) if hop else None,
            )
        )
    return out


def _read_webqsp(path: Path, text: str) -> list[Question]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    entries = data.get("Questions") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise InputError(f"{path}: expected WebQSP's {{'Questions': [...]}} or CWQ's list of questions")
    out = []
    for index, entry in enumerate(entries):
        where = f"{path}: entry {index}"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: expected an object")
        if "Parses" in entry:  # WebQSP
            parse = (entry.get("Parses") or [{}])[0]
            answers = [a.get("EntityName") or a.get("AnswerArgument") for a in parse.get("Answers") or []]
            record = {
                "id": entry.get("QuestionId", f"q{index}"),
                "question": entry.get("RawQuestion") or entry.get("ProcessedQuestion"),
                "answers": [a for a in answers if a],
                "topic_entity": parse.get("TopicEntityName"),
                "relation_path": parse.get("InferentialChain") or None,
            }
        else:  # CWQ
            answers = entry.get("answers") or []
            record = {
                "id": entry.get("ID", f"q{index}"),
                "question": entry.get("question"),
                "answers": [a.get("answer") if isinstance(a, dict) else a for a in answers],
            }
        if record["question"] is None:
            raise InputError(f"{where}: missing field 'question' (WebQSP: RawQuestion, CWQ: question)")
        if not record["answers"]:
            raise InputError(f"{where}: missing field 'answers' (no answer named)")
        out.append(question_from_record({k: v for k, v in record.items() if v is not None}, where, f"q{index}"))
    return out


# ---------------------------------------------------------------------------------------------- the graph


@dataclass(frozen=True)
class Step:
    """One relation step of a path: the relation's IRI and whether it is walked backwards (object -> subject)."""

    relation: str
    inverse: bool


def parse_step(kg, text: str) -> Step | None:
    """The relation a path step names (IRI, label, or IRI local name, case-insensitive), or None when unknown."""
    m = _INVERSE_RE.match(text.strip())
    inverse, name = (True, m.group(1).strip()) if m else (False, text.strip())
    if name in kg.relations:
        return Step(name, inverse)
    key = normalize_name(name)
    for iri, rel in kg.relations.items():
        local = re.split(r"[/#]", iri.rstrip("/#"))[-1]
        if normalize_name(rel.label) == key or normalize_name(local) == key:
            return Step(iri, inverse)
    return None


def is_literal(answer: str) -> bool:
    """A number, boolean or ISO date: an answer that names no entity by design."""
    return bool(_LITERAL_RE.match(answer.strip()))


@dataclass
class Bound:
    """A question bound to the graph: topic entity ids, and each answer's entity id (None for a literal)."""

    q: Question
    topic_ids: list[int]
    answer_ids: list[int | None]
    unmatched: list[str]  # answers that are neither an entity of the graph nor a literal value


def bind(kg, questions: list[Question]) -> list[Bound]:
    """Resolve topics and answers with the graph's own name resolution (``KnowledgeGraph.resolve``: display
    names, labels, alternative labels, the lenient key). An unknown topic entity is an InputError naming the line."""
    out = []
    for q in questions:
        topic_ids = []
        for topic in q.topics:
            eid = kg.resolve(topic)
            if eid is None:
                raise InputError(f"{q.where}: topic_entity {topic!r} is not an entity of the graph")
            topic_ids.append(eid)
        ids, unmatched = [], []
        for answer in q.answers:
            eid = None if is_literal(answer) else kg.resolve(answer)
            ids.append(eid)
            if eid is None and not is_literal(answer):
                unmatched.append(answer)
        out.append(Bound(q, topic_ids, ids, unmatched))
    return out
