"""Small pieces of English grammar for the Speaker (kg2tool.synth.language.wording): `be`/`do` in number and tense, the
bare verb of a relation, a predicate without its final preposition, place names said with `the`, lists."""

from __future__ import annotations

import re
from functools import lru_cache

from .lexicon import Wording, _inflect, plural


def be(n: int, tense: str = "present") -> str:
    """`is`/`are`, or `was`/`were` in the past."""
    if tense == "past":
        return "was" if n == 1 else "were"
    return "is" if n == 1 else "are"


def do(n: int, tense: str = "present") -> str:
    """`does`/`do`, or `did` in the past."""
    return "did" if tense == "past" else ("does" if n == 1 else "do")


@lru_cache(maxsize=65536)
def plural_name(name: str) -> bool:
    """True for a name that is a plural common noun phrase, as thesauri and topic lists name their concepts
    ("Extrasolar gaseous planets", "Be stars", "DQ Herculis stars", "Calendars"): English agrees the verb with it
    ("Exoplanets fall under Planets"). Its head, the last word, is a common noun in lower case (a capitalized last
    word ends a proper name: "United States", "Athens"). The last word is plural
    when lemminflect knows it as a noun whose lemmas are all other words (`galaxies` -> galaxy; `physics`,
    `series`, `data` are their own lemmas: singular); a word it does not know counts when the name has several
    words and inflect singularizes it (`trojans`). One word alone must be a noun lemminflect knows."""
    words = name.split()
    if not words or not words[-1].isalpha() or not words[-1][1:].islower() or "," in name:
        return False
    if len(words) > 1 and not words[-1].islower():
        return False
    last = words[-1] if len(words) > 1 else words[0].lower()
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(last).get("NOUN")
    if lemmas:
        return last not in lemmas
    if len(words) == 1 or last.endswith(("ss", "us", "is")):
        return False
    return bool(_inflect().singular_noun(last))


def base(w: Wording) -> str:
    """The bare verb of a verb-form relation, said after `does`/`did`: `speak`, `die in`, `produce`."""
    if w.base:
        return w.base
    if w.tense != "past":
        return w.verbs or w.verb
    import lemminflect

    first, _, rest = w.verb.partition(" ")
    lemma = lemminflect.getLemma(first, "VERB")
    return " ".join(x for x in ((lemma[0] if lemma else first), rest) if x)


PASSIVE_IN = frozenset(("feature", "include", "contain"))  # "featured in X"; any other verb: "played by X"


def passive(w: Wording) -> str:
    """The passive of a one-word verb relation said of its objects: `played by`, `spoken by`, `featured in`; ""
    for a verb with a preposition (`appears in`) or none lemminflect knows."""
    return _passive_of(base(w))


@lru_cache(maxsize=4096)  # asked per phrase made (lemminflect copies its tables on every call)
def _passive_of(verb: str) -> str:
    import lemminflect

    if " " in verb or verb in ("have", "be"):  # "the condition that X had", never "had by X"
        return ""
    done = lemminflect.getInflection(verb, "VBN")
    return f"{done[0]} {'in' if verb in PASSIVE_IN else 'by'}" if done else ""


def unprep(phrase: str) -> str:
    """A predicate without its final preposition of place, for `where` questions: `born in` -> `born` (`come
    from` keeps its `from`)."""
    head, _, last = phrase.rpartition(" ")
    return head if head and last in ("in", "at", "on") else phrase


def in_place(phrase: str) -> str:
    """A predicate whose object is now a containing place: `work at` -> `work in` ("Which city did X work in?")."""
    head, _, last = phrase.rpartition(" ")
    return f"{head} in" if head and last == "at" else phrase


_THE_START = ("United ", "Republic of ", "People's Republic", "Kingdom of ", "Democratic Republic", "Federal Republic",
              "Soviet Union", "European ", "Holy Roman", "University of ", "Institute of ", "Museum of ", "College of ",
              "Academy of ", "State of ", "Royal Society", "Palace of ", "Organization of ", "Organisation of ",
              "Church of ", "Institute for ", "Center for ", "Centre for ", "Council of ", "Council for ")  # fmt: skip
_THE_END = (" Islands", " Republic", " Union", " Emirates", " States", " Kingdom", " Empire", " Dynasty", " Caliphate",
            " Confederation", " Agency", " Community", " Organization", " Organisation", " Federation", " Association",
            " Alliance", " League", " century", " millennium", " Party", " Church", " Foundation", " Institute",
            " Council", " Committee", " Commission", " Navy", " Army", " Air Force", " Research Center",
            " Research Centre", " Medical Center", " Cancer Center", " Observatory", " National Laboratory")  # fmt: skip
_THE_INSIDE = (" University of ", " Institute of ", " Academy of ", " School of ", " Museum of ", " College of ",
               " Society of ", " Party of ", " Church of ", " Council of ", " Institute for ", " Center for ",
               " Centre for ")
# An award's name is said with `the` (its head noun is a count noun naming one award): "... Award", "... Prize for
# X", "... Medal of X"; "World Cup", "Stanley Cup".
_AWARD_END = (" Award", " Prize", " Medal", " Trophy", " Cup")
_AWARD_HEAD = re.compile(r" (?:Award|Prize|Medal|Trophy) (?:for|in|of) ")
_THE_NAMES = frozenset("""Netherlands Bahamas Philippines Maldives Gambia Seychelles Comoros Vatican Congo Sudan
    Hague Bronx USA UK US UAE""".split())  # not "the Ukraine": dated


@lru_cache(maxsize=65536)
def needs_the(name: str) -> bool:
    """True for a name said with `the` inside a sentence: places ("the United Kingdom", "the Czech Republic", "the
    Netherlands", "the Portuguese Empire"), institutions named "University of ..." and the like, and awards ("the Academy Award for Best Visual Effects", "the Nobel Prize in Physics", "the
    Special Achievement Academy Award", "the Order of Lenin"); names already starting with an article, and
    everything else, are said as they are."""
    if has_article(name):
        return False
    if name in _THE_NAMES or name.startswith(_THE_START) or name.endswith(_THE_END):
        return True
    if any(inner in name for inner in _THE_INSIDE) and "," not in name:
        return True  # the Technical University of Munich, the London School of Economics
    return " " in name and (name.startswith("Order of ") or name.endswith(_AWARD_END) or _AWARD_HEAD.search(name) is not None)


def a_kind(noun: str, n: int = 1) -> str:
    """`a poet`, `an astronomer` (inflect's article); `poets` for several."""
    return _a(noun) if n == 1 else plural(noun)


@lru_cache(maxsize=65536)
def _a(noun: str) -> str:
    return _inflect().a(noun)  # inflect checks its arguments' types at every call: asked once per word


def the_name(name: str) -> str:
    """A name as said inside a sentence: `the United Kingdom`, `the Netherlands` (`needs_the`); others as they are."""
    return f"the {name}" if needs_the(name) else name


# A heading and its subheading joined by a slash ("Abdomen/injuries": MeSH descriptor/qualifier pairs, paths): one
# name whose last word is no owner ("Abdomen/injuries' descriptor" reads as the injuries' own).
_SUBHEADING = re.compile(r"\w/[a-z]")


HEAVY_NAME = 6


def possessive(name: str, strict: bool = True, the: bool = False) -> str:
    """`Lewis Carroll's`, `Charles Dickens'`, `the United Kingdom's` (`the`: said with the article whatever the
    name); with `strict`, "" for a name that does not take one well (`Prussia (now Germany)`, `Smith, John`, names
    ending with a mark or a digit: `Physics 1913`, a clause: `clause_name`, a pair of a heading and a subheading
    joined by a slash: MeSH's `Acetaminophen/standards`, a heavy name: a title with a subtitle, or more than
    `HEAVY_NAME` words, which English puts after "of": "the compiler of Life of Harriet Beecher Stowe Compiled From
    Her Letters ...", the end-weight principle of Quirk et al., A Comprehensive Grammar of the English Language,
    17.41)."""
    if strict and (
        not name or any(c in name for c in "(),[]") or not name[-1].isalpha() or clause_name(name) or _SUBHEADING.search(name)
        or ": " in name or len(name.split()) > HEAVY_NAME
    ):
        return ""
    own = f"{name}'" if name.endswith("s") else f"{name}'s"
    return f"the {own}" if needs_the(name) or (the and not has_article(name)) else own


def has_article(name: str) -> bool:
    return name.lower().startswith(("the ", "a ", "an "))


# A lower-case word with a mark of code in it (_ : / = or an inner capital), or one before " = " (a key=value tag).
_LOWER_NAME = re.compile(r"[a-z][\w-]*(?:[_:/=][^\s]*|[A-Z]\w*)?(?= = )|[a-z][\w-]*[_:/=]\S*|[a-z]+[A-Z]\w*")


def capfirst(s: str) -> str:
    """The first letter in upper case, unless the sentence opens with a name written to start in lower case: a
    code or tag (`man_made = pier`, `addr:city`, `lcn_ref`) or a brand (`eBay`, `iPhone`) keeps its case at the
    start of a sentence, as style guides have it (The Chicago Manual of Style, 8.153)."""
    s = str(s)
    return s if _LOWER_NAME.match(s) else s[:1].upper() + s[1:]


def cap(text: str) -> str:
    """A sentence that opens with `the` (a name said with its article) opens with `The`."""
    return "The " + text[4:] if text.startswith("the ") else text


_PARENTHESES = re.compile(r"\([^()]*\)")  # a disambiguator's commas ("Gawar (Place, no. 2)") make no list ambiguous


def and_join(items: list[str], last: str = "and") -> str:
    """`A, B and C`; `A; B; and C` when an item of a series of three or more holds a comma itself ("Washington,
    D.C."), as English separates such a series (The Chicago Manual of Style, 6.60); two items: `A and B`."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    if len(items) > 2 and any(", " in _PARENTHESES.sub("", i) for i in items):
        return "; ".join(items[:-1]) + f"; {last} " + items[-1]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


_OF_A_YEAR = re.compile(r"^[A-Z][A-Za-z ]* (1[89]|20)\d\d$")  # "Chemistry 1952", "Physiology or Medicine 1994"
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


@lru_cache(maxsize=65536)
def prize_name(name: str, types: tuple = ()) -> str:
    """A year's prize named by its field and year as people say it, with its class: "Chemistry 1952" of class
    `NobelPrize` -> "the Nobel Prize in Chemistry 1952" (the Nobel Foundation's own form); "" for other names. The
    class is the first of `types` whose label ends with Prize, else Award (readers rejected "Who won Peace 2001?")."""
    if not types or not _OF_A_YEAR.match(name):
        return ""
    labels = [" ".join(_CAMEL.split(t)) for t in types]
    for head in ("Prize", "Award"):
        for label in labels:
            words = label.split()
            if len(words) > 1 and words[-1] == head and words[0][:1].isupper():
                return f"the {label} in {name}"
    return ""


_DETERMINERS = frozenset(("a", "an", "the"))
_VERB_ENDINGS = ("ates", "izes", "ises", "ifies")  # English verb suffixes (phosphorylates, ionizes, purifies)


@lru_cache(maxsize=65536)
def clause_name(name: str) -> bool:
    """True for a name that is a clause ("MEK2 binds ERK-2", "Type II receptor phosphorylates type I receptor",
    "Phospho-R-Smad1/5/8 forms a complex with Co-Smad": reactions, events named by what happens): a lower-case
    word inside it is a verb in the third person, one English has no noun for (`regulates`; a word the dictionary
    does not know with a verb's suffix: `phosphorylates`), or a verb that is also a plural noun (`binds`, `forms`)
    between a symbol-like name (capitals or digits inside) and what follows it (a name, a number, an article)."""
    from .verbs import third_person

    words = name.split()
    for i in range(1, len(words) - 1):
        w = words[i]
        if not (w.isalpha() and w.islower()):
            continue
        if third_person(w) or (w.endswith(_VERB_ENDINGS) and not _known(w)):
            return True
        before, after = words[i - 1], words[i + 1]
        symbol = any(c.isdigit() for c in before) or sum(c.isupper() for c in before) >= 2
        if third_person(w, strict=False) and symbol and (after[:1].isupper() or after[:1].isdigit() or after in _DETERMINERS):
            return True
    return False


def _known(word: str) -> bool:
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word))


def said_name(name: str, types: tuple = (), the: bool = False) -> str:
    """A name as said inside a sentence: a clause in quotes (`clause_name`: "the xrefs of "MEK2 binds ERK-2"", as
    titles that are sentences are set off in running text); with `the` when `the` (its kind takes one) or
    `needs_the`; a year's prize by its class (`prize_name`); else as it is."""
    if clause_name(name) and '"' not in name:
        return f'"{name}"'
    if the and not has_article(name):
        return f"the {name}"
    return prize_name(name, types) or the_name(name)


GENDER_LABELS = frozenset(("gender", "sex", "sex or gender"))
_PRONOUNS = {"male": ("he", "him", "his"), "female": ("she", "her", "her")}


def pronouns(kg, eid: int) -> tuple[str, str, str] | None:
    """(subject, object, possessive) pronouns of a person from the graph's gender attribute (`foaf:gender "male"`),
    or None when the graph does not say."""
    for attr in kg.attributes.values():
        if attr.label.lower() in GENDER_LABELS and len(vals := attr.values.get(eid, ())) == 1:
            return _PRONOUNS.get(str(vals[0]).lower())
    return None
