"""The judge interface.

Inside the validator a judge is a ``Backend``: one awaited method, ``verdicts(items,
context)``, a group of statements with their evidence in and a verdict for each out (the
``Context`` is what the judge reads beside the evidence), and what it declares of itself: how
many statements one call takes (``group_size``), whether it can break a sentence into claims or
rewrite one, whether its verdicts carry a probability. The prompt judges (a LiteLLM model, a
callable, MiniCheck) are backends as they are; the policies (``policies``) are backends that
wrap one.

What users pass is adapted once, when the validator is built (``adapt``): an object with
``judge(claim, evidence, question)`` (the public ``Judge`` protocol), and optionally
``judge_batch``, ``extract_claims``, ``correct``, each with or without an awaited twin
(``ajudge``, ...). Its plain methods run apart from the validation's own work: in the process's
pool when they compute (``computes``), else in threads of their own that a deadline may abandon
(``runtime.waiting.Waiting``). What it returns is checked once, so that nothing the validator
cannot read becomes a verdict.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, cast, runtime_checkable

from ..errors import ConfigurationError, JudgeAuthError
from ..runtime.pool import offload
from ..runtime.waiting import identity, waiting
from ..settings import DEFAULTS
from ..types import (
    CONFLICTING_KINDS,
    DECIDERS,
    FAILURE_KINDS,
    LABELS,
    Context,
    DecidedBy,
    Evidence,
    FailureKind,
    Label,
    Verdict,
    kind_contradicts,
)
from .limits import MAX_IN_FLIGHT

__all__ = ["Backend", "BatchJudge", "ClaimExtractor", "ConfigurationError", "Corrector", "Judge",
           "JudgeAuthError", "JudgeSettings", "Unread", "adapt"]

Item = tuple[str, Sequence[Evidence]]


@runtime_checkable
class Judge(Protocol):
    """Decides whether ``claim`` is backed by ``evidence``. Must be safe to call from threads."""

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict: ...


@runtime_checkable
class BatchJudge(Protocol):
    """A judge that can also decide several claims in one call (``batch_size`` > 1)."""

    def judge_batch(
        self, items: Sequence[tuple[str, Sequence[Evidence]]], question: str | None = None
    ) -> list[Verdict]: ...


@runtime_checkable
class ClaimExtractor(Protocol):
    """A judge that can break a sentence into atomic claims (``validation_method="claim"``).
    Returns None when it cannot; the sentence is then judged whole."""

    def extract_claims(
        self, sentence: str, answer: str, question: str | None = None
    ) -> list[str] | None: ...


@runtime_checkable
class Corrector(Protocol):
    """Rewrites a sentence its evidence does not back so that the evidence backs it, using only
    that evidence (``fix_mode="correct"``); None when it cannot. The rewrite is checked and
    judged before it is used. Must be safe to call from threads."""

    def correct(
        self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
        question: str | None = None,
    ) -> str | None: ...


@dataclass(frozen=True)
class JudgeSettings:
    """The settings that make a judge and the policies it wears (each field is the setting of
    that name, its default the settings table's): one slice, taken from the validator's
    settings (``Settings.take``) on every path that builds a judge."""

    max_calls_in_flight: int = DEFAULTS.max_calls_in_flight
    max_retries: int = DEFAULTS.max_retries
    cache_size: int = DEFAULTS.cache_size
    max_requests_per_minute: float | None = DEFAULTS.max_requests_per_minute
    max_tokens_per_minute: float | None = DEFAULTS.max_tokens_per_minute
    structured_replies: str = DEFAULTS.structured_replies
    control_statements: str = DEFAULTS.control_statements
    failure_kinds: bool = DEFAULTS.failure_kinds
    min_support_probability: float | None = DEFAULTS.min_support_probability

    def given(self) -> dict[str, Any]:
        """The settings that differ from their defaults: what a user asked for."""
        return {row.name: getattr(self, row.name) for row in fields(self)
                if getattr(self, row.name) != getattr(DEFAULT_JUDGE, row.name)}


DEFAULT_JUDGE = JudgeSettings()


@dataclass(frozen=True)
class Unread(Verdict):
    """An INVALID verdict for a statement that a group call's reply gave nothing readable for:
    asked again on its own by ``policies.AskAlone`` (where it is asked alone already, it
    stands)."""


class Backend:
    """A judge as the validator calls it. Subclasses write ``verdicts``; a backend that can
    break sentences into claims or rewrite them sets ``extracts_claims`` or ``corrects`` and
    writes ``claims`` or ``rewrite``."""

    group_size: int | None = None  # statements one call takes; None: as many as batch_size
    extracts_claims = False
    corrects = False
    computes = False  # its calls compute here (run in the pool), rather than wait on a model
    gives_probabilities = False  # its verdicts may carry a probability to hold to a threshold
    one_per_call_because: str | None = None  # why a judge that could batch takes one a call

    @property
    def name(self) -> str:
        return type(self).__name__

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        raise NotImplementedError

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        return None

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        return None

    def ready(self) -> None:
        """Load what judging reads with (rules, a model, a tokenizer) that its first call would
        otherwise load; call nothing. ``ProvenanceLLM.warm_up`` calls it."""


def adapt(judge: object, size: int = MAX_IN_FLIGHT) -> Backend:
    """``judge`` as a ``Backend``: a backend as it is, a judge object of the user's adapted,
    its plain calls that only wait run at most ``size`` at once."""
    return judge if isinstance(judge, Backend) else ObjectJudge(judge, size)


class ObjectJudge(Backend):
    """A judge object (``Judge``, and optionally ``BatchJudge``, ``ClaimExtractor``,
    ``Corrector``), its methods chosen once: the awaited twin where the object writes one beside
    the plain method (in the same class or below it), on an event loop of the object's own;
    else the plain method: in the pool when the object computes (``computes`` or
    ``is_heuristic``), else in a thread of its own. Both under the object's bound of ``size``
    (``runtime.waiting.Waiting``): a call that never returns, or blocks its loop, holds up nothing
    but the object's own calls."""

    def __init__(self, judge: object, size: int = MAX_IN_FLIGHT):
        self.judge = judge
        # its plain methods compute (the rules, a model's forward pass): the validation waits
        # for them before it returns; a user's may wait on a network, and is not waited for
        self.computes = bool(getattr(judge, "is_heuristic", False)
                             or getattr(judge, "computes", False))
        self.gives_probabilities = bool(getattr(judge, "gives_probabilities", True))
        # plain methods that only wait, and every awaited one, run apart from the validations
        self.waiting = waiting(identity(judge), size)
        self._one = self._method("judge") if isinstance(judge, Judge) else None  # a corrector
        self._batch = self._method("judge_batch") if isinstance(judge, BatchJudge) else None
        self.group_size = None if self._batch is not None else 1
        self._extract = (self._method("extract_claims") if isinstance(judge, ClaimExtractor)
                         else None)
        self.extracts_claims = self._extract is not None
        self._correct = self._method("correct") if isinstance(judge, Corrector) else None
        self.corrects = self._correct is not None

    @property
    def name(self) -> str:
        return type(self.judge).__name__

    def _method(self, name: str) -> Callable[..., Awaitable[Any]]:
        if has_async(self.judge, name):  # on the object's own loop: it may block it
            return functools.partial(self.waiting.call_async, getattr(self.judge, f"a{name}"))
        method = getattr(self.judge, name)
        if self.computes:
            return functools.partial(offload, method)
        return functools.partial(self.waiting.call, method)

    def ready(self) -> None:
        """A judge object's own ``ready()``, where it writes one (ours: the rules, a model)."""
        ready = getattr(self.judge, "ready", None)
        if callable(ready):
            ready()

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        question = context.question
        if self._batch is not None and len(items) > 1:
            verdicts = await self._batch(items, question)
            check_count(self.name, verdicts, len(items))
        else:
            one = cast(Callable[..., Awaitable[Any]], self._one)  # a judge: made with judge()
            verdicts = list(await asyncio.gather(*(one(claim, evidence, question)
                                                   for claim, evidence in items)))
        for verdict in verdicts:
            check_verdict(self.name, verdict)
        return verdicts

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        if self._extract is None:
            return None
        claims = await self._extract(sentence, answer, context.question)
        if claims is not None and (not isinstance(claims, list)
                                   or not all(isinstance(c, str) for c in claims)):
            raise ConfigurationError(
                f"{self.name}.extract_claims returned {type(claims).__name__}; it must return "
                "a list of str, or None when it gives no claims.")
        return claims

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        if self._correct is None:
            return None
        written = await self._correct(sentence, evidence, verdict, context.question)
        if written is not None and not isinstance(written, str):
            raise ConfigurationError(
                f"{self.name}.correct returned {type(written).__name__}; it must return the "
                "rewritten sentence (str), or None when it cannot.")
        return written


def has_async(judge: object, method: str) -> bool:
    """Whether ``judge`` has ``a<method>`` written beside its ``<method>`` (in the same class or
    below it): a subclass that overrides ``judge`` but not ``ajudge`` is called as it wrote it."""
    owners = [c for c in type(judge).__mro__ if method in c.__dict__]
    awaited = [c for c in type(judge).__mro__ if f"a{method}" in c.__dict__]
    return bool(owners and awaited) and issubclass(awaited[0], owners[0])


def check_count(name: str, verdicts: object, count: int) -> None:
    if not isinstance(verdicts, list) or len(verdicts) != count:
        raise ConfigurationError(
            f"{name}.judge_batch must return one Verdict per item, a list of {count}; got "
            f"{type(verdicts).__name__}"
            + (f" of {len(verdicts)}" if isinstance(verdicts, list) else "") + ".")


def check_verdict(name: str, verdict: object) -> None:
    """A judge object of the user's must give Verdicts we can read: anything else is a setup
    mistake, raised, never guessed at (a guess could pass the text). Its probability is held
    to ``min_support_probability``: one out of range could pass a verdict no model was sure of."""
    # plain types first: a str subclass's own comparison is never run (it may raise anything)
    plain = isinstance(verdict, Verdict) and all(
        type(value) in (str, Label, DecidedBy) for value in (
            verdict.label, verdict.decided_by, verdict.reason))
    if not plain or not _readable(cast(Verdict, verdict)):
        shown = (repr(verdict) if plain or type(verdict) in (str, int, float, bool, type(None))
                 else f"a {type(verdict).__name__} of other types")
        raise ConfigurationError(
            f"{name}.judge returned {shown}; a judge must return a "
            f"provenance_guard.Verdict with a label in {LABELS}, decided_by in {DECIDERS}, a "
            "str reason (plain str, no subclass), a score and a probability each from 0 to 1 "
            "(or None), and a kind that is None or a FailureKind its label allows (none for "
            "supported; for contradicted, one of what the sources say otherwise: "
            f"{', '.join(sorted(CONFLICTING_KINDS))})."
        )


def _readable(verdict: Verdict) -> bool:
    return (verdict.label in LABELS and verdict.decided_by in DECIDERS
            and _chance(verdict.score) and _chance(verdict.probability) and _kind_fits(verdict))


def _kind_fits(verdict: Verdict) -> bool:
    """Its kind is None, or a failure kind its label allows."""
    kind = verdict.kind
    if kind is None:
        return True
    if type(kind) not in (str, FailureKind) or kind not in FAILURE_KINDS:
        return False
    return not kind_contradicts(verdict.label, kind)


def _chance(value: object) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                             and 0 <= value <= 1)
