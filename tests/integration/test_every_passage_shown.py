"""Sources of no more passages than a claim is shown (``top_k``) are not embedded by the default
model: every claim is shown all of them, ranked by their words; what the judge is shown and
its verdicts are those of the embedded search. A model or function the user chose is used
whatever the sources, and a search that shows fewer passages embeds the same sources."""

import json
import subprocess
import sys

import pytest
from conftest import REPO, ScriptedJudge, ToyEmbedder

from provenance_guard import ProvenanceLLM
from provenance_guard.retrieval.index import INDEX_CACHE, SourceIndex
from provenance_guard.types import Chunk

SOURCES = [
    "The Louvre is the most visited museum in the world. It houses the Mona Lisa.",
    "The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall.",
    "Mount Everest is the highest mountain above sea level. It is in the Himalayas.",
]
TEXT = "The Eiffel Tower was finished in 1889. Everest is in the Himalayas."


def shown(result, sentence=0):
    return [(e["source"], e["similarity"]) for e in result.metadata["sentences"][sentence]["evidence"]]


def run(top_k=3, judge=None, **metadata):
    judge = judge or ScriptedJudge(rule=lambda statement, passages: True)
    INDEX_CACHE.clear()
    before = INDEX_CACHE.embedded_chunks
    result = ProvenanceLLM(llm_callable=judge, top_k=top_k).validate(
        TEXT, {"sources": SOURCES, **metadata})
    return result, INDEX_CACHE.embedded_chunks - before


def test_every_passage_is_shown_best_matching_words_first_and_nothing_is_embedded():
    result, embedded = run()
    assert embedded == 0
    assert shown(result, 0) == [(1, None), (0, None), (2, None)]  # "Eiffel", "1889": source 2
    assert shown(result, 1) == [(2, None), (0, None), (1, None)]  # "Everest", "Himalayas"


def test_the_judge_is_shown_the_same_passages_as_when_they_are_embedded():
    seen = {}

    def recording(name):
        def judge(prompt):
            seen.setdefault(name, []).append(prompt)
            return '{"verdicts": [{"id": 1, "verdict": "supported"}, {"id": 2, "verdict": "supported"}]}'
        return judge

    words, _ = run(top_k=3, judge=recording("words"))
    embedded, count = run(top_k=3, judge=recording("embedded"), embed_function=ToyEmbedder())
    assert count == len(SOURCES)
    for source in SOURCES:
        assert seen["words"][0].count(source) == seen["embedded"][0].count(source) == 1
    assert words.outcome == embedded.outcome == "pass"
    assert {s for s, _ in shown(words)} == {s for s, _ in shown(embedded)} == {0, 1, 2}
    assert all(similarity is not None for _, similarity in shown(embedded))


def test_fewer_shown_than_the_sources_hold_embeds_them_and_ranks_by_meaning():
    result, embedded = run(top_k=3)
    assert embedded == 0
    narrower = ProvenanceLLM(llm_callable=ScriptedJudge(rule=lambda s, p: True), top_k=1)
    before = INDEX_CACHE.embedded_chunks
    result = narrower.validate(TEXT, {"sources": SOURCES})  # the same sources, cached unembedded
    assert INDEX_CACHE.embedded_chunks - before == len(SOURCES)
    [(source, similarity)] = shown(result)
    assert source == 1 and similarity > 0.5


def test_a_claim_citing_a_source_is_shown_that_source_only():
    result = ProvenanceLLM(llm_callable=ScriptedJudge(rule=lambda s, p: True), top_k=3,
                           citations="required").validate(
        "Everest is in the Himalayas [1].", {"sources": SOURCES})
    assert shown(result) == [(0, None)]


def test_the_default_model_by_its_other_name_is_the_default():
    """(A model the user chose is always loaded and run: test_bad_input's misspelt model is
    refused over a single passage.)"""
    result, embedded = run(embedding_model="sentence-transformers/all-MiniLM-L6-v2")
    assert embedded == 0 and shown(result, 0)[0] == (1, None)


def test_an_index_without_vectors_refuses_a_search_it_cannot_rank():
    from provenance_guard.retrieval.index.bm25 import LexicalIndex

    chunks = [Chunk(t, 0, len(t), i) for i, t in enumerate(["a red fox", "a blue whale"])]
    index = SourceIndex(chunks, None, lexical=LexicalIndex.build([c.text for c in chunks]))
    assert not index.embedded
    assert index.hits(None, 2, None, ["whale"]) == [[(1, None), (0, None)]]
    with pytest.raises(ValueError, match="2 passages to show, more than k=1"):
        index.hits(None, 1, None, ["whale"])
    with pytest.raises(ValueError, match="needs their vectors"):
        SourceIndex(chunks, None)


FIRST = """
import json, sys, time
started = time.perf_counter()
from provenance_guard import ProvenanceLLM
validator = ProvenanceLLM(llm_callable=lambda prompt: '{"verdict": "supported"}', batch_size=1)
result = validator.validate("The Eiffel Tower was finished in 1889.", {"sources": %r})
print(json.dumps({"passed": result.outcome == "pass",
                  "torch": "torch" in sys.modules,
                  "sentence_transformers": "sentence_transformers" in sys.modules}))
"""


@pytest.mark.slow
def test_a_first_validation_over_few_passages_loads_no_embedding_model():
    """A fresh process: the first validation over sources a claim is shown whole never imports
    torch or sentence-transformers; over more sources it does (the test can fail)."""
    def first(sources):
        done = subprocess.run([sys.executable, "-c", FIRST % (sources,)], capture_output=True,
                              text=True, timeout=300, cwd=REPO)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    assert first(SOURCES) == {"passed": True, "torch": False, "sentence_transformers": False}
    many = SOURCES + [f"Source {n} is about something else." for n in range(4)]
    assert first(many) == {"passed": True, "torch": True, "sentence_transformers": True}
