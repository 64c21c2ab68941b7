"""ProvenanceLLM: the Guardrails contract. It conducts the pipeline and computes nothing:

    read (split, citations, non-claims) -> claims -> retrieve -> decide -> ground in the
          conversation -> check citations -> aggregate -> (correct) -> fix

each stage in its folder (``text``, ``retrieval``, ``deciding``), one record per sentence
(``types.ReadSentence``) carried through them; the arguments declared and checked once in
``settings``, each stage given the part of them it reads (``Settings.take``); each call's
input in ``request``; concurrency and the deadline owned by ``concurrency``.
"""

from __future__ import annotations

import asyncio
import importlib
import textwrap
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from guardrails.validator_base import (
    ErrorSpan,
    FailResult,
    PassResult,
    ValidationResult,
    Validator,
    register_validator,
)

from .deciding import traces
from .deciding.aggregation import Reporting, aggregate, fix
from .deciding.correction import Correcting, make_corrector
from .deciding.decider import Decider, Deciding
from .deciding.grounding import Grounding
from .deciding.results import REGISTERED_NAME, Report
from .errors import ConfigurationError, warnings_to_caller
from .judges import JudgeSettings, build, usage
from .judges.factory import Dressed, refuse_unused
from .request import Defaults, Request, read_request
from .retrieval.embedding import SentenceTransformerEmbedder
from .retrieval.retriever import Retriever, Retrieving, retriever_for
from .runtime.credentials import public, scrub_raised
from .runtime.deadline import Runner
from .runtime.loop import on_the_validation_loop, run, submit
from .runtime.pool import Raised, offload
from .settings import Settings, docstring, signature
from .text import reader
from .text.languages import load_identifier
from .text.reader import Reading
from .text.sentences import stream_chunks
from .types import ReadSentence


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
        ``messages``: the conversation the text replies to, ``[{"role": "user", "content":
        "..."}, ...]``: context for the judge; what a user turn asserts grounds a restatement
        of it (``conversation_grounding``); its last user turn is the question unless
        ``question`` is given.
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
            conversation_grounding: bool = True,
            batch_size: int = 16,
            deadline: float | None = 120.0,
            max_sentences: int | None = 1000,
            max_source_chars: int | None = 2000000,
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
            structured_replies: str = 'auto',
            control_statements: str = 'auto',
            failure_kinds: bool = True,
            min_support_probability: float | None = None,
        ) -> None: ...
        # end of the typed __init__
    else:  # at run time they are read by Settings, which names a misspelt one and its fix
        def __init__(self, *args, **kwargs):
            self._set_up(Settings.from_call(args, kwargs))

    def _set_up(self, settings: Settings) -> None:
        # Guardrails serialises a validator from these: the checked values (plain ints and
        # floats where numpy types were given), and every argument, as the hub's template does.
        # Not its credentials: Guardrails records these on its spans and in guard.to_dict();
        # the judge keeps them (LiteLLMJudge), and every text the package writes is scrubbed
        # of them.
        arguments = settings.arguments()
        arguments["llm_kwargs"] = public(arguments["llm_kwargs"])
        super().__init__(arguments.pop("on_fail"), **arguments)
        self._settings = settings
        judging = settings.take(JudgeSettings)
        judge = build(settings.llm_callable, settings.llm_kwargs, judging)
        self._judge = judge.made
        self._embedder = SentenceTransformerEmbedder(settings.embedding_model)
        self._runner = Runner(settings.max_concurrency, settings.deadline)
        first = None if settings.first_judge is None else _first_judge(settings.first_judge,
                                                                        judging)
        self._decider = Decider(judge, settings.take(Deciding), first)
        self._grounding = Grounding(self._decider, settings.conversation_grounding)
        self._correcting = None if settings.fix_mode != "correct" else Correcting(
            make_corrector(settings.corrector, judge, settings.llm_kwargs, judging),
            self._decider)
        corrector = None if self._correcting is None else self._correcting.corrector
        refuse_unused(judging, judge, first, corrector if corrector is not judge else None)
        self._judges = tuple(dict.fromkeys(backend for backend in (judge, first, corrector)
                                           if backend is not None))
        self._defaults, self._reading = settings.take(Defaults), settings.take(Reading)
        self._retrieving, self._reporting = settings.take(Retrieving), settings.take(Reporting)

    @property
    def judge(self) -> Any:
        """The judge as ``llm_callable`` made it: a judge object of the user's as given."""
        return self._judge

    @property
    def settings(self) -> Settings:
        return self._settings

    def warm_up(self, metadata: dict[str, Any] | None = None) -> dict[str, float]:
        """Load now what a process's first validation would otherwise load: the sentence
        splitter (and, with ``language="auto"``, the language identifier), the search
        libraries, the embedding model, and what each judge reads with (the rules, a local
        model, the tokenizer that counts a callable's tokens), and the rules that conversation
        grounding reads with. No judge is called. Call it once at
        start-up (a server, a worker) so that no request pays for it. Returns the seconds
        each step took, by name (about 0 for what was already loaded).

        ``metadata``, as a validation is given it (``{"sources": [...]}``, with its chunking
        keys or ``embed_function``): the sources' index is built now too (or loaded from
        ``index_dir``), so that no request waits for a large source to be embedded."""
        from .retrieval.index.bm25 import LexicalIndex

        def splitting() -> None:
            reader.read("It opened in 1900. It is tall.", None, self._reading)
            load_identifier(self._settings.language)

        steps: list[tuple[str, Callable[[], object]]] = [
            ("sentence splitting", splitting),
            ("the search libraries (FAISS, BM25)",
             lambda: (importlib.import_module("faiss"), LexicalIndex.build(["warm up"]))),
            (f"the embedding model {self._settings.embedding_model}",
             lambda: self._embedder.embed(["warm up"])),
            *((f"the judge {judge.name}", judge.ready) for judge in self._judges),
            *([("the rules (conversation grounding)", self._grounding.ready)]
              if self._grounding.on else []),
            *([("the index of the sources", lambda: retriever_for(
                read_request("", metadata, self._defaults), self._retrieving,
                self._embedder).build())] if metadata is not None else [])]
        took = {}
        for name, step in steps:
            started = time.perf_counter()
            step()
            took[name] = round(time.perf_counter() - started, 3)
        return took

    def _chunking_function(self, chunk: str) -> list[str]:
        return stream_chunks(chunk, self._settings.language)

    def check(self, value: Any, metadata: dict[str, Any] | None = None) -> Report:
        """What ``validate`` finds, typed: each sentence's result and the summary, whatever
        ``on_fail`` says. ``report.metadata()`` is the result metadata ``validate`` gives.
        The validation run to its end on the process's validation loop, from any thread."""
        with warnings_to_caller():
            return run(self._validation(value, metadata))

    async def acheck(self, value: Any, metadata: dict[str, Any] | None = None) -> Report:
        """``check``, awaited from any event loop: the validation runs on the process's
        validation loop (where LiteLLM keeps its clients; a judge of the user's that is async
        code runs on a loop of its own)."""
        if on_the_validation_loop():
            return await self._validation(value, metadata)
        with warnings_to_caller():
            return await asyncio.wrap_future(submit(self._validation(value, metadata)))

    async def _validation(self, value: Any, metadata: dict[str, Any] | None) -> Report:
        """The validation; what it raises reaches the caller without a credential in it."""
        try:
            return await self._stages(value, metadata)
        except (asyncio.CancelledError, GeneratorExit):  # how coroutines end: as they are
            raise
        except Exception as error:
            scrub_raised(error)
            raise
        except BaseException as error:  # SystemExit and the like: a user's code raised it
            raise Raised(f"code of yours that the validation ran raised {type(error).__name__}"
                         f"{f'({error})' if str(error) else ''}: that fails the validation, "
                         "not the process (a judge must return a reply or raise an Exception)"
                         ) from error

    async def _stages(self, value: Any, metadata: dict[str, Any] | None) -> Report:
        """Each stage once, in order. Judge calls are awaited on the running loop, the stages
        that compute run in the process's bounded pool, and no thread is held while a call
        waits for its reply."""
        decider = self._decider
        async with self._runner.validation() as scope:
            with warnings_to_caller(), usage.counting() as meter:
                request, read, retriever = await offload(self._read, value, metadata)
                claims = await decider.claims(read, request, scope)
                evidence = retriever.find(claims)
                decided = await decider.decide(claims, evidence, request, scope)
                decided = await self._grounding.ground(claims, decided, retriever, request,
                                                       scope)
                read = await decider.cite(read, claims, decided.verdicts, retriever, request,
                                          scope)
                report = await offload(aggregate, request, read, claims, decided, evidence,
                                       self._reporting)
                corrections = ({} if self._correcting is None else
                               await self._correcting.corrections(report, request, read, scope))
                return replace(fix(report, request, self._reporting, corrections),
                               usage=meter.total)

    def _read(self, value: Any, metadata: dict[str, Any] | None
              ) -> tuple[Request, list[ReadSentence], Retriever]:
        """The request read, its sentences, and the retriever of its sources."""
        request = read_request(value, metadata, self._defaults)
        read = reader.read(request.value, request.question, self._reading)
        self._settings.check_sentence_count(len(read))
        return request, read, retriever_for(request, self._retrieving, self._embedder)

    def _validate(self, value: Any, metadata: dict[str, Any] | None) -> ValidationResult:
        report = self.check(value, metadata)
        traces.record(report)  # on Guardrails' validator span, in this context
        return _guardrails_result(report, metadata, self._settings.on_fail)

    async def async_validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        """What ``AsyncGuard`` (and a synchronous ``Guard``, on a loop it makes per thread)
        awaits: ``acheck``'s report as the Guardrails result."""
        report = await self.acheck(value, metadata)
        traces.record(report)
        return _guardrails_result(report, metadata, self._settings.on_fail)


def _first_judge(first_judge: object, settings: JudgeSettings) -> Dressed:
    """The cheaper judge asked first; a bad one is refused under its own name."""
    try:
        return build(first_judge, None, settings)
    except (ValueError, ConfigurationError) as error:
        raise type(error)(f"first_judge: {error}") from None


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
        error_message=report.explain(evidence=on_fail == "reask", fixing=on_fail == "fix"),
        fix_value=report.fixed,
        error_spans=[ErrorSpan(start=r.sentence.start, end=r.sentence.end, reason=r.summary())
                     for r in failing],
    )
