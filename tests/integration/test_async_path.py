"""The awaited path (``AsyncGuard``, ``ProvenanceLLM.acheck``): judge calls are awaited on the
caller's event loop (LiteLLM's ``acompletion`` over real HTTP, an ``async def`` callable), no
thread waits in a judge call, the limits are the ones threads share, the deadline cancels a
call in flight, and the reports are the synchronous path's."""

import asyncio
import os
import sys
import threading

import pytest
from conftest import GOOD, ScriptedJudge, litellm_validator, toy_metadata
from guardrails import AsyncGuard

import provenance_guard
from provenance_guard import ProvenanceLLM

TEXTS = [" ".join(f"Fact {j} of answer {n} is stated here." for j in range(3)) for n in range(8)]
JUDGE_CALL = ("complete", "_call", "one_call", "_reply")  # a judge call's frames
PACKAGE = os.path.dirname(provenance_guard.__file__)


_EARLIER: set[threading.Thread] = set()


@pytest.fixture(autouse=True)
def earlier_threads():
    """The threads alive before the test (an earlier test's call in flight at its deadline may
    still be ending in one): not this test's."""
    _EARLIER.clear()
    _EARLIER.update(threading.enumerate())
    yield


def threads_in_a_judge_call() -> int:
    """Threads this test started whose stack is inside a synchronous judge call now."""
    earlier = {thread.ident for thread in _EARLIER} | {threading.get_ident()}
    return sum(any(frame.f_code.co_name in JUDGE_CALL and
                   frame.f_code.co_filename.startswith(PACKAGE) for frame in _stack(top))
               for ident, top in sys._current_frames().items() if ident not in earlier)


def _stack(frame):
    while frame is not None:
        yield frame
        frame = frame.f_back


class Watching(ScriptedJudge):
    """The server's judge, noting at each call how many client threads wait in a judge call."""

    def __init__(self):
        super().__init__(rule=lambda statement, passages: True, latency=0.2)
        self.threads_waiting: list[int] = []

    def __call__(self, prompt: str) -> str:
        self.threads_waiting.append(threads_in_a_judge_call())
        return super().__call__(prompt)


async def validate_all(validator, texts):
    guard = AsyncGuard().use(validator)
    return await asyncio.gather(*(guard.validate(t, metadata=toy_metadata()) for t in texts))


def test_async_guard_awaits_litellm_and_no_thread_waits_in_a_call(chat_server, monkeypatch):
    import litellm

    judge = Watching()
    server = chat_server(judge)

    def not_here(**request):
        raise AssertionError("an awaited validation called litellm.completion")

    monkeypatch.setattr(litellm, "completion", not_here)
    outcomes = asyncio.run(validate_all(litellm_validator(server.url, max_concurrency=4),
                                        TEXTS))
    assert [o.validation_passed for o in outcomes] == [True] * len(TEXTS)
    assert len(server.requests) >= len(TEXTS) and judge.max_in_flight > 1
    assert judge.threads_waiting and max(judge.threads_waiting) == 0


def test_the_synchronous_path_holds_no_thread_in_its_calls_either(chat_server):
    # validate() in threads runs the same coroutines, on the process's validation loop
    judge = Watching()
    server = chat_server(judge)
    validator = litellm_validator(server.url, max_concurrency=4)
    threads = [threading.Thread(target=validator.validate, args=(t, toy_metadata()))
               for t in TEXTS[:4]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(server.requests) >= 4 and max(judge.threads_waiting) == 0


def test_an_async_def_judge_runs_on_a_loop_of_its_own_whoever_awaits():
    scripted = ScriptedJudge()
    loops: list = []

    async def judge(prompt: str) -> str:
        loops.append((threading.current_thread(), asyncio.get_running_loop()))
        await asyncio.sleep(0.01)
        return scripted(prompt)

    texts = [GOOD, "The Eiffel Tower is in Paris. It was painted gold in 2024."]
    validator = ProvenanceLLM(llm_callable=judge, on_fail="noop")

    async def run():
        reports = [await validator.acheck(t, toy_metadata()) for t in texts]
        return reports, asyncio.get_running_loop()

    reports, loop = asyncio.run(run())
    synchronous = validator.check(GOOD, toy_metadata())
    # one loop, the judge's, in a thread that is neither the caller's nor the validation loop's
    assert len(set(loops)) == 1
    (thread, its_loop), = set(loops)
    assert its_loop is not loop and thread.name == "provenance-judge-loop"
    sync = ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop")
    assert [r.metadata() for r in reports] == [
        sync.check(t, toy_metadata()).metadata() for t in texts]
    assert [r.passed for r in reports] == [True, False] and synchronous.passed


def test_an_async_def_judge_also_serves_a_synchronous_validation():
    async def judge(prompt: str) -> str:
        await asyncio.sleep(0)
        return ScriptedJudge()(prompt)

    result = ProvenanceLLM(llm_callable=judge, on_fail="noop").validate(GOOD, toy_metadata())
    assert result.outcome == "pass"


@pytest.mark.parametrize("options", [{}, {"batch_size": 1}, {"validation_method": "claim"},
                                     {"cascade_verbatim": True, "cascade_contradictions": True},
                                     {"first_judge": "local"},
                                     {"validation_method": "claim", "fix_mode": "correct"}],
                         ids=["batched", "one per call", "claims", "cascade", "cheap first",
                              "corrections"])
def test_the_awaited_path_reports_what_the_synchronous_one_does(options):
    texts = [GOOD, "The Eiffel Tower is in Rome. It is 330 metres tall.",
             "The Eiffel Tower is in Paris. It was painted gold in 2024.", TEXTS[0]]

    def validator():
        judge = ScriptedJudge(rewrite=lambda sentence, passages: "The Eiffel Tower is in Paris.")
        return ProvenanceLLM(llm_callable=judge, on_fail="fix", **options)

    async def awaited():
        one = validator()
        return [(await one.acheck(t, toy_metadata())).metadata() for t in texts]

    one = validator()
    assert asyncio.run(awaited()) == [one.check(t, toy_metadata()).metadata() for t in texts]


def test_calls_in_flight_are_capped_across_tasks_and_threads(chat_server):
    judge = ScriptedJudge(rule=lambda statement, passages: True, latency=0.1)
    server = chat_server(judge)
    options = {"max_concurrency": 8, "max_calls_in_flight": 2, "batch_size": 1}
    threaded = litellm_validator(server.url, **options)
    thread = threading.Thread(target=lambda: [threaded.validate(t, toy_metadata())
                                              for t in TEXTS[:2]])
    thread.start()
    outcomes = asyncio.run(validate_all(litellm_validator(server.url, **options), TEXTS[2:6]))
    thread.join()
    assert all(o.validation_passed for o in outcomes)
    assert len(server.requests) == 18 and judge.max_in_flight == 2


def test_a_busy_server_slows_an_awaited_validation_down(chat_server):
    server = chat_server(ScriptedJudge())
    server.faults = [(429, {"Retry-After": "0.05"})] * 4  # twice max_retries
    report = asyncio.run(litellm_validator(server.url, max_retries=2).acheck(
        GOOD, toy_metadata()))
    assert report.passed and len(server.requests) == 5


def test_the_deadline_cancels_an_awaited_call_and_fails_closed(chat_server):
    server = chat_server(ScriptedJudge())
    server.faults = [("slow", 30)]

    async def run():
        report = await litellm_validator(server.url, deadline=0.5).acheck(GOOD, toy_metadata())
        return report, [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]

    report, tasks_left = asyncio.run(run())
    [sentence] = report.sentences
    assert not report.passed and sentence.verdict.label == "invalid"
    assert "deadline" in sentence.verdict.reason and tasks_left == []
    assert [t for t in threading.enumerate()
            if t.name.startswith("provenance") and t not in _EARLIER] == []


def test_refused_credentials_raise_from_an_awaited_validation(chat_server):
    from provenance_guard.errors import JudgeAuthError

    server = chat_server(ScriptedJudge())
    server.faults = [(401, {})]
    with pytest.raises(JudgeAuthError):
        asyncio.run(litellm_validator(server.url).acheck(GOOD, toy_metadata()))


def test_a_judge_objects_ajudge_is_awaited_and_a_subclass_that_overrides_judge_alone_is_not():
    from provenance_guard import Verdict

    class Awaitable:
        def __init__(self):
            self.awaited: list[str] = []

        def judge(self, claim, evidence, question=None):
            raise AssertionError("an awaited validation called judge()")

        async def ajudge(self, claim, evidence, question=None):
            await asyncio.sleep(0)
            self.awaited.append(claim)
            return Verdict("supported", "awaited", score=1.0)

    class Overridden(Awaitable):  # its own judge() is what it means: ajudge() is not its
        def judge(self, claim, evidence, question=None):
            return Verdict("unsupported", "called", score=0.0)

    awaitable, overridden = Awaitable(), Overridden()
    passed = asyncio.run(ProvenanceLLM(llm_callable=awaitable).acheck(GOOD, toy_metadata()))
    refused = asyncio.run(ProvenanceLLM(llm_callable=overridden).acheck(GOOD, toy_metadata()))
    assert passed.passed and awaitable.awaited == [GOOD]
    assert not refused.passed and overridden.awaited == []


def test_a_synchronous_guard_in_short_lived_threads_leaves_no_thread_behind(chat_server):
    # a Guard awaits the validator on a loop it makes for each calling thread and never closes;
    # the validation runs on the process's validation loop instead, whose executor is the
    # validator's bounded pool: no per-loop state, no asyncio_N thread
    import gc

    from guardrails import Guard

    server = chat_server(ScriptedJudge(rule=lambda statement, passages: True))
    guard = Guard().use(litellm_validator(server.url, max_concurrency=4))
    outcomes: list = []
    threads = [threading.Thread(target=lambda t=t: outcomes.append(
        guard.validate(t, metadata=toy_metadata()))) for t in TEXTS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    gc.collect()
    assert len(outcomes) == len(TEXTS) and all(o.validation_passed for o in outcomes)
    # asyncio_N: the default executor of a loop nobody closes
    assert [t.name for t in threading.enumerate()
            if t not in _EARLIER and t.name.startswith("asyncio")] == []


def test_claims_and_corrections_are_awaited_too(chat_server, monkeypatch):
    """Claim extraction and the corrector's rewrites are calls of the awaited path as well:
    over HTTP with ``acompletion``, no thread waiting in one, and the synchronous path's
    result."""
    import litellm

    def halves(sentence: str) -> list[str]:  # "A and B." -> two claims
        first, _, second = sentence.rstrip(".").partition(" and ")
        return [f"{first}.", f"The Eiffel Tower {second}."] if second else [sentence]

    def fixing(sentence: str, passages: str) -> str | None:
        return "The Eiffel Tower is 330 metres tall." if "metres" in sentence else None

    def scripted(latency: float) -> ScriptedJudge:
        return ScriptedJudge(latency=latency, claims=halves, rewrite=fixing, rule=lambda s, p: (
            s.lower().rstrip(".").removeprefix("the eiffel tower ") in p.lower()))

    class WatchingAll(Watching):
        def __init__(self):
            super().__init__()
            self.script = scripted(0.2)

        def __call__(self, prompt: str) -> str:
            self.threads_waiting.append(threads_in_a_judge_call())
            return self.script(prompt)

    texts = ["The Eiffel Tower is in Paris and is 300 metres tall.",
             "The Eiffel Tower is in Paris and was finished in 1889."]
    options = {"validation_method": "claim", "fix_mode": "correct", "on_fail": "fix",
               "max_concurrency": 4}
    judge = WatchingAll()
    server = chat_server(judge)

    def not_here(**request):
        raise AssertionError("an awaited validation called litellm.completion")

    monkeypatch.setattr(litellm, "completion", not_here)
    outcomes = asyncio.run(validate_all(litellm_validator(server.url, **options), texts))
    monkeypatch.undo()
    assert sorted(judge.script.sentences) == sorted(texts)
    assert judge.script.rewritten == [texts[0]]
    assert max(judge.threads_waiting) == 0
    sync = ProvenanceLLM(llm_callable=scripted(0.0), **options)
    assert [o.validated_output for o in outcomes] == [
        getattr(sync.validate(t, toy_metadata()), "fix_value", t) for t in texts]
    assert [o.validated_output for o in outcomes] == ["The Eiffel Tower is 330 metres tall.",
                                                      texts[1]]
