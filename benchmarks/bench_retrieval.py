"""Retrieval quality and speed on the 500 HaluEval QA records in tests/data.

All 500 ``knowledge`` texts go into one index (one sentence per chunk, the default embedder,
all-MiniLM-L6-v2). Each record is searched for with its right answer and with its hallucinated
answer, each with and without its question; recall@3 is the share of searches whose top 3
passages include one of the record's own knowledge text. Dense (FAISS alone) against hybrid
(dense and BM25 fused by reciprocal rank), exactly as the validator searches
(``SourceIndex.hits`` with the query ``retrieval.query_text`` makes).

Nothing was tuned on these records (RRF's constant 60 and 50 candidates a ranking were set
beforehand), so the figures are in-sample only in the sense that the design was checked on
them; they are also given for each half of the records.

Speed: the build of the index (chunking, encoding, FAISS, BM25) against the raw encoding of its
passages plus BM25's own build, side by side, medians; and the search time per sentence at
20,000 chunks (the real passages' vectors and texts, each also as copies made distinct by
a marker word and a little noise: an HNSW index, as the validator builds at that size), for a
batch of sentences, index search only (the sentences' embedding is given apart).

    python benchmarks/bench_retrieval.py [--records 500] [--repeats 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests/data/halueval-qa-sample/qa_one-turn_data.jsonl"
KINDS = [("right", False), ("hallucinated", False), ("right", True), ("hallucinated", True)]


@dataclass
class Recall:
    answer: str  # right or hallucinated
    question: bool  # the question is part of the query
    mode: str  # dense or hybrid
    all: float
    first_half: float
    second_half: float


@dataclass
class Speed:
    passages: int
    encode_s: float  # raw encoding of the distinct passage texts
    bm25_build_s: float  # LexicalIndex.build on them
    index_build_s: float  # the validator's whole build, cold (chunk, encode, FAISS, BM25)
    build_ratio: float  # index_build_s / (encode_s + bm25_build_s)
    search_chunks: int
    approximate: bool
    dense_ms_per_sentence: float
    hybrid_ms_per_sentence: float
    embed_ms_per_sentence: float
    batch: int


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each speed figure")
    parser.add_argument("--search-chunks", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=256, help="sentences per timed search")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", action="store_true")
    return parser


def recall(records, index, vectors_of, k: int = 3) -> list[Recall]:
    rows = []
    half = len(records) // 2
    for answer, with_question in KINDS:
        queries = [query(r, answer, with_question) for r in records]
        vectors = vectors_of(queries)
        for mode in ("dense", "hybrid"):
            hits = index.hits(vectors, k, None, queries if mode == "hybrid" else None)
            found = [any(index.chunks[p].source == n for p, _ in row) for n, row in enumerate(hits)]
            rows.append(Recall(answer, with_question, mode, _share(found),
                               _share(found[:half]), _share(found[half:])))
    return rows


def query(record: dict, answer: str, with_question: bool) -> str:
    from provenance_guard.retrieval.retriever import query_text

    return query_text(record["question"] if with_question else None,
                      record[f"{answer}_answer"])


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / len(flags), 3) if flags else float("nan")


def speed(sources, chunking, embedder, queries, args) -> Speed:
    import numpy as np

    from provenance_guard.retrieval.chunking import passages
    from provenance_guard.retrieval.index import IndexCache, SourceIndex
    from provenance_guard.retrieval.index.bm25 import LexicalIndex
    from provenance_guard.types import Chunk

    texts = list(dict.fromkeys(c.text for c in passages(sources, chunking)[0]))
    encode, lexical, whole = [], [], []
    for _ in range(args.repeats):  # side by side, in turn, so drift touches all three alike
        started = time.perf_counter()
        vectors = embedder.embed(texts)
        encode.append(time.perf_counter() - started)
        started = time.perf_counter()
        LexicalIndex.build(texts)
        lexical.append(time.perf_counter() - started)
        started = time.perf_counter()
        IndexCache().get(sources, chunking, embedder, lexical=True)
        whole.append(time.perf_counter() - started)

    # 20,000 passages: the real ones, then copies made distinct by a marker word and noise
    rng = np.random.default_rng(0)
    big_texts, big_vectors = [], []
    for n in range(args.search_chunks):
        i = n % len(texts)
        copy = n // len(texts)
        big_texts.append(texts[i] if copy == 0 else f"{texts[i]} (variant {copy})")
        noisy = vectors[i] + (0 if copy == 0 else 0.05 * rng.standard_normal(vectors.shape[1]))
        big_vectors.append(noisy / np.linalg.norm(noisy))
    chunks = [Chunk(t, 0, len(t), n) for n, t in enumerate(big_texts)]
    index = SourceIndex(chunks, np.asarray(big_vectors, dtype=np.float32),
                        lexical=LexicalIndex.build(big_texts))
    batch = queries[: args.batch]
    started = time.perf_counter()
    query_vectors = embedder.embed(batch)
    embed_s = time.perf_counter() - started
    timed = {"dense": [], "hybrid": []}
    for _ in range(max(3, args.repeats)):
        for mode in timed:
            started = time.perf_counter()
            index.hits(query_vectors, 3, None, batch if mode == "hybrid" else None)
            timed[mode].append(time.perf_counter() - started)
    per = {mode: round(1000 * statistics.median(t) / len(batch), 3) for mode, t in timed.items()}
    build = statistics.median(whole)
    raw = statistics.median(encode) + statistics.median(lexical)
    return Speed(len(texts), round(statistics.median(encode), 3),
                 round(statistics.median(lexical), 3), round(build, 3), round(build / raw, 3),
                 len(chunks), index.approximate, per["dense"], per["hybrid"],
                 round(1000 * embed_s / len(batch), 3), len(batch))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.data.exists():
        parser.error(f"no data at {args.data}; pass --data PATH to qa_one-turn_data.jsonl")
    if args.records < 2 or args.repeats < 1 or args.search_chunks < 1 or args.batch < 1:
        parser.error("--records must be at least 2; --repeats, --search-chunks, --batch at least 1")

    from provenance_guard.request import Chunking
    from provenance_guard.retrieval.embedding import SentenceTransformerEmbedder
    from provenance_guard.retrieval.index import IndexCache

    records = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines()
               if line.strip()][: args.records]
    sources = [r["knowledge"] for r in records]
    chunking = Chunking("sentence", 1, 0)
    embedder = SentenceTransformerEmbedder()
    index = IndexCache().get(sources, chunking, embedder, lexical=True)
    rows = recall(records, index, embedder.embed)
    queries = [query(r, answer, q) for answer, q in KINDS for r in records]
    measured = speed(sources, chunking, embedder, queries, args)
    if args.json:
        print(json.dumps({"recall_at_3": [asdict(r) for r in rows], "speed": asdict(measured)},
                         indent=2))
        return 0
    print(f"recall@3, {len(records)} records, {len(index.chunks)} sentence chunks in one index "
          "(all / first half / second half):")
    print(f"{'answer':<13}{'question':<10}{'dense':>22}{'hybrid':>22}")
    for n in range(0, len(rows), 2):
        dense, hybrid = rows[n], rows[n + 1]
        print(f"{dense.answer:<13}{'yes' if dense.question else 'no':<10}"
              f"{_three(dense):>22}{_three(hybrid):>22}")
    print(json.dumps(asdict(measured)))
    return 0


def _three(row: Recall) -> str:
    return f"{row.all:.3f} {row.first_half:.3f} {row.second_half:.3f}"


if __name__ == "__main__":
    sys.exit(main())
