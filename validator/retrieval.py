"""Retrieval: evidence for each claim, from ``sources`` (chunked, embedded once into a cached
FAISS index, searched in one batch) or from the caller's ``query_function``; and the checks
on what the caller passes for either."""

from __future__ import annotations

import numbers
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .chunking import check_chunking
from .embedding import Embedder, FunctionEmbedder
from .index import INDEX_CACHE, Evidence

Within = frozenset[int] | None  # the source indexes a claim's evidence must come from


class Found:
    """Evidence for a list of texts, computed as it is needed: ``found[i]`` waits for (or
    computes) text i's evidence; ``peek(i)`` gives it if already there, else ``[]``.

    With ``sources``, a background thread embeds and searches the texts a group at a time, in
    order, so the judge can start on the first group while the next ones are embedded. With a
    ``query_function``, each text's evidence is fetched by the thread that asks for it."""

    def __init__(self, count: int, compute: Callable[[list[int]], list[list[Evidence]]],
                 group: int | None = None):
        self._compute = compute
        self._found: list[list[Evidence] | None] = [None] * count
        self._error: BaseException | None = None
        self._group = group
        if group is not None and count:
            self._ready = [threading.Event() for _ in range(0, count, group)]
            threading.Thread(target=self._produce, daemon=True, name="provenance-retrieval").start()

    def __len__(self) -> int:
        return len(self._found)

    def __getitem__(self, i: int) -> list[Evidence]:
        if self._group is None:
            if self._found[i] is None:
                self._found[i] = self._compute([i])[0]
            return self._found[i]
        self._ready[i // self._group].wait()
        if self._error is not None:
            raise self._error
        return self._found[i]

    def peek(self, i: int) -> list[Evidence]:
        return self._found[i] or []

    def _produce(self) -> None:
        for g, ready in enumerate(self._ready):
            indexes = list(range(g * self._group, min((g + 1) * self._group, len(self._found))))
            try:
                for i, evidence in zip(indexes, self._compute(indexes), strict=True):
                    self._found[i] = evidence
            except BaseException as error:  # noqa: BLE001 - handed to every waiting reader
                self._error = error
                for event in self._ready:
                    event.set()
                return
            ready.set()


@dataclass(frozen=True)
class Retrieval:
    """``find(texts, within, group)`` returns each text's evidence as a ``Found``.
    ``source_count`` is the number of sources (None with a query_function, whose chunks have no
    source numbers)."""

    find: Callable[..., Found]
    source_count: int | None

    @property
    def no_sources(self) -> bool:
        return self.source_count == 0


def plan_retrieval(
    metadata: dict[str, Any], embedder: Embedder, top_k: int, run: Callable,
    max_source_chars: int | None = None, index_dir: str | os.PathLike | None = None,
) -> Retrieval:
    """Check the metadata's retrieval keys and return how evidence will be found. Nothing is
    embedded until ``find`` is called."""
    query_function = metadata.get("query_function")
    if query_function is not None:
        if metadata.get("sources") is not None:
            warnings.warn(
                "metadata has both 'query_function' and 'sources'; using query_function.",
                stacklevel=4,
            )
        if not callable(query_function):
            raise ValueError(
                "metadata['query_function'] must be callable as query_function(text=..., "
                f"k=...); got {type(query_function).__name__}."
            )

        def ask(texts: Sequence[str], within: Sequence[Within], group: int = 8) -> Found:
            # fetched by the judging threads, so user retrieval (often a network call) runs
            # concurrently too
            return Found(len(texts), lambda indexes: [
                query_function_evidence(query_function, texts[i], top_k) for i in indexes])

        return Retrieval(ask, None)
    if "sources" not in metadata or metadata["sources"] is None:
        raise ValueError(
            "ProvenanceLLM needs metadata['sources'] (a list of strings) or "
            "metadata['query_function'] (text, k -> chunks). Pass one of them, e.g. "
            "guard.validate(text, metadata={'sources': [...]})."
        )
    sources = check_sources(metadata["sources"])
    size_of_sources = sum(len(s) for s in sources)
    if max_source_chars is not None and size_of_sources > max_source_chars:
        raise ValueError(
            f"metadata['sources'] hold {size_of_sources:,} characters, more than "
            f"max_source_chars={max_source_chars:,}. Pass the passages retrieved for this answer "
            "rather than whole corpora (or a query_function over an index of your own), or "
            "raise max_source_chars (None: no limit)."
        )
    strategy = metadata.get("chunk_strategy", "full")
    size = metadata.get("chunk_size", 5)
    overlap = metadata.get("chunk_overlap", 2)
    check_chunking(strategy, size, overlap)
    embed_function = metadata.get("embed_function")
    if embed_function is not None:
        embedder = FunctionEmbedder(embed_function)

    def search(texts: Sequence[str], within: Sequence[Within], group: int = 8) -> Found:
        if not sources:
            return Found(len(texts), lambda indexes: [[] for _ in indexes])

        def compute(indexes: list[int]) -> list[list[Evidence]]:
            # the index is built (or found in the cache) only once there is something to judge;
            # then each group of texts is one embedding batch and one FAISS search per limit
            index = INDEX_CACHE.get(sources, strategy, size, overlap, embedder, index_dir)
            vectors = embedder.embed([texts[i] for i in indexes])
            return index.search(vectors, top_k, [within[i] for i in indexes])

        return Found(len(texts), compute, group=max(1, group))

    return Retrieval(search, len(sources))


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


def query_function_evidence(query_function: Callable, text: str, k: int) -> list[Evidence]:
    """Call a user's ``query_function(text=..., k=...)`` and check what it returns: a list of
    chunk strings, or of ``(chunk, score)`` pairs."""
    try:
        returned = query_function(text=text, k=k)
    except Exception as error:
        raise RuntimeError(
            f"metadata['query_function'] raised {type(error).__name__}: {error}. Nothing was "
            "judged; fix the retrieval (or pass sources) and validate again."
        ) from error
    if not isinstance(returned, (list, tuple)):
        raise ValueError(
            "metadata['query_function'] must return a list of chunk strings or (chunk, score) "
            f"pairs; got {type(returned).__name__}."
        )
    evidence = []
    for i, item in enumerate(returned[:k]):
        if isinstance(item, str):
            evidence.append(Evidence(item))
        elif (
            isinstance(item, (list, tuple))
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], numbers.Real)
        ):
            evidence.append(Evidence(item[0], similarity=float(item[1])))
        else:
            raise ValueError(
                f"metadata['query_function'] returned {type(item).__name__} at position {i}; "
                "each item must be a chunk string or a (chunk, score) pair."
            )
    return evidence
