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

from ..chunking import chunk_sources
from ..embedding import Embedder
from ..lru import LRU
from ..settings import Chunking
from .faiss_index import SourceIndex
from .store import IndexStore


class IndexCache:
    """A bounded, thread-safe LRU of built indexes, keyed by a hash of everything that
    determines them. Two threads asking for the same missing index build it once."""

    def __init__(self, max_entries: int = 32):
        # Each entry keeps its embedder alive with the index: the key may be an object's id.
        self._entries: LRU[tuple[SourceIndex, Embedder]] = LRU(max_entries)
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
