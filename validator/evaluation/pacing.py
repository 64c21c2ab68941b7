"""A limit on judge requests per minute, shared by everything that validates for one run.

``Pacer.reserve()`` (``judges.limits``) hands out request times ``60 / rpm`` seconds apart and
returns how long the caller must wait for its own: callers on many threads (the threads engine)
or many machines (the Ray engine holds one ``Pacer`` in an actor every worker asks) together
stay under the limit.
``pace(judge, reserve)`` makes a judge wait before every request to its model, retries
included, since each is one request the provider counts.

A process's first request goes alone, and the next start counts from its end (``Turns``:
LiteLLM sets itself up on a process's first request, which would let the starts that pass
meanwhile go out with it).
Across processes (Ray's actors) each one's first request can still be late by its own set-up
time, so the first requests of several processes may meet: one per process at most.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ConfigurationError
from ..judges.kinds import Reply
from ..judges.limits import Turns
from ..runtime.waiting import waiting


async def _reserved(reserve: Callable[[], float]) -> float:
    """``reserve()``, which may ask another process (the Ray engine's actor), in a thread of
    its own: it only waits."""
    return await waiting("pacing", 64).call(reserve)


def pace(judge, reserve: Callable[[], float]) -> None:
    """Make ``judge`` wait ``reserve()`` seconds before each request to its model: a policy
    over its transport, so every request, retries included, takes its turn. Only a judge that
    sends requests (a LiteLLM model, a callable) can be paced: any other raises."""
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

    send, turns = judge.caller.transport, Turns(reserve, _reserved)

    async def paced(prompt: str, room: int, form: dict | None = None) -> Reply:
        async with turns.turn():
            return await send(prompt, room, form)

    judge.caller.transport = paced
