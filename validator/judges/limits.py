"""Limits every validation in the process shares for one model: how many calls are in flight at
once, and the pause a server asked for. 256 validations started together through one model do
not open 256 x ``max_concurrency`` connections; a ``Retry-After`` one call receives holds back
the calls of every other validation too, instead of each finding the limit for itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager

from ..concurrency import remaining, stopped

MAX_IN_FLIGHT = 32  # calls in flight to one model, by default (max_calls_in_flight)
_POLL = 0.25  # seconds between looks at whether the validation has ended, while waiting


class Gate:
    """The calls to one model: at most ``size`` in flight, none before a requested pause ends."""

    def __init__(self, size: int):
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._resume_at = 0.0

    def pause(self, seconds: float) -> None:
        """No call starts for ``seconds`` (a server's ``Retry-After``)."""
        with self._lock:
            self._resume_at = max(self._resume_at, time.monotonic() + seconds)

    def resumes_in(self) -> float:
        """Seconds until calls may start again after a pause (0 or less: they may)."""
        with self._lock:
            return self._resume_at - time.monotonic()

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Wait for a pause to end and a free slot, at most until the validation's deadline
        (then ``TimeoutError``, a failure the retries know); hold the slot for one call."""
        while (wait := self.resumes_in()) > 0:
            _wait_within_the_deadline(wait)
        while not self._slots.acquire(timeout=_within_the_deadline(_POLL)):
            _wait_within_the_deadline(0.0)
        try:
            yield
        finally:
            self._slots.release()


def _within_the_deadline(seconds: float) -> float:
    left = remaining()
    return seconds if left is None else max(0.0, min(seconds, left))


def _wait_within_the_deadline(seconds: float) -> None:
    """Sleep up to ``seconds`` (at most a poll); ``TimeoutError`` once the validation ended or
    passed its deadline."""
    if stopped():
        raise TimeoutError("the validation's deadline passed while its judge call waited for "
                           "a free slot (max_calls_in_flight) or a pause the server asked for")
    time.sleep(min(_POLL, _within_the_deadline(seconds)) if seconds > 0 else 0.0)


_GATES: dict[tuple[Hashable, int], Gate] = {}
_GATES_LOCK = threading.Lock()


def gate(model: Hashable, size: int) -> Gate:
    """The process's gate for ``model`` with ``size`` slots: judges naming the same model (and
    server) with the same limit share one."""
    with _GATES_LOCK:
        return _GATES.setdefault((model, size), Gate(size))
