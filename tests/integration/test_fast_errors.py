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
status = cli.main(sys.argv[1:])
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
