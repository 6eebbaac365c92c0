"""The English of the `co` shapes (kg2tool.synth.walk.co): the others that share a relation's neighbour with x.

    noun   place of birth   Which other people share a place of birth with x? / Who else has the same place of
                            birth as x? -> A and B share a place of birth with x.
    prep   member of        Who else is a member of the same organization as x? / ... one of the organizations x
                            is a member of (when x has several)
    prep   educated at      Which other people were educated at the same university as x?
    by     directed by      Which other films were directed by the same person as x?
    verb   produces         Which other companies produce the same product as x?

When the first step walks the relation backwards (x is the object: x <-r- M -r-> y) the others share an M with x:
"Which other characters share a starship with Han Solo?" (pilot), "Who else shares a film with X?" (cast member). `co_bare` is the noun phrase
without its article (Speaker.bare's hook, so a co set nests in longer plans: `cop`); `co_context` gives the
template variables of a co question (`wh`, `else_wh`, `same_wh`, `q`, `stmt`), or {} for any other plan.
"""

from __future__ import annotations

from ..plans.tree import Node, co_parts
from .lexicon import FALLBACK_KIND, PERSON_KINDS, UNKNOWN_NOUN, Wording, article, needs_be, plural


def _pred(w: Wording, x: str, mid: str, m: int, n: int) -> str:
    """What the n answers do, said of them (x forward along w to m entities of kind `mid`)."""
    one = n == 1
    if w.form == "noun":
        return f"{'shares' if one else 'share'} {article(w.noun)} with {x}"
    mids = plural(mid)
    target = f"the same {mid} as {x}" if m == 1 else ""
    if w.form == "verb":
        return f"{w.verb if one else w.verbs} {target or f'one of the {mids} {x} {w.verb}'}"
    if w.form == "by" and not target:
        target = f"one of the {mids} {'who' if mid in PERSON_KINDS else 'that'} {w.active} {x}"
    if needs_be(w):
        return f"{'is' if one else 'are'} {w.verb if one else w.verbs} {target or f'one of the {mids} {x} is {w.verb}'}"
    return f"{'was' if one else 'were'} {w.verb} {target or f'one of the {mids} {x} was {w.verb}'}"


def _share(mid: str, x: str, n: int, w: Wording | None = None) -> str:
    """`share(s) a film with x`: the others and x are both objects of one subject of kind `mid`; a person said by
    the relation's noun (`share a sibling with x`, not `share a person`)."""
    mid = UNKNOWN_NOUN if mid == FALLBACK_KIND else mid  # "thing": such a question is not asked (no_kind)
    if mid in PERSON_KINDS and w is not None and w.form == "noun":
        mid = w.noun
    return f"{'shares' if n == 1 else 'share'} {article(mid)} with {x}"


def _same(w: Wording, x: str, mid: str, m: int, n: int) -> str:
    """The `have the same ...` variant of `_pred` (noun relations), else `_pred` itself."""
    if w.form != "noun":
        return _pred(w, x, mid, m, n)
    have = "has" if n == 1 else "have"
    return f"{have} the same {w.noun} as {x}" if m == 1 else f"{have} {article(w.noun)} in common with {x}"


def _kind(sp, back, x) -> str:
    """The kind of the others: the topic's own (the walker keeps only others of its kind), else the relation's."""
    own = sp.lex.kind_of(x.eid)
    kind = own if own != FALLBACK_KIND else sp.kind(back)
    return UNKNOWN_NOUN if kind == FALLBACK_KIND else kind  # "thing": such a question is not asked (no_kind)


def co_bare(sp, node: Node, n: int) -> str | None:
    """The noun phrase of a co plan in number n without its article (`other people who share a place of birth
    with x`), or None when `node` is no co plan. `sp`: the kg2tool.synth.language.wording.Speaker."""
    parts = co_parts(node)
    if parts is None:
        return None
    first, back, x = parts
    kind = _kind(sp, back, x)
    who = "who" if kind in PERSON_KINDS else "that"
    if first.inverse:  # x is the object: the others that are the same relation's objects of one of its subjects
        return f"other {kind if n == 1 else plural(kind)} {who} {_share(sp.kind(first), sp.name(x.eid), n, sp.w(back))}"
    return f"other {kind if n == 1 else plural(kind)} {who} {_pred(sp.w(back), sp.name(x.eid), sp.kind(first), sp.size(first), n)}"


def co_context(sp, plan: Node, answers: list[str]) -> dict:
    """Template variables of a co question (see templates/co.yaml), or {} when `plan` is no co plan."""
    parts = co_parts(plan)
    if parts is None:
        return {}
    first, back, x = parts
    n, name = max(len(answers), 1), sp.name(x.eid)
    said = [sp.said(a) for a in answers]  # "the Naboo fighter and the Naboo star skiff"
    ans = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    kind = _kind(sp, back, x)
    person = kind in PERSON_KINDS
    q = "the " + co_bare(sp, plan, n)
    w, mid, m = sp.w(back), sp.kind(first), sp.size(first)
    kinds = plural(kind)
    if first.inverse:  # readers rejected "apart from x, which Ns are the Rs of the Ms whose R is x"
        wh = f"Which other {kinds} {_share(mid, name, 2, w)}"
        else_wh = f"Who else {_share(mid, name, 1, w)}" if person else wh
        return {"q": q, "wh": wh, "else_wh": else_wh, "same_wh": wh, "stmt": f"{ans} {_share(mid, name, n, w)}"}
    wh = f"Which other {kinds} {_pred(w, name, mid, m, 2)}"
    else_wh = f"Who else {_pred(w, name, mid, m, 1)}" if person else f"What other {kinds} {_pred(w, name, mid, m, 2)}"
    return {"q": q, "wh": wh, "else_wh": else_wh, "same_wh": f"Which other {kinds} {_same(w, name, mid, m, 2)}",
            "stmt": f"{ans} {_pred(w, name, mid, m, n)}"}  # fmt: skip
