"""A validation's deadline: ``Runner.validation()`` scopes one validation (its deadline, the
tasks it starts, cancelled when it ends, and the native work it handed to the pool, waited for
before it returns up to ``ABANDON_AFTER`` seconds past the deadline). ``Scope.map`` runs a
coroutine function over items, at most ``max_concurrency`` at once; what is not done by the
deadline is cancelled and gets the caller's ``late`` value: "too late" is that one outcome,
``TOO_LATE`` its one wording, and the reason says what the work was waiting for."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
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
