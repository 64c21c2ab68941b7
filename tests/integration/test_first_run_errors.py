"""The failures a new user meets first with an LLM judge (no API key, a key refused, a model
name LiteLLM cannot route, a model the server does not have, a server that is not running) are
each one line that names the fix: in the exception from Python, the provider's own error kept
as its cause, and on the command line in the command's flags. The LLM is a real LiteLLM model
over real HTTP to a local server."""

import pytest
from conftest import REPO, ScriptedJudge, caught_warnings, closed_port_url

from provenance_guard import ConfigurationError, JudgeAuthError, ProvenanceLLM, cli

TEXT = "The Eiffel Tower was finished in 1889."
SOURCES = {"sources": ["The Eiffel Tower was finished in 1889. It is 330 metres tall."]}
HISTORY = str(REPO / "examples" / "eiffel_history.txt")
ANSWER = str(REPO / "examples" / "answer.txt")


@pytest.fixture
def no_key(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY", "OPENAI_API_BASE", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def raised(model: str, **llm_kwargs) -> Exception:
    validator = ProvenanceLLM(llm_callable=model, llm_kwargs=llm_kwargs, on_fail="noop",
                              max_retries=0)
    with pytest.raises(ConfigurationError) as caught:
        validator.validate(TEXT, SOURCES)
    return caught.value


def one_line(error: Exception) -> str:
    message = str(error)
    assert "\n" not in message and "litellm." not in message.lower(), message  # not its text
    return message


def command_says(capsys, *flags: str) -> tuple[int, str, str]:
    """The exit status of ``provenance check``, the last line it wrote to stderr, its stdout."""
    capsys.readouterr()
    status = cli.main(["check", "--source", HISTORY, "--text", ANSWER, *flags])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.err.strip().splitlines()[-1], captured.out


def test_no_api_key_names_the_variable_to_set(no_key, chat_server, capsys):
    """Said when the validator is built, as one line with nothing chained to it, not at the
    first validation under a traceback of LiteLLM's."""
    server = chat_server(ScriptedJudge())
    with pytest.raises(JudgeAuthError) as caught:
        ProvenanceLLM(llm_callable="openai/judge", llm_kwargs={"api_base": server.url})
    error = caught.value
    assert error.__cause__ is None and error.__context__ is None
    assert one_line(error) == (
        "no API key for the judge 'openai/judge': set OPENAI_API_KEY, or pass "
        "llm_kwargs['api_key'] (llm_callable='local' is the offline judge and needs none).")
    assert server.requests == []  # nothing was sent without a key
    assert command_says(capsys, "--model", "openai/judge", "--api-base", server.url)[:2] == (2, (
        "provenance: no API key for the judge 'openai/judge': set OPENAI_API_KEY, or pass "
        "--api-key (without --model the offline judge runs and needs none)."))


def test_a_refused_key_names_where_it_came_from(no_key, chat_server, monkeypatch, capsys):
    server = chat_server(ScriptedJudge())
    server.faults = [(401, {})] * 10
    passed = raised("openai/judge", api_base=server.url, api_key="sk-wrong")
    assert one_line(passed) == ("the judge's provider refused the API key for 'openai/judge' "
                                "(HTTP 401): check llm_kwargs['api_key'].")
    assert type(passed.__cause__).__name__ == "AuthenticationError"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    from_environment = raised("openai/judge", api_base=server.url)
    assert one_line(from_environment).endswith("check OPENAI_API_KEY or llm_kwargs['api_key'].")
    assert command_says(capsys, "--model", "openai/judge", "--api-base", server.url)[:2] == (3, (
        "provenance: the judge's provider refused the API key for 'openai/judge' (HTTP 401): "
        "check OPENAI_API_KEY or --api-key."))


def test_a_model_name_litellm_cannot_route_is_refused_before_any_text(capsys):
    with pytest.raises(ConfigurationError) as caught:
        ProvenanceLLM(llm_callable="gpt-4o-minii")
    assert one_line(caught.value).startswith(
        "llm_callable='gpt-4o-minii' is not a model LiteLLM knows how to reach: check the "
        "spelling, or name the provider")
    status, said, _ = command_says(capsys, "--model", "gpt-4o-minii")
    assert status == 2 and said.startswith("provenance: --model='gpt-4o-minii' is not a model")


def test_a_model_the_server_does_not_have(chat_server, capsys):
    server = chat_server(ScriptedJudge())
    server.faults = [(404, {})] * 10
    error = raised("openai/no-such-model", api_base=server.url, api_key="sk-test")
    assert one_line(error) == (
        "the judge's server has no model 'openai/no-such-model' (HTTP 404): check llm_callable "
        "(the model's name as the server knows it) and llm_kwargs['api_base'].")
    assert command_says(capsys, "--model", "openai/no-such-model", "--api-base", server.url,
                        "--api-key", "sk-test")[:2] == (2, (
        "provenance: the judge's server has no model 'openai/no-such-model' (HTTP 404): check "
        "--model (the model's name as the server knows it) and --api-base."))


def test_a_server_that_is_not_running_fails_the_text_and_says_where_it_looked(capsys):
    url = closed_port_url()
    validator = ProvenanceLLM(llm_callable="openai/judge", on_fail="noop", max_retries=0,
                              llm_kwargs={"api_base": url, "api_key": "sk-test"})
    with caught_warnings() as warned:
        result = validator.validate(TEXT, SOURCES)
    summary = [w for w in warned if "counting them as" in w]  # the summary says unreachable too
    assert summary == [f"the judge could not be reached for 1 sentence(s): cannot reach the "
                       f"judge's server at {url} for 'openai/judge': start it, or check "
                       "llm_kwargs['api_base']; counting them as unsupported "
                       "(pass_on_invalid=False)."]
    assert result.outcome == "fail"  # fails closed: no verdict is no pass
    [sentence] = result.metadata["sentences"]
    assert sentence["reason"] == (
        f"the judge failed: JudgeUnreachable: cannot reach the judge's server at {url} for "
        "'openai/judge': start it, or check llm_kwargs['api_base'].")
    # the command asks the server for its model list before anything is read or loaded
    status, said, out = command_says(capsys, "--model", "openai/judge", "--api-base", url,
                                     "--api-key", "sk-test", "--deadline", "5")
    assert (status, said, out) == (3, (
        f"provenance: cannot reach the judge's server at {url} for 'openai/judge' (Connection "
        "refused): start it, or check --api-base."), "")


def test_eval_says_a_missing_key_in_its_flags_and_keeps_what_it_finished(no_key, chat_server,
                                                                        tmp_path, capsys):
    server = chat_server(ScriptedJudge())
    data = tmp_path / "data.jsonl"
    data.write_text('{"id": "a", "output": "The Eiffel Tower was finished in 1889.", '
                    '"sources": ["The Eiffel Tower was finished in 1889."]}\n')
    status = cli.main(["eval", str(data), "--model", "openai/judge", "--api-base", server.url,
                       "--no-cache"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert status == 2 and "Traceback" not in err
    # nothing was finished before: no results file is named (there is none)
    assert err == ("provenance: no API key for the judge 'openai/judge': set OPENAI_API_KEY, or "
                   "pass --api-key (without --model the offline judge runs and needs none).")
    assert not (tmp_path / "data.results.jsonl").exists()
