"""Checks on what the caller passes for retrieval: ``sources`` and ``query_function``."""

from __future__ import annotations

import numbers
from collections.abc import Callable

from .index import Evidence


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


def query_function_evidence(query_function: Callable, text: str, k: int) -> list[Evidence]:
    """Call a user's ``query_function(text=..., k=...)`` and check what it returns: a list of
    chunk strings, or of ``(chunk, score)`` pairs."""
    returned = query_function(text=text, k=k)
    if not isinstance(returned, (list, tuple)):
        raise ValueError(
            "metadata['query_function'] must return a list of chunk strings or (chunk, score) "
            f"pairs; got {type(returned).__name__}."
        )
    evidence = []
    for i, item in enumerate(returned[:k]):
        if isinstance(item, str):
            evidence.append(Evidence(item))
        elif (
            isinstance(item, (list, tuple))
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], numbers.Real)
        ):
            evidence.append(Evidence(item[0], similarity=float(item[1])))
        else:
            raise ValueError(
                f"metadata['query_function'] returned {type(item).__name__} at position {i}; "
                "each item must be a chunk string or a (chunk, score) pair."
            )
    return evidence
