"""A plain ``prompt -> str`` callable as a judge (the hub validator's ``llm_callable``), or an
``async def`` one: awaited on the caller's loop in an awaited validation, run to completion in
the calling thread otherwise."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

from ..errors import ConfigurationError
from . import usage
from .prompt_judge import PromptJudge


class CallableJudge(PromptJudge):
    def __init__(self, function: Callable[[str], Any], **options):
        super().__init__(**options)
        _check_takes_one_prompt(function)
        self.function = function
        self.awaited = inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
            type(function).__call__)

    def model_key(self) -> int:
        return id(self.function)

    def complete(self, prompt: str) -> str:
        reply = self.function(prompt)
        if inspect.isawaitable(reply):
            reply = _run(reply)
        return _counted(prompt, reply)

    async def acomplete(self, prompt: str) -> str:
        if not self.awaited:  # a plain function: in the pool, off the loop
            return await super().acomplete(prompt)
        return _counted(prompt, await self.function(prompt))


def _counted(prompt: str, reply: object) -> str:
    if not isinstance(reply, str):
        raise ConfigurationError(
            f"llm_callable returned {type(reply).__name__}; it must return the reply text as "
            "a str (did the function forget to return it?)."
        )
    usage.counted(prompt, reply)
    return reply


def _run(awaitable: Any) -> Any:
    """What an ``async def`` judge returns, awaited from synchronous code. The validation's
    worker threads have no event loop; where the caller's thread has a running one (a
    synchronous validation started from async code), the reply is awaited in a thread of its
    own, since that loop cannot be blocked on."""
    async def reply() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(reply())
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="provenance-async-judge") as one:
        return one.submit(asyncio.run, reply()).result()


def _check_takes_one_prompt(function: Callable) -> None:
    """A callable judge is called as ``function(prompt)``: one that cannot be is a setup
    mistake, refused here rather than at every sentence."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: let the call tell
        return
    try:
        signature.bind("prompt")
    except TypeError as error:
        raise ConfigurationError(
            f"llm_callable {getattr(function, '__name__', function)!r} cannot be called with "
            f"one prompt ({error}); it must take the prompt text and return the reply text."
        ) from None
