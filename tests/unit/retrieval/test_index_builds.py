"""An index is built once per embedder, however the embedder is passed, and a large build
embeds its passages in slices of like length, each row back in its passage's place."""

import numpy as np
from conftest import ScriptedJudge, ToyEmbedder

from provenance_guard import ProvenanceLLM
from provenance_guard.retrieval.index import INDEX_CACHE
from provenance_guard.retrieval.index.cache import BUILD_SLICE, _embedded

SOURCES = ["The museum opened in 1901. It holds four thousand paintings.",
           "The bridge is 300 metres long. It was finished in 1932."]


class Model:
    """A user's embedding model object: its ``embed`` method is passed as ``embed_function``."""

    def __init__(self):
        self.toy = ToyEmbedder()

    def embed(self, texts):
        return self.toy(texts)


def validate(embed_function):
    ProvenanceLLM(llm_callable=ScriptedJudge(), on_fail="noop").validate(
        "The museum opened in 1901.", {"sources": SOURCES, "embed_function": embed_function})


def test_a_bound_method_passed_again_finds_its_index_built():
    INDEX_CACHE.clear()
    model = Model()
    validate(model.embed)  # ``model.embed`` is a new object at each lookup
    built = model.toy.texts_embedded
    validate(model.embed)
    assert model.toy.texts_embedded - built == 1  # only the claim: the sources' index was kept
    other = Model()
    validate(other.embed)  # another object's method is another embedder
    assert other.toy.texts_embedded > 1


class Recording:
    def __init__(self):
        self.calls: list[list[str]] = []

    def embed(self, texts):
        self.calls.append(list(texts))
        return np.array([[len(t), sum(map(ord, t))] for t in texts], dtype=np.float32)


def test_a_large_build_embeds_slices_of_like_length_in_the_passages_order():
    texts = [f"passage {i} " + "word " * ((i * 37) % 50) for i in range(3 * BUILD_SLICE + 5)]
    recording = Recording()
    vectors = _embedded(texts, recording)
    assert np.array_equal(vectors, Recording().embed(texts))  # each row is its own passage's
    assert len(recording.calls) == 4 and all(len(c) <= BUILD_SLICE for c in recording.calls)
    lengths = [len(t) for call in recording.calls for t in call]
    assert lengths == sorted(lengths)  # a slice is padded to its longest: like with like
