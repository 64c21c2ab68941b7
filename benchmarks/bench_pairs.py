"""The offline judge on claim/source pairs, both ways: traps (claims that reuse their source's
words but are not stated by it) passed, and true restatements (claims a strict reader finds
stated) passed, per class. The pairs were written without reading the rules. The *tuning* sets
(``traps.jsonl``, ``traps_2.jsonl``, ``restatements.jsonl``) were used to find what to build;
the first *held-out* sets (``held_out_*.jsonl``) were measured once, and their class names
then chose the classes of ``traps_2.jsonl``, so they are held out no more; the *fresh* sets
(``fresh_*.jsonl``) were written last and measured once, on the rules as they are now.

    python benchmarks/bench_pairs.py             # totals per set
    python benchmarks/bench_pairs.py --classes   # and per class
    python benchmarks/bench_pairs.py --show fresh_traps   # each trap that passes
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import provenance_guard  # noqa: F401 - first: offline settings
from provenance_guard.judges.local import LocalJudge
from provenance_guard.types import SUPPORTED, Evidence

PAIRS = Path(__file__).resolve().parents[1] / "tests" / "unit" / "rules" / "pairs"
SETS = {  # name: (file, what a pass is)
    "traps": ("traps.jsonl", "wrong passes"),
    "traps_2": ("traps_2.jsonl", "wrong passes"),
    "restatements": ("restatements.jsonl", "right passes"),
    "held_out_traps": ("held_out_traps.jsonl", "wrong passes"),
    "held_out_restatements": ("held_out_restatements.jsonl", "right passes"),
    "fresh_traps": ("fresh_traps.jsonl", "wrong passes"),
    "fresh_restatements": ("fresh_restatements.jsonl", "right passes"),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--classes", action="store_true", help="print each class's count")
    parser.add_argument("--show", choices=SETS, help="print the pairs of this set that pass")
    args = parser.parse_args(argv)
    judge = LocalJudge()
    print(f"{'set':<24}{'pairs':>6}{'passed':>8}  what a pass is")
    for name, (file, meaning) in SETS.items():
        pairs = [json.loads(line) for line in (PAIRS / file).open(encoding="utf-8")]
        passed: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for pair in pairs:
            verdict = judge.judge(pair["claim"], [Evidence(pair["source"], 1.0)])
            total[pair["class"]] += 1
            if verdict.label == SUPPORTED:
                passed[pair["class"]] += 1
                if args.show == name:
                    print(f"  [{pair['class']}] {pair['claim']!r} <- {pair['source']!r}")
        print(f"{name:<24}{len(pairs):>6}{sum(passed.values()):>8}  {meaning}")
        if args.classes:
            for kind in sorted(total):
                print(f"    {kind:<32}{passed[kind]:>3} of {total[kind]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
