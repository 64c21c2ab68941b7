"""What the HTML report marks in an evidence passage: the clause that lines up with the sentence
(the rule checker's alignment) and, in it, the words that decide: its numbers, dates and names
marked ``same`` when the sentence says them too, and its numbers and dates the sentence does not
say marked ``differs`` ("about 6 million" against the sentence's "about 9 million"; a number is
the same when it states what the sentence's allows, as the rules read it).

This is for the reader's eye, whatever judge gave the verdict: it shows where to look, not why
the judge decided. A passage the rules cannot line up with the sentence is shown unmarked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from ..rules.alignment import Alignment, Clause, align, read

DECIDING = ("number", "name")  # token kinds whose value decides a verdict


@dataclass(frozen=True)
class Run:
    """A stretch of the passage: ``aligned`` inside the clause that lines up with the sentence;
    ``mark`` "same" or "differs" for a deciding word, else None."""

    text: str
    aligned: bool = False
    mark: str | None = None


def marked(sentence: str, passage: str) -> list[Run]:
    """``passage`` cut into runs (every character once, in order) with its aligned clauses and
    deciding words marked against ``sentence``."""
    claims = [clause for clause in read(sentence) if any(t.content for t in clause)]
    units = read(passage) if claims else []
    if not units:
        return [Run(passage)]
    spans: list[tuple[int, int]] = []
    marks: dict[tuple[int, int], str] = {}
    for claim in claims:
        unit, alignment = max(((u, align(claim, u)) for u in units),
                              key=lambda pair: _rank(pair[1]))
        if not alignment.matched:
            continue
        said = {t.form for t in claim if t.kind in DECIDING}
        amounts = [t.amount for t in claim if t.amount]
        found = _located(passage, unit)
        if not found:
            continue
        span = _within_sentence(passage, found[0][1][0], found[-1][1][1])
        spans.append(span)
        for token, where in found:
            if where[0] < span[0]:
                continue
            if token.form in said if not token.amount else any(
                    a.stated_by(token.amount) for a in amounts):
                marks[where] = "same"
            elif token.kind == "number":  # another name is no conflict; another number may be
                marks[where] = "differs"
    return _runs(passage, spans, marks)


def _rank(found: Alignment) -> tuple[bool, bool, int]:
    """The rule checker's order of evidence clauses: aligned, then in explicit conflict, then
    the most words matched."""
    return found.aligned, found.conflict is not None, found.matched


def _located(passage: str, unit: Clause) -> list[tuple]:
    """(token, (start, end)) for each token of ``unit`` found in ``passage``, searching on from
    the previous one; a clause's tokens are its words as written, but not every word (a pronoun
    may stand for a name, "3" for "three"), so a token not found is skipped."""
    found, at = [], 0
    for token in unit:
        if not token.text.strip():
            continue
        # whole words only: a "2" (for "second") is not the 2 of "276"
        where = re.compile(rf"(?<!\w){re.escape(token.text)}(?!\w)", re.I).search(passage, at)
        if where is None:
            continue
        found.append((token, where.span()))
        at = where.end()
    return found


_SENTENCE_END = re.compile(r"[.!?]\s+")


def _within_sentence(passage: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) begun no earlier than the sentence ``end`` lies in: a clause whose subject
    was a pronoun ("It was finished in 1889") is read with the name it stands for, found in
    the sentence before, which is not part of what lines up."""
    ends = [m.end() for m in _SENTENCE_END.finditer(passage, start, end)]
    return (ends[-1] if ends else start), end


def _runs(passage: str, spans: list[tuple[int, int]], marks: dict[tuple[int, int], str]
          ) -> list[Run]:
    cuts = sorted({0, len(passage)} | {i for span in (*spans, *marks) for i in span})
    runs = []
    for start, end in pairwise(cuts):
        aligned = any(low <= start and end <= high for low, high in spans)
        mark = next((kind for (low, high), kind in marks.items()
                     if low <= start and end <= high), None)
        runs.append(Run(passage[start:end], aligned, mark))
    return runs
