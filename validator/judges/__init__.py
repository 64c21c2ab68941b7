"""Judges: five kinds, a LiteLLM model, a callable (both prompt judges over an awaited
``complete(prompt)`` transport), MiniCheck (a LiteLLM model with its own prompt), a local NLI
checkpoint and the offline rule checker. ``factory.make_judge`` picks one, once, from what
``llm_callable`` is; ``base.adapt`` gives the validator the one interface it calls
(``Backend.verdicts``). ``Judge`` and its optional abilities are the protocols a judge object of
the user's follows."""

from __future__ import annotations

from ..errors import ConfigurationError
from .base import BatchJudge, ClaimExtractor, Corrector, Judge, JudgeAuthError
from .callable_judge import CallableJudge
from .factory import make_judge
from .litellm_judge import LiteLLMJudge
from .local import LocalJudge
from .minicheck import MiniCheckJudge
from .nli import NLIJudge
from .prompt_judge import PromptJudge

__all__ = [
    "BatchJudge",
    "CallableJudge",
    "ClaimExtractor",
    "ConfigurationError",
    "Corrector",
    "Judge",
    "JudgeAuthError",
    "LiteLLMJudge",
    "LocalJudge",
    "MiniCheckJudge",
    "NLIJudge",
    "PromptJudge",
    "make_judge",
]
