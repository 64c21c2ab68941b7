"""Which of two named people was born first, proven by one statement of each.

A question may ask to choose between two names by when each was born ("Who was born first,
Pablo Trapero or Aleksander Ford?", "Who is older, Glenn Hughes or Ross Lynch?"). No one
statement holds the answer: it is a comparison of two values of one kind, each held by one
statement, the date of birth a source gives in the brackets after the name ("Aleksander Ford
(born Mosze Lifszyc; 24 November 1908 in Kiev – 4 April 1980 ...)", "Glenn Hughes (born 21
August 1951)", "Francis Nethersole (1587–1659)"). ``compare`` reads both dates and says
whether the answer's name is the one the question asks for.

It decides only where the question asks only that (``_asked``), the answer says only the name
and that order (``_only_picks``), and both dates are read plainly: a name written as the
question writes it, no capitalised word before it, up to two capitalised words between its
first and last ("Ross Shor Lynch", "Kerkor "Kirk" Kerkorian"; ``_named``), in a sentence a
proof may stand on, its brackets giving a date of birth in one of a few plain forms
(``_date_of_birth``). Two dates of one year decide only with their months (and days, where the
months are one). Anything else is no decision: the answer is judged as it is written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ..text.questions import choice
from ..text.word_forms import MONTH_OF, fold
from ..types import Evidence
from .checker import plain_sentences
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
    names = choice(question)
    asked = _asked(question, names)
    if asked is None or names is None:
        return None
    picked = [n for n in names if _named(n).search(_plain(answer))]
    if len(picked) != 1 or not _only_picks(answer, picked[0], asked):
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


def _asked(question: str, names: tuple[str, str] | None) -> str | None:
    """"earlier" or "later": whom the question asks for, by birth; None where it asks
    something else. The question before its choice says only that: a wh-word (and the noun
    after "which"), "is" or "was", "born", "the", and one word of order ("first", "earlier",
    "older", "younger", "later"): "Whose mother was born first", "Who was first born in
    Canada" and "Who wasn't born first" ask something else."""
    if names is None:
        return None
    asking = fold(question).lower().split(names[0].lower())[0]
    words = re.findall(r"[a-z']+", asking)
    if words[:1] == ["which"] and len(words) > 1:
        words = words[:1] + words[2:]  # "which director"
    poles = [pole for w in words for key, pole in concepts(w) if key in _ORDERS]
    if len(poles) != 1 or not ("born" in words or words.count("older") + words.count(
            "younger") == 1) or any(w not in _ASKING and not any(
                key in _ORDERS for key, _ in concepts(w)) for w in words):
        return None
    return "later" if poles[0] else "earlier"


_ASKING = frozenset(("who", "which", "is", "was", "born", "the"))  # words of the question


def _plain(text: str) -> str:
    """``text`` with its quotes folded and taken out ("Kerkor "Kirk" Kerkorian")."""
    return fold(text).replace('"', " ")


def _parts(name: str) -> list[str]:
    """The words of ``name``; none for one longer than a name is ("A A A ... B")."""
    parts = re.findall(r"[^\W\d_][\w.'-]*", _plain(name))
    return parts if len(parts) <= _LONGEST_NAME else []


_LONGEST_NAME = 6  # words


def _named(name: str, brackets: bool = False) -> re.Pattern[str]:
    """A pattern for ``name`` as a text writes it: its first and last words, in any case, with
    up to two capitalised words between (a middle name, a nickname out of its quotes: "Ross
    Shor Lynch", "Kerkor Kirk Kerkorian"), not lower-case ones ("Paul praised Adam Smith" does
    not name Paul Smith); with ``brackets``, and the brackets after it, their text a group.
    Matches nothing for no name."""
    parts = _parts(name)
    if not parts:
        return re.compile(r"(?!)")
    first, last = re.escape(parts[0]), re.escape(parts[-1])
    between = rf"(?:\s+(?-i:[A-Z])[\w.'-]*){{0,2}}?\s+{last}" if len(parts) > 1 else ""
    after = r"\s*\(([^()]*)\)" if brackets else r"(?![\w-])"
    return re.compile(rf"(?<![\w-]){first}{between}{after}", re.IGNORECASE)


def _only_picks(answer: str, name: str, asked: str) -> bool:
    """Whether ``answer`` is the name alone or says of it only what the question asks ("X was
    born first.", "X is older."): no other words, nor the order the other way round ("X is
    younger" to "Who is older")."""
    rest = re.sub(r'"[^"]*"', " ", fold(answer)).lower()  # a nickname in quotes
    for part in _parts(name):
        rest = rest.replace(part.lower(), " ", 1)
    for word in re.findall(r"[a-z]+", rest):
        poles = [pole for key, pole in concepts(word) if key in _ORDERS]
        if word not in ("was", "is", "born") and poles != [asked == "later"]:
            return False
    return True


def _born(name: str, evidence: Sequence[Evidence]) -> _Born | None:
    """The date of birth the sources give in the brackets after ``name``, in a sentence a proof
    may stand on (``checker.plain_sentences``: not quoted, framed or under a heading); None
    where none, or more than one, is read plainly (``_date_of_birth``)."""
    named = _named(name, brackets=True)  # matches nothing for no name
    found = []
    for passage, sentence in plain_sentences(evidence):
        text = _plain(sentence)
        for match in named.finditer(text):
            before = text[:match.start()].split()
            if before and before[-1][:1].isupper():
                continue  # the name opens there: "Maria Anna Berg" is not "Anna Berg"
            when = _date_of_birth(match[1])
            if when is not None:
                found.append(_Born(when, match[1].strip(), passage))
    dates = {b.when for b in found}
    return found[0] if len(dates) == 1 else None


def _date_of_birth(brackets: str) -> tuple[int, int | None, int | None] | None:
    """The date of birth that ``brackets`` give plainly: one part of them (between ";") that is
    "born" and a date, or a span of two dates, each with a place after it or none ("born 24
    November 1908 in Kiev – 4 April 1980", "1587–1659"); any other part "died" and a date, a
    name at birth or words with no number and no word of a date ("Greek: ...", "born Mosze
    Lifszyc"). None for
    anything else: a span that is no lifespan ("reigned 1509–1547"), a date that is unsure
    ("born 1901 or 1902", "born c. 1900", "born 1900?"), a birth date said to be disputed, a
    date of someone else ("mother of Erik, born 1980"), a year before Christ."""
    dated = []
    for part in brackets.split(";"):
        part = part.strip().replace("–", "-").replace("—", "-")
        if found := _LIFE.fullmatch(part):
            if not found["died"]:  # "died 2020": when the life ended
                dated.append(found)
        elif re.search(r"\d", part) or (set(re.findall(r"[a-z]+", part.lower()))
                                        & {"birth", "date", "died", "death"}) or (
                "born" in part.lower() and not re.fullmatch(r"born(?:\s+[A-Z]\S*)+", part)):
            return None
    if len(dated) != 1:
        return None
    return _first_date(dated[0]["birth"] or dated[0]["span"])


def _first_date(text: str) -> tuple[int, int | None, int | None]:
    """The year of a date of ``_DATE``'s forms, and its month and day where it gives them."""
    if iso := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text):
        return int(iso[1]), int(iso[2]), int(iso[3])
    words = re.findall(r"[^\W_]+", text)
    month = next((MONTH_OF[w.lower()] for w in words if w.lower() in MONTH_OF), None)
    numbers = [int(w) for w in words if w.isdigit()]
    return numbers[-1], month, numbers[0] if len(numbers) == 2 else None


_MONTH = "|".join(sorted((m for m in MONTH_OF if m.isalpha() and len(m) > 2), key=len,
                         reverse=True))
_DATE = (rf"\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}\s+(?:{_MONTH})\.?\s+\d{{3,4}}"
         rf"|(?:{_MONTH})\.?\s+\d{{1,2}},?\s+\d{{3,4}}|(?:{_MONTH})\.?\s+\d{{3,4}}|\d{{3,4}}")
_PLACE = r"(?:,?\s+in\s+[^\d;-]+?)?"
# "born DATE [in PLACE] [- DATE [in PLACE]]", "DATE [in PLACE] - DATE [in PLACE]", or a part
# that says when the life ended, "died DATE [in PLACE]"
_LIFE = re.compile(rf"(?:born\s+(?P<birth>{_DATE}){_PLACE}(?:\s*-\s*(?:{_DATE}){_PLACE})?"
                   rf"|(?P<span>{_DATE}){_PLACE}\s*-\s*(?:{_DATE}){_PLACE}"
                   rf"|(?P<died>died)\s+(?:{_DATE}){_PLACE})",
                   re.IGNORECASE)


def _before(a: tuple[int, int | None, int | None], b: tuple[int, int | None, int | None]
            ) -> bool | None:
    """Whether date ``a`` is before ``b``; None where what is read does not tell."""
    for x, y in zip(a, b, strict=True):
        if x is None or y is None:
            return None
        if x != y:
            return x < y
    return None  # the same day
