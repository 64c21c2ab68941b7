"""The result metadata read back: one pydantic model per object of its schema
(docs/reference.md), each turned into the type it was written from.

What is read may come from a file or another process, so every value is checked: a wrong one
raises ``ValueError`` naming its key (``metadata['sentences'][0]['verdict']: ...``). Writing
stays in ``results`` (``as_dict``), on every validation's path; a test keeps the two inverse.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ..text.non_claims import FORMS
from ..types import (
    LABELS,
    SUPPORTED,
    Chunk,
    Citation,
    CitationStatus,
    Correction,
    DecidedBy,
    Evidence,
    FailureKind,
    Label,
    Said,
    Tool,
    Usage,
    Verdict,
)
from ..types import Field as ValueField

Whole = Annotated[StrictInt, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1, strict=True)]  # a score, from 0 to 1
Dollars = Annotated[float, Field(ge=0, allow_inf_nan=False, strict=True)]
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False, strict=True)]
# Every label counted: one a record leaves out, 0.
Counts = Annotated[dict[Label, Whole], AfterValidator(lambda counts: {**dict.fromkeys(LABELS, 0),
                                                                      **counts})]
Unit = Literal["sentence", "claim"]
Shape = TypeVar("Shape")


class _Read(BaseModel):
    # Enums from their values; every other value of the exact JSON type (no "3" for 3, no
    # true for 1). Keys a later version adds are ignored.
    model_config = ConfigDict(frozen=True, extra="ignore")


class VerdictRecord(_Read):
    """A verdict's fields: null in a sentence that is not a claim."""

    verdict: Label | None = None
    score: Share | None = None
    reason: StrictStr | None = None
    decided_by: DecidedBy | None = None
    confidence: Share | None = None
    judge_reply: StrictStr | None = None
    probability: Share | None = None
    control: StrictStr | None = None
    kind: FailureKind | None = None
    basis: Whole | None = None
    proven: StrictBool | None = None

    def as_verdict(self) -> Verdict | None:
        if self.verdict is None or self.decided_by is None:
            return None
        return Verdict(self.verdict, self.reason or "", self.score, self.decided_by,
                       self.confidence, self.judge_reply, self.probability, self.control,
                       kind=None if self.kind == FailureKind.UNSPECIFIED else self.kind,
                       basis=self.basis, proven=bool(self.proven))

    def judged(self) -> Verdict:
        """The verdict of what was judged: one without a label is refused."""
        verdict = self.as_verdict()
        if verdict is None:
            raise ValueError("a claim has a 'verdict' and a 'decided_by'")
        return verdict


class SaidRecord(_Read):
    text: StrictStr
    turn: Whole
    role: StrictStr
    start: Whole
    end: Whole

    def typed(self) -> Said:
        return Said(self.text, self.start, self.end, self.turn, self.role)


class ToolRecord(_Read):
    name: StrictStr
    call_id: StrictStr
    turn: Whole
    error: StrictBool = False
    start: Whole | None = None
    end: Whole | None = None

    def typed(self) -> Tool:
        return Tool(self.name, self.call_id, self.turn, self.error, self.start, self.end)


class FieldRecord(_Read):
    path: StrictStr
    value: StrictStr | StrictBool | StrictInt | Annotated[float, Field(strict=True)] | None

    def typed(self) -> ValueField:
        return ValueField(self.path, self.value)


class EvidenceRecord(_Read):
    text: StrictStr
    source: Whole | None = None
    start: Whole | None = None
    end: Whole | None = None
    similarity: Annotated[float, Field(strict=True)] | None = None
    cut: StrictBool = False
    said: SaidRecord | None = None
    tool: ToolRecord | None = None
    fields: list[FieldRecord] = []

    def typed(self) -> Evidence:
        chunk = (None if self.source is None
                 else Chunk(self.text, self.start or 0, self.end or 0, self.source))
        return Evidence(self.text, self.similarity, chunk, self.cut,
                        None if self.said is None else self.said.typed(),
                        None if self.tool is None else self.tool.typed(),
                        tuple(f.typed() for f in self.fields))


class ClaimRecord(VerdictRecord):
    text: StrictStr
    evidence: list[EvidenceRecord]

    @model_validator(mode="after")
    def _judged(self) -> ClaimRecord:
        self.judged()
        return self


class CitationRecord(_Read):
    cited: list[StrictInt]
    status: CitationStatus
    uncited_support: list[StrictInt]
    out_of_range: list[StrictInt]

    def typed(self) -> Citation:
        return Citation(tuple(self.cited), self.status, tuple(self.uncited_support),
                        tuple(self.out_of_range))


class CorrectionRecord(_Read):
    original: StrictStr
    rewrite: StrictStr | None = None
    used: StrictBool
    text: StrictStr | None = None
    reason: StrictStr | None = None
    verdict: VerdictRecord | None = None

    @model_validator(mode="after")
    def _used_means_supported(self) -> CorrectionRecord:
        if self.used and (self.verdict is None or self.verdict.verdict != SUPPORTED
                          or self.text is None):
            raise ValueError("a correction that is used has a supported verdict and a text")
        return self

    def typed(self) -> Correction:
        return Correction(self.original, self.rewrite, self.used,
                          None if self.verdict is None else self.verdict.as_verdict(),
                          self.reason or "", self.text)


class SentenceRecord(VerdictRecord):
    """A sentence: its verdict's fields beside its own, its claims when it was split into
    claims."""

    text: StrictStr
    start: Whole
    end: Whole
    read_as: StrictStr | None = None
    not_a_claim: Literal[FORMS] | None = None  # type: ignore[valid-type]
    evidence: list[EvidenceRecord] = []
    citation: CitationRecord
    claims: Annotated[list[ClaimRecord], Field(min_length=1)] | None = None
    correction: CorrectionRecord | None = None

    @model_validator(mode="after")
    def _a_claim_has_a_verdict(self) -> SentenceRecord:
        if self.not_a_claim is None and self.claims is None:
            self.judged()
        return self


class UsageRecord(_Read):
    calls: Whole
    prompt_tokens: Whole
    completion_tokens: Whole
    cached_tokens: Whole | None = None
    counted_calls: Whole
    cost_usd: Dollars | None = None
    unpriced: StrictStr = ""
    cut_off_calls: Whole = 0
    caught_calls: Whole = 0
    failed_calls: Whole = 0
    retried_calls: Whole = 0

    def typed(self) -> Usage:
        return Usage(**dict(self))


def read(shape: type[Shape], raw: Any, where: str) -> Shape:
    """``raw`` checked as ``shape`` (a model, or a dataclass whose annotations say what each
    value must be); else ``ValueError`` naming the first wrong key under ``where`` (what the
    value was read from), what it should be, and what it is."""
    try:
        return _adapter(shape).validate_python(raw)
    except ValidationError as error:
        wrong = error.errors()[0]
        key = "".join(f"[{part!r}]" for part in wrong["loc"] if part != "[key]")
        got = repr(wrong["input"])
        got = got if len(got) <= 80 else got[:77] + "..."
        message = wrong["msg"]
        raise ValueError(f"{where}{key}: {message[:1].lower()}{message[1:]}; got {got}."
                         ) from None


_ADAPTERS: dict[Any, TypeAdapter] = {}  # one per shape read, built on its first read


def _adapter(shape: Any) -> TypeAdapter:
    if shape not in _ADAPTERS:
        _ADAPTERS[shape] = TypeAdapter(shape)
    return _ADAPTERS[shape]
