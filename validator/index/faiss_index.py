"""A FAISS inner-product index over the unit vectors of source chunks.

Up to ``APPROXIMATE_FROM`` chunks the index is exact (a flat scan). From there an HNSW graph
answers unrestricted searches; searches limited to cited sources scan the exact vectors the
graph stores. ``benchmarks/bench_scale.py`` measures both and the graph's recall.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..types import Chunk, Evidence, Within

APPROXIMATE_FROM = 20_000  # chunks; below, an exact scan takes under about 4 ms a sentence
HNSW_NEIGHBOURS = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 96


class SourceIndex:
    """Chunks of the sources and a FAISS inner-product index over their unit vectors: exact
    below ``APPROXIMATE_FROM`` chunks, HNSW from there (``approximate`` forces either)."""

    def __init__(self, chunks: list[Chunk], vectors: np.ndarray | None,
                 approximate: bool | None = None, faiss_index=None):
        import faiss

        self.chunks = chunks
        if faiss_index is None and len(chunks):
            faiss_index = _new_faiss_index(vectors, approximate)
        self._index = faiss_index if len(chunks) else None
        self.dimension = int(self._index.d) if self._index is not None else 0
        self.approximate = isinstance(self._index, faiss.IndexHNSW)
        # exact vectors for searches limited to some sources: the graph's own storage
        self._exact = faiss.downcast_index(self._index.storage) if self.approximate else self._index
        self._chunk_ids: dict[int, list[int]] = {}  # source index -> ids of its chunks
        for i, chunk in enumerate(chunks):
            self._chunk_ids.setdefault(chunk.source, []).append(i)

    @property
    def faiss_index(self):
        return self._index

    def vectors(self, ids: list[int]) -> np.ndarray:
        """The stored vectors of the chunks ``ids``."""
        return np.stack([self._exact.reconstruct(int(i)) for i in ids])

    def search(
        self, queries: np.ndarray, k: int, within: Sequence[Within] | None = None
    ) -> list[list[Evidence]]:
        """The ``k`` most similar chunks for each query row, best first. ``within[i]``, when
        given and not None, limits row ``i`` to the chunks of those source indexes (a cited
        sentence is checked against the sources it cites). One FAISS call per distinct limit."""
        if self._index is None or len(queries) == 0:
            return [[] for _ in range(len(queries))]
        if queries.shape[1] != self.dimension:
            raise ValueError(
                f"the sentences were embedded with dimension {queries.shape[1]} but the sources "
                f"with {self.dimension}; the embedder must return one fixed dimension."
            )
        within = [None] * len(queries) if within is None else list(within)
        found: list[list[Evidence]] = [[] for _ in range(len(queries))]
        for limit in dict.fromkeys(within):
            rows = [i for i, row_limit in enumerate(within) if row_limit == limit]
            for row, hits in zip(rows, self._search(queries[rows], k, limit), strict=True):
                found[row] = hits
        return found

    def _search(self, queries: np.ndarray, k: int, limit: Within):
        import faiss

        selector = None  # held here while FAISS uses it: SWIG does not keep it alive
        index = self._index
        if limit is None:
            params, available = None, len(self.chunks)
            if self.approximate:
                params = faiss.SearchParametersHNSW(efSearch=max(HNSW_EF_SEARCH, 4 * k))
        else:
            ids = np.array(sorted(i for s in limit for i in self._chunk_ids.get(s, ())),
                           dtype=np.int64)
            if len(ids) == 0:
                return [[] for _ in range(len(queries))]
            selector = faiss.IDSelectorBatch(ids)
            params, available = faiss.SearchParameters(sel=selector), len(ids)
            index = self._exact
        # twice k, so that k distinct texts remain when sources repeat one another
        scores, ids = index.search(queries, min(2 * k, available), params=params)
        del selector
        found = []
        for row_ids, row_scores in zip(ids, scores, strict=True):
            seen, row = set(), []
            for i, score in zip(row_ids, row_scores, strict=True):
                if i >= 0 and self.chunks[i].text not in seen and len(row) < k:
                    seen.add(self.chunks[i].text)
                    row.append(Evidence.of(self.chunks[i], float(score)))
            found.append(row)
        return found


def _new_faiss_index(vectors: np.ndarray, approximate: bool | None):
    import faiss

    count, dimension = vectors.shape
    if approximate is None:
        approximate = count >= APPROXIMATE_FROM
    if approximate:
        index = faiss.IndexHNSWFlat(dimension, HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    else:
        index = faiss.IndexFlatIP(dimension)
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return index
