"""The one place a judge is made: ``make_judge`` maps what ``llm_callable`` is (a judge, a
name, a callable) to a judge, importing only the backend it picks, built with the judge
settings; ``dress`` puts on it the policies those settings ask for, and says which settings it
cannot take; ``build`` does both, on every path that builds a judge (the validator, the
commands, the evaluation engines)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..errors import ConfigurationError
from ..runtime.waiting import identity
from .base import DEFAULT_JUDGE, Backend, Judge, JudgeSettings, ObjectJudge, adapt
from .limits import gate
from .policies import AskAlone, Controlled, Limited, Policy, Remembered, Threshold

LOCAL = "local"  # llm_callable naming the offline judge
NLI = "nli:"  # "nli:<checkpoint folder or cached Hugging Face name>": NLIJudge
MINICHECK = "minicheck:"  # "minicheck:<LiteLLM model serving Bespoke-MiniCheck>": MiniCheckJudge


Made = Judge | Backend


def _local(rest: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Made:
    _no_llm_kwargs(llm_kwargs, "the local judge")
    from .local import LocalJudge

    return LocalJudge()


def _nli(rest: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Made:
    _no_llm_kwargs(llm_kwargs, "an NLI checkpoint")
    from .nli import NLIJudge

    return NLIJudge(rest.strip())


def _minicheck(rest: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Made:
    from .minicheck import MiniCheckJudge

    return MiniCheckJudge(rest.strip(), llm_kwargs, **options)


def _litellm(name: str, llm_kwargs: dict[str, Any] | None, options: dict[str, Any]) -> Made:
    from .litellm_judge import LiteLLMJudge

    try:
        return LiteLLMJudge(name, llm_kwargs, **options)
    except ConfigurationError as error:
        if "not a model LiteLLM knows" not in str(error):
            raise
        raise ConfigurationError(f"{error} The names llm_callable takes: {NAMES}.") from None


# The names llm_callable takes: an exact name or a prefix, the backend it makes (imported only
# when picked), and how the docs and errors describe it. Any other string is a LiteLLM model.
_REGISTRY: dict[str, Callable[[str, dict[str, Any] | None, dict[str, Any]], Made]] = {
    LOCAL: _local, NLI: _nli, MINICHECK: _minicheck}
NAMES = ("'local' (the offline rule checker), 'nli:<checkpoint folder>' (a local NLI model), "
         "'minicheck:<LiteLLM model>' (Bespoke-MiniCheck), or a LiteLLM model name "
         "('gpt-4o-mini', 'openai/<model>' with llm_kwargs['api_base'], 'ollama/<model>')")


def make_judge(llm_callable: object, llm_kwargs: dict[str, Any] | None = None,
               settings: JudgeSettings = DEFAULT_JUDGE, *,
               cache_dir: str | os.PathLike | None = None, template: str | None = None) -> Made:
    """A judge object is used as is; a name is looked up in the registry (``"local"``, the
    offline rule-based judge, a string so a guard's configuration serialises;
    ``"nli:PATH_OR_NAME"`` a local NLI checkpoint; ``"minicheck:MODEL"`` Bespoke-MiniCheck through
    LiteLLM), any other string is a LiteLLM model name; a callable takes a prompt and returns the
    reply text. ``cache_dir`` keeps a LiteLLM model's replies on disk; ``template`` is a judge
    prompt of the user's."""
    options: dict[str, Any] = {"settings": settings}
    if template is not None:
        options["template"] = template
    if cache_dir is not None:
        if not isinstance(llm_callable, str) or llm_callable == LOCAL or (
                llm_callable.startswith(NLI)):
            raise ConfigurationError(
                f"cache_dir keeps a LiteLLM model's replies on disk, and the judge "
                f"{llm_callable!r} calls no LiteLLM model: leave cache_dir out.")
        options["cache_dir"] = cache_dir
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


class Dressed(Policy):
    """A judge as the validator calls it: ``made`` (what ``make_judge`` gave), wearing its
    policies, with the ``settings`` it was built with, and the settings it cannot take
    (``unused``: each with why, for ``refuse_unused``)."""

    def __init__(self, inner: Backend, made: Made, settings: JudgeSettings,
                 unused: dict[str, str]):
        super().__init__(inner)
        self.made, self.settings, self.unused = made, settings, unused


def build(llm_callable: object, llm_kwargs: dict[str, Any] | None = None,
          settings: JudgeSettings = DEFAULT_JUDGE, *, cache_dir: str | os.PathLike | None = None,
          template: str | None = None) -> Dressed:
    """The judge ``llm_callable`` names, made and dressed. One built before (a command builds
    its judge, then its validator) is used as it is, if it was built with the same settings."""
    if isinstance(llm_callable, Dressed):
        changed = {name: value for name, value in settings.given().items()
                   if getattr(llm_callable.settings, name) != value}
        if changed:
            name, value = next(iter(changed.items()))
            raise ConfigurationError(
                f"{name}={value!r} cannot change a judge already built with "
                f"{name}={getattr(llm_callable.settings, name)!r}: build it with that setting.")
        return llm_callable
    return dress(make_judge(llm_callable, llm_kwargs, settings, cache_dir=cache_dir,
                            template=template), settings)


def dress(made: Made, settings: JudgeSettings) -> Dressed:
    """``made`` wearing the policies ``settings`` ask for, each where it applies:

        Threshold(Remembered(AskAlone(Controlled(Limited(judge)))))

    the threshold where verdicts carry a probability; the verdict cache for a model's verdicts
    (a prompt judge, a checkpoint; not the rules, cheaper to run again than to look up);
    asking alone again and the control statement for a judge that takes several statements a
    call; the shared limits for a user's judge object (a prompt judge's are in its calls). A
    prompt judge of ours built elsewhere keeps its own settings: a setting given here that
    differs from them cannot take effect."""
    from .prompt_judge import PromptJudge

    backend = adapt(made, settings.max_calls_in_flight)
    own = made.settings if isinstance(made, PromptJudge) else settings
    unused = _unused(backend, settings, own)
    inner: Backend = backend
    if isinstance(backend, ObjectJudge) and not backend.computes:
        inner = Limited(inner, gate(identity(made), own.max_calls_in_flight,
                                    own.max_requests_per_minute))
    controls = (backend.controls if isinstance(backend, PromptJudge)
                else own.control_statements == "on" and backend.group_size is None)
    if controls:
        from .control import ready

        ready()  # the rules a control needs, loaded now rather than in a validation
        # a prompt judge's controls follow its replies: off once a refused schema makes them free
        inner = Controlled(inner, (lambda: backend.controls) if isinstance(backend, PromptJudge)
                           else (lambda: True))
    if isinstance(backend, PromptJudge) or controls:  # a call whose control went unanswered
        inner = AskAlone(inner)  # has its statements asked again, whatever the judge
    if own.cache_size and (isinstance(backend, PromptJudge) or (
            backend.computes and not _rules(backend))):
        inner = Remembered(inner, own.cache_size)
    if own.min_support_probability is not None and backend.gives_probabilities:
        inner = Threshold(inner, own.min_support_probability)
    return Dressed(inner, made, own, unused)


def _unused(backend: Backend, settings: JudgeSettings, own: JudgeSettings) -> dict[str, str]:
    """The settings given (not at their default) that ``backend`` cannot take, with why. An
    "off" asks for nothing, and nothing is what a judge without the feature does: taken."""
    from .prompt_judge import PromptJudge

    given = {name: value for name, value in settings.given().items() if value != "off"}
    if isinstance(backend, PromptJudge):
        if own is not settings:  # a judge object of ours, built with settings of its own
            return {name: f"the judge object {backend.name} was built with {name}="
                    f"{getattr(own, name)!r}: set it where the judge is built, or pass the "
                    "model's name as llm_callable" for name, value in given.items()
                    if getattr(own, name) != value}
        cannot = {} if backend.takes_forms else {
            "structured_replies": f"{backend.name} reads only its own prompt",
            "control_statements": f"{backend.name} reads only its own prompt"}
        if not backend.gives_probabilities:
            cannot["min_support_probability"] = (f"{backend.name} gives no token "
                                                 "probabilities to hold to a threshold")
        return {name: why for name, why in cannot.items() if name in given}
    given = {name: value for name, value in given.items()
             if value is not False}  # failure_kinds=False asks nothing of a judge without kinds
    takes = set()
    if not backend.computes:
        takes |= {"max_calls_in_flight", "max_requests_per_minute"}
    if backend.gives_probabilities:
        takes.add("min_support_probability")
    if backend.computes and not _rules(backend):
        takes.add("cache_size")
    if backend.group_size is None:
        takes.add("control_statements")
    return {name: f"{backend.name} {_what(backend)}" for name in given if name not in takes}


def _rules(backend: Backend) -> bool:
    return bool(getattr(getattr(backend, "judge", None), "is_heuristic", False))


def _what(backend: Backend) -> str:
    if _rules(backend):
        return "is the offline rule checker, which calls no model and gives no probabilities"
    if backend.computes:
        return "computes its verdicts here, with no calls to retry, limit or control"
    if backend.group_size == 1:
        return "is a judge object of yours that judges one statement a call"
    return "is a judge object of yours that sends its own requests"


def refuse_unused(settings: JudgeSettings, *judges: Dressed | None) -> None:
    """A judge setting given that none of ``judges`` can take raises ``ConfigurationError``,
    in one line: a setting takes effect or is refused, never ignored."""
    built = [judge for judge in judges if judge is not None]
    for name, value in settings.given().items():
        if built and all(name in judge.unused for judge in built):
            why = built[0].unused[name]
            raise ConfigurationError(f"{name}={value!r} cannot take effect: {why}. Leave it out.")


def _no_llm_kwargs(llm_kwargs: dict[str, Any] | None, what: str) -> None:
    if llm_kwargs:
        raise ConfigurationError(f"llm_kwargs go to litellm.completion, but the judge is {what}, "
                                 "which makes no LiteLLM call: they would be ignored. Pass a "
                                 "LiteLLM model name as llm_callable, or leave llm_kwargs out.")
