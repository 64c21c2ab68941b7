"""What the rule checker reads out of a text: its *facts*.

- quantities: numbers as ``quantities.read_number`` reads them for every check (scale, unit,
  currency, hedge or bound, role), a count without a unit counting its noun ("three lifts");
  ranges ("1887-1889", "between 5 and 7") count both ends;
- dates: years, months, and days of a month;
- names: capitalised words that grammar does not explain (not the first word of a sentence).

``keeps_facts`` uses them to tell whether claims extracted from a sentence keep its numbers,
dates and names; ``normalise`` is the spelling the verbatim check compares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import pairwise

from ..storage import MiB, memoize
from ..text.citations import MARKER
from ..text.word_forms import (
    DASHES,
    MONTH_OF,
    NUMBER_PATTERN,
    STOPWORDS,
    TERM,
    WORD_PATTERN,
    content_words,
    fold,
    month_at,
    stem,
    with_digits,
)
from .money import SIGN_CLASS
from .quantities import (
    NUMBER_WORDS,
    TIME_OF_DAY,
    TIME_WORDS,
    UNIT_WORDS,
    Amount,
    Number,
    bound_before,
    read_number,
    time_at,
    value_of,
)

_TOKEN = re.compile(rf"[A-Za-z]{{0,3}}{SIGN_CLASS}|{TIME_WORDS}"
                    rf"|{NUMBER_PATTERN}(?:st|nd|rd|th)?|{UNIT_WORDS}|{WORD_PATTERN}|%|\S")
_RANGE_WORDS = DASHES | {"to", "and"}



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
    text = fold(MARKER.sub(" ", text).lower())
    return " ".join(_NORMAL_WORD.findall(text))


# a currency sign is a word of its own: "$30" and "£30" are not the same words
_NORMAL_WORD = re.compile(rf"\d+(?:[.,]\d+)*[^\W_]*|{TERM.pattern}|{SIGN_CLASS}")


@memoize(8192, 16 * MiB, bytes_per_char=24)
def read_facts(text: str) -> Facts:
    """The facts of ``text``. Cached: evidence chunks come back for every claim."""
    text = MARKER.sub(" ", text)
    numeric = with_digits(text)
    quantities, years, months, days = _quantities_and_dates(numeric, list(_TOKEN.finditer(numeric)))
    # a time of day is a value, its words none of the text's ("9 pm", "noon")
    timed = frozenset().union(*(content_words(q.text) for q in quantities
                                if q.unit == TIME_OF_DAY))
    return Facts(content_words(numeric) - timed, tuple(quantities), frozenset(years),
                 frozenset(months), frozenset(days), _names(text))


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


def _quantities_and_dates(text: str, matches: list[re.Match]):
    tokens = [m.group() for m in matches]
    spans = [m.span() for m in matches]
    lowered = [t.lower() for t in tokens]
    months = {i: month for i in range(len(tokens)) if (month := month_at(tokens, i))}
    days, used = set(), set()
    for i, month in months.items():
        for j in (i - 1, i + 1):  # "31 March", "March 31", "March 31st"
            day = _day(tokens[j]) if 0 <= j < len(tokens) else None
            if day is not None:
                days.add((month, day))
                used.add(j)
    found: list[Number] = []
    for i in range(len(tokens)):  # a time of day is one value in any notation ("6 p.m.")
        time = None if i in used else time_at(tokens, i)
        if time is not None:
            minutes, size = time
            found.append(Number(Amount(minutes, TIME_OF_DAY, " ".join(tokens[i:i + size])),
                                i, i + size - 1))
            used.update(range(i, i + size))
    years: set[int] = set()
    for i, token in enumerate(tokens):
        number = None if i in used else read_number(tokens, i, source=text, spans=spans)
        if number is None:
            continue
        value = number.amount.value
        if (re.fullmatch(NUMBER_PATTERN, token) and "," not in token and number.last == i
                and number.first == i and value == int(value) and 1000 <= value <= 2100):
            years.add(int(value))
            continue
        if number.amount.unit is None and number.last + 1 < len(tokens):
            counted = _counted(lowered[number.last + 1])  # "three lifts": a count of lifts
            if counted:
                number = Number(replace(number.amount, unit=counted), number.first,
                                number.last + 1)
        found.append(number)
    found.sort(key=lambda number: number.first)
    for n, (a, b) in enumerate(pairwise(found)):  # "5 to 7 km": the first end takes the unit
        if (a.amount.unit is None and b.amount.unit is not None and b.first == a.last + 2
                and lowered[a.last + 1] in _RANGE_WORDS):
            found[n] = Number(replace(a.amount, unit=b.amount.unit), a.first, a.last)
    quantities = []
    for number in found:  # units settled: the hedge or bound read, and the text as written
        bound, start = bound_before(lowered, number.first, number.amount.unit)
        quantities.append(replace(number.amount, phrase=bound,
                                  role="" if bound else number.amount.role,
                                  text=text[spans[start][0]:spans[number.last][1]]))
    return quantities, years, set(months.values()), days


def _counted(word: str) -> str | None:
    """What a count without a unit counts ("three lifts": "lift"), as its stem."""
    if word.isalpha() and word not in STOPWORDS and word not in MONTH_OF:
        return stem(word)
    return None


def _day(token: str) -> int | None:
    value = value_of(token) if token.lower() not in NUMBER_WORDS else None
    if value is not None and value == int(value) and 1 <= value <= 31:
        return int(value)
    return None


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
