"""Citations in the output: ``[1]``, ``[2, 3]``, ``[1-3]``, ``[1][2]``, numbered in the order
of ``sources`` (``[1]`` is ``sources[0]``).

A cited sentence is judged against the sources it cites. When they do not support it but
another source does, it is *mis-cited* (GroUSE's faithfulness). With ``citations="required"``,
a factual sentence that cites nothing fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .rules import content_words, is_refusal

CITATION_MODES = ("auto", "required", "off")

# Citation statuses, per sentence:
NONE = "none"  # cites nothing, and nothing is required of it
OK = "ok"  # cites sources, and they are what supports it (or it is not supported at all)
MISCITED = "miscited"  # its cited sources don't support it; a source it does not cite does
MISSING = "missing"  # a factual sentence without a citation, with citations="required"
OUT_OF_RANGE = "out_of_range"  # cites a number that is not a source
UNCHECKED = "unchecked"  # evidence came from query_function, which has no source numbers
FAILING = frozenset((MISCITED, MISSING, OUT_OF_RANGE))

_MARKER = re.compile(r"\s*\[(\d{1,4}(?:\s*(?:[,;]|–|-)\s*\d{1,4})*)\]")
_MAX_RANGE = 50  # "[1-100000]" is not a citation we expand
_COURTESY = re.compile(
    r"^(?:sure|certainly|of course|great question|here (?:is|are)|i hope|hope this|let me know|"
    r"feel free|thanks|thank you|happy to help)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Cited:
    """A sentence's citation numbers as written (1-based) and its text without the markers."""

    numbers: tuple[int, ...]
    text: str


def read_citations(sentence: str) -> Cited:
    numbers: list[int] = []
    for match in _MARKER.finditer(sentence):
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            ends = [int(n) for n in re.split(r"\s*[–-]\s*", part)]
            if len(ends) == 2 and 0 <= ends[1] - ends[0] < _MAX_RANGE:
                numbers.extend(range(ends[0], ends[1] + 1))
            else:
                numbers.extend(ends)
    text = re.sub(r"\s+([.,;:!?])", r"\1", _MARKER.sub("", sentence).strip())
    if not any(ch.isalnum() for ch in text):  # markers and nothing else: judge it as written
        return Cited(tuple(dict.fromkeys(numbers)), sentence)
    return Cited(tuple(dict.fromkeys(numbers)), text)


def is_factual(sentence: str) -> bool:
    """Whether a sentence states something that needs a source: not a question, a refusal, a
    lead-in ending with a colon, or a courtesy ("Sure!", "I hope this helps.")."""
    text = sentence.strip()
    if not text or text.endswith(("?", ":")) or is_refusal(text) or _COURTESY.match(text):
        return False
    return any(ch.isdigit() for ch in text) or len(content_words(text)) >= 2


def sources_of(cited: Cited, source_count: int) -> tuple[frozenset[int], tuple[int, ...]]:
    """The 0-based source indexes a sentence cites, and the numbers it cites that are not
    sources (0, or more than there are)."""
    valid = frozenset(n - 1 for n in cited.numbers if 1 <= n <= source_count)
    return valid, tuple(n for n in cited.numbers if not 1 <= n <= source_count)
