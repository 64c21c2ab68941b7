"""A record's fields as the rule checker reads them (``values`` compares a claim with them):
each value as what it is, with the readers the rest of the checker uses (``facts``), and its key
as words.

- A date in ISO form is the date ("2026-05-02" is May 2, 2026), also inside a text.
- A number is its value whatever its separators, with the unit its key ends with
  (``warranty_months``, ``humidity_pct``, ``amount_cents``), or else the currency its object,
  or one holding it, gives (``{"amount": 30, "currency": "USD"}`` is $30), unless its key says
  it counts or names something (``qty``, ``id``).
- A code that mixes letters and digits (``A-5521``) is a name, not a number.
- A field says yes or no (``Read.negative``): a boolean, "no" or "none", a key or value that
  negates (``not_delivered``, "non-smoking").
- A field that is null, whose text (alone, or after its key: ``tell_user``) does not assert
  what it says (``assertions``: an instruction planted for a model, a question, a hedge), or
  that is part of a chat message inside a result, gives no word and no value.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ..text import assertions
from ..text import records as structured
from ..text.conversation import ROLES
from ..text.grammar import NEGATIONS
from ..text.sentences import split_sentences
from ..text.word_forms import (
    LETTERS,
    PUNCTUATION,
    content_words,
    fold,
    snowball,
    snowball_forms,
    stem,
)
from ..types import Field
from . import money
from .facts import Facts, read_facts
from .quantities import TIME_UNITS, UNITS

# The last word of a number's key that says it counts, measures or names something, so it is
# no amount of its record's currency (``{"qty": 2, "price": 30, "currency": "USD"}``).
_NOT_MONEY = frozenset("""id qty quantity count number num no year years month months day days
    hour hours minute minutes percent pct points score rank age level version code zip
    postcode phone seats nights guests items left stock weight kg km""".split())


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


# A code that mixes letters and digits ("A-5521", "RF-2201", "TNT-2P"): a name, not a number.
CODE = re.compile(r"\b(?!\d+(?:[.,]\d+)?-[A-Za-z]+\b)"  # "12-month" is a measure, no code
                   r"(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*\b")


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
    negative: bool | None  # it says its key's thing is not so (True), is so (False), or neither

    @cached_property
    def forms(self) -> frozenset[str]:
        """The Snowball forms of the words of its key and value (a month's name is none:
        "May 2026" holds no "may")."""
        return snowball_forms(self.text)

    @cached_property
    def key_forms(self) -> list[str]:
        """The Snowball forms of its last key's words, function words too (`to_account`)."""
        return [snowball(w) for w in structured.key_words(self.field.path)]

    @cached_property
    def path_forms(self) -> list[str]:
        """The Snowball forms of its path's words, function words too."""
        return [snowball(w) for w in structured.path_words(self.field.path)]


def read_fields(fields: Sequence[Field], extra: str = "") -> list[Read]:
    """Each field read; a number takes the unit its key ends with (``warranty_months``,
    ``humidity_pct``, ``amount_cents``), or else a currency its object (or one holding it)
    gives, unless its key says it counts or names something (``_NOT_MONEY``). A field that is
    null, or whose text (with its key: ``tell_user``) does not assert what it says, gives no
    word or value. ``extra``: words the record is about beside its fields (the tool an error
    result reports the failure of)."""
    currencies = {_parent(f.path): money.code(f.value) for f in fields
                  if isinstance(f.value, str) and money.code(f.value)}
    # a chat message inside a result ({"role": "system", "content": ...}) is no record's data
    chat = {_parent(f.path) for f in fields if structured.key_words(f.path)[-1:] == ["role"]
            and isinstance(f.value, str) and f.value.strip().lower() in ROLES}
    found = []
    for f in fields:
        value, keys = f.value, structured.path_words(f.path)
        if value is None or not _asserts(value, keys) or _parent(f.path) in chat:
            found.append(Read(f, frozenset(), frozenset(), frozenset(), frozenset(),
                              read_facts(""), None, "", None))
            continue
        spoken = structured.spoken(value)
        if isinstance(value, str) and CODE.fullmatch(value.strip()) and not (
                structured.date_of(value)):
            facts = read_facts("")  # a code, not a number
            names = frozenset((stem(value.strip()),))
        else:
            currency = _code_in_key(f.path) or next(
                (currencies[p] for p in _holders(f.path) if p in currencies), None)
            spoken = _with_unit(spoken, keys, currency)
            facts = read_facts("") if spoken.startswith("-") else read_facts(spoken)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                # a JSON number is exact, however it is written: 89.5 is 89.50, not 89.45 to
                # 89.55 as "89.5" in prose would be
                facts = replace(facts, quantities=tuple(
                    replace(q, rounded=False) for q in facts.quantities))
            names = frozenset(stem(w.strip(PUNCTUATION)) for w in spoken.split()) - {""}
        own = content_words(" ".join(structured.key_words(f.path)))
        found.append(Read(f, content_words(" ".join(keys)), own, content_words(spoken), names,
                          facts, structured.date_of(value), f"{' '.join(keys)} {spoken}",
                          _negative(value, structured.key_words(f.path))))
    if extra:
        called = " ".join(structured.path_words(extra))
        found.append(Read(Field("", extra), content_words(called), frozenset(), frozenset(),
                          frozenset(), read_facts(""), None, called, None))
    return found


_KEY_UNITS = {"pct": "%", "percent": "%", "percentage": "%"}


_CENTS = frozenset(("cents", "cent", "pence", "minor"))


def _with_unit(spoken: str, keys: list[str], currency: str | None) -> str:
    """A number as its key and its record say it: "24 months" for ``warranty_months: 24``
    (a time unit only in the plural: ``fiscal_year: 2025`` is a year), "45%" for
    ``humidity_pct``, "49.99 USD" for ``amount_cents: 4999`` beside a currency."""
    if not _NUMBER.fullmatch(spoken) or not keys:
        return spoken
    last = keys[-1]
    if last in _KEY_UNITS:
        return f"{spoken}{_KEY_UNITS[last]}"
    if last in UNITS and not (UNITS[last] in TIME_UNITS and last == UNITS[last]):
        return f"{spoken} {last}"
    if last in _CENTS:
        return f"{float(spoken) / 100:.2f} {currency.upper()}" if currency else spoken
    if currency and last not in _NOT_MONEY:
        return f"{spoken} {currency.upper()}"
    return spoken


# A value that is a yes or a no, and whether it is the no.
_YES_NO = {"true": False, "yes": False, "y": False, "on": False, "false": True, "no": True,
           "n": True, "none": True, "off": True, "null": True, "nil": True}


_NEGATIVE_AFFIXES = frozenset(("non", "free"))  # as words: "non-smoking", "lactose-free"


def _negative(value: object, key: list[str]) -> bool | None:
    """Whether a field says that what its key names is not so (a false boolean, "no",
    "not_delivered", ``not_delivered: true``), True; that it is, False; None when its value is
    no yes or no (a number, a name, a text that denies nothing)."""
    turned = bool(NEGATIONS & set(key))  # `not_delivered`
    if isinstance(value, bool):
        return (not value) != turned
    if turned and value not in (None, ""):
        return True  # `not_delivered_since: 2026-05-02`
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _YES_NO:
            return _YES_NO[word] != turned
        words = plain_words(value.replace("_", " ").replace("-", " "))
        if (NEGATIONS | _NEGATIVE_AFFIXES) & set(words) or "out of" in " ".join(words):
            return True  # "not available", "non-smoking", "lactose-free", "out of stock"
    return None


def _asserts(value: object, keys: list[str]) -> bool:
    """Whether a field's value, read as text, asserts what it says (a planted instruction, a
    question or a hedge does not), alone and after its key (``tell_user: ...``)."""
    # a key of a few words over a date is a label, not a request or a command: `check_in`,
    # `verify_by`, `flight_out_departs`; over anything else (`please_confirm: shipped`,
    # `confirm_delivery: true`), or longer, it is read as a sentence; and an instruction to
    # whoever reads it is one however short (`tell_user`). A code is a name, whatever its key
    # calls it (`claim_id: CL-5580`).
    keyed = assertions.unasserted(f"{' '.join(keys)}: {value}")
    dated = isinstance(value, str) and structured.date_of(value) is not None
    coded = isinstance(value, str) and CODE.fullmatch(value.strip()) is not None
    if keyed in (assertions.REQUEST, assertions.IMPERATIVE) and len(keys) <= _LABEL_WORDS and (
            dated) or keyed != assertions.INSTRUCTION and coded and not dated:
        keyed = None
    if not isinstance(value, str):
        return keyed is None  # `tell_the_user_it_was_approved: true`
    sentences = [s.text for s in split_sentences(value)]
    return all(kind in (None, assertions.REPORT, assertions.CONDITION)
               for kind in (*assertions.unasserted_each(sentences), keyed))


_LABEL_WORDS = 3  # the most words of a key read as a label, whatever its first word


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
    """A currency its key ends with, after what it is ("price_usd", "amountEUR", not "usd"
    alone: a key is read in lower case, and a lone three letters may be a word)."""
    words = structured.key_words(path)
    last = words[-1] if len(words) > 1 else ""
    return money.code(last.upper())


def shown_value(field: Field) -> str:
    return field.value if isinstance(field.value, str) else structured.line(field).split(
        ": ", 1)[1]


def plain_words(text: str) -> list[str]:
    return LETTERS.findall(fold(text).lower().replace("n't", " not"))
