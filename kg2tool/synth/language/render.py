"""Render questions and final answers from the Jinja2 templates in `templates/` (see templates/README.md).

Every template string is compiled once, in a `SandboxedEnvironment` with `StrictUndefined`; graph text only ever
enters as a variable value, so it is printed, never executed. The plan's noun phrase is built recursively with
`phrases.yaml`, and a shape's family file wraps it into a question and an answer.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment

from ...common.errors import InputError
from ...common.yamlio import load_mapping
from ...graph.model import KnowledgeGraph
from ..plans.tree import Anchor, Attr, Compare, Count, Node, Parallel, Project, SetOp, execute, topic
from .co import co_context
from .grammar import and_join, cap, capfirst, pronouns
from .known_wordings import COMPARATIVES
from .lexicon import PREPOSITIONS, Lexicon, derive_lexicon, singular
from .wording import Speaker

_SLOT = re.compile(r"\{(w|l|vw|vl)\}")
PHRASE_KEYS = ("forward", "inverse", "intersection", "union", "difference", "attribute", "count")


def default_template_dir() -> Path:
    """The installed copy (`kg2tool/_templates`) or, in a source checkout, the repository's `templates/`."""
    package = Path(__file__).resolve().parents[2]  # kg2tool/
    for cand in (package / "_templates", package.parent / "templates"):
        if (cand / "phrases.yaml").is_file():
            return cand
    raise InputError("cannot find the question templates (templates/phrases.yaml); pass --templates DIR")


_capfirst = capfirst  # the templates' `capfirst` filter


def _lowerfirst(s: str) -> str:
    """The casual form: a first word lowercased (`Who directed X` -> `who directed X`)."""
    s = str(s)
    return s[:1].lower() + s[1:]


def _lowerstart(s: str) -> str:
    """Lowercase a leading article only (`The place of birth` -> `the place of birth`); names stay as they are."""
    s = str(s)
    return "t" + s[1:] if s.startswith("The ") else s


def _finish(text: str) -> str:
    """One space between words and one mark after each sentence: a name that ends with a period (`Warner Bros.`)
    is not followed by another, at the end or inside ("X worked for Warner Bros. The genre of X is ...")."""
    text = _DOUBLE_MARK.sub(r"\1", " ".join(text.split()))
    if text.endswith(("..", "?.", "!.", "??")) and not text.endswith("..."):  # "Acme Inc.?." -> "Acme Inc.?"
        text = text[:-1]
    return text


_DOUBLE_MARK = re.compile(r"(?<![.])([.?!])\.(?=\s|$)")  # "Bros.. " / "Bros?." -> one mark; "...", "..\\x" stay


class Renderer:
    """Compiled templates for every shape plus the phrase templates."""

    def __init__(self, template_dir: str | Path | None = None, shapes=(), lexicon: Lexicon | None = None):
        self.lexicon = lexicon  # derived from the first graph rendered when None
        self._speaker: Speaker | None = None
        self.dir = Path(template_dir) if template_dir else default_template_dir()
        self.env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False, trim_blocks=True)
        self.env.filters.update(andjoin=and_join, orjoin=lambda x: and_join(x, "or"), capfirst=_capfirst,
                                lowerfirst=_lowerfirst, lowerstart=_lowerstart)
        phrases = self._load("phrases")
        missing = [k for k in PHRASE_KEYS if k not in phrases]
        if missing:
            raise InputError(f"{self.dir / 'phrases.yaml'}: missing phrase templates {missing}")
        self.phrases = {k: self._compile(phrases[k], f"phrases.yaml:{k}") for k in PHRASE_KEYS}
        self.families: dict[str, tuple[list, list]] = {}
        self.extras: dict[str, dict[str, list]] = {}
        for shape in shapes:
            fam = self._load(shape)
            qs, ans = fam.get("questions"), fam.get("answers")
            if not qs or not ans:
                raise InputError(f"{self.dir / (shape + '.yaml')}: needs non-empty `questions` and `answers` lists")
            self.families[shape] = (
                [self._compile(t, f"{shape}.yaml:questions[{i}]") for i, t in enumerate(qs)],
                [self._compile(t, f"{shape}.yaml:answers[{i}]") for i, t in enumerate(ans)],
            )
            # other template lists of a family (e.g. missing_info's `clarify` and `supply` turns)
            self.extras[shape] = {
                key: [self._compile(t, f"{shape}.yaml:{key}[{i}]") for i, t in enumerate(vals)]
                for key, vals in fam.items()
                if key not in ("questions", "answers") and isinstance(vals, list) and vals
            }

    def _load(self, name: str) -> dict:
        return load_mapping(self.dir / f"{name}.yaml", "template file", "a mapping of template lists")

    def _compile(self, source, where: str):
        if not isinstance(source, str):
            raise InputError(f"{self.dir}/{where}: template must be a string")
        try:
            template = self.env.from_string(source)
        except TemplateError as exc:
            raise InputError(f"{self.dir}/{where}: template error: {exc}") from None
        # the globals (the environment's, none of its own) as a plain dict: Jinja copies them into every render's
        # context, and a ChainMap, its default, is slow to copy; the environment's globals are never changed later
        template.globals = dict(template.globals)
        return template

    def speaker(self, kg: KnowledgeGraph) -> Speaker:
        """The Speaker of this graph with the renderer's lexicon (derived from the graph when none was given)."""
        if self._speaker is None or self._speaker.kg is not kg:
            if self.lexicon is None:
                self.lexicon = derive_lexicon(kg)
            self._speaker = Speaker(kg, self.lexicon)
        return self._speaker

    # -- phrases -----------------------------------------------------------------------------------------
    def phrase(self, kg: KnowledgeGraph, node: Node) -> str:
        """A noun phrase for a plan node ("the place of birth of X"), for templates."""
        if isinstance(node, (Project, SetOp, Count)):
            return self.speaker(kg).np(node)
        if isinstance(node, Anchor):
            return kg.name(node.eid)
        if isinstance(node, Project):
            rel = kg.relations[node.rel].label
            key = "inverse" if node.inverse else "forward"
            return self.phrases[key].render(relation=rel, prep=is_prepositional(rel), of=self.phrase(kg, node.child))
        if isinstance(node, SetOp):
            return self.phrases[node.op].render(parts=[self.phrase(kg, c) for c in node.children])
        if isinstance(node, Attr):
            return self.phrases["attribute"].render(
                relation=kg.attributes[node.attr].label, of=kg.name(node.child.eid)
            )
        if isinstance(node, Count):
            return self.phrases["count"].render(of=self.phrase(kg, node.child))
        raise TypeError(f"no phrase for {type(node).__name__}")

    # -- conversations -----------------------------------------------------------------------------------
    def context(
        self, kg: KnowledgeGraph, shape: str, plan: Node, answers: list[str], extra: dict | None = None
    ) -> dict:
        """Template variables for a plan (see templates/README.md)."""
        sp = self.speaker(kg)
        said = [sp.said(a) for a in answers]  # "... is the United Kingdom"
        ctx: dict = {"answers": answers, "n": len(answers), "answer": and_join(said), "direct": False}
        if isinstance(plan, Parallel):
            self._parallel_context(sp, kg, plan, extra, ctx)
        elif isinstance(plan, Compare):
            ctx |= self._compare_context(sp, kg, plan, answers, extra["values"])
            extra = {k: v for k, v in extra.items() if k != "values"}  # keyed by the names as said, above
        else:
            self._plan_context(sp, kg, plan, answers, ctx)
        return ctx | (extra or {})

    def _parallel_context(self, sp: Speaker, kg: KnowledgeGraph, plan: Parallel, extra: dict, ctx: dict) -> None:
        """The parallel shapes' variables, added to `ctx`: one item per sub-question (see templates/parallel.yaml)."""
        items = []
        for child, ans in zip(plan.children, extra["per_item"]):
            items.append({"q": sp.np(child, len(ans) or 1), "answer": and_join([sp.said(a) for a in ans]), "n": len(ans),
                          "wh": sp.wh(child), "stmt": sp.statement(child, ans)})  # fmt: skip
        ctx |= {"items": items, "qs": [it["q"] for it in items], "each": "", "own": "", "then": ""}
        ctx["own"] = self._own(sp, kg, plan, extra["per_item"])
        ctx["own_wh"] = _own_wh(sp, kg, plan, [it["wh"] for it in items], bool(ctx["own"]))
        kids = plan.children
        # one question about several entities: "Where were A and B born?"; or the first asked and then the
        # others: "Where was A born? What about B and C?" (one relation, each anchor once)
        if len({(k.rel, k.inverse) for k in kids}) == 1 and all(isinstance(k, Project) and isinstance(k.child, Anchor) for k in kids):  # noqa: E501
            ctx["each"] = sp.wh_together(list(kids))
            if len({k.child.eid for k in kids}) == len(kids):
                ctx["then"] = and_join([sp.name(k.child.eid) for k in kids[1:]])

    def _plan_context(self, sp: Speaker, kg: KnowledgeGraph, plan: Node, answers: list[str], ctx: dict) -> None:
        """The variables of one plan asked alone (lookups, set operations, counts, attributes), added to `ctx`."""
        n = max(len(answers), 1)
        ctx["q"] = sp.top_np(plan, n) if not isinstance(plan, Anchor) else self.phrase(kg, plan)
        ctx["kinds"] = sp.kinds(plan, n) if not isinstance(plan, (Attr, Count)) else ""
        # a request for what a name is found by asks for them all: "Could you look up the films released in
        # Hungary?" (readers: "the film released in Hungary" presumes there is one), "the films X appears in"
        # ... or what a name has several of, or a step from several ("the planets in the films that X appears in")
        many = isinstance(plan, Project) and (plan.inverse or sp.w(plan).asked_many or sp.from_several(plan))
        one = isinstance(plan, Project) and not many and sp.w(plan).multi  # where it is: "the country that X is in"
        ctx["q_ask"] = sp.top_np(plan, 2) if many else sp.top_np(plan, 1) if one else ctx["q"]
        if isinstance(plan, (Project, SetOp)):
            ctx["wh"], ctx["stmt"] = sp.wh(plan), sp.statement(plan, answers)
            # a question asked with its own verbs ("Who was born in A and plays B?"), not "What is the ...":
            # the templates ask it rather than a request for the noun phrase ("Tell me the person who ...")
            ctx["direct"] = not ctx["wh"].startswith(("What is the ", "What are the ", "Who is the ", "Who are the "))
            ctx["person"] = sp.person(plan)  # asked with "Who" ("Who is X's unmarried partner?")
            # "Who lived in A?", "Where did X die?", not "Tell me the person who ...", "Tell me the places where ..."
            ctx["ask_wh"] = ctx["wh"].startswith(("Who ", "Where ")) and ctx["direct"]
        if isinstance(plan, Attr):
            ctx["wh"] = f"What is {ctx['q']}"
            ctx["stmt"] = f"{_capfirst(ctx['q'])} is {ctx['answer']}"
        if isinstance(plan, Count):
            ctx["of"] = sp.bare(sp.said_as(plan.child), 2)  # "films released in France", as asked
            ctx["wh"] = sp.how_many(plan.child)
            ctx["stmt"] = sp.count_statement(plan.child, ctx["answer"])
        if isinstance(plan, SetOp):
            ctx["parts"] = [self.phrase(kg, c) for c in plan.children]
        elif isinstance(plan, Project) and isinstance(plan.child, SetOp):
            ctx["parts"] = [self.phrase(kg, c) for c in plan.child.children]
        if isinstance(plan, Project) and isinstance(plan.child, Anchor):
            rel = kg.relations[plan.rel].label
            ctx |= {"e1": kg.name(plan.child.eid), "relation": rel, "inverse": plan.inverse}
            ctx["prep"] = is_prepositional(rel)
            w = sp.w(plan)
            ctx["kind"] = ctx["entity_kind"] = sp.kinds(plan.child, 1)
            ctx["noun"] = w.noun or w.verb  # the relation as a noun (or its predicate)
            # the relation as a noun phrase for "none of them looks up ..." (what the question asks for when it has
            # no noun: "the organizations that X is part of", never the label as it is: `isPartOf`)
            ctx["looked_up"] = f"the {w.noun}" if w.noun and w.noun.split()[-1] not in PREPOSITIONS else ctx["q_ask"]
            # the topic first: "Lewis Carroll's places of birth" (noun relations, forward); "" otherwise
            own = sp.own(plan.child.eid)  # "" for names that take none ("Cori, née Radnitz", "Physics 1913")
            many = len(answers) > 1
            noun = w.form == "noun" and not plan.inverse and not (w.mirror or w.reverse)  # said with their verbs
            ctx["poss"] = f"{own} {w.plural if many else w.noun}" if noun and own else ""
            this, that = f"this {ctx['kind']}", f"that {ctx['kind']}"
            ctx["wh_this"], ctx["wh_that"] = swap_name(ctx["wh"], ctx["e1"], this), swap_name(ctx["wh"], ctx["e1"], that)
            ctx["q_this"] = swap_name(ctx["q"], ctx["e1"], this)
        ctx |= co_context(sp, plan, answers)  # the co shapes' own wordings ({} for other plans)
        ctx["via"] = _via(sp, kg, plan, answers) if isinstance(plan, Project) and isinstance(plan.child, Project) else ""
        ctx["each"] = _each(sp, kg, plan, answers) if isinstance(plan, SetOp) and plan.op == "union" else ""

    @staticmethod
    def _compare_context(sp: Speaker, kg: KnowledgeGraph, plan: Compare, answers: list[str], values: dict) -> dict:
        """The compare shape's template variables (see templates/compare.yaml)."""
        ctx: dict = {}
        a, b = (sp.name(topic(it)) for it in plan.items)  # with their articles: "the Naboo fighter", "the USA"
        said = {kg.name(topic(it)): sp.name(topic(it)) for it in plan.items}
        answers, values = [said.get(x, x) for x in answers], {said.get(k, k): v for k, v in values.items()}
        inner = plan.items[0]
        if isinstance(inner, Count):
            rel, inverse, kind = kg.relations[inner.child.rel].label, inner.child.inverse, "count"
        else:
            attr = kg.attributes[inner.attr]
            rel, inverse, kind = attr.label, False, "date" if attr.kind in ("date", "datetime") else "number"
        ctx |= {"a": a, "b": b, "relation": rel, "inverse": inverse, "kind": kind, "mode": plan.mode}
        ctx |= {"values": values, "winner": answers[0], "loser": b if answers[0] == a else a}
        ctx["ask"] = ctx["tell"] = ctx["comparative"] = ""
        if kind == "count":
            ctx["verb"], ctx["measure"] = sp.measure(inner.child)
            # Where did more people die; the second item checks that "has more siblings" holds of both
            ctx["ask"], tell = sp.compared(inner.child, a, b, plan.mode == "max", plan.items[1].child)
            vals = ctx["values"]
            fill = {"w": ctx["winner"], "l": ctx["loser"], "vw": vals[ctx["winner"]], "vl": vals[ctx["loser"]]}
            ctx["tell"] = _SLOT.sub(lambda m: str(fill[m[1]]), tell)  # not str.format: a label may hold a brace
        else:
            ctx["measure"] = sp.lex.attributes[inner.attr].noun
            said = COMPARATIVES.get(ctx["measure"].lower())  # "Who was born later", "Which is taller"
            ctx["comparative"] = (said[0] if plan.mode == "max" else said[1]) if said else ""
            many = singular(ctx["measure"]) != ctx["measure"]  # "more passengers"; "the higher rotation period"
            ctx["more_measure"] = (f"{'more' if plan.mode == 'max' else 'fewer'} {ctx['measure']}" if many
                                   else f"the {'higher' if plan.mode == 'max' else 'lower'} {ctx['measure']}")  # fmt: skip
        ctx["who"] = sp.person(Anchor(topic(inner)))  # the compared items are people
        return ctx

    @staticmethod
    def _own(sp: Speaker, kg: KnowledgeGraph, plan: Parallel, per_item) -> str:
        """`Lou Reed's place of birth, spouse and genres` when every question of a parallel plan looks up a
        different relation of one entity forward and each has a noun; "" otherwise."""
        kids = plan.children
        if not all(isinstance(k, Project) and isinstance(k.child, Anchor) and not k.inverse for k in kids):
            return ""
        if len({k.child.eid for k in kids}) != 1 or len({k.rel for k in kids}) != len(kids):
            return ""
        words = [sp.w(k) for k in kids]
        if not all(w.noun and w.noun.split()[-1] not in PREPOSITIONS and "," not in w.noun for w in words):
            return ""  # a noun said only as "citizen of" or "languages spoken, written, or signed" does not list
        # a place said once ("place of birth", though the graph gives the city and the country): people ask so
        nouns = [w.plural if len(ans) > 1 and not w.where else w.noun for w, ans in zip(words, per_item)]
        own = sp.own(kids[0].child.eid)
        return f"{own} {and_join(nouns)}" if own else ""

    def render(self, shape: str, ctx: dict, rng: random.Random) -> tuple[str, str]:
        """(question, final answer) for a shape, variants drawn from rng."""
        questions, answers = self.families[shape]
        q = rng.choice(questions).render(ctx)
        a = rng.choice(answers).render(ctx)
        # No blanket capitalization: an answer may open the sentence and must stay verbatim; only a name's article
        # that opens it is said "The" ("The Naboo fighter is longer ...").
        return _finish(q), _finish(cap(a))

    def render_extra(self, shape: str, key: str, ctx: dict, rng: random.Random) -> str:
        """One variant of a family's extra template list (e.g. `clarify`), drawn from rng."""
        templates = self.extras.get(shape, {}).get(key)
        if not templates:
            raise InputError(f"{self.dir / (shape + '.yaml')}: needs a non-empty `{key}` list")
        return _finish(rng.choice(templates).render(ctx))


def _own_wh(sp: Speaker, kg: KnowledgeGraph, plan: Parallel, whs: list[str], listed: bool = False) -> str:
    """Two or three questions about one entity asked as one, the later ones with a pronoun: `Where was Ada born
    and where did she die` (the graph's gender attribute), `Which country is X part of and which continent is it
    in`; for a person of no known gender, "" when the things asked are nouns (`listed`: "What are X's languages and
    occupations?"), else two questions; "" when the questions are not all about one entity (readers rejected the
    lists of fields these replace: "I need X's place of death and affiliation, please.")."""
    kids = plan.children
    if not (2 <= len(kids) <= 3 and all(isinstance(k, Project) and isinstance(k.child, Anchor) and not k.inverse
                                        for k in kids)) or len({k.child.eid for k in kids}) != 1:  # fmt: skip
        return ""
    said, eid = sp.name(kids[0].child.eid), kids[0].child.eid
    if not all(said in w for w in whs):
        return ""
    thing = ("it", "it", "its") if sp.num(eid) == 1 else ("they", "them", "their")  # Be stars: what do they include
    words = pronouns(kg, eid) or (None if sp.person(kids[0].child) else thing)
    if words is None:  # a person of no known gender: a list of nouns, else two questions, each with the name
        # (readers rejected "they" for one person, the name twice in one sentence or in two questions: "Which
        # languages does X speak? And what are the occupations of X?", and a surname guess says "Pop's" for Iggy Pop)
        return f"{whs[0]}? And {_lowerfirst(whs[1])}" if len(whs) == 2 and not listed else ""
    rest = []
    for w in whs[1:]:
        i = w.rfind(said)
        start = i - 4 if w[:i].endswith(("the ", "The ")) else i
        head, after = w[:start], w[i + len(said):]
        own = next((m for m in ("'s ", "' ") if after.startswith(m)), "")
        if not after and (of := re.search(r"\bthe ([\w ]+) of $", head)):  # what are the vehicles of X: his vehicles
            head, own, after = head[: of.start()], " ", " " + of[1]
        by = words[2] + " " if own else words[1] if not after else words[0]  # his X / ... him / he ...
        rest.append(_lowerfirst(head + by + after[len(own):]))
    return and_join([whs[0]] + rest) if len(rest) == 1 else f"{whs[0]}, {and_join(rest)}"


def _via(sp: Speaker, kg: KnowledgeGraph, plan: Project, answers: list[str]) -> str:
    """A chain's answer told hop by hop, as an assistant says what it looked up ("Parlophone's parent organization
    is EMI. EMI is headquartered in London."), where every hop before the last found one entity, of another kind
    than the answers (a name of the answers' kind beside them would read as one more answer); "" otherwise."""
    hops = []
    node: Node = plan
    while isinstance(node, Project):
        hops.append(node)
        node = node.child
    if not isinstance(node, Anchor):
        return ""
    hops.reverse()
    kinds = {sp.kind(plan)}
    current, said = node.eid, []
    for hop in hops[:-1]:
        step = Project(hop.rel, Anchor(current), hop.inverse)
        found = execute(kg, step)
        if len(found) != 1:
            return ""
        (current,) = found
        if sp.lex.kind_of(current) in kinds:
            return ""
        said.append(sp.statement(step, [kg.name(current)]))
    said.append(sp.statement(Project(plan.rel, Anchor(current), plan.inverse), answers))
    return ". ".join(said)  # sentences of their own: a sentence may open with a name or with "The"


def _each(sp: Speaker, kg: KnowledgeGraph, plan: SetOp, answers: list[str], most: int = 4) -> str:
    """A union's answers told per branch, a sentence each ("Carl Djerassi is a citizen of Austria and Bulgaria.
    Joseph Priestley is a citizen of the United Kingdom."), where every branch is one lookup of a name that found
    at most `most`; "" otherwise."""
    said = []
    for branch in plan.children:
        if not (isinstance(branch, Project) and isinstance(branch.child, Anchor)):
            return ""
        names = {kg.name(e) for e in execute(kg, branch)}
        if not 1 <= len(names) <= most:
            return ""
        said.append(sp.statement(branch, [a for a in answers if a in names]))
    return ". ".join(said)


def swap_name(text: str, name: str, by: str) -> str:
    """`text` with the last occurrence of the entity's name said as `by` (`this person`); the quotes a clause name
    is said in go with it (`"that biochemical reaction"` is no name)."""
    i = text.rfind(name)
    if i < 0:
        return text
    end = i + len(name)
    if text[i - 1 : i] == '"' and text[end : end + 1] == '"':
        i, end = i - 1, end + 1
    start = i - 4 if text[:i].endswith(("the ", "The ")) else i  # the article the name was said with goes too
    return text[:start] + (by[:1].upper() + by[1:] if text[start:i] == "The " else by) + text[end:]




def is_prepositional(label: str) -> bool:
    """True for relation labels that end with a preposition (`educated at`), which read as verbs."""
    words = label.split()
    return len(words) > 1 and words[-1].lower() in PREPOSITIONS
