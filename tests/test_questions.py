"""`kg2tool eval --questions`: the question formats, bad input, the KGQA scores, Wilson intervals, the path and gold
models on examples/wiki-questions.jsonl, the BM25 tool retriever, and the demo's wiring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLE

from kg2tool.common.errors import InputError
from kg2tool.evaluation.kgqa import score_answer, wilson
from kg2tool.evaluation.questions import bind, read_questions

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "examples" / "wiki-questions.jsonl"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(tmp_path, *args, name="out") -> tuple[int, Path]:
    from kg2tool.cli import main

    out = tmp_path / name
    code = main(["eval", "--graph", str(EXAMPLE), "--out", str(out), *map(str, args)])
    return code, out


# ---------------------------------------------------------------------------------------------- formats


def test_jsonl_fields_are_read(tmp_path):
    path = write(tmp_path / "q.jsonl", "\n".join([
        json.dumps({"id": "a", "question": "Where was Karl Popper born?", "answers": ["Vienna"],
                    "topic_entity": "Karl Popper", "relation_path": ["place of birth"]}),
        "",
        json.dumps({"question": "Which physicists were born in Budapest?", "answers": ["Dennis Gabor"],
                    "topic_entity": ["Budapest", "physicist"], "relation_path": [["^place of birth"], ["inverse P106"]],
                    "hops": 1}),
        json.dumps({"question": "how many?", "answers": 12, "aggregate": "count"}),
    ]))  # fmt: skip
    first, second, third = read_questions(path)
    assert (first.id, first.topics, first.paths, first.hop_count) == ("a", ["Karl Popper"], [["place of birth"]], 1)
    assert second.id == "q3" and second.where == f"{path}:3" and len(second.paths) == 2
    assert third.answers == ["12"] and third.aggregate == "count" and third.hop_count is None


def test_metaqa_text_is_read(tmp_path):
    folder = tmp_path / "2-hop"
    folder.mkdir()
    path = write(folder / "qa_test.txt", "what languages do people born in [Vienna] speak\tGerman|English\n")
    (q,) = read_questions(path)
    assert q.question == "what languages do people born in Vienna speak"
    assert q.topics == ["Vienna"] and q.answers == ["German", "English"] and q.hops == 2


def test_webqsp_and_cwq_json_are_read(tmp_path):
    webqsp = {"Questions": [{"QuestionId": "WebQTest-1", "RawQuestion": "where was karl popper born?",
                             "Parses": [{"TopicEntityName": "Karl Popper", "InferentialChain": ["place of birth"],
                                         "Answers": [{"AnswerArgument": "m.0xyz", "EntityName": "Vienna"}]}]}]}  # fmt: skip
    (q,) = read_questions(write(tmp_path / "webqsp.json", json.dumps(webqsp)))
    assert (q.id, q.topics, q.paths, q.answers) == ("WebQTest-1", ["Karl Popper"], [["place of birth"]], ["Vienna"])
    cwq = [{"ID": "c1", "question": "Who influenced Wittgenstein?", "answers": [{"answer": "Bertrand Russell",
                                                                               "aliases": []}]}]  # fmt: skip
    (q,) = read_questions(write(tmp_path / "cwq.json", json.dumps(cwq)))
    assert (q.id, q.topics, q.answers) == ("c1", [], ["Bertrand Russell"])


# ---------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"question": "Where was Karl Popper born?"}', "missing field 'answers'"),
        ('{"question": "Where was Karl Popper born?", "answers": ["Vienna"]', "invalid JSON"),
        ('{"question": "x", "answers": ["a"], "hops": "two"}', "'hops' must be a positive integer"),
        ('{"question": "x", "answers": ["a"], "topic_entity": ["A", "B"], "relation_path": ["p"]}', "1 relation path"),
    ],
)
def test_a_bad_line_names_the_file_and_line(tmp_path, line, message):
    good = json.dumps({"question": "Where was Karl Popper born?", "answers": ["Vienna"]})
    path = write(tmp_path / "q.jsonl", f"{good}\n{line}\n")
    with pytest.raises(InputError) as err:
        read_questions(path)
    assert f"{path}:2" in str(err.value) and message in str(err.value)


def test_bad_metaqa_lines_name_the_line(tmp_path):
    with pytest.raises(InputError, match=r"q\.txt:1: .*no tab"):
        read_questions(write(tmp_path / "q.txt", "who directed [Alien] Ridley Scott\n"))
    with pytest.raises(InputError, match=r"q\.txt:2: mark the topic entity"):
        read_questions(write(tmp_path / "q.txt", "who directed [Alien]\tRidley Scott\nwho directed Alien\tX\n"))


def test_unknown_topic_is_an_input_error_naming_the_line(tmp_path, capsys):
    path = write(tmp_path / "q.jsonl", "\n" + json.dumps(
        {"question": "Where was Nobody born?", "answers": ["Vienna"], "topic_entity": "Nobody McNoname"}) + "\n")  # fmt: skip
    code, out = run_cli(tmp_path, "--questions", path, "--model", "gold")
    assert code == 3
    err = capsys.readouterr().err
    assert f"{path}:2" in err and "Nobody McNoname" in err
    assert not (out / "summary.json").exists()


def test_answers_not_in_the_graph_are_counted_and_listed(tmp_path):
    path = write(tmp_path / "q.jsonl", "\n".join([
        json.dumps({"id": "ulm", "question": "Where was Einstein born?", "answers": ["Ulm"],
                    "topic_entity": "Albert Einstein", "relation_path": ["place of birth"]}),
        json.dumps({"id": "ok", "question": "Where was Karl Popper born?", "answers": ["Vienna", "Atlantis"]}),
    ]))  # fmt: skip
    code, out = run_cli(tmp_path, "--questions", path, "--model", "gold")
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["answers_not_in_graph"] == 2
    details = json.loads((out / "details.json").read_text())
    assert details["not_in_graph"] == [{"id": "ulm", "answers": ["Ulm"]}, {"id": "ok", "answers": ["Atlantis"]}]
    assert "`ulm`: 'Ulm'" in (out / "report.md").read_text()
    assert summary["hits@1"] == 1.0  # still matched as text: the gold model names them


# ---------------------------------------------------------------------------------------------- scores


def test_wilson_interval_matches_known_values():
    # 5 of 10: the textbook 0.2366-0.7634; none or all: closed forms z²/(n+z²) and n/(n+z²) with z = 1.959964
    z2 = 1.96**2
    assert wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-4)  # z = 1.96
    assert wilson(0, 10) == pytest.approx((0.0, z2 / (10 + z2)), abs=1e-6)
    assert wilson(10, 10) == pytest.approx((10 / (10 + z2), 1.0), abs=1e-6)
    assert wilson(60, 60)[0] == pytest.approx(60 / (60 + z2), abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)  # no evidence either way


def _score(kg, text, answers, topics=()):
    ids = [kg.resolve(a) for a in answers]
    return score_answer(text, answers, [None if a.isdigit() else i for a, i in zip(answers, ids)], kg,
                        [kg.resolve(t) for t in topics])  # fmt: skip


def test_scores_of_hand_made_answers(example_kg):
    kg = example_kg
    gold = ["Columbia University", "University of Vienna"]
    both = _score(kg, "He studied at the University of Vienna and at Columbia University.", gold, ["Konrad Lorenz"])
    assert (both["hits1"], both["precision"], both["recall"], both["f1"], both["exact"]) == (True, 1.0, 1.0, 1.0, True)
    one_wrong = _score(kg, "Harvard University, University of Vienna", gold)
    assert one_wrong["hits1"] is False and one_wrong["wrong"] == ["Harvard University"]
    assert (one_wrong["precision"], one_wrong["recall"], one_wrong["f1"], one_wrong["exact"]) == (0.5, 0.5, 0.5, False)
    half = _score(kg, "university of vienna", gold)  # case-insensitive; one of two named
    assert (half["hits1"], half["precision"], half["recall"], half["exact"]) == (True, 1.0, 0.5, False)
    assert half["f1"] == pytest.approx(2 / 3, abs=1e-4)
    nothing = _score(kg, "I do not know.", gold)
    assert (nothing["hits1"], nothing["precision"], nothing["recall"], nothing["f1"]) == (False, 0.0, 0.0, 0.0)
    topic_repeated = _score(kg, "Karl Popper was born in Vienna.", ["Vienna"], ["Karl Popper"])
    assert topic_repeated["exact"] and topic_repeated["wrong"] == []  # naming the topic is no wrong answer
    count = _score(kg, "There are 12 of them (not 13).", ["12"])
    assert count["hits1"] and count["wrong"] == ["13"] and count["precision"] == 0.5


# ---------------------------------------------------------------------------------------------- models


def test_the_wiki_questions_bind_to_the_graph(example_kg):
    questions = read_questions(QUESTIONS)
    assert len(questions) == 60
    bound = bind(example_kg, questions)
    assert not [b.q.id for b in bound if b.unmatched]
    kinds = {q.id.split("-")[0] for q in questions}
    assert kinds == {"h1", "h2", "i", "c"}


def test_path_model_scores_100_percent_on_the_wiki_questions(tmp_path):
    code, out = run_cli(tmp_path, "--questions", QUESTIONS, "--model", "path", "--exclude-topic")
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["hits@1"] == summary["exact_match"] == summary["f1"] == 1.0
    assert summary["call_validity"] == summary["path_followed"] == summary["first_call"] == 1.0
    details = json.loads((out / "details.json").read_text())
    assert details["overall"]["total"] == 60 and details["inexpressible"] == []
    assert set(details["by_hops"]) == {"1", "2"} and details["by_hops"]["2"]["total"] == 15
    assert details["overall"]["hits1"]["ci95"] == [round(wilson(60, 60)[0], 4), 1.0]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    count_row = next(r for r in rows if r["id"] == "c-01")
    assert [c["name"] for t in count_row["turns"] for c in t.get("calls", ())] == ["find_by_place_of_birth", "count"]
    assert "| **all** | 60 | 60/60 100.0% [94.0%, 100.0%]" in (out / "report.md").read_text()
    assert (out / "kg2tool_config.yaml").exists()


def test_first_call_is_the_paths_first_tool_on_the_topic_entity(example_kg):
    from kg2tool.evaluation.kgqa_run import _first_call_right, first_calls, path_tools
    from kg2tool.synth.tools.toolset import ToolSet

    ts = ToolSet.from_graph(example_kg)
    by_id = {b.q.id: b for b in bind(example_kg, read_questions(QUESTIONS))}
    born = by_id["h1-01"]  # Where was Karl Popper born?
    firsts = first_calls(ts, born, path_tools(ts, example_kg, born)[0])
    assert firsts == [("get_place_of_birth", "entity", "Karl Popper")]

    def turn(*calls):
        return {"turns": [{"calls": [{"name": n, "arguments": a} for n, a in calls]}]}

    assert _first_call_right(turn(("get_place_of_birth", {"entity": "karl popper"})), firsts)  # BFCL's strings
    assert not _first_call_right(turn(("get_place_of_birth", {"entity": "Karl Marx"})), firsts)
    assert not _first_call_right(turn(("get_place_of_death", {"entity": "Karl Popper"})), firsts)
    assert not _first_call_right({"turns": [{"text": "Vienna"}]}, firsts)  # an answer without a call
    assert _first_call_right({"turns": []}, []) is None  # no path: not rated
    both = by_id["i-05"]  # Who was born in Vienna and also died there? Either path may come first
    firsts = first_calls(ts, both, path_tools(ts, example_kg, both)[0])
    assert {t for t, _, _ in firsts} == {"find_by_place_of_birth", "find_by_place_of_death"}
    assert _first_call_right(turn(("find_by_place_of_death", {"value": "Vienna"})), firsts)


def test_gold_model_checks_the_matcher(tmp_path):
    code, out = run_cli(tmp_path, "--questions", QUESTIONS, "--model", "gold")
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["hits@1"] == summary["exact_match"] == summary["precision"] == summary["recall"] == 1.0


def test_path_model_lists_what_it_cannot_express(tmp_path):
    lines = [
        {"id": "ok", "question": "Where was Karl Popper born?", "answers": ["Vienna"], "topic_entity": "Karl Popper",
         "relation_path": ["P19"]},
        {"id": "unknown", "question": "Who is Popper's dog?", "answers": ["Vienna"], "topic_entity": "Karl Popper",
         "relation_path": ["pet dog"]},
        {"id": "rare", "question": "What is X named after?", "answers": ["Vienna"], "topic_entity": "Karl Popper",
         "relation_path": ["named after"]},
        {"id": "nopath", "question": "Where was Karl Popper born?", "answers": ["Vienna"], "topic_entity": "Karl Popper"},
        {"id": "notopic", "question": "Where was Karl Popper born?", "answers": ["Vienna"]},
    ]  # fmt: skip
    two_hop = next(line for line in QUESTIONS.read_text().splitlines() if '"h2-03"' in line)
    path = write(tmp_path / "q.jsonl", "\n".join([*(json.dumps(x) for x in lines), two_hop]))
    # --max-steps 1 does not cut the reference model short: the two-hop path takes two call turns
    code, out = run_cli(tmp_path, "--questions", path, "--model", "path", "--max-steps", "1")
    assert code == 0
    details = json.loads((out / "details.json").read_text())
    reasons = {x["id"]: x["reason"] for x in details["inexpressible"]}
    assert reasons == {
        "unknown": "unknown relation 'pet dog'",
        "rare": "no tool for relation 'named after' (fewer facts than --min-support)",
        "nopath": "no relation_path",
        "notopic": "no topic_entity",
    }
    assert details["overall"]["total"] == 2 and details["overall"]["exact"]["correct"] == 2
    assert "`rare` (" in (out / "report.md").read_text()


# ---------------------------------------------------------------------------------------------- retriever


def test_retriever_recall_on_the_wiki_questions(example_kg):
    from kg2tool.evaluation.kgqa_run import path_tools
    from kg2tool.evaluation.retriever import ToolRetriever, recall
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.tools.toolset import ToolSet

    lexicon = derive_lexicon(example_kg)
    ts = ToolSet.from_graph(example_kg, lexicon=lexicon)
    bound = bind(example_kg, read_questions(QUESTIONS))
    expected = [sorted({t for chain in path_tools(ts, example_kg, b)[0] for t in chain}) for b in bound]
    retriever = ToolRetriever(ts, lexicon)
    picks = {k: [retriever.pick(b.q.question, k) for b in bound] for k in (1, 5)}
    at5, at1 = recall(picks[5], expected), recall(picks[1], expected)
    assert at5["questions"] == 60 and at5["expected"] == 92
    assert at5["recall"] >= 0.9 and at5["recall"] > at1["recall"]  # measured 0.946 at top 5 (docs/eval.md)
    assert retriever.pick("Where was Karl Popper born?", 1)[:2] == ["get_place_of_birth", "find_by_place_of_birth"]
    assert len(picks[5][0]) <= 2 * 5 + 5  # both directions of 5 relations, and the 5 operators
    assert recall([["a", "b"], ["c"]], [["a", "x"], []]) == {"questions": 1, "expected": 2, "covered": 1,
                                                             "recall": 0.5, "full": 0}  # fmt: skip


def test_offer_related_limits_the_tools_and_reports_recall(tmp_path):
    code, out = run_cli(tmp_path, "--questions", QUESTIONS, "--model", "path", "--offer", "related", "--top-k", "3")
    assert code == 0
    details = json.loads((out / "details.json").read_text())
    retriever = details["retriever"]
    assert retriever["top_k"] == 3 and retriever["questions"] == 60
    missed = [x for x in details["inexpressible"] if "the retriever did not offer" in x["reason"]]
    assert len(missed) == 60 - retriever["full"] > 0  # the path model can only use the offered tools
    assert details["overall"]["total"] == retriever["full"] and details["overall"]["exact"]["score"] == 1.0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["retriever_recall"] == retriever["recall"] < 1.0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert all(r["calls_valid"] for r in rows)


def test_usage_errors(tmp_path, capsys):
    assert run_cli(tmp_path, "--questions", QUESTIONS)[0] == 2  # no --model
    assert run_cli(tmp_path, "--questions", QUESTIONS, "--model", "gold", "--data", str(tmp_path))[0] == 2
    assert run_cli(tmp_path, "--questions", tmp_path / "missing.jsonl", "--model", "gold")[0] == 3


# ---------------------------------------------------------------------------------------------- demo wiring


def test_demo_runs_the_questions_after_each_stage_and_reports_them(tmp_path):
    """The demo's question evaluations are real `kg2tool eval --questions` runs: here each is run with the path
    model in place of the stage's checkpoint (training is tested in test_demo.py)."""
    from kg2tool.cli import main
    from kg2tool.demo import STAGES, DemoPlan, collect_report, demo_context, plan_runs

    out = tmp_path / "demo"
    recipes = {stage: {"recipe": f"{stage}/tiny.yaml"} for stage in STAGES}
    plan = DemoPlan(synth={"min_support": 5}, eval={"limit": 4, "max_new_tokens": 16, "stepwise": True,
                                                    "questions": {"offer": "related", "top_k": 5}}, **recipes)
    context = demo_context([str(EXAMPLE)], out, 0)
    runs = plan_runs([str(EXAMPLE)], out, plan, context, 0, questions=str(QUESTIONS))
    assert [r.name for r in runs][1:4] == ["pretrain", "eval-pretrain", "eval-pretrain-questions"]
    asked = [r for r in runs if r.name.endswith("-questions")]
    assert len(asked) == len(STAGES)
    # the model is offered the tools it was trained on: the words of the lexicon.yaml synth wrote beside the data
    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon

    assert not any("--offer" in r.argv for r in runs if not r.name.endswith("-questions"))  # only those runs
    (out / "data").mkdir(parents=True)
    (out / "data" / "lexicon.yaml").write_text(derive_lexicon(load_graph([str(EXAMPLE)])).to_yaml(), encoding="utf-8")
    for run in asked:
        argv = run.argv
        assert "--data" not in argv and argv[argv.index("--questions") + 1] == str(QUESTIONS)
        assert argv[argv.index("--min-support") + 1] == "5"
        assert argv[argv.index("--lexicon") + 1] == str(out / "data" / "lexicon.yaml")
        assert argv[argv.index("--offer") + 1] == "related" and argv[argv.index("--top-k") + 1] == "5"
        argv[argv.index("--model") + 1] = "path"
        assert main(argv) == 0 and run.done_marker.exists()
        stage = run.name.split("-")[1]
        (out / f"eval-{stage}").mkdir()
        (out / f"eval-{stage}" / "summary.json").write_text(json.dumps({"multi_step_exec": 0.5}))
    report = collect_report(out, STAGES)
    for stage in STAGES:
        assert report[stage]["multi_step_exec"] == 0.5
        assert report[stage]["questions_hits@1"] == report[stage]["questions_exact_match"] == 1.0
    # report.md gives each count with its 95% Wilson interval
    from kg2tool.demo import markdown
    from kg2tool.evaluation.report import interval_cells

    cells = {stage: interval_cells(out, stage) for stage in STAGES}
    assert cells["sft"]["questions_hits@1"] == "3/3 [43.9%, 100.0%]"  # 1 of the first 4 is not expressible with 5 tools
    text = markdown(report, {"graph": [str(EXAMPLE)], "stages": [], "total_seconds": 1.0, "intervals": cells})
    assert "Counts and 95% Wilson intervals" in text and "| 3/3 [43.9%, 100.0%] |" in text
