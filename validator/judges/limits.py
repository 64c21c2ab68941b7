"""Limits every validation in the process shares for one model: how many calls are in flight at
once, how many start (and how many tokens are sent) per minute (optional), and the pause a
server asked for. 256 validations started together through one model do not open 256 x
``max_concurrency`` connections; a ``Retry-After`` one call receives holds back the calls of
every other validation too, instead of each finding the limit for itself.

Every wait is a plain ``await``: the validation's deadline cancels it, which frees its place.
The line for slots spans event loops (the process's validation loop, and each loop that awaits
``acheck``), so it is a line of ``concurrent.futures.Future``s awaited with
``asyncio.wrap_future``: an ``asyncio.Semaphore`` belongs to one loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager

from ..errors import ConfigurationError
from ..runtime.deadline import waited_for
from ..runtime.waiting import forgets, sweep

MAX_IN_FLIGHT = 32  # calls in flight to one model, by default (max_calls_in_flight)


class Pacer:
    """Start times for a rate of ``per_minute`` units a minute (requests, or tokens), handed
    out in turn to every caller: a start that costs ``cost`` units moves the next one
    ``cost * 60 / per_minute`` seconds on."""

    def __init__(self, per_minute: float, unit: str = "judge requests"):
        if (isinstance(per_minute, bool) or not isinstance(per_minute, int | float)
                or not per_minute > 0):
            raise ConfigurationError(f"the rate must be a positive number of {unit} per "
                                     f"minute; got {per_minute!r}.")
        self.interval = 60.0 / per_minute
        self._next = 0.0
        self._lock = threading.Lock()

    def reserve(self, cost: float = 1.0) -> float:
        """Seconds until the caller's start may be (0 when it may be now)."""
        with self._lock:
            now = time.monotonic()
            at = max(now, self._next)
            self._next = at + self.interval * cost
            return at - now


class Turns:
    """Each request's start time from ``reserve`` (a ``Pacer``'s, or a remote one's, awaited
    with ``reserving``), slept for, held for the request.

    A start time is when to *start* sending, so whatever delays a request between its start and
    the wire lets later starts catch it up. LiteLLM's first request in a process is such a
    delay: it sets itself up first (measured: 0.72 s from the call to the server, 5 ms for the
    next ones), and requests started meanwhile wait for the same set-up, so starts 0.25 s apart
    arrived 6 to 90 ms apart. So the first request goes alone, and the next start is counted
    from its end: the others take their turns after it."""

    def __init__(self, reserve: Callable[[], float],
                 reserving: Callable[[Callable[[], float]], Awaitable[float]] | None = None):
        self.reserve = reserve
        self._reserving = reserving
        self._lock = threading.Lock()
        self._first: concurrent.futures.Future | None = None  # done once the first is over

    async def _reserved(self) -> float:
        if self._reserving is None:
            return self.reserve()
        return await self._reserving(self.reserve)

    @asynccontextmanager
    async def turn(self, waiting_for: str = "its turn") -> AsyncIterator[None]:
        with self._lock:
            first = self._first is None
            if self._first is None:
                self._first = concurrent.futures.Future()
            warm: concurrent.futures.Future = self._first
        if first:
            try:
                await _wait(asyncio.sleep(await self._reserved()), waiting_for)
                yield
            finally:  # it may have left late, in a later start: that start is its own
                try:
                    await self._reserved()  # a remote reserve never blocks the loop
                finally:
                    warm.set_result(None)
            return
        await _wait(asyncio.shield(asyncio.wrap_future(warm)), waiting_for)
        await _wait(asyncio.sleep(await self._reserved()), waiting_for)
        yield


class Slots:
    """``size`` slots shared by tasks of any event loop, handed out in the order they were
    asked for. A waiter that gives up (a cancelled task: its validation's deadline) leaves the
    line; a slot handed to it meanwhile goes on to the next."""

    def __init__(self, size: int):
        self._lock = threading.Lock()
        self._free = size
        self._line: deque[concurrent.futures.Future] = deque()

    async def acquire(self) -> None:
        with self._lock:
            if self._free > 0 and not self._line:
                self._free -= 1
                return
            waiter: concurrent.futures.Future = concurrent.futures.Future()
            self._line.append(waiter)
        try:
            await asyncio.wrap_future(waiter)
        except BaseException:
            with self._lock:
                granted = waiter.done() and not waiter.cancelled()
                if not granted:
                    waiter.cancel()
                    if waiter in self._line:
                        self._line.remove(waiter)
            if granted:  # handed over as it gave up: the next in line has it
                self.release()
            raise

    def release(self) -> None:
        with self._lock:
            while self._line:
                waiter = self._line.popleft()
                if waiter.set_running_or_notify_cancel():
                    waiter.set_result(None)
                    return
            self._free += 1


class Gate:
    """The calls to one model: at most ``size`` in flight, at most ``rpm`` started and ``tpm``
    tokens sent a minute (None: no such limit), none before a requested pause ends."""

    def __init__(self, size: int, rpm: float | None = None, tpm: float | None = None):
        self._slots = Slots(size)
        self._lock = threading.Lock()
        self._resume_at = 0.0
        self._turns = None if rpm is None else Turns(Pacer(rpm).reserve)
        self._tokens = None if tpm is None else Pacer(tpm, "judge tokens")

    def spent(self, tokens: int) -> None:
        """Count tokens used after the start (a reply's) against the calls after it."""
        if self._tokens is not None and tokens:
            self._tokens.reserve(tokens)

    def pause(self, seconds: float) -> None:
        """No call starts for ``seconds`` (a server's ``Retry-After``)."""
        with self._lock:
            self._resume_at = max(self._resume_at, time.monotonic() + seconds)

    def resumes_in(self) -> float:
        """Seconds until calls may start again after a pause (0 or less: they may)."""
        with self._lock:
            return self._resume_at - time.monotonic()

    @asynccontextmanager
    async def slot(self, tokens: int = 0) -> AsyncIterator[None]:
        """Wait for a pause to end, a free slot, the call's turn under the rate and room for
        its ``tokens``; hold the slot for one call. The turn is taken with the slot held, so
        calls that waited for slots together still start apart."""
        while (pause := self.resumes_in()) > 0:
            await _wait(asyncio.sleep(pause), "the pause the server asked for (Retry-After)")
        await _wait(self._slots.acquire(), "a free slot (max_calls_in_flight)")
        try:
            if self._turns is None:
                await self._tokens_turn(tokens)
                yield
            else:
                async with self._turns.turn("its turn under max_requests_per_minute"):
                    await self._tokens_turn(tokens)
                    yield
        finally:
            self._slots.release()

    async def _tokens_turn(self, tokens: int) -> None:
        if self._tokens is not None and tokens:
            await _wait(asyncio.sleep(self._tokens.reserve(tokens)),
                        "room under max_tokens_per_minute")


async def _wait(waiting: Awaitable, what: str) -> None:
    """``await waiting``; a validation cancelled meanwhile (its deadline) learns what its call
    was waiting for, for the reason its late verdicts give."""
    try:
        await waiting
    except asyncio.CancelledError:
        waited_for(what)
        raise


_GATES: dict[tuple[Hashable, int, float | None, float | None], Gate] = {}
_GATES_LOCK = threading.Lock()


def gate(model: Hashable, size: int, rpm: float | None = None, tpm: float | None = None) -> Gate:
    """The process's gate for ``model`` (a model's name and server, or a user object's
    ``runtime.waiting.identity``, forgotten with the object) with ``size`` slots, ``rpm`` starts
    and ``tpm`` tokens a minute: judges naming the same model with the same limits share one."""
    sweep()
    key = (model, size, rpm, tpm)
    with _GATES_LOCK:
        if key not in _GATES:
            _GATES[key] = Gate(size, rpm, tpm)
        return _GATES[key]


def _forget_gates(model: Hashable) -> None:
    with _GATES_LOCK:
        for key in [key for key in _GATES if key[0] == model]:
            del _GATES[key]


forgets(_forget_gates)
