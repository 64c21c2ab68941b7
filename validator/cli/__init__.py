"""The ``provenance`` command: ``check`` a text against source files, ``eval`` a data set,
``meta-eval`` a judge. The parser is built here; each command runs in its own module, which
imports the validator only after the arguments are parsed."""

from __future__ import annotations

import argparse
import difflib
import sys

from .. import __version__
from ..evaluation import engine_options
from ..request import CHUNK_STRATEGIES, COMMAND_CHUNKING
from ..settings import DEFAULTS, add_flags
from ..storage import DEFAULT_ENCODING
from . import exits
from .from_args import Neutralised


class _Parser(argparse.ArgumentParser):
    """A command's parser that names a flag it does not know, with the closest real one, before
    anything else is checked (argparse would first say that a required flag is missing)."""

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        if args is not None and self._subparsers is None:
            known = list(self._option_string_actions)
            for arg in args:
                if arg == "--":
                    break
                flag = arg.split("=", 1)[0]
                if flag.startswith("--") and not any(k.startswith(flag) for k in known):
                    close = difflib.get_close_matches(flag, known, n=1)
                    self.error(f"unknown flag {flag}"
                               + (f": did you mean {close[0]}?" if close else ""))
        return super().parse_known_args(args, namespace)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="provenance", description="Check that a text is supported by its sources."
    )
    parser.add_argument("--version", action="version",
                        version=f"provenance-guard {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    # each command's errors print its own usage: ``args.command_parser`` is the one to use
    check = commands.add_parser(
        "check",
        help="judge every sentence of a text against source files",
        description="Prints each sentence with its verdict and best evidence. " + exits.TEXT,
    )
    check.add_argument("--source", action="append", default=[], metavar="FILE",
                       help="a source text file (repeat for several); required unless "
                            "--messages holds tool results")
    check.add_argument("--text", required=True, metavar="FILE",
                       help="the text to check, or - for standard input")
    check.add_argument("--question", help="the question the text answers")
    check.add_argument("--messages", metavar="FILE",
                       help="the conversation the text replies to: a JSON list of "
                            "{\"role\": \"user\" | \"assistant\" | \"system\" | \"tool\", "
                            "\"content\": ...}; what a user turn asserts grounds a restatement "
                            "of it, and the results of the tools it called are evidence")
    _encoding_option(check, "the source and text files")
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
        "outputs where labels are given). A bad line is reported with its number and the "
        f"others go on. Exit status: {exits.PASSED} when every sample passes, {exits.FAILED} "
        f"when some sample fails, {exits.USAGE} on a usage or configuration error, "
        f"{exits.NO_VERDICTS} when verdicts could not be obtained for some sample, "
        f"{exits.BAD_SAMPLES} when some samples were bad, {exits.INTERRUPTED} when "
        f"interrupted; of {exits.USAGE}, {exits.NO_VERDICTS}, {exits.BAD_SAMPLES} and "
        f"{exits.FAILED}, the first that applies.",
    )
    evaluate.add_argument("data", metavar="DATA.jsonl")
    _encoding_option(evaluate, "the data set")
    evaluate.add_argument("--out", metavar="FILE",
                          help="results JSONL (default: DATA.results.jsonl beside DATA)")
    _engine_options(evaluate)
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
    meta.add_argument("--judge", metavar="SPEC",
                      help="any judge: 'local', 'nli:PATH_OR_NAME' (a local NLI checkpoint), "
                      "'minicheck:MODEL' (e.g. minicheck:ollama/bespoke-minicheck) or a LiteLLM "
                      "model name (the same as --model)")
    meta.add_argument("--first-judge", metavar="SPEC",
                      help="cheap first: this judge decides first, the judge only where it is "
                      "unsure (same forms as --judge)")
    meta.add_argument("--band", type=float, nargs=2, metavar=("LOW", "HIGH"),
                      default=DEFAULTS.confidence_band,
                      help="with --first-judge: its verdicts scored strictly between LOW and "
                      "HIGH go on to the judge (default: %(default)s)")
    meta.add_argument("--concurrency", type=int, default=engine_options.DEFAULT_CONCURRENCY,
                      help="cases run at once (default: %(default)s)")
    meta.add_argument("--json", action="store_true")
    register = commands.add_parser(
        "register",
        help="make `from guardrails.hub import ProvenanceLLM` import this package here",
        description="Writes this package's entry in the project's Guardrails hub registry "
        "(.guardrails/hub_registry.json), so that `from guardrails.hub import ProvenanceLLM` "
        "(the hub's README, NeMo Guardrails' provenance_llm rail) imports provenance_guard. "
        "Other entries are kept.",
    )
    register.add_argument("--project", metavar="DIR", default=".",
                          help="the project folder, where Guardrails looks (default: the "
                          "current folder)")
    register.add_argument("--undo", action="store_true", help="take the entry out again")
    for command in (check, evaluate, meta, register):
        command.set_defaults(command_parser=command)
    return parser


def _engine_options(command: argparse.ArgumentParser) -> None:
    engine_options.add_flags(command)
    command.add_argument("--limit", type=int, metavar="N",
                         help="validate at most N samples not yet in the results, then stop "
                         "(run again to go on)")


def _encoding_option(command: argparse.ArgumentParser, what: str) -> None:
    command.add_argument("--encoding", default=DEFAULT_ENCODING, metavar="NAME",
                         help=f"the text encoding of {what} (default: UTF-8, a byte-order mark "
                         "dropped; for example latin-1 or cp1252)")


def _model_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--model", metavar="NAME",
                         help="a LiteLLM model as the judge (default: the local heuristic judge)")
    command.add_argument("--api-base", metavar="URL", help="the model server's base URL")
    command.add_argument("--api-key", metavar="KEY",
                         help="the model's API key (default: the provider's variable, e.g. "
                         "OPENAI_API_KEY; any value for a local server that checks none)")


def _judging_options(command: argparse.ArgumentParser) -> None:
    _model_options(command)
    command.add_argument("--chunk-strategy", choices=CHUNK_STRATEGIES,
                         default=COMMAND_CHUNKING.strategy,
                         help="how the sources are cut (default: %(default)s)")
    command.add_argument("--chunk-size", type=int, default=COMMAND_CHUNKING.size,
                         help="units per chunk (default: %(default)s)")
    command.add_argument("--chunk-overlap", type=int, default=COMMAND_CHUNKING.overlap,
                         help="units shared by neighbouring chunks (default: %(default)s)")
    add_flags(command)
    command.add_argument("--cascade", action="store_true",
                         help="with --model: rule checks first; clear contradictions and "
                         "verbatim sentences are decided without an LLM call (sets "
                         "cascade_contradictions and cascade_verbatim)")
    command.add_argument("--cache-dir", metavar="DIR",
                         help="with --model: keep the judge's replies in DIR; a rerun makes no "
                         "call twice")


def main(argv: list[str] | None = None) -> int:
    """Run the command. Everything it prints goes through ``Neutralised`` streams: the texts
    it shows came from models and users, and must not drive the user's terminal."""
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Neutralised(sys.stdout), Neutralised(sys.stderr)
    try:
        return _run(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _run(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    parser = args.command_parser
    for flag in ("model", "judge", "first_judge"):
        if getattr(args, flag, None) is not None and not getattr(args, flag).strip():
            parser.error(f"--{flag.replace('_', '-')} is empty: name a model (gpt-4o-mini; "
                         "openai/NAME with --api-base for your own server), or leave the flag "
                         "out for the offline judge")
    if getattr(args, "cache_dir", None) and not args.model:
        parser.error("--cache-dir keeps an LLM judge's replies: it needs --model NAME")
    if args.command == "eval":
        from .evaluate import run

        return run(args, parser)
    if args.command == "meta-eval":
        from .meta_eval import run

        return run(args, parser)
    if args.command == "register":
        from .register import run

        return run(args, parser)
    from .check import run

    return run(args, parser)


if __name__ == "__main__":
    sys.exit(main())
