"""The rule checker: what a claim states against what its evidence states, without a model.

One entry point, ``check(claim, evidence) -> Findings``; ``keeps_facts`` tells whether claims
extracted from a sentence keep its numbers, dates and names. Inside, a straight line:
``facts`` reads each text (``clauses`` for what each clause asserts, ``word_lists`` for the
words the rules know), ``checker`` compares and gives the findings.
"""

from .checker import Findings, check, keeps_facts
from .facts import normalise, read_facts

__all__ = ["Findings", "check", "keeps_facts", "normalise", "read_facts"]
