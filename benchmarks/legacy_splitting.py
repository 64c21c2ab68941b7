"""The sentence splitter this package used before pySBD (frozen here as the baseline that
``bench_splitting.py`` measures against; the package does not import it).

Sentence splitting with character offsets, offline.

nltk's Punkt does the hard part (abbreviations, decimals, initials, quotes) with parameters
built here from a shipped abbreviation list, so nothing is downloaded. Around it, a few rules
handle what Punkt does not: line structure (bullets, headings, blank lines), sentences glued
without a space ("century.First"), ellipses before a capital, and CJK full stops.

The same splitter chunks a Guardrails stream: see `stream_chunks`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from provenance_guard.text.citations import MARKER_PATTERN
from provenance_guard.types import Sentence

# Lower-case, without the final period. Punkt treats "<abbrev>." as not ending a sentence.
_ABBREVIATIONS = """
mr mrs ms dr prof sr jr st mt ft rev gen col lt sgt capt cmdr adm gov sen rep pres hon
inc ltd co corp llc plc bros dept univ assn est approx vs etc al cf ca viz
e.g i.e u.s u.k u.n u.s.a a.m p.m ph.d m.d b.a m.a b.sc m.sc d.c n.y l.a
jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
no nos vol vols fig figs eq eqs p pp ch sec art ed eds op tel ext min max avg
a b c d e f g h i j k l m n o p q r s t u v w x y z
"""

# Lines that start a list item: "- ", "* ", "• ", "1. ", "2) ", "a) ".
_BULLET = re.compile(r"[ \t]*(?:[-*+•‣◦▪●]|\d{1,3}[.)]|[A-Za-z][)])[ \t]+")
_MARKER_ONLY = re.compile(r"(?:\d{1,3}[.)]|[A-Za-z][)])")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# Glued sentences: a word of two or more lower-case letters or digits, a stop, then a
# capitalised word with no space ("century.First"). "U.S.Army" and "Ph.D" do not match.
_GLUED = re.compile(r"(?<=[a-z0-9]{2}[.!?])[\"'”’)]*(?=[A-Z][a-z])")
# An ellipsis followed by a capitalised word starts a new sentence.
_ELLIPSIS = re.compile(r"(?:\.{3}|…)[\"'”’)]*(?=\s+[\"'“‘(]?[A-Z])")
# CJK sentence ends. A stop inside quotes (「…。」と言った) does not end the outer sentence.
_CJK_END = re.compile(r"[。！？!?]+(?![」』”’）)])")
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_TERMINAL = re.compile(r"[.!?。！？…:;][\"'”’)\]]*\s*$")
_HAS_WORD = re.compile(r"\w")
# Citation markers after a sentence's stop ("Paris.[1] It...") belong to that sentence.
_LEADING_CITATIONS = re.compile(rf"(?:{MARKER_PATTERN}[ \t]*)+")


@lru_cache(maxsize=1)
def _punkt():
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    params = PunktParameters()
    params.abbrev_types = set(_ABBREVIATIONS.split())
    return PunktSentenceTokenizer(params)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def safe_text(text: str) -> str:
    """``text`` with each lone surrogate (text that is no valid Unicode) replaced by U+FFFD,
    one character for one, so offsets still hold. Tokenizers and JSON encoders reject them."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences with character offsets into ``text``.

    Whitespace and list markers around a sentence are not part of it; fragments with no
    letter or digit (a lone "---") are dropped.
    """
    sentences: list[Sentence] = []
    for start, end in _blocks(text):
        for a, b in _punkt().span_tokenize(text[start:end]):
            for c, d in _refine(text, start + a, start + b):
                sentence = _trimmed(text, c, d)
                if sentence is not None:
                    sentences.append(sentence)
    return _attach_citations(text, sentences)


def units(text: str, method: str) -> list[Sentence]:
    """What is judged: each sentence, or (``method="full"``) the whole text as one unit."""
    if method != "full":
        return split_sentences(text)
    stripped = text.strip()
    if not stripped:
        return []
    start = text.index(stripped)
    return [Sentence(stripped, start, start + len(stripped))]


def stream_chunks(accumulated: str) -> list[str]:
    """Guardrails' streaming contract: ``[]`` until a sentence is known to be complete, then
    ``[that sentence with its trailing space, the rest]``.

    A sentence counts as complete once the next one has started, so "Dr." or "3." at the end
    of a chunk is never cut early.
    """
    sentences = split_sentences(accumulated)
    if len(sentences) < 2:
        return []
    cut = sentences[1].start
    return [accumulated[:cut], accumulated[cut:]]


def _blocks(text: str) -> list[tuple[int, int]]:
    """Hard boundaries from line structure: blank lines, list items, and a line that does not
    end like a sentence (a heading) before a line that starts with a capital."""
    cuts = {0, len(text)}
    for match in _BLANK_LINE.finditer(text):
        cuts.add(match.start())
    offset = 0
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if i > 0:
            previous = lines[i - 1]
            starts_item = _BULLET.match(line) is not None
            after_heading = (
                previous.strip() != ""
                and _TERMINAL.search(previous) is None
                and line.lstrip()[:1].isupper()
            )
            if starts_item or after_heading:
                cuts.add(offset)
        offset += len(line) + 1
    ordered = sorted(cuts)
    return [(a, b) for a, b in pairwise(ordered) if b > a]


def _refine(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split a Punkt sentence further where glued stops, ellipses or CJK stops end one."""
    piece = text[start:end]
    cuts = {0, len(piece)}
    for pattern in (_GLUED, _ELLIPSIS):
        for match in pattern.finditer(piece):
            cuts.add(match.end())
    if _CJK_CHAR.search(piece):
        for match in _CJK_END.finditer(piece):
            cuts.add(match.end())
    ordered = sorted(cuts)
    return [(start + a, start + b) for a, b in pairwise(ordered) if b > a]


def _attach_citations(text: str, sentences: list[Sentence]) -> list[Sentence]:
    attached: list[Sentence] = []
    for sentence in sentences:
        markers = _LEADING_CITATIONS.match(sentence.text)
        if markers is None or not attached or "\n" in text[attached[-1].end : sentence.start]:
            attached.append(sentence)
            continue
        end = sentence.start + len(markers.group().rstrip())
        attached[-1] = Sentence(text[attached[-1].start : end], attached[-1].start, end)
        rest = _trimmed(text, sentence.start + markers.end(), sentence.end)
        if rest is not None:
            attached.append(rest)
    return attached


def _trimmed(text: str, start: int, end: int) -> Sentence | None:
    bullet = _BULLET.match(text, start, end)
    if bullet:
        start = bullet.end()
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if not _HAS_WORD.search(text, start, end) or _MARKER_ONLY.fullmatch(text, start, end):
        return None
    return Sentence(text[start:end], start, end)
