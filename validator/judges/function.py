"""A plain ``prompt -> str`` callable as a judge (the hub validator's ``llm_callable``)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ConfigurationError
from .prompt_judge import PromptJudge


class CallableJudge(PromptJudge):
    def __init__(self, function: Callable[[str], str], **options):
        super().__init__(**options)
        self.function = function

    def complete(self, prompt: str) -> str:
        reply = self.function(prompt)
        if not isinstance(reply, str):
            raise ConfigurationError(
                f"llm_callable returned {type(reply).__name__}; it must return the reply text as "
                "a str (did the function forget to return it?)."
            )
        return reply
