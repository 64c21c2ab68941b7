"""Aggregation: per-sentence results from their claims' verdicts, the result metadata (its
schema is here and in the README), the failure message and the fixed value."""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..request import Request
from ..retrieval.retriever import Found
from ..settings import Settings
from ..text import citations
from ..text.structure import inside_marks
from ..types import (
    CONTRADICTED,
    CONTRADICTORY,
    COUNTED_CITATIONS,
    FULLY,
    INVALID,
    LABELS,
    PARTIALLY,
    SUPPORTED,
    UNGROUNDED,
    UNSUPPORTED,
    Citation,
    Claim,
    Evidence,
    Sentence,
    Verdict,
)
from .decider import Decided

PARTIAL_THRESHOLD = 0.5  # faithfulness from which a text is partially grounded


@dataclass(frozen=True)
class ClaimResult:
    """One verdict: about a whole sentence, or about one atomic claim of it."""

    text: str
    verdict: Verdict
    evidence: list[Evidence]

    def as_dict(self) -> dict:
        return {"text": self.text, **_verdict_dict(self.verdict),
                "evidence": _evidence_dicts(self.evidence)}


@dataclass(frozen=True)
class SentenceResult:
    sentence: Sentence
    claims: list[ClaimResult]  # one, the sentence itself, unless validation_method="claim"
    citation: Citation
    split_into_claims: bool = False

    @cached_property
    def verdict(self) -> Verdict:
        """The sentence's verdict from its claims': the worst label wins (contradicted, then
        unsupported, then invalid); the score is the lowest."""
        worst = min(self.claims, key=lambda c: _SEVERITY[c.verdict.label]).verdict
        if len(self.claims) == 1:
            return worst
        scores = [c.verdict.score for c in self.claims if c.verdict.score is not None]
        failing = [c for c in self.claims if c.verdict.label != SUPPORTED]
        reason = "; ".join(f"{c.text!r}: {c.verdict.label}"
                           + (f" ({c.verdict.reason})" if c.verdict.reason else "")
                           for c in failing) or "every claim is supported"
        return Verdict(worst.label, reason, min(scores) if scores else None, worst.decided_by)

    @cached_property
    def evidence(self) -> list[Evidence]:
        merged = {}
        for claim in self.claims:
            for e in claim.evidence:
                key = (e.source, e.start, e.end, e.text)
                if key not in merged or (e.similarity or 0) > (merged[key].similarity or 0):
                    merged[key] = e
        return sorted(merged.values(), key=lambda e: -(e.similarity or 0))

    def passes(self, pass_on_invalid: bool, fail_on_unsupported: bool = True) -> bool:
        if self.citation.fails:
            return False
        label = self.verdict.label
        return (label == SUPPORTED or (label == INVALID and pass_on_invalid)
                or (label == UNSUPPORTED and not fail_on_unsupported))

    def summary(self) -> str:
        verdict = self.verdict
        problem = citations.problem(self.citation)
        reason = "; ".join(p for p in (problem, verdict.reason) if p)
        label = self.citation.status if problem else verdict.label
        return f"{label}: {reason}" if reason else label

    def as_dict(self) -> dict:
        return {
            "text": self.sentence.text,
            "start": self.sentence.start,
            "end": self.sentence.end,
            **_verdict_dict(self.verdict),
            "evidence": _evidence_dicts(self.evidence),
            "evidence_cut": any(e.cut for c in self.claims for e in c.evidence),
            "citation": {"cited": list(self.citation.cited), "status": self.citation.status,
                         "uncited_support": list(self.citation.uncited_support),
                         "out_of_range": list(self.citation.out_of_range)},
            "claims": [c.as_dict() for c in self.claims] if self.split_into_claims else None,
        }


_SEVERITY = {CONTRADICTED: 0, UNSUPPORTED: 1, INVALID: 2, SUPPORTED: 3}  # worst first


def _verdict_dict(verdict: Verdict) -> dict:
    return {"verdict": verdict.label, "score": verdict.score, "reason": verdict.reason,
            "decided_by": verdict.decided_by}


def _evidence_dicts(evidence: list[Evidence]) -> list[dict]:
    return [
        {"text": e.text, "source": e.source, "start": e.start, "end": e.end,
         "similarity": None if e.similarity is None else round(e.similarity, 4), "cut": e.cut}
        for e in evidence
    ]


def groundedness(results: list[SentenceResult], by_claim: bool = False) -> dict:
    """Counts per verdict, the faithfulness score (supported / judged, over claims when the
    sentences were split into claims, as RAGAS does) and the groundedness level."""
    counts = _counts(r.verdict for r in results)
    claim_counts = _counts(c.verdict for r in results for c in r.claims) if by_claim else None
    basis = claim_counts if by_claim else counts
    judged = sum(basis.values()) - basis[INVALID]
    faithfulness = basis[SUPPORTED] / judged if judged else None
    if counts[CONTRADICTED]:
        level = CONTRADICTORY
    elif faithfulness is None:
        level = None
    elif faithfulness == 1.0:
        level = FULLY
    elif faithfulness >= PARTIAL_THRESHOLD:
        level = PARTIALLY
    else:
        level = UNGROUNDED
    return {"faithfulness": faithfulness, "level": level, "counts": counts,
            "sentences": len(results), "claim_counts": claim_counts}


def _counts(verdicts) -> dict[str, int]:
    counts = dict.fromkeys(LABELS, 0)
    for verdict in verdicts:
        counts[verdict.label] += 1
    return counts


def build_metadata(caller: dict, results: list[SentenceResult], **facts) -> dict:
    """A new dict: the caller's keys (Guardrails hands a result's metadata to the next
    validator) plus ``sentences`` and ``groundedness``. The caller's dict is never changed.
    ``facts`` (sources_given, pass_on_invalid, ...) are added to ``groundedness``."""
    by_claim = any(r.split_into_claims for r in results)
    summary = groundedness(results, by_claim)
    decided = {}
    for claim in (c for r in results for c in r.claims):
        decided[claim.verdict.decided_by] = decided.get(claim.verdict.decided_by, 0) + 1
    summary["decided_by"] = decided
    summary["citations"] = {
        status: sum(r.citation.status == status for r in results)
        for status in COUNTED_CITATIONS
    }
    summary["evidence_cut"] = sum(any(e.cut for c in r.claims for e in c.evidence)
                                  for r in results)
    summary.update(facts)
    return {**caller, "sentences": [r.as_dict() for r in results], "groundedness": summary}


def failure_message(failing: list[SentenceResult], no_sources: bool) -> str:
    lines = "\n".join(f"- {r.sentence.text} [{r.summary()}]" for r in failing)
    if no_sources:
        return f"No sources were given, so nothing in the response can be grounded:\n{lines}"
    return f"The following sentences are not supported by the sources:\n{lines}"


def fix_value(value: str, remove: list[Sentence]) -> str:
    """``value`` without the given sentences, every other character as it was. Each removal
    takes the blanks after it; a list or quote marker that opens the line, and emphasis marks
    left unpaired ("**One." of "**One. Two.**"), stay with the line. A line left with no letter
    or digit (only "- ", "1. ", "# ", "> ", "**") goes whole, with its line break."""
    cuts = []
    for sentence in remove:
        start, end = inside_marks(value, sentence.start, sentence.end)
        while end < len(value) and value[end] in " \t":
            end += 1
        cuts.append((start, end))
    cuts.sort()
    kept, line_start = [], 0
    for line in value.splitlines(keepends=True):
        line_end = line_start + len(line)
        inside = [(max(a, line_start), min(b, line_end)) for a, b in cuts
                  if a < line_end and b > line_start]
        if inside:
            pieces, position = [], line_start
            for a, b in inside:
                pieces.append(value[position:a])
                position = max(position, b)
            pieces.append(value[position:line_end])
            line = "".join(pieces)
            body = line.rstrip("\r\n")
            emptied = not _WORD.search(body) or _ONLY_MARKS.fullmatch(body)
            body = _BLANK_BEFORE_CLOSING.sub(r"\1", body.rstrip(" \t"))
            line = "" if emptied else body + line[len(line.rstrip("\r\n")):]
        kept.append(line)
        line_start = line_end
    return re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip()


_WORD = re.compile(r"\w")
# "**One. **" once "Two." is gone: the closing mark goes back against the text.
_BLANK_BEFORE_CLOSING = re.compile(r"(?<=\S)[ \t]+((?:\*\*|__|~~|\*|_)+)$")
# What a line holds when its sentences are gone: a list, quote or heading marker, emphasis.
_ONLY_MARKS = re.compile(r"[ \t]*(?:>[ \t]*)*(?:[-*+•‣◦▪●]|\d{1,3}[.)]|[A-Za-z][)]|#{1,6})?[ \t*_~]*")


@dataclass(frozen=True)
class Outcome:
    """What one validation found; ``main`` turns it into Guardrails' result."""

    metadata: dict[str, Any]
    failing: list[SentenceResult]  # empty when the text passes
    message: str = ""
    fixed: str = ""


def aggregate(request: Request, settings: Settings, sentences: Sequence[Sentence],
              claims: Sequence[Claim], decided: Decided, evidence: Found,
              checked: Sequence[Citation]) -> Outcome:
    """Each sentence's result from its claims' verdicts and evidence and its checked citation;
    the text passes when every sentence does."""
    claims_of: list[list[ClaimResult]] = [[] for _ in sentences]
    for n, (claim, verdict) in enumerate(zip(claims, decided.verdicts, strict=True)):
        claims_of[claim.sentence].append(ClaimResult(claim.text, verdict, evidence.peek(n)))
    results = [SentenceResult(sentence, claims_of[i], checked[i], settings.by_claim)
               for i, sentence in enumerate(sentences)]
    invalid = sum(r.verdict.label == INVALID for r in results)
    if invalid:
        warnings.warn(
            f"the judge gave no readable verdict for {invalid} sentence(s); counting them as "
            f"{'supported' if request.pass_on_invalid else 'unsupported'} (pass_on_invalid="
            f"{request.pass_on_invalid}).",
            stacklevel=4,
        )
    facts = {"sources_given": not request.no_sources, "pass_on_invalid": request.pass_on_invalid,
             "deadline": settings.deadline, "fail_on_unsupported": settings.fail_on_unsupported,
             "citation_mode": settings.citations,
             "unit": "claim" if settings.by_claim else "sentence",
             "max_evidence_chars": settings.max_evidence_chars}
    metadata = build_metadata(request.metadata, results, judge_calls_saved=decided.saved_calls,
                              first_judge_decided=decided.by_first_judge, **facts)
    failing = [r for r in results
               if not r.passes(request.pass_on_invalid, settings.fail_on_unsupported)]
    if not failing:
        return Outcome(metadata, [])
    return Outcome(metadata, failing, failure_message(failing, no_sources=request.no_sources),
                   fix_value(request.value, [r.sentence for r in failing]))
