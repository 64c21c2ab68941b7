"""Prompt judges: a judge that sends prompts to a model through one transport,
``complete(prompt, room, form) -> Reply``, and reads verdicts from the replies. The transport is
all a backend writes (LiteLLM, a callable). Each prompt is a ``kinds`` object, every call goes
through the call pipeline (``calls.Caller``), and the policies a prompt judge wears (the control
statement, the probability threshold, asking a statement alone again, the verdict cache) are
``policies``, put on where the judge is built (``factory.dress``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Hashable, Sequence
from dataclasses import fields, replace
from typing import TypeVar

from ..errors import warn
from ..text.citations import renumbered
from ..types import BY_FALLBACK, INVALID, Context, Evidence, Verdict
from . import usage
from .base import DEFAULT_JUDGE, Abilities, Backend, Item, JudgeSettings, Unread
from .calls import CUT, NOTHING_READABLE, Answer, Caller, Room
from .kinds import BATCH, CLAIMS, ONE, REWRITE, Ask, Reply
from .limits import Gate, gate
from .prompts import check_template, own_numbers
from .replies import (
    EXPECTED_BATCH,
    UNREADABLE_REWRITE,
    UNREADABLE_VERDICT,
    UnreadableReply,
    shown,
)

T = TypeVar("T")
_EVERY_SETTING = frozenset(row.name for row in fields(JudgeSettings))


class PromptJudge(Backend):
    """A judge that sends a prompt to a model and reads a verdict from the reply.

    Subclasses implement ``complete(prompt, room, form) -> Reply``, awaited: the transport
    (``room``: the tokens a reply may have, where the backend can say; ``form``: the reply's
    JSON schema as a ``response_format``, None for a free reply). Where ``structured`` is true
    the judge asks for every reply by its schema. ``settings`` are the judge settings it was
    built with (its limits, retries, cache, replies and controls). Transient failures are
    retried with backoff (``retries``); a refused credential raises ``JudgeAuthError`` at once;
    anything else that keeps failing yields an INVALID verdict decided by fallback.
    """

    extracts_claims = True
    corrects = True
    # Whether an unreadable reply to the batched prompt may turn batching off: for a callable,
    # which may be written for one statement at a time; never for a model named through
    # LiteLLM, which reads the batch (an unreadable reply there is a slip, or a cut)
    learns_batching = True
    takes_forms = True  # whether its prompts are ours (structured replies, controls apply)
    room_setting: str | None = None  # the setting that bounds a reply's length, if any

    settings: JudgeSettings  # the settings it was built with, and wears

    def __init__(self, settings: JudgeSettings = DEFAULT_JUDGE, backoff: float = 0.5,
                 template: str | None = None):
        self.settings = settings
        self.structured = False  # whether replies are asked for by their schema
        self.template = None if template is None else check_template(template)
        self.caller = Caller(self.complete, self.gate, max_retries=settings.max_retries,
                             backoff=backoff, cache_size=settings.cache_size,
                             room=Room(lambda: self.room_is_ours, self.room_setting),
                             counts_tokens=settings.max_tokens_per_minute is not None)
        # Whether the model answers the batched prompt: unknown until its first batched reply.
        # One with no readable verdict, before any was readable, means a judge written for one
        # statement per prompt (a yes/no callable): it is then asked one statement per call.
        # A template of the user's is a one-statement prompt: it is never sent a batch.
        self.reads_batches: bool | None = None if template is None else False
        self.one_per_call_because = (None if template is None else
                                     "a judge template is a prompt of one statement")
        self._learning = threading.Lock()

    gives_probabilities = False  # a transport that reads log probabilities says so

    @property
    def group_size(self) -> int | None:
        return 1 if self.reads_batches is False else None

    @property
    def abilities(self) -> Abilities:
        """A prompt judge takes every judge setting but where its prompt is not ours (no reply
        schema, no control) or it gives no probabilities; its group replies may leave a
        statement unread (asked again alone), and its verdicts are worth keeping."""
        cannot = [] if self.takes_forms else [
            (name, f"{self.name} reads only its own prompt")
            for name in ("structured_replies", "control_statements")]
        if not self.gives_probabilities:
            cannot.append(("min_support_probability", f"{self.name} gives no token "
                                                      "probabilities to hold to a threshold"))
        return Abilities(
            group_size=self.group_size, extracts_claims=self.extracts_claims,
            corrects=self.corrects, gives_probabilities=self.gives_probabilities,
            one_per_call_because=self.one_per_call_because, controls=self.controls,
            asks_again=True, remembered=True,
            takes=_EVERY_SETTING - {name for name, _ in cannot},
            cannot=tuple(cannot))

    async def complete(self, prompt: str, room: int, form: dict | None = None) -> Reply:
        raise NotImplementedError

    @property
    def room_is_ours(self) -> bool:
        """Whether the judge sets a reply's room (so it may give a cut reply more)."""
        return False

    @property
    def controls(self) -> bool:
        """Whether each call carries a control statement (``control_statements``: "on";
        "auto", where replies are structured: there a careless reply is as readable as a
        careful one)."""
        setting = self.settings.control_statements
        return self.takes_forms and (setting == "on" or (setting == "auto" and self.structured))

    @property
    def asks_kinds(self) -> bool:
        """Whether its replies say what a failing statement gets wrong (``failure_kinds``)."""
        return self.takes_forms and self.settings.failure_kinds

    @property
    def latencies(self) -> Sequence[float]:
        """Seconds each answered call took, the latest last."""
        return self.caller.outbound.latencies

    def model_key(self) -> Hashable:
        """What names the model this judge calls, for the limits every validation in the
        process shares (``limits.gate``): judges with the same key share them."""
        return id(self)

    def gate(self) -> Gate:
        s = self.settings
        return gate(self.model_key(), s.max_calls_in_flight, s.max_requests_per_minute,
                    s.max_tokens_per_minute)

    def ready(self) -> None:
        if self.caller.outbound.counts_tokens:  # under a tokens-a-minute limit, each prompt is counted
            usage.tokens("")

    async def ask(self, ask: Ask[T]) -> Answer[T]:
        """``ask`` through the call pipeline (for a kind of prompt of the caller's own, such as
        the grounded-QA grading prompts)."""
        return await self.caller.ask(ask)

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        """One batched call for the items while the model reads batches, else a call each, all
        at once. An item the batched reply gives no readable verdict for is ``Unread`` (asked
        again alone by ``policies.AskAlone``); if the call itself fails, each is INVALID."""
        if len(items) > 1 and self.reads_batches is not False:
            return await self._batch(items, context)
        return list(await asyncio.gather(*(self._one(item, context) for item in items)))

    async def _one(self, item: Item, context: Context) -> Verdict:
        answer = await self.ask(ONE.ask(item, context, self.structured, self.template,
                                        self.asks_kinds))
        if answer.value is None:  # the call failed (a reply always reads as a verdict)
            return Verdict(INVALID, answer.problem, decided_by=BY_FALLBACK)
        verdict = answer.value
        return verdict if verdict.label == INVALID else replace(verdict,
                                                                decided_by=answer.decided_by)

    async def _batch(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        """Each item's verdict from one reply, its passage numbers ``[k]`` renumbered to its
        own evidence. A reply cut at its length limit gives the verdicts it holds in full, and
        says nothing of whether the model reads batches."""
        answer = await self.ask(BATCH.ask(items, context, self.structured, self.asks_kinds))
        if answer.value is None:
            return [Verdict(INVALID, answer.problem, decided_by=BY_FALLBACK) for _ in items]
        reply = answer.reply
        if reply is not None and reply.cut_at is None:
            self._learn_from(answer.value, reply.text, len(items))
        unread = None if reply is None else shown(reply.text)
        return [Unread(INVALID, UNREADABLE_VERDICT, decided_by=BY_FALLBACK, reply=unread)
                if verdict is None else  # no entry for it: asked again alone
                replace(verdict, reply=unread) if verdict.label == INVALID else  # contradicts
                replace(verdict, decided_by=answer.decided_by,
                        reason=renumbered(verdict.reason, own))
                for verdict, own in zip(answer.value, own_numbers(items), strict=True)]

    def _learn_from(self, parsed: Sequence[Verdict | None], reply: str, statements: int) -> None:
        """Whether the model speaks the batched format, from a whole reply to it: once one
        verdict was readable it does (a later unreadable reply is a slip, its statements asked
        again alone); for a judge that ``learns_batching``, a first reply with none means it
        does not, and it is not asked again. Decided once, whichever thread or task reads a
        reply first; a call that failed or a reply cut short is no evidence either way."""
        readable = any(verdict is not None and verdict.label != INVALID for verdict in parsed)
        with self._learning:
            first = self.reads_batches is None
            if readable:
                self.reads_batches = True
                return
            if not (first and self.learns_batching):
                return
            self.reads_batches = False
            seen = reply.strip()
            self.one_per_call_because = (
                f"its first reply to a batched prompt of {statements} statements had no "
                f"readable verdict: {seen[:80]!r}{'...' if len(seen) > 80 else ''}")
        warn(f"the judge is asked one statement per call from now on (a text's statements at "
             f"once): {self.one_per_call_because} (expected {EXPECTED_BATCH}). For a judge "
             "written for one statement at a time, set batch_size=1.")

    async def claims(self, sentence: str, answer: str, context: Context) -> list[str] | None:
        found = await self.ask(CLAIMS.ask(sentence, answer, context, self.structured))
        return None if found.value is None else list(found.value)

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      context: Context) -> str | None:
        """The sentence rewritten from ``evidence`` by the model, or None (it cannot, or the
        call failed). A reply with no readable rewrite raises ``UnreadableReply``, which says
        what was expected."""
        found = await self.ask(REWRITE.ask(sentence, evidence, verdict, context, self.structured))
        if found.value is None and found.problem == NOTHING_READABLE:
            raise UnreadableReply(UNREADABLE_REWRITE)
        if found.value is None and found.problem.startswith(CUT):
            raise UnreadableReply(found.problem)
        return found.value or None
