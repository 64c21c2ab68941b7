"""ProvenanceLLM used directly, outside a Guard, as with the hub validator."""

import copy
import threading

import pytest
from conftest import BAD, GOOD, SOURCES, ScriptedJudge, ToyEmbedder, toy_metadata
from guardrails.validator_base import FailResult, PassResult

from provenance_guard import ProvenanceLLM
from provenance_guard.retrieval.index import INDEX_CACHE


def metadata(embedder, **extra):
    return toy_metadata(embed_function=embedder, **extra)


def test_supported_text_passes(scripted):
    result = ProvenanceLLM(llm_callable=scripted).validate(
        f"{GOOD} It was finished in 1889.", toy_metadata())
    assert isinstance(result, PassResult)
    # the judge is asked what the sentence claims in its place: "It" is the tower
    assert sorted(scripted.statements) == sorted([GOOD, "[The Eiffel Tower] was finished in "
                                                  "1889."])


def test_unsupported_sentence_fails_with_message_fix_and_span(scripted):
    text = f"{GOOD} {BAD} It is 330 metres tall."
    result = ProvenanceLLM(llm_callable=scripted).validate(text, toy_metadata())
    assert isinstance(result, FailResult)
    assert BAD in result.error_message and GOOD not in result.error_message
    assert result.fix_value == f"{GOOD} It is 330 metres tall."
    [span] = result.error_spans
    assert text[span.start:span.end] == BAD
    assert "unsupported" in span.reason


def test_evidence_comes_from_the_faiss_index(scripted):
    result = ProvenanceLLM(llm_callable=scripted, top_k=2, evidence_window=0).validate(
        "It houses the Mona Lisa.", toy_metadata())
    [sentence] = result.metadata["sentences"]
    best = sentence["evidence"][0]
    assert best["text"] == "It houses the Mona Lisa." and best["source"] == 1
    assert SOURCES[1][best["start"]:best["end"]] == best["text"]
    assert len(sentence["evidence"]) == 2
    assert best["similarity"] >= sentence["evidence"][1]["similarity"]


def test_full_mode_judges_the_whole_text_once(scripted):
    text = f"{GOOD} {BAD}"
    result = ProvenanceLLM(validation_method="full", llm_callable=scripted).validate(
        text, toy_metadata())
    assert scripted.statements == [text]
    assert isinstance(result, FailResult)
    assert result.error_spans[0].start == 0 and result.error_spans[0].end == len(text)


@pytest.mark.parametrize("text,outcome", [(BAD, "fail"), (GOOD, "pass")])
def test_callers_metadata_is_not_changed(scripted, text, outcome):
    given = toy_metadata()
    before = copy.copy(given)
    result = ProvenanceLLM(llm_callable=scripted).validate(text, given)
    assert result.outcome == outcome
    assert given == before and "sentences" not in given and "groundedness" not in given
    assert result.metadata is not given
    assert result.metadata["sources"] == SOURCES  # Guardrails hands it to the next validator


def test_empty_output_passes_without_judging(scripted):
    for text in ("", "   \n"):
        assert isinstance(ProvenanceLLM(llm_callable=scripted).validate(
            text, toy_metadata()), PassResult)
    assert scripted.statements == []


def test_empty_sources_fail_every_sentence_and_say_why(scripted):
    result = ProvenanceLLM(llm_callable=scripted).validate(f"{GOOD} {BAD}", {"sources": []})
    assert isinstance(result, FailResult)
    assert "No sources were given" in result.error_message
    assert len(result.error_spans) == 2
    assert scripted.statements == []  # nothing to judge against: no judge call


@pytest.mark.parametrize("reply,pass_on_invalid,passes", [
    ("I am not sure.", False, False), ("I am not sure.", True, True),
])
def test_unreadable_verdict_follows_pass_on_invalid(reply, pass_on_invalid, passes):
    judge = ScriptedJudge(reply=reply)
    with pytest.warns(UserWarning, match="no readable verdict"):
        result = ProvenanceLLM(llm_callable=judge).validate(
            GOOD, toy_metadata(pass_on_invalid=pass_on_invalid))
    assert isinstance(result, PassResult) is passes
    assert result.metadata["sentences"][0]["decided_by"] == "fallback"


@pytest.mark.parametrize("returned", [
    ["It was finished in 1889.", "Paris."],
    [("It was finished in 1889.", 0.9), ("Paris.", 0.2)],
])
def test_query_function_strings_or_pairs(scripted, returned):
    calls = []

    def query_function(text, k):
        calls.append((text, k))
        return returned

    result = ProvenanceLLM(llm_callable=scripted, top_k=2).validate(
        "It was finished in 1889.", {"query_function": query_function})
    assert isinstance(result, PassResult)
    assert calls == [("It was finished in 1889.", 2)]


def test_sources_are_embedded_once_across_sentences_calls_and_instances(scripted):
    embedder = ToyEmbedder()
    text = f"{GOOD} It was finished in 1889. It houses the Mona Lisa."
    ProvenanceLLM(llm_callable=scripted).validate(text, metadata(embedder))
    # one call for the chunks, one batched call for all three sentences
    assert embedder.calls == 2 and embedder.texts_embedded == 7 + 3
    ProvenanceLLM(llm_callable=scripted).validate(text, metadata(embedder))
    assert embedder.calls == 3 and embedder.texts_embedded == 7 + 3 + 3  # sentences only
    changed = metadata(embedder, sources=SOURCES + ["A new source."])
    ProvenanceLLM(llm_callable=scripted).validate(text, changed)
    assert embedder.texts_embedded == 13 + 8 + 3  # new content: the index is rebuilt


def test_the_process_wide_index_cache_is_bounded():
    embedder = ToyEmbedder()
    validator = ProvenanceLLM(llm_callable=ScriptedJudge())
    for i in range(INDEX_CACHE.max_entries + 5):
        validator.validate(GOOD, {"sources": [f"source number {i}"], "embed_function": embedder})
    assert len(INDEX_CACHE) == INDEX_CACHE.max_entries


def test_judge_calls_run_concurrently_and_bounded():
    judge = ScriptedJudge(latency=0.2)
    text = " ".join(f"Sentence number {i} is here." for i in range(8))
    ProvenanceLLM(llm_callable=judge, max_concurrency=4, batch_size=1).validate(text,
                                                                             toy_metadata())
    assert judge.max_in_flight == 4  # sequential calls would never overlap


def test_identical_prompts_are_answered_from_the_cache():
    judge = ScriptedJudge()
    validator = ProvenanceLLM(llm_callable=judge)
    first = validator.validate(GOOD, toy_metadata())
    second = validator.validate(GOOD, toy_metadata())
    assert len(judge.prompts) == 1
    assert first.metadata["sentences"][0]["decided_by"] == "llm"
    assert second.metadata["sentences"][0]["decided_by"] == "cache"


def test_judge_is_chosen_once_at_init(monkeypatch):
    from provenance_guard import CallableJudge, LiteLLMJudge, LocalJudge

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # without one, building it raises
    assert isinstance(ProvenanceLLM(llm_callable="gpt-4o-mini").judge, LiteLLMJudge)
    assert isinstance(ProvenanceLLM(llm_callable=lambda p: "yes").judge, CallableJudge)
    local = LocalJudge()
    assert ProvenanceLLM(llm_callable=local).judge is local


def test_one_index_build_when_threads_race(scripted):
    embedder = ToyEmbedder()
    validator = ProvenanceLLM(llm_callable=scripted)
    threads = [threading.Thread(target=validator.validate, args=(GOOD, metadata(embedder)))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert embedder.texts_embedded == 7 + 8  # chunks once, then one sentence per call


def test_hub_positional_arguments_and_registration():
    from guardrails.validator_base import validators_registry

    validator = ProvenanceLLM("full", lambda p: "yes", 2, "noop")
    assert validator.settings.validation_method == "full" and validator.settings.top_k == 2
    assert validators_registry["provenance-guard/provenance_llm"] is ProvenanceLLM
    # Guardrails rebuilds validators from their kwargs: every init argument is kept.
    assert {"validation_method", "llm_callable", "top_k", "max_concurrency"} <= set(
        validator.get_args())


def test_empty_output_embeds_no_sources(scripted):
    embedder = ToyEmbedder()
    result = ProvenanceLLM(llm_callable=scripted).validate("  ", metadata(embedder))
    assert isinstance(result, PassResult) and embedder.calls == 0
