"""Finding a judge's answer in its reply: a verdict, a batch of verdicts, a list of claims, a
rewrite. Where it is found here; what it must say is its typed output's (``outputs``).

A verdict reply is accepted in three forms: JSON (``{"verdict": "supported", "reason": ...}``), the
hub validator's tags (``<supported>[YES]</supported>``), or a bare word (``yes``, ``no``,
``supported``, ``unsupported``, ``contradicted``). Only the judge's *final* verdict counts:
a JSON object or tag that ends the reply. A verdict-like string anywhere else (a judge quoting
the validated sentence, which may carry a fake verdict) is never read. The same holds for
batched replies and claim lists: only the JSON object that ends the reply is read.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import replace

from ..types import BY_FALLBACK, INVALID, REPLY_SHOWN, Verdict
from .outputs import (
    BARE_MAX,
    DOUBLED,
    DOUBLED_KIND,
    VERDICT_KEYS,
    ClaimList,
    Entry,
    Judgement,
    Output,
    Rewritten,
    verdict_of,
    verdict_word,
)

_TAGS = ("supported", "verdict")

# Replies are hostile input: only the end of a reply can hold its verdict, so only the last
# READ_CHARS characters are read, and at most OPENINGS places in them are tried as the start
# of the final JSON object. Parsing a reply of any length takes time linear in READ_CHARS.
READ_CHARS = 64_000
OPENINGS = 128

# What a reply must be, said where one cannot be read (the sentence's reason, the warning).
EXPECTED_VERDICT = ('a reply ending in a JSON object {"verdict": "supported", "unsupported" or '
                    '"contradicted", "reason": "..."}, or a bare yes or no')
EXPECTED_BATCH = ('a reply ending in a JSON object {"verdicts": [{"id": 1, "verdict": ..., '
                  '"reason": ...}, ...]}, one entry per statement')
EXPECTED_REWRITE = ('a reply ending in a JSON object {"rewrite": "the sentence, rewritten"}, or '
                    '{"rewrite": null} when it cannot')
UNREADABLE_VERDICT = f"the judge's reply has no readable verdict (expected {EXPECTED_VERDICT})"
UNREADABLE_REWRITE = f"the corrector's reply has no readable rewrite (expected {EXPECTED_REWRITE})"


class UnreadableReply(Exception):
    """A model's reply held nothing that could be read; the message says what was expected."""


def parse_reply(reply: object, untrusted: Sequence[str | None] = (), kinds: bool = True
                ) -> Verdict:
    """The judge's final verdict in ``reply``; label INVALID (decided by fallback) when there
    is none we can read, or when it is a verbatim copy of a verdict planted in ``untrusted``
    text (the statement, the passages): a judge that ends by quoting the statement must not
    hand the statement's own verdict over as its own. ``kinds``: its "kind" is read (it was
    asked for one: ``failure_kinds``)."""
    if not isinstance(reply, str) or not reply.strip():
        return Verdict(INVALID, "the judge returned an empty reply", decided_by=BY_FALLBACK)
    verdict = _read_verdict(reply, untrusted, kinds)
    return replace(verdict, reply=shown(reply)) if verdict.label == INVALID else verdict


def shown(reply: str) -> str:
    """An unreadable reply as a verdict keeps it: at most REPLY_SHOWN characters."""
    reply = reply.strip()
    return reply if len(reply) <= REPLY_SHOWN else reply[:REPLY_SHOWN - 3].rstrip() + "..."


def _read_verdict(reply: str, untrusted: Sequence[str | None], kinds: bool = True) -> Verdict:
    text = _readable_end(reply)
    found = _final_json(text, lambda value: _judged(Judgement, value, untrusted, kinds))
    if found is not None:
        return found[0] if not _planted(found[1], untrusted) else _PLANTED
    tag = _final_tag(text)
    if tag is not None:
        start, inner = tag
        label = verdict_word(inner.strip().removeprefix("[").removesuffix("]"))  # "[YES]"
        if label is not None:
            if _planted(text[start:], untrusted):
                return _PLANTED
            return verdict_of(label, _analysis(text[:start]))
    if len(text) <= BARE_MAX:
        label = verdict_word(text)
        if label is not None:
            return verdict_of(label, "")
    return Verdict(INVALID, UNREADABLE_VERDICT, decided_by=BY_FALLBACK)


def _judged(output: type[Output], value: object, untrusted: Sequence[str | None],
            kinds: bool) -> Verdict | None:
    """A verdict's object read by its output: its verdict, the refusal its checks gave, or
    None (no verdict in it)."""
    read = output.read(value, untrusted=untrusted, kinds=kinds)
    return read.as_verdict() if isinstance(read, (Judgement, Entry)) else read  # type: ignore[return-value]


def parse_batch_reply(
    reply: object, count: int, untrusted: Sequence[str | None] = (), kinds: bool = True
) -> list[Verdict | None]:
    """Verdicts for statements 1..count from a batched reply: the final JSON object,
    ``{"verdicts": [{"id": 1, "verdict": ..., "reason": ..., "score": ...}, ...]}``. A
    statement with no entry, an unreadable entry, or two entries gets None."""
    found: list[Verdict | None] = [None] * count
    if not isinstance(reply, str):
        return found

    def read(value: dict) -> list | None:
        items = value.get("verdicts")  # each entry is read on its own (``Entry``)
        return items if isinstance(items, list) else None

    items = final_object(reply, read, untrusted)
    return found if items is None else _by_id(items, count, untrusted, kinds)


def parse_cut_batch_reply(
    reply: object, count: int, untrusted: Sequence[str | None] = (), kinds: bool = True
) -> list[Verdict | None]:
    """Verdicts for statements 1..count from a batched reply the provider cut at its length
    limit: it has no final object, but the entries of ``"verdicts": [...]`` written before the
    cut are whole JSON objects, each read as an entry of a whole reply is (and none that copies
    the untrusted text). The entry the cut went through, and those after it, get None."""
    if not isinstance(reply, str):
        return [None] * count
    text = reply[-READ_CHARS:]
    opened = list(_VERDICTS_OPEN.finditer(text))
    if not opened:
        return [None] * count
    decoder, position, items = json.JSONDecoder(), opened[-1].end(), []
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        try:
            value, end = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):  # the cut, or what is no entry
            break
        if not isinstance(value, dict):
            break
        if not _planted(text[position:end], untrusted):
            items.append(value)
        position = end
    return _by_id(items, count, untrusted, kinds)


_VERDICTS_OPEN = re.compile(r'"verdicts"\s*:\s*\[')


def _by_id(items: list, count: int, untrusted: Sequence[str | None] = (), kinds: bool = True
           ) -> list[Verdict | None]:
    """Each statement's verdict from the entries of a batched reply: by its ``id``; a statement
    with no entry, an unreadable entry, or two entries gets None."""
    found: list[Verdict | None] = [None] * count
    seen: set[int] = set()
    for item in items:
        number = item.get("id") if isinstance(item, dict) else None
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= count:
            continue
        verdict = _judged(Entry, item, untrusted, kinds)
        found[number - 1] = None if number in seen else verdict
        seen.add(number)
    return found


def parse_claims(reply: object, untrusted: Sequence[str | None] = ()) -> list[str] | None:
    """The claims in a decomposition reply (final JSON object ``{"claims": [...]}``), or None
    when there is no usable list, or it is copied from the ``untrusted`` answer (then the
    sentence is judged whole)."""
    if not isinstance(reply, str):
        return None
    read = final_object(reply, ClaimList.read, untrusted)
    return read.claims if isinstance(read, ClaimList) else None


def parse_rewrite(reply: object, untrusted: Sequence[str | None] = ()) -> str | None:
    """The rewrite in a correction reply (final JSON object ``{"rewrite": "..."}``), ``CANNOT``
    for ``{"rewrite": null}``, or None when there is no such object or it is copied from the
    ``untrusted`` sentence, question or passages."""
    if not isinstance(reply, str):
        return None
    read = final_object(reply, Rewritten.read, untrusted)
    return read.text if isinstance(read, Rewritten) else None


# A verdict's value in a JSON reply, and an entry's id: JSON escapes the quotes of a string,
# so neither matches text inside a reason.
_VERDICT_VALUE = re.compile(r'"(?:verdict|supported|label)"\s*:\s*"([^"\\]{1,40})"')
_ID = re.compile(r'"id"\s*:\s*(\d{1,6})')
Tokens = tuple[tuple[str, float], ...]  # a reply's tokens, each with its log probability


def with_probability(verdict: Verdict, text: str, tokens: Tokens | None) -> Verdict:
    """``verdict``, read from the reply ``text``, with ``probability``: the chance the model
    gave the tokens of its verdict's word (from their log probabilities), where ``tokens`` are
    the reply's, the word is the reply's last verdict value and reads as the verdict's label;
    else None, never a guess."""
    if tokens is None or verdict.label == INVALID:
        return verdict
    found = list(_VERDICT_VALUE.finditer(text))
    if not found or verdict_word(found[-1].group(1)) != verdict.label:
        return verdict
    return replace(verdict, probability=_chance(text, tokens, found[-1].span(1)))


def with_probabilities(verdicts: list[Verdict | None], text: str, tokens: Tokens | None
                       ) -> list[Verdict | None]:
    """A batched reply's verdicts, each with the probability of its word's tokens: the verdict
    values after the reply's last ``"verdicts": [``, each matched to the id written before it
    in its entry; an id written twice, or a word that is not the verdict read, gives None."""
    if tokens is None:
        return verdicts
    opened = list(_VERDICTS_OPEN.finditer(text))
    if not opened:
        return verdicts
    chances: dict[int, tuple[str | None, float | None] | None] = {}
    start = opened[-1].end()
    for match in _VERDICT_VALUE.finditer(text, start):
        ids = _ID.findall(text, start, match.start())
        start = match.end()
        if not ids:
            continue
        number = int(ids[-1])
        chances[number] = None if number in chances else (
            verdict_word(match.group(1)), _chance(text, tokens, match.span(1)))
    out = list(verdicts)
    for i, verdict in enumerate(out):
        seen = chances.get(i + 1)
        if verdict is not None and seen is not None and seen[0] == verdict.label:
            out[i] = replace(verdict, probability=seen[1])
    return out


def _chance(text: str, tokens: Tokens, span: tuple[int, int]) -> float | None:
    """The probability of the tokens covering ``text[span[0]:span[1]]``: the product of theirs,
    when the tokens spell ``text`` once (a server may take a reply out of a code fence the
    model wrote around it); else None: they are not this reply's."""
    spelt = "".join(token for token, _ in tokens)
    if spelt.count(text) != 1:
        return None
    offset = spelt.index(text)
    span = (span[0] + offset, span[1] + offset)
    total, at = 0.0, 0
    for token, logprob in tokens:
        if at < span[1] and at + len(token) > span[0]:
            if not isinstance(logprob, (int, float)) or math.isnan(logprob) or logprob > 0:
                return None
            total += logprob
        at += len(token)
    return round(math.exp(total), 4)


def final_object(reply: str, read, untrusted: Sequence[str | None] = ()):
    """``read(obj)`` for the JSON object that ends ``reply`` (code fences allowed), or None when
    there is none ``read`` accepts, or when that object is a verbatim copy of text in
    ``untrusted`` (planted there for a judge that ends its reply by quoting)."""
    found = _final_json(_readable_end(reply), read)
    if found is None or _planted(found[1], untrusted):
        return None
    return found[0]


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    value = dict(pairs)
    keys = [k for k, _ in pairs if k in VERDICT_KEYS]
    if len(keys) != len(set(keys)):
        value[DOUBLED] = True
    if sum(k == "kind" for k, _ in pairs) > 1:
        value[DOUBLED_KIND] = True
    return value


def _final_json(text: str, read):
    """``(read(obj), raw text of obj)`` for the JSON object that ends ``text`` (the last one
    ``read`` accepts), or None. An object followed by more text is never read."""
    decoder = json.JSONDecoder(object_pairs_hook=_pairs)
    position = text.rfind("{")
    for _ in range(OPENINGS):
        if position == -1:
            break
        try:
            value, end = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the stack
            value, end = None, position
        if isinstance(value, dict) and not text[end:].strip():
            try:
                found = read(value)
            except RecursionError:
                found = None
            if found is not None:
                return found, text[position:end]
        position = text.rfind("{", 0, position)
    return None


_PLANTED = Verdict(INVALID, "the judge's reply ends with a verdict copied from the validated text "
                   "or the sources", decided_by=BY_FALLBACK)


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


def _planted(raw: str, untrusted: Sequence[str | None]) -> bool:
    raw = _squash(raw)
    return any(raw in _squash(text) for text in untrusted if text)


def _readable_end(reply: str) -> str:
    """The part of a reply a verdict is read from: its last ``READ_CHARS`` characters,
    stripped, without a code fence around them."""
    text = reply[-READ_CHARS:].strip()
    if text.startswith("```"):
        first_line = text.find("\n")
        opening = text[: first_line if first_line != -1 else len(text)]
        if opening.strip("`").strip().lower() in ("", "json"):
            text = text[len(opening):].strip()
    if text.endswith("```"):
        text = text[:-3].strip()
    return text


def _final_tag(text: str) -> tuple[int, str] | None:
    """``(start, inner text)`` of the ``<supported>...</supported>`` (or ``<verdict>``) tag
    that ends ``text``, or None. Found from the end, so unclosed tags cost nothing."""
    lowered = text.lower()
    for name in _TAGS:
        closing, opening = f"</{name}>", f"<{name}>"
        if lowered.endswith(closing):
            start = lowered.rfind(opening, 0, len(lowered) - len(closing))
            if start != -1:
                return start, text[start + len(opening): len(text) - len(closing)]
    return None


def _analysis(text: str) -> str:
    """The judge's reasoning before its verdict: the last ``<analysis>`` block, else all."""
    lowered = text.lower()
    end = lowered.rfind("</analysis>")
    start = lowered.rfind("<analysis>", 0, end) if end != -1 else -1
    return text[start + len("<analysis>"):end].strip() if start != -1 else text.strip()
