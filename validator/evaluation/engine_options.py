"""How a run is spread (``EngineOptions``): the engine, concurrency, native threads, the
request rate, and for Ray the cluster and its actors. Checked when made."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigurationError

ENGINES = ("threads", "ray")


@dataclass(frozen=True)
class EngineOptions:
    """``concurrency``: samples in flight per process (threads engine) or per actor (Ray).
    ``native_threads``: native threads per call (None: each worker's share of the cores;
    0: no cap). ``rpm``: judge requests per minute, for the whole run, across all workers.
    Ray only: ``address`` of a cluster to join (None: a local one), ``actors`` in the pool
    (None: one per CPU of the cluster), ``actor_cpus``: the CPU each actor reserves; below 1
    leaves room for Ray Data's own read and write tasks."""

    engine: str = "threads"
    concurrency: int = 4
    native_threads: int | None = None
    rpm: float | None = None
    address: str | None = None
    actors: int | None = None
    actor_cpus: float = 0.5

    def __post_init__(self):
        if self.engine not in ENGINES:
            raise ConfigurationError(f"engine must be one of {', '.join(map(repr, ENGINES))}; "
                                     f"got {self.engine!r}.")
        _whole(self.concurrency, "concurrency", 1)
        if self.native_threads is not None:
            _whole(self.native_threads, "native_threads", 0)
        if self.actors is not None:
            _whole(self.actors, "actors", 1)
        if isinstance(self.actor_cpus, bool) or not isinstance(self.actor_cpus, int | float) \
                or not self.actor_cpus > 0:
            raise ConfigurationError(f"actor_cpus must be a positive number of CPUs (0.5 leaves "
                                     f"half a core for Ray's own tasks); got {self.actor_cpus!r}.")
        if self.engine != "ray" and (self.address is not None or self.actors is not None):
            raise ConfigurationError("address and actors are settings of the Ray engine: pass "
                                     "engine='ray' (--engine ray) or drop them.")


def _whole(value: object, name: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigurationError(f"{name} must be a whole number of at least {least}; "
                                 f"got {value!r}.")
