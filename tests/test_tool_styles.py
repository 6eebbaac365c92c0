"""Tool styles (`kg2tool synth --tool-style values|refs|batch`): the refs style's handles, the batch style's list
lookups, their synthesized rows (checked by tests/checks.py's own re-execution), hub questions, the dataset
folder's record of the style, and the eval loop on refs and batch datasets."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from checks import check_pair, check_row
from conftest import EXAMPLE, ROOT

from kg2tool.cli import main
from kg2tool.common.errors import InputError, UsageError
from kg2tool.common.toolstyle import ToolStyle
from kg2tool.graph.build import load_graph
from kg2tool.synth.checks.verify import verify_row
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer
from kg2tool.synth.tools.refs import BatchToolSet, RefToolSet, big_sets
from kg2tool.synth.tools.toolset import ToolError, ToolSet

SWAPI = ROOT / "tests" / "data" / "real" / "swapi-starwars.ttl.gz"


def ref_rows(rows: list[dict]) -> list[dict]:
    return [r for r in rows if any(m["role"] == "tool" and m["content"].startswith('{"ref"') for m in r["messages"])]


def handles(row: dict) -> list[str]:
    """The handles of a row's tool messages, in order."""
    out = []
    for m in row["messages"]:
        if m["role"] == "tool" and m["content"].startswith('{"ref"'):
            out.append(json.loads(m["content"])["ref"])
    return out


@pytest.fixture(scope="module")
def wiki_ts():
    return ToolSet.from_graph(load_graph([EXAMPLE]))


def test_refs_executor_keeps_handles_per_conversation(wiki_ts):
    refs = RefToolSet(wiki_ts, k=3)
    drama = refs.execute("find_by_occupation", {"value": "television director"})
    assert drama["ref"] == "r1" and drama["count"] > 3 and len(drama["items"]) == 3
    full = wiki_ts.execute("find_by_occupation", {"value": "television director"})
    assert drama["items"] == full[:3] and drama["count"] == len(full)
    assert refs.execute("count", {"items": "r1"}) == len(full)
    # a ref fans out inside a lookup: one ref for the union of the lookups of its names
    fanned = refs.execute("get_occupation", {"entity": "r1"})
    union = sorted({o for p in full for o in wiki_ts.execute("get_occupation", {"entity": p})})
    assert fanned["ref"] == "r2" and fanned["count"] == len(union) and fanned["items"] == union[:3]
    assert refs.execute("difference", {"include": "r1", "exclude": full[:1]})["count"] == len(full) - 1
    twin = refs.fork()  # another conversation: its own table, from r1
    with pytest.raises(ToolError, match=r"no result 'r2' in this conversation \(refs: none yet\)"):
        twin.execute("count", {"items": "r2"})
    assert twin.execute("find_by_occupation", {"value": "television director"})["ref"] == "r1"
    with pytest.raises(ToolError, match=r"get_occupation: no result 'r9' in this conversation \(refs: r1, r2, r3\)"):
        refs.execute("get_occupation", {"entity": "r9"})
    refs.begin()
    with pytest.raises(ToolError, match="no result 'r1'"):
        refs.execute("intersection", {"sets": ["r1", full]})
    with pytest.raises(ToolError, match="invalid argument"):
        refs.execute("count", {"items": "Alan Arkin"})  # neither a list nor a ref


@pytest.mark.parametrize("graph", [EXAMPLE, SWAPI], ids=["wiki", "swapi"])
def test_refs_rows_pass_the_independent_checker(graph):
    kg = load_graph([graph])
    synth = Synthesizer(kg, SynthConfig(shard_size=96, tool_style="refs", min_support=3))
    rows, _ = synth.shard(0)
    fresh = ToolSet.from_graph(load_graph([graph]), min_support=3)  # the values executor, built anew
    assert all(check_row(r, fresh) == [] for r in rows), [(r["id"], p) for r in rows if (p := check_row(r, fresh))][:3]
    refs = ref_rows(rows)
    assert len(refs) >= 20 and {r["category"] for r in refs} == {"multi_step"}
    for r in refs:  # handles r1, r2, ... in the order the conversation shows them
        assert handles(r) == [f"r{i + 1}" for i in range(len(handles(r)))], r["messages"]
    # single-call rows stay in the values style (BFCL's checker scores them)
    plain = [r for r in rows if r["category"] in ("simple", "multiple", "parallel", "parallel_multiple")]
    assert plain and not ref_rows(plain)
    assert all(t == synth.ts.specs[t["function"]["name"]].schema for r in plain for t in r["tools"])
    # the same seed gives the same rows and handles
    again, _ = Synthesizer(load_graph([graph]), SynthConfig(shard_size=96, tool_style="refs", min_support=3)).shard(0)
    assert again == rows


def list_lookups(row: dict) -> list[dict]:
    """The lookups of a row given a list of names (the batch style)."""
    calls = [c["function"] for m in row["messages"] for c in m.get("tool_calls") or []]
    return [f for f in calls if isinstance(f["arguments"].get("entity", f["arguments"].get("value")), list)]


def test_batch_executor_looks_up_lists(wiki_ts):
    batch = BatchToolSet(wiki_ts)
    people = wiki_ts.execute("find_by_occupation", {"value": "television director"})[:4]
    each = {p: wiki_ts.execute("get_occupation", {"entity": p}) for p in people}
    assert batch.execute("get_occupation", {"entity": people}) == sorted({o for v in each.values() for o in v})
    assert batch.execute("get_occupation", {"entity": people, "per_entity": True}) == each
    assert batch.execute("get_occupation", {"entity": people[0]}) == each[people[0]]  # one name: as before
    with pytest.raises(ToolError, match="invalid argument entity"):
        batch.execute("get_occupation", {"entity": []})
    with pytest.raises(ToolError, match="no entity named 'Nobody Atall'"):
        batch.execute("get_occupation", {"entity": [people[0], "Nobody Atall"]})


@pytest.mark.parametrize("graph", [EXAMPLE, SWAPI], ids=["wiki", "swapi"])
def test_batch_rows_pass_the_independent_checker(graph):
    fans_out = {**SynthConfig().mix, "ip": 0.7, "up": 0.6, "cop": 0.5}  # the default mix and the nested fan-outs
    synth = Synthesizer(load_graph([graph]), SynthConfig(shard_size=96, tool_style="batch", min_support=3, mix=fans_out))
    rows, _ = synth.shard(0)
    fresh = ToolSet.from_graph(load_graph([graph]), min_support=3)
    assert all(check_row(r, fresh) == [] for r in rows), [(r["id"], p) for r in rows if (p := check_row(r, fresh))][:3]
    batched = [r for r in rows if r["pattern"] != "error_recovery" and list_lookups(r)]  # not its wrong-type call
    assert len(batched) >= 5 and {r["category"] for r in batched} == {"multi_step"}
    assert not ref_rows(rows)
    for r in batched:  # a set is looked up in one call: no union of one-name lookups follows
        assert all(len(f["arguments"].get("entity", f["arguments"].get("value"))) >= 2 for f in list_lookups(r))


def _args(row: dict) -> str:
    return json.dumps([c["function"]["arguments"] for m in row["messages"] for c in m.get("tool_calls") or []])


def _cut(row: dict) -> bool:
    """True when the row's last result is a ref that shows only some of its names."""
    last = json.loads(next(m for m in reversed(row["messages"]) if m["role"] == "tool")["content"])
    return isinstance(last, dict) and last["count"] > len(last["items"])


def test_checks_and_verify_catch_a_wrong_handle_or_a_missing_count(wiki_ts):
    synth = Synthesizer(load_graph([EXAMPLE]), SynthConfig(shard_size=64, tool_style="refs"))
    rows = ref_rows(synth.shard(0)[0])
    row = next(r for r in rows if '"r2"' in _args(r))
    bad = copy.deepcopy(row)
    for m in bad["messages"]:  # point every call that passes r2 at r1 instead
        for c in m.get("tool_calls") or []:
            c["function"]["arguments"] = json.loads(json.dumps(c["function"]["arguments"]).replace('"r2"', '"r1"'))
    assert check_row(row, wiki_ts) == [] and check_row(bad, wiki_ts) != []
    assert verify_row(synth.ref_ts, bad["messages"], bad["tools"], bad["answers"], "multi_step") is not None
    cut = copy.deepcopy(next(r for r in rows if _cut(r)))  # a final answer without the count of a cut ref
    cut["messages"][-1]["content"] = ", ".join(cut["answers"])
    assert any("count of a cut ref" in p for p in check_row(cut, wiki_ts))
    assert verify_row(synth.ref_ts, cut["messages"], cut["tools"], cut["answers"], "multi_step") == "answer_not_stated"


def hub_graph(path: Path) -> Path:
    """Films with a director and genres: 150 of 170 films are dramas (a hub), the rest comedies or westerns."""
    lines = ["@prefix ex: <http://example.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             'ex:genre rdfs:label "genre"@en .', 'ex:director rdfs:label "director"@en .',
             'ex:Drama rdfs:label "drama"@en .', 'ex:Comedy rdfs:label "comedy"@en .',
             'ex:Western rdfs:label "western"@en .']  # fmt: skip
    for d in range(12):
        lines.append(f'ex:D{d} rdfs:label "Director {d}"@en .')
    for i in range(170):
        genre = "ex:Drama" if i < 150 else ("ex:Comedy" if i % 2 else "ex:Western")
        extra = ", ex:Comedy" if i % 10 == 0 else ""
        lines.append(f'ex:F{i} rdfs:label "Film {i:03d}"@en ; ex:genre {genre}{extra} ; ex:director ex:D{i % 12} .')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_hub_questions_are_asked_with_refs(tmp_path):
    graph = hub_graph(tmp_path / "hub.ttl")
    only = {s: 1.0 if s in ("2p", "count", "2i", "2in") else 0.0 for s in SynthConfig().mix}
    synth = Synthesizer(load_graph([graph]), SynthConfig(shard_size=96, tool_style="refs", mix=only))
    rows, _ = synth.shard(0)
    fresh = ToolSet.from_graph(load_graph([graph]))
    assert rows and all(check_row(r, fresh) == [] for r in rows)
    hub = [r for r in rows if big_sets(r)]
    assert hub, "no row passes the 150 dramas"
    counted = [r for r in hub if r["pattern"] == "count" and r["answers"] in (["150"], ["165"])]
    listed = [r for r in hub if r["pattern"] != "count" and len(r["answers"]) == 5]
    assert counted or listed
    for r in listed:  # a big answer: its count and the five names the ref shows
        assert "in all; among them:" in r["messages"][-1]["content"]
    # the values style never asks them: no list it passes or answers is above its bounds
    values, _ = Synthesizer(load_graph([graph]), SynthConfig(shard_size=96, mix=only)).shard(0)
    assert not any(big_sets(r) for r in values) and all(len(r["answers"]) <= 8 for r in values)
    for r in values:
        for m in r["messages"]:
            for c in m.get("tool_calls") or []:
                lists = [v for v in c["function"]["arguments"].values() if isinstance(v, list)]
                assert all(len(x) <= 30 for v in lists for x in (v if v and isinstance(v[0], list) else [v]))


@pytest.mark.parametrize("style", ["refs", "batch"])
def test_dataset_records_its_style_and_gold_scores_100(tmp_path, style):
    out = tmp_path / style
    argv = ["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "300", "--tool-style", style, "--no-progress",
            "--mix", "2p=3,up=0.6"]  # chains that fan out, so a batch lookup or a handle reaches the eval's rows
    assert main(argv) == 0
    report = json.loads((out / "validation_report.json").read_text())
    assert report["tool_style"]["style"] == style
    assert style == "batch" or report["tool_style"]["rows_with_a_set_over_100"] > 0
    assert f"tool_style: {style}" in (out / "kg2tool_config.yaml").read_text()
    assert f"## Tool style: {style}" in (out / "README.md").read_text()
    bfcl = sorted((out / "bfcl").glob("BFCL_v4_*.json"))  # the categories the test split happens to hold
    assert bfcl
    for line in (ln for f in bfcl for ln in f.read_text().splitlines()):
        assert not re.search(r"\bref\b", json.dumps(json.loads(line)["function"]))  # BFCL files keep plain lists
    ev = tmp_path / "eval"
    assert main(["eval", "--data", str(out), "--graph", str(EXAMPLE), "--out", str(ev), "--model", "gold",
                 "--no-plot"]) == 0  # fmt: skip
    summary = json.loads((ev / "summary.json").read_text())
    assert summary["multi_step_exec"] == 1.0 and summary["exec_call_validity"] == 1.0
    results = [json.loads(x) for x in (ev / "results.jsonl").read_text().splitlines()]
    executed = [c for r in results if r["kind"] == "exec" for t in r["turns"] for c in t.get("calls", [])]
    if style == "refs":
        assert any(c["result"].startswith('{"ref"') for c in executed)  # handles were kept by the eval loop
    else:
        assert any(isinstance(c["arguments"].get("entity", c["arguments"].get("value")), list) for c in executed)
    assert all(c["error"] is None for r in results if r["kind"] == "exec" and r["pattern"] != "error_recovery"
               for t in r["turns"] for c in t.get("calls", []))  # fmt: skip


def test_values_is_the_default_and_bad_styles_are_refused(tmp_path, capsys):
    out = tmp_path / "values"
    assert main(["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "40", "--no-progress"]) == 0
    assert json.loads((out / "validation_report.json").read_text())["tool_style"] == {"style": "values"}
    assert "Tool style" not in (out / "README.md").read_text()
    bad = tmp_path / "bad"
    assert main(["synth", "--graph", str(EXAMPLE), "--out", str(bad), "--tool-style", "refs", "--ref-items", "0"]) != 0
    assert "--ref-items: must be at least 1" in capsys.readouterr().err
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("tool_style: pointers\n")
    assert main(["synth", "--graph", str(EXAMPLE), "--out", str(bad), "--config", str(cfg)]) != 0
    assert "tool_style: expected values, refs or batch, got 'pointers'" in capsys.readouterr().err


def test_tool_style_parse_is_the_one_check():
    assert ToolStyle.choices() == ("values", "refs", "batch")
    assert [ToolStyle.parse(n) for n in ToolStyle.choices()] == [ToolStyle.VALUES, ToolStyle.REFS, ToolStyle.BATCH]
    assert ToolStyle.parse(ToolStyle.BATCH) is ToolStyle.BATCH
    assert [(s.passes_handles, s.batches_lookups, s.has_own_tools) for s in ToolStyle] == [
        (False, False, False), (True, False, True), (False, True, True)]  # fmt: skip
    for bad in ("pointers", "Refs", "", None, 1):
        with pytest.raises(UsageError, match=r"^--tool-style: expected values, refs or batch, got "):
            ToolStyle.parse(bad, where="--tool-style")
    with pytest.raises(InputError, match=r"^data/validation_report.json: config.tool_style: expected .* got 'x'$"):
        ToolStyle.parse("x", where="data/validation_report.json: config.tool_style", error=InputError)
    assert SynthConfig(tool_style="refs").style is ToolStyle.REFS
    with pytest.raises(UsageError, match=r"^tool_style: expected values, refs or batch, got 'pointers'$"):
        Synthesizer(load_graph([EXAMPLE]), SynthConfig(tool_style="pointers"))
    plain = ToolSet.from_graph(load_graph([EXAMPLE]))
    assert (plain.style, RefToolSet(plain).style, BatchToolSet(plain).style) == tuple(ToolStyle)


# ---------------------------------------------------------------------------------------------- DPO pairs


def synth_dataset(out: Path, style: str) -> Path:
    # 300 rows: the batch style's wrong-operation pairs are rare (a set operation with another one offered)
    argv = ["synth", "--graph", str(EXAMPLE), "--out", str(out), "-n", "300", "--seed", "0", "--tool-style", style,
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    return out


def _leaves(value) -> list:
    if isinstance(value, dict):
        return [x for k, v in sorted(value.items()) for x in [k, *_leaves(v)]]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def _changed(pair: dict) -> tuple[list, list]:
    """(names, argument leaves) of the chosen and the rejected calls, side by side."""
    sides = [[c["function"] for c in p[0].get("tool_calls") or []] for p in (pair["chosen"], pair["rejected"])]
    return [[f["name"] for f in s] for s in sides], [_leaves([f["arguments"] for f in s]) for s in sides]


@pytest.mark.parametrize("style", ["refs", "batch"])
def test_styled_multi_step_rows_have_dpo_pairs_right_and_wrong(tmp_path, style):
    from datasets import load_dataset

    from kg2tool.synth.checks.preference import REASONS_OF, check_continuation

    out = synth_dataset(tmp_path / "a", style)
    sft, dpo = load_dataset(str(out), "sft"), load_dataset(str(out), "dpo")
    rows = {r["id"]: r for split in sft for r in sft[split]}
    plain = ToolSet.from_graph(load_graph([EXAMPLE]))  # built anew: the judge's tools, values and the style's
    styled = RefToolSet(plain) if style == "refs" else BatchToolSet(plain)
    kinds: dict[str, int] = {}
    for pair in (p for split in dpo for p in dpo[split]):
        row = rows[pair["id"].rsplit("-", 1)[0]]
        assert check_pair(pair, row, plain) == [], pair["id"]  # the independent checker takes the chosen side
        multi = row["category"] == "multi_step" and row["pattern"] != "error_recovery"
        ts = styled if multi else plain
        args = (pair["tools"], row["answers"], row["category"], pair["chosen"])
        assert check_continuation(ts, pair["prompt"], pair["chosen"], *args) is None, pair["id"]
        reason = check_continuation(ts, pair["prompt"], pair["rejected"], *args)
        assert reason in REASONS_OF[pair["rejection_type"]], (pair["id"], reason)
        names, leaves = _changed(pair)
        if pair["rejection_type"] == "wrong_operation":  # another offered operation, or compare's mode swapped
            offered = {t["function"]["name"] for t in pair["tools"]}
            swapped_mode = names[0] == names[1] == ["compare"] and {leaves[0][-1], leaves[1][-1]} == {"max", "min"}
            assert (names[0] != names[1] and set(names[1]) <= offered) or swapped_mode, pair["id"]
        if pair["rejection_type"] == "wrong_carried_name":  # one name or ref swapped for one the prompt gave
            assert names[0] == names[1] and len(leaves[0]) == len(leaves[1])
            swapped = [(a, b) for a, b in zip(*leaves) if a != b]
            given = {x for m in pair["prompt"] if m["role"] == "tool" for x in _leaves(json.loads(m["content"]))}
            question = " ".join(m["content"] for m in pair["prompt"] if m["role"] == "user")
            assert len(swapped) == 1 and swapped[0][0] in given
            assert swapped[0][1] in given or swapped[0][1] in question
        if multi:
            kinds[pair["rejection_type"]] = kinds.get(pair["rejection_type"], 0) + 1
    assert sum(kinds.values()) >= 60 and {"wrong_tool", "wrong_operation", "wrong_carried_name"} <= set(kinds), kinds
    if style == "refs":  # pairs cut after refs were handed out, and rejected sides that pass a handle
        assert any('"ref"' in m["content"] for p in dpo["train"] for m in p["prompt"] if m["role"] == "tool")
    # the same graph, config and seed: byte-identical files, the dpo parquet included
    again = synth_dataset(tmp_path / "b", style)
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert any(f.parts[0] == "dpo" for f in files)
    assert all((out / f).read_bytes() == (again / f).read_bytes() for f in files)


def test_the_judge_replays_the_prompts_calls_for_its_handles():
    from kg2tool.synth.checks.preference import check_continuation, replayed
    from kg2tool.synth.checks.verify import CallView, check_call

    synth = Synthesizer(load_graph([EXAMPLE]), SynthConfig(shard_size=64, tool_style="refs"))
    kept, _ = synth.candidates(0)
    pairs = [(p, c.row) for c in kept for p in c.dpo if ref_rows([c.row])]
    passes_ref = [(p, r) for p, r in pairs if '"r' in _args({"messages": p["chosen"]})]
    assert passes_ref, "no pair whose chosen turn passes a handle"
    pair, row = passes_ref[0]
    refs = RefToolSet(ToolSet.from_graph(load_graph([EXAMPLE])))  # a fresh table: nothing replayed
    prompt, chosen = pair["prompt"], pair["chosen"]
    fn = next(c["function"] for c in chosen[0]["tool_calls"] if '"r' in json.dumps(c["function"]["arguments"]))
    offered = {t["function"]["name"] for t in row["tools"]}
    leaves = [x for v in fn["arguments"].values() for x in (v if isinstance(v, list) else [v])]
    view = CallView(refs.fork(), offered, fn["name"], fn["arguments"], prompt[0]["content"], set(leaves))
    assert check_call(view) == ("execution_error", False) and view.error.kind == "unknown_ref"
    # the judge replays the prompt's calls on a fork: the chosen turn passes, the caller's table stays empty
    args = (row["tools"], row["answers"], row["category"], chosen)
    assert check_continuation(refs, prompt, chosen, *args) is None and refs.table.sets == {}
    twin = replayed(refs, prompt)
    shown = [json.loads(m["content"]) for m in prompt if m["role"] == "tool" and m["content"].startswith('{"ref"')]
    assert [twin.table.sets[r["ref"]][: len(r["items"])] for r in shown] == [r["items"] for r in shown]
    assert len(twin.table.sets) == len(shown)
    # a prompt whose tool message is not what its call gives is refused, naming the message and the call
    bad = copy.deepcopy(prompt)
    k = next(i for i, m in enumerate(bad) if m["role"] == "tool" and m["content"].startswith('{"ref"'))
    bad[k]["content"] = bad[k]["content"].replace('"count":', '"count":1')
    call_id = bad[k]["tool_call_id"]
    i = next(i for i, m in enumerate(bad) if any(c["id"] == call_id for c in m.get("tool_calls") or []))
    with pytest.raises(ValueError, match=rf"prompt message {i}: call {call_id} \(\w+\) replays to"):
        check_continuation(refs, bad, chosen, *args)
