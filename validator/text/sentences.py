"""Sentences with exact character offsets (``value[start:end] == sentence.text``), and the
streaming chunker.

Three steps: the text's structure (``blocks``: paragraphs, list items, headings, table rows,
fenced code), then each prose block's sentences by pySBD (the Golden Rules of sentence
splitting, 23 languages, rules chosen by ``languages``), then citation markers after a stop
joined to the sentence they follow ("Paris. [1] It..." -> "Paris. [1]").

pySBD alone is too slow for a 5 MB source, so a fast path does what is plain without it: a
paragraph is first cut where a sentence surely ends (a word of two letters or more, lower-case
but for its first, that is no abbreviation of the language, a stop, a space, a capital, outside
brackets and quotes; or a stop glued to a capitalised word, "century.First"), and a piece with
no other stop in it is a sentence as it is. pySBD gets the other pieces, in batches, with its
abbreviation list narrowed to those in the text. ``benchmarks/bench_splitting.py`` measures it;
the README's "Sentences and streaming" gives the figures and the rules.
"""

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
# Citation markers after a sentence's stop ("Paris.[1] It...") belong to that sentence.
_LEADING_CITATIONS = re.compile(rf"(?:{MARKER_PATTERN}[ \t]*)+")
# A sure end of sentence: a lower-case word, a stop, blanks, then a capital (checked after);
# or glued, with no blank ("century.First"), before a capitalised word and a blank.
_SURE_END = re.compile(
    r"([^\W\d_]{2,})(?:[\"'”’)\]]*[.!?][\"'”’)]*[ \t\n\r]+(?=[^\W\d_])|[.!?](?=[A-Z][a-z]+[\s,;:'’]))")
# Scripts whose case and full stop make the fast path sound (pySBD's "Standard" rules).
_FAST_LANGUAGES = frozenset("en bg da de es fr it kk nl pl ru sk".split())
_STOPS_EXTRA = "…‼⁇⁈⁉"
_INLINE_LIST = re.compile(r"(?:^|\s)(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,4})\.?\)\s|•")
_OPEN_CLOSE = ("()", "[]", "{}", "“”", "«»", "„“")
# pySBD's cuts of pieces already seen (a stream re-splits its text at every token). A key may
# be a whole 20 KB paragraph and takes up to 4 bytes a character (non-Latin text), so it is
# weighed as such, within a budget that stays small beside the index cache's.
_PIECES = LRU(8192, 16 * MiB, weigh=lambda key, value: 4 * len(key[1]) + 16 * len(value) + 200)


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
        prose = text[block.start:block.end].translate(_SOFT_WRAP)
        code = detect(prose) if language == AUTO else language
        pieces = [(a, prose[a:b]) for a, b in _sure_pieces(prose, code)]
        plans.append((block, code, pieces))
        needed.setdefault(code, []).extend(p for _, p in pieces if not _plain(p, code))
    cuts_of = {code: _pysbd_cuts(code, pieces) for code, pieces in needed.items()}
    sentences: list[Sentence] = []
    for block, code, pieces in plans:
        cuts = [a + c for a, piece in pieces for c in cuts_of.get(code, {}).get(piece, (0,))]
        cuts.append(block.end - block.start)
        spans = [(block.start + a, block.start + b) for a, b in pairwise(cuts) if b > a]
        found = [s for s in (_trimmed(text, a, b) for a, b in spans) if s is not None]
        sentences.extend(_attach_citations(text, found) if block.kind == structure.PROSE
                         else found)
    return sentences


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
    abbreviations = _abbreviations(code)
    pieces, start, scanned, open_marks = [], 0, 0, _marks("")
    for match in _SURE_END.finditer(block):
        word, after = match.group(1), match.end()
        if not (word[1:].islower() and block[after].isupper()
                and word.lower() not in abbreviations):
            continue
        open_marks = [a + b for a, b in zip(open_marks, _marks(block[scanned:after]),
                                            strict=True)]
        scanned = after
        if _balanced(open_marks):
            pieces.append((start, after))
            start, open_marks = after, _marks("")
    pieces.append((start, len(block)))
    return pieces


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
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    start, end = structure.inside_emphasis(text, start, end)  # unpaired marks are the line's
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if not _HAS_WORD.search(text, start, end) or _MARKER_ONLY.fullmatch(text, start, end):
        return None
    return Sentence(text[start:end], start, end)
