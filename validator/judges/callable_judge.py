"""A plain ``prompt -> str`` callable as a judge (the hub validator's ``llm_callable``), or an
``async def`` one: awaited on the loop the validation runs on, a plain one in the process's
pool."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..concurrency import offload
from ..errors import ConfigurationError
from . import usage
from .prompt_judge import PromptJudge, Reply


class CallableJudge(PromptJudge):
    def __init__(self, function: Callable[[str], Any], **options):
        super().__init__(**options)
        _check_takes_one_prompt(function)
        self.function = function
        self.awaited = self.awaits_user_code = is_async(function)

    def model_key(self) -> int:
        return id(self.function)

    async def complete(self, prompt: str, room: int) -> Reply:
        """The function's reply (it cannot be told its room, nor tell where a reply ended)."""
        # a plain function waits on its model in the pool; the validation does not wait for a
        # call its deadline cut off
        reply = (self.function(prompt) if self.awaited
                 else await offload(self.function, prompt, join=False))
        if inspect.isawaitable(reply):  # a plain function that returned a coroutine
            reply = await reply
        # counting tokens computes: in the pool
        return Reply(await offload(_counted, prompt, reply))


def _counted(prompt: str, reply: object) -> str:
    if not isinstance(reply, str):
        raise ConfigurationError(
            f"llm_callable returned {type(reply).__name__}; it must return the reply text as a "
            "str (did the function forget to return it?)."
        )
    usage.counted(prompt, reply)
    return reply


def is_async(function: object) -> bool:
    """Whether ``function`` is an ``async def`` function, or an object whose ``__call__`` is."""
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        type(function).__call__)  # noqa: B004 - the class's own __call__, not callable()


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
