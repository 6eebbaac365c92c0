"""kg2tool.common.closenames: exactly difflib.get_close_matches over the same names, for misspellings of real names,
random text and odd characters (beyond the 63 characters counted one by one)."""

from __future__ import annotations

import difflib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kg2tool.common.closenames import CloseNames, LongestName


def _typos(name: str, rng: random.Random) -> list[str]:
    k = rng.randrange(len(name)) if name else 0
    return [name, name[:k] + name[k + 1 :], name[:k] + "x" + name[k:], name.upper(), name[::-1], name[: len(name) // 2]]


def test_same_answers_as_difflib_on_the_example_graphs_names(example_kg):
    rng = random.Random(0)
    names = sorted(set(example_kg.names))
    close = CloseNames(names)
    words = [w for name in rng.sample(names, 25) for w in _typos(name, rng)] + ["", "zzzz", "Ünïcödé ☃", "a"]
    found = 0
    for i, word in enumerate(words):
        for n, cutoff in ((3, 0.6), (1, 0.8), (5, 0.3))[: 3 if i % 10 == 0 else 2]:
            want = difflib.get_close_matches(word, names, n=n, cutoff=cutoff)
            assert close.match(word, n=n, cutoff=cutoff) == want, (word, n, cutoff)
            found += bool(want)
    assert found > 100
    assert len(close.candidates("Barack Obama", 0.6)) < len(names) / 4  # the prefilter does drop most names


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=12), max_size=40),
    word=st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=12),
    cutoff=st.sampled_from([0.0, 0.3, 0.6, 0.9, 1.0]),
)
def test_same_answers_as_difflib_on_random_text(names, word, cutoff):
    assert CloseNames(names).match(word, n=3, cutoff=cutoff) == difflib.get_close_matches(word, names, 3, cutoff)


def _longest_by_scan(names: list[str], text: str) -> str | None:
    return max((n for n in names if n in text), key=len, default=None)


def test_longest_name_same_as_a_scan_of_every_name_on_the_example_graph(example_kg):
    rng = random.Random(1)
    names = list(example_kg.names)
    finder = LongestName(names)
    texts = [f"What is the place of birth of {a} and of {b}?" for a, b in (rng.sample(names, 2) for _ in range(100))]
    texts += [name[1:] + " " + name[:-1] for name in rng.sample(names, 50)] + ["", "x", "no name here at all"]
    found = 0
    for text in texts:
        want = _longest_by_scan(names, text)
        assert finder.find(text) == want, text
        found += want is not None
    assert found >= 100
    assert example_kg.longest_name_in(texts[0]) == finder.find(texts[0])


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(st.text(alphabet="abAB é", max_size=5), max_size=30),
    text=st.text(alphabet="abAB é", max_size=20),
)
def test_longest_name_same_as_a_scan_on_random_text(names, text):
    # a small alphabet: names overlap, repeat, tie in length, are empty or one character long
    assert LongestName(names).find(text) == _longest_by_scan(names, text)
