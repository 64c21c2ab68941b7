"""Deciding claims: the rules-first cascade, then the judge, one claim per call or in batches.

A *claim* is what one verdict is about: a whole sentence, or (``validation_method="claim"``)
one atomic claim of it. The cascade runs the rule-based checker first when asked to: a claim
whose evidence gives another number or date for it is contradicted, and a claim a passage
states word for word is supported, with no judge call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import rules
from .index import Evidence
from .judges import BatchJudge, ClaimExtractor, Judge
from .verdicts import BY_FALLBACK, BY_LOCAL, CONTRADICTED, INVALID, SUPPORTED, UNSUPPORTED, Verdict

# run(function, items, on_timeout): the function over the items, concurrently; an item not
# done by the validation's deadline gets on_timeout(item) (None: wait as long as it takes)
Mapper = Callable[..., list]
LATE = Verdict(INVALID, "the judge gave no verdict before the validation's deadline", None,
               BY_FALLBACK)


@dataclass(frozen=True)
class Cascade:
    """Which rule-based decisions stand without an LLM call."""

    contradictions: bool = False
    verbatim: bool = False

    @property
    def enabled(self) -> bool:
        return self.contradictions or self.verbatim

    def decide(self, claim: str, evidence: Sequence[Evidence]) -> Verdict | None:
        if not self.enabled or not evidence:
            return None
        found = rules.check(claim, evidence)
        if self.contradictions and found.clear_contradiction:
            return Verdict(CONTRADICTED, f"rule check: {found.contradiction}", 0.0, BY_LOCAL)
        if self.verbatim and found.verbatim:
            return Verdict(SUPPORTED, "rule check: a passage states it word for word", 1.0,
                           BY_LOCAL)
        return None


@dataclass(frozen=True)
class Decided:
    verdicts: list[Verdict]
    saved_calls: int  # claims the cascade decided, each a judge call not made


def decide(
    judge: Judge,
    claims: Sequence[str],
    evidence: Sequence[Sequence[Evidence]],
    question: str | None,
    *,
    cascade: Cascade,
    batch_size: int,
    run: Mapper,
) -> Decided:
    """A verdict for each claim. Each worker takes its claims' evidence as it arrives (the
    first are judged while later ones are still being embedded), then: no evidence ->
    unsupported; a rule decision (cascade) -> no call; else the judge, alone or in a batch."""

    def before_the_judge(i: int) -> tuple[Verdict | None, bool]:
        """A verdict that needs no judge call, and whether it saved one (the cascade's)."""
        found = evidence[i]
        if not found:
            return Verdict(UNSUPPORTED, "no evidence was found for it", 0.0, BY_LOCAL), False
        ruled = cascade.decide(claims[i], found)
        return ruled, ruled is not None

    def group(indexes: list[int]) -> list[tuple[Verdict, bool]]:
        early = {i: before_the_judge(i) for i in indexes}
        pending = [i for i in indexes if early[i][0] is None]
        if len(pending) > 1:
            asked = judge.judge_batch([(claims[i], evidence[i]) for i in pending], question)
        else:
            asked = [judge.judge(claims[i], evidence[i], question) for i in pending]
        late = dict(zip(pending, asked, strict=True))
        return [early[i] if early[i][0] is not None else (late[i], False) for i in indexes]

    size = batch_size if batch_size > 1 and isinstance(judge, BatchJudge) else 1
    groups = [list(range(n, min(n + size, len(claims)))) for n in range(0, len(claims), size)]
    answers = run(group, groups, lambda indexes: [(LATE, False)] * len(indexes))
    decided = [answer for answers_of_group in answers for answer in answers_of_group]
    return Decided([verdict for verdict, _ in decided], sum(saved for _, saved in decided))


def extract_claims(
    judge: Judge, sentences: Sequence[str], answer: str, question: str | None, run: Mapper
) -> list[list[str] | None]:
    """Each sentence's atomic claims from the judge, or None where it gave none, or claims that
    drop a number, date or name of the sentence (the sentence is then judged whole). A judge
    that cannot extract claims gives None for all."""
    if not isinstance(judge, ClaimExtractor):
        return [None] * len(sentences)

    def extract(sentence: str) -> list[str] | None:
        claims = judge.extract_claims(sentence, answer, question)
        return claims if claims and rules.keeps_facts(sentence, claims) else None

    return run(extract, sentences, lambda sentence: None)
