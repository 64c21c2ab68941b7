"""Deciding: what the claims are, a verdict for each, and which uncited sources support a
mis-cited one.

A *claim* is what one verdict is about: a whole sentence, or (``validation_method="claim"``)
each atomic claim the judge's model finds in it. Each claim is decided by the rules-first
cascade (when asked for: a claim whose evidence gives another number or date for it is
contradicted, and a claim a passage states word for word is supported, with no judge call),
else by the judge, one claim per call or in batches.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from .. import rules
from ..concurrency import Mapper, Runner, Stopped, offload, stopped
from ..errors import ConfigurationError
from ..judges import BatchJudge, ClaimExtractor, Judge
from ..judges.base import awaited, has_async
from ..judges.prompts import batch_passage_chars
from ..request import Request
from ..retrieval.retriever import Found, Retriever
from ..text import citations
from ..types import (
    BY_FALLBACK,
    BY_LOCAL,
    CONTRADICTED,
    DECIDERS,
    INVALID,
    LABELS,
    SUPPORTED,
    UNSUPPORTED,
    Claim,
    Evidence,
    ReadSentence,
    Verdict,
    Within,
)
from .cheap_first import FirstJudge

NO_SOURCES = Verdict(UNSUPPORTED, "no sources were given", 0.0, BY_FALLBACK)
LATE = Verdict(INVALID, "the judge gave no verdict before the validation's deadline", None,
               BY_FALLBACK)


class EvidenceOf(Protocol):
    """Each claim's evidence by the claim's index: a list, or ``Found`` (which waits for it)."""

    def __getitem__(self, i: int, /) -> Sequence[Evidence]: ...


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
        if self.contradictions and found.kind == "value":
            return Verdict(CONTRADICTED, f"rule check: {found.reason}", 0.0, BY_LOCAL)
        if self.verbatim and found.kind == "verbatim":
            return Verdict(SUPPORTED, "rule check: a passage states it word for word", 1.0,
                           BY_LOCAL)
        return None


@dataclass(frozen=True)
class Decided:
    verdicts: list[Verdict]
    saved_calls: int  # claims the cascade decided, each a judge call not made
    by_first_judge: int = 0  # of those, the claims the first judge decided (the rest: rules)


def decide(
    judge: Judge,
    claims: Sequence[str],
    evidence: EvidenceOf,
    question: str | None,
    *,
    cascade: Cascade,
    batch_size: int,
    run: Mapper,
    first: FirstJudge | None = None,
) -> Decided:
    """A verdict for each claim. Each worker takes its claims' evidence as it arrives (the
    first are judged while later ones are still being embedded), then: no evidence ->
    unsupported; a rule decision (cascade) -> no call; a verdict the first judge is sure of
    -> no call; else the judge, alone or in a batch."""
    plan = _Plan(judge, claims, evidence, question, cascade, first)

    def group(indexes: list[int]) -> list[tuple[Verdict, int]]:
        early = plan.settle(indexes)
        asked: list[Verdict] = []
        for batch in plan.batches(indexes, early):
            if len(batch) > 1 and isinstance(judge, BatchJudge):
                asked += plan.counted(judge.judge_batch(batch, question), batch)
            else:
                asked += [judge.judge(claim, found, question) for claim, found in batch]
        return plan.combine(indexes, early, asked)

    return plan.decided(run(group, plan.groups(batch_size), plan.late))


async def adecide(
    judge: Judge,
    claims: Sequence[str],
    evidence: EvidenceOf,
    question: str | None,
    *,
    cascade: Cascade,
    batch_size: int,
    run: AsyncMapper,
    first: FirstJudge | None = None,
) -> Decided:
    """``decide`` in an awaited validation: the judge's calls are awaited (``ajudge``,
    ``ajudge_batch`` where the judge has them, else its own methods in the process's pool);
    the evidence is awaited as it arrives, and the rules and the first judge run in the
    pool."""
    plan = _Plan(judge, claims, evidence, question, cascade, first)

    async def group(indexes: list[int]) -> list[tuple[Verdict, int]]:
        if await plan.arrival(indexes) and not plan.computes:
            early = plan.settle(indexes)  # nothing to compute: no thread needed
        else:
            early = await offload(plan.settle, indexes)
        asked: list[Verdict] = []
        for batch in plan.batches(indexes, early):
            if len(batch) > 1 and isinstance(judge, BatchJudge):
                asked += plan.counted(await awaited(judge, "judge_batch", batch, question),
                                      batch)
            elif has_async(judge, "judge"):
                asked += [await judge.ajudge(claim, found, question)  # type: ignore[attr-defined]
                          for claim, found in batch]
            else:
                asked += await offload(lambda b: [judge.judge(c, f, question) for c, f in b],
                                       batch)
        return plan.combine(indexes, early, asked)

    return plan.decided(await run(group, plan.groups(batch_size), plan.late))


# amap(function, items, on_timeout): Runner.amap, the awaited form of Mapper
AsyncMapper = Callable[..., Awaitable[list]]


class _Plan:
    """One ``decide``: the claims cut into groups, what is settled before the judge in each,
    the batches left for it, and the verdicts put back in order."""

    def __init__(self, judge: Judge, claims: Sequence[str], evidence: EvidenceOf,
                 question: str | None, cascade: Cascade, first: FirstJudge | None):
        self.judge, self.claims, self.evidence = judge, claims, evidence
        self.question, self.cascade, self.first = question, cascade, first

    @property
    def computes(self) -> bool:
        """Whether settling a claim computes (the rules, the first judge), beyond looking at
        its evidence."""
        return self.cascade.enabled or self.first is not None

    async def arrival(self, indexes: list[int]) -> bool:
        """Wait for the claims' evidence to be there, without holding a thread; False when
        reading it computes it (``Found.arrival``)."""
        arrival = getattr(self.evidence, "arrival", None)
        return True if arrival is None else await arrival(indexes)

    def groups(self, batch_size: int) -> list[list[int]]:
        size = batch_size if batch_size > 1 and isinstance(self.judge, BatchJudge) else 1
        count = len(self.claims)
        return [list(range(n, min(n + size, count))) for n in range(0, count, size)]

    def settle(self, indexes: list[int]) -> dict[int, tuple[Verdict | None, int]]:
        """Each claim's verdict where no judge call is needed, and how it was decided: no
        evidence, a rule (the cascade), the first judge sure of it; None where the judge is
        asked. Waits for the group's evidence."""
        early = {i: self._before_the_judge(i) for i in indexes}
        first = self.first
        if first is not None:
            left = [i for i in indexes if early[i][0] is None]
            cheap = (first.judge_all([(self.claims[i], self.evidence[i]) for i in left],
                                     self.question) if left else [])
            _check_count(first.judge, cheap, len(left))
            for i, verdict in zip(left, cheap, strict=True):
                _check_verdict(first.judge, verdict)
                if first.sure(verdict):
                    early[i] = (verdict, _BY_FIRST)
        return early

    def _before_the_judge(self, i: int) -> tuple[Verdict | None, int]:
        """A verdict that needs no judge call, and whether it saved one (the cascade's)."""
        found = self.evidence[i]
        if not found:
            return Verdict(UNSUPPORTED, "no evidence was found for it", 0.0, BY_LOCAL), _ASKED
        ruled = self.cascade.decide(self.claims[i], found)
        return ruled, _ASKED if ruled is None else _BY_RULES

    def batches(self, indexes: list[int], early: dict[int, tuple[Verdict | None, int]]
                ) -> list[list[tuple[str, Sequence[Evidence]]]]:
        """The claims left for the judge, in batches within the cap; none may start once the
        validation ended or passed its deadline (``Stopped``)."""
        pending = [i for i in indexes if early[i][0] is None]
        if pending and stopped():
            raise Stopped("the validation ended before these claims were judged")
        return _within_the_cap([(self.claims[i], self.evidence[i]) for i in pending])

    def counted(self, verdicts: list[Verdict], batch: Sequence) -> list[Verdict]:
        _check_count(self.judge, verdicts, len(batch))
        return verdicts

    def combine(self, indexes: list[int], early: dict[int, tuple[Verdict | None, int]],
                asked: list[Verdict]) -> list[tuple[Verdict, int]]:
        for verdict in asked:
            _check_verdict(self.judge, verdict)
        pending = [i for i in indexes if early[i][0] is None]
        late = dict(zip(pending, asked, strict=True))
        decided = []
        for i in indexes:
            settled, how = early[i]
            decided.append((late[i], _ASKED) if settled is None else (settled, how))
        return decided

    @staticmethod
    def late(indexes: list[int]) -> list[tuple[Verdict, int]]:
        return [(LATE, _ASKED)] * len(indexes)

    @staticmethod
    def decided(answers: list[list[tuple[Verdict, int]]]) -> Decided:
        decided = [answer for answers_of_group in answers for answer in answers_of_group]
        return Decided([verdict for verdict, _ in decided],
                       sum(how != _ASKED for _, how in decided),
                       sum(how == _BY_FIRST for _, how in decided))


_ASKED, _BY_RULES, _BY_FIRST = 0, 1, 2  # how a claim was decided: by the judge, or a call saved

# The passages one batched call may carry, each once: about 8,000 tokens, so that a batch with
# its instructions, statements and reply fits the 16,000-token context of the smallest models
# LiteLLM routes to (gpt-3.5-turbo's). A batch that would carry more is split; one claim whose
# own evidence is larger (max_evidence_chars allows up to 1,000,000) is a batch of its own.
BATCH_PASSAGE_CHARS = 32_000


def _within_the_cap(items: list[tuple[str, Sequence[Evidence]]]
                    ) -> list[list[tuple[str, Sequence[Evidence]]]]:
    """``items`` in order, cut into batches whose passages, each counted once, stay within
    ``BATCH_PASSAGE_CHARS``; an item whose own passages are more is a batch of its own."""
    batches: list[list[tuple[str, Sequence[Evidence]]]] = []
    for item in items:
        if batches and batch_passage_chars([*batches[-1], item]) <= BATCH_PASSAGE_CHARS:
            batches[-1].append(item)
        else:
            batches.append([item])
    return batches


def _check_count(judge: Judge, verdicts: object, count: int) -> None:
    if not isinstance(verdicts, list) or len(verdicts) != count:
        raise ConfigurationError(
            f"{type(judge).__name__}.judge_batch must return one Verdict per item, a list "
            f"of {count}; got {type(verdicts).__name__}"
            + (f" of {len(verdicts)}" if isinstance(verdicts, list) else "") + ".")


def _check_verdict(judge: Judge, verdict: object) -> None:
    """A judge object of the user's must give Verdicts we can read: anything else is a setup
    mistake, raised, never guessed at (a guess could pass the text)."""
    score = getattr(verdict, "score", None)
    if (not isinstance(verdict, Verdict) or verdict.label not in LABELS
            or verdict.decided_by not in DECIDERS or not isinstance(verdict.reason, str)
            or not (score is None or (isinstance(score, (int, float)) and not isinstance(score, bool)
                                      and 0 <= score <= 1))):
        raise ConfigurationError(
            f"{type(judge).__name__}.judge returned {verdict!r}; a judge must return a "
            f"provenance_guard.Verdict with a label in {LABELS}, decided_by in {DECIDERS}, a "
            "str reason and a score from 0 to 1 (or None)."
        )


def extract_claims(
    judge: Judge, sentences: Sequence[str], answer: str, question: str | None, run: Mapper
) -> list[list[str] | None]:
    """Each sentence's atomic claims from the judge, or None where it gave none, or claims that
    drop a number, date or name of the sentence (the sentence is then judged whole). A judge
    that cannot extract claims gives None for all."""
    if not isinstance(judge, ClaimExtractor):
        return [None] * len(sentences)

    def extract(sentence: str) -> list[str] | None:
        return _kept(judge, sentence, judge.extract_claims(sentence, answer, question))

    return run(extract, sentences, lambda sentence: None)


async def aextract_claims(
    judge: Judge, sentences: Sequence[str], answer: str, question: str | None,
    run: AsyncMapper
) -> list[list[str] | None]:
    """``extract_claims`` in an awaited validation."""
    if not isinstance(judge, ClaimExtractor):
        return [None] * len(sentences)

    async def extract(sentence: str) -> list[str] | None:
        return _kept(judge, sentence,
                     await awaited(judge, "extract_claims", sentence, answer, question))

    return await run(extract, sentences, lambda sentence: None)


def _kept(judge: Judge, sentence: str, claims: object) -> list[str] | None:
    """``claims`` (a judge's extraction for ``sentence``) if they keep its facts."""
    if claims is not None and (not isinstance(claims, list)
                               or not all(isinstance(c, str) for c in claims)):
        raise ConfigurationError(
            f"{type(judge).__name__}.extract_claims returned {type(claims).__name__}; it "
            "must return a list of str, or None when it gives no claims.")
    return claims if claims and rules.keeps_facts(sentence, claims) else None


class _Subset:
    """Found evidence, seen through a list of its indexes."""

    def __init__(self, found: Found, indexes: list[int]):
        self.found, self.indexes = found, indexes

    def __getitem__(self, i: int) -> list[Evidence]:
        return self.found[self.indexes[i]]

    async def arrival(self, indexes: Sequence[int]) -> bool:
        return await self.found.arrival([self.indexes[i] for i in indexes])

    def __len__(self) -> int:
        return len(self.indexes)


@dataclass(frozen=True)
class Deciding:
    """The settings the deciding stage reads (each field is the setting of that name)."""

    validation_method: str
    cascade_contradictions: bool
    cascade_verbatim: bool
    batch_size: int
    confidence_band: tuple[float, float]
    citations: str


class Decider:
    """The judge, the cascade and the runner, deciding the claims of one validation."""

    def __init__(self, judge: Judge, deciding: Deciding, runner: Runner,
                 first_judge: Judge | None = None):
        self.judge = judge
        self.cascade = Cascade(deciding.cascade_contradictions, deciding.cascade_verbatim)
        self.first = (None if first_judge is None
                      else FirstJudge(first_judge, deciding.confidence_band))
        self.batch_size = deciding.batch_size
        self.split_into_claims = deciding.validation_method == "claim"
        self.citation_mode = deciding.citations
        self.runner = runner

    def claims(self, read: Sequence[ReadSentence], request: Request) -> list[Claim]:
        """Each sentence's claims, in order, from its text without citation markers: its atomic
        claims in claim mode (the sentence itself where the judge gives none), else the
        sentence; none for a sentence that is not a claim. Each keeps the sources its sentence
        cites. Without sources there is nothing to judge claims against, so none are
        extracted."""
        asserting = _asserting(read, request)
        if not self.split_into_claims or request.no_sources:
            return [Claim(text, i, within) for i, text, within in asserting]
        return _split(asserting, extract_claims(
            self.judge, [text for _, text, _ in asserting], request.value, request.question,
            self.runner.map))

    async def aclaims(self, read: Sequence[ReadSentence], request: Request) -> list[Claim]:
        """``claims`` in an awaited validation."""
        asserting = _asserting(read, request)
        if not self.split_into_claims or request.no_sources:
            return [Claim(text, i, within) for i, text, within in asserting]
        return _split(asserting, await aextract_claims(
            self.judge, [text for _, text, _ in asserting], request.value, request.question,
            self.runner.amap))

    def decide(self, claims: Sequence[Claim], evidence: Found, request: Request) -> Decided:
        """A verdict for each claim. Claims that are the same text with the same sources (a
        sentence repeated in one text) are judged once and share the verdict: one prompt,
        one verdict, even from a judge that answers differently each time."""
        if request.no_sources:
            return Decided([NO_SOURCES] * len(claims), 0)
        once = _Once(claims)
        return once.spread(decide(self.judge, once.texts, _Subset(evidence, once.unique),
                                  request.question, cascade=self.cascade,
                                  batch_size=self.batch_size, run=self.runner.map,
                                  first=self.first))

    async def adecide(self, claims: Sequence[Claim], evidence: Found,
                      request: Request) -> Decided:
        """``decide`` in an awaited validation (``adecide``, the module's)."""
        if request.no_sources:
            return Decided([NO_SOURCES] * len(claims), 0)
        once = _Once(claims)
        return once.spread(await adecide(self.judge, once.texts, _Subset(evidence, once.unique),
                                         request.question, cascade=self.cascade,
                                         batch_size=self.batch_size, run=self.runner.amap,
                                         first=self.first))

    def judge_texts(self, texts: Sequence[str], evidence: Sequence[Sequence[Evidence]],
                    request: Request) -> list[Verdict]:
        """A verdict for each text against its own evidence, decided as a claim is (the
        cascade, the first judge, batches, the deadline): how a rewrite is judged."""
        if not texts:
            return []
        return decide(self.judge, texts, evidence, request.question, cascade=self.cascade,
                      batch_size=self.batch_size, run=self.runner.map, first=self.first).verdicts

    async def ajudge_texts(self, texts: Sequence[str], evidence: Sequence[Sequence[Evidence]],
                           request: Request) -> list[Verdict]:
        """``judge_texts`` in an awaited validation."""
        if not texts:
            return []
        decided = await adecide(self.judge, texts, evidence, request.question,
                                cascade=self.cascade, batch_size=self.batch_size,
                                run=self.runner.amap, first=self.first)
        return decided.verdicts

    def cite(self, read: Sequence[ReadSentence], claims: Sequence[Claim],
             verdicts: Sequence[Verdict], retriever: Retriever, request: Request
             ) -> list[ReadSentence]:
        """Each sentence with its citation checked. A claim its cited sources do not support is
        judged again against the other sources, and the one whose passage matches best is
        named as the support the sentence should have cited."""
        again = _miscited(claims, verdicts, retriever)
        if not again:
            return self._cited(read, again, None, [], request)
        evidence = retriever.find(again)
        return self._cited(read, again, evidence, self.decide(again, evidence, request).verdicts,
                           request)

    async def acite(self, read: Sequence[ReadSentence], claims: Sequence[Claim],
                    verdicts: Sequence[Verdict], retriever: Retriever, request: Request
                    ) -> list[ReadSentence]:
        """``cite`` in an awaited validation."""
        again = _miscited(claims, verdicts, retriever)
        if not again:
            return self._cited(read, again, None, [], request)
        evidence = await offload(retriever.find, again)
        decided = await self.adecide(again, evidence, request)
        return self._cited(read, again, evidence, decided.verdicts, request)

    def _cited(self, read: Sequence[ReadSentence], again: Sequence[Claim],
               evidence: Found | None, verdicts: Sequence[Verdict], request: Request
               ) -> list[ReadSentence]:
        found: list[set[int]] = [set() for _ in read]
        for n, (claim, verdict) in enumerate(zip(again, verdicts, strict=True)):
            items = evidence.peek(n) if evidence is not None else []
            if verdict.label == SUPPORTED and items and items[0].source is not None:
                found[claim.sentence].add(items[0].source + 1)
        return [replace(r, citation=citations.check(r.citation, r.text, self.citation_mode,
                                                    request.source_count,
                                                    tuple(sorted(found[i]))))
                for i, r in enumerate(read)]


def _asserting(read: Sequence[ReadSentence], request: Request
               ) -> list[tuple[int, str, Within]]:
    """Each sentence that asserts something: its index, its text, the sources it cites."""
    return [(i, r.text, citations.within(r.citation, request.source_count))
            for i, r in enumerate(read) if r.not_a_claim is None]


def _split(asserting: Sequence[tuple[int, str, Within]],
           found: Sequence[list[str] | None]) -> list[Claim]:
    """The claims of each asserting sentence: those extracted, or the sentence itself."""
    return [Claim(claim, i, within)
            for (i, text, within), claims in zip(asserting, found, strict=True)
            for claim in (claims or [text])]


def _miscited(claims: Sequence[Claim], verdicts: Sequence[Verdict], retriever: Retriever
              ) -> list[Claim]:
    """The claims their cited sources do not support, each to be judged against the sources it
    did not cite."""
    count = retriever.source_count or 0
    return [replace(claim, within=frozenset(range(count)) - claim.within)
            for claim, verdict in zip(claims, verdicts, strict=True)
            if claim.within is not None and verdict.label == UNSUPPORTED
            and len(claim.within) < count]


class _Once:
    """Claims that are the same text with the same sources, each judged once."""

    def __init__(self, claims: Sequence[Claim]):
        self.first: dict[tuple, int] = {}
        for n, claim in enumerate(claims):
            self.first.setdefault((claim.text, claim.within), n)
        self.keys = [(c.text, c.within) for c in claims]
        self.unique = list(self.first.values())
        self.texts = [claims[n].text for n in self.unique]

    def spread(self, decided: Decided) -> Decided:
        verdict_of = dict(zip(self.unique, decided.verdicts, strict=True))
        return Decided([verdict_of[self.first[key]] for key in self.keys],
                       decided.saved_calls, decided.by_first_judge)
