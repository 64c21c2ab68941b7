"""A BM25 index over the distinct passage texts, from ``bm25s`` (sparse matrices of
precomputed BM25 weights: scoring a query sums a few of its rows).

Dense retrieval misses short, entity-heavy claims ("Arthur's Magazine") that share rare words
with their passage; BM25 finds them. ``hybrid`` fuses the two rankings.

Tokens are lower-cased words (``\\w+``) without English stop words; no stemmer, so the index
needs nothing beyond ``bm25s`` and numpy. Weights are Lucene's BM25 (k1 1.5, b 0.75).
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

import numpy as np

_WORD = re.compile(r"\w+")
K1, B = 1.5, 0.75  # bm25s's defaults, Lucene's usual ones


@cache
def _bm25s():
    """bm25s, its logger put back to inheriting its level: bm25s sets it to DEBUG, so once
    anything gives the root logger a handler (Guardrails does, by logging on it) every index
    build printed "DEBUG:bm25s:Building index from tokens"."""
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.NOTSET)
    return bm25s


@cache
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


def tokens(text: str) -> list[str]:
    stop = _stopwords()
    return [word for word in _WORD.findall(text.casefold()) if word not in stop]


class LexicalIndex:
    """BM25 weights of ``count`` documents: ``data``/``indices``/``indptr`` hold, for each
    vocabulary entry, the documents that contain it and its weight in each (bm25s's layout)."""

    def __init__(self, vocabulary: list[str], data: np.ndarray, indices: np.ndarray,
                 indptr: np.ndarray, count: int):
        bm25s = _bm25s()
        if len(indptr) != len(vocabulary) + 1 or len(data) != len(indices):
            raise ValueError("its arrays disagree with its vocabulary")
        if len(indices) and (indices.min() < 0 or indices.max() >= count):
            raise ValueError("it names documents it does not have")
        self.vocabulary = vocabulary
        self.count = count
        self._bm25 = bm25s.BM25(k1=K1, b=B)
        self._bm25.scores = {"data": data, "indices": indices, "indptr": indptr, "num_docs": count}
        self._bm25.vocab_dict = {token: i for i, token in enumerate(vocabulary)}
        self._bm25.nonoccurrence_array = None  # only BM25L and BM25+ have one

    @classmethod
    def build(cls, texts: Sequence[str]) -> LexicalIndex:
        bm25s = _bm25s()
        words = [tokens(t) for t in texts]
        if not any(words):  # nothing but stop words: no document matches any query
            return cls([], np.zeros(0, np.float32), np.zeros(0, np.int32), np.zeros(1, np.int64),
                       len(texts))
        bm25 = bm25s.BM25(k1=K1, b=B)
        bm25.index(words, create_empty_token=False, show_progress=False)
        vocabulary = [""] * len(bm25.vocab_dict)
        for token, i in bm25.vocab_dict.items():
            vocabulary[i] = token
        s = bm25.scores
        return cls(vocabulary, s["data"], s["indices"], s["indptr"], len(texts))

    def arrays(self) -> dict[str, np.ndarray]:
        s = self._bm25.scores
        return {"data": s["data"], "indices": s["indices"], "indptr": s["indptr"]}

    @property
    def nbytes(self) -> int:
        return (sum(a.nbytes for a in self.arrays().values())
                + sum(len(t) + 60 for t in self.vocabulary))

    def top(self, query: str, n: int, allowed: np.ndarray | None = None) -> list[int]:
        """Up to ``n`` documents sharing a word with ``query``, best first; ``allowed`` (a
        boolean mask), when given, limits them."""
        ids = self._bm25.get_tokens_ids(tokens(query))
        if not ids:
            return []
        scores = self._bm25.get_scores_from_ids(ids)
        if allowed is not None:
            scores = np.where(allowed, scores, 0.0)
        candidates = np.flatnonzero(scores > 0)
        if len(candidates) > n:
            candidates = candidates[np.argpartition(-scores[candidates], n - 1)[:n]]
        # ties broken by position, so the same query gives the same ranking everywhere
        return [int(i) for i in candidates[np.lexsort((candidates, -scores[candidates]))]]

    def problem(self, texts: Sequence[str]) -> str | None:
        """Why this is not the index of ``texts`` (None when it is): its documents, its
        vocabulary, and the weights of a sample of documents recomputed from their words."""
        if self.count != len(texts):
            return f"it has {self.count} documents, not {len(texts)}"
        words = [tokens(t) for t in texts]
        vocabulary = {w for doc in words for w in doc}
        if set(self.vocabulary) != vocabulary or len(self.vocabulary) != len(vocabulary):
            return "its vocabulary is not the words of the passages"
        frequency = Counter(w for doc in words for w in set(doc))
        average = sum(map(len, words)) / max(1, len(words))
        s, vocab = self._bm25.scores, self._bm25.vocab_dict
        for d in sorted({round(i * (len(texts) - 1) / 7) for i in range(8)}):
            for word, tf in Counter(words[d]).items():
                t = vocab[word]
                row = slice(int(s["indptr"][t]), int(s["indptr"][t + 1]))
                hit = np.flatnonzero(s["indices"][row] == d)
                idf = math.log(1 + (self.count - frequency[word] + 0.5) / (frequency[word] + 0.5))
                want = idf * tf / (tf + K1 * (1 - B + B * len(words[d]) / average))
                if len(hit) != 1 or not math.isclose(float(s["data"][row][hit[0]]), want,
                                                     rel_tol=1e-3, abs_tol=1e-5):
                    return "its weights are not BM25's weights of the passages"
        return None
