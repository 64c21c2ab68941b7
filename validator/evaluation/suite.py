"""Labelled groundedness cases: loading them, running a validator over them, scoring it.

A case is one JSON object per line:

    {"id": "changed_date-1", "type": "changed_date", "sources": ["..."], "output": "...",
     "question": "... (optional)", "options": {"citations": "required"} (optional),
     "expected": {"passes": false,
                  "sentences": [{"verdict": "contradicted", "evidence": ["snippet"],
                                 "citation": "miscited" (optional)}]}}

``expected.sentences`` has one entry per sentence of ``output``: the verdict a correct judge
reaches, the source snippets that decide it, and the citation status when there is one.
``SUITE`` (``evaluation/data/groundedness_suite.jsonl``, installed with the package) is the
suite this project ships.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..request import SUITE_CHUNKING
from ..storage import read_jsonl

SUITE = Path(__file__).resolve().parent / "data" / "groundedness_suite.jsonl"


@dataclass(frozen=True)
class Case:
    id: str
    type: str
    sources: list[str]
    output: str
    passes: bool
    sentences: list[dict]
    question: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CaseOutcome:
    case: Case
    passed: bool
    verdicts: list[str]
    citations: list[str]
    saved_calls: int = 0  # judge calls the rules and the first judge saved
    first_judge_decided: int = 0

    @property
    def outcome_correct(self) -> bool:
        return self.passed == self.case.passes

    @property
    def labels_correct(self) -> int:
        """Sentences whose verdict (and citation status, where one is expected) is right."""
        right = 0
        for i, expected in enumerate(self.case.sentences):
            verdict = self.verdicts[i] if i < len(self.verdicts) else None
            citation = self.citations[i] if i < len(self.citations) else None
            right += verdict == expected["verdict"] and (
                "citation" not in expected or citation == expected["citation"])
        return right


def load_cases(path: str | Path) -> list[Case]:
    cases = []
    for _, where, _, raw in read_jsonl(path):
        try:
            expected = raw["expected"]
            cases.append(Case(
                id=str(raw["id"]), type=str(raw["type"]), sources=list(raw["sources"]),
                output=raw["output"], passes=bool(expected["passes"]),
                sentences=list(expected["sentences"]), question=raw.get("question"),
                options=dict(raw.get("options", {})),
            ))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(
                f"{where}: not a case ({type(error).__name__}: {error}). Each line "
                "needs id, type, sources, output and expected.passes / expected.sentences."
            ) from error
    return cases


def run_case(make_validator: Callable[[dict], Any], case: Case, **metadata) -> CaseOutcome:
    """Validate ``case.output`` with ``make_validator(case.options)``; ``metadata`` adds keys
    (an ``embed_function``, chunking) to the case's sources and question."""
    validator = make_validator(case.options)
    meta = {"sources": case.sources, **SUITE_CHUNKING.as_metadata(), **metadata}
    if case.question:
        meta["question"] = case.question
    result = validator.validate(case.output, meta)
    sentences = result.metadata["sentences"]
    summary = result.metadata["groundedness"]
    return CaseOutcome(case, result.outcome == "pass", [s["verdict"] for s in sentences],
                       [s["citation"]["status"] for s in sentences],
                       summary.get("judge_calls_saved", 0), summary.get("first_judge_decided", 0))


def accuracy_by_type(outcomes: Iterable[CaseOutcome]) -> dict[str, dict[str, float]]:
    """Per case type: cases, outcome accuracy (pass/fail as expected) and sentence accuracy
    (verdict and citation status as expected); and "all"."""
    groups: dict[str, list[CaseOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.case.type, []).append(outcome)
    groups["all"] = [o for group in list(groups.values()) for o in group]
    table = {}
    for name, group in groups.items():
        sentences = sum(len(o.case.sentences) for o in group)
        table[name] = {
            "cases": len(group),
            "outcome_accuracy": sum(o.outcome_correct for o in group) / len(group),
            "sentence_accuracy": sum(o.labels_correct for o in group) / sentences,
        }
    return table


def balanced_accuracy(outcomes: Iterable[CaseOutcome]) -> float | None:
    """Mean of the recall on cases that should fail and on cases that should pass."""
    outcomes = list(outcomes)
    recalls = []
    for should_pass in (False, True):
        group = [o for o in outcomes if o.case.passes == should_pass]
        if group:
            recalls.append(sum(o.outcome_correct for o in group) / len(group))
    return sum(recalls) / len(recalls) if recalls else None
