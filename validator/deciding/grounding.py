"""Conversation grounding: a claim the sources leave unsupported that restates what the user
asserted about themselves ("Your order hasn't arrived" after "My order hasn't arrived") is
supported by the user's words, unless the sources say otherwise.

The sources outweigh the user. So a claim near a user's sentence (``text.said.nearest``) is
searched for again, deeper than its first passages (``DEEPER`` times ``top_k``): a passage that
gives the fact otherwise may not have been among the first. A claim whose passages, or another
sentence of the user's near it, give another value for one of its measures is not asked about
(the rules decide that, whatever a judge would say); any other is judged, as a rewrite is,
against its passages and the user's sentences together, each of those marked as the user's
(``judges.prompts.passage``): a judge that finds a passage saying otherwise does not call it
supported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .. import rules
from ..request import Request
from ..retrieval.retriever import Retriever
from ..runtime.deadline import Scope
from ..runtime.pool import Busy, offload
from ..text.said import nearest, quoted, unframed
from ..types import SUPPORTED, UNSUPPORTED, Claim, Evidence
from .decider import Decided, Decider

DEEPER = 3  # a grounded claim's passages are searched for this many times top_k deep


class Grounding:
    """The grounding stage of a validation: ``ground`` after the claims are decided."""

    def __init__(self, decider: Decider, on: bool):
        self.decider = decider
        self.on = on  # the conversation_grounding setting

    async def ground(self, claims: Sequence[Claim], decided: Decided, retriever: Retriever,
                     request: Request, scope: Scope) -> Decided:
        """``decided`` with each claim the sources leave unsupported, that restates what the
        user asserted in the conversation and that no passage found for it gives otherwise,
        supported by the user's words."""
        # a sentence that cites a source says the source backs it: the user's word cannot
        open_ = [n for n, verdict in enumerate(decided.verdicts)
                 if verdict.label == UNSUPPORTED and claims[n].within is None]
        if not (self.on and request.conversation and open_):
            return decided
        texts = {n: unframed(claims[n].text) for n in open_}
        # reading the user's turns: in the pool, off the loop
        near = await offload(nearest, list(texts.values()), request.conversation)
        candidates = [(n, said) for n, said in zip(open_, near, strict=True) if said]
        if not candidates:
            return decided
        passages = await self._passages([claims[n] for n, _ in candidates], retriever)
        if passages is None:  # the sources could not be searched again: they may say otherwise
            return decided
        weighed = await offload(_weighed, [texts[n] for n, _ in candidates],
                                [said for _, said in candidates], passages)
        asked = [(n, said, found) for (n, said), found, stands
                 in zip(candidates, passages, weighed, strict=True) if stands]
        if not asked:
            return decided
        judged = await self.decider.judge_texts(
            [texts[n] for n, _, _ in asked], [[*found, *said] for _, said, found in asked],
            request, scope)
        verdicts, grounded = list(decided.verdicts), dict(decided.said)
        for (n, said, _), verdict in zip(asked, judged, strict=True):
            if verdict.label == SUPPORTED:
                # the judge's own reason speaks of "the passage": the user's words are quoted
                turns = ", ".join(str(t) for t in sorted({e.said.turn for e in said if e.said}))
                verdicts[n] = replace(verdict, reason=(
                    f"the user said it (turn {turns}), not the sources: "
                    f"'{quoted(texts[n], said[0])}'"))
                grounded[n] = said
        return replace(decided, verdicts=verdicts, said=grounded)

    async def _passages(self, claims: list[Claim], retriever: Retriever
                        ) -> list[list[Evidence]] | None:
        """Each claim's passages, searched ``DEEPER`` times deeper than its first; None where a
        query function refused the search (too many of its calls still running)."""
        found = retriever.find(claims, depth=DEEPER)
        try:
            return [await found.get(i) for i in range(len(claims))]
        except Busy:
            return None

    def ready(self) -> None:
        """Load the rules, which hold back a user's measure that the sources give otherwise."""
        rules.check("It opened in 1900.", [Evidence("The hall opened in 1900.")])


def _weighed(claims: Sequence[str], said: Sequence[Sequence[Evidence]],
             passages: Sequence[Sequence[Evidence]]) -> list[bool]:
    """For each claim, whether it may be judged against what the user said: not where its
    passages give another value for one of its measures (the sources win, whatever the user
    said), nor where a sentence of the user's near it does (the user said it otherwise too,
    before or after)."""
    return [not (found and _other_value(claim, found)
                 or any(_other_value(claim, [e]) for e in near))
            for claim, near, found in zip(claims, said, passages, strict=True)]


def _other_value(claim: str, passages: Sequence[Evidence]) -> bool:
    """Whether the rules find the passages contradicting the claim, or giving another value
    for a measure of it ("30 days" where it says "90 days"). Fails closed: "paid 10 days ago"
    against "ships within 3 days" is held back too."""
    found = rules.check(claim, passages)
    return found.contradiction or found.other_value
