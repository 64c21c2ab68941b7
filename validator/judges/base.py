"""The judge interface: one method, ``judge(claim, evidence, question) -> Verdict``, and three
optional abilities the validator uses when a judge has them (batches, claims, corrections)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ..concurrency import offload
from ..errors import ConfigurationError, JudgeAuthError
from ..types import Evidence, Verdict

__all__ = ["BatchJudge", "ClaimExtractor", "ConfigurationError", "Corrector", "Judge",
           "JudgeAuthError"]


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


def has_async(judge: object, method: str) -> bool:
    """Whether ``judge`` has ``a<method>`` written beside its ``<method>`` (in the same class or
    below it): a subclass that overrides ``judge`` but not ``ajudge`` is called as it wrote it."""
    owners = [c for c in type(judge).__mro__ if method in c.__dict__]
    awaited = [c for c in type(judge).__mro__ if f"a{method}" in c.__dict__]
    return bool(owners and awaited) and issubclass(awaited[0], owners[0])


async def awaited(judge: object, method: str, *args: Any) -> Any:
    """``judge.<method>(*args)`` in an awaited validation: its ``a<method>`` awaited where
    ``has_async`` says so, else the method in the process's bounded pool."""
    if has_async(judge, method):
        return await getattr(judge, f"a{method}")(*args)
    return await offload(getattr(judge, method), *args)
