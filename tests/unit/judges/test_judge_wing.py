"""The judge wing's readers on their own: how a failed call is classified (received or not,
worth a retry or not, a setup mistake), how a LiteLLM response becomes a reply, how long a call
may take, and what a prompt judge declares of itself."""

import asyncio
from types import SimpleNamespace

import pytest

from provenance_guard.errors import ConfigurationError, JudgeAuthError
from provenance_guard.judges import retries
from provenance_guard.judges.base import JudgeSettings
from provenance_guard.judges.callable_judge import CallableJudge
from provenance_guard.judges.litellm_judge import call_timeout, reply_of
from provenance_guard.runtime.deadline import Runner
from provenance_guard.runtime.pool import Busy


class Status(Exception):
    def __init__(self, status, message="", headers=None):
        super().__init__(message or f"status {status}")
        self.status_code = status
        self.response = SimpleNamespace(headers=headers or {})


@pytest.mark.parametrize("error, received", [
    (Status(503), True), (Status(429), True), (Busy("too many"), False),
    (ConfigurationError("no model"), False), (TimeoutError("read timed out"), True)])
def test_a_call_counts_as_received_only_where_the_provider_got_it(error, received):
    assert retries.received(error) is received


def test_setup_mistakes_and_refused_keys_are_told_apart_from_transient_faults():
    assert retries.misconfigured(Status(404)) and not retries.misconfigured(Status(503))
    assert retries.refused_credentials(Status(401))
    assert retries.refused_credentials(Status(500, "Missing credentials for the API"))
    assert not retries.refused_credentials(Status(503))


def test_retries_end_on_a_refused_key_at_once_and_on_a_transient_fault_after_max_retries(
        monkeypatch):
    async def no_sleep(_):
        return None

    monkeypatch.setattr(retries, "_sleep", no_sleep)
    tries = []

    async def refused(prompt):
        tries.append(prompt)
        raise Status(401, "invalid api key")

    with pytest.raises(JudgeAuthError):
        asyncio.run(retries.complete_with_retries(refused, "p", 3, 0.0))
    assert len(tries) == 1
    tries.clear()

    async def busy(prompt):
        tries.append(prompt)
        raise Status(503)

    with pytest.warns(UserWarning, match="after 3 attempt"):
        ended = asyncio.run(retries.complete_with_retries(busy, "p", 2, 0.0))
    assert isinstance(ended, Status) and len(tries) == 3


def test_a_litellm_response_becomes_a_reply_with_where_it_was_cut():
    def response(finish, completion):
        choice = SimpleNamespace(finish_reason=finish, logprobs=None,
                                 message=SimpleNamespace(content="yes"))
        return SimpleNamespace(choices=[choice], usage=SimpleNamespace(
            completion_tokens=completion))

    assert reply_of(response("stop", 3), "yes").cut_at is None
    assert reply_of(response("length", 256), "yes").cut_at == 256
    assert reply_of(response("length", None), None).text == ""


def test_a_calls_timeout_is_the_validations_length_capped_by_the_users():
    assert call_timeout(None) is None and call_timeout(5.0) == 5.0

    async def inside():
        async with Runner(1, 30.0).validation():
            return call_timeout(None), call_timeout(5.0)

    assert asyncio.run(inside()) == (30.0, 5.0)


def test_a_prompt_judge_declares_what_it_can_and_cannot_take():
    judge = CallableJudge(lambda prompt: "yes", JudgeSettings())
    abilities = judge.abilities
    assert abilities.asks_again and abilities.remembered and abilities.extracts_claims
    assert "max_retries" in abilities.takes and "cache_size" in abilities.takes
    assert "min_support_probability" not in abilities.takes
    assert "no token probabilities" in abilities.why_not("min_support_probability")
    judge.reads_batches = False  # it learnt that the model reads one statement a prompt
    assert judge.abilities.group_size == 1
