"""A judge that never returns holds up nothing: 40 validations at once (from threads, and
through AsyncGuard) with a plain callable or a judge object's synchronous ``judge()`` that never
returns all end by their deadline, every sentence invalid with a reason naming the deadline (or,
once the judge's threads all hang, the calls still running that keep it from being called); a
validation
judged through LiteLLM meanwhile (real HTTP) ends in its normal time; a later call to the hung
judge is refused at once, saying why; and the process exits without waiting for the abandoned
calls. Each run is a process of its own (``hung_judge_run.py``), timed from outside."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import agrees

RUN = Path(__file__).with_name("hung_judge_run.py")
COUNT, DEADLINE = 40, 2.0
MARGIN = 1.0  # seconds past the deadline a validation may take to return: the stated margin
EXIT = 2.0  # seconds the exit may take beyond that of the same run with a judge that answers
# The machine's pace is measured, not assumed: the same run with a judge that answers at once,
# just before, is the time the 40 validations' own work takes here (splitting, embedding,
# retrieval, the results). A hung judge may add the deadline and the margin to it, no more;
# a busy machine slows both runs alike.


def run(kind: str, mode: str, url: str) -> tuple[dict, float]:
    """What the run printed, and the seconds from its last line to its exit."""
    process = subprocess.Popen([sys.executable, str(RUN), kind, mode, str(COUNT), str(DEADLINE),
                                url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    printed = time.monotonic()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the process did not exit within 60 s of its last line")
    exited = time.monotonic() - printed
    assert process.returncode == 0 and line, process.stderr.read()[-3000:]
    return json.loads(line), exited


@pytest.fixture(scope="module")
def server():
    from conftest import ChatServer

    chat = ChatServer(agrees)
    yield chat
    chat.close()


@pytest.mark.parametrize("kind", ["callable", "object"])
@pytest.mark.parametrize("mode", ["threads", "async"])
def test_validations_with_a_judge_that_never_returns_end_by_their_deadline(server, kind, mode):
    # how long the same run takes to exit when its judge answers, measured just before: the
    # libraries' own teardown (torch, Guardrails, LiteLLM), which no hung call may add to
    answered, answering_exit = run("answers", mode, server.url)
    assert answered["joined_at_exit"] == []
    seen, exited = run(kind, mode, server.url)
    own_work = answered["elapsed"]
    assert seen["elapsed"] <= DEADLINE + MARGIN + own_work, (seen["elapsed"], own_work)
    assert seen["passed"] == [False] * COUNT
    assert len(seen["reasons"]) == COUNT
    late = "[invalid: no verdict before the validation's deadline"
    refused = "[invalid: the judge was not called: 32 calls to this judge are still running"
    for reason in seen["reasons"]:  # a call is cut off at the deadline, or (once the judge's
        sentences = reason.splitlines()[1:]  # 32 threads hang) refused at once
        assert len(sentences) == 7 and all(late in line or refused in line
                                           for line in sentences), reason
    assert any(f"{late} (its call was waiting for the judge's reply)]" in reason
               for reason in seen["reasons"])
    # LiteLLM's calls never waited behind the hung ones (before, they queued behind them for
    # as long as they hung, and the validation failed at its deadline): it passed, its judge
    # answering, and took no longer than its own work beside the 40 (the CPU is shared)
    meanwhile = seen["litellm_meanwhile"]
    assert meanwhile["passed"], seen
    assert meanwhile["seconds"] <= seen["litellm_normal"] + own_work + MARGIN, seen
    # the hung calls still hold every thread the judge may have: the next call is refused at
    # once, saying why, rather than queued behind them (queued, it would end at its deadline
    # with the deadline's reason)
    after = seen["after"]
    assert not after["passed"], after
    assert "still running, 32 of them past the deadline" in after["reasons"][0], after
    # nothing the interpreter waits for at exit is left running: the hung calls' threads are
    # daemons, abandoned
    assert seen["joined_at_exit"] == []
    assert exited <= 2 * answering_exit + EXIT, (exited, answering_exit)
