"""Hostile text in a graph (issue 10, item 4): it is printed, never executed; it never names a file; graph files
cannot make the loader read other files; the Hub token never reaches logs, output or the dataset card."""

from __future__ import annotations

import http.server
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import rdflib
from checks import check_row
from rdflib import RDFS, XSD, Literal, Namespace

from kg2tool.cli import main as cli_main
from kg2tool.graph.build import load_graph
from kg2tool.synth.tools.toolset import ToolSet

EX = Namespace("http://example.org/")

# Template code that would print something else (or hang, or leak objects) if it were ever evaluated.
TEMPLATE_LABELS = [
    "{{ config }}",
    "{{ ''.__class__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
    "{% raw %}",
    "{% endraw %} after",
    "{{ self }}",
    "{{ range(10**9)|list|length }}",
    "{% include '/etc/passwd' %}",
    "{% for i in range(3) %}x{% endfor %}",
    "{# hidden #}visible",
    "{{ 7*7 }}",
]
# Graph text that would escape the output folder if a file were ever named from it.
PATH_LABELS = ["../../../escape", "/etc/passwd", "..\\..\\windows", "a/b/c", "con", "nul.txt", ".hidden", "~"]
RELATION_LABELS = ["{{ 7*7 }} linked to", "{% raw %}partner", "../../etc/passwd of", "{{ config.items() }} size"]
# Marks of evaluated template code: the repr of a Python object, Jinja's own names, a shell command's output.
EVALUATED = re.compile(r"<class |<function |<built-in|<module |Undefined|jinja2|uid=\d|\b49\b|root:x:0|xxx")


def hostile_graph() -> rdflib.Graph:
    labels = TEMPLATE_LABELS + PATH_LABELS
    g = rdflib.Graph()
    n = len(labels)
    for i, lab in enumerate(labels):
        g.add((EX[f"e{i}"], RDFS.label, Literal(lab, lang="en")))
        g.add((EX[f"e{i}"], EX.rel1, EX[f"e{(i + 1) % n}"]))
        g.add((EX[f"e{i}"], EX.rel1, EX[f"e{(i + 5) % n}"]))
        g.add((EX[f"e{i}"], EX.rel2, EX[f"e{(i * 7 + 3) % n}"]))
        g.add((EX[f"e{i}"], EX.rel3, EX[f"e{(i * 3) % n}"]))
        g.add((EX[f"e{i}"], EX.size, Literal(100 + 17 * i, datatype=XSD.integer)))
    # relation and attribute labels are graph text too
    for prop, lab in zip((EX.rel1, EX.rel3, EX.rel2, EX.size), RELATION_LABELS):
        g.add((prop, RDFS.label, Literal(lab, lang="en")))
    return g


def read_rows(folder: Path) -> list[dict]:
    rows = []
    for f in sorted(folder.glob("*.parquet")):
        for r in pq.read_table(f).to_pylist():
            for k in ("messages", "tools", "prompt", "chosen", "rejected"):
                if k in r:
                    r[k] = [json.loads(x) for x in r[k]]
            rows.append(r)
    return rows


TOKEN = "hf_HostileTestTokenNeverPrint0123456789"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One synth run on the hostile graph, with a Hub token in the environment."""
    base = tmp_path_factory.mktemp("hostile")
    graph = base / "hostile.ttl"
    graph.write_text(hostile_graph().serialize(format="turtle"), encoding="utf-8")
    out = base / "out"
    old = os.environ.get("HF_TOKEN")
    os.environ["HF_TOKEN"] = TOKEN
    try:
        rc = cli_main(["synth", "--graph", str(graph), "--out", str(out), "-n", "150", "--seed", "5", "--no-progress"])
    finally:
        if old is None:
            os.environ.pop("HF_TOKEN", None)
        else:
            os.environ["HF_TOKEN"] = old
    assert rc == 0
    return base, graph, out


def test_rows_are_valid(run):
    base, graph, out = run
    ts = ToolSet.from_graph(load_graph([graph]))
    rows = read_rows(out / "sft")
    assert len(rows) >= 100
    for row in rows:
        assert check_row(row, ts) == [], row["id"]


def test_template_code_in_graph_text_is_printed_literally(run):
    _, _, out = run
    rows = read_rows(out / "sft")
    texts = [m["content"] or "" for r in rows for m in r["messages"] if m["role"] in ("user", "assistant")]
    joined = "\n".join(texts)
    shown = [lab for lab in TEMPLATE_LABELS if lab in joined]
    assert len(shown) >= len(TEMPLATE_LABELS) - 3, set(TEMPLATE_LABELS) - set(shown)
    for lab in RELATION_LABELS[:2]:  # relation labels, verbatim too
        assert lab in joined, lab
    for t in texts:
        # strip every label that occurs, then no evaluated output and no stray template syntax may remain
        rest = t
        for lab in sorted(TEMPLATE_LABELS + PATH_LABELS + RELATION_LABELS, key=len, reverse=True):
            rest = rest.replace(lab, "")
        assert not EVALUATED.search(rest), t
        assert not re.search(r"\{\{|\{%|\{#", rest), t
    for row in rows:  # simple questions name their entity verbatim
        if row["pattern"] == "1p":
            assert row["topic_entity"] in row["messages"][0]["content"]


def test_renderer_prints_template_syntax_directly():
    """The Renderer itself, on a plan whose entity and relation labels are template code."""
    import random

    from kg2tool.synth.language.render import Renderer
    from kg2tool.synth.plans.tree import Anchor, Project

    g = rdflib.Graph()
    for i, lab in enumerate(TEMPLATE_LABELS):
        g.add((EX[f"e{i}"], RDFS.label, Literal(lab)))
        g.add((EX[f"e{i}"], EX.r, EX[f"e{(i + 1) % len(TEMPLATE_LABELS)}"]))
    g.add((EX.r, RDFS.label, Literal("{{ self.__init__ }} of")))
    from kg2tool.graph.build import build_graph

    kg = build_graph(g)
    rel = next(iter(kg.relations))
    r = Renderer(shapes=["simple"])
    for i, lab in enumerate(TEMPLATE_LABELS):
        eid = kg.index[str(EX[f"e{i}"])]
        plan = Project(rel, Anchor(eid))
        answer = kg.name(kg.relations[rel].forward[eid][0])
        ctx = r.context(kg, "simple", plan, [answer])
        for seed in range(4):
            q, a = r.render("simple", ctx, random.Random(seed))
            assert lab in q and answer in a
            assert "{{ self.__init__ }}" in q or "self" not in q


def test_no_file_is_named_from_graph_text(run):
    base, graph, out = run
    # nothing beside the output but the graph itself (no work or temporary folder), nothing outside it
    assert sorted(p.name for p in base.iterdir()) == ["hostile.ttl", "out"]
    allowed = re.compile(
        r"^(README\.md|validation_report\.json|kg2tool_config\.yaml|lexicon\.yaml"
        r"|(sft|dpo)/(train|validation|test)-[0-9a-f]{16}\.parquet"
        r"|bfcl/(possible_answer/)?BFCL_v4_(simple|multiple|parallel|parallel_multiple|irrelevance)\.json)$"
    )
    files = [p.relative_to(out).as_posix() for p in out.rglob("*")]
    assert files
    for f in files:
        assert (out / f).is_dir() or allowed.match(f), f
        assert not (out / f).is_symlink()
        assert (out / f).resolve().is_relative_to(out.resolve())
    fixed = {"kg2tool_config.yaml", "lexicon.yaml"}  # constant names (they hold "con"), never from graph text
    for lab in PATH_LABELS + ["escape", "passwd", "windows"]:
        assert not any(lab in part for f in files if f not in fixed for part in f.split("/")), lab


def test_rdfxml_external_entities_are_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-CONTENT")
    doc = f"""<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [ <!ENTITY xxe SYSTEM "file://{secret}"> ]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="http://example.org/a"><rdfs:label>[&xxe;]</rdfs:label>
    <ex:p rdf:resource="http://example.org/b"/></rdf:Description>
</rdf:RDF>
"""
    path = tmp_path / "xxe.rdf"
    path.write_text(doc)
    kg = load_graph([path])
    assert "TOPSECRET" not in json.dumps(kg.labels + kg.names)


def test_jsonld_context_cannot_read_local_files(tmp_path):
    """A JSON-LD @context naming a local file is refused before rdflib would open it."""
    from kg2tool.common.errors import InputError

    ctx = tmp_path / "ctx.jsonld"
    ctx.write_text(json.dumps({"@context": {"name": "http://www.w3.org/2000/01/rdf-schema#label"}}))
    doc = tmp_path / "g.jsonld"
    nested = {"@id": "http://example.org/b", "@context": [{"x": "http://example.org/x"}, str(ctx)]}
    doc.write_text(json.dumps({"@id": "http://example.org/a", "http://example.org/p": nested}))
    with pytest.raises(InputError, match="external context"):
        load_graph([doc])
    doc.write_text(json.dumps({"@context": {"@import": f"file://{ctx}"}, "@id": "http://example.org/a"}))
    with pytest.raises(InputError, match="external context"):
        load_graph([doc])
    # an inline context is fine
    doc.write_text(
        json.dumps(
            [
                {
                    "@context": {"name": "http://www.w3.org/2000/01/rdf-schema#label", "p": {"@type": "@id"}},
                    "@id": "http://example.org/a",
                    "name": "A",
                    "http://example.org/p": {"@id": "http://example.org/b"},
                }
            ]
        )
    )
    assert "A" in load_graph([doc]).names


def test_token_never_in_synth_output_or_card(run):
    base, _, out = run
    for f in out.rglob("*"):
        if f.is_file():
            assert TOKEN.encode() not in f.read_bytes(), f
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "hf_" not in card


class _EchoHub(http.server.BaseHTTPRequestHandler):
    """A stand-in Hub that accepts the card and then fails every call, echoing the Authorization header back
    in its error body and headers: the worst case for a token leaking into an error message."""

    status = 401

    def _reply(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        auth = self.headers.get("Authorization")
        if self.path.startswith("/api/validate-yaml"):
            code, body = 200, {}
        else:
            code, body = self.status, {"error": f"echo {self.command} {self.path} auth={auth}"}
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Error-Message", f"auth={auth}")
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_HEAD = _reply

    def log_message(self, *args):
        pass


@pytest.fixture
def echo_hub():
    servers = {}

    def start(status: int) -> str:
        handler = type("Echo", (_EchoHub,), {"status": status})
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers[status] = srv
        return f"http://127.0.0.1:{srv.server_address[1]}"

    yield start
    for srv in servers.values():
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("how", ["HF_TOKEN", "token-env"])
def test_publish_never_shows_the_token(run, echo_hub, status, how, tmp_path):
    _, _, out = run
    token = TOKEN if how == "HF_TOKEN" else "plain-secret-without-prefix-42"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env |= {"HF_ENDPOINT": echo_hub(status), "HF_HUB_DISABLE_TELEMETRY": "1", "HF_HOME": str(tmp_path / "hf")}
    env |= {"HF_HUB_VERBOSITY": "debug"}  # even huggingface_hub's debug log must not show it
    args = [sys.executable, "-m", "kg2tool.cli", "publish", str(out), "--repo-id", "me/hostile"]
    if how == "HF_TOKEN":
        env["HF_TOKEN"] = token
    else:
        env["MY_SECRET"] = token
        args += ["--token-env", "MY_SECRET"]
    res = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 4, res.stderr
    assert "auth=Bearer ***" in res.stderr  # the server did echo the header: the message was scrubbed
    assert token not in res.stdout + res.stderr
    assert "kg2tool publish: error:" in res.stderr


def test_publish_server_error_is_not_called_a_network_failure(run, echo_hub, tmp_path):
    _, _, out = run
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env |= {"HF_ENDPOINT": echo_hub(500), "HF_TOKEN": TOKEN, "HF_HOME": str(tmp_path / "hf")}
    args = [sys.executable, "-m", "kg2tool.cli", "publish", str(out), "--repo-id", "me/hostile"]
    res = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 4
    assert "network failure" not in res.stderr


MODEL_OUTPUTS = {
    "python": [
        "get_x(entity=__import__('os').system('touch {s}'))",
        "[f(a=open('{s}', 'w'))]",
        "get_x(entity='a' + __import__('os').popen('touch {s}').read())",
        "(lambda: __import__('os').system('touch {s}'))()",
        "get_x(entity=" + "-" * 100_000 + "1)",
        "get_x(entity=" + "[" * 5000 + "]" * 5000 + ")",
    ],
    "json": [
        '{{"name": "get_x", "arguments": {{"entity": "__import__(\'os\').system(\'touch {s}\')"}}}}',
        "[" * 100_000 + "]" * 100_000,
    ],
    "hermes": ['<tool_call>{{"name": "get_x", "arguments": {{"entity": "{{{{ 7*7 }}}} $(touch {s})"}}}}</tool_call>'],
}


def test_model_output_is_parsed_never_evaluated(tmp_path):
    from kg2tool.llm.parsers import get_parser

    sentinel = tmp_path / "SENTINEL"
    for name, outputs in MODEL_OUTPUTS.items():
        parse = get_parser(name)
        for text in outputs:
            parsed = parse(text.format(s=sentinel))
            for call in parsed.calls:  # whatever was read is data: strings stay strings
                assert isinstance(call["arguments"], dict)
            if name == "python":
                assert not parsed.calls, text[:80]
    assert not sentinel.exists()
    got = get_parser("hermes")(MODEL_OUTPUTS["hermes"][0].format(s=sentinel)).calls
    assert got == [{"name": "get_x", "arguments": {"entity": f"{{{{ 7*7 }}}} $(touch {sentinel})"}}]


def test_deeply_nested_hermes_output_is_an_error_not_a_crash():
    from kg2tool.llm.parsers import get_parser

    parsed = get_parser("hermes")("<tool_call>" + "[" * 100_000 + "</tool_call>")
    assert not parsed.calls and parsed.errors
