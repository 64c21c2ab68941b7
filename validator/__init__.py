"""provenance-guard: a Guardrails validator that checks an LLM's output against its sources.

Importing this package reaches no network. Two libraries it imports would otherwise try:
- LiteLLM fetches its model cost map from the internet when first imported; we default
  ``LITELLM_LOCAL_MODEL_COST_MAP`` to ``True`` so it uses the copy it ships (set the variable
  to ``False`` yourself to get the fetch back).
- Guardrails calls ``nltk.download("punkt")`` when imported if that data is missing; we append
  a directory that answers the check to the end of ``nltk.data.path`` before importing it.
Both only work when this package is imported before ``litellm`` and ``guardrails``.
"""

import os as _os
from pathlib import Path as _Path

_os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def _answer_guardrails_punkt_check() -> None:
    import nltk.data

    shipped = str(_Path(__file__).parent / "_nltk_data")
    if shipped not in nltk.data.path:
        nltk.data.path.append(shipped)


_answer_guardrails_punkt_check()

from .judges import CallableJudge, Judge, JudgeAuthError, LiteLLMJudge, LocalJudge  # noqa: E402
from .main import ProvenanceLLM  # noqa: E402
from .splitting import split_sentences  # noqa: E402
from .types import Evidence, Sentence, Verdict  # noqa: E402

__all__ = [
    "CallableJudge",
    "Evidence",
    "Judge",
    "JudgeAuthError",
    "LiteLLMJudge",
    "LocalJudge",
    "ProvenanceLLM",
    "Sentence",
    "Verdict",
    "split_sentences",
]
