"""The rule checker's reading of structured evidence: a claim against the fields of a record
(a JSON tool result or source, ``text.records``), value by value, each field read by
``fields`` (a date as the date, a number with its unit or currency, a code as a name, a yes or
a no, an instruction as nothing).

A claim is stated by a record when every value it gives (number, amount, date, name) is the
value of a field it can mean, every other content word it uses is a word of a field's key or
value that does not qualify it ("pending", "estimated"), and what it affirms or denies is what
the record's yes-or-no fields say. Values of different kinds are never rivals: an order number
is no other value of a duration, and "$30" no other value of a bare 30 (it says more: a
currency). A field the claim names that gives another value, or the only field of its kind, is
a conflict, and the reason names the field: "`shipped_on` is 2026-05-02, the sentence says May
12". Fields of one kind are told apart by a word of their key: a value of `previous_status`
does not state "the status is".
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ..text import records as structured
from ..text.cues import NOT_DONE, OFFERED, RECORD_STATE_KEY, RECORD_WORD, words_of
from ..text.grammar import BE, FINITE_AUXILIARIES, MODALS, NEGATIONS, PERSON_OF
from ..text.word_forms import (
    IRREGULAR,
    LETTERS,
    MONTH_OF,
    NEGATIVE_PREFIXES,
    PUNCTUATION,
    STOPWORDS,
    TERM,
    content_words,
    snowball,
    snowball_forms,
    stem,
)
from ..types import Evidence, FailureKind, Field
from . import money
from .facts import Facts, read_facts
from .fields import (
    CODE,
    Read,
    plain_words,
    read_fields,
    shown_value,
)
from .quantities import BOUND_WORDS, NUMBER_WORDS, SCALES, TIME_OF_DAY, Amount, is_unit
from .tokens import QUALIFIERS, UNASSERTING
from .word_lists import synonyms

_MONTH = dict(enumerate(calendar.month_name))  # 5 -> "May"
_ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th)\b")  # "15th": the day 15
_NON = re.compile(r"\bnon-(?=\w)", re.IGNORECASE)  # "non-refundable": not refundable
# Words that join what a sentence says, not what it says of the record.
_CONNECTIVES = frozenset("because since due therefore thus hence yet still currently".split())
_BOUND_WORDS = frozenset(stem(w) for phrase in BOUND_WORDS for w in phrase.split())


def _counted_as_bare(q: Amount) -> Amount:
    """A count of a noun ("1,250 tents", "two frothers") as its number: a record gives the
    count under a key ("quantity_available"), the noun is for the words to match."""
    if q.unit is None or is_unit(q.unit) or q.unit == TIME_OF_DAY or money.is_currency(q.unit):
        return q
    return replace(q, unit=None)


@dataclass(frozen=True)
class Outcome:
    """How one record states a claim: "supported", "conflict" or "unsupported", the reason,
    the lines quoted, and the share of the claim's words the record holds."""

    kind: str
    reason: str
    quotes: tuple[str, ...] = ()
    coverage: float = 0.0
    anchored: bool = False  # every number, amount and date of the claim is a field's
    held: int = 0  # the claim's values and names a field holds
    value_missing: bool = False  # unsupported for a value or name no field holds
    fault: FailureKind | None = None  # what a claim it does not state gets wrong
    record: int | None = None  # which of the records ``best`` was given it is, by index


@dataclass(frozen=True)
class _Claim:
    """A claim as the fields are compared with it."""

    text: str
    facts: Facts
    denies: bool  # it says that something is not so
    counts: frozenset[str]  # its numbers that count a noun ("2 frothers"), as written

    @cached_property
    def lowered(self) -> frozenset[str]:
        """Every word of it in lower case, as written."""
        return frozenset(w.strip(PUNCTUATION).lower() for w in self.text.split())

    @cached_property
    def written(self) -> frozenset[str]:
        """Every word of it, as a name is read ("Shade" from "the Lamp Shade")."""
        return frozenset(stem(w.strip(PUNCTUATION)) for w in self.text.split())

    @cached_property
    def forms(self) -> frozenset[str]:
        """The Snowball forms of its words, function words too; a month's name is no word of
        it ("on May 20" says no "may")."""
        return snowball_forms(self.text)

    def forms_of(self, word: str) -> frozenset[str]:
        """The Snowball forms of the words it writes whose ``stem`` is ``word``."""
        return frozenset(snowball(w.lower()) for w in LETTERS.findall(self.text)
                         if stem(w) == word)

    def as_written(self, word: str) -> str:
        """The word it writes whose ``stem`` is ``word`` ("shipped" for "shipp"), for a
        reason to quote."""
        return next((w for w in LETTERS.findall(self.text) if stem(w) == word), word)

    @classmethod
    def read(cls, claim: str) -> _Claim:
        claim = _ORDINAL.sub(r"\1", _NON.sub("not ", claim))
        codes = [m.span() for m in CODE.finditer(claim)]
        facts = read_facts(claim)
        words = frozenset(w for w in facts.words - _CONNECTIVES
                          if not w.endswith("n't") and w.split("'")[0] not in STOPWORDS
                          and w not in NUMBER_WORDS and w not in SCALES
                          and w not in _BOUND_WORDS)
        kept = [q for q in facts.quantities if not _in_code(q.text, claim, codes)]
        # a currency's name is part of its amount, compared as money ("89.50 euros", "30
        # Swiss francs")
        priced = [q.text for q in kept if money.is_currency(q.unit)]
        if priced:  # the words and names written only inside an amount
            outside = claim
            for text in priced:
                outside = outside.replace(text, " ", 1)
            rest = read_facts(outside)
            inside = read_facts(" ".join(priced))
            words -= inside.words - rest.words
            names = {k: v for k, v in facts.names.items()
                     if k in rest.names or not (k in inside.names or k in inside.words)}
        else:
            names = facts.names
        quantities = tuple(map(_counted_as_bare, kept))
        counts = frozenset(q.text for q, bare in zip(kept, quantities, strict=True) if q != bare)
        years = frozenset(y for y in facts.years if not _in_code(str(y), claim, codes))
        return cls(claim, replace(facts, words=words, names=names, quantities=quantities,
                                  years=years),
                   bool(NEGATIONS & set(plain_words(claim))), counts)


def _in_code(written: str, claim: str, codes: list[tuple[int, int]]) -> bool:
    """Whether a number the claim writes (``written``: "5521 shipped", read as a count of
    shipped) is the digits of a code ("A-5521")."""
    start = 0
    while (at := claim.find(written, start)) >= 0:
        digit = next((k for k in range(at, at + len(written)) if claim[k].isdigit()), at)
        if any(a <= digit < b for a, b in codes):
            return True
        start = at + 1
    return False


def state(claim: str, fields: Sequence[Field], extra: str = "") -> Outcome:
    """How the record of ``fields`` states ``claim``: see the module's docstring."""
    read = read_fields(fields, extra)
    if not any("cost" in r.key_forms for r in read):
        claim = _as_price(claim)
    said = _Claim.read(claim)
    # the words of a name the claim does not write whole are not its ("the Lamp" holds none
    # of the Lamp Shade's)
    known = frozenset().union(*(r.keys | (r.words if _written(r, said) else frozenset())
                                for r in read))
    share = len(said.facts.words & known) / max(1, len(said.facts.words))
    matched = _values(said, read)
    named = _names(said, read)
    polarity = _polarity(said, read, bool(extra))
    # a conflict anywhere decides; else what is not held, with how much of the claim is
    problems = [o for o in (matched, named, polarity) if isinstance(o, Outcome)]
    conflict = next((o for o in problems if o.kind == "conflict"), None)
    held = (0 if isinstance(matched, Outcome) else len(matched)) + (
        named.held if isinstance(named, Outcome) else len(named))
    if conflict is not None or isinstance(matched, Outcome):
        return replace(conflict or problems[0], coverage=share, held=held,
                       value_missing=conflict is None)
    if isinstance(named, Outcome):
        return replace(named, coverage=share, anchored=True, held=held, value_missing=True)
    missing = sorted(w for w in said.facts.words - known - set(said.facts.names)
                     if not _synonym_of(w, said, read))
    standing = _standing(said, read)
    if missing and standing is None:
        return Outcome("unsupported", "no field says " + ", ".join(
            repr(said.as_written(w)) for w in missing[:3]),
                       coverage=share, anchored=True, held=held, fault=FailureKind.ADDITION)
    # a record that says it is not done says nothing done, whatever the word: its status is
    # what decided, and the reason names it
    qualified = standing or _qualified(said, read) or _misattributed(said, read) or _done_by(
        said, read)
    if qualified is not None:
        return replace(qualified, coverage=share, anchored=True, held=held)
    if isinstance(polarity, Outcome):
        return replace(polarity, coverage=share, anchored=True, held=held)
    used = [*matched, *named, *polarity,
            *(r for r in read if (r.keys | r.words) & said.facts.words)]
    quotes = tuple(dict.fromkeys(structured.line(r.field) for r in used if r.field.path))
    return Outcome("supported", "the fields state it: " + "; ".join(quotes[:4]), quotes, share,
                   anchored=True, held=held)


# Words of a field that say that what it names is not (yet) so: the rule checker's qualifiers
# and words that put a statement forward without asserting it (``tokens``), and those that
# records use for what is only planned or asked for (`ready_to_ship`, `refund_pending`,
# `estimated_arrival`, `shipping_on_hold`, `cancel_failed`: the cue table's rows).
_NOT_YET = {snowball(w) for w in (*QUALIFIERS, *UNASSERTING, *words_of(NOT_DONE, where=RECORD_WORD))}
# The keys whose value says where the whole record stands (`status: requested`, `kind: quote`).
_STATE_KEYS = frozenset(snowball(w) for w in words_of(NOT_DONE, where=RECORD_STATE_KEY))
# What a record says of itself that keeps it from being done: a `_NOT_YET` word, or "to be"
# (`to_be_shipped`), or an offer not taken up (`kind: quote`).
_NOT_DONE = {*_NOT_YET, *(snowball(w) for w in words_of(OFFERED, where=RECORD_WORD))}


def _standing(said: _Claim, read: list[Read]) -> Outcome | None:
    """Why the claim is not stated where the record as a whole says that it is not done: its
    state (`status: requested`, `status: to_be_shipped`, `kind: quote`) or a yes field
    (`ready_to_collect: true`) holds a word of ``_NOT_DONE`` that a claim which does not deny
    anything, and puts nothing as not done itself ("will", "is being"), leaves out. The state
    qualifies every field of the record, not only the fields
    whose words the claim uses."""
    # a word the record names a field of its own with is the claim's noun, not its hedge (the
    # `plan` of "your Family plan")
    keys = frozenset().union(*(r.key_forms for r in read if isinstance(r.field.value, str)
                               and not set(r.key_forms) & _STATE_KEYS))
    if said.denies or said.forms & ((_NOT_DONE | {"be"}) - keys):
        return None  # it says itself that it is not done ("is being reviewed", "will ship")
    for r in read:
        if isinstance(r.field.value, str) and r.key_forms[-1:] and r.key_forms[-1] in _STATE_KEYS:
            written = plain_words(r.field.value.replace("_", " "))
        elif r.field.value is True:
            written = list(structured.key_words(r.field.path))
        else:
            continue
        holding = {snowball(w): w for w in written if snowball(w) in _NOT_DONE}
        if " to be " in f" {' '.join(written)} ":
            holding["to be"] = "to be"
        if holding and not holding.keys() & said.forms:
            return Outcome("unsupported", f"`{r.field.path}` is {shown_value(r.field)}: the "
                           f"record says it is not done, and the sentence leaves out "
                           f"{next(iter(holding.values()))!r}", fault=FailureKind.UNASSERTED)
    return None


def _qualified(said: _Claim, read: list[Read]) -> Outcome | None:
    """Why the claim is not stated where a word of it is said only by fields that qualify it
    ("shipped" only by `status: ready_to_ship`, "arrived" only by `estimated_arrival`): each
    such field holds a word of ``_NOT_YET`` that the claim leaves out."""
    for word in sorted(said.facts.words - set(said.facts.names)):
        mine = said.forms_of(word)
        saying = [r for r in read if r.negative is None and (mine & r.forms or any(
            synonyms(a, b) for a in mine for b in r.forms))]  # yes or no:
        plain = [r for r in saying if not _left_out(r, said)]  # ``_polarity``
        if saying and not plain:
            return Outcome("unsupported", f"`{saying[0].field.path}` is "
                           f"{shown_value(saying[0].field)}: the sentence leaves out "
                           f"{_left_out(saying[0], said)[0]!r}", fault=FailureKind.UNASSERTED)
    return None


def _left_out(r: Read, said: _Claim) -> list[str]:
    """The words of the field ``r`` that keep what it names from being done, which the claim
    leaves out: a word of ``_NOT_YET``, the "by" of a date it is due by (`ship_by`), or a word
    of its key that says only that it can be or may be done (`refundable`,
    `gift_wrap_available`, `refund_allowed`: "refunded" is another word, though one stem)."""
    words = structured.key_words(r.field.path)
    deadline = ["by"] if r.date is not None and words[-1:] == ["by"] and (
        "by" not in said.lowered) else []  # `ship_by: 2026-05-01`: when it is due, not done
    # a date's words are no hedge (`May 1, 2026` holds no "may"): only its key's are read
    forms = frozenset(r.key_forms) if r.date is not None else r.forms
    marks = (forms & _NOT_YET) - said.forms
    written = [*words, *([] if r.date is not None else plain_words(str(r.field.value)))]
    shown = list(dict.fromkeys(w.lower() for w in written if snowball(w.lower()) in marks))
    can = bool(said.lowered & _MAY)  # "can be refunded" says what `refundable` does
    return (shown or sorted(marks)) + deadline + [
        w for w in words if (w.lower().endswith(_CAN_BE) or w.lower() in _LET)
        and w.lower() not in said.lowered and not can]


# A key's word that says what it names can be, or may be done (`refundable`, `refund_allowed`).
_CAN_BE = ("able", "ible")
_MAY = MODALS - {"will", "would", "shall", "should", "must"}  # can, could, may, might
_LET = ("allowed", "permitted")


def _done_by(said: _Claim, read: list[Read]) -> Outcome | None:
    """Why a claim is not stated where a field names who did what it says (`cancelled_by:
    customer`, `approved_by: Helen Moss`) and the claim gives it to someone else: "We
    cancelled the order", "Tom Ade approved the request", "... was approved by Tom Ade"."""
    words = said.text.split()
    for r in read:
        keys = structured.key_words(r.field.path)
        act = {snowball(w) for w in keys[:-1]} - STOPWORDS
        if keys[-1:] != ["by"] or not act or r.date is not None or not isinstance(
                r.field.value, str):
            continue
        at = next((k for k, w in enumerate(words) if _done(w.strip(PUNCTUATION).lower())
                   and snowball(w.strip(PUNCTUATION).lower()) in act), None)
        if at is None:
            continue
        passive = at and words[at - 1].lower() in BE
        after = [w.strip(PUNCTUATION) for w in words[at + 1:]]
        doer = after[after.index("by") + 1:] if passive and "by" in after else (
            [] if passive else [w.strip(PUNCTUATION) for w in words[:at]])
        named = [w for w in doer if w.lower() in PERSON_OF or stem(w) in said.facts.names]
        theirs = {w.lower() for w in plain_words(r.field.value)}
        if named and not theirs & {w.lower() for w in doer}:
            return Outcome("unsupported", f"`{r.field.path}` is {shown_value(r.field)}, the "
                           f"sentence says {' '.join(doer)!r} did it", fault=FailureKind.ROLES)
    return None


def _done(word: str) -> bool:
    """Whether ``word`` (lower case) is a verb's past ("approved", "paid"), not its noun."""
    return word.endswith("ed") or word in IRREGULAR


def _misattributed(said: _Claim, read: list[Read]) -> Outcome | None:
    """Why the claim is not stated where a word of it is a value only of fields it cannot mean
    (``_told_apart``): "Order 7731 status is shipped" where `previous_status` is shipped and
    `current_status` returned."""
    for word in sorted(said.facts.words - set(said.facts.names)):
        giving = [r for r in read if word in r.words and word not in r.keys]
        if giving and not any(word in r.keys for r in read) and not _told_apart(
                said, read, giving):
            tell = sorted(set(giving[0].path_forms) - said.forms)
            return Outcome("unsupported", f"`{giving[0].field.path}` is "
                           f"{shown_value(giving[0].field)}, but the sentence does not say which "
                           f"field it means{f' ({tell[0]!r})' if tell else ''}",
                           fault=FailureKind.ENTITY)
    return None


def _names(said: _Claim, read: list[Read]) -> list[Read] | Outcome:
    """The fields that hold each name of the claim, or why one is not held: no field names
    it, or a field the claim names (every word of its key: "the sender of parcel P-1 is Bob")
    gives another name while it names none holding it."""
    used: list[Read] = []
    for name, shown in said.facts.names.items():
        holding = _told_apart(said, read, [
            r for r in read if (name in r.names or name in r.keys | r.words)
            and _written(r, said)])
        named = [r for r in read if r.own and r.own <= said.facts.words
                 and isinstance(r.field.value, str) and r.negative is None
                 and r.date is None and any(c.isalpha() for c in r.field.value)
                 and not r.names <= said.written]
        if named and not any(r.own and r.own <= said.facts.words for r in holding):
            return replace(_conflict(named[0], repr(shown), FailureKind.ENTITY), held=len(used))
        if not holding:
            return Outcome("unsupported", f"no field names {shown!r}", held=len(used),
                           fault=FailureKind.ADDITION)
        used.append(holding[0])
    return used


def _as_price(claim: str) -> str:
    """``claim`` with "cost" or "costs" just before an amount of money ("cost $40", "costs more
    than €9") read as "price", which names a record's `price` as "The Lamp's price was $40"
    does (for a record with no key of cost). Only that verb, in lower case: "the total cost is
    $40" speaks of a total, and "Cost Plus" is a name."""
    for q in read_facts(claim).quantities:
        at = claim.find(q.text)
        head = claim[:at].rstrip() if at > 0 and money.is_currency(q.unit) else ""
        verb = head.rsplit(None, 1)[-1] if head else ""
        if verb in ("cost", "costs"):
            claim = f"{head[:-len(verb)]}price {claim[at:]}"
    return claim


def _written(r: Read, said: _Claim) -> bool:
    """Whether the claim may mean the field ``r`` by its value: any value but a name of
    several capitalised words (``_a_title``) the claim does not write whole."""
    return not _a_title(r.field.value) or r.names <= said.written


def _a_title(value: object) -> bool:
    """Whether ``value`` is a name of several capitalised words ("Lamp Shade"), which holds a
    name of the claim only where the claim writes all of it ("the Lamp" is not the Lamp
    Shade)."""
    words = value.split() if isinstance(value, str) else []
    return len(words) > 1 and all(w[:1].isupper() for w in words)


def _told_apart(said: _Claim, read: list[Read], holding: list[Read]) -> list[Read]:
    """The fields of ``holding`` the claim can mean: where the record has another field of the
    same last key word (`previous_status` and `current_status`, `billing_address.city` and
    `shipping_address.city`, `from_account` and `to_account`), the claim must say a word of
    the key that tells the holding field from it ("current status", "billing", "from")."""
    forms = said.forms
    kept = []
    for r in holding:
        head = r.key_forms[-1:] if r.key_forms else []
        siblings = [o for o in read if o is not r and o.key_forms[-1:] == head and head
                    and type(o.field.value) is type(r.field.value)]  # of one kind of value
        if all((set(r.path_forms) - set(o.path_forms)) & forms or not (
                set(r.path_forms) - set(o.path_forms)) for o in siblings):
            kept.append(r)
    return kept


def _values(said: _Claim, read: list[Read]) -> list[Read] | Outcome:
    """The fields that hold each number, amount and date of the claim, or why one is not
    held: a field of its kind the claim speaks of gives another (a conflict), or none does."""
    used = []
    words = said.facts.words
    for q in said.facts.quantities:
        holding = _told_apart(said, read, [
            r for r in read if any(q.stated_by(v) for v in r.facts.quantities)
            or (q.unit is None and q.value in r.facts.years)])
        if q.open:  # "more than 3" is held by any larger number: only by a
            # field it names
            holding = [r for r in holding if r.own & said.facts.words
                       or r.own & _next_to(said.text, *_span(q.text, said.text))]
        rival = _rival(q, read, said, holding)
        if rival is not None:
            return _conflict(rival, q.text, FailureKind.DATE if q.unit == TIME_OF_DAY
                             else FailureKind.NUMBER)
        if not holding:
            return Outcome("unsupported", f"no field gives {q.text!r}",
                           fault=FailureKind.ADDITION)
        used.append(holding[0])
    dated = [r for r in read if r.date is not None]
    for month, day in sorted(said.facts.days):
        holding = _told_apart(said, read, [r for r in read if (month, day) in r.facts.days])
        # the date field whose key has the word the date is said of ("shipped on April 1":
        # `shipped_on`, not `ordered_on`); else the one the claim names most words of ("check
        # out" for `check_out` rather than `check_in`), where no holding field is named as well
        spoken_of = _date_said_of(said.text, month, day, dated)
        if spoken_of in holding:
            spoken_of = None  # said of the field that holds it
        elif spoken_of is None:
            spoken_of = max(dated, key=lambda r: len(r.own & words), default=None)
            if spoken_of is not None and len(spoken_of.own & words) <= max(
                    (len(r.own & words) for r in holding), default=0):
                spoken_of = None
        written = f"{_MONTH[month]} {day}"
        if spoken_of is not None and spoken_of not in holding:
            return _conflict(spoken_of, written, FailureKind.DATE)
        if not holding:
            return Outcome("unsupported", f"no field gives the date {written}",
                           fault=FailureKind.ADDITION)
        used.append(holding[0])
    for year in sorted(said.facts.years):
        holding = [r for r in read if year in r.facts.years
                   or any(v.unit is None and v.value == year for v in r.facts.quantities)]
        named = [r for r in dated if r.own & words]
        if not holding and named:
            return _conflict(named[0], str(year), FailureKind.DATE)
        if not holding:
            return Outcome("unsupported", f"no field gives the year {year}",
                           fault=FailureKind.ADDITION)
        used.append(holding[0])
    for month in sorted(said.facts.months - {m for m, _ in said.facts.days}):
        if not any(month in r.facts.months for r in read):
            return Outcome("unsupported", f"no field gives the month {_MONTH[month]}",
                           fault=FailureKind.ADDITION)
    return used


def _date_said_of(claim: str, month: int, day: int, dated: list[Read]) -> Read | None:
    """The date field the claim says the date ``month``/``day`` is of: the one whose key has
    the nearest word before the date that any key has, every word of its key written before
    it ("shipped" of "shipped on 1 April": `shipped_on`; "check in on May 1": `check_in`, not
    `check_out`); None where none is, or the claim opens with the date."""
    words = TERM.findall(claim)  # words and numbers ("1st", "2026")

    def the_day(k: int) -> bool:
        return 0 <= k < len(words) and _ORDINAL.sub(r"\1", words[k]) == str(day)

    at = next((n for n, w in enumerate(words) if MONTH_OF.get(w.lower()) == month
               and (the_day(n - 1) or the_day(n + 1))), None)
    if not at:
        return None
    at -= the_day(at - 1)  # "on 1 April": the words before the day
    written = content_words(" ".join(words[:at]))
    for word in reversed(words[:at]):
        near = content_words(word)
        keyed = [r for r in dated if r.own & near and r.own <= written]
        if keyed:
            return max(keyed, key=lambda r: len(r.own))
    return None


def _polarity(said: _Claim, read: list[Read], failed: bool) -> list[Read] | Outcome:
    """The fields that say yes or no (``fields.Read.negative``) to what the claim speaks of
    (their key's words in it, or most of its words in their text), each saying what the claim
    affirms or denies; a denial no such field gives (nor an error result: ``failed``) is not
    stated."""
    used, denies = [], said.denies
    forms = said.forms
    claim_words = [w.lower() for w in LETTERS.findall(said.text)]
    for r in read:
        negative, turned = r.negative, False
        if negative is None and isinstance(r.field.value, str) and any(
                snowball(f"{prefix}{w}") in r.forms for k, w in enumerate(claim_words)
                for prefix in NEGATIVE_PREFIXES
                if len(w) > 3 and (not k or claim_words[k - 1] != prefix)):
            # "uninsured", "incompatible" against "insured", "compatible": the claim's own
            # word, turned round, is the field's value, so it speaks of the field ("in transit"
            # written apart is no "intransit" turned round)
            negative = turned = True
        if negative is None:
            continue
        # what the key names, but for the auxiliary that marks it yes/no ("is_paid")
        about = {snowball(w) for w in structured.key_words(r.field.path)} - FINITE_AUXILIARIES - \
            NEGATIONS - {"", "not"}
        left_out = [] if negative else _left_out(r, said)
        named = (about - {snowball(w) for w in left_out}) or about  # `gift_wrap_available`
        spoken_of = turned or (named and named <= forms) or (
            len(r.words & said.facts.words) * 2 >= max(1, len(said.facts.words)))
        if not spoken_of:
            continue
        if negative != said.denies:
            shown = "it is not so" if said.denies else "it is so"
            return Outcome("conflict", f"`{r.field.path}` is {shown_value(r.field)}, the sentence "
                           f"says {shown}", (structured.line(r.field),),
                           fault=FailureKind.OPPOSITE)
        if left_out:  # `refundable: true` says yes to what can be, not to "was refunded"
            return Outcome("unsupported", f"`{r.field.path}` is {shown_value(r.field)}: the "
                           f"sentence leaves out {left_out[0]!r}", fault=FailureKind.UNASSERTED)
        used.append(r)
        denies = False  # the denial is the field's
    if denies and not failed:
        return Outcome("unsupported", "the sentence denies what no field denies",
                       fault=FailureKind.ADDITION)
    return used


def best(claim: str, evidence: Sequence[Evidence]) -> Outcome:
    """The record of ``evidence`` that states ``claim`` (the first that does); else, of those
    that hold every value of the claim but not the rest and those in conflict with it, the one
    that holds most of its words (the record it speaks of: an order's item, not the order
    alone; the Lamp Shade's, not the Lamp's); else the one that holds most of them."""
    outcomes = [replace(state(claim, e.fields, e.tool.name if e.tool and e.tool.error else ""),
                        record=n) for n, e in enumerate(evidence) if e.fields]
    return (next((o for o in outcomes if o.kind == "supported"), None)
            or max([o for o in outcomes if o.anchored] + [o for o in outcomes
                                                          if o.kind == "conflict"],
                   key=lambda o: o.coverage, default=None)
            or max(outcomes, key=lambda o: o.coverage))


def _synonym_of(word: str, said: _Claim, read: list[Read]) -> bool:
    """Whether the claim's ``word`` (its ``stem``) is, in one of its written forms, a form or a
    synonym (the checker's table) of a word of the fields' keys or values."""
    forms = said.forms_of(word)
    theirs = frozenset().union(*(r.forms for r in read))
    return bool(forms & theirs) or any(synonyms(a, b) for a in forms for b in theirs)


def _rival(q: Amount, read: list[Read], said: _Claim, holding: list[Read]) -> Read | None:
    """A field giving a value of ``q``'s kind (a bare number, a measure of its dimension, an
    amount of money) other than ``q``, that the claim names (its key's word next to ``q``:
    "total was $30", "starts at 16:00"; a count's noun after it: "3 items"; or every word of
    its key anywhere) while it names no field holding ``q``; else one whose key has the word
    next to ``q`` ("refund" of `refund_amount`) while no holding field's key has it; or,
    when no field holds ``q``, the only field of its kind."""
    claim = said.text
    time = q.unit == TIME_OF_DAY or _is_time(q.text, said.text)  # "16:00": the time of a
    # date may be its rival
    kind = [r for r in read if (r.date is None or time)
            and any(_same_kind(q, v) for v in r.facts.quantities)]
    rivals = [r for r in kind if any(_same_kind(q, v) and (q.conflicts(v) or q.unit != v.unit)
                                     for v in r.facts.quantities)]
    at = claim.find(q.text)
    near_forms = {snowball(w) for w in _next_to(claim, at, at + len(q.text), raw=True,
                                                before=q.text not in said.counts)
                  } if at >= 0 else set()

    def named(r: Read) -> bool:  # "the total of your order ... $30"; "arrives at 11:30"
        own = {f for f in r.key_forms if f not in STOPWORDS}
        return bool(own) and (own <= said.forms or len(own) == 1 and own <= near_forms)

    def partly_named(r: Read) -> bool:  # "your refund was €89.50": `refund_amount`
        return bool({f for f in r.key_forms if f not in STOPWORDS} & near_forms)

    for naming in (named, partly_named):
        spoken_of = [r for r in rivals if naming(r)]
        if spoken_of and not any(naming(r) for r in holding):
            return spoken_of[0]
    return rivals[0] if not holding and len(kind) == 1 and rivals else None


def _same_kind(q: Amount, v: Amount) -> bool:
    """Both bare numbers, both money, or both measures of one dimension."""
    if money.is_currency(q.unit) or money.is_currency(v.unit):
        return money.is_currency(q.unit) and money.is_currency(v.unit)
    if q.unit is None or v.unit is None:
        return q.unit is v.unit
    return q.comparable(v)


def _is_time(written: str, claim: str) -> bool:
    """Whether a number the claim writes is part of a time ("16:00")."""
    at = claim.find(written)
    return at >= 0 and (claim[at + len(written):at + len(written) + 1] == ":"
                        or claim[max(0, at - 1):at] == ":")


def _span(written: str, claim: str) -> tuple[int, int]:
    at = claim.find(written)
    return (at, at + len(written)) if at >= 0 else (0, 0)


def _next_to(claim: str, start: int, end: int, before: bool = True, raw: bool = False
             ) -> frozenset[str]:
    """The content words next to ``claim[start:end]`` on either side (``before``: also the
    one before it), past function words; as written, lower case, with ``raw``."""
    words = [w for w in LETTERS.findall(claim[:start]) if w.lower() not in STOPWORDS][-1:]
    after = [w for w in LETTERS.findall(claim[end:]) if w.lower() not in STOPWORDS][:1]
    found = (words if before else []) + after
    return frozenset(w.lower() for w in found) if raw else content_words(" ".join(found))


def _conflict(rival: Read, written: str, fault: FailureKind) -> Outcome:
    return Outcome("conflict", f"`{rival.field.path}` is {shown_value(rival.field)}, the sentence "
                   f"says {written}", (structured.line(rival.field),), anchored=False,
                   fault=fault)


