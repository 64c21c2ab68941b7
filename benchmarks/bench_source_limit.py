"""A source at the documented limit: how long each stage takes for one source of N characters
(real prose: the HaluEval summarisation sample's sentences, shuffled into paragraphs until N),
and whether a validation of it with the offline judge returns within the default deadline,
from a fresh index cache.

    python benchmarks/bench_source_limit.py [--chars N] [--deadline S]

N defaults to ``max_source_chars``, S to the default ``deadline``: the limit is sized so that a
source at the limit is validated within the deadline on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
import warnings
from pathlib import Path

DATA = (Path(__file__).resolve().parents[1] / "tests" / "data"
        / "halueval-summarization-sample" / "summarization_data.jsonl")
TEXT = "The prosecutor said no videos were used in the investigation. It was painted gold."


def build_parser() -> argparse.ArgumentParser:
    from provenance_guard.settings import fields_by_name

    fields = fields_by_name()

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chars", type=int, default=fields["max_source_chars"].default,
                        help="characters of the source (default: max_source_chars, %(default)s)")
    parser.add_argument("--deadline", type=float, default=fields["deadline"].default,
                        help="the validation's deadline (default: %(default)s)")
    return parser


def source(chars: int) -> str:
    """Real sentences in a new order each paragraph, so that no passage repeats another (the
    index embeds each distinct passage once: repeated documents would cost less)."""
    rng = random.Random(0)
    sentences = [s for line in DATA.read_text().splitlines()
                 for s in re.split(r"(?<=[.!?])\s+", json.loads(line)["document"]) if s]
    paragraphs, n = [], 0
    while n < chars:
        paragraph = " ".join(rng.sample(sentences, 8))
        paragraphs.append(paragraph)
        n += len(paragraph) + 2
    return "\n\n".join(paragraphs)[:chars]


def timed(function, *args):
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from provenance_guard import ProvenanceLLM
    from provenance_guard.request import HUB_CHUNKING
    from provenance_guard.retrieval.chunking import passages
    from provenance_guard.retrieval.index import INDEX_CACHE
    from provenance_guard.retrieval.index.bm25 import LexicalIndex
    from provenance_guard.retrieval.index.cache import build_index

    text = source(args.chars)
    validator = ProvenanceLLM(llm_callable="local", deadline=args.deadline)
    validator.warm_up()
    (chunks, parents), chunking = timed(passages, [text], HUB_CHUNKING)
    texts = list(dict.fromkeys(c.text for c in chunks))
    _, lexical = timed(LexicalIndex.build, texts)
    _, embedding = timed(build_index, [text], HUB_CHUNKING, validator._embedder,
                         (chunks, parents))
    INDEX_CACHE.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report, validating = timed(validator.check, TEXT, {"sources": [text]})
    print(f"source: {len(text):,} characters, {len(chunks):,} passages "
          f"({len(texts):,} distinct)")
    print(f"chunking {chunking:.1f} s, BM25 {lexical:.1f} s, embedding {embedding:.1f} s: "
          f"{chunking + lexical + embedding:.1f} s of a validation's own work")
    labels = ", ".join(str(s.label) for s in report.sentences)
    print(f"validation from a fresh cache, deadline {args.deadline:g} s: {validating:.1f} s "
          f"({labels})")
    undecided = [s.verdict.reason for s in report.sentences if str(s.label) == "invalid"]
    if undecided:
        print(f"  undecided: {undecided[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
