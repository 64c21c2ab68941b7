"""The one place a judge is chosen: ``make_judge`` maps what ``llm_callable`` is (a judge, a
name, a callable) to a judge, importing only the backend it picks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ConfigurationError
from .base import Backend, Judge

LOCAL = "local"  # llm_callable naming the offline judge
NLI = "nli:"  # "nli:<checkpoint folder or cached Hugging Face name>": NLIJudge
MINICHECK = "minicheck:"  # "minicheck:<LiteLLM model serving Bespoke-MiniCheck>": MiniCheckJudge


def _local(rest: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Judge | Backend:
    _no_llm_kwargs(llm_kwargs, "the local judge")
    from .local import LocalJudge

    return LocalJudge()


def _nli(rest: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Judge | Backend:
    _no_llm_kwargs(llm_kwargs, "an NLI checkpoint")
    from .nli import NLIJudge

    return NLIJudge(rest.strip())


def _minicheck(rest: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Judge | Backend:
    from .minicheck import MiniCheckJudge

    return MiniCheckJudge(rest.strip(), llm_kwargs, **options)


def _litellm(name: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Judge | Backend:
    from .litellm_judge import LiteLLMJudge

    try:
        return LiteLLMJudge(name, llm_kwargs, **options)
    except ConfigurationError as error:
        if "not a model LiteLLM knows" not in str(error):
            raise
        raise ConfigurationError(f"{error} The names llm_callable takes: {NAMES}.") from None


# The names llm_callable takes: an exact name or a prefix, the backend it makes (imported only
# when picked), and how the docs and errors describe it. Any other string is a LiteLLM model.
_REGISTRY: dict[str, Callable[[str, dict[str, Any] | None, dict[str, Any]], Judge | Backend]] = {
    LOCAL: _local, NLI: _nli, MINICHECK: _minicheck}
NAMES = ("'local' (the offline rule checker), 'nli:<checkpoint folder>' (a local NLI model), "
         "'minicheck:<LiteLLM model>' (Bespoke-MiniCheck), or a LiteLLM model name "
         "('gpt-4o-mini', 'openai/<model>' with llm_kwargs['api_base'], 'ollama/<model>')")


def make_judge(
    llm_callable: object, llm_kwargs: dict[str, Any] | None = None, **options
) -> Judge | Backend:
    """A judge object is used as is; a name is looked up in the registry (``"local"``, the
    offline rule-based judge, a string so a guard's configuration serialises;
    ``"nli:PATH_OR_NAME"`` a local NLI checkpoint; ``"minicheck:MODEL"`` Bespoke-MiniCheck through
    LiteLLM), any other string is a LiteLLM model name; a callable takes a prompt and returns the
    reply text."""
    if isinstance(llm_callable, type):
        name = llm_callable.__name__
        raise ConfigurationError(
            f"llm_callable is the class {name}, not a judge: pass an instance, {name}(), or the "
            "name \"local\" for the offline judge."
        )
    if isinstance(llm_callable, Judge | Backend):
        _no_llm_kwargs(llm_kwargs, "a judge object")
        return llm_callable
    if isinstance(llm_callable, str):
        if not llm_callable.strip():
            raise ValueError(f"llm_callable must not be an empty string; name one of: {NAMES}.")
        for name, make in _REGISTRY.items():
            if llm_callable == name or (name.endswith(":") and llm_callable.startswith(name)):
                return make(llm_callable[len(name):], llm_kwargs, options)
        return _litellm(llm_callable, llm_kwargs, options)
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
