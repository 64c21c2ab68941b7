"""How a validation runs: as coroutines, on an event loop, within one deadline.

The validation is written once, as coroutines (``ProvenanceLLM.acheck``). An awaited caller
(``AsyncGuard``) runs it on its own loop; a synchronous caller (``validate``, ``check``, a
``Guard`` from many threads, the CLI, the evaluation engines, Ray actors) hands it to the
process's validation loop (``run``), one thread the process keeps, and waits for the result.
docs/design/one-path.md says why this and not ``asyncio.run`` per call.

``Runner.validation()`` scopes one validation: its deadline, the tasks it starts (cancelled
when it ends) and the native work it handed to the pool (waited for before it returns, up to
``ABANDON_AFTER`` seconds past the deadline: what still runs then, such as an index build, is
abandoned, and fills the index cache for the next validation when it ends). ``Scope.map`` runs a
coroutine function over items, at most ``max_concurrency`` at once; what is not done by the
deadline is cancelled (its slots freed) and gets the caller's ``late`` value: "too late" is
that one outcome, ``TOO_LATE`` its one wording.

Blocking work (an embedding, the rules, a user's plain callable) crosses into the loop at one
boundary, ``offload``: the process's bounded pool.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import concurrent.futures
import contextlib
import contextvars
import os
import threading
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Hashable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

TOO_LATE = "before the validation's deadline"  # "no verdict " + TOO_LATE: the one wording
# Seconds past the deadline a validation waits for the native work it started (an embedding,
# a search) before it abandons it and returns: the margin its deadline is kept within.
ABANDON_AFTER = 1.0

_SCOPE: ContextVar[Scope | None] = ContextVar("provenance_scope", default=None)


class Scope:
    """One validation: its deadline (``time.monotonic()`` seconds, or None), the tasks it
    started and the pool jobs it waits for before it ends."""

    def __init__(self, max_concurrency: int, deadline: float | None,
                 length: float | None = None):
        self.max_concurrency = max(1, max_concurrency)
        self.deadline = deadline
        self.length = length  # the seconds its validator gives a validation (None: no limit)
        self.tasks: set[asyncio.Task] = set()
        self.jobs: list[concurrent.futures.Future] = []
        self.waits: set[str] = set()  # what calls cut off by the deadline were waiting for
        self.unfinished: set[str] = set()  # work the deadline found unfinished, as clauses

    def too_late(self, what: str) -> str:
        """The reason of what the deadline left undone ("no verdict", "no rewrite"): the work
        it found unfinished (the sources still being embedded) and what its calls were waiting
        for when it passed (the judge's reply, a free slot, a turn under a rate limit)."""
        said = sorted(self.unfinished)
        if self.waits:
            said.append(f"its call was waiting for {' and '.join(sorted(self.waits))}")
        return f"{what} {TOO_LATE}" + (f" ({'; '.join(said)})" if said else "")

    def remaining(self) -> float | None:
        """Seconds left before the deadline (0 once passed); None without one."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    async def map(self, function: Callable[[Any], Awaitable[T]], items: Sequence,
                  late: Callable[[Any], T] | None = None) -> list[T]:
        """``await function(item)`` for each item, at most ``max_concurrency`` at once, as
        tasks of the running loop. With ``late``, an item not done by the deadline is cancelled
        and gets ``late(item)``; without, every item is waited for. An item that raises
        raises (the first in item order) and the others are cancelled; every task has ended
        when this returns."""
        items = list(items)
        if not items:
            return []
        limit = asyncio.Semaphore(self.max_concurrency)

        async def one(item: Any) -> T:
            async with limit:
                return await function(item)

        tasks = [asyncio.ensure_future(one(item)) for item in items]
        done: set[asyncio.Future] = set()
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION,
                                         timeout=None if late is None else self.remaining())
        finally:  # cancelled first, so that what they waited for is known to ``late``
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        # a task that ended with a result between the deadline and its cancellation ended in time
        ended = [task in done or (not task.cancelled() and task.exception() is None)
                 for task in tasks]
        for task, end in zip(tasks, ended, strict=True):
            if end and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        return [task.result() if end else late(item)  # type: ignore[misc]
                for task, end, item in zip(tasks, ended, items, strict=True)]


JUDGE_REPLY = "the judge's reply"  # what a call the deadline cut off mid-call waited for


def waited_for(what: str) -> None:
    """The current validation's deadline cut off a call waiting for ``what``: its late
    verdicts' reason says so."""
    current = _SCOPE.get()
    if current is not None:
        current.waits.add(what)


def unfinished(clause: str) -> None:
    """The current validation's deadline found ``clause`` ("the sources were still being
    embedded"): its late verdicts' reason says so."""
    current = _SCOPE.get()
    if current is not None:
        current.unfinished.add(clause)


def scope() -> Scope | None:
    """The validation this runs in, if any."""
    return _SCOPE.get()


def remaining() -> float | None:
    """Seconds left before the current validation's deadline; None outside one or without
    one."""
    current = _SCOPE.get()
    return None if current is None else current.remaining()


def length() -> float | None:
    """The seconds the current validation's validator gives a validation: the same for each of
    its validations, where ``remaining()`` changes by the moment. None outside one or without a
    deadline."""
    current = _SCOPE.get()
    return None if current is None else current.length


def start(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task:
    """``coroutine`` as a task of the current validation, cancelled when it ends."""
    task = asyncio.ensure_future(coroutine)
    current = _SCOPE.get()
    if current is not None:
        current.tasks.add(task)
    return task


class Runner:
    """A validator's ``max_concurrency`` and ``deadline`` (seconds), for each validation."""

    def __init__(self, max_concurrency: int, deadline: float | None):
        self.max_concurrency = max_concurrency
        self.deadline = deadline

    @asynccontextmanager
    async def validation(self) -> AsyncIterator[Scope]:
        """The scope of one validation (see the module's docstring)."""
        outer = _SCOPE.get()
        deadline = None if self.deadline is None else time.monotonic() + self.deadline
        if outer is not None and outer.deadline is not None:  # an earlier deadline holds
            deadline = outer.deadline if deadline is None else min(deadline, outer.deadline)
        current = Scope(self.max_concurrency, deadline, self.deadline)
        token = _SCOPE.set(current)
        try:
            yield current
        finally:
            _SCOPE.reset(token)
            for task in current.tasks:
                task.cancel()
            # work not started yet never starts; native work that has started cannot be
            # cancelled: it is waited for, so that nothing of this validation computes once it
            # returns, but past the deadline only for ABANDON_AFTER seconds: then it is
            # abandoned (an index build runs on and fills the cache for the next validation)
            started = [asyncio.wrap_future(job) for job in current.jobs if not job.cancel()]
            ended = asyncio.shield(asyncio.gather(*current.tasks, *started,
                                                  return_exceptions=True))
            if deadline is None:
                await ended
            else:
                with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                    await asyncio.wait_for(ended, max(0.0, deadline - time.monotonic())
                                           + ABANDON_AFTER)


# The process's pool for blocking work, made on first use: asyncio's default executor is
# min(32, cores + 4) threads, 6 on 2 cores, shared with whatever else the application runs there.
# Its idle threads stay for the next validations.
POOL_WORKERS = 32
_pool: tuple[int, concurrent.futures.ThreadPoolExecutor] | None = None  # (pid, pool)
_pool_lock = threading.Lock()


def pool() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():  # a forked process has none of its threads
            _pool = (os.getpid(), concurrent.futures.ThreadPoolExecutor(
                max_workers=POOL_WORKERS, thread_name_prefix="provenance-pool"))
        return _pool[1]


async def offload(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in the process's pool, in a copy of the caller's context, awaited
    without blocking the loop: work that computes (an embedding, a search, the rules, a
    model). The validation waits for it before it ends, even when cancelled; if it has not
    started by then, it never does. A call that only waits on a user's code goes to
    ``Waiting`` instead, never here: a thread it holds could not do this work."""
    job = pool().submit(contextvars.copy_context().run, contained, function, *args)
    current = _SCOPE.get()
    if current is not None:
        current.jobs.append(job)
    return await asyncio.wrap_future(job)


class Busy(RuntimeError):
    """A call refused at once because earlier calls to the same judge are still running past
    the deadline that gave up on them (``Waiting``)."""


class Raised(RuntimeError):
    """A user's code raised what is not an ``Exception`` (``SystemExit``, ``KeyboardInterrupt``,
    ``GeneratorExit``, a ``BaseException`` of its own) in a thread or loop of the validator's:
    that one call failed. Raised as it was, it would end the thread or the event loop it ran on,
    and with it every validation in the process; a Ctrl-C reaches the main thread, never these,
    so nothing is lost by not raising it."""


def contained(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)``, with what it raises that is not an ``Exception`` raised as
    ``Raised`` (the original chained)."""
    try:
        return function(*args)
    except Exception:
        raise
    except BaseException as error:
        raise Raised(_raised(error)) from error


def _raised(error: BaseException) -> str:
    said = str(error)
    return (f"it raised {type(error).__name__}" + (f"({said[:200]})" if said else "")
            + ", which a judge must not: return a reply, or raise an Exception")


async def _awaited(awaitable: Awaitable[T]) -> T:
    try:
        return await awaitable
    except Exception:
        raise
    except asyncio.CancelledError:
        raise
    except BaseException as error:
        raise Raised(_raised(error)) from error


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


# The loop synchronous callers hand their validations to: one thread, kept by the process.
_home: tuple[int, asyncio.AbstractEventLoop, threading.Thread] | None = None
_home_lock = threading.Lock()
LOOP_THREAD = "provenance-loop"


def _loop() -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    global _home
    with _home_lock:
        if _home is None or _home[0] != os.getpid():
            loop = asyncio.new_event_loop()
            # what a library on the loop hands to run_in_executor (LiteLLM does) goes to the
            # process's bounded pool, not to a default executor of threads of its own
            loop.set_default_executor(pool())
            thread = threading.Thread(target=serve, args=(loop,), name=LOOP_THREAD, daemon=True)
            thread.start()
            _home = (os.getpid(), loop, thread)
            atexit.register(_stop, loop, thread)
        return _home[1], _home[2]


def serve(loop: asyncio.AbstractEventLoop) -> None:
    """Run ``loop`` until it is stopped. A task whose code raised ``SystemExit`` or
    ``KeyboardInterrupt`` (a user's code: a Ctrl-C reaches the main thread, never this one)
    ends with it, and asyncio raises it out of the loop too: the loop goes on serving the
    other tasks instead of ending, and with it every validation in the process."""
    while True:
        try:
            loop.run_forever()
            return  # stopped (interpreter exit)
        except (SystemExit, KeyboardInterrupt):
            continue


def _stop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    """At interpreter exit, the validation loop stops: what still runs on it has no caller
    left to hand a result to."""
    if thread.is_alive():
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=1.0)


def on_the_validation_loop() -> bool:
    """Whether this runs on the process's validation loop."""
    return _home is not None and _home[0] == os.getpid() and threading.current_thread() is _home[2]


def submit(coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
    """``coroutine`` started on the process's validation loop, in a copy of the caller's
    context; cancelling the future cancels it."""
    loop, thread = _loop()
    if threading.current_thread() is thread:
        coroutine.close()
        raise RuntimeError("a synchronous validation was started on the validation loop "
                           "itself; from async code, await ProvenanceLLM.acheck instead.")
    return asyncio.run_coroutine_threadsafe(coroutine, loop)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``coroutine`` run to its end on the process's validation loop, for a synchronous
    caller: from any thread, also one whose own loop is running (Jupyter). Interrupting the
    caller cancels it."""
    future = submit(coroutine)
    try:
        return future.result()
    except BaseException:
        future.cancel()
        raise


class Once:
    """Identical work in flight at the same time is done once: the first caller with a key
    computes, callers with the same key meanwhile wait for its result (or its exception) and
    share it. A leader cancelled (its validation ended) leaves its waiters to try again
    themselves. Flights are per event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # judges are shared by loops in several threads
        self._flights: dict[tuple[asyncio.AbstractEventLoop, Hashable], asyncio.Future] = {}

    async def run(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """``(result, shared)``: ``shared`` is True when another caller computed it."""
        loop = asyncio.get_running_loop()
        while True:
            with self._lock:
                flight = self._flights.get((loop, key))
                leader = flight is None
                if flight is None:
                    flight = self._flights[(loop, key)] = loop.create_future()
            if leader:
                break
            how, value = await asyncio.shield(flight)
            if how == "raised":
                raise value
            if how == "done":
                return value, True
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
