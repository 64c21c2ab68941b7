"""The one interface every judge implements, and the shared machinery of prompt judges:
reply cache, retries with backoff, reply parsing."""

from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..deadline import remaining
from ..index import Evidence
from ..prompts import build_batch_prompt, build_claims_prompt, build_prompt, check_template
from ..verdicts import (
    BY_CACHE,
    BY_FALLBACK,
    BY_LLM,
    INVALID,
    Verdict,
    parse_batch_reply,
    parse_claims,
    parse_reply,
)


@runtime_checkable
class Judge(Protocol):
    """Decides whether ``claim`` is backed by ``evidence``. Must be safe to call from threads."""

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict: ...


@runtime_checkable
class BatchJudge(Protocol):
    """A judge that can also decide several claims in one call (``batch_size`` > 1)."""

    def judge_batch(
        self, items: Sequence[tuple[str, Sequence[Evidence]]], question: str | None = None
    ) -> list[Verdict]: ...


@runtime_checkable
class ClaimExtractor(Protocol):
    """A judge that can break a sentence into atomic claims (``validation_method="claim"``).
    Returns None when it cannot; the sentence is then judged whole."""

    def extract_claims(
        self, sentence: str, answer: str, question: str | None = None
    ) -> list[str] | None: ...


class JudgeAuthError(RuntimeError):
    """The judge's credentials were refused: retrying cannot help, so validation stops."""


_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}
_AUTH_STATUS = {401, 403}
_PERMANENT_STATUS = {400, 404, 413, 422}


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def _retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait, from the error's response headers if any."""
    candidates = (
        getattr(error, "litellm_response_headers", None),  # LiteLLM keeps the real ones here
        getattr(error, "headers", None),
        getattr(getattr(error, "response", None), "headers", None),
    )
    for headers in candidates:
        try:
            value = headers.get("retry-after") if headers is not None else None
            if value is not None:
                return max(0.0, float(value))
        except (TypeError, ValueError, AttributeError):
            continue
    return None


def _names_auth(error: BaseException) -> bool:
    # LiteLLM reports a key missing on our side as an InternalServerError; no retry helps.
    return type(error).__name__ in ("AuthenticationError", "PermissionDeniedError") or (
        "missing credentials" in str(error).lower()
    )


class ReplyCache:
    """A bounded, thread-safe LRU from prompt to what was read from its reply."""

    def __init__(self, max_entries: int = 4096):
        self.max_entries = max_entries
        self._entries: OrderedDict[str, object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, prompt: str) -> object | None:
        with self._lock:
            found = self._entries.get(prompt)
            if found is not None:
                self._entries.move_to_end(prompt)
            return found

    def put(self, prompt: str, parsed: object) -> None:
        if self.max_entries <= 0:
            return
        with self._lock:
            self._entries[prompt] = parsed
            self._entries.move_to_end(prompt)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)


class ReplyStore:
    """Replies kept on disk, one small JSON file per (judge identity, prompt), so that a rerun
    (another process, another day) pays for no call it already made. Only replies something
    readable was found in are stored. Files are written to a temporary name and renamed; a
    file that cannot be read is ignored (the call is made again) and rewritten."""

    def __init__(self, directory: str | os.PathLike, identity: str):
        self.directory = Path(directory)
        self.identity = identity
        self._warned = False

    def _path(self, prompt: str) -> Path:
        key = hashlib.sha256(f"{self.identity}\x00{prompt}".encode("utf-8", "surrogatepass"))
        digest = key.hexdigest()
        return self.directory / digest[:2] / f"{digest}.json"

    def get(self, prompt: str) -> str | None:
        try:
            stored = json.loads(self._path(prompt).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        reply = stored.get("reply") if isinstance(stored, dict) else None
        return reply if isinstance(reply, str) else None

    def put(self, prompt: str, reply: str) -> None:
        path = self._path(prompt)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump({"identity": self.identity, "reply": reply}, file)
            os.replace(temporary, path)
        except OSError as error:
            if not self._warned:
                self._warned = True
                warnings.warn(f"cannot store judge replies in {self.directory} ({error}); "
                              "going on without the disk cache", stacklevel=2)


@dataclass(frozen=True)
class Answer:
    """What ``PromptJudge.ask`` read from a reply: ``value`` None when nothing readable came
    back (``problem`` says why); ``how`` is BY_LLM, BY_CACHE or BY_FALLBACK."""

    value: object | None
    how: str
    problem: str = ""


class PromptJudge:
    """A judge that sends a prompt to a model and reads a verdict from the reply.

    Subclasses implement ``complete(prompt) -> str``. Transient failures (timeouts, refused
    connections, 429 and 5xx answers) are retried ``max_retries`` times with exponential
    backoff that honours ``Retry-After``; a refused credential raises ``JudgeAuthError`` at once;
    anything else that keeps failing yields an INVALID verdict decided by fallback.
    """

    def __init__(self, max_retries: int = 2, backoff: float = 0.5, cache_size: int = 4096,
                 template: str | None = None):
        self.max_retries = max_retries
        self.backoff = backoff
        self.cache = ReplyCache(cache_size)
        self.store: ReplyStore | None = None  # replies on disk; see LiteLLMJudge's cache_dir
        self.template = None if template is None else check_template(template)

    def complete(self, prompt: str) -> str:
        raise NotImplementedError

    def ask(self, prompt: str, read: Callable[[str], object | None],
            keep: Callable[[object], bool] = lambda value: True) -> Answer:
        """``read(reply)`` for ``prompt``, from the caches when there. A value ``keep`` refuses
        is returned (``how`` BY_FALLBACK) but not cached; a reply ``read`` finds nothing in
        (None) gives no value. Every prompt but the batched one goes through here."""
        cached = self.cache.get(prompt)
        if cached is not None:
            return Answer(cached, BY_CACHE)
        reply, how = self._reply(prompt)
        if isinstance(reply, BaseException):
            return Answer(None, BY_FALLBACK, _failure(reply))
        value = read(reply)
        if value is None:
            return Answer(None, BY_FALLBACK, "the judge's reply has nothing readable")
        if not keep(value):
            return Answer(value, BY_FALLBACK)
        self._keep(prompt, reply, value)
        return Answer(value, how)

    def judge(
        self, claim: str, evidence: Sequence[Evidence], question: str | None = None
    ) -> Verdict:
        untrusted = [claim, question, *(e.text for e in evidence)]
        answer = self.ask(build_prompt(claim, evidence, question, self.template),
                          lambda reply: parse_reply(reply, untrusted),
                          keep=lambda verdict: verdict.label != INVALID)
        if answer.value is None:  # the call failed (parse_reply always gives a verdict)
            return Verdict(INVALID, answer.problem, how=BY_FALLBACK)
        verdict = answer.value
        return verdict if verdict.label == INVALID else replace(verdict, how=answer.how)

    def judge_batch(
        self, items: Sequence[tuple[str, Sequence[Evidence]]], question: str | None = None
    ) -> list[Verdict]:
        """One call for every item not in the cache. Items the reply gives no readable verdict
        for are judged again one by one; if the call itself fails, they are INVALID."""
        keys = [build_prompt(claim, evidence, question, self.template) for claim, evidence in items]
        found: list[Verdict | None] = []
        for key in keys:
            cached = self.cache.get(key)
            found.append(None if cached is None else replace(cached, how=BY_CACHE))
        pending = [i for i, verdict in enumerate(found) if verdict is None]
        if len(pending) > 1:
            prompt = build_batch_prompt([items[i] for i in pending], question)
            reply, how = self._reply(prompt)
            if isinstance(reply, BaseException):
                return [verdict or _failed(reply) for verdict in found]
            untrusted = [question, *(part for i in pending for part in
                                     (items[i][0], *(e.text for e in items[i][1])))]
            parsed = parse_batch_reply(reply, len(pending), untrusted)
            if self.store is not None and any(v is not None and v.label != INVALID for v in parsed):
                self.store.put(prompt, reply)
            for i, verdict in zip(pending, parsed, strict=True):
                if verdict is not None and verdict.label != INVALID:
                    verdict = replace(verdict, how=how)
                    self.cache.put(keys[i], verdict)
                    found[i] = verdict
        return [verdict or self.judge(*items[i], question) for i, verdict in enumerate(found)]

    def extract_claims(
        self, sentence: str, answer: str, question: str | None = None
    ) -> list[str] | None:
        def read(reply: str) -> tuple[str, ...] | None:
            claims = parse_claims(reply, [sentence, answer])
            return None if claims is None else tuple(claims)

        claims = self.ask(build_claims_prompt(sentence, answer, question), read).value
        return None if claims is None else list(claims)

    def _reply(self, prompt: str) -> tuple[str | BaseException, str]:
        """The reply to ``prompt`` and how it came: from the disk store, or from the model."""
        stored = self.store.get(prompt) if self.store is not None else None
        if stored is not None:
            return stored, BY_CACHE
        return self._complete_with_retries(prompt), BY_LLM

    def _keep(self, prompt: str, reply: str, value: object) -> None:
        self.cache.put(prompt, value)
        if self.store is not None:
            self.store.put(prompt, reply)

    def _complete_with_retries(self, prompt: str) -> str | BaseException:
        for attempt in range(self.max_retries + 1):
            left = remaining()
            if left is not None and left <= 0:
                return TimeoutError("the validation's deadline passed before the judge answered")
            try:
                return self.complete(prompt)
            except Exception as error:  # noqa: BLE001 - every failure is classified below
                status = _status(error)
                if status in _AUTH_STATUS or _names_auth(error):
                    raise JudgeAuthError(
                        f"the judge refused the credentials ({type(error).__name__}: {error}). "
                        "Set the provider's API key (for example OPENAI_API_KEY) or pass "
                        "api_key in llm_kwargs."
                    ) from error
                if status in _PERMANENT_STATUS or attempt == self.max_retries:
                    warnings.warn(
                        f"judge call failed after {attempt + 1} attempt(s): "
                        f"{type(error).__name__}: {error}",
                        stacklevel=2,
                    )
                    return error
                delay = self._delay(attempt, error, status)
                left = remaining()
                if left is not None and delay >= left:
                    return TimeoutError(
                        f"the judge failed ({type(error).__name__}: {error}) and the validation's "
                        "deadline passes before a retry could be made"
                    )
                time.sleep(delay)
        raise AssertionError("unreachable")  # the loop always returns or raises

    def _delay(self, attempt: int, error: BaseException, status: int | None) -> float:
        hinted = _retry_after(error) if status in _TRANSIENT_STATUS else None
        if hinted is not None:
            return min(hinted, 30.0)
        return min(self.backoff * 2**attempt, 30.0) * (0.5 + random.random() / 2)


def _failure(error: BaseException) -> str:
    return f"the judge failed: {type(error).__name__}: {error}"


def _failed(error: BaseException) -> Verdict:
    return Verdict(INVALID, _failure(error), how=BY_FALLBACK)
