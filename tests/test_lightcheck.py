"""kg2tool.common.lightcheck: a module using typeguard's @typechecked imported without its instrumentation, with
the checks kg2tool relies on kept; and inflect imported that way answers as the fully checked one."""

import subprocess
import sys
import textwrap

import pytest

from kg2tool.common.lightcheck import import_light

# typeguard is inflect's dependency, not kg2tool's: its exception is named, not imported
NONEMPTY = {"Word": ("an instance of Word", lambda v: isinstance(v, str) and len(v) >= 1)}


def test_the_annotated_arguments_are_checked_and_nothing_else(tmp_path, monkeypatch):
    (tmp_path / "kgt_light_mod.py").write_text(textwrap.dedent('''
        from __future__ import annotations
        from typeguard import typechecked

        class Word(str):
            pass

        class Engine:
            @typechecked
            def plural(self, text: Word, count: int | None = None) -> str:
                return text + "s"

            @typechecked
            def other(self, n: int) -> int:
                return n

        @typechecked
        def first(text: Word) -> str:
            return text[:1]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = import_light("kgt_light_mod", NONEMPTY)
    try:
        e = mod.Engine()
        assert e.plural("cat") == "cats" and e.plural(text="dog", count="x") == "dogs"  # count: not checked
        assert e.other("not an int") == "not an int"  # typeguard would refuse it; the light check does not look
        assert mod.first("ab") == "a"
        for bad in ("", None, 3):
            with pytest.raises(Exception, match='argument "text"') as info:
                e.plural(bad)
            assert type(info.value).__name__ == "TypeCheckError"
        with pytest.raises(Exception, match='argument "text"'):
            mod.first(text="")
        typechecked = sys.modules["typeguard"].typechecked  # put back after the import
        assert typechecked.__module__.startswith("typeguard") and typechecked.__name__ == "typechecked"
    finally:
        sys.modules.pop("kgt_light_mod", None)


PROBE = """
import sys
if sys.argv[1] == "light":
    from kg2tool.synth.run.synthesizer import _import_inflect
    _import_inflect()
import inflect
e = inflect.engine()
for w in ["", "person", "place of birth", "child", "mouse", "is", "has", "hour", "university", "sheep", "é", 3, None]:
    for m in ("a", "plural_noun", "plural_verb", "singular_noun"):
        try:
            r = getattr(e, m)(w)
        except Exception as x:
            r = type(x).__name__
        print(repr(w), m, repr(r))
"""


def test_inflect_imported_light_answers_as_the_checked_one():
    out = {mode: subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True).stdout
           for mode in ("light", "checked")}  # fmt: skip
    assert out["light"] == out["checked"]
    assert "'' a 'TypeCheckError'" in out["light"] and "'child' plural_noun 'children'" in out["light"]
