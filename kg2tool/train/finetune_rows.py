"""The training rows of the SFT and DPO stages: the dataset's splits with the columns the trainer needs, extra
datasets mixed in, and the rows kg2tool adds for SFT (random-name conversations, first-turn and later-turn cuts)
or selects for DPO (rejection types, balanced).

Every draw is seeded with the run's `seed`, so the same dataset and flags give the same rows in the same order.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from ..common.errors import InputError
from .finetune import RunSetup


def short_run_share(setup: RunSetup, base_rows: int, limit: int | None) -> float:
    """The share of every part of the training mix a short run prepares: `limit` (the rows it can draw) over all
    rows the mix would have (dataset rows + random-name + first-turn + later-turn rows), or 1 when it can use them
    all. Cutting each part by the same share keeps the mix's proportions."""
    extra = setup.extra
    total = base_rows + extra.random_name_rows + extra.first_turn_rows + extra.later_turn_rows
    if not limit or limit >= total:
        return 1.0
    return limit / total


def _share(n: int, share: float) -> int:
    return n if share >= 1 else min(n, math.ceil(n * share))


def load_rows(setup: RunSetup, columns: list[str], limit: int | None = None):
    """The training and evaluation splits with only `columns`; `extra_dataset_name` rows mixed into train.

    `limit` (SFT: the rows a `--max_steps` run can draw) makes a short run prepare only its share of each part of
    the mix (`short_run_share`) instead of generating thousands of rows it cannot use. Returns
    `(train, evaluation or None, the main dataset's DatasetDict)`.

    Long because the mix's parts (main rows, extra dataset, short-run shares) are trimmed together.
    """
    import datasets

    script, extra = setup.script, setup.extra
    by_type = bool(extra.rejection_types or extra.balance_rejection_types) and "chosen" in columns
    if by_type:
        columns = [*columns, "rejection_type"]
    names = [script.dataset_name, *extra.extra_dataset_name]
    for name in names:
        local = Path(name)
        if (name.startswith((".", "/")) or local.exists()) and not local.is_dir():
            raise InputError(f"dataset folder not found: {name}")
    loaded = []
    for name in names:
        try:
            loaded.append(datasets.load_dataset(name, script.dataset_config))
        except (FileNotFoundError, ValueError) as exc:
            raise InputError(f"cannot load dataset {name} (config {script.dataset_config!r}): {exc}") from exc
    for name, ds in zip(names, loaded):
        missing = [c for c in columns if c not in ds[script.dataset_train_split].column_names]
        if missing:
            raise InputError(
                f"dataset {name} (config {script.dataset_config!r}) has no column(s) {', '.join(missing)}; "
                f"it has {', '.join(ds[script.dataset_train_split].column_names)}"
            )

    def keep(split):
        return split.select_columns([c for c in columns if c in split.column_names])

    train_parts = [keep(ds[script.dataset_train_split]) for ds in loaded]
    seed = setup.training.seed
    share = short_run_share(setup, sum(len(p) for p in train_parts), limit) if "messages" in columns else 1.0
    if share < 1:
        train_parts = [p.shuffle(seed=seed).select(range(_share(len(p), share))) for p in train_parts]
        print(f"sft: --max_steps {setup.training.max_steps} draws at most {limit:,} rows: preparing "
              f"{share:.2%} of each part of the training mix", flush=True)  # fmt: skip
    if extra.random_name_rows > 0 and "messages" in columns:
        train_parts.append(random_name_split(setup, train_parts[0].features, _share(extra.random_name_rows, share)))
    train = datasets.concatenate_datasets(train_parts) if len(train_parts) > 1 else train_parts[0]
    pool = train
    if extra.first_turn_rows > 0 and "messages" in columns:
        n = _share(extra.first_turn_rows, share)
        train_parts.append(first_turn_split(pool, n, seed, extra.first_turn_no_tools, extra.typed_names))
    if extra.later_turn_rows > 0 and "messages" in columns:
        train_parts.append(later_turn_split(pool, _share(extra.later_turn_rows, share), seed))
    if len(train_parts) > 1:
        train = datasets.concatenate_datasets(train_parts).shuffle(seed=setup.training.seed)
    if by_type:
        train = order_by_rejection_type(train, extra.rejection_types, extra.balance_rejection_types, setup.training.seed)
    if extra.max_train_samples and len(train) > extra.max_train_samples:
        train = train.select(range(extra.max_train_samples))
    main = loaded[0]
    test_split = script.dataset_test_split
    evaluation = keep(main[test_split]) if test_split in main else None
    if by_type and evaluation is not None:
        evaluation = evaluation.remove_columns("rejection_type")
    return train, evaluation, main


def order_by_rejection_type(train, types: list[str], balance: bool, seed: int):
    """The DPO pairs of `types` (all when empty), without the `rejection_type` column; with `balance`, every type
    cut to the count of the rarest one (a seeded draw; the rows keep their order)."""
    kinds = train["rejection_type"]
    wanted = set(types) if types else set(kinds)
    groups: dict[str, list[int]] = {}
    for i, kind in enumerate(kinds):
        if kind in wanted:
            groups.setdefault(kind, []).append(i)
    if not groups:
        raise InputError(f"--rejection_types {' '.join(types)}: no training pair has these types")
    if balance:
        rng = random.Random(f"rejection-types:{seed}")
        n = min(map(len, groups.values()))
        groups = {kind: sorted(rng.sample(groups[kind], n)) for kind in sorted(groups)}
    order = sorted(i for g in groups.values() for i in g)
    counts = ", ".join(f"{k} {len(v):,}" for k, v in sorted(groups.items()))
    print(f"dpo: {len(order):,} preference pairs ({counts})", flush=True)
    return train.select(order).remove_columns("rejection_type")


def _dataset_graphs(setup: RunSetup, flag: str) -> list[str]:
    """`random_name_graph`, else the graph files recorded in the dataset's validation_report.json; `flag` names
    the option that needs them in the error."""
    from ..hub.dataset import recorded_graph_files

    graphs = list(setup.extra.random_name_graph) or recorded_graph_files(Path(setup.script.dataset_name))
    missing = [g for g in graphs if not Path(g).is_file()]
    if not graphs or missing:
        raise InputError(
            f"{flag} needs the dataset's graph: give --random_name_graph FILE"
            + (f" ({', '.join(missing)} not found)" if missing else "")
        )
    return graphs


def graph_names(setup: RunSetup) -> list[str]:
    """Entity names of the dataset's graph (`--copy_pool names`)."""
    from ..graph.build import load_graph

    graphs = _dataset_graphs(setup, "--copy_pool names")
    return list(load_graph(graphs, lang=setup.lang, predicates=_rules(setup)).entity_names())


def _rules(setup: RunSetup):
    """The predicate rules the dataset was made with (`kg2tool.common.config.recorded_*`), when its graph is used."""
    from ..common.config import recorded_fold, recorded_predicates
    from ..graph.model import PredicateRules

    if setup.extra.random_name_graph:  # a graph of the user's choice: the default rules
        return None
    folder = Path(setup.script.dataset_name)
    include, exclude = recorded_predicates(folder)
    return PredicateRules(frozenset(include), frozenset(exclude), fold=recorded_fold(folder))


def random_name_split(setup: RunSetup, features, n: int | None = None):
    """`n` (default `random_name_rows`) synth conversations over renamed copies of the graph, as a Dataset with
    `features`."""
    import datasets

    from ..graph.build import load_graph
    from ..hub.dataset import encode_json
    from .copy_data import random_name_rows

    extra = setup.extra
    graphs = _dataset_graphs(setup, "--random_name_rows")
    kg = load_graph(graphs, lang=setup.lang, predicates=_rules(setup))
    rows = random_name_rows(kg, extra.random_name_rows if n is None else n, seed=setup.training.seed)
    print(f"sft: {len(rows):,} random-name conversations over renamed copies of {', '.join(graphs)}", flush=True)

    cols = list(features)
    return datasets.Dataset.from_list([{k: encode_json(r[k]) for k in cols} for r in rows], features=features)


def _draw(pool: list[int], n: int, rng: random.Random) -> list[int]:
    """`n` items of `pool` in a seeded order: every item once per pass, passes repeated until `n` are drawn."""
    order: list[int] = []
    while len(order) < n:
        block = list(pool)
        rng.shuffle(block)
        order.extend(block[: n - len(order)])
    return order


def typed_form(name: str) -> str:
    """A name as people type it into a search box: lower case, no accents, no punctuation, single spaces
    ("Émile Zola" -> "emile zola", "George A. Romero" -> "george a romero"). The executor's lenient name lookup
    (`kg2tool.graph.names.normalize_name`) resolves it to the same node."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in plain).split())


def type_names(messages: list[dict], rng: random.Random) -> list[dict] | None:
    """`messages` (a question and its first call turn) with every string argument that the question spells out
    written as typed (`typed_form`) in both; half of them with the whole question in lower case and without its
    final question mark. None when no argument is spelt out in the question or typing changes none."""
    user = next((i for i, m in enumerate(messages) if m.get("role") == "user"), None)
    call = messages[-1]
    if user is None or not call.get("tool_calls"):
        return None
    question = messages[user].get("content") or ""
    typed: dict[str, str] = {}
    for tool_call in call["tool_calls"]:
        for value in _strings((tool_call.get("function") or tool_call).get("arguments")):
            if value in question and typed_form(value) and typed_form(value) != value:
                typed[value] = typed_form(value)
    if not typed:
        return None
    for value in sorted(typed, key=len, reverse=True):
        question = question.replace(value, typed[value])
    if rng.random() < 0.5:
        question = question.lower().rstrip().rstrip("?").rstrip()
    out = [dict(m) for m in messages]
    out[user]["content"] = question
    calls = []
    for tool_call in call["tool_calls"]:
        inner = tool_call.get("function") or tool_call
        renamed = dict(inner, arguments=_retyped(inner.get("arguments"), typed))
        calls.append(dict(tool_call, function=renamed) if "function" in tool_call else renamed)
    out[-1]["tool_calls"] = calls
    return out


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _retyped(value, typed: dict[str, str]):
    if isinstance(value, str):
        return typed.get(value, value)
    if isinstance(value, dict):
        return {k: _retyped(v, typed) for k, v in value.items()}
    if isinstance(value, list):
        return [_retyped(v, typed) for v in value]
    return value


def first_turn_split(train, n: int, seed: int, no_tools: float = 0.0, typed_names: float = 0.0):
    """`n` rows of `train` (drawn without replacement while they last, seeded) cut after their first assistant
    message, as a Dataset with `train`'s features; a `no_tools` share of those that answer with a tool call lose
    their tool listing, a `typed_names` share has its names written as people type them (`type_names`). Rows
    whose first assistant message is not trained (`"weight": 0`: an error-recovery row's call that is wrong on
    purpose) are not drawn: cut there, they would have nothing to learn from."""
    import datasets

    from ..hub.dataset import encode_json
    from .corpus import first_turn

    rng = random.Random(f"first-turn:{seed}")
    rng_typed = random.Random(f"typed-names:{seed}")  # its own stream: the other draws stay as without it
    trained = [
        i for i, messages in enumerate(train["messages"])
        if next((m for m in messages if m.get("role") == "assistant"), {}).get("weight", 1) != 0
    ]  # fmt: skip
    order = _draw(trained, n, rng) if trained else []
    cols = list(train.features)
    rows = []
    for row in train.select(order):
        kept = first_turn(row["messages"])
        if kept[-1].get("role") != "assistant":  # no assistant message
            continue
        cut = dict(row, messages=kept)
        if typed_names and kept[-1].get("tool_calls") and rng_typed.random() < typed_names:
            cut["messages"] = type_names(kept, rng_typed) or kept
        if no_tools and kept[-1].get("tool_calls") and "tools" in cut and rng.random() < no_tools:
            cut["tools"] = []
        rows.append({k: encode_json(cut[k]) for k in cols})
    print(f"sft: {len(rows):,} first-turn-only copies of training conversations", flush=True)
    return datasets.Dataset.from_list(rows, features=train.features)


def later_turn_split(train, n: int, seed: int):
    """`n` copies of `train`'s rows with two or more call turns (a seeded draw, without replacement while they
    last), each cut after one of its assistant messages other than the first (drawn with the same seed), as a
    Dataset with `train`'s features."""
    import datasets

    from ..hub.dataset import encode_json

    rng = random.Random(f"later-turn:{seed}")
    cuts: dict[int, list[int]] = {}
    for i, messages in enumerate(train["messages"]):
        turns = [j for j, m in enumerate(messages) if m.get("role") == "assistant"]
        if sum(bool(messages[j].get("tool_calls")) for j in turns) >= 2:  # two call turns or more
            cuts[i] = turns[1:]
    if not cuts:
        print("sft: no multi-step training conversations: no later-turn copies", flush=True)
        return datasets.Dataset.from_list([], features=train.features)
    order = _draw(sorted(cuts), n, rng)
    cols = list(train.features)
    rows = []
    for i, row in zip(order, train.select(order), strict=True):
        end = rng.choice(cuts[i])
        rows.append({k: encode_json(dict(row, messages=row["messages"][: end + 1])[k]) for k in cols})
    print(f"sft: {len(rows):,} copies of multi-step conversations cut after a later turn", flush=True)
    return datasets.Dataset.from_list(rows, features=train.features)
