"""What one validation is given: the text and the metadata (``Request``), checked before
anything is embedded or judged, and how the sources are cut (``Chunking``).

A bad value raises ``ValueError`` naming the metadata key, what was given and the fix.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import warn
from .settings import boolean, count
from .text.conversation import (
    CONVERSATION_CHARS,
    USER,
    Turn,
    check_messages,
    last_user_turn,
    shown,
    tool_results,
)
from .types import Context, Tool

CHUNK_STRATEGIES = ("full", "sentence", "word", "char", "token")
# The metadata keys a validation reads; "sentences", "groundedness" and "usage" are what it
# adds to the metadata Guardrails hands to the next validator (a second ProvenanceLLM reads
# past them).
METADATA_KEYS = ("sources", "query_function", "embed_function", "chunk_strategy", "chunk_size",
                 "chunk_overlap", "pass_on_invalid", "question", "messages")
RESULT_KEYS = ("sentences", "groundedness", "usage")


@dataclass(frozen=True)
class Chunking:
    """How sources are cut into chunks: ``size`` units per chunk (sentences, words, ...),
    ``overlap`` units shared by neighbours."""

    strategy: str = "full"
    size: int = 5
    overlap: int = 2

    def as_metadata(self) -> dict[str, Any]:
        return {"chunk_strategy": self.strategy, "chunk_size": self.size,
                "chunk_overlap": self.overlap}


# The metadata defaults are the hub validator's (a source is one chunk). The commands and the
# labelled suite chunk by sentence, so that evidence is a passage, not a document.
HUB_CHUNKING = Chunking()
COMMAND_CHUNKING = Chunking("sentence", 3, 1)
SUITE_CHUNKING = Chunking("sentence", 1, 0)


def check_chunking(strategy: object, size: object, overlap: object) -> Chunking:
    """The chunking the metadata asks for, or ``ValueError`` naming the key and the fix."""
    if strategy not in CHUNK_STRATEGIES:
        raise ValueError(
            f"metadata['chunk_strategy'] must be one of {', '.join(CHUNK_STRATEGIES)}; "
            f"got {strategy!r}."
        )
    size = count("metadata['chunk_size']", size, 1, None)
    try:
        overlap = count("metadata['chunk_overlap']", overlap, 0, size - 1)
    except ValueError:
        raise ValueError(
            "metadata['chunk_overlap'] must be a whole number from 0 to chunk_size - 1 "
            f"(chunk_size is {size}); got {overlap!r}."
        ) from None
    return Chunking(strategy, size, overlap)


@dataclass(frozen=True)
class Request:
    """One validation's value and metadata, checked. Exactly one of ``sources`` and
    ``query_function`` is set."""

    value: str
    metadata: dict[str, Any]  # the caller's, never changed
    pass_on_invalid: bool
    question: str | None = None
    # the conversation the text replies to (metadata["messages"]), oldest turn first
    conversation: tuple[Turn, ...] = ()
    # the results of the tools the conversation called, each with where it came from: evidence
    # beside the sources (``conversation.tool_results``)
    tools: tuple[tuple[Tool, str], ...] = ()
    sources: list[str] | None = None
    query_function: Callable | None = None
    embed_function: Callable | None = None
    chunking: Chunking = field(default_factory=Chunking)

    @property
    def context(self) -> Context:
        """What the judges read beside the evidence: the question, and the newest of the
        user's turns that fit in ``CONVERSATION_CHARS``. The assistant's, system, developer and
        tool turns are never shown: a judge that took them as evidence would ground what
        nobody may (an earlier answer may itself be made up), and what is not shown cannot be
        taken (docs/design/conversation.md)."""
        users = [t for t in self.conversation if t.role == USER]
        return Context(self.question, tuple((t.role, t.content)
                                            for t in shown(users, CONVERSATION_CHARS)))

    @property
    def source_count(self) -> int | None:
        """The number of sources; None with a query_function, whose passages have no number."""
        return None if self.sources is None else len(self.sources)

    @property
    def no_sources(self) -> bool:
        """No sources, or only empty ones (whitespace), and no tool results: nothing to read,
        embed or judge by."""
        return (self.sources is not None and not any(source.strip() for source in self.sources)
                and not self.tools)


@dataclass(frozen=True)
class Defaults:
    """The settings a request is read with (each field is the setting of that name)."""

    pass_on_invalid: bool
    max_source_chars: int | None


def read_request(value: Any, metadata: dict[str, Any] | None, settings: Defaults) -> Request:
    """Check what ``validate`` was given and return it as a ``Request``."""
    metadata = {} if metadata is None else metadata
    if not isinstance(value, str):
        raise ValueError(
            f"ProvenanceLLM validates text; got {type(value).__name__}. Apply it to a "
            "string field, or convert the value to str first."
        )
    if not isinstance(metadata, dict):
        raise ValueError(f"metadata must be a dict; got {type(metadata).__name__}.")
    _warn_unknown_keys(metadata)
    pass_on_invalid = boolean("metadata['pass_on_invalid']",
                              metadata.get("pass_on_invalid", settings.pass_on_invalid))
    question = metadata.get("question")
    if question is not None and not isinstance(question, str):
        raise ValueError(f"metadata['question'] must be a string; got {type(question).__name__}.")
    messages = metadata.get("messages")
    conversation = () if messages is None else check_messages(messages)
    if question is None:  # the reply answers what the user said last
        question = last_user_turn(conversation)
    tools = tuple(tool_results(conversation))
    common: dict[str, Any] = {"value": value, "metadata": metadata,
                              "pass_on_invalid": pass_on_invalid, "question": question,
                              "conversation": conversation, "tools": tools}

    query_function = metadata.get("query_function")
    if query_function is not None:
        if metadata.get("sources") is not None:
            warn(
                "metadata has both 'query_function' and 'sources'; using query_function.",
            )
        if not callable(query_function):
            raise ValueError(
                "metadata['query_function'] must be callable as query_function(text=..., "
                f"k=...); got {type(query_function).__name__}."
            )
        return Request(**common, query_function=query_function)
    # a conversation with tool results is the evidence, even where none answers a call (then
    # nothing is evidence, and every claim fails for it, as with no sources)
    if metadata.get("sources") is None and not any(turn.results for turn in conversation):
        raise ValueError(
            "ProvenanceLLM needs metadata['sources'] (a list of strings) or "
            "metadata['query_function'] (text, k -> chunks). Pass one of them, e.g. "
            "guard.validate(text, metadata={'sources': [...]}), or the conversation's tool "
            "calls and their results in metadata['messages']."
        )
    sources = [] if metadata.get("sources") is None else check_sources(metadata["sources"])
    size_of_sources = sum(len(s) for s in sources) + sum(len(text) for _, text in tools)
    if settings.max_source_chars is not None and size_of_sources > settings.max_source_chars:
        raise ValueError(
            f"metadata['sources']{' and the tool results' if tools else ''} hold "
            f"{size_of_sources:,} characters, more than "
            f"max_source_chars={settings.max_source_chars:,}. Pass the passages retrieved for "
            "this answer rather than whole corpora (or a query_function over an index of your "
            "own), or raise max_source_chars (None: no limit)."
        )
    chunking = check_chunking(metadata.get("chunk_strategy", HUB_CHUNKING.strategy),
                              metadata.get("chunk_size", HUB_CHUNKING.size),
                              metadata.get("chunk_overlap", HUB_CHUNKING.overlap))
    embed_function = metadata.get("embed_function")
    if embed_function is not None and not callable(embed_function):
        raise ValueError(
            "metadata['embed_function'] must be callable (list of str -> array of shape "
            f"(n, dim)); got {type(embed_function).__name__}."
        )
    return Request(**common, sources=sources, embed_function=embed_function, chunking=chunking)


def _warn_unknown_keys(metadata: dict) -> None:
    """A key ProvenanceLLM does not read is warned about, with the closest one it reads: a
    mistyped key (``embed_fn``) would otherwise leave its setting at the default unnoticed. A
    key meant for another validator of the same Guard is legitimate, so this is a warning (shown
    once per key), not an error."""
    for key in metadata:
        if key in METADATA_KEYS or key in RESULT_KEYS:
            continue
        close = difflib.get_close_matches(str(key), METADATA_KEYS, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else "."
        warn(f"metadata key {key!r} is not one ProvenanceLLM reads, so it is ignored{hint} "
             f"ProvenanceLLM reads {', '.join(METADATA_KEYS)}. (A key for another validator "
             "of the same Guard is fine.)")


def check_sources(sources: object) -> list[str]:
    """Return ``sources`` as a list of strings, or raise ``ValueError`` naming the fix."""
    if isinstance(sources, (str, bytes)) or not isinstance(sources, (list, tuple)):
        raise ValueError(
            "metadata['sources'] must be a list of strings; got "
            f"{type(sources).__name__}. Pass the retrieved passages as a list, e.g. "
            "{'sources': [passage_1, passage_2]}."
        )
    for i, source in enumerate(sources):
        if not isinstance(source, str):
            raise ValueError(
                f"metadata['sources'][{i}] must be a string; got {type(source).__name__}. "
                "Convert each passage to text before validating."
            )
    return list(sources)
