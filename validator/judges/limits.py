"""Limits every validation in the process shares for one model: how many calls are in flight at
once, how many start per minute (optional), and the pause a server asked for. 256 validations
started together through one model do not open 256 x ``max_concurrency`` connections; a
``Retry-After`` one call receives holds back the calls of every other validation too, instead of
each finding the limit for itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from ..concurrency import remaining, stopped
from ..errors import ConfigurationError

MAX_IN_FLIGHT = 32  # calls in flight to one model, by default (max_calls_in_flight)
_POLL = 0.25  # seconds between looks at whether the validation has ended, while waiting


class Pacer:
    """Request start times ``60 / rpm`` seconds apart, handed out in turn to every caller."""

    def __init__(self, rpm: float):
        if isinstance(rpm, bool) or not isinstance(rpm, int | float) or not rpm > 0:
            raise ConfigurationError(f"rpm must be a positive number of judge requests per "
                                     f"minute; got {rpm!r}.")
        self.interval = 60.0 / rpm
        self._next = 0.0
        self._lock = threading.Lock()

    def reserve(self) -> float:
        """Seconds until the caller's request may go (0 when it may go now)."""
        with self._lock:
            now = time.monotonic()
            at = max(now, self._next)
            self._next = at + self.interval
            return at - now


class Turns:
    """Each request's start time from ``reserve`` (a ``Pacer``'s, or a remote one's), slept for
    with ``sleep``, held for the request.

    A start time is when to *start* sending, so whatever delays a request between its start and
    the wire lets later starts catch it up. LiteLLM's first request in a process is such a
    delay: it sets itself up first (measured: 0.72 s from the call to the server, 5 ms for the
    next ones), and requests started meanwhile wait for the same set-up, so starts 0.25 s apart
    arrived 6 to 90 ms apart. So the first request goes alone, and the next start is counted
    from its end: the others take their turns after it."""

    def __init__(self, reserve: Callable[[], float], sleep: Callable[[float], None]):
        self.reserve, self.sleep = reserve, sleep
        self._first = threading.Lock()
        self._warm = threading.Event()

    @contextmanager
    def turn(self) -> Iterator[None]:
        if not self._warm.is_set():
            # until the first request is over, no other takes a turn (``sleep(0)`` is where a
            # validation past its deadline stops waiting)
            while not self._first.acquire(timeout=_POLL):
                self.sleep(0.0)
            try:
                if not self._warm.is_set():
                    self.sleep(self.reserve())
                    try:
                        yield
                    finally:  # it may have left late, in a later start: that start is its own
                        self.reserve()
                        self._warm.set()
                    return
            finally:
                self._first.release()
        self.sleep(self.reserve())
        yield


class Gate:
    """The calls to one model: at most ``size`` in flight, at most ``rpm`` started a minute
    (None: no such limit), none before a requested pause ends."""

    def __init__(self, size: int, rpm: float | None = None):
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._resume_at = 0.0
        self._turns = None if rpm is None else Turns(Pacer(rpm).reserve, _sleep_within_the_deadline)

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
        """Wait for a pause to end, a free slot and the call's turn under the rate, at most
        until the validation's deadline (then ``TimeoutError``, a failure the retries know);
        hold the slot for one call. The turn is taken with the slot held, so calls that waited
        for slots together still start apart."""
        while (wait := self.resumes_in()) > 0:
            _wait_within_the_deadline(wait)
        while not self._slots.acquire(timeout=_within_the_deadline(_POLL)):
            _wait_within_the_deadline(0.0)
        try:
            if self._turns is None:
                yield
            else:
                with self._turns.turn():
                    yield
        finally:
            self._slots.release()


def _within_the_deadline(seconds: float) -> float:
    left = remaining()
    return seconds if left is None else max(0.0, min(seconds, left))


def _sleep_within_the_deadline(seconds: float) -> None:
    """Sleep ``seconds`` (0: none), a poll at a time; ``TimeoutError`` once the validation ended
    or passed its deadline."""
    until = time.monotonic() + seconds
    while True:
        _wait_within_the_deadline(max(0.0, until - time.monotonic()))
        if time.monotonic() >= until:
            return


def _wait_within_the_deadline(seconds: float) -> None:
    """Sleep up to ``seconds`` (at most a poll); ``TimeoutError`` once the validation ended or
    passed its deadline."""
    if stopped():
        raise TimeoutError("the validation's deadline passed while its judge call waited for "
                           "a free slot (max_calls_in_flight), its turn under "
                           "max_requests_per_minute, or a pause the server asked for")
    time.sleep(min(_POLL, _within_the_deadline(seconds)) if seconds > 0 else 0.0)


_GATES: dict[tuple[Hashable, int, float | None], Gate] = {}
_GATES_LOCK = threading.Lock()


def gate(model: Hashable, size: int, rpm: float | None = None) -> Gate:
    """The process's gate for ``model`` with ``size`` slots and ``rpm`` starts a minute: judges
    naming the same model (and server) with the same limits share one."""
    with _GATES_LOCK:
        if (model, size, rpm) not in _GATES:
            _GATES[(model, size, rpm)] = Gate(size, rpm)
        return _GATES[(model, size, rpm)]
