"""Limits every validation in the process shares for one model: how many calls are in flight at
once, how many start per minute (optional), and the pause a server asked for. 256 validations
started together through one model do not open 256 x ``max_concurrency`` connections; a
``Retry-After`` one call receives holds back the calls of every other validation too, instead of
each finding the limit for itself. Threads and event-loop tasks (``AsyncGuard``) wait in the same
line: ``slot()`` blocks a thread, ``aslot()`` suspends a task.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator
from contextlib import asynccontextmanager, contextmanager, nullcontext

from ..concurrency import remaining, resolve_soon, stopped
from ..errors import ConfigurationError

MAX_IN_FLIGHT = 32  # calls in flight to one model, by default (max_calls_in_flight)
_POLL = 0.25  # seconds between looks at whether the validation has ended, while waiting


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
    """Each request's start time from ``reserve`` (a ``Pacer``'s, or a remote one's), slept for
    with ``sleep``, held for the request.

    A start time is when to *start* sending, so whatever delays a request between its start and
    the wire lets later starts catch it up. LiteLLM's first request in a process is such a
    delay: it sets itself up first (measured: 0.72 s from the call to the server, 5 ms for the
    next ones), and requests started meanwhile wait for the same set-up, so starts 0.25 s apart
    arrived 6 to 90 ms apart. So the first request goes alone, and the next start is counted
    from its end: the others take their turns after it."""

    def __init__(self, reserve: Callable[[], float], sleep: Callable[[float], None],
                 asleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.reserve, self.sleep, self.asleep = reserve, sleep, asleep
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

    @asynccontextmanager
    async def aturn(self) -> AsyncIterator[None]:
        """``turn()`` for a task: it waits with ``asleep``, never blocking the loop."""
        if not self._warm.is_set():
            while not self._first.acquire(blocking=False):
                await self.asleep(_POLL / 10)
            try:
                if not self._warm.is_set():
                    await self.asleep(self.reserve())
                    try:
                        yield
                    finally:
                        self.reserve()
                        self._warm.set()
                    return
            finally:
                self._first.release()
        await self.asleep(self.reserve())
        yield


class Slots:
    """``size`` slots shared by threads and tasks, handed out in the order they were asked
    for. A waiter that gives up (its validation's deadline, a cancelled task) leaves the line;
    a slot handed to it meanwhile goes on to the next."""

    def __init__(self, size: int):
        self._lock = threading.Lock()
        self._free = size
        self._line: deque[_Waiter] = deque()

    def acquire(self) -> None:
        """Take a slot, waiting at most until the validation's deadline (then
        ``TimeoutError``)."""
        event = threading.Event()
        waiter = self._join(event.set)
        if waiter is None:
            return
        try:
            while not event.wait(_within_the_deadline(_POLL)):
                _wait_within_the_deadline(0.0)
        except BaseException:
            self._leave(waiter)
            raise

    async def aacquire(self) -> None:
        """``acquire`` for a task."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def wake() -> None:
            resolve_soon(loop, future)  # RuntimeError once the loop closed

        waiter = self._join(wake)
        if waiter is None:
            return
        try:
            while not (await asyncio.wait({future}, timeout=_within_the_deadline(_POLL)))[0]:
                _check_the_deadline()
        except BaseException:
            self._leave(waiter)
            raise

    def release(self) -> None:
        while True:
            with self._lock:
                if not self._line:
                    self._free += 1
                    return
                waiter = self._line.popleft()
                waiter.granted = True
            try:
                waiter.wake()
                return
            except RuntimeError:  # a task whose loop has closed: the next in line has it
                continue

    def _join(self, wake: Callable[[], None]) -> _Waiter | None:
        """None when a slot was free (it is taken), else the caller's place in the line."""
        with self._lock:
            if self._free > 0 and not self._line:
                self._free -= 1
                return None
            waiter = _Waiter(wake)
            self._line.append(waiter)
            return waiter

    def _leave(self, waiter: _Waiter) -> None:
        with self._lock:
            if not waiter.granted:
                self._line.remove(waiter)
                return
        self.release()  # handed over as it gave up: the next in line has it


class _Waiter:
    """A place in the line: ``wake()`` tells its thread or task it has the slot."""

    def __init__(self, wake: Callable[[], None]):
        self.wake = wake
        self.granted = False


class Gate:
    """The calls to one model: at most ``size`` in flight, at most ``rpm`` started and ``tpm``
    tokens sent a minute (None: no such limit), none before a requested pause ends."""

    def __init__(self, size: int, rpm: float | None = None, tpm: float | None = None):
        self._slots = Slots(size)
        self._lock = threading.Lock()
        self._resume_at = 0.0
        self._turns = None if rpm is None else Turns(Pacer(rpm).reserve, _sleep_within_the_deadline,
                                                     _asleep_within_the_deadline)
        self._tokens = None if tpm is None else Pacer(tpm, "judge tokens")

    def spent(self, tokens: int) -> None:
        """Count tokens used after the start (a reply's) against the calls after it."""
        if self._tokens is not None and tokens:
            self._tokens.reserve(tokens)

    def _tokens_wait(self, tokens: int) -> float:
        return 0.0 if self._tokens is None or not tokens else self._tokens.reserve(tokens)

    def pause(self, seconds: float) -> None:
        """No call starts for ``seconds`` (a server's ``Retry-After``)."""
        with self._lock:
            self._resume_at = max(self._resume_at, time.monotonic() + seconds)

    def resumes_in(self) -> float:
        """Seconds until calls may start again after a pause (0 or less: they may)."""
        with self._lock:
            return self._resume_at - time.monotonic()

    @contextmanager
    def slot(self, tokens: int = 0) -> Iterator[None]:
        """Wait for a pause to end, a free slot, the call's turn under the rate and room for
        its ``tokens``, at most until the validation's deadline (then ``TimeoutError``, a
        failure the retries know); hold the slot for one call. The turn is taken with the slot
        held, so calls that waited for slots together still start apart."""
        while (wait := self.resumes_in()) > 0:
            _wait_within_the_deadline(wait)
        self._slots.acquire()
        try:
            with self._turns.turn() if self._turns is not None else nullcontext():
                _sleep_within_the_deadline(self._tokens_wait(tokens))
                yield
        finally:
            self._slots.release()

    @asynccontextmanager
    async def aslot(self, tokens: int = 0) -> AsyncIterator[None]:
        """``slot()`` for a task: the same slots, pause, turns and tokens, waited for on the
        loop."""
        while (wait := self.resumes_in()) > 0:
            await _asleep_within_the_deadline(wait)
        await self._slots.aacquire()
        try:
            async with self._turns.aturn() if self._turns is not None else nullcontext():
                await _asleep_within_the_deadline(self._tokens_wait(tokens))
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
    _check_the_deadline()
    time.sleep(min(_POLL, _within_the_deadline(seconds)) if seconds > 0 else 0.0)


async def _asleep_within_the_deadline(seconds: float) -> None:
    """``_sleep_within_the_deadline`` for a task."""
    until = time.monotonic() + seconds
    while True:
        _check_the_deadline()
        left = until - time.monotonic()
        await asyncio.sleep(min(_POLL, _within_the_deadline(left)) if left > 0 else 0.0)
        if time.monotonic() >= until:
            return


def _check_the_deadline() -> None:
    if stopped():
        raise TimeoutError("the validation's deadline passed while its judge call waited for "
                           "a free slot (max_calls_in_flight), its turn under "
                           "max_requests_per_minute or max_tokens_per_minute, or a pause the "
                           "server asked for")


_GATES: dict[tuple[Hashable, int, float | None, float | None], Gate] = {}
_GATES_LOCK = threading.Lock()


def gate(model: Hashable, size: int, rpm: float | None = None, tpm: float | None = None) -> Gate:
    """The process's gate for ``model`` with ``size`` slots, ``rpm`` starts and ``tpm`` tokens
    a minute: judges naming the same model (and server) with the same limits share one."""
    key = (model, size, rpm, tpm)
    with _GATES_LOCK:
        if key not in _GATES:
            _GATES[key] = Gate(size, rpm, tpm)
        return _GATES[key]
