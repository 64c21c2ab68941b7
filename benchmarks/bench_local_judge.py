"""The local judge on its labelled sets: accuracy per case type, and the rule checker's time
per claim, side by side with another installation.

Accuracy: each case through the validator (default embedder, FAISS, ``LocalJudge``), per case
type: cases, outcome right (passes or fails as labelled), sentence labels right, and *wrong
passes* (a case labelled to fail that passed: the error that matters for a guardrail).

Time: the rule checker alone (``LocalJudge.judge``, no retrieval), each case's output against
its sources' sentences as evidence, in CPU time (``time.process_time``: on a shared machine the
wall clock measures the neighbours); *cold* is the first pass in a fresh process (caches empty),
*warm* the median of the passes after it. With ``--vs PYTHON`` the same timing runs in that
interpreter too (another checkout's virtualenv, for before/after), the two in turn, one fresh
process each round, and the ratios of the medians are printed.

    python benchmarks/bench_local_judge.py
    python benchmarks/bench_local_judge.py --skip-accuracy --vs OTHER/.venv/bin/python --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "validator" / "evaluation" / "data"
SETS = [DATA / "local_judge_suite.jsonl", DATA / "local_judge_heldout.jsonl",
        DATA / "local_judge_blind.jsonl"]


@dataclass
class Row:
    type: str
    cases: int
    outcome_right: float
    sentences_right: float
    wrong_passes: int  # ungrounded texts that passed
    wrong_fails: int  # grounded texts that failed
    grounded: int


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, action="append",
                        help="JSONL of labelled cases (repeatable); default: the local judge's sets")
    parser.add_argument("--skip-accuracy", action="store_true")
    parser.add_argument("--skip-timing", action="store_true")
    parser.add_argument("--vs", metavar="PYTHON", help="also time the rules in this interpreter")
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per interpreter")
    parser.add_argument("--passes", type=int, default=20, help="warm passes per process")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--time-child", action="store_true", help=argparse.SUPPRESS)
    return parser


def accuracy(path: Path) -> list[Row]:
    from provenance_guard import LocalJudge, ProvenanceLLM
    from provenance_guard.evaluation.suite import accuracy_by_type, load_cases, run_case

    judge = LocalJudge()
    outcomes = [run_case(lambda options: ProvenanceLLM(llm_callable=judge, **options), case)
                for case in load_cases(path)]
    table = accuracy_by_type(outcomes)
    def count(kind, outcome) -> int:
        return sum(outcome(o) for o in outcomes if kind in ("all", o.example.type))

    return [Row(kind, row.cases, row.outcome_accuracy, row.sentence_accuracy,
                count(kind, lambda o: o.passed and not o.example.label),
                count(kind, lambda o: not o.passed and o.example.label),
                count(kind, lambda o: o.example.label))
            for kind, row in table.items()]


def time_rules(paths: list[Path], passes: int) -> dict:
    """CPU milliseconds per claim: the first pass (cold caches) and the median warm pass."""
    from provenance_guard import LocalJudge
    from provenance_guard.evaluation.suite import load_cases
    from provenance_guard.text.sentences import split_sentences
    from provenance_guard.types import Chunk, Evidence

    items = [(case.output, [Evidence.of(Chunk(s.text, 0, len(s.text), 0), 0.6)
                            for source in case.sources for s in split_sentences(source)])
             for path in paths for case in load_cases(path)]
    judge = LocalJudge()
    seconds = []
    for _ in range(passes + 1):
        started = time.process_time()
        for claim, evidence in items:
            judge.judge(claim, evidence)
        seconds.append(time.process_time() - started)
    per_claim = 1000 / len(items)
    return {"claims": len(items), "cold_ms": seconds[0] * per_claim,
            "warm_ms": statistics.median(seconds[1:]) * per_claim}


def timing(python: str, paths: list[Path], passes: int) -> dict:
    command = [python, __file__, "--time-child", "--passes", str(passes)]
    for path in paths:
        command += ["--cases", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    paths = args.cases or SETS
    for path in paths:
        if not path.is_file():
            parser.error(f"no such file: {path}")
    if args.time_child:
        print(json.dumps(time_rules(paths, args.passes)))
        return 0
    report: dict = {}
    if not args.skip_accuracy:
        report["accuracy"] = {path.name: [asdict(r) for r in accuracy(path)] for path in paths}
    if not args.skip_timing:
        pythons = {"this": sys.executable, **({"vs": args.vs} if args.vs else {})}
        runs: dict[str, list[dict]] = {name: [] for name in pythons}
        for _ in range(args.rounds):  # in turn, so a drift in the machine's speed hits both
            for name, python in pythons.items():
                runs[name].append(timing(python, paths, args.passes))
        report["timing"] = {name: {key: statistics.median(r[key] for r in rows)
                                   for key in ("cold_ms", "warm_ms")} | {"claims": rows[0]["claims"]}
                            for name, rows in runs.items()}
        if args.vs:
            this, other = report["timing"]["this"], report["timing"]["vs"]
            report["timing"]["ratio_this_over_vs"] = {
                key: this[key] / other[key] for key in ("cold_ms", "warm_ms")}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for name, rows in report.get("accuracy", {}).items():
        print(f"\n{name}\n{'case type':<24}{'cases':>6}{'outcome right':>15}"
              f"{'sentences right':>17}{'wrong passes':>14}{'grounded failed':>17}")
        for r in rows:
            failed = f"{r['wrong_fails']} of {r['grounded']}" if r["grounded"] else "-"
            print(f"{r['type']:<24}{r['cases']:>6}{r['outcome_right']:>15.0%}"
                  f"{r['sentences_right']:>17.0%}{r['wrong_passes']:>14}{failed:>17}")
    if "timing" in report:
        print(f"\nrule checker, CPU ms per claim (median of {args.rounds} fresh processes each):")
        for name, row in report["timing"].items():
            if name != "ratio_this_over_vs":
                print(f"  {name:<5} cold {row['cold_ms']:.3f}  warm {row['warm_ms']:.3f}  "
                      f"({row['claims']} claims; {pythons[name]})")
        if args.vs:
            ratio = report["timing"]["ratio_this_over_vs"]
            print(f"  this / vs: cold {ratio['cold_ms']:.2f}x, warm {ratio['warm_ms']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
