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


def _family(tmp_path):
    """A small graph: Ann's father is Bob, Bob was born in Leeds; Cid has two fathers on record."""
    ex = "http://example.org/"
    lines = [f"@prefix ex: <{ex}> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for key, name, kind in [("ann", "Ann Hale", "Person"), ("bob", "Bob Hale", "Person"), ("cid", "Cid Roe", "Person"),
                            ("dan", "Dan Roe", "Person"), ("eve", "Eve Roe", "Person"), ("leeds", "Leeds", "City"),
                            ("york", "York", "City")]:
        lines.append(f'ex:{key} a ex:{kind} ; rdfs:label "{name}" .')
    lines += ["ex:ann ex:father ex:bob .", "ex:bob ex:placeOfBirth ex:leeds .", "ex:cid ex:father ex:dan, ex:eve .",
              "ex:dan ex:placeOfBirth ex:york .", "ex:eve ex:placeOfBirth ex:leeds ."]
    path = tmp_path / "family.ttl"
    path.write_text("\n".join(lines) + "\n")
    from kg2tool.graph.build import load_graph

    return load_graph([path])


def test_a_chain_is_answered_hop_by_hop_where_each_hop_found_one(tmp_path):
    from kg2tool.synth.plans.tree import Anchor, Project

    kg = _family(tmp_path)
    ids = {kg.name(e): e for e in range(len(kg.types))}
    father, born = "http://example.org/father", "http://example.org/placeOfBirth"
    r = Renderer()
    one = r.context(kg, "2p", Project(born, Project(father, Anchor(ids["Ann Hale"]))), ["Leeds"])
    assert "Bob Hale" in one["via"] and one["via"].endswith("Bob Hale was born in Leeds"), one["via"]
    # two fathers: which was born where is not told by a hop-by-hop answer of one name
    two = r.context(kg, "2p", Project(born, Project(father, Anchor(ids["Cid Roe"]))), ["Leeds", "York"])
    assert two["via"] == ""
    # a hop that found a person beside answers that are people: no via (it would read as one more answer)
    same = r.context(kg, "2p", Project(father, Project(father, Anchor(ids["Ann Hale"]))), ["X"])
    assert same["via"] == ""


def test_a_union_of_lookups_is_answered_per_branch(tmp_path):
    from kg2tool.synth.plans.tree import Anchor, Project, SetOp

    kg = _family(tmp_path)
    ids = {kg.name(e): e for e in range(len(kg.types))}
    born = "http://example.org/placeOfBirth"
    plan = SetOp("union", (Project(born, Anchor(ids["Bob Hale"])), Project(born, Anchor(ids["Dan Roe"]))))
    each = Renderer().context(kg, "2u", plan, ["Leeds", "York"])["each"]
    assert each == "Bob Hale was born in Leeds. Dan Roe was born in York", each


def test_no_count_of_an_open_class():
    from pathlib import Path

    from kg2tool.graph.build import load_graph
    from kg2tool.synth.language.lexicon import derive_lexicon
    from kg2tool.synth.language.wording import Speaker
    from kg2tool.synth.plans.tree import Anchor, Count, Project
    from kg2tool.synth.run.synthesizer import counts_values

    kg = load_graph([Path(__file__).parent / "data" / "conventions" / "snake_kb.ttl"])
    sp = Speaker(kg, derive_lexicon(kg))
    rel = {kg.relations[i].label: i for i in kg.relations}
    genre, actors = rel["has genre"], rel["starred actors"]
    # "How many films are comedies?" counts an open class a graph holds part of; a film's cast is the film's own
    assert counts_values(Count(Project(genre, Anchor(sorted(kg.relations[genre].inverse)[0]), inverse=True)), sp)
    assert not counts_values(Count(Project(actors, Anchor(sorted(kg.relations[actors].forward)[0]))), sp)


def test_a_name_written_in_lower_case_keeps_its_case_at_the_start_of_a_sentence():
    """Codes, tags and brands that are written to start in lower case (`man_made = pier`, `addr:city`, `eBay`) keep
    their case when a sentence opens with them (The Chicago Manual of Style, 8.153); other sentences open in upper
    case."""
    from kg2tool.synth.language.render import _capfirst

    said = [_capfirst(s) for s in ("man_made = pier's key is man_made", "addr:city applies to Node", "eBay's founder",
                                    "tourism = hotel's source", "the key of X", "where was X born")]  # fmt: skip
    assert said == ["man_made = pier's key is man_made", "addr:city applies to Node", "eBay's founder",
                    "tourism = hotel's source", "The key of X", "Where was X born"]  # fmt: skip


def test_a_clause_name_is_quoted_and_a_series_with_commas_takes_semicolons():
    """A name that is a clause (a reaction named by what happens: "MEK2 binds ERK-2") is set off in quotes and
    takes no possessive; a series of three or more whose items hold commas is separated by semicolons (The Chicago
    Manual of Style, 6.60); two items stay "A and B"."""
    from kg2tool.synth.language.grammar import and_join, clause_name, possessive, said_name

    assert [clause_name(n) for n in ("MEK2 binds ERK-2", "Type II receptor phosphorylates type I receptor",
                                     "Galaxy tails", "Ella Fitzgerald Sings the Cole Porter Song Book", "The Beatles")] == [True, True, False, False, False]  # fmt: skip
    assert said_name("MEK2 binds ERK-2") == '"MEK2 binds ERK-2"' and possessive("Receptor phosphorylates Smad") == ""
    assert and_join(["Washington, D.C.", "Paris", "Rome"]) == "Washington, D.C.; Paris; and Rome"
    assert and_join(["Washington, D.C.", "Paris"]) == "Washington, D.C. and Paris"
    assert and_join(["Rome", "Paris", "Oslo"]) == "Rome, Paris and Oslo"
    assert and_join(["Gawar (Place)", "Gawar (Place, no. 2)", "Hakkari"]) == "Gawar (Place), Gawar (Place, no. 2) and Hakkari"
