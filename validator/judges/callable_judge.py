"""A plain ``prompt -> str`` callable as a judge (the hub validator's ``llm_callable``), or an
``async def`` one: a plain one runs in a thread of its own, an async one on an event loop of
its own (``runtime.waiting.Waiting``), apart from the validations' work and loop: a deadline
abandons either, and neither can hold up another validation."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable
from typing import Any, cast

from ..errors import ConfigurationError
from ..runtime.waiting import identity, waiting
from . import usage
from .base import DEFAULT_JUDGE, JudgeSettings
from .kinds import Reply
from .prompt_judge import PromptJudge


class CallableJudge(PromptJudge):
    """``function(prompt) -> reply``. With ``structured_replies="on"`` it is called
    ``function(prompt, response_format=schema)``, the reply's JSON schema in OpenAI's form, to
    pass on to its model; with "auto" (a function's model is not known) or "off", never. At most
    ``max_calls_in_flight`` calls of a plain function run at once, also counting calls a
    deadline gave up on that have not returned: past that, a new call fails at once, saying so.
    """

    def __init__(self, function: Callable[[str], Any], settings: JudgeSettings = DEFAULT_JUDGE,
                 **options):
        super().__init__(settings, **options)
        _check_takes_one_prompt(function, settings.structured_replies == "on")
        self.function = function
        self.awaited = is_async(function)
        self.structured = settings.structured_replies == "on"

    def model_key(self) -> Hashable:
        return identity(self.function)

    def ready(self) -> None:
        usage.tokens("")  # the tokenizer that counts each call's tokens (nobody reports them)

    async def complete(self, prompt: str, room: int, form: dict | None = None) -> Reply:
        """The function's reply (it cannot be told its room, nor tell where a reply ended)."""
        call: Callable[[str], Any] = (self.function if form is None else functools.partial(
            cast(Callable[..., Any], self.function), response_format=form))
        threads = waiting(self.model_key(), self.settings.max_calls_in_flight)
        if self.awaited:
            reply = await threads.call_async(call, prompt)
        else:
            reply = await threads.call(call, prompt)
            if inspect.isawaitable(reply):  # a plain function that returned a coroutine
                reply = await threads.call_async(lambda: reply)
        return Reply(_plain(reply))  # its tokens nobody reports: the call layer counts them


def _plain(reply: object) -> str:
    if not isinstance(reply, str):
        raise ConfigurationError(
            f"llm_callable returned {type(reply).__name__}; it must return the reply text as a "
            "str (did the function forget to return it?)."
        )
    return str.__str__(reply)  # a plain str: a subclass's own methods are never called


def is_async(function: object) -> bool:
    """Whether ``function`` is an ``async def`` function, or an object whose ``__call__`` is."""
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        type(function).__call__)  # noqa: B004 - the class's own __call__, not callable()


def _check_takes_one_prompt(function: Callable, schema: bool = False) -> None:
    """A callable judge is called as ``function(prompt)`` (with ``schema``,
    ``function(prompt, response_format=...)``): one that cannot be is a setup mistake, refused
    here rather than at every sentence."""
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
    if schema:
        try:
            signature.bind("prompt", response_format={})
        except TypeError:
            raise ConfigurationError(
                f"structured_replies='on' calls llm_callable "
                f"{getattr(function, '__name__', function)!r} with response_format=<the reply's "
                "JSON schema>, which it does not take: add a response_format=None parameter "
                "(and pass it to the model), or set structured_replies='auto'."
            ) from None
