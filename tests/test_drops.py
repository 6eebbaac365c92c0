"""Plans the synthesizer leaves out because nobody would ask them: names kg2tool made up to tell homonyms apart and
placeholder nodes (kg2tool.synth.synthesizer: `made_up_name`, `placeholder`)."""

from kg2tool.graph.build import load_graph
from kg2tool.synth.synthesizer import is_placeholder, made_up_name

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
