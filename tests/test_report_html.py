"""report.html of `kg2tool eval` (also `--questions`) and `kg2tool inspect` (kg2tool/hub/report_html.py, kg2tool/evaluation/report_page.py),
opened in a real headless Chromium driven by Playwright: no console error, no request, the scores with their
intervals, the plots loaded, the conversations filterable, a failed row's expected and produced turns side by side,
and a graph label holding `<script>` and quotes shown as text.

The browser is Debian's `chromium` (`apt-get install chromium`; `.ci/run` installs it): the tests skip when no
Chromium binary is found, and only then.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import make_small_graph

from kg2tool.cli import main
from kg2tool.evaluation.report import wilson
from kg2tool.hub.inspect import load_rows
from kg2tool.hub.report_html import Column, Item, Table, Turn, render

# A label with a script, both quote kinds and an ampersand; Turtle needs the double quotes escaped.
HOSTILE = '<script>window.__pwned=1</script> "Q" O\'Hara & co'
HOSTILE_TTL = HOSTILE.replace('"', '\\"')


def chromium_binary() -> str | None:
    """The Chromium to drive: $KG2TOOL_CHROMIUM, else `chromium` / `chromium-browser` on PATH."""
    for candidate in (os.environ.get("KG2TOOL_CHROMIUM"), "chromium", "chromium-browser"):
        found = candidate and shutil.which(candidate)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    binary = chromium_binary()
    if binary is None:
        pytest.skip("no Chromium binary found (install Debian's `chromium`, or set KG2TOOL_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=binary, args=["--no-sandbox"])
        yield b
        b.close()


class Opened:
    """A report opened in a fresh page, with every console message, page error and request it made."""

    def __init__(self, browser, path: Path):
        self.page = browser.new_page(viewport={"width": 1200, "height": 900})
        self.console: list[str] = []
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_load_state("load")

    def visible_count(self) -> int:
        return self.page.eval_on_selector_all("#convs > details.conv", "els => els.filter(e => !e.hidden).length")

    def shown(self) -> int:
        return int(self.page.text_content("#shown"))

    def select(self, facet: str, value: str) -> None:
        self.page.select_option(f'#filters select[data-facet="{facet}"]', value)

    def open_first_visible(self):
        """Close every conversation, open the first one the filters show (by clicking it); return it."""
        self.page.evaluate("document.querySelectorAll('details.conv').forEach(e => { e.open = false; })")
        self.page.locator("details.conv:not([hidden]) summary").first.click()
        opened = self.page.locator("details.conv[open]")
        assert opened.count() == 1
        return opened

    def check_clean(self) -> None:
        """No console message, no failed request, no request but the page itself, no injected script ran."""
        assert self.console == []
        assert self.failed == []
        assert self.requests == [self.url]
        assert self.page.evaluate("window.__pwned") is None
        assert self.page.evaluate("document.scripts.length") == 1
        natural = self.page.eval_on_selector_all("img", "els => els.map(e => e.complete && e.naturalWidth)")
        assert all(w and w > 0 for w in natural), natural


@pytest.fixture(scope="module")
def hostile_data(tmp_path_factory) -> tuple[Path, Path]:
    """A small graph where a person and a city are named with HOSTILE, and a dataset made from it (most rows in
    the test split, so the eval sees the name)."""
    base = tmp_path_factory.mktemp("report_html")
    graph = base / "hostile.ttl"
    text = make_small_graph(40).replace("{{ 7*7 }} <b>Robert'); DROP TABLE--</b>", HOSTILE_TTL)
    graph.write_text(text.replace('"City 0"', f'"{HOSTILE_TTL} City"'), encoding="utf-8")
    data = base / "data"
    argv = ["synth", "--graph", str(graph), "--out", str(data), "-n", "80", "--splits", "0.3,0.1,0.6"]
    assert main([*argv, "--seed", "0"]) == 0
    return graph, data


def _eval(graph: Path, data: Path, out: Path, model: str) -> list[dict]:
    argv = ["eval", "--model", model, "--data", str(data), "--graph", str(graph), "--out", str(out), "--stepwise"]
    assert main(argv) == 0
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def test_wilson_matches_published_intervals():
    # Wilson score intervals at 95% (z=1.96), as tabulated by Newcombe (1998), Statistics in Medicine 17:857
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="k=3, n=2"):
        wilson(3, 2)


def test_render_escapes_everything():
    item = Item(HOSTILE, HOSTILE, {"category": HOSTILE}, [Column("produced", [Turn("user", HOSTILE, HOSTILE)])])
    html = render(HOSTILE, intro=[HOSTILE], tables=[Table(HOSTILE, [HOSTILE], [[HOSTILE]])], items=[item])
    assert "<script>window" not in html and "O'Hara" not in html and '"Q"' not in html
    assert html.count("&lt;script&gt;window.__pwned=1&lt;/script&gt; &#34;Q&#34; O&#39;Hara &amp; co") >= 7
    with pytest.raises(ValueError, match="facet names"):
        render("t", items=[Item("a", "a", {'x" onclick="y': "v"}, [])])


def test_eval_report_html_in_chromium(browser, hostile_data, tmp_path):
    graph, data = hostile_data
    rows = _eval(graph, data, tmp_path / "nocall", "no-call")
    failed = [r for r in rows if not (r["valid"] if r["kind"] == "ast" else r["correct"])]
    assert 0 < len(failed) < len(rows)  # irrelevance passes with no call; every call-needing row fails
    summary = json.loads((tmp_path / "nocall" / "summary.json").read_text())
    details = json.loads((tmp_path / "nocall" / "details.json").read_text())
    view = Opened(browser, tmp_path / "nocall" / "report.html")
    page = view.page

    # the score table: one row per score, with its counts and Wilson interval
    scores = page.eval_on_selector_all(
        "section.table:first-child tbody tr", "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))"
    )
    assert [r[0] for r in scores] == list(summary)
    multi = next(r for r in scores if r[0] == "multi_step_exec")
    k, n = (
        details["exec"]["by_category"]["multi_step"]["correct"],
        details["exec"]["by_category"]["multi_step"]["total"],
    )
    lo, hi = wilson(k, n)
    assert multi[1:5] == [str(k), str(n), "0.0%", f"{100 * lo:.1f}% \u2013 {100 * hi:.1f}%"]
    assert all(re.fullmatch(r"\d+\.\d% \u2013 \d+\.\d%", r[4]) for r in scores)
    assert page.eval_on_selector_all("img", "els => els.length") == 1  # the chart

    # the conversation list: every row; the filters and the search narrow it
    assert view.visible_count() == view.shown() == len(rows)
    view.select("result", "fail")
    assert view.visible_count() == view.shown() == len(failed)
    view.select("kind", "exec")
    exec_failed = [r for r in failed if r["kind"] == "exec"]
    assert view.visible_count() == len(exec_failed) > 0
    view.select("result", "")
    view.select("kind", "")
    page.fill("#search", "O'Hara")
    hostile_rows = view.visible_count()
    assert 0 < hostile_rows < len(rows)
    page.fill("#search", "")

    # a failed executable row: expected (the gold calls) on the left, produced (a text answer) beside it
    row = page.locator(f'details.conv[data-f-kind="exec"]:has(.cid:text-is("{exec_failed[0]["id"]}"))')
    row.locator("summary").click()
    expected, produced = row.locator(".col.expected"), row.locator(".col.produced")
    e_box, p_box = expected.bounding_box(), produced.bounding_box()
    assert e_box["x"] + e_box["width"] <= p_box["x"] and abs(e_box["y"] - p_box["y"]) < 2
    assert expected.locator(".turn.call").count() >= 1 and produced.locator(".turn.call").count() == 0
    assert produced.locator(".turn.assistant").first.text_content().endswith(exec_failed[0]["final"])

    # the hostile name is text on the page, its script never ran
    page.fill("#search", HOSTILE)  # as said in questions and answers (in calls and results it is JSON-quoted)
    assert 0 < view.visible_count() <= hostile_rows
    assert any(HOSTILE in t for t in view.open_first_visible().locator(".turn").all_text_contents())
    view.check_clean()
    page.screenshot(path=str(tmp_path / "report-eval.png"))
    assert (tmp_path / "report-eval.png").stat().st_size > 10_000


def test_eval_report_html_all_passing(browser, hostile_data, tmp_path):
    graph, data = hostile_data
    rows = _eval(graph, data, tmp_path / "gold", "gold")
    assert all(r["valid"] if r["kind"] == "ast" else r["correct"] for r in rows)
    view = Opened(browser, tmp_path / "gold" / "report.html")
    view.select("result", "fail")
    assert view.visible_count() == view.shown() == 0
    assert view.page.is_visible("#empty")
    view.select("result", "pass")
    assert view.visible_count() == len(rows)
    # a passing row shows only what was produced
    assert view.page.locator("details.conv .col.expected").count() == 0
    assert view.page.locator("details.conv .col.produced").count() == len(rows)
    view.check_clean()


def test_questions_report_html_in_chromium(browser, hostile_data, tmp_path):
    """`eval --questions --out` writes report.html too: scores with intervals, per hop count, the oracle's note when
    the file and the graph disagree, each question as a conversation, a failed one beside what was expected."""
    graph, _ = hostile_data
    born_with_4 = [f"Person {i}" for i in range(12, 40, 8)]  # make_small_graph: person i is born in City i % 8
    questions = [
        {"id": "born", "question": f"Where was {HOSTILE} born?", "answers": ["City 7"], "topic_entity": HOSTILE,
         "relation_path": ["place of birth"]},
        {"id": "off", "question": "Where was Person 2 born?", "answers": ["City 3"], "topic_entity": "Person 2",
         "relation_path": ["place of birth"]},  # the file disagrees with the graph (City 2)
        {"id": "same", "question": "Who was born where Person 4 was born?", "answers": born_with_4,
         "topic_entity": "Person 4", "relation_path": ["place of birth", "^place of birth"]},
    ]  # fmt: skip
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    out = tmp_path / "questions"
    argv = ["eval", "--questions", str(path), "--graph", str(graph), "--model", "path", "--exclude-topic"]
    assert main([*argv, "--out", str(out)]) == 0
    assert (out / "report.html").is_file()
    view = Opened(browser, out / "report.html")
    page = view.page
    scores = page.eval_on_selector_all(
        "section.table:first-child tbody tr", "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))"
    )
    lo, hi = json.loads((out / "details.json").read_text())["overall"]["hits1"]["ci95"]
    assert (lo, hi) == pytest.approx(wilson(2, 3), abs=1e-4)
    hits = next(r for r in scores if r[0] == "hits@1")
    assert hits[1:5] == ["2", "3", "66.7%", f"{100 * lo:.1f}% \u2013 {100 * hi:.1f}%"]
    by_hops = page.eval_on_selector_all(
        "section.table:nth-child(2) tbody tr", "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))"
    )
    assert [(r[0], r[1], r[2], r[4]) for r in by_hops] == [("1", "2", "1/2 50.0%", "1/2 50.0%"),
                                                         ("2", "1", "1/1 100.0%", "1/1 100.0%")]  # fmt: skip
    assert "the question file and the graph disagree" in page.text_content("body")

    assert view.visible_count() == view.shown() == 3
    view.select("result", "fail")
    assert view.visible_count() == 1
    failed = view.open_first_visible()
    expected, produced = failed.locator(".col.expected"), failed.locator(".col.produced")
    e_box, p_box = expected.bounding_box(), produced.bounding_box()
    assert e_box["x"] + e_box["width"] <= p_box["x"] and abs(e_box["y"] - p_box["y"]) < 2
    assert expected.locator(".turn.assistant").first.text_content().endswith("City 3")
    assert "place of birth from Person 2" in expected.locator(".turn.note").first.text_content()
    assert produced.locator(".turn.call").count() == 1 and produced.locator(".turn.tool").count() == 1
    assert produced.locator(".turn.assistant").last.text_content().endswith("City 2")
    assert "wrong: City 2" in failed.locator(".cnote").text_content()
    view.select("result", "")
    view.select("hops", "2 hop(s)")
    assert view.visible_count() == 1
    view.select("hops", "")
    page.fill("#search", HOSTILE)
    assert view.visible_count() == 1
    assert any(HOSTILE in t for t in view.open_first_visible().locator(".turn").all_text_contents())
    view.check_clean()


def test_inspect_report_html_in_chromium(browser, hostile_data, tmp_path):
    _, data = hostile_data
    out = tmp_path / "inspect"
    assert main(["inspect", str(data), "--out", str(out), "--samples", "0", "--html-rows", "20"]) == 0
    assert sorted(p.name for p in out.iterdir() if p.suffix == ".html") == ["report.html"]
    view = Opened(browser, out / "report.html")
    page = view.page
    splits = {split: len(rs) for split, rs in load_rows(data).items()}
    assert splits["validation"] < 20 < splits["test"]  # one split cut to --html-rows, one not
    split_table = page.eval_on_selector_all(
        "section.table:first-child tbody tr", "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))"
    )
    assert {r[0]: int(r[1]) for r in split_table} == splits
    embedded = sum(min(n, 20) for n in splits.values())
    assert view.visible_count() == view.shown() == embedded
    assert "first 20 of each split" in page.text_content("#items-note")
    assert page.eval_on_selector_all("img", "els => els.length") == 6
    view.select("split", "validation")
    assert view.visible_count() == splits["validation"]
    view.select("split", "")
    view.select("category", "multi_step")
    multi = view.visible_count()
    assert 0 < multi < embedded
    opened = view.open_first_visible()
    for role in ("user", "call", "tool", "assistant"):
        assert opened.locator(f".turn.{role}").count() >= 1, role
    view.select("category", "")
    page.fill("#search", HOSTILE)
    assert view.visible_count() > 0
    assert any(HOSTILE in t for t in view.open_first_visible().locator(".turn").all_text_contents())
    view.check_clean()
    page.screenshot(path=str(tmp_path / "report-inspect.png"), full_page=False)
    assert (tmp_path / "report-inspect.png").stat().st_size > 10_000


def test_items_cut_to_the_limit_keep_failed_rows_first():
    from kg2tool.evaluation.report_page import Expected, items

    rows = [{"id": f"a{i}", "kind": "ast", "category": "simple", "valid": i % 3 != 0, "output": "x"} for i in range(9)]
    kept, note = items(rows, Expected(), limit=4)
    assert [i.id for i in kept] == ["a0", "a1", "a3", "a6"]  # the 3 failed ones, then the first passing one
    assert [i.status for i in kept] == ["fail", "pass", "fail", "fail"]
    assert "9 result rows, 3 failed; 4 embedded in this page (failed rows first)" in note
    assert [c.title for c in kept[0].columns] == ["expected", "produced"] and len(kept[1].columns) == 1


def test_write_reports_without_chart_or_expected_turns(tmp_path):
    from kg2tool.evaluation.report import write_reports

    rows = [
        {"id": "simple_0", "kind": "ast", "category": "simple", "valid": False, "error_type": "e", "output": HOSTILE}
    ]
    paths = write_reports(tmp_path / "ev", rows, {"simple": 0.0}, {}, plot=False)
    assert [p.name for p in paths][-1] == "report.html" and not (tmp_path / "ev" / "summary.png").exists()
    html = (tmp_path / "ev" / "report.html").read_text(encoding="utf-8")
    assert "<img" not in html and "The expected turns were not loaded for this report." in html
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in html and "<script>window" not in html
    assert sorted(p.name for p in (tmp_path / "ev").iterdir()) == sorted(p.name for p in paths)  # no temporaries


def test_inspect_refuses_a_negative_row_cap(hostile_data, capsys):
    _, data = hostile_data
    assert main(["inspect", str(data), "--out", "unused", "--html-rows", "-1"]) == 2
    assert "--html-rows must be 0 or more, not -1" in capsys.readouterr().err
