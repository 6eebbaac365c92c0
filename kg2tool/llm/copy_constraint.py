"""Copy-constrained decoding of tool-call strings (`kg2tool eval --constrain copy`, transformers backend only).

Inside a `<tool_call>` block, every JSON string the model writes (function names, keys and argument values) is
restricted to a run of tokens copied from the prompt: the first token of a string is a prompt token with a letter
or digit, each next one a token that follows the tokens written so far somewhere in the prompt, and a quote
closes it (a key with `":`, a value with a quote and JSON punctuation; never right after a space). Names, tool names, enum values and refs all appear in the prompt (the question, the tool
list, earlier tool results), so a call the model means to make is never blocked; what the constraint removes is a
name made up from pieces. It needs a tokenizer that cuts letters from punctuation and spaces (kg2tool's own
tokenizers do: "Lewis Carroll" is the same tokens in the question and in the call).

This changes what is measured: scores with the constraint say what the model picks among the prompt's spans, not
whether it can copy one; the mode is recorded (details.json: `run.backend_options.constrain`) and the two kinds
of figures are reported apart.
Hand-written rather than a grammar library (outlines, lm-format-enforcer) because the rule is a copy from the
prompt, which a JSON-schema grammar does not express, and those libraries pull in dependencies for one rule.
"""

from __future__ import annotations

import re

MODES = ("none", "copy")
_CLOSING = {"key": re.compile(r'^":$'), "value": re.compile(r"""^[.!?)']*"[}\],]*$""")}
_CALL_OPEN, _CALL_CLOSE = "<tool_call>", "</tool_call>"


def token_texts(tokenizer) -> list[str]:
    """The text of every token id (special tokens as written: `<tool_call>`)."""
    return [tokenizer.decode([i], skip_special_tokens=False) for i in range(len(tokenizer))]


class CopyStrings:
    """A transformers logits processor (duck-typed: transformers calls it with input_ids and scores).

    Parameters:
        texts: each token id's text (`token_texts`, read once per tokenizer).
        prompt_len: the padded prompt length of the batch (generated tokens start there).
        pad_id: the padding token id (left padding is stripped from each row's prompt).
    """

    def __init__(self, texts: list[str], prompt_len: int, pad_id: int | None):
        self.texts = texts
        # a token that closes a string and nothing else: one quote, after a name's own final mark at most, then
        # JSON punctuation that fits the string: a key's '":', a value's '"', '"}}', '",', '"]', '."}}'; never '{"'
        self.closing = {kind: [i for i, t in enumerate(texts) if rx.match(t)] for kind, rx in _CLOSING.items()}
        self.prompt_len = prompt_len
        self.pad_id = pad_id
        self._prompts: dict[int, list[int]] = {}

    def _prompt(self, row: int, ids) -> list[int]:
        if row not in self._prompts:
            toks = ids[: self.prompt_len].tolist()
            start = 0
            while start < len(toks) and toks[start] == self.pad_id:
                start += 1
            self._prompts[row] = toks[start:]
        return self._prompts[row]

    def open_string(self, generated: list[int]) -> tuple[list[int], str] | None:
        """(the tokens written so far inside the JSON string the model is in, "key" or "value"), or None when it
        is not inside one (outside a tool call, or between strings). A string opened right after `{`, or after `,`
        inside an object, is a key."""
        start = None  # None: outside a call; -1: in a call, between strings; else the first token of the string
        kind, stack, last, escaped = "value", [], "", False
        for i, tok in enumerate(generated):
            text = self.texts[tok]
            if _CALL_CLOSE in text:
                start = None
                continue
            if _CALL_OPEN in text:
                start, stack, last = -1, [], ""
                continue
            if start is None:
                continue
            for ch in text:
                if start != -1:  # inside a string
                    if escaped:
                        escaped = False
                    elif ch == "\\":
                        escaped = True
                    elif ch == '"':
                        start, last = -1, '"'
                    continue
                if ch == '"':
                    key = last == "{" or (last == "," and stack[-1:] == ["{"])
                    start, kind = i + 1, "key" if key else "value"
                elif ch in "{[":
                    stack.append(ch)
                elif ch in "}]" and stack:
                    stack.pop()
                if not ch.isspace():
                    last = ch
        return None if start is None or start == -1 else (generated[start:], kind)

    def allowed(self, prompt: list[int], written: list[int], kind: str = "value") -> set[int]:
        """Tokens the string may go on with: first a prompt token that holds a letter or digit, then continuations
        of `written` found in the prompt (no line break, markup or quote: a string never runs into the prompt's
        next line or into `</tool_call>`), and a closing token of its kind once something is written that does
        not end with a space ("Janis " is no name)."""
        if not written:
            return {t for t in set(prompt) if any(c.isalnum() for c in self.texts[t]) and self._inline(t)}
        k = len(written)
        nxt = {prompt[j + k] for j in range(len(prompt) - k) if prompt[j : j + k] == written}
        keep = {t for t in nxt if self._inline(t) and '"' not in self.texts[t]}
        return keep if self.texts[written[-1]].isspace() and keep else keep | set(self.closing[kind])

    def _inline(self, tok: int) -> bool:
        """True for a token that can sit inside a JSON string: no line break, no chat or call markup."""
        text = self.texts[tok]
        return "\n" not in text and not (text.startswith("<") and text.endswith(">") and len(text) > 2)

    def __call__(self, input_ids, scores):
        for row in range(input_ids.shape[0]):
            ids = input_ids[row]
            got = self.open_string(ids[self.prompt_len :].tolist())
            if got is None:
                continue
            keep = self.allowed(self._prompt(row, ids), *got)
            if not keep:
                continue  # nothing in the prompt goes on from here: leave the model's choice
            mask = scores.new_full((scores.shape[1],), float("-inf"))
            idx = [i for i in keep if i < scores.shape[1]]
            mask[idx] = 0.0
            scores[row] = scores[row] + mask
        return scores
