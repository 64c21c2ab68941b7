"""``provenance meta-eval``: a judge on labelled cases, with its cost and latency."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..settings import in_flags
from ..types import INVALID
from . import exits
from .from_args import judge_stop, llm_kwargs, no_metrics


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ..evaluation.suite import SUITE

    if args.write_template:
        from ..judges.kinds import ONE

        try:
            Path(args.write_template).write_text(ONE.template() + "\n", encoding="utf-8")
        except OSError as error:
            parser.error(f"cannot write the template: {error}")
        print(f"wrote {args.write_template}; edit it and pass --template {args.write_template}")
        return 0
    from ..evaluation.suite import load_cases

    cases_path = Path(args.cases) if args.cases else SUITE
    try:
        cases = load_cases(cases_path)
        template = Path(args.template).read_text(encoding="utf-8") if args.template else None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        parser.error(f"cannot read input: {error}")

    from ..errors import ConfigurationError
    from ..evaluation.meta_eval import meta_evaluate
    from ..main import ProvenanceLLM

    no_metrics()
    judge, first = _judges(args, template, parser)  # the judge options' usage errors first
    stop = judge_stop(args)  # before any case is judged
    if stop is not None:
        print(f"provenance: {in_flags(stop.message)}", file=sys.stderr)
        return stop.status
    band = {"first_judge": first, "confidence_band": tuple(args.band)} if first else {}
    try:
        report = meta_evaluate(cases, lambda options: ProvenanceLLM(llm_callable=judge, **band,
                                                                    **options),
                               judge, args.concurrency)
    except ConfigurationError as error:
        print(f"provenance: {in_flags(str(error))}", file=sys.stderr)
        return exits.of_error(error)
    report = report.model_copy(update={"judge": args.judge or args.model or "local"} | (
        {"first_judge": args.first_judge, "confidence_band": tuple(args.band)} if first else {}))
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return _status(report)
    print(f"judge: {report.judge}; {report.cases} cases from {cases_path}")
    for kind, row in report.by_type.items():
        print(f"  {kind:<22} {row.cases:>3} cases  pass rate {row.outcome_accuracy:>5.0%}  "
              f"sentences right {row.sentence_accuracy:>5.0%}")
    balanced = report.balanced_accuracy
    print(f"balanced accuracy (pass/fail): {'n/a' if balanced is None else f'{balanced:.0%}'}")
    print("confusion (expected -> verdict): " + "; ".join(
        f"{expected}: " + ", ".join(f"{got} {n}" for got, n in row.items() if n)
        for expected, row in report.confusion.items()))
    from ..evaluation.summaries import kind_lines

    for line in kind_lines(report.by_kind):
        print(line)
    cost, latency = report.cost_usd, report.median_call_latency_s
    if first:
        print(f"cheap first: {report.first_judge} decided {report.first_judge_decided} "
              f"claim(s) with band {list(args.band)}")
    print(f"judge calls saved {report.judge_calls_saved} (rules and first judge)")
    print(f"judge calls {report.judge_calls}, tokens {report.prompt_tokens} in / "
          f"{report.completion_tokens} out, cost "
          f"{'unknown (no price for this model)' if cost is None else f'${cost:.4f}'}, median call "
          f"{'n/a' if latency is None else f'{latency:.2f} s'}, wall {report.wall_s:.1f} s")
    return _status(report)


def _status(report) -> int:
    """0 once the judge was measured; 3 where no verdict of it could be read at all (nothing
    was measured: a gate must not read that as a result)."""
    verdicts = sum(n for row in report.confusion.values() for n in row.values())
    unread = sum(row.get(INVALID, 0) for row in report.confusion.values())
    if verdicts and unread == verdicts:
        print(f"provenance: no verdict could be read for any of the {report.cases} cases: the "
              "judge could not be reached, refused the key, or gave no reply it could read.",
              file=sys.stderr)
        return exits.NO_VERDICTS
    return exits.PASSED


def _judges(args: argparse.Namespace, template: str | None, parser: argparse.ArgumentParser):
    """The judge (``--judge`` or ``--model``, else the local judge) and the first judge, if any,
    from their spec strings, built as the validator builds them; a bad one is a usage error."""
    from ..judges import LiteLLMJudge, MiniCheckJudge, build

    if args.judge and args.model:
        parser.error("--judge and --model both name the judge; give one")
    spec = args.judge or args.model or "local"
    try:
        judge = build(spec, llm_kwargs(args) or None, template=template)
        first = build(args.first_judge) if args.first_judge else None
    except ValueError as error:
        parser.error(in_flags(str(error)))
    if template and (not isinstance(judge.made, LiteLLMJudge)
                     or isinstance(judge.made, MiniCheckJudge)):
        parser.error("--template needs a LiteLLM model judge (--model or --judge MODEL): "
                     f"{spec!r} uses no prompt template")
    return judge, first
