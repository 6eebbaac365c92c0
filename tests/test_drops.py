"""Plans the synthesizer leaves out because nobody would ask them: names kg2tool made up to tell homonyms apart and
placeholder nodes (kg2tool.synth.run.synthesizer: `made_up_name`, `placeholder`)."""

from kg2tool.graph.build import load_graph
from kg2tool.synth.run.synthesizer import is_placeholder, made_up_name

TTL = """@prefix : <http://h.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:City rdfs:label "city" .  :Country rdfs:label "country" .  :Person rdfs:label "person" .
:c1 a :City ; rdfs:label "Georgia" .  :c2 a :Country ; rdfs:label "Georgia" .
:p a :Person ; rdfs:label "Ann" ; :born :c1 ; :citizen :c2 .
"""


def test_a_name_made_up_for_homonyms_is_never_named(tmp_path):
    path = tmp_path / "h.ttl"
    path.write_text(TTL, encoding="utf-8")
    kg = load_graph(str(path))
    made = {kg.name(e) for e in range(len(kg)) if made_up_name(kg, e)}
    assert made == {"Georgia (city)", "Georgia (country)"}
    assert not made_up_name(kg, kg.resolve("Ann"))


def test_placeholder_nodes_are_recognized():
    assert all(map(is_placeholder, ["unknown-planet", "Unknown", "N/A", "none", "unknown_species"]))
    assert not any(map(is_placeholder, ["Unknown Pleasures", "Tatooine", "Nonesuch Records", "Otherworld"]))


def test_a_label_with_its_own_note_is_never_named(tmp_path):
    """Nobel's places are labelled "Posen (now Poznan, Poland)": readers rejected every question that named one
    ("what is the successor of Germany (now Poland)?"); such anchors are dropped as `annotated_name`, while the
    names still come back as answers."""
    from kg2tool.synth.checks.unsaid import unsaid_anchor
    from kg2tool.synth.plans.tree import Anchor, Project

    path = tmp_path / "now.ttl"
    path.write_text("""@prefix : <http://h.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:p rdfs:label "Ann" ; :born :c .  :c rdfs:label "Posen (now Poznan, Poland)" .
:u rdfs:label "unknown-planet" .  :q rdfs:label "Bo" ; :born :u .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph(str(path))
    born = next(iter(kg.relations))
    assert unsaid_anchor(kg, Project(born, Anchor(kg.resolve("Posen (now Poznan, Poland)")), True)) == "annotated_name"
    assert unsaid_anchor(kg, Project(born, Anchor(kg.resolve("Ann")))) is None  # answered by the noted name: fine
    assert unsaid_anchor(kg, Project(born, Anchor(kg.resolve("unknown-planet")), True)) == "placeholder"
