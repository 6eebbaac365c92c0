"""What a synthesis run is asked for (`SynthConfig`, with the default shape mix), in a module of its own: the CLI
builds its flags from the dataclass without importing the synthesizer (`kg2tool.common.options`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ...common.toolstyle import ToolStyle
from ..paraphrase.config import ParaphraseConfig
from ..walk.config import WalkConfig

DEFAULT_MIX = {
    "simple": 1.0, "multiple": 1.0, "parallel": 1.0, "parallel_multiple": 1.0, "irrelevance": 0.8,
    "2p": 1.0, "3p": 0.1, "2i": 1.0, "3i": 0.3, "2u": 0.5, "2in": 0.6, "co": 0.8, "count": 0.8, "compare": 0.8,
    "followup": 0.6, "missing_info": 0.3, "error_recovery": 0.6,
    # Set operations nested with a chain: blind readers accepted 1 of 101 such questions (README, "How natural,
    # measured blind"): off by default, on with --mix (e.g. "pi=0.7"). Three-hop chains and three stacked
    # conditions, accepted less often than one or two steps, are kept at lower weights: multi-step training needs them.
    "ip": 0.0, "pi": 0.0, "up": 0.0, "3in": 0.0, "inp": 0.0, "pin": 0.0, "pni": 0.0, "cop": 0.0,
}  # fmt: skip


@dataclass
class SynthConfig:
    """Parameters:
    n: number of conversations to write (all splits together).
    seed: random seed; the same graph, config and seed give byte-identical data.
    mix: relative weight per shape (shapes left out get weight 0); see `kg2tool.synth.walk.walker.ALL_SHAPES`.
    splits: fractions for train/validation/test (assigned by topic entity and relation path).
    min_support: a relation or attribute needs this many facts to get tools.
    max_distractors: at most this many extra tools offered beside the needed ones (`multiple` has at least 2).
    near_dup_threshold: drop questions whose word-3-gram Jaccard similarity (MinHash) with a kept one reaches
        this (0 disables); exact duplicate questions and duplicate plans are always dropped.
    max_per_topic: at most this many conversations per topic entity (0: no cap).
    shard_size: candidates per shard (the unit of seeding and, later, of parallel work and resume).
    max_shards: stop after this many shards even if fewer than n rows were kept.
    walk: walker bounds (answer-set sizes, fan-out, inverse probability).
    lexicon: a `lexicon.yaml` (as written beside the dataset) whose entries replace the derived wording of
        relations and attributes; "" uses the derived lexicon (see `kg2tool.synth.language.lexicon`).
    max_words: questions of this many words or more (a plan too deep to say readably) are dropped
        (`too_long_to_say`); parallel questions may use twice as many.
    paraphrase: rewriting questions with a language model (off unless `paraphrase.model` is set); see
        `kg2tool.synth.paraphrase.config.ParaphraseConfig`.
    fold: fold reified n-ary nodes (film roles, award records) into relations between their participants when the
        graph is loaded (`kg2tool.graph.reify`); `--no-fold` sets it false.
    tool_style: `values` (tools take and return whole lists of names), `refs` (multi_step rows: set results are
        kept under handles r1, r2, ... and passed on by handle, and the walker's set bounds are lifted) or `batch`
        (multi_step rows: a lookup takes a list, so a fan-out is one call over up to `max_set` entities); see
        `kg2tool.synth.tools.refs`. Single-call rows and multi-turn dialogues stay in the values style. Kept as
        the style's name (as the config file and the dataset's kg2tool_config.yaml write it); `style` is the
        `kg2tool.common.toolstyle.ToolStyle` it names.
    ref_items: names a ref shows (`"items"`); a larger answer set is stated as its count and these names.
    """

    n: int = 2000
    seed: int = 0
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    splits: tuple[float, float, float] = (0.8, 0.1, 0.1)
    min_support: int = 5
    max_distractors: int = 3
    near_dup_threshold: float = 0.9
    max_per_topic: int = 25
    shard_size: int = 256
    max_shards: int = 10_000
    walk: WalkConfig = field(default_factory=WalkConfig)
    lexicon: str = ""
    max_words: int = 30
    paraphrase: ParaphraseConfig = field(default_factory=ParaphraseConfig)
    fold: bool = True
    tool_style: str = field(default=ToolStyle.VALUES.value, metadata={"choices": ToolStyle.choices()})
    ref_items: int = 5

    def to_dict(self) -> dict:
        """The config as plain data (for the report, the card and the run's fingerprint)."""
        return asdict(self)

    @property
    def style(self) -> ToolStyle:
        """`tool_style` as a ToolStyle: where the name becomes the object (a UsageError naming tool_style and the
        allowed names if it names none)."""
        return ToolStyle.parse(self.tool_style, where="tool_style")
