"""The text stage as the pipeline calls it: the validated text read once into its sentences
(or claims' sentences, or the whole text), each with its citation and, when it asserts
nothing, its form."""

from __future__ import annotations

from dataclasses import dataclass

from ..types import ReadSentence
from . import citations, non_claims
from .sentences import units


@dataclass(frozen=True)
class Reading:
    """The settings the text stage reads (each field is the setting of that name)."""

    validation_method: str
    language: str
    citations: str
    skip_non_claims: bool


def read(value: str, question: str | None, reading: Reading) -> list[ReadSentence]:
    """Each sentence of ``value`` in order. A sentence that cites a source is a claim whatever
    its form; with ``skip_non_claims`` one that asserts nothing (a greeting, a question back,
    a refusal) is set aside with its form."""
    read_sentences = []
    for sentence in units(value, reading.validation_method, reading.language):
        citation, text = citations.read(sentence.text, reading.citations)
        form = (non_claims.form_of(text, question)
                if reading.skip_non_claims and not citation.cited else None)
        read_sentences.append(ReadSentence(sentence, text, citation, form))
    return read_sentences
