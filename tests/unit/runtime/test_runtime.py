"""The runtime on its own: a validation's scope ends what its deadline leaves undone with the
caller's late value and says what it waited for; identical work in flight is done once; calls
that only wait are bounded and refused at once past the bound; blocking work runs in the pool
and what a user's code raises that is not an Exception comes back as ``Raised``."""

import asyncio
import gc
import threading
import time

import pytest

from provenance_guard.runtime import deadline, loop, pool, waiting


def test_what_the_deadline_leaves_undone_gets_the_late_value_and_the_reason_says_why():
    async def validation():
        async with deadline.Runner(max_concurrency=2, deadline=0.2).validation() as scope:
            async def one(n):
                if n == 2:
                    deadline.waited_for("the judge's reply")
                    await asyncio.sleep(5)
                return n

            started = time.monotonic()
            found = await scope.map(one, [0, 1, 2], lambda n: scope.too_late("no verdict"))
            return found, time.monotonic() - started

    found, took = asyncio.run(validation())
    assert found[:2] == [0, 1] and took < 1.0
    assert found[2] == ("no verdict before the validation's deadline (its call was waiting "
                        "for the judge's reply)")


def test_map_raises_the_first_error_in_item_order_and_ends_every_task():
    ended = []

    async def validation():
        async with deadline.Runner(4, None).validation() as scope:
            async def one(n):
                try:
                    if n in (1, 2):
                        raise ValueError(n)
                    await asyncio.sleep(5)
                finally:
                    ended.append(n)

            await scope.map(one, [0, 1, 2, 3])

    with pytest.raises(ValueError, match="1"):
        asyncio.run(validation())
    assert sorted(ended) == [0, 1, 2, 3]


def test_an_earlier_outer_deadline_holds_inside():
    async def nested():
        outer, later = deadline.Runner(1, 0.1), deadline.Runner(1, 60)
        async with outer.validation(), later.validation() as inner:
            return inner.remaining()

    assert asyncio.run(nested()) <= 0.1


def test_identical_work_in_flight_is_done_once_and_shared():
    once = loop.Once()
    computed = []

    async def compute():
        computed.append(1)
        await asyncio.sleep(0.05)
        return "done"

    async def both():
        return await asyncio.gather(once.run("key", compute), once.run("key", compute))

    assert asyncio.run(both()) == [("done", False), ("done", True)] and computed == [1]


def test_calls_that_only_wait_are_bounded_and_refused_at_once_past_the_bound():
    bound = waiting.Waiting(1, "the test's judge")
    release = threading.Event()

    async def calls():
        first = asyncio.ensure_future(bound.call(release.wait))
        await asyncio.sleep(0.05)
        with pytest.raises(pool.Busy, match="1 calls to the test's judge are still running"):
            await bound.call(lambda: None)
        release.set()
        return await first

    assert asyncio.run(calls()) is True


def test_blocking_work_runs_in_the_pool_and_a_base_exception_comes_back_raised():
    async def offloaded():
        name = await pool.offload(lambda: threading.current_thread().name)
        with pytest.raises(pool.Raised, match="SystemExit"):
            await pool.offload(lambda: (_ for _ in ()).throw(SystemExit(3)))
        return name

    assert asyncio.run(offloaded()).startswith("provenance-pool")


def test_a_registry_key_is_forgotten_once_its_owner_is_gone():
    forgotten = []
    waiting.forgets(forgotten.append)

    class Owner:
        pass

    owner = Owner()
    key = waiting.identity(owner)
    assert waiting.identity(owner) == key
    del owner
    gc.collect()
    waiting.sweep()
    assert key in forgotten


def test_a_validation_handed_to_the_loop_returns_its_result_from_any_thread():
    async def answer():
        return loop.on_the_validation_loop()

    assert loop.run(answer()) is True
    results = []
    thread = threading.Thread(target=lambda: results.append(loop.run(answer())))
    thread.start()
    thread.join()
    assert results == [True]
