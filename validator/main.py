"""ProvenanceLLM: the Guardrails contract. It conducts the pipeline and computes nothing:

    read (split, citations, non-claims) -> claims -> retrieve -> decide -> check citations
          -> aggregate -> (correct) -> fix

each stage in its folder (``text``, ``retrieval``, ``deciding``), one record per sentence
(``types.ReadSentence``) carried through them; the arguments declared and checked once in
``settings``, each stage given the part of them it reads (``Settings.take``); each call's
input in ``request``; concurrency and the deadline owned by ``concurrency``.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass, replace
from types import FrameType
from typing import TYPE_CHECKING, Any

from guardrails.validator_base import (
    ErrorSpan,
    FailResult,
    PassResult,
    ValidationResult,
    Validator,
    register_validator,
)

from .concurrency import Runner, offload
from .deciding.aggregation import Reporting, aggregate, fix
from .deciding.correction import Correcting, make_corrector
from .deciding.decider import Decided, Decider, Deciding
from .deciding.results import REGISTERED_NAME, Report
from .errors import ConfigurationError, warnings_to_caller
from .judges import Judge, make_judge, usage
from .request import Defaults, Request, read_request
from .retrieval.embedding import SentenceTransformerEmbedder
from .retrieval.retriever import Found, Retriever, Retrieving, retriever_for
from .settings import Settings, docstring, signature
from .text import reader
from .text.reader import Reading
from .text.sentences import stream_chunks
from .types import Claim, Correction, ReadSentence


@register_validator(name=REGISTERED_NAME, data_type="string")
class ProvenanceLLM(Validator):
    """Checks that every sentence of a text is supported by the sources it was given.

    A drop-in replacement for the hub's ``guardrails/provenance_llm``: same arguments, same
    metadata keys, same outcomes, plus per-sentence verdicts, reasons, scores, evidence,
    citations and claims in the result's metadata (``sentences``, ``groundedness``; their
    schema is in docs/reference.md).

    The arguments (every one declared once, in ``settings.Settings``) are listed below.

    Metadata keys (as in the hub):
        ``query_function(text=..., k=...)``: returns chunk strings or ``(chunk, score)`` pairs;
        or ``sources``: a list of strings, with optional ``embed_function(list[str]) -> (n, d)``,
        ``chunk_strategy`` (full, sentence, word, char, token; default full), ``chunk_size``
        (5), ``chunk_overlap`` (2). ``pass_on_invalid`` (False): whether a sentence the judge
        gave no readable verdict for passes. ``question``: what the text answers, for the judge.
    """

    if TYPE_CHECKING:  # the arguments, for editors and type checkers
        # typed __init__: made from settings.Settings by `python tools/arguments_table.py --write`
        def __init__(
            self,
            validation_method: str = 'sentence',
            llm_callable: Any = 'gpt-3.5-turbo',
            top_k: int = 3,
            on_fail: Any = None,
            max_concurrency: int = 8,
            max_calls_in_flight: int = 32,
            max_retries: int = 2,
            cache_size: int = 4096,
            embedding_model: str = 'all-MiniLM-L6-v2',
            llm_kwargs: Any = None,
            pass_on_invalid: bool = False,
            fail_on_unsupported: bool = True,
            skip_non_claims: bool = True,
            citations: str = 'auto',
            cascade_contradictions: bool = False,
            cascade_verbatim: bool = False,
            batch_size: int = 16,
            deadline: float | None = 120.0,
            max_sentences: int | None = 1000,
            max_source_chars: int | None = 5000000,
            index_dir: str | None = None,
            first_judge: Any = None,
            confidence_band: tuple[float, float] = (0.2, 0.8),
            language: str = 'auto',
            retrieval: str = 'hybrid',
            max_evidence_chars: int | None = 12000,
            evidence_window: int = 1,
            fix_mode: str = 'remove',
            corrector: Any = None,
            max_requests_per_minute: float | None = None,
            max_tokens_per_minute: float | None = None,
        ) -> None: ...
        # end of the typed __init__
    else:  # at run time they are read by Settings, which names a misspelt one and its fix
        def __init__(self, *args, **kwargs):
            self._set_up(Settings.from_call(args, kwargs))

    def _set_up(self, settings: Settings) -> None:
        # Guardrails serialises a validator from these: the checked values (plain ints and
        # floats where numpy types were given), and every argument, as the hub's template does.
        arguments = settings.arguments()
        super().__init__(arguments.pop("on_fail"), **arguments)
        self._settings = settings
        self._judge = make_judge(settings.llm_callable, settings.llm_kwargs,
                                 **_judge_options(settings))
        self._embedder = SentenceTransformerEmbedder(settings.embedding_model)
        self._runner = Runner(settings.max_concurrency, settings.deadline)
        self._first_judge = (None if settings.first_judge is None
                             else _first_judge(settings.first_judge, settings))
        self._decider = Decider(self._judge, settings.take(Deciding), self._runner,
                                self._first_judge)
        self._correcting = None if settings.fix_mode != "correct" else Correcting(
            make_corrector(settings.corrector, self._judge, settings.llm_kwargs,
                           **_judge_options(settings)),
            self._decider, self._runner)
        self._defaults, self._reading = settings.take(Defaults), settings.take(Reading)
        self._retrieving, self._reporting = settings.take(Retrieving), settings.take(Reporting)

    @property
    def judge(self) -> Judge:
        return self._judge

    @property
    def settings(self) -> Settings:
        return self._settings

    def _chunking_function(self, chunk: str) -> list[str]:
        return stream_chunks(chunk, self._settings.language)

    def check(self, value: Any, metadata: dict[str, Any] | None = None) -> Report:
        """What ``validate`` finds, typed: each sentence's result and the summary, whatever
        ``on_fail`` says. ``report.metadata()`` is the result metadata ``validate`` gives."""
        decider = self._decider
        with self._runner.validation(), warnings_to_caller(), usage.counting() as meter:
            found = self._find(value, metadata)
            decided = decider.decide(found.claims, found.evidence, found.request)
            read = decider.cite(found.read, found.claims, decided.verdicts, found.retriever,
                                found.request)
            return self._report(found, read, decided, meter)

    async def acheck(self, value: Any, metadata: dict[str, Any] | None = None) -> Report:
        """``check`` for async code (what ``AsyncGuard`` runs): the judge's calls are awaited
        on the running loop (LiteLLM's ``acompletion``, an ``async def`` callable), the stages
        that compute run in the process's bounded pool, and no thread is held while a call
        waits for its reply."""
        decider = self._decider
        async with self._runner.avalidation():
            with warnings_to_caller(), usage.counting() as meter:
                found = await self._afind(value, metadata)
                decided = await decider.adecide(found.claims, found.evidence, found.request)
                read = await decider.acite(found.read, found.claims, decided.verdicts,
                                           found.retriever, found.request)
                return await self._areport(found, read, decided, meter)

    def _find(self, value: Any, metadata: dict[str, Any] | None) -> _Found:
        """The request read, its sentences, their claims, and their evidence (arriving)."""
        request, read, retriever = self._read(value, metadata)
        claims = self._decider.claims(read, request)
        return _Found(request, read, retriever, claims, retriever.find(claims))

    async def _afind(self, value: Any, metadata: dict[str, Any] | None) -> _Found:
        """``_find`` in an awaited validation: claim extraction awaited, the rest in the
        pool."""
        request, read, retriever = await offload(self._read, value, metadata)
        claims = await self._decider.aclaims(read, request)
        return _Found(request, read, retriever, claims, await offload(retriever.find, claims))

    def _read(self, value: Any, metadata: dict[str, Any] | None
              ) -> tuple[Request, list[ReadSentence], Retriever]:
        """The request read, its sentences, and the retriever of its sources."""
        request = read_request(value, metadata, self._defaults)
        read = reader.read(request.value, request.question, self._reading)
        self._settings.check_sentence_count(len(read))
        return request, read, retriever_for(request, self._retrieving, self._embedder)

    def _report(self, found: _Found, read: list[ReadSentence], decided: Decided,
                meter: usage.Meter) -> Report:
        """The sentences' results and the summary, corrected and fixed as asked."""
        report = self._aggregate(found, read, decided)
        corrections = (self._correcting.corrections(report, found.request, read)
                       if self._correcting is not None else {})
        return self._fixed(report, found.request, corrections, meter)

    async def _areport(self, found: _Found, read: list[ReadSentence], decided: Decided,
                       meter: usage.Meter) -> Report:
        """``_report`` in an awaited validation: the corrector's calls awaited, the rest in
        the pool."""
        if self._correcting is None:
            return await offload(self._report, found, read, decided, meter)
        report = await offload(self._aggregate, found, read, decided)
        corrections = await self._correcting.acorrections(report, found.request, read)
        return await offload(self._fixed, report, found.request, corrections, meter)

    def _aggregate(self, found: _Found, read: list[ReadSentence], decided: Decided) -> Report:
        return aggregate(found.request, read, found.claims, decided, found.evidence,
                         self._reporting)

    def _fixed(self, report: Report, request: Request, corrections: dict[int, Correction],
               meter: usage.Meter) -> Report:
        return replace(fix(report, request, self._reporting, corrections), usage=meter.total)

    def _validate(self, value: Any, metadata: dict[str, Any] | None) -> ValidationResult:
        return _guardrails_result(self.check(value, metadata), metadata,
                                  self._settings.on_fail)

    async def async_validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        """What ``AsyncGuard`` awaits: ``acheck``'s report as the Guardrails result.

        A synchronous ``Guard`` awaits it too, on an event loop it makes for the calling thread
        and never closes. There the validation runs as ``validate`` does, in the process's
        pool: LiteLLM keeps state for every loop it is awaited on (clients, a logging task, an
        executor thread), which a thread per request would pile up, and nothing waits on that
        loop but this validation."""
        if _awaited_by_a_synchronous_guard():
            with warnings_to_caller():
                return await offload(self.validate, value, metadata)
        return _guardrails_result(await self.acheck(value, metadata), metadata,
                                  self._settings.on_fail)


def _awaited_by_a_synchronous_guard() -> bool:
    """Whether this runs inside Guardrails' synchronous validator service (a ``Guard``, not an
    ``AsyncGuard``), which drives its own loop with ``run_until_complete``."""
    try:
        from guardrails.validator_service.async_validator_service import AsyncValidatorService
    except ImportError:  # another Guardrails layout: the awaited path serves it
        return False
    synchronous = AsyncValidatorService.validate.__code__
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code is synchronous:
            return True
        frame = frame.f_back
    return False


@dataclass(frozen=True)
class _Found:
    """What one validation found before its claims are decided."""

    request: Request
    read: list[ReadSentence]
    retriever: Retriever
    claims: list[Claim]
    evidence: Found


def _first_judge(first_judge: object, settings: Settings) -> Judge:
    """The cheaper judge asked first; a bad one is refused under its own name."""
    try:
        return make_judge(first_judge, None, **_judge_options(settings))
    except (ValueError, ConfigurationError) as error:
        raise type(error)(f"first_judge: {error}") from None


def _judge_options(settings: Settings) -> dict[str, Any]:
    """What every prompt judge of a validator (the judge, the first judge, the corrector) is
    built with."""
    return {"max_retries": settings.max_retries, "cache_size": settings.cache_size,
            "max_in_flight": settings.max_calls_in_flight,
            "max_per_minute": settings.max_requests_per_minute,
            "max_tokens_per_minute": settings.max_tokens_per_minute}


ProvenanceLLM.__init__.__signature__ = signature(ProvenanceLLM.__init__)  # type: ignore[attr-defined]
ProvenanceLLM.__doc__ = (f"{(ProvenanceLLM.__doc__ or '').rstrip()}\n\n"
                         f"{textwrap.indent(docstring(), '    ')}\n")


def _guardrails_result(report: Report, caller: dict[str, Any] | None,
                       on_fail: object) -> ValidationResult:
    """The Guardrails result; for ``on_fail="reask"`` the message carries each failing
    sentence's evidence, which the regeneration is asked to use."""
    metadata = report.metadata(caller)
    failing = report.failing
    if not failing:
        return PassResult(metadata=metadata)
    return FailResult(
        metadata=metadata,
        error_message=report.explain(evidence=on_fail == "reask"),
        fix_value=report.fixed,
        error_spans=[ErrorSpan(start=r.sentence.start, end=r.sentence.end, reason=r.summary())
                     for r in failing],
    )
