"""Source chunking with offsets back into each source.

The strategies and their defaults are the hub validator's (``full``, ``sentence``, ``word``,
``char``, ``token``; ``chunk_size`` units per chunk, ``chunk_overlap`` units shared by
neighbours). Unlike the hub, a chunk is a slice of its source, never text joined anew, so its
offsets point at the exact passage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .splitting import split_sentences

CHUNK_STRATEGIES = ("full", "sentence", "word", "char", "token")

_WORD = re.compile(r"\S+")
# Word and punctuation tokens. No subword tokenizer: those need a vocabulary download.
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Chunk:
    """A passage of one source: ``text == sources[source][start:end]``."""

    text: str
    source: int
    start: int
    end: int


def check_chunking(strategy: object, size: object, overlap: object) -> None:
    """Raise ``ValueError`` naming the metadata key and the fix for bad chunking settings."""
    if strategy not in CHUNK_STRATEGIES:
        raise ValueError(
            f"metadata['chunk_strategy'] must be one of {', '.join(CHUNK_STRATEGIES)}; "
            f"got {strategy!r}."
        )
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(f"metadata['chunk_size'] must be a whole number >= 1; got {size!r}.")
    if not isinstance(overlap, int) or isinstance(overlap, bool) or not 0 <= overlap < size:
        raise ValueError(
            "metadata['chunk_overlap'] must be a whole number from 0 to chunk_size - 1 "
            f"(chunk_size is {size}); got {overlap!r}."
        )


def chunk_sources(
    sources: list[str], strategy: str = "full", size: int = 5, overlap: int = 2
) -> list[Chunk]:
    """Chunk every source; chunks keep the index of their source and their offsets in it."""
    check_chunking(strategy, size, overlap)
    chunks: list[Chunk] = []
    for index, source in enumerate(sources):
        for start, end in _windows(_units(source, strategy), size, overlap):
            if source[start:end].strip():
                chunks.append(Chunk(source[start:end], index, start, end))
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
