"""The words public vocabularies' specifications say their relations by, where a local name is no word a person
says (`kg2tool.graph.names.relation_label` uses them for a relation the graph gives no label): BioPAX Level 3 and the
MARC Code List for Relators; and the names public code lists give the codes that name things without a label
(`code_list_name`: the EU's authority tables, the INSPIRE themes). Each table names its source; a user's own wording
goes in `lexicon.yaml`."""

from __future__ import annotations

import re

# Relations of public vocabularies whose local names are no words a person says, with the words their
# specifications define them by. BioPAX Level 3 (biopax.org/release/biopax-level3.owl, the exchange format of
# Reactome, Pathway Commons and others): a conversion's `left` and `right` participants are its inputs and outputs
# ("The participants on the left side of the conversion interaction"), a generic entity's `memberPhysicalEntity`
# its members, `entityReference` the reference entity (sequence or molecule record) a physical entity is an
# instance of, `xref` a cross-reference, a pathway's `pathwayOrder` its steps and a step's `stepProcess` its
# processes.
_BIOPAX = "http://www.biopax.org/release/biopax-level3.owl#"
VOCABULARY_LABELS = {
    _BIOPAX + "left": "input",
    _BIOPAX + "right": "output",
    _BIOPAX + "memberPhysicalEntity": "member",
    _BIOPAX + "memberEntityReference": "member",
    _BIOPAX + "entityReference": "reference entity",
    _BIOPAX + "xref": "cross-reference",
    _BIOPAX + "pathwayOrder": "step",
    _BIOPAX + "stepProcess": "process",
    _BIOPAX + "participantStoichiometry": "stoichiometry",
}
# MARC Code List for Relators (Library of Congress, id.loc.gov/vocabulary/relators): library catalogues (MARC,
# BIBFRAME, Dublin Core exports such as Project Gutenberg's) link a work to a person by the role's three-letter code
# (`edt`, `trl`, `ill`); each code is said by the term the list gives it.
_MARC_RELATORS = {
    "abr": "abridger", "act": "actor", "adp": "adapter", "anl": "analyst", "ann": "annotator", "app": "applicant",
    "aqt": "author in quotations", "arc": "architect", "arr": "arranger", "art": "artist", "asn": "associated name",
    "att": "attributed name", "auc": "auctioneer", "aud": "author of dialog", "aui": "author of introduction",
    "aus": "screenwriter", "aut": "author", "bnd": "binder", "bsl": "bookseller", "chr": "choreographer",
    "cll": "calligrapher", "clr": "colorist", "cmm": "commentator", "cmp": "composer", "cmt": "compositor",
    "cnd": "conductor", "cng": "cinematographer", "com": "compiler", "cre": "creator", "crp": "correspondent",
    "ctb": "contributor", "ctg": "cartographer", "cur": "curator", "cwt": "commentator for written text",
    "dnr": "donor", "drt": "director", "dsr": "designer", "dte": "dedicatee",
    "dto": "dedicator", "dub": "dubious author", "edt": "editor", "egr": "engraver", "fmo": "former owner",
    "fnd": "funder", "ill": "illustrator", "ilu": "illuminator", "inv": "inventor", "itr": "instrumentalist",
    "ive": "interviewee", "ivr": "interviewer", "lbt": "librettist", "lyr": "lyricist", "mus": "musician",
    "nrt": "narrator", "oth": "other", "own": "owner", "pat": "patron", "pbl": "publisher", "pht": "photographer",
    "prf": "performer", "pro": "producer", "prt": "printer", "rcp": "addressee", "red": "redaktor",
    "res": "researcher", "rev": "reviewer", "scl": "sculptor", "sng": "singer", "spk": "speaker",
    "ths": "thesis advisor", "trc": "transcriber", "trl": "translator", "tyd": "type designer", "voc": "vocalist",
    "wam": "writer of accompanying material", "wpr": "writer of preface",
}  # fmt: skip
VOCABULARY_LABELS.update({f"http://id.loc.gov/vocabulary/relators/{c}": term for c, term in _MARC_RELATORS.items()})


__all__ = ["VOCABULARY_LABELS"]


# Codes of public code lists that name a thing by an IRI with no label, said by the names their lists give them.
# The EU Vocabularies' authority tables (op.europa.eu/en/web/eu-vocabularies/authority-tables: the code lists
# DCAT-AP, the EU's profile of W3C DCAT, prescribes for open-data catalogues; national profiles mirror them, e.g.
# Belgium's `vocab.belgif.be/auth/datatheme/`): data themes, update frequencies, access rights, planned
# availability; languages by their ISO 639-3 code (named by `pycountry`'s ISO 639 table); licences and file types
# by their codes written out. The INSPIRE themes (Directive 2007/2/EC, Annexes I-III; inspire.ec.europa.eu/theme) and
# spatial data service categories (ISO 19119, inspire.ec.europa.eu/metadata-codelist/SpatialDataServiceCategory).
_EU_TABLES = {
    "data-theme": {
        "AGRI": "agriculture, fisheries, forestry and food", "ECON": "economy and finance",
        "EDUC": "education, culture and sport", "ENER": "energy", "ENVI": "environment",
        "GOVE": "government and public sector", "HEAL": "health", "INTR": "international issues",
        "JUST": "justice, legal system and public safety", "REGI": "regions and cities",
        "SOCI": "population and society", "TECH": "science and technology", "TRAN": "transport",
        "OP_DATPRO": "provisional data",
    },
    "frequency": {
        "ANNUAL": "annual", "ANNUAL_2": "semiannual", "ANNUAL_3": "three times a year", "BIENNIAL": "biennial",
        "BIMONTHLY": "bimonthly", "BIWEEKLY": "biweekly", "CONT": "continuous", "DAILY": "daily",
        "DAILY_2": "twice a day", "IRREG": "irregular", "MONTHLY": "monthly", "MONTHLY_2": "semimonthly",
        "MONTHLY_3": "three times a month", "NEVER": "never", "QUARTERLY": "quarterly", "TRIENNIAL": "triennial",
        "UNKNOWN": "unknown", "UPDATE_CONT": "continuously updated", "WEEKLY": "weekly", "WEEKLY_2": "semiweekly",
        "WEEKLY_3": "three times a week", "HOURLY": "hourly", "DECENNIAL": "every ten years", "OTHER": "other",
    },
    "access-right": {"PUBLIC": "public", "RESTRICTED": "restricted", "NON_PUBLIC": "non-public",
                     "CONFIDENTIAL": "confidential", "SENSITIVE": "sensitive"},
    "planned-availability": {"AVAILABLE": "available", "EXPERIMENTAL": "experimental", "STABLE": "stable",
                             "TEMPORARY": "temporary", "OP_DATPRO": "provisional data"},
}  # fmt: skip
_INSPIRE_THEMES = {
    "ad": "addresses", "au": "administrative units", "rs": "coordinate reference systems",
    "gg": "geographical grid systems", "cp": "cadastral parcels", "gn": "geographical names", "hy": "hydrography",
    "ps": "protected sites", "tn": "transport networks", "el": "elevation", "ge": "geology", "lc": "land cover",
    "oi": "orthoimagery", "am": "area management zones", "ac": "atmospheric conditions",
    "br": "bio-geographical regions", "bu": "buildings", "er": "energy resources",
    "ef": "environmental monitoring facilities", "hb": "habitats and biotopes", "hh": "human health and safety",
    "lu": "land use", "mf": "meteorological geographical features", "mr": "mineral resources",
    "nz": "natural risk zones", "of": "oceanographic geographical features", "pd": "population distribution",
    "pf": "production and industrial facilities", "sr": "sea regions", "sd": "species distribution", "so": "soil",
    "su": "statistical units", "us": "utility and governmental services",
    "af": "agricultural and aquaculture facilities",
}  # fmt: skip
_EU_AUTHORITY = "http://publications.europa.eu/resource/authority/"
# The groups of ISO 19119's geographic service taxonomy, which INSPIRE's SpatialDataServiceCategory codes open with
# (`infoFeatureAccessService`: the feature access service of the information management group).
_ISO19119_GROUPS = frozenset("human info task chain system comm".split())
_FILE_WORDS = {"SRVC": "service", "JSON_LD": "JSON-LD", "RDF_XML": "RDF/XML", "N_TRIPLES": "N-Triples"}


# IANA's media type registry (what DCAT-AP prescribes for `dcat:mediaType`): a type is named by its whole
# name, type and subtype ("text/plain", "application/vnd.ms-excel"); its last segment alone says little ("plain").
_IANA_MEDIA_TYPE = re.compile(r"https?://www\.iana\.org/assignments/media-types/([a-z]+/[^/\s]+)")


def code_list_name(iri: str) -> str:
    """The name a public code list gives the thing `iri` names (see the tables above), or ""."""
    head, _, code = iri.rstrip("/").rpartition("/")
    table = head.rpartition("/")[2]
    if (m := _IANA_MEDIA_TYPE.fullmatch(iri)) is not None:  # DCAT's media types: "text/plain", not "plain"
        return m[1]
    if head == "http://inspire.ec.europa.eu/theme":
        return _INSPIRE_THEMES.get(code, "")
    if table == "SpatialDataServiceCategory":  # ISO 19119's service categories: a group word, then the category
        words = re.findall(r"[A-Z]?[a-z]+", code)
        return " ".join(w.lower() for w in words[1:]) if len(words) > 1 and words[0] in _ISO19119_GROUPS else ""
    if table in ("data-theme", "datatheme"):
        return _EU_TABLES["data-theme"].get(code, "")
    if not head.startswith(_EU_AUTHORITY):
        return ""
    if table in _EU_TABLES:
        return _EU_TABLES[table].get(code, "")
    if table == "language" and len(code) == 3:
        import pycountry

        got = pycountry.languages.get(alpha_3=code.lower())
        return got.name if got is not None else ""
    if table == "licence" and code.startswith("CC"):  # CC_BY_4_0 -> CC BY 4.0, CC_BYNC_4_0 -> CC BY-NC 4.0
        words = code.split("_")
        version = ".".join(w for w in words[1:] if w.isdigit())
        kinds = [w for w in words[1:] if not w.isdigit()]
        said = ["CC" + ("0" if words[0] == "CC0" else "")] + ["-".join(re.findall("BY|NC|SA|ND", k)) for k in kinds]
        return " ".join(x for x in [*said, version] if x)
    if table == "file-type":
        text = code
        for key, said in _FILE_WORDS.items():
            text = text.replace(key, said)
        return text.replace("_", " ")
    return ""
