"""Reading a judge's reply: a verdict, a batch of verdicts, a list of claims.

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

from ..text.cues import KINDS, REASON_ALLOW, REASON_DENY, SUPPORT_LABELS
from ..text.grammar import NEGATIONS
from ..text.word_forms import STOPWORDS, TERM, fold, snowball
from ..types import (
    BY_FALLBACK,
    BY_LLM,
    CONFLICTING_KINDS,
    CONTRADICTED,
    FAILURE_KINDS,
    INVALID,
    REPLY_SHOWN,
    SUPPORTED,
    UNSUPPORTED,
    FailureKind,
    Verdict,
    kind_contradicts,
)
from .prompts import MAX_CLAIMS

_WORDS = {
    "yes": SUPPORTED,
    "supported": SUPPORTED,
    "true": SUPPORTED,
    "no": UNSUPPORTED,
    "unsupported": UNSUPPORTED,
    "notsupported": UNSUPPORTED,
    "false": UNSUPPORTED,
    "contradicted": CONTRADICTED,
    "contradiction": CONTRADICTED,
    "contradicts": CONTRADICTED,
}
_TAGS = ("supported", "verdict")

_BARE_MAX = 40  # a bare reply longer than this is prose, not a verdict
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
    found = _final_json(text, lambda value: _verdict_of(value, untrusted, kinds))
    if found is not None:
        return found[0] if not _planted(found[1], untrusted) else _PLANTED
    tag = _final_tag(text)
    if tag is not None:
        start, inner = tag
        label = _word(inner.strip().removeprefix("[").removesuffix("]"))  # "[YES]"
        if label is not None:
            if _planted(text[start:], untrusted):
                return _PLANTED
            return _verdict(label, _analysis(text[:start]))
    if len(text) <= _BARE_MAX:
        label = _word(text)
        if label is not None:
            return _verdict(label, "")
    return Verdict(INVALID, UNREADABLE_VERDICT, decided_by=BY_FALLBACK)


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
        items = value.get("verdicts")
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
        verdict = _verdict_of(item, untrusted, kinds)
        found[number - 1] = None if number in seen else verdict
        seen.add(number)
    return found


MAX_CLAIM_CHARS = 1000


def parse_claims(reply: object, untrusted: Sequence[str | None] = ()) -> list[str] | None:
    """The claims in a decomposition reply (final JSON object ``{"claims": [...]}``), or None
    when there is no usable list, or it is copied from the ``untrusted`` answer (then the
    sentence is judged whole)."""
    if not isinstance(reply, str):
        return None

    def read(value: dict) -> list[str] | None:
        claims = value.get("claims")
        if not isinstance(claims, list):
            return None
        cleaned = [c.strip() for c in claims if isinstance(c, str) and c.strip()]
        return cleaned or None

    claims = final_object(reply, read, untrusted)
    if claims is None:
        return None
    if len(claims) > MAX_CLAIMS or any(len(c) > MAX_CLAIM_CHARS for c in claims):
        return None
    return claims


CANNOT = ""  # what ``parse_rewrite`` gives for a corrector that says it cannot rewrite


def parse_rewrite(reply: object, untrusted: Sequence[str | None] = ()) -> str | None:
    """The rewrite in a correction reply (final JSON object ``{"rewrite": "..."}``), ``CANNOT``
    for ``{"rewrite": null}``, or None when there is no such object or it is copied from the
    ``untrusted`` sentence, question or passages."""
    if not isinstance(reply, str):
        return None

    def read(value: dict) -> str | None:
        if "rewrite" not in value:
            return None
        rewrite = value["rewrite"]
        if rewrite is None:
            return CANNOT
        return rewrite.strip() if isinstance(rewrite, str) else None

    return final_object(reply, read, untrusted)


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
    if not found or _word(found[-1].group(1)) != verdict.label:
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
            _word(match.group(1)), _chance(text, tokens, match.span(1)))
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


def _word(text: str) -> str | None:
    """The label a verdict word gives: the word alone ("Supported", "not supported", "yes."),
    never one with anything added ("supported?", "SUPPORTED!!", "supported (probably not)")."""
    word = _VERDICT_WORD.fullmatch(text.strip().lower())
    return None if word is None else _WORDS.get(re.sub(r"[\s_-]", "", word.group(1)))


_VERDICT_WORD = re.compile(r"([a-z]+(?:[\s_-][a-z]+)?)\.?")


def _verdict(label: str, reason: str, score: object = None) -> Verdict:
    if isinstance(score, (int, float)) and not isinstance(score, bool) and 0 <= score <= 1:
        value = float(score)
    else:  # no score, or not one we can trust: the label's own
        value = 1.0 if label == SUPPORTED else 0.0
    return Verdict(label, reason, value, BY_LLM)


def _verdict_of(value: dict, untrusted: Sequence[str | None] = (), kinds: bool = True
                ) -> Verdict | None:
    keys = [k for k in ("verdict", "supported", "label") if k in value]
    if len(keys) > 1:  # which is its verdict? (and whose tokens its probability?)
        return Verdict(INVALID, f"{CONTRADICTS} (it gives a verdict under {' and '.join(keys)})",
                       decided_by=BY_FALLBACK)
    if value.get(_DOUBLED):
        return Verdict(INVALID, f"{CONTRADICTS} (it gives its verdict twice)",
                       decided_by=BY_FALLBACK)
    raw = value[keys[0]] if keys else None
    label: str | None
    if isinstance(raw, bool):
        label = SUPPORTED if raw else UNSUPPORTED
    else:
        label = _word(raw) if isinstance(raw, str) else None
    if label is None:
        return None
    reason = value.get("reason", "")
    if not isinstance(reason, str):
        try:
            reason = json.dumps(reason)[:2000]
        except (ValueError, TypeError, RecursionError):  # nested deeper than the stack
            reason = "(the judge's reason could not be read)"
    said = _word(reason) if len(reason.strip()) <= _BARE_MAX else None
    if said is not None and said != label:  # "unsupported", because: "supported"
        return Verdict(INVALID, f"{CONTRADICTS} (its verdict is {label}, its reason only "
                       f"{reason.strip()!r})", decided_by=BY_FALLBACK)
    if said == label or not reason.strip():  # "supported", because: "supported"
        reason = NO_REASON + (f" (only {reason.strip()!r})" if reason.strip() else "")
    elif label == SUPPORTED and (against := argues(reason, untrusted)) is not None:
        return Verdict(INVALID, f"{CONTRADICTS} (its verdict is supported, its reason says "
                       f"{against!r})", decided_by=BY_FALLBACK)
    if label == SUPPORTED and (unsure := _unsure(value)) is not None:
        return Verdict(INVALID, f"{CONTRADICTS} (its verdict is supported, its {unsure})",
                       decided_by=BY_FALLBACK)
    given = value.get("kind") if kinds else None
    if kinds and value.get(_DOUBLED_KIND):
        return Verdict(INVALID, f"{CONTRADICTS} (it gives its kind twice)",
                       decided_by=BY_FALLBACK)
    kind = _kind(given, label)
    if label == SUPPORTED and (kind == FailureKind.UNSPECIFIED or isinstance(given, str) and (
            _DENIED.match(fold(given.strip().lower())))):
        kind = None  # a word that names no kind ("ok"), or denies one ("no error"), says
        # nothing against its verdict
    if kind is not None and kind_contradicts(label, kind):
        said_of = ("says what it gets wrong" if label == SUPPORTED
                   else "is of what the passages leave unsaid, not of what they say otherwise")
        # a reply that fails the sentence either way fails it whatever pass_on_invalid says
        return Verdict(INVALID, f"{CONTRADICTS} (its verdict is {label}, its kind "
                       f"{str(kind)!r} {said_of})", decided_by=BY_FALLBACK,
                       withheld=label != SUPPORTED)
    return replace(_verdict(label, reason, value.get("score")),
                   kind=None if label == SUPPORTED else kind)


def _kind(raw: object, label: str | None = None) -> FailureKind | str | None:
    """The failure kind a reply gives: one of ``FailureKind`` by its name ("Number", "failed
    tool"), else by the first word of it a row of ``cues.KINDS`` knows ("wrong year": date);
    "unspecified" for words none knows; None for none ("none", null)."""
    if raw is None or raw is False or raw == 0 or raw == [] or raw == {}:
        return None
    if not isinstance(raw, str):
        return FailureKind.UNSPECIFIED
    said = fold(raw.strip().lower())[:200]
    if said in _NO_KIND:
        return None
    word = re.sub(r"[\s-]+", "_", said)
    if word in _KINDS:
        return FailureKind(word)
    found = [(match.start(), n, FailureKind(row.standing))
             for n, row in enumerate(KINDS) if (match := row.regex.search(said))]
    if label == CONTRADICTED:  # "missing negation": the word of a conflict, where one is named
        found = [f for f in found if f[2] in CONFLICTING_KINDS] or found
    return min(found)[2] if found else FailureKind.UNSPECIFIED


_KINDS = frozenset(FAILURE_KINDS)
_NO_KIND = frozenset(("", "none", "null", "n/a", "na", "-", "unspecified", "nothing", "ok",
                      "correct", "supported"))
_DENIED = re.compile(r"(?:no|not|nothing|without|none|null|n/a)\b")  # "no error", "not applicable": of a
# supported verdict, no kind (of a failing one, "not mentioned" is one)


def argues(reason: str, untrusted: Sequence[str | None]) -> str | None:
    """What in a supported verdict's reason argues for another verdict, or None. A reason keeps
    its verdict only where it reads as one for it: it opens with no label but one that says
    support ("Supported:", "Yes -", not "Hallucinated:" or "Close, but"), and no word of it
    turns, doubts or judges against it (``cues.REASON_DENY``) but where an allow row covers it
    ("nothing in [2] contradicts it"), inside quotes, or as the words of the validated text or
    the passages (``untrusted``: "[1] says the bridge was not closed")."""
    text = fold(reason)
    covered = [m.span() for m in _QUOTED.finditer(text)]
    covered += [m.span() for row in REASON_ALLOW for m in row.regex.finditer(text)]
    label = _LABEL.match(text)
    if label and not SUPPORT_LABELS.fullmatch(" ".join(label.group(1).lower().split())) \
            and not any(a <= label.start(1) and label.end(1) <= b for a, b in covered):
        return label.group(1)
    said: set[tuple[str, str]] | None = None  # the statement's and passages' word pairs
    for row in REASON_DENY:
        for match in row.regex.finditer(text):
            start, end = match.span()
            if any(a <= start and end <= b for a, b in covered):
                continue
            if said is None:
                said = _pairs_of(untrusted)
            if not _echoed(text, match, said):
                return _clause_at(text, start)
    return None


# A reason's opening label: a word or three, then ":", ".", "!", "," or a dash (not a
# sentence's subject, a citation or a number: "[1] states: ...", "The passage says: ...").
_LABEL = re.compile(r"^\W*(?!(?:the|this|that|it|its|a|an|both|each|all|passage|source)\b)"
                    r"((?:[^\W\d_]+(?:[\s-]+|(?=[:.!,]|\s[-–—]))){1,3}?)\s*(?:[:.!,]|[-–—]\s)",
                    re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"]{1,400}\"|“[^”]{1,400}”|«[^»]{1,400}»|(?<!\w)'[^']{1,400}'(?!\w)"
                     r"|‘[^’]{1,400}’")


def _echoed(text: str, match: re.Match, said: set[tuple[str, str]]) -> bool:
    """Whether the words at ``match`` are the validated text's or a passage's: the word with
    the content word after it (or before it) side by side in one sentence there, function
    words aside ("not a toll bridge" meets "is not a toll bridge"; "is not" meets nothing)."""
    words = [snowball(w) for w in TERM.findall(match.group(0).lower())]
    if not words:
        return False
    after = [w for w in map(snowball, TERM.findall(
        text[match.end():match.end() + 80].lower())) if w not in _SKIPPED][:1]
    before = [w for w in map(snowball, TERM.findall(
        text[max(0, match.start() - 80):match.start()].lower())) if w not in _SKIPPED][-1:]
    return (bool(after) and (words[-1], after[0]) in said
            or bool(before) and (before[0], words[0]) in said)


def _pairs_of(texts: Sequence[str | None]) -> set[tuple[str, str]]:
    """Each two words side by side in one sentence of ``texts``, stemmed, function words
    aside (but those that turn: "not", "no", "only")."""
    pairs: set[tuple[str, str]] = set()
    for part in texts:
        for sentence in re.split(r"[.;:!?\n]+", fold(part or "").lower()):
            words = [w for w in map(snowball, TERM.findall(sentence)) if w not in _SKIPPED]
            pairs.update(zip(words, words[1:], strict=False))
    return pairs


_SKIPPED = frozenset(snowball(w) for w in STOPWORDS) - frozenset(
    snowball(w) for w in (*NEGATIONS, "only", "but", "if"))


def _clause_at(text: str, at: int) -> str:
    """The clause of ``text`` around character ``at``, as a reason quotes it: between marks
    that end one (a full stop, a semicolon, a colon, a question or exclamation mark)."""
    start = max(text.rfind(mark, 0, at) for mark in ".;:!?") + 1
    ends = [e for e in (text.find(mark, at) for mark in ".;:!?") if e != -1]
    return text[start:min(ends, default=len(text))].strip()[:120]


_SURE_KEYS = re.compile(r"score|prob|confiden|certain|likel", re.IGNORECASE)
_UNSURE_WORDS = re.compile(r"\b(?:low|very low|unsure|uncertain|unlikely|doubt\w*|none)\b",
                           re.IGNORECASE)


def _unsure(value: dict) -> str | None:
    """Where a supported verdict's own object says it is unsure: a score, probability or
    confidence under one half (a log probability under log 1/2), or in words ("very low")."""
    for key, said in value.items():
        if not isinstance(key, str) or not _SURE_KEYS.search(key) or isinstance(said, bool):
            continue
        if isinstance(said, (int, float)) and math.isfinite(said) and (
                said < math.log(0.5) if "log" in key.lower() else 0 <= said < 0.5):
            return f"{key} is {said}"
        if isinstance(said, str) and _UNSURE_WORDS.search(said):
            return f"{key} is {said!r}"
    return None


# What a reply's reason that is no reason is shown as. A reason that is only another verdict
# word contradicts the verdict: the entry is not read, nor asked again (a supported verdict so
# given would pass a text on a reply that also says the opposite); one that is its own verdict
# word, or empty, says nothing: the verdict stands, and its reason says that none was given.
CONTRADICTS = "the judge's reply contradicts itself"
NO_REASON = "the judge gave no reason"


def final_object(reply: str, read, untrusted: Sequence[str | None] = ()):
    """``read(obj)`` for the JSON object that ends ``reply`` (code fences allowed), or None when
    there is none ``read`` accepts, or when that object is a verbatim copy of text in
    ``untrusted`` (planted there for a judge that ends its reply by quoting)."""
    found = _final_json(_readable_end(reply), read)
    if found is None or _planted(found[1], untrusted):
        return None
    return found[0]


# Keys no JSON text can hold as the same string: set on an object that gives a verdict key, or
# its kind, twice (JSON keeps the last), so that its reader refuses it.
_DOUBLED = "\x00a verdict key given twice"
_DOUBLED_KIND = "\x00a kind given twice"


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    value = dict(pairs)
    keys = [k for k, _ in pairs if k in ("verdict", "supported", "label")]
    if len(keys) != len(set(keys)):
        value[_DOUBLED] = True
    if sum(k == "kind" for k, _ in pairs) > 1:
        value[_DOUBLED_KIND] = True
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
