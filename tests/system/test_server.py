"""The Guardrails server end to end: `guardrails start --config examples/config.py` in a child
process on 127.0.0.1, spoken to over real HTTP. It lists the guard with its validator and
validates texts against the sources sent in the request's metadata, offline."""

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import REPO

import provenance_guard

GUARD = "provenance"  # the guard's id and name in examples/config.py
STARTUP_SECONDS = 120  # imports (torch, sentence-transformers) take ~10-20 s on 2 cores
SOURCES = [(REPO / "examples" / name).read_text() for name in ("eiffel_history.txt", "eiffel_visiting.txt")]
ANSWER = (REPO / "examples" / "answer.txt").read_text()
CONTRADICTED = "About 9 million people visit it each year."
UNSUPPORTED = "It was painted gold for the 2024 Olympic Games."
SUPPORTED = ("The tower has three levels open to visitors. "
             "Visitors can climb the stairs to the second level.")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(base: str, path: str, body: dict | None = None) -> tuple[int, object]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def validate(base: str, text: str) -> dict:
    """The validate endpoint's answer for ``text`` against SOURCES, given in the metadata."""
    status, outcome = request(base, f"/guards/{GUARD}/validate",
                              {"llm_output": text, "metadata": {"sources": SOURCES}})
    assert status == 200, outcome
    return outcome


def wait_until_up(base: str, process: subprocess.Popen, stderr: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with status {process.returncode}:\n{stderr.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(base + "/health-check", timeout=2) as reply:
                if reply.status == 200:
                    return
        except urllib.error.URLError as error:
            if getattr(error.reason, "errno", None) == errno.ENETUNREACH:
                pytest.fail("127.0.0.1 is unreachable: the loopback interface is down "
                            "(under `unshare -n`, run `ip link set lo up` first).")
        except OSError:
            pass  # not listening yet
        time.sleep(0.25)
    pytest.fail(f"the server did not answer within {STARTUP_SECONDS} s:\n{stderr.read_text()[-4000:]}")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # Without guardrails-api, `guardrails start` would pip-install it: never from a test.
    pytest.importorskip("guardrails_api", reason="the server is in the dev extra: pip install -e '.[dev]'")
    home = tmp_path_factory.mktemp("server-home")
    (home / ".guardrailsrc").write_text("enable_metrics=false\n")  # no telemetry
    closed = free_port()
    env = {
        **os.environ,
        "HOME": str(home),
        # The `guardrails` command imports Guardrails before the config imports us, so
        # Guardrails' own check for nltk's punkt data runs first; the directory we ship answers
        # it, instead of an attempt to download.
        "NLTK_DATA": str(Path(provenance_guard.__file__).parent / "_nltk_data"),
        # `guardrails start` asks PyPI for a newer version (and ignores any error): a proxy
        # that refuses keeps that, and anything else, off the network.
        "HTTP_PROXY": f"http://127.0.0.1:{closed}",
        "HTTPS_PROXY": f"http://127.0.0.1:{closed}",
        "NO_PROXY": "127.0.0.1,localhost",
    }
    port = free_port()
    stdout, stderr = home / "server.out", home / "server.err"
    # The installed command, run by this interpreter: the server is the code under test even
    # where the script's #! line names another Python.
    command = [sys.executable, str(Path(sys.executable).parent / "guardrails"), "start",
               "--config", str(REPO / "examples" / "config.py"), "--port", str(port)]
    with open(stdout, "w") as out, open(stderr, "w") as err:
        process = subprocess.Popen(command, cwd=home, env=env, stdout=out, stderr=err,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process, stderr)
        yield base, stderr
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_listens_on_loopback_only(server):
    base, stderr = server
    assert f"Uvicorn running on {base} " in stderr.read_text()


def test_lists_the_guard_with_its_validator(server):
    base, _ = server
    status, guards = request(base, "/guards")
    assert status == 200, guards
    [guard] = guards
    assert (guard["id"], guard["name"]) == (GUARD, GUARD)
    [validator] = guard["validators"]
    assert validator["id"] == "provenance-guard/provenance_llm"
    assert validator["onFail"] == "noop"
    assert validator["kwargs"]["llm_callable"] == "local"


def test_supported_text_passes(server):
    outcome = validate(server[0], SUPPORTED)
    assert outcome["validationPassed"] is True
    assert outcome["validationSummaries"] == []
    assert outcome["validatedOutput"] == SUPPORTED


def test_unsupported_sentences_fail_by_name(server):
    outcome = validate(server[0], ANSWER)
    assert outcome["validationPassed"] is False
    assert outcome["validatedOutput"] == ANSWER  # on_fail="noop": the client decides
    [summary] = outcome["validationSummaries"]
    assert (summary["validatorName"], summary["validatorStatus"]) == ("ProvenanceLLM", "fail")
    reason = summary["failureReason"]
    # each with what it gets wrong (its kind)
    assert f"- {CONTRADICTED} [contradicted (number):" in reason
    assert f"- {UNSUPPORTED} [unsupported (addition):" in reason
    assert "three levels" not in reason  # the sentence a source states is not named
    spans = {ANSWER[span["start"]:span["end"]]: span["reason"] for span in summary["errorSpans"]}
    assert spans[CONTRADICTED].startswith("contradicted (number):")
    assert spans[UNSUPPORTED].startswith("unsupported (addition):") and len(spans) == 3
