"""Citations in the output: ``[1]``, ``[2, 3]``, ``[1-3]``, ``[1][2]``, numbered in the order
of ``sources`` (``[1]`` is ``sources[0]``). Pure: no retrieval, no judge.

A cited sentence is judged against the sources it cites. When they do not support it but
another source does, it is *mis-cited* (GroUSE's faithfulness). With ``citations="required"``,
a factual sentence that cites nothing fails.
"""

from __future__ import annotations

import re

from ..types import MISCITED, MISSING, NONE, OK, OUT_OF_RANGE, UNCHECKED, Citation, Within
from .non_claims import form_of
from .refusals import is_refusal
from .structure import inside_marks
from .word_forms import content_words

CITATION_MODES = ("auto", "required", "off")

# The one citation-marker pattern (the splitter and the rule checker use it too). A marker is
# a bracket of source numbers from 1 to 999 ("[1]", "[2, 3]", "[1-3]", "[1; 4]"). Brackets that
# are not citations are left as text: one holding 0 or a number of four digits or more (an
# interval "[0, 1]", a year "[2019]", an index "items[0]"), words ("[sic]"), and a bracket that
# code goes on after ("items[1].name", "f[2](x)", "a[1]b"), and any bracket inside inline code
# (`` `items[1]` ``: see ``read``).
_NUMBER = r"[1-9]\d{0,2}"
MARKER_PATTERN = rf"\[({_NUMBER}(?:\s*[,;–-]\s*{_NUMBER})*)\](?!\.?\w|\()"
MARKER = re.compile(MARKER_PATTERN)
# Anchored where a run of whitespace starts, so a long run is scanned once, not once per space.
_MARKER_WITH_SPACE = re.compile(r"(?<!\s)\s*" + MARKER_PATTERN)
# Inline code (`items[1]`): what is inside is code, never a citation.
_CODE_SPAN = re.compile(r"(`+)[^`\n]+?\1")
_SPACE_BEFORE_STOP = re.compile(r"(?<!\s)\s+(?=[.,;:!?])")
_MAX_RANGE = 50  # "[1-100000]" is not a citation we expand


def read(sentence: str, mode: str = "auto") -> tuple[Citation, str]:
    """The sentence's citation (the numbers as written, 1-based) and its text without the
    markers, which is what the judge sees. With ``mode="off"`` markers are plain text. A list
    or quote marker that opens the sentence ("- ", "2. ", "> ") and emphasis marks left
    unpaired ("**One." of "**One. Two.**") are the line's, not the claim's: the judge does not
    see them."""
    start, end = inside_marks(sentence, 0, len(sentence))
    marks = sentence[:start] + sentence[end:]
    if marks.strip() and any(ch.isalnum() for ch in sentence[start:end]):
        sentence = sentence[start:end]
    if mode == "off":
        return Citation(), sentence
    code = [m.span() for m in _CODE_SPAN.finditer(sentence)]
    markers = [m for m in _MARKER_WITH_SPACE.finditer(sentence)
               if not any(a < m.start(1) < b for a, b in code)]
    numbers = [n for match in markers for n in numbers_of(match.group(1))]
    cited = Citation(tuple(dict.fromkeys(numbers)))
    text = sentence
    for match in reversed(markers):
        text = text[:match.start()] + text[match.end():]
    text = _SPACE_BEFORE_STOP.sub("", text.strip())
    if not any(ch.isalnum() for ch in text):  # markers and nothing else: judge it as written
        return cited, sentence
    return cited, text


def numbers_of(marker: str) -> list[int]:
    """The numbers of one marker's inside ("1, 3", "2-4"), ranges expanded, in order."""
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", marker):
        ends = [int(n) for n in re.split(r"\s*[–-]\s*", part)]
        if len(ends) == 2 and 0 <= ends[1] - ends[0] < _MAX_RANGE:
            numbers.extend(range(ends[0], ends[1] + 1))
        else:
            numbers.extend(ends)
    return numbers


def renumbered(reason: str, own: dict[int, int]) -> str:
    """A judge's ``reason`` with the passage numbers it cites ("[7]", "[3, 7]") written as
    ``own`` maps them (a batched prompt's numbers -> the statement's own evidence numbers); a
    number ``own`` lacks as "another statement's passage"."""
    def mapped(match: re.Match) -> str:
        numbers = numbers_of(match.group(1))
        known = [str(own[n]) for n in numbers if n in own]
        other = ["another statement's passage"] if len(known) < len(numbers) else []
        return "[" + "; ".join(filter(None, (", ".join(known), *other))) + "]"

    return MARKER.sub(mapped, reason)


def is_factual(sentence: str) -> bool:
    """Whether a sentence states something that needs a source: not a question, a refusal, a
    lead-in ending with a colon, or a sentence that asserts nothing ("I hope this helps.")."""
    text = sentence.strip()
    if not text or text.endswith(("?", ":")) or is_refusal(text) or form_of(text):
        return False
    return any(ch.isdigit() for ch in text) or len(content_words(text)) >= 2


def within(citation: Citation, source_count: int | None) -> Within:
    """The 0-based sources a cited sentence's evidence must come from (None: any source)."""
    if not citation.cited or source_count is None:
        return None
    return frozenset(n - 1 for n in citation.cited if 1 <= n <= source_count)


def check(citation: Citation, text: str, mode: str, source_count: int | None,
          uncited_support: tuple[int, ...] = ()) -> Citation:
    """The citation with its status: ``uncited_support`` are the numbers of uncited sources
    found to support a sentence its cited sources do not (see ``deciding``)."""
    if mode == "off":
        return Citation()
    if not citation.cited:
        required = mode == "required" and is_factual(text)
        return Citation((), MISSING if required else NONE)
    if source_count is None:
        return Citation(citation.cited, UNCHECKED)
    out_of_range = tuple(n for n in citation.cited if not 1 <= n <= source_count)
    if out_of_range:
        return Citation(citation.cited, OUT_OF_RANGE, out_of_range=out_of_range)
    if uncited_support:
        return Citation(citation.cited, MISCITED, uncited_support)
    return Citation(citation.cited, OK)


def problem(citation: Citation) -> str | None:
    """What is wrong with a failing citation, in words; None when nothing is."""
    if citation.status == MISCITED:
        return (f"cites {_numbers(citation.cited)}, which do not support it; "
                f"{_numbers(citation.uncited_support)} would")
    if citation.status == MISSING:
        return "cites no source"
    if citation.status == OUT_OF_RANGE:
        return f"cites {_numbers(citation.out_of_range)}, which is not a source"
    return None


def _numbers(numbers: tuple[int, ...]) -> str:
    return "".join(f"[{n}]" for n in numbers)
