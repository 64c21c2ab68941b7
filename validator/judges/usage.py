"""What a validation's model calls consume: a transport returns what its response reported
(``Reported``), and the call layer (``calls.Outbound``), the writer of every call's account in
the meter (``add``), counts it into the validation that made the call, with the calls cut off,
failed and retried. The one other count, a reply caught on its control (``CAUGHT``), is the
control policy's: only it reads the control's verdict.

``counting()`` scopes one validation; every thread it starts runs in a copy of its context, so
a call anywhere in it adds to the same ``Meter``. A call outside any validation (a judge used on
its own) is not counted. Tokens come from the provider's usage when it reports them, and are
counted here with OpenAI's cl100k_base otherwise (from the copy LiteLLM ships: tiktoken would
download it); the price comes from LiteLLM's bundled table, offline.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ..types import Usage

CALLABLE_PRICE = "the price of a callable judge's model is not known"


class Meter:
    """A validation's running total. Thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._total = Usage()

    def add(self, usage: Usage) -> None:
        with self._lock:
            self._total = self._total + usage

    @property
    def total(self) -> Usage:
        with self._lock:
            return self._total


_METER: ContextVar[Meter | None] = ContextVar("provenance_meter", default=None)


@contextmanager
def counting() -> Iterator[Meter]:
    """The scope of one validation's count."""
    meter = Meter()
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


@dataclass(frozen=True)
class Reported:
    """What a call's response says it consumed, as a transport got it: the provider's token
    counts (None where it gave none: counted here), the model to price them by in LiteLLM's
    table (None: ``unpriced`` says why), and the requests the provider refused before this one
    (a reply schema it does not take: each counted as a failed call)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    model: str | None = None
    unpriced: str = CALLABLE_PRICE
    refused: int = 0


def reported(response: Any, model: str) -> Reported:
    """What a LiteLLM response reports of its tokens (LiteLLM gives 0 for a reply that
    reported none: no prompt of ours has 0 tokens, so that is read as none)."""
    counts = getattr(response, "usage", None)
    prompt_tokens = getattr(counts, "prompt_tokens", None)
    completion_tokens = getattr(counts, "completion_tokens", None)
    cached = getattr(getattr(counts, "prompt_tokens_details", None), "cached_tokens", None)
    if (not isinstance(prompt_tokens, int) or not isinstance(completion_tokens, int)
            or prompt_tokens <= 0):
        return Reported(model=model)
    return Reported(prompt_tokens, completion_tokens,
                    cached if isinstance(cached, int) and cached > 0 else None, model)


def spent(prompt: str, reply: str, said: Reported | None) -> Usage:
    """One answered call: its tokens as reported (counted here where they were not), priced
    where its model has a price."""
    said = said or Reported()
    refused = Usage(calls=said.refused, failed_calls=said.refused)
    prompt_tokens, completion_tokens, cached = (said.prompt_tokens, said.completion_tokens,
                                                said.cached_tokens)
    counted = 0
    if prompt_tokens is None or completion_tokens is None:
        prompt_tokens, completion_tokens, cached, counted = tokens(prompt), tokens(reply), None, 1
    if said.model is None:
        cost, unpriced = None, said.unpriced
    else:
        cost, unpriced = _price(said.model, prompt_tokens, completion_tokens, cached or 0)
    return refused + Usage(1, prompt_tokens, completion_tokens, cached, counted, cost, unpriced)


OBJECT_PRICE = "a judge object's model calls, tokens and price are its own"
# One call to a judge object of the user's: what its model consumed is its own.
OBJECT_CALL = Usage(calls=1, cost_usd=None, unpriced=OBJECT_PRICE)

CUT_OFF = "a call the deadline cut off did not report its tokens"
TIMED_OUT = "a call that timed out did not report its tokens"
RETRIED = Usage(retried_calls=1)  # the request just counted was a retry of a failed one
CAUGHT = Usage(caught_calls=1)  # a call whose reply called its control statement supported


def cut_off(prompt: str | None) -> Usage:
    """One call the validation's deadline cut off: the provider will not report its tokens to
    us, but may bill them. Its prompt is counted here (where there is one: a judge object's
    request is its own); what it wrote is unknown, so is its cost."""
    if prompt is None:
        return OBJECT_CALL + Usage(cut_off_calls=1)
    return Usage(1, tokens(prompt), 0, None, 1, None, CUT_OFF, 1)


def failed(prompt: str, timed_out: bool) -> Usage:
    """One request the provider answered with an error (no tokens, no bill), or that timed out
    (the provider may have written a reply and bill it: counted as a cut-off call is)."""
    if timed_out:
        return Usage(1, tokens(prompt), 0, None, 1, None, TIMED_OUT, failed_calls=1)
    return Usage(calls=1, failed_calls=1)


def add(usage: Usage) -> None:
    """Count ``usage`` in the current validation (nothing outside one): the one place the
    meter is written, by the call layer (``calls.Outbound``)."""
    meter = _METER.get()
    if meter is not None:
        meter.add(usage)


def _price(model: str, prompt_tokens: int, completion_tokens: int,
           cached_tokens: int) -> tuple[float | None, str]:
    import litellm

    try:
        prompt_cost, completion_cost = litellm.cost_per_token(
            model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
            cache_read_input_tokens=cached_tokens)
    except Exception:  # noqa: BLE001 - LiteLLM raises several kinds for a model it has no price for
        return None, f"LiteLLM's price table has no price for {model!r}"
    return float(prompt_cost) + float(completion_cost), ""


def tokens(text: str) -> int:
    return len(_tokenizer().encode(text, disallowed_special=()))


_TIKTOKEN_CACHE = "TIKTOKEN_CACHE_DIR"


_LOADING = threading.Lock()


@functools.cache
def _tokenizer():
    """cl100k_base, read from LiteLLM's bundled copy: tiktoken looks for it in the directory
    its variable names, set for this one load (the caller's setting is put back)."""
    import tiktoken

    spec = importlib.util.find_spec("litellm")
    bundled = os.path.join(next(iter(spec.submodule_search_locations)), "litellm_core_utils",
                           "tokenizers")
    with _LOADING:
        saved = os.environ.get(_TIKTOKEN_CACHE)
        os.environ[_TIKTOKEN_CACHE] = bundled
        try:
            return tiktoken.get_encoding("cl100k_base")
        finally:
            if saved is None:
                os.environ.pop(_TIKTOKEN_CACHE, None)
            else:
                os.environ[_TIKTOKEN_CACHE] = saved
