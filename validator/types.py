"""The vocabulary every stage speaks: spans of text, claims, verdicts and their labels.

Imports nothing of ours, so any module may import it. One concept has one shape: a slice of
text is a ``Span`` (a ``Sentence`` of the output, a ``Chunk`` of a source), a retrieved passage
is ``Evidence``, a citation is a ``Citation``, and how a verdict was reached is ``decided_by``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, get_args


class Text(str, Enum):
    """A closed set of words that is also plain text: equal to its value, printed and written to
    JSON as its value (``Label.SUPPORTED == "supported"``)."""

    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]  # the value's, not the member's


class Label(Text):
    """A verdict's label."""

    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    INVALID = "invalid"  # the judge gave no verdict we can read, or failed


class DecidedBy(Text):
    """How a verdict was decided (``Verdict.decided_by``)."""

    LLM = "llm"  # the judge's model answered
    CACHE = "cache"  # the same prompt was answered before
    LOCAL = "local"  # the rule checker: the local judge, or the cascade
    FALLBACK = "fallback"  # the judge failed or its reply was unreadable
    MODEL = "model"  # a local classifier (NLIJudge) decided


class CitationStatus(Text):
    """What was found of a sentence's citations."""

    NONE = "none"  # cites nothing, and nothing is required of it
    OK = "ok"  # cites sources, and they are what supports it (or it is not supported at all)
    MISCITED = "miscited"  # its cited sources don't support it; a source it does not cite does
    MISSING = "missing"  # a factual sentence without a citation, with citations="required"
    OUT_OF_RANGE = "out_of_range"  # cites a number that is not a source
    UNCHECKED = "unchecked"  # evidence came from query_function, which has no source numbers


class FailureKind(Text):
    """What a failing sentence gets wrong (``Verdict.kind``): one small taxonomy that maps onto
    Lynx 2.0's hallucination types and RAGTruth's where they overlap (docs/kinds.md)."""

    NUMBER = "number"  # a changed number, amount or quantity
    DATE = "date"  # a changed date, year, month or time of day
    ENTITY = "entity"  # a changed name, entity or title ("former CEO" told as "CEO")
    PREDICATE = "predicate"  # a changed action or property, no value or name
    ROLES = "roles"  # who did what to whom, turned round
    OPPOSITE = "opposite"  # a negation or an antonym of what the source says
    CIRCUMSTANCE = "circumstance"  # a time, place or scope the source keeps and the text drops
    UNASSERTED = "unasserted"  # the source hedges, asks, supposes, plans or has it pending
    FAILED_TOOL = "failed_tool"  # a failed tool call told as a success
    OTHER_PERSON = "other_person"  # someone else's words or acts told as the user's
    ADDITION = "addition"  # something the sources do not mention
    CALCULATION = "calculation"  # a figure worked out from the sources that they do not give
    WRONG_CITATION = "wrong_citation"  # cites a source that does not hold it
    UNSPECIFIED = "unspecified"  # the judge did not say


# The kinds a contradicted verdict may give: the source says otherwise. The rest are kinds of
# an unsupported one (the sources do not say it), which a changed value may be too.
CONFLICTING_KINDS = frozenset((FailureKind.NUMBER, FailureKind.DATE, FailureKind.ENTITY,
                               FailureKind.PREDICATE, FailureKind.ROLES, FailureKind.OPPOSITE,
                               FailureKind.FAILED_TOOL, FailureKind.OTHER_PERSON,
                               FailureKind.CALCULATION, FailureKind.UNSPECIFIED))
FAILURE_KINDS = tuple(FailureKind)


def kind_contradicts(label: str, kind: str) -> bool:
    """Whether a verdict of ``label`` contradicts itself by giving ``kind``: a supported one
    gives none; a contradicted one only a kind of what the sources say otherwise."""
    return kind != FailureKind.UNSPECIFIED and (
        label == Label.SUPPORTED or label == Label.CONTRADICTED and kind not in CONFLICTING_KINDS)


class Level(Text):
    """The groundedness level of a whole text, from its faithfulness (supported / judged)."""

    FULLY = "fully"  # every judged sentence is supported
    PARTIALLY = "partially"  # at least half are
    UNGROUNDED = "ungrounded"  # fewer than half are
    CONTRADICTORY = "contradictory"  # any sentence is contradicted, whatever the score


# What the fix (on_fail="fix") does with a failing sentence: remove it, or correct it.
FixMode = Literal["remove", "correct"]
FIX_MODES: tuple[str, ...] = get_args(FixMode)

# The members under their short names, as the stages use them.
SUPPORTED, UNSUPPORTED, CONTRADICTED, INVALID = Label
LABELS = tuple(Label)
BY_LLM, BY_CACHE, BY_LOCAL, BY_FALLBACK, BY_MODEL = DecidedBy
DECIDERS = tuple(DecidedBy)
NONE, OK, MISCITED, MISSING, OUT_OF_RANGE, UNCHECKED = CitationStatus
FAILING_CITATIONS = frozenset((MISCITED, MISSING, OUT_OF_RANGE))
COUNTED_CITATIONS = (OK, MISCITED, MISSING, OUT_OF_RANGE)  # in the groundedness summary
FULLY, PARTIALLY, UNGROUNDED, CONTRADICTORY = Level
LEVELS = tuple(Level)

Within = frozenset[int] | None  # the 0-based sources a claim's evidence must come from; None: any


@dataclass(frozen=True)
class Span:
    """A slice of a text: ``text == whole[start:end]``."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Sentence(Span):
    """A sentence (the unit judged) of the validated text."""


@dataclass(frozen=True)
class Chunk(Span):
    """A passage of a source: ``text == sources[source][start:end]``."""

    source: int


@dataclass(frozen=True)
class Said(Span):
    """A sentence of a turn of the conversation: ``text == messages[turn - 1]["content"]
    [start:end]``, ``turn`` counted from 1 (content given as parts: its text parts joined by a
    newline)."""

    turn: int
    role: str


Scalar = str | int | float | bool | None  # a value of structured evidence (JSON)


@dataclass(frozen=True)
class Field:
    """One value of structured evidence (a JSON tool result or source), with its path, which
    locates it: ``items[0].name``."""

    path: str
    value: Scalar


@dataclass(frozen=True)
class Tool:
    """Where evidence from a tool came from: the tool's ``name`` and ``call_id`` (from the
    assistant's call it answers), the ``turn`` of its result (counted from 1), whether the
    result is an ``error``; ``start``/``end``: the passage's offsets in the result's text
    (None for fields, which their paths locate)."""

    name: str
    call_id: str
    turn: int
    error: bool = False
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True)
class Evidence:
    """A passage retrieved for a claim, with its cosine similarity to it (None when unknown).
    ``chunk`` locates it in the sources; passages a ``query_function`` returns have none.
    ``cut``: the text is part of a longer chunk or passage, cut to fit the judge's prompt.
    ``said``: the evidence is what the user said in the conversation, not a source (its text
    is that sentence as a reply says it back: "my order" -> "your order").
    ``tool``: the evidence is a tool's result in the conversation, not a source.
    ``fields``: the evidence is structured (JSON), read value by value; its text shows them,
    one ``path: value`` line each."""

    text: str
    similarity: float | None = None
    chunk: Chunk | None = None
    cut: bool = False
    said: Said | None = None
    tool: Tool | None = None
    fields: tuple[Field, ...] = ()

    @classmethod
    def of(cls, chunk: Chunk, similarity: float | None = None) -> Evidence:
        return cls(chunk.text, similarity, chunk)

    @property
    def source(self) -> int | None:
        return None if self.chunk is None else self.chunk.source

    @property
    def start(self) -> int | None:
        return None if self.chunk is None else self.chunk.start

    @property
    def end(self) -> int | None:
        return None if self.chunk is None else self.chunk.end


@dataclass(frozen=True)
class Claim:
    """What one verdict is about: a whole sentence, or (``validation_method="claim"``) one
    atomic claim of it. ``sentence`` is the index of its sentence; ``within`` limits its
    evidence to the sources that sentence cites."""

    text: str
    sentence: int
    within: Within = None


@dataclass(frozen=True)
class Citation:
    """A sentence's citation markers and what was found of them. ``cited`` are the numbers as
    written (``[1]`` is ``sources[0]``); ``uncited_support`` the numbers of sources it should
    have cited instead; ``out_of_range`` the numbers that are no source."""

    cited: tuple[int, ...] = ()
    status: CitationStatus | str = NONE
    uncited_support: tuple[int, ...] = ()
    out_of_range: tuple[int, ...] = ()

    @property
    def fails(self) -> bool:
        return self.status in FAILING_CITATIONS


@dataclass(frozen=True)
class ReadSentence:
    """One sentence as the text stage reads it, once for every stage after it: where it is,
    its citation markers, its ``text`` without them (what the judge sees), and the form of a
    sentence that asserts nothing (``not_a_claim``; None for a claim)."""

    sentence: Sentence
    text: str
    citation: Citation = Citation()
    not_a_claim: str | None = None


@dataclass(frozen=True)
class Context:
    """What a judge reads beside a statement's evidence, to read the statement right: every
    part untrusted text, never evidence. ``question``: what the text answers;
    ``conversation``: the turns it replies to. A new kind of context is a field here, and
    ``parts`` the one place that lists them."""

    question: str | None = None
    # the conversation the text replies to, as (role, text) turns, oldest first, already cut
    # to what a prompt carries
    conversation: tuple[tuple[str, str], ...] = ()

    @property
    def parts(self) -> tuple[str | None, ...]:
        """Its texts, for what must see every untrusted text of a prompt (the tag that marks
        the prompt's sections, the reader that refuses a verdict copied from them)."""
        return (self.question, *(text for _, text in self.conversation))


NO_CONTEXT = Context()


REPLY_SHOWN = 300  # characters of an unreadable reply kept in its verdict


@dataclass(frozen=True)
class Verdict:
    """A judge's decision about one claim. ``score`` is how fully the evidence backs it, 0 to
    1 (None when unknown). ``confidence``: the chance that this verdict is right, measured on
    held-out data for its kind of decision (None when the judge was not calibrated)."""

    label: Label | str
    reason: str = ""
    score: float | None = None
    decided_by: DecidedBy | str = BY_LLM
    confidence: float | None = None
    # for a verdict the judge's reply gave nothing readable for: that reply, cut to
    # REPLY_SHOWN characters; untrusted text, shown as written and never read for a verdict
    reply: str | None = None
    # the chance the model gave the tokens of its verdict's word, from the log probabilities
    # its provider returned (None: none were returned, or the judge reads no tokens)
    probability: float | None = None
    # what became of the control statement in the judge call that gave this verdict (LLM
    # judges): "answered", or why the call had none ("none: ..."); None for other judges
    control: str | None = None
    # an INVALID verdict that is no unreadable reply: the judge was caught on a control, was
    # not sure enough (min_support_probability), or failed the claim with a kind its verdict
    # contradicts. It fails whatever pass_on_invalid says.
    withheld: bool = False
    # what a failing verdict gets wrong (``FailureKind``), where the judge said; None else
    kind: FailureKind | str | None = None
    # which passage or record decided it, as its index in the evidence the judge was given,
    # where one did (the rule checks: the passage that states the claim, or gives another
    # value, or the call that failed); None where the judge does not say
    basis: int | None = None
    # a supported verdict the judge proved rather than weighed: one plain statement of the
    # evidence holds the claim, or the answer in the question's place (the local judge:
    # ``rules.proves``); cheap first takes it without the LLM
    proven: bool = False

    @property
    def failure_kind(self) -> FailureKind | str | None:
        """What it gets wrong: its ``kind``, "unspecified" for an unsupported or contradicted
        verdict that gives none, None for any other."""
        if self.label not in (UNSUPPORTED, CONTRADICTED):
            return None
        return self.kind or FailureKind.UNSPECIFIED

    @property
    def passed(self) -> bool:
        return self.label == SUPPORTED


@dataclass(frozen=True)
class Correction:
    """What ``fix_mode="correct"`` did with one failing sentence: ``rewrite`` is what the
    corrector wrote from the sentence's evidence (None when it gave none), ``verdict`` the
    judge's on it (None when it was not judged: ``reason`` says why), ``used`` whether it
    replaces the sentence in the fix (else the sentence is removed). ``text`` is what the fix
    puts in the sentence's place: the rewrite with citation markers of the sources it rests on
    when the sentence had markers."""

    original: str
    rewrite: str | None
    used: bool
    verdict: Verdict | None = None
    reason: str = ""
    text: str | None = None


@dataclass(frozen=True)
class Usage:
    """What the model calls of a validation (or a run: ``+`` adds them) consumed: verdicts,
    claims and corrections alike. A reply from a cache is no call. ``cached_tokens``: prompt
    tokens the provider served from its prompt cache, None when it does not say.
    ``counted_calls``: calls whose tokens the provider did not report, counted here with
    OpenAI's cl100k_base. ``cost_usd`` is None when some call's price is unknown; ``unpriced``
    then says why (never a cost of 0 for calls nobody priced). ``cut_off_calls``: calls the
    validation's deadline cut off before the provider reported their tokens (a hosted provider
    bills them): their prompt tokens are counted here, their completion tokens are unknown.
    ``caught_calls``: calls whose reply called their control statement supported, a statement
    the call's passages contradict: none of their verdicts was used. ``failed_calls``: requests
    the provider answered with an error, or that timed out (counted in ``calls``: it received
    them). ``retried_calls``: of the calls, those that were a retry of a failed one."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int | None = None
    counted_calls: int = 0
    cost_usd: float | None = 0.0
    unpriced: str = ""
    cut_off_calls: int = 0
    caught_calls: int = 0
    failed_calls: int = 0
    retried_calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        cached = (None if self.cached_tokens is None and other.cached_tokens is None
                  else (self.cached_tokens or 0) + (other.cached_tokens or 0))
        cost = (None if self.cost_usd is None or other.cost_usd is None
                else self.cost_usd + other.cost_usd)
        return Usage(self.calls + other.calls, self.prompt_tokens + other.prompt_tokens,
                     self.completion_tokens + other.completion_tokens, cached,
                     self.counted_calls + other.counted_calls, cost,
                     self.unpriced or other.unpriced, self.cut_off_calls + other.cut_off_calls,
                     self.caught_calls + other.caught_calls,
                     self.failed_calls + other.failed_calls,
                     self.retried_calls + other.retried_calls)

    def line(self) -> str:
        """For a person: '1 judge call, 800 prompt + 60 completion tokens, $0.000156'."""
        calls = f"{self.calls} judge call{'' if self.calls == 1 else 's'}"
        if not self.calls:
            return f"{calls} to a model, $0"
        tokens = f"{self.prompt_tokens:,} prompt + {self.completion_tokens:,} completion tokens"
        if self.cached_tokens:
            tokens += f" ({self.cached_tokens:,} of the prompt cached)"
        if self.counted_calls:
            tokens += " (counted here: the judge reported none)"
        if self.cut_off_calls:
            tokens += (f"; {self.cut_off_calls} call(s) cut off by the deadline, their completion "
                       "tokens unknown")
        cost = (f"${self.cost_usd:.6f}" if self.cost_usd is not None
                else f"cost unknown: {self.unpriced}")
        caught = (f"; {self.caught_calls} call(s) called a control statement supported, their "
                  "verdicts unused" if self.caught_calls else "")
        failed = (f"; {self.failed_calls} failed" if self.failed_calls else "") + (
            f"; {self.retried_calls} were retries" if self.retried_calls else "")
        return f"{calls}, {tokens}, {cost}{caught}{failed}"
