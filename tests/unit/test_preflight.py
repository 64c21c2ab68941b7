"""The command line's checks before it loads anything heavy (provenance_guard.cli.preflight):
the key variables it knows agree with LiteLLM's, and what it reads from a model list."""

import litellm
import pytest

from provenance_guard.cli import exits, preflight
from provenance_guard.settings import in_flags


@pytest.mark.parametrize("provider, variable", sorted(preflight.KEY_VARIABLES.items()))
def test_each_key_variable_is_the_one_litellm_asks_for(provider, variable, monkeypatch):
    monkeypatch.delenv(variable, raising=False)
    found = litellm.validate_environment(f"{provider}/some-model")
    assert found["missing_keys"] == [variable]


@pytest.mark.parametrize("model, provider", [
    ("gpt-4o-mini", "openai"), ("o3-mini", "openai"), ("openai/anything", "openai"),
    ("claude-haiku-4-5", "anthropic"), ("groq/llama3-8b-8192", "groq"),
    ("claude-3-5-haiku-20241022", None), ("gpt-4o-minii", None), ("ollama/llama3.1", None),
    ("bedrock/anthropic.claude-v2", None), ("mistral-large", None), ("my-model", None)])
def test_a_provider_is_named_only_where_litellm_routes_the_name_there(model, provider):
    assert preflight.provider(model) == provider
    if provider is not None:
        assert litellm.get_llm_provider(model)[1] == provider


def test_every_bare_name_it_routes_litellm_routes_there_too():
    named = {model: preflight.provider(model) for model in preflight._model_map()
             if "/" not in model and not model.startswith("ft:")}
    routed = {model: name for model, name in named.items() if name is not None}
    assert len(routed) > 100  # the map was read
    for model, name in routed.items():
        assert litellm.get_llm_provider(model)[1] == name, model


def test_a_provider_it_does_not_know_is_left_to_litellm(monkeypatch):
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)
    assert preflight.check("ollama/llama3.1", None, None) is None
    assert preflight.check("vertex_ai/gemini-pro", None, None) is None


@pytest.fixture
def models_server(answering_server):
    """An OpenAI-like model list on 127.0.0.1: ``answer["reply"]`` is (status, body)."""
    base, answer = answering_server
    answer["reply"] = (200, {"object": "list", "data": [{"id": "gpt-4o-mini"}]})
    return f"{base}/v1", answer


def test_openai_s_own_list_tells_a_model_it_does_not_have(models_server):
    base, _ = models_server
    stop = preflight._ask_models("gpt-4o-minii", base, "sk-test", own=True)
    assert stop == preflight.Stop(
        f"the judge's server has no model 'gpt-4o-minii': check --model (the model's name as "
        f"{base} lists it).", exits.USAGE)
    assert preflight._ask_models("gpt-4o-mini", base, "sk-test", own=True) is None
    assert preflight._ask_models("openai/gpt-4o-mini", base, "sk-test", own=True) is None


def test_another_server_s_list_decides_nothing(models_server):
    """llama.cpp's server lists its model file's name and answers to any model name."""
    base, _ = models_server
    assert preflight._ask_models("openai/smollm2", base, "none", own=False) is None


@pytest.mark.parametrize("reply", [(404, "not found"), (500, "oops"), (200, "not json"),
                                   (200, {"data": "not a list"}), (200, ["a", "list"])])
def test_a_list_it_cannot_read_leaves_the_question_to_the_first_call(models_server, reply):
    base, answer = models_server
    answer["reply"] = reply
    assert preflight._ask_models("gpt-4o-mini", base, "sk-test", own=True) is None


@pytest.mark.parametrize("status", [401, 403])
def test_a_refusal_is_no_verdict(models_server, status, monkeypatch):
    base, answer = models_server
    answer["reply"] = (status, {"error": {"message": "bad key"}})
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    stop = preflight._ask_models("gpt-4o-mini", base, "sk-wrong", own=True)
    assert stop is not None and stop.status == exits.NO_VERDICTS
    assert in_flags(stop.message) == (
        f"the judge's provider refused the API key for 'gpt-4o-mini' (HTTP {status}): check "
        "--api-key.")
