"""The words public vocabularies' specifications say their relations by, where a local name is no word a person
says (`kg2tool.graph.names.relation_label` uses them for a relation the graph gives no label): BioPAX Level 3 and the
MARC Code List for Relators. Each table names its source; a user's own wording goes in `lexicon.yaml`."""

from __future__ import annotations

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
