"""Write the convention fixtures of this folder: small made-up graphs, one per naming convention a user may bring
(Freebase/WebQSP, a WikiMovies/MetaQA snake_case KB, an OWL ontology of named individuals, DBpedia, underscore and
kebab-case relations). See README.md. Deterministic: every run writes the same bytes (fixed seed, no clock, no
hash order), so the committed files are this script's output:

    .venv/bin/python tests/data/conventions/make_fixtures.py    # rewrites the five files next to this script

The content is invented: people, films, books, bands and companies are made-up names; cities and countries are
real places with their real country. Nothing here is a fact about a real person.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
SEED = 39

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"
FOAF = "http://xmlns.com/foaf/0.1/"
DCT = "http://purl.org/dc/terms/"
SCHEMA = "http://schema.org/"

# ------------------------------------------------------------------------------------------------ made-up content
FIRST = ("Alice Anna Arthur Beatrice Benjamin Carla Charles Clara Daniel Diane Edward Eleanor Elliot Emma Felix "
         "Frances George Grace Harold Helen Henry Iris Isaac Jack Julia Karen Laura Leonard Lucy Margaret Martin "
         "Mary Nathan Nora Oliver Olivia Oscar Patricia Paul Peter Philip Rachel Raymond Rose Ruth Samuel Sarah "
         "Simon Sophie Stella Thomas Victor Vivian Walter William Zoe").split()
LAST = ("Abbott Ashford Barlow Bennett Blackwood Brennan Calloway Carver Dalton Donnelly Ellison Fairbanks Fenwick "
        "Garrison Hale Harlow Hastings Holloway Kendrick Langley Lindqvist Marlowe McAllister MacLeod Merrick "
        "Norwood O'Hara Pemberton Prescott Radcliffe Renwick Rowan Sinclair Stanton Sutherland Thornton Vance "
        "Whitaker Winslow Yates DeVries Okafor Moreau Castellano Novak Haddad Tanaka Ferreira Kowalski").split()
CITIES = (  # (city, country): real places
    ("Chicago", "United States"), ("Boston", "United States"), ("Seattle", "United States"),
    ("New Orleans", "United States"), ("St. Louis", "United States"), ("Toronto", "Canada"),
    ("Montreal", "Canada"), ("Vancouver", "Canada"), ("London", "United Kingdom"), ("Manchester", "United Kingdom"),
    ("Edinburgh", "United Kingdom"), ("Dublin", "Ireland"), ("Cork", "Ireland"), ("Lyon", "France"),
    ("Paris", "France"), ("Hamburg", "Germany"), ("Munich", "Germany"), ("Melbourne", "Australia"),
    ("Sydney", "Australia"), ("Auckland", "New Zealand"),
)
LANGUAGES = {"United States": "English", "Canada": "English", "United Kingdom": "English", "Ireland": "English",
             "France": "French", "Germany": "German", "Australia": "English", "New Zealand": "English"}
CAPITALS = {"United States": "Washington, D.C.", "Canada": "Ottawa", "United Kingdom": "London", "Ireland": "Dublin",
            "France": "Paris", "Germany": "Berlin", "Australia": "Canberra", "New Zealand": "Wellington"}
ADJ = ("Silent Distant Crimson Golden Broken Hidden Last Quiet Restless Northern Burning Lonely Hollow Bright "
       "Secret Wild Frozen Velvet Paper Midnight").split()
NOUN = ("Harbor River Garden Summer Winter Letter Promise Station Orchard Lantern Shadow Bridge Horizon Echo "
        "Kingdom Voyage Carnival Island Mirror Season").split()
FILM_GENRES = ("Drama", "Comedy", "Thriller", "Science Fiction", "Romance", "Crime", "Documentary", "Western")
BOOK_GENRES = ("Novel", "Mystery", "Biography", "Poetry", "Historical fiction", "Short stories")
MUSIC_GENRES = ("Indie rock", "Jazz", "Folk", "Electronic", "Soul", "Country")
PROFESSIONS = ("Actor", "Film director", "Screenwriter", "Novelist", "Singer", "Composer", "Painter", "Entrepreneur")
AWARDS = ("Golden Reel Award for Best Director", "Silver Lantern Prize", "Harbor Film Festival Grand Prize",
          "Northern Book Award", "Meridian Music Prize")
CHAR_FIRST = ("Jake Molly Sam Lena Frank Ivy Rex Nell Gus Tess Hank Mabel Vic Dot Earl June").split()
CHAR_LAST = ("Turner Malone Brody Quinn Castle Fowler Drake Sterling Pike Lowell").split()
BAND_A = ("The Velvet", "The Northern", "Paper", "Electric", "The Hollow", "Midnight", "Silver", "The Quiet")
BAND_B = ("Lanterns", "Foxes", "Engines", "Choir", "Harbors", "Orchards", "Satellites", "Sparrows")
ORG_A = ("Harborview", "Northwind", "Bluestone", "Silverline", "Redwood", "Lakeshore", "Ironbridge", "Kestrel")
ORG_B = ("Pictures", "Records", "Press", "Studios", "Publishing", "Media")


class Names:
    """Unique made-up person names, film/book/album titles from a seeded generator."""

    def __init__(self, rng: random.Random):
        self.rng, self.used = rng, set()

    def unique(self, make) -> str:
        for _ in range(1000):
            name = make()
            if name not in self.used:
                self.used.add(name)
                return name
        raise RuntimeError("ran out of names")

    def person(self) -> str:
        return self.unique(lambda: f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}")

    def title(self) -> str:
        def noun_of_noun() -> str:
            first, second = self.rng.sample(NOUN, 2)
            return f"{first} of the {self.rng.choice(ADJ)} {second}"

        def a_noun_in_city() -> str:
            noun = self.rng.choice(NOUN)
            return f"{'An' if noun[0] in 'AEIOU' else 'A'} {noun} in {self.rng.choice(CITIES)[0]}"

        forms = (lambda: f"The {self.rng.choice(ADJ)} {self.rng.choice(NOUN)}", noun_of_noun,
                 lambda: f"{self.rng.choice(ADJ)} {self.rng.choice(NOUN)}", a_noun_in_city)
        return self.unique(lambda: self.rng.choice(forms)())

    def character(self) -> str:
        return self.unique(lambda: f"{self.rng.choice(CHAR_FIRST)} {self.rng.choice(CHAR_LAST)}")

    def band(self) -> str:
        return self.unique(lambda: f"{self.rng.choice(BAND_A)} {self.rng.choice(BAND_B)}")

    def org(self) -> str:
        return self.unique(lambda: f"{self.rng.choice(ORG_A)} {self.rng.choice(ORG_B)}")


def date(rng: random.Random, lo: int, hi: int) -> str:
    return f"{rng.randint(lo, hi)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def slug(name: str) -> str:
    """DBpedia / WikiMovies style local name: spaces to underscores, other characters kept where IRIs allow."""
    return re.sub(r"[^\w\-.,'()]", "", name.replace(" ", "_"))


# ------------------------------------------------------------------------------------------------ serialising
def iri(x: str) -> str:
    return f"<{x}>"


def lit(value, lang: str | None = None, dt: str | None = None) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"' + (f"@{lang}" if lang else f"^^<{dt}>" if dt else "")


class Triples:
    """Triples in insertion order; N-Triples or Turtle (prefixed names, grouped by subject) on output."""

    def __init__(self):
        self.rows: list[tuple[str, str, str]] = []
        self.seen: set[tuple[str, str, str]] = set()

    def add(self, s: str, p: str, o: str) -> None:
        t = (iri(s), iri(p), o)
        if t not in self.seen:
            self.seen.add(t)
            self.rows.append(t)

    def ntriples(self) -> str:
        return "".join(f"{s} {p} {o} .\n" for s, p, o in self.rows)

    def turtle(self, prefixes: dict[str, str], header: str) -> str:
        def short(term: str) -> str:
            if not term.startswith("<"):
                m = re.match(r'^(".*")\^\^<(.*)>$', term)
                return f"{m[1]}^^{short('<' + m[2] + '>')}" if m else term
            full = term[1:-1]
            for pre, ns in prefixes.items():
                local = full[len(ns):]
                if full.startswith(ns) and re.fullmatch(r"[A-Za-z_][\w\-]*(?<![.\-])|\d\w*", local):
                    return f"{pre}:{local}"
            return term

        out = [f"# {line}".rstrip() + "\n" for line in header.splitlines()]
        out += [f"@prefix {pre}: <{ns}> .\n" for pre, ns in prefixes.items()] + ["\n"]
        order, by_subject = [], {}
        for s, p, o in self.rows:
            if s not in by_subject:
                order.append(s)
                by_subject[s] = []
            by_subject[s].append((p, o))
        for s in order:
            pos = by_subject[s]
            p_short = ["a" if p == iri(RDF + "type") else short(p) for p, _ in pos]
            lines = [f"    {ps} {short(o)}" for ps, (_, o) in zip(p_short, pos)]
            out.append(short(s) + "\n" + " ;\n".join(lines) + " .\n\n")
        return "".join(out)

    def __len__(self) -> int:
        return len(self.rows)


# ------------------------------------------------------------------------------------------------ Freebase
FB = "http://rdf.freebase.com/ns/"
MID_CHARS = "0123456789bcdfghjklmnpqrstvwxyz_"


def freebase(rng: random.Random) -> Triples:
    """Freebase / WebQSP subgraph conventions: mids as entity IRIs, dotted predicate paths, type.object.name @en
    (rdfs:label on some), type.object.type, CVT (mediator) nodes for performances and awards, both directions of
    most relations (as the dumps have them), some nodes without a name (a character known only by its mid)."""
    g, names, mids = Triples(), Names(rng), set()

    def mid(prefix: str = "m.0") -> str:
        while True:
            m = prefix + "".join(rng.choice(MID_CHARS) for _ in range(rng.randint(3, 5) if prefix == "m.0" else 8))
            if m not in mids:
                mids.add(m)
                return FB + m

    def topic(name: str | None, *types: str, label: bool = False) -> str:
        e = mid("g.11b" if rng.random() < 0.08 else "m.0")
        if name:
            g.add(e, FB + "type.object.name", lit(name, "en"))
            if label:
                g.add(e, RDFS + "label", lit(name, "en"))
        for t in types:
            g.add(e, FB + "type.object.type", iri(FB + t))
        return e

    def rel(s: str, path: str, o: str, back: str | None = None) -> None:
        g.add(s, FB + path, iri(o))
        if back:
            g.add(o, FB + back, iri(s))

    countries = {c: topic(c, "location.country", "location.location", label=True) for c in LANGUAGES}
    langs = {lang: topic(f"{lang} Language", "language.human_language") for lang in sorted(set(LANGUAGES.values()))}
    for c, e in countries.items():
        rel(e, "location.country.official_language", langs[LANGUAGES[c]])
    cities = {}
    for city, country in CITIES:
        cities[city] = topic(city, "location.citytown", "location.location", label=rng.random() < 0.5)
        rel(cities[city], "location.location.containedby", countries[country], "location.location.contains")
    male, female = FB + "m.05zppz", FB + "m.02zsn"
    g.add(male, FB + "type.object.name", lit("Male", "en"))
    g.add(female, FB + "type.object.name", lit("Female", "en"))
    profs = {p: topic(p, "people.profession") for p in PROFESSIONS}
    fgenres = {x: topic(x, "film.film_genre") for x in FILM_GENRES}
    bgenres = {x: topic(x, "book.book_subject") for x in BOOK_GENRES}

    people = []
    for _ in range(40):
        name = names.person()
        e = topic(name, "people.person", "common.topic", label=rng.random() < 0.3)
        city, country = rng.choice(CITIES)
        rel(e, "people.person.place_of_birth", cities[city], "location.location.people_born_here")
        g.add(e, FB + "people.person.date_of_birth", lit(date(rng, 1925, 1990), dt=XSD + "date"))
        rel(e, "people.person.gender", rng.choice((male, female)))
        rel(e, "people.person.nationality", countries[country])
        if rng.random() < 0.2:
            g.add(e, FB + "common.topic.alias", lit(name.split()[0][0] + ". " + name.split()[1], "en"))
        people.append(e)
    actors, directors, writers = people[:22], people[22:30], people[30:40]
    for e in actors:
        rel(e, "people.person.profession", profs["Actor"])
        g.add(e, FB + "type.object.type", iri(FB + "film.actor"))
    for e in directors:
        rel(e, "people.person.profession", profs["Film director"])
        g.add(e, FB + "type.object.type", iri(FB + "film.director"))
    for e in writers:
        rel(e, "people.person.profession", profs[rng.choice(("Novelist", "Screenwriter"))])
        g.add(e, FB + "type.object.type", iri(FB + "book.author"))

    films = []
    for _ in range(20):
        f = topic(names.title(), "film.film", label=rng.random() < 0.3)
        films.append(f)
        rel(f, "film.film.directed_by", rng.choice(directors), "film.director.film")
        rel(f, "film.film.written_by", rng.choice(writers), "film.writer.film")
        for genre in rng.sample(FILM_GENRES, rng.randint(1, 2)):
            rel(f, "film.film.genre", fgenres[genre])
        country = rng.choice(list(LANGUAGES))
        rel(f, "film.film.country", countries[country])
        rel(f, "film.film.language", langs[LANGUAGES[country]])
        g.add(f, FB + "film.film.initial_release_date", lit(date(rng, 1970, 2015), dt=XSD + "date"))
        for actor in rng.sample(actors, 3):
            perf = mid()  # the CVT: no name, no type.object.name, only its roles
            g.add(perf, FB + "type.object.type", iri(FB + "film.performance"))
            rel(f, "film.film.starring", perf, "film.performance.film")
            rel(perf, "film.performance.actor", actor, "film.actor.film")
            character = topic(names.character() if rng.random() < 0.85 else None, "film.film_character")
            rel(perf, "film.performance.character", character, "film.film_character.portrayed_in_films")
    for _ in range(12):
        b = topic(names.title(), "book.book", "book.written_work")
        rel(b, "book.written_work.author", rng.choice(writers), "book.author.works_written")
        rel(b, "book.book.genre", bgenres[rng.choice(BOOK_GENRES)])
        g.add(b, FB + "book.written_work.date_of_first_publication", lit(rng.randint(1950, 2018), dt=XSD + "gYear"))
    for award in AWARDS[:3]:
        a = topic(award, "award.award_category")
        for _ in range(4):
            honor = mid()
            g.add(honor, FB + "type.object.type", iri(FB + "award.award_honor"))
            rel(rng.choice(directors + actors), "award.award_winner.awards_won", honor, "award.award_honor.award_winner")
            rel(honor, "award.award_honor.award", a)
            rel(honor, "award.award_honor.honored_for", rng.choice(films))
            g.add(honor, FB + "award.award_honor.year", lit(rng.randint(1980, 2016), dt=XSD + "gYear"))
    for _ in range(6):
        o = topic(names.org(), "organization.organization", label=True)
        rel(o, "organization.organization.founders", rng.choice(people), "organization.organization_founder.organizations_founded")
        rel(o, "organization.organization.place_founded", cities[rng.choice(CITIES)[0]])
        g.add(o, FB + "organization.organization.date_founded", lit(rng.randint(1950, 2010), dt=XSD + "gYear"))
    return g


# ------------------------------------------------------------------------------------------------ WikiMovies / MetaQA
KB = "http://example.org/kb/"
TAGS = ("good", "bad", "classic", "funny", "based on a book", "road trip", "christmas", "new york city",
        "world war ii", "black and white", "remake", "dark comedy", "boring", "oscar (best picture)")
RATINGS = ("good", "bad", "average", "famous")
VOTES = ("famous", "popular", "unheard of", "average")
MOVIE_LANGS = ("English", "French", "German", "Spanish", "Italian", "Japanese")


def snake_kb(rng: random.Random) -> Triples:
    """WikiMovies / MetaQA KB conventions: `film|directed_by|person` rows as snake_case predicates under one
    namespace, every object an entity with a label (years "1994", ratings "good", votes "famous", tags such as
    "bill murray": a lower-case tag that also names a person of the KB), no rdf:type at all; a tag entity and a
    rating may be the same entity ("good"); a few films carry no label (their IRI is the only name)."""
    g, names = Triples(), Names(rng)
    entities: dict[str, str] = {}

    def ent(label: str, labelled: bool = True) -> str:
        e = KB + slug(label)
        if e in entities and entities[e] != label:  # "good" the tag and "good" the rating: one IRI per label here
            e = KB + slug(label) + "_" + str(len(entities))
        if e not in entities:
            entities[e] = label
            if labelled:
                g.add(e, RDFS + "label", lit(label))
        return e

    people = [names.person() for _ in range(60)]
    directors, writers, actors = people[:14], people[14:26], people[26:]
    tag_people = rng.sample(actors + directors, 8)
    tags = [ent(t) for t in TAGS] + [KB + "tag_" + slug(p.lower()) for p in tag_people]
    for p in tag_people:
        g.add(KB + "tag_" + slug(p.lower()), RDFS + "label", lit(p.lower()))
    for _ in range(70):
        title = names.title()
        f = ent(title, labelled=rng.random() > 0.1)
        g.add(f, KB + "directed_by", iri(ent(rng.choice(directors))))
        for w in rng.sample(writers, rng.randint(1, 2)):
            g.add(f, KB + "written_by", iri(ent(w)))
        for a in rng.sample(actors, rng.randint(2, 4)):
            g.add(f, KB + "starred_actors", iri(ent(a)))
        g.add(f, KB + "release_year", iri(ent(str(rng.randint(1960, 2012)))))
        g.add(f, KB + "in_language", iri(ent(rng.choice(MOVIE_LANGS))))
        g.add(f, KB + "has_genre", iri(ent(rng.choice(FILM_GENRES))))
        for t in rng.sample(tags, rng.randint(1, 3)):
            g.add(f, KB + "has_tags", iri(t))
        if rng.random() < 0.7:
            g.add(f, KB + "has_imdb_rating", iri(ent(rng.choice(RATINGS))))
        if rng.random() < 0.6:
            g.add(f, KB + "has_imdb_votes", iri(ent(rng.choice(VOTES))))
    return g


# ------------------------------------------------------------------------------------------------ OWL individuals
ONT = "http://example.org/ontology/culture#"


def owl_individuals(rng: random.Random) -> Triples:
    """An OWL ontology in the Protege style: an owl:Ontology header, labelled classes with subClassOf, object
    properties with camelCase local names and rdfs:label ("has maker"), domain and range; individuals typed
    owl:NamedIndividual and a class (most), only owl:NamedIndividual (some), owl:Thing (a few)."""
    g, names = Triples(), Names(rng)
    g.add(ONT[:-1], RDF + "type", iri(OWL + "Ontology"))
    g.add(ONT[:-1], RDFS + "label", lit("Culture ontology", "en"))
    g.add(ONT[:-1], OWL + "versionInfo", lit("0.3"))
    classes = {"Agent": None, "Person": "Agent", "Musician": "Person", "Writer": "Person", "Band": "Agent",
               "Organisation": "Agent", "CreativeWork": None, "Album": "CreativeWork", "Song": "CreativeWork",
               "Book": "CreativeWork", "Film": "CreativeWork", "Place": None, "City": "Place", "Country": "Place",
               "Genre": None}
    for c, sup in classes.items():
        g.add(ONT + c, RDF + "type", iri(OWL + "Class"))
        g.add(ONT + c, RDFS + "label", lit(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", c).lower(), "en"))
        if sup:
            g.add(ONT + c, RDFS + "subClassOf", iri(ONT + sup))
    props = {  # local name: (label, domain, range)
        "hasMaker": ("has maker", "CreativeWork", "Agent"), "isPartOf": ("is part of", None, None),
        "bornIn": ("born in", "Person", "City"), "locatedIn": ("located in", "Place", "Place"),
        "hasMember": ("has member", "Band", "Person"), "memberOf": ("member of", "Person", "Band"),
        "hasGenre": ("has genre", "CreativeWork", "Genre"), "publishedBy": ("published by", "CreativeWork", "Organisation"),
        "basedIn": ("based in", "Agent", "City"), "influencedBy": ("influenced by", "Agent", "Agent"),
    }
    for p, (label, dom, rng_) in props.items():
        g.add(ONT + p, RDF + "type", iri(OWL + "ObjectProperty"))
        g.add(ONT + p, RDFS + "label", lit(label, "en"))
        if dom:
            g.add(ONT + p, RDFS + "domain", iri(ONT + dom))
        if rng_:
            g.add(ONT + p, RDFS + "range", iri(ONT + rng_))
    g.add(ONT + "hasMember", OWL + "inverseOf", iri(ONT + "memberOf"))
    g.add(ONT + "releaseYear", RDF + "type", iri(OWL + "DatatypeProperty"))
    g.add(ONT + "releaseYear", RDFS + "label", lit("release year", "en"))
    g.add(ONT + "releaseYear", RDFS + "range", iri(XSD + "gYear"))

    def individual(label: str, cls: str) -> str:
        e = ONT + re.sub(r"\W", "", label.title().replace(" ", ""))
        r = rng.random()
        g.add(e, RDF + "type", iri(OWL + "NamedIndividual"))
        if r < 0.6:
            g.add(e, RDF + "type", iri(ONT + cls))
        elif r < 0.75:
            g.add(e, RDF + "type", iri(OWL + "Thing"))
        g.add(e, RDFS + "label", lit(label, "en"))
        return e

    countries = {c: individual(c, "Country") for c in LANGUAGES}
    cities = {}
    for city, country in CITIES:
        cities[city] = individual(city, "City")
        g.add(cities[city], ONT + "locatedIn", iri(countries[country]))
        g.add(cities[city], ONT + "isPartOf", iri(countries[country]))
    genres = [individual(x, "Genre") for x in MUSIC_GENRES + BOOK_GENRES[:3]]
    people = [individual(names.person(), "Musician" if i < 30 else "Writer") for i in range(45)]
    for p in people:
        g.add(p, ONT + "bornIn", iri(cities[rng.choice(CITIES)[0]]))
    labels = [individual(names.org(), "Organisation") for _ in range(6)]
    for lab in labels:
        g.add(lab, ONT + "basedIn", iri(cities[rng.choice(CITIES)[0]]))
    bands = [individual(names.band(), "Band") for _ in range(8)]
    for i, b in enumerate(bands):
        for m in people[i * 3 : i * 3 + rng.randint(2, 4)]:
            g.add(b, ONT + "hasMember", iri(m))
            g.add(m, ONT + "memberOf", iri(b))
        g.add(b, ONT + "basedIn", iri(cities[rng.choice(CITIES)[0]]))
        g.add(b, ONT + "hasGenre", iri(rng.choice(genres[:6])))
    for _ in range(30):
        a = individual(names.title(), "Album")
        g.add(a, ONT + "hasMaker", iri(rng.choice(bands + people[24:30])))
        g.add(a, ONT + "publishedBy", iri(rng.choice(labels)))
        g.add(a, ONT + "hasGenre", iri(rng.choice(genres[:6])))
        g.add(a, ONT + "releaseYear", lit(rng.randint(1965, 2020), dt=XSD + "gYear"))
        for _ in range(rng.randint(1, 3)):
            s = individual(names.title(), "Song")
            g.add(s, ONT + "isPartOf", iri(a))
    for _ in range(20):
        b = individual(names.title(), "Book")
        g.add(b, ONT + "hasMaker", iri(rng.choice(people[30:])))
        g.add(b, ONT + "publishedBy", iri(rng.choice(labels)))
        g.add(b, ONT + "hasGenre", iri(rng.choice(genres[6:])))
        g.add(b, ONT + "releaseYear", lit(rng.randint(1950, 2020), dt=XSD + "gYear"))
    for p in rng.sample(people, 20):
        g.add(p, ONT + "influencedBy", iri(rng.choice(people)))
    return g


# ------------------------------------------------------------------------------------------------ DBpedia
DBO, DBR, DBP = "http://dbpedia.org/ontology/", "http://dbpedia.org/resource/", "http://dbpedia.org/property/"
WD = "http://www.wikidata.org/entity/"


def dbpedia(rng: random.Random) -> Triples:
    """DBpedia conventions: dbr: resources named by their article title, dbo: camelCase properties with no label in
    the file, rdfs:label @en (and @de on some), foaf:name, several rdf:types per entity (dbo:Person, dbo:Agent,
    owl:Thing, schema:Person, foaf:Person, wikidata:Q5), typed literals (xsd:nonNegativeInteger population,
    xsd:date, runtime in seconds as xsd:double), dct:subject categories without labels, owl:sameAs to Wikidata."""
    g, names = Triples(), Names(rng)

    def res(name: str, *types: str, de: bool = False) -> str:
        e = DBR + slug(name)
        g.add(e, RDFS + "label", lit(name, "en"))
        if de:
            g.add(e, RDFS + "label", lit(name, "de"))
        for t in types:
            g.add(e, RDF + "type", iri(t))
        g.add(e, DBO + "wikiPageID", lit(rng.randint(10000, 70000000), dt=XSD + "integer"))
        return e

    countries = {}
    for c in LANGUAGES:
        countries[c] = res(c, DBO + "Country", DBO + "PopulatedPlace", DBO + "Place", OWL + "Thing", de=True)
        g.add(countries[c], OWL + "sameAs", iri(WD + f"Q{rng.randint(10, 999)}"))
    cities = {}
    for city, country in CITIES:
        cities[city] = res(city, DBO + "City", DBO + "Settlement", DBO + "PopulatedPlace", DBO + "Place",
                           SCHEMA + "City", OWL + "Thing", de=rng.random() < 0.5)
        g.add(cities[city], DBO + "country", iri(countries[country]))
        g.add(cities[city], DBO + "populationTotal", lit(rng.randint(90000, 4000000), dt=XSD + "nonNegativeInteger"))
    for c, cap in CAPITALS.items():
        if cap in cities:
            g.add(countries[c], DBO + "capital", iri(cities[cap]))
    people = []
    for _ in range(48):
        name = names.person()
        p = res(name, DBO + "Person", DBO + "Agent", FOAF + "Person", SCHEMA + "Person", WD + "Q5", OWL + "Thing")
        g.add(p, FOAF + "name", lit(name, "en"))
        city = rng.choice(CITIES)[0]
        g.add(p, DBO + "birthPlace", iri(cities[city]))
        year = rng.randint(1930, 1990)
        g.add(p, DBO + "birthDate", lit(date(rng, year, year), dt=XSD + "date"))
        g.add(p, DCT + "subject", iri(DBR + f"Category:{year}_births"))
        g.add(p, DCT + "subject", iri(DBR + f"Category:People_from_{slug(city)}"))
        people.append(p)
    actors, directors, writers = people[:26], people[26:36], people[36:]
    for _ in range(26):
        f = res(names.title(), DBO + "Film", DBO + "Work", SCHEMA + "Movie", WD + "Q11424", OWL + "Thing")
        g.add(f, DBO + "director", iri(rng.choice(directors)))
        g.add(f, DBO + "writer", iri(rng.choice(writers)))
        for a in rng.sample(actors, rng.randint(2, 4)):
            g.add(f, DBO + "starring", iri(a))
        g.add(f, DBO + "country", iri(countries[rng.choice(list(LANGUAGES))]))
        g.add(f, DBO + "runtime", lit(f"{rng.randint(80, 160) * 60}.0", dt=XSD + "double"))
        g.add(f, DBO + "releaseDate", lit(date(rng, 1975, 2015), dt=XSD + "date"))
        g.add(f, DBP + "language", lit(rng.choice(("English", "French", "German")), "en"))
    for _ in range(10):
        b = res(names.title(), DBO + "Book", DBO + "WrittenWork", DBO + "Work", OWL + "Thing")
        g.add(b, DBO + "author", iri(rng.choice(writers)))
        g.add(b, DBO + "numberOfPages", lit(rng.randint(120, 700), dt=XSD + "positiveInteger"))
    return g


# ------------------------------------------------------------------------------------------------ underscores
EX = "http://example.org/data/"


def underscore(rng: random.Random) -> Triples:
    """Home-made data with leading underscores (`_author`), kebab-case (`lead-singer`), snake_case plural and
    singular twins (`lead_singers`), `is_member_of`, `has_capital`, `X_of` inverses (`capital_of`, `author_of`),
    `premiere_date` literals; no rdf:type at all; most entities labelled, some named only by their IRI."""
    g, names = Triples(), Names(rng)

    def ent(name: str) -> str:
        e = EX + slug(name)
        if rng.random() < 0.85:
            g.add(e, RDFS + "label", lit(name))
        return e

    countries = {c: ent(c) for c in CAPITALS}
    cities = {c: ent(c) for c, _ in CITIES}
    for c, cap in CAPITALS.items():
        capital = cities.get(cap) or ent(cap)
        g.add(countries[c], EX + "has_capital", iri(capital))
        g.add(capital, EX + "capital_of", iri(countries[c]))
    for city, country in CITIES:
        g.add(cities[city], EX + "part_of", iri(countries[country]))
    people = [ent(names.person()) for _ in range(50)]
    for p in people:
        g.add(p, EX + "citizen_of", iri(countries[rng.choice(list(CAPITALS))]))
    writers, singers, composers, painters = people[:12], people[12:24], people[24:34], people[34:44]
    publishers = [ent(names.org()) for _ in range(4)]
    for _ in range(25):
        b = ent(names.title())
        w = rng.choice(writers)
        g.add(b, EX + "_author", iri(w))
        g.add(w, EX + "author_of", iri(b))
        g.add(b, EX + "_published_in", iri(cities[rng.choice(CITIES)[0]]))
        g.add(b, EX + "_publisher", iri(rng.choice(publishers)))
    for _ in range(10):
        band = ent(names.band())
        lead = rng.sample(singers, rng.randint(1, 2))
        g.add(band, EX + "lead-singer", iri(lead[0]))
        for s in lead:
            g.add(band, EX + "lead_singers", iri(s))
        for m in rng.sample(people[12:34], 3) + lead:
            g.add(m, EX + "is_member_of", iri(band))
        g.add(band, EX + "formed_in", iri(cities[rng.choice(CITIES)[0]]))
    for _ in range(22):
        work = ent(names.title())
        g.add(work, EX + "composed_by", iri(rng.choice(composers)))
        g.add(work, EX + "premiere_date", lit(date(rng, 1890, 2015), dt=XSD + "date"))
        g.add(work, EX + "premiered_in", iri(cities[rng.choice(CITIES)[0]]))
    for _ in range(24):
        painting = ent(names.title())
        g.add(painting, EX + "painted_by", iri(rng.choice(painters)))
        g.add(painting, EX + "year_of_completion", lit(rng.randint(1850, 2010), dt=XSD + "gYear"))
        g.add(painting, EX + "_located_in", iri(cities[rng.choice(CITIES)[0]]))
    return g


FIXTURES = {
    "freebase.nt": (freebase, None, None),
    "snake_kb.ttl": (snake_kb, {"kb": KB, "rdfs": RDFS}, "A WikiMovies/MetaQA-style movie KB (made up)."),
    "owl_individuals.ttl": (owl_individuals, {"": ONT, "owl": OWL, "rdf": RDF, "rdfs": RDFS, "xsd": XSD},
                            "An OWL ontology of named individuals (made up)."),
    "dbpedia.ttl": (dbpedia, {"dbo": DBO, "dbr": DBR, "dbp": DBP, "dct": DCT, "foaf": FOAF, "owl": OWL,
                              "rdfs": RDFS, "schema": SCHEMA, "wd": WD, "xsd": XSD},
                    "DBpedia conventions (made up content)."),
    "underscore.ttl": (underscore, {"ex": EX, "rdfs": RDFS, "xsd": XSD},
                       "Relations with leading underscores, kebab-case and snake_case (made up)."),
}


def main(out: Path = HERE) -> dict[str, int]:
    counts = {}
    for i, (name, (make, prefixes, header)) in enumerate(FIXTURES.items()):
        g = make(random.Random(SEED * 100 + i))
        note = "Written by tests/data/conventions/make_fixtures.py; do not edit by hand. See README.md."
        text = g.ntriples() if prefixes is None else g.turtle(prefixes, f"{header}\n{note}")
        (out / name).write_text(text, encoding="utf-8")
        counts[name] = len(g)
    return counts


if __name__ == "__main__":
    for name, n in main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE).items():
        print(f"{name}: {n} triples")
