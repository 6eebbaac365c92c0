"""`kg2tool lexicon --backend ... --model M`: relation wordings drafted by a language model, once per relation, each
checked (`kg2tool.synth.language.drafts`) and else the rule's; the review table says which is which.

The openai path runs end to end against an OpenAI-compatible server started here on 127.0.0.1, which answers each
prompt with a canned draft by the relation the prompt names (and records what it was sent); the transformers path
runs a tiny randomly initialised model, whose answers are no JSON and so all fall back to the rules.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace

import pytest
from chat_server import ChatServer
from conftest import ROOT

from kg2tool.cli import main
from kg2tool.graph.build import load_graph
from kg2tool.synth.language.drafts import PROMPT, check_draft, draft_prompt, read_draft
from kg2tool.synth.language.lexicon import derive_lexicon
from kg2tool.synth.language.lexicon_file import load_lexicon

SNAKE = ROOT / "tests" / "data" / "conventions" / "snake_kb.ttl"

GOOD_VOTES = {"form": "noun", "noun": "IMDb vote count", "plural": "IMDb vote counts", "verb": "", "verbs": "",
              "active": "", "base": "", "tense": "present", "subject": "film", "object": "vote count"}  # fmt: skip
GOOD_DIRECTED = {"form": "by", "noun": "director", "plural": "directors", "verb": "directed by",
                 "verbs": "directed by", "active": "directed", "base": "direct", "tense": "past"}  # fmt: skip
# What the server answers, by the relation the prompt names; relations not here get the rule's draft echoed back.
CANNED = {
    "has imdb votes": json.dumps(GOOD_VOTES),
    "directed by": "```json\n" + json.dumps(GOOD_DIRECTED) + "\n```",  # fenced, as chat models often answer
    "has genre": json.dumps({"form": "noun", "noun": "film_genre", "plural": "film_genres"}),
    "release year": json.dumps({"form": "noun", "noun": "film.release_year", "plural": "film.release_years"}),
    "starred actors": json.dumps({"form": "noun", "noun": "starredActor", "plural": "starredActors"}),
    "in language": json.dumps({"form": "prep", "noun": "tongue", "plural": "tongues", "verb": "in", "verbs": "in"}),
    "has imdb rating": json.dumps({"form": "by", "verb": "rated", "verbs": "rated", "active": "rated"}),
    "written by": "Sure! This relation already reads well, so I would keep the draft as it is.",
}
EXPECTED = {
    "has imdb votes": "model",
    "directed by": "model",
    "has genre": "rule: schema: underscore word 'film_genre' in noun",
    "release year": "rule: schema: dotted path 'film.release_year' in noun",
    "starred actors": "rule: schema: camelCase word 'starredActor' in noun",
    "in language": "rule: dropped words: language",
    "has imdb rating": "rule: slot: a by form needs a verb ending in 'by' and its active past",
    "written by": "rule: bad JSON",
    "has tags": "model (same as rule)",  # the rule's own draft, echoed: it passes the checks
}


def canned(prompt: str) -> str:
    relation = re.search(r'The relation: "([^"]+)"', prompt)[1]
    if relation in CANNED:
        return CANNED[relation]
    return prompt.split("Its draft wording, as JSON:\n", 1)[1].split("\n", 1)[0]


def drafting_server() -> ChatServer:
    """The endpoint answering each drafting prompt with `canned`."""
    return ChatServer(lambda body: {"content": canned(body["messages"][-1]["content"])})


def prompts(server: ChatServer) -> list[str]:
    return [body["messages"][-1]["content"] for body in server.requests]


def table(capsys, *args) -> dict[str, dict[str, str]]:
    """The review table the command prints, one dict per relation line (by label), split at the header's columns."""
    assert main(["lexicon", *map(str, args)]) == 0
    head, *lines = capsys.readouterr().out.splitlines()
    names = re.findall(r"\S+(?: \S+)*", head)
    starts = [head.index(n) for n in names]
    cells = [[line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])] for line in lines]
    return {c[0]: dict(zip(names, c)) for c in cells}


@pytest.fixture(scope="module")
def snake_kg():
    return load_graph([SNAKE])


def test_openai_drafts_are_checked_and_fall_back_to_the_rule(capsys, tmp_path, snake_kg):
    out = tmp_path / "lexicon.yaml"
    with drafting_server() as server:
        rows = table(capsys, "--graph", SNAKE, "--backend", "openai", "--model", "stub", "--base-url", server.url,
                     "--out", out)  # fmt: skip
    # once per relation, not per question: one prompt each, every relation named once
    assert len(prompts(server)) == len(snake_kg.relations) == len(rows) == 9
    asked = sorted(re.search(r'The relation: "([^"]+)"', p)[1] for p in prompts(server))
    assert asked == sorted(rows)
    assert {label: row["draft"] for label, row in rows.items()} == EXPECTED
    votes = rows["has imdb votes"]
    assert votes["forward question"] == "What is the IMDb vote count of A Harbor in Dublin?"
    assert votes["kinds"] == "film -> imdb vote"  # a kind the rule knows is kept, whatever the model says
    rule = derive_lexicon(snake_kg)
    assert rows["has genre"]["forward question"] == "What is the genre of A Bridge in Paris?"  # the rule's
    # --out round-trips through what `kg2tool synth --lexicon FILE` reads
    lex = load_lexicon(out, snake_kg)
    for iri, w in lex.relations.items():
        label = rule.relations[iri].label
        if label == "has imdb votes":
            assert (w.noun, w.plural) == ("IMDb vote count", "IMDb vote counts")
        elif label == "directed by":
            assert w == replace(rule.relations[iri], base="direct")
        else:
            assert w == rule.relations[iri], label


def test_the_drafted_lexicon_words_synth_questions(capsys, tmp_path):
    import pyarrow.parquet as pq

    out = tmp_path / "lexicon.yaml"
    with drafting_server() as server:
        table(
            capsys, "--graph", SNAKE, "--backend", "openai", "--model", "stub", "--base-url", server.url, "--out", out
        )
    argv = ["synth", "--graph", str(SNAKE), "-n", "150", "--only", "simple", "--no-progress", "--lexicon", str(out)]
    assert main(argv + ["--out", str(tmp_path / "data")]) == 0
    rows = [r for p in sorted((tmp_path / "data" / "sft").glob("*.parquet")) for r in pq.read_table(p).to_pylist()]
    questions = [json.loads(r["messages"][0])["content"] for r in rows]
    assert any("IMDb vote count" in q for q in questions), questions[:20]
    assert not any("imdb vote " in q for q in questions)
    assert "    noun: IMDb vote count\n" in (tmp_path / "data" / "lexicon.yaml").read_text(encoding="utf-8")


def test_prompt_gives_the_rule_draft_and_its_questions_without_schema_words(snake_kg):
    lex = derive_lexicon(snake_kg)
    iri = next(k for k, w in lex.relations.items() if w.label == "has imdb votes")
    prompt = draft_prompt(snake_kg, lex, iri)
    assert '"has imdb votes"' in prompt and "_" not in prompt and "http" not in prompt
    assert "What is the imdb vote of A Harbor in Dublin?" in prompt
    assert json.loads(prompt.split("as JSON:\n", 1)[1].split("\n", 1)[0])["noun"] == "imdb vote"
    assert prompt.endswith(PROMPT.rsplit("\n", 1)[-1])


@pytest.mark.parametrize(
    "name", ["snake_kb.ttl", "freebase.nt", "owl_individuals.ttl", "dbpedia.ttl", "underscore.ttl"]
)
def test_the_rule_drafts_pass_every_check(name):
    """A model that echoes the rule's draft changes nothing: on every convention fixture the rule's own wording of
    every relation passes the checks (no relation falls back for a reason the rule itself has)."""
    kg = load_graph([SNAKE.parent / name])
    lex = derive_lexicon(kg)
    failed = {w.label: check_draft(kg, lex, iri, w) for iri, w in lex.relations.items()}
    assert len(failed) >= 5 and not {k: v for k, v in failed.items() if v}


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"noun": "http://example.org/genre"}, "schema: IRI"),
        ({"noun": "genre Q42"}, "schema: Wikidata id"),
        ({"noun": "item genre", "plural": "item genres"}, "schema: placeholder kind 'item' in noun"),
        ({"noun": "the genre"}, "slot: a noun form needs its noun and plural"),
        ({"noun": "genre?"}, "slot: noun 'genre?' is not plain words"),
        ({"noun": "genre of the film that was made by a studio"}, "slot: noun"),
        ({"form": "prep", "verb": "genre", "verbs": "genre"}, "slot: a prep form needs"),
        ({"form": "verb", "verb": "", "verbs": ""}, "slot: a verb form needs"),
        ({"noun": "category", "plural": "categories"}, "dropped words: genre"),
        ({"noun": "genre genre", "plural": "genre genres"}, "question: a word repeated"),
    ],
)
def test_a_draft_that_fails_a_check_says_which(snake_kg, fields, reason):
    lex = derive_lexicon(snake_kg)
    iri = next(k for k, w in lex.relations.items() if w.label == "has genre")
    assert check_draft(snake_kg, lex, iri, lex.relations[iri]) == ""  # the rule's own draft passes
    assert check_draft(snake_kg, lex, iri, replace(lex.relations[iri], **fields)).startswith(reason)


def test_kinds_the_model_gives_are_taken_only_where_the_rule_has_none(snake_kg, tmp_path):
    lex = derive_lexicon(snake_kg)
    iri = next(k for k, w in lex.relations.items() if w.label == "has genre")
    rule = lex.relations[iri]
    drafted, _ = read_draft('{"subject": "movie", "object": "style"}', rule)
    assert (drafted.subject, drafted.object) == ("film", "genre")
    unknown = replace(rule, object="item")
    drafted, _ = read_draft('{"object": "style"}', unknown)
    assert drafted.object == "style"
    drafted, _ = read_draft('{"object": "entity"}', unknown)
    assert check_draft(snake_kg, lex, iri, drafted) == "schema: placeholder kind 'entity' in object"
    drafted, _ = read_draft('{"object": "named individual"}', unknown)
    assert check_draft(snake_kg, lex, iri, drafted) == "schema: placeholder kind 'named individual' in object"
    assert read_draft('{"form": "adjective"}', rule) == (None, "bad JSON: unknown form or tense")
    assert read_draft('{"noun": 3}', rule) == (None, "bad JSON: noun is not a string")
    assert read_draft("<think>{no}</think> no JSON here", rule) == (None, "bad JSON")


def test_backend_flags_are_checked_before_the_graph_is_read(capsys, tmp_path):
    assert main(["lexicon", "--graph", str(SNAKE), "--backend", "openai", "--model", "m"]) == 2
    assert "--backend openai needs --base-url" in capsys.readouterr().err
    assert main(["lexicon", "--graph", str(SNAKE), "--backend", "openai"]) == 2
    assert "needs --model" in capsys.readouterr().err
    assert main(["lexicon", "--graph", str(SNAKE), "--model", str(tmp_path / "none")]) != 0
    assert "no such model folder" in capsys.readouterr().err
    import importlib.util

    if importlib.util.find_spec("vllm") is None:  # the message names this command's flags, not synth's
        assert main(["lexicon", "--graph", str(SNAKE), "--backend", "vllm", "--model", str(tmp_path)]) != 0
        err = capsys.readouterr().err
        assert "--backend vllm needs vLLM" in err and "--paraphrase" not in err


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    """A tiny randomly initialised Llama with a byte-level BPE and a chat template (no training: a few seconds)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator([PROMPT] * 4, trainers.BpeTrainer(
        vocab_size=600, special_tokens=["<|pad|>", "<|end|>"], show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))  # fmt: skip
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, pad_token="<|pad|>", eos_token="<|end|>")
    tok.chat_template = "{% for m in messages %}{{ m['content'] }}<|end|>{% endfor %}"
    config = transformers.LlamaConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=2, max_position_embeddings=2048, pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id, bos_token_id=None, tie_word_embeddings=True,
    )  # fmt: skip
    torch.manual_seed(0)
    out = tmp_path_factory.mktemp("random-model")
    transformers.LlamaForCausalLM(config).save_pretrained(out)
    tok.save_pretrained(out)
    return out


def test_transformers_backend_drafts_and_falls_back(capsys, random_model, snake_kg):
    start = time.monotonic()
    rows = table(capsys, "--graph", SNAKE, "--backend", "transformers", "--model", random_model, "--device", "cpu",
                 "--max-new-tokens", "8", "--batch-size", "9")  # fmt: skip
    assert time.monotonic() - start < 30
    assert len(rows) == len(snake_kg.relations)
    # a random model writes no JSON object: every line keeps the rule's draft and says so
    assert {row["draft"] for row in rows.values()} == {"rule: bad JSON"}
    assert rows["directed by"]["forward question"] == "Who directed A Bridge in Paris?"
