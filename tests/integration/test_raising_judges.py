"""A judge whose code raises what is not an ``Exception`` (``SystemExit``,
``KeyboardInterrupt``, ``GeneratorExit``, a ``BaseException`` of its own) fails its own call and
nothing else: a callable's validation fails closed with a reason naming what was raised (a judge
object's raises it to its caller as a ``RuntimeError``, as any error of the object's is; a
verdict whose label is a str subclass that would raise it is refused before any of its methods
run), and a validation running beside it and the next one in the same process pass as usual.
An ``async def`` judge that blocks its loop (``time.sleep``) holds up neither: its validation
ends by its deadline.
Each run is a process of its own (``raising_judge_run.py``): a wedged loop shows as a timeout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).with_name("raising_judge_run.py")
DEADLINE = 4.0  # raising_judge_run.DEADLINE
MARGIN = 1.0  # runtime.deadline.ABANDON_AFTER: what a validation may take past its deadline


def run(kind: str, thrown: str) -> dict:
    try:
        done = subprocess.run([sys.executable, str(RUN), kind, thrown], capture_output=True,
                              text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a {kind} judge raising {thrown} wedged the process")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", ["plain", "async", "object", "verdict"])
@pytest.mark.parametrize("thrown", ["SystemExit", "KeyboardInterrupt", "GeneratorExit",
                                    "BaseException"])
def test_a_judge_raising_what_is_not_an_exception_fails_its_call_only(kind, thrown):
    seen = run(kind, thrown)
    raising = seen["raising"]
    if kind == "object":  # an object's errors reach its caller: this one as a RuntimeError
        assert raising["raised"].startswith(f"Raised: it raised {thrown}"), raising
    elif kind == "verdict":  # a label of a str subclass: refused, its own methods never run
        assert raising["raised"].startswith("ConfigurationError: Hostile.judge returned a "
                                            "Verdict of other types"), raising
    else:
        assert "raised" not in raising, raising
        assert raising["outcome"] == "fail" and thrown in raising["reason"], raising
    for honest in ("honest before", "beside", "after"):
        assert seen[honest].get("outcome") == "pass", (honest, seen[honest])


def test_an_async_judge_that_blocks_its_loop_holds_up_nothing():
    seen = run("async", "block")
    raising, beside = seen["raising"], seen["beside"]
    # its own validation ends by the deadline, though the judge sleeps 30 s in its loop
    assert raising["outcome"] == "fail" and "deadline" in raising["reason"], raising
    assert raising["seconds"] < DEADLINE + MARGIN + seen["honest before"]["seconds"] + 1.0
    # the validation beside it, started 0.3 s in, ended long before that deadline
    assert beside["outcome"] == "pass" and beside["ended"] < raising["ended"] - 1.0, seen
    assert seen["after"]["outcome"] == "pass"


def test_the_validation_loop_serves_on_after_a_task_raises_system_exit():
    """Whatever raises ``SystemExit`` in a task on the validation loop (asyncio raises it out of
    the loop too), the loop goes on: the task's caller gets it, the next coroutine runs."""
    from provenance_guard.runtime.loop import submit

    async def exits():
        raise SystemExit(7)

    async def answers():
        return "served"

    with pytest.raises(SystemExit):
        submit(exits()).result(timeout=10)
    assert submit(answers()).result(timeout=10) == "served"
