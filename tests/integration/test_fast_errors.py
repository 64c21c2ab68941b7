"""The first mistakes with an LLM judge on the command line (no key set, a key the server
refuses, a server that is not running) are said before the command loads LiteLLM, Guardrails or
PyTorch, which take seconds each, and before any text is read: in a fresh process, as a user runs
it, with the exit status docs/cli.md gives (2: set up wrong; 3: no verdict can be had). The
server is a real OpenAI-compatible server over HTTP on 127.0.0.1."""

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO, ScriptedJudge, closed_port_url

HISTORY = str(REPO / "examples" / "eiffel_history.txt")
ANSWER = str(REPO / "examples" / "answer.txt")
HEAVY = ("litellm", "guardrails", "torch", "sentence_transformers", "openai")

SCRIPT = f"""
import json, sys
from provenance_guard import cli
try:
    status = cli.main(sys.argv[1:])
except SystemExit as exited:  # a usage error
    status = exited.code
print(json.dumps({{"status": status, "loaded": sorted(
    name for name in sys.modules if name in {HEAVY!r})}}))
"""


def command(*flags: str, **environment: str) -> tuple[int, str, list[str]]:
    """``provenance check`` in a fresh process: its status, its last line on stderr, and which
    heavy modules it had loaded when it ended."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("OPENAI_", "ANTHROPIC_"))} | environment
    done = subprocess.run([sys.executable, "-c", SCRIPT, "check", "--source", HISTORY,
                           "--text", ANSWER, *flags], capture_output=True, text=True,
                          timeout=120, env=env, cwd=REPO)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["status"], (done.stderr.strip().splitlines() or [""])[-1], result["loaded"]


@pytest.mark.parametrize("model, variable", [("gpt-4o-mini", "OPENAI_API_KEY"),
                                             ("claude-haiku-4-5", "ANTHROPIC_API_KEY"),
                                             ("anthropic/claude-3-5-haiku-latest",
                                              "ANTHROPIC_API_KEY")])
def test_a_key_not_set_is_a_configuration_error_said_before_anything_loads(model, variable):
    assert command("--model", model) == (2, (
        f"provenance: no API key for the judge {model!r}: set {variable}, or pass --api-key "
        "(without --model the offline judge runs and needs none)."), [])


def test_a_key_the_server_refuses_is_said_before_any_text_is_judged(chat_server):
    server = chat_server(ScriptedJudge())
    server.key = "sk-right"
    status, said, loaded = command("--model", "openai/judge", "--api-base", server.url,
                                   "--api-key", "sk-wrong")
    assert (status, said, loaded) == (3, (
        "provenance: the judge's provider refused the API key for 'openai/judge' (HTTP 401): "
        "check --api-key."), [])
    assert server.listed == ["Bearer sk-wrong"] and server.requests == []  # no judge call
    status, said, _ = command("--model", "openai/judge", "--api-base", server.url,
                              OPENAI_API_KEY="sk-wrong")
    assert status == 3 and said.endswith("check OPENAI_API_KEY or --api-key.")


def test_a_server_that_is_not_running_is_said_before_any_text_is_read():
    url = closed_port_url()
    assert command("--model", "openai/judge", "--api-base", url, "--api-key", "sk-test") == (3, (
        f"provenance: cannot reach the judge's server at {url} for 'openai/judge' (Connection "
        "refused): start it, or check --api-base."), [])


def test_a_server_that_answers_goes_on_to_judge_the_text(chat_server):
    """The model list asked, the key it accepts: the command judges as before (one call)."""
    server = chat_server(ScriptedJudge())
    server.key = "sk-right"
    status, said, loaded = command("--model", "openai/judge", "--api-base", server.url,
                                   "--api-key", "sk-right")
    assert status in (0, 1) and "litellm" in loaded
    assert server.listed == ["Bearer sk-right"] and len(server.requests) == 1


def test_credentials_in_the_address_are_never_shown(answering_server):
    """userinfo in --api-base is LiteLLM's to send (the model list is not asked); a credential
    in its query is scrubbed from what the command says."""
    url = closed_port_url()
    status, said, _ = command("--model", "openai/judge", "--api-base",
                              f"{url}?api_key=sk-query-secret-123", "--api-key", "sk-test")
    assert status == 3 and "sk-query-secret-123" not in said and "cannot reach" in said
    base, state = answering_server
    with_user = base.replace("http://", "http://user:sk-pass-secret-456@") + "/v1"
    status, said, _ = command("--model", "openai/judge", "--api-base", with_user,
                              "--api-key", "sk-test", "--deadline", "5")
    assert "sk-pass-secret-456" not in said and state["paths"] == []


@pytest.mark.parametrize("address", ["127.0.0.1:9/v1", "localhost:8080/v1", "ftp://127.0.0.1/v1"])
def test_an_address_that_is_not_http_is_a_configuration_error(address):
    assert command("--model", "openai/judge", "--api-base", address, "--api-key", "sk-test") == (
        2, (f"provenance: the judge's server address {address!r} is not an http:// or https:// "
            "address: check --api-base (for example http://127.0.0.1:8080/v1)."), [])


def test_https_to_a_server_without_tls_is_said_at_once(answering_server):
    base, _ = answering_server
    address = base.replace("http://", "https://") + "/v1"
    status, said, loaded = command("--model", "openai/judge", "--api-base", address,
                                   "--api-key", "sk-test")
    assert (status, loaded) == (3, []) and "no TLS there" in said and "http://" in said


def test_a_server_that_answers_slowly_is_left_to_the_judge_s_call(chat_server, monkeypatch):
    """Connected but slow to list its models is not 'cannot reach': the command goes on, and
    the judge's own call (with the deadline) decides."""
    from provenance_guard.cli import preflight

    server = chat_server(ScriptedJudge())
    monkeypatch.setattr(preflight, "SECONDS", 0.001)  # every answer is late
    assert preflight.check("openai/judge", server.url, "sk-test") is None


def test_an_empty_model_is_refused_not_read_as_the_offline_judge(capsys):
    from provenance_guard import cli

    with pytest.raises(SystemExit) as exited:
        cli.main(["check", "--source", HISTORY, "--text", ANSWER, "--model", ""])
    assert exited.value.code == 2
    assert "--model is empty: name a model" in capsys.readouterr().err


def test_meta_eval_checks_its_judge_too_and_reads_no_verdict_as_no_result(chat_server, capsys,
                                                                          monkeypatch):
    from provenance_guard import cli

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    url = closed_port_url()
    assert cli.main(["meta-eval", "--judge", "openai/judge", "--api-base", url,
                     "--api-key", "sk-test"]) == 3
    assert "cannot reach the judge's server" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:  # no OPENAI_API_KEY: a usage error
        cli.main(["meta-eval", "--first-judge", "gpt-4o-mini"])
    assert exited.value.code == 2
    assert "no API key for the judge 'gpt-4o-mini'" in capsys.readouterr().err
    server = chat_server(lambda prompt: "I cannot tell.")  # nothing a reader can take
    assert cli.main(["meta-eval", "--model", "openai/judge", "--api-base", server.url,
                     "--api-key", "sk-test", "--json"]) == 3
    assert "no verdict could be read for any of the" in capsys.readouterr().err


def test_eval_names_no_results_file_that_does_not_exist(tmp_path, capsys, monkeypatch):
    from provenance_guard import cli

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    data = tmp_path / "data.jsonl"
    data.write_text('{"id": "a", "output": "It is tall.", "sources": ["It is tall."]}\n')
    assert cli.main(["eval", str(data), "--model", "gpt-4o-mini"]) == 2
    err = capsys.readouterr().err
    assert "no API key" in err and "finished samples" not in err


def test_a_setting_out_of_range_is_a_usage_error_before_the_judge_is_asked(chat_server):
    server = chat_server(ScriptedJudge())
    status, said, loaded = command("--model", "openai/judge", "--api-base", server.url,
                                   "--api-key", "sk-test", "--top-k", "0")
    assert (status, loaded) == (2, []) and "--top-k" in said
    assert server.listed == [] and server.requests == []
