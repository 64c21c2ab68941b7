"""The errors this package raises on purpose (besides ``ValueError`` for bad input), and its
warnings, attributed to the caller's line and scrubbed of credentials
(``runtime.credentials``)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from contextvars import ContextVar
from types import FrameType

from .runtime.credentials import scrubbed

UNREACHABLE = "cannot reach the judge's server"  # how a failed call names a server it missed


class ConfigurationError(ValueError):
    """The validator or its judge is set up wrong (a model that does not exist, a judge that
    returns something else than a verdict, ...). Raised at once, never turned into verdicts
    that an on_fail policy could let through: nothing can be validated until it is fixed."""


class JudgeAuthError(ConfigurationError, RuntimeError):
    """The judge's credentials were refused: retrying cannot help, so validation stops."""



class NoKeyError(JudgeAuthError):
    """The judge's provider needs an API key and none is set: a configuration error, said when
    the judge is made (the command line exits 2 on it, 3 on a key refused)."""


def refused_key_message(model: str, answered: str, variable: str, passed: bool) -> str:
    """What a judge whose key the provider refused says: where that key came from (``answered``:
    the HTTP status, as " (HTTP 401)", or "")."""
    where = "llm_kwargs['api_key']" if passed else f"{variable} or llm_kwargs['api_key']"
    return f"the judge's provider refused the API key for {model!r}{answered}: check {where}."


def no_key_message(model: str, missing: list[str]) -> str:
    """What a judge whose provider needs a key, and has none, says: the variables to set."""
    return (f"no API key for the judge {model!r}: set {' or '.join(missing)}, or pass "
            "llm_kwargs['api_key'] (llm_callable='local' is the offline judge and needs none).")


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
