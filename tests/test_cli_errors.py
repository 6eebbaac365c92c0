"""Clear errors on the command line, with the exit codes of the README's table (issue 10, item 5).

2 usage error · 3 input error (names the file) · 4 output error · 5 missing optional extra (names the
`pip install 'kg2tool[...]'`) · 6 nothing to produce. No traceback in any of them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args, pre: str = "", env=None):
    """`kg2tool ARGS` in a fresh interpreter; `pre` is Python run first (e.g. to make a package unimportable)."""
    code = f"import sys\n{pre}\nfrom kg2tool.cli import main\nsys.exit(main({[str(a) for a in args]!r}))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in res.stderr, res.stderr
    return res


def readme_exit_codes() -> dict[int, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(m[1]): m[2] for m in re.finditer(r"^\| (\d+) \| (.+?) \|$", section, re.M)}


def test_readme_documents_every_exit_code():
    from kg2tool.common import errors

    codes = readme_exit_codes()
    assert set(codes) == {0, 1, 2, 3, 4, 5, 6, 7, 130}
    assert errors.PARTIAL == 7 and "partial" in codes[7]
    for cls, code in [
        (errors.UsageError, 2),
        (errors.InputError, 3),
        (errors.OutputError, 4),
        (errors.MissingExtraError, 5),
        (errors.NothingToDoError, 6),
    ]:
        assert cls.exit_code == code
    assert "pip install" in codes[5] and "--overwrite" in codes[4] and "line" in codes[3]


@pytest.mark.parametrize(
    "args,fragment",
    [
        ([], "usage: kg2tool"),
        (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
        (["synth"], "required: --graph, --out"),
        (["synth", "--graph", "g.ttl", "--out", "o", "--bogus-flag"], "unrecognized arguments: --bogus-flag"),
        (["synth", "--graph", "g.ttl", "--out", "o", "-n", "abc"], "invalid int value: 'abc'"),
        (["synth", "--graph", "g.ttl", "--out", "o", "--backend", "spark"], "invalid choice: 'spark'"),
        (["tools"], "required: --graph"),
        (["inspect"], "required: dir"),
        (["eval", "score", "--tests", "t.json"], "required: --predictions, --out"),
    ],
)
def test_wrong_flags_exit_2(args, fragment):
    res = run(*args)
    assert res.returncode == 2, res.stderr
    assert fragment in res.stderr + res.stdout


@pytest.fixture(scope="module")
def graph(tmp_path_factory) -> Path:
    from conftest import make_small_graph

    path = tmp_path_factory.mktemp("cli") / "g.ttl"
    path.write_text(make_small_graph(), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "extra,fragment",
    [
        (["-n", "0"], "-n must be positive"),
        (["--max-answers", "0"], "--max-answers must be at least 1"),
        (["--max-fanout", "0"], "--max-fanout (walk.max_fanout) must be at least 1"),
        (["--max-set", "1"], "--max-set (walk.max_set) must be at least 2"),
        (["--splits", "0.9,0.2,0.1"], "summing to 1"),
        (["--only", "simple,bogus"], "unknown shape 'bogus'"),
        (["--mix", "simple=abc"], "must be a number"),
        (["--only", "irrelevance", "--mix", "irrelevance=0"], "every shape weight 0"),
    ],
)
def test_bad_option_values_exit_2_and_write_nothing(tmp_path, graph, extra, fragment):
    out = tmp_path / "out"
    res = run("synth", "--graph", graph, "--out", out, "--no-progress", *extra)
    assert res.returncode == 2 and fragment in res.stderr, res.stderr
    assert list(tmp_path.iterdir()) == []


def test_bad_workers_value_leaves_nothing_behind(tmp_path, graph):
    out = tmp_path / "out"
    res = run("synth", "--graph", graph, "--out", out, "--no-progress", "-n", 10, "--workers", 0)
    assert res.returncode == 2 and "--workers must be at least 1" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_unknown_config_field_is_a_usage_error(tmp_path, graph):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("n: 10\nbogus_field: 1\n")
    res = run("synth", "--graph", graph, "--out", tmp_path / "out", "--config", cfg)
    assert "unknown field 'bogus_field'" in res.stderr
    assert res.returncode == 2


def test_missing_and_malformed_input_files_exit_3(tmp_path, graph):
    out = tmp_path / "out"
    cases = [
        (["--graph", tmp_path / "none.ttl"], "none.ttl: no such file"),
        (["--graph", graph, "--config", tmp_path / "none.yaml"], "none.yaml: no such config file"),
        (["--graph", graph, "--attribution", tmp_path / "none.md"], "none.md: cannot read the attribution file"),
        (["--graph", graph, "--templates", tmp_path / "tpl"], "phrases.yaml: no such template file"),
    ]
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("n: [1,\n")
    cases.append((["--graph", graph, "--config", bad_yaml], "bad.yaml"))
    for args, fragment in cases:
        res = run("synth", "--out", out, "-n", 5, "--no-progress", *args)
        assert res.returncode == 3, (args, res.stderr)
        assert fragment in res.stderr, (args, res.stderr)
        assert not out.exists()
    res = run("tools", "--graph", tmp_path / "none.nt")
    assert res.returncode == 3 and "none.nt: no such file" in res.stderr
    res = run("inspect", tmp_path / "nodata")
    assert res.returncode == 3 and "nodata" in res.stderr


def test_output_errors_exit_4(tmp_path, graph):
    afile = tmp_path / "afile"
    afile.write_text("keep")
    res = run("synth", "--graph", graph, "--out", afile, "-n", 5, "--no-progress")
    assert res.returncode == 4 and "--overwrite" in res.stderr
    res = run("synth", "--graph", graph, "--out", afile / "sub", "-n", 5, "--no-progress")
    assert res.returncode == 4 and "afile" in res.stderr
    assert afile.read_text() == "keep"


def test_no_support_exits_6(tmp_path, graph):
    res = run("synth", "--graph", graph, "--out", tmp_path / "o", "--min-support", 100000, "--no-progress")
    assert res.returncode == 6 and "at least 100000 facts (--min-support)" in res.stderr
    assert not (tmp_path / "o").exists()


BLOCK_TORCH = "sys.modules['torch'] = None  # `import torch` raises ImportError, find_spec returns None"


def test_pretrain_without_torch_names_the_extra(tmp_path):
    res = run("pretrain", "--config", tmp_path / "x.yaml", pre=BLOCK_TORCH)
    assert res.returncode == 5, res.stderr
    assert "pip install 'kg2tool[train]'" in res.stderr and "'torch'" in res.stderr
    assert res.stderr.count("\n") == 1


def test_ray_backend_without_ray_names_the_extra(tmp_path, graph):
    pre = "sys.modules['ray'] = None"
    res = run(
        "synth", "--graph", graph, "--out", tmp_path / "o", "-n", 10, "--workers", 2, "--backend", "ray", pre=pre
    )
    assert res.returncode == 5, res.stderr
    assert "pip install 'kg2tool[ray]'" in res.stderr
    assert not (tmp_path / "o").exists()


def test_missing_extra_leaves_nothing_behind(tmp_path, graph):
    pre = "sys.modules['ray'] = None"
    res = run(
        "synth", "--graph", graph, "--out", tmp_path / "o", "-n", 10, "--workers", 2, "--backend", "ray", pre=pre
    )
    assert res.returncode == 5
    assert list(tmp_path.iterdir()) == []


def test_require_extra_directly(monkeypatch):
    from kg2tool.common.errors import MissingExtraError, require_extra

    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'kg2tool\[vllm\]'") as exc:
        require_extra("vllm", "vllm")
    assert exc.value.exit_code == 5
    require_extra("json", "core")  # present: no error


def test_internal_error_is_one_line_unless_debug(tmp_path, graph):
    """A bug (here: a forced crash inside synth) exits 1 with a short message; KG2TOOL_DEBUG=1 shows the traceback."""
    import os

    pre = "import kg2tool.synth.run.pipeline as s\ndef boom(*a, **k): raise RuntimeError('forced')\ns.run_synth = boom"
    res = run("synth", "--graph", graph, "--out", tmp_path / "o", pre=pre)
    assert res.returncode == 1
    assert "internal error: RuntimeError: forced" in res.stderr and "KG2TOOL_DEBUG=1" in res.stderr
    env = dict(os.environ, KG2TOOL_DEBUG="1")
    code = f"import sys\n{pre}\nfrom kg2tool.cli import main\nsys.exit(main(['synth', '--graph', '{graph}', '--out', 'o']))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 1 and "Traceback" in res.stderr
