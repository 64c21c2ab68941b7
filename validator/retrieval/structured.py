"""Evidence read as values: the results of the tools a conversation called, and the sources
that are JSON, each found for a claim beside the sources' passages.

A JSON result or source is cut into records (``text.records``), a result in prose into
passages of a few sentences. What a claim is shown of them:

- every record when there are no more than ``ALL_SHOWN`` (a tool call or two: the usual
  case), else the ``top_k`` that BM25 ranks highest for the claim, searched on each record's
  keys as words joined to its values ("shipped on May 2, 2026"), since a record is names,
  numbers and dates that are found by their words, not their meaning;
- of a record with more than ``FIELDS_SHOWN`` fields, those that share most with the claim,
  in their order, the number left out stated in its text (a result of a few hundred fields
  costs a judge a few dozen lines); of a passage of prose, at most ``PASSAGE_CHARS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from ..text import assertions, records
from ..text.sentences import split_sentences
from ..text.word_forms import content_words
from ..types import Chunk, Claim, Evidence, Field, Tool
from .index.bm25 import LexicalIndex

ALL_SHOWN = 8  # records and passages a claim is shown all of, unranked
FIELDS_SHOWN = 24  # fields of one record a claim is shown, the most relevant
PROSE_SENTENCES = 3  # sentences of a result in prose to a passage
PASSAGE_CHARS = 2_000  # characters of one such passage at most (the rest is cut, and says so)


@dataclass(frozen=True)
class _Passage:
    evidence: Evidence
    about: str  # what a search reads of it


class Structured:
    """The tool results and JSON sources of one validation, ready to be searched: each parsed
    once, and a result marked an error where its turn or its content says the call failed."""

    def __init__(self, tools: Sequence[tuple[Tool, str]], sources: Sequence[str], top_k: int):
        self.top_k = top_k
        self.json_sources: set[int] = set()
        passages: list[_Passage] = []
        for tool, text in tools:
            data = records.parse(text)
            tool = replace(tool, error=tool.error or records.says_failed(text, data))
            if data is None and tool.error:  # read as what it is: the call's error
                data = {"error": text}
            if data is None:
                passages.extend(_prose(tool, text))
            else:
                passages.extend(_records(data, tool=tool))
        for n, source in enumerate(sources):
            data = records.parse(source)
            if data is not None:
                self.json_sources.add(n)
                passages.extend(_records(data, chunk=Chunk(source, 0, len(source), n)))
        self._passages = passages

    def __bool__(self) -> bool:
        return bool(self._passages)

    @cached_property
    def _index(self) -> LexicalIndex:
        return LexicalIndex.build([p.about for p in self._passages])

    def find(self, claim: Claim, query: str) -> list[Evidence]:
        """What ``claim`` is shown (searched with ``query``): see the module's docstring. A
        claim that cites sources is shown the JSON ones of them, and the tool results."""
        mask = np.array([claim.within is None or p.evidence.source is None
                         or p.evidence.source in claim.within for p in self._passages])
        shown = [int(n) for n in np.flatnonzero(mask)]
        if len(shown) > ALL_SHOWN:
            shown = sorted(self._index.top(query, self.top_k, mask))
        return [_relevant(self._passages[n].evidence, claim.text) for n in shown]


def _records(data: object, tool: Tool | None = None, chunk: Chunk | None = None
             ) -> list[_Passage]:
    found = []
    for record in records.records(data):
        text = records.shown(record.fields) + (
            f"\n(the document has more than {records.MAX_FIELDS:,} fields: the rest were not "
            "read)" if record.cut else "")
        evidence = Evidence(text, chunk=chunk, tool=tool, fields=record.fields, cut=record.cut)
        found.append(_Passage(evidence, records.about(record.fields)))
    return found


def _prose(tool: Tool, text: str) -> list[_Passage]:
    """A result in prose, in passages of a few sentences; none for a result that opens as a
    message to its reader ("### System", "From: system", "Note to the assistant:"): what
    follows such a label is the message, not data."""
    first = text.strip().split("\n", 1)[0]
    if assertions.unasserted(first) == assertions.INSTRUCTION:
        return []
    sentences = split_sentences(text)
    found = []
    for k in range(0, len(sentences), PROSE_SENTENCES):
        group = sentences[k:k + PROSE_SENTENCES]
        start, end = group[0].start, group[-1].end
        cut = end - start > PASSAGE_CHARS
        end = min(end, start + PASSAGE_CHARS)
        passage = text[start:end]
        found.append(_Passage(Evidence(passage, tool=replace(tool, start=start, end=end),
                                       cut=cut), passage))
    if not found and text.strip():
        passage = text[:PASSAGE_CHARS]
        found.append(_Passage(Evidence(passage, tool=replace(tool, start=0, end=len(passage)),
                                       cut=len(text) > PASSAGE_CHARS), passage))
    return found


def _relevant(evidence: Evidence, claim: str) -> Evidence:
    """``evidence`` with no more than ``FIELDS_SHOWN`` fields: those that share most words
    with ``claim``, in their order."""
    fields = evidence.fields
    if len(fields) <= FIELDS_SHOWN:
        return evidence
    words = content_words(claim)
    shares = [len(words & content_words(records.about((f,)))) for f in fields]
    kept = sorted(sorted(range(len(fields)), key=lambda n: -shares[n])[:FIELDS_SHOWN])
    chosen: tuple[Field, ...] = tuple(fields[n] for n in kept)
    return replace(evidence, text=records.shown(chosen, len(fields) - len(chosen)),
                   fields=chosen, cut=True)
