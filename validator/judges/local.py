"""The local judge: the rule-based checker (``rules``) as a judge, for when no LLM is
configured or none may be called.

It is not an LLM and does not understand paraphrase deeply. A claim is *contradicted* when a
passage that states the rest of it gives another number, date or name, or negates it;
*supported* when a passage states it verbatim, or the passages cover enough of its words (or
are similar enough) and hold every number, date and name in it; *unsupported* otherwise.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from .. import rules
from ..errors import ConfigurationError
from ..text.refusals import is_refusal, refusal_topic
from ..types import BY_LOCAL, CONTRADICTED, SUPPORTED, UNSUPPORTED, Evidence, Verdict


class LocalJudge:
    """A heuristic judge: no model, no network, the same answer every time.

    ``support_threshold``: share of the claim's content words the evidence must cover.
    ``similarity_threshold``: retrieval cosine similarity that also counts as covered.
    """

    is_heuristic = True

    def __init__(self, support_threshold: float = 0.75, similarity_threshold: float = 0.85):
        for name, value in (("support_threshold", support_threshold),
                            ("similarity_threshold", similarity_threshold)):
            if (isinstance(value, bool) or not isinstance(value, numbers.Real)
                    or not 0 < value <= 1):
                raise ConfigurationError(f"LocalJudge's {name} must be a number in (0, 1]; got "
                                         f"{value!r}.")
        self.support_threshold = support_threshold
        self.similarity_threshold = similarity_threshold

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict:
        if not evidence:
            return Verdict(UNSUPPORTED, "no evidence was retrieved", 0.0, BY_LOCAL)
        if is_refusal(claim):
            return self._refusal(question or refusal_topic(claim), evidence)
        found = rules.check(claim, evidence)
        if found.contradiction:
            return Verdict(CONTRADICTED, found.contradiction, round(min(found.coverage, 0.2), 3),
                           BY_LOCAL)
        if found.verbatim:
            return Verdict(SUPPORTED, "a passage states it word for word", 1.0, BY_LOCAL)
        problems = found.problems
        covered = (found.coverage >= self.support_threshold
                   or found.best_similarity >= self.similarity_threshold)
        if covered and not problems:
            return Verdict(
                SUPPORTED,
                f"the passages cover {found.coverage:.0%} of its content words (best similarity "
                f"{found.best_similarity:.2f}) and every number, date and name in it",
                round(max(found.coverage, found.best_similarity), 3),
                BY_LOCAL,
            )
        if not covered:
            problems.insert(0, f"the passages cover only {found.coverage:.0%} of its content words")
        return Verdict(UNSUPPORTED, "; ".join(problems), round(min(found.coverage, 0.4), 3),
                       BY_LOCAL)

    def _refusal(self, asked: str, evidence: Sequence[Evidence]) -> Verdict:
        """"No document says X" holds when no passage covers the words of X (or of the
        question, when there is one)."""
        found = rules.check(asked, evidence)
        if found.coverage >= self.support_threshold:
            return Verdict(UNSUPPORTED, "it says the sources do not answer, but a passage covers "
                           f"{found.coverage:.0%} of what it asks about", 0.2, BY_LOCAL)
        return Verdict(SUPPORTED, "it says the sources do not answer, and no passage covers "
                       "what it asks about", 0.8, BY_LOCAL)
