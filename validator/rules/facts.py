"""What the rule checker reads out of a text: its *facts*.

- quantities: numbers with their scale (thousand, million...), unit, percent and currency;
  ranges ("1887-1889", "between 5 and 7") count both ends;
- dates: years, months, and days of a month;
- names: capitalised words that grammar does not explain (not the first word of a sentence).

``keeps_facts`` uses them to tell whether claims extracted from a sentence keep its numbers,
dates and names; ``normalise`` is the spelling the verbatim check compares.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..storage import MiB, memoize
from ..text.citations import MARKER
from ..text.word_forms import MONTH_OF, STOPWORDS, content_words, stem, with_digits
from .quantities import Amount, amount, bound_before

_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9,
          "bn": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12}
_CURRENCY = {"$": "usd", "us$": "usd", "usd": "usd", "dollar": "usd", "dollars": "usd",
             "€": "eur", "eur": "eur", "euro": "eur", "euros": "eur", "£": "gbp", "gbp": "gbp",
             "pound": "gbp", "pounds": "gbp", "¥": "jpy", "yen": "jpy"}
_UNIT_ALIASES = {
    "m": "metre", "meter": "metre", "meters": "metre", "metre": "metre", "metres": "metre",
    "ft": "foot", "feet": "foot", "foot": "foot", "km": "kilometre", "kilometers": "kilometre",
    "kilometres": "kilometre", "kilometer": "kilometre", "kilometre": "kilometre",
    "mi": "mile", "miles": "mile", "mile": "mile", "kg": "kilogram", "kilograms": "kilogram",
    "tonnes": "tonne", "tons": "tonne", "ton": "tonne", "tonne": "tonne", "cm": "centimetre",
    "years": "year", "year": "year", "yrs": "year", "months": "month", "days": "day",
    "hours": "hour", "minutes": "minute", "seconds": "second", "percent": "%", "%": "%",
    "people": "person", "persons": "person", "visitors": "visitor", "employees": "employee",
}
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "hundred": 100,
                 "dozen": 12}
_PREFIX_CURRENCY = frozenset(("$", "€", "£", "¥", "usd", "eur", "gbp"))
_TOKEN = re.compile(r"[$€£¥]|\d+(?:,\d{3})*(?:\.\d+)?(?:st|nd|rd|th)?|[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?|%|\S")
_NUMERIC = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?$")
_RANGE_WORDS = frozenset(("-", "–", "—", "to", "and"))
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


@dataclass(frozen=True)
class Facts:
    """What the rules read out of one text."""

    words: frozenset[str]  # content words, stemmed
    quantities: tuple[Amount, ...]  # numbers with what each allows (quantities)
    years: frozenset[int]
    months: frozenset[int]
    days: frozenset[tuple[int, int]]  # (month, day)
    names: dict[str, str] = field(hash=False)  # stem -> the word as written


@memoize(8192, 16 * MiB)
def normalise(text: str) -> str:
    """Lower case, citation markers dropped, runs of anything but letters and digits one space;
    a number stays whole ("3.5", "35,000": never "3" and "5")."""
    text = MARKER.sub(" ", text).lower().replace("’", "'")
    return " ".join(_NORMAL_WORD.findall(text))


_NORMAL_WORD = re.compile(r"\d+(?:[.,]\d+)*[^\W_]*|[^\W_]+(?:'[^\W_]+)?")


@memoize(8192, 16 * MiB, bytes_per_char=24)
def read_facts(text: str) -> Facts:
    """The facts of ``text``. Cached: evidence chunks come back for every claim."""
    text = MARKER.sub(" ", text)
    numeric = with_digits(text)
    quantities, years, months, days = _quantities_and_dates(numeric, list(_TOKEN.finditer(numeric)))
    return Facts(content_words(numeric), tuple(quantities), frozenset(years), frozenset(months),
                 frozenset(days), _names(text))


def keeps_facts(sentence: str, claims: list[str]) -> bool:
    """Whether ``claims`` together keep every number, date and name of ``sentence``: claims
    that drop one cannot stand for it (a manipulated sentence may ask the claim extractor to
    leave its false part out)."""
    said = read_facts(sentence)
    kept = union([read_facts(claim) for claim in claims])
    # each number kept as precise as the sentence says it: a claim that allows more values
    # ("about 50,000" for "48,000") could be supported where the sentence is not
    values = all(any(q.stated_by(k) for k in kept.quantities) for q in said.quantities)
    names = said.names.keys() <= kept.names.keys() | kept.words
    return (values and names and said.years <= kept.years and said.months <= kept.months
            and said.days <= kept.days)


def union(facts: list[Facts]) -> Facts:
    return Facts(
        frozenset().union(*(f.words for f in facts)),
        tuple(q for f in facts for q in f.quantities),
        frozenset().union(*(f.years for f in facts)),
        frozenset().union(*(f.months for f in facts)),
        frozenset().union(*(f.days for f in facts)),
        {k: v for f in facts for k, v in f.names.items()},
    )


def _number(token: str) -> float | None:
    """The value of a numeric token, or None. A number too large for a float (hundreds of
    digits) is no quantity the rules can compare."""
    ordinal = _ORDINAL.match(token)
    if _NUMERIC.match(token) or ordinal:
        try:
            value = float(ordinal.group(1) if ordinal else token.replace(",", ""))
        except ValueError:
            return None
        return value if math.isfinite(value) else None
    return _NUMBER_WORDS.get(token.lower())


def _quantities_and_dates(text: str, matches: list[re.Match]):
    tokens = [m.group() for m in matches]
    lowered = [t.lower() for t in tokens]
    month_at = {i: MONTH_OF[t.rstrip(".")] for i, t in enumerate(lowered)
                if t.rstrip(".") in MONTH_OF and (t != "may" or _day_near(tokens, i))}
    days, used = set(), set()
    for i, month in month_at.items():
        for j in (i - 1, i + 1):  # "31 March", "March 31", "March 31st"
            day = _day(tokens[j]) if 0 <= j < len(tokens) else None
            if day is not None:
                days.add((month, day))
                used.add(j)
    # found: [first token, last token, value, unit, scale, digits]; a range's first end takes
    # the unit of its second below, so a row is a list
    found: list[list[Any]] = []
    years: set[int] = set()
    for i, token in enumerate(tokens):
        value = _number(token)
        if value is None or i in used:
            continue
        nxt = lowered[i + 1] if i + 1 < len(tokens) else ""
        if (_NUMERIC.match(token) and "," not in token and value == int(value)
                and 1000 <= value <= 2100 and nxt not in _SCALE and nxt not in _UNIT_ALIASES):
            years.add(int(value))
            continue
        currency = _CURRENCY[lowered[i - 1]] if i and lowered[i - 1] in _PREFIX_CURRENCY else None
        j, scale = i + 1, 1.0
        if nxt in _SCALE and (nxt not in ("m", "b") or currency):
            scale = _SCALE[nxt]
            j += 1
        if j + 1 < len(tokens) and lowered[j] in ("-", "‑") and lowered[j + 1].isalpha():
            j += 1  # "a 7-year warranty": the unit after the hyphen
        unit = currency or _unit(lowered[j] if j < len(tokens) else "")
        first = i - 1 if currency else i
        last = j if unit and not currency and j < len(tokens) else j - 1
        found.append([first, last, value, unit, scale, i])
    for a, b in pairwise(found):  # "5 to 7 km": the first end of a range takes its unit
        if a[3] is None and b[3] is not None and b[0] == a[1] + 2 and lowered[a[1] + 1] in _RANGE_WORDS:
            a[3] = b[3]
    quantities = []
    for first, last, value, unit, scale, at in found:  # units settled: the hedge or bound read
        bound, start = bound_before(lowered, first, unit)
        quantities.append(amount(tokens[at], value, scale=scale, unit=unit, phrase=bound,
                                 text=text[matches[start].start() : matches[last].end()]))
    return quantities, years, set(month_at.values()), days


def _unit(word: str) -> str | None:
    if word in ("%", "percent"):
        return "%"
    if word in _CURRENCY:
        return _CURRENCY[word]
    if word in _UNIT_ALIASES:
        return _UNIT_ALIASES[word]
    if word.isalpha() and word not in STOPWORDS and word not in MONTH_OF:
        return stem(word)
    return None


def _day(token: str) -> int | None:
    value = _number(token) if token.lower() not in _NUMBER_WORDS else None
    if value is not None and value == int(value) and 1 <= value <= 31:
        return int(value)
    return None


def _day_near(tokens: list[str], i: int) -> bool:
    return any(0 <= j < len(tokens) and _day(tokens[j]) is not None for j in (i - 1, i + 1))


_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")


def _names(text: str) -> dict[str, str]:
    """Capitalised words not at the start of a sentence (and not stopwords or months), by
    stem."""
    names = {}
    words = list(re.finditer(r"\S+", text))
    for n, match in enumerate(words):
        word = match.group().strip("\"'“”‘’()[],;:.!?")
        if not word or not _CAPITALISED.match(word):
            continue
        previous = words[n - 1].group() if n else ""
        if n == 0 or previous.endswith((".", "!", "?", ":")):
            continue  # capitalised by grammar
        lowered = word.lower()
        if lowered in STOPWORDS or lowered in MONTH_OF:
            continue
        names[stem(word)] = word
    return names
