"""The one boundary where blocking work crosses into the event loop (``offload``: the process's
bounded pool), and what a user's code may raise on its way back (``Raised``, ``Busy``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from .deadline import scope

T = TypeVar("T")

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
    current = scope()
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
