"""Limits every validation in the process shares for one model, over real HTTP to a local
server: calls in flight (``max_calls_in_flight``) across threads and validators, a
``Retry-After`` one call receives holding back the others, and a busy server (429) that slows
validations down until their deadline instead of failing them after ``max_retries``."""

import threading
import time

from conftest import GOOD, ScriptedJudge, caught_warnings, litellm_validator, toy_metadata

from provenance_guard import ProvenanceLLM
from provenance_guard.judges.limits import gate


def run_together(work, count: int) -> list:
    results: list = [None] * count

    def run(i):
        results[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_calls_in_flight_are_capped_across_threads_and_validators(chat_server):
    scripted = ScriptedJudge(latency=0.1)
    server = chat_server(scripted)
    # two validators of the same model and server, each allowing 8 calls per text: 2 in all
    validators = [litellm_validator(server.url, max_concurrency=8, max_calls_in_flight=2,
                                    batch_size=1) for _ in range(2)]
    def text(i):
        return " ".join(f"Sentence {j} of text {i} is here." for j in range(4))

    results = run_together(lambda i: validators[i % 2].validate(text(i), toy_metadata()), 6)
    assert len(server.requests) == 24 and all(r.metadata["sentences"] for r in results)
    assert scripted.max_in_flight == 2


def test_a_different_model_has_its_own_slots(chat_server):
    scripted = ScriptedJudge(latency=0.1)
    server = chat_server(scripted)
    text = " ".join(f"Sentence {i} is here." for i in range(4))
    validators = [ProvenanceLLM(llm_callable=f"openai/judge-{n}", max_calls_in_flight=2,
                                batch_size=1, llm_kwargs={"api_base": server.url,
                                                          "api_key": "sk-test"})
                  for n in range(2)]
    run_together(lambda i: validators[i].validate(text, toy_metadata()), 2)
    assert scripted.max_in_flight == 4  # two each, at once


def test_a_busy_server_slows_a_validation_down_instead_of_failing_it(chat_server, retry_waits):
    server = chat_server(ScriptedJudge())
    server.faults = [(429, {"Retry-After": "0.01"})] * 6  # three times max_retries
    with caught_warnings() as caught:
        result = litellm_validator(server.url, max_retries=2).validate(GOOD, toy_metadata())
    assert result.outcome == "pass" and len(server.requests) == 7
    assert retry_waits == [0.01] * 6 and not caught


def test_without_a_deadline_a_busy_server_counts_against_max_retries(chat_server, retry_waits):
    server = chat_server(ScriptedJudge())
    server.faults = [(429, {"Retry-After": "0.01"})] * 6
    result = litellm_validator(server.url, max_retries=2, deadline=None).validate(
        GOOD, toy_metadata())
    assert result.outcome == "fail" and len(server.requests) == 3  # nothing waits forever


def test_a_busy_server_past_the_deadline_is_no_verdict_that_names_it(chat_server):
    server = chat_server(ScriptedJudge())
    server.faults = [(429, {"Retry-After": "0.2"})] * 100
    result = litellm_validator(server.url, max_retries=2, deadline=1.0).validate(
        GOOD, toy_metadata())
    [sentence] = result.metadata["sentences"]
    assert result.outcome == "fail" and sentence["verdict"] == "invalid"
    assert "deadline" in sentence["reason"]
    assert len(server.requests) > 3  # asked again past max_retries, until the deadline


def test_a_retry_after_holds_back_every_validation_of_the_model(chat_server):
    arrivals: list[float] = []
    scripted = ScriptedJudge(reply=lambda prompt: arrivals.append(time.monotonic())
                             or '{"verdict": "supported"}')
    server = chat_server(scripted)
    server.faults = [(429, {"Retry-After": "0.6"})]
    validators = [litellm_validator(server.url, max_calls_in_flight=4) for _ in range(2)]
    first = threading.Thread(target=validators[0].validate, args=(GOOD, toy_metadata()))
    started = time.monotonic()
    first.start()
    shared = gate(("openai/judge", server.url), 4)
    while shared.resumes_in() <= 0:  # the first call has met the 429
        time.sleep(0.01)
    refused = time.monotonic()
    validators[1].validate("It is 330 metres tall.", toy_metadata())
    first.join()
    # no call of either validation reached the server before the pause it asked for was over
    assert len(arrivals) == 2 and min(arrivals) >= refused + 0.5 and refused > started


def test_requests_per_minute_are_held_across_threads_and_validators(chat_server):
    arrivals: list[float] = []
    scripted = ScriptedJudge(reply=lambda prompt: arrivals.append(time.monotonic())
                             or '{"verdict": "supported"}')
    server = chat_server(scripted)
    # 240 a minute: starts at least 0.25 s apart, whichever validator and thread asks
    validators = [litellm_validator(server.url, max_requests_per_minute=240)
                  for _ in range(2)]
    results = run_together(lambda i: validators[i % 2].validate(
        f"Sentence {i} is here.", toy_metadata()), 6)
    assert len(arrivals) == 6 and all(r.metadata["sentences"] for r in results)
    times = sorted(arrivals)
    # measured where the calls arrive: a loaded machine may delay one in transit, which
    # shortens the gap after it but not the span (unlimited, six arrive within ~50 ms)
    assert times[-1] - times[0] >= 5 * 0.25 - 0.1, times
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 0.15, times


def test_tokens_per_minute_space_the_starts_by_what_each_prompt_carries(chat_server):
    from provenance_guard.judges.usage import tokens

    arrivals: list[tuple[float, int]] = []
    scripted = ScriptedJudge(reply=lambda prompt: arrivals.append(
        (time.monotonic(), tokens(prompt))) or '{"verdict": "supported"}')
    server = chat_server(scripted)
    litellm_validator(server.url).validate("It is here.", toy_metadata())  # LiteLLM set up
    arrivals.clear()
    # 12,000 tokens a minute: 200 a second, so a prompt of n tokens holds the next start n / 200 s
    validators = [litellm_validator(server.url, max_tokens_per_minute=12_000) for _ in range(2)]
    results = run_together(lambda i: validators[i % 2].validate(
        f"Sentence {i} is here" + " and here" * (20 * i) + ".", toy_metadata()), 4)
    assert len(arrivals) == 4 and all(r.metadata["sentences"] for r in results)
    arrivals.sort()
    # the reply's few tokens come on top of the prompt's; measured where the calls arrive, so
    # a call delayed in transit may shorten the gap after it, never the span
    held = sum(carried / 200 for _, carried in arrivals[:-1])
    assert arrivals[-1][0] - arrivals[0][0] >= held - 0.1, arrivals
    for (at, carried), (later, _) in zip(arrivals, arrivals[1:], strict=False):
        assert later - at >= 0.8 * carried / 200, arrivals


def test_a_turn_beyond_the_deadline_is_no_verdict_that_names_the_limit(chat_server):
    server = chat_server(ScriptedJudge())
    # 2 a minute: the second text's turn is 30 s after the first, past its 1 s deadline
    validators = [litellm_validator(server.url, max_requests_per_minute=2, deadline=1.0)
                  for _ in range(2)]
    first = validators[0].validate(GOOD, toy_metadata())
    second = validators[1].validate("It is 330 metres tall.", toy_metadata())
    [sentence] = second.metadata["sentences"]
    assert first.outcome == "pass" and len(server.requests) == 1
    assert second.outcome == "fail" and sentence["verdict"] == "invalid"
    assert "max_requests_per_minute" in sentence["reason"]
