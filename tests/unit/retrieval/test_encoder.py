"""The default embedder's encodes: one at a time per model, and the texts of callers that
arrive while one runs are encoded together in the next call, each caller getting its own rows
(or the failure of the call that carried its texts)."""

import threading
import time

import numpy as np
import pytest

from provenance_guard.retrieval.embedding import _Encoder


def vectors_of(texts: list[str]) -> np.ndarray:
    """A row per text that tells the text: its length and its first letter's code."""
    return np.array([[len(t), ord(t[0])] for t in texts], dtype=np.float32)


def run_callers(encoder: _Encoder, encode, count: int) -> tuple[dict, dict]:
    """``count`` callers, the first holding the model until the others wait behind it."""
    results, errors = {}, {}

    def call(i):
        try:
            results[i] = encoder.encode([f"{chr(97 + i)}{'x' * n}" for n in range(i + 1)],
                                        encode)
        except RuntimeError as error:
            errors[i] = error

    first = threading.Thread(target=call, args=(0,))
    first.start()
    while not encoder._busy:
        time.sleep(0.001)
    others = [threading.Thread(target=call, args=(i,)) for i in range(1, count)]
    for thread in others:
        thread.start()
    while len(encoder._waiting) < count - 1:  # every other caller is waiting
        time.sleep(0.001)
    release.set()
    for thread in [first, *others]:
        thread.join()
    return results, errors


release = threading.Event()


@pytest.fixture(autouse=True)
def _reset():
    release.clear()


def test_callers_that_arrive_during_an_encode_share_the_next_and_get_their_own_rows():
    calls: list[list[str]] = []

    def encode(texts):
        calls.append(texts)
        if len(calls) == 1:
            release.wait(10)
        return vectors_of(texts)

    results, errors = run_callers(_Encoder(), encode, 8)
    assert not errors and len(calls) == 2  # the first alone, the seven others together
    assert len(calls[1]) == sum(range(2, 9))
    for i, rows in results.items():
        assert np.array_equal(rows, vectors_of([f"{chr(97 + i)}{'x' * n}" for n in range(i + 1)]))


def test_a_failed_encode_fails_every_caller_whose_texts_it_carried_and_no_other():
    calls: list[list[str]] = []

    def encode(texts):
        calls.append(texts)
        if len(calls) == 1:
            release.wait(10)
            return vectors_of(texts)
        raise RuntimeError("the model failed")

    results, errors = run_callers(_Encoder(), encode, 4)
    assert list(results) == [0] and sorted(errors) == [1, 2, 3]
    assert all("the model failed" in str(e) for e in errors.values())
