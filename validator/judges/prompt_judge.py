"""Prompt judges: a judge that sends a prompt to a model through one transport method,
``complete(prompt, room, form) -> Reply``, and reads a verdict from the reply. The transport is
all a backend writes (LiteLLM, a callable); caching, retries, reply schemas, the control
statement and reading replies are shared here."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, cast

from ..concurrency import Once, offload
from ..errors import warn
from ..text.citations import renumbered
from ..types import BY_CACHE, BY_FALLBACK, BY_LLM, INVALID, SUPPORTED, Evidence, Verdict
from . import usage
from .base import Backend, Item
from .control import (
    ALONE,
    ANSWERED,
    CAUGHT,
    NO_PASSAGE,
    UNANSWERED,
    Control,
    control_for,
    ready,
)
from .limits import MAX_IN_FLIGHT, gate
from .prompts import (
    build_batch_prompt,
    build_claims_prompt,
    build_correction_prompt,
    build_prompt,
    check_template,
    own_numbers,
    reply_schema,
    structured,
)
from .replies import (
    EXPECTED_BATCH,
    UNREADABLE_REWRITE,
    UNREADABLE_VERDICT,
    Tokens,
    UnreadableReply,
    parse_batch_reply,
    parse_claims,
    parse_cut_batch_reply,
    parse_reply,
    parse_rewrite,
    shown,
    with_probabilities,
    with_probability,
)
from .reply_cache import ReplyCache, ReplyStore
from .retries import complete_with_retries

NOTHING_READABLE = "the judge's reply has nothing readable"
CUT = "the judge's reply was cut"  # how the reason for a reply cut at its length limit starts
UNSURE = "the judge called it supported"  # ... and a supported verdict under the threshold's
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
    """A model's reply: its text; ``cut_at``, the tokens it had when the provider ended it at
    its length limit (None: it ended on its own, or the transport cannot tell); ``tokens``, its
    tokens with their log probabilities, where the provider returned them (None: it did not)."""

    text: str
    cut_at: int | None = None
    tokens: Tokens | None = None


@dataclass(frozen=True)
class Answer(Generic[T]):
    """What ``PromptJudge.ask`` read from a reply: ``value`` None when nothing readable came
    back (``problem`` says why); ``decided_by`` is BY_LLM, BY_CACHE or BY_FALLBACK."""

    value: T | None
    decided_by: str
    problem: str = ""


class PromptJudge(Backend):
    """A judge that sends a prompt to a model and reads a verdict from the reply.

    Subclasses implement ``complete(prompt, room, form) -> Reply``, awaited: the transport, and
    all a backend writes (``room``: the tokens a reply may have, where the backend can say;
    ``form``: the reply's JSON schema as a ``response_format``, None for a free reply). Where
    ``structured`` is true the judge asks for every reply by its schema (``reply_schema``), and
    reads it with the same reader as a free one: a schema is a request, not a guarantee.
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
                 max_per_minute: float | None = None, max_tokens_per_minute: float | None = None,
                 min_support_probability: float | None = None):
        self.max_retries = max_retries
        self.min_support_probability = min_support_probability
        self.structured = False  # whether replies are asked for by their schema
        self.controls = False  # whether each judge call carries a control statement
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

    async def complete(self, prompt: str, room: int, form: dict | None = None) -> Reply:
        raise NotImplementedError

    def use_controls(self, setting: str) -> None:
        """Whether each call carries a control statement (``control_statements``: "on";
        "auto", where replies are structured: there a careless reply is as readable as a
        careful one); what making one needs is loaded now."""
        self.controls = setting == "on" or (setting == "auto" and self.structured)
        if self.controls:
            ready()

    def _asked(self, prompt: str, kind: str, count: int = 1) -> tuple[str, dict | None]:
        """``prompt`` as sent, and the reply schema it is sent with: the structured form of a
        prompt of ours where the judge asks for structured replies."""
        if not self.structured:
            return prompt, None
        return structured(prompt, kind, count), reply_schema(kind, count)

    @property
    def room_is_ours(self) -> bool:
        """Whether the judge sets a reply's room (so it may give a cut reply more)."""
        return False

    def model_key(self) -> Hashable:
        """What names the model this judge calls, for the limits every validation in the
        process shares (``limits.gate``): judges with the same key share them."""
        return id(self)

    async def ask(self, prompt: str, read: Callable[[Reply], T | None],
                  keep: Callable[[T], bool] = lambda value: True, room: int = ROOM["verdict"],
                  form: dict | None = None) -> Answer[T]:
        """``read(reply)`` for ``prompt``, from the caches when there. A value ``keep`` refuses
        is returned (``decided_by`` BY_FALLBACK) but not cached; a reply ``read`` finds nothing in
        (None) gives no value. Every prompt but the batched one goes through here. A reply cut
        at the ``room`` the judge gave it is asked once more with more; cut again (or cut at a
        room the user set), it gives no value, and the reason says where it was cut."""
        cached = cast(T | None, self.cache.get(prompt))  # what ``read`` gave for it before
        if cached is not None:
            return Answer(cached, BY_CACHE)
        answer, shared = await self._in_flight.run(
            prompt, lambda: self._ask_model(prompt, read, keep, room, form))
        return _as_shared(answer) if shared else answer

    async def _ask_model(self, prompt: str, read: Callable[[Reply], T | None],
                         keep: Callable[[T], bool], room: int, form: dict | None) -> Answer[T]:
        reply, decided_by = await self._reply(prompt, room, form)
        value, kept = _read(reply, read, keep)
        if (not kept and isinstance(reply, Reply) and reply.cut_at is not None
                and self.room_is_ours):
            reply, decided_by = await self._reply(prompt, room * MORE_ROOM, form)
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
        """One call for every item not in the cache (a batch, while the model reads batches;
        with ``controls``, a control statement among them). Items the reply gives no readable
        verdict for are asked again, one per call, all at once; if the batched call itself
        fails, or the judge called the control supported, they are INVALID."""
        found: list[Verdict | None] = [None] * len(items)
        if self.reads_batches is not False and len(items) > 1:
            found = (await self._asked_batch(items, question)).found
        left = [i for i, verdict in enumerate(found) if verdict is None]
        asked = await asyncio.gather(*(self._alone(items[i], question) for i in left))
        for i, verdict in zip(left, asked, strict=True):
            found[i] = verdict
        return [self._sure(cast(Verdict, verdict)) for verdict in found]

    async def _asked_batch(self, items: Sequence[Item], question: str | None) -> _Batch:
        batch = _Batch(self, items, question)
        batch.make_prompt(await offload(control_for, list(batch.asked))  # the rules compute
                          if self.controls and batch.asked else None)
        if batch.prompt is not None:
            self._read_batch(batch, *await self._reply(batch.prompt, batch_room(batch.count),
                                                       batch.form))
        return batch

    async def _alone(self, item: Item, question: str | None) -> Verdict:
        """One statement (or one asked again): with a control, in a batch of its own beside it
        (what that reply leaves unreadable is INVALID); else in a prompt of its own, its
        verdict saying why it had no control."""
        note = ALONE if self.controls else None
        if self.controls and self.reads_batches is not False:
            batch = await self._asked_batch([item], question)
            if batch.found[0] is not None:
                return batch.found[0]
            if batch.prompt is not None and self.reads_batches is not False:
                return Verdict(INVALID, batch.problem, decided_by=BY_FALLBACK,
                               reply=batch.reply, control=batch.control_note)
            if batch.prompt is None:
                note = batch.control_note  # no control could be made
        verdict = await self._verdict(*item, question)
        return verdict if note is None else replace(verdict, control=note)

    def _sure(self, verdict: Verdict) -> Verdict:
        """A supported verdict the model gave with less than ``min_support_probability``, or
        with no probability to check it by, is INVALID: the model was not sure enough."""
        floor = self.min_support_probability
        if floor is None or verdict.label != SUPPORTED:
            return verdict
        if verdict.probability is None:
            why = (f"but its provider returned no token probabilities to check that against "
                   f"min_support_probability={floor}")
        elif verdict.probability < floor:
            why = (f"with probability {verdict.probability:.2f}, below "
                   f"min_support_probability={floor}")
        else:
            return verdict
        return replace(verdict, label=INVALID, decided_by=BY_FALLBACK, reason=f"{UNSURE}, {why}")

    async def _verdict(self, claim: str, evidence: Sequence[Evidence], question: str | None
                       ) -> Verdict:
        """One statement, in a prompt of its own."""
        untrusted = [claim, question, *(e.text for e in evidence)]
        prompt = build_prompt(claim, evidence, question, self.template)
        form = None
        if self.template is None:
            prompt, form = self._asked(prompt, "verdict")

        def read(reply: Reply) -> Verdict:
            return with_probability(parse_reply(reply.text, untrusted), reply.text, reply.tokens)

        answer = await self.ask(prompt, read, lambda verdict: verdict.label != INVALID,
                                form=form)
        if answer.value is None:  # the call failed (parse_reply always gives a verdict)
            return Verdict(INVALID, answer.problem, decided_by=BY_FALLBACK)
        verdict = answer.value
        return verdict if verdict.label == INVALID else replace(verdict,
                                                                decided_by=answer.decided_by)

    def _read_batch(self, batch: _Batch, reply: Reply | BaseException, decided_by: str) -> None:
        """The verdicts a reply to the batched prompt gives its pending items (kept); if the
        call failed, each is INVALID. A reply cut at its length limit gives the verdicts it
        holds in full, and says nothing of whether the model reads batches. A reply that calls
        the control supported gives each item INVALID; one with no readable verdict for it
        gives none (they are asked again)."""
        if isinstance(reply, BaseException):
            for i in batch.pending:
                batch.found[i] = _failed(reply)
            return
        if reply.cut_at is not None:
            parsed = parse_cut_batch_reply(reply.text, batch.count, batch.untrusted)
        else:
            parsed = parse_batch_reply(reply.text, batch.count, batch.untrusted)
            self._learn_from(parsed, reply.text, batch.count)
        parsed = with_probabilities(parsed, reply.text, reply.tokens)
        control = batch.without_control(parsed)
        if control is not None and control.label == SUPPORTED:
            usage.caught()
            for i in batch.pending:
                batch.found[i] = Verdict(INVALID, CAUGHT, decided_by=BY_FALLBACK,
                                         control=CAUGHT)
            return
        batch.reply = shown(reply.text)
        if batch.control is not None and (control is None or control.label == INVALID):
            if any(v is not None and v.label != INVALID for v in parsed):
                batch.problem = UNANSWERED  # nothing of the reply is vouched for: asked again
            return
        if (reply.cut_at is None and self.store is not None and batch.prompt is not None
                and any(v is not None and v.label != INVALID for v in parsed)):
            self.store.put(batch.prompt, reply.text)
        for i, own, verdict in zip(batch.pending, batch.own, parsed, strict=True):
            if verdict is not None and verdict.label != INVALID:
                verdict = replace(verdict, decided_by=decided_by, control=batch.control_note,
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
        def read(reply: Reply) -> tuple[str, ...] | None:
            claims = parse_claims(reply.text, [sentence, answer])
            return None if claims is None else tuple(claims)

        prompt, form = self._asked(build_claims_prompt(sentence, answer, question), "claims")
        found = await self.ask(prompt, read, room=ROOM["claims"], form=form)
        return None if found.value is None else list(found.value)

    async def rewrite(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
                      question: str | None) -> str | None:
        """The sentence rewritten from ``evidence`` by the model, or None (it cannot, or the
        call failed). Through the caches, retries and deadline, as a verdict. A reply with no
        readable rewrite raises ``UnreadableReply``, which says what was expected."""
        untrusted = [sentence, question, verdict.reason, *(e.text for e in evidence)]
        prompt, form = self._asked(build_correction_prompt(
            sentence, evidence, verdict.label, verdict.reason, question), "rewrite")
        found = await self.ask(prompt, lambda reply: parse_rewrite(reply.text, untrusted),
                               room=ROOM["rewrite"], form=form)
        if found.value is None and found.problem == NOTHING_READABLE:
            raise UnreadableReply(UNREADABLE_REWRITE)
        if found.value is None and found.problem.startswith(CUT):
            raise UnreadableReply(found.problem)
        return found.value or None

    async def _reply(self, prompt: str, room: int, form: dict | None = None
                     ) -> tuple[Reply | BaseException, str]:
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
                    reply = await self.complete(prompt, room, form if self.structured else None)
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
    known (from the cache), the items still to ask, and (``make_prompt``) the batched prompt
    that asks them, with the call's control statement among them where one was made (None when
    one statement or none is left and no control goes with it: it is asked alone)."""

    def __init__(self, judge: PromptJudge, items: Sequence[tuple[str, Sequence[Evidence]]],
                 question: str | None):
        self.keys = [build_prompt(claim, evidence, question, judge.template)
                     for claim, evidence in items]
        self.found: list[Verdict | None] = []
        for key in self.keys:
            cached = cast(Verdict | None, judge.cache.get(key))  # what judge() keeps under it
            self.found.append(None if cached is None else replace(cached, decided_by=BY_CACHE))
        self.pending = [i for i, verdict in enumerate(self.found) if verdict is None]
        self.asked: list[Item] = [items[i] for i in self.pending]
        self.control: Control | None = None
        self.control_note = NO_PASSAGE if judge.controls else None
        self.problem = UNREADABLE_VERDICT  # why an item the reply gave nothing for has none
        self.reply: str | None = None  # the reply, as an unreadable one is shown
        self._judge, self._question = judge, question

    def make_prompt(self, control: Control | None) -> None:
        """The batched prompt of the items still to ask, and ``control`` among them (None: the
        call has none)."""
        sent = list(self.asked)
        if control is not None:
            self.control, self.control_note = control, ANSWERED
            sent.insert(control.at, (control.statement, [control.evidence]))
        self.count = len(sent)
        self.prompt, self.form = None, None
        if len(sent) > 1:
            self.prompt, self.form = self._judge._asked(
                build_batch_prompt(sent, self._question), "batch", len(sent))
        self.own = own_numbers(sent)  # the prompt's passage numbers -> each item's own
        if control is not None:
            del self.own[control.at]
        self.untrusted = [self._question, *(part for claim, evidence in sent
                                            for part in (claim, *(e.text for e in evidence)))]

    def without_control(self, parsed: list[Verdict | None]) -> Verdict | None:
        """The control's verdict, taken out of ``parsed`` (None: no control, or none read)."""
        return None if self.control is None else parsed.pop(self.control.at)


def _read(reply: Reply | BaseException, read: Callable[[Reply], T | None],
          keep: Callable[[Any], bool]) -> tuple[T | None, bool]:
    """What ``read`` finds in ``reply`` (None for a failed call), and whether it is kept."""
    if isinstance(reply, BaseException):
        return None, False
    value = read(reply)
    return value, value is not None and keep(value)


def _as_shared(answer: Answer) -> Answer:
    """An answer another caller's call gave (one prompt in flight, one verdict): from the
    cache, unless it is a fallback."""
    return answer if answer.decided_by == BY_FALLBACK else replace(answer, decided_by=BY_CACHE)


def _failure(error: BaseException) -> str:
    return f"the judge failed: {type(error).__name__}: {error}"


def _failed(error: BaseException) -> Verdict:
    return Verdict(INVALID, _failure(error), decided_by=BY_FALLBACK)
