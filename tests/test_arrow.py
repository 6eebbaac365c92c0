"""kg2tool.common.arrow: columns of extension types (datasets' Json) built from Python values make the table, and
the parquet bytes, that `datasets.Dataset.from_list` makes of the same rows."""

import hashlib
import json

import pytest

from kg2tool.common.arrow import column
from kg2tool.hub.dataset import encode_json, sft_features, write_parquet

ROWS = [
    {"id": "a", "messages": [{"role": "user", "content": "Wer ist é? 1.2345678901234567"}], "tools": [],
     "pattern": "1p", "category": "simple", "answers": ["x", ""], "topic_entity": "Q1", "relation_path": ["r"],
     "num_calls": 1, "num_turns": 1, "plan": {"op": "entity", "values": [1.5, None, True]}},
    {"id": "b", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": []}],
     "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}], "pattern": "2p",
     "category": "multi_step", "answers": [], "topic_entity": "Q2", "relation_path": [], "num_calls": 0,
     "num_turns": 2, "plan": None},
]  # fmt: skip


def test_the_table_is_the_one_datasets_makes(tmp_path):
    import pyarrow as pa
    from datasets import Dataset

    features = sft_features()
    json_cols = {"messages", "tools", "plan"}
    encoded = [{k: encode_json(v) if k in json_cols else v for k, v in r.items()} for r in ROWS]
    theirs = Dataset.from_list(encoded, features=features).data.table
    schema = features.arrow_schema
    ours = pa.Table.from_arrays([column([r[k] for r in encoded], schema.field(k).type) for k in features],
                                schema=schema)  # fmt: skip
    assert ours.equals(theirs) and ours.schema.equals(theirs.schema, check_metadata=True)
    assert ours.column("plan")[1].as_py() == "null" and json.loads(ours.column("plan")[0].as_py())["values"][0] == 1.5

    name = write_parquet(ROWS, tmp_path / "ours", "train", features)
    Dataset.from_list(encoded, features=features).to_parquet(str(tmp_path / "theirs.parquet"))
    digest = hashlib.sha256((tmp_path / "theirs.parquet").read_bytes()).hexdigest()[:16]
    assert name == f"train-{digest}.parquet"


def test_an_extension_type_deeper_than_list_items_is_refused():
    import pyarrow as pa

    deep = pa.list_(pa.list_(pa.json_()))
    with pytest.raises(ValueError, match="not supported"):
        column([[["{}"]]], deep)
