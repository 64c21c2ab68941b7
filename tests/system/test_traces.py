"""Each judged sentence in the trace a team already reads: a real Guard whose process exports
OpenTelemetry spans over OTLP to Arize Phoenix started here on 127.0.0.1 (from PyPI, in an
environment of its own: tools/phoenix_server.py), judged by a LiteLLM model over real HTTP to
a scripted server. Phoenix's REST API then gives back the validator's span with one child per
sentence, its verdict and kind; the key given in ``llm_kwargs`` is nowhere in what Phoenix
stored. Its web page for that trace is rendered in a real browser (the docs' screenshot)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import REPO, ChatServer, batch_items

pytestmark = [pytest.mark.system, pytest.mark.trace_sink]

sys.path.insert(0, str(REPO / "tools"))
import phoenix_server  # noqa: E402 - the tool beside the package

SECRET = "sk-trace-test-5c1f0e9a7b2d4e88"
PROJECT = "provenance-trace-test"
SOURCES = ["The Eiffel Tower is 330 metres tall. It is in Paris. It opened in 1889."]
TEXT = "The Eiffel Tower is 300 metres tall. It is in Paris. It opened in 1887."


def judge(prompt: str) -> str:
    """Reads its passages as a careful model would: a changed number is contradicted (a kind
    "number"), a changed year too ("date"), the rest supported."""
    def entry(statement: str) -> dict:
        if "300" in statement:
            return {"reason": "[1] gives 330 metres", "verdict": "contradicted", "kind": "number"}
        if "1887" in statement:
            return {"reason": "[1] gives 1889", "verdict": "contradicted", "kind": "date"}
        return {"reason": "[1] says so", "verdict": "supported", "kind": None}

    return json.dumps({"verdicts": [{"id": n, **entry(statement)}
                                    for n, _, statement in batch_items(prompt)]})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory):
    found = phoenix_server.command()
    if found is None:
        if os.environ.get("PROVENANCE_PHOENIX_REQUIRED"):
            pytest.fail("Phoenix is not installed: python tools/phoenix_server.py --install")
        pytest.skip("Phoenix is not installed (python tools/phoenix_server.py --install)")
    port, grpc = free_port(), free_port()
    work = tmp_path_factory.mktemp("phoenix")
    env = {**os.environ, "PHOENIX_HOST": "127.0.0.1", "PHOENIX_PORT": str(port),
           "PHOENIX_GRPC_PORT": str(grpc), "PHOENIX_WORKING_DIR": str(work),
           "PHOENIX_TELEMETRY_ENABLED": "false"}
    log = (work / "phoenix.log").open("w")
    process = subprocess.Popen([str(found), "serve"], env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert process.poll() is None, (work / "phoenix.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "Phoenix did not start in 120 s"
            time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


# The application's side, in a process of its own: a tracer provider is set once a process.
APPLICATION = textwrap.dedent("""
    import sys
    import provenance_guard
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    phoenix, judge, key, project, text, source = sys.argv[1:7]
    provider = TracerProvider(resource=Resource.create({"openinference.project.name": project}))
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(phoenix + "/v1/traces")))
    trace.set_tracer_provider(provider)

    from guardrails import Guard
    from provenance_guard import ProvenanceLLM

    guard = Guard().use(ProvenanceLLM(llm_callable="openai/judge", on_fail="noop",
                                      llm_kwargs={"api_base": judge, "api_key": key},
                                      structured_replies="on", control_statements="off"))
    guard.configure(allow_metrics_collection=False)
    outcome = guard.validate(text, metadata={"sources": [source]})
    provider.force_flush()
    print(outcome.validation_passed)
""")


def spans(phoenix: str) -> list[dict]:
    with urllib.request.urlopen(f"{phoenix}/v1/projects/{PROJECT}/spans?limit=100",
                                timeout=10) as answer:
        return json.load(answer)["data"]


def test_each_sentence_is_a_span_under_the_validators_with_its_verdict_and_kind(
        phoenix, tmp_path, browser):
    server = ChatServer(judge)
    try:
        done = subprocess.run([sys.executable, "-c", APPLICATION, phoenix, server.url, SECRET,
                               PROJECT, TEXT, SOURCES[0]], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
    finally:
        server.close()
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-1] == "False"
    assert server.requests, "the judge was not called"

    found: list[dict] = []
    for _ in range(40):  # Phoenix writes what it took in the background
        found = spans(phoenix)
        if sum(s["name"] == "provenance.sentence" for s in found) >= 3:
            break
        time.sleep(0.5)
    [validator] = [s for s in found if s["name"].endswith("provenance_llm.validate")]
    sentences = sorted((s for s in found if s["name"] == "provenance.sentence"),
                       key=lambda s: s["attributes"]["provenance.sentence.index"])
    assert [s["parent_id"] for s in sentences] == [validator["context"]["span_id"]] * 3
    assert all(s["span_kind"] == "EVALUATOR" for s in sentences)
    assert [(s["attributes"]["provenance.verdict"], s["attributes"].get("provenance.kind"))
            for s in sentences] == [("contradicted", "number"), ("supported", None),
                                    ("contradicted", "date")]
    first = sentences[0]["attributes"]
    assert TEXT[first["provenance.sentence.start"]:first["provenance.sentence.end"]] == \
        "The Eiffel Tower is 300 metres tall."
    assert first["provenance.evidence.source"] == [0]
    assert first["provenance.decided_by"] == "llm"
    summary = validator["attributes"]
    assert (summary["provenance.failed"], summary["provenance.kinds"]) == (2, ["number", "date"])
    assert summary["provenance.usage.calls"] >= 1
    # the key, nowhere in what Phoenix stored: neither its spans nor its trace's own record
    assert SECRET not in json.dumps(found)

    # the trace as a person sees it, with the third sentence selected
    trace_id = sentences[2]["context"]["trace_id"]
    with urllib.request.urlopen(f"{phoenix}/v1/projects", timeout=10) as answer:
        project = next(p for p in json.load(answer)["data"] if p["name"] == PROJECT)
    shot = tmp_path / "trace.png"
    browser("--window-size=1500,950", "--virtual-time-budget=15000", f"--screenshot={shot}",
            f"{phoenix}/projects/{project['id']}/traces/{trace_id}"
            f"?selectedSpanNodeId={sentences[2]['id']}")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    if os.environ.get("PROVENANCE_TRACE_SCREENSHOT"):  # the docs' picture, remade
        Path(os.environ["PROVENANCE_TRACE_SCREENSHOT"]).write_bytes(shot.read_bytes())
