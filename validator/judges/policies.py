"""Policies a judge wears: each a ``Backend`` wrapping a backend, so that any backend can wear
it, a prompt judge, an NLI checkpoint or a user's judge object alike (``factory.dress`` puts
them on, each where it makes sense):

- ``Threshold``: a supported verdict under ``min_support_probability`` (or with no
  probability) is INVALID;
- ``Remembered``: a statement judged once against the same evidence is not judged again;
- ``AskAlone``: a statement a group call's reply gave nothing readable for is asked again on
  its own;
- ``Controlled``: each group call carries a control statement its passages contradict; a reply
  that calls it supported vouches for nothing.

Every judge's calls are limited and counted one level down, in the call layer
(``calls.Outbound``), where each request is seen.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from typing import cast

from ..runtime.pool import offload
from ..types import BY_CACHE, BY_FALLBACK, BY_LLM, INVALID, SUPPORTED, Context, Evidence, Verdict
from . import usage
from .base import Abilities, Backend, Item, JudgeSettings, Unread
from .control import ANSWERED, CAUGHT, NO_PASSAGE, UNANSWERED, Control, control_for
from .prompts import passage
from .reply_cache import ReplyCache

UNSURE = "the judge called it supported"  # how a supported verdict under the threshold's starts


class Policy(Backend):
    """A backend wearing a policy: what the policy does not change is the backend's. Each
    policy declares the settings it takes (``takes``), whether a backend can wear it
    (``fits``: by what the backend declares it can do), and whether the settings put it on
    (``applies``); ``factory.dress`` puts on, in ``factory.POLICIES``' order, each that
    applies."""

    takes: frozenset[str] = frozenset()

    def __init__(self, inner: Backend):
        self.inner = inner

    @classmethod
    def fits(cls, abilities: Abilities) -> bool:
        return True

    @classmethod
    def applies(cls, abilities: Abilities, settings: JudgeSettings) -> bool:
        return cls.fits(abilities)

    @classmethod
    def wear(cls, inner: Backend, backend: Backend, settings: JudgeSettings) -> Policy:
        """``inner`` wearing this policy; ``backend`` is the judge under every policy."""
        return cls(inner)

    @property
    def abilities(self) -> Abilities:  # what the backend declares of itself is the backend's
        return self.inner.abilities

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

    takes = frozenset(("min_support_probability",))

    def __init__(self, inner: Backend, floor: float):
        super().__init__(inner)
        self.floor = floor

    @classmethod
    def fits(cls, abilities: Abilities) -> bool:
        return abilities.gives_probabilities

    @classmethod
    def applies(cls, abilities: Abilities, settings: JudgeSettings) -> bool:
        return settings.min_support_probability is not None and cls.fits(abilities)

    @classmethod
    def wear(cls, inner: Backend, backend: Backend, settings: JudgeSettings) -> Policy:
        return cls(inner, cast(float, settings.min_support_probability))

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
    same statement against the same evidence is judged once. Only readable verdicts are kept.
    For a model's verdicts (a prompt judge, a checkpoint), not the rules': they are cheaper to
    run again than to look up."""

    takes = frozenset(("cache_size",))

    def __init__(self, inner: Backend, size: int):
        super().__init__(inner)
        self.cache = ReplyCache(size)

    @classmethod
    def fits(cls, abilities: Abilities) -> bool:
        return abilities.remembered

    @classmethod
    def applies(cls, abilities: Abilities, settings: JudgeSettings) -> bool:
        return bool(settings.cache_size) and cls.fits(abilities)

    @classmethod
    def wear(cls, inner: Backend, backend: Backend, settings: JudgeSettings) -> Policy:
        return cls(inner, settings.cache_size)

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
    each in a call of its own, all at once: for a judge whose replies may leave one unread, or
    whose calls carry a control (a call whose control went unanswered has its statements asked
    again)."""

    @classmethod
    def applies(cls, abilities: Abilities, settings: JudgeSettings) -> bool:
        return abilities.asks_again or Controlled.applies(abilities, settings)

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

    takes = frozenset(("control_statements",))

    def __init__(self, inner: Backend, still: Callable[[], bool] = lambda: True):
        super().__init__(inner)
        self.still = still

    @classmethod
    def fits(cls, abilities: Abilities) -> bool:
        """A judge that says whether its calls carry controls, or one that batches."""
        return abilities.controls is not None or abilities.group_size is None

    @classmethod
    def applies(cls, abilities: Abilities, settings: JudgeSettings) -> bool:
        if abilities.controls is not None:
            return abilities.controls
        return settings.control_statements == "on" and abilities.group_size is None

    @classmethod
    def wear(cls, inner: Backend, backend: Backend, settings: JudgeSettings) -> Policy:
        from .control import ready

        ready()  # the rules a control needs, loaded now rather than in a validation
        # a prompt judge's controls follow its replies: off once a refused schema makes them free
        return cls(inner, lambda: backend.abilities.controls is not False)

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        if not self.still():
            return await self.inner.verdicts(items, context)
        if self.inner.abilities.group_size == 1:  # one statement a call: each beside a call of its own
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
        usage.add(usage.CAUGHT)
    said = f"; its reason: {checked.reason[:200]!r}" if checked.reason else ""
    reason = f"{CAUGHT}: the control was {control.statement!r}{said}"
    return [Verdict(INVALID, reason, decided_by=BY_FALLBACK, control=CAUGHT, withheld=True)
            for _ in range(count)]


def _noted(verdicts: list[Verdict], control: str) -> list[Verdict]:
    return [replace(verdict, control=verdict.control or control) for verdict in verdicts]


def _plain(verdict: Verdict) -> Verdict:
    """An ``Unread`` verdict that stands, as the plain INVALID verdict it is."""
    if not isinstance(verdict, Unread):
        return verdict
    return Verdict(**{row.name: getattr(verdict, row.name) for row in fields(Verdict)})
