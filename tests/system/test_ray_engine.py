"""`provenance eval --engine ray` on a real Ray cluster: a head node and a second node started
with `ray start` on 127.0.0.1, the real default embedder, an LLM judge over real HTTP (a local
server this test runs) with a cluster-wide requests-per-minute limit. Every id's outcome and
verdicts are compared with the threads engine's; the run is stopped half-way and resumed.

The cluster lives in a temporary directory of its own and is stopped in the fixture's
finaliser, failure or not: the `ray start --block` processes are ended by their ids and every
process they started is checked gone."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import REPO, ScriptedJudge, model_flags

from provenance_guard import cli

pytestmark = pytest.mark.slow

if not os.environ.get("PROVENANCE_RAY_REQUIRED"):  # .ci/run requires it; elsewhere, optional
    pytest.importorskip("ray", reason="the Ray engine's extra: pip install -e '.[dev]'")

BIN = Path(sys.executable).parent
HISTORY = (REPO / "examples/eiffel_history.txt").read_text()
VISITING = (REPO / "examples/eiffel_visiting.txt").read_text()
OUTPUTS = [  # each distinct, so no prompt is answered from another sample's cache
    "The tower has three levels open to visitors.",
    "It was painted gold for the 2024 Olympic Games.",
    "Visitors can climb the stairs to the second level or take one of the lifts.",
    "The tower is made of solid gold.",
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France.",
    "The tower was moved to London in 1950.",
    "About 6 million people visit the tower each year.",
    "Gustave Eiffel painted the tower himself every summer.",
]
TOOL_SHOWN = "(the result of the call call_9 to the tool get_visitors)\nvisitors_per_year"
RPM = 120  # one judge request every 0.5 s, for the whole cluster
STEP = 25  # seconds: the unit of this test's waits (a loaded 2-core machine is slow)
ATTEMPTS = 3  # starts of a node before the test gives up


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for probe in sockets:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in sockets]
    finally:
        for probe in sockets:
            probe.close()


def _node_ports(ports: list[int]) -> list[str]:
    names = ["--node-manager-port", "--object-manager-port", "--dashboard-agent-grpc-port",
             "--dashboard-agent-listen-port", "--metrics-export-port", "--runtime-env-agent-port"]
    return [part for name, port in zip(names, ports, strict=True) for part in (name, str(port))]


def _sessions() -> dict[int, int]:
    """Every process's session id, by process id."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != "Z":
                found[int(entry.name)] = int(fields[3])
    return found


def _in_sessions(leaders: set[int]) -> set[int]:
    """The live processes of the sessions ``leaders`` lead: each node's `ray start` is started
    in a session of its own, and everything it starts (GCS, raylet, agents, workers, even
    once re-parented) stays in it."""
    return {pid for pid, session in _sessions().items() if session in leaders}


class Cluster:
    def __init__(self):
        # short: Ray's socket paths under it must stay within the 107 bytes Unix allows
        self.temp = tempfile.mkdtemp(prefix="pg-ray-")
        self.nodes: list[subprocess.Popen] = []
        gcs, self._client, *self._ports = _free_ports(14)
        self.address = f"127.0.0.1:{gcs}"

    def start(self) -> None:
        # a loaded machine: give the raylet's agents time to register; nothing to drain at
        # the end (the default waits 30 s for running work)
        env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0",
               "RAY_agent_register_timeout_ms": "120000", "RAY_raylet_start_wait_time_s": "120",
               "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}
        # no log monitor or autoscaler monitor: fewer Python processes starting at once beside
        # the raylet's agents, which must start within 15 s
        common = ["--num-cpus", "1", "--object-store-memory", str(80 * 2**20),
                  "--include-log-monitor=false", "--block"]
        port = self.address.rsplit(":", 1)[1]
        self._start([str(BIN / "ray"), "start", "--head", "--port", port,
                     "--ray-client-server-port", str(self._client), "--no-monitor", "--temp-dir", self.temp,
                     "--include-dashboard=false", *_node_ports(self._ports[:6]), *common], env)
        self._start([str(BIN / "ray"), "start", "--address", self.address,
                     *_node_ports(self._ports[6:12]), *common], env)

    def _start(self, command: list[str], env: dict) -> None:
        """Start a node; on a loaded machine Ray's agents can miss `ray start`'s 30 s window
        for the raylet to register, so a node that fails is cleared away and started again."""
        number = len({path.name.split("-")[0] for path in Path(self.temp).glob("node*.log")})
        for attempt in range(1, ATTEMPTS + 1):
            log_path = Path(self.temp, f"node{number}-{attempt}.log")
            with open(log_path, "w") as log:
                # Ray's raylet gives its Python agents 15 s (fixed in Ray) to start: on a
                # loaded machine they need a higher priority to make it (where allowed; `nice`
                # runs the command as it is otherwise). Set back once the node is up.
                node = subprocess.Popen(["nice", "-n", "-10", *command], stdout=log,
                                        stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
            self.nodes.append(node)
            deadline = time.monotonic() + 4 * STEP
            while "Ray runtime started" not in log_path.read_text():  # it joined the GCS
                if node.poll() is not None or time.monotonic() > deadline:
                    break
                time.sleep(1)
            else:
                for pid in _in_sessions({node.pid}):
                    with contextlib.suppress(OSError):
                        os.setpriority(os.PRIO_PROCESS, pid, 0)
                return
            if attempt == ATTEMPTS:
                raise AssertionError(f"a Ray node did not start:\n{self.logs()}")
            self._end({node.pid})

    def logs(self) -> str:
        return "\n".join(path.read_text()[-2000:]
                         for path in sorted(Path(self.temp).glob("node*.log")))

    def stop(self) -> list[int]:
        """End the nodes and everything they started; the ids of any process that survived."""
        self._end({node.pid for node in self.nodes})
        shutil.rmtree(self.temp, ignore_errors=True)
        return sorted(_in_sessions({node.pid for node in self.nodes}))

    def _end(self, leaders: set[int]) -> None:
        nodes = [node for node in self.nodes if node.pid in leaders]
        for node in nodes:
            if node.poll() is None:
                node.send_signal(signal.SIGTERM)  # `ray start --block` stops its processes
        for node in nodes:
            try:
                node.wait(timeout=STEP)
            except subprocess.TimeoutExpired:
                node.kill()
                node.wait()
        deadline = time.monotonic() + STEP
        while _in_sessions(leaders) and time.monotonic() < deadline:
            time.sleep(0.5)
        for pid in _in_sessions(leaders):  # what outlived its node: ours, ended by id
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)


@pytest.fixture(scope="module")
def ray_cluster():
    cluster = Cluster()
    try:
        cluster.start()
        yield cluster
    finally:
        survivors = cluster.stop()
        assert not survivors, f"Ray processes outlived the cluster: {survivors}"


def _judge_server(chat_server):
    """The judge's server: a scripted judge that notes when each request arrived (and keeps
    its prompt in ``judge.prompts``)."""
    judge, arrivals = ScriptedJudge(), []

    def reply(prompt: str) -> str:
        arrivals.append(time.monotonic())
        return judge(prompt)

    server = chat_server(reply)
    server.judge = judge
    return server, arrivals


def _eval_ray(data: Path, out: Path, cluster: Cluster, server, *extra: str):
    command = [str(BIN / "provenance"), "eval", str(data), "--engine", "ray", "--address",
               cluster.address, "--actors", "2", "--actor-cpus", "0.75", "--out", str(out),
               "--rpm", str(RPM), "--no-cache", "--json", *model_flags(server), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=8 * STEP)


def _essence(record: dict) -> dict:
    """What an engine must not change: the outcome, and each sentence's verdict and evidence."""
    return {
        "passed": record["passed"], "faithfulness": record["faithfulness"],
        "level": record["level"], "counts": record["counts"],
        "sentences": [(s["text"], s["verdict"], s["score"],
                       [(e["source"], e["start"], e["end"],
                         None if e["similarity"] is None else round(e["similarity"], 3),
                         e["tool"] and e["tool"]["call_id"], len(e["fields"]))
                        for e in s["evidence"]]) for s in record["sentences"]],
    }


def _paced(arrivals: list[float], at_once: int) -> bool:
    """Whether requests kept to RPM: no more than ``at_once`` within one interval, and over the
    whole run the rate within the limit. A process's first request can be late by LiteLLM's
    set-up, so with several processes their first requests may meet: one per process at most
    (`evaluation/pacing.py`). Unpaced, 4 threads or 2 actors x 4 samples in flight send 4 or
    more at once; paced as before the fix, 4 arrived within 5 ms."""
    times, interval = sorted(arrivals), 60 / RPM
    most = max(sum(1 for u in times if t <= u < t + 0.8 * interval) for t in times)
    return most <= at_once and times[-1] - times[0] >= (len(times) - at_once) * interval * 0.8


def test_ray_engine_on_a_two_node_cluster_matches_threads_and_resumes(
        ray_cluster, chat_server, tmp_path, capsys):
    data = tmp_path / "data.jsonl"
    # the first sample answers inside a conversation, which must reach the judge from an actor
    chat = [{"role": "user", "content": "We visit Paris next week. How many levels are open?"}]
    # and the seventh after a tool call, whose result must reach the judge from an actor too
    looked_up = [{"role": "user", "content": "How many people visit it?"},
                 {"role": "assistant", "content": None, "tool_calls": [{
                     "id": "call_9", "type": "function",
                     "function": {"name": "get_visitors", "arguments": "{}"}}]},
                 {"role": "tool", "tool_call_id": "call_9",
                  "content": json.dumps({"visitors_per_year": 6_000_000})}]
    conversations = {0: chat, 6: looked_up}
    data.write_text("".join(json.dumps({"id": f"s{i}", "output": output,
                                        "sources": [HISTORY, VISITING]}
                                       | ({"messages": conversations[i]}
                                          if i in conversations else {})) + "\n"
                            for i, output in enumerate(OUTPUTS)))
    server, arrivals = _judge_server(chat_server)

    # the threads engine, in this process: the reference
    assert cli.main(["eval", str(data), "--out", str(tmp_path / "threads.jsonl"), "--no-cache",
                     "--rpm", str(RPM), "--json", *model_flags(server)]) == 1  # s1, s3... fail
    capsys.readouterr()
    threads = {r["id"]: r for r in map(json.loads, (tmp_path / "threads.jsonl").open())}
    assert _paced(arrivals, at_once=1), arrivals  # the limit held across the threads
    assert {i for i, r in threads.items() if not r["passed"]} == {"s1", "s3", "s5", "s7"}
    assert sum("We visit Paris next week" in p for p in server.judge.prompts) == 1
    assert sum(TOOL_SHOWN in p for p in server.judge.prompts) == 1
    server.judge.prompts.clear()

    # Ray: stopped half-way, then resumed
    out = tmp_path / "ray.jsonl"
    arrivals.clear()
    half = _eval_ray(data, out, ray_cluster, server, "--limit", "4")
    assert half.returncode == 1, half.stderr[-3000:]  # s1 and s3 fail
    first = out.read_text()
    assert len(first.splitlines()) == 4 and len(arrivals) == 4
    rest = _eval_ray(data, out, ray_cluster, server)
    assert rest.returncode == 1, rest.stderr[-3000:]
    summary = json.loads(rest.stdout)
    assert summary["samples"] == 8 and summary["errors"] == 0

    text = out.read_text()
    assert text.startswith(first)  # what the first run wrote was kept, not redone
    ids = [json.loads(line)["id"] for line in text.splitlines()]
    assert sorted(ids) == sorted(threads)  # every id exactly once
    assert len(arrivals) == 8  # one judge request per sample: nothing validated twice
    assert sum("We visit Paris next week" in p for p in server.judge.prompts) == 1
    assert sum(TOOL_SHOWN in p for p in server.judge.prompts) == 1
    ray = {json.loads(line)["id"]: json.loads(line) for line in text.splitlines()}
    for sample_id, record in threads.items():
        assert _essence(ray[sample_id]) == _essence(record), sample_id
    # two actors, four samples each in flight, one limit: requests stayed 0.5 s apart, but for
    # the two actors' first requests, which may meet
    assert _paced(arrivals[:4], at_once=2) and _paced(arrivals[4:], at_once=2), arrivals
