"""What the commands share: the judge and validator their options describe, and writing the
HTML report."""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import fields
from pathlib import Path

from ..request import Chunking
from ..settings import Settings, in_flags

# Characters a terminal may act on: C0 controls but newline and tab, DEL, C1 controls
# (U+0080-U+009F, "\x9b" is CSI), and the bidirectional overrides that reorder what is shown.
_ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def neutralise(text: str) -> str:
    """``text`` with each character a terminal would act on written out as ``\\uXXXX`` (which
    a JSON string reads as the same character, so JSON output stays valid)."""
    return _ACTIVE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


class Neutralised:
    """A text stream that writes through ``neutralise``; ``raw`` is the stream itself, for
    the command's own control characters (the progress bar's carriage return)."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text: str) -> int:
        return self.raw.write(neutralise(text))

    def __getattr__(self, name: str):
        return getattr(self.raw, name)


def judge_settings(args: argparse.Namespace):
    """The judge settings the options give (those a command has flags for; the rest at their
    defaults): the same slice the validator is built with."""
    from ..judges import JudgeSettings

    return JudgeSettings(**{row.name: getattr(args, row.name) for row in fields(JudgeSettings)
                            if hasattr(args, row.name)})


def judge_of(args: argparse.Namespace, cache_dir: str | Path | None):
    """The judge the options name, built with their judge settings: a LiteLLM model (replies
    kept in ``cache_dir`` if given), or the local heuristic judge."""
    from ..judges import build

    return build(args.model or "local", llm_kwargs(args) or None, judge_settings(args),
                 cache_dir=cache_dir if args.model else None)


def check_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Each setting a flag gave, checked as the validator checks it (``--top-k 0``), before
    anything heavy is loaded: a usage error said at once."""
    try:
        Settings(llm_callable="local", **validator_options(args))
    except ValueError as error:
        parser.error(in_flags(str(error)))


def judge_stop(args: argparse.Namespace):
    """Why an LLM judge the options name (``--model``, ``--judge``, ``--first-judge``) cannot
    work, where that can be told before anything heavy is loaded (``preflight``); None where it
    cannot, or where no LLM judge is named. A prefixed spec (``nli:``, ``minicheck:``) and
    ``local`` are not LiteLLM names, and left to the judge's own checks."""
    from . import preflight

    for name in ("model", "judge", "first_judge"):
        spec = getattr(args, name, None)
        if not spec or spec == "local" or ":" in spec:
            continue
        # the first judge is built without the --api-base and --api-key of the main one
        main = name != "first_judge"
        stop = preflight.check(spec, getattr(args, "api_base", None) if main else None,
                               getattr(args, "api_key", None) if main else None)
        if stop is not None:
            return stop
    return None


def no_metrics() -> None:
    """This process sends Guardrails no usage metrics: the commands make no ``Guard``, and a
    validator made with metrics on would set up their exporter for nothing (and, offline, an
    exit seconds late). Only the command's own process: a user's code keeps its setting."""
    from guardrails.settings import settings

    settings.rc.enable_metrics = False


def validator_of(args: argparse.Namespace, judge, validator_class):
    no_metrics()
    return validator_class(llm_callable=judge, on_fail="noop", **validator_options(args))


def validator_options(args: argparse.Namespace) -> dict:
    """The validator's arguments the options give, but the judge and ``on_fail``: every
    setting that has a flag, and ``--cascade`` for both cascades."""
    options = {row.name: getattr(args, row.name) for row in fields(Settings)
               if row.metadata["flag"] is not None}
    return {**options, "cascade_contradictions": args.cascade, "cascade_verbatim": args.cascade}


def chunking_of(args: argparse.Namespace) -> dict:
    """The chunking options as metadata keys."""
    return Chunking(args.chunk_strategy, args.chunk_size, args.chunk_overlap).as_metadata()


def write_html(path: str, page: str, parser: argparse.ArgumentParser) -> None:
    try:
        # text that is no valid Unicode (a lone surrogate) is shown as "?"
        Path(path).write_text(page, encoding="utf-8", errors="replace")
    except OSError as error:
        parser.error(f"cannot write the HTML report: {error}")
    print(f"report: {path}", file=sys.stderr)


def llm_kwargs(args: argparse.Namespace) -> dict:
    return {key: value for key, value in (("api_base", args.api_base), ("api_key", args.api_key))
            if value}
