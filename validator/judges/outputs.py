"""What a judge's reply must say, as typed outputs: one model for each kind of prompt
(``Judgement``, a batch's ``Entries``, ``ClaimList``, ``Rewritten``), from which the reply's JSON
schema and the line of JSON a prompt shows are derived (``strict_schema``, ``shape``), and by which the
object that ends a reply is read (``replies`` finds the object; its model reads it).

A model's declared fields are what a prompt asks for. Its validators are what a reply is held
to, and they fail closed: a reply is read leniently where the form is all that differs (a
verdict under "label", ``true``, "Yes"), and refused where it argues with itself (a supported
verdict whose reason says the claim is false, whose own score is low, whose kind names what is
wrong). A refusal (``Refused``) is a verdict of its own, INVALID with the reason why; any
other failure to validate means the object is not a reply of this kind.

Pydantic, which Guardrails is built on, does the typing, the validation and the schema: a
reply's form is declared once, and the schema a provider is sent is the one the reply is read
against.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import re
import typing
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

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
    SUPPORTED,
    UNSUPPORTED,
    FailureKind,
    Label,
    Verdict,
    kind_contradicts,
)

MAX_CLAIMS = 12  # claims read from one sentence; more is a runaway reply
MAX_CLAIM_CHARS = 1000
CANNOT = ""  # the rewrite of a corrector that says it cannot rewrite
REFUSED = "refused"  # the error type of a reply its model refuses


class Output(BaseModel):
    """A reply's typed form. Unknown keys are kept (a judge's "confidence" is read against
    its verdict) but never asked for: the schema allows none."""

    model_config = ConfigDict(extra="allow")

    @classmethod
    def read(cls, value: object, **context: Any) -> Output | Verdict | None:
        """``value`` (the object that ends a reply) as this output; the INVALID verdict its
        validators gave where they refused it; None where it is not this kind's reply."""
        try:
            return cls.model_validate(value, context=context)
        except ValidationError as error:
            for problem in error.errors():
                if problem["type"] == REFUSED:
                    return Verdict(INVALID, problem["msg"], decided_by=BY_FALLBACK,
                                   withheld=problem["ctx"]["withheld"])
            return None

    @classmethod
    def strict_schema(cls, leave_out: tuple[str, ...] = ()) -> dict:
        """The JSON schema a provider is asked to reply in (OpenAI's strict form: every key
        required, no other key), without the fields ``leave_out`` names: a copy of its own
        (it is derived once; deriving it costs a millisecond a call)."""
        return copy.deepcopy(_derived_schema(cls, leave_out))

    @classmethod
    def shape(cls, leave_out: tuple[str, ...] = (), brief: bool = False) -> str:
        """The line of JSON a prompt shows its reply's form with: each field's allowed values,
        or its description as a placeholder; ``brief``: a text field as "..." (its prompt's
        words before the line say what it is)."""
        return _derived_shape(cls, leave_out, brief)


def refuse(message: str, withheld: bool = False) -> PydanticCustomError:
    """A reply's validators' refusal: ``message`` becomes the INVALID verdict's reason;
    ``withheld``: it fails the sentence whatever ``pass_on_invalid`` says."""
    return PydanticCustomError(REFUSED, "{message}", {"message": message, "withheld": withheld})


Said = Literal["supported", "unsupported", "contradicted"]  # the verdicts a reply may give
VERDICT_KEYS = ("verdict", "supported", "label")  # where a reply may give its verdict


class Judged(Output):
    """A verdict's reply: the checks every verdict is held to (one statement's, or a batch
    entry's). Context: ``untrusted``, the texts the judge was shown (a reason may quote them);
    ``kinds``, whether a failure kind was asked for. Each kind of verdict declares the fields,
    in the order its reply gives them."""

    if typing.TYPE_CHECKING:
        reason: str
        verdict: Said
        kind: str | None
        score: float

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, value: Any, info) -> Any:
        """A verdict in any of the forms a judge writes one: under "verdict", "supported" or
        "label", as a word or a boolean; a reason that is not text as its JSON; a score that
        is not one from 0 to 1 as the label's own. Refused: a verdict given twice, or under
        two keys (which is its verdict, and whose tokens its probability?)."""
        if not isinstance(value, dict):
            return value
        keys = [key for key in VERDICT_KEYS if key in value]
        if len(keys) > 1:
            raise refuse(f"{CONTRADICTS} (it gives a verdict under {' and '.join(keys)})")
        if value.get(DOUBLED):
            raise refuse(f"{CONTRADICTS} (it gives its verdict twice)")
        raw = value[keys[0]] if keys else None
        label = (SUPPORTED if raw else UNSUPPORTED) if isinstance(raw, bool) else (
            verdict_word(raw) if isinstance(raw, str) else None)
        if label is None:
            return value  # no verdict: not a verdict's reply
        if label == SUPPORTED and (unsure := _unsure(value)) is not None:
            raise refuse(f"{CONTRADICTS} (its verdict is supported, its {unsure})")
        kinds = bool((info.context or {}).get("kinds", True))
        if kinds and value.get(DOUBLED_KIND):
            raise refuse(f"{CONTRADICTS} (it gives its kind twice)")
        score = value.get("score")
        if not isinstance(score, (int, float)) or isinstance(score, bool) or not 0 <= score <= 1:
            score = 1.0 if label == SUPPORTED else 0.0  # none, or not one we can trust
        kind = value.get("kind") if kinds else None
        return {**value, "verdict": label, "reason": as_text(value.get("reason", "")),
                "score": score, "kind": kind if isinstance(kind, str) or kind is None
                else json.dumps(kind)[:200]}

    @model_validator(mode="after")
    def _consistent(self, info) -> Judged:
        """Refused: a reason that is only another verdict word; a supported verdict whose
        reason argues against it (``argues``); a kind its verdict cannot have."""
        label, reason = self.verdict, self.reason.strip()
        said = verdict_word(reason) if len(reason) <= BARE_MAX else None
        if said is not None and said != label:  # "unsupported", because: "supported"
            raise refuse(f"{CONTRADICTS} (its verdict is {label}, its reason only {reason!r})")
        if said == label or not reason:  # "supported", because: "supported"
            self.reason = NO_REASON + (f" (only {reason!r})" if reason else "")
        elif label == SUPPORTED and (against := argues(
                reason, (info.context or {}).get("untrusted", ()))) is not None:
            raise refuse(f"{CONTRADICTS} (its verdict is supported, its reason says "
                         f"{against!r})")
        kind = self.failure_kind
        if kind is not None and kind_contradicts(label, kind):
            said_of = ("says what it gets wrong" if label == SUPPORTED
                       else "is of what the passages leave unsaid, not of what they say otherwise")
            # a reply that fails the sentence either way fails it whatever pass_on_invalid says
            raise refuse(f"{CONTRADICTS} (its verdict is {label}, its kind {str(kind)!r} "
                         f"{said_of})", withheld=label != SUPPORTED)
        return self

    @property
    def failure_kind(self) -> FailureKind | str | None:
        """What the reply says a failing statement gets wrong, on the taxonomy; for a
        supported verdict, only a kind that says something against it."""
        kind = _kind(self.kind, self.verdict)
        if self.verdict == SUPPORTED and (kind == FailureKind.UNSPECIFIED or isinstance(
                self.kind, str) and _DENIED.match(fold(self.kind.strip().lower()))):
            return None  # a word that names no kind ("ok"), or denies one ("no error")
        return kind

    def as_verdict(self) -> Verdict:
        kind = self.failure_kind
        return Verdict(Label(self.verdict), self.reason, float(self.score), BY_LLM,
                       kind=None if self.verdict == SUPPORTED else kind)


_KIND_ASKED = "what is wrong: number, date, name..."


class Judgement(Judged):
    """One statement's verdict, its reasoning first."""

    reason: str = Field(description="one or two sentences")
    verdict: Said
    kind: str | None = Field(None, description=_KIND_ASKED)
    score: float = Field(description="0 to 1: how fully the passages back it")


class Entry(Judged):
    """A batched statement's verdict, by its number in the prompt."""

    id: int = Field(json_schema_extra={"example": 1})
    reason: str = Field(description="one sentence citing passage numbers")
    verdict: Said
    kind: str | None = Field(None, description=_KIND_ASKED)
    score: float = Field(description="0 to 1: how fully its passages back it")

    @model_validator(mode="before")
    @classmethod
    def _numbered(cls, value: Any) -> Any:
        """An entry's number is a whole number (not ``true``, not "2")."""
        number = value.get("id") if isinstance(value, dict) else None
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError("an entry needs its statement's number")
        return value


class Entries(Output):
    """A batch's verdicts, an entry each (each entry read on its own: ``Entry``)."""

    verdicts: list[Entry]


class ClaimList(Output):
    """A sentence's atomic claims. Items that are not text, or are blank, are left out; a list
    that is empty, too long, or holds a runaway claim is no list."""

    claims: list[str] = Field(min_length=1, max_length=MAX_CLAIMS,
                              json_schema_extra={"example": ["<claim>"]})

    @model_validator(mode="before")
    @classmethod
    def _cleaned(cls, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("claims"), list):
            claims = [c.strip() for c in value["claims"] if isinstance(c, str) and c.strip()]
            if any(len(c) > MAX_CLAIM_CHARS for c in claims):
                raise ValueError("a claim longer than a sentence is a runaway reply")
            return {**value, "claims": claims}
        return value


class Rewritten(Output):
    """A failing sentence rewritten from its evidence, or null where the passages give
    nothing to put in its place (read as ``CANNOT``)."""

    rewrite: str | None = Field(description="the sentence, rewritten")

    @property
    def text(self) -> str:
        return CANNOT if self.rewrite is None else self.rewrite.strip()


def as_text(reason: object) -> str:
    """A reply's reason as text: a reason that is not text as its JSON (at most 2,000
    characters), one nested deeper than the stack as a note that it could not be read."""
    if isinstance(reason, str):
        return reason
    try:
        return json.dumps(reason)[:2000]
    except (ValueError, TypeError, RecursionError):  # nested deeper than the stack
        return "(the judge's reason could not be read)"


@functools.cache
def _derived_schema(model: type[BaseModel], leave_out: tuple[str, ...]) -> dict:
    return _strict(model.model_json_schema(), leave_out)


@functools.cache
def _derived_shape(model: type[BaseModel], leave_out: tuple[str, ...], brief: bool) -> str:
    return _shape(model, leave_out, brief)


def _strict(schema: dict, leave_out: Sequence[str]) -> dict:
    """Pydantic's schema of a model in the strict form: nested models inlined, every key
    required and no other allowed, a choice of plain types as a list of types, no titles,
    descriptions or defaults (the prompt says what each field is)."""
    definitions = schema.get("$defs", {})

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return clean(definitions[node["$ref"].rsplit("/", 1)[-1]])
        out = {key: {name: clean(field) for name, field in value.items()} if key == "properties"
               else clean(value) for key, value in node.items()
               if key not in ("title", "description", "default", "$defs", "example")}
        if all(list(option) == ["type"] for option in out.get("anyOf", [{}])):
            out = {"type": [option["type"] for option in out.pop("anyOf")], **out}  # a or null
        if out.get("type") == "object" and "properties" in out:
            out["properties"] = {name: field for name, field in out["properties"].items()
                                 if name not in leave_out}
            out["required"] = list(out["properties"])
            out["additionalProperties"] = False
        return out

    return clean(schema)


def _shape(model: type[BaseModel], leave_out: Sequence[str] = (), brief: bool = False) -> str:
    """``model``'s reply as a line of JSON: ``{"reason": "<one or two sentences>", "verdict":
    "supported" | "unsupported" | "contradicted", ...}``."""
    hints = typing.get_type_hints(model)
    fields = [f'"{name}": {_value(hints[name], info, leave_out, brief)}'
              for name, info in model.model_fields.items() if name not in leave_out]
    return "{" + ", ".join(fields) + "}"


def _value(hint: Any, info: Any, leave_out: Sequence[str], brief: bool) -> str:
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    if "example" in extra:
        example = extra["example"]
        return f'["{example[0]}", ...]' if isinstance(example, list) else json.dumps(example)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return " | ".join(json.dumps(arg) for arg in args)
    if origin is list and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return f"[{_shape(args[0], leave_out, brief)}, ...]"
    if hint is bool:
        return "true | false"
    described = f"<{info.description}>" if info.description else "..."
    if hint is str:
        return '"..."' if brief else f'"{described}"'
    if str in args and type(None) in args:  # text, or null
        return f'null | "{described}"'
    return described  # a number, or a number or null: the description says which


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

BARE_MAX = 40  # a bare reply longer than this is prose, not a verdict


def verdict_word(text: str) -> str | None:
    """The label a verdict word gives: the word alone ("Supported", "not supported", "yes."),
    never one with anything added ("supported?", "SUPPORTED!!", "supported (probably not)")."""
    word = _VERDICT_WORD.fullmatch(text.strip().lower())
    return None if word is None else _WORDS.get(re.sub(r"[\s_-]", "", word.group(1)))


_VERDICT_WORD = re.compile(r"([a-z]+(?:[\s_-][a-z]+)?)\.?")


def verdict_of(label: str, reason: str) -> Verdict:
    """A verdict read from a tag or a bare word: its score is its label's."""
    return Verdict(label, reason, 1.0 if label == SUPPORTED else 0.0, BY_LLM)


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

# Keys no JSON text can hold as the same string: set on an object that gives a verdict key, or
# its kind, twice (JSON keeps the last), so that its reader refuses it.
DOUBLED = "\x00a verdict key given twice"
DOUBLED_KIND = "\x00a kind given twice"
