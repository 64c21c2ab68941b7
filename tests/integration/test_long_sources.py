"""A long source is searched whole (indexed as windows that fit the
embedder) and the judge is shown a bounded amount of evidence, the cut reported."""

import json

import numpy as np
import pytest
from conftest import ScriptedJudge, ToyEmbedder, passages_of

from provenance_guard import ProvenanceLLM
from provenance_guard.request import Chunking
from provenance_guard.retrieval.chunking import WINDOW_CHARS, passages

FACT = "The Zorvath bridge was painted teal in 1931."
TOPICS = ["river", "harbour", "orchard", "library", "foundry", "glacier", "market", "chapel",
          "vineyard", "quarry", "lighthouse", "meadow", "tannery", "observatory", "canal"]


def filler(count: int, offset: int = 0) -> str:
    """``count`` distinct sentences about other things (no word of FACT but "the"/"was")."""
    return " ".join(f"Record {offset + i} notes that the {TOPICS[i % len(TOPICS)]} near "
                    f"village {(offset + i) * 7 % 101} held {i % 13 + 2} carts of grain."
                    for i in range(count))


def long_source(fact_at: int) -> str:
    head = filler(fact_at // 75 + 1)[:fact_at]
    head = head[:head.rfind(". ") + 1]  # end on a sentence
    return f"{head} {FACT} {filler(120, offset=500)}"


def test_a_long_chunk_is_indexed_as_windows_that_fit_and_cover_it():
    source = long_source(5_296)
    found, parents = passages([source, "Short."], Chunking())
    windows = [p for p in found if p.source == 0]
    assert len(windows) > 5 and all(len(p.text) <= WINDOW_CHARS for p in found)
    assert all(source[p.start:p.end] == p.text for p in windows)
    assert all(parent == (0, len(source)) for p, parent in zip(found, parents, strict=True)
               if p.source == 0)
    # nothing is lost between windows but spaces
    gaps = [source[a.end:b.start] for a, b in zip(windows, windows[1:], strict=False)]
    assert all(not gap.strip() for gap in gaps)
    assert sum(FACT in p.text for p in windows) == 1


def test_one_sentence_longer_than_a_window_is_cut_at_spaces():
    sentence = "word " * 600 + "end."
    found, _ = passages([sentence], Chunking())
    assert len(found) == 4 and all(len(p.text) <= WINDOW_CHARS for p in found)
    assert " ".join(p.text for p in found) == sentence  # cut only at spaces


@pytest.mark.slow
@pytest.mark.parametrize("retrieval", ["dense", "hybrid"])
@pytest.mark.parametrize("fact_at", [5_296, 40_000])
def test_a_fact_deep_in_a_long_source_is_found_with_the_default_embedder(retrieval, fact_at):
    """The failure this guards against: with chunk_strategy="full", a fact at character 5,296 of a source
    was never retrieved (only the start of each source was embedded)."""
    judge = ScriptedJudge(rule=lambda statement, passages: FACT in passages)
    sources = [filler(60, offset=900), long_source(fact_at), filler(60, offset=2000)]
    result = ProvenanceLLM(llm_callable=judge, retrieval=retrieval, top_k=1).validate(
        "The Zorvath bridge was painted teal in 1931.", {"sources": sources})
    assert result.outcome == "pass", result.metadata["sentences"][0]
    [evidence] = result.metadata["sentences"][0]["evidence"]
    assert evidence["source"] == 1 and FACT in evidence["text"]
    assert evidence["start"] <= sources[1].index(FACT) < evidence["end"]
    assert sources[1][evidence["start"]:evidence["end"]] == evidence["text"]
    assert evidence["cut"] and result.metadata["sentences"][0]["evidence_cut"]
    assert len(passages_of(judge.prompts[0])) < 3 * WINDOW_CHARS  # a window with context


@pytest.mark.parametrize("batch_size", [1, 2])
def test_a_5_mb_source_gives_a_bounded_judge_prompt_and_the_cut_is_reported(batch_size):
    """The failure this guards against: a 4.9 MB source became a 4.9-million-character judge prompt."""
    source = long_source(2_500_000)
    source = (source + " " + filler(70_000, offset=10_000))[:5_000_000]
    assert len(source) == 5_000_000 and FACT in source
    judge = ScriptedJudge(rule=lambda statement, passages: FACT in passages)
    validator = ProvenanceLLM(llm_callable=judge, top_k=3, batch_size=batch_size,
                              max_source_chars=None)  # above the default limit
    result = validator.validate(f"{FACT} The canal held carts of grain.",
                                {"sources": [source], "embed_function": ToyEmbedder()})
    statements = batch_size  # per call: one alone, or both in one call
    assert len(judge.prompts) == 2 // statements
    bound = validator.settings.max_evidence_chars
    assert bound == 12_000
    for prompt in judge.prompts:
        assert len(passages_of(prompt)) <= statements * (bound + 20)  # the "[n] " markers
        assert len(prompt) < statements * bound + 4_000  # the instructions around them
    first, second = result.metadata["sentences"]
    assert first["verdict"] == "supported" and FACT in first["evidence"][0]["text"]
    assert first["evidence_cut"] and second["evidence_cut"]
    assert all(e["cut"] for e in first["evidence"])
    assert result.metadata["groundedness"]["evidence_cut"] == 2
    assert result.metadata["groundedness"]["max_evidence_chars"] == 12_000


@pytest.mark.parametrize("bound", [300, 2_000])
def test_max_evidence_chars_bounds_what_the_judge_sees(bound):
    source = long_source(3_000)
    judge = ScriptedJudge(rule=lambda statement, passages: True)
    ProvenanceLLM(llm_callable=judge, top_k=5, max_evidence_chars=bound).validate(
        "Record 12 notes the grain.", {"sources": [source, filler(40, 70)],
                                       "embed_function": ToyEmbedder()})
    texts = [line.split("] ", 1)[1] for line in passages_of(judge.prompts[0]).splitlines()]
    assert len(texts) == 5 and sum(map(len, texts)) <= bound


def test_short_sources_are_given_whole_and_not_reported_cut():
    sources = ["The Eiffel Tower is in Paris. It was finished in 1889.", "Other text."]
    judge = ScriptedJudge()
    result = ProvenanceLLM(llm_callable=judge).validate(
        "The Eiffel Tower is in Paris.", {"sources": sources, "embed_function": ToyEmbedder()})
    assert result.metadata["sentences"][0]["evidence"][0]["text"] == sources[0]
    assert result.metadata["groundedness"]["evidence_cut"] == 0
    assert not result.metadata["sentences"][0]["evidence_cut"]


def test_query_function_passages_are_bounded_too():
    def query(text, k):
        return ["x" * 50_000, "y" * 10]

    judge = ScriptedJudge(rule=lambda statement, passages: True)
    result = ProvenanceLLM(llm_callable=judge, max_evidence_chars=1_000).validate(
        "Anything.", {"query_function": query})
    evidence = result.metadata["sentences"][0]["evidence"]
    assert [len(e["text"]) for e in evidence] == [500, 10]
    assert [e["cut"] for e in evidence] == [True, False]
    assert result.metadata["groundedness"]["evidence_cut"] == 1


@pytest.mark.parametrize("arguments,named", [
    ({"max_evidence_chars": 0}, "max_evidence_chars"),
    ({"max_evidence_chars": "12000"}, "max_evidence_chars"),
    ({"max_evidence_chars": 12.5}, "max_evidence_chars"),
    ({"retrieval": "sparse"}, "retrieval"),
    ({"retrieval": None}, "retrieval"),
    ({"evidence_window": -1}, "evidence_window"),
    ({"evidence_window": True}, "evidence_window"),
])
def test_bad_retrieval_settings_are_refused_naming_them(arguments, named):
    with pytest.raises(ValueError, match=named):
        ProvenanceLLM(llm_callable="local", **arguments)


def test_no_bound_is_allowed_when_asked_for_and_serialised():
    validator = ProvenanceLLM(llm_callable="local", max_evidence_chars=None, retrieval="dense")
    assert validator.settings.max_evidence_chars is None
    assert json.loads(json.dumps(validator.settings.arguments()))["retrieval"] == "dense"
    assert np.isfinite(WINDOW_CHARS)


def test_a_source_at_the_limit_is_cut_off_by_the_deadline_and_fills_the_cache_after():
    """The deadline bounds the whole validation, the embedding of the sources included: with a
    source of ``max_source_chars`` and a deadline of a few seconds, the validation returns by
    the deadline and its margin, each sentence undecided with a reason that says what was not
    finished (no judge was asked); the build it abandoned runs on and fills the index cache,
    so a later validation of the same source is judged."""
    import time

    from provenance_guard.retrieval.index import INDEX_CACHE
    from provenance_guard.runtime.deadline import ABANDON_AFTER

    validator = ProvenanceLLM(llm_callable="local", deadline=3)
    limit = validator.settings.max_source_chars
    source = (long_source(limit // 2) + " " + filler(limit // 60, offset=20_000))[:limit]
    assert len(source) == limit and FACT in source
    text = f"{FACT} The canal held carts of grain."
    started = time.monotonic()  # the machine's pace: the same validation of a small source
    validator.check(text, {"sources": [filler(30)]})
    own_work = time.monotonic() - started
    embedded = INDEX_CACHE.embedded_chunks
    late = ("no verdict before the validation's deadline (the sources were still being chunked "
            "and embedded)")
    with pytest.warns(UserWarning, match=r"2 sentence\(s\) had no verdict before the "
                      r"validation's deadline \(the sources were still being chunked"):
        started = time.monotonic()
        report = validator.check(text, {"sources": [source]})
        took = time.monotonic() - started
    assert took <= 3 + ABANDON_AFTER + own_work + 1.0, (took, own_work)
    assert [r.verdict.reason for r in report.sentences] == [late, late]
    ends = time.monotonic() + 900  # the abandoned build, still running
    while INDEX_CACHE.embedded_chunks == embedded and time.monotonic() < ends:
        time.sleep(1)
    assert INDEX_CACHE.embedded_chunks > embedded
    again = validator.check(text, {"sources": [source]})
    assert str(again.sentences[0].label) == "supported", again.sentences[0].verdict.reason
