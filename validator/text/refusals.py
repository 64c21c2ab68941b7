"""Refusals: a sentence that says the sources hold no answer ("No document says how tall it
is") states nothing about the world, so it is judged by what it says is missing."""

from __future__ import annotations

import re

_REFUSAL_WORDS = re.compile(
    r"\b(?:documents?|sources?|passages?|context|information|references?|says?|states?|"
    r"mentions?|answers?|gives?|contains?|provides?|specif(?:y|ies)|available|provided)\b",
    re.IGNORECASE,
)
_REFUSAL = re.compile(
    r"\b(?:no|none of the|neither of the)\s+(?:document|source|passage|context|information|"
    r"reference)s?\b.*\b(?:say|says|state|states|mention|mentions|answer|answers|give|gives|"
    r"contain|contains|provide|provides|specif(?:y|ies))\b"
    r"|\b(?:do(?:es)?n't|do(?:es)? not|cannot|can't)\s+(?:say|state|mention|answer|specify|"
    r"contain|provide)\b.*\b(?:document|source|passage|context)s?\b"
    r"|\b(?:documents|sources|passages|context)\s+(?:do(?:es)? not|don't|doesn't)\b",
    re.IGNORECASE,
)


def refusal_topic(text: str) -> str:
    """What a refusal says is not answered: "No document says how tall it is" -> "No how tall
    it is"."""
    return _REFUSAL_WORDS.sub(" ", text)


def is_refusal(text: str) -> bool:
    """A sentence that says the sources hold no answer ("No document says ...")."""
    return _REFUSAL.search(text) is not None
