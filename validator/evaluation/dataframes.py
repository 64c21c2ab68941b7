"""``evaluate``: ``provenance eval`` from Python, over dicts or a pandas DataFrame, with the same
engines and the same per-sample function; what notebooks and Spark's ``mapInPandas`` call."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

from .engine_options import DEFAULT_CONCURRENCY

# The columns of a DataFrame of results, always all of them (a Spark schema needs them fixed):
# a sample the validator rejected has only id, sample_hash, label and error.
COLUMNS = ["id", "sample_hash", "label", "passed", "faithfulness", "level", "counts",
           "kinds", "sentences", "usage", "error"]
_OPTIONAL = ("question", "messages", "label", "expected", "id", "kind")


def evaluate(
    samples: Iterable[dict] | Any,
    *,
    llm_callable: Any,
    engine: str = "threads",
    concurrency: int = DEFAULT_CONCURRENCY,
    out: str | Path | None = None,
    as_frame: bool | None = None,
    metadata: dict | None = None,
    grounded_qa: bool = False,
    cache_dir: str | Path | None = None,
    llm_kwargs: dict | None = None,
    rpm: float | None = None,
    native_threads: int | None = None,
    address: str | None = None,
    actors: int | None = None,
    actor_cpus: float = 0.5,
    **validator_options: Any,
) -> list[dict] | Any:
    """Validate each sample; return one result record per sample, in their order.

    ``samples``: dicts (or a pandas DataFrame's rows) with ``output`` and ``sources``, and
    optionally ``id`` (default: the position), ``question``, ``messages``, ``label``,
    ``expected``: the fields of ``provenance eval``'s JSONL. ``llm_callable``: the judge, as
    ``ProvenanceLLM`` takes it (``"local"`` for the offline judge); no default, so that nothing
    calls a paid model unasked. Other keyword arguments go to ``ProvenanceLLM`` (``top_k``,
    ``validation_method``...); ``metadata`` is added to every sample's (e.g. chunking keys).

    ``engine``: ``"threads"`` or ``"ray"`` (``address``, ``actors``, ``actor_cpus``: see
    ``EngineOptions``); ``rpm``: judge requests per minute for the whole run. ``out``: a
    results JSONL that is appended to and resumed from, as the command does (None: none).
    ``as_frame``: return a DataFrame with ``COLUMNS`` (default: when given one) or a list.
    Raises ``ConfigurationError`` for a bad setting or judge, ``ValueError`` for a bad sample.
    """
    from . import engines
    from .sample_check import Plan

    frame = _is_frame(samples)
    rows: Any = cast(Any, samples).to_dict("records") if frame else samples
    if isinstance(rows, dict | str | bytes) or not isinstance(rows, Iterable):
        raise ValueError(f"samples must be an iterable of dicts or a pandas DataFrame; got "
                         f"{type(samples).__name__}.")
    parsed = samples_of(rows)
    unasked = [s.id for s in parsed if not s.question] if grounded_qa else []
    if unasked:
        raise ValueError(f"grounded_qa grades answers to their question: every sample needs a "
                         f"'question'; {len(unasked)} have none (first: "
                         f"{', '.join(map(str, unasked[:5]))}). Add them, or leave grounded_qa off.")
    plan = Plan(llm_callable, llm_kwargs, None if cache_dir is None else str(cache_dir),
                validator_options, dict(metadata or {}), grounded_qa)
    options = engines.EngineOptions(engine=engine, concurrency=concurrency,
                                    native_threads=native_threads, rpm=rpm, address=address,
                                    actors=actors, actor_cpus=actor_cpus)
    records = engines.run(parsed, plan, options, None if out is None else Path(out))
    if not (frame if as_frame is None else as_frame):
        return records
    import pandas

    columns = COLUMNS + (["grounded_qa"] if grounded_qa else [])
    # Python objects, None where absent, but for faithfulness (floats, NaN where absent): left
    # to infer, pandas made a column with no value at all (``error`` when nothing failed) a
    # float column of NaN, which Spark cannot turn into a string column.
    return pandas.DataFrame({
        column: pandas.Series([record.get(column) for record in records],
                              dtype=float if column == "faithfulness" else object)
        for column in columns})


# What ``spark_checker`` yields, as a Spark schema: the nested fields as JSON text.
SPARK_SCHEMA = ("id string, passed boolean, faithfulness double, level string, counts string, "
                "sentences string, error string")
_SPARK_COLUMNS = ["id", "passed", "faithfulness", "level", "counts", "sentences", "error"]


def spark_checker(**options: Any):
    """The function to give Spark's ``mapInPandas`` with ``SPARK_SCHEMA``: ``evaluate(frame,
    **options)`` on each pandas DataFrame of a partition, in the executor's Python worker, with
    ``counts`` and ``sentences`` as JSON text. Every row needs an ``id``: positions restart with
    each batch, so they cannot tell Spark's rows apart."""

    def check_partition(frames):
        for frame in frames:
            if "id" not in frame.columns or frame["id"].isna().any():
                raise ValueError("every row needs an id for Spark: positions restart with each "
                                 "batch of a partition. Add an id column.")
            results = evaluate(frame, as_frame=True, **options)
            for column in ("counts", "sentences"):
                results[column] = [None if value is None else json.dumps(value)
                                   for value in results[column]]
            yield results[_SPARK_COLUMNS]

    return check_partition


def _is_frame(samples: Any) -> bool:
    return type(samples).__name__ == "DataFrame" and hasattr(samples, "to_dict")


def samples_of(rows: Iterable[Any]) -> list:
    """Samples from dicts, checked as ``provenance eval`` checks lines. A DataFrame's missing
    values (NaN, None) in the optional fields count as absent; array cells (what Arrow gives
    Spark's list columns) as lists. Each sample's hash is taken of its JSON with sorted keys."""
    from .datasets import sample_of

    samples, seen = [], set()
    for number, row in enumerate(rows):
        where = f"sample {number}"
        if not isinstance(row, dict):
            raise ValueError(f"{where} is a {type(row).__name__}; each sample must be a dict "
                             "with \"output\" and \"sources\".")
        row = {key: _plain(value) for key, value in row.items()
               if not (key in _OPTIONAL and _missing(value))}
        try:
            text = json.dumps(row, sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where} holds a value that is not JSON ({error}); samples must "
                             "hold strings, numbers, booleans, lists and dicts.") from None
        sample = sample_of(row, where, text, str(number))
        if sample.id in seen:
            raise ValueError(f"{where}: id {sample.id!r} appears twice; ids must be unique.")
        seen.add(sample.id)
        samples.append(sample)
    return samples


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):
        return value.tolist()  # a NumPy array or scalar
    return value


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or (
        type(value).__name__ in ("NAType", "NaTType"))


