"""The rule checker: what a claim states against what its evidence states, without a model.

One entry point, ``check(claim, evidence) -> Findings``. The walk, bottom up: ``tokens`` is the
vocabulary, ``quantities`` what a number allows, ``word_lists`` the negations, opposites,
irregular verbs and synonyms it knows; ``reading`` reads each text into clauses of tokens,
undoing the ``restatements``; ``alignment`` lines the claim's clauses up with the evidence's;
``checker`` says what kind of decision that is. ``keeps_facts`` (``facts``) tells whether
claims extracted from a sentence keep its numbers, dates and names; ``in_context`` reads a
pronoun that opens a sentence as the subject of the sentence before, as ``reading`` reads a
source's.
"""

from .checker import CONFLICTS, Findings, check, proves
from .facts import keeps_facts, normalise, read_facts
from .reading import in_context

__all__ = ["CONFLICTS", "Findings", "check", "in_context", "keeps_facts", "normalise",
           "proves", "read_facts"]
