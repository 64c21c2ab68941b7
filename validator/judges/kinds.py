"""The kinds of prompt a prompt judge sends: one statement, a batch, a sentence's claims, a
rewrite. A kind is one object holding what belongs together: its prompt (from ``prompts``),
the room its reply is given, the reply's JSON schema and the ending that asks for it, and the
reader of its reply (from ``replies``). ``Kind.ask`` makes the ``Ask`` the call pipeline
(``calls.Caller``) sends; adding a kind is one new class here.

Where a model takes a response schema (``structured_replies``) a reply is one JSON object and
nothing else: the prompt's last lines say so, and the reasoning a free reply writes before its
verdict goes first in the object, in "reason", so the model still reasons before it decides.
The schemas fix the keys, their order, the verdict's three values and a batch's ids. A schema
is a request, never a guarantee: the reply is read by the same reader as a free one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..types import INVALID, Context, Evidence, Verdict
from .base import Item
from .prompts import (
    BATCH_FREE,
    CLAIMS_FREE,
    CORRECTION_FREE,
    JUDGE_FREE,
    MAX_CLAIMS,
    build_batch_prompt,
    build_claims_prompt,
    build_correction_prompt,
    build_prompt,
    passage,
)
from .replies import (
    Tokens,
    parse_batch_reply,
    parse_claims,
    parse_cut_batch_reply,
    parse_reply,
    parse_rewrite,
    with_probabilities,
    with_probability,
)
from .usage import Reported

T = TypeVar("T")


@dataclass(frozen=True)
class Reply:
    """A model's reply: its text; ``cut_at``, the tokens it had when the provider ended it at
    its length limit (None: it ended on its own, or the transport cannot tell); ``tokens``, its
    tokens with their log probabilities, where the provider returned them (None: it did not);
    ``reported``, what the response said the call consumed, which the call layer counts."""

    text: str
    cut_at: int | None = None
    tokens: Tokens | None = None
    reported: Reported | None = None  # what the response said it consumed (None: nothing)


def _always(value: object) -> bool:
    return True


@dataclass(frozen=True)
class Ask(Generic[T]):
    """One call as the pipeline sends it: the prompt, the reply's schema (None: a free reply),
    the room the reply is given (its max_tokens, where the judge sets one), the reader, and
    whether what was read is kept (cached, and not asked again). ``grows``: a reply cut at its
    room, with nothing kept read from it, is asked once more with more room."""

    prompt: str
    read: Callable[[Reply], T | None]
    room: int
    form: dict | None = None
    keep: Callable[[T], bool] = _always
    grows: bool = True


_LABEL = {"type": "string", "enum": ["supported", "unsupported", "contradicted"]}
_KIND = {"type": ["string", "null"]}  # a word the reader maps onto the taxonomy
_TEXT = {"type": "string"}
_SCORE = {"type": "number"}


def _entry(properties: dict) -> dict:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


class Kind:
    """What every kind has: a name, its reply's two forms (``free_ending``, the free reply's
    instructions; ``structured_ending``, the one JSON object a schema asks for), the room of a
    reply. Each is a format string of the prompt's, appended to the kind's body by its
    builder: the prompt is written with the form it is sent with, never cut and spliced."""

    name = ""
    free_ending = ""
    structured_ending = ""
    room = 1024

    def schema(self, count: int, kinds: bool = False) -> dict:
        raise NotImplementedError

    def form(self, count: int = 1, kinds: bool = False) -> dict:
        """The reply's JSON schema, as OpenAI's ``response_format`` (which LiteLLM passes on to
        each provider in its own)."""
        return {"type": "json_schema", "json_schema": {
            "name": f"provenance_{self.name}", "schema": self.schema(count, kinds),
            "strict": True}}

    def ending(self, structured: bool, count: int = 1, kinds: bool = False
               ) -> tuple[str, dict | None]:
        """The reply's instructions a prompt ends with, and the schema it is sent with (None:
        a free reply)."""
        if not structured:
            return self.free_ending, None
        return self.structured_ending, self.form(count, kinds)


class OneStatement(Kind):
    """One statement against its own passages: the judge's reasoning, then its verdict."""

    name = "verdict"
    free_ending = JUDGE_FREE
    structured_ending = """Reply with one JSON object and nothing else: first "reason", your \
reasoning step by step citing passage numbers (one or two sentences), then "verdict" and "score":
{{"reason": "...", "verdict": "supported" | "unsupported" | "contradicted",{kind} "score": \
<0 to 1: how fully the passages back it>}}"""

    def schema(self, count: int, kinds: bool = False) -> dict:
        return _entry({"reason": _TEXT, "verdict": _LABEL, **({"kind": _KIND} if kinds else {}),
                       "score": _SCORE})

    def ask(self, item: Item, context: Context, structured: bool, template: str | None,
            kinds: bool = False) -> Ask[Verdict]:
        claim, evidence = item
        untrusted = [claim, *context.parts, *map(passage, evidence)]
        kinds = kinds and (template is None or "{kind}" in template)  # asked for one
        # a template of the user's has a reply form of its own
        ending, form = self.ending(structured and template is None, kinds=kinds)
        prompt = build_prompt(claim, evidence, context, template, kinds, ending)

        def read(reply: Reply) -> Verdict:
            return with_probability(parse_reply(reply.text, untrusted, kinds), reply.text,
                                    reply.tokens)

        return Ask(prompt, read, self.room, form, keep=lambda verdict: verdict.label != INVALID)


class Batch(Kind):
    """Several statements in one prompt, each passage once: a verdict for each (None for one
    the reply gives no readable entry for). A reply cut at its room keeps the entries written in
    full before the cut; the rest are asked again alone, not the whole batch with more room."""

    name = "batch"
    free_ending = BATCH_FREE
    structured_ending = """Reply with one JSON object and nothing else, an entry for each of \
the {count} statements, each "reason" (one sentence citing passage numbers) before its "verdict":
{{"verdicts": [{{"id": 1, "reason": "...", "verdict": "supported" | "unsupported" | \
"contradicted",{kind} "score": <0 to 1: how fully its passages back it>}}, ...]}}"""

    def schema(self, count: int, kinds: bool = False) -> dict:
        item = _entry({"id": {"type": "integer", "enum": list(range(1, count + 1))},
                       "reason": _TEXT, "verdict": _LABEL,
                       **({"kind": _KIND} if kinds else {}), "score": _SCORE})
        return _entry({"verdicts": {"type": "array", "items": item, "minItems": count,
                                    "maxItems": count}})

    @staticmethod
    def room_for(statements: int) -> int:
        """A verdict and a one-sentence reason each: about 60 tokens, measured."""
        return 512 + 160 * statements

    def ask(self, items: Sequence[Item], context: Context, structured: bool,
            kinds: bool = False) -> Ask[list[Verdict | None]]:
        count = len(items)
        untrusted = [*context.parts, *(part for claim, evidence in items
                                       for part in (claim, *map(passage, evidence)))]
        ending, form = self.ending(structured, count, kinds)
        prompt = build_batch_prompt(items, context, kinds, ending)

        def read(reply: Reply) -> list[Verdict | None]:
            parse = parse_batch_reply if reply.cut_at is None else parse_cut_batch_reply
            return with_probabilities(parse(reply.text, count, untrusted, kinds), reply.text,
                                      reply.tokens)

        return Ask(prompt, read, self.room_for(count), form, grows=False,
                   keep=lambda verdicts: all(v is not None and v.label != INVALID
                                             for v in verdicts))


class Claims(Kind):
    """A sentence broken into atomic claims."""

    name = "claims"
    free_ending = CLAIMS_FREE
    structured_ending = """Reply with one JSON object and nothing else:
{{"claims": ["<claim>", ...]}}"""

    def schema(self, count: int, kinds: bool = False) -> dict:
        return _entry({"claims": {"type": "array", "items": _TEXT, "minItems": 1,
                                  "maxItems": MAX_CLAIMS}})

    def ask(self, sentence: str, answer: str, context: Context, structured: bool
            ) -> Ask[tuple[str, ...]]:
        def read(reply: Reply) -> tuple[str, ...] | None:
            claims = parse_claims(reply.text, [sentence, answer])
            return None if claims is None else tuple(claims)

        ending, form = self.ending(structured)
        prompt = build_claims_prompt(sentence, answer, context, ending)
        return Ask(prompt, read, self.room, form)


class Rewrite(Kind):
    """A failing sentence rewritten from its evidence (``fix_mode="correct"``)."""

    name = "rewrite"
    free_ending = CORRECTION_FREE
    structured_ending = """Reply with one JSON object and nothing else:
{{"rewrite": "<the sentence, rewritten>"}} or {{"rewrite": null}}"""
    room = 512

    def schema(self, count: int, kinds: bool = False) -> dict:
        return _entry({"rewrite": {"anyOf": [_TEXT, {"type": "null"}]}})

    def ask(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
            context: Context, structured: bool) -> Ask[str]:
        untrusted = [sentence, *context.parts, verdict.reason, *map(passage, evidence)]
        ending, form = self.ending(structured)
        prompt = build_correction_prompt(sentence, evidence, verdict.label, verdict.reason,
                                         context, ending)
        return Ask(prompt, lambda reply: parse_rewrite(reply.text, untrusted), self.room, form)


ONE, BATCH, CLAIMS, REWRITE = OneStatement(), Batch(), Claims(), Rewrite()
