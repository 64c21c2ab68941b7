"""Which sentences are set aside as asserting nothing (``text.non_claims``), on the shared
HaluEval samples, in both directions.

A sentence set aside is never judged, so the figure that matters is the wrong one: a
hallucinated answer set aside whole passes with no judge asked ("wrong passes"). The figure
that pays: a right answer set aside whole, which a judge would have failed for lack of a source
(for example a dialogue turn that is only "You're welcome!"). ``--show`` prints every sentence
set aside, to read by eye that none of them asserts anything.

    python benchmarks/bench_non_claims.py --half report
    python benchmarks/bench_non_claims.py --half tune --show
"""

from __future__ import annotations

import argparse

import halueval

import provenance_guard  # noqa: F401 - first: offline settings
from provenance_guard.text.non_claims import form_of
from provenance_guard.text.sentences import split_sentences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "report", "all"), default="report",
                        help="records 1-250 (tune), 251-500 (report) or all")
    parser.add_argument("--show", action="store_true", help="print each sentence set aside")
    args = parser.parse_args(argv)
    print(f"{'data':<15}{'answers':>8}{'sentences':>10}{'set aside: right':>18}"
          f"{'hallucinated':>14}{'whole right':>13}{'wrong passes':>14}")
    for name, (_, _, right, wrong, question) in halueval.SETS.items():
        counts = dict.fromkeys(("answers", "sentences", right, wrong, "whole " + right,
                                "whole " + wrong), 0)
        for record in halueval.records(name, args.half):
            for key in (right, wrong):
                sentences = [s.text for s in split_sentences(record[key])]
                forms = [form_of(s, record.get(question) if question else None)
                         for s in sentences]
                counts["answers"] += 1
                counts["sentences"] += len(sentences)
                counts[key] += sum(f is not None for f in forms)
                counts["whole " + key] += bool(forms) and all(forms)
                if args.show:
                    for sentence, form in zip(sentences, forms, strict=True):
                        if form:
                            print(f"  {name} {key}: [{form}] {sentence}")
        print(f"{name:<15}{counts['answers']:>8}{counts['sentences']:>10}{counts[right]:>18}"
              f"{counts[wrong]:>14}{counts['whole ' + right]:>13}{counts['whole ' + wrong]:>14}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
