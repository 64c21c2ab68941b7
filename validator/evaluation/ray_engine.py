"""The Ray engine: Ray Data over an actor pool, each actor holding one checker (its validator,
so one embedder, one index cache, one judge), on a local Ray or a cluster.

The driver reads the data, knows what the results file already holds, and writes each record
as it comes back, exactly as the threads engine does (``datasets.collect``); the actors do the
work: embedding, retrieval, judging. Samples travel as JSON text and records come back as JSON
text, so Arrow never reshapes a nested record. Actors reserve a fraction of a CPU
(``actor_cpus``, default 0.5): with whole-CPU actors on a small machine Ray Data's own read and
write tasks got no CPU and the run stalled. A requests-per-minute limit is one ``Pacer`` in an
actor that every checker asks before each judge request.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from ..errors import ConfigurationError
from ..judges.limits import Pacer
from .engine_options import EngineOptions
from .examples import Example
from .sample_check import Plan
from .worker_threads import capped_native_threads, native_threads_for

INSTALL = "pip install 'provenance-guard[ray]'"
BLOCKS_PER_ACTOR = 8  # input blocks per actor: small enough to stream, few enough to schedule


def check(plan: Plan, options: EngineOptions) -> None:
    """Ray is installed, the plan builds a checker and pickles (it goes to every actor)."""
    try:
        import ray  # noqa: F401
        import ray.data  # noqa: F401
    except ImportError as error:
        raise ConfigurationError(f"the Ray engine needs Ray Data ({error}): {INSTALL}.") from None
    plan.checker()
    from ray import cloudpickle

    try:
        cloudpickle.dumps(plan)
    except Exception as error:
        raise ConfigurationError(
            f"the judge cannot be sent to Ray's workers ({type(error).__name__}: {error}); pass "
            "a model name, or a callable that pickles (a module-level function).") from None


class Checker:
    """One actor of the pool: a checker built once, fed batches of samples."""

    def __init__(self, plan: Plan, pacer, concurrency: int, threads: int):
        import ray

        # this process is the actor's own: the cap holds for its life
        self._cap = capped_native_threads(threads)
        self._cap.__enter__()
        reserve = None if pacer is None else (lambda: ray.get(pacer.reserve.remote()))
        self._check = plan.checker(reserve)
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="eval")

    def __call__(self, batch: dict) -> dict:
        samples = [Example(**json.loads(text)) for text in batch["sample"]]
        records = self._pool.map(self._check, samples)
        return {"record": [json.dumps(record) for record in records]}  # ASCII: Arrow-safe


def imap(plan: Plan, samples: list[Example], options: EngineOptions
         ) -> Generator[dict, None, None]:
    """Each sample's record, as the actors finish them."""
    if not samples:
        return
    import ray

    joined = not ray.is_initialized()
    if joined:
        _init(options.address)
    try:
        yield from _run(plan, samples, options)
    except Exception as error:
        cause = _configuration_error(error)
        if cause is not None:
            raise cause from None
        raise
    finally:
        if joined:  # our actors go with our connection
            ray.shutdown()


def _init(address: str | None) -> None:
    import ray

    settings: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
    if address is None:
        settings.update(include_dashboard=False)
    try:
        ray.init(address=address, **settings)
    except Exception as error:  # Ray raises bare Exceptions, ConnectionErrors, RuntimeErrors
        where = f"join the Ray cluster at {address}" if address else "start a local Ray"
        raise ConfigurationError(
            f"cannot {where} ({type(error).__name__}: {error}). Check the address (`ray status "
            "--address ...`), or start a cluster with `ray start --head` and pass --address; on a "
            "heavily loaded machine Ray's node can miss its start-up window: try again.") from None
    logging.getLogger("ray.data").setLevel(logging.WARNING)  # no INFO line per dataset


def _run(plan: Plan, samples: list[Example], options: EngineOptions) -> Iterator[dict]:
    import ray
    import ray.data

    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False  # ours is drawn by the caller
    pacer = (ray.remote(num_cpus=0)(Pacer).remote(options.rpm)
             if options.rpm is not None else None)
    actors = options.actors or max(1, int(ray.cluster_resources().get("CPU", 1)))
    batches = -(-len(samples) // options.concurrency)
    data = ray.data.from_items(
        [{"sample": json.dumps(asdict(sample))} for sample in samples],
        override_num_blocks=max(1, min(batches, actors * BLOCKS_PER_ACTOR)))
    threads = (options.native_threads if options.native_threads is not None
               else native_threads_for(options.concurrency, options.actor_cpus))
    checked = data.map_batches(
        Checker, fn_constructor_args=(plan, pacer, options.concurrency, threads),
        batch_size=options.concurrency, batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=actors), num_cpus=options.actor_cpus)
    for row in checked.iter_rows():
        yield json.loads(row["record"])


def _configuration_error(error: BaseException) -> ConfigurationError | None:
    """The ``ConfigurationError`` an actor raised, from under Ray's wrappers (the innermost:
    the wrappers' own text carries a traceback)."""
    found: ConfigurationError | None = None
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        if isinstance(link, ConfigurationError):
            found = link
        seen.add(id(link))
        link = getattr(link, "cause", None) or link.__cause__ or link.__context__
    return None if found is None else ConfigurationError(str(found))
