"""Which of two named people was born first, proven by one statement of each.

A question may ask to choose between two names by when each was born ("Who was born first,
Pablo Trapero or Aleksander Ford?", "Who is older, Glenn Hughes or Ross Lynch?"). No one
statement holds the answer: it is a comparison of two values of one kind, each held by one
statement, the date of birth a source gives in the brackets after the name ("Aleksander Ford
(born Mosze Lifszyc; 24 November 1908 in Kiev – 4 April 1980 ...)", "Glenn Hughes (born 21
August 1951)", "Sir Francis Nethersole (1587–1659)"). ``compare`` reads both dates and says
whether the answer's name is the one the question asks for.

It decides only where both dates are read plainly: a name written as the question writes it
(a middle name or a nickname in quotes between may be added, "Ross Shor Lynch", "Kerkor
"Kirk" Kerkorian"), brackets right after it with "born" or a span of years, a year in each,
and no "c.", "ca." or "circa" before one. Two dates of one year decide only with their months
(and days, where the months are one). Anything else is no decision: the answer is judged as it
is written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ..text.questions import choice
from ..text.word_forms import MONTH_OF, fold
from ..types import Evidence
from .quantities import HEDGES
from .word_lists import concepts

# the concepts whose first pole is "born before": "first"/"last", "earlier"/"later",
# "older"/"younger" (``word_lists.concepts``)
_ORDERS = ("~first", "~before", "~older")


class Compared(NamedTuple):
    """A comparison decided: whether the answer's name is the one asked for, and why."""

    holds: bool
    reason: str
    basis: int  # the passage that gives the answer's date


class _Born(NamedTuple):
    when: tuple[int, int | None, int | None]  # year, month, day
    text: str  # the brackets, as written
    passage: int


def compare(answer: str, evidence: Sequence[Evidence], question: str) -> Compared | None:
    """Whether ``answer`` names the one of the question's two names it asks for by birth
    (see the module's docstring); None where the question asks no such thing, the answer
    names neither or both, or a date is not read plainly."""
    asked = _asked(question)
    names = choice(question)
    if asked is None or names is None:
        return None
    picked = [n for n in names if _names(answer, n)]
    if len(picked) != 1 or not _only_picks(answer, picked[0]):
        return None
    mine, other = picked[0], names[1] if picked[0] == names[0] else names[0]
    born = [_born(name, evidence) for name in (mine, other)]
    if born[0] is None or born[1] is None:
        return None
    order = _before(born[0].when, born[1].when)
    if order is None:
        return None
    holds = order if asked == "earlier" else not order
    first, second = (mine, other) if order else (other, mine)
    said = f"{mine} ({_short(born[0].text)}) and {other} ({_short(born[1].text)})"
    return Compared(holds, f"the sources give {said}: {first} was born before {second}",
                    born[0].passage)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + "..."


def _asked(question: str) -> str | None:
    """"earlier" or "later": whom the question asks for, by birth; None where it asks
    something else."""
    words = set(re.findall(r"[a-z]+", fold(question).lower()))
    poles = {(key, pole) for w in words for key, pole in concepts(w) if key in _ORDERS}
    born = "born" in words or any(key == "~older" for key, _ in poles)
    if not born or "not" in words:
        return None
    earlier, later = any(not pole for _, pole in poles), any(pole for _, pole in poles)
    return None if earlier == later else "earlier" if earlier else "later"


def _plain(text: str) -> str:
    """``text`` with its quotes folded and taken out ("Kerkor "Kirk" Kerkorian")."""
    return fold(text).replace('"', " ")


def _parts(name: str) -> list[str]:
    """The words of ``name``; none for one longer than a name is ("A A A ... B")."""
    parts = re.findall(r"[^\W\d_][\w.'-]*", _plain(name))
    return parts if len(parts) <= _LONGEST_NAME else []


_LONGEST_NAME = 6  # words


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names ``name``: its first and last words, in order, with at most a
    middle name or a nickname between."""
    parts = _parts(name)
    if not parts:
        return False
    first, last = re.escape(parts[0]), re.escape(parts[-1])
    between = rf"(?:\s+\S+){{0,{len(parts)}}}\s+"  # a middle name or a nickname
    pattern = first if len(parts) == 1 else first + between + last
    return re.search(r"(?<![\w-])" + pattern + r"(?![\w-])", _plain(text)) is not None


def _only_picks(answer: str, name: str) -> bool:
    """Whether ``answer`` is the name alone or says of it only what the question asks ("X was
    born first.", "X is older."): no other words that could say something else."""
    rest = re.sub(r'"[^"]*"', " ", fold(answer)).lower()  # a nickname in quotes
    for part in _parts(name):
        rest = rest.replace(part.lower(), " ", 1)
    return all(w in ("was", "is", "born") or any(key in _ORDERS for key, _ in concepts(w))
               for w in re.findall(r"[a-z]+", rest))


def _born(name: str, evidence: Sequence[Evidence]) -> _Born | None:
    """The date of birth the sources give in the brackets after ``name``; None where none, or
    more than one, is read plainly."""
    parts = _parts(name)
    if not parts:
        return None
    first, last = re.escape(parts[0]), re.escape(parts[-1])
    between = rf"(?:\s+\S+){{0,{len(parts)}}}?\s+{last}" if len(parts) > 1 else ""
    named = re.compile(rf"(?<![\w-]){first}{between}\s*\(([^()]*)\)")
    found = []
    for passage, e in enumerate(evidence):
        for match in named.finditer(_plain(e.text)):
            inside = match[1]
            words = re.findall(r"\w+", inside.lower())
            if "born" not in words and not re.search(r"\d{3,4}\s*[–-]", inside):
                continue
            when = _first_date(inside)
            if when is not None:
                found.append(_Born(when, inside.strip(), passage))
    dates = {b.when for b in found}
    return found[0] if len(dates) == 1 else None


def _first_date(text: str) -> tuple[int, int | None, int | None] | None:
    """The first date in ``text`` after "born", if it says "born", else the first: its year,
    and its month and day where they stand beside it; None where it is approximate."""
    words = re.findall(r"[^\W_]+", text)
    lowered = [w.lower() for w in words]
    start = lowered.index("born") + 1 if "born" in lowered else 0
    for k in range(start, len(words)):
        if not re.fullmatch(r"1\d{3}|20\d{2}", words[k]):
            continue
        if any(w in HEDGES or w == "c" for w in lowered[max(start, k - 3):k]):
            return None  # "ca. 1959"
        month = day = None
        for j in (k - 1, k - 2):
            if j >= start and lowered[j] in MONTH_OF:
                month = MONTH_OF[lowered[j]]
                near = [words[i] for i in (j - 1, j + 1) if start <= i < k and i != j]
                days = [int(w) for w in near if w.isdigit() and 1 <= int(w) <= 31]
                day = days[0] if days else None
                break
        return int(words[k]), month, day
    return None


def _before(a: tuple[int, int | None, int | None], b: tuple[int, int | None, int | None]
            ) -> bool | None:
    """Whether date ``a`` is before ``b``; None where what is read does not tell."""
    for x, y in zip(a, b, strict=True):
        if x is None or y is None:
            return None
        if x != y:
            return x < y
    return None  # the same day
