"""The slots one model's calls share (``limits.Slots``): threads and event-loop tasks wait in one
line, in order; a waiter that gives up leaves it, and a slot handed to it as it gave up goes on
to the next instead of being lost."""

import asyncio
import threading
import time

import pytest

from provenance_guard.concurrency import deadline_in
from provenance_guard.judges.limits import Slots


def free(slots: Slots) -> bool:
    """Whether a slot can be taken at once (it is then given back)."""
    with deadline_in(0.0):
        try:
            slots.acquire()
        except TimeoutError:
            return False
    slots.release()
    return True


def wait_until(condition) -> None:
    for _ in range(500):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the condition never held")


def test_threads_and_tasks_get_slots_in_the_order_they_asked():
    slots, order = Slots(1), []
    slots.acquire()

    def thread_waiter(name):
        slots.acquire()
        order.append(name)
        slots.release()

    async def task_waiter(name):
        await slots.aacquire()
        order.append(name)
        slots.release()

    async def main():
        first = threading.Thread(target=thread_waiter, args=("thread 1",))
        first.start()
        wait_until(lambda: len(slots._line) == 1)
        task = asyncio.ensure_future(task_waiter("task"))
        while len(slots._line) < 2:
            await asyncio.sleep(0.01)
        second = threading.Thread(target=thread_waiter, args=("thread 2",))
        second.start()
        wait_until(lambda: len(slots._line) == 3)
        slots.release()
        await task
        for thread in (first, second):
            thread.join()

    asyncio.run(main())
    assert order == ["thread 1", "task", "thread 2"] and free(slots)


def test_a_cancelled_task_leaves_the_line():
    slots = Slots(1)
    slots.acquire()

    async def main():
        task = asyncio.ensure_future(slots.aacquire())
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
    slots.acquire()

    async def main():
        task = asyncio.ensure_future(slots.aacquire())
        await asyncio.sleep(0.05)
        slots.release()  # handed to the task, which has not run since
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert free(slots)


def test_a_thread_past_its_deadline_gives_up_and_loses_no_slot():
    slots = Slots(1)
    slots.acquire()
    with deadline_in(0.1), pytest.raises(TimeoutError, match="max_calls_in_flight"):
        slots.acquire()
    assert not slots._line
    slots.release()
    assert free(slots)

