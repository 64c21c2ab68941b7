"""A validation owns its threads: when it returns or raises (directly, through a Guard or an
AsyncGuard), it has started none that still runs but the fixed set the process keeps (the
validation loop, the encoding thread, the bounded pool), and a judge call in flight at the
deadline, which cannot be killed, starts nothing new; a process that exits right after never
aborts."""

import asyncio
import subprocess
import sys
import threading
import time

import pytest
from conftest import REPO, ScriptedJudge, toy_metadata
from guardrails import AsyncGuard, Guard

from provenance_guard import ProvenanceLLM
from provenance_guard.errors import ConfigurationError
from provenance_guard.runtime.loop import LOOP_THREAD
from provenance_guard.runtime.pool import POOL_WORKERS

DISTINCT = " ".join(f"The tower has a feature called item {chr(97 + i % 26)}{i // 26}." for i in
                    range(300))
REPEATED = "- Not stated.\n" * 12


_EARLIER: set[threading.Thread] = set()


@pytest.fixture(autouse=True)
def earlier_threads():
    """The validator's threads alive before the test (an earlier test's judge call that was in
    flight at its deadline may still be ending): not this test's."""
    _EARLIER.clear()
    _EARLIER.update(threading.enumerate())
    yield


def kept_by_the_process() -> dict[str, int]:
    """The threads the process keeps, by kind: each kind is bounded."""
    kinds = {LOOP_THREAD: 0, "provenance-encode": 0, "provenance-pool": 0}
    for thread in threading.enumerate():
        for kind in kinds:
            kinds[kind] += thread.name.startswith(kind)
    return kinds


def ours() -> list[threading.Thread]:
    """The validator's threads started during the test, other than those the process keeps."""
    return [t for t in threading.enumerate()
            if t.name.startswith("provenance") and t not in _EARLIER
            and not any(t.name.startswith(kind) for kind in kept_by_the_process())]


def test_the_threads_the_process_keeps_are_bounded():
    validator = ProvenanceLLM(llm_callable=ScriptedJudge(latency=0.01), max_concurrency=64,
                              on_fail="noop")
    for _ in range(3):
        validator.validate(DISTINCT, toy_metadata())
    kept = kept_by_the_process()
    assert kept[LOOP_THREAD] == 1 and kept["provenance-encode"] <= 1
    assert 0 < kept["provenance-pool"] <= POOL_WORKERS and ours() == []


def join_ours() -> None:
    """Wait for the judge calls still in flight (one ends after the validation returns) to end:
    the pool's threads stay, idle, so each is given time to finish its call."""
    time.sleep(1.0)  # more than a scripted call's latency in these tests


@pytest.mark.parametrize("text", [DISTINCT, REPEATED], ids=["300 distinct", "12 repeated"])
def test_no_thread_outlives_a_validation(text):
    validator = ProvenanceLLM(llm_callable=ScriptedJudge(), max_concurrency=4, on_fail="noop")
    result = validator.validate(text, toy_metadata())
    assert ours() == []
    assert result.metadata["sentences"]


def test_no_thread_outlives_a_guard_or_an_async_guard_call():
    Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), max_concurrency=4,
                              on_fail="noop")).validate(DISTINCT, metadata=toy_metadata())
    assert ours() == []
    guard = AsyncGuard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), max_concurrency=4,
                                           on_fail="noop"))
    asyncio.run(guard.validate(DISTINCT, metadata=toy_metadata()))
    assert ours() == []


def test_a_repeated_sentence_is_retrieved_and_judged_once_and_each_copy_shows_its_evidence():
    judge = ScriptedJudge()
    metadata = ProvenanceLLM(llm_callable=judge, on_fail="noop").validate(
        "The Eiffel Tower is in Paris. " * 12, toy_metadata()).metadata
    assert judge.statements == ["The Eiffel Tower is in Paris."]
    evidence = [s["evidence"] for s in metadata["sentences"]]
    assert len(evidence) == 12 and evidence[0] and all(e == evidence[0] for e in evidence)


def test_after_the_deadline_no_judge_call_starts_and_the_threads_end():
    judge = ScriptedJudge(latency=0.3)
    validator = ProvenanceLLM(llm_callable=judge, max_concurrency=2, deadline=0.5,
                              on_fail="noop")
    result = validator.validate(DISTINCT, toy_metadata())
    calls = len(judge.statements)
    assert calls < 300 and result.metadata["groundedness"]["counts"]["invalid"] > 0
    join_ours()
    assert len(judge.statements) == calls  # the calls in flight ended; none started after
    assert ours() == []


def test_after_a_validation_raises_no_judge_call_starts():
    calls, lock = [], threading.Lock()

    def judge(prompt):
        with lock:
            calls.append(prompt)
            third = len(calls) == 3
        time.sleep(0.05)
        if third:
            raise TypeError("a bug in the judge")  # a setup error: the validation raises
        return '{"reason": "ok", "verdict": "supported"}'

    validator = ProvenanceLLM(llm_callable=judge, max_concurrency=2, on_fail="noop")
    with pytest.raises(ConfigurationError, match="could not be called"):
        validator.validate(DISTINCT, toy_metadata())
    made = len(calls)
    join_ours()
    # the other worker's call may have passed its last check as the validation raised (it is
    # in flight, and arrives after): at most one; and none after the workers are gone
    ended = len(calls)
    time.sleep(0.2)
    assert len(calls) == ended <= made + 1 and ended < 300 and ours() == []


def test_a_process_that_exits_right_after_a_check_does_not_abort(tmp_path):
    source = tmp_path / "source.txt"
    source.write_text("The Eiffel Tower is in Paris. It was finished in 1889.")
    answer = tmp_path / "answer.txt"
    answer.write_text(REPEATED)  # judged once: the other copies' evidence came after the return
    done = subprocess.run([sys.executable, "-m", "provenance_guard.cli", "check", "--source",
                           str(source), "--text", str(answer)], capture_output=True, text=True,
                          cwd=REPO, timeout=600)
    assert done.returncode == 1, done.stderr[-2000:]  # the text fails; the process does not
    assert "terminate called" not in done.stderr
