"""What the HTML report marks in an evidence passage: the clause that lines up with the sentence
(the rule checker's alignment, ``best_alignment``, as the local judge reads it) and, in it, the
words that decide: the numbers, dates and names the sentence says too, marked ``same``, and,
only for a sentence that is not supported, the number the rules found in place of the
sentence's own (another value of the same kind: "About 6 million" against the sentence's
"About 9 million"), marked ``differs``. A number the sentence does not state is not marked.

This is for the reader's eye, whatever judge gave the verdict: it shows where to look, not why
the judge decided. A passage the rules cannot line up with the sentence is shown unmarked.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ..rules.alignment import Alignment, best_alignment, read
from ..rules.tokens import Token, holding_most, located
from ..text.sentences import split_sentences
from ..types import SUPPORTED

DECIDING = ("number", "name")  # token kinds whose value decides a verdict


@dataclass(frozen=True)
class Run:
    """A stretch of the passage: ``aligned`` inside the clause that lines up with the sentence;
    ``mark`` "same" or "differs" for a deciding word, else None."""

    text: str
    aligned: bool = False
    mark: str | None = None


def marked(sentence: str, passage: str, label: str | None = None) -> list[Run]:
    """``passage`` cut into runs (every character once, in order) with the clauses that line up
    with ``sentence`` and their deciding words marked; ``label``: the sentence's verdict (no
    number is marked as another for a supported one)."""
    claims = [clause for clause in read(sentence) if any(t.content for t in clause)]
    units = read(passage) if claims else []
    if not units:
        return [Run(passage)]
    sentences = split_sentences(passage)
    spans: list[tuple[int, int]] = []
    marks: dict[tuple[int, int], str] = {}
    for claim in claims:
        alignment = best_alignment(claim, units)
        own = [t for t in alignment.stated if not t.referent] if alignment else []
        best = holding_most([s.text for s in sentences], own)
        if alignment is None or best is None:
            continue
        where = sentences[best[0]]
        found = [(t, (where.start + a, where.start + b)) for t, (a, b) in best[1]]
        clause = located(where.text, [t for t in alignment.clause if not t.referent],
                         in_order=True) or best[1]
        start = clause[0][1][0]
        pronoun = next((t.referent for t in alignment.clause if t.referent), None)
        if pronoun:  # "It was finished in 1889": from the pronoun the subject was read for
            start = min([a for _, (a, _) in located(where.text[:start], [Token(
                pronoun, pronoun, "word")])] + [start])
        spans.append((where.start + start, where.start + clause[-1][1][1]))
        for token, at in found:
            if token.kind in DECIDING:
                marks[at] = "same"
        if label != SUPPORTED:
            for token in _rivals(alignment):
                for _, (a, b) in located(where.text, [token]):
                    marks[(where.start + a, where.start + b)] = "differs"
    return _runs(passage, spans, marks)


def _rivals(alignment: Alignment) -> list[Token]:
    """The evidence's numbers that stand where the claim says another of the same kind: the
    other value of an explicit conflict, or a number in the slot of a claim's number it does
    not state."""
    if alignment.rival is not None:
        return [alignment.rival] if alignment.rival.kind == "number" else []
    return [theirs for mine, theirs in alignment.instead
            if mine.amount and theirs.amount and mine.amount.comparable(theirs.amount)
            and not mine.amount.stated_by(theirs.amount)]


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
