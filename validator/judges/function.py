"""A plain ``prompt -> str`` callable as a judge (the hub validator's ``llm_callable``)."""

from __future__ import annotations

from collections.abc import Callable

from .prompt_judge import PromptJudge


class CallableJudge(PromptJudge):
    def __init__(self, function: Callable[[str], str], **options):
        super().__init__(**options)
        self.function = function

    def complete(self, prompt: str) -> str:
        return self.function(prompt)
