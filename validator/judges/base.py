"""The judge interface.

Inside the validator a judge is a ``Backend``: one awaited method, ``verdicts(items,
question)``, a group of statements with their evidence in and a verdict for each out, and what
it declares of itself: how many statements one call takes (``group_size``), and whether it can
break a sentence into claims or rewrite one. The prompt judges (a LiteLLM model, a callable,
MiniCheck) are backends as they are.

What users pass is adapted once, when the validator is built (``adapt``): an object with
``judge(claim, evidence, question)`` (the public ``Judge`` protocol), and optionally
``judge_batch``, ``extract_claims``, ``correct``, each with or without an awaited twin
(``ajudge``, ...). Its plain methods run in the process's bounded pool; what it returns is
checked there, once, so that nothing the validator cannot read becomes a verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from ..concurrency import offload
from ..errors import ConfigurationError, JudgeAuthError
from ..types import DECIDERS, LABELS, Evidence, Verdict

__all__ = ["Backend", "BatchJudge", "ClaimExtractor", "ConfigurationError", "Corrector", "Judge",
           "JudgeAuthError", "adapt"]

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


class Backend:
    """A judge as the validator calls it. Subclasses write ``verdicts``; a backend that can
    break sentences into claims or rewrite them sets ``extracts_claims`` or ``corrects`` and
    writes ``claims`` or ``rewrite``."""

    group_size: int | None = None  # statements one call takes; None: as many as batch_size
    extracts_claims = False
    corrects = False
    computes = False  # its calls compute here (run in the pool), rather than wait on a model
    awaits_user_code = False  # it awaits a user's async code, bound to the caller's loop
    one_per_call_because: str | None = None  # why a judge that could batch takes one a call

    @property
    def name(self) -> str:
        return type(self).__name__

    async def verdicts(self, items: Sequence[Item], question: str | None) -> list[Verdict]:
        raise NotImplementedError

    async def claims(self, sentence: str, answer: str, question: str | None
                     ) -> list[str] | None:
        return None

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      question: str | None) -> str | None:
        return None


def adapt(judge: object) -> Backend:
    """``judge`` as a ``Backend``: a backend as it is, a judge object of the user's adapted."""
    return judge if isinstance(judge, Backend) else ObjectJudge(judge)


class ObjectJudge(Backend):
    """A judge object (``Judge``, and optionally ``BatchJudge``, ``ClaimExtractor``,
    ``Corrector``), its methods chosen once: the awaited twin where the object writes one beside
    the plain method (in the same class or below it), else the plain method in the pool."""

    def __init__(self, judge: object):
        self.judge = judge
        # its plain methods compute (the rules, a model's forward pass): the validation waits
        # for them before it returns; a user's may wait on a network, and is not waited for
        self.computes = bool(getattr(judge, "is_heuristic", False)
                             or getattr(judge, "computes", False))
        self._one = self._method("judge") if isinstance(judge, Judge) else None  # a corrector
        self._batch = self._method("judge_batch") if isinstance(judge, BatchJudge) else None
        self.group_size = None if self._batch is not None else 1
        self._extract = (self._method("extract_claims") if isinstance(judge, ClaimExtractor)
                         else None)
        self.extracts_claims = self._extract is not None
        self._correct = self._method("correct") if isinstance(judge, Corrector) else None
        self.corrects = self._correct is not None
        self.awaits_user_code = any(has_async(judge, name) for name in (
            "judge", "judge_batch", "extract_claims", "correct"))

    @property
    def name(self) -> str:
        return type(self.judge).__name__

    def _method(self, name: str) -> Callable[..., Awaitable[Any]]:
        if has_async(self.judge, name):
            return getattr(self.judge, f"a{name}")
        method = getattr(self.judge, name)

        async def in_the_pool(*args: Any) -> Any:
            return await offload(method, *args, join=self.computes)

        return in_the_pool

    async def verdicts(self, items: Sequence[Item], question: str | None) -> list[Verdict]:
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

    async def claims(self, sentence: str, answer: str, question: str | None
                     ) -> list[str] | None:
        if self._extract is None:
            return None
        claims = await self._extract(sentence, answer, question)
        if claims is not None and (not isinstance(claims, list)
                                   or not all(isinstance(c, str) for c in claims)):
            raise ConfigurationError(
                f"{self.name}.extract_claims returned {type(claims).__name__}; it must return "
                "a list of str, or None when it gives no claims.")
        return claims

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      question: str | None) -> str | None:
        if self._correct is None:
            return None
        written = await self._correct(sentence, evidence, verdict, question)
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
    mistake, raised, never guessed at (a guess could pass the text)."""
    score = getattr(verdict, "score", None)
    if (not isinstance(verdict, Verdict) or verdict.label not in LABELS
            or verdict.decided_by not in DECIDERS or not isinstance(verdict.reason, str)
            or not (score is None or (isinstance(score, (int, float)) and not isinstance(score, bool)
                                      and 0 <= score <= 1))):
        raise ConfigurationError(
            f"{name}.judge returned {verdict!r}; a judge must return a "
            f"provenance_guard.Verdict with a label in {LABELS}, decided_by in {DECIDERS}, a "
            "str reason and a score from 0 to 1 (or None)."
        )
