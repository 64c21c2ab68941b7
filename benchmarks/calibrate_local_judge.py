"""How often each kind of local verdict is right, and what cheap first with the local judge
decides without an LLM: the figures behind ``judges.local.CONFIDENCE`` and ``cheap_first.SURE``.

Data (all in tests/data or the package, none written for this): the shared HaluEval samples
(QA, summarisation, dialogue; each record gives a right answer, which should pass, and a
hallucinated one, which should fail) and the project's labelled sets for the local judge. Each
set is cut in two: the *tuning* half sets the table, the *held-out* half reports on it
(``--half tune`` / ``--half report``).

An answer's local decision: failed when a sentence is contradicted (the conflict's kind), passed
when every sentence is supported (its weakest kind: "mention", "aligned", "answered",
"compared" or "verbatim"), else unsupported ("unaligned").
A kind is right when the decision agrees with the label. Cheap first is then simulated with a
perfect LLM behind the local judge: a sentence whose verdict the first judge is sure of
(proven, or ``confidence >= SURE``) is decided locally, the rest are sent on. Reported per data
set: LLM calls saved, hallucinated answers passed without the LLM, right answers failed
without it.

Each answer is judged against its whole source (every passage as evidence), so the figures are
about the judge, not retrieval.

    python benchmarks/calibrate_local_judge.py --half tune      # the table's figures
    python benchmarks/calibrate_local_judge.py --half report    # held out: what the docs quote
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

import halueval

import provenance_guard  # noqa: F401 - first: offline settings
from provenance_guard.deciding.cheap_first import SURE, FirstJudge
from provenance_guard.deciding.decider import claimed
from provenance_guard.evaluation.suite import load_cases
from provenance_guard.judges.local import LocalJudge, verdict_of
from provenance_guard.text.sentences import split_sentences
from provenance_guard.types import CONTRADICTED, SUPPORTED, Evidence, ReadSentence

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
SUITES = REPO / "validator" / "evaluation" / "data"
OWN = {"tune": ["local_judge_suite.jsonl"],
       "report": ["local_judge_heldout.jsonl", "local_judge_blind.jsonl"]}


def examples(half: str):
    """(data set, text, sources, question, should pass) of the half."""
    for name, (_, source, right, wrong, question) in halueval.SETS.items():
        for record in halueval.records(name, half):
            asked = record.get(question) if question else None
            yield name, record[right], [record[source]], asked, True
            yield name, record[wrong], [record[source]], asked, False
    for file in OWN[half]:
        for case in load_cases(SUITES / file):
            yield "labelled sets", case.output, case.sources, case.question, case.label


def claims_of(text: str) -> list[str]:
    """What the validator asks of each sentence of ``text``: the sentence in its place
    (``claimed``), a pronoun that opens it read as the subject before."""
    read = [ReadSentence(s, s.text) for s in split_sentences(text)]
    return claimed(read) if read else [text]


def decision(decided) -> str:
    """The answer's kind from its sentences' decisions (``LocalJudge.decide``): the first
    conflict, else supported (by alignment, or all verbatim) or not."""
    for d in decided:
        if d.label == CONTRADICTED:
            return d.kind
    if all(d.label == SUPPORTED for d in decided):
        kinds = {d.kind for d in decided}
        for weakest in ("refusal", "mention", "aligned", "answered", "compared"):
            if weakest in kinds:
                return weakest
        return "verbatim"
    return "unaligned"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=("tune", "report"), default="report")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    judge = LocalJudge()
    first = FirstJudge(judge)
    kinds = defaultdict(Counter)  # sentence kind -> right/wrong, by answer label
    answers = defaultdict(Counter)
    cheap = defaultdict(Counter)
    for name, text, sources, question, should_pass in examples(args.half):
        evidence = [Evidence(s, 1.0) for s in sources]
        sentences = claims_of(text)
        decided = [judge.decide(sentence, evidence, question) for sentence in sentences]
        verdicts = [verdict_of(d) for d in decided]
        kind = decision(decided)
        failing = any(d.label != SUPPORTED for d in decided)
        kinds[kind][("right" if failing != should_pass else "wrong", name)] += 1
        answers[name]["answers"] += 1
        sure = [v for v in verdicts if first.sure(v)]
        cheap[name]["sentences"] += len(verdicts)
        cheap[name]["decided locally"] += len(sure)
        if len(sure) == len(verdicts) and all(v.label == SUPPORTED for v in sure):
            cheap[name]["passed without LLM"] += 1
            cheap[name]["hallucinated passed without LLM"] += not should_pass
        elif any(v.label != SUPPORTED for v in sure):
            cheap[name]["failed without LLM"] += 1
            cheap[name]["right failed without LLM"] += should_pass
        cheap[name]["right answers" if should_pass else "hallucinated answers"] += 1
    table = {}
    for kind, counts in sorted(kinds.items()):
        right = sum(n for (verdict, _), n in counts.items() if verdict == "right")
        total = sum(counts.values())
        per_set = {}
        for (verdict, name), n in counts.items():
            per_set.setdefault(name, [0, 0])
            per_set[name][0] += n if verdict == "right" else 0
            per_set[name][1] += n
        table[kind] = {"answers": total, "right": right, "share_right": round(right / total, 4),
                       "by_set": {k: f"{r}/{t}" for k, (r, t) in sorted(per_set.items())}}
    report = {"half": args.half, "sure": SURE, "kinds": table,
              "cheap_first": {k: dict(v) for k, v in cheap.items()}}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"half: {args.half}; a sentence is decided locally when proven, or at confidence"
          f" >= {SURE}")
    print(f"\n{'answer decision':<18}{'answers':>8}{'right':>8}{'share':>8}  by set (right/all)")
    for kind, row in table.items():
        print(f"{kind:<18}{row['answers']:>8}{row['right']:>8}{row['share_right']:>8.1%}  "
              + ", ".join(f"{k} {v}" for k, v in row["by_set"].items()))
    print(f"\n{'cheap first':<14}{'calls saved':>12}{'halluc. passed':>16}{'right failed':>14}")
    for name, c in cheap.items():
        saved = c["decided locally"] / c["sentences"] if c["sentences"] else 0
        print(f"{name:<14}{saved:>12.1%}"
              f"{c['hallucinated passed without LLM']:>9} of {c['hallucinated answers']:<4}"
              f"{c['right failed without LLM']:>7} of {c['right answers']:<4}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
