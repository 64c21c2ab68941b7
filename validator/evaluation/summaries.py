"""What a run reports, typed: ``EvalSummary`` (``provenance eval``), ``MetaEvalReport``
(``provenance meta-eval``) and the rows inside them. The command line, the HTML report and
``evaluate()`` read their attributes; their JSON is written by ``to_json()`` and read back by
``from_json()``, through the same pydantic models, so a damaged or hostile value read back
raises ``ValueError`` (pydantic's ``ValidationError``) naming the field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from ..types import Usage

if TYPE_CHECKING:  # typing.Self is Python 3.11's; this module runs on 3.10 too
    from typing_extensions import Self


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values: what ``--json`` prints and ``from_json`` reads."""
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return cls.model_validate(data)


class Detection(_Result):
    """How well failing validations detect the samples labelled ungrounded (a failing
    validation is a positive); None where a ratio has no denominator."""

    samples: int
    true_positives: int
    false_positives: int
    false_negatives: int
    true_negatives: int
    precision: float | None
    recall: float | None
    f1: float | None
    balanced_accuracy: float | None


class MetricSummary(_Result):
    """One grounded-QA metric over the samples: the mean of its scored values and how many
    were scored, null (the metric does not apply) and failed (no readable grade)."""

    mean: float | None
    scored: int
    null: int
    failed: int


class EvalSummary(_Result):
    """A ``provenance eval`` run over the samples validated (errors left out): mean
    faithfulness, share failing, histogram of levels, what the model calls consumed; with
    labels, ``labelled``; with ``--grounded-qa``, each metric. ``from_earlier_runs``: results
    read back unchanged from the results file; ``bad_samples``: lines and samples that were not
    validated, each with why."""

    samples: int
    mean_faithfulness: float | None
    failing_share: float | None
    levels: dict[str, int]
    usage: Usage
    labelled: Detection | None = None
    by_kind: dict[str, KindDetection] | None = None
    grounded_qa: dict[str, MetricSummary] | None = None
    from_earlier_runs: int = 0
    errors: int = 0
    bad_samples: list[str] = []
    results: str | None = None


class KindDetection(_Result):
    """One failure kind on labelled sentences: ``sentences`` labelled with it, ``caught``
    (the judge failed them: ``recall`` is the share), ``named`` (it failed them with this very
    kind), ``false_alarms`` (sentences labelled supported that it failed with this kind)."""

    sentences: int
    caught: int
    named: int
    false_alarms: int
    recall: float | None


def kind_lines(by_kind: dict[str, KindDetection]) -> list[str]:
    """The per-kind table as the command line prints it."""
    if not by_kind:
        return []
    lines = ["by failure kind (labelled with it: caught, and named with that kind; labelled "
             "supported: failed with it):"]
    for kind, row in by_kind.items():
        caught = (f"caught {row.caught:>3} ({row.recall:>4.0%})  named {row.named:>3}"
                  if row.recall is not None else " " * 25)
        lines.append(f"  {kind:<15} {row.sentences:>4} labelled  {caught}  false alarms "
                     f"{row.false_alarms}")
    return lines


class TypeAccuracy(_Result):
    """The cases of one type (or "all"): how many, the share whose outcome (pass or fail) was
    as labelled, and the share of their sentences whose verdict and citation were."""

    cases: int
    outcome_accuracy: float
    sentence_accuracy: float


class MetaEvalReport(_Result):
    """A judge measured on labelled cases (``provenance meta-eval``). ``confusion``: expected
    label -> verdict given -> sentences; ``wrong``: the cases whose outcome was not as
    labelled."""

    cases: int
    by_type: dict[str, TypeAccuracy]
    balanced_accuracy: float | None
    confusion: dict[str, dict[str, int]]
    judge_calls: int
    judge_calls_saved: int
    first_judge_decided: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    median_call_latency_s: float | None
    wall_s: float
    wrong: list[str]
    judge: str = "local"
    first_judge: str | None = None
    by_kind: dict[str, KindDetection] = {}
    confidence_band: tuple[float, float] | None = None
