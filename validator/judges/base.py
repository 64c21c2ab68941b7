"""The judge interface: one method, ``judge(claim, evidence, question) -> Verdict``, and three
optional abilities the validator uses when a judge has them (batches, claims, corrections)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

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
