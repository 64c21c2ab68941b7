"""What the command line can tell of an LLM judge before it loads anything heavy: a key that is
not set, a server that does not answer, a key the server refuses, a model OpenAI does not have.

LiteLLM and Guardrails take seconds each to import, and the sources are read and embedded before
the first judge call; a mistake the user can fix is said here, in a fraction of a second, with
the exit status the command line documents (2: set up wrong; 3: no verdict can be had).

Only what can be told for sure is told: a model whose provider is not in ``KEY_VARIABLES`` is
left to LiteLLM (its check when the judge is made, its error at the first call), and so is a
server that answers its model list with anything else than a refusal. The one request made,
``GET <base>/models`` of an OpenAI-compatible server, carries the key only to the server the
judge would send it to, and costs no tokens."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import ssl
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..errors import UNREACHABLE, no_key_message, refused_key_message
from ..runtime.credentials import public
from . import exits

# The providers whose key variable is known without LiteLLM, and the variable (LiteLLM's
# ``validate_environment`` names the same: tests/unit/test_preflight.py checks each row).
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY",
                 "groq": "GROQ_API_KEY", "mistral": "MISTRAL_API_KEY",
                 "deepseek": "DEEPSEEK_API_KEY"}
# The providers LiteLLM routes a name without a prefix to by its model map (the copy it ships).
_UNPREFIXED = frozenset(("openai", "anthropic"))
MODEL_MAP = "model_prices_and_context_window_backup.json"
OPENAI_BASE = "https://api.openai.com/v1"
SECONDS = 3.0


@dataclass(frozen=True)
class Stop:
    """The command stops before anything is loaded: this message, this exit status."""

    message: str
    status: int


def provider(model: str) -> str | None:
    """The provider of ``model`` where it is one of ``KEY_VARIABLES``'s, else None: the prefix
    (``anthropic/...``), or for a bare name the provider LiteLLM's model map gives it, read
    from the file LiteLLM ships rather than by importing LiteLLM."""
    prefix, slash, _ = model.partition("/")
    if slash:
        return prefix if prefix in KEY_VARIABLES else None
    entry = _model_map().get(model)
    named = entry.get("litellm_provider") if isinstance(entry, dict) else None
    return named if named in _UNPREFIXED else None


def _model_map() -> dict:
    spec = importlib.util.find_spec("litellm")
    if spec is None or spec.origin is None:
        return {}
    try:
        with open(Path(spec.origin).parent / MODEL_MAP, encoding="utf-8") as file:
            found = json.load(file)
    except (OSError, ValueError):  # another LiteLLM layout: LiteLLM will tell
        return {}
    return found if isinstance(found, dict) else {}


def check(model: str, api_base: str | None, api_key: str | None) -> Stop | None:
    """Why the judge ``model`` cannot work, where that can be told at once; else None."""
    name = provider(model)
    if name is None:
        return None
    key = api_key or os.environ.get(KEY_VARIABLES[name])
    if not key:  # LiteLLM asks for one even of a local server (any value does there)
        return Stop(no_key_message(model, [KEY_VARIABLES[name]]), exits.USAGE)
    if name != "openai":
        return None
    base = (api_base or os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_BASE")
            or OPENAI_BASE).rstrip("/")
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return Stop(f"the judge's server address {public(base, address=True)!r} is not an "
                    "http:// or https:// address: check --api-base (for example "
                    "http://127.0.0.1:8080/v1).", exits.USAGE)
    if parts.username or parts.password:  # credentials in the address: LiteLLM's to send
        return None
    return _ask_models(model, base, key, own=base == OPENAI_BASE, passed=bool(api_key))


def _ask_models(model: str, base: str, key: str | None, own: bool, passed: bool = True
                ) -> Stop | None:
    request = urllib.request.Request(f"{base}/models", headers={
        "Accept": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})})
    try:
        with urllib.request.urlopen(request, timeout=SECONDS) as response:
            listed = json.loads(response.read(4 * 2**20))
    except urllib.error.HTTPError as error:
        error.close()
        if error.code in (401, 403):
            return Stop(refused_key_message(model, f" (HTTP {error.code})",
                                            KEY_VARIABLES["openai"], passed),
                        exits.NO_VERDICTS)
        return None  # no model list here (404, 501...): the first call will tell
    except urllib.error.URLError as error:  # no connection was made
        reason = error.reason
        if isinstance(reason, (ConnectionError, socket.gaierror, TimeoutError, ssl.SSLError)):
            return Stop(f"{UNREACHABLE} at {public(base, address=True)} for {model!r} "
                        f"({_said(reason)}): start it, or check --api-base.", exits.NO_VERDICTS)
        return None
    except (TimeoutError, ConnectionError):  # connected, but slow or cut off: the call will tell
        return None
    except (ValueError, OSError):  # not JSON, or cut off: the first call will tell
        return None
    if own:  # OpenAI's own list is every model a key can call
        ids = {str(item.get("id")) for item in listed.get("data", []) if isinstance(item, dict)} \
            if isinstance(listed, dict) else set()
        bare = model.removeprefix("openai/")
        if ids and bare not in ids:
            return Stop(f"the judge's server has no model {model!r}: check --model (the "
                        f"model's name as {base} lists it).", exits.USAGE)
    return None


def _said(reason: BaseException) -> str:
    if isinstance(reason, ssl.SSLError):
        return f"no TLS there ({reason.reason or reason}): http:// for a server without it?"
    return str(reason.strerror if isinstance(reason, OSError) and reason.strerror else reason)
