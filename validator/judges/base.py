"""The judge interface.

Inside the validator a judge is a ``Backend``: one awaited method, ``verdicts(items,
context)``, a group of statements with their evidence in and a verdict for each out (the
``Context`` is what the judge reads beside the evidence), and what it declares of itself: how
many statements one call takes (``group_size``), whether it can break a sentence into claims or
rewrite one, whether its verdicts carry a probability. The prompt judges (a LiteLLM model, a
callable, MiniCheck) are backends as they are; the policies (``policies``) are backends that
wrap one.

What users pass is adapted once, when the validator is built (``objects.adapt``): an object
with ``judge(claim, evidence, question)`` (the public ``Judge`` protocol, here), and optionally
``judge_batch``, ``extract_claims``, ``correct``. What it returns is checked here
(``check_verdict``), so that nothing the validator cannot read becomes a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, cast, runtime_checkable

from ..errors import ConfigurationError, JudgeAuthError
from ..settings import DEFAULTS
from ..types import (
    CONFLICTING_KINDS,
    DECIDERS,
    FAILURE_KINDS,
    LABELS,
    Context,
    DecidedBy,
    Evidence,
    FailureKind,
    Label,
    Verdict,
    kind_contradicts,
)

__all__ = ["Abilities", "Backend", "BatchJudge", "ClaimExtractor", "ConfigurationError", "Corrector", "Judge",
           "JudgeAuthError", "JudgeSettings", "Unread"]

Item = tuple[str, Sequence[Evidence]]


@runtime_checkable
class Judge(Protocol):
    """Decides whether ``claim`` is backed by ``evidence``. Must be safe to call from threads."""

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict: ...


@runtime_checkable
class BatchJudge(Protocol):
    """A judge that can also decide several claims in one call (``batch_size`` > 1)."""

    def judge_batch(
        self, items: Sequence[tuple[str, Sequence[Evidence]]], question: str | None = None
    ) -> list[Verdict]: ...


@runtime_checkable
class ClaimExtractor(Protocol):
    """A judge that can break a sentence into atomic claims (``validation_method="claim"``).
    Returns None when it cannot; the sentence is then judged whole."""

    def extract_claims(
        self, sentence: str, answer: str, question: str | None = None
    ) -> list[str] | None: ...


@runtime_checkable
class Corrector(Protocol):
    """Rewrites a sentence its evidence does not back so that the evidence backs it, using only
    that evidence (``fix_mode="correct"``); None when it cannot. The rewrite is checked and
    judged before it is used. Must be safe to call from threads."""

    def correct(
        self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
        question: str | None = None,
    ) -> str | None: ...


@dataclass(frozen=True)
class JudgeSettings:
    """The settings that make a judge and the policies it wears (each field is the setting of
    that name, its default the settings table's): one slice, taken from the validator's
    settings (``Settings.take``) on every path that builds a judge."""

    max_calls_in_flight: int = DEFAULTS.max_calls_in_flight
    max_retries: int = DEFAULTS.max_retries
    cache_size: int = DEFAULTS.cache_size
    max_requests_per_minute: float | None = DEFAULTS.max_requests_per_minute
    max_tokens_per_minute: float | None = DEFAULTS.max_tokens_per_minute
    structured_replies: str = DEFAULTS.structured_replies
    control_statements: str = DEFAULTS.control_statements
    failure_kinds: bool = DEFAULTS.failure_kinds
    min_support_probability: float | None = DEFAULTS.min_support_probability

    def given(self) -> dict[str, Any]:
        """The settings that differ from their defaults: what a user asked for."""
        return {row.name: getattr(self, row.name) for row in fields(self)
                if getattr(self, row.name) != getattr(DEFAULT_JUDGE, row.name)}


DEFAULT_JUDGE = JudgeSettings()


@dataclass(frozen=True)
class Unread(Verdict):
    """An INVALID verdict for a statement that a group call's reply gave nothing readable for:
    asked again on its own by ``policies.AskAlone`` (where it is asked alone already, it
    stands)."""


@dataclass(frozen=True)
class Abilities:
    """What a backend declares it can do. The policies it wears are chosen by these
    (``factory.dress``), and so is the answer to a setting it cannot take.

    ``group_size``: statements one call takes (None: as many as ``batch_size``);
    ``extracts_claims``, ``corrects``: it breaks a sentence into claims, rewrites one;
    ``computes``: its calls compute here (run in the pool) rather than wait on a model;
    ``gives_probabilities``: its verdicts may carry a probability to hold to a threshold;
    ``one_per_call_because``: why a judge that could batch takes one statement a call;
    ``controls``: its group calls carry a control statement (None: where the settings say "on"
    and it batches); ``asks_again``: a group call's reply may leave a statement unread, to be
    asked again alone; ``remembered``: its verdicts are worth keeping (a model's: the rules are
    cheaper to run again than to look up); ``rules``: it is the offline rule checker;
    ``takes``: the judge settings it takes itself (its calls' limits and retries, its prompts);
    ``cannot``: why it cannot take a given one, by setting, else ``what`` it is."""

    group_size: int | None = None
    extracts_claims: bool = False
    corrects: bool = False
    computes: bool = False
    gives_probabilities: bool = False
    one_per_call_because: str | None = None
    controls: bool | None = None
    asks_again: bool = False
    remembered: bool = False
    rules: bool = False
    takes: frozenset[str] = frozenset()
    cannot: tuple[tuple[str, str], ...] = ()
    what: str = "cannot take it"

    def why_not(self, setting: str) -> str:
        return dict(self.cannot).get(setting, self.what)


# The settings a backend whose calls wait on a model takes: its calls' shared limits.
CALL_LIMITS = frozenset(("max_calls_in_flight", "max_requests_per_minute"))


class Backend:
    """A judge as the validator calls it. Subclasses write ``verdicts`` and declare what they
    can do (``abilities``); a backend that can break sentences into claims or rewrite them
    writes ``claims`` or ``rewrite`` too."""

    # ``settings``: the judge settings it was built with, where it was built apart from the
    # validator (a prompt judge of ours): those, not the validator's, are the ones it wears
    settings: JudgeSettings | None = None

    @property
    def abilities(self) -> Abilities:
        return Abilities()

    @property
    def name(self) -> str:
        return type(self).__name__

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        raise NotImplementedError

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        return None

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        return None

    def ready(self) -> None:
        """Load what judging reads with (rules, a model, a tokenizer) that its first call would
        otherwise load; call nothing. ``ProvenanceLLM.warm_up`` calls it."""


def check_count(name: str, verdicts: object, count: int) -> None:
    if not isinstance(verdicts, list) or len(verdicts) != count:
        raise ConfigurationError(
            f"{name}.judge_batch must return one Verdict per item, a list of {count}; got "
            f"{type(verdicts).__name__}"
            + (f" of {len(verdicts)}" if isinstance(verdicts, list) else "") + ".")


def check_verdict(name: str, verdict: object) -> None:
    """A judge object of the user's must give Verdicts we can read: anything else is a setup
    mistake, raised, never guessed at (a guess could pass the text). Its probability is held
    to ``min_support_probability``: one out of range could pass a verdict no model was sure of."""
    # plain types first: a str subclass's own comparison is never run (it may raise anything)
    plain = isinstance(verdict, Verdict) and all(
        type(value) in (str, Label, DecidedBy) for value in (
            verdict.label, verdict.decided_by, verdict.reason))
    if not plain or not _readable(cast(Verdict, verdict)):
        shown = (repr(verdict) if plain or type(verdict) in (str, int, float, bool, type(None))
                 else f"a {type(verdict).__name__} of other types")
        raise ConfigurationError(
            f"{name}.judge returned {shown}; a judge must return a "
            f"provenance_guard.Verdict with a label in {LABELS}, decided_by in {DECIDERS}, a "
            "str reason (plain str, no subclass), a score and a probability each from 0 to 1 "
            "(or None), a kind that is None or a FailureKind its label allows (none for "
            "supported; for contradicted, one of what the sources say otherwise: "
            f"{', '.join(sorted(CONFLICTING_KINDS))}), and a basis that is None or the index "
            "of a passage it was given."
        )


def _readable(verdict: Verdict) -> bool:
    return (verdict.label in LABELS and verdict.decided_by in DECIDERS
            and _chance(verdict.score) and _chance(verdict.probability) and _kind_fits(verdict)
            and (verdict.basis is None or type(verdict.basis) is int and verdict.basis >= 0))


def _kind_fits(verdict: Verdict) -> bool:
    """Its kind is None, or a failure kind its label allows."""
    kind = verdict.kind
    if kind is None:
        return True
    if type(kind) not in (str, FailureKind) or kind not in FAILURE_KINDS:
        return False
    return not kind_contradicts(verdict.label, kind)


def _chance(value: object) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                             and 0 <= value <= 1)
