"""Refusals: a sentence that says the sources hold no answer ("No document says how tall it
is") states nothing about the world, so it is judged by what it says is missing.

A sentence is a refusal only when every clause of it is one: "It was painted gold in 2024,
although no source mentions this." claims the gold paint, and a disclaimer beside a claim
excuses nothing. Such a sentence is judged by its claim alone (``claim_part``): the disclaimer
is taken off, so that no judge reads "the sources lack this" as a statement it can support.
"""

from __future__ import annotations

import re

from .cues import PLACES, REFUSES
from .grammar import (
    ARTICLES,
    CLAUSE_OPENERS,
    COORDINATORS,
    DEMONSTRATIVES,
    DO,
    INTERROGATIVES,
    NEGATIONS,
    RELATIVES,
)
from .word_forms import TERM

# The words of a refusal's own frame: where it looked and what it says they do not do ("The
# documents don't say when ..."), none of them what it asks about.
_REFUSAL_WORDS = re.compile(
    rf"\b(?:{PLACES}|says?|states?|mentions?|answers?|gives?|contains?|provides?|"
    r"specif(?:y|ies)|available|provided)\b",
    re.IGNORECASE,
)
# Where one clause of a sentence ends and another begins: punctuation (not inside "7:15" or
# "1,200"), or a joining word.
_CLAUSES = re.compile(r"\s*(?:[;()\u2013\u2014]|[,:](?!\d))\s*|\s+-\s+|\s+(?=(?:but|although|though|yet|"
                      r"while|whereas|however|except|which)\b)", re.IGNORECASE)
# Words that say nothing of their own in a clause beside a refusal ("so", "but this").
_EMPTY = CLAUSE_OPENERS | COORDINATORS | ARTICLES | DEMONSTRATIVES | RELATIVES | {
    "except", "it", "here", "there"}


# The words that only ask, not what is asked about: "when", "how many"; and before them (or
# at the start) the refusal's own denial and do-support: "No", "do not", "did".
_ASKING = INTERROGATIVES | {"many", "much"}
_FRAME = NEGATIONS | DO | {"nothing"}


def refusal_topic(text: str) -> str:
    """What a refusal says is not answered: "No document says how tall it is" -> "tall it
    is"."""
    return asked_about(_REFUSAL_WORDS.sub(" ", text))


def asks_which(text: str) -> bool:
    """Whether ``text`` asks which one ("when", "how many", "who"), not whether."""
    return any(w.lower().strip(",.;:?!") in INTERROGATIVES for w in text.split())


def asked_about(text: str) -> str:
    """What a question or a refusal asks about, for a passage to cover: ``text`` without the
    words that only ask ("When did the museum open?" -> "the museum open?"), nor the denial
    and do-support before them; a negation in what is asked stays ("Who did not attend?" ->
    "not attend?")."""
    words = text.split()
    bare = [w.lower().strip(",.;:?!") for w in words]
    first = next((k for k, w in enumerate(bare) if w in _ASKING), None)
    if first is None:  # "No   the museum was painted blue": the denial that opens it
        first = next((k for k, w in enumerate(bare) if w and not _framing(w)), len(words))
    return " ".join(w for k, (w, b) in enumerate(zip(words, bare, strict=True))
                    if b not in _ASKING and not (k < first and _framing(b))
                    and not (k == first + 1 and b in DO))


def _framing(word: str) -> bool:
    """Whether ``word`` (lower case) belongs to the denial before what is asked: a negation,
    do-support, a contracted "n't" ("The documents don't say when ..."), an article."""
    return word in _FRAME or word.endswith("n't") or word in ARTICLES


def is_refusal(text: str) -> bool:
    """A sentence that only says the sources hold no answer ("No document says ..."): every
    clause of it a refusal or empty."""
    return REFUSES.search(text) is not None and not _claiming(text)


def claim_part(text: str) -> str:
    """``text`` without the clauses that say the sources hold no answer, when it also claims
    something ("No document says so, but it closes at 6 pm." -> "It closes at 6 pm."); ``text``
    itself when it has no such clause, or nothing else."""
    if REFUSES.search(text) is None:
        return text
    claiming = _claiming(text)
    if not claiming:
        return text
    joined = ", ".join(claiming).strip()
    joined = re.sub(r"^(?:(?:but|although|though|yet|while|whereas|however|except|and|so|that)"
                    r"\s+)+", "", joined, flags=re.IGNORECASE)
    end = "" if joined.endswith((".", "!")) else "."
    return joined[:1].upper() + joined[1:] + end


def _claiming(text: str) -> list[str]:
    """The clauses of ``text`` that are no refusal and hold a word of their own."""
    clauses = [c for c in _CLAUSES.split(text.strip().rstrip(".!")) if c and c.strip()]
    return [c.strip() for c in clauses if REFUSES.search(c) is None
            and any(w.lower() not in _EMPTY for w in TERM.findall(c))]
