"""The rule checker's reading of structured evidence: a claim against the fields of a record
(a JSON tool result or source, ``text.records``), value by value.

Each field's value is read as what it is, with the readers the rest of the checker uses
(``facts``): a date in ISO form is the date ("2026-05-02" is May 2, 2026), a number is its value
whatever its separators, an amount is money when its record gives a currency beside it
(``{"amount": 30, "currency": "USD"}`` is $30), a boolean is a yes or a no to its key's words.
A field's key is words too (``shipped_on``: "shipped on"), so a claim may say "shipped" where
the record says ``shipped_on``.

A claim is stated by a record when every value it gives (number, amount, date, name) is the
value of a field, every other content word it uses is a word of a field's key or value, and
what it affirms or denies is what the record's booleans say. Values of different kinds are
never rivals: an order number is no other value of a duration, and "$30" no other value of a
bare 30 (it says more: a currency). A claim's value that a field of its kind gives otherwise,
where the claim speaks of that field (its key's words) or the record has no other field of that
kind, is a conflict, and the reason names the field: "`shipped_on` is 2026-05-02, the sentence
says May 12".

A field whose text does not assert what it says (``assertions``: an instruction planted for a
model, a question, a hedge) gives no value and no word.
"""

from __future__ import annotations

import calendar
import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..text import assertions
from ..text import records as structured
from ..text.sentences import split_sentences
from ..text.word_forms import STOPWORDS, content_words, stem
from ..types import Evidence, Field
from . import money
from .facts import Facts, read_facts
from .quantities import NUMBER_WORDS, UNITS, Amount
from .word_lists import NEGATIONS, snowball, synonyms

# Words of a boolean's key that only say it is one ("is_paid", "has_warranty"): not what the
# claim must say.
_BOOLEAN_PREFIXES = frozenset("is has was can did does should will are were".split())
# The last word of a number's key that says it counts, measures or names something, so it is
# no amount of its record's currency (``{"qty": 2, "price": 30, "currency": "USD"}``).
_NOT_MONEY = frozenset("""id qty quantity count number num no year years month months day days
    hour hours minute minutes percent pct points score rank age level version code zip
    postcode phone seats nights guests items left stock weight kg km""".split())
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# A code that mixes letters and digits ("A-5521", "RF-2201", "TNT-2P"): a name, not a number.
_IDENTIFIER = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*")
_CODE = re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*\b")
_MONTH = dict(enumerate(calendar.month_name))  # 5 -> "May"
_WORD = re.compile(r"[^\W\d_]+")
_PUNCTUATION = "\"'“”‘’()[]{},;:.!?"
_ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th)\b")  # "15th": the day 15
_NON = re.compile(r"\bnon-(?=\w)", re.IGNORECASE)  # "non-refundable": not refundable
# Words that join what a sentence says, not what it says of the record.
_CONNECTIVES = frozenset("because since due therefore thus hence".split())
_UNITS = frozenset(UNITS.values())


def _counted_as_bare(q: Amount) -> Amount:
    """A count of a noun ("1,250 tents", "two frothers") as its number: a record gives the
    count under a key ("quantity_available"), the noun is for the words to match."""
    if q.unit is None or q.unit in _UNITS or money.is_currency(q.unit):
        return q
    return replace(q, unit=None)


@dataclass(frozen=True)
class Read:
    """One field as the rules read it: its key's words, its value's words and facts."""

    field: Field
    keys: frozenset[str]  # content words of every key of its path
    own: frozenset[str]  # content words of its own (last) key
    words: frozenset[str]  # content words of its value
    names: frozenset[str]  # each word of its value, as a name is compared (``stem``)
    facts: Facts  # its value read as a sentence would write it
    date: datetime.date | None
    text: str  # its key's words and its value as a sentence writes it, where the value asserts


@dataclass(frozen=True)
class Outcome:
    """How one record states a claim: "supported", "conflict" or "unsupported", the reason,
    the lines quoted, and the share of the claim's words the record holds."""

    kind: str
    reason: str
    quotes: tuple[str, ...] = ()
    coverage: float = 0.0
    anchored: bool = False  # every number, amount and date of the claim is a field's


def read_fields(fields: Sequence[Field], extra: str = "") -> list[Read]:
    """Each field read; a number takes the unit its key ends with (``warranty_months``), or
    else a currency its object (or one holding it) gives, unless its key says it counts or
    names something (``_NOT_MONEY``). ``extra``: words the record is
    about beside its fields (the tool an error result reports the failure of)."""
    currencies = {_parent(f.path): money.code(f.value) for f in fields
                  if isinstance(f.value, str) and money.code(f.value)}
    found = []
    words: frozenset[str]
    names: frozenset[str]
    for f in fields:
        value, keys = f.value, structured.path_words(f.path)
        spoken = ""
        if not _asserts(value):
            facts, words, names = read_facts(""), frozenset(), frozenset()
        elif (isinstance(value, str) and _IDENTIFIER.fullmatch(value.strip())
              and structured.date_of(value) is None):
            facts, words = read_facts(""), content_words(value)  # a code, not a number
            names, spoken = frozenset((stem(value.strip()),)), value
        else:
            spoken = structured.spoken(value)
            currency = _code_in_key(f.path) or next(
                (currencies[p] for p in _holders(f.path) if p in currencies), None)
            if _NUMBER.fullmatch(spoken) and keys and keys[-1] in UNITS:
                spoken = f"{spoken} {keys[-1]}"  # `warranty_months: 24` is 24 months
            elif currency and _NUMBER.fullmatch(spoken) and not _NOT_MONEY & set(keys[-1:]):
                spoken = f"{spoken} {currency.upper()}"
            facts, words = read_facts(spoken), content_words(spoken)
            names = frozenset(stem(w.strip(_PUNCTUATION)) for w in spoken.split()) - {""}
        found.append(Read(f, content_words(" ".join(keys)),
                          content_words(" ".join(structured.key_words(f.path))), words, names, facts,
                          structured.date_of(value), f"{' '.join(keys)} {spoken}"))
    if extra:
        called = " ".join(structured.path_words(extra))
        found.append(Read(Field("", extra), content_words(called), frozenset(), frozenset(),
                          frozenset(), read_facts(""), None, called))
    return found


@dataclass(frozen=True)
class _Claim:
    """A claim as the fields are compared with it."""

    text: str
    facts: Facts
    denies: bool  # it says that something is not so
    counts: frozenset[str]  # its numbers that count a noun ("2 frothers"), as written

    @classmethod
    def read(cls, claim: str) -> _Claim:
        claim = _ORDINAL.sub(r"\1", _NON.sub("not ", claim))
        codes = [m.span() for m in _CODE.finditer(claim)]
        facts = read_facts(claim)
        words = frozenset(w for w in facts.words - _CONNECTIVES
                          if not w.endswith("n't") and w.split("'")[0] not in STOPWORDS
                          and w not in NUMBER_WORDS)
        kept = [q for q in facts.quantities if not any(q.text in claim[a:b] for a, b in codes)]
        quantities = tuple(map(_counted_as_bare, kept))
        counts = frozenset(q.text for q, bare in zip(kept, quantities, strict=True) if q != bare)
        years = frozenset(y for y in facts.years if not any(str(y) in claim[a:b]
                                                            for a, b in codes))
        return cls(claim, replace(facts, words=words, quantities=quantities, years=years),
                   bool(NEGATIONS & set(_plain_words(claim))), counts)


def state(claim: str, fields: Sequence[Field], extra: str = "") -> Outcome:
    """How the record of ``fields`` states ``claim``: see the module's docstring."""
    said = _Claim.read(claim)
    read = read_fields(fields, extra)
    known = frozenset().union(*(r.keys | r.words for r in read))
    share = len(said.facts.words & known) / max(1, len(said.facts.words))
    matched = _values(said, read)
    if isinstance(matched, Outcome):
        return replace(matched, coverage=share)
    names = frozenset().union(*(r.names for r in read)) | known
    for name, written in said.facts.names.items():
        if name not in names:
            return Outcome("unsupported", f"no field names {written!r}", coverage=share,
                           anchored=True)
    missing = sorted(w for w in said.facts.words - known - set(said.facts.names)
                     if not _synonym_of(w, said.text, read))
    if missing:
        return Outcome("unsupported", "no field says " + ", ".join(repr(w) for w in missing[:3]),
                       coverage=share, anchored=True)
    polarity = _polarity(said, read, bool(extra))
    if isinstance(polarity, Outcome):
        return replace(polarity, coverage=share, anchored=True)
    used = [*matched, *polarity, *(r for r in read if (r.keys | r.words) & said.facts.words)]
    quotes = tuple(dict.fromkeys(structured.line(r.field) for r in used if r.field.path))
    return Outcome("supported", "the fields state it: " + "; ".join(quotes[:4]), quotes, share,
                   anchored=True)


def _values(said: _Claim, read: list[Read]) -> list[Read] | Outcome:
    """The fields that hold each number, amount and date of the claim, or why one is not
    held: a field of its kind the claim speaks of gives another (a conflict), or none does."""
    used = []
    words = said.facts.words
    for q in said.facts.quantities:
        holding = [r for r in read if any(q.stated_by(v) for v in r.facts.quantities)
                   or (q.unit is None and q.value in r.facts.years)]
        rival = _rival(q, read, said, holding)
        if rival is not None:
            return _conflict(rival, q.text)
        if not holding:
            return Outcome("unsupported", f"no field gives {q.text!r}")
        used.append(holding[0])
    dated = [r for r in read if r.date is not None]
    for month, day in sorted(said.facts.days):
        holding = [r for r in read if (month, day) in r.facts.days]
        spoken_of = [r for r in dated if r.own & words]  # "shipped" for `shipped_on`
        written = f"{_MONTH[month]} {day}"
        if spoken_of and not any(r.own & words for r in holding):
            return _conflict(spoken_of[0], written)
        if not holding:
            return Outcome("unsupported", f"no field gives the date {written}")
        used.append(holding[0])
    for year in sorted(said.facts.years):
        holding = [r for r in read if year in r.facts.years
                   or any(v.unit is None and v.value == year for v in r.facts.quantities)]
        spoken_of = [r for r in dated if r.own & words]
        if not holding and spoken_of:
            return _conflict(spoken_of[0], str(year))
        if not holding:
            return Outcome("unsupported", f"no field gives the year {year}")
        used.append(holding[0])
    for month in sorted(said.facts.months - {m for m, _ in said.facts.days}):
        if not any(month in r.facts.months for r in read):
            return Outcome("unsupported", f"no field gives the month {_MONTH[month]}")
    return used


def _polarity(said: _Claim, read: list[Read], failed: bool) -> list[Read] | Outcome:
    """The booleans the claim speaks of (their key's words in it), each saying what the claim
    affirms or denies; a denial no field gives (a false boolean, a value that denies, an error
    result: ``failed``) is not stated."""
    used, denies = [], said.denies
    for r in read:
        about = r.keys - _BOOLEAN_PREFIXES
        if not isinstance(r.field.value, bool) or not about or not about <= said.facts.words:
            continue
        if r.field.value == said.denies:
            shown = "it is not so" if said.denies else "it is so"
            return Outcome("conflict", f"`{r.field.path}` is {str(r.field.value).lower()}, the "
                           f"sentence says {shown}", (structured.line(r.field),))
        used.append(r)
        denies = False  # the denial is the field's
    if denies and not failed and not any(
            NEGATIONS & set(_plain_words(str(r.field.value))) for r in read):
        return Outcome("unsupported", "the sentence denies what no field denies")
    return used


def best(claim: str, evidence: Sequence[Evidence]) -> Outcome:
    """The record of ``evidence`` that states ``claim`` (the first that does); else the first
    that holds every value of the claim but not the rest (the record it speaks of); else the
    first in conflict with it; else the one that holds most of its words."""
    outcomes = [state(claim, e.fields, e.tool.name if e.tool and e.tool.error else "")
                for e in evidence if e.fields]
    return (next((o for o in outcomes if o.kind == "supported"), None)
            or next((o for o in outcomes if o.anchored), None)
            or next((o for o in outcomes if o.kind == "conflict"), None)
            or max(outcomes, key=lambda o: o.coverage))


def _synonym_of(word: str, claim: str, read: list[Read]) -> bool:
    """Whether the claim's ``word`` (its ``stem``) is, in one of its written forms, a form or a
    synonym (the checker's table) of a word of the fields' keys or values."""
    forms = {snowball(w.lower()) for w in _WORD.findall(claim) if stem(w) == word}
    theirs = {snowball(w.lower()) for r in read for w in _WORD.findall(r.text)}
    return bool(forms & theirs) or any(synonyms(a, b) for a in forms for b in theirs)


def _asserts(value: object) -> bool:
    """Whether a field's value, read as text, asserts what it says (a planted instruction, a
    question or a hedge does not)."""
    if not isinstance(value, str) or len(value.split()) < 3:
        return True
    sentences = [s.text for s in split_sentences(value)]
    return all(kind in (None, assertions.REPORT, assertions.CONDITION)
               for kind in assertions.unasserted_each(sentences))


def _parent(path: str) -> str:
    """The path of the object holding a field."""
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


def _holders(path: str) -> list[str]:
    """The paths of the objects holding a field, nearest first, the document ("") last."""
    found = []
    while path:
        path = _parent(path)
        found.append(path)
    return found


def _code_in_key(path: str) -> str | None:
    """A currency its key names ("price_usd", "amountEUR")."""
    return next((code for word in structured.key_words(path)
                 if len(word) == 3 and (code := money.code(word))), None)


def _rival(q: Amount, read: list[Read], said: _Claim, holding: list[Read]) -> Read | None:
    """A field giving a value of ``q``'s kind (a bare number, a measure of its dimension, an
    amount of money) other than ``q``, that the claim speaks of where it gives ``q`` (its key's
    word next to ``q``: "total was $30", "starts at 16:00"; a count's noun after it: "3
    items") while no field holding ``q`` is; or, when no field holds ``q``, the only field of
    its kind."""
    claim = said.text
    kind = [r for r in read if any(_same_kind(q, v) for v in r.facts.quantities)]
    rivals = [r for r in kind if any(_same_kind(q, v) and (q.conflicts(v) or q.unit != v.unit)
                                     for v in r.facts.quantities)]
    at = claim.find(q.text)
    near = frozenset() if at < 0 else _next_to(claim, at, at + len(q.text),
                                                before=q.text not in said.counts)
    spoken_of = [r for r in rivals if r.own & near]
    if spoken_of and not any(r.own & near for r in holding):
        return spoken_of[0]
    return rivals[0] if not holding and len(kind) == 1 and rivals else None


def _same_kind(q: Amount, v: Amount) -> bool:
    """Both bare numbers, both money, or both measures of one dimension."""
    if money.is_currency(q.unit) or money.is_currency(v.unit):
        return money.is_currency(q.unit) and money.is_currency(v.unit)
    if q.unit is None or v.unit is None:
        return q.unit is v.unit
    return q.comparable(v)


def _next_to(claim: str, start: int, end: int, before: bool = True) -> frozenset[str]:
    """The content words next to ``claim[start:end]`` on either side (``before``: also the
    one before it), past function words."""
    words = [w for w in _WORD.findall(claim[:start]) if w.lower() not in STOPWORDS][-1:]
    after = [w for w in _WORD.findall(claim[end:]) if w.lower() not in STOPWORDS][:1]
    return content_words(" ".join((words if before else []) + after))


def _conflict(rival: Read, written: str) -> Outcome:
    return Outcome("conflict", f"`{rival.field.path}` is {_value(rival.field)}, the sentence "
                   f"says {written}", (structured.line(rival.field),), anchored=False)


def _value(field: Field) -> str:
    return field.value if isinstance(field.value, str) else structured.line(field).split(
        ": ", 1)[1]


def _plain_words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower().replace("’", "'").replace("n't", " not"))
