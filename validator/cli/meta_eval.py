"""``provenance meta-eval``: a judge on labelled cases, with its cost and latency."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import llm_kwargs


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ..evaluation.suite import SUITE

    if args.write_template:
        from ..judges.prompts import JUDGE_PROMPT

        try:
            Path(args.write_template).write_text(JUDGE_PROMPT + "\n", encoding="utf-8")
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

    from .. import LiteLLMJudge, LocalJudge, ProvenanceLLM
    from ..errors import ConfigurationError
    from ..evaluation.meta import meta_evaluate

    try:
        if args.model:
            judge = LiteLLMJudge(args.model, llm_kwargs(args), template=template)
        elif template:
            parser.error("--template needs --model: the local judge uses no prompt")
        else:
            judge = LocalJudge()
    except ValueError as error:
        parser.error(str(error))
    try:
        report = meta_evaluate(cases, lambda options: ProvenanceLLM(llm_callable=judge, **options),
                               judge, args.concurrency)
    except ConfigurationError as error:
        print(f"provenance: {error}", file=sys.stderr)
        return 2
    report["judge"] = args.model or "local"
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"judge: {report['judge']}; {report['cases']} cases from {cases_path}")
    for kind, row in report["by_type"].items():
        print(f"  {kind:<22} {row['cases']:>3} cases  pass rate {row['outcome_accuracy']:>5.0%}  "
              f"sentences right {row['sentence_accuracy']:>5.0%}")
    print(f"balanced accuracy (pass/fail): {report['balanced_accuracy']:.0%}")
    print("confusion (expected -> verdict): " + "; ".join(
        f"{expected}: " + ", ".join(f"{got} {n}" for got, n in row.items() if n)
        for expected, row in report["confusion"].items()))
    cost = report["cost_usd"]
    latency = report["median_call_latency_s"]
    print(f"judge calls {report['judge_calls']}, tokens {report['prompt_tokens']} in / "
          f"{report['completion_tokens']} out, cost "
          f"{'unknown (no price for this model)' if cost is None else f'${cost:.4f}'}, median call "
          f"{'n/a' if latency is None else f'{latency:.2f} s'}, wall {report['wall_s']:.1f} s")
    return 0
