"""The one place a judge is made: ``make_judge`` maps what ``llm_callable`` is (a judge, a
name, a callable) to a judge, importing only the backend it picks, built with the judge
settings; ``dress`` puts on it the policies those settings ask for, and says which settings it
cannot take; ``build`` does both, on every path that builds a judge (the validator, the
commands, the evaluation engines)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ..errors import ConfigurationError
from ..runtime.credentials import keep_secret, scrubbed
from .base import DEFAULT_JUDGE, Backend, Judge, JudgeSettings
from .objects import adapt
from .policies import AskAlone, Controlled, Policy, Remembered, Threshold

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
        raise ConfigurationError(f"{error} The names llm_callable takes: {names()}.") from None


# The names llm_callable takes: an exact name or a prefix, the backend it makes (imported only
# when picked), and how the docs and errors describe it. Any other string is a LiteLLM model.
_REGISTRY: dict[str, Callable[[str, dict[str, Any] | None, dict[str, Any]], Made]] = {
    LOCAL: _local, NLI: _nli, MINICHECK: _minicheck}
NAMES = ("'local' (the offline rule checker), 'nli:<checkpoint folder>' (a local NLI model), "
         "'minicheck:<LiteLLM model>' (Bespoke-MiniCheck), or a LiteLLM model name "
         "('gpt-4o-mini', 'openai/<model>' with llm_kwargs['api_base'], 'ollama/<model>')")


# The entry-point group in which an installed package adds a judge: the entry point's name is
# the prefix (``"mine"`` makes ``llm_callable="mine:<rest>"``), its object a function
# ``make(rest, llm_kwargs, settings)`` that returns a judge (an object with ``judge()``, a
# ``Backend``, or a callable prompt -> reply). The built-in names win over a plugin's, and so
# do the LiteLLM model names that hold a colon: a plugin named "ft" would take over OpenAI's
# fine-tuned models ("ft:gpt-4o-mini:acme::abc123").
PLUGINS = "provenance_guard.judges"
_TAKEN = frozenset((*(name.rstrip(":") for name in _REGISTRY), "ft"))


@functools.cache
def plugins() -> dict[str, EntryPoint]:
    """The judge plugins installed, by prefix (read once a process; the first of two packages
    that name the same prefix wins; one named like a built-in name or a LiteLLM model's prefix
    is not used)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=PLUGINS):
        if point.name.lower() not in _TAKEN:
            found.setdefault(point.name, point)
    return found


def names() -> str:
    """The names ``llm_callable`` takes, installed plugins' prefixes included."""
    added = ", ".join(f"'{name}:...'" for name in sorted(plugins()))
    return f"{NAMES}; or a plugin's prefix: {added}" if added else NAMES


def _plugin(point: EntryPoint, rest: str, llm_kwargs: dict[str, Any] | None,
            settings: JudgeSettings) -> Made:
    """The judge a plugin makes, checked: a plugin that cannot be loaded, or that makes no
    judge, is refused naming the plugin and its package."""
    package = point.dist.name if point.dist is not None else "an unknown package"
    where = f"the judge plugin '{point.name}:' ({point.value}, from {package})"
    keep_secret(llm_kwargs)  # a plugin's judge may echo its key: scrubbed wherever it shows
    try:
        make = point.load()
    except Exception as error:  # noqa: BLE001 - any failure to import is the plugin's
        raise ConfigurationError(f"{where} could not be loaded ({type(error).__name__}: "
                                 f"{scrubbed(str(error))}): fix or reinstall {package}, or "
                                 "pass another llm_callable.") from error
    if not callable(make):
        raise ConfigurationError(f"{where} is a {type(make).__name__}, not a function "
                                 "make(rest, llm_kwargs, settings) that returns a judge.")
    try:
        made = make(rest, llm_kwargs, settings)
    except (ValueError, ConfigurationError):
        raise
    except Exception as error:  # noqa: BLE001 - named, so the user knows whose code failed
        raise ConfigurationError(f"{where} raised {type(error).__name__} making the judge "
                                 f"{point.name}:{rest!r}: {scrubbed(str(error))}") from error
    if made is None or isinstance(made, (str, type)):
        raise ConfigurationError(
            f"{where} returned {made!r}, not a judge: it must return an object with "
            "judge(claim, evidence, question), a callable prompt -> reply, or a Backend.")
    return make_judge(made, None, settings)


def make_judge(llm_callable: object, llm_kwargs: dict[str, Any] | None = None,
               settings: JudgeSettings = DEFAULT_JUDGE, *,
               cache_dir: str | os.PathLike | None = None, template: str | None = None) -> Made:
    """A judge object is used as is; a name is looked up in the registry (``"local"``, the
    offline rule-based judge, a string so a guard's configuration serialises;
    ``"nli:PATH_OR_NAME"`` a local NLI checkpoint; ``"minicheck:MODEL"`` Bespoke-MiniCheck through
    LiteLLM; ``"<prefix>:REST"`` the judge an installed plugin makes, ``PLUGINS``), any other
    string is a LiteLLM model name; a callable takes a prompt and returns the reply text.
    ``cache_dir`` keeps a LiteLLM model's replies on disk; ``template`` is a judge prompt of
    the user's."""
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
            raise ValueError(f"llm_callable must not be an empty string; name one of: {names()}.")
        for name, make in _REGISTRY.items():
            if llm_callable == name or (name.endswith(":") and llm_callable.startswith(name)):
                return make(llm_callable[len(name):], llm_kwargs, options)
        prefix, colon, rest = llm_callable.partition(":")
        if colon and prefix in plugins():
            extra = sorted(set(options) - {"settings"})
            if extra:
                one = len(extra) == 1
                raise ConfigurationError(
                    f"{' and '.join(extra)} {'is' if one else 'are'} for a LiteLLM model's "
                    f"prompts and replies, and {llm_callable!r} is a plugin's judge: leave "
                    f"{'it' if one else 'them'} out.")
            return _plugin(plugins()[prefix], rest, llm_kwargs, settings)
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


# The policies a judge may wear, the innermost first: each is put on where it ``applies`` to
# what the backend declares it can do (``Abilities``) under the settings it wears.
POLICIES: tuple[type[Policy], ...] = (Controlled, AskAlone, Remembered, Threshold)


def dress(made: Made, settings: JudgeSettings) -> Dressed:
    """``made`` wearing the policies that apply to it (``POLICIES``, in order):

        Threshold(Remembered(AskAlone(Controlled(judge))))

    the control statement and asking alone again for a judge whose calls carry controls or
    whose replies may leave a statement unread; the verdict cache for a model's verdicts; the
    threshold where verdicts carry a probability. The call layer (limits, retries, usage) is
    the backend's own (``calls.Outbound``). A judge built elsewhere with settings of its own
    (a prompt judge of ours) wears those: a setting given here that differs from them cannot
    take effect."""
    backend = adapt(made, settings)
    own = backend.settings or settings
    abilities = backend.abilities
    inner: Backend = backend
    for policy in POLICIES:
        if policy.applies(abilities, own):
            inner = policy.wear(inner, backend, own)
    return Dressed(inner, made, own, _unused(backend, settings, own))


def _unused(backend: Backend, settings: JudgeSettings, own: JudgeSettings) -> dict[str, str]:
    """The settings given (not at their default) that ``backend`` cannot take, with why: those
    neither it nor a policy it can wear takes. An "off" or False asks for nothing, and nothing
    is what a judge without the feature does: taken."""
    given = {name: value for name, value in settings.given().items() if value != "off"}
    if own is not settings:  # a judge object of ours, built with settings of its own
        return {name: f"the judge object {backend.name} was built with {name}="
                f"{getattr(own, name)!r}: set it where the judge is built, or pass the "
                "model's name as llm_callable" for name, value in given.items()
                if getattr(own, name) != value}
    abilities = backend.abilities
    takes = abilities.takes.union(*(policy.takes for policy in POLICIES
                                    if policy.fits(abilities))) - dict(abilities.cannot).keys()
    # failure_kinds=False asks nothing of a judge without kinds
    return {name: abilities.why_not(name) for name, value in given.items()
            if name not in takes and value is not False}


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
