"""provenance-guard: a Guardrails validator that checks an LLM's output against its sources.

Importing this package reaches no network, writes no file, starts no thread and prints nothing
(``offline_imports`` says how, and runs first).
"""

from . import offline_imports  # noqa: F401  (first: before litellm and guardrails are imported)
from .deciding.results import Report, SentenceResult
from .errors import ConfigurationError, JudgeAuthError
from .evaluation.dataframes import evaluate
from .judges import CallableJudge, Corrector, Judge, LiteLLMJudge, LocalJudge
from .judges.minicheck import MiniCheckJudge
from .judges.nli import NLIJudge
from .main import ProvenanceLLM
from .text.sentences import split_sentences
from .types import Evidence, Sentence, Verdict

__all__ = [
    "CallableJudge",
    "ConfigurationError",
    "Corrector",
    "Evidence",
    "Judge",
    "JudgeAuthError",
    "LiteLLMJudge",
    "LocalJudge",
    "MiniCheckJudge",
    "NLIJudge",
    "ProvenanceLLM",
    "Report",
    "Sentence",
    "SentenceResult",
    "Verdict",
    "evaluate",
    "split_sentences",
    "__version__",
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("provenance-guard")
    except PackageNotFoundError:  # imported from a checkout that was never installed
        return "0+unknown"


__version__ = _version()
