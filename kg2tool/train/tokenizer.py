"""Train a byte-level BPE tokenizer on the pretraining corpus and wrap it as a transformers tokenizer.

Design choices:
- Byte-level BPE (`tokenizers`), so any text, any script, is encodable without an unknown token.
- Pre-tokenization makes a name tokenize *identically* in a question and in a tool call's JSON arguments, which is
  what a tiny model needs to learn to copy names into calls (measured by this project). A name's tokens must not
  merge with what surrounds it, and that differs: a space (or `?`, `,`) in the question, a quote in the JSON.
  So a space never joins a capitalized word or a digit: a lowercase-initial word takes the spaces around it
  (`"of "`, `" born "`), and a space between two capitalized words is a token of its own. "Where was Giorgio
  Gaber born?" -> `Where`, ` was `, `Giorgio`, ` `, `Gaber`, ` born`, `?`; `{"entity": "Giorgio Gaber"}` ->
  ..., `"`, `Giorgio`, ` `, `Gaber`, `"}`. Measured on the synth rows of examples/wiki.ttl (share of call
  arguments whose tokens are the same in the question): 0.96, against 0.61 when every word keeps its trailing
  space (GPT-2's leading space fails the same way at a name's first word), for 3% more tokens per conversation;
  isolating every space reaches 0.99 for 43% more tokens. What remains: lowercase values ("classical music")
  followed by a space. `name_consistency` measures it; `PRETOKENIZE_PATTERNS["trailing"]` is the old scheme.
- `words` (pretrain/tiny.yaml's choice) isolates every space: relation words are then the same tokens in a question
  and in a function name too (`place of burial` / `get_place_of_burial`; under `names` the question's lowercase
  words carry their space). On the wiki demo it took held-out simple after SFT from 0.05 to 0.58 for +29% tokens
  (docs/research/learning-effect.md).
- Every entity name is added to the BPE training text `name_repeats` times, so names become few, stable tokens.
- A BPE trained on repetitive triple text stops far below the requested size (1.9k of 8k, seen here); the corpus
  mixes verbalized facts with conversations, and the achieved size is reported, not assumed.
- Special tokens: `<|endoftext|>` (document separator, padding), `<|im_start|>`, `<|im_end|>` (eos for chat);
  the Hermes markup tags (`<tool_call>` ...) are single added tokens that still decode as text.
- Saved with `save_pretrained`, so `AutoTokenizer.from_pretrained` loads it (transformers 5 writes the
  template to a separate `chat_template.jinja`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..llm.chat_format import END_OF_TEXT, IM_END, MARKUP_TOKENS, SPECIAL_TOKENS, TEMPLATES

# A lowercase-initial word with at most one space on each side; any other word (capitalized, names), bare; digits
# one at a time (numbers and dates generalize), bare; runs of other symbols with one trailing space; one space.
PRETOKENIZE_PATTERNS = {
    "names": r" ?\p{Ll}[\p{L}\p{M}]* ?|[\p{L}\p{M}]+|\p{N}|[^\s\p{L}\p{M}\p{N}]+ ?|\s",
    # every word bare and every space a token of its own: a relation's words are then the same tokens in the question
    # ("place of burial") and in the function name (`get_place_of_burial`), not only the names
    "words": r"[\p{L}\p{M}]+|\p{N}|[^\s\p{L}\p{M}\p{N}]+|\s",
    # the first scheme: every word keeps one trailing space (names followed by a space differ from their JSON form)
    "trailing": r"[\p{L}\p{M}]+ ?|\p{N} ?|[^\s\p{L}\p{M}\p{N}]+ ?|\s+",
}
PRETOKENIZE_PATTERN = PRETOKENIZE_PATTERNS["names"]


@dataclass
class TokenizerConfig:
    """How to train the tokenizer.

    Parameters:
        vocab_size: requested vocabulary size (BPE may stop below it on repetitive text; the result is reported).
        min_frequency: a merge needs at least this many occurrences.
        name_repeats: how many times each entity name is added to the training text.
        pretokenizer: key of `PRETOKENIZE_PATTERNS` (`names`, the default, `words` or `trailing`).
        tool_format: the chat template's tool listing: `full` (JSON schemas, as Qwen2.5), `compact` (one line per
            tool; `kg2tool.llm.chat_format.COMPACT_CHAT_TEMPLATE`) or `signatures` (those lines without the
            descriptions).
    """

    vocab_size: int = 8192
    min_frequency: int = 2
    name_repeats: int = 4
    pretokenizer: str = "names"
    tool_format: str = "full"


def _name_lines(names: Iterable[str], repeats: int) -> Iterator[str]:
    for name in names:
        for _ in range(repeats):
            yield name  # as in running text
            yield f'"{name}"'  # as inside JSON arguments


def train_tokenizer(texts: Iterable[str], names: Iterable[str] = (), config: TokenizerConfig | None = None):
    """Train a byte-level BPE on `texts` plus the repeated `names`.

    Input: an iterable of documents (may be a generator), entity names, and a `TokenizerConfig`.
    Output: a `transformers.PreTrainedTokenizerFast` with the kg2tool chat template, eos `<|im_end|>` and
    pad `<|endoftext|>`.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    config = config or TokenizerConfig()
    if config.pretokenizer not in PRETOKENIZE_PATTERNS:
        raise ValueError(f"unknown pretokenizer {config.pretokenizer!r}; known: {sorted(PRETOKENIZE_PATTERNS)}")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(PRETOKENIZE_PATTERNS[config.pretokenizer]), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=config.vocab_size,
        min_frequency=config.min_frequency,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )

    def corpus() -> Iterator[str]:
        yield from texts
        yield from _name_lines(names, config.name_repeats)

    tok.train_from_iterator(corpus(), trainer=trainer)
    return wrap_tokenizer(tok, config.tool_format)


def wrap_tokenizer(tok, tool_format: str = "full"):
    """Wrap a `tokenizers.Tokenizer` as a transformers fast tokenizer with kg2tool's special tokens and template."""
    from tokenizers import AddedToken
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token=IM_END,
        pad_token=END_OF_TEXT,
        bos_token=None,
        unk_token=None,
        additional_special_tokens=[t for t in SPECIAL_TOKENS if t not in (IM_END, END_OF_TEXT)],
        model_max_length=1 << 20,
        padding_side="right",
        clean_up_tokenization_spaces=False,
    )
    fast.add_tokens([AddedToken(t, special=False, normalized=False) for t in MARKUP_TOKENS])
    if tool_format not in TEMPLATES:
        raise ValueError(f"unknown tool_format {tool_format!r}; known: {', '.join(TEMPLATES)}")
    fast.chat_template = TEMPLATES[tool_format]
    return fast


# Where a name sits in a question: at the end (before punctuation) and mid-sentence (before a space).
CONSISTENCY_CONTEXTS = ("What is the country of {}?", "Where was {} born?", "Is {} or {} older?")


def name_consistency(tokenizer, names: Iterable[str]) -> float:
    """Share of names whose token ids are the same in JSON arguments (`{"entity": "NAME"}`) and in every question
    context of `CONSISTENCY_CONTEXTS` (end of sentence, mid-sentence)."""
    names = list(names)
    if not names:
        return 1.0
    same = 0
    for name in names:
        target = _span_ids(tokenizer, f'{{"entity": "{name}"}}', name)
        ok = target is not None
        for context in CONSISTENCY_CONTEXTS:
            if not ok:
                break
            ok = _span_ids(tokenizer, context.format(name, "X"), name) == target
        same += ok
    return same / len(names)


def _span_ids(tokenizer, text: str, sub: str) -> list[int] | None:
    """Token ids covering the first occurrence of `sub` in `text`, or None when no token boundary falls at both
    ends of it (a token straddles the name's edge)."""
    enc = tokenizer(text, return_offsets_mapping=True, add_special_tokens=False)
    start = text.index(sub)
    end = start + len(sub)
    ids = [i for i, (a, b) in zip(enc["input_ids"], enc["offset_mapping"], strict=True) if b > start and a < end]
    spans = [(a, b) for a, b in enc["offset_mapping"] if b > start and a < end]
    if not spans or spans[0][0] != start or spans[-1][1] != end:
        return None
    return ids


def tokens_per_name(tokenizer, names: Iterable[str]) -> float:
    """Mean number of tokens of a name on its own."""
    names = list(names)
    if not names:
        return 0.0
    return sum(len(tokenizer.encode(n, add_special_tokens=False)) for n in names) / len(names)
