"""Aggregation: per-sentence results, the result metadata, the failure message and the
fixed value."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .index import Evidence
from .splitting import Sentence
from .verdicts import CONTRADICTED, INVALID, SUPPORTED, UNSUPPORTED, Verdict

# Groundedness levels, from the faithfulness score (supported / judged sentences):
FULLY = "fully"  # every judged sentence is supported
PARTIALLY = "partially"  # at least half are
UNGROUNDED = "ungrounded"  # fewer than half are
CONTRADICTORY = "contradictory"  # any sentence is contradicted, whatever the score
PARTIAL_THRESHOLD = 0.5


@dataclass(frozen=True)
class SentenceResult:
    sentence: Sentence
    verdict: Verdict
    evidence: list[Evidence]

    def passes(self, pass_on_invalid: bool) -> bool:
        return self.verdict.passed or (self.verdict.label == INVALID and pass_on_invalid)

    def summary(self) -> str:
        reason = f": {self.verdict.reason}" if self.verdict.reason else ""
        return f"{self.verdict.label}{reason}"

    def as_dict(self) -> dict:
        return {
            "text": self.sentence.text,
            "start": self.sentence.start,
            "end": self.sentence.end,
            "verdict": self.verdict.label,
            "score": self.verdict.score,
            "reason": self.verdict.reason,
            "decided_by": self.verdict.how,
            "evidence": [
                {
                    "text": e.text,
                    "source": e.source,
                    "start": e.start,
                    "end": e.end,
                    "similarity": None if e.similarity is None else round(e.similarity, 4),
                }
                for e in self.evidence
            ],
        }


def groundedness(results: list[SentenceResult]) -> dict:
    counts = {label: 0 for label in (SUPPORTED, UNSUPPORTED, CONTRADICTED, INVALID)}
    for result in results:
        counts[result.verdict.label] += 1
    judged = len(results) - counts[INVALID]
    faithfulness = counts[SUPPORTED] / judged if judged else None
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
            "sentences": len(results)}


def build_metadata(
    caller: dict, results: list[SentenceResult], sources_given: bool, pass_on_invalid: bool = False
) -> dict:
    """A new dict: the caller's keys (Guardrails hands a result's metadata to the next
    validator) plus ``sentences`` and ``groundedness``. The caller's dict is never changed."""
    summary = groundedness(results)
    summary["sources_given"] = sources_given
    summary["pass_on_invalid"] = pass_on_invalid
    return {**caller, "sentences": [r.as_dict() for r in results], "groundedness": summary}


def failure_message(failing: list[SentenceResult], no_sources: bool) -> str:
    lines = "\n".join(f"- {r.sentence.text} [{r.summary()}]" for r in failing)
    if no_sources:
        return f"No sources were given, so nothing in the response can be grounded:\n{lines}"
    return f"The following sentences are not supported by the sources:\n{lines}"


_LINE_PREFIX = re.compile(r"[ \t]*(?:(?:[-*+•‣◦▪●]|\d{1,3}[.)]|[A-Za-z][)])[ \t]+)?")


def fix_value(value: str, remove: list[Sentence]) -> str:
    """``value`` without the given sentences: the spaces after each go too, and a line (or
    list item) left with nothing on it goes whole, so the rest reads as it did."""
    kept, position = [], 0
    for sentence in sorted(remove, key=lambda s: s.start):
        line_start = value.rfind("\n", 0, sentence.start) + 1
        before = value[max(position, line_start) : sentence.start]
        end = sentence.end
        while end < len(value) and value[end] in " \t":
            end += 1
        whole_line = (
            line_start >= position
            and _LINE_PREFIX.fullmatch(before) is not None
            and (end == len(value) or value[end] == "\n")
        )
        if whole_line:
            kept.append(value[position:line_start])
            end = min(end + 1, len(value))  # and its line break
        elif end == len(value) or value[end] == "\n":
            kept.append(value[position : sentence.start].rstrip(" \t"))
        else:
            kept.append(value[position : sentence.start])
        position = end
    kept.append(value[position:])
    return re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip()
