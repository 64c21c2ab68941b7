"""provenance-guard: a Guardrails validator that checks an LLM's output against its sources.

Importing this package reaches no network, writes no file, starts no thread and prints nothing
(``offline_imports`` says how); its names load what they need when first used.
"""

import importlib
import os

# LiteLLM fetches its price table from the internet when first imported, unless told to use the
# copy it ships: set before anything imports it (see offline_imports; set the variable to
# "False" yourself to get the fetch back).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from . import offline_imports  # noqa: E402 - after the variable: nothing here imports LiteLLM

offline_imports.install()  # Guardrails, whenever it is first imported, without nltk downloads

# The public names, imported on first use (PEP 562), so that ``provenance --help`` and a module
# that needs only the vocabulary do not load Guardrails, PyTorch and LiteLLM.
_HOMES = {
    "CallableJudge": ".judges", "ConfigurationError": ".errors", "Corrector": ".judges",
    "Evidence": ".types", "FailureKind": ".types", "Judge": ".judges", "JudgeAuthError": ".errors",
    "JudgeSettings": ".judges",
    "LiteLLMJudge": ".judges", "LocalJudge": ".judges", "MiniCheckJudge": ".judges.minicheck",
    "NLIJudge": ".judges.nli", "ProvenanceLLM": ".main", "Report": ".deciding.results",
    "Sentence": ".types", "SentenceResult": ".deciding.results", "Verdict": ".types",
    "evaluate": ".evaluation.dataframes", "split_sentences": ".text.sentences",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "CallableJudge",
    "ConfigurationError",
    "Corrector",
    "Evidence",
    "FailureKind",
    "Judge",
    "JudgeAuthError",
    "JudgeSettings",
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
