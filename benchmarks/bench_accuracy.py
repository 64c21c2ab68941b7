"""Accuracy per case type on the labelled groundedness suite, with any judge.

By default the judge is the offline LocalJudge (the rule-based checker), and the embedder the
default all-MiniLM-L6-v2: no network. With ``--model`` the judge is any LiteLLM model
(``--api-base`` for a local server such as Ollama or llama.cpp). Prints, per case type: cases,
outcome accuracy (the text passes or fails as labelled) and sentence accuracy (each sentence's
verdict, and citation status where one is labelled, as labelled); then the balanced accuracy of
pass/fail over all cases.

    python benchmarks/bench_accuracy.py                       # offline judge
    python benchmarks/bench_accuracy.py --cascade             # LLM judge with rules first
    python benchmarks/bench_accuracy.py --model ollama/llama3 --api-base http://localhost:11434
    python benchmarks/bench_accuracy.py --halueval 500        # also: external data, see below

``--halueval N`` also judges the first N records of the HaluEval QA sample (tests/data; text
nobody on this project wrote): each record's right answer should pass against its knowledge
text and its hallucinated answer should fail, with the question passed along. Nothing was tuned
on it, so its figures are out of sample.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import provenance_guard  # noqa: F401 - first: offline settings before guardrails is imported
from provenance_guard import LocalJudge, ProvenanceLLM
from provenance_guard.evaluation.suite import SUITE, accuracy_by_type, balanced_accuracy, load_cases, run_case

HALUEVAL = Path(__file__).resolve().parents[1] / "tests/data/halueval-qa-sample/qa_one-turn_data.jsonl"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=SUITE, help="JSONL of labelled cases")
    parser.add_argument("--model", help="a LiteLLM model name; default: the offline LocalJudge")
    parser.add_argument("--api-base")
    parser.add_argument("--api-key")
    parser.add_argument("--method", choices=("sentence", "claim"), default="sentence")
    parser.add_argument("--cascade", action="store_true",
                        help="rules first: clear contradictions and verbatim sentences skip the LLM")
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--halueval", type=int, default=0, metavar="N",
                        help="also judge N HaluEval QA records (right and hallucinated answers)")
    parser.add_argument("--halueval-data", type=Path, default=HALUEVAL)
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.model:
        llm_kwargs = {k: v for k, v in (("api_base", args.api_base), ("api_key", args.api_key)) if v}
        judge, name = args.model, args.model
    else:
        llm_kwargs, judge, name = None, LocalJudge(), "LocalJudge (offline rule-based checker)"

    def make_validator(options: dict) -> ProvenanceLLM:
        return ProvenanceLLM(llm_callable=judge, llm_kwargs=llm_kwargs,
                             validation_method=args.method, cascade_contradictions=args.cascade,
                             cascade_verbatim=args.cascade, batch_size=args.batch_size, **options)

    cases = load_cases(args.suite)
    started = time.perf_counter()
    outcomes = [run_case(make_validator, case) for case in cases]
    elapsed = time.perf_counter() - started
    table = accuracy_by_type(outcomes)
    balanced = balanced_accuracy(outcomes)
    external = halueval(make_validator, args.halueval_data, args.halueval) if args.halueval else None
    if args.json:
        print(json.dumps({"judge": name, "table": {k: v.to_json() for k, v in table.items()},
                          "balanced_accuracy": balanced,
                          "halueval": external}, indent=2))
        return 0
    print(f"judge: {name}; suite: {args.suite.name}, {len(cases)} cases; {elapsed:.1f} s")
    print(f"{'case type':<22}{'cases':>6}{'outcome acc':>13}{'sentence acc':>14}")
    for kind, row in table.items():
        if kind == "all":
            continue
        print(f"{kind:<22}{row.cases:>6}{row.outcome_accuracy:>13.0%}"
              f"{row.sentence_accuracy:>14.0%}")
    row = table["all"]
    print(f"{'all':<22}{row.cases:>6}{row.outcome_accuracy:>13.0%}{row.sentence_accuracy:>14.0%}")
    print(f"balanced accuracy (pass/fail): {balanced:.0%}")
    wrong = [o for o in outcomes if not o.outcome_correct]
    if wrong:
        print("wrong outcome: " + ", ".join(o.example.id for o in wrong))
    if external:
        print(f"\nHaluEval QA, {external['records']} records (out of sample): right answers "
              f"passed {external['right_passed']:.0%}, hallucinated answers failed "
              f"{external['hallucinated_failed']:.0%}, balanced accuracy "
              f"{external['balanced_accuracy']:.0%}")
    return 0


def halueval(make_validator, path: Path, limit: int) -> dict:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:limit]]
    checker = make_validator({})
    right = hallucinated = 0
    for record in records:
        meta = {"sources": [record["knowledge"]], "question": record["question"],
                "chunk_strategy": "sentence", "chunk_size": 1, "chunk_overlap": 0}
        right += checker.validate(record["right_answer"], meta).outcome == "pass"
        hallucinated += checker.validate(record["hallucinated_answer"], meta).outcome == "fail"
    n = len(records)
    return {"records": n, "right_passed": right / n, "hallucinated_failed": hallucinated / n,
            "balanced_accuracy": (right + hallucinated) / (2 * n)}


if __name__ == "__main__":
    sys.exit(main())
