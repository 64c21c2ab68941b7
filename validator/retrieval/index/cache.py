"""Built source indexes, cached by content.

The same sources, chunked the same way and embedded by the same embedder, are embedded once per
process: across sentences, ``validate`` calls and validator instances; and, with an
``index_dir``, once across processes (see ``store``).
"""

from __future__ import annotations

import hashlib
import os
import threading

import numpy as np

from ...errors import warn
from ...request import Chunking
from ...storage import LRU, MiB
from ...types import Chunk
from ..chunking import WINDOW_CHARS, passages
from ..embedding import Embedder
from ..progress import Progress
from .bm25 import LexicalIndex
from .faiss_index import SourceIndex
from .store import IndexStore

MAX_BYTES = 256 * MiB  # of vectors and chunk text kept in memory by the process's index cache


class IndexCache:
    """A bounded, thread-safe LRU of built indexes, keyed by a hash of everything that
    determines them. Two threads asking for the same missing index build it once."""

    def __init__(self, max_entries: int = 32, max_bytes: int = MAX_BYTES):
        # Each entry keeps its embedder alive with the index: the key may be an object's id.
        self._entries: LRU[str, tuple[SourceIndex, Embedder]] = LRU(max_entries, max_bytes, _weight)
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self.embedded_chunks = 0  # how many chunk embeddings this cache has computed

    @property
    def max_entries(self) -> int:
        return self._entries.max_entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, sources: list[str], chunking: Chunking, embedder: Embedder,
            directory: str | os.PathLike | None = None, lexical: bool = False,
            shown: int | None = None) -> SourceIndex:
        """The index of ``sources``: from memory, else from ``directory`` (when given and the
        embedder's key holds across processes), else built (and stored there). With
        ``lexical``, its BM25 index too: loaded with a stored set, or built the first time it
        is asked for and stored with the set.

        ``shown``: how many passages a search shows (``top_k``). Sources of no more distinct
        passages than that are indexed by their words alone, not embedded (every search shows
        them all; see ``SourceIndex``); such an index is neither stored nor counted in
        ``embedded_chunks``, and is embedded when a search that shows fewer asks for it."""
        key = content_key(sources, chunking, embedder.key)
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and _serves(hit[0], lexical, shown):
                return hit[0]
            build_lock = self._building.setdefault(key, threading.Lock())
        with build_lock:
            hit = self._entries.get(key)
            index = hit[0] if hit is not None and _serves(hit[0], False, shown) else None
            store = IndexStore(directory) if directory and embedder.persistent else None
            built = changed = False
            found = None  # the passages, when counted here: not chunked again to embed them
            try:
                if index is None and shown is not None and _may_be_few(sources, shown):
                    found = passages(sources, chunking)
                    index = _words_only(found, shown)
                    built = index is not None
                if index is None and store:
                    index, changed = _stored(store, key, sources, chunking, embedder)
                if index is None:
                    index, built = build_index(sources, chunking, embedder, found), True
                if lexical and index.lexical is None:
                    index.lexical, changed = LexicalIndex.build(index.texts), True
                if store and (built or changed) and index.embedded:
                    store.save(key, index)  # the whole set, BM25 with it when built
            finally:
                with self._lock:
                    self._building.pop(key, None)
            with self._lock:
                self.embedded_chunks += len(index.texts) if built and index.embedded else 0
            self._entries.put(key, (index, embedder))  # again when it grew: weighed anew
            return index

    def clear(self) -> None:
        self._entries.clear()


def _serves(index: SourceIndex, lexical: bool, shown: int | None) -> bool:
    """Whether a built index answers a search that shows ``shown`` passages (None: any number),
    with BM25 when ``lexical``."""
    return ((index.lexical is not None or not lexical)
            and (index.embedded or (shown is not None and len(index.texts) <= shown)))


def _may_be_few(sources: list[str], shown: int) -> bool:
    """Whether the sources are worth chunking to count their passages against ``shown``
    (longer ones rarely hold so few)."""
    return sum(map(len, sources)) <= shown * WINDOW_CHARS * 4


def _words_only(found: tuple[list[Chunk], list[tuple[int, int]]], shown: int
                ) -> SourceIndex | None:
    """The index of passages ``found`` (chunks, parents) whose every one a search shows, from
    their words alone (None when they hold more distinct texts than ``shown``)."""
    chunks, parents = found
    texts = list(dict.fromkeys(c.text for c in chunks))
    if not chunks or len(texts) > shown:
        return None
    return SourceIndex(chunks, None, parents=parents, lexical=LexicalIndex.build(texts))


def _weight(key: str, entry: tuple[SourceIndex, Embedder]) -> int:
    """What an index keeps alive: its vectors (twice over for a graph), its chunks' text and
    its BM25 weights."""
    index = entry[0]
    vectors = len(index.texts) * index.dimension * 4 * (2 if index.approximate else 1)
    lexical = index.lexical.nbytes if index.lexical is not None else 0
    return vectors + lexical + sum(len(chunk.text) + 100 for chunk in index.chunks)


def _stored(store: IndexStore, key: str, sources: list[str], chunking: Chunking,
            embedder: Embedder) -> tuple[SourceIndex | None, bool]:
    """The index stored under ``key`` if it is the index of these sources (else None), and
    whether its stored set must be written again (its BM25 index was not theirs: reported,
    and dropped to be rebuilt)."""
    index = store.load(key)
    if index is None or not _matches(index, sources, chunking, embedder):
        return None, False
    problem = index.lexical.problem(index.texts) if index.lexical is not None else None
    if problem is not None:
        warn(f"a stored lexical index under index_dir does not match ({problem}); "
                      "rebuilding it.")
        index.lexical = None
    return index, problem is not None


def _matches(index: SourceIndex, sources: list[str], chunking: Chunking,
             embedder: Embedder) -> bool:
    """Whether a stored index is the index of these sources: its chunks exactly the chunks
    of this call's sources (not texts planted in its file), its vectors of the embedder's
    dimension. A file is never trusted for what it says of itself."""
    expected, parents = passages(sources, chunking)
    if index.chunks != expected or index.parents != parents:
        problem = "its chunks are not the passages of the sources given"
    else:
        # A sample of its chunks embedded anew must give its own vectors (its dimension, its
        # values: scaled or swapped vectors would make unrelated passages look like evidence).
        picked = sorted({round(i * (len(index.texts) - 1) / 7) for i in range(8)})
        fresh = embedder.embed([index.texts[i] for i in picked])
        stored = index.vectors(picked)
        if fresh.shape[1] != index.dimension:
            problem = f"its vectors have dimension {index.dimension}, not the embedder's"
        elif not np.allclose(fresh, stored, atol=1e-3):
            problem = "its vectors are not the embedder's vectors of its chunks"
        else:
            return True
    warn(f"a stored index under index_dir does not match ({problem}); rebuilding it.")
    return False


def build_index(sources: list[str], chunking: Chunking, embedder: Embedder,
                found: tuple[list[Chunk], list[tuple[int, int]]] | None = None) -> SourceIndex:
    """The embedded index of ``sources`` (their passages ``found``, when already chunked)."""
    chunks, parents = found if found is not None else passages(sources, chunking)
    if not chunks:
        return SourceIndex([], np.zeros((0, 0), dtype=np.float32))
    texts = list(dict.fromkeys(c.text for c in chunks))  # each distinct text embedded once
    return SourceIndex(chunks, _embedded(texts, embedder), parents=parents)


# A build embeds its passages a slice at a time, each slice a turn of its own on the process's
# one encoder: the few sentences other validations embed meanwhile wait for a slice (about a
# second on 2 cores), not for the whole build; and a build still running when the process exits
# (one its validation's deadline abandoned) stops at the next slice instead of holding the exit.
BUILD_SLICE = 64


def _embedded(texts: list[str], embedder: Embedder) -> np.ndarray:
    if len(texts) <= BUILD_SLICE:
        return embedder.embed(texts)
    # Slices of passages of like length: a batch is padded to its longest text, and slices in
    # the sources' order took twice the time of one encode of them all (286 passages, 2 cores).
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    slices = []
    progress = Progress("embedding the sources", len(texts), "passages")
    try:
        for start in range(0, len(texts), BUILD_SLICE):
            if not threading.main_thread().is_alive():  # the interpreter is shutting down
                raise RuntimeError("the process is exiting: an index build was stopped")
            slices.append(embedder.embed([texts[i] for i in order[start:start + BUILD_SLICE]]))
            progress.advance(min(start + BUILD_SLICE, len(texts)))
    finally:
        progress.close()
    vectors = np.empty_like(joined := np.concatenate(slices))
    vectors[order] = joined  # back in the sources' order
    return vectors


def content_key(sources: list[str], chunking: Chunking, embedder_key: object) -> str:
    digest = hashlib.sha256(repr((chunking.strategy, chunking.size, chunking.overlap,
                                  embedder_key, ("windows", WINDOW_CHARS))).encode())
    for source in sources:
        encoded = source.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(8, "little"))
        digest.update(encoded)
    return digest.hexdigest()


# One cache for the process, shared by every validator instance.
INDEX_CACHE = IndexCache()
