"""Cheap first: a cheaper judge (the local judge, a local NLI checkpoint, MiniCheck) decides each
claim the rule checks leave, and only the claims it is unsure of go on to the main judge (the
LLM).

Sure, for any judge: a supported verdict it proved (``Verdict.proven``: for the local judge,
one plain statement of the evidence that holds the claim, or a bare answer in the question's
place: ``rules.proves``). For a calibrated judge (its verdicts carry ``confidence``, the chance
that a verdict of that kind is right, measured on held-out data: the local judge): a confidence
of at least ``SURE``. For any other judge: a score (how fully the evidence backs the claim, 0
to 1) outside the confidence band. INVALID verdicts are never sure."""

from __future__ import annotations

from dataclasses import dataclass

from ..judges.base import Backend
from ..types import INVALID, SUPPORTED, Verdict

DEFAULT_BAND = (0.2, 0.8)
SURE = 0.99  # a calibrated verdict stands when verdicts of its kind were right this often


@dataclass(frozen=True)
class FirstJudge:
    judge: Backend
    band: tuple[float, float] = DEFAULT_BAND

    def sure(self, verdict: Verdict) -> bool:
        if verdict.label == INVALID:
            return False
        if verdict.proven and verdict.label == SUPPORTED:
            return True
        if verdict.confidence is not None:
            return verdict.confidence >= SURE
        low, high = self.band
        return verdict.score is not None and (verdict.score <= low or verdict.score >= high)
