"""From triples to a KnowledgeGraph (kg2tool.graph.build, kg2tool.graph.model): entities, labels by language,
types, typed attributes, skipped triples, unique display names and name resolution."""

import rdflib

from kg2tool.graph.build import build_graph, literal_value, load_graph
from kg2tool.graph.names import normalize_name, readable_local_name

EX = rdflib.Namespace("http://ex.org/")


def test_example_graph_matches_reference_numbers(example_kg):
    # The published size of CoDEx-S (the bundled example): 2,034 entities, 42 relations, 36,543 edges.
    assert len(example_kg) == 2034
    assert len(example_kg.relations) == 42
    assert sum(r.support for r in example_kg.relations.values()) == 36543
    usa = example_kg.resolve("United States of America")
    assert example_kg.entities[usa] == "http://www.wikidata.org/entity/Q30"
    assert example_kg.resolve("united states of america") == usa  # lenient key


def test_labels_language_types_and_fallbacks(small_kg, small_graph_path):
    kg = small_kg
    atl = kg.resolve("Atlantis")
    assert kg.labels[atl] == "Atlantis"
    assert "Atlantis Republic" in kg.alt_labels[atl]
    assert kg.resolve("Atlantis Republic") == atl
    de = load_graph([small_graph_path], lang="de")
    assert de.labels[de.index["http://example.org/Atlantis"]] == "ATLANTIS"
    # no label -> readable local name
    assert kg.resolve("Old Town") == kg.index["http://example.org/Old_Town"]
    assert readable_local_name("http://dbpedia.org/resource/Barack_Obama") == "Barack Obama"
    # typed attributes; ill-typed literals are skipped and counted; a blank node is named by its content
    kinds = {a.label: a.kind for a in kg.attributes.values()}
    assert kinds == {"population": "integer", "height": "number", "inception": "date"}
    assert kg.stats.ill_typed_literals_skipped == 1
    assert kg.stats.blank_nodes_named == 1 and "anonymous" in kg.names  # P0's friend, as the relation's other objects
    assert kg.stats.unlabeled_entities == 1


def test_duplicate_labels_get_unique_display_names(small_kg):
    names = small_kg.names
    assert len(set(names)) == len(names)
    assert "Person 1 (person number 1)" in names and "Person 1 (another person)" in names
    # the plain label resolves by the documented tie-break: highest degree, then smallest IRI
    p1 = small_kg.resolve("Person 1")
    assert small_kg.entities[p1] == "http://example.org/P1"
    assert normalize_name("Ünïcode  Name!") == normalize_name("unicode name")


def test_literal_values_by_datatype():
    lit = rdflib.Literal
    assert literal_value(lit("42", datatype=rdflib.XSD.integer)) == ("integer", 42)
    assert literal_value(lit("2.5", datatype=rdflib.XSD.decimal)) == ("number", 2.5)
    assert literal_value(lit("1999-12-31", datatype=rdflib.XSD.date)) == ("date", "1999-12-31")
    assert literal_value(lit("true", datatype=rdflib.XSD.boolean)) == ("boolean", True)
    assert literal_value(lit("  two\n words ", lang="en")) == ("string", "two words")
    assert literal_value(lit("abc", datatype=rdflib.XSD.integer)) is None  # invalid lexical form
    assert literal_value(lit("NaN", datatype=rdflib.XSD.double)) is None  # not a JSON number


def test_build_graph_rules_on_triples():
    g = rdflib.Graph()
    g.add((EX.a, EX.knows, EX.b))
    g.add((EX.a, rdflib.RDFS.seeAlso, EX.c))  # a link predicate: a URL value, c is no entity
    g.add((EX.a, rdflib.RDF.type, EX.Person))
    g.add((EX.Person, rdflib.RDFS.label, rdflib.Literal("person", lang="en")))
    g.add((EX.a, EX.knows, rdflib.BNode()))  # named by its content, then dropped: no name, nothing of its own
    g.add((EX.a, EX.size, rdflib.Literal("1", datatype=rdflib.XSD.integer)))
    g.add((EX.b, EX.size, rdflib.Literal("2", datatype=rdflib.XSD.integer)))
    g.add((EX.b, EX.size, rdflib.Literal("big")))  # the less common kind of the predicate: dropped
    g.add((EX.a, EX.motto, rdflib.Literal("hello", lang="en")))
    g.add((EX.a, EX.motto, rdflib.Literal("hallo", lang="de")))  # not the preferred language
    g.add((EX.a, EX.size, rdflib.Literal("x", datatype=rdflib.XSD.integer)))  # ill-typed
    kg = build_graph(g, files=["g.ttl"])
    assert kg.entities == [str(EX.a), str(EX.b)]  # sorted IRIs; the type and the seeAlso target are no entities
    assert list(kg.relations) == [str(EX.knows)]
    assert kg.relations[str(EX.knows)].forward == {0: (1,)} and kg.relations[str(EX.knows)].inverse == {1: (0,)}
    assert kg.types[0] == ("person",) and kg.types[1] == ()
    size, motto = kg.attributes[str(EX.size)], kg.attributes[str(EX.motto)]
    assert (size.kind, size.values) == ("integer", {0: (1,), 1: (2,)})
    assert (motto.kind, motto.values) == ("string", {0: ("hello",)})
    assert kg.labels == ["a", "b"] and kg.stats.unlabeled_entities == 2
    assert kg.stats.blank_nodes_named == 1 and kg.stats.ill_typed_literals_skipped == 1
    assert kg.attributes[str(rdflib.RDFS.seeAlso)].values == {0: (str(EX.c),)}
    assert (kg.stats.relation_triples, kg.stats.attribute_values, kg.stats.files) == (1, 4, ["g.ttl"])
    assert kg.degree == [1, 1] and list(kg.iter_facts()) == [("a", "knows", "b")]


HYGIENE_TTL = """@prefix ex: <http://ex.org/> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix schema: <http://schema.org/> . @prefix wds: <http://www.wikidata.org/entity/statement/> .
ex:golding rdfs:label "William Golding" ; ex:bornIn ex:newquay ; owl:sameAs <http://dbpedia.org/resource/W_G> ;
    foaf:page <http://nobelprize.org/golding.html> ; schema:image <http://img.org/golding.jpg> ;
    ex:work <http://pubmed.org/13951335> ; ex:self ex:golding ; owl:versionInfo "v1" .
ex:newquay rdfs:label "Newquay" ; owl:disjointWith ex:golding ; rdfs:subClassOf ex:Place .
ex:Dry rdfs:label "Dry" ; ex:near ex:newquay . <http://other.org/ns#Dry> rdfs:label "Dry" ; ex:near ex:newquay .
wds:Q1-7ED1FB19-89C0-480D-A000-000000000001 a ex:FilmRole ; ex:person ex:golding ; ex:film ex:film1 ;
    ex:year 1960 .
ex:film1 rdfs:label "Lord of the Flies" .
"""


def _hygiene_graph(tmp_path, **kw):
    path = tmp_path / "h.ttl"
    path.write_text(HYGIENE_TTL, encoding="utf-8")
    return load_graph([path], **kw)


def test_real_graph_hygiene(tmp_path):
    kg = _hygiene_graph(tmp_path)
    owl, golding = "http://www.w3.org/2002/07/owl#", kg.index["http://ex.org/golding"]
    # axioms are no relations (nor attributes); the statement node is gone; a self-link is data and stays
    for p in ("sameAs", "disjointWith", "versionInfo"):
        assert owl + p not in kg.relations and owl + p not in kg.attributes
    assert "http://www.w3.org/2000/01/rdf-schema#subClassOf" not in kg.relations
    assert kg.relations["http://ex.org/self"].forward == {golding: (golding,)}
    assert "http://ex.org/person" not in kg.relations
    assert not any("7ED1FB19" in iri for iri in kg.entities) and "http://ex.org/year" not in kg.attributes
    # pages, images and external records are URL values, not entities
    urls = {p.rsplit("/", 1)[-1]: a.values[golding] for p, a in kg.attributes.items() if a.kind == "string"}
    assert urls == {"page": ("http://nobelprize.org/golding.html",), "image": ("http://img.org/golding.jpg",),
                    "work": ("http://pubmed.org/13951335",)}  # fmt: skip
    assert not any(iri.startswith(("http://nobelprize.org", "http://img.org", "http://pubmed.org")) for iri in kg.entities)
    # homonyms from two namespaces: no IRI in a name
    dry = sorted(n for n in kg.names if n.startswith("Dry"))
    assert len(dry) == 2 and not any("http" in n or "<" in n for n in kg.names), dry
    stats = kg.stats
    assert stats.opaque_nodes_skipped == 1 and stats.link_relations == 1
    assert stats.schema_triples_skipped == 4  # sameAs, versionInfo, disjointWith, subClassOf


def test_include_and_exclude_predicates_override_the_defaults(tmp_path):
    from kg2tool.graph.model import PredicateRules

    same_as, born_in = "http://www.w3.org/2002/07/owl#sameAs", "http://ex.org/bornIn"
    rules = PredicateRules(include=frozenset({same_as}), exclude=frozenset({born_in}))
    kg = _hygiene_graph(tmp_path, predicates=rules)
    assert same_as in kg.relations and born_in not in kg.relations
    assert same_as not in _hygiene_graph(tmp_path).relations


CONVENTIONS_TTL = """@prefix fb: <http://rdf.freebase.com/ns/> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix ex: <http://ex.org/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
fb:m.0abc12 fb:type.object.name "Larry Gelbart"@en ; fb:type.object.type fb:people.person, fb:common.topic ;
    fb:people.person.place_of_birth fb:m.0def34 ; fb:film.film.starring..film.performance.actor fb:m.0def34 .
fb:m.0def34 fb:type.object.name "Chicago"@en ; fb:common.topic.alias "Windy City"@en .
fb:m.07s9rl0 fb:people.person.place_of_birth fb:m.0def34 .
ex:Maker1 a owl:NamedIndividual ; rdfs:label "Acme" ; ex:_published_in ex:Place1 ; ex:lead-singer ex:Maker2 .
ex:Maker2 a owl:NamedIndividual, ex:Band, skos:Concept ; rdfs:label "The Band" .
ex:Place1 a owl:Thing ; rdfs:label "Springfield" .
"""


def test_public_naming_conventions(tmp_path):
    """Freebase's names, types and dotted property ids, mediator paths, machine ids; OWL's and SKOS's own classes
    are no kinds; underscores and kebab-case in local names."""
    path = tmp_path / "c.ttl"
    path.write_text(CONVENTIONS_TTL, encoding="utf-8")
    kg = load_graph([path])
    labels = {iri.rsplit("/", 1)[1]: rel.label for iri, rel in kg.relations.items()}
    assert labels == {"people.person.place_of_birth": "place of birth", "film.film.starring..film.performance.actor":
                      "actor", "_published_in": "published in", "lead-singer": "lead singer"}  # fmt: skip
    names = sorted(kg.labels)
    assert names == ["Acme", "Chicago", "Larry Gelbart", "Springfield", "The Band"]  # the unlabeled mid is dropped
    kind = {kg.labels[i]: kg.types[i] for i in range(len(kg.labels))}
    assert kind["Larry Gelbart"] == ("person",) and kind["The Band"] == ("Band",)
    assert kind["Acme"] == () and kind["Springfield"] == ()
    assert "Windy City" in kg.alt_labels[kg.labels.index("Chicago")]


def test_wikipedia_category_pages_are_links_not_entities():
    """DBpedia's dct:subject points at Wikipedia category pages: navigation, kept as URLs, never asked about."""
    g = rdflib.Graph()
    dct, dbr = rdflib.Namespace("http://purl.org/dc/terms/"), rdflib.Namespace("http://dbpedia.org/resource/")
    for k in range(3):
        g.add((dbr[f"P{k}"], rdflib.RDFS.label, rdflib.Literal(f"Person {k}")))
        g.add((dbr[f"P{k}"], dct.subject, dbr["Category:People_from_Melbourne"]))
    kg = build_graph(g)
    assert str(dct.subject) not in kg.relations and str(dct.subject) in kg.attributes
    assert "People from Melbourne" not in kg.labels


def test_an_unlabelled_code_in_a_namespace_of_named_nodes_is_dropped():
    """A catalogue code without a label (`C100110`) where the namespace's other nodes have labels is a node the
    graph forgot to name (a class outside a thesaurus subset): dropped, as an opaque id is; where a namespace's
    nodes are mostly unlabelled, the code stays the name (`WP1461`), and a labelled code is a name."""
    th = rdflib.Namespace("http://ex.org/thesaurus#")
    wp = rdflib.Namespace("http://ex.org/wp/")
    g = rdflib.Graph()
    for k in range(30):
        g.add((th[f"C{1000 + k}"], rdflib.RDFS.label, rdflib.Literal(f"Concept {k}")))
        g.add((th[f"C{1000 + k}"], EX.inSubset, th[f"C{9000 + k % 3}"]))  # three subsets the file does not name
        g.add((th[f"C{1000 + k}"], EX.broader, th[f"C{1000 + (k + 1) % 30}"]))
        g.add((wp[f"WP{1400 + k}"], EX.about, th[f"C{1000 + k}"]))  # pathways named by their codes alone
    g.add((th.C9001, EX.note, rdflib.Literal("a subset")))
    kg = build_graph(g)
    names = set(kg.names)
    assert "Concept 0" in names and "WP1400" in names
    assert not any(n.startswith("C9") for n in names)
    assert str(EX.inSubset) not in kg.relations and str(EX.broader) in kg.relations
    assert str(EX.note) not in kg.attributes
