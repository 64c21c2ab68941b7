"""The process's validation loop: one thread the process keeps, to which synchronous callers
hand their validations (``run``, ``submit``), and ``Once``: identical work in flight at the
same time done once. docs/design/one-path.md says why this and not ``asyncio.run`` per call."""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import os
import threading
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from typing import Any, TypeVar

from .pool import pool

T = TypeVar("T")

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
