"""Retrieval: evidence for each claim, from ``sources`` (chunked, embedded once into a cached
index, searched in batches: dense and BM25 fused, question-aware, each hit with its
neighbours) or from the caller's ``query_function``; either way within ``max_evidence_chars``."""

from __future__ import annotations

import asyncio
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..request import Chunking, Request
from ..runtime.deadline import start, unfinished
from ..runtime.pool import offload
from ..runtime.waiting import Waiting, identity, waiting
from ..types import Claim, Evidence
from .embedding import Embedder, FunctionEmbedder
from .evidence_windows import bounded, windows
from .index import INDEX_CACHE, SourceIndex
from .structured import Structured

QUERY_THREADS = 64  # calls at once to one query_function, whichever validators make them
QUERYING_WHO = "metadata['query_function']"
# What a claim's verdict waited for when the deadline found its evidence not yet there
EMBEDDING = "the sources were still being chunked and embedded"
QUERYING = "metadata['query_function'] had not returned"


class Found:
    """Evidence for a list of claims, computed as it is needed: ``await found.get(i)`` waits
    for (or computes) claim i's evidence; ``peek(i)`` gives it if already there, else ``[]``.
    Claims with the same text and source limit share one search.

    With ``sources``, a task of the validation embeds and searches the claims a group at a time,
    in order, in the process's pool, so the judge can start on the first group while the next
    ones are embedded; it ends with the validation. With a ``query_function``, each claim's
    evidence is fetched, in the pool, when it is asked for. Made on the validation's loop."""

    def __init__(self, claims: Sequence[Claim],
                 compute: Callable[[list[Claim]], list[list[Evidence]]],
                 group: int | None = None, query_function: Callable | None = None):
        slots: dict[tuple, int] = {}  # (text, within) -> its place in self._claims
        self._claims: list[Claim] = []  # each distinct claim once
        self._slot: list[int] = []  # each claim's place in self._claims
        for claim in claims:
            key = (claim.text, claim.within)
            if key not in slots:
                slots[key] = len(self._claims)
                self._claims.append(claim)
            self._slot.append(slots[key])
        self._compute, self._query_function = compute, query_function
        self._found: list[list[Evidence] | None] = [None] * len(self._claims)
        self._group = group
        self._ready: list[asyncio.Future] = []
        if group is not None and slots:
            loop = asyncio.get_running_loop()
            self._ready = [loop.create_future() for _ in range(0, len(slots), group)]
            start(self._produce(group))

    def __len__(self) -> int:
        return len(self._slot)

    async def get(self, i: int) -> list[Evidence]:
        n = self._slot[i]
        if self._group is None:
            if self._found[n] is None:  # a user's query_function, which may only wait (on
                # a vector store): in a thread of its own, that its deadline may abandon
                try:
                    self._found[n] = (await self._threads().call(
                        self._compute, [self._claims[n]], waits_for=None))[0]
                except asyncio.CancelledError:
                    unfinished(QUERYING)
                    raise
        else:
            try:  # raises what the search raised
                await asyncio.shield(self._ready[n // self._group])
            except asyncio.CancelledError:
                unfinished(EMBEDDING)
                raise
        return self._found[n] or []

    def _threads(self) -> Waiting:
        """The threads the query function's calls run in: at most ``QUERY_THREADS`` at once
        for each function, whichever validators call it (it guards what the function reaches:
        a vector store), refused at once past that, saying so."""
        return waiting(identity(self._query_function), QUERY_THREADS, QUERYING_WHO, None)

    def peek(self, i: int) -> list[Evidence]:
        return self._found[self._slot[i]] or []

    async def _produce(self, group: int) -> None:
        for g, ready in enumerate(self._ready):
            slots = range(g * group, min((g + 1) * group, len(self._found)))
            try:
                found = await offload(self._compute, [self._claims[n] for n in slots])
            except asyncio.CancelledError:  # the validation ended: nobody reads on
                for waiting in self._ready[g:]:
                    waiting.cancel()
                raise
            except Exception as error:  # noqa: BLE001 - handed to every reader waiting
                for waiting in self._ready[g:]:
                    waiting.set_exception(error)
                    waiting.exception()  # retrieved here: no "never retrieved" warning
                return
            for n, evidence in zip(slots, found, strict=True):
                self._found[n] = evidence
            ready.set_result(None)


class Retriever(Protocol):
    """Finds the evidence for claims. ``source_count`` is the number of sources (None when the
    passages come with no source numbers, as from a query_function)."""

    @property
    def source_count(self) -> int | None: ...

    def find(self, claims: Sequence[Claim], depth: int = 1) -> Found:
        """Each claim's evidence: its ``top_k`` passages, or ``depth`` times as many."""
        ...

    def build(self) -> None:
        """Build now what the first search would (the sources' index), or nothing."""


class SourceRetriever:
    """Evidence from ``sources``: chunked and embedded once into a cached index (built only
    once there is a claim to judge), then each group of claims is one embedding batch and one
    search per source limit (``Claim.within``). Sources of no more than ``top_k`` distinct
    passages are not embedded by the default model: every claim is shown every passage
    (ranked by BM25). A model or function the user chose is always used.
    The query is the claim, after the question when there is one; with ``hybrid``, dense and
    BM25 rankings are fused. Each hit is shown
    with its neighbours, within ``max_evidence_chars`` (see ``evidence``)."""

    def __init__(self, sources: list[str], chunking: Chunking, embedder: Embedder, top_k: int,
                 index_dir: str | None = None, group: int = 8, *, question: str | None = None,
                 hybrid: bool = True, max_evidence_chars: int | None = None,
                 evidence_window: int = 0, structured: Structured | None = None):
        self.structured = structured
        if structured is not None and structured.json_sources:  # read as values, not prose
            sources = ["" if n in structured.json_sources else source
                       for n, source in enumerate(sources)]
        self.sources, self.chunking, self.embedder = sources, chunking, embedder
        self.top_k, self.index_dir, self.group = top_k, index_dir, max(1, group)
        self.source_count = len(sources)
        self.question, self.hybrid = question, hybrid
        self.max_evidence_chars, self.evidence_window = max_evidence_chars, evidence_window

    def query(self, claim: str) -> str:
        return query_text(self.question, claim)

    def find(self, claims: Sequence[Claim], depth: int = 1) -> Found:
        if not any(source.strip() for source in self.sources):  # nothing to embed or search
            return Found(claims, self._beside(lambda group: [[] for _ in group]))

        def compute(group: list[Claim]) -> list[list[Evidence]]:
            index = self._index()
            queries = [self.query(claim.text) for claim in group]
            vectors = self.embedder.embed(queries) if index.embedded else None
            hits = index.hits(vectors, self.top_k * depth, [claim.within for claim in group],
                              queries if self.hybrid or vectors is None else None)
            return [windows(index, self.sources, row, self.max_evidence_chars,
                            self.evidence_window) for row in hits]

        return Found(claims, self._beside(compute), group=self.group)

    def build(self) -> None:
        if any(source.strip() for source in self.sources):
            self._index()

    def _index(self) -> SourceIndex:
        return INDEX_CACHE.get(self.sources, self.chunking, self.embedder, self.index_dir,
                               lexical=self.hybrid,
                               shown=None if self.embedder.chosen else self.top_k)

    def _beside(self, compute: Callable[[list[Claim]], list[list[Evidence]]]
                ) -> Callable[[list[Claim]], list[list[Evidence]]]:
        return beside(self.structured, self.query, compute)


class QueryFunctionRetriever:
    """Evidence from the caller's ``query_function(text=..., k=...)``, fetched as each claim's
    judging needs it, so user retrieval (often a network call) runs concurrently too.
    Its passages are cut to ``max_evidence_chars`` together."""

    source_count = None

    def __init__(self, query_function: Callable, top_k: int, max_evidence_chars: int | None = None,
                 structured: Structured | None = None):
        self.query_function, self.top_k = query_function, top_k
        self.max_evidence_chars, self.structured = max_evidence_chars, structured

    def build(self) -> None:
        """Nothing: the user's query function holds the index."""

    def find(self, claims: Sequence[Claim], depth: int = 1) -> Found:
        return Found(claims, beside(self.structured, lambda claim: claim, lambda group: [
            bounded(query_function_evidence(self.query_function, claim.text,
                                            self.top_k * depth),
                    self.max_evidence_chars)
            for claim in group]), query_function=self.query_function)


def beside(structured: Structured | None, query: Callable[[str], str],
           compute: Callable[[list[Claim]], list[list[Evidence]]]
           ) -> Callable[[list[Claim]], list[list[Evidence]]]:
    """``compute``, each claim's evidence from the tool results and JSON sources first."""
    if not structured:
        return compute
    return lambda group: [structured.find(claim, query(claim.text)) + found
                          for claim, found in zip(group, compute(group), strict=True)]


def query_text(question: str | None, claim: str) -> str:
    """What a claim is searched with: the question, then the claim. Short answers ("Arthur's
    Magazine") only make sense with their question."""
    return f"{question}\n{claim}" if question else claim


@dataclass(frozen=True)
class Retrieving:
    """The settings the retrieval stage reads (each field is the setting of that name)."""

    top_k: int
    max_evidence_chars: int | None
    index_dir: str | None
    max_concurrency: int
    retrieval: str
    evidence_window: int


def retriever_for(request: Request, retrieving: Retrieving, embedder: Embedder) -> Retriever:
    """The retriever a validation's metadata asks for. Nothing is embedded until ``find``."""
    structured = Structured(request.tools, request.sources or [], retrieving.top_k)
    if request.query_function is not None:
        return QueryFunctionRetriever(request.query_function, retrieving.top_k,
                                      retrieving.max_evidence_chars, structured)
    if request.sources is None:  # read_request gives one or the other
        raise TypeError("a request with neither sources nor a query_function")
    if request.embed_function is not None:
        embedder = FunctionEmbedder(request.embed_function)
    return SourceRetriever(request.sources, request.chunking, embedder, retrieving.top_k,
                           retrieving.index_dir, group=retrieving.max_concurrency,
                           question=request.question, hybrid=retrieving.retrieval == "hybrid",
                           max_evidence_chars=retrieving.max_evidence_chars,
                           evidence_window=retrieving.evidence_window, structured=structured)


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
            evidence.append(Evidence(item[0], float(item[1])))
        else:
            raise ValueError(
                f"metadata['query_function'] returned {type(item).__name__} at position {i}; "
                "each item must be a chunk string or a (chunk, score) pair."
            )
    return evidence
