"""Dialogue shapes (kg2tool.synth.dialogue): follow-up, missing-info and error-recovery conversations verify."""

import json

import pytest
from checks import check_row

from kg2tool.graph.build import load_graph
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools.toolset import ToolSet
from kg2tool.synth.walk.walker import ALL_SHAPES, DIALOGUE_SHAPES


@pytest.mark.parametrize("shape", DIALOGUE_SHAPES)
def test_dialogue_shapes_pass_verification(shape, small_kg, example_kg):
    kg = example_kg if shape == "missing_info" else small_kg  # the small graph has no name given in part
    synth = Synthesizer(kg, SynthConfig(seed=1, mix={s: float(s == shape) for s in ALL_SHAPES}))
    rows, stats = synth.shard(0)
    assert len(rows) > 20, stats
    fresh = ToolSet.from_graph(load_graph(kg.stats.files))
    for row in rows:
        assert row["pattern"] == shape
        assert check_row(row, fresh) == [], row["messages"]
        users = [m for m in row["messages"] if m["role"] == "user"]
        if shape == "error_recovery":
            errors = [m for m in row["messages"] if m["role"] == "tool" and m["content"].startswith('{"error"')]
            assert len(errors) == 1 and row["category"] == "multi_step"
        else:
            assert len(users) == 2 and row["category"] == "multi_turn"
        if shape == "missing_info":
            # the entity is named only in the second user turn, after the assistant asked
            assert row["messages"][1]["role"] == "assistant" and not row["messages"][1].get("tool_calls")
            arg = next(iter(row["messages"][3]["tool_calls"][0]["function"]["arguments"].values()))
            assert arg in users[1]["content"] and arg not in users[0]["content"]
            assert "full name" in row["messages"][1]["content"] or "which one" in row["messages"][1]["content"]
            if arg.split()[-1] not in users[0]["content"]:  # not a family name several people share: a beginning
                start = synth.dialogue._partial_names()[kg.resolve(arg)]
                assert arg.startswith(start) and (f'whose name starts with "{start}"' in users[0]["content"]
                                                   or f"{start}..." in users[0]["content"])  # fmt: skip


def test_every_dialogue_shape_has_one_builder(small_kg):
    synth = Synthesizer(small_kg, SynthConfig(seed=1))
    assert set(synth.dialogue.builders) == set(DIALOGUE_SHAPES)
    assert synth.dialogue.kg is small_kg and synth.dialogue.ts is synth.ts  # the graph and tools the walker uses


def test_error_recovery_teaches_the_right_thing(small_kg):
    """The user misspells a name; the assistant passes it on as written; the error offers the closest names; the
    retry uses one of them. An assistant slip of its own (wrong key or type) carries weight 0."""
    synth = Synthesizer(small_kg, SynthConfig(seed=3, mix={s: float(s == "error_recovery") for s in ALL_SHAPES}))
    rows, _ = synth.shard(0)
    typos = slips = 0
    for row in rows:
        msgs = row["messages"]
        bad_call, error, retry = msgs[1], msgs[2], msgs[3]
        bad_args = bad_call["tool_calls"][0]["function"]["arguments"]
        good_args = retry["tool_calls"][0]["function"]["arguments"]
        assert json.loads(error["content"])["error"]
        if bad_call.get("weight") == 0:  # the assistant's own mistake: never trained
            slips += 1
            assert set(bad_args) != set(good_args) or bad_args != good_args
            assert "invalid argument" in error["content"]
        else:  # the user's typo, passed on faithfully
            typos += 1
            (typed,) = bad_args.values()
            (fixed,) = good_args.values()
            assert typed in msgs[0]["content"] and fixed not in msgs[0]["content"]  # the user wrote it wrong
            assert small_kg.resolve(typed) is None
            text = json.loads(error["content"])["error"]
            assert "closest names: " in text and repr(fixed) in text.split("closest names: ")[1]
        assert all("weight" not in m for m in msgs[3:])  # everything after the first call is trained
    assert typos > 10 and slips > 3 and typos > slips


def test_a_users_typo_is_a_human_slip():
    """A user's typo is a swapped, dropped or doubled letter inside a word of five or more letters, and digits stay
    as written."""
    import random

    from kg2tool.synth.dialogue import DialogueBuilder
    from kg2tool.synth.traces import Call

    rng = random.Random(0)
    first = Call("get_laureate", {"entity": "Physiology or Medicine 1908"}, None, 0)
    question = "Who are the laureates of Physiology or Medicine 1908?"
    for seed in range(30):
        q, args = DialogueBuilder._user_typo(question, first, random.Random(seed))
        typo = args["entity"]
        assert typo != "Physiology or Medicine 1908" and typo in q and typo.endswith(" 1908")
        changed = [(a, b) for a, b in zip(typo.split(), "Physiology or Medicine 1908".split()) if a != b]
        assert len(changed) == 1 and len(typo.split()) == 4
        got, word = changed[0]
        assert got[0] == word[0] and abs(len(got) - len(word)) <= 1
        assert sorted(got) == sorted(word) or len(got) != len(word)  # a swap keeps the letters
    assert DialogueBuilder._user_typo("Who is Ada?", Call("f", {"entity": "Ada"}, None, 0), rng) is None


def test_a_name_given_in_part_is_the_beginning_several_names_share():
    """What a user who remembers only the start of a name says: the words the names share from the start, ending
    before a number and without a trailing mark or function word, holding a word of four or more letters, shorter
    than every name."""
    from kg2tool.synth.dialogue import shared_start

    assert shared_start(["Planck constant", "Planck length", "Planck mass"]) == "Planck"
    assert shared_start(["Robert Motherwell: Lyric Suite", "Robert Motherwell: Prints"]) == "Robert Motherwell"
    assert shared_start(["University of Oslo", "University of Bergen"]) == "University"
    assert shared_start(["Energy per Area", "Energy per Mass"]) == "Energy"
    assert shared_start(["Sackur-Tetrode constant 1 K 100 kPa", "Sackur-Tetrode constant 1 K 101.325 kPa"]) == (
        "Sackur-Tetrode constant")  # fmt: skip
    assert shared_start(["The Beatles", "The Byrds"]) is None  # no word of four letters
    assert shared_start(["2019 Tour de France", "2019 Giro"]) is None  # a number is no beginning
    assert shared_start(["Tour de France", "Tour de France 2019"]) is None  # as long as a name
    assert shared_start(["Paris", "Lyon"]) is None


def test_missing_info_gives_a_things_name_in_part_and_needs_a_name_to_give(example_kg, small_kg):
    """Where things of one kind have names that begin alike, the user says the beginning ("the country whose name
    starts with "South"", "Saint...?") and the assistant asks for the full name; a graph with no name to give in part
    makes no missing_info rows (its share goes to the other shapes), and a mix of missing_info alone is refused."""
    from kg2tool.common.errors import InputError

    synth = Synthesizer(example_kg, SynthConfig(seed=4, mix={s: float(s == "missing_info") for s in ALL_SHAPES}))
    partial = synth.dialogue._partial_names()
    assert partial and all(example_kg.name(e).startswith(start) for e, start in partial.items())
    rows, _ = synth.shard(0)
    things = [r for r in rows if synth.dialogue.kg.resolve(r["messages"][2]["content"].split(" ", 1)[-1].rstrip("."))
              in partial or any(f'starts with "{s}"' in r["messages"][0]["content"] for s in set(partial.values()))]
    assert len(things) > 5
    for row in things:
        first, ask = row["messages"][0]["content"], row["messages"][1]["content"]
        (arg,) = row["messages"][3]["tool_calls"][0]["function"]["arguments"].values()
        start = partial[example_kg.resolve(arg)]
        assert arg not in first and (f'whose name starts with "{start}"' in first or first.count(f"{start}...") == 1)
        assert "full name" in ask or "Which one" in ask
    mixed = Synthesizer(small_kg, SynthConfig(seed=1, mix={"simple": 1.0, "missing_info": 1.0}))
    assert not mixed.dialogue.can_leave_out() and mixed.shapes == ["simple"]
    with pytest.raises(InputError, match="missing_info only"):
        Synthesizer(small_kg, SynthConfig(seed=1, mix={s: float(s == "missing_info") for s in ALL_SHAPES}))


def test_missing_info_names_a_person_by_a_family_name_others_share(example_kg):
    """Where several people of the graph share a family name, the user says it alone ("Where was Mann born?"), the
    assistant asks for the full name instead of guessing, and the call uses the name the user then gives; names that
    are also given names ("James") or are some entity's own name are not used."""
    from kg2tool.synth.dialogue import family_name

    assert family_name("Thomas Mann") == "Mann" and family_name("Martin Luther King Jr.") is None
    assert family_name("Mann") is None and family_name("Cori, née Radnitz") is None and family_name("Physics 1913") is None
    synth = Synthesizer(example_kg, SynthConfig(seed=2, mix={s: float(s == "missing_info") for s in ALL_SHAPES}))
    rows, _ = synth.shard(0)
    shared = synth.dialogue._shared_surnames()
    assert shared and all(family_name(example_kg.name(e)) != "James" for e in shared)
    by_surname = {}
    for e in shared:
        by_surname.setdefault(family_name(example_kg.name(e)), []).append(e)
    assert all(len(ids) >= 2 for ids in by_surname.values())
    short = 0
    for row in rows:
        first, ask, supply = row["messages"][0]["content"], row["messages"][1]["content"], row["messages"][2]["content"]
        (arg,) = row["messages"][3]["tool_calls"][0]["function"]["arguments"].values()
        if arg not in first and family_name(arg) and family_name(arg) in first:
            short += 1
            assert family_name(arg) in ask and "?" in ask and arg in supply
            assert first.count(family_name(arg)) == 1 and not first.endswith(" .")
            # and says why it is the family name alone ("Where was Mann born? I forget the first name.")
            assert any(first.endswith(f" {tail}") for tail in TAILS), first
    assert short > len(rows) / 2, [r["messages"][0]["content"] for r in rows[:5]]


TAILS = {"I can't remember the first name.", "I only know the last name.", "I forget the first name.",
         "Not sure of the first name."}  # templates/missing_info.yaml: surname_only


def test_a_followup_says_a_quoted_clause_name_as_that_kind_without_its_quotes():
    """A name that is a clause is said in quotes; the follow-up's "that <kind>" takes its place, quotes and all
    (not 'Which controls controlled "that biochemical reaction"?')."""
    from kg2tool.synth.language.render import swap_name

    name = "MEK1 phosphorylates ERK-1"
    assert swap_name(f'Which controls controlled "{name}"?', name, "that biochemical reaction") == (
        "Which controls controlled that biochemical reaction?")  # fmt: skip
    assert swap_name("What is the capital of the Netherlands?", "Netherlands", "that country") == (
        "What is the capital of that country?")  # fmt: skip
