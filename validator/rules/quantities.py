"""What a written number allows: the values it stands for, read from its precision, its unit
and the words that hedge or bound it. One reading for the rule checker's alignment, the facts
that claims and corrections must keep, and the reasons they give.

A number is read as an interval of values (in its unit's base: metres for "2 km"):

- an exact count in digits ("48,000", "330 metres") is that value alone;
- an exact number with a decimal point or a scale word ("2.1 million", "7.5 km") is rounded at
  most half its last written digit, and at most 0.5% ("2.1 million" for 2,104,000);
- a hedged number ("about", "around", "roughly", "some", "circa", "an estimated") is the same
  at its own precision: half a unit of its last non-zero digit either side ("about 50,000" is
  45,000 to 55,000: one significant figure; "about 48,000" is 47,500 to 48,500);
- "nearly", "almost", "just under" are that hedge below the number, "just over" above it;
- a bound is a bound: "over", "more than", "above" (beyond it), "under", "less than", "fewer
  than", "below" (short of it), "at least", "no fewer than" (it or beyond), "at most", "no more
  than" (it or short of it): "at least 400 people" is stated by "500 people" and contradicted
  by "300 people";
- an extreme is the least or the most there is: "up to", "a maximum of", "a minimum of" (the
  ``EXTREMES`` phrases). In a claim it needs that same number in the source, exact or said the
  same way ("up to 12 hours" is not stated by "up to 6 hours", nor by "6 hours": the battery
  does not reach 12); in a source it is a bound ("up to 12 hours" states "at most 20 hours").
  "over", "under", "above" and "below" may be prepositions ("connects over 2.4 GHz Wi-Fi",
  "repaid over 20 years"): said on both sides, their numbers must be equal; before a span of
  time, "over" is read as a word and its number as exact.

A claim's number is *stated* by a source's when every value the source allows is one the claim
allows: the claim may say less than the source ("about 50,000" for "48,000", "over 40,000" for
"about 48,000"), never more ("48,000" for "about 48,000", "roughly 7.2 million" for "about 7
million"). The same value written another way is the same ("1.2 million", "1,200,000"). Two
numbers *conflict* when no value is allowed by both ("about 45,000" against "about 48,000").
Units of one dimension convert first ("1,083 feet" for "330 metres", "86°F" for "30°C",
rounded at 0.5%); other units, and currencies, never equal each other. A unit is read by its
name or symbol after a number: spans of time and the table's counts (``UNITS``), and every
unit of length, area, volume, mass, speed, temperature, energy and power that pint's registry
knows ("litres", "km/h", "kWh"), which also converts them.
"""

from __future__ import annotations

import functools
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pint

from ..text.grammar import FUNCTION_WORDS as GRAMMAR_FUNCTION_WORDS
from ..text.grammar import NUMBER_WORDS
from ..text.grammar import PREPOSITIONS as GRAMMAR_PREPOSITIONS
from ..text.word_forms import DASHES, NUMBER_PATTERN
from . import money

ROUNDING = 0.005  # an exact number written rounded ("2.1 million") is at most this far off

# Words before a number that say how it is meant, longest first where one starts another.
HEDGES = frozenset(("about", "around", "approximately", "roughly", "some", "circa", "ca",
                    "an estimated", "estimated", "close to", "~"))
_BOUNDS = {
    "nearly": "nearly", "almost": "nearly", "just under": "nearly", "just below": "nearly",
    "just over": "just over", "just above": "just over",
    "over": "over", "more than": "over", "above": "over", "greater than": "over",
    "in excess of": "over", "upwards of": "over", "well over": "over",
    "at least": "at least", "no less than": "at least", "no fewer than": "at least",
    "not less than": "at least", "a minimum of": "at least", "minimum of": "at least",
    "under": "under", "less than": "under", "fewer than": "under", "below": "under",
    "well under": "under",
    "at most": "at most", "up to": "at most", "no more than": "at most",
    "not more than": "at most", "a maximum of": "at most", "maximum of": "at most",
}
BOUND_WORDS = {**{h: "about" for h in HEDGES}, **_BOUNDS}  # phrase -> how the number is meant
PREPOSITIONS = frozenset(p for p in _BOUNDS if p in GRAMMAR_PREPOSITIONS)  # "over", "under"
# Phrases that name the least or the most there is: "up to 12 hours" is the most it reaches.
EXTREMES = frozenset(("up to", "a maximum of", "maximum of", "a minimum of", "minimum of"))
LONGEST_BOUND = max(len(p.split()) for p in BOUND_WORDS)

# Spans of time, each to (its dimension, how many of its base one is). A month is no fixed
# number of days, so spans of seconds and of months are two dimensions ("30 days" is not "1
# month"); every other unit converts by pint's registry (``measure``).
_BASE = {
    "second": ("second", 1.0), "minute": ("second", 60.0), "hour": ("second", 3600.0),
    "day": ("second", 86400.0), "week": ("second", 604800.0),
    "month": ("month", 1.0), "year": ("month", 12.0),
}
TIME_UNITS = frozenset(u for u, (base, _) in _BASE.items() if base in ("second", "month"))


# The one table of what may follow or precede a number. A scale multiplies it ("12k", "$3m",
# "1.5 million"); "m" and "b" are scales only after a currency ("$3m"; "3 m" is metres).
SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9,
          "bn": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12}
_CURRENCY_SCALES = frozenset(("m", "b"))
UNITS = {  # a word after a number -> its unit (a currency: ``money``; more units: ``unit_of``)
    **{w: "metre" for w in ("m", "meter", "meters", "metre", "metres")},
    **{w: "kilometre" for w in ("km", "kilometer", "kilometers", "kilometre", "kilometres")},
    **{w: "centimetre" for w in ("cm", "centimetre", "centimetres", "centimeter", "centimeters")},
    **{w: "millimetre" for w in ("mm", "millimetre", "millimetres", "millimeter", "millimeters")},
    **{w: "foot" for w in ("ft", "foot", "feet")}, **{w: "inch" for w in ("in.", "inch", "inches")},
    **{w: "yard" for w in ("yd", "yard", "yards")}, **{w: "mile" for w in ("mi", "mile", "miles")},
    **{w: "kilogram" for w in ("kg", "kilogram", "kilograms")},
    **{w: "gram" for w in ("g", "gram", "grams")},
    **{w: "tonne" for w in ("tonne", "tonnes", "ton", "tons")},
    **{w: "litre" for w in ("l", "litre", "litres", "liter", "liters")},
    **{w: "second" for w in ("second", "seconds", "sec", "secs")},
    **{w: "minute" for w in ("minute", "minutes", "min", "mins")},
    **{w: "hour" for w in ("hour", "hours", "hr", "hrs")}, **{w: "day" for w in ("day", "days")},
    **{w: "week" for w in ("week", "weeks")}, **{w: "month" for w in ("month", "months")},
    **{w: "year" for w in ("year", "years", "yr", "yrs")}, "percent": "%", "pct": "%", "%": "%",
    **{w: "person" for w in ("people", "person", "persons")},
    **{w: "visitor" for w in ("visitor", "visitors")},
    **{w: "employee" for w in ("employee", "employees")},
}

_NUMERAL = re.compile(rf"({NUMBER_PATTERN})(?:st|nd|rd|th)?$")


# The dimensions a unit of pint's registry is read in after a number; whatever else it knows
# ("3 turns", "2 bits", "5 at" for an atmosphere) stays a word.
_MEASURED = ("[length]", "[length] ** 2", "[length] ** 3", "[mass]", "[temperature]",
             "[length] / [time]", "[mass] * [length] ** 2 / [time] ** 2",
             "[mass] * [length] ** 2 / [time] ** 3")
# Units the tokenizers keep as one word: a scale of temperature ("20°C"), a rate after a number
# ("161 km/h", "9.8 m/s"; "and/or" stays two words).
UNIT_WORDS = r"°[CFK]\b|(?:(?<=\d)|(?<=\d\s))[A-Za-z]{1,3}/[A-Za-z]{1,3}\b"
_TABLE_UNITS = frozenset(UNITS.values())
_TEMPERATURES = frozenset(("degree_Celsius", "degree_Fahrenheit", "kelvin"))
_LONGEST_UNIT = 24  # characters: no unit's name or symbol is longer
_LOCK = threading.Lock()
_PINT: list[tuple[pint.UnitRegistry, frozenset]] = []  # the registry, once built


def _registry() -> tuple[pint.UnitRegistry, frozenset]:
    """pint's units, built once, on the first unit the table does not hold (a quarter of a
    second, never written to disk), and the dimensions read."""
    if not _PINT:
        with _LOCK:
            if not _PINT:
                registry: pint.UnitRegistry = pint.UnitRegistry(cache_folder=None)
                _PINT.append((registry, frozenset(registry.get_dimensionality(d)
                                                  for d in _MEASURED)))
    return _PINT[0]


@functools.lru_cache(maxsize=4096)
def _pint_unit(word: str) -> str | None:
    """The name of pint's unit ``word`` names, as written (a symbol's case matters: "MW" is
    no "mW"), where it measures a dimension that is read; None otherwise."""
    if (len(word) < 2 or len(word) > _LONGEST_UNIT or word.lower() in GRAMMAR_FUNCTION_WORDS
            or word.lower() in ("st", "nd", "rd", "th")):
        return None  # a letter alone is the table's or none ("5 c" is no speed of light), an
        # ordinal's ending no unit ("3rd" is no 3 rods)
    registry, measured = _registry()
    for written in dict.fromkeys((word, word.lower() if word.istitle() and len(word) > 3
                                  else word)):  # "Celsius", "Litres" as names are written
        try:
            unit = registry.parse_units(written)
            name = str(unit) if unit.dimensionality in measured else ""
        except Exception:  # noqa: BLE001  any word may follow a number: pint raises a dozen
            continue  # kinds at one that is no unit expression ("km/", "5 / ", "C'd²Np")
        if name:
            return name
    return None


def is_unit(name: str | None) -> bool:
    """Whether ``name`` is a unit a number is measured in, the table's or pint's."""
    return name in _TABLE_UNITS or name is not None and _pint_unit(name) is not None


def unit_of(word: str) -> str | None:
    """The unit ``word`` names after a number: one of the table's (``UNITS``: "metres",
    "days", "people"), or one of pint's in a dimension that is read ("litres", "°C", "kWh");
    None for any other word."""
    return UNITS.get(word.lower()) or _pint_unit(word)


@functools.lru_cache(maxsize=1024)
def measure(unit: str | None) -> tuple[str | None, float, float]:
    """``unit``'s dimension, and how a value in it converts to that dimension's base:
    base = value * factor + offset (an offset only for a temperature). A unit pint does not
    read (a currency, "%", a count of people) is a dimension of its own."""
    if unit is None or unit in _BASE or _pint_unit(unit) is None:
        base, factor = _BASE.get(unit or "", (unit, 1.0))
        return base, factor, 0.0
    registry, _ = _registry()
    try:
        one, zero = (registry.Quantity(x, unit).to_base_units() for x in (1.0, 0.0))
    except Exception:  # noqa: BLE001  a unit pint parses and cannot convert is its own
        return unit, 1.0, 0.0
    return str(one.dimensionality), float(one.magnitude - zero.magnitude), float(zero.magnitude)


def value_of(word: str) -> float | None:
    """The value of a numeral ("48,000", "2.5", "21st") or of a number word ("two", "dozen");
    None for anything else, and for a numeral too large for a float."""
    numeral = _NUMERAL.match(word)
    if numeral is None:
        return NUMBER_WORDS.get(word.lower())
    value = float(numeral.group(1).replace(",", ""))
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class Number:
    """A number read at its place in a text's words (``read_number``)."""

    amount: Amount
    first: int  # the index of its first word (a currency before it), after its hedge or bound
    last: int  # the index of its last word (its scale or unit)


def read_number(words: Sequence[str], i: int, phrase: str = "", *, source: str | None = None,
                spans: Sequence[tuple[int, int]] = ()) -> Number | None:
    """The number at ``words[i]`` with what the words around it say of it: a currency before
    it ("$", "USD"), a scale after it ("12k", "$3m", "1.5 million"), a unit ("330 metres",
    "a 7-year warranty", "2 percentage points"), the hedge or bound ``phrase`` (as written)
    before it (``BOUND_WORDS``; "over" before a span of time is read as no bound) and its role
    ("rose to 6%": where a change ended). The one reading of a number for every check of the
    rules; None when ``words[i]`` is no number. ``source`` and the ``spans`` of its words: the
    number is quoted as written there ("$3m")."""
    value = value_of(words[i])
    if value is None:
        return None

    def low(k: int) -> str:  # the word at k in lower case; "" outside the text
        return words[k].lower() if 0 <= k < len(words) else ""

    currency = (money.sign(words[i - 1]) or money.code(words[i - 1])) if i else None  # "$5"
    first, j, scale = (i - 1 if currency else i), i + 1, 1.0
    below = _minus(source, spans, first)  # "-€35", "−12": below zero
    if below:
        value = -value
        first -= bool(first) and words[first - 1] in _MINUS  # the sign as a word of its own
    if low(j) in SCALES and (low(j) not in _CURRENCY_SCALES or currency):
        scale, j = SCALES[low(j)], j + 1
    unit = currency
    named = None if unit is not None else money.named(list(words[j:j + 3]))  # "5 US dollars"
    if named is not None:
        unit, j = named[0], j + named[1]
    elif unit is None and low(j) == "percentage" and low(j + 1) in ("point", "points"):
        unit, j = "percentage point", j + 2  # "2 percentage points" is no "2 percent"
    elif unit is None:
        def unit_at(k: int) -> str | None:
            return unit_of(words[k]) if 0 <= k < len(words) else None

        k = j + 1 if low(j) in ("-", "‑") and unit_at(j + 1) else j  # "a 7-year warranty"
        if unit_at(k) is None and low(k).isalpha() and _spans_time(low(k + 1)):
            k += 1  # "5 business days", "3 calendar months": a span of time, the word kept
        if low(k) in ("degree", "degrees") and (scale_of := unit_at(k + 1)) in _TEMPERATURES:
            unit, j = scale_of, k + 2  # "30 degrees Celsius"
        elif (named_unit := unit_at(k)) is not None:
            unit, j = named_unit, k + 1
        elif code_after := money.code(words[j]) if j < len(words) else None:  # "5 EUR"
            unit, j = code_after, j + 1
    if phrase and ambiguous(phrase.lower(), unit):
        phrase = ""  # "over 20 years": maybe "during"
    role = low(first - 1) if first and not phrase and low(first - 1) in ("to", "from") else ""
    if not phrase and _range_end(words, first, j, role):
        role = RANGE  # "from €20 to €45", "between €20 and €45", "8 to 12", "8-12": an end
    if source is not None and spans:
        begin = spans[first][0]
        begin -= below and source[begin - 1:begin] in _MINUS  # a sign no word of its own
        shown = source[begin:spans[j - 1][1]]
    else:
        shown = " ".join(words[first:j]).replace(" %", "%")
        shown = shown[0] + shown[1:].lstrip() if shown[0] in money.SIGNS else shown
    return Number(amount(words[i], value, scale=scale, unit=unit, phrase=phrase.lower(),
                         text=f"{phrase} {shown}" if phrase else shown, role=role), first, j - 1)


RANGE = "range"  # the role of a number that is an end of a range
# Words after which "from A to B" spans a range rather than tells a change.
SPANNING = frozenset("""cost costs costing priced range ranges ranged ranging vary varies
    varied run runs open opens is are was were lasts last lasting takes take aged""".split())


def _range_end(words: Sequence[str], first: int, after: int, role: str) -> bool:
    """Whether the number from ``words[first]`` to before ``words[after]`` is an end of a range
    of two numbers, whatever the words: "between" it "and" a number, or a number "and" it
    after "between"; it "to" a number, or a number "to" it; two numbers side by side (a dash
    between them: "8-12"); "from" it "to" a number only after a word that spans, not changes
    ("cost from €20 to €45", not "fell from 25% to 20%": where a change began)."""
    def number_at(k: int) -> bool:
        k += k < len(words) and money.sign(words[k]) is not None
        return k < len(words) and words[k][:1].isdigit()

    before = words[first - 1].lower() if first else ""
    nxt = words[after].lower() if after < len(words) else ""
    back = [w.lower() for w in words[max(0, first - 5):max(0, first - 1)]]  # before "to"/"and"
    if before == "from":
        return first >= 2 and words[first - 2].lower() in SPANNING and nxt == "to" \
            and number_at(after + 1)
    if before == "between":
        return nxt == "and" and number_at(after + 1)
    if before == "and":
        return "between" in back
    if before == "to":
        if "from" in back:  # the high end of "from A to B" is one where the low end is
            k = first - 2 - back[::-1].index("from")
            return k >= 1 and words[k - 1].lower() in SPANNING
        return any(w[:1].isdigit() for w in back[-3:])  # "8 to 12", "10 to 12 weeks"
    if nxt == "to":
        return number_at(after + 1)
    # "8-12", "8 12" (a dash the words left out): two numbers rising, and no third part
    # ("2026-03-09" is a date, "09:30" a time)
    dash = before in DASHES
    low_at = first - 2 if dash else first - 1
    if low_at >= 0 and (dash or before[-1:].isdigit()):
        return _rising(words, low_at, first)
    high_at = after + 1 if nxt in DASHES else after
    return high_at < len(words) and _rising(words, first, high_at)


def _rising(words: Sequence[str], low: int, high: int) -> bool:
    """Whether ``words[low]`` and ``words[high]`` are two numbers, the second the larger, with
    no dash or number before the first or after the second."""
    def value(k: int) -> float | None:
        try:
            return float(words[k].replace(",", ""))
        except (ValueError, IndexError):
            return None

    a, b = value(low), value(high)
    outside = [words[k] for k in (low - 1, high + 1) if 0 <= k < len(words)]
    return (a is not None and b is not None and a < b
            and not any(w in DASHES or w[:1].isdigit() or w == ":" for w in outside))



# A time of day on a clock ("07:00", "7:30:15"), and the halves of the day after a number
# ("7 pm", "7 p.m."): one value, minutes after midnight (``time_at``). ``TIME_WORDS`` is the
# pattern a tokenizer keeps each of them whole with.
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")
TIME_OF_DAY = "time of day"  # the unit of a time read whole: minutes after midnight
_HALF_DAY = {"am": 0, "a.m": 0, "pm": 12, "p.m": 12}
_NAMED_TIMES = {"noon": 12 * 60, "midday": 12 * 60, "midnight": 0}  # minutes after midnight
TIME_WORDS = rf"{_CLOCK.pattern}|\b[AaPp]\.[Mm]\.?"


def time_at(raw: Sequence[str], i: int) -> tuple[int, int] | None:
    """The time of day at ``raw[i]`` as minutes after midnight, and how many words it takes:
    "18:00", "6 pm", "6:00 p.m.", "noon" are one time in any notation; None if there is none. The one
    reader of a time of day, for the clauses (``reading``) and the facts (``facts``) alike."""
    named = _NAMED_TIMES.get(raw[i].lower())
    if named is not None:
        return named, 1
    clock = _CLOCK.fullmatch(raw[i])
    half = raw[i + 1].lower().rstrip(".") if i + 1 < len(raw) else ""
    if half not in _HALF_DAY:
        half = ""
    if clock is None and not (raw[i].isdigit() and half):
        return None
    hours, minutes = (int(clock[1]), int(clock[2])) if clock else (int(raw[i]), 0)
    if half and 1 <= hours <= 12:
        hours = hours % 12 + _HALF_DAY[half]
    if hours > 24 or minutes > 59:
        return None
    return hours * 60 + minutes, 2 if half else 1


def seconds_of(word: str) -> int | None:
    """The seconds a time of day gives ("07:45:30" -> 30, "07:45:00" -> 0), None where it
    gives none ("07:45", "7 pm")."""
    clock = _CLOCK.fullmatch(word)
    return int(clock[3]) if clock and clock[3] else None




@dataclass(frozen=True)
class Amount:
    """A number as written, and the values it allows (in its unit's base)."""

    value: float  # as written, scale applied ("2.1 million" -> 2100000), in its own unit
    unit: str | None  # "metre", "usd", "%"...; None when the text gives none
    text: str  # as written, with its hedge or bound ("about 48,000")
    step: float = 1.0  # the place value of its last non-zero digit ("48,000" -> 1000)
    rounded: bool = False  # written with a decimal point or a scale word
    phrase: str = ""  # the hedge or bound as written, lower case ("more than"): a BOUND_WORDS key
    role: str = ""  # "to" or "from" before it: where a change ended or began, not its size

    @property
    def bound(self) -> str:
        """How the number is meant: "", "about", "nearly", "just over", "over", "at least",
        "under" or "at most"."""
        return BOUND_WORDS[self.phrase] if self.phrase else ""

    @property
    def open(self) -> bool:
        """Whether it bounds one side only ("more than 3", "at most 5"): any number beyond
        its bound is one it allows."""
        low, high, _, _ = self.interval(factor=1.0)
        return math.isinf(low) or math.isinf(high)

    @property
    def base(self) -> tuple[str | None, float, float]:
        """Its unit's dimension, and the factor and offset to the dimension's base unit."""
        return measure(self.unit)

    def interval(self, converted: bool = False, factor: float | None = None
                 ) -> tuple[float, float, bool, bool]:
        """(low, high, low open, high open) in base units (times ``factor``, if given,
        instead). ``converted``: compared with another unit of its dimension, so an exact
        figure may be rounded (ROUNDING)."""
        _, to_base, offset = self.base
        if factor is not None:
            to_base, offset = factor, 0.0
        x, half = self.value * to_base + offset, self.step * to_base / 2
        size = abs(self.value * to_base)  # what is rounded: the value, not where its scale starts
        near = min(half, ROUNDING * size) if self.rounded else 0.0
        if converted:
            near = max(near, ROUNDING * size)
        return {
            "": (x - near, x + near, False, False),
            "about": (x - half, x + half, False, False),
            "nearly": (x - half, x, False, True),
            "just over": (x, x + half, True, False),
            "over": (x, math.inf, True, False),
            "at least": (x, math.inf, False, False),
            "under": (-math.inf, x, False, True),
            "at most": (-math.inf, x, False, False),
        }[self.bound]

    def comparable(self, other: Amount) -> bool:
        """Whether the two can be compared: the same role ("rose to 6%" is not "rose by 6%"),
        and one has no unit or both share a dimension."""
        if (self.unit in _SHARES) != (other.unit in _SHARES):
            return False  # "40 percent of the engineers" is no count of 40
        return self.role == other.role and (
            self.unit is None or other.unit is None or self.base[0] == other.base[0])

    def stated_by(self, source: Amount) -> bool:
        """Whether every value ``source`` allows is one this (a claim's number) allows."""
        if not self.comparable(source):
            return False
        if source.unit is None and self.unit is not None:
            return False  # "$30" says more than a bare "30": its currency; "300 people" or
            # "3 points" more than "300" and "3" (of cars, of goals): what it counts
        if source.bound == "" and self.bound in ("", "at least", "at most") and (
                self.unit, self.value) == (source.unit, source.value):
            return True  # one value, written two ways ("1.2 million", "1,200,000"), or a
            # bound at it ("at least 2 million" for "2 million", however rounded)
        if self._both_prepositions(source):
            return self.value == source.value and self.unit == source.unit
        if self.phrase in EXTREMES:  # "up to 12 hours" says the most is 12, not "at most 12"
            return source.bound in ("", self.bound) and self._plain().stated_by(source._plain())
        (low, high, low_open, high_open), (s_low, s_high, s_low_open, s_high_open) = (
            self._intervals(source))
        above = low < s_low or (low == s_low and (not low_open or s_low_open))
        below = s_high < high or (s_high == high and (not high_open or s_high_open))
        return above and below

    def conflicts(self, source: Amount) -> bool:
        """Whether no value is allowed by both (an explicit conflict), in comparable units."""
        if not self.comparable(source):
            return False
        if self._both_prepositions(source):
            mine, theirs = self._intervals(source)
            return mine[0] != theirs[0]
        if self.phrase in EXTREMES and source.bound in ("", self.bound):
            return self._plain().conflicts(source._plain())
        (low, high, low_open, high_open), (s_low, s_high, s_low_open, s_high_open) = (
            self._intervals(source))
        return (high < s_low or (high == s_low and (high_open or s_low_open))
                or s_high < low or (s_high == low and (s_high_open or low_open)))

    def _intervals(self, source: Amount) -> tuple[tuple, tuple]:
        """This one's interval and ``source``'s, in one unit: the base of their dimension when
        both give a unit, else each as written ("5" against "5 km" is 5 against 5)."""
        if None in (self.unit, source.unit):
            return self.interval(factor=1.0), source.interval(factor=1.0)
        return self.interval(self.unit != source.unit), source.interval()

    def _plain(self) -> Amount:
        return replace(self, phrase="")

    def _both_prepositions(self, source: Amount) -> bool:
        """Both say "over" (or "under", "above", "below"): a word that may be no bound
        ("connects over 2.4 GHz Wi-Fi"), so the numbers must be equal, never merely within."""
        return self.phrase == source.phrase and self.phrase in PREPOSITIONS


_SHARES = frozenset(("%", "percentage point"))


def amount(number: str, value: float, *, scale: float = 1.0, unit: str | None = None,
           phrase: str = "", text: str | None = None, role: str = "") -> Amount:
    """The amount of ``number`` (its digits as written, "48,000" or "2.1") times ``scale``,
    hedged or bounded by ``phrase`` (a key of BOUND_WORDS, or "")."""
    digits = re.match(NUMBER_PATTERN, number)  # "48,000", "2.1"
    decimals = digits.group().partition(".")[2] if digits else None
    if decimals:
        step = 10.0 ** -len(decimals)
    elif not digits:  # a number word ("three"): a count
        step = 1.0
    else:
        whole = digits.group().replace(",", "")
        zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
        step = 10.0 ** zeros
    return Amount(value * scale, unit, text or number, step * scale,
                  rounded=bool(decimals) or scale != 1.0, phrase=phrase, role=role)


_MINUS = ("-", "\u2212")


def _minus(source: str | None, spans: Sequence[tuple[int, int]], first: int) -> bool:
    """Whether a minus sign touches the number whose first word is the ``first`` of ``spans``
    in ``source``, after a space or the start (a dash between two numbers, "5-7", is no
    minus), whether the reader took the sign as a word of its own or not; read only where the
    words' places in ``source`` are known."""
    if not source or len(spans) <= first:
        return False
    start = spans[first][0]
    return start > 0 and source[start - 1] in _MINUS and (
        start == 1 or source[start - 2].isspace())


def bound_before(words: list[str], end: int, unit: str | None) -> tuple[str, int]:
    """The hedge or bound that ends just before ``words[end]`` (lower-case words), as (the
    phrase, index of its first word); ("", end) when there is none."""
    for size in range(LONGEST_BOUND, 0, -1):
        start = end - size
        phrase = " ".join(words[max(start, 0):end])
        if start >= 0 and phrase in BOUND_WORDS and not ambiguous(phrase, unit):
            return phrase, start
    return "", end


def _spans_time(word: str) -> bool:
    """Whether ``word`` is a unit of time ("days", "months")."""
    return UNITS.get(word) in TIME_UNITS


def ambiguous(phrase: str, unit: str | None) -> bool:
    """"over" before a span of time may be no bound ("repaid over 20 years": during them); it
    is then read as a word, and the number as exact."""
    return phrase == "over" and unit in TIME_UNITS


def mismatch(claim: Amount, source: Amount) -> str:
    """Why ``claim`` is not stated by ``source``, in words."""
    said = f"the claim says {describe(claim)}, the source {describe(source)}"
    if RANGE in (claim.role, source.role) and claim.role != source.role:
        return f"{said}: an end of a range is not a value of its own"
    if claim.role and source.role and claim.role != source.role:
        return f"{said}: where it began is not where it ended"
    if claim.role != source.role:
        return f"{said}: not the same number ('from' and 'to' say where it began or ended)"
    if not claim.comparable(source):
        money_ = money.is_currency(claim.unit) and money.is_currency(source.unit)
        return f"{said}: another {'currency' if money_ else 'unit'}"
    if claim.conflicts(source):
        return f"{said}: another value"
    if claim.unit is not None and source.unit is None:
        return f"{said}: the source gives no {'currency' if money.is_currency(claim.unit) else 'unit'}"
    low, high, _, _ = claim.interval()
    s_low, s_high, _, _ = source.interval()
    if high - low < s_high - s_low:
        return f"{said}: the source is less precise"
    return f"{said}: the source does not settle it"


def describe(number: Amount) -> str:
    """How a reason names what a number allows ("about 48,000 (47,500 to 48,500)"; "to 6%"
    where a change ended)."""
    text = f"{number.role} {number.text}" if number.role not in ("", RANGE) else number.text
    if number.bound in ("", "over", "at least", "under", "at most"):
        return repr(text)
    low, high, _, _ = number.interval()
    _, factor, offset = number.base
    return (f"{text!r} ({_figure((low - offset) / factor)} to "
            f"{_figure((high - offset) / factor)})")


def _figure(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.6g}"
