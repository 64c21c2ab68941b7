"""How a run is spread (``EngineOptions``): the engine, concurrency, native threads, the
request rate, and for Ray the cluster and its actors. Checked when made.

``EngineOptions`` is the table: each field gives an option's name, type, default and meaning.
From it come the flags of ``provenance eval`` (``add_flags``, ``from_flags``), ``evaluate()``'s
engine parameters (a test keeps them equal) and the engine table of the docs
(``options_table``)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import ConfigurationError

ENGINES = ("threads", "ray")
DEFAULT_CONCURRENCY = 4


def _option(default: Any, doc: str, *, kind: type = str, metavar: str | None = None,
            unset: str = "", needs: str = "") -> Any:
    """A field of the table: ``doc`` its meaning, ``kind`` what its flag's text is read as,
    ``unset`` what None means (for an option whose default is None), ``needs`` what it is a
    setting of, in the command's words."""
    return field(default=default, metadata={"doc": doc, "kind": kind, "metavar": metavar,
                                            "unset": unset, "needs": needs})


@dataclass(frozen=True)
class EngineOptions:
    """How a run is spread: see each field's meaning in ``options_table()`` (and the docs).
    ``actor_cpus`` below 1 leaves room for Ray Data's own read and write tasks."""

    engine: str = _option("threads", "threads: in this process; ray: Ray Data over an actor "
                          "pool, local or on a cluster (pip install 'provenance-guard[ray]')")
    concurrency: int = _option(DEFAULT_CONCURRENCY, "samples validated at once (with the Ray "
                               "engine: per actor)", kind=int, metavar="N")
    native_threads: int | None = _option(
        None, "native (PyTorch, BLAS) threads per worker (0: no cap)", kind=int, metavar="N",
        unset="each worker's share of the cores")
    rpm: float | None = _option(None, "at most N judge requests per minute, for the whole run "
                                "(all threads, all actors)", kind=float, metavar="N",
                                unset="no limit",
                                needs="--model")
    address: str | None = _option(None, "a Ray cluster to join", metavar="HOST:PORT",
                                  unset="start a local one", needs="--engine ray")
    actors: int | None = _option(None, "actors in the pool", kind=int, metavar="N",
                                 unset="one per CPU of the cluster", needs="--engine ray")
    actor_cpus: float = _option(0.5, "CPUs each actor reserves (below 1: room is left for Ray "
                                "Data's own tasks)", kind=float, metavar="CPUS",
                                needs="--engine ray")

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

    @classmethod
    def from_flags(cls, args: argparse.Namespace) -> EngineOptions:
        return cls(**{row.name: getattr(args, row.name) for row in fields(cls)})


def add_flags(command: argparse.ArgumentParser) -> None:
    """The table's flags (``--actor-cpus`` for ``actor_cpus``), with their defaults in the
    command's words."""
    for row in fields(EngineOptions):
        meta = row.metadata
        default = meta["unset"] if row.default is None else "%(default)s"
        needs = f"with {meta['needs']}: " if meta["needs"] else ""
        options: dict[str, Any] = {"default": row.default,
                                   "help": f"{needs}{meta['doc']} (default: {default})"}
        if row.name == "engine":
            options["choices"] = ENGINES
        else:
            options["metavar"], options["type"] = meta["metavar"], meta["kind"]
        command.add_argument(f"--{row.name.replace('_', '-')}", **options)


def options_table() -> str:
    """The engine table of the docs, in Markdown."""
    rows = ["| `evaluate()` | `provenance eval` | default | meaning |", "| --- | --- | --- | --- |"]
    for row in fields(EngineOptions):
        meta = row.metadata
        flag = f"--{row.name.replace('_', '-')}" + (f" {meta['metavar']}" if meta["metavar"] else "")
        default = f"`{row.default!r}`" + (f" ({meta['unset']})" if meta["unset"] else "")
        needs = f"With `{meta['needs']}`: " if meta["needs"] else ""
        rows.append(f"| `{row.name}` | `{flag}` | {default} | {needs}{meta['doc']} |")
    return "\n".join(rows)


def _whole(value: object, name: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigurationError(f"{name} must be a whole number of at least {least}; "
                                 f"got {value!r}.")
