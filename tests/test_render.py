"""Rendering (kg2tool.synth.language.render): graph text is data to the templates, and broken templates are refused."""

import random

import pytest

from kg2tool.synth.language.render import Renderer
from kg2tool.synth.run.synthesizer import SynthConfig, Synthesizer


@pytest.fixture(scope="module")
def synth(small_kg):
    return Synthesizer(small_kg, SynthConfig(n=200, seed=3))


def test_templates_treat_graph_text_as_data(synth, small_kg):
    from kg2tool.synth.plans.tree import Anchor, Project

    odd = small_kg.resolve("{{ 7*7 }} <b>Robert'); DROP TABLE--</b>")
    rel = next(r for r in small_kg.relations.values() if r.label == "place of birth")
    plan = Project(rel.iri, Anchor(odd))
    ctx = synth.renderer.context(small_kg, "simple", plan, ["City 7"])
    q, a = synth.renderer.render("simple", ctx, random.Random(0))
    assert "{{ 7*7 }}" in q and "49" not in q and "City 7" in a


def test_renderer_rejects_broken_templates(tmp_path):
    from kg2tool.common.errors import InputError
    from kg2tool.synth.language.render import default_template_dir

    for f in default_template_dir().glob("*.yaml"):
        (tmp_path / f.name).write_text(f.read_text())
    (tmp_path / "simple.yaml").write_text('questions: ["What is {{ q "]\nanswers: ["x"]\n')
    with pytest.raises(InputError, match=r"simple\.yaml:questions\[0\]: template error"):
        Renderer(tmp_path, shapes=["simple"])


def test_a_name_that_ends_with_a_period_takes_no_second_one_inside_or_at_the_end():
    """"Ross worked for Warner Bros.. The genre ..." read as a typo to a reader: one mark after such a name,
    mid-text and at the end; an ellipsis and names made of dots stay as written."""
    from kg2tool.synth.language.render import _finish

    assert _finish("X worked for Warner Bros.. X plays piano.") == "X worked for Warner Bros. X plays piano."
    assert _finish("Who is Acme Inc.?.") == "Who is Acme Inc.?" and _finish("It was Bros..") == "It was Bros."
    assert _finish("Wait...") == "Wait..." and _finish(r"what is ..\..\windows of?") == r"what is ..\..\windows of?"
