"""What one validation found, as types: each claim's and each sentence's result, the
groundedness summary, and the ``Report`` that holds them.

The types travel through the package (the CLI, batch evaluation, the suite, the HTML report
read them); dicts exist only at the edges. ``Report.metadata`` is the result metadata Guardrails
carries (its schema is in docs/reference.md) and ``Report.from_metadata`` reads it back: a ``Guard``'s
result, or a line of a results file, is typed again. What is read back is checked: a file may
hold anything, so a value of the wrong kind raises ``ValueError`` naming the key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr

from ..text import citations
from ..text.structure import after_marker
from ..types import (
    BY_FALLBACK,
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
    Correction,
    Evidence,
    FailureKind,
    FixMode,
    Label,
    Level,
    Sentence,
    Usage,
    Verdict,
)
from .records import (
    ClaimRecord,
    Counts,
    Seconds,
    SentenceRecord,
    Share,
    Unit,
    UsageRecord,
    Whole,
    read,
)

NOT_A_CLAIM = "not_a_claim"  # what a sentence that asserts nothing shows in place of a label
PARTIAL_THRESHOLD = 0.5  # faithfulness from which a text is partially grounded
REGISTERED_NAME = "provenance-guard/provenance_llm"  # ProvenanceLLM's name in Guardrails


@dataclass(frozen=True)
class ClaimResult:
    """One verdict: about a whole sentence, or about one atomic claim of it."""

    text: str
    verdict: Verdict
    evidence: list[Evidence]

    def as_dict(self) -> dict:
        basis = self.verdict.basis  # an index into its own evidence, or none
        return {"text": self.text, **_verdict_dict(self.verdict),
                "basis": basis if type(basis) is int and 0 <= basis < len(self.evidence)
                else None,
                "evidence": [_evidence_dict(e) for e in self.evidence]}

    @classmethod
    def of_record(cls, record: ClaimRecord) -> ClaimResult:
        return cls(record.text, record.judged(), [e.typed() for e in record.evidence])


@dataclass(frozen=True)
class SentenceResult:
    """One sentence's result. ``not_a_claim``: the form of a sentence that asserts nothing
    (``text.non_claims``), which has no claims and no verdict, and passes. ``correction``: what
    ``fix_mode="correct"`` did with it (a failing sentence's). ``read_as``: what the judge was
    asked of it, where that is not the sentence as written: a pronoun that opens it named by
    the sentence before ("[Hall B] seats 800." for "It seats 800."), a clause that says the
    sources lack it left out."""

    sentence: Sentence
    claims: list[ClaimResult]  # one, the sentence itself, unless validation_method="claim"
    citation: Citation
    split_into_claims: bool = False
    not_a_claim: str | None = None
    correction: Correction | None = None  # what fix_mode="correct" did with it, if it failed
    read_as: str | None = None  # what it was judged as, where not as written

    @cached_property
    def verdict(self) -> Verdict | None:
        """The sentence's verdict from its claims': the worst label wins (contradicted, then
        unsupported, then invalid); the score is the lowest. None for a sentence that is not a
        claim."""
        if self.not_a_claim is not None:
            return None
        deciding = min(self.claims, key=lambda c: _SEVERITY[c.verdict.label])
        worst, basis = deciding.verdict, self._basis_of(deciding)
        if len(self.claims) == 1:
            return worst if worst.basis == basis else replace(worst, basis=basis)
        scores = [c.verdict.score for c in self.claims if c.verdict.score is not None]
        failing = [c for c in self.claims if c.verdict.label != SUPPORTED]
        reason = "; ".join(f"{c.text!r}: {c.verdict.label}"
                           + (f" ({self._cited_here(c)})" if c.verdict.reason else "")
                           for c in failing) or "every claim is supported"
        return Verdict(worst.label, reason, min(scores) if scores else None, worst.decided_by,
                       reply=worst.reply, kind=worst.kind, basis=basis)

    def _basis_of(self, claim: ClaimResult) -> int | None:
        """Where in ``evidence`` the passage that decided ``claim`` is; None where its judge
        did not say (or named no passage it was given)."""
        n = claim.verdict.basis
        if type(n) is not int or not 0 <= n < len(claim.evidence):
            return None
        place = _place(claim.evidence[n])
        return next((i for i, e in enumerate(self.evidence) if _place(e) == place), None)

    @property
    def decided_on(self) -> Evidence | None:
        """The passage, record or user's sentence that decided the verdict, where the judge
        said which (the rule checks do): the one that states the claim, gives another value
        for it, puts it otherwise than as a fact, or is the error of the call the claim tells
        of. None where the judge did not say (an LLM's verdict weighs all it was shown)."""
        verdict = self.verdict
        return None if verdict is None or verdict.basis is None else self.evidence[verdict.basis]

    @property
    def kind(self) -> FailureKind | str | None:
        """What a failing sentence gets wrong (``FailureKind``): its citation, where that is
        what fails; else its verdict's kind. None for a sentence that passes or is invalid."""
        if self.citation.fails:
            return FailureKind.WRONG_CITATION
        return None if self.verdict is None else self.verdict.failure_kind

    @property
    def named_kind(self) -> FailureKind | str | None:
        """``kind`` where the judge named one: None for "unspecified"."""
        kind = self.kind
        return None if kind == FailureKind.UNSPECIFIED else kind

    @property
    def label(self) -> str:
        """The verdict's label, or ``NOT_A_CLAIM``."""
        return NOT_A_CLAIM if self.verdict is None else self.verdict.label

    @cached_property
    def evidence(self) -> list[Evidence]:
        """Each claim's evidence once, in the order the judge was shown it: "[2]" in a reason
        is ``evidence[1]`` (a later claim's own passages numbered on after the first's)."""
        merged: dict[tuple, Evidence] = {}
        for claim in self.claims:
            for e in claim.evidence:
                merged.setdefault(_place(e), e)
        return list(merged.values())

    @property
    def shown_evidence(self) -> list[int]:
        """The numbers (from 1) of the evidence a short report shows: the best passage and each
        its reason cites."""
        if not self.evidence:
            return []
        reason = self.verdict.reason if self.verdict is not None else ""
        cited = [n for match in citations.MARKER.finditer(reason or "")
                 for n in citations.numbers_of(match.group(1))
                 if 1 <= n <= len(self.evidence)]
        return list(dict.fromkeys([1, *cited]))

    def _cited_here(self, claim: ClaimResult) -> str:
        """A claim's reason with the passages it cites numbered as the sentence's evidence."""
        at = {_place(e): n for n, e in enumerate(self.evidence, 1)}
        own = {m: at[_place(e)] for m, e in enumerate(claim.evidence, 1)}
        return citations.renumbered(claim.verdict.reason or "", own)

    @property
    def evidence_cut(self) -> bool:
        return any(e.cut for c in self.claims for e in c.evidence)

    def passes(self, pass_on_invalid: bool, fail_on_unsupported: bool = True) -> bool:
        if self.citation.fails:
            return False
        if self.verdict is None:
            return True
        label = self.verdict.label
        # pass_on_invalid passes what could not be read or decided, never a judge caught on a
        # control or not sure enough (``withheld``)
        return (label == SUPPORTED
                or (label == INVALID and pass_on_invalid and not self.verdict.withheld)
                or (label == UNSUPPORTED and not fail_on_unsupported))

    def summary(self) -> str:
        verdict = self.verdict
        if verdict is None:
            return f"not a claim ({self.not_a_claim})"
        problem = citations.problem(self.citation)
        read_as = f"read as {self.read_as!r}" if self.read_as else ""
        reason = "; ".join(p for p in (problem, verdict.reason, read_as) if p)
        label = self.citation.status if problem else verdict.label
        if not problem and self.named_kind is not None:
            label = f"{label} ({self.named_kind})"  # "contradicted (number)"
        return f"{label}: {reason}" if reason else str(label)

    def as_dict(self) -> dict:
        return {
            "text": self.sentence.text,
            "start": self.sentence.start,
            "end": self.sentence.end,
            "read_as": self.read_as,
            "not_a_claim": self.not_a_claim,
            **_verdict_dict(self.verdict),
            "kind": self.kind,
            "evidence": [_evidence_dict(e) for e in self.evidence],
            "evidence_cut": self.evidence_cut,
            "citation": {"cited": list(self.citation.cited), "status": self.citation.status,
                         "uncited_support": list(self.citation.uncited_support),
                         "out_of_range": list(self.citation.out_of_range)},
            "claims": [c.as_dict() for c in self.claims] if self.split_into_claims else None,
            "correction": None if self.correction is None else _correction_dict(self.correction),
        }

    @classmethod
    def from_dict(cls, raw: Any, where: str = "sentence") -> SentenceResult:
        """The inverse of ``as_dict``: ``from_dict(r.as_dict()).as_dict() == r.as_dict()``."""
        return cls.of_record(read(SentenceRecord, raw, where))

    @classmethod
    def of_record(cls, record: SentenceRecord) -> SentenceResult:
        sentence = Sentence(record.text, record.start, record.end)
        citation = record.citation.typed()
        if record.not_a_claim is not None:
            return cls(sentence, [], citation, not_a_claim=record.not_a_claim)
        judged = record.judged()
        if citation.fails:  # its kind is the citation's: the verdict's own is not kept
            judged = dataclasses.replace(judged, kind=None)
        claims = ([ClaimResult.of_record(c) for c in record.claims] if record.claims is not None
                  else [ClaimResult(record.read_as or record.text, judged,
                                    [e.typed() for e in record.evidence])])
        return cls(sentence, claims, citation, record.claims is not None,
                   correction=None if record.correction is None else record.correction.typed(),
                   read_as=record.read_as)


_SEVERITY: dict[str, int] = {CONTRADICTED: 0, UNSUPPORTED: 1, INVALID: 2, SUPPORTED: 3}  # worst first


@dataclass(frozen=True)
class Groundedness:
    """The summary of one validation (``metadata["groundedness"]``): counts per verdict, the
    faithfulness score (supported / judged, over claims when the sentences were split into
    claims, as RAGAS does), the groundedness level, how verdicts were reached, and the
    settings that applied."""

    # Annotated as read back (``from_dict``): each value of its JSON type, within its range.
    faithfulness: Share | None
    level: Level | None
    counts: Counts
    sentences: Whole
    not_claims: Whole = 0
    claim_counts: Counts | None = None
    decided_by: dict[StrictStr, Whole] = field(default_factory=dict)
    fallbacks: dict[StrictStr, Whole] = field(default_factory=dict)  # why verdicts fell back
    citations: dict[StrictStr, Whole] = field(default_factory=dict)
    evidence_cut: Whole = 0
    fix_empty: StrictBool = False  # the text fails, and once its failing sentences go no claim is left
    fix_mode: FixMode = "remove"  # what the fix does with a failing sentence: remove or correct it
    corrected: Whole = 0  # failing sentences the fix replaces with a supported rewrite
    judge_calls_saved: Whole = 0
    first_judge_decided: Whole = 0
    one_statement_per_call: StrictStr | None = None  # why the judge gets one statement a call
    sources_given: StrictBool = True
    pass_on_invalid: StrictBool = False
    deadline: Seconds | None = None
    fail_on_unsupported: StrictBool = True
    citation_mode: StrictStr | None = None
    unit: Unit = "sentence"
    max_evidence_chars: Whole | None = None

    @classmethod
    def of(cls, results: list[SentenceResult], by_claim: bool = False, **facts) -> Groundedness:
        """The summary of ``results``; ``facts`` are the other fields (the settings, the
        calls saved)."""
        counts = _counts(r.verdict for r in results if r.verdict is not None)
        claim_counts = _counts(c.verdict for r in results for c in r.claims) if by_claim else None
        basis = counts if claim_counts is None else claim_counts
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
        decided: dict[str, int] = {}
        fallbacks: dict[str, int] = {}
        for claim in (c for r in results for c in r.claims):
            decided[claim.verdict.decided_by] = decided.get(claim.verdict.decided_by, 0) + 1
            if claim.verdict.decided_by == BY_FALLBACK:
                why = claim.verdict.reason[:300]
                fallbacks[why] = fallbacks.get(why, 0) + 1
        cited: dict[str, int] = {status: sum(r.citation.status == status for r in results)
                 for status in COUNTED_CITATIONS}
        return cls(faithfulness, level, counts, len(results),
                   sum(r.not_a_claim is not None for r in results), claim_counts, decided,
                   fallbacks, cited, sum(r.evidence_cut for r in results), **facts)

    @property
    def judged(self) -> int:
        """The sentences that were judged: all but those that assert nothing."""
        return self.sentences - self.not_claims

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, raw: Any, where: str = "groundedness") -> Groundedness:
        return read(cls, raw, where)


def _counts(verdicts: Iterable[Verdict]) -> dict[Label, int]:
    counts = dict.fromkeys(LABELS, 0)
    for verdict in verdicts:
        counts[Label(verdict.label)] += 1
    return counts


@dataclass(frozen=True)
class Report:
    """What one validation found: each sentence's result and the summary. ``fixed`` is the
    text without its failing sentences (None when not known: a report read back from
    metadata). ``usage``: what its model calls consumed (None when not known: metadata
    written before it was recorded)."""

    sentences: list[SentenceResult]
    summary: Groundedness
    fixed: str | None = None
    usage: Usage | None = None

    @property
    def failing(self) -> list[SentenceResult]:
        """The sentences that fail the text, under the settings that applied."""
        return [r for r in self.sentences
                if not r.passes(self.summary.pass_on_invalid, self.summary.fail_on_unsupported)]

    @property
    def passed(self) -> bool:
        return not self.failing

    @property
    def judge_failed(self) -> bool:
        """The text fails only because verdicts could not be obtained: every failing sentence
        fails on a fallback verdict (the judge unreachable, its reply unreadable, the
        deadline), none on a verdict about the text or on its citation."""
        failing = self.failing
        return bool(failing) and all(
            not r.citation.fails and r.verdict is not None and r.verdict.label == INVALID
            and r.verdict.decided_by == BY_FALLBACK for r in failing)

    @property
    def message(self) -> str:
        """Why the text fails, a line per failing sentence; empty when it passes."""
        return self.explain()

    def explain(self, evidence: bool = False, fixing: bool = True) -> str:
        """``message``; with ``evidence``, each failing sentence followed by the passages that
        were retrieved for it (what a regeneration needs: the reask message). ``fixing``: the
        fix is what the caller gets (``on_fail="fix"``), so what it corrects, and a fix that
        states nothing, are said."""
        failing = self.failing
        if not failing:
            return ""
        # a list item's own marker ("- ", "2. ") would double the list's: it is left out
        lines = "\n".join(f"- {r.sentence.text[after_marker(r.sentence.text):]} "
                          f"[{r.summary()}]"
                          + (_evidence_lines(r) if evidence else "") for r in failing)
        summary = self.summary
        corrected = (f"\nThe fix corrects {summary.corrected} of them from their evidence and "
                     f"removes {len(failing) - summary.corrected}."
                     if summary.fix_mode == "correct" and fixing else "")
        empty = ("\nNo claim is left once they are removed: the fix (on_fail=\"fix\") states "
                 "nothing." if summary.fix_empty and fixing else "")
        if evidence and summary.sources_given:
            corrected += ("\nState only what each sentence's evidence states, and leave out "
                          "what it does not.")
        if not summary.sources_given:
            return (f"No sources were given (nor a tool result that answers a call), so nothing "
                    f"in the response can be grounded:\n"
                    f"{lines}{corrected}{empty}")
        return (f"The following sentences are not supported by the sources:\n"
                f"{lines}{corrected}{empty}")

    def metadata(self, caller: Mapping[str, Any] | None = None) -> dict:
        """A new dict: the caller's keys (Guardrails hands a result's metadata to the next
        validator) plus ``sentences`` and ``groundedness``. The caller's dict is never
        changed."""
        return {**(caller or {}), "sentences": [r.as_dict() for r in self.sentences],
                "groundedness": self.summary.as_dict(),
                "usage": None if self.usage is None else dataclasses.asdict(self.usage)}

    @classmethod
    def from_guard(cls, guard: Any) -> Report:
        """The report of the last validation ``guard`` ran with ``ProvenanceLLM`` (one report;
        a Guard with several ProvenanceLLM validators: use ``from_metadata`` on each log)."""
        history = getattr(guard, "history", None)
        last = history.last if history else None
        logs = last.iterations.last.outputs.validator_logs if last and last.iterations else []
        ours = [log for log in logs if log.registered_name == REGISTERED_NAME
                and log.validation_result is not None]
        if last is None:
            raise ValueError("the guard has validated nothing yet: call guard.validate first.")
        error = getattr(last, "error", None)
        passed = bool(ours) and ours[0].validation_result.outcome == "pass"
        if error and (not ours or passed):  # Guardrails failed what ProvenanceLLM passed: an
            said = ' '.join(str(error).split())[:300]  # empty text
            raise ValueError(f"the guard's last call ended with an error"
                             f"{'' if ours else ', before any result'}: {said}")
        if len(ours) != 1:
            raise ValueError(f"the guard's last call has {len(ours)} ProvenanceLLM results; "
                             "Report.from_guard reads exactly one (read each validator log with "
                             "Report.from_metadata).")
        return cls.from_metadata(ours[0].validation_result.metadata)

    @classmethod
    def from_metadata(cls, metadata: Any) -> Report:
        """The report in a result's metadata (``ValidationResult.metadata``, or a
        ``ValidationOutcome``'s validator log), typed again."""
        if not (isinstance(metadata, Mapping) and "sentences" in metadata
                and "groundedness" in metadata):
            raise ValueError("metadata has no 'sentences' and 'groundedness': it is not the "
                             "metadata of a ProvenanceLLM result.")
        record = read(ReportRecord, metadata, "metadata")
        return cls([SentenceResult.of_record(s) for s in record.sentences], record.groundedness,
                   usage=None if record.usage is None else record.usage.typed())


class ReportRecord(BaseModel):
    """A result's metadata: the caller's keys beside ours are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    sentences: list[SentenceRecord]
    groundedness: Groundedness
    usage: UsageRecord | None = None


def usage_from_dict(raw: Any, where: str) -> Usage:
    return read(UsageRecord, raw, where).typed()


def _verdict_dict(verdict: Verdict | None) -> dict:
    if verdict is None:
        return dict.fromkeys(("verdict", "score", "reason", "decided_by", "confidence",
                              "judge_reply", "probability", "control", "kind", "basis", "proven"))
    return {"verdict": verdict.label, "score": verdict.score, "reason": verdict.reason,
            "decided_by": verdict.decided_by, "confidence": verdict.confidence,
            "judge_reply": verdict.reply, "probability": verdict.probability,
            "control": verdict.control, "kind": verdict.failure_kind, "basis": verdict.basis,
            "proven": verdict.proven}


EVIDENCE_LINES, EVIDENCE_LINE_CHARS = 3, 400  # passages per sentence in the reask message


def _evidence_lines(result: SentenceResult) -> str:
    if not result.evidence:
        return "\n  evidence: none was found in the sources"
    shown = []
    for e in result.evidence[:EVIDENCE_LINES]:
        text = " ".join(e.text.split())
        text = text if len(text) <= EVIDENCE_LINE_CHARS else text[:EVIDENCE_LINE_CHARS] + "..."
        where = from_conversation(e) or (f"source {e.source + 1}" if e.source is not None
                                         else "retrieved")
        shown.append(f"\n  evidence ({where}): {text}")
    return "".join(shown)


def _correction_dict(c: Correction) -> dict:
    return {"original": c.original, "rewrite": c.rewrite, "used": c.used, "text": c.text,
            "reason": c.reason,
            "verdict": None if c.verdict is None else _verdict_dict(c.verdict)}


def from_conversation(e: Evidence) -> str | None:
    """Where evidence from the conversation came from, in words ("the user, turn 1"; "the
    tool get_order, call call_1, turn 3"); None for a source's passage."""
    if e.said is not None:
        return f"the {e.said.role}, turn {e.said.turn}"
    if e.tool is not None:
        failed = ", an error" if e.tool.error else ""
        return f"the tool {e.tool.name}, call {e.tool.call_id}, turn {e.tool.turn}{failed}"
    return None


def _place(e: Evidence) -> tuple:
    tool = None if e.tool is None else (e.tool.call_id, e.tool.turn)
    return e.source, e.start, e.end, e.text, tool


def _evidence_dict(e: Evidence) -> dict:
    said, tool = e.said, e.tool
    return {"text": e.text, "source": e.source, "start": e.start, "end": e.end,
            "similarity": None if e.similarity is None else round(e.similarity, 4), "cut": e.cut,
            "said": None if said is None else {"text": said.text, "turn": said.turn,
                                               "role": said.role, "start": said.start,
                                               "end": said.end},
            "tool": None if tool is None else {"name": tool.name, "call_id": tool.call_id,
                                               "turn": tool.turn, "error": tool.error,
                                               "start": tool.start, "end": tool.end},
            "fields": [{"path": f.path, "value": f.value} for f in e.fields]}
