"""Labelled groundedness cases: loading them, running a validator over them, scoring it.

A case is one JSON object per line:

    {"id": "changed_date-1", "type": "changed_date", "sources": ["..."], "output": "...",
     "question": "... (optional)", "options": {"citations": "required"} (optional),
     "expected": {"passes": false,
                  "sentences": [{"verdict": "contradicted", "evidence": ["snippet"],
                                 "citation": "miscited" (optional),
                                 "kind": "date" (optional)}]}}

``expected.sentences`` has one entry per sentence of ``output``: the verdict a correct judge
reaches, the source snippets that decide it, the citation status when there is one, and for a
sentence that fails, what it gets wrong (a failure kind, ``types.FailureKind``).
``SUITE`` (``evaluation/data/groundedness_suite.jsonl``, installed with the package) is the
suite this project ships.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..request import SUITE_CHUNKING
from ..storage import read_jsonl
from ..types import SUPPORTED, CitationStatus, FailureKind, Label
from .examples import Checked, Example, Expected
from .summaries import KindDetection, TypeAccuracy

SUITE = Path(__file__).resolve().parent / "data" / "groundedness_suite.jsonl"


def load_cases(path: str | Path) -> list[Example]:
    cases = []
    for _, where, _, raw in read_jsonl(path):
        try:
            expected = raw["expected"]
            cases.append(Example(
                id=str(raw["id"]), output=raw["output"], sources=list(raw["sources"]),
                question=raw.get("question"), label=bool(expected["passes"]),
                type=str(raw["type"]),
                sentences=tuple(_expected(s) for s in expected["sentences"]),
                options=dict(raw.get("options", {})),
            ))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(
                f"{where}: not a case ({type(error).__name__}: {error}). Each line "
                "needs id, type, sources, output and expected.passes / expected.sentences."
            ) from error
    return cases


def _expected(raw: dict) -> Expected:
    citation, kind = raw.get("citation"), raw.get("kind")
    return Expected(Label(raw["verdict"]), tuple(raw.get("evidence", ())),
                    None if citation is None else CitationStatus(citation),
                    None if kind is None else FailureKind(kind))


def run_case(make_validator: Callable[[dict], Any], case: Example, **metadata) -> Checked:
    """Check ``case.output`` with ``make_validator(case.options)``; ``metadata`` adds keys
    (an ``embed_function``, chunking) to the case's sources and question."""
    validator = make_validator(case.options)
    meta = {"sources": case.sources, **SUITE_CHUNKING.as_metadata(), **metadata}
    if case.question:
        meta["question"] = case.question
    report = validator.check(case.output, meta)
    return Checked(case, report, report.passed)


def accuracy_by_type(outcomes: Iterable[Checked]) -> dict[str, TypeAccuracy]:
    """Per case type: cases, outcome accuracy (pass/fail as expected) and sentence accuracy
    (verdict and citation status as expected); and "all"."""
    groups: dict[str, list[Checked]] = {}
    for outcome in outcomes:
        groups.setdefault(str(outcome.example.type), []).append(outcome)
    groups["all"] = [o for group in list(groups.values()) for o in group]
    table = {}
    for name, group in groups.items():
        sentences = sum(len(o.example.sentences) for o in group)
        table[name] = TypeAccuracy(
            cases=len(group),
            outcome_accuracy=sum(o.outcome_correct for o in group) / len(group),
            sentence_accuracy=sum(o.labels_correct for o in group) / sentences)
    return table


def by_kind(outcomes: Iterable[Checked]) -> dict[str, KindDetection]:
    """Per failure kind: the sentences labelled with it, how many the judge failed (its recall)
    and how many it failed with that very kind; and the sentences labelled supported that it
    failed, by the kind it gave (its false alarms)."""
    table: dict[str, dict[str, int]] = {}

    def row(kind: str) -> dict[str, int]:
        return table.setdefault(kind, dict.fromkeys(("sentences", "caught", "named",
                                                     "false_alarms"), 0))

    for outcome in outcomes:
        if outcome.report is None:
            continue
        given, example = outcome.kinds, outcome.example
        if not example.sentences:  # a sample of ``provenance eval``: labelled as a whole
            if example.kind is not None:
                counts = row(str(example.kind))
                counts["sentences"] += 1
                counts["caught"] += not outcome.passed
                counts["named"] += example.kind in given
            elif example.label is True and not outcome.passed:
                for alarm in filter(None, given):
                    row(alarm)["false_alarms"] += 1
            continue
        summary = outcome.report.summary
        results = outcome.report.sentences
        for i, expected in enumerate(example.sentences):
            got = given[i] if i < len(given) else None
            fails = i < len(results) and not results[i].passes(summary.pass_on_invalid,
                                                               summary.fail_on_unsupported)
            if expected.kind is not None:
                counts = row(str(expected.kind))
                counts["sentences"] += 1
                counts["caught"] += fails
                counts["named"] += fails and got == expected.kind
            elif expected.verdict == SUPPORTED and got is not None and fails:
                row(got)["false_alarms"] += 1
    return {kind: KindDetection(**counts, recall=counts["caught"] / counts["sentences"]
                                if counts["sentences"] else None)
            for kind, counts in sorted(table.items())}


def balanced_accuracy(outcomes: Iterable[Checked]) -> float | None:
    """Mean of the recall on cases that should fail and on cases that should pass."""
    outcomes = list(outcomes)
    recalls = []
    for should_pass in (False, True):
        group = [o for o in outcomes if o.example.label == should_pass]
        if group:
            recalls.append(sum(o.outcome_correct for o in group) / len(group))
    return sum(recalls) / len(recalls) if recalls else None
