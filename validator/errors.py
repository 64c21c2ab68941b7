"""The errors this package raises on purpose (besides ``ValueError`` for bad input)."""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import re
import sys
import threading
import warnings
from collections.abc import Iterator
from contextvars import ContextVar
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

UNREACHABLE = "cannot reach the judge's server"  # how a failed call names a server it missed


class ConfigurationError(ValueError):
    """The validator or its judge is set up wrong (a model that does not exist, a judge that
    returns something else than a verdict, ...). Raised at once, never turned into verdicts
    that an on_fail policy could let through: nothing can be validated until it is fixed."""


class JudgeAuthError(ConfigurationError, RuntimeError):
    """The judge's credentials were refused: retrying cannot help, so validation stops."""


def _package_dir(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) + os.sep if spec and spec.origin else None


# Frames under these are skipped when a warning is attributed to a line, so that it names the
# user's call (``validator.validate(...)``, ``ProvenanceLLM(...)``): this package, Guardrails,
# the retry library, and the standard library's thread and event-loop machinery.
_STDLIB = os.path.dirname(threading.__file__)
_INTERNAL = tuple(path for path in (
    os.path.dirname(os.path.abspath(__file__)) + os.sep, _package_dir("guardrails"),
    _package_dir("tenacity"),
    os.path.join(_STDLIB, "threading.py"), os.path.join(_STDLIB, "concurrent") + os.sep,
    os.path.join(_STDLIB, "asyncio") + os.sep) if path)


_REGISTRY: dict = {}  # warnings already shown, for those no caller's line is known for
# The caller's frame of the validation under way, for the warnings of its worker threads.
_CALLER: ContextVar[FrameType | None] = ContextVar("provenance_guard_caller", default=None)


def _outside(frame: FrameType | None) -> tuple[FrameType | None, int]:
    """The first frame from ``frame`` down that is not internal, and how many were passed."""
    passed = 0
    while frame is not None and frame.f_code.co_filename.startswith(_INTERNAL):
        frame, passed = frame.f_back, passed + 1
    return frame, passed


@contextlib.contextmanager
def warnings_to_caller() -> Iterator[None]:
    """Within it, warnings raised in the worker threads of this validation (which carry its
    context) are attributed to the line that started it."""
    caller = _outside(sys._getframe(2))[0]
    # in a worker thread no line of the caller's is on the stack: keep the one set outside
    token = _CALLER.set(caller if caller is not None else _CALLER.get())
    try:
        yield
    finally:
        _CALLER.reset(token)


# -- Credentials: given to a judge, written nowhere else -----------------------------------------

# An llm_kwargs key whose value is a credential ("api_key", "aws_secret_access_key",
# "Authorization" in extra_headers, ...). Such values reach the judge's client and nothing
# else: Guardrails records a validator's arguments on its spans and in ``guard.to_dict()``, so
# they are left out of what it is given, and any text the package writes is scrubbed of them.
_CREDENTIAL = re.compile(r"key|secret|token|passw|auth|credential|cookie|signature",
                         re.IGNORECASE)
SCRUBBED = "[credential]"
_SECRETS: dict[str, None] = {}  # every credential a validator of this process was given
_SECRETS_KEPT = 1024  # the newest, at most: a process building validators per tenant
_SECRETS_LOCK = threading.Lock()


def public(kwargs: dict[str, Any] | None) -> dict[str, Any] | None:
    """``kwargs`` without their credentials (at any depth), and an address without the user
    and password it may carry: what may be stored or traced. A validator rebuilt from it takes
    its key from the provider's environment variable, as LiteLLM does without ``api_key``."""
    if not isinstance(kwargs, dict):
        return kwargs
    kept: dict[str, Any] = {}
    for name, value in kwargs.items():
        if isinstance(name, str) and _CREDENTIAL.search(name):
            continue
        if isinstance(value, dict):
            value = public(value)
        elif isinstance(value, str) and _userinfo(value):
            value = value.replace(_userinfo(value) + "@", "", 1)
        kept[name] = value
    return kept


def _userinfo(text: str) -> str:
    """The ``user:password`` of an address written in ``text`` ("" if none)."""
    if "://" not in text:
        return ""
    with contextlib.suppress(ValueError):
        return urlsplit(text.strip()).netloc.rpartition("@")[0]
    return ""


def keep_secret(kwargs: dict[str, Any] | None) -> None:
    """Remember the credentials in ``kwargs`` (what ``public`` leaves out), so that every text
    the package writes is scrubbed of them."""
    found: list[str] = []

    def walk(value: Any, credential: bool) -> None:
        if isinstance(value, dict):
            for name, inner in value.items():
                walk(inner, credential or (isinstance(name, str)
                                           and _CREDENTIAL.search(name) is not None))
        elif isinstance(value, str):
            if credential:
                found.extend(part for part in (value, *value.split()) if len(part) >= 6)
            else:  # a password in an address
                found.extend(part for part in _userinfo(value).split(":") if len(part) >= 6)

    walk(kwargs, False)
    if found:
        _scrub_client_logs()
    with _SECRETS_LOCK:
        for secret in found:
            _SECRETS.pop(secret, None)
            _SECRETS[secret] = None
        while len(_SECRETS) > _SECRETS_KEPT:
            del _SECRETS[next(iter(_SECRETS))]


def scrubbed(text: str) -> str:
    """``text`` with every credential a validator was given replaced by ``SCRUBBED``."""
    with _SECRETS_LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, SCRUBBED)
    return text


# The loggers of the clients a judge's call goes through. LiteLLM masks credentials in its own
# records; the OpenAI SDK's debug records print a request's extra headers as they are.
_CLIENT_LOGGERS = ("LiteLLM", "LiteLLM Router", "litellm", "openai", "openai._base_client",
                   "httpx", "httpcore", "aiohttp.client")


class _Scrubbing(logging.Filter):
    """Scrubs a record of the credentials judges were given (it runs only for records that
    the logger's level lets through)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = scrubbed(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


_SCRUBBING = _Scrubbing()


def _scrub_client_logs() -> None:
    for name in _CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        if _SCRUBBING not in logger.filters:
            logger.addFilter(_SCRUBBING)


def scrub_raised(error: BaseException) -> None:
    """Scrub an exception on its way to the caller, and the ones it was raised from or during
    (a provider's error may echo the key it refused): their messages, as ``str()`` and a
    traceback show them."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if any(isinstance(arg, str) and scrubbed(arg) != arg for arg in current.args):
            current.args = tuple(scrubbed(arg) if isinstance(arg, str) else arg
                                 for arg in current.args)
        message = getattr(current, "message", None)
        if isinstance(message, str) and scrubbed(message) != message:
            with contextlib.suppress(AttributeError, TypeError):
                current.message = scrubbed(message)  # type: ignore[attr-defined]
        current = current.__cause__ or current.__context__


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn`` attributed to the first frame outside this package, Guardrails, the
    retry library and the standard library's thread and event-loop machinery: the caller's own
    line, wherever in the package the warning comes from. In a worker thread, that is the line
    that started the validation (``warnings_to_caller``); where no line of the caller's is known
    (a validation Guardrails runs in a thread of its own), the package (``provenance_guard:0``),
    never a line of library code."""
    message = scrubbed(message)
    frame, passed = _outside(sys._getframe(1))
    if frame is not None:
        warnings.warn(message, category, stacklevel=passed + 2)
        return
    caller = _CALLER.get()
    if caller is None:
        warnings.warn_explicit(message, category, "provenance_guard", 0,
                               module="provenance_guard", registry=_REGISTRY)
        return
    warnings.warn_explicit(message, category, caller.f_code.co_filename, caller.f_lineno,
                           module=caller.f_globals.get("__name__"),
                           registry=caller.f_globals.setdefault("__warningregistry__", {}))
