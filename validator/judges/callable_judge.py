"""A plain ``prompt -> str`` callable as a judge (the hub validator's ``llm_callable``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ..errors import ConfigurationError
from . import usage
from .prompt_judge import PromptJudge


class CallableJudge(PromptJudge):
    def __init__(self, function: Callable[[str], str], **options):
        super().__init__(**options)
        _check_takes_one_prompt(function)
        self.function = function

    def model_key(self) -> int:
        return id(self.function)

    def complete(self, prompt: str) -> str:
        reply = self.function(prompt)
        if not isinstance(reply, str):
            raise ConfigurationError(
                f"llm_callable returned {type(reply).__name__}; it must return the reply text as "
                "a str (did the function forget to return it?)."
            )
        usage.counted(prompt, reply)
        return reply


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
