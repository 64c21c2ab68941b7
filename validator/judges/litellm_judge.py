"""Any LiteLLM model as a judge: OpenAI, Anthropic, Ollama, a llama.cpp server, ..."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

from ..errors import (
    UNREACHABLE,
    ConfigurationError,
    JudgeAuthError,
    NoKeyError,
    no_key_message,
    refused_key_message,
    warn,
)
from ..runtime.credentials import keep_secret, keep_secret_values
from ..runtime.deadline import length
from . import usage
from .base import DEFAULT_JUDGE, JudgeSettings
from .kinds import Reply
from .prompt_judge import PromptJudge
from .replies import Tokens
from .reply_cache import ReplyStore
from .retries import misconfigured, refused_credentials, unreachable

_NOT_IDENTITY = {"api_key", "timeout", "num_retries", "max_retries"}


class LiteLLMJudge(PromptJudge):
    """Sends the prompt as one user message to ``model`` through ``litellm.acompletion``.

    ``llm_kwargs`` go to every call: ``api_base``, ``api_key``, ``temperature``... A call may
    take until its validation's deadline (which cancels it); ``llm_kwargs['timeout']`` caps
    that where set.
    LiteLLM's own retries are off; ``PromptJudge`` retries with backoff instead.

    ``cache_dir`` keeps readable replies on disk, keyed by the prompt, the model and the
    settings that change a reply (not the key or the timeout): a rerun makes no call twice.

    ``settings.structured_replies``: "auto" asks for each reply by its JSON schema where
    LiteLLM's capability table says the model takes one (``supports_response_schema``), "on"
    always (an OpenAI-compatible server), "off" never. Token log probabilities are asked for
    where LiteLLM says the provider returns them. A provider that refuses a schema or log
    probabilities is asked without them from then on, said once.
    """

    def __init__(self, model: str, llm_kwargs: dict[str, Any] | None = None,
                 cache_dir: str | os.PathLike | None = None,
                 settings: JudgeSettings = DEFAULT_JUDGE, **options):
        super().__init__(settings, **options)
        if llm_kwargs is not None and not isinstance(llm_kwargs, dict):
            raise ConfigurationError(f"llm_kwargs must be a dict of litellm.completion arguments; "
                                     f"got {type(llm_kwargs).__name__}.")
        _check_llm_kwargs(llm_kwargs or {})
        _check_model(model, llm_kwargs or {})
        _check_key(model, llm_kwargs or {})
        # every judge that holds credentials is one of these (MiniCheck too): remembered here,
        # with the key its provider reads from the environment, so that every text the package
        # writes is scrubbed of them
        keep_secret(llm_kwargs)
        keep_secret_values([os.environ.get(_key_name(model, llm_kwargs or {}))])
        self.model = model
        self.llm_kwargs = {"temperature": 0, **(llm_kwargs or {})}
        provider = _provider(model, llm_kwargs or {})[0]
        structured = settings.structured_replies
        self.structured = self.takes_forms and (structured == "on" or (
            structured == "auto" and _takes_schema(model, provider)))
        self.logprobs = _gives_logprobs(model, provider)
        if cache_dir is not None:
            identity = {k: v for k, v in self.llm_kwargs.items() if k not in _NOT_IDENTITY}
            self.caller.store = ReplyStore(cache_dir, json.dumps([model, identity], sort_keys=True,
                                                          default=repr))

    def model_key(self) -> tuple[str, str | None]:
        return self.model, self.llm_kwargs.get("api_base")

    learns_batching = False  # a model that reads the batch: an unreadable reply is a slip
    room_setting = "llm_kwargs['max_tokens']"
    gives_probabilities = True  # where its provider returns them (else verdicts have none)

    @property
    def room_is_ours(self) -> bool:
        return "max_tokens" not in self.llm_kwargs

    async def complete(self, prompt: str, room: int, form: dict | None = None) -> Reply:
        extra: dict[str, Any] = {}
        if form is not None:
            extra["response_format"] = form
        if self.logprobs:
            extra["logprobs"] = True
        try:
            response = await self._call("acompletion", room,
                                        messages=[{"role": "user", "content": prompt}], **extra)
        except Refused as refused:  # a request the provider received: counted, failed
            self._do_without(refused)
            reply = await self.complete(prompt, room,
                                        None if refused.what == "response_format" else form)
            said = reply.reported or usage.Reported(model=self.model)
            return replace(reply, reported=replace(said, refused=said.refused + 1))
        return self.reply_of(response, response.choices[0].message.content)

    def reply_of(self, response: Any, text: str | None) -> Reply:
        """The reply in ``response`` (``reply_of``), with what it reports of its tokens."""
        return replace(reply_of(response, text), reported=usage.reported(response, self.model))

    def _do_without(self, refused: Refused) -> None:
        """What the provider refused (a reply schema, log probabilities) is not asked for
        again, said once."""
        schema = refused.what == "response_format"
        with self._learning:
            if not (self.structured if schema else self.logprobs):
                return
            if schema:
                self.structured = False
            else:
                self.logprobs = False
        error = refused.error
        warn(f"the judge's provider refused {_REFUSED_WHAT[refused.what]} "
             f"({type(error).__name__}: {error}): "
             + ("it is asked for free replies from now on. Set structured_replies='off' to ask "
                "for them from the start." if schema
                else "verdicts have no probability from now on."))

    async def _call(self, function: str, room: int, **request):
        """``litellm.<function>(...)`` (``acompletion``, ``atext_completion``) with the judge's
        model and settings, ``room`` the reply's max_tokens unless llm_kwargs set it. The
        validation's deadline cancels it."""
        litellm, kwargs = self._prepared()
        kwargs.setdefault("max_tokens", room)
        kwargs["timeout"] = call_timeout(self.llm_kwargs.get("timeout"))
        try:
            response = await getattr(litellm, function)(model=self.model, num_retries=0,
                                                        **request, **kwargs)
        except Exception as error:  # noqa: BLE001 - explained when no retry can help, else as is
            what = _refused(error, request)
            if what is not None:
                raise Refused(what, error) from error
            raise explained(error, self.model, self.llm_kwargs) from error
        return response

    def _prepared(self) -> tuple[Any, dict[str, Any]]:
        """LiteLLM, and the call's settings."""
        import litellm  # imported on first use: it is slow to import

        litellm.suppress_debug_info = True  # no "Give Feedback" banner on every error
        return litellm, dict(self.llm_kwargs)


def call_timeout(cap: float | None) -> float | None:
    """A call's timeout: the seconds its validator gives a validation, at most ``cap``
    (``llm_kwargs['timeout']``, where the user sets one); None (LiteLLM's own) with neither. A
    slow model is given all the time there is, not a fixed share it may never meet: the
    validation's deadline cancels the call at the moment it passes. One value for every call of
    a validator, not the time left: LiteLLM keeps a client, and its open connections, per
    timeout, so a timeout that changed from call to call would build a client and open a
    connection for every call."""
    given = length()
    if given is None:
        return cap
    return given if cap is None else min(cap, given)


def reply_of(response: Any, text: str | None) -> Reply:
    """The reply in ``response``, where it was cut when the provider ended it at its length
    limit (``finish_reason`` "length": at the completion tokens it reports), and its tokens'
    log probabilities where the provider returned them."""
    choice = response.choices[0]
    tokens = _token_logprobs(choice)
    if getattr(choice, "finish_reason", None) != "length":
        return Reply(text or "", None, tokens)
    count = getattr(getattr(response, "usage", None), "completion_tokens", None)
    return Reply(text or "", count if isinstance(count, int) and count > 0 else 0, tokens)


def _token_logprobs(choice: Any) -> Tokens | None:
    """``(token, log probability)`` for each token of the reply, from OpenAI's
    ``logprobs.content``; None when there are none, or they are not of that form."""
    logprobs = getattr(choice, "logprobs", None)
    content = (logprobs.get("content") if isinstance(logprobs, dict)
               else getattr(logprobs, "content", None))
    if not isinstance(content, list) or not content:
        return None
    tokens = []
    for entry in content:
        token = entry.get("token") if isinstance(entry, dict) else getattr(entry, "token", None)
        logprob = (entry.get("logprob") if isinstance(entry, dict)
                   else getattr(entry, "logprob", None))
        if not isinstance(token, str) or isinstance(logprob, bool) or not isinstance(
                logprob, (int, float)):
            return None
        tokens.append((token, float(logprob)))
    return tuple(tokens)


class Refused(Exception):
    """The provider refused a part of the request (``what``: "response_format", "logprobs")
    that the judge can do without."""

    def __init__(self, what: str, error: BaseException):
        super().__init__(f"{what}: {error}")
        self.what, self.error = what, error


_REFUSED_WHAT = {"response_format": "a JSON schema for its replies",
                 "logprobs": "to return token log probabilities"}
_REFUSAL_WORDS = {"response_format": ("response_format", "json_schema", "response schema",
                                      "grammar", "structured output"),
                  "logprobs": ("logprobs", "log probabilities")}


def _refused(error: BaseException, request: dict[str, Any]) -> str | None:
    """Which optional part of ``request`` the provider's ``error`` refuses, if any: a 400 or
    422 answer, or LiteLLM's own refusal of a parameter, that names it."""
    status = getattr(error, "status_code", None)
    if status not in (400, 422) and type(error).__name__ != "UnsupportedParamsError":
        return None
    text = str(error).lower()
    for what, words in _REFUSAL_WORDS.items():
        if what in request and any(word in text for word in words):
            return what
    return None


def _takes_schema(model: str, provider: str) -> bool:
    """Whether LiteLLM's capability table says ``model`` takes a JSON schema for its reply."""
    import litellm

    try:
        return bool(litellm.supports_response_schema(model=model,
                                                     custom_llm_provider=provider or None))
    except Exception:  # noqa: BLE001 - a model the table does not know: no
        return False


def _gives_logprobs(model: str, provider: str) -> bool:
    """Whether LiteLLM says the provider returns token log probabilities (``logprobs``)."""
    import litellm

    try:
        params = litellm.get_supported_openai_params(model=model,
                                                     custom_llm_provider=provider or None)
    except Exception:  # noqa: BLE001 - a provider LiteLLM cannot say of: not asked
        return False
    return "logprobs" in (params or ())


_OURS = {"model": "llm_callable", "messages": "the prompt", "num_retries": "max_retries",
         "max_retries": "ProvenanceLLM's max_retries", "stream": "a whole reply",
         "response_format": "structured_replies", "logprobs": "where the provider returns them"}


def _check_llm_kwargs(llm_kwargs: dict[str, Any]) -> None:
    """Keys the judge sets itself, and a timeout that is no number, fail every call: refused
    here, with what to use instead."""
    taken = sorted(set(llm_kwargs) & set(_OURS))
    if taken:
        raise ConfigurationError(
            f"llm_kwargs may not set {', '.join(taken)}: the judge sets "
            + "; ".join(f"{key} ({_OURS[key]})" for key in taken) + "."
        )
    timeout = llm_kwargs.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not timeout > 0):
        raise ConfigurationError(f"llm_kwargs['timeout'] must be a number of seconds > 0; got "
                                 f"{timeout!r}.")


def _check_model(model: str, llm_kwargs: dict[str, Any]) -> None:
    """Raise ``ConfigurationError`` for a model name LiteLLM cannot route to any provider (a
    typo such as "gpt-4o-minii"): caught here, before any text is validated. A name it can
    route may still not exist; the first call's 404 raises then."""
    import litellm  # slow to import (seconds): paid once, by the first LiteLLM judge

    litellm.suppress_debug_info = True  # no "Provider List" banner on stdout
    try:
        litellm.get_llm_provider(model, custom_llm_provider=llm_kwargs.get("custom_llm_provider"),
                                 api_base=llm_kwargs.get("api_base"))
    except Exception as error:  # noqa: BLE001 - LiteLLM raises several kinds here
        raise ConfigurationError(
            f"llm_callable={model!r} is not a model LiteLLM knows how to reach: check the "
            "spelling, or name the provider ('openai/<model>', also for an OpenAI-compatible "
            "server with llm_kwargs['api_base'], 'anthropic/<model>', 'ollama/<model>')."
        ) from error


# Providers that may sign requests with credentials from their platform (an instance role, a
# service account, Azure AD) rather than a variable: a key that is not set is no mistake there.
_AMBIENT_CREDENTIALS = frozenset(("bedrock", "sagemaker", "vertex_ai", "vertex_ai_beta", "azure",
                                  "azure_ai", "watsonx", "ollama", "ollama_chat"))


def _check_key(model: str, llm_kwargs: dict[str, Any]) -> None:
    """No API key where the provider needs one: said when the judge is made, not at the first
    validation (LiteLLM tells which variables a provider reads)."""
    if _provider(model, llm_kwargs)[0] in _AMBIENT_CREDENTIALS:
        return
    missing = _missing_keys(model, llm_kwargs)
    if missing:
        raise NoKeyError(no_key_message(model, missing))


def explained(error: Exception, model: str, llm_kwargs: dict[str, Any]) -> Exception:
    """``error``, raised by LiteLLM for ``model``, as one line that names the fix when it is one
    of the failures a user meets first: no API key, a key refused, a model the server does not
    have (each a ``ConfigurationError``: no retry can help), a server that cannot be reached
    (``JudgeUnreachable``, retried as before). Anything else is returned as it is, so its status
    and ``Retry-After`` still drive the retries. The provider's own message stays in the cause."""
    status = getattr(error, "status_code", None)
    answered = f" (HTTP {status})" if isinstance(status, int) else ""
    if refused_credentials(error):
        missing = _missing_keys(model, llm_kwargs)
        if missing:
            return NoKeyError(no_key_message(model, missing))
        return JudgeAuthError(refused_key_message(model, answered, _key_name(model, llm_kwargs),
                                                  passed=bool(llm_kwargs.get("api_key"))))
    if misconfigured(error):
        return ConfigurationError(
            f"the judge's server has no model {model!r}{answered}: check llm_callable (the "
            "model's name as the server knows it) and llm_kwargs['api_base'].")
    if unreachable(error):
        return JudgeUnreachable(f"{UNREACHABLE} at {_base(model, llm_kwargs)} "
                                f"for {model!r}: start it, or check llm_kwargs['api_base'].")
    return error


class JudgeUnreachable(ConnectionError):
    """The judge's server did not answer the connection: retried like any network fault."""


def _missing_keys(model: str, llm_kwargs: dict[str, Any]) -> list[str]:
    """The environment variables LiteLLM looks for and did not find, when no key was passed."""
    import litellm

    if llm_kwargs.get("api_key"):
        return []
    try:
        found = litellm.validate_environment(model, api_base=llm_kwargs.get("api_base"))
    except Exception:  # noqa: BLE001 - a provider LiteLLM cannot check: say nothing of it
        return []
    return [str(name) for name in found.get("missing_keys") or []]


def _provider(model: str, llm_kwargs: dict[str, Any]) -> tuple[str, str | None]:
    import litellm

    try:
        _, provider, _, base = litellm.get_llm_provider(
            model, custom_llm_provider=llm_kwargs.get("custom_llm_provider"),
            api_base=llm_kwargs.get("api_base"))
    except Exception:  # noqa: BLE001 - checked when the judge was made
        return "", llm_kwargs.get("api_base")
    return provider, llm_kwargs.get("api_base") or base


def _key_name(model: str, llm_kwargs: dict[str, Any]) -> str:
    provider = _provider(model, llm_kwargs)[0]
    return f"{provider.upper()}_API_KEY" if provider else "the provider's API key variable"


def _base(model: str, llm_kwargs: dict[str, Any]) -> str:
    return _provider(model, llm_kwargs)[1] or "the provider's default address"
