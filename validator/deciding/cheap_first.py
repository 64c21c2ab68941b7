"""Cheap first: a cheaper judge (a local NLI checkpoint, the local judge, MiniCheck) decides each
claim the rule checks leave, and only the claims it is unsure of go on to the main judge (the
LLM). Unsure: a verdict whose score (how fully the evidence backs the claim, 0 to 1) lies
strictly inside the confidence band, or that has no score, or is INVALID."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..judges import BatchJudge, Judge
from ..types import INVALID, Evidence, Verdict

DEFAULT_BAND = (0.2, 0.8)


@dataclass(frozen=True)
class FirstJudge:
    judge: Judge
    band: tuple[float, float] = DEFAULT_BAND

    def sure(self, verdict: Verdict) -> bool:
        low, high = self.band
        return (verdict.label != INVALID and verdict.score is not None
                and (verdict.score <= low or verdict.score >= high))

    def judge_all(self, items: Sequence[tuple[str, Sequence[Evidence]]],
                  question: str | None) -> list[Verdict]:
        """The first judge's verdict for each item: in one batch when it can take one."""
        if len(items) > 1 and isinstance(self.judge, BatchJudge):
            return self.judge.judge_batch(items, question)
        return [self.judge.judge(claim, evidence, question) for claim, evidence in items]
