"""Source chunking with offsets back into each source.

The strategies and their defaults are the hub validator's (``full``, ``sentence``, ``word``,
``char``, ``token``; see ``settings.Chunking``). Unlike the hub, a chunk is a slice of its
source, never text joined anew, so its offsets point at the exact passage.
"""

from __future__ import annotations

import re

from .settings import HUB_CHUNKING, Chunking
from .splitting import split_sentences
from .types import Chunk

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
