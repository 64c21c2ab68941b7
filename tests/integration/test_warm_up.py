"""``warm_up()`` loads, once, what a process's first validation would otherwise load, and calls
no judge: after it, the first validation imports none of the heavy modules."""

import json
import subprocess
import sys

import pytest
from conftest import REPO

SCRIPT = """
import json, sys
from provenance_guard import ProvenanceLLM
calls = []
def judge(prompt):
    calls.append(prompt)
    return '{"verdicts": [' + ", ".join('{"id": %d, "verdict": "supported"}' % (n + 1)
                                        for n in range(prompt.count("BEGIN STATEMENT "))) + ']}'
validator = ProvenanceLLM(llm_callable=judge if sys.argv[1] == "callable" else sys.argv[1])
took = validator.warm_up() if sys.argv[2] == "warm" else {}
called = len(calls)
before = set(sys.modules)
# a paragraph of names and dates, with few common English words: the language identifier reads it
sources = ["The Eiffel Tower is in Paris. It was finished in 1889.",
           "Arthur's Magazine (1844-1846) was an American literary periodical published in "
           "Philadelphia in the 19th century. Edited by T.S. Arthur, it featured work by Edgar "
           "A. Poe, J.H. Ingraham, Sarah Josepha Hale, Thomas G. Spear, and others."] + [
    "Source %d is about the town of Vell%d and its mill." % (n, n) for n in range(6)]
validator.validate("The Eiffel Tower was finished in 1889. It is in Paris.", {"sources": sources})
heavy = ("torch", "sentence_transformers", "tiktoken", "faiss", "bm25s", "pysbd",
         "snowballstemmer", "py3langid", "babel")
print(json.dumps({"took": took, "called_by_warm_up": called,
                  "loaded_by_the_first": sorted(m for m in set(sys.modules) - before
                                                if m.split(".")[0] in heavy and "." not in m)}))
"""


def first_validation(judge: str, warm: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, judge, "warm" if warm else "cold"],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("judge", ["callable", "local"])
def test_after_warm_up_the_first_validation_loads_nothing_heavy(judge):
    cold = first_validation(judge, warm=False)
    assert {"torch", "sentence_transformers", "faiss", "py3langid"} <= set(
        cold["loaded_by_the_first"])
    warm = first_validation(judge, warm=True)
    assert warm["loaded_by_the_first"] == [] and warm["called_by_warm_up"] == 0
    name = "CallableJudge" if judge == "callable" else "LocalJudge"
    assert list(warm["took"]) == ["sentence splitting", "the search libraries (FAISS, BM25)",
                                  "the embedding model all-MiniLM-L6-v2", f"the judge {name}",
                                  "the rules (conversation grounding)"]
    assert all(seconds >= 0 for seconds in warm["took"].values())


def test_warm_up_with_the_sources_builds_their_index_so_no_request_waits_for_it():
    from conftest import ToyEmbedder

    from provenance_guard import ProvenanceLLM
    from provenance_guard.retrieval.index import INDEX_CACHE

    INDEX_CACHE.clear()
    embedder = ToyEmbedder()
    sources = [f"Source {n} is about the town of Vell{n} and its mill, built in {1800 + n}."
               for n in range(40)]
    metadata = {"sources": sources, "embed_function": embedder, "chunk_strategy": "sentence"}
    validator = ProvenanceLLM(llm_callable="local", on_fail="noop")
    took = validator.warm_up(metadata)
    assert "the index of the sources" in took and embedder.texts_embedded >= len(sources)
    before = embedder.texts_embedded
    result = validator.validate("The mill of Vell3 was built in 1803.", metadata)
    assert len(result.metadata["sentences"]) == 1
    assert embedder.texts_embedded - before == 1  # the sentence alone: the index was built
    INDEX_CACHE.clear()
