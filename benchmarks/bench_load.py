"""Many validations at once: how one process carries a web application's concurrency.

A local OpenAI-compatible server runs in its own process and answers every call after
``--latency`` seconds (0.5 by default), "supported" for each statement; with ``--busy 0.33``
about a third of its answers are 429 with ``Retry-After: 1`` instead. N validations of
three-sentence texts (one judge call each) start together: through ``AsyncGuard``, through N
threads sharing one ``Guard``, and as N requests at once to the Guardrails server
(``guardrails start`` with a config of one guard of this validator; its threads and peak memory
are the server process's); then one at a time. Beside them, the stack's own floor on this
machine: the same N LiteLLM calls made at once with nothing else (``litellm alone``), and each
in a validator that makes one call and nothing else, through ``AsyncGuard``; and those calls
at most ``--in-flight`` at once, as the validators make theirs (``litellm, bounded``). Each way
is used once before it is timed, and then ``gc.freeze()`` is called, as the serving guide
advises after ``warm_up()`` (``--no-freeze``: not). Printed per run:
wall time and its ratio to the floor (one judge latency: every validation could be answered at
once), validations per second, the judge server's peak calls in flight, peak threads and
memory, and the validations that did not pass; then resident memory over ``--soak`` validations
(1,000 by default) through one ``AsyncGuard``, 64 at a time. The judge is LiteLLM over HTTP, the
embedder the default.

    python benchmarks/bench_load.py [--count 64 256] [--latency 0.5] [--busy 0.33]
                                    [--in-flight 32] [--soak 1000] [--skip-server]

``--in-flight`` is the validator's ``max_calls_in_flight`` (32 by default): with it at or above
``--count``, nothing but the validator's own concurrency bounds how many calls wait at once.

``--shell asyncio-run`` measures the other way a synchronous caller could run the validation's
coroutines: on an event loop of the calling thread (``asyncio.run`` per call; under a ``Guard``,
the loop Guardrails makes for each thread) instead of the process's validation loop.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SERVER = r'''
import json, random, re, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

latency, busy = float(sys.argv[1]), float(sys.argv[2])
state = {"in_flight": 0, "peak": 0, "calls": 0, "refused": 0}
lock = threading.Lock()
random.seed(7)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # connections kept open between calls, as providers keep them
    disable_nagle_algorithm = True  # headers and body written apart reach a kept-open client
    # at once, not after its delayed acknowledgement (40 ms)

    def log_message(self, *args):
        pass

    def do_GET(self):  # the counters, then reset
        with lock:
            body = json.dumps(state).encode()
            state.update(peak=state["in_flight"], calls=0, refused=0)
        self._send(200, body, {})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with lock:
            state["in_flight"] += 1
            state["peak"] = max(state["peak"], state["in_flight"])
            refuse = random.random() < busy
            state["calls"] += 1
            state["refused"] += refuse
        try:
            if refuse:
                self._send(429, b'{"error": {"message": "busy", "type": "rate_limit"}}',
                           {"Retry-After": "1"})
                return
            time.sleep(latency)
            prompt = body["messages"][-1]["content"]
            ids = re.findall(r"BEGIN STATEMENT (\d+)>>", prompt)
            content = (json.dumps({"verdicts": [{"id": int(n), "verdict": "supported"}
                                                for n in ids]})
                       if ids else '{"verdict": "supported"}')
            reply = {"id": "x", "object": "chat.completion", "created": 0, "model": "judge",
                     "choices": [{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": content}}],
                     "usage": {"prompt_tokens": 500, "completion_tokens": 30,
                               "total_tokens": 530}}
            self._send(200, json.dumps(reply).encode(), {})
        finally:
            with lock:
                state["in_flight"] -= 1

    def _send(self, status, data, headers):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # listen()'s backlog, set before it is called: 256 connect at once


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
'''

SOURCE = ("The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall. It was "
          "the tallest man-made structure in the world until 1930. About 6 million people visit "
          "it each year.")


def text(n: int) -> str:
    """A three-sentence answer, different for each validation (no reply cache hit)."""
    return (f"The Eiffel Tower is in Paris (answer {n}). It was finished in 1889. "
            f"It is 330 metres tall.")


class Peaks:
    """Samples the threads of this process (or of process ``pid``) while a run goes on."""

    def __init__(self, pid: int | None = None):
        self.pid = pid
        self.threads, self._stop = self._count(), threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _count(self) -> int:
        if self.pid is None:
            return threading.active_count()
        return int(_status(self.pid)["Threads"])

    def _watch(self):
        while not self._stop.wait(0.02):
            self.threads = max(self.threads, self._count())

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as status:
        return dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)


def stats(url: str) -> dict:
    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats") as response:
        return json.loads(response.read())


IN_FLIGHT = 32  # max_calls_in_flight of the validators made here (--in-flight)
SHELL = "loop"  # how synchronous callers run the validation (--shell)


def validator(url: str):
    from provenance_guard import ProvenanceLLM

    made = ProvenanceLLM(llm_callable="openai/judge", on_fail="noop",
                         max_calls_in_flight=IN_FLIGHT,
                         llm_kwargs={"api_base": url, "api_key": "sk-test"})
    if SHELL == "asyncio-run":  # a Guard's validation on the loop Guardrails made for its thread
        made._on_the_callers_loop = True
    return made


def _asyncio_run_shell() -> None:
    """Synchronous calls run their validation with ``asyncio.run``, a loop each."""
    from provenance_guard import main

    main.run = asyncio.run  # type: ignore[attr-defined]


def all_at_once(way: str, url: str, texts: list[str]) -> list:
    """The outcomes of validating ``texts`` all at once, through ``AsyncGuard`` or threads."""
    from guardrails import AsyncGuard, Guard

    if way == "AsyncGuard":
        guard = AsyncGuard().use(validator(url))

        async def gathered():
            return await asyncio.gather(*(guard.validate(t, metadata={"sources": [SOURCE]})
                                          for t in texts))

        return asyncio.run(gathered())
    guard = Guard().use(validator(url))
    outcomes: list = [None] * len(texts)

    def run(i):
        outcomes[i] = guard.validate(texts[i], metadata={"sources": [SOURCE]})

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def harness(way: str, url: str, texts: list[str]) -> list:
    """The stack's own floor: one ``litellm.acompletion`` per text, all at once, bare or each
    in a validator of one call through ``AsyncGuard``; no retrieval, no judging of ours."""
    import litellm
    from guardrails import AsyncGuard
    from guardrails.validator_base import PassResult, Validator, register_validator

    async def call(value: str) -> None:
        await litellm.acompletion(
            model="openai/judge", api_base=url, api_key="sk-test",
            messages=[{"role": "user", "content": f"<<1:BEGIN STATEMENT 1>>\n{value}"}])

    if way in ("acompletion", "acompletion, bounded"):
        async def bare():
            # bounded: at most as many calls in flight as the validators allow themselves
            limit = asyncio.Semaphore(IN_FLIGHT if way.endswith("bounded") else len(texts))

            async def one(value: str) -> None:
                async with limit:
                    await call(value)

            await asyncio.gather(*(one(t) for t in texts))
            return [None] * len(texts)

        return asyncio.run(bare())

    @register_validator(name="bench/one-call", data_type="string")
    class OneCall(Validator):
        async def async_validate(self, value, metadata):
            await call(value)
            return PassResult()

        def _validate(self, value, metadata):
            raise AssertionError("awaited only")

    guard = AsyncGuard().use(OneCall())

    async def guarded():
        return await asyncio.gather(*(guard.validate(t) for t in texts))

    return asyncio.run(guarded())


HARNESS = {"acompletion": "litellm alone", "acompletion, bounded": "litellm, bounded",
           "guard + 1 call": "AsyncGuard, 1 call"}

CONFIG = """
from guardrails import Guard
from provenance_guard import ProvenanceLLM

provenance = Guard(id="provenance", name="provenance").use(ProvenanceLLM(
    llm_callable="openai/judge", on_fail="noop", max_calls_in_flight={in_flight},
    llm_kwargs={{"api_base": "{url}"}}))
"""


@contextlib.contextmanager
def guardrails_server(url: str):
    """``guardrails start`` serving one guard of this validator, judged at ``url``: its address
    and process id. Offline: metrics off, nltk's data from this package, a proxy that refuses
    for anything but 127.0.0.1 (it asks PyPI for a newer version)."""
    import provenance_guard

    home = Path(tempfile.mkdtemp(prefix="bench-load-server-"))
    (home / ".guardrailsrc").write_text("enable_metrics=false\n")
    (home / "config.py").write_text(CONFIG.format(in_flight=IN_FLIGHT, url=url))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "HOME": str(home), "OPENAI_API_KEY": "sk-test",
           "NLTK_DATA": str(Path(provenance_guard.__file__).parent / "_nltk_data"),
           "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
           "NO_PROXY": "127.0.0.1,localhost"}
    command = [sys.executable, str(Path(sys.executable).parent / "guardrails"), "start",
               "--config", str(home / "config.py"), "--port", str(port)]
    with open(home / "server.log", "w") as log:
        process = subprocess.Popen(command, cwd=home, env=env, stdout=log, stderr=log,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(base + "/health-check", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the Guardrails server did not start: "
                                       + (home / "server.log").read_text()[-2000:]) from None
                time.sleep(0.25)
        yield base, process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()
        shutil.rmtree(home, ignore_errors=True)


class Answered:
    """A validation the Guardrails server answered."""

    def __init__(self, reply: dict):
        self.validation_passed = bool(reply.get("validationPassed"))


def through_server(base: str, texts: list[str]) -> list[Answered]:
    """The server's answers to ``texts``, all sent at once, a thread each."""
    def post(value: str) -> Answered:
        body = json.dumps({"llm_output": value, "metadata": {"sources": [SOURCE]}}).encode()
        request = urllib.request.Request(f"{base}/guards/provenance/validate", data=body,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as reply:
                return Answered(json.load(reply))
        except urllib.error.HTTPError:
            return Answered({})

    with ThreadPoolExecutor(max_workers=len(texts)) as pool:
        return list(pool.map(post, texts))


def soak(url: str, total: int, wave: int = 64) -> list[tuple[int, float]]:
    """Resident memory (MB) after each wave of ``wave`` validations at once through one
    ``AsyncGuard``, ``total`` in all, every text new (no reply cache hit)."""
    from guardrails import AsyncGuard

    guard = AsyncGuard().use(validator(url))

    async def waves() -> list[tuple[int, float]]:
        seen = []
        for start in range(0, total, wave):
            done = min(total, start + wave)
            await asyncio.gather(*(guard.validate(text(2 * 10**6 + n),
                                                  metadata={"sources": [SOURCE]})
                                   for n in range(start, done)))
            seen.append((done, int(_status(os.getpid())["VmRSS"].split()[0]) / 1024))
        return seen

    return asyncio.run(waves())


def one_at_a_time(url: str, count: int = 8) -> float:
    """Seconds per validation, one after another."""
    from guardrails import Guard

    guard = Guard().use(validator(url))
    started = time.perf_counter()
    for n in range(count):
        guard.validate(text(10**6 + n), metadata={"sources": [SOURCE]})
    return (time.perf_counter() - started) / count


def _ways(busy: float, served_by: tuple[str, int] | None) -> list[str]:
    ways = ["AsyncGuard", "threads"]
    if served_by is not None:
        ways.append("Guardrails server")
    return ways + ([] if busy else list(HARNESS))


def _run(way: str, busy: float, count: int, url: str, served_by: tuple[str, int] | None,
         latency: float) -> dict:
    """One run of ``count`` validations at once through ``way``: its row."""
    texts = [text(n + 1000 * count) for n in range(count)]
    pid = served_by[1] if way == "Guardrails server" and served_by else None
    with Peaks(pid) as peaks:
        started = time.perf_counter()
        outcomes = (harness(way, url, texts) if way in HARNESS
                    else through_server(served_by[0], texts) if served_by and pid
                    else all_at_once(way, url, texts))
        wall = time.perf_counter() - started
    served = stats(url)
    rss = (rss_mb() if pid is None
           else int(_status(pid)["VmHWM"].split()[0]) / 1024)  # the server's peak
    return {"busy": busy, "count": count, "way": way, "wall_s": round(wall, 2),
            "x_floor": round(wall / latency, 1), "per_s": round(count / wall, 1),
            "peak_in_flight": served["peak"], "calls": served["calls"],
            "refused": served["refused"], "peak_threads": peaks.threads, "rss_mb": round(rss),
            "not_passed": sum(o is not None and not o.validation_passed for o in outcomes)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--busy", type=float, default=0.33,
                        help="share of calls answered 429 in the storm runs (0: none)")
    parser.add_argument("--in-flight", type=int, default=32,
                        help="the validators' max_calls_in_flight")
    parser.add_argument("--soak", type=int, default=1000,
                        help="validations through one AsyncGuard, 64 at a time, for memory (0: none)")
    parser.add_argument("--skip-server", action="store_true",
                        help="leave out the Guardrails server (guardrails-api, the dev extra)")
    parser.add_argument("--shell", choices=("loop", "asyncio-run"), default="loop",
                        help="how synchronous callers run the validation's coroutines")
    parser.add_argument("--no-freeze", action="store_true",
                        help="no gc.freeze() after the warm-up: full collections scan what the "
                             "libraries loaded")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    global IN_FLIGHT, SHELL
    IN_FLIGHT, SHELL = args.in_flight, args.shell
    import provenance_guard  # noqa: F401 - before guardrails and litellm: offline settings

    if SHELL == "asyncio-run":
        _asyncio_run_shell()

    rows: list[dict] = []
    memory: list[tuple[int, float]] = []
    for busy in (0.0, args.busy) if args.busy else (0.0,):
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(args.latency), str(busy)],
                                  stdout=subprocess.PIPE, text=True)
        try:
            url = f"http://127.0.0.1:{server.stdout.readline().strip()}/v1"
            with contextlib.ExitStack() as stack:
                served_by = (None if args.skip_server
                             else stack.enter_context(guardrails_server(url)))
                for n, way in enumerate(_ways(busy, None)):  # each way's first use untimed
                    (harness if way in HARNESS else all_at_once)(way, url, [text(-1 - n)])
                if not args.no_freeze:
                    gc.collect()
                    gc.freeze()
                if served_by is not None:
                    through_server(served_by[0], [text(-2)])  # the server's, likewise
                stats(url)
                for count in args.count:
                    rows += [_run(way, busy, count, url, served_by, args.latency)
                             for way in _ways(busy, served_by)]
            if not busy and args.soak:
                memory = soak(url, args.soak)
                stats(url)  # its calls are not the next row's
            if not busy:
                wall = one_at_a_time(url)
                rows.append({"busy": 0.0, "count": 1, "way": "one at a time",
                             "wall_s": round(wall, 3), "x_floor": round(wall / args.latency, 2),
                             "per_s": round(1 / wall, 1), "peak_in_flight": 1,
                             "calls": stats(url)["calls"], "refused": 0,
                             "peak_threads": threading.active_count(),
                             "rss_mb": round(rss_mb()), "not_passed": 0})
        finally:
            server.kill()
            server.wait()
    if args.json:
        print(json.dumps({"runs": rows, "memory": memory}, indent=2))
        return 0
    print(f"server latency {args.latency} s (the floor); {os.cpu_count()} cores")
    print(f"{'429s':>5} {'at once':>7} {'through':<18} {'wall s':>7} {'x floor':>7} {'per s':>6} "
          f"{'in flight':>9} {'calls':>6} {'429':>5} {'threads':>7} {'RSS MB':>7} {'not passed':>10}")
    for r in rows:
        print(f"{r['busy']:>5.2f} {r['count']:>7} {HARNESS.get(r['way'], r['way']):<18} "
              f"{r['wall_s']:>7} "
              f"{r['x_floor']:>7} {r['per_s']:>6} {r['peak_in_flight']:>9} {r['calls']:>6} "
              f"{r['refused']:>5} {r['peak_threads']:>7} {r['rss_mb']:>7} {r['not_passed']:>10}")
    if memory:
        print("\nresident memory through one AsyncGuard, 64 at a time: "
              + ", ".join(f"{mb:,.0f} MB after {done:,}" for done, mb in memory
                          if done in (memory[0][0], memory[len(memory) // 2][0], memory[-1][0]))
              + f" (grown {memory[-1][1] - memory[0][1]:+,.0f} MB after the first wave)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
