"""A reply cut short is not a judge that cannot batch: where the provider says a reply ended at
its length limit (``finish_reason: "length"``), the verdicts it holds in full are kept, the rest
asked again alone, a cut single reply asked once more with more room, and the reason says where
it was cut and which setting raises the limit. Batching is turned off only by evidence, and a
call the deadline cuts off is counted in the usage. Over real HTTP, against a local server."""

from __future__ import annotations

import json

from conftest import (
    GOOD,
    ScriptedJudge,
    batch_items,
    caught_warnings,
    litellm_validator,
    toy_metadata,
)

from provenance_guard import ProvenanceLLM
from provenance_guard.judges.kinds import BATCH, ONE

FOUR = ("The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall. "
        "It houses the Mona Lisa.")
TWO = "The tower has a lift. The tower has a shop."  # sentences no earlier text had


def all_supported(prompt: str) -> str:
    """Every statement supported; a batch as one JSON entry per statement."""
    items = batch_items(prompt)
    if items:
        entries = [{"id": n, "reason": "scripted", "verdict": "supported"} for n, _, _ in items]
        return "Batch.\n" + json.dumps({"verdicts": entries})
    return '{"reason": "scripted", "verdict": "supported"}'


def cut_after_entry(count: int, entries: int) -> int:
    """The characters of ``all_supported``'s reply to a batch of ``count`` up to ``entries``
    whole entries, and a few of the next."""
    reply = "Batch.\n" + json.dumps({"verdicts": [
        {"id": n, "reason": "scripted", "verdict": "supported"} for n in range(1, count + 1)]})
    end = 0
    for _ in range(entries):
        end = reply.index("}", end) + 1
    return end + 8


def max_tokens(server) -> list:
    return [request["body"].get("max_tokens") for request in server.requests]


def test_a_cut_batch_keeps_its_whole_verdicts_and_asks_the_rest_alone(chat_server):
    server = chat_server(all_supported)
    server.faults = [("length", cut_after_entry(4, 2))]
    validator = litellm_validator(server.url)
    with caught_warnings() as warned:
        first = validator.check(FOUR, toy_metadata())
        second = validator.check(TWO, toy_metadata())
    assert [str(s.label) for s in first.sentences] == ["supported"] * 4
    assert [s.verdict.decided_by for s in first.sentences] == ["llm"] * 4
    # one batch, cut after two entries; the other two asked alone, each with a verdict's room
    assert max_tokens(server)[:3] == [BATCH.room_for(4), ONE.room, ONE.room]
    assert len(server.requests) == 4 and batch_items(
        server.requests[3]["body"]["messages"][-1]["content"])  # the next text: batched still
    assert first.summary.one_statement_per_call is None and not warned
    assert [str(s.label) for s in second.sentences] == ["supported"] * 2


def test_a_single_reply_cut_short_is_asked_once_with_more_room_then_named(chat_server):
    server = chat_server(all_supported)
    server.faults = [("length", 12), ("length", 12)]
    report = litellm_validator(server.url, batch_size=1).check(GOOD, toy_metadata())
    [sentence] = report.sentences
    assert max_tokens(server) == [ONE.room, 4 * ONE.room]
    assert str(sentence.label) == "invalid" and sentence.verdict.decided_by == "fallback"
    assert "cut at 12 tokens" in sentence.verdict.reason
    assert "llm_kwargs['max_tokens']" in sentence.verdict.reason


def test_more_room_is_enough_when_the_first_reply_was_cut(chat_server):
    server = chat_server(all_supported)
    server.faults = [("length", 12)]
    report = litellm_validator(server.url, batch_size=1).check(GOOD, toy_metadata())
    assert str(report.sentences[0].label) == "supported" and len(server.requests) == 2


def test_a_max_tokens_the_user_set_is_kept_and_named(chat_server):
    server = chat_server(all_supported)
    server.faults = [("length", 12)]
    report = litellm_validator(server.url, {"max_tokens": 50}, batch_size=1).check(
        GOOD, toy_metadata())
    reason = report.sentences[0].verdict.reason
    assert max_tokens(server) == [50]  # not asked again: the limit is the user's
    assert "cut at 12 tokens" in reason and "raise llm_kwargs['max_tokens']" in reason


def test_a_litellm_model_is_not_switched_to_one_statement_per_call_by_one_bad_reply(
        chat_server):
    replies = iter(["Sure, they all look fine."])

    def judge(prompt: str) -> str:
        return next(replies, None) or all_supported(prompt)

    server = chat_server(judge)
    validator = litellm_validator(server.url)
    with caught_warnings() as warned:
        first = validator.check(FOUR, toy_metadata())
        validator.check(TWO, toy_metadata())
    assert [str(s.label) for s in first.sentences] == ["supported"] * 4  # asked again alone
    assert batch_items(server.requests[-1]["body"]["messages"][-1]["content"])
    assert first.summary.one_statement_per_call is None
    assert not [w for w in warned if "one statement per call" in w]


def test_a_callable_that_never_reads_a_batch_is_switched_and_the_report_says_why():
    judge = ScriptedJudge(reply="<supported>[YES]</supported>")
    validator = ProvenanceLLM(llm_callable=judge, on_fail="noop")
    with caught_warnings() as warned:
        report = validator.check(FOUR, toy_metadata())
    why = report.summary.one_statement_per_call
    assert why is not None and "<supported>[YES]</supported>" in why and "4 statements" in why
    assert report.metadata()["groundedness"]["one_statement_per_call"] == why
    [said] = [w for w in warned if "one statement per call" in w]
    assert "<supported>[YES]</supported>" in said and "batch_size=1" in said


def test_a_call_the_deadline_cuts_off_is_counted_in_the_usage(chat_server):
    server = chat_server(all_supported)
    server.faults = [("slow", 8.0)]  # a deadline a busy machine still sends the call within
    report = litellm_validator(server.url, deadline=2).check(GOOD, toy_metadata())
    usage = report.usage
    assert str(report.sentences[0].label) == "invalid"
    assert (usage.calls, usage.cut_off_calls) == (1, 1) and usage.prompt_tokens > 0
    assert usage.cost_usd is None and "cut off by the deadline" in usage.line()
