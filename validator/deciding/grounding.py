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

import re
from collections.abc import Sequence
from dataclasses import replace

from .. import rules
from ..request import Request
from ..retrieval.retriever import Retriever
from ..rules.quantities import NUMBER_WORDS, bound_before, value_of
from ..runtime.deadline import Scope
from ..runtime.pool import Busy, offload
from ..text.conversation import ASSERTED_CHARS
from ..text.grammar import FUNCTION_WORDS
from ..text.said import NEAREST, nearest, quoted, unframed
from ..text.sentences import split_sentences
from ..text.word_forms import WORD_PATTERN, fold, snowball, with_digits
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
        searched = await self._passages([claims[n] for n, _ in candidates], retriever, scope)
        # a claim whose sources could not be searched again stays as it is: they may say otherwise
        candidates = [pair for pair, got in zip(candidates, searched, strict=True)
                      if got is not None]
        passages = [got for got in searched if got is not None]
        if not candidates:
            return decided
        # what the user's turns say beside the sentence, read as far as what they assert is
        turns = {turn.number: turn.content[-ASSERTED_CHARS:] for turn in request.conversation}
        weighed = await offload(_weighed, [texts[n] for n, _ in candidates],
                                [said for _, said in candidates], passages,
                                [" ".join(dict.fromkeys(turns[e.said.turn] for e in said
                                                        if e.said is not None))
                                 for _, said in candidates])
        asked = [(n, said[:NEAREST], got) for (n, said), got, stands
                 in zip(candidates, passages, weighed, strict=True) if stands]
        if not asked:
            return decided
        judged = await self.decider.judge_texts(
            [texts[n] for n, _, _ in asked], [[*found, *said] for _, said, found in asked],
            request, scope)
        verdicts, grounded = list(decided.verdicts), dict(decided.said)
        for (n, said, found), verdict in zip(asked, judged, strict=True):
            if verdict.label == SUPPORTED:
                # the judge's own reason speaks of "the passage": the user's words are quoted,
                # and what decided is among them (the judge was shown the passages first)
                where = ", ".join(str(t) for t in sorted({e.said.turn for e in said if e.said}))
                basis = None if verdict.basis is None else verdict.basis - len(found)
                verdicts[n] = replace(verdict, reason=(
                    f"the user said it (turn {where}), not the sources: "
                    f"'{quoted(texts[n], said[0])}'"),
                    basis=basis if basis is not None and 0 <= basis < len(said) else 0)
                grounded[n] = said
        return replace(decided, verdicts=verdicts, said=grounded)

    async def _passages(self, claims: list[Claim], retriever: Retriever, scope: Scope
                        ) -> list[list[Evidence] | None]:
        """Each claim's passages, searched ``DEEPER`` times deeper than its first, at once and
        within the validation's deadline; None for a claim whose search the deadline cut off
        or a query function refused (too many of its calls still running)."""
        found = retriever.find(claims, depth=DEEPER)

        async def get(i: int) -> list[Evidence] | None:
            try:
                return await found.get(i)
            except Busy:
                return None

        return await scope.map(get, range(len(claims)), lambda i: None)

    def ready(self) -> None:
        """Load the rules, which hold back a user's measure that the sources give otherwise."""
        rules.check("It opened in 1900.", [Evidence("The hall opened in 1900.")])


def _weighed(claims: Sequence[str], said: Sequence[Sequence[Evidence]],
             passages: Sequence[Sequence[Evidence]], turns: Sequence[str]) -> list[bool]:
    """For each claim, whether it may be judged against what the user said: not where its
    passages give another value for one of its measures (the sources win, whatever the user
    said), nor where a sentence of them speaks of what it states (``_spoken_of``, the user's
    turns that say it naming what it is about), nor where a sentence of the user's near it
    gives another value (the user said it otherwise too, before or after)."""
    return [not (found and (_other_value(claim, found) or _spoken_of(claim, found, turn))
                 or any(_other_value(claim, [e]) for e in near))
            for claim, near, found, turn in zip(claims, said, passages, turns, strict=True)]


def _spoken_of(claim: str, passages: Sequence[Evidence], turn: str = "") -> bool:
    """Whether a sentence of the passages speaks of what ``claim`` states, so that the user's
    word cannot stand for it, whether or not the rules can compare what it says:

    - it names a record the claim or the user's ``turn`` names (an order, booking, account,
      policy or product code: "order 5521", "LN-4471", "CarePlus 771");
    - it gives another number of a unit of the claim's ("30 GB" where the claim says "50 GB")
      and shares a word more with the claim or the user's turn ("Basic: a 30 GB monthly
      allowance" where the user is on the Basic plan);
    - it gives a value the claim does not and holds two of the claim's words and at least half
      of them.

    Fails closed: where the sources speak of the thing, a judge that cannot read them for it
    does not take the user's word instead."""
    mine, context = _Read(claim), _Read(turn)
    if not (mine.values or mine.codes):
        return False
    codes, subject = mine.codes | context.codes, mine.words | context.words
    for passage in passages:
        for sentence in split_sentences(passage.text):
            theirs = _Read(sentence.text)
            if codes & theirs.codes:
                return True
            if codes and theirs.codes:  # of another record ("Order 6613" beside "order 6612")
                continue
            if not theirs.values - mine.values:
                continue
            for unit, value in theirs.units.items():
                if unit in mine.units and mine.units[unit] != value and (
                        subject & theirs.words) - {unit}:
                    return True
            shared = len(mine.words & theirs.words)
            if mine.values and shared >= _SHARED_WORDS and shared >= _SHARE * len(mine.words):
                return True
    return False


_SHARE, _SHARED_WORDS = 0.5, 2  # of the claim's words, what a sentence speaking of it holds
# A record's code: letters then digits ("LN-4471", "QX7P2", "HP-30921"), a name and its number
# ("CarePlus 771", "Order 6613"), or a number of four or more digits that is no year.
_CODE = re.compile(r"\b[A-Za-z]{1,8}-?\d[\w-]*|\b[A-Z][A-Za-z]+ \d{3,}\b|\b\d{4,}\b", re.ASCII)
_TERM = re.compile(rf"[0-9]+(?:[.,][0-9]+)*|{WORD_PATTERN}")  # a number whole, or a word


class _Read:
    """A text's values (numbers, as figures; not one that a bound or a hedge qualifies), the
    codes it names, the unit word after each number, and its other words (Snowball stems, no
    function words)."""

    def __init__(self, text: str):
        # a lone surrogate (text as given may hold one) read as U+FFFD, as a judge reads it
        text = fold(with_digits(text.encode("utf-8", "replace").decode("utf-8")))
        self.codes = {_code(found) for found in _CODE.findall(text)
                      if not (len(found) == 4 and found.isdigit() and 1000 <= int(found) <= 2100)}
        terms = [t.lower() for t in _TERM.findall(_CODE.sub(" ", text))]
        self.values: set[float] = set()
        self.units: dict[str, float] = {}
        for k, term in enumerate(terms):
            value = _value(term)
            if value is None or bound_before(terms, k, None)[0]:
                continue  # a bound or a hedge ("up to 23 kg") allows the claim's value
            self.values.add(value)
            after = terms[k + 1] if k + 1 < len(terms) else ""
            if after.isalpha() and after not in FUNCTION_WORDS and _value(after) is None:
                self.units[snowball(after)] = value
        self.words = {snowball(t) for t in terms if t.isalpha() and t not in FUNCTION_WORDS
                      and _value(t) is None}


def _code(found: str) -> str:
    """A code as it is compared: a number of four or more digits alone, however it was
    introduced ("Order 3187", "order 3187"); else as written, in lower case ("ln-4471",
    "careplus 771")."""
    name, _, number = found.rpartition(" ")
    if name and len(number) >= 4:
        return number
    return found.lower()


def _value(term: str) -> float | None:
    """A term's value: a numeral's (a version number such as "4.2.1" is none), or a number
    word's; None for anything else."""
    if term[:1].isdigit():
        try:
            return float(term.replace(",", ""))
        except ValueError:
            return None
    return value_of(term) if term in NUMBER_WORDS else None


def _other_value(claim: str, passages: Sequence[Evidence]) -> bool:
    """Whether the rules find the passages contradicting the claim, or giving another value
    for a measure of it ("30 days" where it says "90 days"). Fails closed: "paid 10 days ago"
    against "ships within 3 days" is held back too."""
    found = rules.check(claim, passages)
    return found.contradiction or found.other_value
