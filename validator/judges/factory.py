"""The one place a judge is chosen: ``make_judge`` maps what ``llm_callable`` is (a judge, a
name, a callable) to a judge, importing only the backend it picks."""

from __future__ import annotations

from typing import Any

from ..errors import ConfigurationError
from .base import Judge

LOCAL = "local"  # llm_callable naming the offline judge
NLI = "nli:"  # "nli:<checkpoint folder or cached Hugging Face name>": NLIJudge
MINICHECK = "minicheck:"  # "minicheck:<LiteLLM model serving Bespoke-MiniCheck>": MiniCheckJudge


def make_judge(
    llm_callable: object, llm_kwargs: dict[str, Any] | None = None, **options
) -> Judge:
    """A judge object is used as is; ``"local"`` is the offline rule-based judge (a string, so a
    guard's configuration serialises), ``"nli:PATH_OR_NAME"`` a local NLI checkpoint,
    ``"minicheck:MODEL"`` Bespoke-MiniCheck through LiteLLM; any other string is a LiteLLM
    model name; a callable takes a prompt and returns the reply text."""
    if isinstance(llm_callable, type):
        name = llm_callable.__name__
        raise ConfigurationError(
            f"llm_callable is the class {name}, not a judge: pass an instance, {name}(), or the "
            "name \"local\" for the offline judge."
        )
    if isinstance(llm_callable, Judge):
        _no_llm_kwargs(llm_kwargs, "a judge object")
        return llm_callable
    if isinstance(llm_callable, str):
        if not llm_callable.strip():
            raise ValueError("llm_callable must not be an empty string; name a LiteLLM model, "
                             f"or {LOCAL!r} for the offline judge.")
        if llm_callable == LOCAL:
            _no_llm_kwargs(llm_kwargs, "the local judge")
            from .local import LocalJudge

            return LocalJudge()
        if llm_callable.startswith(NLI):
            _no_llm_kwargs(llm_kwargs, "an NLI checkpoint")
            from .nli import NLIJudge

            return NLIJudge(llm_callable[len(NLI):].strip())
        if llm_callable.startswith(MINICHECK):
            from .minicheck import MiniCheckJudge

            return MiniCheckJudge(llm_callable[len(MINICHECK):].strip(), llm_kwargs, **options)
        from .litellm_judge import LiteLLMJudge

        return LiteLLMJudge(llm_callable, llm_kwargs, **options)
    if callable(llm_callable):
        _no_llm_kwargs(llm_kwargs, "a callable judge")
        from .callable_judge import CallableJudge

        return CallableJudge(llm_callable, **options)
    raise ValueError(
        "llm_callable must be a LiteLLM model name (str), a callable prompt -> str, or a judge "
        f"object with a judge(claim, evidence) method; got {type(llm_callable).__name__}."
    )


def _no_llm_kwargs(llm_kwargs: dict[str, Any] | None, what: str) -> None:
    if llm_kwargs:
        raise ConfigurationError(f"llm_kwargs go to litellm.completion, but the judge is {what}, "
                                 "which makes no LiteLLM call: they would be ignored. Pass a "
                                 "LiteLLM model name as llm_callable, or leave llm_kwargs out.")
