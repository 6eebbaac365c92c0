"""Plans the synthesizer leaves out because nobody would ask them: names kg2tool made up to tell homonyms apart and
placeholder nodes, labels that name nothing alone (kg2tool.synth.run.synthesizer: `made_up_name`, `placeholder`, `not_a_name`)."""

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


def test_a_label_that_names_nothing_alone_is_never_named(tmp_path):
    """A page number, a plate, a file name, a URL slug, a code: what a record says of itself, no name a person asks
    about (`not_a_name`); the label still comes back as an answer."""
    from kg2tool.synth.checks.unsaid import not_a_name, unsaid_anchor
    from kg2tool.synth.plans.tree import Anchor, Project

    for label in ["365", "xxiv", "v", "XIII", "Pl. XIII", "Plate XXVII", "pt.II: fasc.2", "Vol. 3", "No. 5",
                  "lcu.xml", "De-Weltall2.ogg", "45903-0.txt", "lars-loekke-rasmussen",
                  "1 34-totaal-aantal-actieve-allocatiepunten", "infoProductAccessService", "108|PLAAT%II", "mr",
                  "verdeling-van-het-personeel.parquet", "Vocabulary Version $$QUDT_VERSION$$ Metadata",
                  "Sicily before history : an archaeological survey from the Palaeolithic to the Iron Age",
                  "imdb:nm0000002", "tmdb:10400", "wikidata:Q832732"]:  # fmt: skip (compact IRIs with a number)
        assert not_a_name(label), label
    for label in ["1984", "PT 109", "P.S.", "Mix", "Vivid", "Li", "mother-in-law", "glyceraldehyde-3-phosphate",
                  "miRNA172", "iPhone", "Node.js", "TP-2.com", "Waarnemingen.be", "R2-D2", "Chanel No. 5", "鉄塔",
                  "Screen Actors Guild Award for Outstanding Performance by a Cast in a Motion Picture",
                  "Star Wars: Episode IV", "Ratio:1"]:  # fmt: skip
        assert not not_a_name(label), label
    path = tmp_path / "pages.ttl"
    path.write_text("""@prefix : <http://h.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:p1 rdfs:label "Pl. XIII" ; :partOf :b .  :b rdfs:label "Flora Graeca" .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph(str(path))
    part = next(iter(kg.relations))
    assert unsaid_anchor(kg, Project(part, Anchor(kg.resolve("Pl. XIII")))) == "not_a_name"
    assert unsaid_anchor(kg, Project(part, Anchor(kg.resolve("Flora Graeca")), True)) is None
