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
    verdicts: list[Verdict | None] = [None] * len(claims)
    saved = 0
    for i, (claim, found) in enumerate(zip(claims, evidence, strict=True)):
        if not found:
            verdicts[i] = Verdict(UNSUPPORTED, "no evidence was found for it", 0.0, BY_LOCAL)
            continue
        verdicts[i] = cascade.decide(claim, found)
        saved += verdicts[i] is not None
    pending = [i for i, verdict in enumerate(verdicts) if verdict is None]
    if batch_size > 1 and isinstance(judge, BatchJudge) and len(pending) > 1:
        groups = [pending[n : n + batch_size] for n in range(0, len(pending), batch_size)]
        answers = run(lambda group: judge.judge_batch(
            [(claims[i], evidence[i]) for i in group], question), groups,
            lambda group: [LATE] * len(group))
        for group, answer in zip(groups, answers, strict=True):
            for i, verdict in zip(group, answer, strict=True):
                verdicts[i] = verdict
    else:
        answers = run(lambda i: judge.judge(claims[i], evidence[i], question), pending,
                      lambda i: LATE)
        for i, verdict in zip(pending, answers, strict=True):
            verdicts[i] = verdict
    return Decided(verdicts, saved)


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
