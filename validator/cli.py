"""The ``provenance`` command: check a text against source files from a shell."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .citations import CITATION_MODES
from .settings import CHUNK_STRATEGIES, COMMAND_CHUNKING, VALIDATION_METHODS
from .types import NONE, OK

LOCAL_JUDGE_NOTE = (
    "judge: local heuristic (offline, no LLM configured; it compares words, numbers, dates and "
    "names, and does not understand paraphrase like an LLM). Pass --model NAME to use an LLM."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="provenance", description="Check that a text is supported by its sources."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check",
        help="judge every sentence of a text against source files",
        description="Prints each sentence with its verdict and best evidence. Exit status: 0 "
        "when every sentence is supported, 1 when any is not, 2 on a usage error.",
    )
    check.add_argument("--source", action="append", required=True, metavar="FILE",
                       help="a source text file (repeat for several)")
    check.add_argument("--text", required=True, metavar="FILE",
                       help="the text to check, or - for standard input")
    check.add_argument("--question", help="the question the text answers")
    _judging_options(check)
    check.add_argument("--json", action="store_true", help="print a machine-readable report")
    check.add_argument("--html", metavar="FILE", help="also write the report as one HTML page")

    evaluate = commands.add_parser(
        "eval",
        help="validate every sample of a JSONL data set, resumably",
        description="Each line: {\"id\", \"output\", \"sources\": [...], \"question\" "
        "(optional), \"label\" (optional: true/\"pass\" if grounded, false/\"fail\" if "
        "not)}. Results are appended to --out as each sample finishes; run again to resume. "
        "Prints a summary (and precision/recall/F1/balanced accuracy of detecting ungrounded "
        "outputs where labels are given). Exit status: 0 when every sample was validated, 1 if "
        "any could not be, 2 on a usage error, 130 when interrupted.",
    )
    evaluate.add_argument("data", metavar="DATA.jsonl")
    evaluate.add_argument("--out", metavar="FILE",
                          help="results JSONL (default: DATA.results.jsonl beside DATA)")
    evaluate.add_argument("--concurrency", type=int, default=4, help="samples validated at once")
    evaluate.add_argument("--grounded-qa", action="store_true",
                          help="also GroUSE's grounded-QA metrics (answer relevancy, "
                          "completeness, usefulness, positive acceptance, negative rejection; "
                          "faithfulness is ours). Needs --model and a question in every sample; "
                          "an \"expected\" answer is used when given")
    evaluate.add_argument("--no-cache", action="store_true",
                          help="with --model: keep no judge replies on disk (default: kept in "
                          "--cache-dir, or RESULTS.cache beside the results)")
    _judging_options(evaluate)
    evaluate.add_argument("--json", action="store_true", help="print the summary as JSON")
    evaluate.add_argument("--html", metavar="FILE",
                          help="also write a report page: summary chart and every sample")

    meta = commands.add_parser(
        "meta-eval",
        help="measure a judge on labelled groundedness cases",
        description="Runs the judge through the validator over labelled cases (default: the "
        "project's suite) and prints pass rate per case type, the confusion matrix of sentence "
        "verdicts, balanced accuracy, tokens, cost and latency.",
    )
    meta.add_argument("--cases", metavar="FILE", help="labelled cases JSONL (default: the suite)")
    _model_options(meta)
    meta.add_argument("--template", metavar="FILE", help="the judge prompt template to measure")
    meta.add_argument("--write-template", metavar="FILE",
                      help="write the default template to FILE (to edit) and exit")
    meta.add_argument("--concurrency", type=int, default=4, help="cases run at once")
    meta.add_argument("--json", action="store_true")
    return parser


def _model_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--model", metavar="NAME",
                         help="a LiteLLM model as the judge (default: the local heuristic judge)")
    command.add_argument("--api-base", metavar="URL", help="the model server's base URL")
    command.add_argument("--api-key", metavar="KEY",
                         help="the model's API key (default: the provider's variable, e.g. "
                         "OPENAI_API_KEY; any value for a local server that checks none)")


def _llm_kwargs(args: argparse.Namespace) -> dict:
    return {key: value for key, value in (("api_base", args.api_base), ("api_key", args.api_key))
            if value}


def _judging_options(command: argparse.ArgumentParser) -> None:
    _model_options(command)
    command.add_argument("--top-k", type=int, default=3, help="evidence chunks per sentence")
    command.add_argument("--chunk-strategy", choices=CHUNK_STRATEGIES,
                         default=COMMAND_CHUNKING.strategy)
    command.add_argument("--chunk-size", type=int, default=COMMAND_CHUNKING.size)
    command.add_argument("--chunk-overlap", type=int, default=COMMAND_CHUNKING.overlap)
    command.add_argument("--method", choices=VALIDATION_METHODS, default="sentence",
                       help="what is judged: each sentence, each atomic claim (needs --model), "
                       "or the whole text")
    command.add_argument("--citations", choices=CITATION_MODES, default="auto",
                       help="[1], [2] in the text refer to the --source files in order; "
                       "'required': every factual sentence must cite one")
    command.add_argument("--cascade", action="store_true",
                       help="with --model: rule checks first; clear contradictions and "
                       "verbatim sentences are decided without an LLM call")
    command.add_argument("--batch-size", type=int, default=1,
                       help="with --model: sentences judged per LLM call")
    command.add_argument("--allow-unsupported", action="store_true",
                         help="only contradicted sentences (and citation errors) fail")
    command.add_argument("--cache-dir", metavar="DIR",
                         help="with --model: keep the judge's replies in DIR; a rerun makes no "
                         "call twice")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "cache_dir", None) and not args.model:
        parser.error("--cache-dir keeps an LLM judge's replies: it needs --model NAME")
    if args.command == "eval":
        return _eval(args, parser)
    if args.command == "meta-eval":
        return _meta_eval(args, parser)
    try:
        sources = [Path(path).read_text(encoding="utf-8") for path in args.source]
        text = sys.stdin.read() if args.text == "-" else Path(args.text).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"cannot read input: {error}")

    from . import JudgeAuthError, ProvenanceLLM  # heavy: after parsing

    try:
        validator = _validator(args, _judge(args, args.cache_dir), ProvenanceLLM)
        metadata = {"sources": sources, **_chunking(args)}
        if args.question:
            metadata["question"] = args.question
        result = validator.validate(text, metadata)
    except ValueError as error:
        parser.error(str(error))
    except JudgeAuthError as error:
        print(f"provenance: {error}", file=sys.stderr)
        return 2
    sentences = result.metadata["sentences"]
    summary = result.metadata["groundedness"]
    passed = result.outcome == "pass"
    if args.html:
        from .evaluation.html_report import Output, render_check

        page = render_check(Output("1", "Checked text", text, sentences, summary, args.source,
                                   args.question), args.model or "local heuristic")
        _write_html(args.html, page, parser)
    if args.json:
        report = {
            "passed": passed,
            "judge": args.model or "local-heuristic",
            "heuristic": not args.model,
            "sources": args.source,
            "groundedness": summary,
            "sentences": sentences,
        }
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print_text(sentences, summary, args)
    return 0 if passed else 1


def _judge(args: argparse.Namespace, cache_dir: str | Path | None):
    """The judge the options name: a LiteLLM model (replies kept in ``cache_dir`` if given),
    or the local heuristic judge."""
    from . import LiteLLMJudge, LocalJudge

    if args.model:
        return LiteLLMJudge(args.model, _llm_kwargs(args), cache_dir=cache_dir)
    return LocalJudge()


def _validator(args: argparse.Namespace, judge, validator_class):
    return validator_class(
        llm_callable=judge, top_k=args.top_k,
        on_fail="noop", validation_method=args.method,
        citations=args.citations, cascade_contradictions=args.cascade,
        cascade_verbatim=args.cascade, batch_size=args.batch_size,
        fail_on_unsupported=not args.allow_unsupported,
    )


def _chunking(args: argparse.Namespace) -> dict:
    return {"chunk_strategy": args.chunk_strategy, "chunk_size": args.chunk_size,
            "chunk_overlap": args.chunk_overlap}


def _eval(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .evaluation.datasets import load_samples, progress_bar, run_eval, summarise

    try:
        samples = load_samples(args.data)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        parser.error(f"cannot read the data set: {error}")
    out = Path(args.out) if args.out else Path(args.data).with_suffix(".results.jsonl")
    if args.grounded_qa:
        if not args.model:
            parser.error("--grounded-qa needs an LLM judge: pass --model NAME (the local judge "
                         "cannot rate relevancy or completeness)")
        unasked = [s.id for s in samples if not s.question]
        if unasked:
            parser.error(f"--grounded-qa needs a \"question\" in every sample; {len(unasked)} "
                         f"have none (first: {', '.join(unasked[:5])})")
    cache_dir = None if args.no_cache else Path(args.cache_dir or f"{out}.cache")

    from . import JudgeAuthError, ProvenanceLLM  # heavy: after parsing
    from .evaluation.grounded_qa import grade

    try:
        judge = _judge(args, cache_dir)
        validator = _validator(args, judge, ProvenanceLLM)
    except ValueError as error:
        parser.error(str(error))

    def validate(sample) -> dict:
        record = {"id": sample.id, "sample_hash": sample.digest, "label": sample.label}
        metadata = {"sources": sample.sources, **_chunking(args)}
        if sample.question:
            metadata["question"] = sample.question
        try:
            result = validator.validate(sample.output, metadata)
        except (ValueError, RuntimeError) as error:
            if isinstance(error, JudgeAuthError):
                raise
            return {**record, "error": f"{type(error).__name__}: {error}"}
        summary = result.metadata["groundedness"]
        passed = result.outcome == "pass"
        record.update(passed=passed, faithfulness=summary["faithfulness"], level=summary["level"],
                      counts=summary["counts"], sentences=result.metadata["sentences"])
        if args.grounded_qa:
            why = ("every sentence is supported by the references" if passed
                   else result.error_message)
            metrics = grade(judge, sample.question, sample.output, sample.sources, passed, why,
                            sample.expected)
            record["grounded_qa"] = {name: metric.as_dict() for name, metric in metrics.items()}
        return record

    def complete(record: dict) -> bool:
        return not args.grounded_qa or "grounded_qa" in record or "error" in record

    try:
        records = run_eval(samples, validate, out, args.concurrency, progress_bar(), complete)
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished samples are in {out}; run the same command to resume.",
              file=sys.stderr)
        return 130
    except JudgeAuthError as error:
        print(f"provenance: {error}", file=sys.stderr)
        return 2
    errors = [r for r in records if "error" in r]
    summary = summarise([r for r in records if "error" not in r])
    summary["errors"] = len(errors)
    summary["results"] = str(out)
    if args.grounded_qa:
        from .evaluation.grounded_qa import summarise as summarise_qa

        summary["grounded_qa"] = summarise_qa([r["grounded_qa"] for r in records
                                               if "grounded_qa" in r])
    if args.html:
        _write_html(args.html, _eval_page(samples, records, summary, args), parser)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print_summary(summary, errors)
    return 1 if errors else 0


def _eval_page(samples, records: list[dict], summary: dict, args: argparse.Namespace) -> str:
    from .evaluation.html_report import Output, render_eval

    by_id = {r["id"]: r for r in records}
    outputs = []
    for number, sample in enumerate(samples, 1):
        record = by_id.get(sample.id)
        if record is None:
            continue
        label = {True: "labelled grounded", False: "labelled ungrounded"}.get(sample.label, "")
        outcome = "" if "error" in record else ("passes" if record["passed"] else "fails")
        title = " · ".join(part for part in (sample.id, outcome, label) if part)
        outputs.append(Output(
            str(number), title, sample.output, record.get("sentences", []),
            None if "error" in record else {"faithfulness": record["faithfulness"],
                                            "level": record["level"], "counts": record["counts"]},
            [f"source {i}" for i in range(1, len(sample.sources) + 1)], sample.question,
            record.get("error"), record.get("grounded_qa")))
    return render_eval(outputs, summary, args.model or "local heuristic", args.data)


def _write_html(path: str, page: str, parser: argparse.ArgumentParser) -> None:
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as error:
        parser.error(f"cannot write the HTML report: {error}")
    print(f"report: {path}", file=sys.stderr)


def _meta_eval(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .evaluation.suite import SUITE

    if args.write_template:
        from .judges.prompts import JUDGE_PROMPT

        Path(args.write_template).write_text(JUDGE_PROMPT + "\n", encoding="utf-8")
        print(f"wrote {args.write_template}; edit it and pass --template {args.write_template}")
        return 0
    from .evaluation.suite import load_cases

    cases_path = Path(args.cases) if args.cases else SUITE
    try:
        cases = load_cases(cases_path)
        template = Path(args.template).read_text(encoding="utf-8") if args.template else None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        parser.error(f"cannot read input: {error}")

    from . import LiteLLMJudge, LocalJudge, ProvenanceLLM
    from .evaluation.meta import meta_evaluate

    try:
        if args.model:
            judge = LiteLLMJudge(args.model, _llm_kwargs(args), template=template)
        elif template:
            parser.error("--template needs --model: the local judge uses no prompt")
        else:
            judge = LocalJudge()
    except ValueError as error:
        parser.error(str(error))
    report = meta_evaluate(cases, lambda options: ProvenanceLLM(llm_callable=judge, **options),
                           judge, args.concurrency)
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


def _print_summary(summary: dict, errors: list[dict]) -> None:
    mean = summary["mean_faithfulness"]
    failing = summary["failing_share"]
    print(f"{summary['samples']} samples validated; mean faithfulness "
          f"{'n/a' if mean is None else f'{mean:.3f}'}; failing "
          f"{'n/a' if failing is None else f'{failing:.1%}'}")
    print("levels: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["levels"].items())))
    labelled = summary.get("labelled")
    if labelled:
        def show(x):
            return "n/a" if x is None else f"{x:.3f}"

        print(f"labelled {labelled['samples']}: detecting ungrounded outputs, precision "
              f"{show(labelled['precision'])}, recall {show(labelled['recall'])}, F1 "
              f"{show(labelled['f1'])}, balanced accuracy {show(labelled['balanced_accuracy'])}")
    qa = summary.get("grounded_qa")
    if qa:
        from .evaluation.grounded_qa import TOP_SCORE

        print("grounded QA (GroUSE; mean over the samples each applies to):")
        for name, row in qa.items():
            mean = "n/a" if row["mean"] is None else f"{row['mean']:.2f}"
            scale = f"1-{TOP_SCORE[name]}" if name in TOP_SCORE else "0-1"
            print(f"  {name:<20} {mean:>5} ({scale})  scored {row['scored']}, null {row['null']}, "
                  f"failed {row['failed']}")
    for record in errors:
        print(f"error in {record['id']}: {record['error']}")
    print(f"results: {summary['results']}")


def _print_text(sentences: list[dict], summary: dict, args: argparse.Namespace) -> None:
    print(f"judge: {args.model}" if args.model else LOCAL_JUDGE_NOTE)
    for sentence in sentences:
        print(f"\n[{sentence['verdict'].upper()}] {sentence['text']}")
        citation = sentence["citation"]
        if citation["status"] not in (NONE, OK):
            print(f"    citation: {citation['status'].replace('_', ' ')}"
                  + (f"; source {citation['uncited_support']} supports it"
                     if citation["uncited_support"] else ""))
        for claim in sentence["claims"] or []:
            print(f"    claim [{claim['verdict']}]: {claim['text']}")
        if sentence["reason"]:
            print(f"    why: {sentence['reason']}")
        if sentence["evidence"]:
            best = sentence["evidence"][0]
            where = args.source[best["source"]] if best["source"] is not None else "source"
            similarity = "" if best["similarity"] is None else f", similarity {best['similarity']:.2f}"
            print(f"    evidence ({where}{similarity}): {_clip(best['text'])}")
    counts = summary["counts"]
    faithfulness = summary["faithfulness"]
    score = "n/a" if faithfulness is None else f"{faithfulness:.2f}"
    print(
        f"\n{counts['supported']} of {summary['sentences']} sentences supported "
        f"({counts['unsupported']} unsupported, {counts['contradicted']} contradicted); "
        f"faithfulness {score}, groundedness {summary['level']}"
    )
    if summary["judge_calls_saved"]:
        print(f"{summary['judge_calls_saved']} judge call(s) saved by the rule checks")


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


if __name__ == "__main__":
    sys.exit(main())
