"""Judge meta-evaluation (``provenance meta-eval``): how good is a judge, on labelled cases?

Runs a judge (a LiteLLM model with an editable prompt template, or the local judge) through the
validator over labelled cases (the project's suite, or the user's JSONL in the same format;
see ``evaluation.suite``) and reports the pass rate per case type, the confusion matrix of
sentence verdicts, balanced accuracy, and the judge's tokens, cost and latency (LiteLLM's
accounting). This is how to pick a cheaper judge with confidence.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..deciding.results import NOT_A_CLAIM
from ..types import INVALID, LABELS, Usage
from .engine_options import DEFAULT_CONCURRENCY
from .examples import Example
from .suite import accuracy_by_type, balanced_accuracy, by_kind, run_case
from .summaries import MetaEvalReport


def meta_evaluate(cases: list[Example], make_validator: Callable[[dict], Any], judge: Any,
                  concurrency: int = DEFAULT_CONCURRENCY) -> MetaEvalReport:
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        outcomes = list(pool.map(lambda case: run_case(make_validator, case), cases))
    wall = time.perf_counter() - started
    confusion = {expected: dict.fromkeys((*LABELS, NOT_A_CLAIM), 0) for expected in LABELS}
    for outcome in outcomes:
        verdicts = outcome.verdicts
        for i, expected in enumerate(outcome.example.sentences):
            got = verdicts[i] if i < len(verdicts) else INVALID
            confusion[expected.verdict][got] += 1
    reports = [o.report for o in outcomes if o.report is not None]
    usage = sum((r.usage for r in reports if r.usage is not None), Usage())
    latencies = list(getattr(getattr(judge, "made", judge), "latencies", ()))
    return MetaEvalReport(
        cases=len(cases),
        by_type=accuracy_by_type(outcomes),
        balanced_accuracy=balanced_accuracy(outcomes),
        confusion={str(k): v for k, v in confusion.items() if any(v.values())},
        judge_calls=usage.calls,
        judge_calls_saved=sum(r.summary.judge_calls_saved for r in reports),
        first_judge_decided=sum(r.summary.first_judge_decided for r in reports),
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        median_call_latency_s=statistics.median(latencies) if latencies else None,
        wall_s=round(wall, 3),
        wrong=[o.example.id for o in outcomes if not o.outcome_correct],
        by_kind=by_kind(outcomes))
