"""Sentences with exact character offsets (``value[start:end] == sentence.text``), and the
streaming chunker.

Three steps: the text's structure (``blocks``: paragraphs, list items, headings, table rows,
fenced code), then each prose block's sentences by pySBD (the Golden Rules of sentence
splitting, 23 languages, rules chosen by ``languages``), then citation markers alone on their
line joined to the sentence before them. Splitting reads through what hides a sentence's end:
emphasis marks at a word's edge ("**Paris.** It") and citation markers after a stop ("Paris.[1]
It") are read as blanks of the same length, and each stays with the sentence it touches.

pySBD alone is too slow for a 5 MB source, so a fast path does what is plain without it: a
paragraph is first cut where a sentence surely ends (a word of two letters or more, lower-case
but for its first, that is no abbreviation of the language, a stop, a space, a capital, outside
brackets and quotes; a stop glued to a capitalised word after a word or a number that is no
part of a dotted name, "century.First", "1846.The"; in English, a single capital after a word
ending in lower-case letters, before a pronoun, article or conjunction, "vitamin C. It"), and
a piece with
no other stop in it is a sentence as it is. pySBD gets the other pieces, in batches, with its
abbreviation list narrowed to those in the text. ``benchmarks/bench_splitting.py`` measures it;
``docs/design/sentences.md`` gives the figures and the rules."""

from __future__ import annotations

import bisect
import re
from functools import cache, lru_cache
from itertools import accumulate, pairwise

from ..storage import LRU, MiB
from ..types import Sentence
from . import structure as structure
from .citations import MARKER_PATTERN
from .languages import AUTO, detect

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_HAS_WORD = re.compile(r"\w")
_MARKER_ONLY = re.compile(r"(?:\d{1,3}[.)]|[A-Za-z][)])")
# What splitting reads through (replaced by blanks of the same length, so offsets hold):
# emphasis marks at a word's edge ("**Paris.** It") and citation markers after a stop
# ("Paris.[1] It"), which both belong to the sentence they touch and hide its end.
_EMPHASIS_EDGE = re.compile(r"(?<![\w*_~])[*_~]{1,3}(?=[^\s*_~])|(?<=[^\s*_~])[*_~]{1,3}(?![\w*_~])")
_MARKERS_AFTER_STOP = re.compile(
    rf"(?<=[.!?])[\"'”’)]*[ \t]*(?:(?:{MARKER_PATTERN}|\[\^[^\]\s]{{1,20}}\])[ \t]*)+")
_CITATIONS_ONLY = re.compile(rf"(?:{MARKER_PATTERN}\s*)+")
# A sure end of sentence: a lower-case word, a stop, blanks, then a capital (checked after).
_SURE_END = re.compile(r"([^\W\d_]{2,})[\"'”’)\]]*[.!?][\"'”’)]*[ \t\n\r]+(?=[^\W\d_])")
# A stop glued to a capitalised word and a blank ("century.First", "1846.The"), after a word
# or number that is no part of a dotted name ("java.util.List", "www.example.Com").
_GLUED_END = re.compile(r"(?<![\w.@/\\:-])([^\W\d_]{2,}|\d{2,})[.!?](?=[A-Z][a-z]+[\s,;:'’])")
# A single capital after a lower-case word, a stop, then a word no name is ("vitamin C. It
# helped"): pySBD takes the letter for an initial. English only.
_LETTER_END = re.compile(
    r"(?<=[a-z][a-z] )[A-Z]\.(?=[ \t]+(?:I|A|An|The|This|That|These|Those|It|Its|He|"
    r"She|We|They|You|There|Here|But|And|So|Or|Yet|However|Then|In|On|At|For|With|As|If|When|"
    r"While|After|Before|Although|Because|Some|Many|Most|All|Each|Both)[ ,])")
# Scripts whose case and full stop make the fast path sound (pySBD's "Standard" rules).
_FAST_LANGUAGES = frozenset("en bg da de es fr it kk nl pl ru sk".split())
_STOPS_EXTRA = "…‼⁇⁈⁉"
_INLINE_LIST = re.compile(r"(?:^|\s)(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,4})\.?\)\s|•")
_OPEN_CLOSE: tuple[tuple[str, str], ...] = (("(", ")"), ("[", "]"), ("{", "}"), ("“", "”"),
                                           ("«", "»"), ("„", "“"))
# pySBD's cuts of pieces already seen (a stream re-splits its text at every token). A key may
# be a whole 20 KB paragraph and takes up to 4 bytes a character (non-Latin text), so it is
# weighed as such, within a budget that stays small beside the index cache's.
_PIECES: LRU[tuple[str, str], tuple[int, ...]] = LRU(
    8192, 16 * MiB, weigh=lambda key, value: 4 * len(key[1]) + 16 * len(value) + 200)


def safe_text(text: str) -> str:
    """``text`` with each lone surrogate (text that is no valid Unicode) replaced by U+FFFD,
    one character for one, so offsets still hold. Tokenizers and JSON encoders reject them."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def split_sentences(text: str, language: str = AUTO) -> list[Sentence]:
    """Split ``text`` into sentences with character offsets into ``text``.

    ``language`` is a code of ``languages.LANGUAGES`` or ``"auto"`` (each paragraph's script
    decides). A list item's marker ("- ", "1. ") is part of its first sentence, as the Golden
    Rules want; heading marks, whitespace and unpaired emphasis marks around a sentence are
    not; fragments with no letter or digit (a lone "---") are dropped. A heading, a table row
    and a fenced code block are one unit each.
    """
    plans = []  # per block: (block, code, pieces) with pieces (offset, text) of the block
    needed: dict[str, list[str]] = {}
    for block in structure.blocks(text):
        if block.kind == structure.WHOLE:
            plans.append((block, "", [(0, text[block.start:block.end])]))
            continue
        # Line breaks inside a paragraph are soft wraps; the same length keeps the offsets.
        prose = _read_through(text[block.start:block.end].translate(_SOFT_WRAP))
        code = detect(prose) if language == AUTO else language
        pieces = [(a, prose[a:b]) for a, b in _sure_pieces(prose, code)]
        plans.append((block, code, pieces))
        needed.setdefault(code, []).extend(p for _, p in pieces if not _plain(p, code))
    cuts_of = {code: _pysbd_cuts(code, pieces) for code, pieces in needed.items()}
    sentences: list[Sentence] = []
    for block, code, pieces in plans:
        cuts = [_before_marks(text, block.start + a + c)
                for a, piece in pieces for c in cuts_of.get(code, {}).get(piece, (0,))]
        cuts.append(block.end)
        spans = [(a, b) for a, b in pairwise(cuts) if b > a]
        found = (_trimmed(text, a, b, last=n == len(spans) - 1) for n, (a, b) in enumerate(spans))
        sentences.extend(s for s in found if s is not None)
    return _with_lone_markers(text, sentences)


def units(text: str, method: str, language: str = AUTO) -> list[Sentence]:
    """What is judged: each sentence, or (``method="full"``) the whole text as one unit."""
    if method != "full":
        return split_sentences(text, language)
    stripped = text.strip()
    if not stripped:
        return []
    start = text.index(stripped)
    return [Sentence(stripped, start, start + len(stripped))]


def stream_chunks(accumulated: str, language: str = AUTO) -> list[str]:
    """Guardrails' streaming contract: ``[]`` until a sentence is known to be complete, then
    ``[the complete sentences, the rest]``.

    A cut is final once the sentence after it has ended and another has begun (so "Dr." or
    "3." at the end of a chunk is never cut early, and a citation marker that arrives in
    pieces, "[", "1", "]", stays with the sentence before it), and no bracket or double quote
    is open before it. A cut at the start of a line takes the line's marker ("- ") along.
    """
    sentences = split_sentences(accumulated, language)
    for j in range(len(sentences) - 2, 0, -1):
        cut = sentences[j].start
        line_start = max(accumulated.rfind("\n", 0, cut), accumulated.rfind("\u2029", 0, cut)) + 1
        if structure.LINE_MARKER.fullmatch(accumulated, line_start, cut):
            cut = line_start
        if _closed(accumulated[:cut]):
            return [accumulated[:cut], accumulated[cut:]]
    return []


_SOFT_WRAP = str.maketrans("\n\r\t\x0b\x0c\x85\u2028", "       ")


def _sure_pieces(block: str, code: str) -> list[tuple[int, int]]:
    """The block cut where a sentence surely ends (see the module's docstring)."""
    if code not in _FAST_LANGUAGES:
        return [(0, len(block))]
    pieces, start, scanned, open_marks = [], 0, 0, _marks("")
    for after in _sure_ends(block, code):
        open_marks = [a + b for a, b in zip(open_marks, _marks(block[scanned:after]),
                                            strict=True)]
        scanned = after
        if _balanced(open_marks):
            pieces.append((start, after))
            start, open_marks = after, _marks("")
    pieces.append((start, len(block)))
    return pieces


def _sure_ends(block: str, code: str) -> list[int]:
    """Where sentences surely end in ``block``, in order (offsets after the end's blanks)."""
    abbreviations = _abbreviations(code)
    ends = []
    for match in _SURE_END.finditer(block):
        word = match.group(1)
        if (word[1:].islower() and block[match.end()].isupper()
                and word.lower() not in abbreviations):
            ends.append(match.end())
    for match in _GLUED_END.finditer(block):
        word = match.group(1)
        if word.isdigit() or (word[1:].islower() and word.lower() not in abbreviations):
            ends.append(match.end())
    if code == "en":
        ends.extend(match.end() for match in _LETTER_END.finditer(block))
    return sorted(set(ends))


def _plain(piece: str, code: str) -> bool:
    """No stop but the one that ends it: a sentence as it is, nothing for pySBD to decide."""
    inner, final = _stops(code)
    ending = final.search(piece)
    end = ending.start() if ending else len(piece)
    if _INLINE_LIST.search(piece):
        return False  # pySBD splits "1) one 2) two"
    for stop in inner.finditer(piece, 0, end):
        after = piece[stop.end():stop.end() + 1]
        # In a word or number ("3.5", "e.g", "a.b") a stop ends nothing; before a capital
        # ("ends.Next") pySBD decides.
        if code not in _FAST_LANGUAGES or not after.isalnum() or after.isupper():
            return False
    return True


def _pysbd_cuts(code: str, pieces: list[str]) -> dict[str, tuple[int, ...]]:
    """Where pySBD starts sentences in each piece (offsets; the first is 0).

    pySBD costs about 1 ms a call whatever the text's length (some 200 regular expressions),
    so pieces go to it together, one per line, up to ``BATCH_CHARS`` at a time: it never joins
    lines. A piece that leaves a quote or bracket open goes alone (pySBD's quote rules would
    reach into the next line). Its own offsets are not used: they are computed by searching
    each sentence from the start of the text (quadratic, and wrong on repeated text); here
    each is found after the previous one."""
    found: dict[str, tuple[int, ...]] = {}
    batch: list[str] = []
    for piece in dict.fromkeys(pieces):
        cached = _PIECES.get((code, piece))
        if cached is not None:
            found[piece] = cached
        elif _closed(piece) and "\r" not in piece and len(piece) < BATCH_CHARS:
            batch.append(piece)
            if sum(map(len, batch)) >= BATCH_CHARS:
                found.update(_run_pysbd(code, batch))
                batch = []
        else:
            found.update(_run_pysbd(code, [piece]))
    found.update(_run_pysbd(code, batch))
    return found


BATCH_CHARS = 8_000


def _run_pysbd(code: str, pieces: list[str]) -> dict[str, tuple[int, ...]]:
    if not pieces:
        return {}
    joined = "\n".join(pieces)
    starts = list(accumulate((len(p) + 1 for p in pieces[:-1]), initial=0))
    cuts: list[list[int]] = [[0] for _ in pieces]
    position = 0
    for sentence in pysbd_sentences(code, joined):
        sentence = sentence.strip()
        at = joined.find(sentence, position) if sentence else -1
        if at < 0:
            continue  # not found as written: its text stays with the sentence before
        n = bisect.bisect_right(starts, at) - 1
        if at > starts[n] and at - starts[n] != cuts[n][-1]:
            cuts[n].append(at - starts[n])
        position = at + len(sentence)
    found = {piece: tuple(c) for piece, c in zip(pieces, cuts, strict=True)}
    for piece, c in found.items():
        _PIECES.put((code, piece), c)
    return found


def pysbd_sentences(code: str, text: str) -> list[str]:
    """pySBD's sentences of ``text`` (``Segmenter(code, clean=False)``'s, unstripped).

    pySBD runs a few regular expressions per abbreviation of its list (about 190) that occurs
    anywhere in the text as letters ("no" in "normal"), and each rewrites only "<abbreviation>."
    So it is given the list narrowed to those followed by a period here: the same sentences,
    several times faster (``tests/unit/text/test_sentences.py`` compares the two on real text)."""
    from pysbd.languages import Language
    from pysbd.processor import Processor

    language = Language.get_language_code(code)
    lowered = text.lower()
    present = tuple(a for a in language.Abbreviation.ABBREVIATIONS if a.strip() + "." in lowered)
    narrowed = _narrowed(code, present)
    return getattr(language, "Processor", Processor)(text, narrowed).process() or []


@lru_cache(maxsize=1024)
def _narrowed(code: str, abbreviations: tuple[str, ...]) -> type:
    """pySBD's language ``code`` with only ``abbreviations`` in its list."""
    from pysbd.languages import Language

    language = Language.get_language_code(code)
    abbreviation = type("Abbreviation", (language.Abbreviation,),
                        {"ABBREVIATIONS": list(abbreviations)})
    return type(language.__name__, (language,), {"Abbreviation": abbreviation})


@cache
def _abbreviations(code: str) -> frozenset[str]:
    from pysbd.languages import Language

    module = Language.get_language_code(code)
    return frozenset(a.lower().rstrip(".") for a in module.Abbreviation.ABBREVIATIONS)


@cache
def _stops(code: str) -> tuple[re.Pattern, re.Pattern]:
    """The language's sentence stops, and a piece's final run of stops and closers."""
    from pysbd.languages import Language

    punctuation = "".join(getattr(Language.get_language_code(code), "Punctuations", ".!?"))
    stops = re.escape("".join(sorted(set(punctuation + _STOPS_EXTRA))))
    return re.compile(f"[{stops}]"), re.compile(f"[{stops}][{stops}\"'”’)\\]*_\\s]*$")


def _marks(text: str) -> list[int]:
    """Counts that tell whether ``text`` leaves a quote or bracket open: double quotes, single
    quotes that open a quotation less those that close one ("don't" is neither; "students' "
    closes none, so the count may go below 0), and (opening - closing) per kind of bracket."""
    return [text.count('"') % 2,
            len(_SINGLE_OPENING.findall(text)) - len(_SINGLE_CLOSING.findall(text)),
            *(text.count(a) - text.count(b) for a, b in _OPEN_CLOSE)]


def _balanced(marks: list[int]) -> bool:
    return marks[0] % 2 == 0 and marks[1] <= 0 and not any(marks[2:])


def _closed(text: str) -> bool:
    """No bracket or quote left open (pySBD does not split inside them)."""
    return _balanced(_marks(text))


_SINGLE_OPENING = re.compile(r"(?:^|(?<=\s))['‘]")
_SINGLE_CLOSING = re.compile(r"(?<=\S)['’](?![^\W\d_])")


def _read_through(prose: str) -> str:
    """``prose`` with what hides a sentence's end blanked out (see ``_EMPHASIS_EDGE``)."""
    if "*" not in prose and "_" not in prose and "~" not in prose and "[" not in prose:
        return prose
    return _MARKERS_AFTER_STOP.sub(_blank, _EMPHASIS_EDGE.sub(_blank, prose))


def _blank(match: re.Match) -> str:
    return " " * len(match.group())


def _before_marks(text: str, cut: int) -> int:
    """A cut moved before the emphasis marks that open the sentence it starts."""
    while cut > 0 and text[cut - 1] in "*_~":
        cut -= 1
    return cut


def _with_lone_markers(text: str, sentences: list[Sentence]) -> list[Sentence]:
    """Citation markers alone on their line ("Paris.\\n[1]") join the sentence before them:
    judged alone they say nothing, and a fix that removes the sentence takes them along. With
    no sentence before them they stay a unit (judged, so a text of markers alone fails)."""
    joined: list[Sentence] = []
    for sentence in sentences:
        if joined and _CITATIONS_ONLY.fullmatch(sentence.text):
            joined[-1] = Sentence(text[joined[-1].start:sentence.end], joined[-1].start,
                                  sentence.end)
        else:
            joined.append(sentence)
    return joined


def _trimmed(text: str, start: int, end: int, last: bool = False) -> Sentence | None:
    """The sentence in ``text[start:end]`` without the whitespace and unpaired emphasis around
    it; None for a fragment with no letter or digit, or a list marker ("3.", "b)") with the item
    it opens after it. One that ends its block is a sentence: "36." answers something."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    start, end = structure.inside_emphasis(text, start, end)  # unpaired marks are the line's
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if not _HAS_WORD.search(text, start, end) or (
            not last and _MARKER_ONLY.fullmatch(text, start, end)):
        return None
    return Sentence(text[start:end], start, end)
