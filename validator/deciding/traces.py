"""Each validation's results in the OpenTelemetry trace it runs in: Guardrails wraps every
validator call in a span (OpenInference kind GUARDRAIL), and each judged sentence becomes a
child of it that a trace viewer (Phoenix, Langfuse, any OTLP sink) can filter on: its verdict,
its failure kind, its score and probability, how it was decided, and where its evidence lies
(source and offsets, turn, tool call). The validator span gains the summary and the judge's
usage.

Nothing secret, and no source text: a key is never an attribute here, and neither are the
passages nor the reason (which quotes them); the sentence is the validated text's own, which
Guardrails records on the span already. Where no tracer provider is configured (OpenTelemetry's
default) the current span does not record, and nothing here runs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from opentelemetry import trace

from .results import Report, SentenceResult

log = logging.getLogger(__name__)
SENTENCE_SPAN = "provenance.sentence"
_EVALUATOR = "EVALUATOR"  # OpenInference's span kind of what judges another span's output


def record(report: Report) -> None:
    """``report`` on the current span (the validator's, under a Guard) and one child span per
    sentence; nothing where the current span does not record."""
    try:
        from guardrails.settings import settings

        span = trace.get_current_span()
        # only Guardrails' own validator span, and none where its tracing is off
        if settings.disable_tracing or not span.is_recording() or not str(
                getattr(span, "name", "")).endswith(".validate"):
            return
        _record(span, report)
    except Exception as error:  # a trace is never worth a validation
        log.warning("the validation's results were not added to its trace: %s", error)


def _record(span: trace.Span, report: Report) -> None:
    failing = report.failing
    usage, summary = report.usage, report.summary
    span.set_attributes(_without_none({
        "provenance.passed": not failing,
        "provenance.sentences": len(report.sentences),
        "provenance.failed": len(failing),
        "provenance.kinds": [str(s.kind) for s in failing if s.kind is not None] or None,
        "provenance.level": None if summary.level is None else str(summary.level),
        "provenance.faithfulness": summary.faithfulness,
        "provenance.usage.calls": usage.calls if usage else None,
        "provenance.usage.prompt_tokens": usage.prompt_tokens if usage else None,
        "provenance.usage.completion_tokens": usage.completion_tokens if usage else None,
        "provenance.usage.cost_usd": usage.cost_usd if usage else None,
    }))
    tracer = trace.get_tracer("provenance-guard")
    under = trace.set_span_in_context(span)
    for n, sentence in enumerate(report.sentences):
        tracer.start_span(SENTENCE_SPAN, context=under,
                          attributes=_sentence_attributes(n, sentence)).end()


def _sentence_attributes(n: int, sentence: SentenceResult) -> dict[str, Any]:
    verdict = sentence.verdict
    evidence = sentence.evidence
    return _without_none({
        "openinference.span.kind": _EVALUATOR,
        "input.value": sentence.sentence.text,
        "output.value": str(sentence.label) + (f" ({sentence.kind})" if sentence.kind else ""),
        "provenance.sentence.index": n,
        "provenance.sentence.start": sentence.sentence.start,
        "provenance.sentence.end": sentence.sentence.end,
        "provenance.verdict": str(sentence.label),
        "provenance.kind": None if sentence.kind is None else str(sentence.kind),
        "provenance.score": None if verdict is None else verdict.score,
        "provenance.probability": None if verdict is None else verdict.probability,
        "provenance.confidence": None if verdict is None else verdict.confidence,
        "provenance.decided_by": None if verdict is None else str(verdict.decided_by),
        "provenance.citation": str(sentence.citation.status),
        "provenance.not_a_claim": sentence.not_a_claim,
        # the evidence the verdict rests on, one entry per passage in the same order
        "provenance.evidence.source": _ints([-1 if e.source is None else e.source
                                             for e in evidence]),
        "provenance.evidence.start": _ints([-1 if e.start is None else e.start
                                            for e in evidence]),
        "provenance.evidence.end": _ints([-1 if e.end is None else e.end for e in evidence]),
        "provenance.evidence.turn": _ints([_turn(e) for e in evidence]),
        "provenance.evidence.tool_call": [e.tool.call_id if e.tool else "" for e in evidence]
        or None,
    })


def _turn(evidence) -> int:
    """The conversation turn a passage comes from (the user's words, a tool's result); -1 for
    a source's passage."""
    if evidence.said is not None:
        return evidence.said.turn
    return evidence.tool.turn if evidence.tool is not None else -1


def _ints(values: Sequence[int]) -> list[int] | None:
    return list(values) or None


def _without_none(attributes: dict[str, Any]) -> dict[str, Any]:
    """OpenTelemetry takes no None for an attribute: a value that is not there is left out."""
    return {key: value for key, value in attributes.items() if value is not None}
