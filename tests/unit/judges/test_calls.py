"""The call layer (``calls.Outbound``) on its own: every call it makes is counted once, from
what the call returned; a call the deadline cuts off and one the provider refuses are counted
as such; retries happen only where the backend takes them; the model's gate bounds the calls
in flight. And ``usage``'s readings of what a response reported."""

import asyncio
from types import SimpleNamespace

import pytest

from provenance_guard.judges import usage
from provenance_guard.judges.calls import Caller, Outbound, Room
from provenance_guard.judges.kinds import Reply
from provenance_guard.judges.limits import Gate
from provenance_guard.types import Usage


def metered(coroutine):
    """``coroutine`` run in a validation's count: (its result or error, the usage counted)."""
    async def counted():
        with usage.counting() as meter:
            try:
                return await coroutine, meter.total
            except Exception as error:  # noqa: BLE001 - returned for the test to read
                return error, meter.total

    return asyncio.run(counted())


async def spent_one(_reply) -> Usage:
    return Usage(calls=1, prompt_tokens=7, completion_tokens=3, cost_usd=0.5)


def test_an_answered_call_is_counted_once_from_what_it_returned():
    outbound = Outbound(lambda: Gate(4))

    async def send():
        return "reply"

    got, used = metered(outbound.call(send, spent_one, "a prompt"))
    assert got == "reply"
    assert (used.calls, used.prompt_tokens, used.completion_tokens, used.cost_usd) == (1, 7, 3, 0.5)
    assert len(outbound.latencies) == 1


def test_a_call_the_deadline_cuts_off_is_counted_by_its_prompt_and_has_no_price():
    outbound = Outbound(lambda: Gate(4))

    async def hangs():
        await asyncio.sleep(60)

    async def cut():
        task = asyncio.ensure_future(outbound.call(hangs, spent_one, "a prompt of some words"))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    _, used = metered(cut())
    assert (used.calls, used.cut_off_calls, used.cost_usd) == (1, 1, None)
    assert used.prompt_tokens > 0 and used.completion_tokens == 0


def test_a_judge_objects_call_cut_off_is_counted_without_tokens():
    outbound = Outbound(lambda: Gate(4))  # no prompt: a judge object's requests are its own

    async def cut():
        task = asyncio.ensure_future(outbound.call(lambda: asyncio.sleep(60), spent_one))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    _, used = metered(cut())
    assert (used.calls, used.cut_off_calls, used.prompt_tokens) == (1, 1, 0)
    assert used.unpriced == usage.OBJECT_PRICE


class Unavailable(Exception):
    status_code = 503  # a server that received the request and answered with an error


class Flaky:
    """Fails with a transient error ``failures`` times, then answers."""

    def __init__(self, failures):
        self.failures, self.calls = failures, 0

    async def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise Unavailable("busy")
        return "reply"


def test_retries_happen_only_where_the_backend_takes_them(monkeypatch):
    from provenance_guard.judges import retries

    async def no_sleep(_):
        return None

    monkeypatch.setattr(retries, "_sleep", no_sleep)
    flaky = Flaky(2)
    got, used = metered(Outbound(lambda: Gate(4), max_retries=2).call(flaky, spent_one, "p"))
    assert got == "reply" and flaky.calls == 3
    # two requests the server received and refused, then the answer: each counted, twice retried
    assert (used.calls, used.failed_calls, used.retried_calls) == (3, 2, 2)
    once = Flaky(1)  # a judge object's call (no prompt): not retried, its error raised
    got, used = metered(Outbound(lambda: Gate(4)).call(once, spent_one))
    assert isinstance(got, Unavailable) and once.calls == 1 and used.calls == 0


def test_the_gate_bounds_the_calls_in_flight():
    gate = Gate(2)
    outbound = Outbound(lambda: gate)
    running, most = 0, 0

    async def send():
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.02)
        running -= 1
        return "reply"

    async def many():
        return await asyncio.gather(*(outbound.call(send, spent_one, "p") for _ in range(6)))

    replies, used = metered(many())
    assert replies == ["reply"] * 6 and most == 2 and used.calls == 6


def test_a_prompt_judges_reply_is_counted_by_the_caller_not_the_transport():
    """A transport returns what the response reported; the caller counts it (a reply whose
    tokens nobody reported, counted here)."""
    async def transport(prompt, room, form):
        return Reply("yes", reported=usage.Reported(unpriced=usage.CALLABLE_PRICE))

    caller = Caller(transport, lambda: Gate(4), max_retries=0, backoff=0.0, cache_size=0,
                    room=Room(), counts_tokens=False)
    (reply, _), used = metered(caller.send("Is it so?", 10, None))
    assert reply.text == "yes"
    assert (used.calls, used.counted_calls, used.cost_usd) == (1, 1, None)
    assert used.prompt_tokens == usage.tokens("Is it so?") and used.unpriced


def test_what_a_litellm_response_reported_is_read_and_a_zero_is_no_report():
    response = SimpleNamespace(usage=SimpleNamespace(
        prompt_tokens=120, completion_tokens=9,
        prompt_tokens_details=SimpleNamespace(cached_tokens=100)))
    said = usage.reported(response, "gpt-4o-mini")
    assert (said.prompt_tokens, said.completion_tokens, said.cached_tokens) == (120, 9, 100)
    used = usage.spent("prompt", "reply", said)
    assert (used.calls, used.counted_calls, used.cached_tokens) == (1, 0, 100)
    assert used.cost_usd is not None and used.cost_usd > 0  # priced by LiteLLM's table
    none = usage.reported(SimpleNamespace(usage=SimpleNamespace(
        prompt_tokens=0, completion_tokens=0)), "gpt-4o-mini")
    assert none.prompt_tokens is None
    assert usage.spent("a prompt", "a reply", none).counted_calls == 1


def test_a_request_refused_first_is_counted_as_a_failed_call():
    said = usage.Reported(10, 2, None, "gpt-4o-mini", refused=1)
    used = usage.spent("p", "r", said)
    assert (used.calls, used.failed_calls) == (2, 1)


def test_outside_a_validation_nothing_is_counted():
    async def send():
        return "reply"

    got = asyncio.run(Outbound(lambda: Gate(1)).call(send, spent_one, "p"))
    assert got == "reply"  # and no meter to write: no error
