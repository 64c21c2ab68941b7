"""Every check of what a user passes: the validator's arguments (``Settings``), each
validation's value and metadata (``Request``), and the one set of chunking defaults.

A bad value raises ``ValueError`` naming the argument or metadata key, what was given and the
fix, before anything is embedded or judged.
"""

from __future__ import annotations

import math
import numbers
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .citations import CITATION_MODES
from .languages import check_language

VALIDATION_METHODS = ("sentence", "claim", "full")
CHUNK_STRATEGIES = ("full", "sentence", "word", "char", "token")
RETRIEVAL_MODES = ("hybrid", "dense")  # dense and BM25 fused by reciprocal rank; dense alone


@dataclass(frozen=True)
class Chunking:
    """How sources are cut into chunks: ``size`` units per chunk (sentences, words, ...),
    ``overlap`` units shared by neighbours."""

    strategy: str = "full"
    size: int = 5
    overlap: int = 2

    def as_metadata(self) -> dict[str, Any]:
        return {"chunk_strategy": self.strategy, "chunk_size": self.size,
                "chunk_overlap": self.overlap}


# The metadata defaults are the hub validator's (a source is one chunk). The commands and the
# labelled suite chunk by sentence, so that evidence is a passage, not a document.
HUB_CHUNKING = Chunking()
COMMAND_CHUNKING = Chunking("sentence", 3, 1)
SUITE_CHUNKING = Chunking("sentence", 1, 0)


def check_chunking(strategy: object, size: object, overlap: object) -> Chunking:
    """The chunking the metadata asks for, or ``ValueError`` naming the key and the fix."""
    if strategy not in CHUNK_STRATEGIES:
        raise ValueError(
            f"metadata['chunk_strategy'] must be one of {', '.join(CHUNK_STRATEGIES)}; "
            f"got {strategy!r}."
        )
    size = _count("metadata['chunk_size']", size, 1, None)
    try:
        overlap = _count("metadata['chunk_overlap']", overlap, 0, size - 1)
    except ValueError:
        raise ValueError(
            "metadata['chunk_overlap'] must be a whole number from 0 to chunk_size - 1 "
            f"(chunk_size is {size}); got {overlap!r}."
        ) from None
    return Chunking(strategy, size, overlap)


@dataclass(frozen=True)
class Settings:
    """``ProvenanceLLM``'s arguments, checked (see its docstring for their meaning)."""

    validation_method: str = "sentence"
    top_k: int = 3
    max_concurrency: int = 8
    max_retries: int = 2
    cache_size: int = 4096
    pass_on_invalid: bool = False
    fail_on_unsupported: bool = True
    citations: str = "auto"
    cascade_contradictions: bool = False
    cascade_verbatim: bool = False
    batch_size: int = 1
    deadline: float | None = 120.0
    max_sentences: int | None = 1000
    max_source_chars: int | None = 5_000_000
    index_dir: str | None = None
    confidence_band: tuple[float, float] = (0.2, 0.8)
    language: str = "auto"
    retrieval: str = "hybrid"
    max_evidence_chars: int | None = 12_000
    evidence_window: int = 1

    def __post_init__(self) -> None:
        if self.validation_method not in VALIDATION_METHODS:
            raise ValueError(
                f"validation_method must be one of {', '.join(VALIDATION_METHODS)}; "
                f"got {self.validation_method!r}."
            )
        if self.citations not in CITATION_MODES:
            raise ValueError(
                f"citations must be one of {', '.join(CITATION_MODES)}; got {self.citations!r}."
            )
        check_language(self.language)
        if self.retrieval not in RETRIEVAL_MODES:
            raise ValueError(
                f"retrieval must be one of {', '.join(RETRIEVAL_MODES)}; got {self.retrieval!r}."
            )
        fixed: dict[str, Any] = {name: _count(name, getattr(self, name), low, high)
                                 for name, (low, high) in COUNT_RANGES.items()}
        for name in ("max_sentences", "max_source_chars"):
            if getattr(self, name) is not None:
                fixed[name] = _count(name, getattr(self, name), 1, None)
        if self.max_evidence_chars is not None:
            fixed["max_evidence_chars"] = _count("max_evidence_chars", self.max_evidence_chars,
                                                 MIN_EVIDENCE_CHARS, None)
        if self.deadline is not None:
            fixed["deadline"] = _seconds("deadline", self.deadline)
        for name in ("pass_on_invalid", "fail_on_unsupported", "cascade_contradictions",
                     "cascade_verbatim"):
            fixed[name] = boolean(name, getattr(self, name))
        if self.index_dir is not None:
            if not isinstance(self.index_dir, (str, os.PathLike)):
                raise ValueError(f"index_dir must be a directory path (str or Path), or None; got "
                                 f"{type(self.index_dir).__name__}.")
            fixed["index_dir"] = os.fspath(self.index_dir)
        fixed["confidence_band"] = confidence_band(self.confidence_band)
        for name, value in fixed.items():
            object.__setattr__(self, name, value)

    def arguments(self) -> dict[str, Any]:
        """The settings as ProvenanceLLM's keyword arguments."""
        return dict(self.__dict__)

    @property
    def by_claim(self) -> bool:
        return self.validation_method == "claim"

    def check_sentence_count(self, count: int) -> None:
        if self.max_sentences is not None and count > self.max_sentences:
            raise ValueError(
                f"the text has {count:,} sentences, more than max_sentences="
                f"{self.max_sentences:,} (each is a judge call). Validate it in parts, or raise "
                "max_sentences (None: no limit)."
            )


@dataclass(frozen=True)
class Request:
    """One validation's value and metadata, checked. Exactly one of ``sources`` and
    ``query_function`` is set."""

    value: str
    metadata: dict[str, Any]  # the caller's, never changed
    pass_on_invalid: bool
    question: str | None = None
    sources: list[str] | None = None
    query_function: Callable | None = None
    embed_function: Callable | None = None
    chunking: Chunking = field(default_factory=Chunking)

    @property
    def source_count(self) -> int | None:
        """The number of sources; None with a query_function, whose passages have no number."""
        return None if self.sources is None else len(self.sources)

    @property
    def no_sources(self) -> bool:
        return self.sources == []


def read_request(value: Any, metadata: dict[str, Any] | None, settings: Settings) -> Request:
    """Check what ``validate`` was given and return it as a ``Request``."""
    metadata = {} if metadata is None else metadata
    if not isinstance(value, str):
        raise ValueError(
            f"ProvenanceLLM validates text; got {type(value).__name__}. Apply it to a "
            "string field, or convert the value to str first."
        )
    if not isinstance(metadata, dict):
        raise ValueError(f"metadata must be a dict; got {type(metadata).__name__}.")
    pass_on_invalid = boolean("metadata['pass_on_invalid']",
                              metadata.get("pass_on_invalid", settings.pass_on_invalid))
    question = metadata.get("question")
    if question is not None and not isinstance(question, str):
        raise ValueError(f"metadata['question'] must be a string; got {type(question).__name__}.")
    common = {"value": value, "metadata": metadata, "pass_on_invalid": pass_on_invalid,
              "question": question}

    query_function = metadata.get("query_function")
    if query_function is not None:
        if metadata.get("sources") is not None:
            warnings.warn(
                "metadata has both 'query_function' and 'sources'; using query_function.",
                stacklevel=5,
            )
        if not callable(query_function):
            raise ValueError(
                "metadata['query_function'] must be callable as query_function(text=..., "
                f"k=...); got {type(query_function).__name__}."
            )
        return Request(**common, query_function=query_function)
    if metadata.get("sources") is None:
        raise ValueError(
            "ProvenanceLLM needs metadata['sources'] (a list of strings) or "
            "metadata['query_function'] (text, k -> chunks). Pass one of them, e.g. "
            "guard.validate(text, metadata={'sources': [...]})."
        )
    sources = check_sources(metadata["sources"])
    size_of_sources = sum(len(s) for s in sources)
    if settings.max_source_chars is not None and size_of_sources > settings.max_source_chars:
        raise ValueError(
            f"metadata['sources'] hold {size_of_sources:,} characters, more than "
            f"max_source_chars={settings.max_source_chars:,}. Pass the passages retrieved for "
            "this answer rather than whole corpora (or a query_function over an index of your "
            "own), or raise max_source_chars (None: no limit)."
        )
    chunking = check_chunking(metadata.get("chunk_strategy", HUB_CHUNKING.strategy),
                              metadata.get("chunk_size", HUB_CHUNKING.size),
                              metadata.get("chunk_overlap", HUB_CHUNKING.overlap))
    embed_function = metadata.get("embed_function")
    if embed_function is not None and not callable(embed_function):
        raise ValueError(
            "metadata['embed_function'] must be callable (list of str -> array of shape "
            f"(n, dim)); got {type(embed_function).__name__}."
        )
    return Request(**common, sources=sources, embed_function=embed_function, chunking=chunking)


def check_sources(sources: object) -> list[str]:
    """Return ``sources`` as a list of strings, or raise ``ValueError`` naming the fix."""
    if isinstance(sources, (str, bytes)) or not isinstance(sources, (list, tuple)):
        raise ValueError(
            "metadata['sources'] must be a list of strings; got "
            f"{type(sources).__name__}. Pass the retrieved passages as a list, e.g. "
            "{'sources': [passage_1, passage_2]}."
        )
    for i, source in enumerate(sources):
        if not isinstance(source, str):
            raise ValueError(
                f"metadata['sources'][{i}] must be a string; got {type(source).__name__}. "
                "Convert each passage to text before validating."
            )
    return list(sources)


# The whole-number arguments and the values they may take (None: no upper bound).
COUNT_RANGES = {"top_k": (1, 1000), "batch_size": (1, 64), "max_concurrency": (1, 256),
                "max_retries": (0, 20), "cache_size": (0, 10_000_000), "evidence_window": (0, 20)}
# Below this a judge could not be shown even one sentence of each of a few passages.
MIN_EVIDENCE_CHARS = 200
MAX_DEADLINE = 24 * 3600.0  # seconds; for no deadline at all, pass None


def boolean(name: str, value: object) -> bool:
    """``value`` if it is a bool (numpy's too), else ``ValueError``: a string such as "false"
    would be true in a test, and a guard must not read a setting it does not understand."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name} must be True or False; got {value!r} ({type(value).__name__}). "
                     f"Write {name}=True or {name}=False.")


def confidence_band(value: object) -> tuple[float, float]:
    """``(low, high)`` with 0 <= low <= high <= 1: the first judge's verdicts scored strictly
    between them go on to the main judge. Else ``ValueError`` naming the fix."""
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                    and math.isfinite(v) for v in value)
            and 0 <= value[0] <= value[1] <= 1):
        return float(value[0]), float(value[1])
    raise ValueError(f"confidence_band must be two numbers (low, high) with 0 <= low <= high <= 1; "
                     f"got {value!r}. The first judge's verdicts scored strictly between them go "
                     "to the main judge; (0.2, 0.8) is the default, (0.5, 0.5) sends none.")


def _count(name: str, value: object, minimum: int, maximum: int | None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number; got {value!r} ({type(value).__name__}).")
    if value < minimum or (maximum is not None and value > maximum):
        upper = f" and <= {maximum:,}" if maximum is not None else ""
        raise ValueError(f"{name} must be >= {minimum}{upper}; got {value!r}.")
    return int(value)


def _seconds(name: str, value: object) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number of seconds, or None; got {value!r} "
                         f"({type(value).__name__}).")
    if not math.isfinite(value) or not 0 < value <= MAX_DEADLINE:
        raise ValueError(f"{name} must be a number of seconds > 0 and <= {MAX_DEADLINE:,.0f} (a "
                         f"day); got {value!r}. For no limit at all, pass {name}=None.")
    return float(value)
