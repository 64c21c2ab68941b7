"""The structure of a text before its sentences: paragraphs, list items, headings, table rows
and fenced code blocks, as spans of the text.

Only prose is split into sentences. A heading, a table row and a fenced code block are each
one unit, judged whole: code is not prose, so it is never cut into "sentences", and it is not
skipped either (a guard does not count what it did not check as checked). Table separator rows
(``|---|:--:|``), thematic breaks (``---``) and blank lines are no unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .grammar import (
    ARTICLES,
    AUXILIARIES,
    COORDINATORS,
    DEMONSTRATIVES,
    MODALS,
    POSSESSIVES,
    PREPOSITIONS,
    RELATIVES,
)

PROSE = "prose"  # split into sentences
WHOLE = "whole"  # one unit: a heading, a table row, a fenced code block

# A list item or quote line starts a block of its own; its marker is not part of the text.
# "- ", "* ", "+ ", "• ", "1. ", "2) ", "a) ", "> " (quotes may nest, and hold items).
LINE_MARKER = re.compile(r"[ \t]*(?:>[ \t]?)*(?:(?:[-*+•‣◦▪●]|\d{1,3}[.)]|[A-Za-z][)])[ \t]+)?")
_ITEM_OR_QUOTE = re.compile(r"[ \t]*(?:>|(?:[-*+•‣◦▪●]|\d{1,3}[.)]|[A-Za-z][)])[ \t]+\S)")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]+|$)")
_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_TABLE_SEPARATOR = re.compile(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*")
_THEMATIC_BREAK = re.compile(r"[ \t]{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")
# A line that ends like a sentence (or a clause) does not end a heading-like line.
_TERMINAL = re.compile(r"[.!?。！？…:;,؟۔।॥።።፧։][\"'”’)\]*_]*[ \t]*$")
# Paragraph separators end a block as a blank line does.
_LINE_BREAK = re.compile(r"\r\n|[\n\r\u2028\u2029\x0b\x0c\x1c\x1d\x1e\x85]")
_PARAGRAPH_BREAK = "\u2029\x1c\x1d\x1e"


# Emphasis marks; one left unpaired at a sentence's edge ("**One. Two.**" cut in two) belongs
# to the line, not to the sentence.
_EMPHASIS = ("**", "__", "~~", "*", "_")


def inside_emphasis(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) moved past emphasis marks at either edge that have no partner inside (a
    mark before a blank is a bullet, not emphasis)."""
    for mark in _EMPHASIS:
        if (text.startswith(mark, start) and not text[start + len(mark):end][:1].isspace()
                and text.count(mark, start, end) % 2):
            start += len(mark)
        if (text.endswith(mark, start, end) and not text[start:end - len(mark)][-1:].isspace()
                and text.count(mark, start, end) % 2):
            end -= len(mark)
    return start, end


def inside_emphasis_pairs(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) moved inside emphasis marks that wrap the whole span ("**One.**"): where a
    replacement of the span's text goes, so the emphasis stays."""
    for mark in _EMPHASIS:
        while (end - start > 2 * len(mark) and text.startswith(mark, start)
               and text.endswith(mark, start, end)):
            start, end = start + len(mark), end - len(mark)
    return start, end


def inside_marks(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) moved past a list or quote marker that opens its line, then past unpaired
    emphasis: what removing a sentence takes away, so the line keeps its structure."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\u2029", 0, start)) + 1
    if not text[line_start:start].strip():
        start = after_marker(text, start, end)
    return inside_emphasis(text, start, end)


def after_marker(text: str, start: int = 0, end: int | None = None) -> int:
    """Where the text after a list or quote marker at ``start`` begins (``start`` when there is
    none)."""
    marker = LINE_MARKER.match(text, start, len(text) if end is None else end)
    return marker.end() if marker else start


@dataclass(frozen=True)
class Block:
    start: int
    end: int
    kind: str


def blocks(text: str) -> list[Block]:
    """The text's blocks in order; what lies between them (blank lines, markers, separator
    rows) is no unit."""
    found: list[Block] = []
    lines = _lines(text)
    prose_start: int | None = None
    fence: tuple[str, int] | None = None  # (the fence's characters, where its block starts)
    in_table = False
    for i, (start, end, newline) in enumerate(lines):
        line = text[start:end]
        if fence is not None:
            if re.fullmatch(rf"[ \t]{{0,3}}{re.escape(fence[0][0])}{{{len(fence[0])},}}[ \t]*",
                            line):
                found.append(Block(fence[1], end, WHOLE))
                fence = None
            continue
        opening = _FENCE.match(line)
        separator = "|" in line and _TABLE_SEPARATOR.fullmatch(line) is not None
        next_is_separator = (i + 1 < len(lines) and "|" in line
                             and _TABLE_SEPARATOR.fullmatch(text[lines[i + 1][0]:lines[i + 1][1]])
                             is not None)
        row = "|" in line and (in_table or next_is_separator or line.lstrip().startswith("|"))
        heading = _HEADING.match(line)
        hard = (opening or separator or row or heading or not line.strip()
                or _THEMATIC_BREAK.fullmatch(line) or _ITEM_OR_QUOTE.match(line)
                or _after_title(text, lines, i, prose_start is not None
                                and prose_start >= lines[i - 1][0]))
        if hard and prose_start is not None:
            found.append(Block(prose_start, lines[i - 1][1], PROSE))
            prose_start = None
        in_table = (in_table or separator) and "|" in line
        if opening:
            fence = (opening.group(1), start + len(line) - len(line.lstrip()))
        elif separator or not line.strip() or _THEMATIC_BREAK.fullmatch(line):
            pass
        elif row or heading:
            content = start + (heading.end() if heading else 0)
            found.append(Block(content, end, WHOLE))
        elif prose_start is None:
            prose_start = start + len(line) - len(line.lstrip())
        if newline in _PARAGRAPH_BREAK and prose_start is not None:
            found.append(Block(prose_start, end, PROSE))
            prose_start = None
    if fence is not None:  # an unclosed fence runs to the end, as in Markdown
        found.append(Block(fence[1], len(text), WHOLE))
    elif prose_start is not None:
        found.append(Block(prose_start, len(text), PROSE))
    return [b for b in found if text[b.start:b.end].strip()]


def _lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end, the break that ends it) of each line."""
    lines, position = [], 0
    for match in _LINE_BREAK.finditer(text):
        lines.append((position, match.start(), match.group()))
        position = match.end()
    lines.append((position, len(text), ""))
    return lines


def _after_title(text: str, lines: list[tuple[int, int, str]], i: int,
                 opens_block: bool) -> bool:
    """A line that starts with a capital after a title ("Key points" then "Paris is..."): a
    short line that opens its paragraph and does not end like a sentence, a clause or a
    wrapped line ("The report was written by" then "Marie Curie...": a line does not end a
    title on "by", "the" or "and")."""
    if i == 0 or not opens_block:
        return False
    previous = text[lines[i - 1][0]:lines[i - 1][1]].strip()
    first = text[lines[i][0]:lines[i][1]].lstrip()[:1]
    words = previous.split()
    return (bool(words) and len(previous) <= _TITLE_CHARS and _TERMINAL.search(previous) is None
            and words[-1].lower() not in _NO_LAST_WORD and first.isupper())


# A title is short; a longer line without a stop is a hard-wrapped line of a paragraph.
_TITLE_CHARS = 60
# English words that end no title: a line ending on one was wrapped mid-sentence.
_NO_LAST_WORD = (ARTICLES | DEMONSTRATIVES | POSSESSIVES | PREPOSITIONS | COORDINATORS | RELATIVES
                 | AUXILIARIES | MODALS | {"than", "such", "including"})
