"""A FAISS inner-product index over the unit vectors of source chunks, or, where every passage
is shown anyway, no vectors at all.

A claim is shown at most ``top_k`` passages. When the sources hold no more distinct passages
than that, every claim is shown all of them whatever it is searched with: embedding the
passages and the claims would only order them. Such an index is built from words alone
(``embedded`` False): its passages are ranked for each claim by BM25, then in source order, and
carry no similarity.

Up to ``APPROXIMATE_FROM`` chunks the index is exact (a flat scan). From there an HNSW graph
answers unrestricted searches; searches limited to cited sources scan the exact vectors the
graph stores. ``benchmarks/bench_scale.py`` measures both and the graph's recall.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...types import Chunk, Evidence, Within
from .bm25 import LexicalIndex

APPROXIMATE_FROM = 20_000  # chunks; below, an exact scan takes under about 4 ms a sentence
HNSW_NEIGHBOURS = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 96


class SourceIndex:
    """The indexed passages of the sources (``chunks``), one FAISS inner-product vector per
    distinct passage text (exact below ``APPROXIMATE_FROM``, HNSW from there; ``approximate``
    forces either), and, once built, a BM25 index over the same texts (``lexical``).

    Without vectors (``vectors`` and ``faiss_index`` None), the BM25 index ranks passages and a
    search must allow no more than ``k`` of them (see ``hits``).

    A text that several passages share (a source given twice, a repeated boilerplate line) is
    one vector: it cannot crowd other passages out of the top k, and a claim citing any copy
    finds it in the copy it cites. ``parents[i]`` is the span of the chunk passage i is a
    window of (the passage itself unless its chunk was longer than the embedder's window)."""

    def __init__(self, chunks: list[Chunk], vectors: np.ndarray | None,
                 approximate: bool | None = None, faiss_index=None,
                 parents: list[tuple[int, int]] | None = None, lexical: LexicalIndex | None = None):
        import faiss

        self.chunks = chunks
        self.parents = parents if parents is not None else [(c.start, c.end) for c in chunks]
        self.lexical = lexical
        first: dict[str, int] = {}
        self.holders: list[list[int]] = []  # vector id -> the passages with that text
        self._vector_of: list[int] = []  # passage -> its vector id
        self._chunk_ids: dict[int, list[int]] = {}  # source index -> ids of its passages
        for i, chunk in enumerate(chunks):
            v = first.setdefault(chunk.text, len(first))
            if v == len(self.holders):
                self.holders.append([])
            self.holders[v].append(i)
            self._vector_of.append(v)
            self._chunk_ids.setdefault(chunk.source, []).append(i)
        self.texts = [chunks[h[0]].text for h in self.holders]
        if faiss_index is None and len(chunks) and vectors is not None:
            faiss_index = _new_faiss_index(vectors, approximate)
        self._index: Any = faiss_index if len(chunks) else None  # FAISS's classes are untyped
        self.embedded = self._index is not None or not chunks
        if not self.embedded and lexical is None:
            raise ValueError("an index of passages needs their vectors, a FAISS index, or "
                             "(its passages ranked by words alone) a BM25 index")
        if self._index is not None and self._index.ntotal != len(self.texts):
            raise ValueError(f"{self._index.ntotal} vectors for {len(self.texts)} distinct "
                             "passage texts")
        self.dimension = int(self._index.d) if self._index is not None else 0
        self.approximate = isinstance(self._index, faiss.IndexHNSW)
        # exact vectors for searches limited to some sources: the graph's own storage
        self._exact: Any = (faiss.downcast_index(self._index.storage)
                            if self.approximate and self._index is not None else self._index)

    @property
    def faiss_index(self):
        return self._index

    def vectors(self, ids: list[int]) -> np.ndarray:
        """The stored vectors of the distinct texts ``ids`` (``texts[i]``)."""
        return np.stack([self._exact.reconstruct(int(i)) for i in ids])

    def search(
        self, queries: np.ndarray | None, k: int, within: Sequence[Within] | None = None,
        texts: Sequence[str] | None = None,
    ) -> list[list[Evidence]]:
        """The ``k`` best passages for each query row, best first, each distinct text once,
        with its cosine similarity to the query (None in an index without vectors, which takes
        ``queries`` None and ranks by ``texts``). ``within[i]``, when given and not None,
        limits row ``i`` to the passages of those source indexes (a cited sentence is checked
        against the sources it cites). With ``texts`` (the queries' words) and a ``lexical``
        index, the dense and BM25 rankings are fused by reciprocal rank."""
        return [[Evidence.of(self.chunks[p], score) for p, score in row]
                for row in self.hits(queries, k, within, texts)]

    def hits(self, queries: np.ndarray | None, k: int, within: Sequence[Within] | None = None,
             texts: Sequence[str] | None = None) -> list[list[tuple[int, float | None]]]:
        """As ``search``, as (passage id, cosine similarity) pairs."""
        if not self.embedded:
            if texts is None:
                raise ValueError("an index without vectors is searched with the queries' words")
            return self._every_passage(texts, k, within)
        if queries is None:
            raise ValueError("an index with vectors is searched with the queries' vectors")
        if self._index is None or len(queries) == 0:
            return [[] for _ in range(len(queries))]
        if queries.shape[1] != self.dimension:
            raise ValueError(
                f"the sentences were embedded with dimension {queries.shape[1]} but the sources "
                f"with {self.dimension}; the embedder must return one fixed dimension."
            )
        within = [None] * len(queries) if within is None else list(within)
        lexical = self.lexical if texts is not None else None
        depth = max(FUSION_DEPTH, 2 * k) if lexical is not None else k
        found: list[list[tuple[int, float | None]]] = [[] for _ in range(len(queries))]
        for limit in dict.fromkeys(within):
            rows = [i for i, row_limit in enumerate(within) if row_limit == limit]
            allowed = self._allowed(limit)
            if allowed is not None and not allowed.any():
                continue
            dense = self._dense(queries[rows], depth, allowed)
            for row, ranked in zip(rows, dense, strict=True):
                if lexical is not None and texts is not None:
                    words = lexical.top(texts[row], depth, allowed)
                    ranked = fuse([[v for v, _ in ranked], words], k)
                    ranked = list(zip(ranked, self._cosines(queries[row], ranked), strict=True))
                found[row] = [(self._holder(v, limit), score) for v, score in ranked[:k]]
        return found

    def _every_passage(self, texts: Sequence[str], k: int, within: Sequence[Within] | None
                       ) -> list[list[tuple[int, float | None]]]:
        """Every passage each query may be shown, best BM25 match first, the rest in source
        order; no similarity (nothing was embedded). More than ``k`` is a caller's error: the
        index was built for searches that show every passage."""
        assert self.lexical is not None  # an index without vectors is built with its words
        within = [None] * len(texts) if within is None else list(within)
        found: list[list[tuple[int, float | None]]] = []
        for text, limit in zip(texts, within, strict=True):
            allowed = self._allowed(limit)
            ids = range(len(self.texts)) if allowed is None else np.flatnonzero(allowed).tolist()
            if len(ids) > k:
                raise ValueError(f"{len(ids)} passages to show, more than k={k}: an index "
                                 "without vectors cannot choose among them")
            ranked = list(dict.fromkeys([*self.lexical.top(text, len(ids), allowed), *ids]))
            found.append([(self._holder(v, limit), None) for v in ranked])
        return found

    def _allowed(self, limit: Within) -> np.ndarray | None:
        """Which distinct texts a claim limited to ``limit`` may be given (None: all)."""
        if limit is None:
            return None
        allowed = np.zeros(len(self.texts), dtype=bool)
        for s in limit:
            allowed[[self._vector_of[p] for p in self._chunk_ids.get(s, ())]] = True
        return allowed

    def _holder(self, vector: int, limit: Within) -> int:
        """The passage with text ``vector`` to give as evidence: the first in a cited source."""
        holders = self.holders[vector]
        return next((p for p in holders if limit is None or self.chunks[p].source in limit),
                    holders[0])

    def _cosines(self, query: np.ndarray, ids: list[int]) -> list[float]:
        return [float(x) for x in self.vectors(ids) @ query] if ids else []

    def _dense(self, queries: np.ndarray, k: int, allowed: np.ndarray | None):
        import faiss

        selector = None  # held here while FAISS uses it: SWIG does not keep it alive
        index = self._index
        if allowed is None:
            params, available = None, len(self.texts)
            if self.approximate:
                # (FAISS's stubs lack some of its classes and keyword arguments)
                params = faiss.SearchParametersHNSW(efSearch=max(HNSW_EF_SEARCH, 4 * k))  # type: ignore[attr-defined]
        else:
            ids = np.flatnonzero(allowed).astype(np.int64)
            selector = faiss.IDSelectorBatch(ids)
            params, available = faiss.SearchParameters(sel=selector), len(ids)  # type: ignore[call-arg]
            index = self._exact
        scores, ids = index.search(queries, min(k, available), params=params)
        del selector
        return [[(int(i), float(score)) for i, score in zip(row_ids, row_scores, strict=True)
                 if i >= 0] for row_ids, row_scores in zip(ids, scores, strict=True)]


FUSION_DEPTH = 50  # candidates taken from each ranking before fusion
RRF_K = 60  # reciprocal rank fusion's constant (Cormack et al. 2009), not tuned here


def fuse(rankings: Sequence[Sequence[int]], k: int, constant: int = RRF_K) -> list[int]:
    """The ``k`` best ids by reciprocal rank fusion: each ranking gives ``1 / (constant +
    rank)``; ties go to the id ranked first by the earlier ranking (the dense one)."""
    score: dict[int, float] = {}
    for ranking in rankings:
        for rank, i in enumerate(ranking, 1):
            score[i] = score.get(i, 0.0) + 1.0 / (constant + rank)
    return sorted(score, key=lambda i: -score[i])[:k]


def _new_faiss_index(vectors: np.ndarray, approximate: bool | None):
    import faiss

    count, dimension = vectors.shape
    if approximate is None:
        approximate = count >= APPROXIMATE_FROM
    index: faiss.Index
    if approximate:
        index = faiss.IndexHNSWFlat(dimension, HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    else:
        index = faiss.IndexFlatIP(dimension)
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return index
