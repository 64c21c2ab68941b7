"""Over real HTTP (LiteLLM to a local OpenAI-compatible server): a reply whose reason argues
with its verdict, a verdict word with anything added, or a verdict given twice is unreadable,
never its verdict word; and ``pass_on_invalid`` passes what is unreadable, never a judge caught
on a control statement or one not sure enough (``min_support_probability``)."""

from __future__ import annotations

import json
import math

import pytest
from conftest import _read_numbers, batch_items, litellm_validator, toy_metadata

TEXT = "The Eiffel Tower is in Paris. It was finished in 1889."


def answering(entry):
    """A judge that reads the control as a careful one does (a passage sentence with a number
    changed is contradicted) and answers every other statement with ``entry``."""
    def reply(prompt: str) -> str:
        items = batch_items(prompt)
        entries = []
        for n, passages, statement in items:
            if _read_numbers(statement, passages) == "contradicted":
                entries.append(f'{{"id": {n}, "verdict": "contradicted", "reason": "[1]"}}')
            else:
                entries.append(entry(n))
        return '{"verdicts": [' + ", ".join(entries) + "]}"
    return reply


@pytest.mark.parametrize("entry,said", [
    ('"verdict": "supported", "reason": "Contradicted: [1] gives another year."',
     "its reason says 'Contradicted"),
    ('"verdict": "supported", "reason": "[1] never mentions it, so this is unsupported."',
     "its reason says"),
    ('"verdict": "supported", "reason": "[2] gives a different year."', "its reason says"),
    ('"verdict": "supported?", "reason": "[1] says so."', None),
    ('"verdict": "SUPPORTED!!", "reason": "[1] says so."', None),
    ('"verdict": "unsupported", "verdict": "supported", "reason": "[1]"', "twice"),
    ('"verdict": "supported", "label": "unsupported", "reason": "[1]"', "verdict under"),
])
def test_a_reply_that_argues_with_itself_is_unreadable_and_fails(chat_server, entry, said):
    server = chat_server(answering(lambda n: f'{{"id": {n}, {entry}}}'))
    validator = litellm_validator(server.url, on_fail="noop", cache_size=0, max_retries=0)
    report = validator.check(TEXT, toy_metadata())
    assert not report.passed
    for result in report.sentences:
        assert str(result.verdict.label) == "invalid", result.verdict
        if said is not None:
            assert said in result.verdict.reason, result.verdict.reason


def test_a_reason_that_reports_the_passages_words_is_no_argument(chat_server):
    entry = '"verdict": "supported", "reason": "[1] says it; nothing contradicts it."'
    server = chat_server(answering(lambda n: f'{{"id": {n}, {entry}}}'))
    report = litellm_validator(server.url, on_fail="noop", cache_size=0).check(
        TEXT, toy_metadata())
    assert report.passed


def test_pass_on_invalid_passes_an_unreadable_reply_only(chat_server):
    server = chat_server(answering(lambda n: f'{{"id": {n}, "verdict": "perhaps"}}'))
    report = litellm_validator(server.url, on_fail="noop", cache_size=0, max_retries=0,
                               pass_on_invalid=True).check(TEXT, toy_metadata())
    assert report.passed  # unreadable: what pass_on_invalid is for


def test_pass_on_invalid_never_passes_a_judge_caught_on_its_control(chat_server):
    def careless(prompt: str) -> str:  # supported, the control too
        return json.dumps({"verdicts": [{"id": n, "verdict": "supported", "reason": "[1]"}
                                        for n, _, _ in batch_items(prompt)]})

    server = chat_server(careless)
    report = litellm_validator(server.url, on_fail="noop", cache_size=0, pass_on_invalid=True,
                               structured_replies="on").check(TEXT, toy_metadata())
    assert not report.passed
    assert all("control statement" in r.verdict.reason and r.verdict.withheld
               for r in report.sentences)


def test_pass_on_invalid_never_passes_a_verdict_below_the_probability_floor(chat_server):
    server = chat_server(answering(lambda n: f'{{"id": {n}, "verdict": "supported", '
                                             '"reason": "[1] says so."}'))
    server.logprob = math.log(0.97)  # each character: a verdict word of 9 is about 0.76
    report = litellm_validator(server.url, on_fail="noop", cache_size=0, pass_on_invalid=True,
                               min_support_probability=0.9).check(TEXT, toy_metadata())
    assert not report.passed
    assert all("min_support_probability=0.9" in r.verdict.reason and r.verdict.withheld
               for r in report.sentences)


def test_a_callable_that_answers_yes_to_everything_is_caught_once_asked_alone():
    """A bare "yes" to a batched prompt makes the validator ask one statement a call; with
    control_statements="on" each of those calls has its control asked beside it, so a judge
    that says yes to everything is caught, whatever the form it is asked in."""
    from provenance_guard import ProvenanceLLM

    calls: list[str] = []

    def yes(prompt: str) -> str:
        calls.append(prompt)
        return "yes"

    validator = ProvenanceLLM(llm_callable=yes, control_statements="on", on_fail="noop",
                              cache_size=0)
    report = validator.check(TEXT, toy_metadata())
    assert not report.passed
    assert all("control statement" in r.verdict.reason for r in report.sentences)
    assert len(calls) == 1 + 2 * 2  # the batch, then each statement and its control


def test_a_judge_that_answers_controls_by_their_shape_is_caught(chat_server):
    """A judge that calls "contradicted" whatever copies a passage sentence with one word
    changed, and "supported" everything else, meets controls of another shape (one thing's
    subject, another's figure) about half the time, and is caught there."""
    import re

    from conftest import SOURCES

    passages = [s for source in SOURCES for s in re.split(r"(?<=\.) ", source)]

    def one_word_changed(statement: str) -> bool:
        words = statement.rstrip(".").split()
        return any(len(p.rstrip(".").split()) == len(words) and sum(
            a != b for a, b in zip(p.rstrip(".").split(), words, strict=True)) == 1
            for p in passages)

    def by_shape(prompt: str) -> str:
        return json.dumps({"verdicts": [
            {"id": n, "verdict": "contradicted" if one_word_changed(s) else "supported",
             "reason": "[1]"} for n, _, s in batch_items(prompt)]})

    server = chat_server(by_shape)
    texts = [f"The Eiffel Tower is in Paris. It was painted gold in {2020 + n}." for n in range(8)]
    caught = 0
    for text in texts:
        report = litellm_validator(server.url, on_fail="noop", cache_size=0,
                                   structured_replies="on").check(text, toy_metadata())
        if report.usage.caught_calls:
            caught += 1
            assert not report.passed
    assert caught >= 2, caught
