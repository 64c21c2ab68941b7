"""One path: every entry point runs the same coroutines, statements that go out one per call go
out together, the deadline cancels what is in flight and frees its slots, and the limits are
shared by every validation of the process, synchronous and awaited alike."""

from __future__ import annotations

import asyncio
import threading
import time

from conftest import GOOD, ScriptedJudge, agrees, caught_warnings, litellm_validator, toy_metadata
from guardrails import AsyncGuard, Guard

from provenance_guard import ProvenanceLLM

HUB_REPLY = "<analysis>read the passages</analysis>\n<supported>[YES]</supported>"
SIX = " ".join(f"The tower has a {colour} door." for colour in
               ("red", "blue", "green", "white", "black", "yellow"))


def test_a_hub_style_callable_is_asked_one_statement_per_call_all_at_once():
    # it answers only in the hub's format: the batched prompt gets nothing readable, and the
    # statements are then asked one per call, concurrently, not one after another
    judge = ScriptedJudge(latency=0.3, reply=HUB_REPLY)
    validator = ProvenanceLLM(llm_callable=judge, on_fail="noop")
    with caught_warnings() as warned:
        first = validator.check(SIX, toy_metadata())
        second = validator.check(SIX.replace("door", "gate"), toy_metadata())
    assert [str(s.label) for s in first.sentences + second.sentences] == ["supported"] * 12
    assert len(judge.batches) == 1 and len(judge.alone) == 12  # batching off after one reply
    assert judge.max_in_flight >= 4  # counted where the calls arrive, not timed
    said = [w for w in warned if "one statement per call" in w]
    assert len(said) == 1 and "batch_size=1" in said[0]


def test_the_batching_decision_is_made_once_under_threads():
    judge = ScriptedJudge(latency=0.05, reply=HUB_REPLY)
    validator = ProvenanceLLM(llm_callable=judge, on_fail="noop")
    with caught_warnings() as warned:
        threads = [threading.Thread(target=validator.check,
                                    args=(SIX.replace("door", f"door {n}"), toy_metadata()))
                   for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert validator.judge.reads_batches is False
    assert len([w for w in warned if "one statement per call" in w]) == 1


def test_the_deadline_cancels_calls_in_flight_and_frees_their_slots(chat_server):
    server = chat_server(ScriptedJudge())
    server.faults = [("slow", 8.0)]  # the first call hangs far past the deadline
    # a deadline wide enough for a busy machine to judge one sentence, far short of the hang
    validator = litellm_validator(server.url, max_calls_in_flight=1, deadline=2.5)
    late = validator.check(GOOD, toy_metadata())
    [sentence] = late.sentences
    assert str(sentence.label) == "invalid" and "deadline" in sentence.verdict.reason
    # the one slot was freed when the call was cancelled: the next validation gets it at once
    # (held, it would wait for it past its own deadline and say so)
    again = validator.check("It is 330 metres tall.", toy_metadata())
    assert str(again.sentences[0].label) == "supported", again.sentences[0].verdict.reason
    assert len(server.requests) == 2


def test_a_validators_calls_go_over_one_kept_open_connection(chat_server):
    # a call's timeout is the same for every call (not the time left): LiteLLM keeps one client,
    # and its connections, per timeout; one that changed per call opened a connection each
    server = chat_server(agrees)
    server.keep_alive = True
    validator = litellm_validator(server.url, deadline=30)
    for text in ("It is 330 metres tall.", "It was finished in 1889.", GOOD):
        assert validator.check(text, toy_metadata()).passed
    assert len(server.requests) == 3
    assert len({request["connection"] for request in server.requests}) == 1


def test_threads_and_tasks_of_another_loop_share_max_calls_in_flight():
    in_flight, peak, lock = [0], [0], threading.Lock()

    async def judge(prompt: str) -> str:  # async: awaited on the loop of whoever awaits
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        await asyncio.sleep(0.05)
        with lock:
            in_flight[0] -= 1
        return '{"reason": "scripted", "verdict": "supported"}'

    validator = ProvenanceLLM(llm_callable=judge, max_calls_in_flight=4, on_fail="noop")
    texts = [f"Sentence number {n} is here." for n in range(64)]
    results: list = []

    def awaited_on_another_loop() -> None:
        async def main():
            return await asyncio.gather(*(validator.acheck(t, toy_metadata()) for t in texts))

        results.extend(asyncio.run(main()))

    tasks = threading.Thread(target=awaited_on_another_loop)
    threads = [threading.Thread(target=lambda t=t: results.append(
        validator.check(t, toy_metadata()))) for t in texts]
    tasks.start()
    for thread in threads:
        thread.start()
    for thread in [tasks, *threads]:
        thread.join()
    assert len(results) == 128 and all(r.sentences[0].verdict.label == "supported"
                                       for r in results)
    assert peak[0] == 4  # never more, from either side, and reached


def test_a_synchronous_validation_inside_a_running_event_loop():
    validator = ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop")

    async def notebook_cell():  # Jupyter runs cells on a loop of its own
        return validator.validate(GOOD, toy_metadata())

    assert asyncio.run(notebook_cell()).outcome == "pass"


def test_a_guard_and_an_async_guard_give_the_same_result():
    text = f"{GOOD} It is 500 metres tall."
    sync = Guard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop"))
    awaited = AsyncGuard().use(ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop"))
    one = sync.validate(text, metadata=toy_metadata())
    other = asyncio.run(awaited.validate(text, metadata=toy_metadata()))
    logs = [outcome.validation_summaries[0].failure_reason for outcome in (one, other)]
    assert one.validation_passed is other.validation_passed is False and logs[0] == logs[1]


def test_interrupting_a_synchronous_caller_cancels_its_validation():
    judge = ScriptedJudge(latency=0.2)
    validator = ProvenanceLLM(llm_callable=judge, max_concurrency=1, batch_size=1,
                              on_fail="noop", deadline=None)
    many = " ".join(f"Sentence {n} is here." for n in range(40))

    async def awaited_and_cancelled():
        task = asyncio.ensure_future(validator.async_validate(many, toy_metadata()))
        await asyncio.sleep(0.5)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True
        return False

    assert asyncio.run(awaited_and_cancelled())
    asked = len(judge.statements)
    time.sleep(0.6)  # a call in flight ends; no new one starts
    assert len(judge.statements) <= asked + 1 < 40
