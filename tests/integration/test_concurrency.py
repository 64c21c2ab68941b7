"""Many callers at once: 32 threads through one Guard and through separate validators, and
AsyncGuard with 100 concurrent tasks. Results must equal a sequential run; caches must stay
consistent and bounded."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from conftest import SOURCES, ScriptedJudge, ToyEmbedder, toy_metadata
from guardrails import AsyncGuard, Guard

from provenance_guard import ProvenanceLLM
from provenance_guard.judges.reply_cache import ReplyCache
from provenance_guard.request import Chunking
from provenance_guard.retrieval.chunking import chunk_sources
from provenance_guard.retrieval.index import INDEX_CACHE

SENTENCES = [
    "The Eiffel Tower is in Paris.", "It was finished in 1889.", "It is 330 metres tall.",
    "The Louvre is the most visited museum in the world.", "It houses the Mona Lisa.",
    "Mount Everest is in the Himalayas.", "The Eiffel Tower was painted gold in 2024.",
    "The Louvre was closed for ten years.", "Everest is 2,000 metres tall.",
]
TEXTS = [" ".join(SENTENCES[(i + j) % len(SENTENCES)] for j in range(1 + i % 4)) for i in range(100)]
EMBEDDER = ToyEmbedder()  # one embedder: the index is shared by every call


def meta():
    return toy_metadata(embed_function=EMBEDDER)


def fixing_guard(judge):
    return Guard().use(ProvenanceLLM(llm_callable=judge, on_fail="fix"))


def summary(result):
    return result.outcome, [(s["text"], s["verdict"]) for s in result.metadata["sentences"]]


def test_32_threads_through_one_guard_match_a_sequential_run():
    guard = fixing_guard(ScriptedJudge(latency=0.005))
    texts = TEXTS[:64]
    sequential = [guard.validate(t, metadata=meta()).validated_output for t in texts]
    INDEX_CACHE.clear()
    fresh = fixing_guard(ScriptedJudge(latency=0.005))
    with ThreadPoolExecutor(max_workers=32) as pool:
        concurrent = list(pool.map(lambda t: fresh.validate(t, metadata=meta()).validated_output,
                                   texts))
    assert concurrent == sequential
    assert any(out != text for out, text in zip(concurrent, texts, strict=True))  # some fixed


def test_32_threads_with_separate_validators_match_and_build_the_index_once():
    sequential = [summary(ProvenanceLLM(llm_callable=ScriptedJudge()).validate(t, meta()))
                  for t in TEXTS[:64]]
    INDEX_CACHE.clear()
    before = INDEX_CACHE.embedded_chunks
    with ThreadPoolExecutor(max_workers=32) as pool:
        concurrent = list(pool.map(
            lambda t: summary(ProvenanceLLM(llm_callable=ScriptedJudge(latency=0.005)).validate(
                t, meta())), TEXTS[:64]))
    assert concurrent == sequential
    chunks = len(chunk_sources(SOURCES, Chunking("sentence", 1, 0)))
    assert chunks == 7 and INDEX_CACHE.embedded_chunks - before == chunks  # built once, not once per thread


def test_async_guard_with_100_concurrent_tasks_matches_a_sequential_run():
    one_by_one = fixing_guard(ScriptedJudge(latency=0.002))  # one Guard: building one is slow
    sequential = [one_by_one.validate(t, metadata=meta()).validated_output for t in TEXTS]
    guard = AsyncGuard().use(ProvenanceLLM(llm_callable=ScriptedJudge(latency=0.002),
                                           on_fail="fix"))

    async def run_all():
        outcomes = await asyncio.gather(*(guard.validate(t, metadata=meta()) for t in TEXTS))
        return [o.validated_output for o in outcomes]

    assert asyncio.run(run_all()) == sequential


def test_the_reply_cache_is_bounded_and_consistent_under_threads():
    cache = ReplyCache(max_entries=50)

    def work(n):
        for i in range(200):
            key = f"prompt {n * 1000 + i}"
            cache.put(key, key.upper())
            found = cache.get(key)
            assert found is None or found == key.upper()

    with ThreadPoolExecutor(max_workers=32) as pool:
        list(pool.map(work, range(32)))
    assert len(cache) <= 50


def test_async_guard_validations_progress_beyond_asyncios_default_executor():
    # asyncio's default executor has min(32, cores + 4) threads: 6 on 2 cores. 16 validations
    # awaited together must each have their judge call in flight at once (a barrier the judge
    # waits at proves it: it opens only when all 16 calls have arrived).
    arrived = threading.Barrier(16, timeout=30)

    def judge(prompt):
        arrived.wait()
        return '{"verdict": "supported"}'

    guard = AsyncGuard().use(ProvenanceLLM(llm_callable=judge, on_fail="noop"))

    async def run_all():
        return await asyncio.gather(*(guard.validate(f"Fact number {n} is true.",
                                                     metadata=toy_metadata()) for n in range(16)))

    outcomes = asyncio.run(run_all())
    assert all(outcome.validation_passed for outcome in outcomes)
