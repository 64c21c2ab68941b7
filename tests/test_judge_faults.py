"""Judge faults through LiteLLM over real HTTP to a local server: timeouts, 429 with
Retry-After, 500s, malformed bodies, empty replies, a reply that trickles in, a refused
connection, 401; and the per-validation deadline that bounds the wait."""

import socket
import time
import warnings

import pytest
from conftest import SOURCES, ToyEmbedder, passages_of, statement_of
from guardrails import Guard

from provenance_guard import JudgeAuthError, ProvenanceLLM

GOOD = "The Eiffel Tower is in Paris."
HOUSES = "It houses the Mona Lisa."


def reply(prompt):
    verdict = "supported" if statement_of(prompt).rstrip(".") in passages_of(prompt) else "unsupported"
    return f'{{"reason": "p1", "verdict": "{verdict}"}}'


def meta(**extra):
    return {"sources": SOURCES, "embed_function": ToyEmbedder(), "chunk_strategy": "sentence",
            "chunk_size": 1, "chunk_overlap": 0, **extra}


def validator(url, llm_kwargs=None, **options):
    options.setdefault("max_concurrency", 1)  # faults are consumed in order
    return ProvenanceLLM(llm_callable="openai/judge",
                         llm_kwargs={"api_base": url, "api_key": "sk-test", **(llm_kwargs or {})},
                         **options)


def validate(v, text, **extra):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = v.validate(text, meta(**extra))
    return result, [str(w.message) for w in caught]


def test_a_timed_out_call_is_retried(chat_server):
    server = chat_server(reply)
    server.faults = [("slow", 3.0)]
    result, _ = validate(validator(server.url, {"timeout": 0.5}), GOOD)
    assert result.outcome == "pass" and len(server.requests) == 2
    assert result.metadata["sentences"][0]["decided_by"] == "llm"


@pytest.mark.parametrize("fault", [(500, {}), (502, {}), (503, {}), (429, {"Retry-After": "0.2"})])
def test_transient_statuses_are_retried(chat_server, fault):
    server = chat_server(reply)
    server.faults = [fault, fault]
    result, _ = validate(validator(server.url), GOOD)
    assert result.outcome == "pass" and len(server.requests) == 3


def test_retry_after_is_honoured(chat_server):
    server = chat_server(reply)
    server.faults = [(429, {"Retry-After": "1"})]
    started = time.monotonic()
    result, _ = validate(validator(server.url), GOOD)
    assert result.outcome == "pass" and time.monotonic() - started >= 1.0


def test_malformed_bodies_end_in_a_fallback_that_says_why(chat_server):
    server = chat_server(reply)
    server.faults = [("malformed", None)] * 3
    result, caught = validate(validator(server.url, max_retries=2), GOOD)
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "fail" and len(server.requests) == 3
    assert sentence["verdict"] == "invalid" and sentence["decided_by"] == "fallback"
    assert "the judge failed" in sentence["reason"]
    assert any("pass_on_invalid=False" in w for w in caught)
    assert result.metadata["groundedness"]["decided_by"] == {"fallback": 1}


def test_an_empty_reply_follows_pass_on_invalid(chat_server):
    server = chat_server(reply)
    server.faults = [("empty", None)]
    result, _ = validate(validator(server.url), GOOD, pass_on_invalid=True)
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "pass"
    assert sentence["decided_by"] == "fallback" and "empty reply" in sentence["reason"]


def test_a_trickling_reply_is_cut_off_by_the_deadline(chat_server):
    server = chat_server(reply)
    server.faults = [("trickle", 20.0)] * 4
    v = validator(server.url, {"timeout": 60}, deadline=1.5)
    started = time.monotonic()
    result, _ = validate(v, f"{GOOD} {HOUSES}")
    elapsed = time.monotonic() - started
    assert elapsed < 5.0, elapsed
    assert result.outcome == "fail"
    for sentence in result.metadata["sentences"]:
        assert sentence["decided_by"] == "fallback" and "deadline" in sentence["reason"]


def test_the_deadline_also_bounds_retry_after(chat_server):
    server = chat_server(reply)
    server.faults = [(503, {"Retry-After": "30"})] * 3
    started = time.monotonic()
    result, _ = validate(validator(server.url, deadline=1.0), GOOD, pass_on_invalid=True)
    assert time.monotonic() - started < 3.0
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "pass"  # undecided, and pass_on_invalid says so
    assert sentence["decided_by"] == "fallback" and "deadline" in sentence["reason"]


def test_what_was_decided_before_the_deadline_is_kept(chat_server):
    server = chat_server(reply)
    server.faults = [(None, None), ("slow", 10.0)]
    result, _ = validate(validator(server.url, deadline=2.0), f"{GOOD} {HOUSES}")
    first, second = result.metadata["sentences"]
    assert (first["verdict"], first["decided_by"]) == ("supported", "llm")
    assert (second["verdict"], second["decided_by"]) == ("invalid", "fallback")


def test_a_refused_connection_is_retried_then_falls_back():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    v = validator(f"http://127.0.0.1:{port}/v1", max_retries=1)
    result, _ = validate(v, GOOD)
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "fail" and sentence["decided_by"] == "fallback"
    assert "Connection" in sentence["reason"]


def test_401_fails_fast_through_a_guard(chat_server):
    server = chat_server(reply)
    server.faults = [(401, {})] * 5
    guard = Guard().use(validator(server.url, on_fail="exception"))
    started = time.monotonic()
    with pytest.raises(Exception) as raised:
        guard.validate(GOOD, metadata=meta())
    assert time.monotonic() - started < 5.0 and len(server.requests) == 1
    assert isinstance(raised.value, JudgeAuthError) or "credentials" in str(raised.value)
