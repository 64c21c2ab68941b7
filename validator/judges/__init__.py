"""Judges: five kinds, a LiteLLM model, a callable (both prompt judges over an awaited
``complete(prompt)`` transport), MiniCheck (a LiteLLM model with its own prompt), a local NLI
checkpoint and the offline rule checker. ``factory.build`` makes one, once, from what
``llm_callable`` is and the judge settings (``JudgeSettings``), adapted to the one interface
the validator calls (``Backend.verdicts``) and wearing the policies the settings ask for
(``policies``). ``Judge`` and its optional abilities are the protocols a judge object of the
user's follows."""

from __future__ import annotations

from ..errors import ConfigurationError
from .base import BatchJudge, ClaimExtractor, Corrector, Judge, JudgeAuthError, JudgeSettings
from .callable_judge import CallableJudge
from .factory import build, make_judge
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
    "JudgeSettings",
    "LiteLLMJudge",
    "LocalJudge",
    "MiniCheckJudge",
    "NLIJudge",
    "PromptJudge",
    "build",
    "make_judge",
]
