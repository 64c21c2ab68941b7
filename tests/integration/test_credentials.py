"""A key given to the judge reaches the judge and nothing else: no span Guardrails records
(an in-memory OpenTelemetry exporter), no ``guard.to_dict()`` (what guardrails-api stores), no
result metadata, ``Report``, HTML page, log record or warning, and no error raised when the
server refuses the key, even one whose message echoes it. A guard rebuilt from the stored one
reaches its judge with the key from the environment. Over real HTTP to a local server."""

from __future__ import annotations

import json
import logging
import traceback
import warnings

import pytest
from conftest import GOOD, SOURCES, ScriptedJudge, agrees

from provenance_guard import ProvenanceLLM, Report
from provenance_guard.errors import JudgeAuthError

KEY = "sk-pg-test-3f9c1e5b7a2d4c6e"  # recognisable anywhere it might be written
TEXT = "The Eiffel Tower is in Paris. It was painted gold in 2024."


@pytest.fixture
def spans():
    """Every span recorded meanwhile, from the process's tracer provider."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield exporter
    exporter.shutdown()


def _judged(url: str):
    from guardrails import Guard

    return Guard().use(ProvenanceLLM(
        llm_callable="openai/judge", on_fail="noop",
        llm_kwargs={"api_base": url, "api_key": KEY, "temperature": 0,
                    "extra_headers": {"X-Api-Token": KEY}}))


def test_the_key_reaches_the_judge_and_is_written_nowhere_else(chat_server, spans, caplog):
    from provenance_guard.evaluation.examples import Checked, Example
    from provenance_guard.evaluation.html_report import render_check

    server = chat_server(ScriptedJudge(rule=lambda statement, passages: "gold" not in statement))
    caplog.set_level(logging.DEBUG)
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        guard = _judged(server.url)
        outcome = guard.validate(TEXT, metadata={"sources": SOURCES})
    assert server.requests and server.requests[0]["auth"] == f"Bearer {KEY}"  # the judge has it
    report = Report.from_guard(guard)
    logs = guard.history.last.iterations.last.outputs.validator_logs
    assert not outcome.validation_passed and logs  # the unsupported sentence: a reason written
    recorded = spans.get_finished_spans()
    assert any("validator.init.llm_kwargs" in (span.attributes or {}) for span in recorded)
    written = {
        "spans": json.dumps([json.loads(span.to_json()) for span in recorded]),
        "guard.to_dict()": json.dumps(guard.to_dict(), default=str),
        "the result": json.dumps([log.validation_result.model_dump() for log in logs], default=str)
        + json.dumps(report.metadata(), default=str),
        "the Report": repr(report),
        "the HTML": render_check(Checked(Example("t", TEXT, SOURCES), report, report.passed),
                                 ["a", "b", "c"], "openai/judge"),
        "the logs": caplog.text,
        "the warnings": "\n".join(str(w.message) for w in warned),
    }
    assert [where for where, text in written.items() if KEY in text] == []
    assert "temperature" in written["guard.to_dict()"]  # the other arguments are kept


def test_a_refused_key_is_not_in_the_error_even_when_the_server_echoes_it(chat_server):
    server = chat_server(agrees)
    server.faults = [(401, {"message": f"Incorrect API key provided: {KEY}"})]
    with pytest.raises(JudgeAuthError) as raised:
        _judged(server.url).validate(TEXT, metadata={"sources": SOURCES})
    shown = "".join(traceback.format_exception(raised.value))
    assert "refused" in shown and KEY not in shown, shown


def test_a_guard_rebuilt_from_the_stored_one_takes_the_key_from_the_environment(
        chat_server, monkeypatch):
    from guardrails import Guard

    server = chat_server(agrees)
    stored = _judged(server.url).to_dict()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    rebuilt = Guard.from_dict(stored)
    rebuilt.validate(TEXT, metadata={"sources": SOURCES})
    assert server.requests[-1]["auth"] == "Bearer sk-from-the-environment"


def test_a_key_the_judge_echoes_in_its_reply_is_in_no_reason_or_error(chat_server):
    """A judge whose reply quotes the request's key (in a reason, or unreadable): the verdict's
    reason, the failure message Guardrails raises and the stored guard have none of it."""
    from guardrails import Guard
    from guardrails.errors import ValidationError

    said = f'{{"verdict": "unsupported", "reason": "the header said Bearer {KEY}"}}'
    server = chat_server(lambda prompt: said)
    guard = Guard().use(ProvenanceLLM(
        llm_callable="openai/judge", on_fail="exception",
        llm_kwargs={"api_base": server.url, "api_key": KEY}))
    with pytest.raises(ValidationError) as raised:
        guard.validate(GOOD, metadata={"sources": SOURCES})
    report = Report.from_guard(guard)
    written = (str(raised.value) + json.dumps(report.metadata(), default=str)
               + json.dumps(guard.to_dict(), default=str))
    assert "[credential]" in report.sentences[0].verdict.reason
    assert KEY not in written


def test_credentials_in_lists_and_addresses_are_left_out_of_what_is_stored():
    from guardrails import Guard

    password = "pw-in-the-address-9f3c"
    guard = Guard().use(ProvenanceLLM(
        llm_callable="openai/judge", on_fail="noop", llm_kwargs={
            "api_base": f"http://user:{password}@127.0.0.1:9/v1?api_key={KEY}x",
            "api_key": "none", "max_tokens": 400,
            "extra_body": {"api_keys": [KEY], "tokens": [{"refresh_token": KEY + "r"}]}}))
    stored = json.dumps(guard.to_dict(), default=str)
    assert KEY not in stored and password not in stored
    kept = guard._validators[0].get_args()["llm_kwargs"]
    assert kept["max_tokens"] == 400 and kept["api_base"].startswith("http://127.0.0.1:9/v1")
