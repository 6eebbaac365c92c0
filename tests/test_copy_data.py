"""Random-name synth rows (the copy curriculum) and the name-consistent pre-tokenizer. Fast: no model training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from kg2tool.graph.build import load_graph  # noqa: E402
from kg2tool.train.copy_data import NameMaker, iter_random_name_rows, random_name_rows, renamed_graph  # noqa: E402

WIKI = Path(__file__).resolve().parent.parent / "examples" / "wiki.ttl"


@pytest.fixture(scope="module")
def kg():
    return load_graph([str(WIKI)])


def test_renamed_graph_keeps_structure_and_replaces_every_label(kg):
    copy = renamed_graph(kg, seed=0)
    assert copy.entities == kg.entities and copy.relations is kg.relations
    assert len(set(copy.names)) == len(copy.names)  # unique, so no disambiguating parentheses
    assert not any("(" in n and "(" not in old for n, old in zip(copy.names, kg.labels, strict=True))
    real = set(kg.names)
    assert not real & set(copy.names)
    # same shape word by word: particles kept, capitalization kept
    for old, new in zip(kg.labels[:300], copy.labels[:300], strict=True):
        ow, nw = old.split(" "), new.split(" ")
        assert len(nw) >= len(ow)
        for a, b in zip(ow, nw, strict=False):
            if a[:1].islower() and len(a) <= 3:
                assert a == b
            elif a[:1].isupper():
                assert b[:1].isupper()
    # the executor resolves the new names, and only them
    name = copy.names[0]
    assert copy.resolve(name) == 0 and copy.resolve(kg.labels[0]) != 0
    assert renamed_graph(kg, seed=0).labels == copy.labels and renamed_graph(kg, seed=1).labels != copy.labels


def test_random_name_rows_are_synth_rows_with_unseen_names(kg):
    rows = random_name_rows(kg, 120, seed=3)
    assert len(rows) == 120
    assert rows == random_name_rows(kg, 120, seed=3)  # deterministic
    assert {r["category"] for r in rows} >= {"simple", "multi_step", "parallel"}
    real = set(kg.names)
    tool_names = set()
    copied = 0
    for row in rows:
        assert set(row) == {"messages", "tools", "pattern", "category"}
        tool_names |= {t["function"]["name"] for t in row["tools"]}
        question = row["messages"][0]["content"]
        first = row["messages"][1]
        for call in first.get("tool_calls") or []:
            for value in call["function"]["arguments"].values():
                if isinstance(value, str) and value in question:
                    copied += 1
                    assert value not in real
    assert copied >= 100
    assert "get_place_of_birth" in tool_names or "get_country" in tool_names  # the real tool schemas


def test_random_name_rows_end_when_the_graph_gives_none(tmp_path):
    from kg2tool.synth.run.synthesizer import SynthConfig

    path = tmp_path / "g.ttl"
    path.write_text(
        "@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        + "".join(f'ex:a{i} rdfs:label "A{i}" ; ex:knows ex:b{i} .\nex:b{i} rdfs:label "B{i}" .\n' for i in range(6))
    )
    small = load_graph([str(path)])
    only_3p = SynthConfig(mix={"3p": 1.0})  # one relation, no chains: every candidate fails
    assert list(iter_random_name_rows(small, seed=0, synth_config=only_3p, shard_size=8, max_shards=10_000)) == []
    assert len(list(iter_random_name_rows(small, seed=0, shard_size=8, max_shards=3))) > 0


def test_name_maker_keeps_digits_and_particles():
    import random

    maker = NameMaker(["Giorgio Gaber", "Apollo 11", "University of Milan", "classical music"], invented_share=0.0)
    rng = random.Random(0)
    assert maker.name("University of Milan", rng).split(" ")[1] == "of"
    new = maker.name("Apollo 11", rng).split(" ")
    assert new[0][:1].isupper() and new[1].isdigit() and len(new[1]) == 2
    assert maker.name("classical music", rng).islower()


def test_names_tokenize_identically_mid_sentence_and_in_json():
    from kg2tool.train.tokenizer import (
        TokenizerConfig,
        _span_ids,
        name_consistency,
        train_tokenizer,
    )

    names = ["Giorgio Gaber", "Benoit Mandelbrot", "University of Milan", "J. J. Abrams", "Apollo 11", "Milan"]
    texts = [f"Where was {n} born? The country of {n} is Italy. {json.dumps({'entity': n})}" for n in names] * 20
    new = train_tokenizer(texts, names, TokenizerConfig(vocab_size=500))
    old = train_tokenizer(texts, names, TokenizerConfig(vocab_size=500, pretokenizer="trailing"))
    assert name_consistency(new, names) == 1.0
    assert name_consistency(old, names) < 0.5  # a name followed by a space kept the space in its last token
    in_json = _span_ids(new, '{"entity": "Giorgio Gaber"}', "Giorgio Gaber")
    assert in_json == _span_ids(new, "Where was Giorgio Gaber born?", "Giorgio Gaber")
    assert in_json == _span_ids(new, "the place of birth of Giorgio Gaber, and", "Giorgio Gaber")
    with pytest.raises(ValueError, match="pretokenizer"):
        train_tokenizer(texts, names, TokenizerConfig(pretokenizer="gpt2"))


def test_words_pretokenizer_makes_relation_words_the_same_tokens_in_questions_and_function_names():
    from kg2tool.train.tokenizer import TokenizerConfig, _span_ids, train_tokenizer

    texts = ["What is the place of burial of Giorgio Gaber? " + json.dumps({"name": "get_place_of_burial"})] * 30
    words = train_tokenizer(texts, ["Giorgio Gaber"], TokenizerConfig(vocab_size=400, pretokenizer="words"))
    names = train_tokenizer(texts, ["Giorgio Gaber"], TokenizerConfig(vocab_size=400))
    question, call = "the place of burial of X", '{"name": "get_place_of_burial"}'
    for word in ("place", "burial"):
        assert _span_ids(words, question, word) == _span_ids(words, call, word)
        assert _span_ids(names, question, word) is None  # "placeĠ": the word's token carries its space
    assert words.decode(words.encode(question + call, add_special_tokens=False)) == question + call


class SmallGraph:
    """The bundled graph with only its first `facts` facts verbalized: a small corpus; names and relations are real."""

    def __init__(self, kg, facts: int):
        self.kg, self.facts = kg, facts
        self.labels, self.relations, self.names = kg.labels, kg.relations, kg.names

    def iter_facts(self):
        return iter(list(self.kg.iter_facts())[: self.facts])

    def entity_names(self):
        return self.kg.entity_names()

    def __getattr__(self, name):
        return getattr(self.kg, name)


def test_corpus_synth_style_rows_drills_and_warmup(kg):
    from tokenizers import Tokenizer, models

    from kg2tool.train.corpus import CorpusConfig, CorpusStats, build_documents
    from kg2tool.train.tokenizer import wrap_tokenizer

    renderer = wrap_tokenizer(Tokenizer(models.BPE()))

    cfg = CorpusConfig(fact_passes=1, synthetic_fraction=0.5, synthetic_tools_share=0.5, copy_drill_fraction=0.2,
                       copy_warmup_fraction=0.1)  # fmt: skip
    stats = CorpusStats()
    docs = build_documents(SmallGraph(kg, 900), renderer, cfg, (), (), stats)
    chats = [d for d in docs if "<|im_start|>assistant" in d]
    assert chats and len(chats) == stats.documents["synthetic_tool_calls"]
    with_tools = sum("<tools>" in d for d in chats)
    assert 0 < with_tools < len(chats)  # some rows with their schemas, some without
    assert any("get_" in d or "find_by_" in d for d in chats)  # the real tool names
    warm = stats.documents["copy_warmup"]
    assert all("<|im_start|>" not in d for d in docs[:warm])  # the warm-up drills come first
    assert stats.characters["copy_warmup"] >= 0.1 * (sum(stats.characters.values()) - stats.characters["copy_warmup"])


def test_copy_drill_repeats_its_names():
    import random

    from kg2tool.train.corpus import RandomNames, copy_drill

    rng = random.Random(0)
    names = RandomNames(["Giorgio Gaber", "Ada Lovelace"], rng)
    for _ in range(20):
        drill = copy_drill(names, rng)
        listed = json.loads(drill[drill.index("[") : drill.index("]") + 1]) if "[" in drill else None
        if listed:
            assert all(drill.count(n) >= 2 for n in listed)
        else:
            text, calls = drill[: drill.index("{")], drill[drill.index("{") :]
            entities = [json.loads(c)["entity"] for c in calls.replace("} {", "}\n{").split("\n")]
            assert entities and all(n in text for n in entities)


def test_corpus_first_turn_share_cuts_rows_after_the_first_assistant_turn(kg):
    from tokenizers import Tokenizer, models

    from kg2tool.train.corpus import CorpusConfig, CorpusStats, build_documents, first_turn
    from kg2tool.train.tokenizer import wrap_tokenizer

    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "tool", "content": "t"}]
    assert first_turn(messages) == messages[:2] and first_turn(messages[:1]) == messages[:1]

    renderer = wrap_tokenizer(Tokenizer(models.BPE()))

    def chats(share):
        cfg = CorpusConfig(fact_passes=1, synthetic_fraction=0.5, synthetic_tools_share=0.0, synthetic_first_turns=share)
        return [d for d in build_documents(SmallGraph(kg, 300), renderer, cfg, (), (), CorpusStats()) if "<|im_start|>" in d]

    whole, cut = chats(0.0), chats(1.0)
    assert any("<tool_response>" in d for d in whole)
    assert all(d.count("<|im_start|>assistant") == 1 and "<tool_response>" not in d for d in cut)
    assert len(cut) > 2 * len(whole)  # the same characters hold many more questions
