"""The control statement: one statement per judge call that the call's own passages plainly
contradict, placed among the others, so that a judge that calls everything supported (a
careless small model, a reply steered by text planted in the sources) is caught in the act.

It is a sentence of one of the call's passages with one number or date changed, kept only if
the rule checker finds it contradicted by that passage: a judge that reads the passages cannot
call it supported. Its place among the statements and the passage it comes from are drawn from
the call's own content, so the same call is the same prompt (the reply caches hold) and the
model cannot tell it from its neighbours by position.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.sentences import split_sentences
from ..types import CONTRADICTED, Evidence
from .base import Item

# What a verdict's ``control`` says of its call (None: the judge carries no controls).
ANSWERED = "answered"  # the call held a control, and the judge did not call it supported
NO_PASSAGE = "none: no passage of the call has a number or date to change"
ALONE = "none: asked alone (the judge takes one statement per call)"
CAUGHT = ("the judge called supported a control statement its passages contradict (a number "
          "changed in one of them), so none of that call's verdicts is used")
UNANSWERED = "the judge's reply gave no readable verdict for the call's control statement"

_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w,]|\.\d)|(?<![\w.,])\d+(?![\w,]|\.\d)")
_WORDS = (4, 40)  # a control is a sentence of this many words: as long as a statement is
_TRIED = 8  # sentences tried (each checked by the rules) before the call goes without


@dataclass(frozen=True)
class Control:
    """A control statement, the passage it contradicts, and its place among the statements."""

    statement: str
    evidence: Evidence
    at: int


def control_for(items: Sequence[Item]) -> Control | None:
    """A control for a call judging ``items``: a sentence of one of their passages with a
    number changed, contradicted by that passage by the rules; None when no passage has one."""
    draw = random.Random(hashlib.sha256(repr([(claim, [e.text for e in evidence])
                                               for claim, evidence in items]).encode(
        "utf-8", "surrogatepass")).digest())
    passages = list({e.text: e for _, evidence in items for e in evidence}.values())
    candidates = [(e, s.text) for e in passages for s in split_sentences(e.text)
                  if _WORDS[0] <= len(s.text.split()) <= _WORDS[1] and _NUMBER.search(s.text)]
    draw.shuffle(candidates)
    for evidence, sentence in candidates[:_TRIED]:
        statement = _changed(sentence, draw)
        if statement is not None and _contradicted(statement, evidence):
            return Control(statement, evidence, draw.randint(0, len(items)))
    return None


def _changed(sentence: str, draw: random.Random) -> str | None:
    """``sentence`` with one of its numbers changed: a year by a few years, any other number
    by about a third (never to itself)."""
    found = list(_NUMBER.finditer(sentence))
    match = draw.choice(found)
    value = int(match.group().replace(",", ""))
    if 1000 <= value <= 2100 and "," not in match.group():
        new = value + draw.choice((-1, 1)) * draw.randint(2, 9)
    else:
        new = value + max(1, round(value * draw.uniform(0.25, 0.6)))
    written = f"{new:,}" if "," in match.group() else str(new)
    return sentence[:match.start()] + written + sentence[match.end():]


def _contradicted(statement: str, evidence: Evidence) -> bool:
    from .local import LocalJudge  # the rules: imported with the first control

    return LocalJudge().decide(statement, [evidence])[0] == CONTRADICTED
