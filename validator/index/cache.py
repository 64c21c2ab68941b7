"""Built source indexes, cached by content.

The same sources, chunked the same way and embedded by the same embedder, are embedded once per
process: across sentences, ``validate`` calls and validator instances; and, with an
``index_dir``, once across processes (see ``store``).
"""

from __future__ import annotations

import hashlib
import os
import threading
import warnings

import numpy as np

from ..chunking import chunk_sources
from ..embedding import Embedder
from ..lru import LRU, MiB
from ..settings import Chunking
from .faiss_index import SourceIndex
from .store import IndexStore

MAX_BYTES = 256 * MiB  # of vectors and chunk text kept in memory by the process's index cache


class IndexCache:
    """A bounded, thread-safe LRU of built indexes, keyed by a hash of everything that
    determines them. Two threads asking for the same missing index build it once."""

    def __init__(self, max_entries: int = 32, max_bytes: int = MAX_BYTES):
        # Each entry keeps its embedder alive with the index: the key may be an object's id.
        self._entries: LRU[tuple[SourceIndex, Embedder]] = LRU(max_entries, max_bytes, _weight)
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self.embedded_chunks = 0  # how many chunk embeddings this cache has computed

    @property
    def max_entries(self) -> int:
        return self._entries.max_entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, sources: list[str], chunking: Chunking, embedder: Embedder,
            directory: str | os.PathLike | None = None) -> SourceIndex:
        """The index of ``sources``: from memory, else from ``directory`` (when given and the
        embedder's key holds across processes), else built (and stored there)."""
        key = content_key(sources, chunking, embedder.key)
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None:
                return hit[0]
            build_lock = self._building.setdefault(key, threading.Lock())
        with build_lock:
            hit = self._entries.get(key)
            if hit is not None:
                return hit[0]
            store = IndexStore(directory) if directory and embedder.persistent else None
            try:
                index = store.load(key) if store else None
                if index is not None and not _matches(index, sources, chunking, embedder):
                    index = None
                built = index is None
                if built:
                    index = build_index(sources, chunking, embedder)
                    if store:
                        store.save(key, index)
            finally:
                with self._lock:
                    self._building.pop(key, None)
            with self._lock:
                self.embedded_chunks += len(index.chunks) if built else 0
            self._entries.put(key, (index, embedder))
            return index

    def clear(self) -> None:
        self._entries.clear()


def _weight(key: str, entry: tuple[SourceIndex, Embedder]) -> int:
    """What an index keeps alive: its vectors (twice over for a graph) and its chunks' text."""
    index = entry[0]
    vectors = len(index.chunks) * index.dimension * 4 * (2 if index.approximate else 1)
    return vectors + sum(len(chunk.text) + 100 for chunk in index.chunks)


def _matches(index: SourceIndex, sources: list[str], chunking: Chunking,
             embedder: Embedder) -> bool:
    """Whether a stored index is the index of these sources: its chunks exactly the chunks
    of this call's sources (not texts planted in its file), its vectors of the embedder's
    dimension. A file is never trusted for what it says of itself."""
    if index.chunks != chunk_sources(sources, chunking):
        problem = "its chunks are not the passages of the sources given"
    else:
        # A sample of its chunks embedded anew must give its own vectors (its dimension, its
        # values: scaled or swapped vectors would make unrelated passages look like evidence).
        picked = sorted({round(i * (len(index.chunks) - 1) / 7) for i in range(8)})
        fresh = embedder.embed([index.chunks[i].text for i in picked])
        stored = index.vectors(picked)
        if fresh.shape[1] != index.dimension:
            problem = f"its vectors have dimension {index.dimension}, not the embedder's"
        elif not np.allclose(fresh, stored, atol=1e-3):
            problem = "its vectors are not the embedder's vectors of its chunks"
        else:
            return True
    warnings.warn(f"a stored index under index_dir does not match ({problem}); rebuilding it.",
                  stacklevel=5)
    return False


def build_index(sources: list[str], chunking: Chunking, embedder: Embedder) -> SourceIndex:
    chunks = chunk_sources(sources, chunking)
    if not chunks:
        return SourceIndex([], np.zeros((0, 0), dtype=np.float32))
    return SourceIndex(chunks, embedder.embed([c.text for c in chunks]))


def content_key(sources: list[str], chunking: Chunking, embedder_key: object) -> str:
    digest = hashlib.sha256(repr((chunking.strategy, chunking.size, chunking.overlap,
                                  embedder_key)).encode())
    for source in sources:
        encoded = source.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(8, "little"))
        digest.update(encoded)
    return digest.hexdigest()


# One cache for the process, shared by every validator instance.
INDEX_CACHE = IndexCache()
