"""MiniCheck through LiteLLM's ``ollama/`` provider over real HTTP, against a server on
127.0.0.1 that speaks Ollama's API (``/api/generate``, ``/api/chat``, ``/api/show``) and answers
like Bespoke-MiniCheck: Yes or No."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import BAD, GOOD, SOURCES, caught_warnings, toy_metadata
from guardrails import Guard

from provenance_guard import ConfigurationError, Evidence, ProvenanceLLM
from provenance_guard.judges import JudgeSettings, MiniCheckJudge, make_judge
from provenance_guard.judges.minicheck import read_answer
from provenance_guard.types import (
    BY_CACHE,
    BY_FALLBACK,
    BY_LLM,
    INVALID,
    SUPPORTED,
    UNSUPPORTED,
    Context,
)

_PROMPT = re.compile(r"\ADocument: (.*)\nClaim: (.*)\Z", re.DOTALL)


class OllamaServer:
    """Ollama's API with ``answer(document, claim) -> reply``; records each request."""

    def __init__(self, answer):
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body})
                if self.path == "/api/show":
                    self._send({"template": "{{ .Prompt }}", "details": {}, "model_info": {}})
                    return
                prompt = (body["prompt"] if self.path == "/api/generate"
                          else body["messages"][-1]["content"])
                found = _PROMPT.match(prompt)
                reply = answer(*found.groups()) if found else "I cannot read this prompt."
                done = {"model": body["model"], "created_at": "2026-01-01T00:00:00Z", "done": True,
                        "prompt_eval_count": 20, "eval_count": 1}
                if self.path == "/api/generate":
                    self._send({**done, "response": reply})
                else:
                    self._send({**done, "message": {"role": "assistant", "content": reply}})

            def _send(self, payload):
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True).start()

    def prompts(self) -> list[str]:
        return [r["body"].get("prompt") or r["body"]["messages"][-1]["content"]
                for r in self.requests if r["path"] != "/api/show"]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def ollama():
    servers = []

    def start(answer):
        servers.append(OllamaServer(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def minicheck_answer(document: str, claim: str) -> str:
    """Yes when the claim (without its full stop) is in the document, like a good MiniCheck."""
    return "Yes" if claim.rstrip(".").lower() in document.lower() else "No"


def test_minicheck_over_ollama_in_a_guard(ollama):
    server = ollama(minicheck_answer)
    validator = ProvenanceLLM(llm_callable="minicheck:ollama/bespoke-minicheck",
                              llm_kwargs={"api_base": server.url}, on_fail="fix",
                              max_concurrency=1)
    guard = Guard().use(validator)
    outcome = guard.validate(f"{GOOD} {BAD}", metadata=toy_metadata(top_k=2))
    assert outcome.validated_output == GOOD
    generate = [r for r in server.requests if r["path"] == "/api/generate"]
    assert len(generate) == 2 and generate[0]["body"]["model"] == "bespoke-minicheck"
    assert generate[0]["body"]["options"]["temperature"] == 0
    # its own format, exactly: the passages as the document, the sentence as the claim
    document, claim = _PROMPT.match(generate[0]["body"]["prompt"]).groups()
    assert claim == GOOD
    [log] = guard.history.last.iterations.last.outputs.validator_logs
    good, bad = log.validation_result.metadata["sentences"]
    # the document is the evidence (each passage with its neighbours), a passage a line
    assert document == "\n".join(e["text"] for e in good["evidence"])
    assert "The Eiffel Tower is in Paris." in document
    assert "BEGIN" not in generate[0]["body"]["prompt"] and "###" not in document
    assert (good["verdict"], good["decided_by"], good["score"]) == (SUPPORTED, BY_LLM, 1.0)
    assert bad["verdict"] == UNSUPPORTED and "cannot tell a contradiction" in bad["reason"]


def test_unreadable_answers_are_invalid_and_fail_closed(ollama):
    server = ollama(lambda document, claim: "Well, the document mentions Paris.")
    judge = make_judge("minicheck:ollama/bespoke-minicheck", {"api_base": server.url},
                       JudgeSettings(max_retries=0))
    [verdict] = asyncio.run(judge.verdicts([(GOOD, [Evidence(SOURCES[0])])], Context()))
    assert (verdict.label, verdict.decided_by) == (INVALID, BY_FALLBACK)
    assert "neither Yes nor No" in verdict.reason
    with caught_warnings() as warned:
        result = ProvenanceLLM(llm_callable=judge, on_fail="noop").validate(GOOD, toy_metadata())
    assert result.outcome == "fail"  # pass_on_invalid=False: not a pass
    assert any("no readable verdict" in w for w in warned)
    with caught_warnings():
        passing = ProvenanceLLM(llm_callable=judge, on_fail="noop").validate(
            GOOD, toy_metadata(pass_on_invalid=True))
    assert passing.outcome == "pass"


def test_answers_are_cached_and_chat_providers_get_one_user_message(ollama):
    server = ollama(minicheck_answer)
    judge = MiniCheckJudge("ollama_chat/bespoke-minicheck", {"api_base": server.url})
    item = (GOOD, [Evidence(SOURCES[0])])
    [first] = asyncio.run(judge.verdicts([item], None))
    [again] = asyncio.run(judge.verdicts([item], None))
    assert (first.label, first.decided_by) == (SUPPORTED, BY_LLM)
    assert (again.label, again.decided_by) == (SUPPORTED, BY_CACHE)
    [chat] = [r for r in server.requests if r["path"] == "/api/chat"]
    assert [(m["role"], m["content"]) for m in chat["body"]["messages"]] == [
        ("user", f"Document: {SOURCES[0]}\nClaim: {GOOD}")]
    assert len(judge.latencies) == 1  # one call made; the second verdict came from the cache


def test_reading_the_answer():
    assert [read_answer(r) for r in ("Yes", " yes.\n", "No", "NO")] == [
        SUPPORTED, SUPPORTED, UNSUPPORTED, UNSUPPORTED]
    assert [read_answer(r) for r in ("", "Yes, but", "Not sure", "Yes No", "supported")] == [None] * 5


def test_misconfigured_minicheck_is_refused():
    with pytest.raises(ConfigurationError, match="minicheck:ollama/bespoke-minicheck"):
        make_judge("minicheck:")
    with pytest.raises(ConfigurationError, match="template does not apply"):
        MiniCheckJudge("ollama/bespoke-minicheck", template="{claim}")
    with pytest.raises(ConfigurationError, match="not a model LiteLLM knows"):
        make_judge("minicheck:no-such-provider-model-xyz")
    judge = make_judge("minicheck:ollama/bespoke-minicheck")
    # one claim per call, and no claims or rewrites: each sentence is judged whole
    assert (judge.group_size, judge.extracts_claims, judge.corrects) == (1, False, False)
