"""The rule-based checker: compares what a claim states with what its evidence states.

No model and no network. It reads four kinds of fact out of a claim and out of each evidence
chunk and compares them:

- quantities: numbers with their scale (thousand, million...), unit, percent and currency;
  ranges ("1887-1889", "between 5 and 7") count both ends;
- dates: years, months, and days of a month;
- names: capitalised words that grammar does not explain (not the first word of a sentence);
- negation: "not", "never", "no", "n't", ...

From those it gives *findings*: how much of the claim the evidence covers, which of its facts
the evidence lacks, whether one chunk states the same fact differently (a *clear
contradiction*: the chunk covers the rest of the claim and gives another value of the same
kind and unit, names another entity in the same slot, or negates it), and whether a chunk
states the claim verbatim. The local judge turns findings into verdicts; the validator's
cascade uses the two clear cases to skip an LLM call.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from . import clauses
from .citations import MARKER
from .lexicon import NEGATIONS
from .lru import MiB, memoize
from .splitting import split_sentences
from .types import Evidence
from .words import MONTH_OF, MONTHS, STOPWORDS, content_words, stem, with_digits

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
_HEDGES = ("about", "around", "approximately", "roughly", "nearly", "almost", "some", "over",
           "more than", "less than", "under", "up to", "circa", "ca.", "~", "just over",
           "just under", "an estimated", "estimated")

_TOKEN = re.compile(r"[$€£¥]|\d+(?:,\d{3})*(?:\.\d+)?(?:st|nd|rd|th)?|[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?|%|\S")
_NUMERIC = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?$")
_RANGE_WORDS = frozenset(("-", "–", "—", "to", "and"))
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")

RELATIVE_TOLERANCE = 0.005  # numbers this close are the same number (rounding)
HEDGED_TOLERANCE = 0.10  # ... or this close when the claim hedges ("about 7 million")
CONTRADICTION_COVERAGE = 0.6  # share of the claim's other words a chunk must state to conflict
NEGATION_COVERAGE = 0.8  # ... and to count as its negation
VERBATIM_MIN_WORDS = 4


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str | None  # "metre", "%", "usd", "year"...; None when no unit follows
    text: str
    hedged: bool = False

    def same_value(self, other: Quantity) -> bool:
        tolerance = HEDGED_TOLERANCE if self.hedged or other.hedged else RELATIVE_TOLERANCE
        return abs(self.value - other.value) <= tolerance * max(abs(self.value), abs(other.value))

    def matches(self, other: Quantity) -> bool:
        """The same value, in the same unit (or one of the two has none)."""
        units_agree = self.unit is None or other.unit is None or self.unit == other.unit
        return units_agree and self.same_value(other)

    def comparable(self, other: Quantity) -> bool:
        return self.unit is not None and self.unit == other.unit


@dataclass(frozen=True)
class Facts:
    """What the rules read out of one text."""

    words: frozenset[str]  # content words, stemmed
    quantities: tuple[Quantity, ...]
    years: frozenset[int]
    months: frozenset[int]
    days: frozenset[tuple[int, int]]  # (month, day)
    names: dict[str, str] = field(hash=False)  # stem -> the word as written
    name_slots: dict[str, str] = field(hash=False)  # stem of a name -> the word before it
    negated: bool = False
    clauses: tuple[clauses.Clause, ...] = ()  # what each clause asserts (polarity, roles...)


@dataclass(frozen=True)
class Findings:
    coverage: float  # share of the claim's content words found in the evidence
    best_similarity: float  # the retriever's best cosine similarity, 0 when unknown
    missing_values: tuple[str, ...]  # quantities and dates of the claim the evidence lacks
    missing_names: tuple[str, ...]
    contradiction: str | None  # why a chunk clearly states otherwise, or None
    contradiction_kind: str | None  # "value" (a number or date), "name", "negation",
    # "antonym" (an opposite word) or "roles" ("from A to B" against "from B to A")
    verbatim: bool  # a chunk states the claim word for word
    gaps: tuple[str, ...] = ()  # what the claim adds: a list item, "all" for "some"

    @property
    def clear_contradiction(self) -> bool:
        """Another number or date for the same thing: the one kind of conflict the rules
        decide without an LLM (a different name may be a synonym or a part of the whole)."""
        return self.contradiction_kind == "value"

    @property
    def problems(self) -> list[str]:
        found = []
        if self.missing_values:
            found.append(f"values not in the evidence: {list(self.missing_values)}")
        if self.missing_names:
            found.append(f"names not in the evidence: {list(self.missing_names)}")
        return found + list(self.gaps)


@memoize(8192, 16 * MiB)
def normalise(text: str) -> str:
    """Lower case, citation markers dropped, runs of anything but letters and digits one space."""
    text = MARKER.sub(" ", text).lower().replace("’", "'")
    return " ".join(re.findall(r"[^\W_]+(?:'[^\W_]+)?", text))


@memoize(8192, 16 * MiB, bytes_per_char=24)
def read_facts(text: str) -> Facts:
    """The facts of ``text``. Cached: evidence chunks come back for every claim."""
    text = MARKER.sub(" ", text)
    matches = list(_TOKEN.finditer(text))
    numeric = with_digits(text)
    quantities, years, months, days = _quantities_and_dates(numeric, list(_TOKEN.finditer(numeric)))
    names, slots = _names(text)
    lowered = [m.group().lower() for m in matches]
    negated = sum(1 for t in lowered if t in NEGATIONS or t.endswith("n't")) % 2 == 1
    return Facts(content_words(numeric), tuple(quantities), frozenset(years), frozenset(months),
                 frozenset(days), names, slots, negated, clauses.read_clauses(text))


def check(claim: str, evidence: Sequence[Evidence]) -> Findings:
    """Compare ``claim`` with its evidence chunks, sentence by sentence."""
    said = read_facts(claim)
    parts = [facts for e in evidence for facts in _sentence_facts(e.text)]
    everything = _union(parts)
    coverage = len(said.words & everything.words) / len(said.words) if said.words else 1.0
    similarity = max((e.similarity or 0.0 for e in evidence), default=0.0)

    missing_values = [q.text for q in said.quantities
                      if not any(q.matches(other) for other in everything.quantities)]
    missing_values += [str(y) for y in sorted(said.years - everything.years)]
    missing_values += [MONTHS[m - 1].title() for m in sorted(said.months - everything.months)]
    missing_values += [f"{MONTHS[m - 1].title()} {d}" for m, d in sorted(said.days - everything.days)
                       if m in everything.months]
    missing_names = sorted(said.names[s] for s in said.names.keys() - everything.words
                           - everything.names.keys())

    contradiction = None
    ranked = sorted(((_overlap(said, part), n) for n, part in enumerate(parts)), reverse=True)
    agreed = False  # a passage states the claim's words the same way round
    for overlap, n in ranked:
        # A value or name conflict needs most of the claim's words; the polarity checks
        # count an opposite as the same word ("cheaper" / "more expensive"), so they look at
        # every sentence.
        if overlap >= CONTRADICTION_COVERAGE:
            contradiction = _conflict(said, parts[n], everything)
        if contradiction is None and not agreed:
            contradiction = _polarity(said, parts[n])
            agreed = contradiction is None and (
                clauses.overlap(said.clauses, parts[n].clauses) >= NEGATION_COVERAGE)
        if contradiction:
            break
    gaps = [f"list items not in the evidence: {items}"
            for items in [clauses.missing_items(claim, everything.words)] if items]
    if ranked and ranked[0][0] >= CONTRADICTION_COVERAGE:
        gaps += filter(None, [clauses.quantifier_gap(said.clauses, parts[ranked[0][1]].clauses)])
    target = normalise(claim)
    verbatim = len(target.split()) >= VERBATIM_MIN_WORDS and any(
        f" {target} " in f" {normalise(e.text)} " for e in evidence
    )
    kind, why = contradiction or (None, None)
    return Findings(round(coverage, 4), similarity, tuple(missing_values), tuple(missing_names),
                    why, kind, verbatim and contradiction is None, tuple(gaps))


@memoize(1024, 16 * MiB, bytes_per_char=56)
def _sentence_facts(chunk: str) -> tuple[Facts, ...]:
    return tuple(read_facts(s.text) for s in split_sentences(chunk))


def keeps_facts(sentence: str, claims: Sequence[str]) -> bool:
    """Whether ``claims`` together keep every number, date and name of ``sentence``: claims
    that drop one cannot stand for it (a manipulated sentence may ask the claim extractor to
    leave its false part out)."""
    said = read_facts(sentence)
    kept = _union([read_facts(claim) for claim in claims])
    values = all(any(q.matches(k) for k in kept.quantities) for q in said.quantities)
    names = said.names.keys() <= kept.names.keys() | kept.words
    return (values and names and said.years <= kept.years and said.months <= kept.months
            and said.days <= kept.days)


def _overlap(said: Facts, part: Facts) -> float:
    """Share of the claim's words that ``part`` states, leaving out names it has no word for
    (so "in Berlin" against "in Paris" still counts as the same statement)."""
    absent_names = said.names.keys() - part.words - part.names.keys()
    considered = said.words - absent_names
    return len(said.words & part.words) / len(considered) if considered else 0.0


def _conflict(said: Facts, chunk: Facts, everything: Facts) -> tuple[str, str] | None:
    """How ``chunk`` (one evidence sentence that states most of the claim) gives another
    value or name. A value or name the evidence states anywhere is not in conflict."""
    for q in said.quantities:
        rivals = [o for o in chunk.quantities if q.comparable(o)]
        if rivals and not any(q.same_value(o) and q.unit == o.unit for o in everything.quantities):
            return "value", f"the evidence gives {rivals[0].text} where the claim says {q.text}"
    if said.years and chunk.years and not said.years & everything.years:
        return "value", (f"the evidence gives the year {min(chunk.years)} where the claim says "
                         f"{min(said.years)}")
    if said.months and chunk.months and not said.months & everything.months:
        return "value", (f"the evidence gives {MONTHS[min(chunk.months) - 1].title()} where the "
                         f"claim says {MONTHS[min(said.months) - 1].title()}")
    for (month, day) in said.days:
        rivals = sorted(d for m, d in chunk.days if m == month)
        if rivals and (month, day) not in everything.days:
            return "value", (f"the evidence gives {MONTHS[month - 1].title()} {rivals[0]} where "
                             f"the claim says {MONTHS[month - 1].title()} {day}")
    for name_stem, before in said.name_slots.items():
        if name_stem in everything.names or name_stem in everything.words:
            continue
        rivals = [chunk.names[s] for s, b in chunk.name_slots.items()
                  if b == before and s not in said.names]
        if rivals:
            return "name", (f"the evidence names {rivals[0]} where the claim names "
                            f"{said.names[name_stem]}")
    return None


def _polarity(said: Facts, chunk: Facts) -> tuple[str, str] | None:
    """How ``chunk`` states the claim the other way round (negated, an opposite word, roles
    swapped), when it states nearly all of it: see ``clauses``."""
    if clauses.overlap(said.clauses, chunk.clauses) < NEGATION_COVERAGE:
        return None
    return clauses.polarity_conflict(said.clauses, chunk.clauses)


def _union(facts: list[Facts]) -> Facts:
    return Facts(
        frozenset().union(*(f.words for f in facts)),
        tuple(q for f in facts for q in f.quantities),
        frozenset().union(*(f.years for f in facts)),
        frozenset().union(*(f.months for f in facts)),
        frozenset().union(*(f.days for f in facts)),
        {k: v for f in facts for k, v in f.names.items()},
        {},
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
    found, years = [], set()  # found: (first token, last token, value, unit, hedged)
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
        j = i + 1
        if nxt in _SCALE and (nxt not in ("m", "b") or currency):
            value *= _SCALE[nxt]
            j += 1
        if j + 1 < len(tokens) and lowered[j] in ("-", "‑") and lowered[j + 1].isalpha():
            j += 1  # "a 7-year warranty": the unit after the hyphen
        unit = currency or _unit(lowered[j] if j < len(tokens) else "")
        first = i - 1 if currency else i
        last = j if unit and not currency and j < len(tokens) else j - 1
        hedged = any(" ".join(lowered[max(0, i - 3) : first]).endswith(h) for h in _HEDGES)
        found.append([first, last, value, unit, hedged])
    for a, b in pairwise(found):  # "5 to 7 km": the first end of a range takes its unit
        if a[3] is None and b[3] is not None and b[0] == a[1] + 2 and lowered[a[1] + 1] in _RANGE_WORDS:
            a[3] = b[3]
    quantities = [Quantity(value, unit, text[matches[first].start() : matches[last].end()], hedged)
                  for first, last, value, unit, hedged in found]
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


def _names(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Capitalised words not at the start of a sentence (and not stopwords or months), and the
    lower-case word before each: "in Paris" -> {"paris": "in"}."""
    names, slots = {}, {}
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
        key = stem(word)
        names[key] = word
        before = previous.strip("\"'“”‘’()[],;:")
        if before[:1].islower() and before not in ("the", "a", "an", "and", "or"):
            slots.setdefault(key, before)
    return names, slots
