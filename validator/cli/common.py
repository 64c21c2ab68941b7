"""What the commands share: the judge and validator their options describe, and writing the
HTML report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..settings import Chunking


def judge_of(args: argparse.Namespace, cache_dir: str | Path | None):
    """The judge the options name: a LiteLLM model (replies kept in ``cache_dir`` if given),
    or the local heuristic judge."""
    from .. import LiteLLMJudge, LocalJudge

    if args.model:
        return LiteLLMJudge(args.model, llm_kwargs(args), cache_dir=cache_dir)
    return LocalJudge()


def validator_of(args: argparse.Namespace, judge, validator_class):
    return validator_class(
        llm_callable=judge, top_k=args.top_k,
        on_fail="noop", validation_method=args.method,
        citations=args.citations, cascade_contradictions=args.cascade,
        cascade_verbatim=args.cascade, batch_size=args.batch_size,
        fail_on_unsupported=not args.allow_unsupported,
    )


def chunking_of(args: argparse.Namespace) -> dict:
    """The chunking options as metadata keys."""
    return Chunking(args.chunk_strategy, args.chunk_size, args.chunk_overlap).as_metadata()


def write_html(path: str, page: str, parser: argparse.ArgumentParser) -> None:
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as error:
        parser.error(f"cannot write the HTML report: {error}")
    print(f"report: {path}", file=sys.stderr)


def llm_kwargs(args: argparse.Namespace) -> dict:
    return {key: value for key, value in (("api_base", args.api_base), ("api_key", args.api_key))
            if value}
