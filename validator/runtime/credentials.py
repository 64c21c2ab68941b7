"""Credentials: given to a judge, written nowhere else.

A credential is the text value (at any depth: dicts, lists, tuples) of an llm_kwargs entry
whose name has one of ``_CREDENTIAL_WORDS`` ("api_key", "aws_secret_access_key",
"Authorization" in extra_headers, "apiKey"; not "max_tokens", whose words are "max" and
"tokens"), the password of an address, or the key the judge's provider reads from the
environment. Such values reach the judge's client and nothing else: Guardrails records a
validator's arguments on its spans and in ``guard.to_dict()``, so they are left out of what it
is given (``public``), and every text the package writes (replies, reasons, warnings, raised
errors, client log records) is scrubbed of them and of their URL- and JSON-escaped forms
(``scrubbed``, ``scrub_raised``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import traceback
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, quote

# The words of an entry's name that make its value a credential.
_CREDENTIAL_WORDS = frozenset((
    "key", "apikey", "secret", "token", "password", "passwd", "pwd", "pass", "passphrase",
    "auth", "authorization", "credential", "credentials", "cookie", "signature", "sig", "jwt",
    "session", "hmac", "bearer", "private", "keys", "apikeys", "secrets", "tokens",
    "passwords", "cookies", "signatures", "sessions"))
_URLISH_NAMES = frozenset(("base", "url", "uri", "host", "endpoint", "proxy", "address"))
# values that are no secret and would garble every text they were scrubbed from
_PLACEHOLDERS = frozenset(("none", "null", "empty", "dummy", "test", "fake", "unused",
                           "sk-none", "not-needed", "no-key", "nokey"))
_SHORTEST = 4  # characters: a shorter value is no secret worth garbling texts for
SCRUBBED = "[credential]"
_SECRETS: dict[str, None] = {}  # every credential a judge of this process was given
_SECRETS_KEPT = 1024  # the newest, at most: a process building judges per tenant
_SECRETS_LOCK = threading.Lock()
_LONGEST_FIRST: tuple[str, ...] = ()  # _SECRETS as scrubbed: a key before any part of it


def _words(name: object) -> set[str]:
    """The words of an entry's name: "api_key", "X-Api-Key", "apiKey" -> {"api", "key"}."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(name))
    return set(re.split(r"[^a-z0-9]+", text.lower())) - {""}


def _names_credential(name: object) -> bool:
    return bool(_words(name) & _CREDENTIAL_WORDS)


def _names_address(name: object) -> bool:
    return bool(_words(name) & _URLISH_NAMES)


def _texts(value: Any) -> list[str]:
    """Every text in ``value`` (a text, or dicts, lists and tuples of them, keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, bytes):
        return [value.decode(errors="replace")]
    if isinstance(value, dict):
        return [text for pair in value.items() for part in pair for text in _texts(part)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [text for item in value for text in _texts(item)]
    return []


def _userinfo(text: str, address: bool) -> str:
    """The ``user:password`` of an address written in ``text`` ("" if none): with a scheme
    (``https://``, ``socks5://``), scheme-relative (``//``), or, where the entry names an
    address, with none."""
    text = text.strip()
    scheme = re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text)
    if scheme:
        text = text[scheme.end():]
    elif text.startswith("//"):
        text = text[2:]
    elif not address:
        return ""
    netloc = re.split(r"[/?#]", text, maxsplit=1)[0]
    return netloc.rpartition("@")[0]


def public(kwargs: Any, address: bool = False) -> Any:
    """``kwargs`` without their credentials (at any depth), and an address without the user
    and password it may carry: what may be stored or traced. A validator rebuilt from it takes
    its key from the provider's environment variable, as LiteLLM does without ``api_key``."""
    if isinstance(kwargs, dict):
        return {name: public(value, _names_address(name)) for name, value in kwargs.items()
                if not (_names_credential(name) and any(map(_secret, _texts(value))))}
    if isinstance(kwargs, (list, tuple)):
        return type(kwargs)(public(item, address) for item in kwargs)
    if isinstance(kwargs, str):
        userinfo = _userinfo(kwargs, address)
        if userinfo:
            kwargs = kwargs.replace(userinfo + "@", "", 1)
        for value in _query_credentials(kwargs):
            kwargs = kwargs.replace(value, SCRUBBED)
    return kwargs


def _query_credentials(text: str) -> list[str]:
    """The values of an address's query parameters that name a credential (``?api_key=``)."""
    if "?" not in text or "=" not in text:
        return []
    query = text.split("?", 1)[1].split("#", 1)[0]
    return [value for name, value in parse_qsl(query) if _names_credential(name) and value]


def keep_secret(kwargs: Any, address: bool = False) -> None:
    """Remember the credentials in ``kwargs`` (what ``public`` leaves out), so that every text
    the package writes is scrubbed of them."""
    found: list[str] = []

    def walk(value: Any, credential: bool, address: bool) -> None:
        if isinstance(value, dict):
            for name, inner in value.items():
                walk(inner, credential or _names_credential(name), _names_address(name))
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                walk(item, credential, address)
        elif isinstance(value, (str, bytes)):
            value = value.decode(errors="replace") if isinstance(value, bytes) else value
            if credential:
                found.extend((value, *value.split()))
            found.extend(_userinfo(value, address).split(":"))
            found.extend(_query_credentials(value))

    walk(kwargs, False, address)
    keep_secret_values(found)


def _secret(value: str | None) -> bool:
    """Whether a credential's value is one to keep out (not a placeholder such as "none", which
    a local server's guard keeps when it is stored, nor a value too short to scrub)."""
    text = (value or "").strip()
    return len(text) >= _SHORTEST and text.lower() not in _PLACEHOLDERS


def keep_secret_values(values: Sequence[str | None]) -> None:
    """Remember these credentials (and their escaped forms)."""
    kept = {form for value in values if value and _secret(value)
            for form in (value, quote(value, safe=""), quote(value),
                         json.dumps(value)[1:-1], repr(value)[1:-1])}
    if not kept:
        return
    _scrub_client_logs()
    global _LONGEST_FIRST
    with _SECRETS_LOCK:
        for secret in kept:
            _SECRETS.pop(secret, None)
            _SECRETS[secret] = None
        while len(_SECRETS) > _SECRETS_KEPT:
            del _SECRETS[next(iter(_SECRETS))]
        _LONGEST_FIRST = tuple(sorted(_SECRETS, key=len, reverse=True))


def scrubbed(text: str) -> str:
    """``text`` with every credential a judge was given replaced by ``SCRUBBED``. On every
    reply, reason, warning and client log record: it only reads the ordered tuple kept."""
    for secret in _LONGEST_FIRST:
        if secret in text:
            text = text.replace(secret, SCRUBBED)
    return text


def _scrubbed_value(value: Any) -> Any:
    """A text, or a dict, list or tuple of them, scrubbed (anything else as it is)."""
    if isinstance(value, str):
        return scrubbed(value)
    if isinstance(value, dict):
        return {_scrubbed_value(k): _scrubbed_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_scrubbed_value(item) for item in value)
    return value


# The loggers of the clients a judge's call goes through. LiteLLM masks credentials in its own
# records; the OpenAI SDK's debug records print a request's extra headers as they are, and the
# traceback of an error whose message may echo them.
_CLIENT_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "openai",
                   "openai._base_client", "httpx", "httpcore", "aiohttp.client", "asyncio")


class _Scrubbing(logging.Filter):
    """Scrubs a record of the credentials judges were given, its traceback included (it runs
    only for records that the logger's level lets through)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = scrubbed(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = scrubbed("".join(traceback.format_exception(*record.exc_info)))
            record.exc_info = None
        if record.stack_info:
            record.stack_info = scrubbed(record.stack_info)
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
    traceback show them, and the texts they keep as attributes (a response's body, headers)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.args = tuple(_scrubbed_value(arg) for arg in current.args)
        for name, value in list(vars(current).items()):
            clean = _scrubbed_value(value)
            if clean is not value and clean != value:
                with contextlib.suppress(AttributeError, TypeError):
                    setattr(current, name, clean)
        current = current.__cause__ or current.__context__
