"""An example judge plugin: ``llm_callable="wordy:<case>"`` finds a claim supported when a
passage states it word for word ("wordy:exact" as written, "wordy:any-case" case aside)."""

import re

from provenance_guard import Verdict


class WordForWord:
    def __init__(self, any_case: bool):
        self.any_case = any_case

    def judge(self, claim, evidence, question=None):
        flags = re.IGNORECASE if self.any_case else 0
        said = claim.strip().rstrip(".")
        # the claim's words whole ("5" is not "50"), and a claim with words at all
        whole = re.compile(rf"(?<!\w){re.escape(said)}(?!\w)", flags)
        if said and any(whole.search(passage.text) for passage in evidence):
            return Verdict("supported", "a passage says it word for word", score=1.0)
        return Verdict("unsupported", "no passage says it word for word", score=0.0)


def make(rest, llm_kwargs, settings):
    """The judge ``wordy:<rest>`` names; ``settings`` are the validator's judge settings."""
    if rest not in ("exact", "any-case"):
        raise ValueError(f"wordy: takes 'exact' or 'any-case'; got {rest!r}.")
    return WordForWord(any_case=rest == "any-case")
