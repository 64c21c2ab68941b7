"""Concurrency and the per-validation deadline, owned by the Runner.

``Runner.validation()`` scopes one validation: its deadline (the total time it may take, which
every judge call sees through ``remaining()``), and the threads it starts. ``Runner.map`` runs
a function over items at most ``max_concurrency`` at once; worker threads run in a copy of the
validation's context, so they see its deadline and its end.

Structured concurrency: when a validation returns or raises, the threads it started have
finished, or (a judge call still in flight at the deadline, which cannot be killed) have been
told to stop: ``stopped()`` is then true, and no new judge call, retry or retrieval starts.
Threads that run native code (embedding, searching) are joined before the validation returns,
so a process that exits right after it never finds one still running.

An awaited validation (``AsyncGuard``) has the same scope through ``Runner.avalidation()``; its
judge calls are tasks on the caller's event loop (``Runner.amap``), cancelled at the deadline,
and its synchronous stages run in the process's bounded pool (``offload``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import Any

_DEADLINE: ContextVar[float | None] = ContextVar("provenance_deadline", default=None)
_SCOPE: ContextVar[_Scope | None] = ContextVar("provenance_scope", default=None)


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


class Stopped(Exception):
    """Work that was not started because its validation ended or passed its deadline."""


def stopped() -> bool:
    """Whether the validation this runs in has ended or passed its deadline: no new work may
    start (a judge call, a retry, an embedding batch)."""
    scope, left = _SCOPE.get(), remaining()
    return (scope is not None and scope.ended.is_set()) or (left is not None and left <= 0)


class _Scope:
    """One validation's background work, started through ``start``: threads (joined when it
    ends), or for an awaited validation, jobs of the bounded pool (awaited when it ends)."""

    def __init__(self, awaited: bool = False):
        self.ended = threading.Event()
        self.awaited = awaited
        self.threads: list[threading.Thread] = []
        self.jobs: list[Future] = []

    def close(self) -> None:
        self.ended.set()
        for thread in self.threads:
            thread.join()


def start(target: Callable[[], None], name: str) -> None:
    """Run ``target`` in the background of the current validation, which waits for it before
    it returns (``target`` should check ``stopped()`` between units of work): in a thread of its
    own, or in an awaited validation, in the bounded pool (so 256 validations awaited at once
    do not start 256 threads). Outside a validation, nobody waits for the thread: callers
    outside ``Runner.validation`` are tests."""
    run = functools.partial(contextvars.copy_context().run, target)
    scope = _SCOPE.get()
    if scope is not None and scope.awaited:
        scope.jobs.append(async_pool().submit(run))
        return
    thread = threading.Thread(target=run, name=name)
    if scope is not None:
        scope.threads.append(thread)
    thread.start()


# map(function, items, on_timeout): the function over the items, concurrently; an item not
# done by the validation's deadline gets on_timeout(item) (None: wait as long as it takes)
Mapper = Callable[..., list]


class Runner:
    def __init__(self, max_concurrency: int, deadline: float | None):
        self.max_concurrency = max_concurrency
        self.deadline = deadline

    @contextmanager
    def validation(self) -> Iterator[None]:
        """The scope of one validation: its deadline, and its threads, stopped and joined when
        it ends (see the module's docstring)."""
        with self._scope() as scope:
            try:
                yield
            finally:
                scope.close()

    @asynccontextmanager
    async def avalidation(self) -> AsyncIterator[None]:
        """``validation()`` for an awaited validation: its background jobs run in the bounded
        pool and are awaited, off the event loop, before it returns."""
        with self._scope(awaited=True) as scope:
            try:
                yield
            finally:
                scope.ended.set()
                if scope.jobs:
                    await asyncio.gather(*(asyncio.wrap_future(job) for job in scope.jobs),
                                         return_exceptions=True)

    @contextmanager
    def _scope(self, awaited: bool = False) -> Iterator[_Scope]:
        scope = _Scope(awaited)
        token = _SCOPE.set(scope)
        try:
            with deadline_in(self.deadline):
                yield scope
        finally:
            _SCOPE.reset(token)

    def map(self, function: Callable, items: Sequence,
            on_timeout: Callable[[Any], Any] | None = None) -> list:
        """``function`` over ``items``, at most ``max_concurrency`` at once. With
        ``on_timeout``, an item not done by the validation's deadline gets ``on_timeout(item)``
        and is not waited for: items not started are cancelled, and the one in flight stops at
        its next ``stopped()`` check (no new judge call or retry). Once every item is done, the
        pool's threads are joined before this returns."""
        items = list(items)
        left = remaining() if on_timeout is not None else None
        workers = min(self.max_concurrency, len(items))
        if workers <= 1 and left is None:
            return [function(item) for item in items]
        pool = ThreadPoolExecutor(max_workers=max(workers, 1), thread_name_prefix="provenance")
        finished = False
        try:
            futures = [pool.submit(contextvars.copy_context().run, function, item)
                       for item in items]
            done, _ = wait(futures, timeout=None if left is None else max(0.0, left),
                           return_when=FIRST_EXCEPTION)
            results = _outcomes(futures, done, items, on_timeout)
            finished = len(done) == len(futures)
            return results
        finally:
            # all done: the idle workers are joined at once; else (the deadline, or an item
            # raised) what has not started is cancelled, and what runs sees stopped() once
            # the validation ends
            pool.shutdown(wait=finished, cancel_futures=not finished)

    async def amap(self, function: Callable[[Any], Awaitable], items: Sequence,
                   on_timeout: Callable[[Any], Any] | None = None) -> list:
        """``map`` for an awaited validation: ``await function(item)`` for each item, as tasks
        of the running loop, at most ``max_concurrency`` at once. An item not done by the
        deadline (with ``on_timeout``) has its task cancelled, which ends a judge call in
        flight; every task has ended when this returns."""
        items = list(items)
        if not items:
            return []
        left = remaining() if on_timeout is not None else None
        limit = asyncio.Semaphore(max(1, self.max_concurrency))

        async def one(item: Any) -> Any:
            async with limit:
                return await function(item)

        tasks = [asyncio.ensure_future(one(item)) for item in items]
        try:
            done, _ = await asyncio.wait(tasks, timeout=None if left is None else max(0.0, left),
                                         return_when=asyncio.FIRST_EXCEPTION)
            return _outcomes(tasks, done, items, on_timeout)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def _outcomes(futures: Sequence, done: set, items: Sequence,
              on_timeout: Callable[[Any], Any] | None) -> list:
    """Each item's result, from futures (a pool's or tasks) of which ``done`` finished: an item
    that raised raises (the first in item order); one not done, or stopped (``Stopped``) by the
    deadline, gets ``on_timeout(item)`` (None without it)."""

    def late(future) -> bool:
        return future not in done or (
            on_timeout is not None and isinstance(future.exception(), Stopped))

    for future in futures:  # an item that raised ends the map at once, in item order
        error = None if late(future) else future.exception()
        if error is not None:
            raise error
    return [future.result() if not late(future) else
            on_timeout(item) if on_timeout is not None else None
            for future, item in zip(futures, items, strict=True)]


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
            if flight is None:
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
    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None


class AsyncOnce:
    """``Once`` for tasks: identical work in flight on one event loop is done once. A leader
    cancelled (its validation ended) leaves its waiters ``late``; it never cancels them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # judges are shared by threads, each with its own loop
        self._flights: dict[tuple[asyncio.AbstractEventLoop, Hashable], asyncio.Future] = {}

    async def run(self, key: Hashable, compute: Callable[[], Awaitable[Any]],
                  late: Any = None) -> tuple[Any, bool]:
        """``(result, shared)``, as ``Once.run``."""
        loop = asyncio.get_running_loop()
        with self._lock:
            flight = self._flights.get((loop, key))
            leader = flight is None
            if flight is None:
                flight = self._flights[(loop, key)] = loop.create_future()
        if not leader:
            left = remaining()
            done, _ = await asyncio.wait({flight}, timeout=None if left is None else max(0.0, left))
            if not done:
                return late, True
            how, value = flight.result()
            if how == "raised":
                raise value
            return (late if how == "abandoned" else value), True
        outcome: tuple[str, Any] = ("abandoned", None)
        try:
            result = await compute()
            outcome = ("done", result)
            return result, False
        except Exception as error:
            outcome = ("raised", error)
            raise
        finally:
            with self._lock:
                self._flights.pop((loop, key), None)
            flight.set_result(outcome)


# AsyncGuard awaits a validator's ``async_validate``. Ours awaits its judge calls on the caller's
# loop and runs its synchronous stages (reading, retrieval, the rules, aggregation, a judge with
# no async method) in a pool of its own: asyncio's default executor is min(32, cores + 4)
# threads, 6 on 2 cores, shared with whatever else the application runs there. Its idle threads
# stay for the next validations, as the default executor's do.
ASYNC_WORKERS = 32
_async_pool: ThreadPoolExecutor | None = None
_async_pool_lock = threading.Lock()


def async_pool() -> ThreadPoolExecutor:
    """The process's pool for the synchronous work of awaited validations, made on first use."""
    global _async_pool
    with _async_pool_lock:
        if _async_pool is None:
            _async_pool = ThreadPoolExecutor(max_workers=ASYNC_WORKERS,
                                             thread_name_prefix="async-validation")
        return _async_pool


def resolve_soon(loop: asyncio.AbstractEventLoop, future: asyncio.Future) -> None:
    """Resolve ``future`` (to None) on its loop, from any thread; ``RuntimeError`` once that
    loop has closed."""
    loop.call_soon_threadsafe(_resolve, future)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


class Arrival:
    """Something a thread produces (a group of evidence), waited for by threads (``wait``) or,
    without holding a thread, by tasks (``await arrived()``)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._tasks: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []

    def set(self) -> None:
        with self._lock:
            self._event.set()
            tasks, self._tasks = self._tasks, []
        for loop, future in tasks:
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                resolve_soon(loop, future)

    def wait(self) -> None:
        self._event.wait()

    async def arrived(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._event.is_set():
                return
            future = loop.create_future()
            self._tasks.append((loop, future))
        await future


async def offload(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in ``async_pool()``, in a copy of the caller's context (its
    validation, deadline and usage meter), awaited without blocking the loop."""
    loop = asyncio.get_running_loop()
    call = functools.partial(contextvars.copy_context().run, function, *args)
    return await loop.run_in_executor(async_pool(), call)
