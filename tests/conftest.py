"""Fakes at the seams (a scripted judge, a toy embedder, a local OpenAI-compatible server, retry
waits recorded instead of slept), the metadata most tests validate against, and settings that
keep the test run off the network."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import warnings
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

# Guardrails reads ~/.guardrailsrc for its telemetry switch; give the run a home of its own
# with metrics off, so no Guard in a test sends traces. (docs/getting-started.md documents the switch.)
# USER_HOME is the one it replaces, for a tool that reads its configuration there (pip). It is
# kept in the environment too: pytest-xdist's workers inherit the HOME replaced here.
USER_HOME = os.environ.setdefault("PROVENANCE_USER_HOME", os.environ.get("HOME", ""))
_HOME = tempfile.mkdtemp(prefix="provenance-test-home-")
Path(_HOME, ".guardrailsrc").write_text("enable_metrics=false\n")
os.environ["HOME"] = _HOME

import provenance_guard  # noqa: E402,F401 - first, so the offline settings apply before guardrails

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"  # external reference data, with its licences
TIERS = ("unit", "integration", "system")


# The heavy tiers: what needs a system package or a long build, by test file (and the browser
# by its fixture). ``make test`` leaves them out (``-m "not (browser or spark or ray or
# model_server or trace_sink)"``); ``.ci/run`` runs them, each required to run.
HEAVY = {"test_spark.py": "spark", "test_ray_engine.py": "ray",
         "test_real_model.py": "model_server", "test_readme_build.py": "model_server",
         "test_traces.py": "trace_sink"}


# An environment set up without PyTorch (.ci/run's Python 3.10 and 3.13 ones, where no CPU build
# can be had): a test that needs it is skipped, saying so, rather than failed; every other test
# runs. The main environment, with PyTorch, runs them all.
WITHOUT_TORCH = bool(os.environ.get("PROVENANCE_WITHOUT_TORCH"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if WITHOUT_TORCH and call.excinfo is not None and call.excinfo.errisinstance(
            ModuleNotFoundError) and call.excinfo.value.name in ("torch", "sentence_transformers"):
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0,
                           f"needs {call.excinfo.value.name}: this environment has no PyTorch")


def pytest_collection_modifyitems(items):
    """Each test is marked with its tier, the folder it lives in: ``pytest -m unit`` runs the
    fast tier, ``-m integration`` and ``-m system`` the others; and with its heavy tier, if any
    (``-m browser``, ``spark``, ``ray``, ``model_server``)."""
    for item in items:
        path = Path(item.fspath).resolve()
        tier = path.relative_to(REPO / "tests").parts[0]
        if tier in TIERS:
            item.add_marker(tier)
        if path.name in HEAVY:
            item.add_marker(HEAVY[path.name])
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker("browser")
_STATEMENT = re.compile(r"BEGIN STATEMENT>>\n(.*?)\n<<", re.DOTALL)
_PASSAGES = re.compile(r"BEGIN PASSAGES>>\n(.*?)\n<<", re.DOTALL)


_BATCH_ITEM = re.compile(r"BEGIN STATEMENT (\d+)>>\n(.*?)\n<<", re.DOTALL)
_NAMED = re.compile(r"(?m)^statement (\d+): (.*)$")
_SENTENCE = re.compile(r"BEGIN SENTENCE>>\n(.*?)\n<<", re.DOTALL)
_FAILING = re.compile(r"BEGIN FAILING SENTENCE>>\n(.*?)\n<<", re.DOTALL)


def statement_of(prompt: str) -> str:
    return _STATEMENT.search(prompt).group(1)


def batch_items(prompt: str) -> list[tuple[int, str, str]]:
    """A batched prompt's statements: (number, the passages named for it, the statement)."""
    parts = re.split(r"(?m)^\[(\d+)\] ", _PASSAGES.search(prompt).group(1))
    shared = dict(zip(parts[1::2], (text.rstrip("\n") for text in parts[2::2]), strict=True))
    named = dict(_NAMED.findall(prompt.rpartition(":END STATEMENTS>>")[2]))
    every = ", ".join(f"[{k}]" for k in shared)  # no list: each statement has every passage
    return [(int(n), "\n".join(f"[{k}] {shared[k]}"
                                for k in re.findall(r"\[(\d+)\]", named.get(n, every))),
             statement) for n, statement in _BATCH_ITEM.findall(prompt)]


def sentence_of(prompt: str) -> str:
    return _SENTENCE.search(prompt).group(1)


def failing_sentence_of(prompt: str) -> str:
    """The sentence a correction prompt asks to rewrite."""
    return _FAILING.search(prompt).group(1)


def passages_of(prompt: str) -> str:
    return _PASSAGES.search(prompt).group(1)


class ScriptedJudge:
    """A ``prompt -> reply`` callable. Says "supported" when ``rule(statement, passages)`` is
    true, "unsupported" otherwise (``rule`` may also return a verdict word); records every
    statement and can sleep like an API. Batched prompts get one JSON entry per statement;
    claim prompts get ``claims(sentence)`` (default: the sentence itself); correction prompts
    get ``rewrite(sentence, passages)`` as the reply's rewrite (default: None, "cannot")."""

    def __init__(self, rule=None, latency: float = 0.0, reply=None, claims=None, rewrite=None):
        self.rule = rule or stated
        self.latency = latency
        self.reply = reply
        self.claims = claims or (lambda sentence: [sentence])
        self.rewrite = rewrite or (lambda sentence, passages: None)
        self.rewritten: list[str] = []  # the sentences it was asked to rewrite
        self.statements: list[str] = []  # every statement judged, alone or in a batch
        self.alone: list[str] = []  # those judged one per call
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
            elif "BEGIN FAILING SENTENCE>>" in prompt:
                self.rewritten.append(failing_sentence_of(prompt))
            elif "BEGIN STATEMENT 1>>" in prompt:
                self.batches.append([statement for _, _, statement in batch_items(prompt)])
                self.statements += self.batches[-1]
            else:
                self.alone.append(statement_of(prompt))
                self.statements.append(self.alone[-1])
        try:
            if self.latency:
                time.sleep(self.latency)
            if self.reply is not None:
                return self.reply(prompt) if callable(self.reply) else self.reply
            if "BEGIN SENTENCE>>" in prompt:
                return "Claims:\n" + json.dumps({"claims": self.claims(sentence_of(prompt))})
            if "BEGIN FAILING SENTENCE>>" in prompt:
                rewrite = self.rewrite(failing_sentence_of(prompt), passages_of(prompt))
                return "Rewritten.\n" + json.dumps({"rewrite": rewrite})
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


def stated(statement: str, passages: str) -> bool:
    """Whether ``passages`` hold ``statement`` word for word, each of their sentences read as
    a reader would: a pronoun that opens one named by the sentence before ("It is 330 metres
    tall." after "The Eiffel Tower is in Paris.")."""
    wanted = unbracketed(statement).lower().rstrip(".")
    return wanted in read_passages(passages).lower()


def unbracketed(statement: str) -> str:
    """``statement`` without the brackets around a subject read for its pronoun."""
    return re.sub(r"\[([^\]\d][^\]]*)\]", r"\1", statement)


def read_passages(passages: str) -> str:
    """A prompt's passages without their numbers, as written and then as read
    (``in_context_each``), a line each."""
    from provenance_guard.rules.reading import in_context_each

    lines = re.sub(r"(?m)^\[\d+\] ", "", passages).splitlines()
    return "\n".join([*lines, *(unbracketed(" ".join(read for _, read in in_context_each(line)))
                                 for line in lines)])


class ToyEmbedder:
    """Bag-of-words hashing: texts sharing words are neighbours. Counts what it embeds.

    With a ``key`` it carries ``embedding_key``: the validator then knows its vectors are the
    same in every process, and stores its indexes under ``index_dir``."""

    def __init__(self, dim: int = 256, key: str | None = None):
        self.dim = dim
        self.calls = 0
        self.texts_embedded = 0
        if key is not None:
            self.embedding_key = key

    def __call__(self, texts):
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, _bucket(word, self.dim)] += 1.0
        return out


@functools.lru_cache(maxsize=100_000)
def _bucket(word: str, dim: int) -> int:
    return int(hashlib.md5(word.encode()).hexdigest(), 16) % dim


SOURCES = [
    "The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall.",
    "The Louvre is the most visited museum in the world. It houses the Mona Lisa.",
    "Mount Everest is the highest mountain above sea level. It is in the Himalayas.",
]
GOOD = "The Eiffel Tower is in Paris."  # SOURCES[0] says so
BAD = "The Eiffel Tower was painted gold in 2024."  # no source says so


def words_judge(prompt: str) -> str:
    """Supported when the passages state the statement's words (a deterministic judge); one
    verdict per statement of a batched prompt."""

    def verdict(statement: str, passages: str) -> str:
        return "supported" if stated(statement, passages) else "unsupported"

    if "BEGIN STATEMENT 1>>" in prompt:
        return json.dumps({"verdicts": [{"id": n, "verdict": verdict(statement, passages)}
                                        for n, passages, statement in batch_items(prompt)]})
    return json.dumps({"verdict": verdict(statement_of(prompt), passages_of(prompt))})


def agrees(prompt: str) -> str:
    """Finds every statement supported, in the reply form the prompt asks for (one verdict,
    or one per statement of a batched prompt): for tests about anything but the verdict. Like
    any judge that reads its passages, it finds a sentence of theirs with a number changed
    contradicted (as a control statement is)."""
    if "BEGIN STATEMENT 1>>" in prompt:
        return json.dumps({"verdicts": [{"id": n, "verdict": _read_numbers(statement, passages)}
                                        for n, passages, statement in batch_items(prompt)]})
    return '{"verdict": "supported"}'


def _read_numbers(statement: str, passages: str) -> str:
    """"contradicted" for a sentence of the passages with a number changed, "unsupported" for
    one that says of one thing what a passage says of another (its predicate a passage's, its
    subject not), else "supported": as a judge that reads its passages finds the controls."""
    number = r"\d[\d,.]*\d|\d"
    statement, passages = unbracketed(statement), read_passages(passages)
    masked = re.sub(number, "#", statement.rstrip("."))
    copied = masked in re.sub(number, "#", passages)
    if copied and statement.rstrip(".") not in passages:
        return "contradicted"
    split = re.search(r"\s(?:is|was|are|were|has|had|have)\s", statement)
    if split is not None and statement.rstrip(".") not in passages:
        subject, predicate = statement[:split.start()], statement[split.start():].rstrip(".")
        if predicate in passages and f"{subject}{predicate}" not in passages:
            return "unsupported"
        if re.fullmatch(r"(?:The |Mount )?(?!It\b|He\b|She\b|They\b|This\b)[A-Z]\w+", subject) \
                and re.search(number, predicate) \
                and not any(subject in p and predicate in p for p in passages.splitlines()):
            return "unsupported"  # a named thing given a figure no passage of it gives
    return "supported"


def toy_metadata(**extra) -> dict:
    """Metadata over SOURCES with a fresh ToyEmbedder, one sentence per chunk (seven chunks);
    ``extra`` adds or replaces keys."""
    return {"sources": SOURCES, "embed_function": ToyEmbedder(), "chunk_strategy": "sentence",
            "chunk_size": 1, "chunk_overlap": 0, **extra}


def validate_in_guard(text: str, judge, metadata: dict | None = None, **options):
    """Validate ``text`` through a real Guard (``on_fail="noop"``, ``toy_metadata()`` unless
    given); return the outcome and our validator's result metadata."""
    from guardrails import Guard

    from provenance_guard import ProvenanceLLM

    guard = Guard().use(ProvenanceLLM(llm_callable=judge, on_fail="noop", **options))
    outcome = guard.validate(text, metadata=toy_metadata() if metadata is None else metadata)
    [log] = guard.history.last.iterations.last.outputs.validator_logs
    return outcome, log.validation_result.metadata


@contextlib.contextmanager
def caught_warnings():
    """Every warning raised inside, as a list of message strings; not those a third-party
    library raises from its own code (LiteLLM's first call imports modules that make pydantic
    warn about their types, in whichever test makes it)."""
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield messages
    messages.extend(str(w.message) for w in caught if "site-packages" not in w.filename)


def litellm_validator(url: str, llm_kwargs: dict | None = None, **options):
    """A ProvenanceLLM whose judge is a LiteLLM model served at ``url``. One call at a time, so
    a server's scripted faults meet the calls in order."""
    from provenance_guard import ProvenanceLLM

    options.setdefault("max_concurrency", 1)
    return ProvenanceLLM(llm_callable="openai/judge",
                         llm_kwargs={"api_base": url, "api_key": "sk-test", **(llm_kwargs or {})},
                         **options)


def model_flags(server) -> list[str]:
    """The command-line flags that make ``provenance`` judge with the model ``server`` serves."""
    return ["--model", "openai/judge", "--api-base", server.url, "--api-key", "sk-test"]


def closed_port_url() -> str:
    """The address of a port nothing listens on: connections to it are refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


@pytest.fixture
def scripted():
    return ScriptedJudge()


@pytest.fixture
def usage_error(capsys):
    """``usage_error(argv)`` runs the ``provenance`` command, expects the parser's usage error
    (exit status 2) and returns what it wrote to stderr."""
    from provenance_guard import cli

    def run(argv: list[str]) -> str:
        capsys.readouterr()
        with pytest.raises(SystemExit) as raised:
            cli.main(argv)
        assert raised.value.code == 2
        return capsys.readouterr().err

    return run


@pytest.fixture
def retry_waits(monkeypatch):
    """The waits between a judge's retries, recorded instead of slept: backoff and Retry-After
    are asserted exactly, and no test sleeps through them."""
    from provenance_guard.judges import retries

    waits: list[float] = []
    async def recorded(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(retries, "_sleep", recorded)
    return waits


@pytest.fixture(autouse=True)
def fresh_index_cache():
    from provenance_guard.retrieval.index import INDEX_CACHE

    INDEX_CACHE.clear()
    yield
    INDEX_CACHE.clear()


class ChatServer:
    """A local OpenAI-compatible chat server on 127.0.0.1 with scripted replies and faults.

    ``reply(prompt) -> str`` writes the answer; ``faults`` is a list consumed one per request
    before replying normally: ``(status, headers)`` answers with that HTTP status, and
    ``("slow", s)`` waits s seconds then replies, ``("trickle", s)`` sends the reply a byte at
    a time over s seconds, ``("malformed", _)`` sends a 200 whose body is not JSON,
    ``("empty", _)`` a reply with empty content, ``("refuse", message)`` a 400 with that
    message, ``("length", n)`` the reply's first n
    characters, ended with ``finish_reason: "length"`` at n completion tokens, as a provider
    ends a reply that reached its ``max_tokens``. ``usage`` is what each reply reports of its
    tokens (None: nothing). ``logprob``: where a request asks for ``logprobs``, each character
    of the reply is returned as a token with this log probability (None: none are returned).
    ``keep_alive``: HTTP/1.1, a connection kept open between requests (each request records its
    ``connection``, the client's address). ``key``: where set, a request that does not carry it
    (``Authorization: Bearer <key>``) is refused with a 401, its model list too. ``GET
    /v1/models`` lists ``models`` (recorded in ``listed``, not in ``requests``).
    """

    def __init__(self, reply):
        self.reply = reply
        self.usage: dict | None = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        self.logprob: float | None = None
        self.faults: list[tuple[int, dict]] = []
        self.requests: list[dict] = []
        self.keep_alive = False  # True: HTTP/1.1, a connection kept open between requests
        self.key: str | None = None
        self.models = ["judge"]
        self.listed: list[str | None] = []  # the Authorization of each GET of the model list
        server = self

        class Handler(BaseHTTPRequestHandler):
            @property
            def protocol_version(self):  # read for each request
                return "HTTP/1.1" if server.keep_alive else "HTTP/1.0"

            disable_nagle_algorithm = True  # a kept-open connection's replies sent at once

            def log_message(self, *args):  # keep test output clean
                pass

            def _refused(self) -> bool:
                if server.key is None or self.headers.get("Authorization") == f"Bearer {server.key}":
                    return False
                self._send(401, json.dumps({"error": {"message": "Incorrect API key provided",
                                                      "type": "invalid_request_error",
                                                      "code": "invalid_api_key"}}), {})
                return True

            def do_GET(self):
                if not self.path.endswith("/models"):
                    self._send(404, json.dumps({"error": {"message": "no such path"}}), {})
                    return
                server.listed.append(self.headers.get("Authorization"))
                if not self._refused():
                    self._send(200, json.dumps({"object": "list", "data": [
                        {"id": name, "object": "model"} for name in server.models]}), {})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization"),
                                        "connection": self.client_address})
                if self._refused():
                    return
                fault, detail = server.faults.pop(0) if server.faults else (None, None)
                if isinstance(fault, int):  # detail: the headers, and the message if given
                    headers = dict(detail or {})
                    message = headers.pop("message", f"scripted {fault}")
                    payload = json.dumps({"error": {"message": message,
                                                    "type": "scripted", "code": fault}})
                    self._send(fault, payload, headers)
                    return
                if fault == "refuse":  # a 400 that names what it refuses
                    payload = json.dumps({"error": {"message": detail, "type": "invalid_request_error",
                                                    "code": 400}})
                    self._send(400, payload, {})
                    return
                if fault == "malformed":
                    self._send(200, '{"id": "chatcmpl-test", "choices": [', {})
                    return
                if fault == "slow":
                    time.sleep(detail)
                prompt = body["messages"][-1]["content"]
                content = "" if fault == "empty" else server.reply(prompt)
                usage = server.usage
                if fault == "length":
                    content = content[:detail]
                    usage = {"prompt_tokens": 10, "completion_tokens": detail,
                             "total_tokens": 10 + detail}
                payload = json.dumps({
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "test"),
                    "choices": [{"index": 0,
                                 "finish_reason": "length" if fault == "length" else "stop",
                                 "message": {"role": "assistant", "content": content},
                                 **({"logprobs": {"content": [
                                     {"token": ch, "logprob": server.logprob} for ch in content]}}
                                    if body.get("logprobs") and server.logprob is not None
                                    else {})}],
                    **({} if usage is None else {"usage": usage}),
                })
                self._send(200, payload, {}, trickle=detail if fault == "trickle" else 0)

            def _send(self, status, payload, headers, trickle=0.0):
                data = payload.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    if not trickle:
                        self.wfile.write(data)
                        return
                    for byte in data:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(trickle / len(data))
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout, a deadline), as it should

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        # a short poll, so that shutdown() returns at once rather than after half a second
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def answering_server():
    """A plain HTTP server on 127.0.0.1 that answers every GET with ``state["reply"]``, a
    ``(status, body)`` (a body that is not a string is sent as JSON), and records each path in
    ``state["paths"]``. Yields its address and the state."""
    state = {"reply": (200, "ok"), "paths": []}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            state["paths"].append(self.path)
            status, body = state["reply"]
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", state
    server.shutdown()
    server.server_close()


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


# Samples over the example sources, for `evaluate()`, `provenance eval` and the Spark recipe.
EXAMPLE_SOURCES = [(REPO / "examples/eiffel_history.txt").read_text(),
           (REPO / "examples/eiffel_visiting.txt").read_text()]
ROWS = [
    {"id": "ok", "output": "The tower has three levels open to visitors.", "label": True},
    {"id": "gold", "output": "It was painted gold for the 2024 Olympic Games.", "label": False},
    {"id": "visits", "output": "About 9 million people visit it each year.", "label": False},
    {"id": "lifts", "output": "Visitors can take lifts to the summit.", "label": True},
]


def rows(samples=ROWS):
    """Samples for `evaluate` and `provenance eval`: ``samples`` over the example sources."""
    return [{**row, "sources": EXAMPLE_SOURCES} for row in samples]


def outcome(record: dict) -> tuple:
    """What a result record says of its sample: passed, level, each sentence's verdict."""
    return (record["passed"], record["level"],
            [(s["text"], s["verdict"]) for s in record["sentences"]])


def said(code: str) -> list[str]:
    """What a documentation code block says it prints: the ``# ...`` comment lines right after
    a ``print(...)`` line (or after another such comment), or a comment on the ``print(...)``
    line itself."""
    lines, shown = code.splitlines(), []
    for n, line in enumerate(lines):
        if line.lstrip().startswith("print(") and "#" in line:
            shown.append(line.split("#", 1)[1].strip())
        elif line.startswith("# ") and n and (lines[n - 1].lstrip().startswith("print(")
                                                or lines[n - 1].startswith("# ")):
            shown.append(line[2:])
    return shown


# -- A real headless browser (Debian's chromium), for the HTML report and the docs site --------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Flags for a root user on a machine with no network: no sandbox, no background connections.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


@pytest.fixture
def browser(tmp_path):
    if not Path(CHROMIUM).exists():
        if os.environ.get("PROVENANCE_BROWSER_REQUIRED"):
            pytest.fail("chromium is missing: install Debian's package (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")

    def run(*args):
        done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    return run


class Page(HTMLParser):
    """The elements of a DOM dump: (tag, attributes, text inside), in document order."""

    def __init__(self, html: str):
        super().__init__()
        self.elements: list[tuple[str, dict, list[str]]] = []
        self._open: list[tuple[str, dict, list[str]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        element = (tag, dict(attrs), [])
        self.elements.append(element)
        if tag not in ("meta", "rect", "img", "br", "input", "link"):
            self._open.append(element)

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _, _, text in self._open:
            text.append(data)

    def all(self, tag, css=None):
        return [(a, "".join(t)) for name, a, t in self.elements if name == tag
                and (css is None or css in (a.get("class") or "").split())]
