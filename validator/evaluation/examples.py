"""A labelled example and what checking it found: the one shape every evaluation uses.

An ``Example`` is a text with its sources and what is known of it: a line of a ``provenance
eval`` data set (``datasets``), a case of the groundedness suite (``suite``), the text of a
``provenance check``. A ``Checked`` is an example after the validator: its ``Report``, or why it
could not be validated. The eval results file holds a ``Checked`` per line
(``Checked.as_record`` / ``Checked.from_record``); the summaries, the suite's scores, the
meta-evaluation and the HTML report read the types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..deciding.results import (
    Groundedness,
    Report,
    SentenceResult,
    usage_from_dict,
)
from ..types import CitationStatus, FailureKind, Label

if TYPE_CHECKING:
    from .grounded_qa import Metric


@dataclass(frozen=True)
class Expected:
    """What a correct judge finds for one sentence of a suite case: its verdict, the source
    snippets that decide it, and its citation status when one is expected."""

    verdict: Label
    evidence: tuple[str, ...] = ()
    citation: CitationStatus | None = None
    kind: FailureKind | None = None  # what a failing sentence gets wrong, where labelled


@dataclass(frozen=True)
class Example:
    """A text to check against its sources. ``label``: True when the text is grounded (it
    should pass), False when not, None when unknown. ``expected``: a reference answer (for the
    grounded-QA metrics). ``messages``: the conversation it replies to (``metadata["messages"]``).
    ``type``, ``sentences``, ``options``: a suite case's kind, the
    verdict expected of each sentence, and the validator arguments it needs. ``digest``: the
    hash of the line it was read from (a resumed run redoes a sample whose line changed)."""

    id: str
    output: str
    sources: list[str]
    question: str | None = None
    label: bool | None = None
    expected: str | None = None
    type: str | None = None
    sentences: tuple[Expected, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    digest: str = ""
    messages: list[dict[str, Any]] | None = None  # the conversation it replies to
    kind: FailureKind | None = None  # what an output labelled ungrounded gets wrong, if known


@dataclass(frozen=True)
class Checked:
    """An example after the validator: ``report``, or ``error`` (why the validator refused
    it). ``passed`` is the validator's outcome. ``grounded_qa``: GroUSE's metrics, when
    asked for (see ``grounded_qa``)."""

    example: Example
    report: Report | None
    passed: bool = False
    error: str | None = None
    grounded_qa: dict[str, Metric] | None = None

    @property
    def verdicts(self) -> list[str]:
        return [] if self.report is None else [r.label for r in self.report.sentences]

    @property
    def kinds(self) -> list[str | None]:
        """Each sentence's failure kind (None for one that passes)."""
        return [] if self.report is None else [
            None if r.kind is None else str(r.kind) for r in self.report.sentences]

    @property
    def citations(self) -> list[str]:
        return [] if self.report is None else [r.citation.status for r in self.report.sentences]

    @property
    def outcome_correct(self) -> bool:
        """The outcome is the one the label asks for (never, without a label)."""
        return self.error is None and self.passed == self.example.label

    @property
    def labels_correct(self) -> int:
        """Sentences whose verdict (and citation status, where one is expected) is right."""
        verdicts, citations = self.verdicts, self.citations
        right = 0
        for i, expected in enumerate(self.example.sentences):
            verdict = verdicts[i] if i < len(verdicts) else None
            citation = citations[i] if i < len(citations) else None
            right += verdict == expected.verdict and (
                expected.citation is None or citation == expected.citation)
        return right

    def as_record(self) -> dict:
        """The line of the eval results file."""
        record: dict[str, Any] = {"id": self.example.id, "sample_hash": self.example.digest,
                                  "label": self.example.label}
        if self.report is None:
            return {**record, "error": self.error}
        summary = self.report.summary
        record.update(passed=self.passed, faithfulness=summary.faithfulness, level=summary.level,
                      counts=summary.counts,
                      # what the failing sentences get wrong, one kind each: a column to count
                      kinds=[str(r.kind) for r in self.report.failing if r.kind is not None],
                      sentences=[r.as_dict() for r in self.report.sentences],
                      usage=None if self.report.usage is None else asdict(self.report.usage))
        if self.grounded_qa is not None:
            record["grounded_qa"] = {name: metric.as_dict()
                                     for name, metric in self.grounded_qa.items()}
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any], example: Example) -> Checked:
        """A line of the results file (one ``as_record`` wrote, for ``example``), typed
        again; ``ValueError`` names what is wrong with a line that is not one."""
        from .grounded_qa import Metric

        where = f"the result of {example.id!r}"
        if record.get("error") is not None:
            return cls(example, None, False, str(record["error"]))
        if not isinstance(record.get("passed"), bool):
            raise ValueError(f"{where} has no 'passed' (true or false).")
        sentences = record.get("sentences")
        if not isinstance(sentences, list):
            raise ValueError(f"{where} has no list of 'sentences'.")
        results = [SentenceResult.from_dict(s, f"{where}: sentences[{i}]")
                   for i, s in enumerate(sentences)]
        summary = Groundedness.from_dict({**record, "sentences": len(results)}, where)
        qa = record.get("grounded_qa")
        if qa is not None and not isinstance(qa, Mapping):
            raise ValueError(f"{where}: grounded_qa must be an object; got {type(qa).__name__}.")
        metrics = None if qa is None else {
            name: Metric.from_dict(value, f"{where}: grounded_qa[{name!r}]")
            for name, value in qa.items()}
        usage = (None if record.get("usage") is None
                 else usage_from_dict(record["usage"], f"{where}: usage"))
        return cls(example, Report(results, summary, usage=usage), record["passed"], None,
                   metrics)

