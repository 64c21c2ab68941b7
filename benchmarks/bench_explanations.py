"""The offline judge's explanations: does each supported verdict quote the source sentence that
states the claim, and which verdicts a change to the rules moved.

Every sentence of the labelled sets (``validator/evaluation/data``), every pair of the pair sets
(``tests/unit/rules/pairs``) and every answer sentence of the HaluEval tuning halves is judged by
the rule checker against its whole sources as evidence. For each *supported* verdict that quotes
the source, the quotes must hold the claim's numbers, dates and names (as ``rules.read_facts``
reads them); the script prints how many do not (the goal is 0) and, with ``--show``, each one.

``--dump FILE`` writes every verdict (its kind and reason) as JSON lines; ``--diff FILE`` lists
the verdicts whose kind differs from such a dump, for a before/after of a change to the rules.

    python benchmarks/bench_explanations.py
    python benchmarks/bench_explanations.py --show
    python benchmarks/bench_explanations.py --dump before.jsonl   # then change, then:
    python benchmarks/bench_explanations.py --diff before.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import halueval

import provenance_guard  # noqa: F401 - first: offline settings
from provenance_guard import rules
from provenance_guard.evaluation.suite import load_cases
from provenance_guard.rules.facts import union
from provenance_guard.text.sentences import split_sentences
from provenance_guard.types import Evidence

REPO = Path(__file__).resolve().parents[1]
LABELLED = REPO / "validator" / "evaluation" / "data"
PAIRS = REPO / "tests" / "unit" / "rules" / "pairs"


def items():
    """(set, claim, sources) for every claim the script judges."""
    for path in sorted(LABELLED.glob("local_judge_*.jsonl")):
        for case in load_cases(path):
            for sentence in split_sentences(case.output):
                yield path.stem, sentence.text, case.sources
    for path in sorted(PAIRS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            pair = json.loads(line)
            yield f"pairs/{path.stem}", pair["claim"], [pair["source"]]
    for name, (_, source, right, wrong, _) in halueval.SETS.items():
        for record in halueval.records(name, "tune"):
            for answer in (record[right], record[wrong]):
                for sentence in split_sentences(answer):
                    yield f"halueval-{name}-tune", sentence.text, [record[source]]


def missing(claim: str, quotes: tuple[str, ...]) -> list[str]:
    """The claim's numbers, dates and names that none of ``quotes`` holds."""
    said = rules.read_facts(claim)
    held = union([rules.read_facts(q) for q in quotes])
    gone = [q.text for q in said.quantities if not any(q.stated_by(k) for k in held.quantities)]
    gone += [str(y) for y in sorted(said.years - held.years)]
    gone += [f"day {m}-{d}" for m, d in sorted(said.days - held.days)]
    gone += [f"month {m}" for m in sorted(said.months - held.months)]
    gone += [name for stem, name in said.names.items()
             if stem not in held.names and stem not in held.words]
    return gone


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print each quote that misses")
    parser.add_argument("--dump", type=Path, help="write every verdict to this JSONL file")
    parser.add_argument("--diff", type=Path, help="list verdicts whose kind differs from a dump")
    args = parser.parse_args(argv)
    rows, supported, quoted, wrong = [], Counter(), Counter(), Counter()
    for name, claim, sources in items():
        found = rules.check(claim, [Evidence(s, 1.0) for s in sources])
        rows.append({"set": name, "claim": claim, "source": sources[0][:80],
                     "kind": found.kind, "reason": found.reason})
        if not found.supported:
            continue
        supported[name] += 1
        if found.quotes:
            quoted[name] += 1
            gone = missing(claim, found.quotes)
            if gone:
                wrong[name] += 1
                if args.show:
                    print(f"[{name}] {claim!r}\n    quotes {found.quotes}\n    misses {gone}")
    print(f"{'set':<34}{'supported':>10}{'quoted':>8}{'quote misses':>14}")
    for name in supported:
        print(f"{name:<34}{supported[name]:>10}{quoted[name]:>8}{wrong[name]:>14}")
    print(f"{'all':<34}{supported.total():>10}{quoted.total():>8}{wrong.total():>14}")
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if args.diff:
        before = [json.loads(line) for line in args.diff.read_text(encoding="utf-8").splitlines()]
        changed = [(b, r) for b, r in zip(before, rows, strict=True) if b["kind"] != r["kind"]]
        print(f"\n{len(changed)} of {len(rows)} verdicts changed kind")
        for b, r in changed:
            print(f"[{r['set']}] {r['claim']!r} <- {r['source']!r}...\n"
                  f"    {b['kind']}: {b['reason']}\n    {r['kind']}: {r['reason']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
