"""A limit on judge requests per minute, shared by everything that validates for one run.

``Pacer.reserve()`` (``judges.limits``) hands out request times ``60 / rpm`` seconds apart and
returns how long the caller must wait for its own: callers on many threads (the threads engine)
or many machines (the Ray engine holds one ``Pacer`` in an actor every worker asks) together
stay under the limit.
``pace(judge, reserve)`` makes a judge wait before every request to its model, retries
included, since each is one request the provider counts.

A slot is a time to *start* sending, so whatever delays a request between its slot and the wire
lets later slots catch it up. LiteLLM's first request in a process is such a delay: it sets
itself up first (measured: 0.72 s from the call to the server, 5 ms for the next ones), and
requests started meanwhile wait for the same set-up, so slots 0.5 s apart arrived 10 ms apart.
So a process's first request goes alone, and takes a second slot once over (the one it may
have been sent in): the other threads take their slots after that.
Across processes (Ray's actors) each one's first request can still be late by its own set-up
time, so the first requests of several processes may meet: one per process at most.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ..errors import ConfigurationError


def pace(judge, reserve: Callable[[], float]) -> None:
    """Make ``judge`` wait ``reserve()`` seconds before each request to its model. Only a judge
    that sends requests (a LiteLLM model, a callable) can be paced: any other raises."""
    from ..judges import PromptJudge

    if not isinstance(judge, PromptJudge):
        raise ConfigurationError(
            f"a requests-per-minute limit applies to an LLM judge's requests; the judge "
            f"{type(judge).__name__} sends none. Drop the limit, or judge with a model.")
    from ..judges.litellm_judge import LiteLLMJudge

    if isinstance(judge, LiteLLMJudge):
        # LiteLLM takes seconds to import, and a judge imports it on its first request: paid
        # after that request's slot, it would send the requests of all the slots that passed
        # meanwhile at once. Imported here, before any slot is handed out.
        import litellm  # noqa: F401

    send = judge.complete
    first, warm = threading.Lock(), threading.Event()

    def paced(prompt: str) -> str:
        if not warm.is_set():
            with first:  # until this process's first request is over, no other takes a slot
                if not warm.is_set():
                    try:
                        time.sleep(reserve())
                        return send(prompt)
                    finally:  # it may have left late, in a later slot: that slot is its own
                        time.sleep(reserve())
                        warm.set()
        time.sleep(reserve())
        return send(prompt)

    judge.complete = paced  # type: ignore[method-assign]  # every request, retries included, goes through complete()
