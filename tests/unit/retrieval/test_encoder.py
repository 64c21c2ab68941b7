"""The default embedder's encodes: one at a time per model, and the texts of callers that
arrive while one runs are encoded together in the next call, each caller getting its own rows
(or the failure of the call that carried its texts)."""

import threading
import time

import numpy as np

from provenance_guard.retrieval.embedding import _Encoder


def vectors_of(texts: list[str]) -> np.ndarray:
    """A row per text that tells the text: its length and its first letter's code."""
    return np.array([[len(t), ord(t[0])] for t in texts], dtype=np.float32)


def texts_of(caller: int) -> list[str]:
    return [f"{chr(97 + caller)}{'x' * n}" for n in range(caller + 1)]


def run_callers(count: int, later) -> tuple[dict, dict, list]:
    """``count`` callers of one encoder. The first call holds the model until every other
    caller waits behind it, then encodes; each later call's texts go to ``later``."""
    encoder, release, calls = _Encoder(), threading.Event(), []
    results, errors = {}, {}

    def encode(texts):
        calls.append(texts)
        if len(calls) == 1:
            release.wait(10)
            return vectors_of(texts)
        return later(texts)

    def call(i):
        try:
            results[i] = encoder.encode(texts_of(i), encode)
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
    return results, errors, calls


def test_callers_that_arrive_during_an_encode_share_the_next_and_get_their_own_rows():
    results, errors, calls = run_callers(8, vectors_of)
    assert not errors and len(calls) == 2  # the first alone, the seven others together
    assert len(calls[1]) == sum(range(2, 9))
    for i, rows in results.items():
        assert np.array_equal(rows, vectors_of(texts_of(i)))


def test_a_failed_encode_fails_every_caller_whose_texts_it_carried_and_no_other():
    def fail(texts):
        raise RuntimeError("the model failed")

    results, errors, _ = run_callers(4, fail)
    assert list(results) == [0] and sorted(errors) == [1, 2, 3]
    assert all("the model failed" in str(e) for e in errors.values())


def test_every_encode_runs_on_one_thread_whoever_calls():
    """Encodes run from whichever caller's turn it was left torch's buffers in many threads'
    malloc arenas, and a long-running process grew by hundreds of megabytes."""
    from concurrent.futures import ThreadPoolExecutor

    encoder, ran_on = _Encoder(), []

    def encode(texts):
        ran_on.append(threading.current_thread())
        time.sleep(0.002)  # long enough for callers to meet
        return vectors_of(texts)

    with ThreadPoolExecutor(8) as callers:
        rows = list(callers.map(lambda i: encoder.encode(texts_of(i % 5), encode), range(40)))
    assert all(np.array_equal(r, vectors_of(texts_of(i % 5))) for i, r in enumerate(rows))
    assert len(set(ran_on)) == 1 and ran_on[0].name.startswith("provenance-encode")
