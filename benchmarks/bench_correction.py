"""Correction as the fix (``fix_mode="correct"``) on the shared HaluEval summarisation sample:
of the sentences that fail, how many are corrected (the rewrite passes the checks and the judge
and replaces the sentence) and how many are removed, and why; for hallucinated summaries (what
correction is for) and right ones (where a rewrite changes a sentence that was right but that
the judge failed).

The rewriter is scripted, a stand-in for an LLM: it returns the sentence of the evidence that
shares most words with the failing sentence. That is the best a rewriter can do without
writing: it measures the checks and the judge around correction, not a model's writing. The
judge is the offline rule checker (``llm_callable="local"``); each document is one source,
chunked three sentences at a time.

    python benchmarks/bench_correction.py [--half report] [--limit N]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections import Counter

import halueval

import provenance_guard  # noqa: F401 - first: offline settings
from provenance_guard import ProvenanceLLM, rules
from provenance_guard.text.sentences import split_sentences


class NearestSentence:
    """A corrector that returns the evidence sentence sharing most words with the sentence."""

    def correct(self, sentence, evidence, verdict, question=None):
        words = set(rules.normalise(sentence).split())
        candidates = [s.text for e in evidence for s in split_sentences(e.text)]
        if not candidates:
            return None
        return max(candidates, key=lambda c: len(words & set(rules.normalise(c).split())))


def _why(reason: str) -> str:
    """A removal's reason without its details (the numbers and words it names)."""
    return reason.split(":")[0].split(" (")[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "report", "all"), default="report",
                        help="records 1-250 (tune), 251-500 (report, the default) or all")
    parser.add_argument("--limit", type=int, default=None, help="only the first N records")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", UserWarning)  # "every claim fails": counted below instead
    validator = ProvenanceLLM(llm_callable="local", on_fail="fix", fix_mode="correct",
                              corrector=NearestSentence())
    data = halueval.SETS["summarisation"]
    counts = {kind: Counter() for kind in ("right", "hallucinated")}
    started = time.perf_counter()
    for n, record in enumerate(halueval.records("summarisation", args.half)):
        if args.limit is not None and n >= args.limit:
            break
        metadata = {"sources": [record[data.source]], "chunk_strategy": "sentence",
                    "chunk_size": 3, "chunk_overlap": 1}
        for kind, key in (("right", data.right), ("hallucinated", data.wrong)):
            report = validator.check(record[key], metadata)
            tally = counts[kind]
            tally["summaries"] += 1
            tally["sentences"] += len(report.sentences)
            tally["failing"] += len(report.failing)
            tally["summaries failing"] += bool(report.failing)
            for result in report.failing:
                correction = result.correction
                if correction is None:
                    tally["removed: fails on its citation only"] += 1
                elif correction.used:
                    tally["corrected"] += 1
                else:
                    tally[f"removed: {_why(correction.reason)}"] += 1
            if report.failing and report.summary.corrected == len(report.failing):
                tally["summaries fixed whole"] += 1
    seconds = time.perf_counter() - started
    print(f"HaluEval summarisation, {args.half} half, judge: local rule checker, rewriter: "
          f"nearest evidence sentence ({seconds:.0f} s)\n")
    rows = ["summaries", "summaries failing", "sentences", "failing", "corrected",
            "summaries fixed whole"]
    rows += sorted({k for c in counts.values() for k in c if k.startswith("removed")})
    print(f"{'':<58}{'right':>10}{'hallucinated':>14}")
    for row in rows:
        print(f"{row:<58}{counts['right'][row]:>10}{counts['hallucinated'][row]:>14}")
    for kind, tally in counts.items():
        if tally["failing"]:
            print(f"{kind}: {tally['corrected'] / tally['failing']:.0%} of failing sentences "
                  "corrected, the rest removed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
