"""The rule checker: what a claim states against what its evidence states, without a model.

One entry point, ``check(claim, evidence) -> Findings``: ``alignment`` reads each text into
clauses and lines the claim's up with the evidence's (``word_lists`` holds the negations and
opposites it knows), ``checker`` says what kind of decision the alignment makes.
``keeps_facts`` (``facts``) tells whether claims extracted from a sentence keep its numbers,
dates and names.
"""

from .checker import CONFLICTS, Findings, check
from .facts import keeps_facts, normalise, read_facts

__all__ = ["CONFLICTS", "Findings", "check", "keeps_facts", "normalise", "read_facts"]
