"""``provenance eval``: a JSONL data set through the validator, resumably, with a summary."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..settings import in_flags
from . import exits
from .from_args import (
    check_options,
    chunking_of,
    judge_stop,
    llm_kwargs,
    no_metrics,
    validator_options,
    write_html,
)

if TYPE_CHECKING:
    from ..evaluation.summaries import EvalSummary


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ..evaluation.datasets import finished, load_samples, progress_bar, summarise, typed

    bad: list[str] = []  # lines that are no sample: reported, and the others go on
    try:
        samples = load_samples(args.data, args.encoding, bad)
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the data set: {error}")
    if not samples and bad:  # nothing to validate: the file is likely not a data set at all
        parser.error(f"cannot read the data set: no line of it is a sample; {bad[0]}"
                     + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))
    data = Path(args.data)
    default_out = data / "results.jsonl" if data.is_dir() else data.with_suffix(".results.jsonl")
    out = Path(args.out) if args.out else default_out
    if args.grounded_qa:
        if not args.model:
            parser.error("--grounded-qa needs an LLM judge: pass --model NAME (the local judge "
                         "cannot rate relevancy or completeness)")
        unasked = [s.id for s in samples if not s.question]
        if unasked:
            parser.error(f"--grounded-qa needs a \"question\" in every sample; {len(unasked)} "
                         f"have none (first: {', '.join(unasked[:5])})")
    if args.rpm is not None and not args.model:
        parser.error("--rpm limits an LLM judge's requests: it needs --model NAME (the local "
                     "judge sends none)")
    cache_dir = None if args.no_cache else Path(args.cache_dir or f"{out}.cache")

    try:
        earlier = finished(out)  # a results file we cannot extend: a usage error, before work
    except (OSError, ValueError) as error:
        parser.error(f"cannot use the results file: {error}")

    check_options(args, parser)
    stop = judge_stop(args)  # before LiteLLM, Guardrails and PyTorch are loaded
    if stop is not None:
        kept = f"; finished samples are in {out}." if earlier else "."
        print(f"provenance: {in_flags(stop.message).rstrip('.')}{kept}", file=sys.stderr)
        return stop.status

    from ..errors import ConfigurationError  # heavy: after parsing
    from ..evaluation import engines
    from ..evaluation.sample_check import Plan

    plan = Plan(args.model or "local", llm_kwargs(args) or None,
                str(cache_dir) if args.model and cache_dir else None,
                validator_options(args), chunking_of(args), args.grounded_qa)
    no_metrics()
    try:
        options = engines.EngineOptions.from_flags(args)
        records = engines.run(samples, plan, options, out, progress_bar(), args.limit)
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished samples are in {out}; run the same command to resume.",
              file=sys.stderr)
        return exits.INTERRUPTED
    except ConfigurationError as error:  # refused credentials: no verdict can be had
        print(f"\nprovenance: {in_flags(str(error)).rstrip('.')}; finished samples are in "
              f"{out}.", file=sys.stderr)  # on a line of its own, after the progress bar
        return exits.of_error(error)
    except ValueError as error:  # a setting the validator refuses, before any sample
        parser.error(in_flags(str(error)))
    except OSError as error:
        print(f"provenance: cannot write the results ({error}); finished samples are in {out}.",
              file=sys.stderr)
        return exits.USAGE
    try:
        checked = typed(samples, records)
    except ValueError as error:
        print(f"provenance: {out} holds a result this version cannot read ({error}); pass "
              "--out another path.", file=sys.stderr)
        return exits.USAGE
    errors = [c for c in checked if c.error is not None]
    qa = None
    if args.grounded_qa:
        from ..evaluation.grounded_qa import summarise as summarise_qa

        qa = summarise_qa([c.grounded_qa for c in checked if c.grounded_qa is not None])
    summary = summarise(checked).model_copy(update={
        # a result read back unchanged from the file was validated by an earlier run
        "from_earlier_runs": sum(earlier.get(r["id"]) == r for r in records),
        "errors": len(errors),
        "bad_samples": bad + [f"{c.example.id}: {c.error}" for c in errors],
        "results": str(out),
        "grounded_qa": qa})
    statuses = {exits.of_report(c.report) for c in checked if c.report is not None}
    if args.html:
        from ..evaluation.html_report import render_eval

        write_html(args.html, render_eval(checked, summary, args.model or "local heuristic",
                                          args.data, bad), parser)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        _print_summary(summary)
    if summary.bad_samples:
        print(f"provenance: {len(summary.bad_samples)} sample(s) were bad and not validated "
              "(listed above); the others were.", file=sys.stderr)
        statuses.add(exits.BAD_SAMPLES)
    return next((status for status in (exits.NO_VERDICTS, exits.BAD_SAMPLES, exits.FAILED)
                 if status in statuses), exits.PASSED)


def _print_summary(summary: EvalSummary) -> None:
    def show(x: float | None, form: str = ".3f") -> str:
        return "n/a" if x is None else format(x, form)

    earlier = summary.from_earlier_runs
    now = f"{summary.samples - earlier} validated in this run" + (
        f", {earlier} read back from an earlier run" if earlier else "")
    print(f"{summary.samples} samples ({now}); mean faithfulness "
          f"{show(summary.mean_faithfulness)}; failing {show(summary.failing_share, '.1%')}")
    print("levels: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.levels.items())))
    print(f"cost: {summary.usage.line()}")
    labelled = summary.labelled
    if labelled:
        print(f"labelled {labelled.samples}: detecting ungrounded outputs, precision "
              f"{show(labelled.precision)}, recall {show(labelled.recall)}, F1 "
              f"{show(labelled.f1)}, balanced accuracy {show(labelled.balanced_accuracy)}")
    from ..evaluation.summaries import kind_lines

    for line in kind_lines(summary.by_kind or {}):
        print(line)
    if summary.grounded_qa:
        from ..evaluation.grounded_qa import TOP_SCORE

        print("grounded QA (GroUSE; mean over the samples each applies to):")
        for name, row in summary.grounded_qa.items():
            scale = f"1-{TOP_SCORE[name]}" if name in TOP_SCORE else "0-1"
            print(f"  {name:<20} {show(row.mean, '.2f'):>5} ({scale})  scored {row.scored}, "
                  f"null {row.null}, failed {row.failed}")
    for bad in summary.bad_samples:
        print(f"bad sample: {bad}")
    print(f"results: {summary.results}")
