"""Verdicts, and reading them out of a judge's reply.

A reply is accepted in three forms: JSON (``{"verdict": "supported", "reason": ...}``), the
hub validator's tags (``<supported>[YES]</supported>``), or a bare word (``yes``, ``no``,
``supported``, ``unsupported``, ``contradicted``). Only the judge's *final* verdict counts:
a JSON object or tag that ends the reply. A verdict-like string anywhere else (a judge quoting
the validated sentence, which may carry a fake verdict) is never read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

SUPPORTED = "supported"
UNSUPPORTED = "unsupported"
CONTRADICTED = "contradicted"
INVALID = "invalid"  # the judge gave no verdict we can read, or failed

# How a verdict was reached.
BY_LLM = "llm"
BY_CACHE = "cache"
BY_LOCAL = "local"
BY_FALLBACK = "fallback"

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
_TAG = re.compile(r"<(supported|verdict)>(.*?)</\1>", re.IGNORECASE | re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_BARE_MAX = 40  # a bare reply longer than this is prose, not a verdict


@dataclass(frozen=True)
class Verdict:
    label: str
    reason: str = ""
    score: float | None = None  # confidence that the sentence is supported, 0 to 1
    how: str = BY_LLM

    @property
    def passed(self) -> bool:
        return self.label == SUPPORTED


def parse_reply(reply: object) -> tuple[str, str]:
    """Return ``(label, reason)`` from a judge's reply; label is INVALID when unreadable."""
    if not isinstance(reply, str) or not reply.strip():
        return INVALID, "the judge returned an empty reply"
    text = _FENCE.sub("", reply.strip())
    found = _last_json_verdict(text)
    if found is not None:
        return found
    tags = list(_TAG.finditer(text))
    if tags and not text[tags[-1].end():].strip():
        label = _word(tags[-1].group(2))
        if label is not None:
            return label, _analysis(text[: tags[-1].start()])
    if len(text) <= _BARE_MAX:
        label = _word(text)
        if label is not None:
            return label, ""
    return INVALID, "the judge's reply has no readable verdict"


def _word(text: str) -> str | None:
    return _WORDS.get("".join(ch for ch in text.lower() if ch.isalpha()))


def _last_json_verdict(text: str) -> tuple[str, str] | None:
    decoder = json.JSONDecoder()
    position = text.rfind("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            value, end = None, position
        if isinstance(value, dict) and not text[end:].strip():
            raw = next((value[k] for k in ("verdict", "supported", "label") if k in value), None)
            if isinstance(raw, bool):
                label = SUPPORTED if raw else UNSUPPORTED
            else:
                label = _word(raw) if isinstance(raw, str) else None
            if label is not None:
                reason = value.get("reason", "")
                return label, reason if isinstance(reason, str) else json.dumps(reason)
        position = text.rfind("{", 0, position)
    return None


def _analysis(text: str) -> str:
    found = re.findall(r"<analysis>(.*?)</analysis>", text, re.IGNORECASE | re.DOTALL)
    return found[-1].strip() if found else text.strip()
