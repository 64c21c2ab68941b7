"""The model-string path end to end: LiteLLM over real HTTP to a local OpenAI-compatible
server on 127.0.0.1 with scripted replies."""

import time

import pytest
from conftest import SOURCES, ToyEmbedder, passages_of, statement_of
from guardrails import Guard
from guardrails.validator_base import FailResult, PassResult

from provenance_guard import JudgeAuthError, ProvenanceLLM

GOOD = "The Eiffel Tower is in Paris."
BAD = "The Eiffel Tower was painted gold in 2024."


def judge_reply(prompt):
    verdict = "supported" if statement_of(prompt).rstrip(".") in passages_of(prompt) else "unsupported"
    return f'The passages were read.\n{{"reason": "p1", "verdict": "{verdict}"}}'


def meta():
    return {"sources": SOURCES, "embed_function": ToyEmbedder(), "chunk_strategy": "sentence",
            "chunk_size": 1, "chunk_overlap": 0}


def validator_for(server, **kwargs):
    return ProvenanceLLM(llm_callable="openai/test-judge",
                         llm_kwargs={"api_base": server.url, "api_key": "sk-local-test"},
                         **kwargs)


def test_model_string_judges_over_http(chat_server):
    server = chat_server(judge_reply)
    guard = Guard().use(validator_for(server, on_fail="fix"))
    outcome = guard.validate(f"{GOOD} {BAD}", metadata=meta())
    assert outcome.validated_output == GOOD
    assert len(server.requests) == 2
    request = server.requests[0]
    assert request["path"].endswith("/chat/completions")
    assert request["body"]["model"] == "test-judge"
    assert request["auth"] == "Bearer sk-local-test"
    assert "BEGIN STATEMENT" in request["body"]["messages"][0]["content"]


def test_hub_style_replies_are_read(chat_server):
    server = chat_server(lambda prompt: "<analysis>fine</analysis>\n<supported>[YES]</supported>")
    result = validator_for(server).validate(GOOD, meta())
    assert isinstance(result, PassResult)
    assert result.metadata["sentences"][0]["reason"] == "fine"


def test_server_errors_are_retried(chat_server):
    server = chat_server(judge_reply)
    server.faults = [(503, {}), (429, {"Retry-After": "0.3"})]
    validator = validator_for(server)
    validator.judge.backoff = 0.01
    started = time.perf_counter()
    result = validator.validate(GOOD, meta())
    assert isinstance(result, PassResult)
    assert len(server.requests) == 3
    assert time.perf_counter() - started >= 0.3  # Retry-After was honoured


def test_refused_credentials_fail_fast(chat_server):
    server = chat_server(judge_reply)
    server.faults = [(401, {})] * 5
    with pytest.raises(JudgeAuthError, match="API key"):
        validator_for(server).validate(GOOD, meta())
    assert len(server.requests) == 1  # not retried


def test_bad_request_is_not_retried_and_falls_back(chat_server):
    server = chat_server(judge_reply)
    server.faults = [(400, {})] * 5
    with pytest.warns(UserWarning):
        result = validator_for(server).validate(GOOD, meta())
    assert isinstance(result, FailResult)
    assert len(server.requests) == 1
    assert result.metadata["sentences"][0]["decided_by"] == "fallback"


def test_claims_and_batched_verdicts_over_http(chat_server):
    from conftest import ScriptedJudge

    scripted = ScriptedJudge(claims=lambda s: [s.replace("It ", "The Eiffel Tower ")])
    server = chat_server(scripted)  # the same replies, now sent over HTTP
    guard = Guard().use(validator_for(server, validation_method="claim", batch_size=8,
                                      on_fail="noop"))
    outcome = guard.validate(f"{GOOD} It is 330 metres tall. {BAD}", metadata=meta())
    assert outcome.validation_passed is False
    kinds = ["claims" if "BEGIN SENTENCE>>" in r["body"]["messages"][0]["content"] else "batch"
             for r in server.requests]
    assert kinds == ["claims"] * 3 + ["batch"]  # 3 extractions, then one call for 3 claims
    assert scripted.batches == [[GOOD, "The Eiffel Tower is 330 metres tall.", BAD]]
