"""Train a byte-level BPE tokenizer on the pretraining corpus and wrap it as a transformers tokenizer.

Design choices:
- Byte-level BPE (`tokenizers`), so any text, any script, is encodable without an unknown token.
- Pre-tokenization keeps a word's *trailing* space (`"Giorgio "`, `"Gaber"`) instead of GPT-2's leading space,
  and splits punctuation off words. A name then tokenizes the same inside a question ("... of Giorgio Gaber?")
  and inside JSON arguments (`"Giorgio Gaber"`), which is what a tiny model needs to learn to copy names into
  tool calls (STACK.md, last section). It differs only when the name is followed by a space in one place and by
  punctuation in the other; `name_consistency` measures how often names tokenize identically.
- Every entity name is added to the BPE training text `name_repeats` times, so names become few, stable tokens.
- A BPE trained on repetitive triple text stops far below the requested size (STACK.md pitfall 7); the corpus
  mixes verbalized facts with conversations, and the achieved size is reported, not assumed.
- Special tokens: `<|endoftext|>` (document separator, padding), `<|im_start|>`, `<|im_end|>` (eos for chat);
  the Hermes markup tags (`<tool_call>` ...) are single added tokens that still decode as text.
- Saved with `save_pretrained`, so `AutoTokenizer.from_pretrained` loads it (transformers 5 writes the
  template to a separate `chat_template.jinja`, STACK.md pitfall 6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .chat_format import CHAT_TEMPLATE, END_OF_TEXT, IM_END, MARKUP_TOKENS, SPECIAL_TOKENS

# A word (letters and marks) with at most one trailing space; digits one at a time (numbers and dates generalize);
# runs of other symbols with one trailing space; whitespace runs.
PRETOKENIZE_PATTERN = r"[\p{L}\p{M}]+ ?|\p{N} ?|[^\s\p{L}\p{M}\p{N}]+ ?|\s+"


@dataclass
class TokenizerConfig:
    """How to train the tokenizer.

    Parameters:
        vocab_size: requested vocabulary size (BPE may stop below it on repetitive text; the result is reported).
        min_frequency: a merge needs at least this many occurrences.
        name_repeats: how many times each entity name is added to the training text.
    """

    vocab_size: int = 8192
    min_frequency: int = 2
    name_repeats: int = 4


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
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(PRETOKENIZE_PATTERN), behavior="isolated"),
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
    return wrap_tokenizer(tok)


def wrap_tokenizer(tok):
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
    fast.chat_template = CHAT_TEMPLATE
    return fast


def name_consistency(tokenizer, names: Iterable[str]) -> float:
    """Share of names whose token ids are the same in a question ("... of NAME?") and in JSON (`"NAME"`)."""
    names = list(names)
    if not names:
        return 1.0
    same = 0
    for name in names:
        in_json = tokenizer.encode(f'{{"entity": "{name}"}}', add_special_tokens=False)
        in_text = tokenizer.encode(f"What is the country of {name}?", add_special_tokens=False)
        target = tokenizer.encode(name, add_special_tokens=False)
        same += _contains(in_json, target) and _contains(in_text, target)
    return same / len(names)


def _contains(seq: list[int], sub: list[int]) -> bool:
    n = len(sub)
    return any(seq[i : i + n] == sub for i in range(len(seq) - n + 1))


def tokens_per_name(tokenizer, names: Iterable[str]) -> float:
    """Mean number of tokens of a name on its own."""
    names = list(names)
    if not names:
        return 0.0
    return sum(len(tokenizer.encode(n, add_special_tokens=False)) for n in names) / len(names)
