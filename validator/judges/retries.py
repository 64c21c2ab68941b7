"""Calling a model again after a transient failure, with tenacity: exponential backoff with
jitter, honouring ``Retry-After``, until the validation's deadline cancels the tries. Refused credentials
and a model that does not exist raise at once; what no retry can fix is not retried."""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import math
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import tenacity

from ..errors import ConfigurationError, JudgeAuthError, warn
from ..runtime.deadline import remaining
from ..runtime.pool import Busy, Raised

T = TypeVar("T")

_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}
_AUTH_STATUS = {401, 403}
_PERMANENT_STATUS = {400, 413, 422}  # this prompt cannot be judged (too long, refused)
_MISCONFIGURED_STATUS = {404}  # no such model or endpoint: no prompt can be judged
_MISCONFIGURED_WORDS = ("llm provider not provided", "model_not_found", "does not exist",
                        "no such model", "unknown model", "invalid model")


def _status(error: BaseException | None) -> int | None:
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def _retry_after(error: BaseException | None) -> float | None:
    """Seconds the server asked us to wait, from the error's response headers if any:
    ``retry-after-ms`` (OpenAI's), else ``Retry-After`` as seconds or as an HTTP date."""
    candidates: tuple[Any, ...] = (
        getattr(error, "litellm_response_headers", None),  # LiteLLM keeps the real ones here
        getattr(error, "headers", None),
        getattr(getattr(error, "response", None), "headers", None),
    )
    for headers in candidates:
        try:
            milliseconds = _number(headers.get("retry-after-ms"))
            if milliseconds is not None:
                return milliseconds / 1000
            value = headers.get("retry-after")
        except AttributeError:  # no headers, or not a mapping
            continue
        seconds = _number(value)
        if seconds is None and isinstance(value, str):
            seconds = _seconds_until(value)
        if seconds is not None:
            return seconds
    return None


def _number(value) -> float | None:
    """A header's non-negative finite number of seconds (or ms), else None."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, number) if math.isfinite(number) else None


def _seconds_until(http_date: str) -> float | None:
    """Seconds from now to an HTTP date (``Wed, 21 Oct 2026 07:28:00 GMT``); 0 once past."""
    try:
        when = email.utils.parsedate_to_datetime(http_date)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000": UTC by the RFC
        when = when.replace(tzinfo=datetime.timezone.utc)
    return max(0.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds())


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` or what caused it is a connection that could not be made (LiteLLM
    reports some as an ``InternalServerError`` reading "Connection error")."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if type(link).__name__ in ("APIConnectionError", "ConnectError", "ConnectTimeout",
                                   "JudgeUnreachable") or isinstance(link, ConnectionRefusedError):
            return True
        link = link.__cause__ or link.__context__
    return False


def timed_out(error: BaseException) -> bool:
    """Whether ``error`` is a request that timed out waiting for its reply."""
    return isinstance(error, TimeoutError) or "Timeout" in type(error).__name__


def received(error: BaseException) -> bool:
    """Whether the provider received the request that ended in ``error``: not when it was never
    sent (refused here, a setup mistake, no connection made)."""
    return not (isinstance(error, (Busy, ConfigurationError)) or unreachable(error))


def misconfigured(error: BaseException) -> bool:
    """Whether ``error`` says the model or endpoint does not exist: no prompt can be judged."""
    text = str(error).lower()
    return (_status(error) in _MISCONFIGURED_STATUS or type(error).__name__ == "NotFoundError"
            or any(w in text for w in _MISCONFIGURED_WORDS))


def refused_credentials(error: BaseException) -> bool:
    """Whether ``error`` says the credentials are missing or refused: no retry helps. (LiteLLM
    reports a key missing on our side as an InternalServerError.)"""
    return (_status(error) in _AUTH_STATUS
            or type(error).__name__ in ("AuthenticationError", "PermissionDeniedError")
            or "missing credentials" in str(error).lower())


class _Permanent(Exception):
    """A failure no retry can fix (400, 413, 422): the reply is the error itself."""


class NoTimeToRetry(Exception):
    """A failed call not tried again: the time left before the deadline is less than a call
    takes, so a retry could only be cut off."""


async def complete_with_retries(complete: Callable[[str], Awaitable[T]], prompt: str,
                                max_retries: int, backoff: float,
                                pause: Callable[[float], None] | None = None,
                                takes: Callable[[], float | None] = lambda: None
                                ) -> T | BaseException:
    """``await complete(prompt)``, retried after transient errors (timeouts, refused
    connections, 429 and 5xx answers), by tenacity: ``max_retries`` times, but a server that
    says it is busy (429, 529) is asked again however often while the validation has a deadline
    (which ends the tries by cancelling them): a rate limit slows a validation down, it does not
    fail it. A ``Retry-After`` is honoured, and handed to ``pause`` (the model's shared gate,
    which holds back every call to it). Returns the reply, or the error that ended the tries.
    Raises ``JudgeAuthError`` when the credentials are refused and ``ConfigurationError`` when
    the model or endpoint does not exist (404, "LLM Provider NOT provided") or ``complete``
    itself says the setup is wrong: no prompt could be judged. No retry is started that the
    deadline would cut off: with less time left than a call ``takes`` (the latest calls'
    median), the tries end there, and the error says so (``NoTimeToRetry``)."""
    late: list[str] = []
    retrying = tenacity.AsyncRetrying(**_policy(max_retries, backoff, pause, takes, late),
                                      sleep=_sleep)
    try:
        return await retrying(_classified, complete, prompt)
    except Exception as failure:  # noqa: BLE001 - classified by _given_up
        error = _given_up(failure, retrying.statistics)
        return NoTimeToRetry(f"{type(error).__name__}: {error}; {late[0]}") if late else error


_sleep = asyncio.sleep  # the wait between tries (tests record it instead)


def _policy(max_retries: int, backoff: float, pause: Callable[[float], None] | None,
            takes: Callable[[], float | None], late: list[str]) -> dict[str, Any]:
    # tenacity catches BaseException: a cancelled call (the deadline) must end the tries
    return {"retry": tenacity.retry_if_not_exception_type((ConfigurationError, _Permanent,
                                                           asyncio.CancelledError)),
            "wait": _wait(backoff, pause), "stop": _stop(max_retries, takes, late),
            "reraise": True}


def _given_up(failure: Exception, statistics: dict[str, Any]) -> BaseException:
    """What the tries ended with, once they stopped on ``failure``: a setup error is raised; a
    failure no retry can fix, or the last transient one, is returned (warned about)."""
    if isinstance(failure, ConfigurationError):
        raise failure
    permanent = isinstance(failure, _Permanent)
    error = (failure.__cause__ or failure) if permanent else failure
    attempts = statistics.get("attempt_number", 1)
    warn(
        f"judge call failed after {attempts} attempt(s): {type(error).__name__}: {error}",
    )
    return error


async def _classified(complete: Callable[[str], Awaitable[T]], prompt: str) -> T:
    """One call; a failure no retry can fix is raised as what it is."""
    try:
        return await complete(prompt)
    except Exception as error:  # noqa: BLE001 - every failure is classified
        classified = _classify(error)
        if classified is not None:
            raise classified from error
        raise


def _classify(error: Exception) -> Exception | None:
    """What a failed call raises: a setup mistake or refused credentials as a
    ``ConfigurationError``, a failure no retry can fix as ``_Permanent``; None for anything
    else, raised as it is (retried if transient)."""
    if isinstance(error, ConfigurationError):
        return None
    if isinstance(error, (Busy, Raised)):  # refused at once, or code that ends its thread
        return _Permanent()
    if isinstance(error, (TypeError, AttributeError, NameError)):  # a bug or a setup mistake
        return ConfigurationError(
            f"the judge could not be called ({type(error).__name__}: {_first_line(error)}); "
            "this is no network fault a retry could fix. Check llm_callable and llm_kwargs.")
    if refused_credentials(error):
        return JudgeAuthError(
            f"the judge refused the credentials ({type(error).__name__}: "
            f"{_first_line(error)}): set the provider's API key (for example OPENAI_API_KEY) "
            "or pass llm_kwargs['api_key'].")
    if misconfigured(error):
        return ConfigurationError(
            f"the judge's model cannot be reached as configured ({type(error).__name__}: "
            f"{_first_line(error)}). Check llm_callable (a LiteLLM model name such as "
            "'gpt-4o-mini' or 'openai/<model>' with api_base for a local server) and "
            "llm_kwargs['api_base'].")
    if _status(error) in _PERMANENT_STATUS:
        return _Permanent()
    return None


_BUSY_STATUS = {429, 529}  # the server is rate limiting or overloaded: it will answer later


def _busy(error: BaseException | None) -> bool:
    return error is not None and (_status(error) in _BUSY_STATUS
                                  or type(error).__name__ == "RateLimitError")


def _stop(max_retries: int, takes: Callable[[], float | None], late: list[str]
          ) -> Callable[[tenacity.RetryCallState], bool]:
    """Stop after ``max_retries`` failed retries, not counting the answers of a busy server
    while a deadline bounds the wait (without one, they count: no call waits forever); and
    where the time left is less than a call takes (said in ``late``)."""
    failures = 0

    def stop(state: tenacity.RetryCallState) -> bool:
        nonlocal failures
        left, call = remaining(), takes()
        if left is not None and call is not None and left < call:
            late.append(f"not tried again: {left:.1f} s left before the deadline, less than a "
                        f"call takes here ({call:.1f} s)")
            return True
        failures += left is None or not _busy(_failure(state))
        return failures > max_retries

    return stop


def _failure(state: tenacity.RetryCallState) -> BaseException | None:
    """What the last try raised (tenacity asks only after a try that failed)."""
    return None if state.outcome is None else state.outcome.exception()


def _wait(backoff: float, pause: Callable[[float], None] | None
          ) -> Callable[[tenacity.RetryCallState], float]:
    def wait(state: tenacity.RetryCallState) -> float:
        error = _failure(state)
        status = _status(error)
        hinted = _retry_after(error) if status in _TRANSIENT_STATUS else None
        if hinted is not None and pause is not None:
            pause(min(hinted, _LONGEST_WAIT))
        # a busy server's backoff grows to its cap and stays there
        return _delay(min(state.attempt_number - 1, 6), hinted, backoff)

    return wait


_LONGEST_WAIT = 30.0  # seconds: a longer Retry-After is waited in turns of this


def _delay(attempt: int, hinted: float | None, backoff: float) -> float:
    if hinted is not None:
        return min(hinted, _LONGEST_WAIT)
    return min(backoff * 2**attempt, _LONGEST_WAIT) * (0.5 + random.random() / 2)


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [""])[0][:300]
