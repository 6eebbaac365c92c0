"""The per-shard engine of synthesis: `SynthConfig` and `Synthesizer` (graph -> tools -> plans -> verified rows).

A `Synthesizer` holds the loaded graph, its tools, the walker, the templates and the compiler; `candidates(i)` draws
candidate j of shard i's randomness from `random.Random(f"{seed}:{i}:{j}")` and returns its verified candidates
(`kg2tool.synth.candidate.Candidate`: the row, its split key and DPO pairs) and its counts. The pipeline
(`kg2tool.synth.run.pipeline`) runs shards, alone or in workers (`kg2tool.synth.run.shards`), and merges them.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections import Counter
from dataclasses import replace

from ...common.errors import InputError
from ...common.lightcheck import import_light
from ...graph.model import KnowledgeGraph
from ..candidate import Candidate, ShardStats
from ..checks.diversity import GATE_REASONS, Gate, plan_key
from ..checks.preference import PairMaker
from ..checks.unsaid import is_placeholder, made_up_name, unsaid_anchor  # noqa: F401 (is_placeholder, made_up_name: re-exported)
from ..checks.verify import verify_row
from ..dialogue import DialogueBuilder
from ..language.lexicon import FALLBACK_KIND, PLACE_KINDS, UNKNOWN_NOUN, derive_lexicon, plural
from ..language.lexicon_file import load_lexicon
from ..language.render import Renderer
from ..plans.tree import (
    Anchor,
    Attr,
    Compare,
    Count,
    Node,
    Parallel,
    Project,
    anchors,
    execute,
    plan_to_json,
    relation_path,
    topic,
)
from ..tools.refs import BatchToolSet, RefToolSet
from ..tools.toolset import OPERATORS, ToolError, ToolSet
from ..traces import Compiler, Trace, messages_for, tools_used
from ..walk.walker import CATEGORY, DIALOGUE_SHAPES, Walker
from .config import DEFAULT_MIX, SynthConfig  # noqa: F401 (re-exported)

# The stages of a candidate's making, cheapest first, and the drop reasons each finds (`stage_of`; the report's
# `dropped_by_stage`). A drop costs the stages before it: `walk` only the walk, `merge` the whole candidate.
STAGES = ("walk", "plan", "answer", "calls", "wording", "verify", "merge")
# Plans a candidate draws at most (`Synthesizer._drawn`): one that fails the walk or plan stage is drawn again, from
# the candidate's own randomness, before the candidate is dropped (Nobel, 20,000 rows: 6,495 candidates found no
# plan and 6,312 had a plan no question is made of, of 44,626)
PLAN_DRAWS = 4
_STAGE_OF = {
    "sampling_failed": "walk",
    **dict.fromkeys(("mixed_kinds", "made_up_name", "annotated_name", "placeholder", "not_a_name", "odd_count"), "plan"),
    **dict.fromkeys(("empty_answer", "answer_in_question"), "answer"),
    "no_unrelated_tools": "calls",
    **dict.fromkeys(("too_long_to_say", "nested_clause", "no_kind", "name_repeated"), "wording"),
    **dict.fromkeys(("duplicate_question", "duplicate_plan", "near_duplicate_question", "topic_cap"), "merge"),
}


def stage_of(reason: str) -> str:
    """The stage (of `STAGES`) that finds the drop `reason`: verification's reasons are `verify`'s."""
    if reason.startswith("execution_error:"):
        return "calls"
    return _STAGE_OF.get(reason, "verify")


def pattern_of(shape: str) -> str:
    """The row's `pattern` for a shape (`simple` and `multiple` are 1p)."""
    return "1p" if shape in ("simple", "multiple") else shape


def split_of(key: str, splits: tuple[float, float, float]) -> str:
    """train, validation or test for a split key, by a hash of it and the split fractions."""
    u = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") / 2**64
    if u < splits[0]:
        return "train"
    if u < splits[0] + splits[1]:
        return "validation"
    return "test"


def gold_answers(kg: KnowledgeGraph, plan: Node) -> tuple[list[str], list[list[str]]]:
    """(flat answer strings, per parallel item) computed from the plan on ids, independently of the calls."""

    def one(value, node) -> list[str]:
        if isinstance(node, Compare):
            return [kg.name(value)] if value is not None else []
        if isinstance(value, frozenset):
            return sorted(kg.name(i) for i in value)
        return [] if value is None else [str(value)]

    if isinstance(plan, Parallel):
        per = [one(execute(kg, c), c) for c in plan.children]
        flat = sorted({a for p in per for a in p})
        return flat, per
    return one(execute(kg, plan), plan), []


def _import_inflect() -> None:
    """inflect (plurals, articles), imported once without typeguard's instrumentation of its methods (~2.7 s of
    start-up; kg2tool.common.lightcheck): its `Word` arguments are still checked, so an empty word is refused with
    the same TypeCheckError as before and the wording comes out the same."""
    import_light("inflect", {"Word": ("an instance of inflect.Word", lambda v: isinstance(v, str) and len(v) >= 1)})


class Synthesizer:
    """Holds the loaded graph, tools, walker, templates and compiler; `generate()` yields candidate results."""

    def __init__(self, kg: KnowledgeGraph, config: SynthConfig, template_dir=None):
        _import_inflect()
        self.kg = kg
        self.cfg = config
        self.lexicon = derive_lexicon(kg)
        if config.lexicon:
            self.lexicon = load_lexicon(config.lexicon, kg, self.lexicon)
        self.ts = ToolSet.from_graph(kg, min_support=config.min_support, lexicon=self.lexicon)
        self.walker = Walker(self.ts, config.walk, self.lexicon)
        shapes = [s for s, w in config.mix.items() if w > 0]
        families = [s for s in shapes if s != "error_recovery"]  # error_recovery words its question as 1p/2p
        if set(shapes) & set(DIALOGUE_SHAPES):
            families += [f for f in ("simple", "2p") if f not in families]
        self.renderer = Renderer(template_dir, shapes=families, lexicon=self.lexicon)
        self.compiler = Compiler(self.ts)
        self.style = config.style
        self.ref_ts = None  # the refs or batch style's tools, compiler and walk bounds (multi_step rows only)
        if self.style.passes_handles:
            self.ref_ts = RefToolSet(self.ts, config.ref_items)
            self.ref_compiler = Compiler(self.ref_ts)
            big = 1 << 62
            self.ref_walk = replace(config.walk, max_answers=big, max_set=big, max_fanout=big)
        elif self.style.batches_lookups:
            self.ref_ts = BatchToolSet(self.ts)
            self.ref_compiler = Compiler(self.ref_ts)
            self.ref_walk = replace(config.walk, max_fanout=config.walk.max_set)
        self.pair_maker = PairMaker(self.ts)
        self.style_pair_maker = PairMaker(self.ref_ts) if self.ref_ts is not None else self.pair_maker
        self.dialogue = DialogueBuilder(self.walker, self.renderer, self.compiler)
        if "missing_info" in shapes and not self.dialogue.can_leave_out():
            # no name a user can give in part (kg2tool.synth.dialogue): its share goes to the other shapes
            if len(shapes) == 1:
                raise InputError("the mix asks for missing_info only, and the graph has no name a user can give in "
                                 "part (a family name several people share, or a beginning several names of one kind "
                                 "share): add other shapes to --mix")  # fmt: skip
            shapes = [s for s in shapes if s != "missing_info"]
        self.shapes = shapes
        self.weights = [config.mix[s] for s in shapes]
        self.cum_weights = list(itertools.accumulate(self.weights))  # what rng.choices computes from weights
        self.relation_tools = sorted(n for n, s in self.ts.specs.items() if s.kind != "operator")
        # A question or answer that has to call its entities "things" is not written (`no_kind`); the relations of
        # such candidates are counted (`ShardStats.no_kind`) for the report.
        self.no_kind_relations: list[str] = []
        self.kinds_known = self.lexicon.known_share() >= 0.5  # mixed kinds are told apart only where kinds are known
        self.lazy_pairs = False  # True: `candidates` leaves DPO pairs to `add_pairs` (the pipeline: kept rows only)
        # The merge's diversity filter, seen from the shard it expects next (kg2tool.synth.checks.diversity.Gate;
        # set by the pipeline): that shard skips a candidate whose plan is taken or whose topic is full as soon as
        # its plan is known, before executing, rendering and verifying it. None: every candidate is made whole.
        self.gate: Gate | None = None
        self._gate: Gate | None = None  # the gate for the candidate being made (None: not this shard)
        self._early: tuple[str, str, dict] | None = None  # (plan key, topic name, plan JSON) of that candidate
        self.redrawn: Counter = Counter()  # plans drawn again, by the reason of the one before (`_drawn`)

    # -- one candidate -----------------------------------------------------------------------------------
    def candidate(self, shape: str, rng: random.Random) -> tuple[Candidate | None, str]:
        """One verified conversation of `shape`: (candidate, "") or (None, drop reason).

        Long because it is the candidate's one sequence of stages (`STAGES`), the cheapest checks first, each a
        line or two."""
        if shape in DIALOGUE_SHAPES:
            return self.dialogue_candidate(shape, rng)
        category = CATEGORY[shape]
        refs = self.ref_ts is not None and category == "multi_step"
        ts, compiler = (self.ref_ts, self.ref_compiler) if refs else (self.ts, self.compiler)
        plan, why = self._drawn(lambda: self.walker.sample(shape, rng) if not refs else self._unbounded(shape, rng),
                                self._plan_fault)  # fmt: skip
        if plan is None:
            return None, why
        if why := self._gated(shape, plan):  # its plan is taken, or its topic is full: nothing more to make
            return None, why
        gold, per_item = gold_answers(self.kg, plan)
        if category != "irrelevance" and not gold:
            return None, "empty_answer"
        if any(isinstance(a, str) and is_placeholder(a) for a in gold):  # "X comes from unknown-planet"
            return None, "placeholder"
        said = [self.kg.name(e) for e in anchors(plan)]
        if answered_by_a_name(gold, said) or any(answered_by_a_name(p, said) for p in per_item):
            return None, "answer_in_question"
        if restates_a_subject(self.kg, plan):
            return None, "answer_in_question"
        extra: dict = {"per_item": per_item}
        if category == "irrelevance":
            trace_calls, needed = [], []
        else:
            try:
                trace = compiler.compile(plan)
            except ToolError as exc:
                return None, f"execution_error:{exc.kind}"
            trace_calls, needed = trace.calls, tools_used(trace)
            if isinstance(plan, Compare):
                extra["values"] = {c.arguments["items"][i]["name"]: c.arguments["items"][i]["value"]
                                   for c in trace_calls if c.name == "compare" for i in range(len(plan.items))}  # fmt: skip
        tools = self.offer(shape, plan, needed, rng)
        if category == "irrelevance":
            if not tools:  # e.g. a one-relation graph: no unrelated tool to offer
                return None, "no_unrelated_tools"
            extra["tools"] = tools
        ctx = self.renderer.context(self.kg, shape, plan, gold if category != "irrelevance" else [], extra)
        question, answer = self.renderer.render(shape, ctx, rng)
        if refs and self.style.passes_handles and len(gold) > self.cfg.ref_items:  # a ref shows the first few names
            gold, answer = gold[: self.cfg.ref_items], self._some_of(plan, gold)
        if len(question.split()) >= self.cfg.max_words * (2 if category.startswith("parallel") else 1):
            return None, "too_long_to_say"
        names = [self.kg.name(e) for e in anchors(plan)]
        if nests_clauses(question, names):
            return None, "nested_clause"
        if category != "irrelevance" and any(answered_by_its_words(g, question, names) for g in [gold, *per_item]):
            return None, "answer_in_question"
        if says_no_kind(question, names) or says_no_kind(answer, names + [str(a) for a in gold]):
            return self._no_kind(plan, shape)
        if shape == "parallel_multiple" and any(question.count(self.kg.name(e)) > 1 for e in anchors(plan)):
            return None, "name_repeated"  # one person of no known gender asked two things in verbs: no pronoun
        if category == "irrelevance":
            gold = []
        messages = messages_for(question, Trace(calls=trace_calls), answer)
        schemas = ts.schemas(tools)
        reason = verify_row(ts, messages, schemas, gold, category)
        if reason:
            return None, reason
        return self._row(shape, category, plan, messages, schemas, gold), ""

    def _drawn(self, draw, fault) -> tuple[Node | None, str]:
        """A plan from `draw()` that has no `fault(plan)` (a drop reason of the walk or plan stage, `STAGES`), drawn up
        to PLAN_DRAWS times from the candidate's own randomness: (plan, "") or (None, the last draw's reason). Each
        draw that fails before the last is counted in `redrawn` (the report's `redrawn`): a candidate is not
        spent on a plan no question is made of (an anchor with a made-up or annotated name, a count of places,
        a sampler that found nothing). A function of the candidate alone: the same wherever its shard is made."""
        for k in range(PLAN_DRAWS):
            plan = draw()
            why = "sampling_failed" if plan is None else fault(plan)
            if not why:
                return plan, ""
            if k + 1 < PLAN_DRAWS:
                self.redrawn[why] += 1
        return None, why

    def _plan_fault(self, plan: Node) -> str | None:
        """Why no question is made of a walked plan (`mixed_kinds`, an unsaid anchor, `odd_count`), or None."""
        if self.kinds_known and (mixed_kinds(plan, self.lexicon.kind_of) or asked_of_two_kinds(plan, self.renderer.speaker(self.kg))):
            return "mixed_kinds"
        if why := unsaid_anchor(self.kg, plan):
            return why
        if counts_places(plan, self.lexicon) or counts_values(plan, self.renderer.speaker(self.kg)):
            return "odd_count"
        return None

    def _unbounded(self, shape: str, rng: random.Random) -> Node | None:
        """A plan of `shape` sampled with the style's walk bounds (refs: none, sets are passed by handle)."""
        bounded, self.walker.cfg = self.walker.cfg, self.ref_walk
        try:
            return self.walker.sample(shape, rng)
        finally:
            self.walker.cfg = bounded

    def _some_of(self, plan: Node, gold: list[str]) -> str:
        """The final answer for a set larger than a ref shows: how many, and the names it shows."""
        kind = self.lexicon.kind_of(min(execute(self.kg, plan)))
        some = gold[: self.cfg.ref_items]
        listed = ", ".join(some[:-1]) + f" and {some[-1]}"
        return f"There are {len(gold):,} {plural(kind)} in all; among them: {listed}."

    def dialogue_candidate(self, shape: str, rng: random.Random) -> tuple[Candidate | None, str]:
        """followup, missing_info and error_recovery conversations (see kg2tool.synth.dialogue)."""
        # "Tell me the country whose successor is Geece (resource)": a dialogue names its anchor too
        plan, why = self._drawn(lambda: self.dialogue.plan(shape, rng), lambda p: unsaid_anchor(self.kg, p))
        if plan is None:
            return None, why
        if why := self._gated(shape, plan):
            return None, why
        gold, _ = gold_answers(self.kg, plan)
        if not gold:
            return None, "empty_answer"
        anchor_names = [self.kg.name(e) for e in anchors(plan)]
        if restates_a_subject(self.kg, plan) or answered_by_a_name(gold, anchor_names):
            return None, "answer_in_question"
        try:
            messages, calls = self.dialogue.build(shape, plan, gold, rng)
        except ToolError as exc:
            return None, f"execution_error:{exc.kind}"
        if messages is None:
            return None, "sampling_failed"
        named = [a for x in [gold, *(c.result for c in calls)] for a in (x if isinstance(x, list) else [x])]
        if any(isinstance(a, str) and is_placeholder(a) for a in named):  # "Finn comes from unknown-planet"
            return None, "placeholder"
        said = [str(a) for a in named] + anchor_names
        texts = [m["content"] for m in messages if m["role"] in ("user", "assistant") and m.get("content")]
        if any(says_no_kind(text, said) for text in texts):  # every turn, a misspelled name's too
            return self._no_kind(plan, shape)
        asked = [m["content"] for m in messages if m["role"] == "user"]
        if any(nests_clauses(text, said) for text in asked):
            return None, "nested_clause"
        if answered_by_its_words(gold, " ".join(asked), anchor_names):
            return None, "answer_in_question"
        needed = list(dict.fromkeys(c.name for c in calls))
        schemas = self.ts.schemas(self.offer(shape, plan, needed, rng))
        category = CATEGORY[shape]
        reason = verify_row(self.ts, messages, schemas, gold, category, allow_errors=shape == "error_recovery")
        if reason:
            return None, reason
        return self._row(shape, category, plan, messages, schemas, gold), ""

    def _gated(self, shape: str, plan: Node) -> str | None:
        """Note the candidate's plan key and topic (what the merge's filter compares first), and the drop reason
        when the gate says the merge would drop it anyway (`duplicate_plan`, `topic_cap`), else None."""
        plan_json = plan_to_json(self.kg, plan, self.lexicon.kind_of)
        self._early = (plan_key(pattern_of(shape), plan_json), self.kg.name(topic(plan)), plan_json)
        return self._gate.taken(*self._early[:2]) if self._gate is not None else None

    def _no_kind(self, plan: Node, shape: str) -> tuple[None, str]:
        """The `no_kind` drop, remembering the plan's relations for `candidates` to count (`ShardStats.no_kind`)."""
        self.no_kind_relations = [self._rel_label(r) for r in relation_path(plan)] or [shape]
        return None, "no_kind"

    def _row(
        self, shape: str, category: str, plan: Node, messages: list[dict], schemas: list[dict], gold
    ) -> Candidate:
        path = relation_path(plan)
        call_turns = [m for m in messages if m.get("tool_calls")]
        row = {
            "messages": messages,
            "tools": schemas,
            "pattern": pattern_of(shape),
            "category": category,
            "answers": gold,
            "topic_entity": self.kg.name(topic(plan)),
            "relation_path": [self._rel_label(r) for r in path],
            "num_calls": sum(len(m["tool_calls"]) for m in call_turns),
            "num_turns": len(call_turns),
            "plan": self._early[2] if self._early is not None else plan_to_json(self.kg, plan, self.lexicon.kind_of),
        }
        return Candidate(row, f"{self.kg.entities[topic(plan)]}|{'/'.join(path)}")

    def _rel_label(self, key: str) -> str:
        inv = key.startswith("^")
        iri = key.lstrip("^")
        lab = self.kg.relations[iri].label if iri in self.kg.relations else self.kg.attributes[iri].label
        return ("inverse " if inv else "") + lab

    def offer(self, shape: str, plan: Node, needed: list[str], rng: random.Random) -> list[str]:
        """Tool names offered in the row: the needed ones plus related distractors, in a seeded order."""
        if shape in ("simple", "parallel"):
            return list(needed)
        avoid = set(needed)
        if shape == "irrelevance":
            rel = plan.rel
            avoid = {self.ts.forward_tool[rel], self.ts.inverse_tool[rel]}
        lo = 2 if shape in ("multiple", "irrelevance") else 0
        k = rng.randint(lo, max(lo, self.cfg.max_distractors))
        related, seen = [], set(avoid)  # seen: avoid and related, for O(1) membership
        for eid in anchors(plan):
            for r, inv in self.walker.options.get(eid, ()):
                name = (self.ts.inverse_tool if inv else self.ts.forward_tool)[r]
                if name not in seen:
                    seen.add(name)
                    related.append(name)
        if shape == "irrelevance":  # never offer the inverse of the asked relation either
            related = [r for r in related if r not in avoid]
        pool = (
            related
            if len(related) >= k
            else related + [t for t in self.relation_tools if t not in seen]
        )
        distractors = rng.sample(pool, min(k, len(pool)))
        names = list(needed) + distractors
        if shape not in ("irrelevance",) and any(s in OPERATORS for s in needed) and rng.random() < 0.5:
            extra_ops = [o for o in OPERATORS if o not in names]
            names += rng.sample(extra_ops, min(len(extra_ops), 1))
        rng.shuffle(names)
        return names

    # -- shards ------------------------------------------------------------------------------------------
    def candidates(self, index: int) -> tuple[list[Candidate], ShardStats]:
        """Shard `index`: its kept candidates in order (each with its id and, unless `lazy_pairs`, DPO pairs) and its
        counts of tries per shape and drops per reason.

        Candidate j draws its randomness from `random.Random(f"{seed}:{index}:{j}")` alone, so a candidate skipped
        early leaves the others as they are. Where the gate is open for this shard (this process merges it next:
        `Gate.opens`), a candidate whose plan is taken or whose topic is full is skipped as soon as its plan is
        known, and each verified one goes through the filter at once (`Gate.admit`). Elsewhere each candidate is
        made whole, and those dropped after the gate's point are noted in `stats.late` (position, shape, reason,
        plan key, topic, no_kind relations): the merge counts them as the gate would have (`merge_shards`), so the
        counts, like the rows, do not depend on which process made the shard."""
        kept: list[Candidate] = []
        stats = ShardStats()
        gate = self.gate if self.gate is not None and self.gate.opens(index) else None
        for j in range(self.cfg.shard_size):
            rng = random.Random(f"{self.cfg.seed}:{index}:{j}")
            shape = rng.choices(self.shapes, cum_weights=self.cum_weights)[0]
            self._gate, self._early = (gate if gate is not None and not gate.full else None), None
            self.redrawn.clear()
            cand, reason = self.candidate(shape, rng)
            stats.tried[shape] += 1
            stats.redrawn.update(self.redrawn)
            if cand is None:
                if self._gate is not None and reason in GATE_REASONS:
                    stats.drop(reason)  # as the merge counts its drops: by reason only
                    continue
                stats.drop(reason, shape)
                rels = self.no_kind_relations if reason == "no_kind" else []
                stats.no_kind.update(rels)
                if gate is None and self._early is not None:
                    stats.late.append([j, shape, reason, *self._early[:2], list(rels)])
                continue
            row = cand.row
            row["id"] = f"{row['category']}_{index * self.cfg.shard_size + j}"
            cand.pos = j
            if self._gate is not None and (why := self._gate.admit(cand, self._early[0])):
                stats.drop(why)
                continue
            if not self.lazy_pairs:
                self.add_pairs(cand)
            kept.append(cand)
        self._gate = self._early = None
        return kept, stats

    def add_pairs(self, cand: Candidate) -> Candidate:
        """Make the candidate's DPO pairs (`cand.dpo`), unless it has them: seeded by the row id alone, so they are
        the same wherever and whenever they are made, with the tools of the row's style (multi_step rows other
        than error_recovery use --tool-style). The pipeline (`lazy_pairs`) makes them only for the rows the
        diversity filters keep (a third of the verified candidates are dropped there)."""
        if cand.dpo is None:
            row = cand.row
            styled = row["category"] == "multi_step" and row["pattern"] != "error_recovery"
            maker = self.style_pair_maker if styled else self.pair_maker
            cand.dpo = maker.pairs(row, random.Random(f"{self.cfg.seed}:dpo:{row['id']}"))
        return cand

    def shard(self, index: int) -> tuple[list[dict], ShardStats]:
        """Shard `index` as rows only (the dataset columns, for callers that need the conversations alone) and its
        counts; see `candidates`."""
        kept, stats = self.candidates(index)
        return [c.row for c in kept], stats


_VAGUE = re.compile(rf"\b({UNKNOWN_NOUN}|{FALLBACK_KIND})s?\b", re.I)


_NOTE = re.compile(r" \([^()]+\)$")  # a homonym note: "(category)", "(topical descriptor)"


def answered_by_a_name(gold: list, names: list[str]) -> bool:
    """True when every answer opens a name the question says, up to a word boundary ("Which category did the
    laureates who won Chemistry 2005 win a prize in?" -> Chemistry; "What is the key of leisure=park?" -> leisure):
    readers took such questions for nonsense. Checked on all the answers and on each branch of a parallel
    question alone (one branch that gives itself away spoils the question)."""
    bare = [_NOTE.sub("", a) if isinstance(a, str) else a for a in gold]  # "Physiology or Medicine (Category)"
    return bool(gold) and all(isinstance(a, str) and a and any(_opens(n, a) for n in names) for a in bare)


def restates_a_subject(kg: KnowledgeGraph, node: Node) -> bool:
    """True when a step of the plan leads only to things labelled as what it starts from, homonyms of another
    kind ("the concept of Abdomen (topical descriptor) is Abdomen (concept)", "the term of diacetamate (concept)
    is diacetamate (term)"): the answer is its own question."""
    if isinstance(node, Project):
        got = execute(kg, node)
        start = {kg.labels[e] for e in execute(kg, node.child)}
        if got and all(kg.labels[e] in start for e in got):
            return True
    kids = getattr(node, "children", None) or getattr(node, "items", None) or ()
    child = getattr(node, "child", None)
    return any(restates_a_subject(kg, k) for k in (*kids, *([child] if child is not None else [])))


def answered_by_its_words(gold: list, question: str, names: list[str]) -> bool:
    """True when every answer is a lower-case common word the question already says outside its `names` ("What is
    the license of X?" -> "license": a node named by the word of the link to it, which tells nothing); a name the
    question asks about (a comparison's "will.i.am") is no such word."""
    low = _without_names(question, names, " ").lower()
    return bool(gold) and all(
        isinstance(a, str) and a and a == a.lower() and re.search(rf"\b{re.escape(a)}s?\b", low) for a in gold
    )


def _opens(name: str, word: str) -> bool:
    """`name` starts with `word` and a word boundary follows (a space, '=', ':', ...; not a letter or digit)."""
    return len(name) > len(word) and name.startswith(word) and not name[len(word)].isalnum()


# A relative clause that opens inside another one: "the places that the places that X is part of were related to"
# A relative pronoun after a noun whose clause opens with its own subject, a noun phrase with a relative pronoun:
# "the places that the places that ...", "the people who the sets that ...", "the films that the people who ...".
# A clause after a clause is fine ("the films that feature the characters who ..."), and so is a question word
# opening the question ("Which of the sets that ...") or a demonstrative ("which country is that organization in").
_NESTED_CLAUSE = re.compile(r"(?<=\w )(?:that|who|whom|which) (?:the|some) (?:[a-z][\w-]* ){0,2}(?:that|who|whom|which)\b")


def nests_clauses(question: str, names: list[str]) -> bool:
    """True when the question, its names aside, puts a relative clause inside another ("What are the places that
    the places that X was related to are part of?", "Who are the people who the sets that X occurred in the presence
    of are about?"): center embedding, which readers reject however short (an
    English reader parses one such clause, not two)."""
    return _NESTED_CLAUSE.search(_without_names(question, names, "X")) is not None


def says_no_kind(question: str, names: list[str]) -> bool:
    """True when the question calls entities `thing(s)` (no kind known) outside the entity names it quotes."""
    return bool(_VAGUE.search(_without_names(question, names, " ")))


def _without_names(text: str, names: list[str], by: str) -> str:
    """`text` with each of `names` (longest first, so a name inside another goes with it) replaced by `by`: what
    a check of the wording reads, the graph's own words aside."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, by)
    return text


def _one_hop(node: Node) -> tuple[str, int] | None:
    """(relation, anchor) of a one-hop branch (`Project`, or the `Count`/`Attr` of one), else None."""
    inner = node.child if isinstance(node, Count) else node
    if isinstance(inner, Project) and isinstance(inner.child, Anchor):
        return f"{inner.rel}{'^' if inner.inverse else ''}", inner.child.eid
    if isinstance(inner, Attr):
        return inner.attr, inner.child.eid
    return None


def asked_of_two_kinds(plan: Node, speaker) -> bool:
    """True for one lookup of several names whose answers are of different kinds, or of several kinds each ("Which
    films feature the Executor? What about the Millennium Falcon?": the Falcon's are characters)."""
    kids = plan.children if isinstance(plan, Parallel) else ()
    if len({(k.rel, k.inverse) for k in kids if isinstance(k, Project)}) != 1:
        return False
    kinds = {speaker.kind(k) for k in kids}
    return len(kinds) > 1 or FALLBACK_KIND in kinds  # "The things whose vehicle is X are Anakin and a film"


def mixed_kinds(node: Node, kind_of) -> bool:
    """True when sibling branches that use one relation start from anchors of different kinds (a film and a person:
    "the vehicles of Return of the Jedi or Anakin Skywalker", "which appears in more films, Palpatine or Naboo
    Royal Starship?")."""
    kids = node.items if isinstance(node, Compare) else getattr(node, "children", ())
    by_relation: dict[str, set[str]] = {}
    for hop in filter(None, map(_one_hop, kids)):
        by_relation.setdefault(hop[0], set()).add(kind_of(hop[1]))
    if any(len(k) > 1 for k in by_relation.values()):
        return True
    subs = kids or ((node.child,) if isinstance(node, (Project, Count, Attr)) else ())
    return any(mixed_kinds(k, kind_of) for k in subs)


def counts_values(node: Node, speaker) -> bool:
    """True for a count of what has a value that only describes it (`Speaker.own_facts` false: a genre, a year, a
    language, a tag) or a place ("How many films were released in 1994?", "How many people have American Jews as
    their ethnic group?", "How many people are citizens of South Africa?"): an open class of which a graph holds a
    part, not what a film, a band or a prize has."""
    if isinstance(node, Compare):
        return any(counts_values(k, speaker) for k in node.items)
    if not isinstance(node, Count) or not isinstance(node.child, Project):
        return False
    w = speaker.lex.relations[node.child.rel]
    return node.child.inverse and (not speaker.own_facts(node.child.rel) or w.object.rsplit(" ", 1)[-1] in PLACE_KINDS)


def counts_places(node: Node, lexicon) -> bool:
    """True for a count of the places one entity is where-related to ("how many places was X born in?"): such a
    count has no sensible question (several values are the city and its country); and for a count of what is
    where-related to a place ("how many people lived in San Francisco?"): the graph holds a few of them, not all."""
    if isinstance(node, Compare):
        return any(counts_places(k, lexicon) for k in node.items)
    if not isinstance(node, Count) or not isinstance(node.child, Project):
        return False
    w = lexicon.relations[node.child.rel]
    if node.child.inverse:  # the people born, living or buried in a place are an open class a graph cannot count
        return bool(w.where)
    return bool(w.where or w.verb == "in")  # nor "Which is in more cities, Harvard University or ...?"
