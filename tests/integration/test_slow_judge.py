"""A slow model as the judge, over real HTTP: a call is given the time its validation has left,
not a fixed share of it, so a model slower than a minute answers once instead of being sent the
same prompt again; no retry is started that the deadline would cut off; and usage counts every
request the server received, saying which were retries and which failed."""

from __future__ import annotations

import re
import time

from conftest import GOOD, agrees, litellm_validator, toy_metadata

from provenance_guard.types import INVALID, SUPPORTED


def test_a_model_slower_than_a_minute_answers_once_within_the_deadline(chat_server):
    server = chat_server(agrees)
    server.faults = [("slow", 65.0)]  # the reply comes after 65 s
    started = time.monotonic()
    report = litellm_validator(server.url, deadline=90).check(GOOD, toy_metadata())
    # the reply waited for; sent again, the second would outlast the deadline (no verdict)
    assert time.monotonic() - started >= 65
    assert report.sentences[0].verdict.label == SUPPORTED and report.passed
    assert len(server.requests) == 1  # never sent again
    assert report.usage.calls == 1 and report.usage.retried_calls == 0


def used_after(server, faults: list, **options):
    """The usage of one validation of GOOD while the server meets ``faults``, which it passes."""
    server.faults = faults
    validator = litellm_validator(server.url, **options)
    validator.judge.caller.outbound.backoff = 0.01
    report = validator.check(GOOD, toy_metadata())
    assert report.passed
    return report.usage


def test_usage_counts_every_request_the_server_received(chat_server):
    server = chat_server(agrees)
    used = used_after(server, [(500, {}), (503, {})])
    assert used.calls == len(server.requests) == 3
    assert (used.failed_calls, used.retried_calls) == (2, 2)
    assert "2 failed; 2 were retries" in used.line()


def test_a_request_that_timed_out_is_counted_with_its_prompt(chat_server):
    server = chat_server(agrees)
    used = used_after(server, [("slow", 2.0)], llm_kwargs={"timeout": 0.5})
    assert used.calls == len(server.requests) == 2
    assert (used.failed_calls, used.retried_calls) == (1, 1)
    assert used.cost_usd is None and "timed out" in used.unpriced


def test_no_retry_is_started_that_the_deadline_would_cut_off(chat_server):
    server = chat_server(agrees)
    # a call's timeout well above the answered call's second, so that a busy machine's slower
    # answer is not cut off; after it, less than that second is left
    validator = litellm_validator(server.url, deadline=3.5, llm_kwargs={"timeout": 2.5})
    validator.judge.caller.outbound.backoff = 0.01
    server.faults = [("slow", 1.0)]  # an answered call: a call takes at least 1 s here
    assert validator.check("It is 330 metres tall.", toy_metadata()).passed
    server.faults = [("slow", 8.0)]  # the next one times out after 2.5 s, 1 s before the end
    before = len(server.requests)
    report = validator.check(GOOD, toy_metadata())
    verdict = report.sentences[0].verdict
    assert len(server.requests) == before + 1  # the failed call was not sent again
    assert verdict.label == INVALID and "not tried again" in verdict.reason, verdict.reason
    taken = re.search(r"less than a call takes here \((\d+\.\d) s\)", verdict.reason)
    assert taken and float(taken[1]) >= 1.0, verdict.reason  # measured, as the answered call


def test_a_call_the_deadline_cuts_off_closes_its_connection():
    """The server sees the request closed at the deadline: a server that notices (llama.cpp
    does for a streamed reply) stops writing for nobody. A bare socket that never answers,
    watching for the close."""
    import socket
    import threading

    closed_after: list[float] = []

    def never_answers(listening: socket.socket) -> None:
        connection, _ = listening.accept()
        request = b""
        while b"\r\n\r\n" not in request:
            request += connection.recv(65536)
        started = time.monotonic()
        connection.settimeout(30)
        while connection.recv(65536):
            pass
        closed_after.append(time.monotonic() - started)

    listening = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=never_answers, args=(listening,), daemon=True).start()
    url = f"http://127.0.0.1:{listening.getsockname()[1]}/v1"
    report = litellm_validator(url, deadline=1.5, max_retries=0).check(GOOD, toy_metadata())
    assert report.sentences[0].verdict.label == INVALID and report.usage.cut_off_calls == 1
    deadline = time.monotonic() + 5
    while not closed_after and time.monotonic() < deadline:
        time.sleep(0.05)
    assert closed_after and closed_after[0] < 1.5 + 1.0, closed_after
    listening.close()
