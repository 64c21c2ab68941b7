"""A judge object of the user's as a ``Backend``: an object with ``judge(claim, evidence,
question)`` (the public ``Judge`` protocol), and optionally ``judge_batch``, ``extract_claims``,
``correct``, each with or without an awaited twin (``ajudge``, ...), adapted once, when the
validator is built (``adapt``). Its plain methods run apart from the validation's own work: in
the process's pool when they compute (``computes``), else in threads of their own that a
deadline may abandon (``runtime.waiting.Waiting``), through the call layer
(``calls.Outbound``). What it returns is checked once (``base.check_verdict``)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

from ..errors import ConfigurationError
from ..runtime.pool import Busy, offload
from ..runtime.waiting import identity, waiting
from ..types import BY_FALLBACK, INVALID, Context, Evidence, Usage, Verdict
from .base import (
    CALL_LIMITS,
    DEFAULT_JUDGE,
    Abilities,
    Backend,
    BatchJudge,
    ClaimExtractor,
    Corrector,
    Item,
    Judge,
    JudgeSettings,
    check_count,
    check_verdict,
)
from .calls import Outbound
from .limits import gate
from .usage import OBJECT_CALL


def adapt(judge: object, settings: JudgeSettings = DEFAULT_JUDGE) -> Backend:
    """``judge`` as a ``Backend``: a backend as it is, a judge object of the user's adapted
    under ``settings`` (its plain calls that only wait run at most ``max_calls_in_flight`` at
    once, under its model's shared limits)."""
    return judge if isinstance(judge, Backend) else ObjectJudge(judge, settings)


class ObjectJudge(Backend):
    """A judge object (``Judge``, and optionally ``BatchJudge``, ``ClaimExtractor``,
    ``Corrector``), its methods chosen once: the awaited twin where the object writes one beside
    the plain method (in the same class or below it), on an event loop of the object's own;
    else the plain method: in the pool when the object computes (``computes`` or
    ``is_heuristic``), else in a thread of its own. Both under the object's bound of
    ``max_calls_in_flight`` (``runtime.waiting.Waiting``): a call that never returns, or blocks
    its loop, holds up nothing but the object's own calls. An object that does not compute
    wears the call layer (``calls.Outbound``): its model's shared limits, each call counted;
    its own client retries, not the layer."""

    def __init__(self, judge: object, settings: JudgeSettings = DEFAULT_JUDGE):
        self.judge = judge
        # its plain methods compute (the rules, a model's forward pass): the validation waits
        # for them before it returns; a user's may wait on a network, and is not waited for
        self.rules = bool(getattr(judge, "is_heuristic", False))
        self.computes = self.rules or bool(getattr(judge, "computes", False))
        self.gives_probabilities = bool(getattr(judge, "gives_probabilities", True))
        size = settings.max_calls_in_flight
        self.outbound = None if self.computes else Outbound(lambda: gate(
            identity(judge), size, settings.max_requests_per_minute))
        # plain methods that only wait, and every awaited one, run apart from the validations
        self.waiting = waiting(identity(judge), size)
        self._one = self._method("judge") if isinstance(judge, Judge) else None  # a corrector
        self._batch = self._method("judge_batch") if isinstance(judge, BatchJudge) else None
        self._extract = (self._method("extract_claims") if isinstance(judge, ClaimExtractor)
                         else None)
        self._correct = self._method("correct") if isinstance(judge, Corrector) else None

    @property
    def abilities(self) -> Abilities:
        batches = self._batch is not None
        takes = set() if self.computes else set(CALL_LIMITS)
        if batches:
            takes.add("control_statements")
        return Abilities(
            group_size=None if batches else 1, extracts_claims=self._extract is not None,
            corrects=self._correct is not None, computes=self.computes,
            gives_probabilities=self.gives_probabilities,
            remembered=self.computes and not self.rules, rules=self.rules,
            takes=frozenset(takes), what=self._what(batches))

    def _what(self, batches: bool) -> str:
        if self.rules:
            return "is the offline rule checker, which calls no model and gives no probabilities"
        if self.computes:
            return "computes its verdicts here, with no calls to retry, limit or control"
        if not batches:
            return "is a judge object of yours that judges one statement a call"
        return "is a judge object of yours that sends its own requests"

    @property
    def name(self) -> str:
        return type(self.judge).__name__

    def _method(self, name: str) -> Callable[..., Awaitable[Any]]:
        if has_async(self.judge, name):  # on the object's own loop: it may block it
            awaited = functools.partial(self.waiting.call_async, getattr(self.judge, f"a{name}"))
            return awaited if self.outbound is None else self._outbound(awaited)
        method = getattr(self.judge, name)
        if self.computes:  # an object that computes wears no call layer
            return functools.partial(offload, method)
        return self._outbound(functools.partial(self.waiting.call, method))

    def _outbound(self, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """``call`` through the call layer: each call under the model's limits, counted."""
        layer = cast(Outbound, self.outbound)
        return lambda *args: layer.call(lambda: call(*args), _object_call)

    def ready(self) -> None:
        """A judge object's own ``ready()``, where it writes one (ours: the rules, a model)."""
        ready = getattr(self.judge, "ready", None)
        if callable(ready):
            ready()

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        """Its verdicts; a call refused because too many of the object's calls still run past
        their deadline (``Busy``) gives INVALID verdicts that say so."""
        question = context.question
        try:
            if self._batch is not None and len(items) > 1:
                verdicts = await self._batch(items, question)
                check_count(self.name, verdicts, len(items))
            else:
                one = cast(Callable[..., Awaitable[Any]], self._one)  # a judge: has judge()
                verdicts = list(await asyncio.gather(*(one(claim, evidence, question)
                                                       for claim, evidence in items)))
        except Busy as busy:
            return [Verdict(INVALID, f"the judge was not called: {busy}",
                            decided_by=BY_FALLBACK) for _ in items]
        for verdict in verdicts:
            check_verdict(self.name, verdict)
        return verdicts

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        if self._extract is None:
            return None
        try:
            claims = await self._extract(sentence, answer, context.question)
        except Busy:
            return None
        if claims is not None and (not isinstance(claims, list)
                                   or not all(isinstance(c, str) for c in claims)):
            raise ConfigurationError(
                f"{self.name}.extract_claims returned {type(claims).__name__}; it must return "
                "a list of str, or None when it gives no claims.")
        return claims

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        if self._correct is None:
            return None
        try:
            written = await self._correct(sentence, evidence, verdict, context.question)
        except Busy:
            return None
        if written is not None and not isinstance(written, str):
            raise ConfigurationError(
                f"{self.name}.correct returned {type(written).__name__}; it must return the "
                "rewritten sentence (str), or None when it cannot.")
        return written


async def _object_call(_: object) -> Usage:
    return OBJECT_CALL


def has_async(judge: object, method: str) -> bool:
    """Whether ``judge`` has ``a<method>`` written beside its ``<method>`` (in the same class or
    below it): a subclass that overrides ``judge`` but not ``ajudge`` is called as it wrote it."""
    owners = [c for c in type(judge).__mro__ if method in c.__dict__]
    awaited = [c for c in type(judge).__mro__ if f"a{method}" in c.__dict__]
    return bool(owners and awaited) and issubclass(awaited[0], owners[0])
