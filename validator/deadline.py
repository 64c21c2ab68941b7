"""The total time one validation may take, seen by every judge call it makes (also in the
worker threads, which run in a copy of the validation's context)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("provenance_deadline", default=None)


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
