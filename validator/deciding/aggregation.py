"""Aggregation: the report of one validation (see ``results``) from its claims' verdicts,
evidence and citations; then the fix: the text without its failing sentences, or with their
corrections in their place (``fix_mode="correct"``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UNREACHABLE, warn
from ..judges.replies import EXPECTED_VERDICT, UNREADABLE_VERDICT
from ..request import Request
from ..retrieval.retriever import Found
from ..runtime.deadline import TOO_LATE
from ..text.structure import inside_emphasis_pairs, inside_marks
from ..types import INVALID, Claim, Correction, FixMode, ReadSentence, Sentence
from .decider import Decided
from .results import ClaimResult, Groundedness, Report, SentenceResult


def fix_value(value: str, remove: list[Sentence],
              replace: Sequence[tuple[Sentence, str]] = ()) -> str:
    """``value`` without the sentences of ``remove``, and with each sentence of ``replace``
    replaced by its text, every other character as it was. Each removal takes the blanks
    after it; a list or quote marker that opens the line, and emphasis marks left unpaired
    ("**One." of "**One. Two.**"), stay with the line, and a replacement goes inside them. A
    line left with no letter or digit (only "- ", "1. ", "# ", "> ", "**") goes whole, with its
    line break."""
    cuts = []
    for sentence in remove:
        start, end = inside_marks(value, sentence.start, sentence.end)
        while end < len(value) and value[end] in " \t":
            end += 1
        cuts.append((start, end, ""))
    for sentence, text in replace:
        start, end = inside_emphasis_pairs(value, *inside_marks(value, sentence.start,
                                                                sentence.end))
        cuts.append((start, end, text))
    cuts.sort()
    kept, line_start = [], 0
    for line in value.splitlines(keepends=True):
        line_end = line_start + len(line)
        inside = [(max(a, line_start), min(b, line_end), text if a >= line_start else "")
                  for a, b, text in cuts if a < line_end and b > line_start]
        if inside:
            pieces, position = [], line_start
            for a, b, text in inside:
                pieces.append(value[position:a] + text)
                position = max(position, b)
            pieces.append(value[position:line_end])
            line = "".join(pieces)
            body = line.rstrip("\r\n")
            emptied = not any(c.isalnum() or c == "_" for c in body) or _ONLY_MARKS.fullmatch(body)
            body = _BLANK_BEFORE_CLOSING.sub(r"\1", body.rstrip(" \t"))
            line = "" if emptied else body + line[len(line.rstrip("\r\n")):]
        kept.append(line)
        line_start = line_end
    return re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip()


# "**One. **" once "Two." is gone: the closing mark goes back against the text.
_BLANK_BEFORE_CLOSING = re.compile(r"(?<=\S)[ \t]+((?:\*\*|__|~~|\*|_)+)$")
# What a line holds when its sentences are gone: a list, quote or heading marker, emphasis.
_ONLY_MARKS = re.compile(r"[ \t]*(?:>[ \t]*)*(?:[-*+•‣◦▪●]|\d{1,3}[.)]|[A-Za-z][)]|#{1,6})?[ \t*_~]*")


@dataclass(frozen=True)
class Reporting:
    """The settings the report and its fix read (each field is the setting of that name)."""

    validation_method: str
    deadline: float | None
    fail_on_unsupported: bool
    citations: str
    max_evidence_chars: int | None
    fix_mode: FixMode
    on_fail: Any


def _no_verdict(results: Sequence[SentenceResult], invalid: int) -> str:
    """Why ``invalid`` sentences have no verdict, in a line: the deadline, with what it found
    unfinished; a judge that could not be reached, with where it was looked for; replies that
    could not be read, counted."""
    reasons = [c.verdict.reason for r in results for c in r.claims
               if c.verdict.label == INVALID and not c.verdict.withheld]
    late = [reason for reason in reasons if TOO_LATE in reason]
    if late and len(late) == len(reasons):
        said = late[0][late[0].index(TOO_LATE):]  # the deadline, and what it found unfinished
        return f"{invalid} sentence(s) had no verdict {said}"
    unreachable = [reason[reason.index(UNREACHABLE):] for reason in reasons
                   if UNREACHABLE in reason]
    if len(unreachable) == len(reasons):
        return (f"the judge could not be reached for {invalid} sentence(s): "
                f"{unreachable[0].rstrip('.')}")
    unreadable = reasons.count(UNREADABLE_VERDICT)
    why = [f"{len(late)} had none {TOO_LATE}"] if late else []
    why += [f"{len(unreachable)} call(s) could not reach the judge"] if unreachable else []
    why += [f"{unreadable} of its replies could not be read: expected {EXPECTED_VERDICT}"
            ] if unreadable else []
    return f"the judge gave no readable verdict for {invalid} sentence(s)" + (
        f" ({'; '.join(why)})" if why else "")


def _read_as(read: ReadSentence, claims: Sequence[ClaimResult], by_claim: bool) -> str | None:
    """What a sentence judged whole was judged as, where that is not its text."""
    return claims[0].text if claims and not by_claim and claims[0].text != read.text else None


def aggregate(request: Request, read: Sequence[ReadSentence], claims: Sequence[Claim],
              decided: Decided, evidence: Found, reporting: Reporting) -> Report:
    """Each sentence's result from its claims' verdicts and evidence and its checked citation
    (a sentence that is not a claim: its form, no claims); the text passes when every sentence
    does."""
    by_claim = reporting.validation_method == "claim"
    claims_of: list[list[ClaimResult]] = [[] for _ in read]
    for n, (claim, verdict) in enumerate(zip(claims, decided.verdicts, strict=True)):
        claims_of[claim.sentence].append(ClaimResult(claim.text, verdict,
                                                     decided.said.get(n) or evidence.peek(n)))
    results = [SentenceResult(r.sentence, claims_of[i], r.citation, by_claim, r.not_a_claim,
                              read_as=_read_as(r, claims_of[i], by_claim))
               for i, r in enumerate(read)]
    invalid = sum(r.verdict is not None and r.verdict.label == INVALID for r in results)
    withheld = sum(r.verdict is not None and r.verdict.withheld for r in results)
    if invalid - withheld:
        warn(f"{_no_verdict(results, invalid - withheld)}; counting them as "
             f"{'supported' if request.pass_on_invalid else 'unsupported'} "
             f"(pass_on_invalid={request.pass_on_invalid}).")
    if withheld:
        warn(f"{withheld} sentence(s) failed on a judge that was caught on a control statement, "
             "was not sure enough (min_support_probability), or failed them with a kind that "
             "contradicts its verdict, whatever pass_on_invalid says.")
    summary = Groundedness.of(
        results, any(r.split_into_claims for r in results),
        judge_calls_saved=decided.saved_calls, first_judge_decided=decided.by_first_judge,
        one_statement_per_call=decided.one_per_call_because,
        sources_given=not request.no_sources, pass_on_invalid=request.pass_on_invalid,
        deadline=reporting.deadline, fail_on_unsupported=reporting.fail_on_unsupported,
        citation_mode=reporting.citations, unit="claim" if by_claim else "sentence",
        max_evidence_chars=reporting.max_evidence_chars)
    return Report(results, summary)


def fix(report: Report, request: Request, reporting: Reporting,
        corrections: Mapping[int, Correction]) -> Report:
    """``report`` with its fix: the text without its failing sentences, each one with a used
    correction replaced by it (``corrections``, by sentence index, are attached to their
    sentences). When no claim is left, the summary says so (``fix_empty``) and, with
    ``on_fail="fix"``, a warning."""
    results = [dataclasses.replace(r, correction=corrections[i]) if i in corrections else r
               for i, r in enumerate(report.sentences)]
    used = {i: c.text for i, c in corrections.items() if c.used and c.text is not None}
    summary = dataclasses.replace(report.summary, fix_mode=reporting.fix_mode,
                                  corrected=len(used))
    report = Report(results, summary)
    failing = {id(r) for r in report.failing}
    if not failing:
        return dataclasses.replace(report, fixed=request.value)
    fixed = fix_value(request.value,
                      [r.sentence for i, r in enumerate(results) if id(r) in failing
                       and i not in used],
                      [(results[i].sentence, text) for i, text in used.items()])
    if any(r.not_a_claim is None and (id(r) not in failing or i in used)
           for i, r in enumerate(results)):
        return dataclasses.replace(report, fixed=fixed)
    # nothing that states anything is left (at most a greeting or a "hope this helps")
    if reporting.on_fail == "fix":  # the string, or OnFailAction.FIX (a str enum)
        warn(
            "every claim of the text fails, so on_fail=\"fix\" leaves a text that states "
            "nothing (Guardrails reports it as passed): check that the validated output is not "
            "empty, or use on_fail=\"exception\" or \"reask\".")
    return Report(results, dataclasses.replace(summary, fix_empty=True), fixed)
