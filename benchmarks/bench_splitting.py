"""Sentence splitting side by side: the Golden Rules (per language, pass counts), speed in ms
per 1,000 characters (median), and the time to split and to chunk a 5 MB source.

Two splitters: pySBD alone (``Segmenter(language, clean=False).segment``) and ours
(``split_sentences``: Markdown blocks, a fast path, pySBD). The splitter this package used
before (nltk Punkt and rules: 24 of 48 English Golden Rules) is described in
``docs/design/sentences.md``. The Golden Rules data are
``tests/data/golden-rules`` (284 cases, 23 languages); a case passes when the stripped
sentences equal the expected ones.

    python benchmarks/bench_splitting.py [--repeats 5] [--big-mb 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
GOLDEN = DATA / "golden-rules/golden_rules.jsonl"
HALUEVAL = DATA / "halueval-qa-sample/qa_one-turn_data.jsonl"
CODES: dict[str, str] = {}  # language name in the data -> code, filled once the package is imported


@dataclass
class Speed:
    splitter: str
    ms_per_1000_chars: float  # median over the repeats
    chars: int


@dataclass
class BigSource:
    what: str
    chars: int
    seconds: float
    sentences_or_chunks: int


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per splitter")
    parser.add_argument("--big-mb", type=float, default=5.0, help="size of the big source, MB")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only-big", action="store_true",
                        help="only split and chunk the big source, for timing the whole process "
                        "from outside")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for path in (GOLDEN, HALUEVAL):
        if not path.exists():
            build_parser().error(f"no data at {path}")

    import pysbd

    from provenance_guard.request import Chunking
    from provenance_guard.retrieval.chunking import chunk_sources
    from provenance_guard.storage import LRU
    from provenance_guard.text import sentences as splitting
    from provenance_guard.text.languages import LANGUAGES

    # The data set names languages; pySBD and ``language=`` take ISO 639-1 codes.
    CODES.update({name.lower(): code for code, name in LANGUAGES.items()}, deutsch="de")
    splitting._PIECES = LRU(0)  # measure cold: no piece is answered from the cache
    texts = [json.loads(line)["knowledge"] for line in HALUEVAL.read_text().splitlines()]
    if args.only_big:
        big = _big_source(texts, int(args.big_mb * 1_000_000))
        count = len(chunk_sources([big], Chunking("sentence", 5, 2)))
        print(f"ours: {len(big):,} characters -> {count:,} units")
        return 0

    def pysbd_split(text, code):
        return pysbd.Segmenter(language=code, clean=False).segment(text)

    cases = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    splitters = {
        "pySBD, language given": pysbd_split,
        "ours, language given": lambda text, code: [s.text for s in
                                                    splitting.split_sentences(text, code)],
        "ours, language='auto'": lambda text, code: [s.text for s in
                                                    splitting.split_sentences(text)],
    }
    golden = {name: _golden(split, cases) for name, split in splitters.items()}

    corpus = "\n\n".join(texts)
    speeds = [
        _speed("pySBD alone", lambda: pysbd_split(corpus, "en"), corpus, args.repeats),
        _speed("ours", lambda: splitting.split_sentences(corpus), corpus, args.repeats),
    ]
    spaced = [re.sub(r"(\w[.!?][\"”)]?)(?=[A-Z0-9])", r"\1 ", t) for t in texts]
    agree = [sum([s.text for s in splitting.split_sentences(t)]
                 == [s.strip() for s in pysbd_split(t, "en") if s.strip()] for t in some)
             for some in (texts, spaced)]

    big = _big_source(texts, int(args.big_mb * 1_000_000))
    rows = []
    started = time.perf_counter()
    count = len(splitting.split_sentences(big))
    rows.append(BigSource("ours: split_sentences", len(big), time.perf_counter() - started, count))
    started = time.perf_counter()
    count = len(chunk_sources([big], Chunking("sentence", 5, 2)))
    rows.append(BigSource("ours: chunk_sources, sentence 5/2", len(big),
                          time.perf_counter() - started, count))

    if args.json:
        print(json.dumps({"golden_rules": golden, "speed": [asdict(s) for s in speeds],
                          "halueval_texts_same_as_pysbd": [*agree, len(texts)],
                          "big_source": [asdict(r) for r in rows]}, indent=2))
        return 0
    _print_golden(golden, cases)
    print(f"\nspeed on the {len(texts)} HaluEval knowledge texts joined ({len(corpus):,} chars), "
          f"median of {args.repeats}:")
    base = speeds[0].ms_per_1000_chars
    for s in speeds:
        print(f"  {s.splitter:<24} {s.ms_per_1000_chars:7.3f} ms / 1,000 chars   "
              f"({s.ms_per_1000_chars / base:.2f}x pySBD's)")
    print(f"ours gives pySBD's sentences on {agree[0]} of {len(texts)} HaluEval texts as they "
          f"are, on {agree[1]} once each stop glued to the next word gets a space")
    print(f"\na {len(big) / 1e6:.1f} MB source (HaluEval texts, each made distinct):")
    for r in rows:
        print(f"  {r.what:<36} {r.seconds:6.2f} s   {r.sentences_or_chunks:,} units")
    return 0


def _golden(split, cases) -> dict[str, list[int]]:
    """Per language: [passed, cases]."""
    passed, total = Counter(), Counter()
    for case in cases:
        got = [s.strip() for s in split(case["text"], CODES[case["lang"]]) if s.strip()]
        total[case["lang"]] += 1
        passed[case["lang"]] += got == case["sentences"]
    return {lang: [passed[lang], total[lang]] for lang in sorted(total)}


def _print_golden(golden, cases) -> None:
    names = list(golden)
    print("Golden Rules: cases passed per language")
    print(f"  {'language':<10}" + "".join(f"{n:>24}" for n in names))
    for lang in sorted({c["lang"] for c in cases}):
        print(f"  {lang:<10}" + "".join(f"{golden[n][lang][0]:>18}/{golden[n][lang][1]:<5}"
                                        for n in names))
    totals = {n: (sum(p for p, _ in golden[n].values()), sum(t for _, t in golden[n].values()))
              for n in names}
    print(f"  {'all':<10}" + "".join(f"{p:>12}/{t} ({p / t:4.0%})     "
                                     for p, t in totals.values()))


def _speed(name: str, run, text: str, repeats: int) -> Speed:
    run()  # warm up: imports, compiled patterns
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return Speed(name, statistics.median(times) * 1000 / (len(text) / 1000), len(text))


def _big_source(texts: list[str], size: int) -> str:
    """Paragraphs of real text up to ``size`` characters; each copy of a text gets its own
    words (a number and a name), so no paragraph repeats."""
    parts, total, n = [], 0, 0
    while total < size:
        text = texts[n % len(texts)]
        part = f"Record {n} of the archive kept by Librarian{n}. {text}"
        parts.append(part)
        total += len(part) + 2
        n += 1
    return "\n\n".join(parts)[:size]


if __name__ == "__main__":
    raise SystemExit(main())
