"""How a set of entities travels between tool calls in a dataset's `multi_step` rows (`kg2tool synth --tool-style`).

- `values` (the default): tools take and return whole lists of names, one lookup per entity.
- `refs`: a set result is kept under a per-conversation handle (r1, r2, ...) that later calls pass; a ref shows only
  its first few names (`kg2tool.synth.tools.refs.RefToolSet`).
- `batch`: a lookup takes a list of entities, so a fan-out is one call (`kg2tool.synth.tools.refs.BatchToolSet`).

The config file, the dataset's `kg2tool_config.yaml` and its `validation_report.json` keep the style as its name
(`SynthConfig.tool_style`); `ToolStyle.parse` turns that name into a `ToolStyle` and is the one place it is checked.
Everything else asks the object what the style does (`passes_handles`, `batches_lookups`, `has_own_tools`) instead
of comparing names.
"""

from __future__ import annotations

from enum import Enum

from .errors import Kg2ToolError, UsageError


class ToolStyle(Enum):
    """One tool style; `ToolStyle.parse(name, where=...)` from a flag, a config field or a recorded dataset."""

    VALUES = "values"
    REFS = "refs"
    BATCH = "batch"

    @property
    def passes_handles(self) -> bool:
        """Set results are kept under per-conversation handles and passed on by handle (refs); a ref shows only its
        first few names, so a larger answer is stated as its count and those names."""
        return self is ToolStyle.REFS

    @property
    def batches_lookups(self) -> bool:
        """A lookup takes a list of entities and answers for all of them in one call (batch)."""
        return self is ToolStyle.BATCH

    @property
    def has_own_tools(self) -> bool:
        """The multi_step rows are made (and executed, and judged) with this style's own tool set, not the plain
        values tools that the other rows use (refs and batch)."""
        return self is not ToolStyle.VALUES

    @classmethod
    def choices(cls) -> tuple[str, ...]:
        """The styles' names, in order (argparse `choices`)."""
        return tuple(s.value for s in cls)

    @classmethod
    def parse(cls, text: object, where: str = "tool_style", error: type[Kg2ToolError] = UsageError) -> ToolStyle:
        """The style named `text`; otherwise `error` (a UsageError unless the caller reads a file, say) naming
        `where` (the flag or field the name came from) and the allowed names."""
        if isinstance(text, cls):
            return text
        for style in cls:
            if text == style.value:
                return style
        *first, last = cls.choices()
        raise error(f"{where}: expected {', '.join(first)} or {last}, got {text!r}")

    def __str__(self) -> str:
        return self.value
