"""Fakes at the seams (a scripted judge, a toy embedder, a local OpenAI-compatible server) and
settings that keep the test run off the network."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

# Guardrails reads ~/.guardrailsrc for its telemetry switch; give the run a home of its own
# with metrics off, so no Guard in a test sends traces. (The README documents the switch.)
_HOME = tempfile.mkdtemp(prefix="provenance-test-home-")
Path(_HOME, ".guardrailsrc").write_text("enable_metrics=false\n")
os.environ["HOME"] = _HOME

import provenance_guard  # noqa: E402,F401 - first, so the offline settings apply before guardrails

REPO = Path(__file__).resolve().parent.parent
_STATEMENT = re.compile(r"BEGIN STATEMENT>>\n(.*?)\n<<", re.DOTALL)
_PASSAGES = re.compile(r"BEGIN PASSAGES>>\n(.*?)\n<<", re.DOTALL)


_BATCH_ITEM = re.compile(
    r"BEGIN PASSAGES FOR (\d+)>>\n(.*?)\n<<[^\n]*\n<<[^\n]*BEGIN STATEMENT \1>>\n(.*?)\n<<", re.DOTALL)
_SENTENCE = re.compile(r"BEGIN SENTENCE>>\n(.*?)\n<<", re.DOTALL)


def statement_of(prompt: str) -> str:
    return _STATEMENT.search(prompt).group(1)


def batch_items(prompt: str) -> list[tuple[int, str, str]]:
    """(number, passages, statement) of each statement in a batched prompt."""
    return [(int(n), passages, statement) for n, passages, statement in _BATCH_ITEM.findall(prompt)]


def sentence_of(prompt: str) -> str:
    return _SENTENCE.search(prompt).group(1)


def passages_of(prompt: str) -> str:
    return _PASSAGES.search(prompt).group(1)


class ScriptedJudge:
    """A ``prompt -> reply`` callable. Says "supported" when ``rule(statement, passages)`` is
    true, "unsupported" otherwise (``rule`` may also return a verdict word); records every
    statement and can sleep like an API. Batched prompts get one JSON entry per statement;
    claim prompts get ``claims(sentence)`` (default: the sentence itself)."""

    def __init__(self, rule=None, latency: float = 0.0, reply=None, claims=None):
        self.rule = rule or (lambda statement, passages: statement.lower().rstrip(".") in
                             passages.lower())
        self.latency = latency
        self.reply = reply
        self.claims = claims or (lambda sentence: [sentence])
        self.statements: list[str] = []
        self.prompts: list[str] = []
        self.batches: list[list[str]] = []
        self.sentences: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.prompts.append(prompt)
            if "BEGIN SENTENCE>>" in prompt:
                self.sentences.append(sentence_of(prompt))
            elif "BEGIN STATEMENT 1>>" in prompt:
                self.batches.append([statement for _, _, statement in batch_items(prompt)])
            else:
                self.statements.append(statement_of(prompt))
        try:
            if self.latency:
                time.sleep(self.latency)
            if self.reply is not None:
                return self.reply(prompt) if callable(self.reply) else self.reply
            if "BEGIN SENTENCE>>" in prompt:
                return "Claims:\n" + json.dumps({"claims": self.claims(sentence_of(prompt))})
            if "BEGIN STATEMENT 1>>" in prompt:
                entries = [{"id": n, "reason": "scripted", "verdict": self._verdict(s, p)}
                           for n, p, s in batch_items(prompt)]
                return "Batch.\n" + json.dumps({"verdicts": entries})
            verdict = self._verdict(statement_of(prompt), passages_of(prompt))
            return f'Looked at the passages.\n{{"reason": "scripted", "verdict": "{verdict}"}}'
        finally:
            with self._lock:
                self.in_flight -= 1


    def _verdict(self, statement: str, passages: str) -> str:
        answer = self.rule(statement, passages)
        if isinstance(answer, str):
            return answer
        return "supported" if answer else "unsupported"


class ToyEmbedder:
    """Bag-of-words hashing: texts sharing words are neighbours. Counts what it embeds."""

    def __init__(self, dim: int = 256):
        self.dim = dim
        self.calls = 0
        self.texts_embedded = 0

    def __call__(self, texts):
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        return out


SOURCES = [
    "The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall.",
    "The Louvre is the most visited museum in the world. It houses the Mona Lisa.",
    "Mount Everest is the highest mountain above sea level. It is in the Himalayas.",
]


@pytest.fixture
def toy_embedder():
    return ToyEmbedder()


@pytest.fixture
def scripted():
    return ScriptedJudge()


@pytest.fixture(autouse=True)
def fresh_index_cache():
    from provenance_guard.index import INDEX_CACHE

    INDEX_CACHE.clear()
    yield
    INDEX_CACHE.clear()


class ChatServer:
    """A local OpenAI-compatible chat server on 127.0.0.1 with scripted replies and faults.

    ``reply(prompt) -> str`` writes the answer; ``faults`` is a list consumed one per request
    before replying normally: ``(status, headers)`` answers with that HTTP status, and
    ``("slow", s)`` waits s seconds then replies, ``("trickle", s)`` sends the reply a byte at
    a time over s seconds, ``("malformed", _)`` sends a 200 whose body is not JSON,
    ``("empty", _)`` a reply with empty content.
    """

    def __init__(self, reply):
        self.reply = reply
        self.faults: list[tuple[int, dict]] = []
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                fault, detail = server.faults.pop(0) if server.faults else (None, None)
                if isinstance(fault, int):
                    payload = json.dumps({"error": {"message": f"scripted {fault}",
                                                    "type": "scripted", "code": fault}})
                    self._send(fault, payload, detail)
                    return
                if fault == "malformed":
                    self._send(200, '{"id": "chatcmpl-test", "choices": [', {})
                    return
                if fault == "slow":
                    time.sleep(detail)
                prompt = body["messages"][-1]["content"]
                content = "" if fault == "empty" else server.reply(prompt)
                payload = json.dumps({
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "test"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                })
                self._send(200, payload, {}, trickle=detail if fault == "trickle" else 0)

            def _send(self, status, payload, headers, trickle=0.0):
                data = payload.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if not trickle:
                    self.wfile.write(data)
                    return
                try:
                    for byte in data:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(trickle / len(data))
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up, as it should

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def chat_server():
    servers = []

    def start(reply):
        server = ChatServer(reply)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()
