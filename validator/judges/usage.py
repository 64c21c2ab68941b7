"""What a validation's model calls consume, counted where the calls are made (the transports:
LiteLLM, a callable) into the validation that made them.

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


def counted(prompt: str, reply: str, cost_usd: float | None = None,
            unpriced: str = CALLABLE_PRICE) -> None:
    """One call whose tokens nobody reported: counted here."""
    meter = _METER.get()
    if meter is not None:
        meter.add(Usage(1, tokens(prompt), tokens(reply), None, 1, cost_usd,
                        "" if cost_usd is not None else unpriced))


OBJECT_PRICE = "a judge object's model calls, tokens and price are its own"


def called() -> None:
    """One call to a judge object of the user's: what its model consumed is its own."""
    meter = _METER.get()
    if meter is not None:
        meter.add(Usage(calls=1, cost_usd=None, unpriced=OBJECT_PRICE))


CUT_OFF = "a call the deadline cut off did not report its tokens"


def cut_off(prompt: str) -> None:
    """One call the validation's deadline cut off: the provider will not report its tokens to
    us, but may bill them. Its prompt is counted here; what it wrote is unknown, so is its
    cost."""
    meter = _METER.get()
    if meter is not None:
        meter.add(Usage(1, tokens(prompt), 0, None, 1, None, CUT_OFF, 1))


def failed(prompt: str, timed_out: bool) -> None:
    """One request the provider answered with an error (no tokens, no bill), or that timed out
    (the provider may have written a reply and bill it: counted as a cut-off call is)."""
    meter = _METER.get()
    if meter is None:
        return
    if timed_out:
        meter.add(Usage(1, tokens(prompt), 0, None, 1, None, TIMED_OUT, failed_calls=1))
    else:
        meter.add(Usage(calls=1, failed_calls=1))


TIMED_OUT = "a call that timed out did not report its tokens"


def retried() -> None:
    """The request just counted was a retry of a failed one."""
    meter = _METER.get()
    if meter is not None:
        meter.add(Usage(retried_calls=1))


def caught() -> None:
    """One call whose reply called its control statement supported (its verdicts unused)."""
    meter = _METER.get()
    if meter is not None:
        meter.add(Usage(caught_calls=1))


def reported(response: Any, model: str, prompt: str) -> None:
    """One LiteLLM call: its tokens as the provider reported them (counted when it did not),
    priced by LiteLLM's table."""
    meter = _METER.get()
    if meter is None:
        return
    usage = getattr(response, "usage", None)
    prompt_tokens = getattr(usage, "prompt_tokens", None)
    completion_tokens = getattr(usage, "completion_tokens", None)
    cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
    cached = cached if isinstance(cached, int) and cached > 0 else None
    counted = 0
    # LiteLLM gives 0 tokens for a reply that reported none: no prompt of ours has 0 tokens
    if (not isinstance(prompt_tokens, int) or not isinstance(completion_tokens, int)
            or prompt_tokens <= 0):
        prompt_tokens = tokens(prompt)
        completion_tokens = tokens(response.choices[0].message.content or "")
        cached, counted = None, 1
    cost, unpriced = _price(model, prompt_tokens, completion_tokens, cached or 0)
    meter.add(Usage(1, prompt_tokens, completion_tokens, cached, counted, cost, unpriced))


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
