"""A reply's sentence read against what the user said: the reply's framing taken off ("I'm
sorry", "As you said,"), whether it speaks of the user, which of the user's sentences it says
back (those that hold most of its words), and the user's own words it repeats, for a reason to
quote. What the sources say of it is not read here: the grounding stage
(``deciding.grounding``) weighs that.

Words are read by the one word reader (``word_forms``): folded, without the function words
(``grammar.FUNCTION_WORDS``), as Snowball stems, so that "arrive" meets "arrived".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..types import Evidence
from .conversation import Turn, asserted
from .cues import SAID_BACK_FRAME
from .grammar import (
    DEMONSTRATIVES,
    FIRST_PLURAL,
    FIRST_SINGULAR,
    FUNCTION_WORDS,
    PERSONAL,
    POSSESSIVE,
    SECOND,
    SPEAKERS,
    THING,
)
from .word_forms import TERM, fold, snowball, words


def unframed(claim: str) -> str:
    """``claim`` without the reply's framing at its start ("I'm sorry", "As you said,"): the
    cue table's ``REPLY`` row."""
    cut = SAID_BACK_FRAME.sub("", fold(claim), count=1)
    return cut[:1].upper() + cut[1:] if cut and cut != claim else claim


NEAR = 0.6  # the share of a claim's words a user sentence must hold to be weighed
NEAREST = 3  # user sentences a claim is judged against, the nearest first


def nearest(claims: Sequence[str], conversation: Sequence[Turn]) -> list[list[Evidence]]:
    """For each claim, the user's asserted sentences that hold most of its words (said back,
    so "your order" meets "my order" as "your order"), nearest first, every one (a judge is
    shown the first ``NEAREST``; all are weighed for a value the user gave otherwise): a
    restatement shares its words with what it restates. A claim that is not about the user
    (``about_the_user``) gets none: the user is the source only of what is about themselves.
    Neither are the sources read here: what they say outweighs the user, and the grounding
    stage weighs it."""
    said = [(evidence, content_stems(evidence.text)) for evidence in asserted(conversation)]
    own = {t.number for t in conversation if _FIRST_PERSON.intersection(words(t.content))}
    found: list[list[Evidence]] = []
    for claim in claims:
        mine = content_stems(claim)
        scored: list[tuple[float, int, Evidence]] = []
        for k, (evidence, theirs) in enumerate(said):
            share = len(mine & theirs) / len(mine) if mine else 0.0
            if share >= NEAR and about_the_user(
                    claim, evidence.said is not None and evidence.said.turn in own):
                scored.append((-share, k, evidence))
        found.append([evidence for _, _, evidence in sorted(scored)])
    return found


# The user is the source only of what is about themselves: their order, their payment, their
# daughter. What they say of the world (a store's hours, a price, who runs a firm) is for the
# sources to say, and the sources decide it, silent or not.
_SECOND_PERSON = frozenset(SECOND) | frozenset("yourselves you're you've you'd you'll".split())
# a third person or a thing, as subject or owner ("it", "their"), or one pointed at ("these")
_PRONOUNS = frozenset(forms[k] for forms in (*PERSONAL, THING) if forms[0] not in SPEAKERS
                      for k in (0, POSSESSIVE)) | DEMONSTRATIVES - {"that"}
_FIRST_PERSON = frozenset(FIRST_SINGULAR + FIRST_PLURAL) | frozenset("i'm i've i'd i'll".split())


def about_the_user(claim: str, own_turn: bool) -> bool:
    """Whether ``claim`` speaks of the user: in the second person ("Your order is late"), or
    opening with a pronoun ("It was paid on May 3") where the user's turn that says it speaks
    of themselves (``own_turn``: "My order 5521 is stuck. It was paid on May 3."); and says
    nothing of another thing in a relative clause or an apposition."""
    if _ELSEWHERE.search(claim):  # "..., which treats viral infections": of something else
        return False
    said = words(claim)
    if _SECOND_PERSON.intersection(said):
        return True
    return bool(said) and said[0] in _PRONOUNS and own_turn


# A relative clause or an apposition: what it says is of another thing than the user ("You
# live in Denver, where the sales tax is 8.81%", "Your bank, Monzo, charges no fees").
_ELSEWHERE = re.compile(r",\s*(?:which|where|who|whose|whom)\b|^[^,]+,\s*[^,]+,\s+\w",
                        re.IGNORECASE)

QUOTED = 200  # characters of a user's sentence a reason quotes at most


def quoted(claim: str, said: Evidence) -> str:
    """The user's own words that ``claim`` says back: their sentence from the first to the last
    word the claim shares with it (a turn written without sentence ends is one long sentence),
    at most ``QUOTED`` characters."""
    text = said.said.text if said.said is not None else said.text
    mine = content_stems(claim)
    shared = [m.span() for m in TERM.finditer(fold(text)) if snowball(m[0]) in mine]
    start, end = (shared[0][0], shared[-1][1]) if shared else (0, len(text))
    quote = text[start:end].strip()
    return quote if len(quote) <= QUOTED else quote[:QUOTED - 3].rstrip() + "..."


def content_stems(text: str) -> set[str]:
    """The words of ``text`` that carry content, as their Snowball stems: two forms of one
    word ("arrive", "arrived") meet."""
    return {snowball(w) for w in TERM.findall(fold(text).lower()) if w not in FUNCTION_WORDS}
