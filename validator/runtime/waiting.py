"""Calls that only wait on a user's code, bounded per owner (``waiting``), and the registries
keyed by a user's object, forgotten when it is gone (``identity``, ``forgets``, ``sweep``)."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import contextvars
import os
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from typing import Any, TypeVar

from .deadline import JUDGE_REPLY, waited_for
from .loop import serve
from .pool import Busy, _awaited, contained

T = TypeVar("T")


class Waiting:
    """Calls that only wait on a user's code (a plain callable, a judge object's plain
    ``judge()``): each runs in a daemon thread of its own, apart from the pool that does the
    validations' work, at most ``size`` at once. A caller that gives up (its deadline) abandons
    its call: the thread runs on until the user's code returns, still counted, and the
    interpreter does not wait for it at exit. When ``size`` calls are running, a new one is
    refused at once (``Busy``) rather than queued behind calls that may never return."""

    def __init__(self, size: int, whose: str = "this judge",
                 limit: str | None = "max_calls_in_flight"):
        self.size, self.whose, self.limit = size, whose, limit
        self._lock = threading.Lock()
        self.running = 0
        self.abandoned = 0  # of the running calls, those whose caller gave up
        self._loop: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop)

    async def call(self, function: Callable[..., T], *args: Any,
                   waits_for: str | None = JUDGE_REPLY) -> T:
        """``function(*args)`` in a thread of its own; ``waits_for`` is what a caller cut off
        by its deadline was waiting for, as its late verdicts' reason says (None: the caller
        says it)."""
        call = self._admitted()
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        context = contextvars.copy_context()

        def deliver(outcome: tuple[bool, Any]) -> None:
            if not future.done():
                ok, value = outcome
                future.set_result(value) if ok else future.set_exception(value)

        def body() -> None:
            try:
                outcome: tuple[bool, Any] = (True, context.run(contained, function, *args))
            except Exception as error:  # noqa: BLE001 - handed to the caller as it is
                outcome = (False, error)
            call.ended()
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(deliver, outcome)

        threading.Thread(target=body, name=WAIT_THREAD, daemon=True).start()
        return await call.awaited(future, waits_for)

    async def call_async(self, function: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``await function(*args)`` (a user's async code) on this judge's own event loop, a
        thread kept for it: code that blocks its loop (``time.sleep`` in an ``async def``)
        holds up its own calls, never the validation loop, and the caller still stops waiting
        at its deadline. Counted and refused like ``call``."""
        call = self._admitted()
        loop = self._own_loop()
        job: concurrent.futures.Future[T] = concurrent.futures.Future()

        def finish(task: asyncio.Task) -> None:  # on the judge's loop, once its call ended
            call.ended()
            with contextlib.suppress(concurrent.futures.InvalidStateError):  # given up on
                if task.cancelled():
                    job.cancel()
                elif task.exception() is not None:
                    job.set_exception(task.exception())  # type: ignore[arg-type]
                else:
                    job.set_result(task.result())

        def begin(awaited: Coroutine[Any, Any, T]) -> None:  # on the judge's loop
            if job.cancelled():  # given up on before its loop got to it
                awaited.close()
                call.ended()
                return
            task = loop.create_task(awaited)
            task.add_done_callback(finish)
            job.add_done_callback(lambda _: loop.call_soon_threadsafe(task.cancel))

        try:
            loop.call_soon_threadsafe(begin, _awaited(contained(function, *args)))
        except BaseException:
            call.ended()
            raise
        # cancelling the wrapped future cancels the job: it reaches the call when its loop runs
        return await call.awaited(asyncio.wrap_future(job), JUDGE_REPLY)

    def _admitted(self) -> _Call:
        """A new call, counted, or ``Busy`` when ``size`` are running."""
        with self._lock:
            if self.running >= self.size:
                raise Busy(self._refusal())
            self.running += 1
        return _Call(self)

    def _own_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop[0] != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=serve, args=(loop,), name=JUDGE_LOOP_THREAD,
                                 daemon=True).start()
                self._loop = (os.getpid(), loop)
            return self._loop[1]

    def _refusal(self) -> str:
        return (f"{self.running} calls to {self.whose} are still running, {self.abandoned} of "
                f"them past the deadline that gave up on them; at most "
                f"{f'{self.limit}={self.size}' if self.limit else self.size} may run at once, "
                "so it is not called again until one returns "
                "(give its client a timeout shorter than the deadline)")


class _Call:
    """One call a ``Waiting`` admitted: ended once the user's code returns, abandoned if its
    caller stops waiting first (still counted until it ends)."""

    def __init__(self, waiting: Waiting):
        self.waiting = waiting
        self.abandoned = self.returned = False

    def ended(self) -> None:
        with self.waiting._lock:
            self.waiting.running -= 1
            self.waiting.abandoned -= self.abandoned
            self.returned = True

    async def awaited(self, result: Awaitable[T], waits_for: str | None) -> T:
        """``result``; if the caller is cancelled first (its deadline), the call is marked
        abandoned and what it waited for noted."""
        try:
            return await result
        except asyncio.CancelledError:
            with self.waiting._lock:
                if not self.returned:
                    self.abandoned = True
                    self.waiting.abandoned += 1
            if waits_for is not None:
                waited_for(waits_for)
            raise


WAIT_THREAD = "provenance-wait"
JUDGE_LOOP_THREAD = "provenance-judge-loop"
_waitings: dict[tuple[Hashable, int], Waiting] = {}
_waitings_lock = threading.Lock()


def waiting(key: Hashable, size: int, whose: str = "this judge",
            limit: str | None = "max_calls_in_flight") -> Waiting:
    """The process's ``Waiting`` for ``key`` (a judge's model, a query function: see
    ``identity``) with ``size`` threads: everything that calls the same code shares its
    bound. ``whose`` and ``limit`` name it in its refusal."""
    sweep()
    with _waitings_lock:
        found = _waitings.get((key, size))
        if found is None:
            found = _waitings[(key, size)] = Waiting(size, whose, limit)
        return found


# Registries keyed by a user's object (a callable, a judge object, a query function) use its
# identity; each forgets it when the object is gone, so a process that builds validators over
# new callables keeps no entry per callable, and a new object that gets an old one's id()
# starts afresh. The object's finalizer only notes the key (it may run inside a collection
# that a registry's own locked code set off); the registries sweep before each look-up.
_FORGETTING: list[Callable[[Hashable], None]] = []
_identities: set[Hashable] = set()
_identities_lock = threading.Lock()
_gone: collections.deque[Hashable] = collections.deque()


def identity(owner: object) -> Hashable:
    """The registry key of ``owner``: its identity while it lives. An object that cannot be
    referred to weakly keeps its entries for the process's life."""
    sweep()
    key = ("identity", id(owner))
    with _identities_lock:
        if key in _identities:
            return key
        _identities.add(key)
    with contextlib.suppress(TypeError):
        weakref.finalize(owner, _gone.append, key)
    return key


def forgets(forget: Callable[[Hashable], None]) -> None:
    """``forget(key)`` is called, in a sweep, once the owner of an ``identity`` key is gone."""
    _FORGETTING.append(forget)


def sweep() -> None:
    """Forget the keys of the objects that are gone."""
    while _gone:
        try:
            key = _gone.popleft()
        except IndexError:  # another thread swept it
            return
        with _identities_lock:
            _identities.discard(key)
        with _waitings_lock:
            for entry in [entry for entry in _waitings if entry[0] == key]:
                del _waitings[entry]
        for forget in _FORGETTING:
            forget(key)
