"""Indexes on disk (``index_dir``): a large corpus is embedded once, across processes.

Each index is two files named by its content key: ``<key>.faiss`` (the FAISS index) and
``<key>.json`` (format, key, the passages and the SHA-256 of the ``.faiss`` file); its BM25
index, once built, two more: ``<key>.bm25.npz`` (its weights) and ``<key>.bm25.json`` (format,
key, vocabulary, document count and the SHA-256 of the ``.npz``). Both are
written to temporary files and renamed into place, the ``.json`` last, so a process killed
while writing leaves either the previous complete pair or no ``.json``: a half-written index is
never read. A pair that fails any check (unreadable or foreign JSON, checksum mismatch, FAISS
cannot read it, sizes that disagree) is reported with a warning and rebuilt; a directory that
cannot be written is reported and validation goes on from memory.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...storage import atomic_write
from ...types import Chunk
from .bm25 import LexicalIndex
from .faiss_index import SourceIndex

FORMAT = 2  # 2: passages (windows of long chunks) with their chunk's span; texts stored once


class IndexStore:
    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)

    def load(self, key: str) -> SourceIndex | None:
        """The stored index for ``key``, or None when there is none (or none worth trusting)."""

        def make(meta: dict, data: bytes) -> SourceIndex:
            import faiss

            index = faiss.deserialize_index(np.frombuffer(data, dtype=np.uint8))
            chunks = [Chunk(text, start, end, source)
                      for text, source, start, end, _, _ in meta["chunks"]]
            parents = [(first, last) for *_, first, last in meta["chunks"]]
            return SourceIndex(chunks, None, faiss_index=index, parents=parents)

        return self._load(key, "", ".faiss", "index", make)

    def save(self, key: str, index: SourceIndex) -> None:
        if not index.chunks:
            return
        import faiss

        data = faiss.serialize_index(index.faiss_index).tobytes()
        self._save(key, "", ".faiss", data, "index", {
            "chunks": [[c.text, c.source, c.start, c.end, *parent]
                       for c, parent in zip(index.chunks, index.parents, strict=True)]})

    def load_lexical(self, key: str) -> LexicalIndex | None:
        """The stored BM25 index for ``key`` (``<key>.bm25.npz`` and ``<key>.bm25.json``), or
        None when there is none, or none worth trusting (reported)."""

        def make(meta: dict, data: bytes) -> LexicalIndex:
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                return LexicalIndex(list(meta["vocabulary"]), arrays["data"], arrays["indices"],
                                    arrays["indptr"], int(meta["count"]))

        return self._load(key, ".bm25", ".npz", "lexical index", make)

    def save_lexical(self, key: str, lexical: LexicalIndex) -> None:
        buffer = io.BytesIO()
        np.savez(buffer, **lexical.arrays())
        self._save(key, ".bm25", ".npz", buffer.getvalue(), "lexical index",
                   {"count": lexical.count, "vocabulary": lexical.vocabulary})

    def _load(self, key: str, kind: str, suffix: str, what: str, make: Callable):
        """``make(meta, data)`` from ``<key><kind>.json`` and the data file it vouches for, or
        None when there is none or it fails a check (reported: it will be rebuilt)."""
        meta_path = self.directory / f"{key}{kind}.json"
        if not meta_path.exists():
            return None
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if not isinstance(meta, dict):
                raise ValueError("it is not a JSON object")
            if meta.get("format") != FORMAT or meta.get("key") != key:
                raise ValueError("written by another version, or for another index")
            data = (self.directory / f"{key}{kind}{suffix}").read_bytes()
            if hashlib.sha256(data).hexdigest() != meta["sha256"]:
                raise ValueError(f"its {suffix} file does not match its checksum")
            return make(meta, data)
        except _UNUSABLE as error:
            warnings.warn(f"the stored {what} {meta_path} is not usable ({error}); rebuilding "
                          "it.", stacklevel=4)
            return None

    def _save(self, key: str, kind: str, suffix: str, data: bytes, what: str,
              fields: dict) -> None:
        """The data file, then the ``.json`` that vouches for it (so a process killed between
        the two leaves nothing that is read)."""
        meta = {"format": FORMAT, "key": key, "sha256": hashlib.sha256(data).hexdigest(), **fields}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            atomic_write(self.directory / f"{key}{kind}{suffix}", data, durable=True)
            atomic_write(self.directory / f"{key}{kind}.json", json.dumps(meta).encode("ascii"),
                         durable=True)
        except OSError as error:
            warnings.warn(f"could not store the {what} in {self.directory} ({error}); it stays "
                          "in memory only.", stacklevel=4)


# What a stored file that cannot be trusted raises while it is read.
_UNUSABLE = (OSError, ValueError, KeyError, TypeError, RuntimeError, EOFError)
