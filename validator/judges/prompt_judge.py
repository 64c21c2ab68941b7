"""Prompt judges: a judge that sends a prompt to a model through one transport method,
``complete(prompt) -> str``, and reads a verdict from the reply. The transport is all a backend
writes (LiteLLM, a callable); caching, retries and reading replies are shared here."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, cast

from ..concurrency import Once
from ..errors import warn
from ..text.citations import renumbered
from ..types import BY_CACHE, BY_FALLBACK, BY_LLM, INVALID, Evidence, Verdict
from . import usage
from .base import Backend, Item
from .limits import MAX_IN_FLIGHT, gate
from .prompts import (
    build_batch_prompt,
    build_claims_prompt,
    build_correction_prompt,
    build_prompt,
    check_template,
    own_numbers,
)
from .replies import (
    EXPECTED_BATCH,
    UNREADABLE_REWRITE,
    UnreadableReply,
    parse_batch_reply,
    parse_claims,
    parse_cut_batch_reply,
    parse_reply,
    parse_rewrite,
)
from .reply_cache import ReplyCache, ReplyStore
from .retries import complete_with_retries

NOTHING_READABLE = "the judge's reply has nothing readable"
CUT = "the judge's reply was cut"  # how the reason for a reply cut at its length limit starts
T = TypeVar("T")

# The room a reply is given (its max_tokens, where the judge sets one): a verdict with its
# reasoning, claims, a rewrite; a batch by its statements (a verdict and a one-sentence reason
# each: about 60 tokens, measured). A reply cut at the room it was given is asked once more
# with MORE_ROOM times as much.
ROOM = {"verdict": 1024, "claims": 1024, "rewrite": 512}
MORE_ROOM = 4


def batch_room(statements: int) -> int:
    return 512 + 160 * statements


@dataclass(frozen=True)
class Reply:
    """A model's reply: its text, and ``cut_at``, the tokens it had when the provider ended it
    at its length limit (None: it ended on its own, or the transport cannot tell)."""

    text: str
    cut_at: int | None = None


@dataclass(frozen=True)
class Answer(Generic[T]):
    """What ``PromptJudge.ask`` read from a reply: ``value`` None when nothing readable came
    back (``problem`` says why); ``decided_by`` is BY_LLM, BY_CACHE or BY_FALLBACK."""

    value: T | None
    decided_by: str
    problem: str = ""


class PromptJudge(Backend):
    """A judge that sends a prompt to a model and reads a verdict from the reply.

    Subclasses implement ``complete(prompt, room) -> Reply``, awaited: the transport, and all a
    backend writes (``room``: the tokens a reply may have, where the backend can say).
    Transient failures (timeouts, refused connections, 429 and 5xx answers) are retried
    ``max_retries`` times with exponential backoff that honours ``Retry-After``; a refused
    credential raises ``JudgeAuthError`` at once; anything else that keeps failing yields an
    INVALID verdict decided by fallback.
    """

    extracts_claims = True
    corrects = True
    # Whether an unreadable reply to the batched prompt may turn batching off: for a callable,
    # which may be written for one statement at a time; never for a model named through
    # LiteLLM, which reads the batch (an unreadable reply there is a slip, or a cut)
    learns_batching = True
    room_setting: str | None = None  # the setting that bounds a reply's length, if any

    def __init__(self, max_retries: int = 2, backoff: float = 0.5, cache_size: int = 4096,
                 template: str | None = None, max_in_flight: int = MAX_IN_FLIGHT,
                 max_per_minute: float | None = None, max_tokens_per_minute: float | None = None):
        self.max_retries = max_retries
        self.max_in_flight = max_in_flight
        self.max_per_minute = max_per_minute
        self.max_tokens_per_minute = max_tokens_per_minute
        self.backoff = backoff
        self.cache = ReplyCache(cache_size)
        self._in_flight = Once()
        self.store: ReplyStore | None = None  # replies on disk; see LiteLLMJudge's cache_dir
        self.template = None if template is None else check_template(template)
        # Whether the model answers the batched prompt: unknown until its first batched reply.
        # One with no readable verdict, before any was readable, means a judge written for one
        # statement per prompt (a yes/no callable): it is then asked one statement per call.
        # A template of the user's is a one-statement prompt: it is never sent a batch.
        self.reads_batches: bool | None = None if template is None else False
        self.one_per_call_because = (None if template is None else
                                     "a judge template is a prompt of one statement")
        self._learning = threading.Lock()

    @property
    def group_size(self) -> int | None:  # type: ignore[override]
        return 1 if self.reads_batches is False else None

    async def complete(self, prompt: str, room: int) -> Reply:
        raise NotImplementedError

    @property
    def room_is_ours(self) -> bool:
        """Whether the judge sets a reply's room (so it may give a cut reply more)."""
        return False

    def model_key(self) -> Hashable:
        """What names the model this judge calls, for the limits every validation in the
        process shares (``limits.gate``): judges with the same key share them."""
        return id(self)

    async def ask(self, prompt: str, read: Callable[[str], T | None],
                  keep: Callable[[T], bool] = lambda value: True, room: int = ROOM["verdict"]
                  ) -> Answer[T]:
        """``read(reply)`` for ``prompt``, from the caches when there. A value ``keep`` refuses
        is returned (``decided_by`` BY_FALLBACK) but not cached; a reply ``read`` finds nothing in
        (None) gives no value. Every prompt but the batched one goes through here. A reply cut
        at the ``room`` the judge gave it is asked once more with more; cut again (or cut at a
        room the user set), it gives no value, and the reason says where it was cut."""
        cached = cast(T | None, self.cache.get(prompt))  # what ``read`` gave for it before
        if cached is not None:
            return Answer(cached, BY_CACHE)
        answer, shared = await self._in_flight.run(
            prompt, lambda: self._ask_model(prompt, read, keep, room))
        return _as_shared(answer) if shared else answer

    async def _ask_model(self, prompt: str, read: Callable[[str], T | None],
                         keep: Callable[[T], bool], room: int) -> Answer[T]:
        reply, decided_by = await self._reply(prompt, room)
        value, kept = _read(reply, read, keep)
        if (not kept and isinstance(reply, Reply) and reply.cut_at is not None
                and self.room_is_ours):
            reply, decided_by = await self._reply(prompt, room * MORE_ROOM)
            value, kept = _read(reply, read, keep)
        if isinstance(reply, BaseException):
            return Answer(None, BY_FALLBACK, _failure(reply))
        if not kept and reply.cut_at is not None:
            return Answer(None, BY_FALLBACK, self._cut_reason(reply))
        if value is None:
            return Answer(None, BY_FALLBACK, NOTHING_READABLE)
        if not kept:
            return Answer(value, BY_FALLBACK)
        self._keep(prompt, reply.text, value)
        return Answer(value, decided_by)

    def _cut_reason(self, reply: Reply) -> str:
        if self.room_setting is None:
            fix = "the judge's own limit cut it"
        elif self.room_is_ours:
            fix = f"asked again with {MORE_ROOM}x the room, it was cut again: set {self.room_setting}"
        else:
            fix = f"raise {self.room_setting}"
        return f"{CUT} at {reply.cut_at} tokens, before anything in it could be read ({fix})"

    async def verdicts(self, items: Sequence[Item], question: str | None) -> list[Verdict]:
        """One call for every item not in the cache (a batch, while the model reads batches).
        Items the reply gives no readable verdict for are asked again, one per call, all at
        once; if the batched call itself fails, they are INVALID."""
        found: list[Verdict | None] = [None] * len(items)
        if len(items) > 1 and self.reads_batches is not False:
            batch = _Batch(self, items, question)
            if batch.prompt is not None:
                self._read_batch(batch, *await self._reply(batch.prompt,
                                                           batch_room(len(batch.pending))))
            found = batch.found
        left = [i for i, verdict in enumerate(found) if verdict is None]
        asked = await asyncio.gather(*(self._verdict(*items[i], question) for i in left))
        for i, verdict in zip(left, asked, strict=True):
            found[i] = verdict
        return cast(list[Verdict], found)

    async def _verdict(self, claim: str, evidence: Sequence[Evidence], question: str | None
                       ) -> Verdict:
        """One statement, in a prompt of its own."""
        untrusted = [claim, question, *(e.text for e in evidence)]
        answer = await self.ask(build_prompt(claim, evidence, question, self.template),
                                lambda reply: parse_reply(reply, untrusted),
                                lambda verdict: verdict.label != INVALID)
        if answer.value is None:  # the call failed (parse_reply always gives a verdict)
            return Verdict(INVALID, answer.problem, decided_by=BY_FALLBACK)
        verdict = answer.value
        return verdict if verdict.label == INVALID else replace(verdict,
                                                                decided_by=answer.decided_by)

    def _read_batch(self, batch: _Batch, reply: Reply | BaseException, decided_by: str) -> None:
        """The verdicts a reply to the batched prompt gives its pending items (kept); if the
        call failed, each is INVALID. A reply cut at its length limit gives the verdicts it
        holds in full, and says nothing of whether the model reads batches."""
        if isinstance(reply, BaseException):
            for i in batch.pending:
                batch.found[i] = _failed(reply)
            return
        if reply.cut_at is not None:
            parsed = parse_cut_batch_reply(reply.text, len(batch.pending), batch.untrusted)
        else:
            parsed = parse_batch_reply(reply.text, len(batch.pending), batch.untrusted)
            self._learn_from(parsed, reply.text, len(batch.pending))
            if (self.store is not None and batch.prompt is not None
                    and any(v is not None and v.label != INVALID for v in parsed)):
                self.store.put(batch.prompt, reply.text)
        for i, own, verdict in zip(batch.pending, batch.own, parsed, strict=True):
            if verdict is not None and verdict.label != INVALID:
                verdict = replace(verdict, decided_by=decided_by,
                                  reason=renumbered(verdict.reason, own))
                self.cache.put(batch.keys[i], verdict)
                batch.found[i] = verdict

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

    async def claims(self, sentence: str, answer: str, question: str | None
                     ) -> list[str] | None:
        def read(reply: str) -> tuple[str, ...] | None:
            claims = parse_claims(reply, [sentence, answer])
            return None if claims is None else tuple(claims)

        found = await self.ask(build_claims_prompt(sentence, answer, question), read,
                               room=ROOM["claims"])
        return None if found.value is None else list(found.value)

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      question: str | None) -> str | None:
        """The sentence rewritten from ``evidence`` by the model, or None (it cannot, or the
        call failed). Through the caches, retries and deadline, as a verdict. A reply with no
        readable rewrite raises ``UnreadableReply``, which says what was expected."""
        untrusted = [sentence, question, verdict.reason, *(e.text for e in evidence)]
        found = await self.ask(
            build_correction_prompt(sentence, evidence, verdict.label, verdict.reason, question),
            lambda reply: parse_rewrite(reply, untrusted), room=ROOM["rewrite"])
        if found.value is None and found.problem == NOTHING_READABLE:
            raise UnreadableReply(UNREADABLE_REWRITE)
        if found.value is None and found.problem.startswith(CUT):
            raise UnreadableReply(found.problem)
        return found.value or None

    async def _reply(self, prompt: str, room: int) -> tuple[Reply | BaseException, str]:
        """The reply to ``prompt`` and how it came: from the disk store, or from the model. A
        call the deadline cuts off is counted as one whose tokens nobody reported."""
        stored = self.store.get(prompt) if self.store is not None else None
        if stored is not None:
            return Reply(stored), BY_CACHE
        shared = gate(self.model_key(), self.max_in_flight, self.max_per_minute,
                      self.max_tokens_per_minute)

        async def one_call(prompt: str) -> Reply:
            async with shared.slot(self._tokens(prompt)):
                try:
                    reply = await self.complete(prompt, room)
                except asyncio.CancelledError:
                    usage.cut_off(prompt)
                    raise
            shared.spent(self._tokens(reply.text))
            return reply

        return await complete_with_retries(one_call, prompt, self.max_retries, self.backoff,
                                           shared.pause), BY_LLM

    def _keep(self, prompt: str, reply: str, value: object) -> None:
        self.cache.put(prompt, value)
        if self.store is not None:
            self.store.put(prompt, reply)

    def _tokens(self, text: str) -> int:
        """``text``'s tokens, counted only under a tokens-a-minute limit."""
        return usage.tokens(text) if self.max_tokens_per_minute is not None else 0


class _Batch:
    """One batch of claims for ``verdicts``: each item's cache key and the verdict already
    known (from the cache), the items still to ask, and the batched prompt that asks them
    (None when one or none is left: it is asked alone)."""

    def __init__(self, judge: PromptJudge, items: Sequence[tuple[str, Sequence[Evidence]]],
                 question: str | None):
        self.keys = [build_prompt(claim, evidence, question, judge.template)
                     for claim, evidence in items]
        self.found: list[Verdict | None] = []
        for key in self.keys:
            cached = cast(Verdict | None, judge.cache.get(key))  # what judge() keeps under it
            self.found.append(None if cached is None else replace(cached, decided_by=BY_CACHE))
        self.pending = [i for i, verdict in enumerate(self.found) if verdict is None]
        asked = [items[i] for i in self.pending]
        self.prompt = build_batch_prompt(asked, question) if len(asked) > 1 else None
        self.own = own_numbers(asked)  # the prompt's passage numbers -> each item's own
        self.untrusted = [question, *(part for i in self.pending for part in
                                      (items[i][0], *(e.text for e in items[i][1])))]


def _read(reply: Reply | BaseException, read: Callable[[str], T | None],
          keep: Callable[[Any], bool]) -> tuple[T | None, bool]:
    """What ``read`` finds in ``reply`` (None for a failed call), and whether it is kept."""
    if isinstance(reply, BaseException):
        return None, False
    value = read(reply.text)
    return value, value is not None and keep(value)


def _as_shared(answer: Answer) -> Answer:
    """An answer another caller's call gave (one prompt in flight, one verdict): from the
    cache, unless it is a fallback."""
    return answer if answer.decided_by == BY_FALLBACK else replace(answer, decided_by=BY_CACHE)


def _failure(error: BaseException) -> str:
    return f"the judge failed: {type(error).__name__}: {error}"


def _failed(error: BaseException) -> Verdict:
    return Verdict(INVALID, _failure(error), decided_by=BY_FALLBACK)
