#!/usr/bin/env python3
"""Rebuild the graphs in tests/data/unseen/ from their published source files.

Each graph is real public data in a convention kg2tool was not tuned on. The maintainers
use them blind: see README.md here for sources, licences and counts, not for content.

Source files are read straight out of git snapshots of the source repositories, at the
pinned commits below (``git --git-dir=... show COMMIT:PATH``). Get a snapshot with e.g.

    git clone --bare https://github.com/vaijsc/keallm            MIRROR/vaijsc+keallm/repo
    git clone --bare https://github.com/yao8839836/kg-bert       MIRROR/yao8839836+kg-bert/repo
    git clone --bare https://github.com/SamehHany/OntologyGraph  MIRROR/SamehHany+OntologyGraph/repo
    git clone --bare https://github.com/nju-websoft/ESBM         MIRROR/nju-websoft+ESBM/repo
    git clone --bare https://github.com/amsterdamtimemachine/amsterdam-diaries-data \
        MIRROR/amsterdamtimemachine+amsterdam-diaries-data/repo
    git clone --bare https://github.com/w3c/web-annotation       MIRROR/w3c+web-annotation/repo
    git clone --bare https://github.com/nomisma/data             MIRROR/nomisma+data/repo
    git clone --bare https://github.com/periodo/periodo-data     MIRROR/periodo+periodo-data/repo
    git clone --bare https://github.com/polifonia-project/organs-knowledge-graph \
        MIRROR/polifonia-project+organs-knowledge-graph/repo
    git clone --bare https://github.com/wikipathways/GPML2RDF    MIRROR/wikipathways+GPML2RDF/repo
    git clone --bare https://github.com/lidingpku/open-conference-data \
        MIRROR/lidingpku+open-conference-data/repo
    git clone --bare https://github.com/american-art/npg         MIRROR/american-art+npg/repo
    git clone --bare https://github.com/DeepGraphLearning/KnowledgeGraphEmbedding \
        MIRROR/DeepGraphLearning+KnowledgeGraphEmbedding/repo
    git clone --bare https://github.com/hitontology/ontology     MIRROR/hitontology+ontology/repo
    git clone --bare https://github.com/stardog-union/stardog-tutorials \
        MIRROR/stardog-union+stardog-tutorials/repo
    git clone --bare https://github.com/kastle-lab/curriculum-kg MIRROR/kastle-lab+curriculum-kg/repo
    git clone --bare https://github.com/DigiClass/LOD-People     MIRROR/DigiClass+LOD-People/repo
    git clone --bare https://github.com/astrothesaurus/UAT       MIRROR/astrothesaurus+UAT/repo
    git clone --bare https://github.com/BioPAX/Paxtools          MIRROR/BioPAX+Paxtools/repo
    git clone --bare https://github.com/ucd-spatial/OsmSemanticNetwork \
        MIRROR/ucd-spatial+OsmSemanticNetwork/repo
    git clone --bare https://github.com/italia/daf-ontologie-vocabolari-controllati \
        MIRROR/italia+daf-ontologie-vocabolari-controllati/repo
    git clone --bare https://github.com/srophe/Linked-Data       MIRROR/srophe+Linked-Data/repo
    git clone --bare https://github.com/hsolbrig/rdfpath         MIRROR/hsolbrig+rdfpath/repo
    git clone --bare https://github.com/metaphacts/semopenalex   MIRROR/metaphacts+semopenalex/repo
    git clone --bare https://github.com/HHS/meshrdf              MIRROR/HHS+meshrdf/repo
    git clone --bare https://github.com/lcnetdev/bibframe2marc   MIRROR/lcnetdev+bibframe2marc/repo
    git clone --bare https://github.com/ontodev/robot            MIRROR/ontodev+robot/repo
    git clone --bare https://github.com/ICA-EGAD/RiC-O           MIRROR/ICA-EGAD+RiC-O/repo
    git clone --bare https://github.com/rammmukul/guttenberg     MIRROR/rammmukul+guttenberg/repo
    git clone --bare https://github.com/dpriskorn/entitybase-backend \
        MIRROR/dpriskorn+entitybase-backend/repo
    git clone --bare https://github.com/Fedict/dcat              MIRROR/Fedict+dcat/repo
    git clone --bare https://github.com/rdmpage/bhl-rdf          MIRROR/rdmpage+bhl-rdf/repo
    git clone --bare https://github.com/tgra/Linked-Art-MoMA-Exhibition-Data-Transform \
        MIRROR/tgra+Linked-Art-MoMA-Exhibition-Data-Transform/repo
    git clone --bare https://github.com/linked-art/linked.art     MIRROR/linked-art+linked.art/repo
    git clone --bare https://github.com/qudt/qudt-public-repo     MIRROR/qudt+qudt-public-repo/repo
    git clone --bare https://github.com/edmcouncil/fibo           MIRROR/edmcouncil+fibo/repo
    git clone --bare https://github.com/uwlib-cams/MARC2RDA       MIRROR/uwlib-cams+MARC2RDA/repo
    git clone --bare https://github.com/foodpairing/inspire_kg    MIRROR/foodpairing+inspire_kg/repo
    git clone --bare https://github.com/SteveHedden/fckg          MIRROR/SteveHedden+fckg/repo
    git clone --bare https://github.com/iptc/sport-schema         MIRROR/iptc+sport-schema/repo
    git clone --bare https://github.com/telicent-oss/ies-examples MIRROR/telicent-oss+ies-examples/repo
    git clone --bare https://github.com/europarl/open-data-beta-testing \
        MIRROR/europarl+open-data-beta-testing/repo
    git clone --bare https://github.com/franzinc/agraph-python    MIRROR/franzinc+agraph-python/repo
    git clone --bare https://github.com/ox-it/oxpoints            MIRROR/ox-it+oxpoints/repo
    git clone --bare https://github.com/AtomGraph/LinkedDataHub-Apps \
        MIRROR/AtomGraph+LinkedDataHub-Apps/repo
    git clone --bare https://github.com/AKSW/aksw.org-model       MIRROR/AKSW+aksw.org-model/repo
    git clone --bare https://github.com/aws/graph-notebook        MIRROR/aws+graph-notebook/repo
    git clone --bare https://github.com/BrickSchema/Brick         MIRROR/BrickSchema+Brick/repo

then run

    .venv/bin/python tests/data/unseen/make_unseen.py --mirror MIRROR

Everything is deterministic (sorted iteration, no randomness, gzip without a timestamp), so
a rerun writes the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import subprocess
import sys
import zipfile
from collections import defaultdict, deque
from pathlib import Path
from urllib.parse import quote

import rdflib
from rdflib import Literal, URIRef
from rdflib.compare import to_canonical_graph
from rdflib.namespace import RDFS

HERE = Path(__file__).resolve().parent

# repository -> (commit, files used)
SOURCES = {
    "vaijsc/keallm": (
        "cf68f911e2484809bf5b0da413ba3d9768a747b7",
        [
            "data/MetaQA/1-hop/dev.txt",
            "data/MetaQA/1-hop/test.txt",
            "data/MetaQA/1-hop/qa_dev_qtype.txt",
            "data/MetaQA/1-hop/qa_test_qtype.txt",
            "data/MetaQA/dev.tsv",
            "data/MetaQA/test_old.tsv",
            "data/MetaQA/entity2text.txt",
            "data/MetaQA/relation2text.txt",
        ],
    ),
    "yao8839836/kg-bert": (
        "0b8f625108efcb9b43603b6840f2548ff3d3c973",
        [
            "data/FB15k-237/dev.tsv",
            "data/FB15k-237/test.tsv",
            "data/FB15k-237/entity2text.txt",
        ],
    ),
    "SamehHany/OntologyGraph": (
        "5df8592cca39e0768b7a85450f88a272c832d96f",
        ["wine.rdf"],
    ),
    # ESBM v1.2: the DBpedia (2015-10) entity descriptions; files listed by esbm_files()
    "nju-websoft/ESBM": ("1898ff2f369ae827f01a501f8a91292f422919ea", None),
    "amsterdamtimemachine/amsterdam-diaries-data": (
        "fc1b61c5d20526ac7a7400ee9f257a0b543a44b2",  # branch main
        [
            "rdf/metadata.jsonld",
            "rdf/external_resources.jsonld",
            "rdf/entity_annotations.jsonld",
        ],
    ),
    # the W3C Web Annotation JSON-LD context that the diaries' annotations name remotely
    "w3c/web-annotation": ("74992e5d3ca3ac10b3289f6c855c876cc9b024a1", ["jsonld/anno.jsonld"]),
    # Nomisma.org concept files (one RDF/XML file per http://nomisma.org/id/ concept); files
    # chosen by build_nomisma()
    "nomisma/data": ("a7601136b8c2bd6fc44cf8a835f8e250c5e608c1", None),
    # PeriodO period gazetteer, the 2015 initial data release as Turtle
    "periodo/periodo-data": ("51fe03a205ac049b818c83bafe852bec2dc2b6e9", ["initial-data.ttl"]),
    # added 2026-12-07, kept blind (README.md): Polifonia ORGANS knowledge graph, the Italian organs
    "polifonia-project/organs-knowledge-graph": (
        "4f42cd41dd79875539741ba805242c22f47c52b7",
        ["kg/organ-it-base.ttl", "kg/organ-it-projects.ttl", "kg/organ-it-pictures.ttl"],
    ),
    # WikiPathways RDF (wp: and gpml: layers) of the pathways in GPML2RDF's test collection; files
    # chosen by build_wikipathways()
    "wikipathways/GPML2RDF": ("5e1351fdc3f573aa5a62d5638361dceb3edfa2fd", None),
    # ISWC metadata from the Semantic Web Dog Food (SWC/SWRC/FOAF, RDF/XML), 2006-2012
    "lidingpku/open-conference-data": (
        "871a8dd1f86b172b1aef95e55a86ef70cd3b8646",
        [f"data/iswc/iswc-{y}-complete.rdf" for y in ("2006", "aswc-2007", "2008", "2009", "2010", "2011", "2012")],
    ),
    # added 2026-12-07, second batch, kept blind (README.md): Smithsonian National Portrait Gallery
    # as CIDOC-CRM (American Art Collaborative), zipped N-Triples
    "american-art/npg": (
        "d4b5eb99ec4ce0c7cb7fae18809d6f4c0fe1765e",
        [
            "NPGObjects/NPGObjects2.n3.zip",
            "NPGObjTitles/NPGObjTitles2.n3.zip",
            "NPGObjConXrefs/NPGObjConXrefs2.n3.zip",
            "NPGConstituents/NPGConstituents2.n3.zip",
            "NPGConAltNames/NPGConAltNames2.n3.zip",
            "NPGConThesTerms/NPGConThesTerms2.n3.zip",
        ],
    ),
    # YAGO3-10 (Dettmers et al. 2018, a YAGO3 subset) as stored in the RotatE repository: the
    # official valid and test splits (train.txt is over the snapshot size limit)
    "DeepGraphLearning/KnowledgeGraphEmbedding": (
        "2e440e0f9c687314d5ff67ead68ce985dc446e3a",
        ["data/YAGO3-10/valid.txt", "data/YAGO3-10/test.txt"],
    ),
    # HITO, the Health IT Ontology with its software products, catalogues and organisations; files
    # chosen by build_hito()
    "hitontology/ontology": ("f59685783021428641d212ef8c7e66acd940efdd", None),
    # added 2026-12-07, third batch, kept blind (README.md): the Stardog tutorials' music graph (a
    # DBpedia subset in a small tutorial vocabulary) with its schema
    "stardog-union/stardog-tutorials": (
        "e61e9c9d0b1f66b48403a4b631ac814bb60ef411",
        ["music/music.ttl.gz", "music/music_schema.ttl"],
    ),
    # CurriculumKG (Wright State University, Kastle Lab): learning resources, authors, topics, curricula
    "kastle-lab/curriculum-kg": (
        "cfd55d372ce5190e05a79498db3204c4b14f914f",
        ["script/materialization/new-schema-currkg.ttl"],
    ),
    # GND (Deutsche Nationalbibliothek) person records, the LOD-People sample; files chosen by
    # build_gnd()
    "DigiClass/LOD-People": ("47e763a1960e2d7e2bba0631d47ced18b1690eb9", None),
    # added 2026-12-07, fourth batch, kept blind (README.md): the Unified Astronomy Thesaurus (SKOS)
    "astrothesaurus/UAT": ("8886cf4f9b51f2d907fcc4836d00cbc7d6ac8b92", ["UAT.rdf"]),
    # five Reactome pathways exported as BioPAX Level 3, test resources of the Paxtools library
    "BioPAX/Paxtools": (
        "aaceda2c83f744645859008f4b37a54a840760a9",
        [
            "paxtools-query/src/test/resources/org/biopax/paxtools/query/raf_map_kinase_cascade_reactome.owl",
            "pattern/src/test/resources/org/biopax/paxtools/pattern/UreaCycle.owl",
            "sbgn-converter/src/test/resources/signaling-by-bmp.owl",
            "sbgn-converter/src/test/resources/Stoic.owl",
            "sbgn-converter/src/test/resources/TFAP2.owl",
        ],
    ),
    # the OSM Semantic Network: OpenStreetMap wiki keys and tags as a SKOS vocabulary with its own properties
    "ucd-spatial/OsmSemanticNetwork": (
        "b4114fe465e7bce05613a87e7b5fcf29ab1dcf0b",
        ["osm_semantic_network.skos.rdf.gz"],
    ),
    # added 2026-12-07, fifth batch, kept blind (README.md): the territorial classifications of OntoPiA, the Italian
    # public administration's ontologies and controlled vocabularies (AgID / Team per la Trasformazione Digitale)
    "italia/daf-ontologie-vocabolari-controllati": (
        "d8596aeeb28fa0869ff9ace870b42ae45390a89f",
        [
            "VocabolariControllati/territorial-classifications/countries/italy/italy.ttl",
            "VocabolariControllati/territorial-classifications/geographical-distribution/geographical-distribution.ttl",
            "VocabolariControllati/territorial-classifications/regions/regions.ttl",
            "VocabolariControllati/territorial-classifications/provinces/provinces.ttl",
        ],
    ),
    # the Syriac Gazetteer (Syriaca.org) as LAWD / Pelagios places
    "srophe/Linked-Data": ("0824c9273b77f20709dede3c7474d9bf3a053d48", ["data/places/rdf/all-places.ttl"]),
    # an NCI Thesaurus (15.09d) test subset kept by the rdfpath library: coded OWL classes and properties
    "hsolbrig/rdfpath": ("a5190add63943ccac940bb2155202bae7b5f0522", ["testdata/NCItTest.owl"]),
    # added 2026-12-07, sixth batch, kept blind (README.md): the SemOpenAlex data sample (OpenAlex scholarly data in
    # SPAR, DCMI, FOAF and the SemOpenAlex ontology; TriG, one named graph) with the SemOpenAlex ontology
    "metaphacts/semopenalex": (
        "30472a291c99b3473f4251e951141406490b5b73",
        ["data-sample/semopenalex-data-sample.trig", "ontologies/semopenalex-ontology.ttl"],
    ),
    # MeSH RDF (U.S. National Library of Medicine): the sample records kept as test data by its web interface
    "HHS/meshrdf": ("1905128df4855739ed487987b33901abe8773f0d", ["webui/src/test/resources/samples.nt"]),
    # BIBFRAME 2 descriptions of 34 Library of Congress catalogue records (the exemplars of bibframe2marc's tests);
    # files listed by bibframe_files()
    "lcnetdev/bibframe2marc": ("fcd3a144544b8a8edbc9dfd48bef5f767e268c24", None),
    # an Uberon (OBO anatomy ontology) fragment kept as a documentation example by the ROBOT ontology tool
    "ontodev/robot": ("a67eed4823af7f5b7bb33ddd12f662adc4303cad", ["docs/examples/uberon_fragment.owl"]),
    # added 2026-12-07, seventh batch, kept blind (README.md): the RiC-O 1.1 example dataset of the Archives nationales
    # (France): agents, record resources, relations, rules and vocabularies; files listed by rico_files()
    "ICA-EGAD/RiC-O": ("49db95e7474ad5ba786817ccdfced61b47967749", None),
    # Project Gutenberg catalogue records (pgterms / DCMI terms RDF/XML, one file per ebook) as kept by a parser project;
    # files chosen by gutenberg_files()
    "rammmukul/guttenberg": ("d8d3a441f20a290ff3947b436e4b0e57d4ab83e9", None),
    # added 2026-12-07, eighth batch, kept blind (README.md): nine Wikidata items as Wikidata's own entity RDF export
    # (Special:EntityData Turtle, fetched 2025-12) kept as test data by a Wikibase backend project
    "dpriskorn/entitybase-backend": (
        "d87c41286165385791c895d4bb2bd9ce30609408",
        [
            f"test_data/rdf/ttl/{q}.ttl"
            for q in ("Q1", "Q42", "Q8413", "Q53713", "Q182397", "Q17633526", "Q17948861", "Q51605722", "Q120248304")
        ],
    ),
    # the data.gov.be (Belgium) DCAT-AP catalogue as the LDES feed (TriG pages, one named graph per member event)
    # that the repository kept under docs/ for the European Data Portal; pages chosen by datagovbe_files()
    "Fedict/dcat": ("b2e3280fcb24afd2ab4a2d1d9d2db5c371b9ced4", None),
    # added 2026-12-07, ninth batch, kept blind (README.md): two Biodiversity Heritage Library titles (their scanned
    # volumes, parts and pages) as schema.org N-Triples, written by a BHL-in-RDF experiment
    "rdmpage/bhl-rdf": ("05526cc2a72bd403fa1f79e409c8657f0d541d9f", ["triples/116503.nt", "triples/68619.nt"]),
    # added 2026-12-07, tenth batch, kept blind (README.md): MoMA's exhibition history (CC0) transformed to Linked Art
    # JSON-LD (one file per exhibition, 2022); files chosen by moma_files()
    "tgra/Linked-Art-MoMA-Exhibition-Data-Transform": ("94a75c15f57441df6aa277f6d52492f81cc89dd7", None),
    # the Linked Art JSON-LD context those files name remotely (the version current when they were written)
    "linked-art/linked.art": ("4cd3a45c51b5529796d704150ec40233d4dbb825", ["docs/ns/v1/linked-art.json"]),
    # added 2026-12-07, eleventh batch, kept blind (README.md): QUDT (units, quantity kinds and physical constants,
    # CC BY 4.0): the constants vocabulary whole, the systems of units whole, and the descriptions of the quantity
    # kinds and units the constants point at
    "qudt/qudt-public-repo": (
        "8b9168d29ab49142be1739bc54078c9320273e79",
        [
            "src/main/rdf/vocab/constants/VOCAB_QUDT-CONSTANTS.ttl",
            "src/main/rdf/vocab/systems/VOCAB_QUDT-SYSTEM-OF-UNITS-ALL.ttl",
            "src/main/rdf/vocab/quantitykinds/VOCAB_QUDT-QUANTITY-KINDS-ALL.ttl",
            "src/main/rdf/vocab/unit/VOCAB_QUDT-UNITS-ALL.ttl",
        ],
    ),
    # FIBO (EDM Council's Financial Industry Business Ontology, MIT): the government-entity, jurisdiction, regulatory
    # agency and registration-authority modules with their reference individuals; files chosen by fibo_files()
    "edmcouncil/fibo": ("119fa8c091aa4beece7d22aefa6fe138021a4355", None),
    # added 2026-12-07, twelfth batch, kept blind (README.md): library catalogue records (apparently of the University of
    # Washington Libraries) converted to RDA-RDF by the MARC2RDA project's transform (CC0), its December 2024 test output of random records;
    # records chosen by build_rda()
    "uwlib-cams/MARC2RDA": (
        "720dabb024aad61a742214e70b1165332526af62",
        ["Working Documents/transformationCode/test_output_for_review/20241213/randomrecords.ttl"],
    ),
    # added 2026-12-07, thirteenth batch, kept blind (README.md): the Foodpairing Inspire KG (CC BY 4.0): food
    # ingredients, an ingredient-category taxonomy, sensory information, functional benefits and pairings
    "foodpairing/inspire_kg": ("c41c81c33052d3755468a3897dc5f69d0696dcf0", ["inspire.ttl"]),
    # the Film Club Knowledge Graph (CC0 licence file): film-award nominations with their films, people, categories and
    # ceremonies, and the SHACL/OWL schema; nominations of three award systems chosen by build_fckg()
    "SteveHedden/fckg": (
        "be4eab12cbe1212743fdfc1e702279ae7659c931",
        [
            "movieontology.ttl",
            "data/instances/dga_nominations.ttl",
            "data/instances/pga_nominations.ttl",
            "data/instances/sag_nominations.ttl",
            "data/instances/films.ttl",
            "data/instances/people.ttl",
        ],
    ),
    # the IPTC Sport Schema (CC BY 4.0 per IPTC): its core ontology and three of its sample data files converted from
    # SportsML (one football league: season rosters, a season's schedule and results, standings)
    "iptc/sport-schema": (
        "0e77bf8678f3702fe81c28673bede35efe47d633",
        [
            "ontologies/iptc-sport-ontology.ttl",
            "samples/ttl/epl-rosters-2022.ttl",
            "samples/ttl/league-schedule.ttl",
            "samples/ttl/soccer-standings.ttl",
        ],
    ),
    # added 2026-12-08, fourteenth batch, kept blind (README.md): Telicent's IES examples (Apache-2.0): the countries of
    # the world and their subdivisions in the UK Information Exchange Standard ontology (IES4)
    "telicent-oss/ies-examples": (
        "8d71740430249361d2a85c39feedd1aa019ad555",
        [
            "regions_of_the_world/countries.ttl",
            "regions_of_the_world/country_subdivisions1.ttl",
            "regions_of_the_world/country_subdivisions2.ttl",
            "regions_of_the_world/country_subdivisions3.ttl",
        ],
    ),
    # the European Parliament's open-data beta-testing samples (European Parliament Legal Notice): the first file of the
    # 2022 parliamentary questions, in ELI / ELI-DL with the EP's own vocabulary
    "europarl/open-data-beta-testing": (
        "6a0700279a894f28e83a9868e2ef2aa898c921ac",
        ["data/parliamentary-questions/data_v1_questions-by-year_0_100_2022.ttl"],
    ),
    # the family-tree graph of the AllegroGraph Python client's tutorial and tests (MIT), N-Triples
    "franzinc/agraph-python": (
        "4174e373481881c4d2befa5ecdf0d8a903ee2fda",
        ["src/franz/openrdf/tests/kennedy.ntriples"],
    ),
    # added 2026-12-08, fifteenth batch, kept blind (README.md): OxPoints, the University of Oxford's store of its units,
    # buildings and libraries (BSD 3-clause), a 2009 dump kept as test reference data; TriG despite its name
    "ox-it/oxpoints": (
        "78c006f7bf28ce2b825dee97eebf1d8ec9fc2b0b",
        ["src/test/reference/oxpoints/graphs.rdf"],
    ),
    # LinkedDataHub's Northwind Traders demo (Apache-2.0): the classic trading-company sample tables as CSV, with the
    # demo's own SPARQL CONSTRUCT mappings (schema.org, FOAF, DC terms) that LinkedDataHub runs on import
    "AtomGraph/LinkedDataHub-Apps": (
        "e989c76f0e574895b720c7bd55bafe1b2aba4984",
        [
            f"demo/northwind-traders/{table}.{ext}"
            for table in (
                "categories/categories",
                "customers/customers",
                "employees/employees",
                "employees/employee_territories",
                "orders/orders",
                "orders/order_details",
                "products/products",
                "regions/regions",
                "shippers/shippers",
                "suppliers/suppliers",
                "territories/territories",
            )
            for ext in ("csv", "rq")
        ],
    ),
    # the AKSW research group's website model (the data states CC BY-SA 3.0): people, projects, partners, events in
    # FOAF, DOAP and schema.org with the group's own schema, N-Triples
    "AKSW/aksw.org-model": (
        "ad619c155719512b9358980c42dd85628a3590e1",
        ["aksw.org.nt"],
    ),
    # added 2026-12-08, sixteenth batch, kept blind (README.md): the air-routes graph (Kelvin R. Lawrence's model of
    # the world's commercial airline routes) as the SPARQL seed data of Amazon Neptune's graph notebook (Apache-2.0):
    # airports, countries and continents with the routes between airports, one named graph per route
    "aws/graph-notebook": (
        "83f55e33a79206ac19155507188d1708245a551a",
        [
            f"src/graph_notebook/seed/queries/rdf/sparql/airports/{name}.txt"
            for name in ("0_nodes", "1_edges_part_1", "2_edges_part_2")
        ],
    ),
    # added 2026-12-08, seventeenth batch, kept blind (README.md): two real buildings' Brick models, the example
    # models shipped in the Brick schema repository (files last changed 2021-02-19)
    "BrickSchema/Brick": (
        "80674356d0da9b5db09b20ca30577b5d56f4479b",
        ["examples/soda_brick.ttl", "examples/rice_brick.ttl"],
    ),
}


def git_dir(mirror: Path, repo: str) -> Path:
    base = mirror / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


def tree_paths(mirror: Path, repo: str, folder: str = "") -> list[str]:
    """The paths of the files of `repo` at its pinned commit (under `folder`, when given)."""
    commit, _ = SOURCES[repo]
    cmd = ["git", f"--git-dir={git_dir(mirror, repo)}", "ls-tree", "-r", "--name-only", commit] + ([folder] if folder else [])
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()


def read_source(mirror: Path, repo: str, path: str) -> str:
    commit, files = SOURCES[repo]
    assert files is None or path in files, path
    out = subprocess.run(
        ["git", f"--git-dir={git_dir(mirror, repo)}", "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    ).stdout
    return out.decode("utf-8")


def read_source_bytes(mirror: Path, repo: str, path: str) -> bytes:
    """Like read_source, for binary files (zip archives)."""
    commit, files = SOURCES[repo]
    assert files is None or path in files, path
    return subprocess.run(
        ["git", f"--git-dir={git_dir(mirror, repo)}", "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    ).stdout


def write(graph: rdflib.Graph, name: str, fmt: str, gz: bool) -> Path:
    data = graph.serialize(format=fmt, encoding="utf-8")
    if fmt == "nt":  # rdflib writes N-Triples in hash order: sort for stable bytes
        text = data.decode("utf-8")
        # rdflib leaves these raw inside literals, where str.splitlines() would cut a triple in
        # two: write them as N-Triples \u escapes (none of the first seven graphs has one)
        for c in "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
            text = text.replace(c, f"\\u{ord(c):04X}")
        lines = sorted(set(text.splitlines()))
        data = ("\n".join(line for line in lines if line.strip()) + "\n").encode("utf-8")
    path = HERE / name
    if gz:
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
            f.write(data)
        path.write_bytes(buf.getvalue())
    else:
        path.write_bytes(data)
    return path


def component_subset(triples, seeds, max_triples, hub_degree):
    """Triples among the nodes reached from `seeds` by breadth-first search.

    Nodes whose degree exceeds `hub_degree` are reached but never expanded (a genre or a
    country would otherwise pull in the whole graph). Stops adding nodes once the induced
    triples reach `max_triples`. Deterministic: neighbours are visited in sorted order.
    """
    adj = defaultdict(set)
    for s, _, o in triples:
        adj[s].add(o)
        adj[o].add(s)
    keep = set()
    queue = deque()
    for s in seeds:
        if s in adj and s not in keep:
            keep.add(s)
            queue.append(s)
    next_check = 200
    while queue:
        node = queue.popleft()
        if len(adj[node]) > hub_degree:
            continue
        for nb in sorted(adj[node]):
            if nb not in keep:
                keep.add(nb)
                queue.append(nb)
        if len(keep) >= next_check:
            next_check = len(keep) + 200
            if sum(1 for s, _, o in triples if s in keep and o in keep) > max_triples:
                break
    return [t for t in triples if t[0] in keep and t[2] in keep]


# ---------------------------------------------------------------------------------------
# 1. MetaQA (WikiMovies KB): Film|directed_by|Person, snake_case relations, no types
# ---------------------------------------------------------------------------------------

KB = "http://example.org/kb/"

# MetaQA 1-hop question type -> (KB relation, topic entity is the subject?)
QTYPE = {
    "movie_to_director": ("directed_by", True),
    "director_to_movie": ("directed_by", False),
    "movie_to_writer": ("written_by", True),
    "writer_to_movie": ("written_by", False),
    "movie_to_actor": ("starred_actors", True),
    "actor_to_movie": ("starred_actors", False),
    "movie_to_year": ("release_year", True),
    "movie_to_language": ("in_language", True),
    "movie_to_genre": ("has_genre", True),
    "movie_to_tags": ("has_tags", True),
    "tag_to_movie": ("has_tags", False),
    "movie_to_imdbrating": ("has_imdb_rating", True),
    "movie_to_imdbvotes": ("has_imdb_votes", True),
}

# yuyuz/MetaQA issue #2: titles with a comma were split on it in the QA answers. Any
# answer that is one of these fragments is dropped (it may be a wrong fact).
COMMA_FRAGMENTS = {"Suddenly", "Last Summer", "Paris", "Texas", "Happy", "New York", "Niagara"}


def metaqa_triples(mirror: Path):
    repo = "vaijsc/keallm"
    names = {}
    for line in read_source(mirror, repo, "data/MetaQA/entity2text.txt").splitlines():
        if line:
            idx, name = line.split("\t", 1)
            names[idx] = name
    rels = {}
    for line in read_source(mirror, repo, "data/MetaQA/relation2text.txt").splitlines():
        if line:
            idx, text = line.split("\t", 1)
            rels[idx] = text.replace(" ", "_")
    known = set(names.values())
    triples = set()
    # (a) KB triples sampled at random from kb.txt by keallm (preprocess2.step_one), as ids
    for path in ("data/MetaQA/dev.tsv", "data/MetaQA/test_old.tsv"):
        for line in read_source(mirror, repo, path).splitlines():
            if line.strip():
                h, r, t = line.split("\t")
                triples.add((names[h], rels[r], names[t]))
    # (b) KB facts restated by MetaQA's 1-hop questions: the answers of a question of type
    #     movie_to_director about [F] are exactly F's directed_by objects in kb.txt
    for split in ("dev", "test"):
        qa = read_source(mirror, repo, f"data/MetaQA/1-hop/{split}.txt").splitlines()
        qt = read_source(mirror, repo, f"data/MetaQA/1-hop/qa_{split}_qtype.txt").splitlines()
        assert len(qa) == len(qt), (split, len(qa), len(qt))
        for line, qtype in zip(qa, qt):
            question, answers = line.split("\t")
            topic = question[question.index("[") + 1 : question.index("]")]
            rel, forward = QTYPE[qtype.strip()]
            for ans in answers.split("|"):
                if ans in COMMA_FRAGMENTS or topic in COMMA_FRAGMENTS:
                    continue
                if ans not in known or topic not in known:
                    continue
                triples.add((topic, rel, ans) if forward else (ans, rel, topic))
    return sorted(triples)


def entity_iri(name: str) -> URIRef:
    return URIRef(KB + "entity/" + quote(name.replace(" ", "_"), safe="_-.()',!&:"))


def build_metaqa(mirror: Path) -> Path:
    triples = metaqa_triples(mirror)
    films = sorted({s for s, _, _ in triples})
    # seeds: every 25th film in sorted order (deterministic spread over the KB)
    seeds = films[::25]
    sub = component_subset(triples, seeds, max_triples=12000, hub_degree=60)
    g = rdflib.Graph()
    g.bind("rel", KB + "relation/")
    g.bind("ent", KB + "entity/")
    iris = {}
    for s, r, o in sub:
        for n in (s, o):
            if n not in iris:
                iris[n] = entity_iri(n)
        g.add((iris[s], URIRef(KB + "relation/" + r), iris[o]))
    assert len(set(iris.values())) == len(iris), "two names share an IRI"
    for name, iri in iris.items():
        g.add((iri, RDFS.label, Literal(name)))
    return write(g, "metaqa-wikimovies.ttl.gz", "turtle", gz=True)


# ---------------------------------------------------------------------------------------
# 2. FB15k-237 (Freebase): mids, dotted relation paths, type.object.name
# ---------------------------------------------------------------------------------------

FB = "http://rdf.freebase.com/ns/"


def fb_id(slash: str) -> str:
    """'/m/0abc' -> 'm.0abc'; '/film/film/directed_by' -> 'film.film.directed_by'.

    A FB15k-237 relation through a mediator (CVT) node, '/a/b/c./d/e/f', keeps its two
    halves joined by '.': 'a.b.c..d.e.f'.
    """
    return slash.lstrip("/").replace("/", ".")


def build_fb15k237(mirror: Path) -> Path:
    repo = "yao8839836/kg-bert"
    names = {}
    for line in read_source(mirror, repo, "data/FB15k-237/entity2text.txt").splitlines():
        if line:
            mid, name = line.split("\t", 1)
            names[mid] = name
    triples = set()
    for path in ("data/FB15k-237/dev.tsv", "data/FB15k-237/test.tsv"):
        for line in read_source(mirror, repo, path).splitlines():
            if line.strip():
                h, r, t = line.split("\t")
                triples.add((h, r, t))
    triples = sorted(triples)
    heads = sorted({s for s, _, _ in triples})
    seeds = heads[::40]
    sub = component_subset(triples, seeds, max_triples=9000, hub_degree=40)
    g = rdflib.Graph()
    g.bind("ns", FB)
    nodes = set()
    for s, r, o in sub:
        g.add((URIRef(FB + fb_id(s)), URIRef(FB + fb_id(r)), URIRef(FB + fb_id(o))))
        nodes.update((s, o))
    for mid in sorted(nodes):
        if mid in names:
            g.add((URIRef(FB + fb_id(mid)), URIRef(FB + "type.object.name"), Literal(names[mid])))
    return write(g, "fb15k237-freebase.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# 3. W3C OWL wine ontology (OWL test suite copy): OWL individuals + object properties
# ---------------------------------------------------------------------------------------


def build_wine(mirror: Path) -> Path:
    text = read_source(mirror, "SamehHany/OntologyGraph", "wine.rdf")
    g = rdflib.Graph()
    g.parse(data=text, format="xml")
    # blank nodes get labels from their content, so a rerun writes the same bytes
    canon = rdflib.Graph()
    for prefix, ns in g.namespaces():
        canon.bind(prefix, ns)
    for t in to_canonical_graph(g):
        canon.add(t)
    g = canon
    # the source's own copyright notice travels with the converted file
    header = text[: text.index("<!DOCTYPE")]
    notice = "".join(
        "# " + line.strip().removeprefix("<!--").removesuffix("-->").strip() + "\n"
        for line in header.splitlines()
        if line.strip() and not line.strip().startswith("<!--++")
    )
    body = g.serialize(format="turtle", encoding="utf-8").decode("utf-8")
    path = HERE / "w3c-wine-owl.ttl"
    path.write_text(
        "# W3C OWL test suite, miscellaneous/consistent001 (the OWL Guide wine ontology),\n"
        "# converted from RDF/XML to Turtle with rdflib; no triple added or removed.\n"
        "# Original notice:\n" + notice + "#\n" + body,
        encoding="utf-8",
    )
    return path


# ---------------------------------------------------------------------------------------
# 4. ESBM (DBpedia 2015-10 entity descriptions): dbo: camelCase, dbr:, several rdf:types
# ---------------------------------------------------------------------------------------

ESBM_DIR = "v1.2/ESBM_benchmark_v1.2/dbpedia_data"


def esbm_files(mirror: Path) -> list[str]:
    """The 125 `N_desc.nt` files (full description of entity N), in numeric order."""
    names = tree_paths(mirror, "nju-websoft/ESBM", ESBM_DIR)
    desc = [n for n in names if n.endswith("_desc.nt")]
    return sorted(desc, key=lambda n: int(n.rsplit("/", 1)[1].split("_")[0]))


def build_esbm(mirror: Path) -> Path:
    g = rdflib.Graph()
    files = esbm_files(mirror)
    assert len(files) == 125, len(files)
    for path in files:
        g.parse(data=read_source(mirror, "nju-websoft/ESBM", path), format="nt")
    return write(g, "esbm-dbpedia.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# 5. Amsterdam Diaries Time Machine: schema.org JSON-LD + W3C Web Annotation
# ---------------------------------------------------------------------------------------

ANNO_CONTEXT = "http://www.w3.org/ns/anno.jsonld"
DIARIES = "amsterdamtimemachine/amsterdam-diaries-data"
DIARIES_ANNOTATIONS = 1000  # entity annotations kept, in source order


def build_diaries(mirror: Path) -> Path:
    import json

    anno = json.loads(read_source(mirror, "w3c/web-annotation", "jsonld/anno.jsonld"))["@context"]

    def inline(node):  # the remote context, given inline (no network at build time)
        if isinstance(node, dict):
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return anno if node == ANNO_CONTEXT else node

    g = rdflib.Graph()
    for path in ("rdf/metadata.jsonld", "rdf/external_resources.jsonld", "rdf/entity_annotations.jsonld"):
        doc = json.loads(read_source(mirror, DIARIES, path))
        if path.endswith("entity_annotations.jsonld"):
            doc = doc[:DIARIES_ANNOTATIONS]
        # a fixed base, so that the one relative IRI in the source ("Concept" as a type)
        # resolves the same on every machine; triples with it are then dropped (below)
        g.parse(data=json.dumps(inline(doc)), format="json-ld", publicID="urn:x-relative:")
    kept = rdflib.Graph()
    for t in g:
        if not any(isinstance(x, URIRef) and str(x).startswith("urn:x-relative:") for x in t):
            kept.add(t)
    g = kept
    return write(tree_bnode_labels(g), "amsterdam-diaries-schemaorg.nt.gz", "nt", gz=True)


def tree_bnode_labels(g: rdflib.Graph) -> rdflib.Graph:
    """Relabel blank nodes by a hash of what hangs below them and who points at them.

    The JSON-LD blank nodes here are trees (lists, specific resources, selectors), so this
    is a cheap stand-in for rdflib's canonicalization (far too slow at this size). Asserts
    that no two blank nodes get the same label, so no triple is merged away.
    """
    import hashlib

    memo: dict = {}

    def down(b, depth=0):
        if b not in memo:
            assert depth < 10000
            parts = sorted(
                p.n3() + " " + (down(o, depth + 1) if isinstance(o, rdflib.BNode) else o.n3())
                for p, o in g.predicate_objects(b)
            )
            memo[b] = hashlib.sha1("\n".join(parts).encode("utf-8")).hexdigest()
        return memo[b]

    # top-down: a blank node's label hashes its content and its parents' final labels;
    # twins (same content, same parents: interchangeable) get a running suffix
    bnodes = sorted({x for t in g for x in t if isinstance(x, rdflib.BNode)}, key=down)
    label: dict = {}
    pending = list(bnodes)
    while pending:
        ready, later = [], []
        for bn in pending:
            parents = list(g.subject_predicates(bn))
            if all(not isinstance(sp, rdflib.BNode) or sp in label for sp, _ in parents):
                ready.append(bn)
            else:
                later.append(bn)
        assert ready, "blank nodes in a cycle"
        keyed = sorted(
            (
                hashlib.sha1(
                    (
                        down(bn)
                        + "\n"
                        + "\n".join(
                            sorted(pp.n3() + " " + label.get(sp, sp).n3() for sp, pp in g.subject_predicates(bn))
                        )
                    ).encode("utf-8")
                ).hexdigest()[:16],
                bn,
            )
            for bn in ready
        )
        seen: dict = {}
        for key, bn in keyed:
            n = seen.get(key, 0)
            seen[key] = n + 1
            label[bn] = rdflib.BNode("b" + key + (f"x{n}" if n else ""))
        pending = later
    assert len(set(label.values())) == len(label), "two blank nodes share a label"
    out = rdflib.Graph()
    for s, p, o in g:
        out.add((label.get(s, s), p, label.get(o, o)))
    assert len(out) == len(g)
    return out


# ---------------------------------------------------------------------------------------
# 6. Nomisma.org: SKOS concepts typed by the Nomisma ontology, multilingual labels, PROV
# ---------------------------------------------------------------------------------------

NOMISMA = "nomisma/data"
NM_ID = "http://nomisma.org/id/"
NOMISMA_SEED_STEP = 50  # every 50th concept file (sorted by name) is a seed
NOMISMA_HOPS = 2


def nomisma_ids(mirror: Path) -> list[str]:
    names = tree_paths(mirror, NOMISMA, "id")
    return sorted(n[len("id/") : -len(".rdf")] for n in names if n.startswith("id/") and n.endswith(".rdf"))


def build_nomisma(mirror: Path) -> Path:
    """The concept files within NOMISMA_HOPS links of every NOMISMA_SEED_STEP-th concept.

    A link is any IRI of the form http://nomisma.org/id/NAME (fragment ignored) in a file,
    as subject or object, for which id/NAME.rdf exists. Each chosen file is kept whole.
    """
    ids = nomisma_ids(mirror)
    known = set(ids)
    graphs: dict = {}

    def graph(name):
        if name not in graphs:
            g = rdflib.Graph()
            g.parse(data=read_source(mirror, NOMISMA, f"id/{name}.rdf"), format="xml")
            graphs[name] = g
        return graphs[name]

    def links(g):
        out = set()
        for t in g:
            for x in (t[0], t[2]):
                if isinstance(x, URIRef) and str(x).startswith(NM_ID):
                    local = str(x)[len(NM_ID) :].split("#", 1)[0]
                    if local in known:
                        out.add(local)
        return out

    seeds = ids[::NOMISMA_SEED_STEP]
    keep = set(seeds)
    frontier = sorted(seeds)
    for _ in range(NOMISMA_HOPS):
        reached = set()
        for name in frontier:
            reached |= links(graph(name)) - keep
        keep |= reached
        frontier = sorted(reached)
    g = rdflib.Graph()
    for name in sorted(keep):
        for t in graph(name):
            g.add(t)
    return write(tree_bnode_labels(g), "nomisma-skos.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# 7. PeriodO: SKOS period definitions with OWL-Time intervals and bibliographic sources
# ---------------------------------------------------------------------------------------


def build_periodo(mirror: Path) -> Path:
    g = rdflib.Graph()
    g.parse(data=read_source(mirror, "periodo/periodo-data", "initial-data.ttl"), format="turtle")
    return write(tree_bnode_labels(g), "periodo-periods.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, kept blind (README.md): three more graphs of other conventions
# ---------------------------------------------------------------------------------------

_IRI_BAD = '<>"{}|\\^`'


def clean_iri(term):
    """An IRI that N-Triples can carry: the sources have a few IRIs with whitespace in them
    (an editing artefact: a line break and indentation inside an attribute). Leading and
    trailing whitespace and any whitespace run with a line break in it are removed; other
    inner whitespace and characters IRIs may not hold are percent-encoded. Other terms
    are returned unchanged."""
    import re

    if not isinstance(term, URIRef):
        return term
    s = str(term)
    if not any(c.isspace() or c in _IRI_BAD for c in s):
        return term
    s = re.sub(r"\s*\n\s*", "", s.strip())
    s = "".join(quote(c, safe="") if (c.isspace() or c in _IRI_BAD) else c for c in s)
    return URIRef(s)


def cleaned(g: rdflib.Graph) -> rdflib.Graph:
    out = rdflib.Graph()
    for prefix, ns in g.namespaces():
        out.bind(prefix, ns)
    for s, p, o in g:
        out.add((clean_iri(s), clean_iri(p), clean_iri(o)))
    return out


# 8. Polifonia ORGANS: pipe organs of Italy, Polifonia core/instrument ontologies, deeply
#    nested blank nodes (timed locations, addresses, projects, agents, names, pictures)

ORGANS = "polifonia-project/organs-knowledge-graph"


def build_organs(mirror: Path) -> Path:
    g = rdflib.Graph()
    for path in SOURCES[ORGANS][1]:
        g.parse(data=read_source(mirror, ORGANS, path), format="turtle")
    return write(tree_bnode_labels(g), "organs-polifonia.nt.gz", "nt", gz=True)


# 9. WikiPathways RDF: identifiers.org IRIs for genes, proteins, metabolites; the semantic
#    (wp:) layer and the graphical (gpml:) layer of each pathway

WIKIPATHWAYS = "wikipathways/GPML2RDF"
WP_DIR = "WP2RDF/resources/testcollection"
WP_SKIP = {"WP2279.ttl"}  # the largest (42k triples): without it the graph stays under 150k


def wikipathways_files(mirror: Path) -> list[str]:
    names = tree_paths(mirror, WIKIPATHWAYS, WP_DIR)
    return sorted(n for n in names if n.endswith(".ttl") and n.rsplit("/", 1)[1] not in WP_SKIP)


def build_wikipathways(mirror: Path) -> Path:
    g = rdflib.Graph()
    files = wikipathways_files(mirror)
    assert len(files) == 25, len(files)
    for path in files:
        g.parse(data=read_source(mirror, WIKIPATHWAYS, path), format="turtle")
    return write(tree_bnode_labels(cleaned(g)), "wikipathways-gpml.nt.gz", "nt", gz=True)


# 10. ISWC conference metadata, Semantic Web Dog Food: SWC / SWRC / FOAF / iCal, RDF/XML,
#     author lists as rdf:Seq, roles as nodes

ISWC = "lidingpku/open-conference-data"


def build_iswc(mirror: Path) -> Path:
    import re

    g = rdflib.Graph()
    for path in SOURCES[ISWC][1]:
        g.parse(data=read_source(mirror, ISWC, path), format="xml")
    # four objects in the source are relative references with no base to resolve them
    # against (an affiliation, three homepages written without a scheme): those triples go
    absolute = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
    kept = rdflib.Graph()
    for t in g:
        if all(not isinstance(x, URIRef) or absolute.match(str(x)) for x in t):
            kept.add(t)
    assert len(g) - len(kept) == 4, len(g) - len(kept)
    return write(tree_bnode_labels(cleaned(kept)), "iswc-swdf.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, second batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 11. Smithsonian National Portrait Gallery (American Art Collaborative): CIDOC-CRM, one node
#     per production, time-span, title, identifier, name and classification event

NPG = "american-art/npg"
NPG_SEED_STEP = 15  # every 15th object (numeric id order) is kept with everything it reaches
_NPG_ROOT = re.compile(r"^<http://data\.npg\.si\.edu/(object|person-institution)/\d+>$")
_NPG_PERSON = "<http://data.npg.si.edu/person-institution/"


def build_npg(mirror: Path) -> Path:
    """Objects and the people they depict or were made by, with all the nodes hanging off them.

    The six zipped N-Triples files are read as lines (the source repeats many lines). A record
    is what is reachable from an object (every NPG_SEED_STEP-th object IRI in numeric order)
    by outgoing links, not passing through another object; a person or institution reached
    (sitter, artist) is a record of its own and expanded the same way. Shared terms (Getty AAT
    types, places, NPG thesaurus terms) are expanded too, so their labels come along. Every
    triple whose subject is reached is kept.
    """
    lines = set()
    for path in SOURCES[NPG][1]:
        with zipfile.ZipFile(io.BytesIO(read_source_bytes(mirror, NPG, path))) as z:
            for name in z.namelist():
                for line in z.read(name).decode("utf-8").splitlines():
                    if line.strip():
                        lines.add(line.strip())
    out = defaultdict(list)
    for line in lines:
        s, p, o = line.split(" ", 2)
        out[s].append((o[:-1].strip(), line))
    objects = sorted(
        (s for s in out if s.startswith("<http://data.npg.si.edu/object/") and _NPG_ROOT.match(s)),
        key=lambda s: int(s.rsplit("/", 1)[1][:-1]),
    )
    roots = deque(objects[::NPG_SEED_STEP])
    reached = set(roots)
    keep = set()
    while roots:
        queue = deque([roots.popleft()])
        seen = {queue[0]}
        while queue:
            node = queue.popleft()
            for o, line in out.get(node, ()):
                keep.add(line)
                if not o.startswith("<") or o in seen:
                    continue
                if not _NPG_ROOT.match(o):
                    seen.add(o)
                    queue.append(o)
                elif o.startswith(_NPG_PERSON) and o not in reached:
                    reached.add(o)
                    roots.append(o)
    g = rdflib.Graph()
    g.parse(data="\n".join(sorted(keep)) + "\n", format="nt")
    return write(g, "npg-cidoc-crm.nt.gz", "nt", gz=True)


# 12. YAGO3-10: YAGO3 facts between Wikipedia-named entities, camelCase verb-phrase relations
#     (wasBornIn, isAffiliatedTo, hasWonPrize, playsFor...), no types

YAGO = "http://yago-knowledge.org/resource/"
YAGO310 = "DeepGraphLearning/KnowledgeGraphEmbedding"


def yago_iri(name: str) -> URIRef:
    """A YAGO3 entity or relation name ('Albert_Einstein', 'wasBornIn') as its YAGO IRI."""
    return URIRef(YAGO + quote(name, safe="_-.()',!&:*+;=@$~"))


def build_yago310(mirror: Path) -> Path:
    """The two official YAGO3-10 evaluation splits, whole (about 10,000 facts), as RDF.

    Each entity gets an rdfs:label made from its name (underscores read as spaces), the form
    YAGO3's own names take; relations keep their YAGO3 names and get no label, as in the source.
    """
    triples = set()
    for path in SOURCES[YAGO310][1]:
        for line in read_source(mirror, YAGO310, path).splitlines():
            if line.strip():
                h, r, t = line.split("\t")
                triples.add((h, r, t))
    g = rdflib.Graph()
    g.bind("yago", YAGO)
    iris = {}
    for h, r, t in sorted(triples):
        for n in (h, t):
            if n not in iris:
                iris[n] = yago_iri(n)
        g.add((iris[h], yago_iri(r), iris[t]))
    assert len(set(iris.values())) == len(iris), "two names share an IRI"
    for name, iri in iris.items():
        g.add((iri, RDFS.label, Literal(name.replace("_", " "))))
    return write(g, "yago310-yago3.nt.gz", "nt", gz=True)


# 13. HITO, the Health IT Ontology: software products, their features, functions, licences,
#     programming languages, organisations and catalogue classifiers, all the ontology's files

HITO = "hitontology/ontology"


def hito_files(mirror: Path) -> list[str]:
    names = tree_paths(mirror, HITO)
    return sorted(n for n in names if n.endswith(".ttl"))


def build_hito(mirror: Path) -> Path:
    g = rdflib.Graph()
    files = hito_files(mirror)
    assert len(files) == 18, files
    for path in files:
        g.parse(data=read_source(mirror, HITO, path), format="turtle")
    return write(tree_bnode_labels(g), "hito-owl-skos.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, third batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 14. Stardog tutorials' music graph: a DBpedia subset (albums, songs, artists, bands, writers,
#     producers) rewritten into one small tutorial vocabulary, names as a property of its own

STARDOG = "stardog-union/stardog-tutorials"


def build_stardog_music(mirror: Path) -> Path:
    g = rdflib.Graph()
    data = gzip.decompress(read_source_bytes(mirror, STARDOG, "music/music.ttl.gz")).decode("utf-8")
    g.parse(data=data, format="turtle")
    g.parse(data=read_source(mirror, STARDOG, "music/music_schema.ttl"), format="turtle")
    return write(cleaned(g), "music-stardog.nt.gz", "nt", gz=True)


# 15. CurriculumKG: data-science learning resources (articles, courses, videos, datasets) with their
#     authors, topics, languages, curricula and learning paths; names as properties of their own

CURRKG = "kastle-lab/curriculum-kg"


def build_curriculum(mirror: Path) -> Path:
    g = rdflib.Graph()
    g.parse(data=read_source(mirror, CURRKG, "script/materialization/new-schema-currkg.ttl"), format="turtle")
    return write(cleaned(g), "curriculum-currkg.nt.gz", "nt", gz=True)


# 16. GND (Integrated Authority File, Deutsche Nationalbibliothek): person records of ancient Greek
#     authors, GND ontology and AGRELON relations, name entities and role nodes as blank nodes

GND = "DigiClass/LOD-People"
GND_DIR = "sample-data/GND"


def gnd_files(mirror: Path) -> list[str]:
    names = tree_paths(mirror, GND, GND_DIR)
    return sorted(n for n in names if n.endswith(".rdf"))


def build_gnd(mirror: Path) -> Path:
    g = rdflib.Graph()
    files = gnd_files(mirror)
    assert len(files) == 809, len(files)
    for path in files:  # named .rdf, but Turtle
        g.parse(data=read_source(mirror, GND, path), format="turtle")
    return write(tree_bnode_labels(cleaned(g)), "gnd-persons-gndo.nt.gz", "nt", gz=True)


def whole_files(mirror: Path, repo: str, paths, fmt: str, name: str) -> Path:
    """Whole source files of one repository parsed as `fmt`, cleaned, blank nodes labelled, written as `name`."""
    g = rdflib.Graph()
    for path in paths:
        g.parse(data=read_source(mirror, repo, path), format=fmt)
    return write(tree_bnode_labels(cleaned(g)), name, "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, fourth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 17. Unified Astronomy Thesaurus: a SKOS thesaurus (broader, narrower, related, alternative labels,
#     definitions, editorial and change notes as blank nodes), RDF/XML

UAT = "astrothesaurus/UAT"


def build_uat(mirror: Path) -> Path:
    return whole_files(mirror, UAT, ["UAT.rdf"], "xml", "uat-astronomy-skos.nt.gz")


# 18. Reactome pathways as BioPAX Level 3 (five exports kept as Paxtools test resources): OWL
#     individuals of the BioPAX ontology, cross-references as nodes with database and id literals

PAXTOOLS = "BioPAX/Paxtools"


def build_reactome(mirror: Path) -> Path:
    g = rdflib.Graph()
    for path in SOURCES[PAXTOOLS][1]:
        g.parse(data=read_source(mirror, PAXTOOLS, path), format="xml")
    # each file's ontology header (rdf:about="": a type and an import) names the document itself, which
    # no base resolves here: those triples go (the same two in every file, so two in all)
    absolute = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
    kept = rdflib.Graph()
    for t in g:
        if all(not isinstance(x, URIRef) or absolute.match(str(x)) for x in t):
            kept.add(t)
    assert len(g) - len(kept) == 2, len(g) - len(kept)
    return write(tree_bnode_labels(cleaned(kept)), "reactome-biopax3.nt.gz", "nt", gz=True)


# 19. OSM Semantic Network: OpenStreetMap wiki keys and tags (key=value) as SKOS concepts with the
#     crawler's own properties (key, key and value labels, wiki links, combined-with, implies, redirects)

OSN = "ucd-spatial/OsmSemanticNetwork"


def build_osn(mirror: Path) -> Path:
    g = rdflib.Graph()
    data = gzip.decompress(read_source_bytes(mirror, OSN, "osm_semantic_network.skos.rdf.gz")).decode("utf-8")
    g.parse(data=data, format="xml")
    return write(cleaned(g), "osm-semantic-network-skos.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, fifth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 20. OntoPiA territorial classifications: Italy, its NUTS-1 geographical distribution, regions and provinces as
#     Core Location Vocabulary (CLV) features that are also SKOS concepts, identifiers as nodes, DCAT-AP_IT metadata

ONTOPIA = "italia/daf-ontologie-vocabolari-controllati"


def build_ontopia(mirror: Path) -> Path:
    return whole_files(mirror, ONTOPIA, SOURCES[ONTOPIA][1], "turtle", "ontopia-territories-clv.nt.gz")


# 21. The Syriac Gazetteer (Syriaca.org): places in the LAWD / Pelagios gazetteer conventions, names and
#     descriptions as blank nodes, places linked by part-of and related-place links

SYRIACA = "srophe/Linked-Data"


def build_syriaca(mirror: Path) -> Path:
    return whole_files(mirror, SYRIACA, ["data/places/rdf/all-places.ttl"], "turtle", "syriaca-gazetteer-lawd.nt.gz")


# 22. NCI Thesaurus test subset (rdfpath): OWL classes with NCIt codes as local names, coded annotation, object
#     and datatype properties with labels, axioms as restrictions and annotated-axiom blank nodes; RDF/XML

NCIT = "hsolbrig/rdfpath"


def build_ncit(mirror: Path) -> Path:
    return whole_files(mirror, NCIT, ["testdata/NCItTest.owl"], "xml", "ncit-thesaurus-owl.nt.gz")


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, sixth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 23. SemOpenAlex data sample: an OpenAlex work with its authors, institutions, sources and concepts in SPAR
#     (FaBiO, CiTO, DataCite, BiDO), DCMI terms, FOAF, W3C org, PRISM and the SemOpenAlex ontology; TriG with one
#     named graph (its name is dropped), merged with the SemOpenAlex ontology (labels of classes and properties)

SEMOPENALEX = "metaphacts/semopenalex"


def build_semopenalex(mirror: Path) -> Path:
    data, onto = SOURCES[SEMOPENALEX][1]
    ds = rdflib.Dataset()
    ds.parse(data=read_source(mirror, SEMOPENALEX, data), format="trig")
    g = rdflib.Graph()
    for s, p, o, _ in ds.quads((None, None, None, None)):
        g.add((s, p, o))
    g.parse(data=read_source(mirror, SEMOPENALEX, onto), format="turtle")
    return write(tree_bnode_labels(cleaned(g)), "semopenalex-scholarly-spar.nt.gz", "nt", gz=True)


# 24. MeSH RDF: descriptors, qualifiers, supplementary concept records, descriptor-qualifier pairs, concepts, terms
#     and tree numbers as nodes of their own, in the MeSH vocabulary namespace; N-Triples

MESH = "HHS/meshrdf"


def build_mesh(mirror: Path) -> Path:
    return whole_files(mirror, MESH, SOURCES[MESH][1], "nt", "mesh-rdf-meshv.nt.gz")


# 25. BIBFRAME 2 (Library of Congress): works, instances and items of 34 catalogue records with agents, contributions,
#     titles, subjects (MADS/RDF), identifiers and notes, mostly as blank nodes; RDF/XML

BIBFRAME = "lcnetdev/bibframe2marc"
BIBFRAME_DIR = "rules/test/data/exemplars"


def bibframe_files(mirror: Path) -> list[str]:
    """The 34 `decomposed` record files (`NAME.rdf`; not `raw.NAME.rdf` nor the id.loc.gov `id.NAME.rdf`)."""
    names = tree_paths(mirror, BIBFRAME, BIBFRAME_DIR)
    return sorted(n for n in names if n.endswith(".rdf") and not n.rsplit("/", 1)[1].startswith(("raw.", "id.")))


def build_bibframe(mirror: Path) -> Path:
    files = bibframe_files(mirror)
    assert len(files) == 34, len(files)
    return whole_files(mirror, BIBFRAME, files, "xml", "loc-bibframe2-records.nt.gz")


# 26. Uberon fragment (ROBOT example): OBO Foundry OWL, classes and relations as OBO PURLs (UBERON, BFO, RO ids),
#     oboInOwl synonyms, cross-references, namespaces and subsets, axiom annotations, existential restrictions; RDF/XML

ROBOT = "ontodev/robot"


def build_uberon(mirror: Path) -> Path:
    return whole_files(mirror, ROBOT, SOURCES[ROBOT][1], "xml", "uberon-fragment-obo-owl.nt.gz")


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, seventh batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 27. Archives nationales (France) in RiC-O 1.1, the ICA Records in Contexts ontology: agents (persons, families,
#     corporate bodies) with agent names, dates and places, record sets, records and instantiations nested in finding-aid
#     trees, n-ary relation nodes (organic provenance, hierarchy, succession, agent-to-agent), rules, and SKOS vocabularies
#     of document forms, subjects, occupations, activities, languages and corporate body types; RDF/XML

RICO = "ICA-EGAD/RiC-O"
RICO_DIR = "examples/examples_v1-1/NationalArchivesOfFrance/rdf-xml"


def rico_files(mirror: Path) -> list[str]:
    """Every RDF/XML file of the Archives nationales example set for RiC-O 1.1 (128 files)."""
    names = tree_paths(mirror, RICO, RICO_DIR)
    return sorted(n for n in names if n.endswith(".rdf"))


def build_rico(mirror: Path) -> Path:
    files = rico_files(mirror)
    assert len(files) == 128, len(files)
    return whole_files(mirror, RICO, files, "xml", "anf-archives-rico.nt.gz")


# 28. Project Gutenberg catalogue: ebooks in the pgterms vocabulary with DCMI terms (titles, issued dates, rights,
#     subjects, languages, types and formats as blank nodes with a value and a vocabulary), agents (authors,
#     translators, illustrators, editors... as MARC relator properties) with names, aliases, birth and death years and
#     Wikipedia pages, files of each format with extents and dates; RDF/XML, one file per ebook

GUTENBERG = "rammmukul/guttenberg"
GUTENBERG_STEP = 100  # every 100th ebook file in ebook-number order (ebook 0, a placeholder, left out)
_PG_FILE = re.compile(r"cache/epub/(\d+)/pg\1\.rdf")


def gutenberg_files(mirror: Path) -> list[str]:
    names = tree_paths(mirror, GUTENBERG, "cache/epub")
    numbered = sorted((int(m.group(1)), n) for n in names if (m := _PG_FILE.fullmatch(n)) and m.group(1) != "0")
    return [n for _, n in numbered][::GUTENBERG_STEP]


def build_gutenberg(mirror: Path) -> Path:
    """Every GUTENBERG_STEP-th catalogue record, each file whole (each one states CC0 for itself)."""
    files = gutenberg_files(mirror)
    assert len(files) == 577, len(files)
    g = rdflib.Graph()
    for path in files:
        data = read_source(mirror, GUTENBERG, path)
        assert "https://creativecommons.org/publicdomain/zero/1.0/" in data, path
        g.parse(data=data, format="xml")
    return write(tree_bnode_labels(cleaned(g)), "gutenberg-catalog-pgterms.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, eighth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 29. Wikidata entity RDF (Special:EntityData Turtle, the Wikibase RDF mapping): Q-id items with labels, descriptions
#     and aliases in many languages, truthy wdt: claims beside full statement nodes (p:/ps:/pq:/pr:, ranks, references
#     as nodes of their own, full values as value nodes), the referenced properties as entities with labels and their
#     wikibase:directClaim/claim/... links, sitelinks as schema:Article nodes, a schema:Dataset node per export

ENTITYBASE = "dpriskorn/entitybase-backend"


def build_wikidata(mirror: Path) -> Path:
    files = SOURCES[ENTITYBASE][1]
    for path in files:  # each export states CC0 for itself
        assert "<http://creativecommons.org/publicdomain/zero/1.0/>" in read_source(mirror, ENTITYBASE, path), path
    return whole_files(mirror, ENTITYBASE, files, "turtle", "wikidata-entities-wikibase.nt.gz")


# 30. data.gov.be DCAT-AP catalogue as a Linked Data Event Stream: TREE/LDES pages in TriG, each member an
#     ActivityStreams event whose named graph holds one DCAT-AP description (datasets, distributions, data services,
#     agents, contact points, licences, EU authority-table IRIs for themes, formats, languages, frequencies)

DATAGOVBE = "Fedict/dcat"
DATAGOVBE_STEP = 50  # every 50th feed page in path order
DATAGOVBE_BASE = "https://fedict.github.io/dcat/"  # docs/ is served by GitHub Pages here; pages use relative IRIs


def datagovbe_files(mirror: Path) -> list[str]:
    names = tree_paths(mirror, DATAGOVBE, "docs")
    return sorted(n for n in names if n.endswith("index.trig"))[::DATAGOVBE_STEP]


def build_datagovbe(mirror: Path) -> Path:
    """Every DATAGOVBE_STEP-th LDES page, each whole; every quad's triple kept (member graph names dropped)."""
    files = datagovbe_files(mirror)
    assert len(files) == 20, len(files)
    g = rdflib.Graph()
    for path in files:
        ds = rdflib.Dataset()
        ds.parse(
            data=read_source(mirror, DATAGOVBE, path), format="trig", publicID=DATAGOVBE_BASE + path[len("docs/") :]
        )
        for s, p, o, _ in ds.quads((None, None, None, None)):
            g.add((s, p, o))
    return write(tree_bnode_labels(cleaned(g)), "datagovbe-dcat-ldes.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, ninth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 31. Biodiversity Heritage Library as schema.org N-Triples: titles, scanned volumes (items), articles found in them and
#     every scanned page, linked upward by one part-of property, pages with thumbnail addresses

BHL = "rdmpage/bhl-rdf"


def build_bhl(mirror: Path) -> Path:
    return whole_files(mirror, BHL, SOURCES[BHL][1], "nt", "bhl-pages-schemaorg.nt.gz")


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, tenth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 32. MoMA exhibition history as Linked Art JSON-LD (the CIDOC-CRM profile of the Linked Art community): one
#     activity per exhibition with a time-span, a place, the group that carried it out, and an attribute assignment
#     whose role sets are about persons; Getty AAT types; compact JSON keys expanded by the Linked Art context

MOMA = "tgra/Linked-Art-MoMA-Exhibition-Data-Transform"
MOMA_DIR = "exhibition_event/data/c_linked_art"
MOMA_STEP = 10  # every 10th exhibition file in numeric order
LINKED_ART = "linked-art/linked.art"


def moma_files(mirror: Path) -> list[str]:
    names = tree_paths(mirror, MOMA, MOMA_DIR)
    numbered = sorted((int(n[len(MOMA_DIR) + 1 : -len(".json")]), n) for n in names if n.endswith(".json"))
    return [n for _, n in numbered][::MOMA_STEP]


def build_moma(mirror: Path) -> Path:
    """Every MOMA_STEP-th exhibition file, each whole, its remote context given inline (the build has no network)."""
    import json

    context = json.loads(read_source(mirror, LINKED_ART, "docs/ns/v1/linked-art.json"))["@context"]
    files = moma_files(mirror)
    assert len(files) == 709, len(files)
    g = rdflib.Graph()
    for path in files:
        doc = json.loads(read_source(mirror, MOMA, path))
        assert doc["@context"] == "https://linked.art/ns/v1/linked-art.json", path
        doc["@context"] = context
        g.parse(data=json.dumps(doc), format="json-ld")
    return write(tree_bnode_labels(cleaned(g)), "moma-exhibitions-linkedart.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, eleventh batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 33. QUDT (Quantities, Units, Dimensions and Types): physical constants with their quantity values, units and
#     quantity kinds, systems of units; QUDT schema properties beside SKOS matches and links out

QUDT = "qudt/qudt-public-repo"


def build_qudt(mirror: Path) -> Path:
    """The constants and the systems of units, each whole, with the descriptions (every triple about them, and the
    blank nodes below them) of the quantity kinds and units that the constants file names as objects."""
    constants, systems, kinds, units = SOURCES[QUDT][1]
    g = rdflib.Graph()
    g.parse(data=read_source(mirror, QUDT, constants), format="turtle")
    named = sorted({o for o in g.objects() if isinstance(o, URIRef)})
    g.parse(data=read_source(mirror, QUDT, systems), format="turtle")
    for path in (kinds, units):
        src = rdflib.Graph()
        src.parse(data=read_source(mirror, QUDT, path), format="turtle")
        for node in named:
            if (node, None, None) in src:
                g += src.cbd(node)
    return write(tree_bnode_labels(cleaned(g)), "qudt-constants-units.nt.gz", "nt", gz=True)


# 34. FIBO (Financial Industry Business Ontology, EDM Council) with OMG Commons: government entities, jurisdictions,
#     regulatory agencies, registries and registration authorities as OWL named individuals beside the classes,
#     properties and restrictions of their modules; one slash namespace per ontology module

FIBO = "edmcouncil/fibo"
FIBO_DIRS = ("BE/GovernmentEntities", "FBC/FunctionalEntities")
# not used: the module metadata files, and the two largest lists of codes (business centres; markets, which is
# missing from the snapshot)
FIBO_SKIP = ("FBC/FunctionalEntities/BusinessCentersIndividuals.rdf", "FBC/FunctionalEntities/MarketsIndividuals.rdf")


def fibo_files(mirror: Path) -> list[str]:
    names = []
    for folder in FIBO_DIRS:
        names += tree_paths(mirror, FIBO, folder)
    return sorted(n for n in names if n.endswith(".rdf") and "/Metadata" not in n and n not in FIBO_SKIP)


def build_fibo(mirror: Path) -> Path:
    files = fibo_files(mirror)
    assert len(files) == 33, len(files)
    return whole_files(mirror, FIBO, files, "xml", "fibo-jurisdictions-agencies.nt.gz")


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, twelfth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 35. RDA-RDF (the RDA Registry's element sets: opaque numbered properties per entity kind, numbered classes): library
#     catalogue records as works, expressions, manifestations, agents, nomens, places and timespans, subjects as SKOS
#     concepts in per-scheme namespaces, MARC field provenance as a literal on a placeholder property

RDA = "uwlib-cams/MARC2RDA"
RDA_STEP = 3  # every 3rd catalogue record, in record-number order
_RDA_RECORD = re.compile(r"^http://marc2rda\.edu/fake/(\d{10,})")


def _rda_record(term) -> str | None:
    m = _RDA_RECORD.match(str(term)) if isinstance(term, URIRef) else None
    return m.group(1) if m else None


def build_rda(mirror: Path) -> Path:
    """Every RDA_STEP-th record (the nodes the transform minted under the record's number), each with every triple
    about its nodes, and the description of every node outside the records that a kept triple reaches (subject
    concepts, places, timespans, identifiers...), followed transitively; other records' nodes are not followed."""
    (path,) = SOURCES[RDA][1]
    src = rdflib.Graph()
    src.parse(data=read_source(mirror, RDA, path), format="turtle")
    records = sorted({r for r in map(_rda_record, src.subjects()) if r})
    assert len(records) == 287, len(records)
    keep = set(records[::RDA_STEP])
    g = rdflib.Graph()
    todo = []
    for s, p, o in src:
        if _rda_record(s) in keep:
            g.add((s, p, o))
            todo.append(o)
    seen = set()
    while todo:
        node = todo.pop()
        if node in seen or isinstance(node, Literal) or _rda_record(node):
            continue
        seen.add(node)
        for p, o in src.predicate_objects(node):
            g.add((node, p, o))
            todo.append(o)
    return write(tree_bnode_labels(cleaned(g)), "uwlib-catalogue-rda.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-07, thirteenth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 36. The Foodpairing Inspire KG: its own OWL ontology beside SKOS; ingredients, ingredient categories (a SKOS
#     taxonomy), aromas and aroma types, tastes, textures, trigeminal sensations, functional benefits, pairings

INSPIRE = "foodpairing/inspire_kg"


def build_inspire(mirror: Path) -> Path:
    return whole_files(mirror, INSPIRE, SOURCES[INSPIRE][1], "turtle", "foodpairing-inspire-food.nt.gz")


# 37. The Film Club Knowledge Graph: a small OWL/SHACL movie schema; award nominations as nodes of their own linking a
#     film, nominees, a category and a ceremony of an award system; films and people with identifier nodes

FCKG = "SteveHedden/fckg"


def build_fckg(mirror: Path) -> Path:
    """The schema and the nominations of three award systems (the guild awards: directors, producers, screen actors),
    each file whole, with the description of every film, person and other node of the films and people files that
    those reach, followed transitively (identifiers and their schemes). The other award systems' nominations are left
    out for size (the Oscar nominations file is missing from the snapshot)."""
    schema, *nominations, films, people = SOURCES[FCKG][1]
    g = rdflib.Graph()
    g.parse(data=read_source(mirror, FCKG, schema), format="turtle")
    for path in nominations:
        g.parse(data=read_source(mirror, FCKG, path), format="turtle")
    src = rdflib.Graph()
    for path in (films, people):
        src.parse(data=read_source(mirror, FCKG, path), format="turtle")
    todo = sorted({o for o in g.objects() if isinstance(o, URIRef)})
    seen = set()
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for p, o in src.predicate_objects(node):
            g.add((node, p, o))
            if isinstance(o, URIRef):
                todo.append(o)
    return write(tree_bnode_labels(cleaned(g)), "fckg-film-awards.nt.gz", "nt", gz=True)


# 38. The IPTC Sport Schema: its core ontology with three sample data files of one football league (rosters, a season's
#     schedule with results, standings) as the IPTC converts SportsML; participations and memberships as nodes

IPTC = "iptc/sport-schema"


def build_iptc_sport(mirror: Path) -> Path:
    """The core ontology and three sample files, each whole. The samples name nodes by the data provider's ids under a
    placeholder domain, and other sample files reuse the same ids for other things; these three share their nodes
    without conflict (asserted: no node is labelled differently in two of them)."""
    g = rdflib.Graph()
    labels: dict = {}
    for path in SOURCES[IPTC][1]:
        part = rdflib.Graph()
        part.parse(data=read_source(mirror, IPTC, path), format="turtle")
        if path.startswith("samples/"):
            mine: dict = defaultdict(set)
            for s, o in part.subject_objects(RDFS.label):
                mine[s].add(o)
            for s, names in mine.items():
                assert labels.setdefault(s, names) == names, (path, s)
        g += part
    return write(tree_bnode_labels(cleaned(g)), "iptc-sport-football.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-08, fourteenth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 39. Telicent's IES examples: countries and country subdivisions as IES4 individuals (names and identifiers as nodes
#     of their own, places in places), country descriptions from the CIA World Factbook

IES = "telicent-oss/ies-examples"


def build_ies_regions(mirror: Path) -> Path:
    """The four files of the regions-of-the-world example, each whole (the subdivision files repeat some descriptions;
    repeated triples fold)."""
    return whole_files(mirror, IES, SOURCES[IES][1], "turtle", "ies-regions-of-world.nt.gz")


# 40. The European Parliament's open-data samples: parliamentary questions of 2022 as ELI works, expressions and
#     manifestations, ELI-DL activities and participations, persons and EU authority-table IRIs

EUROPARL = "europarl/open-data-beta-testing"


def build_europarl(mirror: Path) -> Path:
    """The first of the four 2022 parliamentary-question files, whole (the four together are about 60k triples)."""
    return whole_files(mirror, EUROPARL, SOURCES[EUROPARL][1], "turtle", "europarl-questions-eli.nt.gz")


# 41. The family-tree graph of AllegroGraph's tutorials: an ad hoc vocabulary under one hash namespace, people
#     with split names, family links, professions, colleges and places

AGRAPH = "franzinc/agraph-python"


def build_agraph_family(mirror: Path) -> Path:
    """The N-Triples file whole."""
    return whole_files(mirror, AGRAPH, SOURCES[AGRAPH][1], "nt", "agraph-family-tree.nt.gz")


# ---------------------------------------------------------------------------------------
# Added 2026-12-08, fifteenth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 42. OxPoints: the University of Oxford's units (colleges, departments, libraries) and places (buildings, rooms),
#     its own OWL vocabulary with Dublin Core titles, vCard addresses and WGS84 positions, one named graph per unit

OXPOINTS = "ox-it/oxpoints"


def build_oxpoints(mirror: Path) -> Path:
    """The TriG dump whole, its named graphs merged. The old Jena writer that made it wrote owl:sameAs as N3's `=`,
    which TriG does not allow: such a verb is read as owl:sameAs."""
    text = read_source(mirror, OXPOINTS, SOURCES[OXPOINTS][1][0])
    text = re.sub(r"(?m)^(\s+)=(\s)", r"\1owl:sameAs\2", text)
    ds = rdflib.Dataset()
    ds.parse(data=text, format="trig")
    g = rdflib.Graph()
    for s, p, o, _ in ds.quads():
        g.add((s, p, o))
    return write(tree_bnode_labels(cleaned(g)), "oxpoints-university-places.nt.gz", "nt", gz=True)


# 43. LinkedDataHub's Northwind Traders demo: customers, employees, orders with their lines, products, suppliers,
#     shippers, territories and regions as schema.org resources inside LinkedDataHub documents (FOAF, DC terms)

LDH = "AtomGraph/LinkedDataHub-Apps"
LDH_BASE = "https://localhost:4443/"  # the base of the demo's own usage examples


def build_northwind(mirror: Path) -> Path:
    """Each CSV table through its CONSTRUCT mapping, as LinkedDataHub's CSV import does: a row is a resource whose
    non-empty cells hang on `BASE#column`, the mapping runs with `$base` bound to BASE. Two changes to the mappings:
    the `GRAPH ?g { }` wrapper of the template is dropped (rdflib builds triples, not quads: every document's triples
    go to one graph), and the order-line IRIs, minted from STRUUID(), are minted from the product number instead
    (one line per order and product in the table), so a rerun writes the same bytes."""
    import csv

    files = SOURCES[LDH][1]
    out = rdflib.Graph()
    for csv_path in [f for f in files if f.endswith(".csv")]:
        rows = rdflib.Graph()
        for i, record in enumerate(csv.DictReader(io.StringIO(read_source(mirror, LDH, csv_path)))):
            row = rdflib.BNode(f"row{i}")
            for column, value in record.items():
                if value:
                    rows.add((row, URIRef(LDH_BASE + "#" + column), Literal(value)))
        query = read_source(mirror, LDH, csv_path[: -len("csv")] + "rq")
        head, sep, body = query.partition("WHERE")
        head, n = re.subn(r"GRAPH\s+\?\w+\s*\{", "", head, count=1)
        assert n == 1, csv_path
        cut = head.rindex("}")
        head = head[:cut] + head[cut + 1 :]
        body = body.replace('concat(str(?graph), "#", STRUUID())', 'concat(str(?graph), "#item-", ?productID)')
        assert "STRUUID" not in body, csv_path
        result = rows.query(head + sep + body, base=LDH_BASE, initBindings={"base": URIRef(LDH_BASE)})
        for triple in result:
            out.add(triple)
    return write(cleaned(out), "northwind-linkeddatahub-schemaorg.nt.gz", "nt", gz=True)


# 44. The AKSW research group's website model: people (members, alumni), projects, partner organisations, events and
#     talks in FOAF, DOAP and schema.org with the group's own schema and OntoWiki site terms

AKSW = "AKSW/aksw.org-model"
AKSW_PERSONAL = (URIRef("http://xmlns.com/foaf/0.1/mbox"), URIRef("http://xmlns.com/foaf/0.1/phone"))


def build_aksw(mirror: Path) -> Path:
    """The N-Triples file whole, less people's mailboxes and phone numbers (personal contact details)."""
    g = rdflib.Graph()
    g.parse(data=read_source(mirror, AKSW, SOURCES[AKSW][1][0]), format="nt")
    for p in AKSW_PERSONAL:
        g.remove((None, p, None))
    return write(tree_bnode_labels(cleaned(g)), "aksw-research-group-foaf.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-08, sixteenth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 45. The air-routes graph as Amazon Neptune's graph-notebook seeds it over SPARQL: airports (codes, cities, positions,
#     runways), countries and continents that contain them, and the routes between airports, each route triple in a
#     named graph of its own whose IRI carries the route's distance

AIR_ROUTES = "aws/graph-notebook"


def build_air_routes(mirror: Path) -> Path:
    """The three seed files whole. Each is a SPARQL `INSERT DATA { GRAPH ... { ... } ... }` request; its body is TriG,
    so the request's wrapper is taken off and the rest parsed as TriG, the named graphs merged into one graph. The
    distance of a route is stated on the route's named graph, which no triple of the merged graph links to, so those
    statements (one per route) are left out; every other triple is kept."""
    dist = URIRef("http://kelvinlawrence.net/air-routes/datatypeProperty/dist")
    g = rdflib.Graph()
    for path in SOURCES[AIR_ROUTES][1]:
        text = read_source(mirror, AIR_ROUTES, path)
        head, sep, body = text.partition("INSERT DATA {")
        body = body.rstrip()
        assert sep and body.endswith("}"), path
        ds = rdflib.Dataset()
        ds.parse(data=head + body[:-1], format="trig")
        for s, p, o, _ in ds.quads():
            if p != dist:
                g.add((s, p, o))
    return write(cleaned(g), "air-routes-neptune.nt.gz", "nt", gz=True)


# ---------------------------------------------------------------------------------------
# Added 2026-12-08, seventeenth batch, kept blind (README.md)
# ---------------------------------------------------------------------------------------

# 46. Brick building models: the equipment (air handlers, variable-air-volume boxes, fans), points (sensors, setpoints,
#     commands) and rooms and zones of two real university buildings, in the Brick schema's classes and relations

BRICK = "BrickSchema/Brick"


def build_brick_buildings(mirror: Path) -> Path:
    """The two building models whole, merged (each under its own namespace)."""
    return whole_files(mirror, BRICK, SOURCES[BRICK][1], "turtle", "brick-buildings.nt.gz")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--mirror", type=Path, default=Path("/work/.mirror"), help="folder holding owner+name/repo git snapshots"
    )
    keys = ["metaqa", "fb15k237", "wine", "esbm", "diaries", "nomisma", "periodo", "organs", "wikipathways", "iswc"]
    keys += ["npg", "yago310", "hito"]
    keys += ["stardog_music", "curriculum", "gnd"]
    keys += ["uat", "reactome", "osn"]
    keys += ["ontopia", "syriaca", "ncit"]
    keys += ["semopenalex", "mesh", "bibframe", "uberon"]
    keys += ["rico", "gutenberg"]
    keys += ["wikidata", "datagovbe"]
    keys += ["bhl"]
    keys += ["moma"]
    keys += ["qudt", "fibo"]
    keys += ["rda"]
    keys += ["inspire", "fckg", "iptc_sport"]
    keys += ["ies_regions", "europarl", "agraph_family"]
    keys += ["oxpoints", "northwind", "aksw"]
    keys += ["air_routes"]
    keys += ["brick_buildings"]
    ap.add_argument("--only", choices=keys, action="append")
    args = ap.parse_args(argv)
    todo = args.only or keys
    builders = {
        "metaqa": build_metaqa,
        "fb15k237": build_fb15k237,
        "wine": build_wine,
        "esbm": build_esbm,
        "diaries": build_diaries,
        "nomisma": build_nomisma,
        "periodo": build_periodo,
        "organs": build_organs,
        "wikipathways": build_wikipathways,
        "iswc": build_iswc,
        "npg": build_npg,
        "yago310": build_yago310,
        "hito": build_hito,
        "stardog_music": build_stardog_music,
        "curriculum": build_curriculum,
        "gnd": build_gnd,
        "uat": build_uat,
        "reactome": build_reactome,
        "osn": build_osn,
        "ontopia": build_ontopia,
        "syriaca": build_syriaca,
        "ncit": build_ncit,
        "semopenalex": build_semopenalex,
        "mesh": build_mesh,
        "bibframe": build_bibframe,
        "uberon": build_uberon,
        "rico": build_rico,
        "gutenberg": build_gutenberg,
        "wikidata": build_wikidata,
        "datagovbe": build_datagovbe,
        "bhl": build_bhl,
        "moma": build_moma,
        "qudt": build_qudt,
        "fibo": build_fibo,
        "rda": build_rda,
        "inspire": build_inspire,
        "fckg": build_fckg,
        "iptc_sport": build_iptc_sport,
        "ies_regions": build_ies_regions,
        "europarl": build_europarl,
        "agraph_family": build_agraph_family,
        "oxpoints": build_oxpoints,
        "northwind": build_northwind,
        "aksw": build_aksw,
        "air_routes": build_air_routes,
        "brick_buildings": build_brick_buildings,
    }
    for key in todo:
        path = builders[key](args.mirror)
        print(f"{path.name}: {path.stat().st_size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
