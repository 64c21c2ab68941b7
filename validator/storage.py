"""Where things are kept: in memory, one bounded cache (``LRU``, ``memoize``); on disk, files
written whole or not at all (``atomic_write``) and JSON lines read with their line numbers
(``read_jsonl``).

The cache is written here rather than taken from a library: it is bounded in entries *and* in
bytes, weighs an entry by its key as well as its value (a fact table is weighed by the text it
was read from), and is thread-safe; ``functools.lru_cache`` bounds entries only, and
cachetools' ``LRUCache`` weighs values only and leaves locking to the caller. Every cache of the
package (judge replies, source indexes, sentence pieces, the rule checker's facts) is one of
these, so none can grow without limit in a long-running process."""

from __future__ import annotations

import codecs
import functools
import json
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
MiB = 1024 * 1024


def text_size(key: object, value: object) -> int:
    """An estimate of what an entry keeps alive: its key's and its value's text."""
    return len(str(key)) + len(str(value)) + 100


class LRU(Generic[K, V]):
    """At most ``max_entries`` values (0: keeps nothing) weighing at most ``max_bytes``
    together, by ``weigh(key, value)``; the least recently used go first. A value heavier than
    the whole budget is not kept."""

    def __init__(self, max_entries: int, max_bytes: int | None = None,
                 weigh: Callable[[K, V], int] = text_size):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._weigh = weigh
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V) -> None:
        if self.max_entries <= 0:
            return
        weight = self._weigh(key, value) if self.max_bytes is not None else 0
        if self.max_bytes is not None and weight > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._entries[key] = (value, weight)
            self.bytes += weight
            while len(self._entries) > self.max_entries or (
                    self.max_bytes is not None and self.bytes > self.max_bytes):
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


def memoize(max_entries: int, max_bytes: int, bytes_per_char: int = 3) -> Callable:
    """``functools.lru_cache`` for a function of one text, bounded in bytes as well: an entry
    is taken to weigh ``bytes_per_char`` times its text's length (the key and what was
    computed from it; measured for each use, since parsed facts weigh more than a string)."""

    def decorate(function: Callable[[str], V]) -> Callable[[str], V]:
        cache: LRU[str, V] = LRU(max_entries, max_bytes,
                                 weigh=lambda key, value: bytes_per_char * len(key) + 200)

        @functools.wraps(function)
        def cached(text: str) -> V:
            found = cache.get(text)
            if found is None:
                found = function(text)
                cache.put(text, found)
            return found

        cached.cache = cache  # type: ignore[attr-defined]  # for tests and memory checks
        return cached

    return decorate


def atomic_write(path: str | os.PathLike, data: bytes, durable: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory renamed into
    place: a reader sees the old file or the new one, never half of one. ``durable`` also
    syncs the data to disk before the rename (it survives a power cut, at a cost)."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Line(NamedTuple):
    number: int  # 1-based
    where: str  # "FILE, line N", for error messages
    text: str
    value: Any  # the parsed JSON


DEFAULT_ENCODING = "utf-8-sig"  # UTF-8, with the byte-order mark some editors write dropped


def read_text(path: str | os.PathLike, encoding: str = DEFAULT_ENCODING) -> str:
    """A text file's text. A file that is not in ``encoding`` raises ``ValueError`` naming the
    file, where, and the two fixes (convert it, or say its encoding)."""
    _check_encoding(encoding)
    data = Path(path).read_bytes()
    _refuse_binary(data, encoding, path)
    try:
        return _decode(data, encoding, str(path))
    except _BadText as error:
        raise ValueError(str(error)) from None


def read_jsonl(path: str | os.PathLike, encoding: str = DEFAULT_ENCODING,
               on_bad: Callable[[str], None] | None = None) -> Iterator[Line]:
    """Each non-blank line of a JSONL file, parsed. A line that is not JSON, or not text in
    ``encoding``, raises ``ValueError`` saying where; with ``on_bad``, it is handed the message
    instead and the next lines are read."""
    _check_encoding(encoding)
    data = Path(path).read_bytes()
    _refuse_binary(data, encoding, path)
    if not "a\n".encode(encoding).endswith(b"a\n"):  # not ASCII-compatible (UTF-16): whole
        data = read_text(path, encoding).encode("utf-8", "surrogatepass")
        encoding = "utf-8"
    elif data.startswith(b"\xef\xbb\xbf") and encoding == DEFAULT_ENCODING:
        data = data[3:]
    for number, raw in enumerate(data.split(b"\n"), 1):
        where = f"{path}, line {number}"
        try:
            line = _decode(raw.rstrip(b"\r"), encoding, where)
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                raise _BadText(f"{where}: not JSON ({error}).") from None
        except _BadText as error:
            if on_bad is None:
                raise ValueError(str(error)) from None
            on_bad(str(error))
            continue
        yield Line(number, where, line, value)


class _BadText(Exception):
    pass


def _check_encoding(encoding: str) -> None:
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ValueError(f"{encoding!r} is no text encoding Python knows; pass one such as "
                         "utf-8, latin-1 or cp1252.") from None


# The first bytes of the binary files most often given by mistake, to name them.
_SIGNATURES = {b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image",
               b"%PDF": "a PDF document", b"PK\x03\x04": "a ZIP archive (or a Word or Excel file)",
               b"\x1f\x8b": "a gzip archive", b"\x7fELF": "a program"}
_SNIFFED = 8000  # bytes looked at for a NUL, as git does to tell binary files from text


def _refuse_binary(data: bytes, encoding: str, path: str | os.PathLike) -> None:
    """``ValueError`` for a file that is not text at all: one of the known binary formats, or
    a NUL byte in its first ``_SNIFFED`` bytes where ``encoding`` is ASCII-compatible (UTF-16
    and UTF-32 text holds NULs)."""
    kind = next((name for start, name in _SIGNATURES.items() if data.startswith(start)), None)
    if kind is None and b"\x00" in data[:_SNIFFED] and "a\n".encode(encoding).endswith(b"a\n"):
        kind = f"a NUL byte at offset {data.index(0)}"
    if kind is not None:
        raise ValueError(f"{path} is a binary file ({kind}), not text: give a text file (for a "
                         "PDF or Word document, extract its text first).")


def _decode(data: bytes, encoding: str, where: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        name = "UTF-8" if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig") else encoding
        raise _BadText(
            f"{where} is not {name} text (byte {data[error.start]:#04x} at offset "
            f"{error.start}). Convert it (iconv -f LATIN1 -t UTF-8 FILE > FILE.utf8, naming its "
            "real encoding) or pass --encoding with its encoding (for example --encoding "
            "latin-1).") from None
