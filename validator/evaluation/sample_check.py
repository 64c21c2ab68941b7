"""The one per-sample function every engine runs: a sample in, a result record out.

``Plan`` says how samples are checked (the judge, the validator's arguments, the metadata every
sample gets, whether the grounded-QA metrics are added) in plain, picklable values, so that a
thread pool in this process, a Ray actor on another machine and a Spark executor each build the
same checker from it with ``Plan.checker()``, and the engines cannot drift apart.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .examples import Checked, Example


@dataclass(frozen=True)
class Plan:
    """How each sample is checked.

    ``llm_callable``/``llm_kwargs``: the judge, as ``ProvenanceLLM`` takes it (a LiteLLM model
    name, ``"local"``, a ``prompt -> reply`` callable or a judge object: for the Ray engine it
    must pickle). ``cache_dir``: a LiteLLM judge's replies on disk. ``options``: the other
    ``ProvenanceLLM`` arguments. ``metadata``: added to every sample's metadata (e.g. the
    chunking keys). ``grounded_qa``: also GroUSE's metrics (needs an LLM judge)."""

    llm_callable: Any
    llm_kwargs: dict | None = None
    cache_dir: str | None = None
    options: dict = field(default_factory=dict)
    metadata: dict = field(default_factory=dict)
    grounded_qa: bool = False

    def checker(self, reserve: Callable[[], float] | None = None) -> Callable[[Example], dict]:
        """The per-sample function, with its own judge and validator. ``reserve()`` returns the
        seconds to wait before each request to the judge's model (a shared rate limit; see
        ``pacing``). Raises ``ConfigurationError``/``ValueError`` for a bad plan."""
        from ..judges import JudgeSettings, build
        from ..main import ProvenanceLLM
        from ..settings import Settings
        from .pacing import pace

        settings = Settings.from_call((), self.options).take(JudgeSettings)
        judge = build(self.llm_callable, self.llm_kwargs or None, settings,
                      cache_dir=self.cache_dir)
        if reserve is not None:
            pace(judge.made, reserve)
        validator = ProvenanceLLM(llm_callable=judge, on_fail="noop", **self.options)
        return functools.partial(check, validator, self.metadata, self.grounded_qa)


def check(validator, metadata: dict, grounded_qa: bool, sample: Example) -> dict:
    """``sample`` through ``validator``: the line of the results file (``Checked.as_record``),
    with ``error`` when the validator rejects this sample. A ``ConfigurationError`` (no
    sample could be validated) is raised, to stop the run."""
    from ..errors import ConfigurationError

    request = {"sources": sample.sources, **metadata}
    if sample.messages is not None:
        request["messages"] = sample.messages
    if sample.question:
        request["question"] = sample.question
    elif grounded_qa:  # its metrics grade an answer to its question
        return Checked(sample, None, error="ValueError: the grounded-QA metrics grade an answer "
                       "to its question, and this sample has none: add its 'question', or run "
                       "without grounded_qa.").as_record()
    try:
        report = validator.check(sample.output, request)
    except (ValueError, RuntimeError) as error:
        if isinstance(error, ConfigurationError):
            raise
        return Checked(sample, None, error=f"{type(error).__name__}: {error}").as_record()
    metrics = None
    if grounded_qa and sample.question:
        from .grounded_qa import grade

        why = ("every sentence is supported by the references" if report.passed
               else report.message)
        metrics = grade(validator.judge, sample.question, sample.output, sample.sources,
                        report.passed, why, sample.expected)
    return Checked(sample, report, report.passed, grounded_qa=metrics).as_record()


def complete_for(grounded_qa: bool) -> Callable[[dict], bool]:
    """Whether a stored record holds all a run with these settings adds (else it is redone)."""
    if not grounded_qa:
        return lambda record: True
    return lambda record: "grounded_qa" in record or "error" in record
