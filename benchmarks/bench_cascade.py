"""Cheap first, measured with a scripted LLM: how many LLM calls the rule cascade and a first
judge save, and what they decide wrongly without the LLM, in both directions.

The "LLM" is scripted: it answers each sentence with its label (the suite's per-sentence
verdict; for HaluEval, supported for a right answer and unsupported for a hallucinated one),
so "LLM alone" is the labels. Every text whose outcome differs from the LLM alone's was decided
wrongly without it: a text that should fail and passes ("wrong pass"), or one that should pass
and fails ("wrong fail"). The first judge is the real LocalJudge (the rule checker) with the
real default embedder; the rule cascade (``cascade_contradictions``/``cascade_verbatim``) is
measured too. The local judge is calibrated, so it decides only what it is sure of
(``cheap_first.SURE``); an uncalibrated first judge is measured at several confidence bands.
No NLI or MiniCheck checkpoint ships with the package, so none is measured by default: run this
with ``--first-judge nli:PATH`` (or ``minicheck:...``) where one is available.

    python benchmarks/bench_cascade.py                        # the shipped 42-case suite
    python benchmarks/bench_cascade.py --suite MORE.jsonl --halueval 200
    python benchmarks/bench_cascade.py --first-judge nli:/models/deberta-nli --json
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

import halueval

BANDS = ((0.2, 0.8), (0.1, 0.9), (0.3, 0.7))


@dataclass
class Row:
    data: str
    setup: str
    texts: int
    llm_calls: int
    llm_calls_alone: int
    saved_by_rules: int
    saved_by_first_judge: int
    wrong_passes: int  # texts the LLM alone fails that pass
    wrong_fails: int  # texts the LLM alone passes that fail

    @property
    def saved_share(self) -> float:
        return 1 - self.llm_calls / self.llm_calls_alone if self.llm_calls_alone else 0.0


class LabelledLLM:
    """The scripted LLM: each claim's verdict is its label. Counts its calls."""

    def __init__(self):
        self.labels: dict[str, str] = {}
        self.calls = 0
        self._lock = threading.Lock()

    def judge(self, claim, evidence, question=None):
        from provenance_guard import Verdict

        with self._lock:
            self.calls += 1
        label = self.labels.get(claim, "unsupported")
        return Verdict(label, "scripted: the label", 1.0 if label == "supported" else 0.0, "llm")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="append", type=Path,
                        help="labelled cases JSONL (repeatable; default: the shipped suite)")
    parser.add_argument("--halueval", type=int, default=0, metavar="N",
                        help="also N records of each shared HaluEval sample (a right and a "
                             "hallucinated answer each), from the held-out half (251-500)")
    parser.add_argument("--first-judge", default="local",
                        help="the first judge's spec (default: local)")
    parser.add_argument("--json", action="store_true")
    return parser


def texts_of_suite(path: Path):
    """(sources, output, question, options, {claim: label}) per case."""
    from provenance_guard.evaluation.suite import load_cases
    from provenance_guard.text import citations
    from provenance_guard.text.sentences import units

    for case in load_cases(path):
        mode = case.options.get("citations", "auto")
        sentences = units(case.output, case.options.get("validation_method", "sentence"))
        labels = {citations.read(s.text, mode)[1]: e.verdict
                  for s, e in zip(sentences, case.sentences, strict=False)}
        yield case.sources, case.output, case.question, case.options, labels


def texts_of_halueval(name: str, limit: int):
    from provenance_guard.text.sentences import units

    _, source, right, wrong, question = halueval.SETS[name]
    for record in list(halueval.records(name, "report"))[:limit]:
        for answer, label in ((record[right], "supported"), (record[wrong], "unsupported")):
            labels = {s.text: label for s in units(answer, "sentence")}
            yield ([record[source]], answer, record[question] if question else None, {},
                   labels)


def measure(name: str, texts: list, first_judge: str):
    """One Row per setup, as each is measured."""
    from provenance_guard import ProvenanceLLM

    setups = {"LLM alone": {}, "rules first": {"cascade_contradictions": True,
                                               "cascade_verbatim": True}}
    for band in [None] if first_judge == "local" else BANDS:
        shown = "" if band is None else f", band {band[0]}-{band[1]}"
        chosen = {"first_judge": first_judge} | ({} if band is None else {"confidence_band": band})
        setups[f"{first_judge} first{shown}"] = chosen
        setups[f"rules + {first_judge} first{shown}"] = {
            **chosen, "cascade_contradictions": True, "cascade_verbatim": True}
    first_judges: dict[str, object] = {}  # one first judge per spec: an NLI model loads once
    alone: list[bool] = []
    for setup, options in setups.items():
        llm = LabelledLLM()
        if "first_judge" in options:
            spec = options["first_judge"]
            options = {**options, "first_judge": first_judges.setdefault(
                spec, _make(spec))}
        outcomes, rules, first = [], 0, 0
        validators: dict[str, ProvenanceLLM] = {}
        for sources, output, question, case_options, labels in texts:
            llm.labels = labels
            key = json.dumps(case_options, sort_keys=True)
            if key not in validators:
                validators[key] = ProvenanceLLM(llm_callable=llm, on_fail="noop",
                                                max_concurrency=1, **options, **case_options)
            validator = validators[key]
            metadata = {"sources": sources, "chunk_strategy": "sentence", "chunk_size": 1,
                        "chunk_overlap": 0}
            if question:
                metadata["question"] = question
            result = validator.validate(output, metadata)
            summary = result.metadata["groundedness"]
            outcomes.append(result.outcome == "pass")
            first += summary.get("first_judge_decided", 0)
            rules += summary["judge_calls_saved"] - summary.get("first_judge_decided", 0)
        if not alone:
            alone, calls_alone = outcomes, llm.calls
        pairs = list(zip(outcomes, alone, strict=True))
        yield Row(name, setup, len(texts), llm.calls, calls_alone, rules, first,
                  sum(got and not want for got, want in pairs),
                  sum(want and not got for got, want in pairs))


def _make(spec: str):
    from provenance_guard.judges import make_judge

    return make_judge(spec)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import provenance_guard  # noqa: F401 - the offline settings before guardrails
    from provenance_guard.evaluation.suite import SUITE

    data = {path.name: list(texts_of_suite(path)) for path in (args.suite or [SUITE])}
    for name in halueval.SETS if args.halueval else ():
        data[f"HaluEval {name} x{args.halueval}"] = list(texts_of_halueval(name, args.halueval))
    data = {name: texts for name, texts in data.items() if texts}
    if args.json:
        rows = [row for name, texts in data.items() for row in measure(name, texts,
                                                                        args.first_judge)]
        print(json.dumps([{**asdict(r), "saved_share": round(r.saved_share, 4)} for r in rows],
                         indent=2))
        return 0
    print(f"{'data':<28}{'setup':<34}{'texts':>6}{'LLM calls':>10}{'saved':>7}"
          f"{'(rules':>7}{'first)':>7}{'wrong pass':>11}{'wrong fail':>11}", flush=True)
    for name, texts in data.items():
        for r in measure(name, texts, args.first_judge):
            print(f"{r.data:<28}{r.setup:<34}{r.texts:>6}{r.llm_calls:>10}{r.saved_share:>7.0%}"
                  f"{r.saved_by_rules:>7}{r.saved_by_first_judge:>7}{r.wrong_passes:>11}"
                  f"{r.wrong_fails:>11}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
