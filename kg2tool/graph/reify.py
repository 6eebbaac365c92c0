"""Folding reified n-ary nodes into relations between their named participants, shared by the in-memory load
(kg2tool.graph.build) and the on-disk store's index (kg2tool.graph.store.index).

A *reified node* stands for one n-ary fact (a film role linking an actor, a character and a film; an award record
linking a laureate, a prize category and a university; a legal address linking a company, a country and a city).
Its own name is of no use to a user, so it is folded away: the named entities it links get composed relations.

Rules, applied after the pass over the triples and before kg2tool.graph.hygiene's rules:
- A *participant* of a node is a named entity linked to it in either direction: the object of one of its relation
  edges (role `P`) or the subject of an edge pointing to it (role `^P`). A named entity has a label or a local name
  that is no opaque id (kg2tool.graph.hygiene.is_opaque_id), is not the node itself and is no candidate itself.
- A node is a *candidate* when it has at least two distinct participants, is the object of each link predicate
  pointing to it from one entity at most (a thing many people `work at` is shared, not one fact), and has no
  usable name of its own: no label
  and an opaque id as its local name (a Wikidata statement id, a number), or a *record label* that only restates
  its participants (it has the words of a participant's label, and the words left are numbers and words of its
  class and link labels: "Physics 1901, Wilhelm Conrad Röntgen", "ABN AMRO Bank N.V. legal address"; or a label
  that quotes two participants' whole names, in any language: "Relation de subdivision entre "A" et "B"",
  kg2tool.graph.records), for a typed node only (a class can be checked for a consistent shape). A node whose
  label quotes the names it links is a record even where several things link to it (a symmetric relation);
  participants linked by a "... name" link (given name, family name) restate no record. A class is folded as a
  whole (below), so an instance named otherwise ("Citibank, N.A headquarters address" for the participant
  "Citibank, N.A. US-DE") goes with it.
  Blank nodes are named by their content when the graph is read (kg2tool.graph.blank) and folded like any node,
  but a folded blank node's own literal values stay with it (a provenance record's time, a name's parts): its
  owner gets composed relations from it, no attributes.
- A *part* of another node (an unlabelled node whose IRI extends the IRI of a node `B` that links to it: after `#`
  by the hash-URI convention of Linked Data, `hadrian#death`, `caryanda#this`; after `/`, `paper/105/authorlist`;
  after DBpedia's `__`, `Adrian_Griffin__1`) has no usable name of its own either,
  and is no participant of other nodes: it is a candidate with one participant or more (its owner `B`, and what
  else it links), so a part that only holds values (a death with its date, a location with its coordinates)
  gives its values to its owner and is gone; its composed labels start with the link into it ("death date",
  "location lat"), whatever its class.
- Candidates are grouped by class: the node's most specific type (the one with the fewest instances in the graph,
  ties by IRI), or, for untyped nodes, the sorted set of their roles. A class is folded when at least half of its
  instances (the nodes whose most specific type it is) are candidates (a consistent shape, not a few odd nodes),
  with every instance that has two participants; untyped groups need two nodes. Within a class, nodes are
  grouped by the links that point into them.
- The *owner* role of a group is a link into the node (the laureate that `laureateAward` points from, the company
  of `hasLegalAddress`), else an outgoing role (the `person` of a film role): the one present in the most nodes of
  the group, then the one with the most distinct participants; ties by role key. Another link into the node whose
  label shares a word with the class label is an owner too (a node that is both a legal and a headquarters
  address). Each role that is no owner gets one composed relation from each owner to it; a pair whose two ends are
  the same entity is left out, and so is a composed relation whose pairs are all facts of one relation of the
  graph already (Star Wars' `film` from a character to a film).
- Names: the composed label is `<prefix> <role label>`, where the prefix is the owner's link label when it points
  into the node and shares a word with the class label ("legal address", "laureate award"), else the class label
  ("film role"); a leading has/is of a predicate label is dropped and a word the two parts share at the seam is
  said once ("laureate award" + "award file" -> "laureate award file"). Composed relations with the same label
  (the same link through two classes: a physical and a street address) are one relation, under the first IRI.
  Where the owner's link and the role name only positions in a relation (source, target, subject, object) or say
  only that things are linked (connects, is connected to), the label is "related to": the class says how. The
  lexicon (kg2tool.synth.language.lexicon) words it like any other label.
- IRIs, so that the dataset's lexicon and load report say what was folded:
  `urn:kg2tool:fold?class=<C>&from=<owner role>&to=<role>` for a relation and `...&attr=<P>` for an attribute,
  each value percent-encoded; a role is a predicate IRI, prefixed with `^` when the link points into the node; `C`
  is the class IRI ("" for an untyped group).
- Literal values of the folded nodes (a year, a motivation) move to the owner as attributes labelled
  `<prefix> <attribute label>`, only where they are 1:1: for an owner that is the only owner of its node and owns
  no other node of the group. Other values of folded nodes are dropped with the nodes.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote

from .blank import is_blank_iri
from .hygiene import is_opaque_id, local_part
from .names import one_tense, without_codes
from .predicates import predicate_of_sentence
from .records import is_record_label, label_tokens, quotes_two

FOLD_PREFIX = "urn:kg2tool:fold"
# RDF containers (RDF Schema 1.1, 5.1): a Seq, Bag or Alt holds its members by rdf:_1, rdf:_2, ..., each a
# sub-property of rdfs:member; an RDF collection (rdf:List) is a list too. A container is no thing of its own.
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS_MEMBER = "http://www.w3.org/2000/01/rdf-schema#member"
CONTAINERS = frozenset(_RDF + c for c in ("Seq", "Bag", "Alt", "List"))
_MEMBER_N = re.compile(re.escape(_RDF) + r"_[1-9][0-9]*")
_PART_SEPARATORS = ("#", "/", "__")
# A role said with a preposition ("part of", "about") reads as it is: a class word before it reads as schema.
_PREPOSITIONS = frozenset("at by of in on to for with from into as under within near about".split())
# Words a link to a container ends with that name the container, not its members ("authorList": the authors).
_LIST_WORDS = frozenset(("list", "seq", "sequence", "bag", "set", "collection", "array"))
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# Events of CIDOC-CRM (ISO 21127) and the models built on it, by the link from a thing to its event (its words
# without the code): the event's noun for a person or group (`_AGENT_WORDS`) and for other things, and the passive
# that says the event's agent ("produced by": a production carried out by Y is the thing produced by Y).
_EVENT_LINKS = {
    "was brought into existence by": ("birth", "creation", "created by"),
    "was born": ("birth", "birth", ""),
    "was taken out of existence by": ("death", "destruction", "destroyed by"),
    "died in": ("death", "death", ""),
    "was produced by": ("production", "production", "produced by"),
    "was created by": ("creation", "creation", "created by"),
    "was formed by": ("formation", "formation", "formed by"),
    "was dissolved by": ("dissolution", "dissolution", "dissolved by"),
    "was destroyed by": ("destruction", "destruction", "destroyed by"),
    "was modified by": ("modification", "modification", "modified by"),
}
# What an event's links say of it (CIDOC-CRM P4 has time-span, P7 took place at, P14 carried out by; OWL-Time's
# and the Event ontology's words alike): its date, its place, its agent ("" : said by the event link's passive).
_EVENT_ROLES = {"has time span": "date", "has time-span": "date", "took place at": "place", "carried out by": "",
                "at time": "date", "time": "date", "place": "place", "agent": ""}  # fmt: skip
# Words of the class labels of people and groups (CIDOC-CRM's E21 Person, E39 Actor, E74 Group; FOAF, schema.org).
_AGENT_WORDS = frozenset("person people actor agent group human artist organization organisation".split())


@dataclass
class FoldedRelation:
    """A composed relation: its IRI, label, description and (owner, participant) node pairs, sorted."""

    iri: str
    label: str
    description: str
    pairs: list


@dataclass
class FoldedAttribute:
    """Values of attribute `source` moved from folded nodes to their owners (`owner_of`: node -> owner)."""

    iri: str
    label: str
    description: str
    source: str
    owner_of: dict


@dataclass
class Folded:
    """What `fold_reified` gives: the folded nodes, the graph's relation edges without them (by predicate; empty
    when nothing is folded), the composed relations and the moved attributes (in a fixed order)."""

    nodes: set = field(default_factory=set)
    edges: dict = field(default_factory=dict)
    relations: list = field(default_factory=list)
    attributes: list = field(default_factory=list)


def words_of(label: str) -> list[str]:
    """A label as lower-case words (acronyms kept): `hasLegalAddress` -> [has, legal, address], `FilmRole` ->
    [film, role]; a label with spaces keeps its words as written (lower-cased unless all capitals)."""
    return list(_words(label))


@lru_cache(maxsize=65536)
def _words(label: str) -> tuple[str, ...]:
    """words_of, cached (the same class and link labels are asked for once per node)."""
    if " " in label.strip():
        raw = re.findall(r"[\w.]+", label)
    else:
        raw = _WORD.findall(label) or [label]
    return tuple(w if w.isupper() and len(w) > 1 else w.lower() for w in raw)


def _said(label: str) -> list[str]:
    """The words of a predicate label without a leading has/is (`hasCountry` -> [country])."""
    return list(_said_words(label))


@lru_cache(maxsize=65536)
def _said_words(label: str) -> tuple[str, ...]:
    got = one_tense(" ".join(words_of(label))).split()  # "is or was regulated by": said in one tense first
    got = predicate_of_sentence(got) or got  # "relation has source": the subject's own kind is no role
    return tuple(got[1:] if len(got) > 1 and got[0] in ("has", "is") else got)


def _join(prefix: list[str], rest: list[str]) -> str:
    """`prefix rest`, a word shared at the seam said once."""
    if prefix and rest and prefix[-1] == rest[0]:
        rest = rest[1:]
    return " ".join(prefix + rest) if rest else " ".join(prefix)


# Words that name a position in a relation, not a role in it (W3C's n-ary relation patterns, ICA's Records in
# Contexts relations, graph-edge vocabularies), and verbs that say only that things are linked: a fact between a
# relation's source and target, or between two things it connects, is said "related to".
_POSITIONS = frozenset("source target subject object domain range".split())
_LINKING = frozenset("connect link relate associate join".split())


def _positional(words: list[str]) -> bool:
    if not words:
        return False
    from lemminflect import getLemma

    return words[0] in _POSITIONS or (getLemma(words[0], "VERB") or ("",))[0] in _LINKING


def _names_part(label: str) -> bool:
    """A link to a part of its subject's name ("given name", "family name"): a label
    made of such parts ("Olof Palme" from "Olof" and "Palme") is the name of a thing, no record of a fact."""
    words = _said(label)
    return bool(words) and words[-1] == "name"


def _role_iri(role: tuple[str, bool]) -> str:
    return ("^" if role[1] else "") + role[0]


class _Adjacency:
    """Per node: its roles (predicate, points-into-node) -> linked nodes; built from the relation edges, for the
    nodes in `only` (a set; every node when None)."""

    def __init__(self, rel_edges: dict, only: set | None = None):
        self.links: dict = defaultdict(lambda: defaultdict(set))
        for p, pairs in rel_edges.items():
            p = RDFS_MEMBER if _MEMBER_N.fullmatch(p) else p  # a container's rdf:_1, rdf:_2, ...: its members
            for s, o in pairs:
                if s != o:
                    if only is None or s in only:
                        self.links[s][(p, False)].add(o)
                    if only is None or o in only:
                        self.links[o][(p, True)].add(s)


def dependent_on(n, roles: dict, iri) -> Hashable | None:
    """The node whose part `n` is, or None: `n`'s IRI extends the IRI of a node B that links to it, after `#` (the
    hash-URI convention of Linked Data: `hadrian` -`death`-> `hadrian#death`, `caryanda` -> `caryanda#this`), `/`
    (a path below B's: `paper/105` -`authorList`-> `paper/105/authorlist`) or DBpedia's `__` (`Adrian_Griffin`
    -`termPeriod`-> `Adrian_Griffin__1`). What follows names the part's place in B's description ("death",
    "this", "authorlist", a counter), not a thing of its own."""
    text = iri(n)
    if not any(sep in text for sep in _PART_SEPARATORS):
        return None
    for (_, into), ms in sorted(roles.items()):
        if into:
            for m in ms:
                base = iri(m)
                if m != n and text.startswith(base) and text[len(base) : len(base) + 2].startswith(_PART_SEPARATORS):
                    return m
    return None


def value_parts(rel_edges: dict, iri, label, types: dict) -> dict:
    """node -> the node it is one value with: a labelled part of another node (`dependent_on`: its IRI extends
    the IRI of the one node that links to it) with no link of its own is a value of its owner, written out for
    each owner (a birth's place "Washington", a production's time-span "c. 1855"); such parts of one class with one
    label are one value, the first by IRI. `rel_edges`: predicate -> (subject, object) pairs; `label(node)`: its
    label or ""; `types`: node -> its type IRIs."""
    incoming: dict = defaultdict(set)
    has_out = set()
    for p, pairs in rel_edges.items():
        for s, o in pairs:
            incoming[o].add((p, s))
            has_out.add(s)
    groups: dict = defaultdict(list)
    for n, ins in incoming.items():
        if n in has_out or len({s for _, s in ins}) != 1 or not label(n):
            continue
        roles: dict = defaultdict(set)
        for p, s in ins:
            roles[(p, True)].add(s)
        if dependent_on(n, roles, iri) is not None:
            groups[(tuple(sorted(types.get(n, ()))), label(n))].append(n)
    out = {}
    for nodes in groups.values():
        first = min(nodes, key=iri)
        out.update({n: first for n in nodes if n != first})
    return out


def _candidates(adj: _Adjacency, iri, label, named, types, type_label, pred_label) -> tuple[dict, list, set]:
    """node -> {role: participants} of every candidate, the other typed nodes with an edge of their own (the
    rest of a class that may be folded as a whole, if they have two participants: see `_participants` and the
    module docstring), and the unlabelled parts of another node (`dependent_on`): they are candidates with that
    node as their only participant too (value nodes: a death with its date, a location with its coordinates)."""
    out, typed, parts_of = {}, [], set()
    for n, roles in adj.links.items():
        text = label(n)
        base = None if text else dependent_on(n, roles, iri)
        if base is not None:
            parts_of.add(n)
            parts = {r: {m for m in ms if named(m)} for r, ms in roles.items()}
            parts = {r: ms for r, ms in parts.items() if ms}
            if len({m for ms in parts.values() for m in ms}) == 1:
                out[n] = parts
                continue
        if not any(not into for _, into in roles):
            continue  # a node with no edge of its own is a plain object
        shared = any(into and len(ms) > 1 for (_, into), ms in roles.items())  # an office many people work at
        if shared and text and quotes_two(text, [label(m) for ms in roles.values() for m in ms]):
            shared = False  # a record that quotes the names it links, linked from each (a symmetric relation)
        opaque = not text and (base is not None or (not shared and is_opaque_id(local_part(iri(n)))))
        opaque = opaque or (not shared and _is_container(n, roles, types))
        if opaque or (not shared and text and types.get(n)):  # may be a candidate: its participants decide
            parts = _participants(roles, named)
            if parts is not None and (
                opaque
                or is_record_label(
                    text,
                    [label(m) for r, ms in parts.items() if not _names_part(pred_label(r[0])) for m in ms],
                    _allowed(n, parts, types, type_label, pred_label),
                )
            ):
                out[n] = parts
                continue
        if types.get(n):
            typed.append(n)
    return out, typed, parts_of


def _is_container(n, roles: dict, types: dict) -> bool:
    """An RDF container or collection: typed so (`CONTAINERS`) or holding members by rdf:_1, rdf:_2, ..."""
    return bool(CONTAINERS & set(types.get(n, ()))) or (RDFS_MEMBER, False) in roles


def _participants(roles: dict, named) -> dict | None:
    """{role: named participants} of a node with roles `roles`, or None when it has fewer than two."""
    parts = {r: {m for m in ms if named(m)} for r, ms in roles.items()}
    parts = {r: ms for r, ms in parts.items() if ms}
    return parts if len({m for ms in parts.values() for m in ms}) >= 2 else None


def _allowed(n, parts: dict, types: dict, type_label, pred_label) -> set[str]:
    """The words a record label may have beside its participants' labels: those of its class and link labels."""
    got = {w for t in types.get(n, ()) for w in words_of(type_label(t))}
    return got | {w for p, _ in parts for w in words_of(pred_label(p))}


def _classes(cands: dict, types: dict, parts_of: set) -> tuple[Callable, set]:
    """The class key of a node (`cls`: its most specific type IRI or, for an untyped node, its sorted roles) and
    the classes folded: those with at least half of their instances candidates (typed) or two candidates
    (untyped); one will do where they are all parts of other nodes (`parts_of`)."""
    count = Counter(t for ts in types.values() for t in ts)

    def cls(n):
        ts = types.get(n)
        return min(ts, key=lambda t: (count[t], t)) if ts else tuple(sorted(cands[n]))

    # the instances of a class key are the nodes whose most specific type it is (a node typed by a subclass too
    # counts for the subclass)
    keyed = Counter(min(ts, key=lambda t: (count[t], t)) for ts in types.values() if ts)

    by_class: dict = defaultdict(list)
    for n in cands:
        by_class[cls(n)].append(n)
    keep = {
        k for k, nodes in by_class.items()
        if (len(nodes) >= 2 or nodes[0] in parts_of) and (isinstance(k, tuple) or 2 * len(nodes) >= keyed[k])
    }
    return cls, keep


def _groups(cands: dict, typed: list, adj: _Adjacency, named, classes: tuple, parts_of: set) -> dict:
    """The folded nodes by (class key, the roles that link into the node), `classes` from `_classes`. A class is
    folded with every instance that has two participants. Participants that are folded themselves are left out (a
    node left with fewer than two is not folded; a part of another node, `parts_of`, needs one). In sorted key
    order."""
    cls, keep = classes
    members = {n: parts for n, parts in cands.items() if cls(n) in keep}
    if keep:  # the other typed nodes of a folded class with two participants
        shaped = ((n, _participants(adj.links[n], named)) for n in typed if cls(n) in keep)
        members |= {n: parts for n, parts in shaped if parts is not None}
    groups: dict = defaultdict(list)
    for n in list(members):
        key = cls(n)
        parts = {r: ms - members.keys() for r, ms in members[n].items()}
        parts = {r: ms for r, ms in parts.items() if ms}
        if len({m for ms in parts.values() for m in ms}) >= (1 if n in parts_of else 2):
            cands[n] = parts
            groups[(key, tuple(sorted(r for r in parts if r[1])))].append(n)
    return {k: groups[k] for k in sorted(groups, key=lambda k: (isinstance(k[0], tuple), str(k)))}


def _owner(nodes: list, cands: dict) -> tuple:
    """The owner role of a group and all its roles in order: links into the node first, then the role present in
    the most nodes, then the one with the most distinct participants; ties by role key."""
    distinct: dict = defaultdict(set)
    present: Counter = Counter()
    for n in nodes:
        for r, ms in cands[n].items():
            distinct[r] |= ms
            present[r] += 1
    roles = sorted(distinct, key=lambda r: (not r[1], -present[r], -len(distinct[r]), r))
    return roles[0], roles


def fold_reified(
    rel_edges: dict | Callable[[], dict],
    iri: Callable[[Hashable], str],
    label: Callable[[Hashable], str],
    types: dict,
    type_label: Callable[[Hashable], str],
    pred_label: Callable[[str], str],
    attr_subjects: dict,
    maybe: set | None = None,
    incident: dict | None = None,
) -> Folded:
    """Fold the reified nodes of a graph (module docstring). `rel_edges`: predicate -> set of (subject, object)
    node pairs (nodes are any sortable hashable key, `iri(node)` its IRI); `label(node)`: its preferred label or "";
    `types`: node -> its type keys, `type_label(type)` a type's label; `pred_label(predicate IRI)`; `attr_subjects`:
    attribute predicate -> the nodes with a value; `maybe`, when given, a set of nodes that holds every candidate
    (`label_tokens` finds one cheaply: a large graph's nodes are then not all examined), and `incident` the edges
    (predicate -> pairs) that touch a node of `maybe`: then `rel_edges` may be a function that returns them all,
    called only when they are needed (a node is folded, or a typed class). Returns a `Folded` (its `edges` empty
    when nothing is folded: the graph's edges stay as they are); nothing is changed in place.

    Long because the fold is one pass in steps that share its indexes (candidates, roles, composed relations,
    moved values); each step is commented where it starts.
    """
    edges_now = [rel_edges]

    def every_edge() -> dict:
        if callable(edges_now[0]):
            edges_now[0] = edges_now[0]()
        return edges_now[0]

    adj = _Adjacency(incident if incident is not None and maybe is not None else every_edge(), maybe)
    label, type_label, pred_label = _memo(label), _memo(type_label), _memo(pred_label)
    is_named: dict = {}

    def named(m) -> bool:
        got = is_named.get(m)
        if got is None:
            got = is_named[m] = bool(label(m)) or not (
                is_opaque_id(local_part(iri(m))) or dependent_on(m, adj.links.get(m, {}), iri) is not None
            )
        return got

    cands, typed, parts_of = _candidates(adj, iri, label, named, types, type_label, pred_label)
    classes = _classes(cands, types, parts_of)
    if maybe is not None and any(not isinstance(k, tuple) for k in classes[1]):
        # a typed class is folded with all its members, candidates or not: every node is examined
        adj = _Adjacency(every_edge())
        cands, typed, parts_of = _candidates(adj, iri, label, named, types, type_label, pred_label)
        classes = _classes(cands, types, parts_of)
    groups = _groups(cands, typed, adj, named, classes, parts_of)  # the members' participants go into `cands`
    out = Folded()
    if not groups:
        return out
    rel_edges = every_edge()
    for nodes in groups.values():
        out.nodes.update(nodes)
    out.edges = {}
    for p in sorted(rel_edges):
        kept = [(s, o) for s, o in rel_edges[p] if s not in out.nodes and o not in out.nodes]
        if kept:
            out.edges[p] = kept
    made: dict = {}
    agent_type = _memo(lambda t: bool(_AGENT_WORDS & set(words_of(without_codes(type_label(t))))))

    def is_agent(n) -> bool:
        return any(agent_type(t) for t in types.get(n, ()))

    def anonymous(n) -> bool:  # a blank node (kg2tool.graph.blank): its own values stay with it
        return is_blank_iri(iri(n))

    for (key, _), nodes in groups.items():
        part = all(n in parts_of for n in nodes)
        names = (type_label, pred_label, part, is_agent, anonymous)
        _fold_group(key, nodes, cands, rel_edges, made, names, attr_subjects)
    by_label: dict = {}
    for new in made.values():  # in order of first sight: groups, then roles, then attributes
        first = by_label.setdefault((type(new), new.label), new)
        if first is not new:  # the same words through another class (a physical and a street address): one relation
            if isinstance(new, FoldedRelation):
                first.pairs = set(first.pairs) | set(new.pairs)
            elif new.source == first.source:
                first.owner_of.update({n: a for n, a in new.owner_of.items() if n not in first.owner_of})
            else:
                new.label = f"{new.label} ({' '.join(words_of(local_part(new.source)))})"
                out.attributes.append(new)
            continue
        (out.relations if isinstance(new, FoldedRelation) else out.attributes).append(new)
    # a composed relation whose every pair is already a fact of one relation of the graph says nothing new
    out.relations = [r for r in out.relations if not any(all(pr in e for pr in r.pairs) for e in rel_edges.values())]
    for rel in out.relations:
        rel.pairs = sorted(rel.pairs)
    return out


def event_label(link: str, role: str, agents: bool) -> str:
    """The label of a role of an event said of the thing the event is linked from (`link`: "was produced by"), or
    "" when `link` is no event link of `_EVENT_LINKS` or `role` no role of `_EVENT_ROLES`: its date and place by
    the event's noun ("production date", "birth place": `agents`, the owners are people or groups), its agent by
    the link's passive ("produced by")."""
    said = " ".join(words_of(without_codes(link)))
    event = _EVENT_LINKS.get(said) or _EVENT_LINKS.get(f"was {said}")
    what = _EVENT_ROLES.get(" ".join(_said(without_codes(role))), _EVENT_ROLES.get(" ".join(words_of(without_codes(role)))))
    if not event or what is None:
        return ""
    noun = event[0] if agents else event[1]
    return f"{noun} {what}" if what else event[2]


def _memo(fn: Callable) -> Callable:
    """`fn` of one argument, each answer kept (labels are asked for once per node and link)."""
    seen: dict = {}

    def get(x):
        got = seen.get(x, seen)
        if got is seen:
            got = seen[x] = fn(x)
        return got

    return get


def _prefix(key, owner: tuple, type_label, pred_label, part: bool = False) -> tuple[list[str], str]:
    """The words composed labels start with and the class's words (see the module docstring); the link into a
    node names it when the node is a part of its owner (`part`: "location", not the class "spatial thing")."""
    cls = words_of(type_label(key)) if not isinstance(key, tuple) else []
    if owner[1]:
        link = _said(pred_label(owner[0]))
        if not cls or part or set(link) & set(cls):
            return link, " ".join(cls) or " ".join(link)
    return cls or _said(pred_label(owner[0])), " ".join(cls) or "record"


def _owners(key, nodes, cands, type_label, pred_label) -> tuple[list, list]:
    """The owner roles of a group and all its roles: the owner (`_owner`), and beside it every other link into the
    node that names it as well (its label shares a word with the class label: a node that is both a company's
    legal and its headquarters address)."""
    owner, roles = _owner(nodes, cands)
    cls = set(words_of(type_label(key))) if not isinstance(key, tuple) else set()
    naming = [r for r in roles if r[1] and r != owner and set(_said(pred_label(r[0]))) & cls]
    return [owner] + (naming if owner[1] and set(_said(pred_label(owner[0]))) & cls else []), roles


def _fold_group(key, nodes, cands, rel_edges, made: dict, names, attr_subjects) -> None:
    """The composed relations and moved attributes of one group, added to `made` by IRI (a relation or attribute
    another group of the same class made too gets their pairs or nodes together)."""
    type_label, pred_label, part, is_agent, anonymous = names
    owners, roles = _owners(key, nodes, cands, type_label, pred_label)
    cls_iri = quote(key if not isinstance(key, tuple) else "", safe="")
    for owner in owners:
        prefix, cls_text = _prefix(key, owner, type_label, pred_label, part)
        base = f"{FOLD_PREFIX}?class={cls_iri}&from={quote(_role_iri(owner), safe='')}"
        owner_words = " ".join(_said(pred_label(owner[0])))
        whose = (
            f"of the given entity's {owner_words}"
            if owner[1]
            else f"of each {cls_text} whose {owner_words} is the given entity"
        )
        seen: list[set] = []
        owned = [a for n in nodes for a in cands[n].get(owner, ())]
        agents = 2 * sum(map(is_agent, owned)) > len(owned)  # the owners are people or groups (a birth, not a creation)
        # a participant linked both ways is named by the link out of the node (`performance.actor`: the actor), not
        # by the link into it (`actor.film`: what the actor's side calls the node)
        for role in sorted(roles, key=lambda r: r[1]):
            if role in owners:
                continue
            pairs = {(a, b) for n in nodes for a in cands[n].get(owner, ()) for b in cands[n].get(role, ()) if a != b}
            if not pairs or pairs in seen:
                continue
            seen.append(pairs)
            iri = f"{base}&to={quote(_role_iri(role), safe='')}"
            if iri in made:
                made[iri].pairs = set(made[iri].pairs) | pairs
                continue
            words = _said(pred_label(role[0]))
            said = " ".join(words)
            desc = f"Through a {cls_text}: the {said} {whose}"
            label = _join(prefix, words)
            if words and words[-1].lower() in _PREPOSITIONS:  # "part of" through a data node, not "data node part of"
                label = said
            if event := event_label(pred_label(owner[0]), pred_label(role[0]), agents):
                label = event
            elif _positional(_said(pred_label(owner[0]))) and _positional(words):
                label = "related to"  # "target of relation" + "source": the class says how; the words say only that
            if role[0] == RDFS_MEMBER and owner[1]:  # a container's members: the link without its list word
                link = _said(pred_label(owner[0]))
                label = " ".join(w for w in link if w.lower() not in _LIST_WORDS) or " ".join(link)
            made[iri] = FoldedRelation(iri, label, desc, pairs)
        named_nodes = [n for n in nodes if not anonymous(n)]  # a blank node's values are no facts of its owner
        _move_values(named_nodes, cands, owner, base, (prefix, cls_text), made, pred_label, attr_subjects)


def _move_values(nodes, cands, owner, base: str, said: tuple, made: dict, pred_label, attr_subjects) -> None:
    """The attributes of one owner role: values of a node with exactly one owner that owns no other node of the
    group (1:1), added to `made` by IRI."""
    prefix, cls_text = said
    owned = Counter(a for n in nodes for a in cands[n].get(owner, ()))
    one = {n: next(iter(cands[n][owner])) for n in nodes if len(cands[n].get(owner, ())) == 1}
    one = {n: a for n, a in one.items() if owned[a] == 1}
    for p in sorted(attr_subjects):
        owner_of = {n: a for n, a in one.items() if n in attr_subjects[p]}
        if not owner_of:
            continue
        iri = f"{base}&attr={quote(p, safe='')}"
        if iri in made:
            made[iri].owner_of.update(owner_of)
            continue
        desc = f"The {' '.join(_said(pred_label(p)))} of the entity's {' '.join(prefix) or cls_text}"
        made[iri] = FoldedAttribute(iri, _join(prefix, _said(pred_label(p))), desc, p, owner_of)


__all__ = [
    "FOLD_PREFIX", "Folded", "FoldedAttribute", "FoldedRelation", "event_label", "fold_reified", "label_tokens",
    "value_parts", "words_of",
]  # fmt: skip
