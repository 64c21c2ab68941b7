"""Scale: index build time and search latency from 100 to 100,000 chunks, exact against
approximate FAISS, the approximate index's recall@k; and the embedder's raw throughput against
our index build.

Vectors for the size sweep are synthetic: unit vectors of dimension 384 in topics of about 50
chunks, and queries that are stored chunks plus noise (a reworded sentence near its evidence).
The throughput part embeds real HaluEval sentences with the default model.

    python benchmarks/bench_scale.py [--sizes 100,1000,10000,50000,100000] [--queries 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "tests/data/halueval-qa-sample/qa_one-turn_data.jsonl"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000,50000,100000")
    parser.add_argument("--queries", type=int, default=200, help="queries per size")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--throughput-texts", type=int, default=1000,
                        help="real sentences embedded for the throughput part (0: skip)")
    parser.add_argument("--data", type=Path, default=DATA)
    return parser


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def sweep(sizes: list[int], queries: int, k: int, dim: int) -> list[dict]:
    from provenance_guard.retrieval.index import SourceIndex
    from provenance_guard.types import Chunk

    rng = np.random.default_rng(0)
    rows = []
    for n in sizes:
        # topics: clusters of 50 chunks around random centres, as sentence embeddings cluster
        centres = unit(rng.standard_normal((max(1, n // 50), dim)))
        vectors = unit(centres[rng.integers(0, len(centres), n)]
                       + 0.8 * unit(rng.standard_normal((n, dim))))
        picks = rng.integers(0, n, queries)
        # a query is a stored chunk reworded (plus noise): it should find that chunk and the
        # closest chunks of its topic
        asked = unit(vectors[picks] + 0.3 * unit(rng.standard_normal((queries, dim))))
        chunks = [Chunk(f"chunk {i}", i, i + 1, 0) for i in range(n)]
        row = {"chunks": n}
        results = {}
        for kind in ("exact", "approximate"):
            started = time.perf_counter()
            index = SourceIndex(chunks, vectors, approximate=kind == "approximate")
            row[f"{kind}_build_s"] = round(time.perf_counter() - started, 3)
            one = []
            for q in asked[: min(queries, 50)]:  # one sentence at a time, as latency
                started = time.perf_counter()
                index.search(q[None, :], k)
                one.append(time.perf_counter() - started)
            row[f"{kind}_search_ms"] = round(1000 * statistics.median(one), 3)
            results[kind] = [[e.start for e in hits] for hits in index.search(asked, k)]
        hits = sum(len(set(a) & set(e)) for a, e in
                   zip(results["approximate"], results["exact"], strict=True))
        row["recall_at_k"] = round(hits / (k * queries), 4)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def throughput(data: Path, count: int) -> dict:
    from provenance_guard import split_sentences
    from provenance_guard.request import Chunking
    from provenance_guard.retrieval.embedding import SentenceTransformerEmbedder, _load_model
    from provenance_guard.retrieval.index import build_index

    records = [json.loads(line) for line in data.read_text().splitlines()]
    sources = [r["knowledge"] for r in records]
    texts = [s.text for src in sources for s in split_sentences(src)][:count]
    sources = []  # sources whose sentence chunks are exactly `texts`
    taken = 0
    for r in records:
        sentences = [s.text for s in split_sentences(r["knowledge"])]
        if taken + len(sentences) > count:
            break
        sources.append(r["knowledge"])
        taken += len(sentences)
    embedder = SentenceTransformerEmbedder()
    model = _load_model(embedder.model_name)
    embedder.embed(["warm up"])
    raw, ours = [], []
    for _ in range(3):
        started = time.perf_counter()
        model.encode(texts[:taken], batch_size=64, convert_to_numpy=True,
                     normalize_embeddings=True, show_progress_bar=False)
        raw.append(time.perf_counter() - started)
        started = time.perf_counter()
        index = build_index(sources, Chunking("sentence", 1, 0), embedder)
        ours.append(time.perf_counter() - started)
    assert len(index.chunks) == taken
    raw_s, ours_s = statistics.median(raw), statistics.median(ours)
    return {"texts": taken, "raw_encode_per_s": round(taken / raw_s, 1),
            "index_build_per_s": round(taken / ours_s, 1), "build_over_raw": round(ours_s / raw_s, 3),
            **int8_candidate(model, texts[:taken], raw_s)}


def int8_candidate(model, texts: list[str], fp32_s: float) -> dict:
    """PyTorch dynamic int8 quantization of the default model's linear layers: its speed and
    its cosine agreement with the float32 vectors (an option only at 0.99 or better)."""
    import copy
    import warnings

    import torch

    quantized = copy.deepcopy(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantized[0].model = torch.quantization.quantize_dynamic(
            quantized[0].model, {torch.nn.Linear}, dtype=torch.qint8)

        def encode(m):
            return m.encode(texts, batch_size=64, convert_to_numpy=True, normalize_embeddings=True,
                            show_progress_bar=False)

        exact = encode(model)
        times, vectors = [], None
        for _ in range(3):
            started = time.perf_counter()
            vectors = encode(quantized)
            times.append(time.perf_counter() - started)
    agreement = (exact * vectors).sum(axis=1)
    return {"int8_speedup": round(fp32_s / statistics.median(times), 2),
            "int8_cosine_mean": round(float(agreement.mean()), 4),
            "int8_cosine_min": round(float(agreement.min()), 4)}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import provenance_guard  # noqa: F401 - offline settings first
    from provenance_guard.retrieval.index import APPROXIMATE_FROM

    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"approximate index (HNSW) from {APPROXIMATE_FROM:,} chunks; dim {args.dim}, k {args.k}, "
          f"{args.queries} queries per size")
    sweep(sizes, args.queries, args.k, args.dim)
    if args.throughput_texts:
        print(json.dumps(throughput(args.data, args.throughput_texts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
