"""The slots one model's calls share (``limits.Slots``): tasks of any event loop wait in one line,
in order; a waiter that gives up (a cancelled task: its validation's deadline) leaves it, and a
slot handed to it as it gave up goes on to the next instead of being lost."""

import asyncio
import threading
import time

import pytest

from provenance_guard.judges.limits import Slots


def free(slots: Slots) -> bool:
    """Whether a slot can be taken at once (it is then given back)."""

    async def take() -> bool:
        try:
            await asyncio.wait_for(slots.acquire(), 0.05)
        except asyncio.TimeoutError:  # the builtin one from Python 3.11 on
            return False
        slots.release()
        return True

    return asyncio.run(take())


def wait_until(condition) -> None:
    for _ in range(500):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the condition never held")


def test_tasks_of_two_loops_get_slots_in_the_order_they_asked():
    slots, order = Slots(1), []
    asyncio.run(slots.acquire())

    def other_loop(name):
        async def wait():
            await slots.acquire()
            order.append(name)
            slots.release()

        asyncio.run(wait())

    async def main():
        first = threading.Thread(target=other_loop, args=("other loop 1",))
        first.start()
        wait_until(lambda: len(slots._line) == 1)

        async def here():
            await slots.acquire()
            order.append("this loop")
            slots.release()

        task = asyncio.ensure_future(here())
        while len(slots._line) < 2:
            await asyncio.sleep(0.01)
        second = threading.Thread(target=other_loop, args=("other loop 2",))
        second.start()
        wait_until(lambda: len(slots._line) == 3)
        slots.release()
        await task
        for thread in (first, second):
            thread.join()

    asyncio.run(main())
    assert order == ["other loop 1", "this loop", "other loop 2"] and free(slots)


def test_a_cancelled_task_leaves_the_line():
    slots = Slots(1)
    asyncio.run(slots.acquire())

    async def main():
        task = asyncio.ensure_future(slots.acquire())
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert not slots._line and not free(slots)
    slots.release()
    assert free(slots)


def test_a_slot_handed_to_a_task_as_it_is_cancelled_goes_on():
    slots = Slots(1)
    asyncio.run(slots.acquire())

    async def main():
        task = asyncio.ensure_future(slots.acquire())
        await asyncio.sleep(0.05)
        slots.release()  # handed to the task, which has not run since
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert free(slots)


def test_a_waiter_past_its_deadline_gives_up_and_loses_no_slot():
    slots = Slots(1)
    asyncio.run(slots.acquire())

    async def main():
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(slots.acquire(), 0.1)

    asyncio.run(main())
    assert not slots._line
    slots.release()
    assert free(slots)
