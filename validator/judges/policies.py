"""Policies a judge wears: each a ``Backend`` wrapping a backend, so that any backend can wear
it, a prompt judge, an NLI checkpoint or a user's judge object alike (``factory.dress`` puts
them on, each where it makes sense):

- ``Threshold``: a supported verdict under ``min_support_probability`` (or with no
  probability) is INVALID;
- ``Remembered``: a statement judged once against the same evidence is not judged again;
- ``AskAlone``: a statement a group call's reply gave nothing readable for is asked again on
  its own;
- ``Controlled``: each group call carries a control statement its passages contradict; a reply
  that calls it supported vouches for nothing;
- ``Limited``: a user judge object's calls under its model's shared limits, counted in usage.

A prompt judge's calls are limited, cached and counted one level down, in its call pipeline
(``calls.Caller``), where each request to the model is seen.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from typing import Any, cast

from ..runtime.pool import Busy, offload
from ..types import BY_CACHE, BY_FALLBACK, BY_LLM, INVALID, SUPPORTED, Context, Evidence, Verdict
from . import usage
from .base import Backend, Item, Unread
from .control import ANSWERED, CAUGHT, NO_PASSAGE, UNANSWERED, Control, control_for
from .limits import Gate
from .prompts import passage
from .reply_cache import ReplyCache

UNSURE = "the judge called it supported"  # how a supported verdict under the threshold's starts


def _inner(name: str) -> Any:
    """A property that reads ``name`` of the backend a policy wraps."""
    return property(lambda policy: getattr(policy.inner, name))


class Policy(Backend):
    """A backend wearing a policy: what the policy does not change is the backend's."""

    def __init__(self, inner: Backend):
        self.inner = inner

    # what the backend declares of itself is the backend's
    group_size = _inner("group_size")  # type: ignore[assignment]
    extracts_claims = _inner("extracts_claims")  # type: ignore[assignment]
    corrects = _inner("corrects")  # type: ignore[assignment]
    computes = _inner("computes")  # type: ignore[assignment]
    gives_probabilities = _inner("gives_probabilities")  # type: ignore[assignment]
    one_per_call_because = _inner("one_per_call_because")  # type: ignore[assignment]

    @property
    def name(self) -> str:
        return self.inner.name

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        return await self.inner.verdicts(items, context)

    def ready(self) -> None:
        self.inner.ready()

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        return await self.inner.claims(sentence, answer, context)

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        return await self.inner.rewrite(sentence, evidence, verdict, context)


class Threshold(Policy):
    """A supported verdict the judge gave with less than ``floor`` probability, or with no
    probability to check it by, is INVALID: the judge was not sure enough."""

    def __init__(self, inner: Backend, floor: float):
        super().__init__(inner)
        self.floor = floor

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        return [self.sure(verdict) for verdict in await self.inner.verdicts(items, context)]

    def sure(self, verdict: Verdict) -> Verdict:
        if verdict.label != SUPPORTED:
            return verdict
        if verdict.probability is None:
            why = (f"but gave no probability to check that against "
                   f"min_support_probability={self.floor}")
        elif verdict.probability < self.floor:
            why = (f"with probability {verdict.probability:.2f}, below "
                   f"min_support_probability={self.floor}")
        else:
            return verdict
        return replace(verdict, label=INVALID, decided_by=BY_FALLBACK, reason=f"{UNSURE}, {why}",
                       withheld=True)


class Remembered(Policy):
    """Verdicts kept in memory (at most ``size``), by statement, evidence and context: the
    same statement against the same evidence is judged once. Only readable verdicts are kept."""

    def __init__(self, inner: Backend, size: int):
        super().__init__(inner)
        self.cache = ReplyCache(size)

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        keys = [json.dumps([claim, [passage(e) for e in evidence], context.parts])
                for claim, evidence in items]
        found: list[Verdict | None] = []
        for key in keys:
            kept = cast(Verdict | None, self.cache.get(key))
            found.append(None if kept is None else replace(kept, decided_by=BY_CACHE))
        left = [i for i, verdict in enumerate(found) if verdict is None]
        if left:
            asked = await self.inner.verdicts([items[i] for i in left], context)
            for i, verdict in zip(left, asked, strict=True):
                found[i] = verdict
                if verdict.label != INVALID:
                    self.cache.put(keys[i], verdict)
        return found  # type: ignore[return-value]


class AskAlone(Policy):
    """Statements a group call's reply gave nothing readable for (``Unread``) asked again,
    each in a call of its own, all at once."""

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        found = await self.inner.verdicts(items, context)
        again = [i for i, verdict in enumerate(found) if isinstance(verdict, Unread)]
        if len(items) > 1 and again:
            asked = await asyncio.gather(*(self.inner.verdicts([items[i]], context)
                                           for i in again))
            for i, verdicts in zip(again, asked, strict=True):
                found[i] = verdicts[0]
        return [_plain(verdict) for verdict in found]


class Controlled(Policy):
    """Each group call carries a control statement: a sentence of one of its passages with a
    number, date or name changed, which that passage contradicts (``control``). A reply that
    calls it supported gives every statement of the call an INVALID verdict; one that gives it
    no readable verdict vouches for nothing (its statements are asked again). A judge that
    takes one statement a call (a prompt judge whose first reply showed it reads no batch) has
    each statement's control asked beside it, in a call of its own at the same time. A call made
    once ``still()`` is false carries none (a prompt judge whose provider refused the reply
    schema its controls were for)."""

    def __init__(self, inner: Backend, still: Callable[[], bool] = lambda: True):
        super().__init__(inner)
        self.still = still

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        if not self.still():
            return await self.inner.verdicts(items, context)
        if self.inner.group_size == 1:  # one statement a call: each beside a call of its own
            return [v for item in items for v in await self._beside(item, context)]
        control = await offload(control_for, list(items))  # the rules compute: in the pool
        if control is None:
            return _noted(await self.inner.verdicts(items, context), NO_PASSAGE)
        sent = list(items)
        # the passages a neighbour names, and its own: no shorter list than a statement's
        neighbour = list(items[min(control.at, len(items) - 1)][1])
        if all(e.text != control.evidence.text for e in neighbour):
            neighbour.append(control.evidence)
        sent.insert(control.at, (control.statement, neighbour))
        found = await self.inner.verdicts(sent, context)
        checked = found.pop(control.at)
        if checked.label == SUPPORTED:
            return _caught(control, checked, len(items))
        if checked.label != INVALID:
            return _noted(found, ANSWERED)
        if any(v.label != INVALID for v in found):  # read, but not vouched for: asked again
            return [Unread(INVALID, UNANSWERED, decided_by=BY_FALLBACK, control=UNANSWERED)
                    for _ in items]
        return found  # the call failed, or nothing of it was read

    async def _beside(self, item: Item, context: Context) -> list[Verdict]:
        """A statement of a judge that takes one a call, with its control asked at the same
        time in a call of its own (the judge cannot tell which of the two is the control): a
        control called supported fails the statement's verdict as a group call's would; one
        with no readable verdict vouches for nothing."""
        control = await offload(control_for, [item])
        if control is None:
            return _noted(await self.inner.verdicts([item], context), NO_PASSAGE)
        found, (checked,) = await asyncio.gather(
            self.inner.verdicts([item], context),
            self.inner.verdicts([(control.statement, [control.evidence])], context))
        if checked.label == SUPPORTED:
            return _caught(control, checked, 1)
        if checked.label == INVALID:  # vouches for nothing: a verdict read stands on nothing
            return [found[0] if found[0].label == INVALID else
                    Verdict(INVALID, UNANSWERED, decided_by=BY_FALLBACK, control=UNANSWERED)]
        return _noted(found, ANSWERED)


def _caught(control: Control, checked: Verdict, count: int) -> list[Verdict]:
    """The verdicts of a call (or a statement) whose control the judge called supported."""
    if checked.decided_by == BY_LLM:
        usage.caught()
    said = f"; its reason: {checked.reason[:200]!r}" if checked.reason else ""
    reason = f"{CAUGHT}: the control was {control.statement!r}{said}"
    return [Verdict(INVALID, reason, decided_by=BY_FALLBACK, control=CAUGHT, withheld=True)
            for _ in range(count)]


class Limited(Policy):
    """A judge object's calls under the shared limits of its model (``gate``: calls in flight,
    requests a minute), each call counted in the validation's usage. A call refused because
    too many of the object's calls still run past their deadline (``runtime.pool.Busy``) gives
    INVALID verdicts that say so."""

    def __init__(self, inner: Backend, gate: Gate):
        super().__init__(inner)
        self.gate = gate

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        try:
            return await self._called(self.inner.verdicts(items, context))
        except Busy as busy:
            return [Verdict(INVALID, f"the judge was not called: {busy}",
                            decided_by=BY_FALLBACK) for _ in items]

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        try:
            return await self._called(self.inner.claims(sentence, answer, context))
        except Busy:
            return None

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        try:
            return await self._called(self.inner.rewrite(sentence, evidence, verdict, context))
        except Busy:
            return None

    async def _called(self, call: Any) -> Any:
        try:
            async with self.gate.slot():
                result = await call
        finally:
            call.close()  # not awaited when the wait for a slot was cut off
        usage.called()
        return result


def _noted(verdicts: list[Verdict], control: str) -> list[Verdict]:
    return [replace(verdict, control=verdict.control or control) for verdict in verdicts]


def _plain(verdict: Verdict) -> Verdict:
    """An ``Unread`` verdict that stands, as the plain INVALID verdict it is."""
    if not isinstance(verdict, Unread):
        return verdict
    return Verdict(**{row.name: getattr(verdict, row.name) for row in fields(Verdict)})
