"""Deciding: what the claims are, a verdict for each, and which uncited sources support a
mis-cited one.

A *claim* is what one verdict is about: a whole sentence, or (``validation_method="claim"``)
each atomic claim the judge's model finds in it. Each claim is decided by the rules-first
cascade (when asked for: a claim whose evidence gives another number or date for it is
contradicted, and a claim a passage states word for word is supported, with no judge call),
else by the judge, one claim per call or in batches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, cast

from .. import rules
from ..judges.base import Backend
from ..judges.prompts import batch_passage_chars
from ..request import Request
from ..retrieval.retriever import Found, Retriever
from ..runtime.deadline import Scope
from ..runtime.pool import Busy, offload
from ..text import citations
from ..text.refusals import claim_part
from ..types import (
    BY_FALLBACK,
    BY_LOCAL,
    CONTRADICTED,
    INVALID,
    SUPPORTED,
    UNSUPPORTED,
    Claim,
    Context,
    Evidence,
    FailureKind,
    ReadSentence,
    Verdict,
    Within,
)
from .cheap_first import FirstJudge

NO_SOURCES = Verdict(UNSUPPORTED, "no sources were given", 0.0, BY_FALLBACK,
                     kind=FailureKind.ADDITION)


class EvidenceOf(Protocol):
    """Each claim's evidence by the claim's index, awaited (``Found`` waits for its
    retrieval)."""

    async def get(self, i: int, /) -> Sequence[Evidence]: ...


class Given:
    """Evidence already at hand, as ``EvidenceOf``."""

    def __init__(self, evidence: Sequence[Sequence[Evidence]]):
        self.evidence = evidence

    async def get(self, i: int) -> Sequence[Evidence]:
        return self.evidence[i]


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
            return Verdict(CONTRADICTED, f"rule check: {found.reason}", 0.0, BY_LOCAL,
                           kind=found.fault, basis=found.basis)
        if self.verbatim and found.kind == "verbatim":
            return Verdict(SUPPORTED, f"rule check: {found.reason}", 1.0, BY_LOCAL,
                           basis=found.basis)
        return None


@dataclass(frozen=True)
class Decided:
    verdicts: list[Verdict]
    saved_calls: int  # claims the cascade decided, each a judge call not made
    by_first_judge: int = 0  # of those, the claims the first judge decided (the rest: rules)
    one_per_call_because: str | None = None  # why the judge is asked one statement a call
    # the claims the conversation grounds, by index: what the user said that supports each
    said: dict[int, list[Evidence]] = field(default_factory=dict)


_ASKED, _BY_RULES, _BY_FIRST = 0, 1, 2  # how a claim was decided: by the judge, or a call saved


async def decide(judge: Backend, claims: Sequence[str], evidence: EvidenceOf,
                 context: Context, scope: Scope, *, cascade: Cascade, batch_size: int,
                 first: FirstJudge | None = None) -> Decided:
    """A verdict for each claim. The claims go out in groups of what one judge call takes (at
    most ``batch_size``), ``max_concurrency`` groups at once; each group takes its claims'
    evidence as it arrives (the first are judged while later ones are still being embedded),
    then: no evidence -> unsupported; a rule decision (cascade) -> no call; a verdict the first
    judge is sure of -> no call; else the judge. What the deadline leaves undecided is INVALID,
    with its reason."""
    most = judge.abilities.group_size
    size = batch_size if most is None else min(batch_size, most)
    count = len(claims)
    groups = [list(range(n, min(n + size, count))) for n in range(0, count, max(1, size))]

    async def group(indexes: list[int]) -> list[tuple[Verdict, int]]:
        try:
            found = dict(zip(indexes, await asyncio.gather(*(evidence.get(i) for i in indexes)),
                             strict=True))
        except Busy as busy:  # a query_function whose calls all hang: refused, said so
            verdict = Verdict(INVALID, f"its evidence was not fetched: {busy}", None,
                              BY_FALLBACK)
            return [(verdict, _ASKED)] * len(indexes)

        def settle() -> dict[int, tuple[Verdict | None, int]]:
            return {i: _before_the_judge(claims[i], found[i], cascade) for i in indexes}

        # the rules compute: in the pool; without them, settling only looks at the evidence
        settled = await offload(settle) if cascade.enabled else settle()
        left = [i for i in indexes if settled[i][0] is None]
        if first is not None and left:
            cheap = await first.judge.verdicts([(claims[i], found[i]) for i in left], context)
            for i, verdict in zip(left, cheap, strict=True):
                if first.sure(verdict):
                    settled[i] = (verdict, _BY_FIRST)
            left = [i for i in left if settled[i][0] is None]
        batches = _within_the_cap([(i, claims[i], found[i]) for i in left])
        asked = await asyncio.gather(*(judge.verdicts([(c, e) for _, c, e in batch], context)
                                       for batch in batches))
        for batch, verdicts in zip(batches, asked, strict=True):
            for (i, _, _), verdict in zip(batch, verdicts, strict=True):
                settled[i] = (verdict, _ASKED)
        return [cast(tuple[Verdict, int], settled[i]) for i in indexes]

    def late(indexes: list[int]) -> list[tuple[Verdict, int]]:
        verdict = Verdict(INVALID, scope.too_late("no verdict"), None, BY_FALLBACK)
        return [(verdict, _ASKED)] * len(indexes)

    decided = [answer for answers in await scope.map(group, groups, late) for answer in answers]
    return Decided([verdict for verdict, _ in decided],
                   sum(how != _ASKED for _, how in decided),
                   sum(how == _BY_FIRST for _, how in decided),
                   judge.abilities.one_per_call_because)


def _before_the_judge(claim: str, found: Sequence[Evidence], cascade: Cascade
                      ) -> tuple[Verdict | None, int]:
    """A verdict that needs no judge call, and whether it saved one (the cascade's)."""
    if not found:
        return Verdict(UNSUPPORTED, "no evidence was found for it", 0.0, BY_LOCAL,
                       kind=FailureKind.ADDITION), _ASKED
    ruled = cascade.decide(claim, found)
    return ruled, _ASKED if ruled is None else _BY_RULES


# The passages one batched call may carry, each once: about 8,000 tokens, so that a batch with
# its instructions, statements and reply fits the 16,000-token context of the smallest models
# LiteLLM routes to (gpt-3.5-turbo's). A batch that would carry more is split; one claim whose
# own evidence is larger (max_evidence_chars allows up to 1,000,000) is a batch of its own.
BATCH_PASSAGE_CHARS = 32_000

_Pending = tuple[int, str, Sequence[Evidence]]


def _within_the_cap(items: list[_Pending]) -> list[list[_Pending]]:
    """``items`` in order, cut into batches whose passages, each counted once, stay within
    ``BATCH_PASSAGE_CHARS``; an item whose own passages are more is a batch of its own."""
    batches: list[list[_Pending]] = []
    for item in items:
        if batches and batch_passage_chars(
                [(c, e) for _, c, e in [*batches[-1], item]]) <= BATCH_PASSAGE_CHARS:
            batches[-1].append(item)
        else:
            batches.append([item])
    return batches


async def extract_claims(judge: Backend, sentences: Sequence[str], answer: str,
                         context: Context, scope: Scope) -> list[list[str] | None]:
    """Each sentence's atomic claims from the judge, or None where it gave none, or claims that
    drop a number, date or name of the sentence (the sentence is then judged whole). A judge
    that cannot extract claims gives None for all."""
    if not judge.abilities.extracts_claims:
        return [None] * len(sentences)

    async def extract(sentence: str) -> list[str] | None:
        claims = await judge.claims(sentence, answer, context)
        return claims if claims and rules.keeps_facts(sentence, claims) else None

    return await scope.map(extract, sentences, lambda sentence: None)


class _Subset:
    """Found evidence, seen through a list of its indexes."""

    def __init__(self, found: Found, indexes: list[int]):
        self.found, self.indexes = found, indexes

    async def get(self, i: int) -> list[Evidence]:
        return await self.found.get(self.indexes[i])

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
    """The judge, the cascade and the first judge, deciding the claims of one validation."""

    def __init__(self, judge: Backend, deciding: Deciding, first_judge: Backend | None = None):
        self.judge = judge
        self.cascade = Cascade(deciding.cascade_contradictions, deciding.cascade_verbatim)
        self.first = (None if first_judge is None
                      else FirstJudge(first_judge, deciding.confidence_band))
        self.batch_size = deciding.batch_size
        self.split_into_claims = deciding.validation_method == "claim"
        self.citation_mode = deciding.citations

    async def claims(self, read: Sequence[ReadSentence], request: Request, scope: Scope
                     ) -> list[Claim]:
        """Each sentence's claims, in order, from its text without citation markers: its atomic
        claims in claim mode (the sentence itself where the judge gives none), else the
        sentence; none for a sentence that is not a claim. Each keeps the sources its sentence
        cites. Without sources there is nothing to judge claims against, so none are
        extracted."""
        asserting = _asserting(read, request)
        if not self.split_into_claims or request.no_sources:
            return [Claim(text, i, within) for i, text, within in asserting]
        return _split(asserting, await extract_claims(  # the judge reads the sentence itself
            self.judge, [claim_part(read[i].text) for i, _, _ in asserting], request.value,
            request.context, scope))

    async def decide(self, claims: Sequence[Claim], evidence: Found, request: Request,
                     scope: Scope) -> Decided:
        """A verdict for each claim. Claims that are the same text with the same sources (a
        sentence repeated in one text) are judged once and share the verdict: one prompt,
        one verdict, even from a judge that answers differently each time."""
        if request.no_sources:
            return Decided([NO_SOURCES] * len(claims), 0)
        once = _Once(claims)
        return once.spread(await decide(self.judge, once.texts, _Subset(evidence, once.unique),
                                        request.context, scope, cascade=self.cascade,
                                        batch_size=self.batch_size, first=self.first))

    async def judge_texts(self, texts: Sequence[str], evidence: Sequence[Sequence[Evidence]],
                          request: Request, scope: Scope) -> list[Verdict]:
        """A verdict for each text against its own evidence, decided as a claim is (the
        cascade, the first judge, batches, the deadline): how a rewrite is judged."""
        if not texts:
            return []
        decided = await decide(self.judge, texts, Given(evidence), request.context, scope,
                               cascade=self.cascade, batch_size=self.batch_size,
                               first=self.first)
        return decided.verdicts

    async def cite(self, read: Sequence[ReadSentence], claims: Sequence[Claim],
                   verdicts: Sequence[Verdict], retriever: Retriever, request: Request,
                   scope: Scope) -> list[ReadSentence]:
        """Each sentence with its citation checked. A claim its cited sources do not support is
        judged again against the other sources, and the one whose passage matches best is
        named as the support the sentence should have cited."""
        again = _miscited(claims, verdicts, retriever)
        found: list[set[int]] = [set() for _ in read]
        if again:
            evidence = retriever.find(again)
            decided = await self.decide(again, evidence, request, scope)
            for n, (claim, verdict) in enumerate(zip(again, decided.verdicts, strict=True)):
                items = evidence.peek(n)
                if verdict.label == SUPPORTED and items and items[0].source is not None:
                    found[claim.sentence].add(items[0].source + 1)
        return [replace(r, citation=citations.check(r.citation, r.text, self.citation_mode,
                                                    request.source_count,
                                                    tuple(sorted(found[i]))))
                for i, r in enumerate(read)]


def _asserting(read: Sequence[ReadSentence], request: Request
               ) -> list[tuple[int, str, Within]]:
    """Each sentence that asserts something: its index, what it claims (``claimed``), the
    sources it cites."""
    return [(i, claim, citations.within(r.citation, request.source_count))
            for i, (r, claim) in enumerate(zip(read, claimed(read), strict=True))
            if r.not_a_claim is None]


def claimed(read: Sequence[ReadSentence]) -> list[str]:
    """What each sentence of ``read`` claims (``in_place``)."""
    return [claim for claim, _ in in_place_each(read)]


def in_place_each(read: Sequence[ReadSentence]) -> list[tuple[str, str | None]]:
    """What each sentence of ``read`` claims, and the claim it reads after: that of the last
    sentence before it that asserts something ("Thanks for asking!" between them asserts
    nothing), on a line or a list's item before as on its own (a pronoun that opens an item
    reads back as one that opens a sentence does); None for the first."""
    each: list[tuple[str, str | None]] = []
    before = None
    for r in read:
        claim = in_place(r.text, before)
        each.append((claim, before))
        if r.not_a_claim is None:
            before = claim
    return each


def in_place(text: str, before: str | None) -> str:
    """What the sentence ``text`` claims after the claim ``before``: its text without a clause
    that says the sources lack it (that excuses nothing), and with a pronoun that opens it
    read as the subject of ``before`` it stands for, in brackets ("Hall B opened in 2005. It
    seats 800." claims "[Hall B] seats 800.")."""
    claim = claim_part(text)
    return claim if before is None else rules.in_context(claim, before)


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
        return replace(decided, verdicts=[verdict_of[self.first[key]] for key in self.keys])
