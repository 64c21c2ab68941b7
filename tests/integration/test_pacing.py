"""`--rpm`: requests reach the server at least 60 / rpm seconds apart, from the first one on.

A slot from the pacer is a time to start sending; a request that stalls on its way out (LiteLLM
sets itself up on a process's first request, and requests started meanwhile wait for it) must
not let the slots that pass meanwhile go out together with it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import REPO, ScriptedJudge, model_flags

from provenance_guard.evaluation.pacing import pace
from provenance_guard.judges.callable_judge import CallableJudge
from provenance_guard.judges.limits import Pacer

BIN = Path(sys.executable).parent


def _gaps(arrivals: list[float]) -> list[float]:
    times = sorted(arrivals)
    return [b - a for a, b in zip(times, times[1:], strict=False)]


def test_a_first_request_that_stalls_does_not_bring_the_next_ones_with_it():
    set_up, ready, arrivals = threading.Lock(), threading.Event(), []

    def complete(prompt: str) -> str:
        with set_up:  # a one-time set-up every caller waits for, as LiteLLM's first call
            if not ready.is_set():
                time.sleep(0.5)
                ready.set()
        arrivals.append(time.monotonic())
        return "SUPPORTED"

    judge = CallableJudge(complete)
    pace(judge, Pacer(600).reserve)  # 0.1 s apart

    async def six_at_once() -> None:
        await asyncio.gather(*(judge.caller.transport("claim", 16, None) for _ in range(6)))

    asyncio.run(six_at_once())
    # unpaced for the stall, the slots at 0.1-0.4 s all leave at 0.5 s, with the first; a
    # thread a busy machine wakes late shortens the gap after it, never the span
    assert len(arrivals) == 6 and max(arrivals) - min(arrivals) >= 5 * 0.1 - 0.02, _gaps(arrivals)
    assert min(_gaps(arrivals)) >= 0.05, _gaps(arrivals)


def test_a_fresh_process_keeps_the_limit_from_its_first_request(chat_server, tmp_path):
    """The command in a new process (LiteLLM not yet set up), four threads, real HTTP."""
    judge, arrivals = ScriptedJudge(), []

    def reply(prompt: str) -> str:
        arrivals.append(time.monotonic())
        return judge(prompt)

    server = chat_server(reply)
    data = tmp_path / "data.jsonl"
    source = (REPO / "examples/eiffel_visiting.txt").read_text()
    data.write_text("".join(
        json.dumps({"id": f"s{i}", "output": f"The tower has {i + 2} levels.",
                    "sources": [source]}) + "\n" for i in range(6)))
    run = subprocess.run(
        [str(BIN / "provenance"), "eval", str(data), "--out", str(tmp_path / "out.jsonl"),
         "--rpm", "240", "--concurrency", "4", "--no-cache", "--json", *model_flags(server)],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr[-3000:]  # every sample validated, and each fails
    # 0.25 s apart; before the fix the first two arrived 10 ms apart
    assert len(arrivals) == 6 and max(arrivals) - min(arrivals) >= 5 * 0.25 - 0.1, _gaps(arrivals)
    assert min(_gaps(arrivals)) >= 0.125, _gaps(arrivals)
