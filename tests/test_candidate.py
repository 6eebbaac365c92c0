"""Data in flight (kg2tool.synth.candidate): candidates and shard counts round-trip through the checkpoint form,
which keeps the format of earlier versions."""

import json

from kg2tool.synth.candidate import Candidate, ShardStats


def test_candidate_checkpoint_form_round_trips():
    cand = Candidate({"messages": [], "id": "simple_3"}, "http://x/E|http://x/r", [{"id": "simple_3-wrong_tool"}])
    data = json.loads(json.dumps(cand.to_json()))
    assert data == {"messages": [], "id": "simple_3", "_split_key": "http://x/E|http://x/r",
                    "_dpo": [{"id": "simple_3-wrong_tool"}]}  # fmt: skip
    back = Candidate.from_json(data)
    assert back == cand and back.diversity_keys is None
    cand.diversity_keys = ("q", "p", None)
    assert "diversity_keys" not in json.dumps(cand.to_json())  # recomputed on resume, never saved
    cand.pos, cand.admitted = 7, True  # its place in the shard is kept; admitted by a gate is not (filtered again)
    back = Candidate.from_json(json.loads(json.dumps(cand.to_json())))
    assert back.pos == 7 and not back.admitted and back.row == cand.row


def test_late_drops_round_trip_and_can_be_taken_back():
    stats = ShardStats()
    stats.tried["2p"] += 2
    stats.drop("no_kind", "2p")
    stats.no_kind.update(["member of"])
    stats.late.append([3, "2p", "no_kind", "2p{...}", "Ada Lovelace", ["member of"]])
    back = ShardStats.from_json(json.loads(json.dumps(stats.to_json())))
    assert back == stats
    back.undrop("no_kind", "2p", ["member of"])  # the merge found the plan taken: counted as duplicate_plan
    back.drop("duplicate_plan")
    assert dict(back.dropped) == {"duplicate_plan": 1} and not back.dropped_by_shape and not back.no_kind


def test_shard_stats_are_counted_by_kind_and_round_trip():
    stats = ShardStats()
    stats.tried["2p"] += 3
    stats.drop("sampling_failed", "2p")
    stats.drop("execution_error:tie", "compare")
    stats.drop("duplicate_question")  # a diversity drop: by reason only
    flat = stats.to_json()
    assert flat == {"tried:2p": 3, "dropped:sampling_failed": 1, "dropped:execution_error:tie": 1,
                    "dropped:duplicate_question": 1, "dropped_by_shape:2p:sampling_failed": 1,
                    "dropped_by_shape:compare:execution_error:tie": 1}  # fmt: skip
    assert ShardStats.from_json(flat) == stats
    total = ShardStats()
    total.update(stats)
    total.update(stats)
    assert total.dropped["sampling_failed"] == 2 and total.dropped_by_shape[("compare", "execution_error:tie")] == 2


def test_a_shard_checkpoint_writes_each_tool_schema_once_and_reads_both_forms(tmp_path):
    """`_save_shard` writes a schema shared by rows and preference pairs once (`tools`, indices in the rows);
    `ShardStore.load` gives the same candidates back, and still reads a checkpoint with the schemas inline."""
    import gzip

    from kg2tool.synth.run.shards import ShardStore, _save_shard

    schema = {"type": "function", "function": {"name": "get_genre", "parameters": {"type": "object"}}}
    other = {"type": "function", "function": {"name": "count", "parameters": {"type": "object"}}}
    pair = {"id": "simple_3-wrong_tool", "prompt": [], "tools": [schema, other]}
    cands = [Candidate({"messages": [], "tools": [schema], "id": f"simple_{i}"}, "k", [dict(pair)]) for i in range(3)]
    stats = ShardStats()
    stats.tried["simple"] += 3
    store = ShardStore(tmp_path / "out", "fp", resume=False, overwrite=False)
    _save_shard(store.path(0), 0, cands, stats)
    data = json.loads(gzip.decompress(store.path(0).read_bytes()))
    assert data["tools"] == [schema, other] and data["rows"][0]["tools"] == [0] and data["rows"][2]["_dpo"][0]["tools"] == [0, 1]
    loaded, back = store.load(0)
    assert [c.to_json() for c in loaded] == [c.to_json() for c in cands] and back == stats
    inline = {"rows": [c.to_json() for c in cands], "stats": stats.to_json()}  # the form before the table
    store.path(1).write_bytes(gzip.compress(json.dumps(inline).encode()))
    assert [c.to_json() for c in store.load(1)[0]] == [c.to_json() for c in cands]
