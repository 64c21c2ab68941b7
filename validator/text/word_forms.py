"""Word forms, without a model: the one reader of words for every module (words, their two
stems, folded quotes and dashes), content words, month and weekday names (English, and other
languages' months beside a number, from CLDR through Babel), irregular past forms, and
written-out numbers as digits."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from dateutil.parser import parserinfo
from text_to_num import alpha2digit

STOPWORDS = frozenset(
    """a an the and or but if then of to in on at by for with from as is are was were be been
    being it its this that these those he she they them his her their there here which who whom
    whose what when where why how not no yes do does did has have had will would can could
    should may might must shall about into over under than so such also very just only more most
    some any all each both either neither one i you we our your my me us""".split()
)
# Month names in English whatever the locale (``calendar.month_name`` follows the locale):
# dateutil's table, with each month's abbreviations ("sep", "sept").
MONTHS = tuple(names[-1].lower() for names in parserinfo.MONTHS)
MONTH_OF = {name.lower(): n for n, names in enumerate(parserinfo.MONTHS, 1) for name in names}
WEEKDAYS = frozenset(name.lower() for names in parserinfo.WEEKDAYS for name in names)
# Words of time before a month's name: "in May", "since May", "by May", "early May".
_IN_TIME = frozenset("in since until till by during from through early late mid of".split())


def month_at(words: Sequence[str], i: int) -> int | None:
    """The month ``words[i]`` names (1 to 12), or None, by where it stands. A month's name is
    the month, but before a capitalised word it is a first name ("June Smith", "by May
    Smith") unless a word of time other than "by" comes before it ("In August Paris hosted").
    "May" is the modal ("prices may rise", "This may cause") unless a number is beside it ("3
    May", "May 2024") or it comes after a word of time, written "May" or with no lower-case
    word after it ("in May the prices rose", "shipped in may."), where no modal stands."""
    if not 0 <= i < len(words):
        return None
    word = words[i].lower().rstrip(".")
    month = MONTH_OF.get(word)
    after = words[i + 1] if i + 1 < len(words) else ""
    before = words[i - 1].lower() if i else ""
    if month is None:  # another language's month, beside its day or year ("2. Mai 2024")
        beside = after[:1].isdigit() or before.rstrip(".").isdigit()
        return _other_months().get(word) if beside and word.isalpha() else None
    timed = before in _IN_TIME
    if after[:1].isupper() and after.isalpha() and after.lower() not in MONTH_OF and (
            not timed or before == "by"):
        return None
    if word == "may" and not (after[:1].isdigit() or before[:1].isdigit() or (
            timed and (words[i][:1] == "M" or not after[:1].islower()))):
        return None
    return month


@lru_cache(maxsize=1)
def _other_months() -> dict[str, int]:
    """The months' full names in the other languages the sentence splitter knows (CLDR's,
    through Babel: "Mai", "juin", "settembre", "мая"), read once, when first asked for."""
    from babel.dates import get_month_names
    from pysbd.languages import LANGUAGE_CODES

    names: dict[str, int] = {}
    for code in sorted(LANGUAGE_CODES):
        for context in ("format", "stand-alone"):
            for month, name in get_month_names("wide", context, locale=code).items():
                names.setdefault(name.lower(), month)
    return {name: month for name, month in names.items() if name not in MONTH_OF}


# Names of a part of the day or the year, and the marks after a number that make it a time or a
# year ("9 p.m.", "14 BC", "the 18th century", "eight years later"): a claim that changes one
# changes a date.
TIMES = frozenset("""morning afternoon evening night noon midnight dawn dusk summer winter
    spring autumn""".split())
AFTER_A_DATE = frozenset("a p am pm bc ad bce ce century centuries later earlier ago".split())

# Irregular past forms read as their verb, as Snowball reads the regular ones ("given" and
# "give", like "covered" and "cover"); a form that names an opposite ("bought") is read as
# its concept first (the rules' ``word_lists.concepts``).
_IRREGULAR = (
    ("give", "gave given"), ("take", "took taken"), ("write", "wrote written"),
    ("make", "made"), ("build", "built"), ("pay", "paid"), ("sell", "sold"), ("hold", "held"),
    ("keep", "kept"), ("find", "found"), ("tell", "told"), ("know", "knew known"),
    ("show", "showed shown"), ("see", "saw seen"), ("begin", "began begun"),
    ("lead", "led"), ("meet", "met"), ("send", "sent"), ("spend", "spent"),
    ("bring", "brought"), ("teach", "taught"), ("choose", "chose chosen"),
    ("drive", "drove driven"), ("draw", "drew drawn"), ("eat", "ate eaten"),
    ("break", "broke broken"), ("speak", "spoke spoken"), ("steal", "stole stolen"),
    ("freeze", "froze frozen"), ("hide", "hid hidden"), ("ride", "rode ridden"),
    ("wear", "wore worn"), ("say", "said"), ("hear", "heard"), ("feel", "felt"),
    ("mean", "meant"), ("lay", "laid"), ("fly", "flew flown"), ("forget", "forgot forgotten"),
    ("sing", "sang sung"), ("swim", "swam swum"), ("throw", "threw thrown"),
    ("understand", "understood"), ("stand", "stood"), ("think", "thought"),
    ("catch", "caught"), ("seek", "sought"), ("fight", "fought"), ("buy", "bought"),
    ("grow", "grew grown"), ("rise", "rose risen"), ("fall", "fell fallen"), ("win", "won"),
    ("lose", "lost"), ("go", "went gone"), ("strike", "struck stricken"), ("shoot", "shot"),
    ("come", "came"), ("become", "became"),
    ("leave", "left"), ("run", "ran"), ("flee", "fled"), ("overtake", "overtook overtaken"),
    ("have", "had"), ("do", "did done"), ("bear", "bore born borne"),
    ("sink", "sank sunk"), ("dig", "dug"), ("spin", "spun"), ("swing", "swung"),
    ("cling", "clung"), ("sting", "stung"), ("feed", "fed"),
    ("bleed", "bled"), ("breed", "bred"), ("deal", "dealt"), ("dwell", "dwelt"),
)
IRREGULAR = {form: verb for verb, forms in _IRREGULAR for form in forms.split()}
# The irregular forms that are only a past tense, never a participle ("began", "fled", not
# "built"): a verb of a clause of its own, never a participle after a noun ("models sold").
PAST_ONLY = frozenset(forms.split()[0] for _, forms in _IRREGULAR if len(forms.split()) > 1)
# Participles that are not "-ed" and not in the table above (read as themselves).
SAME_PARTICIPLES = frozenset("cut shut set put hit let hurt cost lost left won sold bought "
                             "held spent sent built lent bent run cast".split())

# How a plural ends ("members", "firemen", "alumni", "bacteria", "mice"), and the nouns that
# take a plural verb though they end otherwise ("The police who stayed passed").
_PLURAL_ENDINGS = tuple("""s men children people folk i ae ia eet eeth ice oxen police staff
    cattle personnel clergy sheep deer fish offspring""".split())


def plural(noun: str) -> bool:
    """Whether ``noun`` (lower case) may be a plural: it ends as plurals do ("members",
    "firemen", "schoolchildren", "alumni", "bacteria", "mice") or is one of the nouns that
    take a plural verb ("police", "sheep"). A singular that ends the same way ("bus", "taxi",
    "price") is read as one too: what is said of it then fails closed."""
    return noun.endswith(_PLURAL_ENDINGS)

DASHES = frozenset("-‐‑–—")  # a hyphen and the dashes ``fold`` makes one
_FOLDED = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", **dict.fromkeys(DASHES - {"-"}, "-")})


def fold(text: str) -> str:
    """``text`` with its apostrophes and dashes in one form each ("it’s" -> "it's", "—" -> "-"),
    character for character, so offsets into it are offsets into ``text``."""
    return text.translate(_FOLDED)


# What a word and a number are, for the readers of the package that tokenise: the rules, the
# facts, grounding and the ordinals build their tokens from these two (the rules add money,
# times and dates around them).
WORD_PATTERN = r"[^\W\d_][^\W_]*(?:['’][^\W\d_]+)*"  # "X200", "don't", "rock'n'roll"
NUMBER_PATTERN = r"\d+(?:,\d{3})*(?:\.\d+)?"  # "1887", "35,000", "3.5": never "3" and "5"
WORD = re.compile(WORD_PATTERN)
LETTERS = re.compile(r"[^\W\d_]+")  # a run of letters
TERM = re.compile(r"[^\W_]+(?:'[^\W_]+)?")  # a word or a number ("1887", "don't"), folded text
TOKEN = re.compile(rf"{TERM.pattern}|[,;:()]")  # a term, or a mark that divides a clause
# Prefixes that turn a word round ("insoluble", "unpaid", "non-smoking").
NEGATIVE_PREFIXES = ("un", "in", "im", "ir", "il", "dis", "non")


def words(text: str) -> list[str]:
    """The words of ``text`` (``WORD``), in lower case, their apostrophes folded."""
    return [w.lower() for w in WORD.findall(fold(text))]


def stem(word: str) -> str:
    """The word without its inflection ending ("visitors" -> "visitor", "opened" -> "open").
    Light on purpose: it leaves a word's root alone, so names and near-names stay apart
    ("Definite" and "Definitive", which Snowball makes one stem). It serves the fact reading
    of claim extraction and citations; the rule checker's alignment uses Snowball for words
    and compares names as written (docs/design/libraries.md)."""
    word = fold(word.lower())
    for suffix in ("'s", "ies", "es", "s", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=1)
def _snowball_stemmer():
    from nltk.stem.snowball import EnglishStemmer  # no data files needed

    return EnglishStemmer()


@lru_cache(maxsize=1 << 16)
def snowball(word: str) -> str:
    """The word's Snowball stem ("arrived" and "arrival" -> "arriv"): the form in which words,
    not names, are compared (the rule checker's alignment, a judge's reason, a user's words).
    Names keep ``stem``'s lighter form."""
    return _snowball_stemmer().stem(word.lower())


def snowball_forms(text: str) -> frozenset[str]:
    """The Snowball forms of the words of ``text``, function words too; a month's name is no
    word of it (``month_at``: "on May 20" holds no "may", "prices may rise" does)."""
    words = [w.strip(PUNCTUATION) for w in text.split()]
    return frozenset(snowball(piece) for k, word in enumerate(words) if not month_at(words, k)
                     for piece in LETTERS.findall(word))


PUNCTUATION = "\"'“”‘’()[]{},;:.!?"  # the marks around a word, stripped before it is read


def content_words(text: str) -> frozenset[str]:
    return frozenset(
        stem(w) for w in WORD.findall(text)
        if w.lower() not in STOPWORDS and len(w) > 1 and w.lower() not in MONTH_OF
    )


_DIGITS_AND_SCALE = re.compile(r"\d\s+(?:thousand|million|billion|trillion)\b", re.IGNORECASE)


_LONG_NUMBER = re.compile(r"(?<![\d.,])\d{4,}(?![\d.,])")


def with_digits(text: str) -> str:
    """``text`` with written-out numbers as digits ("sixty-two kilograms" -> "62 kilograms"),
    by text2num. Small numbers it leaves as words ("two") are read by the rules' own table; a
    scale after digits ("1.5 million") is left for the rules to read. A number of four digits
    or more that was written out gets thousands separators ("fifteen hundred" -> "1,500"), so
    it is read as a count, not as a year."""
    pieces, start = [], 0
    for kept in _DIGITS_AND_SCALE.finditer(text):
        pieces += [_spelled(text[start:kept.start()]), kept.group()]
        start = kept.end()
    return "".join([*pieces, _spelled(text[start:])])


def _spelled(text: str) -> str:
    converted = alpha2digit(text, "en")
    if converted == text:
        return text
    written = set(_LONG_NUMBER.findall(text))
    return _LONG_NUMBER.sub(lambda m: m.group() if m.group() in written else f"{int(m.group()):,}",
                            converted)
