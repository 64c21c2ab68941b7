"""Source chunking with offsets back into each source.

The strategies and their defaults are the hub validator's (``full``, ``sentence``, ``word``,
``char``, ``token``; see ``settings.Chunking``). Unlike the hub, a chunk is a slice of its
source, never text joined anew, so its offsets point at the exact passage.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..request import HUB_CHUNKING, Chunking
from ..text.sentences import split_sentences
from ..types import Chunk

_WORD = re.compile(r"\S+")
# Word and punctuation tokens. No subword tokenizer: those need a vocabulary download.
_TOKEN = re.compile(r"\w+|[^\w\s]")


def chunk_sources(sources: list[str], chunking: Chunking = HUB_CHUNKING) -> list[Chunk]:
    """Chunk every source; chunks keep the index of their source and their offsets in it."""
    chunks: list[Chunk] = []
    for index, source in enumerate(sources):
        for start, end in _windows(_units(source, chunking.strategy), chunking.size,
                                   chunking.overlap):
            if source[start:end].strip():
                chunks.append(Chunk(source[start:end], start, end, index))
    return chunks


def _units(text: str, strategy: str) -> list[tuple[int, int]]:
    if strategy == "full":
        return [(0, len(text))]
    if strategy == "sentence":
        return [(s.start, s.end) for s in split_sentences(text)]
    if strategy == "char":
        return [(i, i + 1) for i in range(len(text))]
    pattern = _WORD if strategy == "word" else _TOKEN
    return [m.span() for m in pattern.finditer(text)]


def _windows(units: list[tuple[int, int]], size: int, overlap: int) -> list[tuple[int, int]]:
    step = size - overlap
    windows = []
    for first in range(0, len(units), step):
        last = min(first + size, len(units)) - 1
        windows.append((units[first][0], units[last][1]))
        if last == len(units) - 1:
            break  # the hub emits trailing windows wholly inside this one; they add nothing
    return windows


# The most characters one indexed passage may hold. The default embedder (all-MiniLM-L6-v2)
# reads 256 word pieces and ignores the rest; its tokenizer gives about 5 characters a piece
# on the HaluEval knowledge texts (about 4 on text dense in names and numbers), so 1,000
# characters fit with room to spare. A chunk longer than this is indexed as windows.
WINDOW_CHARS = 1000


def passages(sources: list[str], chunking: Chunking = HUB_CHUNKING,
             max_chars: int = WINDOW_CHARS) -> tuple[list[Chunk], list[tuple[int, int]]]:
    """What is indexed: each chunk, or, for a chunk longer than ``max_chars``, its windows
    (runs of whole sentences, a sentence longer than the window cut at spaces), so every part
    of a long source can be found. Also, for each passage, the span of the chunk it is part of
    (evidence given without the rest of its chunk is reported as cut)."""
    found: list[Chunk] = []
    parents: list[tuple[int, int]] = []
    for chunk in chunk_sources(sources, chunking):
        pieces = [chunk] if len(chunk.text) <= max_chars else list(_window_chunk(chunk, max_chars))
        found.extend(pieces)
        parents.extend([(chunk.start, chunk.end)] * len(pieces))
    return found, parents


# A long chunk is split into sentences a block at a time, each block ending at a sentence end
# where one is near: the splitter's time and memory stay those of a block, whatever the source.
BLOCK_CHARS = 50_000


def _sentences(text: str):
    block = 0
    while block < len(text):
        end = len(text) if len(text) - block <= BLOCK_CHARS else max(
            text.rfind(". ", block, block + BLOCK_CHARS) + 1,
            text.rfind("\n", block, block + BLOCK_CHARS),
            text.rfind(" ", block, block + BLOCK_CHARS))
        end = end if end > block else min(len(text), block + BLOCK_CHARS)
        for sentence in split_sentences(text[block:end]):
            yield block + sentence.start, block + sentence.end
        block = end


def _window_chunk(chunk: Chunk, max_chars: int) -> Iterator[Chunk]:
    text, base = chunk.text, chunk.start
    start: int | None = None  # of the window being filled
    end = 0
    for first, last in _sentences(text):
        for s, e in _fit(text, first, last, max_chars):
            if start is not None and e - start > max_chars:
                yield Chunk(text[start:end], base + start, base + end, chunk.source)
                start = None
            if start is None:
                start = s
            end = e
    if start is not None:
        yield Chunk(text[start:end], base + start, base + end, chunk.source)


def _fit(text: str, start: int, end: int, max_chars: int):
    """``text[start:end]`` in pieces of at most ``max_chars``, cut at a space where one is."""
    while end - start > max_chars:
        cut = text.rfind(" ", start + 1, start + max_chars)
        cut = cut if cut > start else start + max_chars
        yield start, cut
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        yield start, end
