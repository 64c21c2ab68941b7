"""Judge faults through LiteLLM over real HTTP to a local server, one test per kind of fault:
transient ones (5xx, 429 with Retry-After, a timeout) are retried with backoff; ones that last
(the same again, a malformed body, a refused connection) and permanent statuses end in a
fallback that says why; an empty reply follows pass_on_invalid; refused credentials stop the
validation at once; and the per-validation deadline bounds every wait, keeping what was decided.

Waits between retries are recorded rather than slept (``retry_waits``), so backoff and
Retry-After are asserted exactly and cost no time."""

import asyncio
import email.utils
import time

import pytest
from conftest import (
    GOOD,
    ChatServer,
    ScriptedJudge,
    caught_warnings,
    closed_port_url,
    litellm_validator,
    toy_metadata,
)
from guardrails import Guard

from provenance_guard import ConfigurationError, JudgeAuthError, LiteLLMJudge

HOUSES = "It houses the Mona Lisa."
BACKOFF = 0.05


@pytest.fixture(scope="module", autouse=True)
def litellm_is_loaded():
    """LiteLLM's first call imports it, which takes seconds: make it here, not inside a test's
    deadline."""
    server = ChatServer(lambda prompt: "yes")
    try:
        asyncio.run(LiteLLMJudge("openai/judge", {"api_base": server.url,
                                                  "api_key": "sk-test"}).complete("hi", 16))
    finally:
        server.close()


def validate(validator, text=GOOD, **metadata):
    """The result of validating ``text``, and the warnings it gave."""
    validator.judge.caller.outbound.backoff = BACKOFF
    with caught_warnings() as caught:
        result = validator.validate(text, toy_metadata(**metadata))
    return result, caught


TRANSIENT = {"500": (500, {}), "502": (502, {}), "503": (503, {}),
             "429 with Retry-After": (429, {"Retry-After": "0.25"}),
             "timeout": ("slow", 2.0)}


@pytest.mark.parametrize("fault", TRANSIENT.values(), ids=list(TRANSIENT))
def test_a_transient_fault_is_retried_with_backoff(chat_server, retry_waits, fault):
    server = chat_server(ScriptedJudge())
    server.faults = [fault, fault]
    result, _ = validate(litellm_validator(server.url, {"timeout": 0.5}, max_retries=2))
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "pass" and len(server.requests) == 3
    assert (sentence["verdict"], sentence["decided_by"]) == ("supported", "llm")
    if fault == TRANSIENT["429 with Retry-After"]:
        assert retry_waits == [0.25, 0.25]  # what the server asked for, not the backoff
    else:  # exponential, with jitter: within [b/2, b], then [b, 2b]
        first, second = retry_waits
        assert BACKOFF / 2 <= first <= BACKOFF <= second <= 2 * BACKOFF


def _in(seconds: float) -> str:
    return email.utils.formatdate(time.time() + seconds, usegmt=True)


@pytest.mark.parametrize("headers,low,high", [
    (lambda: {"Retry-After": _in(3)}, 1.5, 3.5),  # an HTTP date: whole seconds, some elapsed
    (lambda: {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0, 0.0),  # past: go now
    (lambda: {"retry-after-ms": "250", "Retry-After": "1"}, 0.25, 0.25),  # OpenAI's, exact
    (lambda: {"Retry-After": "nan"}, BACKOFF / 2, BACKOFF),  # no number: the backoff
], ids=["http date", "past date", "retry-after-ms", "nan"])
def test_retry_after_is_read_in_every_form_servers_send(chat_server, retry_waits, headers, low,
                                                       high):
    server = chat_server(ScriptedJudge())
    server.faults = [(429, headers())]
    result, _ = validate(litellm_validator(server.url, {"timeout": 0.5}, max_retries=2))
    assert result.outcome == "pass" and len(server.requests) == 2
    [wait] = retry_waits
    assert low <= wait <= high, wait


LASTING = {"503": ((503, {}), "ServiceUnavailableError"),
           "malformed body": (("malformed", None), "Expecting value"),
           "timeout": (("slow", 2.0), "Timeout"),
           "refused connection": (None, "JudgeUnreachable: cannot reach the judge's server at")}


@pytest.mark.parametrize("fault,named", LASTING.values(), ids=list(LASTING))
def test_a_fault_that_lasts_ends_in_a_fallback_that_says_why(chat_server, retry_waits, fault,
                                                               named):
    server = chat_server(ScriptedJudge())
    server.faults = [fault] * 3
    url = closed_port_url() if fault is None else server.url
    result, caught = validate(litellm_validator(url, {"timeout": 0.5}, max_retries=2))
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "fail"
    assert (sentence["verdict"], sentence["decided_by"]) == ("invalid", "fallback")
    assert sentence["reason"].startswith("the judge failed: ") and named in sentence["reason"]
    assert len(server.requests) == (0 if fault is None else 3) and len(retry_waits) == 2
    assert any(w.startswith("judge call failed after 3 attempt(s)") for w in caught)
    assert any("pass_on_invalid=False" in w for w in caught)
    assert result.metadata["groundedness"]["decided_by"] == {"fallback": 1}


@pytest.mark.parametrize("status,named", [(400, "BadRequestError"), (413, "APIError"),
                                          (422, "BadRequestError")])
def test_a_permanent_status_is_not_retried(chat_server, retry_waits, status, named):
    server = chat_server(ScriptedJudge())
    server.faults = [(status, {})] * 3
    result, caught = validate(litellm_validator(server.url, max_retries=2))
    [sentence] = result.metadata["sentences"]
    assert len(server.requests) == 1 and retry_waits == []
    assert result.outcome == "fail" and sentence["decided_by"] == "fallback"
    assert named in sentence["reason"]
    assert any(w.startswith("judge call failed after 1 attempt(s)") for w in caught)


def test_a_model_the_server_does_not_have_stops_the_validation_without_retries(chat_server,
                                                                              retry_waits):
    # 404: no prompt could be judged; invalid verdicts would let on_fail="fix" empty the text
    server = chat_server(ScriptedJudge())
    server.faults = [(404, {})] * 3
    with pytest.raises(ConfigurationError, match="has no model .openai/[a-z-]*. \\(HTTP 404\\)"):
        validate(litellm_validator(server.url, max_retries=2))
    assert len(server.requests) == 1 and retry_waits == []


@pytest.mark.parametrize("status", [401, 403])
def test_refused_credentials_stop_the_validation_even_under_a_noop_guard(chat_server, retry_waits,
                                                                         status):
    server = chat_server(ScriptedJudge())
    server.faults = [(status, {})] * 3
    guard = Guard().use(litellm_validator(server.url, on_fail="noop"))
    with pytest.raises(JudgeAuthError, match=rf"refused the API key for 'openai/judge' \(HTTP {status}\)"):
        guard.validate(GOOD, metadata=toy_metadata())
    assert len(server.requests) == 1 and retry_waits == []


@pytest.mark.parametrize("pass_on_invalid", [False, True])
def test_an_empty_reply_is_no_verdict_and_follows_pass_on_invalid(chat_server, pass_on_invalid):
    server = chat_server(ScriptedJudge())
    server.faults = [("empty", None)]
    result, caught = validate(litellm_validator(server.url), pass_on_invalid=pass_on_invalid)
    [sentence] = result.metadata["sentences"]
    assert result.outcome == ("pass" if pass_on_invalid else "fail")
    assert (sentence["verdict"], sentence["decided_by"]) == ("invalid", "fallback")
    assert "empty reply" in sentence["reason"]
    assert any(f"pass_on_invalid={pass_on_invalid}" in w for w in caught)


DEADLINE = {"trickling reply": ("trickle", 30.0), "slow reply": ("slow", 30.0),
            "Retry-After past the deadline": (503, {"Retry-After": "30"})}


@pytest.mark.parametrize("fault", DEADLINE.values(), ids=list(DEADLINE))
def test_the_deadline_bounds_the_wait_and_keeps_what_was_decided(chat_server, fault):
    server = chat_server(ScriptedJudge())
    server.faults = [(None, None), fault, fault, fault]  # the first sentence is answered
    validator = litellm_validator(server.url, {"timeout": 60}, deadline=1.5, batch_size=1)
    result, _ = validate(validator, f"{GOOD} {HOUSES}")
    first, second = result.metadata["sentences"]
    assert (first["verdict"], first["decided_by"]) == ("supported", "llm")
    assert (second["verdict"], second["decided_by"]) == ("invalid", "fallback")
    assert "deadline" in second["reason"]
    assert result.outcome == "fail"
