"""Engines: how the samples of a run are spread. Every engine runs the same per-sample function
(``sample_check.Plan.checker``) and hands its records to ``datasets.collect``, which owns the
results file, resuming and progress; an engine only decides where the function runs.

- ``threads`` (default): a pool of threads in this process, native thread pools capped.
- ``ray``: Ray Data over an actor pool, on a local Ray or a cluster (``ray_engine``; needs
  ``pip install 'provenance-guard[ray]'``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path

from .datasets import collect
from .engine_options import EngineOptions
from .examples import Example
from .sample_check import Plan, complete_for


def producer(plan: Plan, options: EngineOptions
             ) -> Callable[[list[Example]], Generator[dict, None, None]]:
    """The engine's ``samples -> records`` function. A bad plan or setting raises here,
    before any sample is taken."""
    if options.engine == "ray":
        from . import ray_engine

        ray_engine.check(plan, options)
        return lambda todo: ray_engine.imap(plan, todo, options)
    from ..judges.limits import Pacer
    from .worker_threads import imap

    check = plan.checker(None if options.rpm is None else Pacer(options.rpm).reserve)
    return lambda todo: imap(check, todo, options.concurrency, options.native_threads)


def run(samples: list[Example], plan: Plan, options: EngineOptions, results_path: Path | None,
        progress: Callable[[int, int], None] | None = None, limit: int | None = None) -> list[dict]:
    """Every sample not yet in ``results_path`` through the engine; the results of all."""
    return collect(samples, results_path, producer(plan, options), progress,
                   complete_for(plan.grounded_qa), limit)
