"""The one bounded cache: a thread-safe least-recently-used map, bounded in entries and in
(approximate) bytes. Every cache of the package (judge replies, source indexes, the rule
checker's facts) is one of these, so none can grow without limit in a long-running process."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
MiB = 1024 * 1024


def text_size(key: object, value: object) -> int:
    """An estimate of what an entry keeps alive: its key's and its value's text."""
    return len(str(key)) + len(str(value)) + 100


class LRU(Generic[V]):
    """At most ``max_entries`` values (0: keeps nothing) weighing at most ``max_bytes``
    together, by ``weigh(key, value)``; the least recently used go first. A value heavier than
    the whole budget is not kept."""

    def __init__(self, max_entries: int, max_bytes: int | None = None,
                 weigh: Callable[[Hashable, V], int] = text_size):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._weigh = weigh
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: V) -> None:
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
        cache: LRU[V] = LRU(max_entries, max_bytes,
                            weigh=lambda key, value: bytes_per_char * len(key) + 200)

        @functools.wraps(function)
        def cached(text: str) -> V:
            found = cache.get(text)
            if found is None:
                found = function(text)
                cache.put(text, found)
            return found

        cached.cache = cache
        return cached

    return decorate
