"""How people say the relations that recur across public graphs (Wikidata property labels, DBpedia, FOAF,
schema.org, SWAPI, the Nobel Prize data): a verb where a person uses one ("Where was X born?", "Who lives in
Vienna?", "Which languages does X speak?") instead of the label's noun ("the place of birth of X").

Keys are relation labels after `lexicon.split_label`, lowercased. Each entry gives the `Wording` fields it sets
(the rest is derived as for any label): `form` (prep: said after `is`/`was`, or alone when it starts with a
participle; verb: said as a verb), `verb` (third person singular), `verbs` (plural subject), `base` (the bare
verb after `does`/`did`), `tense` (`present` or `past`: `is`/`was`, `does`/`did`), `where` (asked with "where",
its final preposition dropped), and `kind` (the kind of the relation's objects). A user fixes or adds a wording
for their own graph in the `lexicon.yaml` written beside each dataset (`kg2tool synth --lexicon FILE`).
"""

from __future__ import annotations

_BORN = {"noun": "place of birth", "form": "prep", "verb": "born in", "verbs": "born in", "tense": "past", "where": True, "kind": "place"}
_DIED = {"noun": "place of death", "form": "verb", "verb": "died in", "verbs": "died in", "base": "die in", "tense": "past", "where": True,
         "kind": "place"}  # fmt: skip
_BURIED = {"noun": "place of burial", "form": "prep", "verb": "buried in", "verbs": "buried in", "tense": "past", "where": True}
_LIVES = {"noun": "residence", "form": "verb", "verb": "lived in", "verbs": "lived in", "base": "live in", "tense": "past", "where": True,
          "kind": "place"}  # fmt: skip
_CITIZEN = {"noun": "citizenship", "form": "prep", "verb": "a citizen of", "verbs": "citizens of", "kind": "country"}
_EDUCATED = {"noun": "school", "form": "prep", "verb": "educated at", "verbs": "educated at", "tense": "past", "where": True}
_WORKED = {"noun": "employer", "form": "verb", "verb": "worked for", "verbs": "worked for", "base": "work for", "tense": "past",
           "kind": "organization"}  # fmt: skip
_RECEIVED = {"noun": "award", "form": "verb", "verb": "received", "verbs": "received", "base": "receive", "tense": "past",
             "kind": "award"}  # fmt: skip
_WON = {"noun": "prize", "form": "verb", "verb": "won", "verbs": "won", "base": "win", "tense": "past", "kind": "prize"}
_MARRIED = {"noun": "spouse", "form": "prep", "verb": "married to", "verbs": "married to", "tense": "past", "kind": "person"}
_PLAYS = {"noun": "instrument", "form": "verb", "verb": "plays", "verbs": "play", "base": "play", "kind": "instrument"}
_SPEAKS = {"noun": "language", "form": "verb", "verb": "speaks", "verbs": "speak", "base": "speak", "kind": "language"}
_HQ = {"noun": "headquarters", "form": "prep", "verb": "headquartered in", "verbs": "headquartered in", "where": True}
_FORMED = {"noun": "place of formation", "form": "prep", "verb": "formed in", "verbs": "formed in", "tense": "past", "where": True}
_LOCATED = {"noun": "location", "form": "prep", "verb": "located in", "verbs": "located in", "where": True}
_IN = {"form": "prep", "verb": "in", "verbs": "in"}
_AFFILIATED = {"noun": "affiliation", "form": "verb", "verb": "worked at", "verbs": "worked at", "base": "work at",
               "tense": "past", "where": True}  # fmt: skip
_FIELD = {"noun": "field of work", "form": "verb", "verb": "works in", "verbs": "work in", "base": "work in", "kind": "field"}
_COMES = {"noun": "homeworld", "form": "verb", "verb": "comes from", "verbs": "come from", "base": "come from", "where": True,
          "kind": "planet"}  # fmt: skip
_APPEARS = {"noun": "film", "form": "verb", "verb": "appears in", "verbs": "appear in", "base": "appear in", "kind": "film"}
_FEATURES = {"noun": "cast member", "form": "verb", "verb": "features", "verbs": "feature", "base": "feature"}
_HAD = {"noun": "medical condition", "form": "verb", "verb": "had", "verbs": "had", "base": "have", "tense": "past",
        "kind": "medical condition"}  # fmt: skip
_ABOUT = {"noun": "subject", "form": "prep", "verb": "about", "verbs": "about"}
_HELD = {"noun": "position", "form": "verb", "verb": "held", "verbs": "held", "base": "hold", "tense": "past", "kind": "position"}
_PARTY = {"noun": "party", "form": "prep", "verb": "a member of", "verbs": "members of", "kind": "political party"}
_WRITTEN = {"noun": "author", "form": "by", "verb": "written by", "verbs": "written by", "active": "wrote", "tense": "past"}
_DIRECTED = {"noun": "director", "form": "by", "verb": "directed by", "verbs": "directed by", "active": "directed", "tense": "past"}
_PUBLISHED = {"noun": "publisher", "form": "by", "verb": "published by", "verbs": "published by", "active": "published",
              "tense": "past"}  # fmt: skip

KNOWN: dict[str, dict] = {
    **dict.fromkeys(("place of birth", "birth place", "birthplace", "born in", "birth city"), _BORN),
    **dict.fromkeys(("place of death", "death place", "deathplace", "died in", "death city"), _DIED),
    **dict.fromkeys(("place of burial", "burial place", "resting place"), _BURIED),
    **dict.fromkeys(("residence", "lives in", "resides in", "resident of"), _LIVES),
    **dict.fromkeys(("country of citizenship", "citizenship", "citizen of", "nationality"), _CITIZEN),
    **dict.fromkeys(("educated at", "alma mater", "alumni of", "alumnus of"), _EDUCATED),
    **dict.fromkeys(("employer", "works for", "worked for", "employed by"), _WORKED),
    **dict.fromkeys(("affiliation", "affiliations", "affiliated with"), _AFFILIATED),  # readers: "whose affiliation is"
    **dict.fromkeys(("award received", "awards received", "award", "awards"), _RECEIVED),
    **dict.fromkeys(("nobel prize", "prize", "prizes", "won"), _WON),
    **dict.fromkeys(("spouse", "married to", "spouses"), _MARRIED),
    **dict.fromkeys(("instrument", "instruments", "plays instrument"), _PLAYS),
    **dict.fromkeys(("languages spoken, written, or signed", "languages spoken", "language spoken", "speaks",
                     "spoken language", "spoken languages"), _SPEAKS),
    **dict.fromkeys(("headquarters location", "headquarters", "headquartered in"), _HQ),
    **dict.fromkeys(("location of formation", "formed in", "place of formation"), _FORMED),
    **dict.fromkeys(("located in the administrative territorial entity", "located in"), _LOCATED),
    "country": {**_IN, "kind": "country"},
    "city": {**_IN, "kind": "city"},  # a university's city: "Which city is X in?", not "X's city"
    "continent": {**_IN, "kind": "continent"},
    **dict.fromkeys(("homeworld", "home world", "home planet"), _COMES),
    **dict.fromkeys(("film", "films", "appears in", "appeared in"), _APPEARS),
    **dict.fromkeys(("position held", "positions held"), _HELD),
    **dict.fromkeys(("field of work", "field", "fields of work", "research field"), _FIELD),
    **dict.fromkeys(("about", "main subject", "subject", "is about"), _ABOUT),
    # SKOS's semantic relations (a thesaurus: W3C SKOS Reference, section 8) and Dublin Core terms (DCMI Metadata
    # Terms): a concept falls under a broader one; a record covers places and periods; someone created it
    **dict.fromkeys(("broader", "has broader", "broader transitive"),
                    {"noun": "broader concept", "kind": "", "form": "verb", "verb": "falls under", "verbs": "fall under",
                     "base": "fall under"}),
    **dict.fromkeys(("narrower", "has narrower", "narrower transitive"),
                    {"noun": "narrower concept", "kind": "", "form": "verb", "verb": "includes", "verbs": "include",
                     "base": "include"}),
    **dict.fromkeys(("related", "related match", "relation", "is related to"),
                    {"noun": "related concept", "kind": "", "form": "prep", "verb": "related to", "verbs": "related to",
                     "tense": "present"}),  # a state that holds: "What is X related to?"
    **dict.fromkeys(("spatial", "spatial coverage", "coverage"),
                    {"noun": "place", "form": "verb", "verb": "covers", "verbs": "cover", "base": "cover",
                     "kind": "place"}),
    **dict.fromkeys(("temporal", "temporal coverage"),
                    {"noun": "period", "form": "verb", "verb": "covers", "verbs": "cover", "base": "cover",
                     "kind": "period"}),
    **dict.fromkeys(("creator", "created by"),
                    {"noun": "creator", "form": "by", "verb": "created by", "verbs": "created by", "active": "created",
                     "tense": "past"}),
    **dict.fromkeys(("character", "characters", "cast member", "starring", "features"), _FEATURES),
    **dict.fromkeys(("member of political party", "political party", "party"), _PARTY),
    **dict.fromkeys(("author", "written by", "writer"), _WRITTEN),
    **dict.fromkeys(("director", "directed by"), _DIRECTED),
    **dict.fromkeys(("publisher", "published by"), _PUBLISHED),
    **dict.fromkeys(("diplomatic relation", "diplomatic relations"),
                    {"noun": "diplomatic partner", "form": "verb", "verb": "has diplomatic relations with",
                     "verbs": "have diplomatic relations with", "base": "have diplomatic relations with",
                     "kind": "country"}),  # readers: "Which countries are the diplomatic relations of Niger"
    **dict.fromkeys(("shares border with", "borders", "bordering"),
                    {"noun": "neighbour", "form": "verb", "verb": "borders", "verbs": "border", "base": "border",
                     "kind": "country"}),  # fmt: skip
    "official language": {"kind": "language"},
    # what people die of is mostly a medical condition: not "the cause that X had", "Who else had the same cause as
    # X?" (both readers rejected them)
    **dict.fromkeys(("cause of death", "causes of death"), {"kind": "medical condition"}),
    # folksonomy tags (MovieLens and its KBs, schema.org `keywords`, Dublin Core keywords): people say keywords
    # a thing is tagged with ("What are the tags of X?": database words to a reader)
    **dict.fromkeys(("tag", "tags", "has tag", "has tags", "keyword", "keywords", "has keyword", "has keywords"),
                    {"noun": "keyword", "form": "prep", "verb": "tagged with", "verbs": "tagged with", "kind": "keyword"}),
    # a person's time period is when they were active: not "What is John Lennon's time period?"
    **dict.fromkeys(("time period", "period", "era"),
                    {"noun": "period", "form": "prep", "verb": "active in", "verbs": "active in", "tense": "past",
                     "kind": "period"}),  # fmt: skip
    # a person's movement is what they are associated with: not "What is the movement of Stephen Hawking?" (readers:
    # "unclear what movement means")
    **dict.fromkeys(("movement", "movements"),
                    {"noun": "movement", "form": "prep", "verb": "associated with", "verbs": "associated with",
                     "kind": "movement"}),  # fmt: skip
    # readers: "Which countries have Azerbaijan as their successor?"
    **dict.fromkeys(("successor", "replaced by", "followed by"),
                    {"noun": "successor", "form": "prep", "verb": "succeeded by", "verbs": "succeeded by", "tense": "past"}),
    **dict.fromkeys(("predecessor", "replaces", "follows"),
                    {"noun": "predecessor", "form": "prep", "verb": "preceded by", "verbs": "preceded by", "tense": "past"}),
    # works and events in a series (DBpedia's subsequentWork / previousWork, followingEvent / previousEvent):
    # "Which album was X followed by?", not "the following events whose previous event is X" (readers rejected it)
    **dict.fromkeys(("subsequent work", "following event", "next work", "next event"),
                    {"noun": "successor", "form": "prep", "verb": "followed by", "verbs": "followed by", "tense": "past"}),
    **dict.fromkeys(("previous work", "previous event", "prior work", "prior event"),
                    {"noun": "predecessor", "form": "prep", "verb": "preceded by", "verbs": "preceded by", "tense": "past"}),
    # Wikidata's "unmarried partner" is what people call a partner; a medical condition is something one has
    **dict.fromkeys(("unmarried partner", "partner", "domestic partner"), {"noun": "partner", "kind": "person"}),
    **dict.fromkeys(("medical condition", "health condition"), _HAD),
    # the subject headings of an award record (the Nobel data's "laureate award keywords"): a laureate's fields
    **dict.fromkeys(("keywords", "award keywords", "laureate award keywords"),
                    {"noun": "field", "form": "verb", "verb": "worked in", "verbs": "worked in", "base": "work in",
                     "tense": "past", "kind": "field"}),  # fmt: skip
}
# Wordings of groups said otherwise where a graph gives them mostly to people (Wikidata's "location of formation"
# of solo singers: readers rejected "Where was Ciara formed?"), in words that fit the bands and labels too:
# "Where did Ciara start out?", "the organizations that started out in Berlin".
_ORIGIN = {"noun": "place of origin", "plural": "places of origin", "form": "verb", "verb": "started out in",
           "verbs": "started out in", "base": "start out in", "tense": "past", "where": True}  # fmt: skip
GROUP_ONLY = dict.fromkeys(("location of formation", "formed in", "place of formation"), _ORIGIN)
# Wordings no reader reads as one question: "started out in" for people (Wikidata's location of formation of solo
# artists; readers: "vague: 'started out'"). Their relations keep their tools
# (offered beside others, answerable by a model) but are asked about in no question (`Walker.rels`).
UNASKED_VERBS = frozenset((_ORIGIN["verb"],))
# A film's location is where it was filmed (SWAPI's film locations are Tunisia and Pinewood Studios): readers
# rejected "the films whose location is Sicily" and "Which films feature Pinewood Studios?".
WORK_PLACES = dict.fromkeys(("location", "locations", "filming location"),
                            {"noun": "filming location", "form": "prep", "verb": "filmed in", "verbs": "filmed in",
                             "tense": "past", "where": True})  # fmt: skip

# Class labels said by the word people use for their members ("Which prize did X win?").
# Class names that are no English noun: Freebase's `location.citytown` (its type for cities and towns) is a city.
KIND_NAMES = {"laureate award": "prize", "citytown": "city",
              # BibTeX's entry types (as SWRC, BIBO and bibliographic graphs name their classes): a paper in a
              # proceedings, a chapter in a book or collection, a report, a thesis (BibTeX, Patashnik 1988)
              "in proceedings": "paper", "inproceedings": "paper", "conference paper": "paper",
              "in collection": "chapter", "incollection": "chapter", "in book": "chapter", "inbook": "chapter",
              "tech report": "report", "techreport": "report", "phd thesis": "thesis", "phdthesis": "thesis",
              "masters thesis": "thesis", "mastersthesis": "thesis",
              # DBpedia's ontology: dbo:Eukaryote is a subclass of dbo:Species (a living thing's class, not a word
              # people ask with: "Which species have Squirrel as their family?")
              "eukaryote": "species",
              # Wikidata's class of people (Q5 "human"): English asks about people as persons ("Who are the children
              # of people who lived in Cambridge?", not "of humans who lived in Cambridge"); "Who" asks for them
              "human": "person", "human being": "person"}  # fmt: skip
# The kind of a relation's subjects, where the relation says it (the subjects of `cast member` are films).
SUBJECT_KINDS = {
    **dict.fromkeys(("cast member", "director", "directed by", "starring", "screenwriter", "filming location",
                     "narrative location", "production company"), "film"),
    **dict.fromkeys(("diplomatic relation", "official language", "head of state", "head of government",
                     "capital", "currency", "shares border with", "anthem"), "country"),
    **dict.fromkeys(("founded by", "headquarters location", "parent organization", "subsidiary",
                     "chief executive officer", "number of employees", "industry"), "organization"),
    **dict.fromkeys(("homeworld", "home world"), "character"),
}
# Relations that say what a place lies in: after a where-relation they fold into its clause ("the country where X
# was born", "Which country did X die in?") instead of nesting ("the country of the place of death of X").
CONTAINING = frozenset(("country", "city", "continent", "located in the administrative territorial entity", "located in",
                        "in region", "region", "state", "province"))
# Kinds of entities that are documents about things rather than things (the Nobel data's prize and award files,
# web pages, images): nobody asks a knowledge base which files a prize has, so relations from or to them and
# attributes of them are left out of the questions (their tools are still derived).
DOCUMENT_WORDS = frozenset(("file", "files", "document", "documents", "webpage", "page", "image", "thumbnail",
                            "depiction", "photo", "picture"))


def is_document_kind(kind: str) -> bool:
    """True for a kind such as `prize file`, `web page` or `image`."""
    return bool(kind) and kind.split()[-1].lower() in DOCUMENT_WORDS
# What a person believes, belongs to by birth or died of: asked alone, not beside other things about the person
# ("What are George Orwell's ethnic group and cause of death?", "Tell me Ricky Gervais' movement and religion": readers
# accepted them far less often than the other questions of several things about one entity).
PERSONAL = frozenset(("ethnic group", "religion", "religion or worldview", "cause of death", "manner of death",
                      "sexual orientation", "movement", "political ideology"))
# Relations whose objects are kinds of their subjects (an occupation: a poet, a physicist): "who is a poet", "Which
# people are poets", said with the value's own noun when the value is a common noun (lowercase), not "whose
# occupation is poet".
IS_A = frozenset(("occupation", "occupations", "profession", "position held", "job"))
# Attributes compared the way people say it (`Who was born later, A or B?`, `Which is taller?`): the comparative
# for the larger value, then for the smaller. Others are "Which has the higher <attribute>" ("more <attribute>" for
# a plural noun).
_BORN_LATER = ("was born later", "was born earlier")
_DIED_LATER = ("died later", "died earlier")
# Attribute labels that are no English noun, as a person says them (Nobel's "laureate deaddate").
ATTRIBUTE_NOUNS = {"deaddate": "date of death", "deathdate": "date of death"}

COMPARATIVES = {
    **dict.fromkeys(("date of birth", "birth date", "birthday", "birthdate", "born"), _BORN_LATER),
    **dict.fromkeys(("date of death", "death date", "deathdate", "died"), _DIED_LATER),
    **dict.fromkeys(("award year", "prize year"), ("won the prize later", "won the prize earlier")),
    "height": ("is taller", "is shorter"),
    "age": ("is older", "is younger"),
    **dict.fromkeys(("length", "running time", "duration"), ("is longer", "is shorter")),
    **dict.fromkeys(("mass", "weight"), ("is heavier", "is lighter")),
    **dict.fromkeys(("area", "diameter", "size"), ("is larger", "is smaller")),
    "population": ("has more people", "has fewer people"),
    **dict.fromkeys(("inception", "founding date", "date of foundation"), ("is younger", "is older")),
    **dict.fromkeys(("cost", "cost in credits", "price"), ("costs more", "costs less")),
    **dict.fromkeys(("max atmosphering speed", "speed", "top speed", "maximum speed"), ("is faster", "is slower")),
    "passengers": ("carries more passengers", "carries fewer passengers"),
    "cargo capacity": ("carries more cargo", "carries less cargo"),
    "crew": ("needs a larger crew", "needs a smaller crew"),
    "box office": ("made more at the box office", "made less at the box office"),
    "budget": ("had the bigger budget", "had the smaller budget"),
    **dict.fromkeys(("release date", "publication date"), ("came out later", "came out earlier")),
}
# Kinds whose entities are said with `the` whatever their name: "the Millennium Falcon", "the Naboo fighter", "the
# X-wing" (a vehicle's name names a craft or a model of one); people say "the Titanic", "the Boeing 747" too.
ARTICLE_KINDS = frozenset("""vehicle starship spaceship spacecraft ship aircraft airplane aeroplane boat train locomotive
    car submarine""".split())
