"""The paraphrase filter (kg2tool.synth.paraphrase.filter): hand-written candidates against each named rewrite
check, the text helpers, what a plan demands of a rewrite; and every check of REWRITE_CHECKS pinned."""

from __future__ import annotations

import pytest

from kg2tool.synth.paraphrase import filter as paraphrase_filter
from kg2tool.synth.paraphrase.filter import (
    COUNT_RULE,
    FEWER_RULE,
    MORE_RULE,
    NEGATION_RULE,
    REWRITE_CHECKS,
    NameIndex,
    clean_candidate,
    keep_paraphrase,
    plan_names,
    plan_rules,
)

Q = "What is the place of birth of Person 12?"


# ---------------------------------------------------------------------------------------------- the filter


@pytest.mark.parametrize(
    ("candidate", "reason"),
    [
        ("Where was Person 12 born?", None),
        ("Could you tell me the birthplace of Person 12?", None),
        ("", "empty"),
        ("   ", "empty"),
        ("Sure! Here is a rewrite:\nWhere was Person 12 born?", "multi_line"),
        ('<tool_call>{"name": "get_place_of_birth", "arguments": {"entity": "Person 12"}}</tool_call>', "markup"),
        ("Where was Person 12 born?<|im_end|>", "markup"),
        ("what is the place of birth of person 12", "unchanged"),
        ("Person 12?", "too_short"),
        ("Where was Person 12 born? " + "I really would like to know this, " * 4, "too_long"),
        ("Where was person 12 born?", "missing_name"),  # the call copies "Person 12" from the question verbatim
        ("Where was Person 1 born?", "missing_name"),
        ("Where was Person 123 born?", "missing_name"),
        ("Where was Person 12 born, and in which of the 3 cities?", "new_number"),
        ("Was Person 12 born in City 3?", "new_number"),
    ],
)
def test_keep_paraphrase_reasons(candidate, reason):
    assert keep_paraphrase(Q, candidate, ["Person 12"]) == reason


def test_keep_paraphrase_new_entity_and_numbers():
    names = NameIndex(["Person 12", "Person 1", "City 3", "Milan", "Atlantis"])
    assert keep_paraphrase(Q, "Where was Person 12 born?", ["Person 12"], names=names) is None
    assert keep_paraphrase(Q, "Was Person 12 born in Milan?", ["Person 12"], names=names) == "new_entity"
    assert keep_paraphrase(Q, "Is Person 12 from milan or elsewhere?", ["Person 12"], names=names) == "new_entity"
    two = "Which entities are friends of Person 12 but not of Person 1?"
    assert keep_paraphrase(two, "Who is a friend of Person 12 and not of Person 1?", ["Person 12", "Person 1"]) is None
    assert keep_paraphrase(two, "Who is a friend of Person 12 and not of Person?", ["Person 12", "Person 1"]) == (
        "missing_name"
    )
    assert keep_paraphrase("How old is Room 101?", "What is the age of Room 10?", []) == "missing_number"


def test_keep_paraphrase_worded_constraints():
    count = "How many entities are the cast member of of Person 3?"
    assert keep_paraphrase(count, "Count the films Person 3 acted in.", ["Person 3"], rules=[COUNT_RULE]) is None
    assert keep_paraphrase(count, "Which films did Person 3 act in?", ["Person 3"], rules=[COUNT_RULE]) == (
        "missing_constraint"
    )
    more = "Which has the larger population, City 1 or City 2?"
    req = ["City 1", "City 2"]
    assert keep_paraphrase(more, "Of City 1 and City 2, which is more populous?", req, rules=[MORE_RULE]) is None
    assert keep_paraphrase(more, "Of City 1 and City 2, which is less populous?", req, rules=[MORE_RULE]) == (
        "contradicts_constraint"
    )
    assert keep_paraphrase(more, "What are the populations of City 1 and City 2?", req, rules=[MORE_RULE]) == (
        "missing_constraint"
    )
    fewer = "Which comes earlier by inception, City 1 or City 2?"
    assert (
        keep_paraphrase(fewer, "Was City 1 or City 2 founded first, the older one?", req, rules=[FEWER_RULE]) is None
    )
    neg = "Which entities are the friend of Person 4 but not the friend of Person 5?"
    req = ["Person 4", "Person 5"]
    assert keep_paraphrase(neg, "Who is Person 4's friend, excluding Person 5's?", req, rules=[NEGATION_RULE]) is None
    assert keep_paraphrase(neg, "Who is Person 4's friend that isn't Person 5's?", req, rules=[NEGATION_RULE]) is None
    assert keep_paraphrase(neg, "Who are the friends of Person 4 and Person 5?", req, rules=[NEGATION_RULE]) == (
        "missing_constraint"
    )
    # a rule the template question does not word is not demanded of the rewrite
    assert (
        keep_paraphrase("Tell me about Person 4.", "Describe Person 4, please.", ["Person 4"], rules=[COUNT_RULE])
        is None
    )


def test_keep_paraphrase_relations():
    two_hop = "Find the residence of the entities whose friend is Person 6."
    rels = ["inverse friend", "residence"]
    assert (
        keep_paraphrase(two_hop, "Where do the people befriended by Person 6 reside?", ["Person 6"], relations=rels)
        is None
    )
    assert keep_paraphrase(two_hop, "List the entities with friend Person 6.", ["Person 6"], relations=rels) == (
        "missing_relation"  # a dropped hop: names and verification would not catch it
    )
    born = "What is the place of birth of Person 12?"
    assert (
        keep_paraphrase(born, "What is Person 12's birthplace?", ["Person 12"], relations=["place of birth"]) is None
    )
    # a relation the template question does not word (the follow-up's, in a followup row's first turn) is not demanded
    assert keep_paraphrase(born, "Which place was Person 12 born in?", ["Person 12"], relations=["country"]) is None


def test_clean_candidate_and_name_index():
    assert clean_candidate('  "Where was Person 12 born?"  ') == "Where was Person 12 born?"
    assert clean_candidate("Question: Where was Person 12 born?") == "Where was Person 12 born?"
    assert clean_candidate("<think>hmm\nok</think>\nWhere was X born?") == "Where was X born?"
    index = NameIndex(["Person 1", "Person 12", "The Film0", "{{ 7*7 }} <b>x</b>"])
    assert index.find("Did Person 12 see the film0?") == {"person 12", "the film0"}
    assert index.find("Person 123 and Person 1.") == {"person 1"}
    assert index.find("About {{ 7*7 }} <b>x</b> ...") == {"{{ 7*7 }} <b>x</b>"}


def test_plan_names_and_rules():
    person = {"op": "entity", "name": "Person 3", "iri": "x"}
    city = {"op": "entity", "name": "City 1", "iri": "y"}
    plan = {"op": "difference", "of": [{"op": "project", "of": person}, {"op": "project", "of": city}]}
    assert plan_names(plan) == ["Person 3", "City 1"]
    assert plan_rules(plan) == [NEGATION_RULE]
    compare = {"op": "compare", "mode": "min", "of": [{"op": "count", "of": person}, {"op": "count", "of": city}]}
    assert plan_rules(compare) == [FEWER_RULE]  # counts compared: "fewer" is the constraint, not "how many"
    assert plan_rules({"op": "count", "of": person}) == [COUNT_RULE]


# -- every rewrite check pinned: its case gives its reason, and without the check the case gets through -----------

PINNED = {
    "nonempty": (Q, "", {}, "empty"),
    "one_line": (Q, "Sure! Here is a rewrite:\nWhere was Person 12 born?", {}, "multi_line"),
    "no_markup": (Q, "Where was Person 12 born?<|im_end|>", {}, "markup"),
    "changed": (Q, "what is the place of birth of person 12", {}, "unchanged"),
    "length": (Q, "Person 12?", {}, "too_short"),
    "keeps_names": (Q, "Where was person 12 born?", {}, "missing_name"),
    "keeps_relations": (Q, "Where is Person 12 from?", {"relations": ["place of birth"]}, "missing_relation"),
    "keeps_constraints": ("How many films did Person 12 act in?", "Which films did Person 12 act in?",
                          {"rules": [COUNT_RULE]}, "missing_constraint"),
    "same_numbers": (Q, "Was Person 12 born in City 3?", {}, "new_number"),
    "no_new_entity": (Q, "Where in Atlantis was Person 12 born?", {"names": NameIndex(["Person 12", "Atlantis"])},
                      "new_entity"),
}  # fmt: skip


def test_every_rewrite_check_is_pinned():
    assert [c.name for c in REWRITE_CHECKS] == list(PINNED)
    assert all(c.stage == "rewrite" and c.reason for c in REWRITE_CHECKS)


@pytest.mark.parametrize("name", list(PINNED))
def test_rewrite_check_catches_its_case(name):
    original, candidate, kwargs, reason = PINNED[name]
    assert keep_paraphrase(original, candidate, ["Person 12"], **kwargs) == reason


@pytest.mark.parametrize("name", list(PINNED))
def test_without_the_rewrite_check_its_case_is_missed(name, monkeypatch):
    original, candidate, kwargs, reason = PINNED[name]
    monkeypatch.setattr(paraphrase_filter, "REWRITE_CHECKS", [c for c in REWRITE_CHECKS if c.name != name])
    assert keep_paraphrase(original, candidate, ["Person 12"], **kwargs) != reason
