"""Structured evidence: a tool result or a source that is JSON (an object, or an array of
records), read field by field instead of as prose.

Each value is a ``Field`` with its path (``items[0].name``), which locates it as offsets locate
a passage. Values are grouped into *records*: the fields of one object that is an element of an
array (``items[0]``), with the fields of the objects that hold it (the order an item belongs
to), or the whole document when no array of objects is in it. A record is the unit retrieved,
judged and quoted: "order 7731 has a lamp for $30" may join the order's number to its item's
name and price, never to another item's.

What a record is *about*, for retrieval and for the rules, is its keys as words joined to its
values ("shipped_on: 2026-05-02" is about "shipped on May 2, 2026"): ``about``.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..types import Field, Scalar
from . import cues
from .word_forms import fold

# Fields read of one document: a bound on the work a hostile result can ask for, far above
# what a tool returns for one answer. Past it, the rest is not read (and a record says so).
MAX_FIELDS = 5_000
VALUE_CHARS = 300  # characters of one value a line shows
_OPENS_AS_JSON = re.compile(r"\s*[\[{]")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w-]*$")
# An ISO 8601 date, with its time of day and zone where it has them ("2026-05-02",
# "2026-05-02T14:30:00Z", "2026-05-02 14:30"): one value wherever it stands, a record's field,
# a text or a clause the rules read (``rules.reading``). Groups: year, month, day, hour, minute,
# second, zone.
ISO_DATE = re.compile(r"(?<![\w-])(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"
                      r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?"
                      r"(?!\w|[:-]\d)")
_MONTHS = ("January February March April May June July August September October November "
           "December").split()  # English whatever the locale
_KEY_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@dataclass(frozen=True)
class Record:
    """The fields of one record (its own, then those of the objects that hold it), its path
    (``items[0]``; "" for the whole document) and whether the document had more fields than
    were read (``MAX_FIELDS``)."""

    path: str
    fields: tuple[Field, ...]
    cut: bool = False


def parse(text: str) -> object | None:
    """``text`` as JSON when it is an object or an array (what a structured result is), else
    None: prose, a bare string or number, or JSON too deeply nested to read."""
    if not _OPENS_AS_JSON.match(text):  # every source of every validation is asked: no copy
        return None
    try:  # NaN and Infinity, which JSON does not have, stay the words they are
        data = json.loads(text.strip(), parse_constant=str)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, (dict, list)) and data else None


def records(data: object) -> list[Record]:
    """The records of a parsed JSON document, in document order: see the module's docstring."""
    own: dict[str, list[Field]] = {}  # a record's path -> its own fields
    holders: dict[str, tuple[str, ...]] = {}  # a record's path -> the records that hold it
    cut = False
    for n, (path, value, record, held_by) in enumerate(_leaves(data, "", "", ())):
        if n >= MAX_FIELDS:
            cut = True
            break
        own.setdefault(record, []).append(Field(path, value))
        holders.setdefault(record, held_by)
    found = []
    for path, fields in own.items():  # a record that holds others (an order, above its items)
        # is in each of them, and a record of its own too (what is said of the order alone)
        held = [f for holder in holders[path] for f in own.get(holder, ())]
        found.append(Record(path, (*fields, *held), cut))
    return found


def _leaves(value: object, path: str, record: str, held_by: tuple[str, ...]
            ) -> Iterator[tuple[str, Scalar, str, tuple[str, ...]]]:
    """(path, value, its record's path, the paths of the records holding that record) of each
    scalar, depth first. An object or an array that is an element of an array (a row of a
    table) starts a record."""
    stack: list[tuple[object, str, str, tuple[str, ...]]] = [(value, path, record, held_by)]
    while stack:
        value, path, record, held_by = stack.pop()
        if isinstance(value, dict):
            items = [(_key_path(path, str(key)), item) for key, item in value.items()]
        elif isinstance(value, list):
            items = [(f"{path}[{k}]", item) for k, item in enumerate(value)]
        else:
            yield path, value if isinstance(value, (str, int, float, bool)) else None, record, \
                held_by
            continue
        if not items and path:
            yield path, None, record, held_by  # an empty object or list says it is empty
        for item_path, item in reversed(items):
            if isinstance(value, list) and isinstance(item, (dict, list)):
                stack.append((item, item_path, item_path, (*held_by, record)))
            else:
                stack.append((item, item_path, record, held_by))


def _key_path(path: str, key: str) -> str:
    if _IDENTIFIER.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


# What a result says of its call: the table of cues reads each part of a field.
_ERROR_KEY = cues.record_row(cues.ERROR_KEY)
_COUNT_KEY = cues.record_row(cues.COUNT_KEY)
_STATE_KEY = cues.record_row(cues.STATE_KEY)
_STATE = cues.record_row(cues.STATE)
_FLAG_KEY = cues.record_row(cues.FLAG_KEY)
_HTTP_KEY = cues.record_row(cues.HTTP_KEY)
_FAILED_TEXT = cues.record_row(cues.RESULT)
_TELLS = cues.record_row(cues.TELLS)


def says_failed(text: str, data: object | None) -> bool:
    """Whether a tool's result says that its call failed: ``data``, the result parsed
    (``parse``), by ``failed``; a result in prose by its first line."""
    return failed(data) if data is not None else bool(_FAILED_TEXT.match(text))


def failed(data: object) -> bool:
    """Whether a JSON result says that its call failed, anywhere in it: a key of an error
    (``error``, ``errorMessage``, ``ERR``, ``failure_reason``) with a value that is not empty,
    false or null; a status, state, result or outcome that is a failure ("error", "failed",
    "not_found", "aborted"); a success flag that is false (``"ok": false``, ``"success":
    "false"``); an HTTP status of 400 or more under a key for one (``status``, ``code``,
    ``status_code``). Each wording is a row of the cue table's ``RECORDS``."""
    for n, (path, value, _, _) in enumerate(_leaves(data, "", "", ())):
        if n >= MAX_FIELDS:
            break
        words = path_words(path)  # errors[0].message: "errors"
        if (_any(_ERROR_KEY, words) and not _any(_COUNT_KEY, words)
                and value not in (None, False, "", 0)):
            return True
        if (isinstance(value, str) and _any(_STATE_KEY, words)
                and _STATE.fullmatch(value.strip())):
            return True
        if _false(value) and _any(_FLAG_KEY, words):
            return True
        last = re.split(r"[.\[]", path)[-1].strip('"]')
        if (_HTTP_KEY.fullmatch(last) and isinstance(value, int) and not isinstance(value, bool)
                and 400 <= value <= 599):
            return True
    return False


def _false(value: object) -> bool:
    """``false``, also written as a string ("false", "no")."""
    return value is False or isinstance(value, str) and value.strip().lower() in ("false", "no")


def _any(row: re.Pattern[str], words: list[str]) -> bool:
    return any(row.fullmatch(w) for w in words)


def tells_of_failure(claim: str) -> bool:
    """Whether ``claim`` tells of a failure or a refusal ("was declined", "could not be
    issued"), which a result that says its call failed may state."""
    return bool(_TELLS.search(fold(claim)))


def key_words(path: str) -> list[str]:
    """The words of a field's last key: ``shipped_on`` and ``shippedOn`` are "shipped on";
    indexes are no words."""
    last = re.split(r"[.\[]", path)[-1].strip('"]')
    return [w.lower() for w in _KEY_WORD.findall(last) if not w.isdigit()]


def path_words(path: str) -> list[str]:
    """The words of every key of a path: ``order.items[0].unit_price`` is "order items unit
    price"."""
    return [w.lower() for part in re.split(r"[.\[\]]+", path) if part
            for w in _KEY_WORD.findall(part.strip('"')) if not w.isdigit()]


def date_of(value: Scalar) -> datetime.date | None:
    """The date an ISO 8601 string gives ("2026-05-02", "2026-05-02T14:30:00Z"), else None."""
    if not isinstance(value, str):
        return None
    match = ISO_DATE.fullmatch(value.strip())
    if match is None:
        return None
    try:
        return datetime.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def spoken(value: Scalar) -> str:
    """A value as a sentence writes it: a date in words ("May 2, 2026", and its time as
    written: "May 2, 2026 14:30 UTC"), also inside a text, a boolean as "true"/"false", a
    string otherwise as it is."""
    date = date_of(value)
    if date is not None:
        match = ISO_DATE.fullmatch(str(value).strip())
        time = "" if match is None or match[4] is None else f" {match[4]}:{match[5]}"
        zone = " UTC" if time and match and match[7] in ("Z", "+00:00", "+0000") else ""
        return f"{_MONTHS[date.month - 1]} {date.day}, {date.year}{time}{zone}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float) and math.isfinite(value) and value == int(value) and abs(
            value) < 1e15:
        return str(int(value))
    if isinstance(value, str):  # a date inside a text: "Slot 2026-05-14T10:00 is taken."
        return ISO_DATE.sub(lambda m: spoken(m.group()) if date_of(m.group()) else m.group(),
                            value)
    return str(value)


def about(fields: tuple[Field, ...]) -> str:
    """What ``fields`` are about, for a search: each one's key words, then its value spoken."""
    return "\n".join(f"{' '.join(path_words(f.path))} {spoken(f.value)}" for f in fields)


def line(field: Field) -> str:
    """``path: value``, as a judge reads it; a long value cut (``VALUE_CHARS``)."""
    value = field.value if isinstance(field.value, str) else json.dumps(field.value)
    value = " ".join(value.split())
    if len(value) > VALUE_CHARS:
        value = value[:VALUE_CHARS] + "..."
    return f"{field.path}: {value}"


def shown(fields: tuple[Field, ...], left_out: int = 0) -> str:
    """The text a judge reads for a record: a line per field, and how many were left out."""
    lines = [line(f) for f in fields]
    if left_out:
        lines.append(f"({left_out} more field{'' if left_out == 1 else 's'} of this record not "
                     "shown)")
    return "\n".join(lines)
