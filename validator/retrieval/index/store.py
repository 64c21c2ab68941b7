"""Indexes on disk (``index_dir``): a large corpus is embedded once, across processes.

An index is stored as one set: its data files and the manifest ``<key>.json`` that vouches for
them (``key`` is the content key of the sources, chunking and embedder). The data files are the
FAISS index, ``<key>.<checksum>.faiss``, and, once it is built, the BM25 index,
``<key>.<checksum>.bm25.npz``; the manifest holds each file's SHA-256 (its name follows from
it), the passages, and the BM25 vocabulary and document count.

Writing a set: the data files first, then the manifest, each to a temporary file renamed into
place; the manifest's rename commits the set. A data file is never overwritten with other
content (its name changes with its content), so a process killed, or a disk that fills, at any
point leaves the previous set whole or no manifest at all; a failed write removes the files it
had added, and a committed one removes the files of the set it replaced.

Reading a set: data files no manifest vouches for (a write cut short, files copied apart) are
reported and the index rebuilt; so is a set that fails a check (an unreadable or foreign
manifest, a file missing or not matching its checksum, FAISS cannot read it), part by part: a
sound FAISS index is kept when only its BM25 file is bad. A directory that cannot be written is
reported and validation goes on from memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import warn
from ...storage import atomic_write
from ...types import Chunk
from .bm25 import LexicalIndex
from .faiss_index import SourceIndex

FORMAT = 3  # 3: one manifest for the set, data files named by checksum
_SUFFIXES = {"index": ".faiss", "lexical": ".bm25.npz"}
_SHA256 = re.compile(r"[0-9a-f]{64}")
_STALE_SECONDS = 3600  # a temporary file this old belongs to a write that died


class IndexStore:
    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)

    def load(self, key: str) -> SourceIndex | None:
        """The stored index for ``key``, with its BM25 index when the set has a sound one; None
        when there is none, or none worth trusting (reported: it will be rebuilt)."""
        manifest_path = self.directory / f"{key}.json"
        if not manifest_path.exists():
            if orphans := self._files(key):
                warn(f"index_dir {self.directory} holds {', '.join(sorted(orphans))} "
                              "with no manifest that vouches for them (a write cut short, or "
                              "files copied apart); rebuilding the index.")
            return None
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            if not isinstance(manifest, dict):
                raise ValueError("it is not a JSON object")
            if manifest.get("format") != FORMAT or manifest.get("key") != key:
                raise ValueError("written by another version, or for another index")
            index = _faiss_index(manifest, self._read(key, manifest, "index"))
        except _UNUSABLE as error:
            warn(f"the stored index {manifest_path} is not usable ({error}); "
                          "rebuilding it.")
            return None
        if "lexical" in manifest:
            try:
                index.lexical = _lexical_index(manifest, self._read(key, manifest, "lexical"))
            except _UNUSABLE as error:
                warn(f"the stored lexical index of {manifest_path} is not usable "
                              f"({error}); rebuilding it.")
        return index

    def save(self, key: str, index: SourceIndex) -> None:
        """Store ``index`` (and its BM25 index, if built) as one set, replacing the set stored
        for ``key`` (see the module's docstring)."""
        if not index.chunks:
            return
        import faiss

        data = {"index": faiss.serialize_index(index.faiss_index).tobytes()}
        manifest: dict = {"format": FORMAT, "key": key, "chunks": [
            [c.text, c.source, c.start, c.end, *parent]
            for c, parent in zip(index.chunks, index.parents, strict=True)]}
        if index.lexical is not None:
            buffer = io.BytesIO()
            arrays: dict[str, Any] = index.lexical.arrays()
            np.savez(buffer, **arrays)
            data["lexical"] = buffer.getvalue()
            manifest["lexical"] = {"count": index.lexical.count,
                                   "vocabulary": index.lexical.vocabulary}
        added: list[Path] = []
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            for part, content in data.items():
                checksum = hashlib.sha256(content).hexdigest()
                manifest.setdefault(part, {})["sha256"] = checksum
                path = self._path(key, part, checksum)
                if not _holds(path, checksum):
                    if not path.exists():
                        added.append(path)
                    atomic_write(path, content, durable=True)
            before = self._files(key)
            atomic_write(self.directory / f"{key}.json", json.dumps(manifest).encode("ascii"),
                         durable=True)
        except OSError as error:
            for path in added:
                path.unlink(missing_ok=True)
            warn(f"could not store the index in {self.directory} ({error}); it stays "
                          "in memory only.")
            return
        kept = {self._path(key, part, manifest[part]["sha256"]).name for part in data}
        self._remove(before - kept, key)

    def _path(self, key: str, part: str, checksum: str) -> Path:
        return self.directory / f"{key}.{checksum[:16]}{_SUFFIXES[part]}"

    def _read(self, key: str, manifest: dict, part: str) -> bytes:
        """The data file of ``part`` that ``manifest`` vouches for, checked against it."""
        checksum = manifest[part]["sha256"]
        if not isinstance(checksum, str) or not _SHA256.fullmatch(checksum):
            raise ValueError(f"its {part} checksum is not a SHA-256")
        data = self._path(key, part, checksum).read_bytes()
        if hashlib.sha256(data).hexdigest() != checksum:
            raise ValueError(f"its {_SUFFIXES[part]} file does not match its checksum")
        return data

    def _files(self, key: str) -> set[str]:
        """The data files stored for ``key`` (of any set, or of an older format), not the
        manifest."""
        try:
            names = {p.name for p in self.directory.glob(f"{key}.*")}
        except OSError:
            return set()
        return names - {f"{key}.json"}

    def _remove(self, names: set[str], key: str) -> None:
        """Remove the files of a replaced set, and temporary files of writes that died."""
        now = time.time()
        stale = [p for p in self.directory.glob(f".{key}.*.tmp")
                 if now - _modified(p) > _STALE_SECONDS]
        for path in [*(self.directory / name for name in names), *stale]:
            with contextlib.suppress(OSError):  # no right to: it is never read anyway
                path.unlink(missing_ok=True)


def _faiss_index(manifest: dict, data: bytes) -> SourceIndex:
    import faiss

    index = faiss.deserialize_index(np.frombuffer(data, dtype=np.uint8))
    chunks = [Chunk(text, start, end, source)
              for text, source, start, end, _, _ in manifest["chunks"]]
    parents = [(first, last) for *_, first, last in manifest["chunks"]]
    return SourceIndex(chunks, None, faiss_index=index, parents=parents)


def _lexical_index(manifest: dict, data: bytes) -> LexicalIndex:
    fields = manifest["lexical"]
    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        return LexicalIndex(list(fields["vocabulary"]), arrays["data"], arrays["indices"],
                            arrays["indptr"], int(fields["count"]))


def _holds(path: Path, checksum: str) -> bool:
    """Whether ``path`` already holds the content of that checksum (so it is not rewritten)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() == checksum
    except OSError:
        return False


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return time.time()


# What a stored file that cannot be trusted raises while it is read.
_UNUSABLE = (OSError, ValueError, KeyError, TypeError, RuntimeError, EOFError)
