"""Names of entities (kg2tool.graph.names): local names of IRIs, language preference, cleaned text, the lenient
lookup key and display names unique per entity."""

from kg2tool.graph.names import clean_text, lang_rank, normalize_name, pick_texts, readable_local_name, unique_names


def test_readable_local_name():
    assert readable_local_name("http://dbpedia.org/resource/Barack_Obama") == "Barack Obama"
    assert readable_local_name("http://ex.org/ns#Caf%C3%A9_au_lait") == "Café au lait"
    assert readable_local_name("http://ex.org/things/ZeroX/") == "ZeroX"
    assert readable_local_name("urn:isbn:0451450523") == "0451450523"
    assert readable_local_name("http://ex.org/_/") == "http://ex.org/_/"  # nothing readable: the IRI itself


def test_language_preference_and_order():
    assert [lang_rank(tag, "en") for tag in ("en", "EN-gb", None, "de")] == [0, 1, 2, 3]
    texts = [("Zed", "de"), ("plain", None), ("Colour", "en-GB"), ("Color", "en"), ("Aardvark", None)]
    assert pick_texts(texts, "en") == ["Color", "Colour", "Aardvark", "plain", "Zed"]
    assert pick_texts(texts, "de")[0] == "Zed"
    assert pick_texts([], "en") == []


def test_clean_text_and_normalized_key():
    assert clean_text("  a\n\tb   c ") == "a b c"
    # labels some datasets store HTML-escaped (the Nobel data's "Universit&eacute; Paris-Sud") read as written
    assert clean_text("Universit&eacute; Paris-Sud") == "Université Paris-Sud"
    assert clean_text("AT&T Bell Labs") == "AT&T Bell Labs" and clean_text("J&uuml;lich") == "Jülich"
    assert clean_text("x" * 10, limit=5) == "xxxx\u2026"
    assert normalize_name("Ünïcode  Name!") == normalize_name("unicode name") == "unicodename"
    assert normalize_name("São_Paulo (SP)") == "saopaulosp"
    assert normalize_name("!!!") == ""


def test_unique_names_disambiguate_shared_labels():
    labels = ["Paris", "Paris", "Paris", "Lyon", "Twin", "Twin"]
    iris = ["http://ex.org/Paris", "http://ex.org/Paris_Texas", "http://ex.org/Paris_2", "http://ex.org/Lyon",
            "http://a.org/x/Twin", "http://b.org/y/Twin"]  # fmt: skip
    descs = {0: "capital of France", 1: "city in Texas", 2: "capital of France", 4: "", 5: ""}
    asked = []

    def description(i: int) -> str:
        asked.append(i)
        return descs[i]

    names = unique_names(labels, description, iris)
    # a shared description and a local name equal to the label tell nothing apart: the first text there is
    assert names[0] == "Paris (capital of France)"
    assert names[1] == "Paris (city in Texas)"
    assert names[2] == "Paris (Paris 2)"  # the description is shared: the local name
    assert names[3] == "Lyon"
    assert names[4] == "Twin (x)" and names[5] == "Twin (y)"  # the IRI's folder, never the IRI
    assert len(set(names)) == len(names)
    assert sorted(asked) == [0, 1, 2, 4, 5]  # only entities with a shared label are asked for a description


def test_an_iri_minted_as_class_and_name_names_the_entity_without_its_class(tmp_path):
    """An unlabelled node whose IRI is its class's name and its own (`Film_Frost_Nixon_2008` of a Film,
    `Person_Ron_Howard` of a Person) is named without the class, by both loaders; a name that only starts like the
    class ("Filmore Hall") or would be left without a word ("Film 1961") keeps it."""
    from kg2tool.graph.build import load_graph
    from kg2tool.graph.names import entity_name_from_iri
    from kg2tool.graph.store import open_store

    film = "http://x.org/onto#Film"
    assert entity_name_from_iri("http://x.org/Film_Frost_Nixon_2008", [film]) == "Frost Nixon 2008"
    assert entity_name_from_iri("http://x.org/Filmore_Hall", [film]) == "Filmore Hall"
    assert entity_name_from_iri("http://x.org/Film_1961", [film]) == "Film 1961"
    assert entity_name_from_iri("http://x.org/Person_of_Interest", ["http://x.org/Person"]) == "Person of Interest"
    assert entity_name_from_iri("http://x.org/Film_At_Play_1991", [film]) == "At Play 1991"
    path = tmp_path / "films.ttl"
    path.write_text("""@prefix : <http://x.org/> .  @prefix o: <http://x.org/onto#> .
:Film_Frost_Nixon_2008 a o:Film ; o:director :Person_Ron_Howard .  :Person_Ron_Howard a :Person .
:Film_Apollo_13_1995 a o:Film ; o:director :Person_Ron_Howard ; o:cast :Person_Kevin_Bacon .
""", encoding="utf-8")  # fmt: skip (an untyped node is read by its namespace's classes: Person_Kevin_Bacon)
    kg = load_graph([path])
    assert sorted(kg.names) == ["Apollo 13 1995", "Frost Nixon 2008", "Kevin Bacon", "Ron Howard"]
    assert sorted(open_store(tmp_path / "st", [path], log=lambda *a, **k: None).names) == sorted(kg.names)


def test_a_person_without_a_label_is_named_by_their_given_and_family_names(tmp_path):
    """A subject without a label whose given and family names are properties of their own (FOAF's givenName and
    familyName, `first-name`/`last-name`, vCard's given-name) is named by them, a middle initial with its period
    ("Joseph P. Kennedy"), by both loaders; a label wins, and the parts stay attributes. Only a thing of its own (a
    link or a type) is named so: a node reached by a link that says "name" (GND's real name of a person) is a name."""
    from kg2tool.graph.build import load_graph
    from kg2tool.graph.personal_names import full_name, name_part
    from kg2tool.graph.store import open_store

    assert [name_part(p) for p in ("http://xmlns.com/foaf/0.1/givenName", "http://f.org/last-name",
                                   "http://f.org/surname", "http://www.w3.org/2006/vcard/ns#additional-name",
                                   "http://f.org/name", "http://f.org/nickname")] == [
        "given", "family", "family", "middle", "", ""]  # fmt: skip
    assert full_name({"given": "Joseph", "middle": "P", "family": "Kennedy"}) == "Joseph P. Kennedy"
    assert full_name({"given": "Rose"}) == ""
    assert full_name({"given": "Ethel", "middle": "nil", "family": "Skakel"}) == "Ethel Skakel"  # a missing part
    path = tmp_path / "family.nt"
    path.write_text("""<http://f.org/p6> <http://f.org/first-name> "Rose" .
<http://f.org/p6> <http://f.org/last-name> "Kennedy" .
<http://f.org/p6> <http://f.org/has-parent> <http://f.org/p1> .
<http://f.org/p1> <http://f.org/first-name> "Joseph" .
<http://f.org/p1> <http://f.org/middle-initial> "P" .
<http://f.org/p1> <http://f.org/last-name> "Kennedy" .
<http://f.org/p1> <http://f.org/birth-place> <http://f.org/boston> .
<http://f.org/boston> <http://f.org/name> "Boston" .
<http://f.org/p1> <http://f.org/realNameOfThePerson> <http://f.org/p1#real> .
<http://f.org/p1#real> <http://f.org/first-name> "Joe" .
<http://f.org/p1#real> <http://f.org/last-name> "Kennedy" .
<http://f.org/p7> <http://www.w3.org/2000/01/rdf-schema#label> "Teddy" .
<http://f.org/p7> <http://f.org/first-name> "Edward" .
<http://f.org/p7> <http://f.org/last-name> "Kennedy" .
<http://f.org/p7> <http://f.org/has-parent> <http://f.org/p1> .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    assert "Joe Kennedy" not in kg.names  # a node reached by a link that says "name" is a name, no person
    assert {"Boston", "Joseph P. Kennedy", "Rose Kennedy", "Teddy"} <= set(kg.names)
    assert "http://f.org/first-name" in kg.attributes
    assert sorted(open_store(tmp_path / "st", [path], log=lambda *a, **k: None).names) == sorted(kg.names)


def test_a_namespace_minted_in_kebab_case_names_with_spaces(tmp_path):
    """Where a namespace joins the words of its local names with hyphens (`has-child`, `Boston-University`), a
    capitalised unlabelled name is said with spaces ("Georgetown University"), by both loaders; a hyphen among
    underscore names is part of the name ("Stratford-upon-Avon"), and a lower-case slug stays one."""
    from kg2tool.graph.build import load_graph
    from kg2tool.graph.hygiene import kebab_namespaces
    from kg2tool.graph.store import open_store

    ns = "http://f.org/s#"
    kebab = [f"{ns}{x}" for x in ("Boston-University", "Sacred-Heart-Convent", "has-child", "birth-place", "Yale-Law")]
    assert kebab_namespaces(kebab) == {ns}
    mixed = [f"http://d.org/{x}" for x in ("Barack_Obama", "Stratford-upon-Avon", "New_York", "San_Jose", "Rio_Grande")]
    assert kebab_namespaces(mixed) == frozenset()
    path = tmp_path / "kebab.nt"
    path.write_text("".join(f"<{ns}p{i}> <{ns}alma-mater> <{ns}{school}> .\n" for i, school in enumerate(
        ["Georgetown-University", "Sacred-Heart-Convent", "University-of-Virginia", "Boston-University", "home-maker",
         "XA-DE", "A-1E0L0I0M0H0T0D0"])), encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    assert {"Georgetown University", "Sacred Heart Convent", "University of Virginia"} <= set(kg.names)
    assert {"home-maker", "XA-DE", "A-1E0L0I0M0H0T0D0"} <= set(kg.names)  # a slug and codes keep their hyphens
    assert sorted(open_store(tmp_path / "st", [path], log=lambda *a, **k: None).names) == sorted(kg.names)


def test_unique_names_never_use_iris_or_opaque_ids():
    # the Nobel graph: a laureate and a sameAs target with the same name and numeric local names
    labels = ["William Golding", "William Golding", "13951335", "13951335", "Naples", "Naples", "Cambridge", "Cambridge"]
    iris = ["http://data.nobelprize.org/resource/laureate/660", "http://data.nobelprize.org/resource/laureateaward/643",
            "http://bio2rdf.org/pubmed:13951335", "http://linkedlifedata.com/resource/pubmed-article/13951335",
            "http://data.nobelprize.org/resource/university/Naples", "http://data.nobelprize.org/resource/city/Naples",
            "http://ex.org/Q350", "http://ex.org/Q49111"]  # fmt: skip
    kinds = {0: "Laureate", 1: "Laureate award", 6: "city", 7: "city"}
    names = unique_names(labels, lambda i: "", iris, lambda i: kinds.get(i, ""))
    assert names[:2] == ["William Golding (Laureate)", "William Golding (Laureate award)"]  # the kind, not "660"
    assert names[4:6] == ["Naples (university)", "Naples (city)"]  # the IRI's folder
    assert names[6:] == ["Cambridge (city)", "Cambridge (city, no. 2)"]  # nothing tells them apart: an ordinal
    assert len(set(names)) == len(names)
    for n in names:
        assert "http" not in n and "<" not in n and "(13951335)" not in n and "(660)" not in n


def test_entity_name_from_iri_splits_pascal_case_and_never_gives_the_iri():
    from kg2tool.graph.names import entity_name_from_iri

    assert entity_name_from_iri("https://www.omg.org/spec/LCC/UnitedStatesOfAmerica") == "United States Of America"
    assert entity_name_from_iri("http://ex.org/BNYMellon") == "BNY Mellon"
    assert entity_name_from_iri("http://ex.org/ZeroX") == "ZeroX" and entity_name_from_iri("http://e/iPhone") == "iPhone"
    # a number after a word is a word of its own (`Zinfandel1998`); a code of capitals and digits stays whole
    assert entity_name_from_iri("http://ex.org/SaucelitoCanyonZinfandel1998") == "Saucelito Canyon Zinfandel 1998"
    assert entity_name_from_iri("http://ex.org/R2D2") == "R2D2" and entity_name_from_iri("http://ex.org/AB12") == "AB12"
    assert entity_name_from_iri("http://ex.org/_/") == "ex.org"  # nothing readable: the host, not the IRI


def test_schema_name_reads_public_naming_conventions():
    from kg2tool.graph.names import schema_name

    fb = "http://rdf.freebase.com/ns/"
    assert schema_name(fb + "people.person.place_of_birth") == "place of birth"
    assert schema_name(fb + "people.person") == "person"  # a Freebase type
    assert schema_name(fb + "film.film.starring..film.performance.character") == "character"  # a mediator path
    assert schema_name("http://ex.org/_published_in") == "published in"
    assert schema_name("http://ex.org/lead-singer") == "lead singer"
    assert schema_name("http://ex.org/ns#composed_by") == "composed by"
    assert schema_name("http://ex.org/hasMaker") == "hasMaker"  # camelCase: split by the relation lexicon
    assert schema_name("http://ex.org/Jean-Paul") == "Jean-Paul"  # not a lower-case identifier
    assert schema_name("http://www.wikidata.org/prop/direct/P31") == "P31"


def test_yago_wordnet_classes_are_said_by_their_noun_and_record_counters_are_ids():
    from kg2tool.graph.hygiene import is_opaque_id
    from kg2tool.graph.names import schema_name

    # YAGO (and DBpedia's yago: classes) name a class by a WordNet noun and the synset's id: the id is no word
    assert schema_name("http://dbpedia.org/class/yago/Album106591815") == "Album"
    assert schema_name("http://yago-knowledge.org/resource/wordnet_album_106591815") == "album"
    # a record's counter with its class word is an id (Web Annotation dumps: `108-annotation`); titles stay names
    assert is_opaque_id("108-annotation") and not is_opaque_id("12_monkeys") and not is_opaque_id("Apollo_11")
    # catalogue keys and DOI-style keys are ids; a year range or a PascalCase title with a year is a name
    assert all(map(is_opaque_id, ["igch0280", "p03tqbz", "j.1468-0092.2008.00303.x", "1468-0092.00058"]))
    assert not any(map(is_opaque_id, ["1939-1945", "Zinfandel1998", "r2d2", "mp3", "iPhone", "deGrasseTyson"]))
    assert all(map(is_opaque_id, ["gzNoWGDHpBcr", "YOyP9TLDuhrb", "CAuKexBhwcy1", "p0gjgrsmhnc"]))  # generated keys
    assert not any(map(is_opaque_id, ["Windows95", "BNYMellon", "eBay", "karen-ryckbosch", "new-york-city"]))
    assert is_opaque_id("karen-ryckbosch-2o4vg0tf3iklb")  # a slug with a key
    # a slug minted with a hash digest: the words only repeat the record's fields
    assert is_opaque_id("Nomination_dga_2008_outstanding_directing_feature_film_frost_nixon_a6b4b0fd30eebdb7")
    assert not any(map(is_opaque_id, ["Frost_Nixon_2008", "Deadbeef_cafe", "Room_101_2023"]))


def test_short_hex_keys_and_catalogue_numbers_are_ids():
    """GPML-style graph ids (`a130a`, `bdafb`: hex letters that are no English word), a name around a catalogue
    number of seven digits or more, and such keys with a counter are ids; words and titles stay names."""
    from kg2tool.graph.hygiene import is_opaque_id

    assert all(map(is_opaque_id, ["a130a", "fee6e", "dc535", "bdafb", "idddad5ecb", "ide660d29b_2",
                                  "IT-0100127432_parthood", "IT-0100002868ProjectDelivery0",
                                  "membership_bd17e2d21cbc5a487c852bea4809dbbe"]))  # fmt: skip
    assert not any(map(is_opaque_id, ["faded", "accede", "beaded", "Route 66", "2012 Summer Olympics", "1939-1945",
                                      "WP1461", "b52", "cafe"]))  # fmt: skip


def test_homonyms_are_not_told_apart_by_a_namespace_word():
    """Two entities named "Drama" under Freebase's `/ns/` and DBpedia's `/resource/` folders: a path word that
    names no kind of thing is no disambiguator; the host is."""
    from kg2tool.graph.names import unique_names

    iris = ["http://rdf.freebase.com/ns/m.02822", "http://dbpedia.org/resource/Drama"]
    names = unique_names(["Drama", "Drama"], lambda i: "", iris)
    assert names == ["Drama (freebase)", "Drama (dbpedia)"], names


def test_homonyms_told_apart_by_their_type_as_a_common_noun():
    """As Wikipedia's "Mercury (planet)": the type without its CIDOC code, camelCase split, capitals lowered but
    acronyms kept; both loaders name homonyms so."""
    from kg2tool.graph.model import _kind

    assert _kind(("E22 Man-Made Object",)) == "man-made object" and _kind(()) == ""
    assert _kind(("TopicalDescriptor",)) == "topical descriptor" and _kind(("DNA Sequence",)) == "DNA sequence"
    names = unique_names(["Heart", "Heart"], lambda i: "", ["http://ex.org/d/1", "http://ex.org/c/2"],
                         lambda i: _kind((["TopicalDescriptor", "Concept"][i],)))  # fmt: skip
    assert names == ["Heart (topical descriptor)", "Heart (concept)"]
    noted = unique_names(["Unconscious (Psychology)"] * 2, lambda i: "", ["http://ex.org/d/1", "http://ex.org/c/2"],
                         lambda i: ["concept", "term"][i])  # fmt: skip
    assert noted == ["Unconscious (Psychology, concept)", "Unconscious (Psychology, term)"]  # one note, not two


def test_code_list_nodes_are_ids_and_a_class_prefix_is_no_name():
    """An unlabelled node of a public code list (ISO 639 languages, ISO 3166 countries) names nothing by its code
    (`.../iso639-2/fre`); a local name led by its class and a dot (`Topic.Graph`) is named without the class; an
    abbreviation before a dot stays (`St.Louis`)."""
    from kg2tool.graph.hygiene import is_opaque_node
    from kg2tool.graph.names import entity_name_from_iri

    assert is_opaque_node("http://id.loc.gov/vocabulary/iso639-2/fre") and is_opaque_node("http://lexvo.org/id/iso639-3/eng")
    assert not is_opaque_node("http://ex.org/fre") and not is_opaque_node("http://id.loc.gov/vocabulary/iso639-2/French")
    assert entity_name_from_iri("http://ex.org/Topic.Graph") == "Graph"
    assert entity_name_from_iri("http://ex.org/Author.Moritz_Hardt") == "Moritz Hardt"
    assert entity_name_from_iri("http://ex.org/St.Louis") == "St.Louis"
    assert entity_name_from_iri("http://ex.org/LearningPath.Modeling_Fundamentals") == "Modeling Fundamentals"


NAME_PROPERTIES_TTL = """
@prefix ex: <http://ex.org/> . @prefix gnd: <https://d-nb.info/standards/elementset/gnd#> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> . @prefix dct: <http://purl.org/dc/terms/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<https://d-nb.info/gnd/118500775> gnd:preferredNameForThePerson "Aristoteles" ;
    gnd:variantNameForThePerson "Aristotle" ; gnd:surname "Aristoteles-Part" ; ex:teacher <https://d-nb.info/gnd/118594893> .
<https://d-nb.info/gnd/118594893> gnd:preferredNameForThePerson "Platon" .
ex:tr1 ex:title "Yesterday" ; ex:album ex:help ; ex:length 125 .
ex:help ex:name "Help!" ; ex:artist ex:beatles .
ex:beatles rdfs:label "The Beatles" ; foaf:name "Beatles" ; foaf:title "Mr" .
ex:doc1 dct:title "A Study of Names" ; ex:about ex:help .
ex:name rdfs:label "name" .
ex:member rdfs:label "name" . ex:beatles ex:member ex:ringo . ex:ringo rdfs:label "Ringo Starr" .
"""


def test_literal_name_properties_name_their_subjects(tmp_path):
    """A literal property whose local name or label says a whole name (`foaf:name`, `dcterms:title`, a vocabulary's
    own `name`, `hasTitle`, `preferredNameForThePerson`) names a subject that has no label, another name
    (`variantName...`, `otherName`) is an alternative label, and neither is an attribute; parts of names (`surname`,
    `givenName`), other things' names (`fontName`, `jobTitle`, `booktitle`) and FOAF's honorific `title` are not
    names. A relation (its objects things) labelled as a name is said by its local name: a name is text, no thing.
    In memory and in the store alike."""
    from kg2tool.graph.build import load_graph
    from kg2tool.graph.names import name_property
    from kg2tool.graph.store import open_store

    gnd = "https://d-nb.info/standards/elementset/gnd#"
    wanted = {
        "http://xmlns.com/foaf/0.1/name": "label", "http://purl.org/dc/terms/title": "label",
        "http://purl.org/dc/elements/1.1/title": "label", "http://stardog.com/tutorial/name": "label",
        "https://edugate.cs.wright.edu/lod/ontology/hasTitle": "label", gnd + "preferredNameForThePerson": "label",
        "http://www.w3.org/2006/vcard/ns#fn": "label", gnd + "variantNameForThePerson": "alt",
        "http://dbpedia.org/ontology/otherName": "alt", gnd + "surname": "", gnd + "nameAddition": "",
        "http://xmlns.com/foaf/0.1/givenName": "", "http://xmlns.com/foaf/0.1/title": "", "http://schema.org/jobTitle": "",
        "http://vocabularies.wikipathways.org/gpml#fontName": "", "http://swrc.ontoware.org/ontology#booktitle": "",
        "http://ex.org/P7": "",
    }  # fmt: skip
    assert {p: name_property(p) for p in wanted} == wanted
    assert name_property("http://ex.org/P7", "preferred name") == "label"  # a label says it as well
    path = tmp_path / "names.ttl"
    path.write_text(NAME_PROPERTIES_TTL, encoding="utf-8")
    for kg in (load_graph(path), open_store(tmp_path / "st", [path], log=lambda m: None)):
        names = {kg.entities[i]: kg.names[i] for i in range(len(kg))}
        assert names["https://d-nb.info/gnd/118500775"] == "Aristoteles"  # no opaque id dropped: it has a name
        assert names["http://ex.org/tr1"] == "Yesterday" and names["http://ex.org/help"] == "Help!"
        assert names["http://ex.org/beatles"] == "The Beatles" and names["http://ex.org/doc1"] == "A Study of Names"
        aristotle = kg.resolve("Aristotle")
        assert aristotle is not None and kg.names[aristotle] == "Aristoteles"
        assert "Beatles" in kg.alt_labels[kg.resolve("The Beatles")]
        attrs = {a.iri.rsplit("/", 1)[-1] for a in kg.attributes.values()}
        assert attrs == {"length", "gnd#surname", "title"}  # the title an honorific (FOAF's), no name
        assert kg.relations["http://ex.org/member"].label == "member"


def test_camel_case_local_names_of_english_words_are_said_as_words():
    """An unlabelled entity whose local name is camelCase English words (GND's gender `notKnown`, HITO's
    `creationOfNursingCarePlans`) is said as those words in lower case; brand names with a one-letter head
    (`iPhone`, `eBay`) and names with words no dictionary knows (`mcSchraefel`) stay as written."""
    from kg2tool.graph.names import entity_name_from_iri

    said = {"notKnown": "not known", "creationOfNursingCarePlans": "creation of nursing care plans",
            "iPhone": "iPhone", "eBay": "eBay", "mcSchraefel": "mcSchraefel", "UnitedStates": "United States"}  # fmt: skip
    assert {k: entity_name_from_iri("http://ex.org/vocab#" + k) for k in said} == said


def test_a_description_qualifies_a_shared_name_as_a_noun_phrase():
    """A description told after a shared name is a qualifier, as in Wikipedia's disambiguated titles ("Mercury
    (planet)"): its first sentence, without a leading article or a final stop, and none that opens with the name
    itself (a repeated name, then the kind or another disambiguator is used)."""
    from kg2tool.graph.names import qualifier, unique_names

    assert qualifier("A class of road between unclassified and secondary.", "tertiary") == "class of road between unclassified and secondary"
    assert qualifier("historic For historic places and buildings. Historic", "historic") == ""
    assert qualifier("city in Texas, U.S.", "Paris") == "city in Texas, U.S."
    assert qualifier("American actor", "Tom Hanks") == "American actor"
    descs = {0: "historic For historic places and buildings. Historic", 1: "A protected site. See also ..."}
    kinds = {0: "key", 1: "tag"}
    names = unique_names(["historic", "historic"], descs.get, ["http://x.org/k/historic", "http://x.org/t/historic"], kinds.get)
    assert names == ["historic (key)", "historic (protected site)"]


def test_a_text_made_into_an_iri_and_a_counted_record_are_no_names():
    """Names are short: an unlabelled node whose local part is a text of more than 12 words (a listing of a
    learning path's steps made into an IRI) has no name a user types, and neither has a record's counter around its
    class word (`68322PathwayStep920`); short local names and names with digits stay names."""
    from kg2tool.graph.hygiene import is_opaque_id, is_opaque_node

    listing = "http://ex.org/LearningPath.What_is_a_Knowledge_Graph_RDF_and_RDFS_familiarization_along_with_what_a_Schema_is"
    assert is_opaque_node(listing) and not is_opaque_node("http://ex.org/LearningPath.Modeling_Fundamentals")
    assert is_opaque_id("68322PathwayStep920") and is_opaque_id("12Catalysis403")
    assert not any(map(is_opaque_id, ("R2D2", "Windows95", "Zinfandel1998", "Boeing 747")))



def test_a_label_joining_one_name_in_two_scripts_is_said_in_latin_letters():
    """A gazetteer's display label joins a place's name in Latin letters and in its own script with a spaced dash
    ("Urmia \u2014 <Syriac>"): the name a user types is the Latin part; labels in one script stay as they are."""
    from kg2tool.graph.names import clean_label

    assert clean_label("Urmia \u2014 \u0710\u0718\u072a\u0721\u071d\u0710") == "Urmia"
    assert clean_label("\u041c\u043e\u0441\u043a\u0432\u0430 / Moscow") == "Moscow"
    assert clean_label("Tal\u02bfafar \u2014 \u072c\u0720 \u0725\u0726\u072a") == "Tal\u02bfafar"  # a modifier letter
    assert clean_label("War \u2014 Peace") == "War \u2014 Peace"  # one script: a title
    assert clean_label("AC/DC") == "AC/DC" and clean_label("\u0710\u0718\u072a\u0721\u071d\u0710") == "\u0710\u0718\u072a\u0721\u071d\u0710"


def test_a_heading_with_a_subheading_takes_no_possessive():
    """MeSH's descriptor/qualifier pairs ("Acetaminophen/standards") are one name whose last word is no owner: "the
    descriptor of Acetaminophen/standards", not "Acetaminophen/standards' descriptor"; a name with a slash between
    capitals (AC/DC) takes one."""
    from kg2tool.synth.language.grammar import possessive

    assert possessive("Acetaminophen/standards") == "" and possessive("Abdomen/injuries") == ""
    assert possessive("AC/DC") == "AC/DC's"


def test_the_record_about_a_description_is_no_fact():
    """BIBFRAME's administrative metadata and POWDER's `describedby` (GND records) link a thing to the record
    about its description: the record and what only it links to (the cataloguing agency) are dropped."""
    import rdflib

    from kg2tool.graph.build import build_graph

    ex, bf = rdflib.Namespace("http://ex.org/"), rdflib.Namespace("http://id.loc.gov/ontologies/bibframe/")
    g = rdflib.Graph()
    for k in range(3):
        work, admin = ex[f"work{k}"], ex[f"work{k}/admin"]
        g.add((work, rdflib.RDFS.label, rdflib.Literal(f"Work {k}")))
        g.add((work, ex.author, ex.ann))
        g.add((work, bf.adminMetadata, admin))
        g.add((admin, bf.agent, ex.agency))
        g.add((admin, bf.changeDate, rdflib.Literal("2020-01-01")))
    g.add((ex.ann, rdflib.RDFS.label, rdflib.Literal("Ann")))
    g.add((ex.agency, rdflib.RDFS.label, rdflib.Literal("The Cataloguing Agency")))
    kg = build_graph(g)
    assert set(kg.names) == {"Work 0", "Work 1", "Work 2", "Ann"}
    assert list(kg.relations) == [str(ex.author)] and not kg.attributes


def test_relations_of_a_public_vocabulary_are_said_by_the_words_of_its_specification():
    """BioPAX Level 3's `left`/`right` participants of a conversion are its inputs and outputs; a generic entity's
    `memberPhysicalEntity` its members; a label the graph gives itself wins."""
    from kg2tool.graph.names import relation_label

    bp = "http://www.biopax.org/release/biopax-level3.owl#"
    assert [relation_label(bp + p, "") for p in ("left", "right", "memberPhysicalEntity", "xref")] == [
        "input", "output", "member", "cross-reference"]  # fmt: skip
    assert relation_label(bp + "left", "reactant") == "reactant" and relation_label(bp + "controller", "") == "controller"


def test_a_zero_padded_counter_joined_to_keys_or_a_class_word_is_an_id():
    """A zero-padded number is a record counter, never how a name writes a number: joined to numbers, keys, a short
    class word or a fonds' code it is an id (archival records' `009663-005075`, `top-059801`); a name with a
    number (`ISO-8859-1`, `B-52`, a year range, `Apollo 011`) stays a name."""
    from kg2tool.graph.hygiene import is_opaque_id

    assert all(map(is_opaque_id, ["009663-005075", "top-059801", "051211-c1nnlr73poqk--1gz4re3oz7wxp-i2",
                                  "003971-d3nyuic5p0-ktmsglhlnhvr", "FRAN RI 001-d3nd8cllvy-1f7jrhcdttmq4"]))  # fmt: skip
    assert not any(map(is_opaque_id, ["ISO-8859-1", "B-52", "1939-1945", "Apollo 011", "Route 066", "007-GoldenEye",
                                      "route-066-history"]))  # fmt: skip


def test_two_tenses_of_one_verb_are_said_in_one():
    """ICA's Records in Contexts says a fact may be past or present ("is or was regulated by", "has or had
    holder"): said by the first tense, in a relation's words and in a folded relation's label; "or" between two
    verbs stays."""
    from kg2tool.graph.names import one_tense
    from kg2tool.synth.language.lexicon import split_label, word_relation

    assert split_label("isOrWasRegulatedBy") == "is regulated by" and split_label("hasOrHadHolder") == "has holder"
    assert one_tense("performs or performed") == "performs" and one_tense("buys or sells") == "buys or sells"
    w = word_relation("is or was regulated by")[0]
    assert (w.form, w.verb, w.active) == ("by", "regulated by", "regulated") and w.label == "is or was regulated by"


def test_marc_relator_codes_are_said_by_their_terms():
    """A catalogue's relator code (`edt`, `trl`, `ill`, MARC Code List for Relators) is said by its term."""
    from kg2tool.graph.names import relation_label

    rel = "http://id.loc.gov/vocabulary/relators/"
    assert [relation_label(rel + c, "") for c in ("edt", "trl", "ill", "ctb", "aui")] == [
        "editor", "translator", "illustrator", "contributor", "author of introduction"]  # fmt: skip


def test_a_has_name_link_points_at_a_name(tmp_path):
    """A link named "has" and a noun phrase whose head is "name" ("has or had agent name", `hasName`) points at a
    name of its subject: the name node is no entity of its own, its text an alternative label of the subject."""
    from kg2tool.graph.build import load_graph
    from kg2tool.graph.names import appellation_link

    assert appellation_link("http://x.org/o#hasOrHadAgentName") and appellation_link("http://x.org/o#has_name")
    assert not appellation_link("http://x.org/o#name") and not appellation_link("http://x.org/o#nameOf")
    ttl = tmp_path / "g.ttl"
    ttl.write_text(
        '@prefix : <http://x.org/o#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n'
        ':bnf a :CorporateBody ; rdfs:label "Bibliothèque nationale (France)" ; :hasOrHadAgentName :n1, :n2 ;\n'
        '  :hasOrHadLocation :paris .\n'
        ':n1 a :AgentName ; rdfs:label "Bibliothèque nationale (France)" .\n:n2 a :AgentName ; rdfs:label "BN" .\n'
        ':paris rdfs:label "Paris" .\n', encoding="utf-8")
    kg = load_graph(str(ttl))
    assert sorted(kg.names) == ["Bibliothèque nationale (France)", "Paris"]
    assert "BN" in kg.alt_labels[kg.resolve("Bibliothèque nationale (France)")]


WIKIBASE_TTL = """@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix pq: <http://www.wikidata.org/prop/qualifier/> .
@prefix wdno: <http://www.wikidata.org/prop/novalue/> .
@prefix wds: <http://www.wikidata.org/entity/statement/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
@prefix schema: <http://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix cc: <http://creativecommons.org/ns#> .
wd:Q42 a wikibase:Item, wdno:P40 ; rdfs:label "Douglas Adams"@mul, "دوغلاس آدمز"@ar ;
  wdt:P31 wd:Q5 ; wdt:P19 wd:Q350 ; wdt:P69 wd:Q691283 ; p:P69 wds:Q42-1 .
wds:Q42-1 a wikibase:Statement, wikibase:BestRank ; ps:P69 wd:Q691283 ; pq:P580 wd:Q1 ; wikibase:rank wikibase:NormalRank .
wd:Q1 rdfs:label "1971"@en .
wd:Q5 rdfs:label "human"@en . wd:Q350 rdfs:label "Cambridge"@en ; wdt:P31 wd:Q515 . wd:Q515 rdfs:label "city"@en .
wd:Q691283 rdfs:label "St John's College"@en .
wd:Q7 a wikibase:Item ; rdfs:label "Ada Lovelace"@en ; wdt:P31 wd:Q5 ; wdt:P19 wd:Q84 . wd:Q84 rdfs:label "London"@en ; wdt:P31 wd:Q515 .
wd:P19 a wikibase:Property ; rdfs:label "place of birth"@en ; wikibase:directClaim wdt:P19 ; wikibase:claim p:P19 ;
  wikibase:statementProperty ps:P19 ; wikibase:novalue wdno:P19 .
wd:P69 a wikibase:Property ; rdfs:label "educated at"@en ; wikibase:directClaim wdt:P69 ; wikibase:claim p:P69 ;
  wikibase:statementProperty ps:P69 ; wikibase:qualifier pq:P69 .
wd:P31 a wikibase:Property ; rdfs:label "instance of"@en ; wikibase:directClaim wdt:P31 .
wd:Q515 wdt:P1963 wd:P19 . wd:P1963 a wikibase:Property ; rdfs:label "properties for this type"@en .
wd:P19 wdt:P1629 wd:Q350 . wd:P1629 a wikibase:Property ; rdfs:label "subject item of this property"@en .
<https://en.wikipedia.org/wiki/Douglas_Adams> a schema:Article ; schema:about wd:Q42 ; schema:name "Douglas Adams"@en ;
  schema:isPartOf <https://en.wikipedia.org/> .
<http://x.org/diary> a schema:Book ; schema:name "A Diary" ; schema:about wd:Q42, wd:Q7 .
<https://www.wikidata.org/wiki/Special:EntityData/Q42> a schema:Dataset ; schema:about wd:Q42 ;
  cc:license <http://creativecommons.org/publicdomain/zero/1.0/> ; wikibase:statements 332 .
"""


def test_wikidata_rdf_says_claims_by_their_properties(tmp_path):
    """Wikidata's RDF format (the Wikibase RDF mapping): the truthy claims are the facts, each said by the label of
    its property entity; the full statements, ranks, qualifiers and the ontology's own links are skipped; the
    pages about an entity (sitelinks, the entity-data document) are no entities; a label for many languages
    (`mul`) is a label in the preferred one; Wikibase's own classes and no-value classes are no kind; Q5 "human" is
    asked about as a person; a claim of or about a property entity is schema. The on-disk store gives the same
    graph."""
    from test_store import quiet, same_graph

    from kg2tool.graph.build import load_graph
    from kg2tool.graph.store import open_store
    from kg2tool.synth.language.lexicon import derive_lexicon

    path = tmp_path / "wikidata.ttl"
    path.write_text(WIKIBASE_TTL, encoding="utf-8")
    kg = load_graph([path])
    assert sorted(r.label for r in kg.relations.values()) == ["about", "educated at", "place of birth"]
    assert "A Diary" in kg.names  # a book about an entity is no page of the Wikibase
    assert "Douglas Adams" in kg.names and not any("wiki" in n.lower() or "1971" == n for n in kg.names), kg.names
    adams = kg.resolve("Douglas Adams")
    assert "human" in kg.types[adams] and not {"Item", "P40"} & set(kg.types[adams])
    lex = derive_lexicon(kg)
    born = next(w for w in lex.relations.values() if w.label == "place of birth")
    assert (born.subject, born.object) == ("person", "city")  # Q5 "human": English asks about people
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))


def test_public_code_lists_name_their_codes():
    """Things a catalogue names only by a code of a public code list (the EU Vocabularies' authority tables that
    DCAT-AP prescribes, and national mirrors of its data themes; the INSPIRE themes; IANA's media types) are named
    as the list names them; languages by ISO 639 (pycountry); other IRIs are left to the usual rules."""
    from kg2tool.graph.names import entity_name_from_iri
    from kg2tool.graph.vocabularies import code_list_name

    eu = "http://publications.europa.eu/resource/authority/"
    said = {x: entity_name_from_iri(eu + x) for x in (
        "language/FRA", "language/NLD", "frequency/IRREG", "access-right/PUBLIC", "data-theme/GOVE",
        "licence/CC_BY_4_0", "licence/CC_BYNC_4_0", "licence/CC0", "file-type/WMS_SRVC", "file-type/RDF_XML")}
    assert said == {
        "language/FRA": "French", "language/NLD": "Dutch", "frequency/IRREG": "irregular",
        "access-right/PUBLIC": "public", "data-theme/GOVE": "government and public sector",
        "licence/CC_BY_4_0": "CC BY 4.0", "licence/CC_BYNC_4_0": "CC BY-NC 4.0", "licence/CC0": "CC0",
        "file-type/WMS_SRVC": "WMS service", "file-type/RDF_XML": "RDF/XML"}  # fmt: skip
    assert entity_name_from_iri("http://inspire.ec.europa.eu/theme/mr") == "mineral resources"
    category = "http://inspire.ec.europa.eu/metadata-codelist/SpatialDataServiceCategory/"
    assert entity_name_from_iri(category + "infoFeatureAccessService") == "feature access service"
    assert entity_name_from_iri("http://vocab.belgif.be/auth/datatheme/REGI") == "regions and cities"
    assert code_list_name("http://example.org/codes/language/FRA") == "" and code_list_name(eu + "language/XX") == ""
    iana = "https://www.iana.org/assignments/media-types/"  # IANA media types: the whole name, not "plain"
    assert entity_name_from_iri(iana + "text/plain") == "text/plain"
    assert entity_name_from_iri(iana + "application/vnd.ms-excel") == "application/vnd.ms-excel"


def test_a_homonym_note_has_no_parenthesis_of_its_own():
    """Parentheses are not nested: a description with a parenthesis of its own is the note without it."""
    from kg2tool.graph.names import qualifier

    assert qualifier("British science fiction writer and humorist (1952–2001)", "Douglas Adams") == (
        "British science fiction writer and humorist")
    assert qualifier("A class of road between towns.", "Road") == "class of road between towns"


FEED_TTL = """@prefix tree: <https://w3id.org/tree#> .  @prefix ldes: <https://w3id.org/ldes#> .
@prefix as: <https://www.w3.org/ns/activitystreams#> .  @prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix dct: <http://purl.org/dc/terms/> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix : <http://f.org/> .
:stream a ldes:EventStream ; tree:view :page1 ; tree:member :ev1, :ev2 .
:page1 a tree:Node ; dct:isPartOf :stream ; tree:relation :r1 .  :r1 a tree:GreaterThanOrEqualToRelation ; tree:node :page2 .
:ev1 a as:Create ; as:object :ds1 ; as:published "2025-01-01" .
:ev2 a as:Update ; as:object :ds2 .
:ds1 a dcat:Dataset ; dct:title "Bike lanes" ; dct:publisher :city ; dcat:theme :transport .
:ds2 a dcat:Dataset ; dct:title "Parks" ; dct:publisher :city .
:city rdfs:label "Mons" .  :transport rdfs:label "transport" .
:like a as:Like ; as:actor :city ; as:object :ds2 .
"""


def test_an_event_stream_is_no_part_of_the_data_it_publishes(tmp_path):
    """A Linked Data Event Stream: the TREE and LDES terms are the feed's structure, and ActivityStreams' change
    activities (Create, Update, ...) record publishing a member, not facts about it; the members' own facts stay,
    and other activities (a Like) are data. The on-disk store gives the same graph."""
    from test_store import quiet, same_graph

    from kg2tool.graph.build import load_graph
    from kg2tool.graph.store import open_store

    path = tmp_path / "feed.ttl"
    path.write_text(FEED_TTL, encoding="utf-8")
    kg = load_graph([path])
    iris = set(kg.relations)
    assert not any(i.startswith(("https://w3id.org/tree#", "https://w3id.org/ldes#")) for i in iris), iris
    assert {"http://purl.org/dc/terms/publisher", "http://www.w3.org/ns/dcat#theme"} <= iris
    obj = kg.relations["https://www.w3.org/ns/activitystreams#object"]
    assert {kg.name(s): [kg.name(o) for o in os] for s, os in obj.forward.items()} == {"like": ["Parks"]}  # the Like alone
    assert not any(n in kg.names for n in ("stream", "page1", "ev1", "ev2"))
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))


def test_an_ontology_header_is_no_thing(tmp_path):
    """An OWL ontology's header (`owl:Ontology`: the document, its version, maturity and imports) is dropped with
    its links by both loaders; the individuals it describes stay."""
    from test_store import quiet, same_graph

    from kg2tool.graph.build import load_graph
    from kg2tool.graph.store import open_store

    path = tmp_path / "onto.ttl"
    path.write_text("""@prefix owl: <http://www.w3.org/2002/07/owl#> .  @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix : <http://o.org/> .
<http://o.org/> a owl:Ontology ; rdfs:label "Government Entities Ontology" ; :hasMaturityLevel :release .
:release rdfs:label "Release" .
:ecb rdfs:label "European Central Bank" ; :locatedIn :frankfurt .  :frankfurt rdfs:label "Frankfurt" .
""", encoding="utf-8")  # fmt: skip
    kg = load_graph([path])
    assert sorted(kg.relations) == ["http://o.org/locatedIn"]
    assert "Government Entities Ontology" not in kg.names
    same_graph(kg, open_store(tmp_path / "st", [path], log=quiet))
