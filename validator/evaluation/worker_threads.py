"""The threads engine: samples on a pool of threads in this process, with native thread pools
capped so that the workers do not fight over the cores.

PyTorch (the embedder) and the BLAS/OpenMP libraries under FAISS and NumPy each start a pool
of as many threads as there are cores, per call; with several samples in flight those pools
oversubscribe the machine and every call slows down (measured in docs/benchmarks.md: Engines and scale-out).
``native_threads_for`` gives each worker its share of the cores instead.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from .engine_options import DEFAULT_CONCURRENCY


def native_threads_for(workers: int, cpus: float | None = None) -> int:
    """Native threads per call when ``workers`` samples run at once on ``cpus`` cores
    (default: the cores this process may use): their share, at least one."""
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, int((cpus or 1) // max(1, workers)))


@contextlib.contextmanager
def capped_native_threads(threads: int | None) -> Iterator[None]:
    """Native thread pools (PyTorch's, and OpenMP/BLAS through threadpoolctl) limited to
    ``threads`` inside the block, restored after it. None or 0: no cap."""
    if not threads:
        yield
        return
    from threadpoolctl import threadpool_limits

    # PyTorch is not needed where nothing is embedded (an environment set up without it)
    torch = importlib.import_module("torch") if importlib.util.find_spec("torch") else None
    before = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(threads)
    try:
        with threadpool_limits(limits=threads):
            yield
    finally:
        if torch is not None:
            torch.set_num_threads(before)


def imap(function: Callable, items: Iterable, concurrency: int = DEFAULT_CONCURRENCY,
         native_threads: int | None = None) -> Generator:
    """``function(item)`` for each item, ``concurrency`` at a time, yielded as each finishes.
    ``native_threads``: the cap (None: each worker's share of the cores; 0: no cap). Closing
    the iterator (an error or Ctrl-C in the consumer) cancels what has not started."""
    concurrency = max(1, concurrency)
    if native_threads is None:
        native_threads = native_threads_for(concurrency)
    queue = iter(items)
    with capped_native_threads(native_threads), \
            ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="eval") as pool:
        pending = {pool.submit(function, item) for item in _take(queue, concurrency)}
        try:
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    yield future.result()
                    pending.update(pool.submit(function, item) for item in _take(queue, 1))
        finally:
            for future in pending:
                future.cancel()


def _take(iterator: Iterator, n: int) -> list:
    taken = []
    for item in iterator:
        taken.append(item)
        if len(taken) == n:
            break
    return taken
