"""GroUSE's grounded-QA metrics: how good an answer written from reference documents is.

Six metrics per sample (question, references, answer, optionally an expected answer):

- ``answer_relevancy`` (1-5, judge): how much of the answer bears on the question;
- ``completeness`` (1-5, judge): how much of what the references say in answer it gives;
- ``faithfulness`` (0/1, ours): 1 when our validator passes the answer against the references,
  citations included (a ``[2]`` that points at the wrong document fails it);
- ``usefulness`` (0/1, judge): for an answer that says no document answers, whether the other
  information it gives helps;
- ``positive_acceptance`` (0/1): the references answer the question and the answer does too;
- ``negative_rejection`` (0/1): the references do not answer it and the answer says so.

A metric that does not apply is null, by GroUSE's rules: no relevancy for an answer that says no
document answers (a refusal); no completeness when the references hold no answer; usefulness
only for refusals that give other information; no faithfulness for a refusal that says nothing
else; positive acceptance only when the references answer the question, negative rejection
only when they do not. A metric the judge gave no readable reply for is ``failed``, never a
guess; the metrics that depend on it are failed too.

The prompts are ours (``qa_prompts.py``); the judge is any ``PromptJudge`` (a LiteLLM model, a
callable), whose caches (memory, and disk with ``cache_dir``) serve repeated prompts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..judges.kinds import Ask
from ..judges.prompt_judge import PromptJudge
from ..runtime.loop import run
from ..types import BY_FALLBACK
from .qa_prompts import COMPLETENESS, RELEVANCY, USEFULNESS
from .summaries import MetricSummary

METRICS = ("answer_relevancy", "completeness", "faithfulness", "usefulness",
           "positive_acceptance", "negative_rejection")
TOP_SCORE = {"answer_relevancy": 5, "completeness": 5}  # the others are 0/1

SCORED = "scored"
NULL = "null"  # the metric does not apply to this sample (GroUSE's null rules)
FAILED = "failed"  # the judge gave no readable reply; no value is guessed

BY_VALIDATOR = "validator"  # faithfulness: this package's own verdict on the answer
BY_RULE = "rule"  # GroUSE's null rules and acceptance/rejection, applied in code


@dataclass(frozen=True)
class Metric:
    score: int | None
    status: str
    reason: str = ""
    decided_by: str = ""  # the judge's (llm, cache, fallback), or ours: validator, rule

    def as_dict(self) -> dict:
        return {"score": self.score, "status": self.status, "reason": self.reason,
                "decided_by": self.decided_by}

    @classmethod
    def from_dict(cls, raw: Any, where: str) -> Metric:
        """The inverse of ``as_dict``, checked (it is read from a results file)."""
        if not isinstance(raw, dict) or raw.get("status") not in (SCORED, NULL, FAILED):
            raise ValueError(f"{where} must be an object with a status of {SCORED}, {NULL} or "
                             f"{FAILED}.")
        score = raw.get("score")
        if (score is None) != (raw["status"] != SCORED) or (
                score is not None and (isinstance(score, bool) or not isinstance(score, int))):
            raise ValueError(f"{where}: a scored metric has a whole-number score, any other "
                             f"none; got {score!r} with status {raw['status']}.")
        return cls(score, raw["status"], str(raw.get("reason") or ""),
                   str(raw.get("decided_by") or ""))


def _scored(value: int, reason: str, decided_by: str) -> Metric:
    return Metric(value, SCORED, reason, decided_by)


def _null(reason: str, decided_by: str = BY_RULE) -> Metric:
    return Metric(None, NULL, reason, decided_by)


def _failed(reason: str, decided_by: str = BY_FALLBACK) -> Metric:
    return Metric(None, FAILED, reason, decided_by)


def grade(
    judge: PromptJudge,
    question: str,
    answer: str,
    references: Sequence[str],
    faithful: bool,
    faithfulness_reason: str = "",
    expected: str | None = None,
) -> dict[str, Metric]:
    """The six metrics for one sample. ``faithful`` is our validator's outcome on ``answer``
    against ``references`` (the caller ran it, with citations checked)."""
    if not isinstance(judge, PromptJudge):
        raise ValueError("the grounded-QA metrics need an LLM judge (a LiteLLM model name or a "
                         f"prompt -> reply callable); got {type(judge).__name__}.")
    untrusted = [question, answer, expected, *references]

    relevancy = _ask(judge, RELEVANCY.ask(question, answer, None, expected, untrusted))
    completeness = _ask(judge, COMPLETENESS.ask(question, answer, references, expected,
                                                untrusted))

    if relevancy.status == FAILED:
        usefulness = _failed("depends on answer relevancy, which failed")
        faithfulness = _failed("depends on answer relevancy, which failed")
    elif relevancy.status == NULL:  # the answer refuses: is what else it says of use?
        usefulness = _ask(judge, USEFULNESS.ask(question, answer, None, expected, untrusted))
        if usefulness.status == NULL:
            faithfulness = _null("the answer only says that no document answers")
        elif usefulness.status == FAILED:
            faithfulness = _failed("depends on usefulness, which failed")
        else:
            faithfulness = _scored(int(faithful), faithfulness_reason, BY_VALIDATOR)
    else:
        usefulness = _null("usefulness is rated only for answers that say no document answers")
        faithfulness = _scored(int(faithful), faithfulness_reason, BY_VALIDATOR)

    acceptance, rejection = _acceptance_and_rejection(relevancy, completeness)
    return {"answer_relevancy": relevancy, "completeness": completeness,
            "faithfulness": faithfulness, "usefulness": usefulness,
            "positive_acceptance": acceptance, "negative_rejection": rejection}


def _acceptance_and_rejection(relevancy: Metric, completeness: Metric) -> tuple[Metric, Metric]:
    """Answerable (completeness rated) and answered (relevancy rated) decide both: an
    answerable question should be answered, an unanswerable one refused."""
    if FAILED in (relevancy.status, completeness.status):
        failed = _failed("depends on answer relevancy and completeness, one of which failed")
        return failed, failed
    refused = relevancy.status == NULL
    if completeness.status == SCORED:  # the references answer the question
        return (_scored(int(not refused), "the references answer the question; the answer "
                        + ("says none does" if refused else "answers it"), BY_RULE),
                _null("the references answer the question"))
    return (_null("the references do not answer the question"),
            _scored(int(refused), "the references do not answer the question; the answer "
                    + ("says so" if refused else "answers anyway"), BY_RULE))


def _ask(judge: PromptJudge, ask: Ask[tuple[int | None, str]]) -> Metric:
    answer = run(judge.ask(ask))  # on the process's validation loop
    if answer.value is None:
        return _failed(answer.problem, answer.decided_by)
    score, reason = answer.value
    return _null(reason, answer.decided_by) if score is None else _scored(score, reason, answer.decided_by)


def summarise(graded: Sequence[dict[str, Metric]]) -> dict[str, MetricSummary]:
    """Per metric over the samples' metrics: mean of the scored values, and how many were
    scored, null and failed. No mean of the six: they are on different scales."""
    summary = {}
    for metric in METRICS:
        values = [g[metric] for g in graded if metric in g]
        scores = [v.score for v in values if v.status == SCORED and v.score is not None]
        summary[metric] = MetricSummary(
            mean=sum(scores) / len(scores) if scores else None, scored=len(scores),
            null=sum(v.status == NULL for v in values),
            failed=sum(v.status == FAILED for v in values))
    return summary
