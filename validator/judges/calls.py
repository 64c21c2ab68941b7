"""The call layer and the prompt judges' pipeline.

``Outbound`` is the one layer every backend that waits on something wears: a prompt judge's
transport and a judge object's methods alike go through its ``call`` (the model's shared
limits, retries where the backend takes them, the account of what each call consumed, read
from what it returned). Every call a prompt judge makes, whatever its kind (a batch, one
statement, claims, a rewrite, a grading prompt), goes through ``Caller.ask``:

    memory cache -> one flight per prompt -> disk store -> Outbound (the model's shared limits
        -> retries -> transport -> account) -> read -> (cut at its room: once more with more
        room) -> keep

The transport is all a backend writes (``complete(prompt, room, form) -> Reply``: LiteLLM, a
callable): it returns what it got, what the response reported of its tokens included, and
writes no usage. A policy over transports (pacing a run's requests) wraps it.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar, cast

from ..runtime.credentials import scrubbed
from ..runtime.deadline import JUDGE_REPLY, waited_for
from ..runtime.loop import Once
from ..runtime.pool import Busy, offload
from ..types import BY_CACHE, BY_FALLBACK, BY_LLM, Usage
from . import usage
from .kinds import Ask, Reply
from .limits import Gate
from .reply_cache import ReplyCache, ReplyStore
from .retries import NoTimeToRetry, complete_with_retries, received, timed_out

T = TypeVar("T")
R = TypeVar("R")
Transport = Callable[[str, int, "dict | None"], Awaitable[Reply]]

NOTHING_READABLE = "the judge's reply has nothing readable"
CUT = "the judge's reply was cut"  # how the reason for a reply cut at its length limit starts
MORE_ROOM = 4  # a reply cut at the room the judge gave it is asked once more with this times it
RECENT = 20  # answered calls whose latencies say how long the next one takes


@dataclass(frozen=True)
class Answer(Generic[T]):
    """What ``Caller.ask`` read: ``value`` None when nothing readable came back (``problem``
    says why); ``decided_by``: where the reply came from (BY_LLM, BY_CACHE), BY_FALLBACK when
    it gave nothing; ``reply``: the reply read (None from the memory cache), to learn from or
    show."""

    value: T | None
    decided_by: str
    problem: str = ""
    reply: Reply | None = None


@dataclass(frozen=True)
class Room:
    """Who sets a reply's room: ``ours``, whether the judge sets it (so a cut reply may be
    given more); ``setting``, the setting a user bounds it with (None: none)."""

    ours: Callable[[], bool] = lambda: False
    setting: str | None = None

    def cut_reason(self, cut_at: int) -> str:
        if self.setting is None:
            fix = "the judge's own limit cut it"
        elif self.ours():
            fix = f"asked again with {MORE_ROOM}x the room, it was cut again: set {self.setting}"
        else:
            fix = f"raise {self.setting}"
        return f"{CUT} at {cut_at} tokens, before anything in it could be read ({fix})"


class Outbound:
    """The one call layer every backend that waits on something wears (a prompt judge's
    transport, a judge object's methods): the model's shared limits (``gate``), retries where
    the backend takes them (``max_retries``; None: its calls are not retried, a judge object's
    own client retries), and the account of each call: what it consumed, read from what it
    returned (``used``), a call the deadline cut off, one that failed, one that was a retry.
    The writer of every call's account in the validation's usage (``usage.add``)."""

    def __init__(self, gate: Callable[[], Gate], *, max_retries: int | None = None,
                 backoff: float = 0.5, counts_tokens: bool = False):
        self.gate = gate
        self.max_retries, self.backoff = max_retries, backoff
        self.counts_tokens = counts_tokens  # under a tokens-a-minute limit
        self.latencies: deque[float] = deque(maxlen=10_000)  # seconds, of the answered calls

    def call(self, send: Callable[[], Awaitable[R]], used: Callable[[R], Awaitable[Usage]],
             prompt: str | None = None) -> Awaitable[R | BaseException]:
        """``await send()``, retried where the backend takes retries (then a failure that
        ends the tries is returned, see ``retries``), else as it ends (a failure raised).
        ``prompt``: the request's text where the layer sees it (its tokens count against a
        tokens-a-minute limit, and a call cut off or timed out is counted by it); None for a
        judge object, whose requests are its own. Returned to be awaited, so that the layer
        adds no frame between a judge and its transport."""
        gate = self.gate()
        tries = 0

        async def one(_: str) -> R:
            nonlocal tries
            tries += 1
            async with gate.slot(self._tokens(prompt)):
                started = time.monotonic()
                try:
                    got = await send()
                except asyncio.CancelledError:
                    usage.add(usage.cut_off(prompt))
                    waited_for(JUDGE_REPLY)
                    raise
                except Exception as error:
                    if prompt is not None and received(error):
                        usage.add(usage.failed(prompt, timed_out(error)))
                    raise
                finally:
                    if tries > 1:
                        usage.add(usage.RETRIED)
                self.latencies.append(time.monotonic() - started)
            try:
                spent = await used(got)
            except asyncio.CancelledError:  # answered, but cut off while its tokens were counted
                usage.add(usage.cut_off(prompt))
                raise
            usage.add(spent)
            gate.spent(spent.completion_tokens if self.counts_tokens else 0)
            return got

        if self.max_retries is None:
            return one("")
        return complete_with_retries(one, prompt or "", self.max_retries, self.backoff,
                                     gate.pause, self.takes)

    def takes(self) -> float | None:
        """About how long a call takes: the median of the latest answered calls (None before
        the first), so that no retry is started that the deadline would cut off."""
        recent = list(self.latencies)[-RECENT:]
        return statistics.median(recent) if recent else None

    def _tokens(self, text: str | None) -> int:
        return usage.tokens(text) if self.counts_tokens and text else 0


class Caller:
    """A prompt judge's calls: its caches, then the call layer (``Outbound``: its model's
    shared limits, its retries, its account) over its transport."""

    def __init__(self, transport: Transport, gate: Callable[[], Gate], *, max_retries: int,
                 backoff: float, cache_size: int, room: Room, counts_tokens: bool):
        self.transport = transport
        self.outbound = Outbound(gate, max_retries=max_retries, backoff=backoff,
                                 counts_tokens=counts_tokens)
        self.cache = ReplyCache(cache_size)
        self.store: ReplyStore | None = None  # replies on disk (a LiteLLM judge's cache_dir)
        self.room = room
        self._flights = Once()

    async def ask(self, ask: Ask[T]) -> Answer[T]:
        """What ``ask.read`` finds in the reply to ``ask.prompt``, from the caches when there;
        one prompt in flight at a time, its answer shared."""
        cached = cast(T | None, self.cache.get(ask.prompt))
        if cached is not None:
            return Answer(cached, BY_CACHE)
        answer, shared = await self._flights.run(ask.prompt, lambda: self._asked(ask))
        if shared and answer.decided_by != BY_FALLBACK:
            return replace(answer, decided_by=BY_CACHE)
        return answer

    async def _asked(self, ask: Ask[T]) -> Answer[T]:
        reply, source = await self.send(ask.prompt, ask.room, ask.form)
        value = None if isinstance(reply, BaseException) else ask.read(reply)
        kept = value is not None and ask.keep(value)
        if (not kept and ask.grows and isinstance(reply, Reply) and reply.cut_at is not None
                and self.room.ours()):
            reply, source = await self.send(ask.prompt, ask.room * MORE_ROOM, ask.form)
            value = None if isinstance(reply, BaseException) else ask.read(reply)
            kept = value is not None and ask.keep(value)
        if isinstance(reply, BaseException):
            return Answer(None, BY_FALLBACK, failure(reply))
        if kept:
            self.cache.put(ask.prompt, value)
            if self.store is not None and reply.cut_at is None:
                self.store.put(ask.prompt, reply.text)
            return Answer(value, source, reply=reply)
        if ask.grows and reply.cut_at is not None:
            return Answer(None, BY_FALLBACK, self.room.cut_reason(reply.cut_at), reply=reply)
        if value is None:
            return Answer(None, BY_FALLBACK, NOTHING_READABLE, reply=reply)
        return Answer(value, source, reply=reply)

    async def send(self, prompt: str, room: int, form: dict | None
                   ) -> tuple[Reply | BaseException, str]:
        """The one function that calls the model: the reply to ``prompt`` and where it came
        from, the disk store or the model (through the call layer). A reply that echoes a
        credential is scrubbed of it."""
        stored = self.store.get(prompt) if self.store is not None else None
        if stored is not None:
            return Reply(stored), BY_CACHE

        async def used(reply: Reply) -> Usage:
            if reply.reported is not None and reply.reported.prompt_tokens is not None:
                return usage.spent(prompt, reply.text, reply.reported)
            # counting tokens computes: in the pool
            return await offload(usage.spent, prompt, reply.text, reply.reported)

        reply = await self.outbound.call(lambda: self.transport(prompt, room, form), used,
                                         prompt)
        if isinstance(reply, Reply):
            clean = scrubbed(reply.text)  # a reply may echo a credential
            if clean != reply.text:
                reply = replace(reply, text=clean)
        return reply, BY_LLM


# A failed call's message is kept to this many characters in each sentence's reason: a server
# may answer an error with a page of HTML or megabytes of anything, and the reason is repeated
# for every sentence of the call.
FAILURE_CHARS = 500


def failure(error: BaseException) -> str:
    """A failed call's reason (a provider's message may echo the key it refused: scrubbed; a
    long one cut)."""
    if isinstance(error, Busy):
        return f"the judge was not called: {error}"
    said = scrubbed(str(error) if isinstance(error, NoTimeToRetry)
                    else f"{type(error).__name__}: {error}")  # whole, before it is cut
    if len(said) > FAILURE_CHARS:
        said = f"{said[:FAILURE_CHARS]}... ({len(said) - FAILURE_CHARS:,} more characters)"
    return f"the judge failed: {said}"
