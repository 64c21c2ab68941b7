"""What the rule judge says a failing claim gets wrong (``FailureKind``), against what the
labelled pair sets' classes say: for each trap the judge fails, whether its kind is one the
class names (``tests/unit/rules/pairs/kinds.json``, written from the class names and the
kinds' definitions before the kinds were measured).

    python benchmarks/bench_kinds.py             # agreement per set
    python benchmarks/bench_kinds.py --misses    # and each disagreement, by class

The last row is a set of failing pairs labelled with their kinds directly
(``pairs/kinds_outsider.jsonl``, written from docs/kinds.md alone): its pairs the judge passes
are counted apart, as passes it should not give.
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
TRAPS = ("traps", "traps_2", "held_out_traps", "fresh_traps")


def agreement(name: str, judge: LocalJudge | None = None) -> tuple[int, int, Counter]:
    """(kinds that agree, failing traps, disagreements by (class, kind)) for one pair set."""
    judge = judge or LocalJudge()
    table = json.loads((PAIRS / "kinds.json").read_text(encoding="utf-8"))
    agreed, failed, misses = 0, 0, Counter()
    for line in (PAIRS / f"{name}.jsonl").open(encoding="utf-8"):
        pair = json.loads(line)
        verdict = judge.judge(pair["claim"], [Evidence(pair["source"], 1.0)])
        if verdict.label == SUPPORTED:
            continue
        failed += 1
        if verdict.failure_kind in table[pair["class"]]:
            agreed += 1
        else:
            misses[(pair["class"], str(verdict.failure_kind))] += 1
    return agreed, failed, misses


def labelled(judge: LocalJudge | None = None) -> tuple[int, int, int, Counter]:
    """(kinds that agree, failing pairs, pairs passed, disagreements by (kind, judged kind)) on
    the set whose pairs carry their kinds."""
    judge = judge or LocalJudge()
    agreed, failed, passed, misses = 0, 0, 0, Counter()
    for line in (PAIRS / "kinds_outsider.jsonl").open(encoding="utf-8"):
        pair = json.loads(line)
        verdict = judge.judge(pair["claim"], [Evidence(pair["source"], 1.0)])
        if verdict.label == SUPPORTED:
            passed += 1
        elif verdict.failure_kind in pair["kinds"]:
            failed, agreed = failed + 1, agreed + 1
        else:
            failed += 1
            misses[(pair["kinds"][0], str(verdict.failure_kind))] += 1
    return agreed, failed, passed, misses


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="print each disagreement")
    args = parser.parse_args(argv)
    judge = LocalJudge()
    print(f"{'set':<18}{'failing':>8}{'kind agrees':>13}")
    total = [0, 0]
    for name in TRAPS:
        agreed, failed, misses = agreement(name, judge)
        total[0] += agreed
        total[1] += failed
        print(f"{name:<18}{failed:>8}{agreed:>7} ({agreed / max(1, failed):.0%})")
        if args.misses:
            for (kind_of_class, kind), count in misses.most_common():
                print(f"    {kind_of_class:<34} judged {kind:<14} x{count}")
    print(f"{'all':<18}{total[1]:>8}{total[0]:>7} ({total[0] / max(1, total[1]):.0%})")
    agreed, failed, passed, misses = labelled(judge)
    print(f"{'kinds_outsider':<18}{failed:>8}{agreed:>7} ({agreed / max(1, failed):.0%})"
          f"   {passed} passed that should fail")
    if args.misses:
        for (kind, judged), count in misses.most_common():
            print(f"    {kind:<34} judged {judged:<14} x{count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
