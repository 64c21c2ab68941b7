"""The local judge: the rule checker (``rules``) as a judge, for when no LLM is configured or
none may be called.

What it is for: near-verbatim support, changed values (numbers, dates, units, names) and
negation. What it is not for: paraphrase and reasoning. It fails closed: a claim no evidence
clause states (``rules.alignment``) is *unsupported*, with the reason, so the offline path never
passes a statement its evidence does not state. A claim is *supported* only when one evidence
clause states it, *contradicted* only when a clause states it but for another value or name, or
turned round.

Each verdict's ``confidence`` is the chance that a verdict of its kind is right, measured on the
tuning halves of the shared HaluEval samples and on the project's labelled sets
(``benchmarks/calibrate_local_judge.py``; docs/design/local-judge.md has the table). Its
``score`` is the chance the claim is supported: the confidence for a supported verdict, one
minus it otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .. import rules
from ..rules.comparisons import compare
from ..text.grammar import THIRD_PERSON
from ..text.questions import choice, in_its_place
from ..text.refusals import asked_about, asks_which, is_refusal, refusal_topic
from ..types import (
    BY_LOCAL,
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    Evidence,
    FailureKind,
    Verdict,
)

# The chance a verdict of each kind is right: (right + 1) / (decided + 2) over the answers the
# kind decided on the tuning halves (Laplace's rule: 25 right of 25 earns 0.96, not 1.0).
# Regenerate with `python benchmarks/calibrate_local_judge.py --half tune`.
CONFIDENCE = {
    "verbatim": 0.95,  # 18 of 18
    "aligned": 0.941,  # 31 of 32
    "mention": 0.975,  # 194 of 198
    "value": 0.963,  # 25 of 25
    "antonym": 0.944,  # 16 of 16
    "negation": 0.929,  # 12 of 12
    "name": 0.75,  # 2 of 2
    "unaligned": 0.588,  # 776 of 1,319 (an unsupported verdict; the rest were right answers)
    "refusal": 0.667,  # 1 of 1
    "answered": 0.667,  # 1 of 1 (a bare answer proven in the question's place)
    "compared": 0.833,  # 4 of 4 (which of two names was born first, by one statement of each)
}

REFUSAL_COVERAGE = 0.75  # share of what a refusal asks about that a passage must not cover


class Decision(NamedTuple):
    """What the rules decided of one claim: its label, the reason, the kind of decision (a key
    of ``CONFIDENCE``) and, where it fails, what it gets wrong."""

    label: str
    reason: str
    kind: str
    fault: FailureKind | None = None
    basis: int | None = None  # the passage that decided: its index in the evidence
    proven: bool = False  # one plain statement of the evidence holds it (``rules.proves``)


class LocalJudge:
    """A rule-based judge: no model, no network, the same answer every time."""

    is_heuristic = True
    gives_probabilities = False  # its verdicts carry a calibrated confidence instead

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict:
        return verdict_of(self.decide(claim, evidence, question))

    def ready(self) -> None:
        """Load the rules (their word lists and stemmer: seconds, once a process)."""
        self.decide("The hall opened in 1900.", [Evidence("The hall opened in 1900 in the town.")])

    def decide(self, claim: str, evidence: Sequence[Evidence],
               question: str | None = None) -> Decision:
        if not evidence:
            return Decision(UNSUPPORTED, "no evidence was retrieved", "unaligned",
                            FailureKind.ADDITION)
        if is_refusal(claim):
            asked = asked_about(question) if question else refusal_topic(claim)
            return self._refusal(asked, evidence, asks_which(question or claim))
        compared = compare(claim, evidence, question) if question else None
        if compared is not None:  # "Who was born first, A or B?" "B."
            return Decision(SUPPORTED if compared.holds else CONTRADICTED, compared.reason,
                            "compared", None if compared.holds else FailureKind.DATE,
                            compared.basis, proven=compared.holds)
        found = rules.check(claim, evidence)
        if question and not found.contradiction and found.kind != "verbatim":
            answered = self._answered(claim, evidence, question)
            if answered is not None:
                return answered
        if found.contradiction:
            return Decision(CONTRADICTED, found.reason, found.kind, found.fault, found.basis)
        if found.kind == "mention" and question and choice(question) is not None:
            return Decision(UNSUPPORTED, "the question offers a choice the sources name either "
                            "way; no statement of theirs says which it asks for", "unaligned",
                            basis=found.basis)  # "Who died first, A or B?" "A."
        if found.supported:
            proven = found.kind != "mention" and rules.proves(claim, evidence) is not None
            return Decision(SUPPORTED, found.reason, found.kind, basis=found.basis, proven=proven)
        return Decision(UNSUPPORTED, found.reason, found.kind, found.fault, found.basis)

    @staticmethod
    def _answered(claim: str, evidence: Sequence[Evidence], question: str) -> Decision | None:
        """A bare answer ("Robert Zemeckis") proven in the place of the question's gap: the
        statement it makes there ("Beowulf was directed by Robert Zemeckis.") held by one
        statement of the sources, as any claim is (``text.questions``)."""
        placed = in_its_place(question, claim)
        basis = None if placed is None else rules.proves(placed, evidence)
        if placed is None or basis is None:
            return None
        held = rules.check(placed, evidence)
        where = (held.reason if held.kind == "verbatim"
                 else "the source states it: " + "; ".join(map(repr, held.quotes)))
        return Decision(SUPPORTED, f"in the question's place it says '{placed}', and {where}",
                        "answered", basis=basis, proven=True)

    def _refusal(self, asked: str, evidence: Sequence[Evidence], which: bool) -> Decision:
        """"No document says X" holds when no passage covers the words of X (or of the
        question, when there is one), but for those that ask: "when", "how many". Where it asks
        which ("when the museum closes"), a passage that says the opposite ("The museum opens
        at 10 am") answers another question, and so does one that only names what a pronoun
        of it stands for ("when it closes"); where it asks whether, the opposite answers it."""
        found = rules.check(asked, evidence)
        other = which and (found.kind in ("antonym", "negation") or found.kind == "mention" and any(
            w.lower() in THIRD_PERSON for w in asked.split()))
        if found.coverage >= REFUSAL_COVERAGE and not other:
            return Decision(UNSUPPORTED, "it says the sources do not answer, but a passage "
                            f"covers {found.coverage:.0%} of what it asks about", "refusal")
        return Decision(SUPPORTED, "it says the sources do not answer, and no passage covers "
                        "what it asks about", "refusal")


def verdict_of(decision: Decision) -> Verdict:
    """The verdict for a ``Decision``: its kind's confidence, and the score."""
    confidence = CONFIDENCE[decision.kind]
    score = confidence if decision.label == SUPPORTED else round(1 - confidence, 4)
    return Verdict(decision.label, decision.reason, score, BY_LOCAL, confidence,
                   kind=decision.fault, basis=decision.basis, proven=decision.proven)
