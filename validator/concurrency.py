"""Concurrency and the per-validation deadline, owned by the Runner.

``Runner.map`` runs a function over items at most ``max_concurrency`` at once; ``deadline``
sets the total time one validation may take, which every judge call sees through
``remaining()`` (also in the worker threads, which run in a copy of the validation's context).
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_DEADLINE: ContextVar[float | None] = ContextVar("provenance_deadline", default=None)


def remaining() -> float | None:
    """Seconds left before the deadline (negative once passed), or None when there is none."""
    deadline = _DEADLINE.get()
    return None if deadline is None else deadline - time.monotonic()


@contextmanager
def deadline_in(seconds: float | None) -> Iterator[None]:
    """Set a deadline ``seconds`` from now (an outer, earlier deadline still holds)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    outer = _DEADLINE.get()
    if outer is not None:
        deadline = outer if deadline is None else min(outer, deadline)
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


# map(function, items, on_timeout): the function over the items, concurrently; an item not
# done by the validation's deadline gets on_timeout(item) (None: wait as long as it takes)
Mapper = Callable[..., list]


class Runner:
    def __init__(self, max_concurrency: int, deadline: float | None):
        self.max_concurrency = max_concurrency
        self.deadline = deadline

    def within_deadline(self):
        return deadline_in(self.deadline)

    def map(self, function: Callable, items: Sequence,
            on_timeout: Callable[[Any], Any] | None = None) -> list:
        """``function`` over ``items``, at most ``max_concurrency`` at once. With
        ``on_timeout``, an item not done by the validation's deadline gets ``on_timeout(item)``
        and is not waited for (its thread finishes on its own; judge calls stop retrying)."""
        items = list(items)
        left = remaining() if on_timeout is not None else None
        workers = min(self.max_concurrency, len(items))
        if workers <= 1 and left is None:
            return [function(item) for item in items]
        pool = ThreadPoolExecutor(max_workers=max(workers, 1), thread_name_prefix="provenance")
        try:
            futures = [pool.submit(contextvars.copy_context().run, function, item)
                       for item in items]
            done, _ = wait(futures, timeout=None if left is None else max(0.0, left))
            return [future.result() if future in done else on_timeout(item)
                    for future, item in zip(futures, items, strict=True)]
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


class Once:
    """Identical work in flight at the same time is done once: the first caller with a key
    computes, callers with the same key meanwhile wait for its result (or its exception) and
    share it. A waiter gives up at the validation's deadline (``run`` returns ``late``)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._flights: dict[Hashable, _Flight] = {}

    def run(self, key: Hashable, compute: Callable[[], Any], late: Any = None) -> tuple[Any, bool]:
        """``(result, shared)``: ``shared`` is True when another caller computed it."""
        with self._lock:
            flight = self._flights.get(key)
            leader = flight is None
            if leader:
                flight = self._flights[key] = _Flight()
        if not leader:
            left = remaining()
            if not flight.done.wait(None if left is None else max(0.0, left)):
                return late, True
            if flight.error is not None:
                raise flight.error
            return flight.result, True
        try:
            flight.result = compute()
            return flight.result, False
        except BaseException as error:
            flight.error = error
            raise
        finally:
            with self._lock:
                self._flights.pop(key, None)
            flight.done.set()


class _Flight:
    def __init__(self):
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
