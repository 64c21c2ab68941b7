"""``provenance check``: one text against source files, printed sentence by sentence."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ..settings import in_flags
from ..storage import read_text
from ..types import CONTRADICTED, INVALID, NONE, OK, SUPPORTED, UNSUPPORTED
from . import exits
from .from_args import check_options, chunking_of, judge_of, judge_stop, validator_of, write_html

if TYPE_CHECKING:
    from ..deciding.results import Report

LOCAL_JUDGE_NOTE = (
    "judge: local heuristic (offline, no LLM configured; it compares words, numbers, dates and "
    "names, and does not understand paraphrase like an LLM). Pass --model NAME to use an LLM."
)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    try:
        sources = [read_text(path, args.encoding) for path in args.source]
        text = sys.stdin.read() if args.text == "-" else read_text(args.text, args.encoding)
        messages = None if args.messages is None else _messages(args.messages, args.encoding)
    except OSError as error:
        parser.error(f"cannot read input: {error}")
    except ValueError as error:  # not text in the encoding: the file and the fix are named
        parser.error(in_flags(str(error)))
    if not sources and messages is None:
        parser.error("give the sources (--source FILE, repeated for several), or a "
                     "conversation whose tool results are the evidence (--messages FILE)")

    check_options(args, parser)
    stop = judge_stop(args)  # before LiteLLM, Guardrails and PyTorch are loaded
    if stop is not None:
        print(f"provenance: {in_flags(stop.message)}", file=sys.stderr)
        return stop.status

    from ..errors import ConfigurationError
    from ..retrieval.progress import to_stderr

    to_stderr()  # a large source's embedding is told as it goes
    try:
        judge = judge_of(args, args.cache_dir)  # a key not set is said here, before Guardrails
        from ..main import ProvenanceLLM  # heavy: after parsing

        validator = validator_of(args, judge, ProvenanceLLM)
        metadata = {"sources": sources, **chunking_of(args)}
        if args.question:
            metadata["question"] = args.question
        if messages is not None:
            metadata["messages"] = messages
        report = validator.check(text, metadata)
    except ConfigurationError as error:  # the judge, its key or a setting: not "unsupported"
        print(f"provenance: {in_flags(str(error))}", file=sys.stderr)
        return exits.of_error(error)
    except ValueError as error:
        parser.error(in_flags(str(error)))
    if args.html:
        from ..evaluation.examples import Checked, Example
        from ..evaluation.html_report import render_check

        example = Example("text", text, sources, args.question)
        page = render_check(Checked(example, report, report.passed), args.source,
                            args.model or "local heuristic")
        write_html(args.html, page, parser)
    if args.json:
        metadata = report.metadata()
        shown = {
            "passed": report.passed,
            "judge": args.model or "local-heuristic",
            "heuristic": not args.model,
            "sources": args.source,
            "groundedness": metadata["groundedness"],
            "sentences": metadata["sentences"],
            "fixed": report.fixed,
            "usage": metadata["usage"],
        }
        print(json.dumps(shown, indent=2, ensure_ascii=False))
    else:
        _print_text(report, args)
    status = exits.of_report(report)
    if status == exits.NO_VERDICTS:
        print(exits.no_verdicts_message(report), file=sys.stderr)
    return status


def _print_text(report: Report, args: argparse.Namespace) -> None:
    from ..deciding.results import from_conversation

    print(f"judge: {args.model}" if args.model else LOCAL_JUDGE_NOTE)
    for result in report.sentences:
        verdict, citation = result.verdict, result.citation
        if verdict is None:
            print(f"\n[NOT A CLAIM] {result.sentence.text}\n    not judged: {result.not_a_claim}")
            continue
        print(f"\n[{verdict.label.upper()}] {result.sentence.text}")
        if result.named_kind is not None and not citation.fails:  # what is wrong
            print(f"    kind: {str(result.named_kind).replace('_', ' ')}")
        if citation.status not in (NONE, OK):
            print(f"    citation: {citation.status.replace('_', ' ')}"
                  + (f"; source {list(citation.uncited_support)} supports it"
                     if citation.uncited_support else ""))
        if result.read_as is not None:
            print(f"    read as: {result.read_as}")
        if result.split_into_claims:
            for claim in result.claims:
                print(f"    claim [{claim.verdict.label}]: {claim.text}")
        if verdict.reason:
            print(f"    why: {verdict.reason}")
        if verdict.reply is not None:  # untrusted: shown as a quoted string, never interpreted
            print(f"    the judge's reply: {verdict.reply!r}")
        if verdict.probability is not None:
            print(f"    the model's probability for {verdict.label}: {verdict.probability:.2f}")
        for n in result.shown_evidence:
            passage = result.evidence[n - 1]
            conversation = from_conversation(passage)
            if conversation is not None:  # what the user said as they wrote it, or a tool result
                said = passage.text if passage.said is None else passage.said.text
                print(f"    evidence [{n}] ({conversation} of the conversation): "
                      f"{_clip(said, 600)}")
                continue
            where = args.source[passage.source] if passage.source is not None else "source"
            similarity = ("" if passage.similarity is None
                          else f", similarity {passage.similarity:.2f}")
            # the passage that matched comes with its neighbours: show the whole window
            print(f"    evidence [{n}] ({where}{similarity}): {_clip(passage.text, 600)}")
        correction = result.correction
        if correction is not None:
            status = "used" if correction.used else f"not used: {correction.reason}"
            print(f"    correction ({status}): {_clip(correction.text or correction.rewrite or '')}")
    summary = report.summary
    counts = summary.counts
    if not report.sentences:
        print("\nthe text is empty: there is nothing to check, so it passes")
    elif summary.faithfulness is None and counts[INVALID]:  # the judge gave no verdict
        outcome = "it passes (pass_on_invalid)" if report.passed else "it fails"
        print(f"\nthe judge gave no verdict for {counts[INVALID]} sentence(s): {outcome}")
    elif summary.faithfulness is None:  # no sentence was judged
        print("\nno sentence of the text asserts anything: nothing was judged, so it passes")
    else:
        print(f"\n{counts[SUPPORTED]} of {summary.judged} judged sentences supported "
              f"({counts[UNSUPPORTED]} unsupported, {counts[CONTRADICTED]} contradicted); "
              f"faithfulness {summary.faithfulness:.2f}, groundedness {summary.level}")
    if summary.not_claims:
        print(f"{summary.not_claims} sentence(s) assert nothing and were not judged "
              "(--judge-non-claims judges them)")
    if summary.judge_calls_saved:
        print(f"{summary.judge_calls_saved} judge call(s) saved by the rule checks")
    if args.model and report.usage is not None:
        print(f"cost: {report.usage.line()}")
    if summary.fix_mode == "correct" and report.failing:
        removed = len(report.failing) - summary.corrected
        print(f"\nthe fix corrects {summary.corrected} sentence(s) and removes {removed}:\n"
              f"{report.fixed}")


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _messages(path: str, encoding: str) -> object:
    """The conversation in ``path``: JSON, checked as metadata['messages'] by the validation."""
    try:
        return json.loads(read_text(path, encoding))
    except json.JSONDecodeError as error:
        raise ValueError(f"--messages {path} is not JSON ({error.msg}, line {error.lineno}): "
                         "write the conversation as a JSON list of {\"role\": ..., \"content\": "
                         "...} messages.") from None
