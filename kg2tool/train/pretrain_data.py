"""Pretraining data and model: the corpus (verbalized facts, random-name tool-call conversations, synth and text
documents), the tokenizer trained on it, the packed blocks and the copy pool, all written to
`output_dir/prepared/` once (a resumed run reuses them, so resume is exact: same tokenizer, same blocks, same
order); and the freshly initialized MoE sized to the tokenizer.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..common.errors import InputError, UsageError
from .copy_task import argument_strings, name_token_pool
from .corpus import CorpusConfig, CorpusStats, build_documents, load_synth_rows, pack, pack_documents, read_text_files
from .pretrain_config import PretrainConfig
from .tokenizer import TokenizerConfig, name_consistency, tokens_per_name, train_tokenizer

logger = logging.getLogger("kg2tool.pretrain")


def load_kg(config: PretrainConfig):
    """The graph of `config.graph` (None when no graph is given)."""
    if not config.graph:
        return None
    from ..graph.build import load_graph

    return load_graph(config.graph, lang=config.lang)


def prepare_data(config: PretrainConfig, prepared: Path):
    """Build (or reuse) the tokenizer and packed blocks under `prepared/`. Returns `(tokenizer, dataset, stats)`.

    Long because building and reusing the prepared data share their checks (the tokenizer, the blocks, the
    stats), one after the other.
    """
    import datasets
    from tokenizers import Tokenizer, models
    from transformers import AutoTokenizer

    from .tokenizer import wrap_tokenizer

    if (prepared / "blocks").exists() and (prepared / "tokenizer").exists():
        logger.info("reusing prepared data in %s", prepared)
        tokenizer = AutoTokenizer.from_pretrained(prepared / "tokenizer")
        blocks = datasets.load_from_disk(str(prepared / "blocks"))
        stats = json.loads((prepared / "stats.json").read_text())
        if (prepared / "copy_pool.json").exists():
            stats["copy_pool"] = json.loads((prepared / "copy_pool.json").read_text())
        return tokenizer, blocks, stats

    t0 = time.time()
    kg = load_kg(config)
    rows: list[dict[str, Any]] = []
    for path in config.dataset_name:
        rows.extend(load_synth_rows(path, config.dataset_config, config.dataset_split))
    text_docs = read_text_files(config.text_files)
    if kg is None and not rows and not text_docs:
        raise UsageError("no corpus: give --graph, --dataset_name and/or --text_files")
    corpus_cfg = CorpusConfig(
        fact_passes=config.fact_passes,
        synthetic_fraction=config.synthetic_fraction,
        synthetic_tools_share=config.synthetic_tools_share,
        synthetic_first_turns=config.synthetic_first_turns,
        max_synthetic=config.max_synthetic,
        dataset_repeats=config.dataset_repeats,
        seed=config.seed,
    )
    renderer = wrap_tokenizer(Tokenizer(models.BPE()), config.tool_format)  # renders the template; no vocabulary
    cstats = CorpusStats()
    docs = build_documents(kg, renderer, corpus_cfg, rows, text_docs, cstats)
    names = kg.entity_names() if kg is not None else []
    t1 = time.time()
    if config.tokenizer_name_or_path:
        tokenizer = AutoTokenizer.from_pretrained(config.tokenizer_name_or_path)
        if not tokenizer.chat_template:
            raise InputError(f"tokenizer {config.tokenizer_name_or_path} has no chat template")
    else:
        tok_cfg = TokenizerConfig(
            vocab_size=config.vocab_size,
            name_repeats=config.name_repeats,
            tool_format=config.tool_format,
            pretokenizer=config.pretokenizer,
        )
        tokenizer = train_tokenizer(docs, names, tok_cfg)
    t2 = time.time()
    if config.document_packing:
        columns = pack_documents(docs, tokenizer, config.max_length, cstats)
    else:
        columns = {"input_ids": pack(docs, tokenizer, config.max_length, cstats)}
    if not columns["input_ids"]:
        raise InputError(f"the corpus has fewer than max_length={config.max_length} tokens")
    dataset = datasets.Dataset.from_dict(columns)
    # token ids of entity names and call arguments: what the copy task draws its segments from
    pool = name_token_pool(tokenizer, list(names) + argument_strings(rows))
    sample = names[:2000]
    stats = {
        **asdict(cstats),
        "vocab_size": len(tokenizer),
        "tokens_per_name": round(tokens_per_name(tokenizer, sample), 3),
        "name_consistency": round(name_consistency(tokenizer, sample), 4),
        "seconds": {"corpus": round(t1 - t0, 1), "tokenizer": round(t2 - t1, 1), "pack": round(time.time() - t2, 1)},
    }
    stats["copy_pool_size"] = len(pool)
    if config.should_save:
        from ..common.files import atomic_path

        with atomic_path(prepared, folder=True) as tmp:
            tokenizer.save_pretrained(tmp / "tokenizer")
            dataset.save_to_disk(str(tmp / "blocks"))
            (tmp / "stats.json").write_text(json.dumps(stats, indent=2))
            (tmp / "copy_pool.json").write_text(json.dumps(pool))
        dataset = datasets.load_from_disk(str(prepared / "blocks"))
    stats["copy_pool"] = pool
    return tokenizer, dataset, stats


def build_model(config: PretrainConfig, tokenizer):
    """A freshly initialized qwen2_moe for the preset, sized to the tokenizer. Returns `(model, preset)`."""
    from transformers import AutoModelForCausalLM, set_seed

    preset = config.preset().with_overrides(vocab_size=len(tokenizer))
    model_config = preset.to_config(
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
        max_position_embeddings=max(preset.max_position_embeddings, config.max_length),
    )
    set_seed(config.seed)
    model = AutoModelForCausalLM.from_config(model_config)
    gen = model.generation_config
    gen.eos_token_id = [tokenizer.eos_token_id, tokenizer.pad_token_id]
    gen.pad_token_id = tokenizer.pad_token_id
    gen.bos_token_id = None
    return model, preset
