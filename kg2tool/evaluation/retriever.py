"""Which of a graph's derived tools to offer for a question (``kg2tool eval --questions ... --offer related``).

A BM25 index (``rank_bm25.BM25Okapi``, Okapi BM25 with its default k1=1.5, b=0.75) holds one document per relation
and per attribute: its label, the local name of its IRI, its tools' names and descriptions, and every wording the
relation lexicon has for it (``kg2tool.synth.language.lexicon``: noun, plural, verb forms, the kinds of its subject and
object), and the cue words of ``CUES`` for the words of its label (``born`` for ``birth``). A question is tokenized the same way (lower case, letters and digits, a short stop-word list dropped, a
plural cut) and the ``top_k`` best documents give their tools: both directions of a relation, and the
attribute's getter; the operator tools (``intersection``, ``count``, ...) are always offered. Ties go to the
document derived first, so the choice is deterministic.
"""

from __future__ import annotations

import re
from dataclasses import asdict

from ..synth.tools.toolset import OPERATORS, ToolSet

STOP = frozenset(
    "a an the of in on at to for by with from and or is are was were be been who whom whose what which where when "
    "how many much do does did there that this these those it its his her their me my you your please tell give "
    "list name show i we can could would any all some else same other as".split()
)


# How people ask for what common relation labels name (English): added to a document when its label has the word.
# Without them BM25 cannot tie "born" to "place of birth" or "married" to "spouse" (measured in docs/eval.md).
CUES = {
    "birth": "born", "death": "died die dead", "burial": "buried grave", "spouse": "married wife husband",
    "sibling": "brother sister", "child": "son daughter children", "educated": "studied study attended school",
    "employer": "worked work employed job", "occupation": "profession job work living do", "citizenship": "citizen",
    "languages": "speak spoke language", "headquarters": "headquartered based", "parent": "owns owned owner",
    "influenced": "influence", "member": "belongs belong", "cause": "died of", "record": "signed artist",
    "residence": "lived live", "genre": "music style kind", "instrument": "play played",
}  # fmt: skip


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Lower-case word tokens without stop words, plurals cut (``universities`` -> ``university``)."""
    words = re.findall(r"[a-z0-9]+", text.lower().replace("_", " "))
    return [_stem(w) for w in words if w not in STOP]


class ToolRetriever:
    """BM25 over the relations and attributes of a ToolSet (see the module docstring)."""

    def __init__(self, ts: ToolSet, lexicon=None):
        from rank_bm25 import BM25Okapi

        self.ts = ts
        self.groups: list[list[str]] = []  # the tool names of each document
        docs: list[list[str]] = []
        kg = ts.kg
        for iri, rel in kg.relations.items():
            names = [n for n in (ts.forward_tool.get(iri), ts.inverse_tool.get(iri)) if n]
            wording = lexicon.relations.get(iri) if lexicon is not None else None
            if names:
                self.groups.append(names)
                docs.append(self._document(iri, rel.label, names, wording))
        for iri, attr in kg.attributes.items():
            name = ts.attribute_tool.get(iri)
            wording = lexicon.attributes.get(iri) if lexicon is not None else None
            if name:
                self.groups.append([name])
                docs.append(self._document(iri, attr.label, [name], wording))
        self.bm25 = BM25Okapi(docs) if docs else None

    def _document(self, iri: str, label: str, names: list[str], wording) -> list[str]:
        local = re.split(r"[/#]", iri.rstrip("/#"))[-1]
        parts = [label, local, *names, *(self.ts.specs[n].schema["function"]["description"] for n in names)]
        if wording is not None:
            parts += [v for v in asdict(wording).values() if isinstance(v, str)]
        parts += [CUES[w] for w in re.findall(r"[a-z]+", label.lower()) if w in CUES]
        return tokens(" ".join(parts))

    def pick(self, question: str, top_k: int) -> list[str]:
        """The tool names offered for `question`: the tools of the `top_k` best documents, then the operators."""
        picked: list[str] = []
        if self.bm25 is not None:
            scores = self.bm25.get_scores(tokens(question))
            order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:top_k]
            picked = [name for i in order for name in self.groups[i]]
        return picked + [op for op in OPERATORS if op in self.ts.specs]


def recall(offered: list[list[str]], expected: list[list[str]]) -> dict:
    """How many of the expected tools (the relation path's) were offered, over questions with a path: ``expected``
    and ``covered`` tool counts, ``recall``, and ``full`` (questions with every expected tool offered)."""
    pairs = [(set(o), set(e)) for o, e in zip(offered, expected, strict=True) if e]
    n_expected = sum(len(e) for _, e in pairs)
    covered = sum(len(o & e) for o, e in pairs)
    return {
        "questions": len(pairs),
        "expected": n_expected,
        "covered": covered,
        "recall": covered / n_expected if n_expected else 0.0,
        "full": sum(e <= o for o, e in pairs),
    }
