"""The control statement: one statement per judge call that the call's own passages plainly
contradict, placed among the others, so that a judge that calls everything supported (a
careless small model, a reply steered by text planted in the sources) is caught in the act.

It is, half the time, a passage sentence's subject joined to another's predicate, which no
passage states; otherwise (and where that makes none) a sentence of one of the call's passages
with one number or date changed (or, where no passage has one, a name changed for another name
of the passages), cut after the clause that
holds the change where that still reads as a statement (what a control costs is mostly its own
words), kept only if the rule checker finds it contradicted by that passage: a judge that reads
the passages cannot call it supported. Of the candidates, the one nearest in length to a
statement of the call is taken, and it names the passages a neighbouring statement names. Its
place among the statements and the passage it comes from are drawn from the call's own
content, so the same call is the same prompt (the reply caches hold) and the model cannot tell
it from its neighbours by position.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.sentences import split_sentences
from ..types import CONTRADICTED, SUPPORTED, Evidence
from .base import Item

# What a verdict's ``control`` says of its call (None: the judge carries no controls).
ANSWERED = "answered"  # the call held a control, and the judge did not call it supported
NO_PASSAGE = "none: no passage of the call has a number, date or name to change"
CAUGHT = ("the judge called supported a control statement its passages contradict (a number, "
          "date or name changed in one of them), so none of that call's verdicts is used")
UNANSWERED = "the judge's reply gave no readable verdict for the call's control statement"

_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{2,}\b")  # a capitalised word inside a sentence
_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w]|[.,]\d)|(?<![\w.,])\d+(?![\w]|[.,]\d)")
_WORDS = (4, 40)  # a control is a sentence of this many words: as long as a statement is
# Where a clause ends: a comma, semicolon, colon, closing bracket or dash, then a space.
_CLAUSE_END = re.compile(r"(?<=[,;:)])\s|\s[–—-]\s")
_TRIED = 8  # sentences tried (each checked by the rules) before the call goes without


@dataclass(frozen=True)
class Control:
    """A control statement, the passage it contradicts, and its place among the statements."""

    statement: str
    evidence: Evidence
    at: int


def control_for(items: Sequence[Item]) -> Control | None:
    """A control for a call judging ``items``: a sentence of one of their passages with a
    number changed (else a name), contradicted by that passage by the rules; None when no
    passage has one that is."""
    draw = random.Random(hashlib.sha256(repr([(claim, [e.text for e in evidence])
                                               for claim, evidence in items]).encode(
        "utf-8", "surrogatepass")).digest())
    passages = list({e.text: e for _, evidence in items for e in evidence}.values())
    sentences = [(e, s.text) for e in passages for s in split_sentences(e.text)
                 if _WORDS[0] <= len(s.text.split()) <= _WORDS[1]]
    names = sorted({name for _, sentence in sentences for name in _NAME.findall(sentence)})
    # a control of another shape, half the time and first: a passage sentence's subject with
    # another's predicate, which no passage states (a judge that calls "contradicted" whatever
    # copies a passage with one word changed, and "supported" the rest, meets one it cannot
    # tell from a statement)
    if draw.random() < 0.5:
        mixed = _recombined(sentences, passages, draw)
        if mixed is not None:
            return Control(mixed[0], mixed[1], draw.randint(0, len(items)))
    for change, holds in ((_changed, _NUMBER), (_renamed, _NAME)):
        candidates = [(e, sentence) for e, sentence in sentences if holds.search(sentence)]
        draw.shuffle(candidates)
        made = []  # (statement, evidence): each candidate changed, cut and whole
        for evidence, sentence in candidates[:_TRIED]:
            changed = change(sentence, names, draw)
            if changed is not None:
                made += [(cut, evidence) for cut in (_cut(*changed), changed[0]) if cut]
        # the one nearest in length to a statement of the call that the rules find
        # contradicted: neither the shortest nor the longest of the call, by its length alone
        target = len(draw.choice(items)[0])
        for statement, evidence in sorted(made, key=lambda each: abs(len(each[0]) - target)):
            if _contradicted(statement, evidence):
                return Control(statement, evidence, draw.randint(0, len(items)))
    return None


def _cut(statement: str, at: int) -> str | None:
    """``statement`` up to the end of the clause that holds its change (which ends at ``at``),
    as a sentence: None when that is the whole of it, or too short to read as one."""
    end = _CLAUSE_END.search(statement, at)
    if end is None:
        return None
    kept = statement[:end.start()].rstrip(",;:–—- ")
    if len(kept.split()) < _WORDS[0] or not kept[-1:].isalnum() and kept[-1:] != ")":
        return None
    return kept + "."


def ready() -> None:
    """Load what making a control needs (the rules, their stemmer: seconds, once a process),
    so that a judge that makes them pays it when it is built, not in its first validation's
    deadline."""
    control_for([("It opened in 1900.", [Evidence("The hall opened in 1900 in the town.")])])


def _changed(sentence: str, names: Sequence[str],
             draw: random.Random) -> tuple[str, int] | None:
    """``sentence`` with one of its numbers changed (a year by a few years, any other number
    by about a third, never to itself), and where the change ends; None when it has none."""
    found = list(_NUMBER.finditer(sentence))
    if not found:
        return None
    match = draw.choice(found)
    value = int(match.group().replace(",", ""))
    if 1000 <= value <= 2100 and "," not in match.group():
        new = value + draw.choice((-1, 1)) * draw.randint(2, 9)
    else:
        new = value + max(1, round(value * draw.uniform(0.25, 0.6)))
    written = f"{new:,}" if "," in match.group() else str(new)
    return (sentence[:match.start()] + written + sentence[match.end():],
            match.start() + len(written))


def _renamed(sentence: str, names: Sequence[str],
             draw: random.Random) -> tuple[str, int] | None:
    """``sentence`` with a name in it (a capitalised word inside it) changed for another name
    of the call's passages, and where the change ends; None when it has none, or the passages
    have no other."""
    found = list(_NAME.finditer(sentence))
    others = [name for name in names if name not in sentence]
    if not found or not others:
        return None
    match, other = draw.choice(found), draw.choice(others)
    return (sentence[:match.start()] + other + sentence[match.end():],
            match.start() + len(other))


_PREDICATE = re.compile(r"\s(?:is|was|are|were|has|had|have)\s")  # where a subject ends
_SUBJECT_NAME = re.compile(r"(?<=\w )[A-Z][\w'-]{2,}|^(?!(?:The|A|An|It|This|These|Those|Its|He|"
                           r"She|They|There)\b)[A-Z][\w'-]{2,}")


def _recombined(sentences: Sequence[tuple[Evidence, str]], passages: Sequence[Evidence],
                draw: random.Random) -> tuple[str, Evidence] | None:
    """A statement of one passage sentence's subject and another's predicate that holds a
    figure ("The Louvre" + "has a height of 8,849 metres."; "The Louvre" + "is in Paris" could be
    true of both), with the passage of its subject, that the rules find no passage states;
    None when none is."""
    # a subject that names something ("The Louvre", "Mount Everest"), and a predicate with a
    # figure from a sentence about another thing: of another passage (its "It" is that
    # passage's thing), or naming another thing
    split = [(e, sentence[:m.start()], sentence[m.start():]) for e, sentence in sentences
             if (m := _PREDICATE.search(sentence)) is not None and 1 <= m.start() < 60]
    subjects = [(e, subject) for e, subject, _ in split if _SUBJECT_NAME.search(subject)]
    predicates = [(e, subject, predicate) for e, subject, predicate in split
                  if _NUMBER.search(predicate)]
    draw.shuffle(subjects)
    draw.shuffle(predicates)
    for evidence, subject in subjects[:_TRIED]:
        names = set(_SUBJECT_NAME.findall(subject))
        for other_evidence, other, predicate in predicates[:_TRIED]:
            named = set(_SUBJECT_NAME.findall(other))
            if names & named or not (named or other_evidence.text != evidence.text):
                continue
            statement = subject + predicate.rstrip()
            if not statement.endswith((".", "!")):
                statement += "."
            if _WORDS[0] <= len(statement.split()) <= _WORDS[1] and _unstated(statement,
                                                                               passages):
                return statement, evidence
    return None


def _unstated(statement: str, passages: Sequence[Evidence]) -> bool:
    from .local import LocalJudge

    return LocalJudge().decide(statement, list(passages))[0] != SUPPORTED


def _contradicted(statement: str, evidence: Evidence) -> bool:
    from .local import LocalJudge  # the rules: imported with the first control

    return LocalJudge().decide(statement, [evidence])[0] == CONTRADICTED
