"""The kinds of prompt a prompt judge sends: one statement, a batch, a sentence's claims, a
rewrite. A kind is one typed class: its instruction (a text of ``prompts``), its input (the
arguments of its ``ask``), its typed output (a model of ``outputs``) and the room its reply is
given. From the output come the reply's JSON schema, the line of JSON its prompt ends with and
the reading of its reply, with the checks a reply is held to as the output's validators: change
the output, and the prompt, the schema and the reader change with it. ``Kind.ask`` makes the
``Ask`` the call pipeline (``calls.Caller``) sends; adding a kind is one new class.

The prompts carry no worked examples: the line of JSON shows the reply's form, and examples
cost every call their tokens.

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
from .outputs import ClaimList, Entries, Judgement, Output, Rewritten
from .prompts import (
    BATCH_BODY,
    CLAIMS_BODY,
    CORRECTION_BODY,
    JUDGE_BODY,
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


class Kind(Generic[T]):
    """What every kind has: a name; its instruction, the prompt's text before its reply's form
    (a format string from ``prompts``); its typed output (``outputs``), from which the reply's
    schema, the line of JSON its prompt shows and its reader come; how its prompt asks for a
    free reply and for one in the schema (``free_lead``, ``structured_lead``: the words before
    that line); the room a reply is given. The prompt is written with the form it is sent with,
    never cut and spliced."""

    name = ""
    instruction = ""
    output: type[Output] = Output
    free_lead = ""
    structured_lead = ""
    room = 1024

    def schema(self, count: int, kinds: bool = False) -> dict:
        """The reply's JSON schema: its output's, without a failure kind unless one is asked."""
        return self.output.strict_schema(() if kinds else ("kind",))

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
        lead = (self.structured_lead if structured else self.free_lead).format(count=count)
        shape = self.output.shape(() if kinds else ("kind",), brief=structured)
        return f"{lead}\n{shape}", self.form(count, kinds) if structured else None


class OneStatement(Kind[Verdict]):
    """One statement against its own passages: the judge's reasoning, then its verdict."""

    name = "verdict"
    instruction = JUDGE_BODY
    output = Judgement
    free_lead = ("Reason step by step, citing passage numbers, then end with one line of JSON "
                 "and nothing after it:")
    structured_lead = ("Reply with one JSON object and nothing else: first \"reason\", your "
                       "reasoning step by step citing passage numbers (one or two sentences), "
                       "then \"verdict\" and \"score\":")

    def template(self) -> str:
        """The default prompt as a template of the user's would be written (``--write-template``):
        the failure kind asked for where ``{kind}`` stands."""
        ending = self.ending(False, kinds=True)[0].replace("{", "{{").replace("}", "}}")
        return self.instruction + ending.replace(self.kind_field(), "{kind}")

    @staticmethod
    def kind_field() -> str:
        """What stands for ``{kind}`` in a template of the user's, with ``failure_kinds``."""
        kind = Judgement.shape(("reason", "verdict", "score"))
        return f" {kind[1:-1]},"

    def ask(self, item: Item, context: Context, structured: bool, template: str | None,
            kinds: bool = False) -> Ask[Verdict]:
        claim, evidence = item
        untrusted = [claim, *context.parts, *map(passage, evidence)]
        kinds = kinds and (template is None or "{kind}" in template)  # asked for one
        # a template of the user's has a reply form of its own
        ending, form = self.ending(structured and template is None, kinds=kinds)
        prompt = build_prompt(claim, evidence, context, template or self.instruction,
                              self.kind_field() if kinds else "", "" if template else ending)

        def read(reply: Reply) -> Verdict:
            return with_probability(parse_reply(reply.text, untrusted, kinds), reply.text,
                                    reply.tokens)

        return Ask(prompt, read, self.room, form, keep=lambda verdict: verdict.label != INVALID)


class Batch(Kind[list[Verdict | None]]):
    """Several statements in one prompt, each passage once: a verdict for each (None for one
    the reply gives no readable entry for). A reply cut at its room keeps the entries written in
    full before the cut; the rest are asked again alone, not the whole batch with more room."""

    name = "batch"
    instruction = BATCH_BODY
    output = Entries
    free_lead = ("End with one line of JSON and nothing after it, an entry for each of the "
                 "{count} statements:")
    structured_lead = ("Reply with one JSON object and nothing else, an entry for each of the "
                       "{count} statements, each \"reason\" (one sentence citing passage "
                       "numbers) before its \"verdict\":")

    def schema(self, count: int, kinds: bool = False) -> dict:
        """Its output's schema, with exactly ``count`` entries, numbered 1 to ``count``."""
        schema = super().schema(count, kinds)
        entries = schema["properties"]["verdicts"]
        entries["items"]["properties"]["id"]["enum"] = list(range(1, count + 1))
        entries.update(minItems=count, maxItems=count)
        return schema

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
        prompt = build_batch_prompt(items, context, ending, self.instruction)

        def read(reply: Reply) -> list[Verdict | None]:
            parse = parse_batch_reply if reply.cut_at is None else parse_cut_batch_reply
            return with_probabilities(parse(reply.text, count, untrusted, kinds), reply.text,
                                      reply.tokens)

        return Ask(prompt, read, self.room_for(count), form, grows=False,
                   keep=lambda verdicts: all(v is not None and v.label != INVALID
                                             for v in verdicts))


class Claims(Kind[tuple[str, ...]]):
    """A sentence broken into atomic claims."""

    name = "claims"
    instruction = CLAIMS_BODY
    output = ClaimList
    free_lead = ("If the sentence makes a single fact, give it as the only claim. Finish with "
                 "one line of JSON and nothing after it:")
    structured_lead = "Reply with one JSON object and nothing else:"

    def ask(self, sentence: str, answer: str, context: Context, structured: bool
            ) -> Ask[tuple[str, ...]]:
        def read(reply: Reply) -> tuple[str, ...] | None:
            claims = parse_claims(reply.text, [sentence, answer])
            return None if claims is None else tuple(claims)

        ending, form = self.ending(structured)
        prompt = build_claims_prompt(sentence, answer, context, ending, self.instruction)
        return Ask(prompt, read, self.room, form)


class Rewrite(Kind[str]):
    """A failing sentence rewritten from its evidence (``fix_mode="correct"``)."""

    name = "rewrite"
    instruction = CORRECTION_BODY
    output = Rewritten
    free_lead = ("If the passages give nothing that could stand in its place, give null. Finish "
                 "with one line of JSON and nothing after it:")
    structured_lead = "Reply with one JSON object and nothing else:"
    room = 512

    def ask(self, sentence: str, evidence: Sequence[Evidence], verdict: Verdict,
            context: Context, structured: bool) -> Ask[str]:
        untrusted = [sentence, *context.parts, verdict.reason, *map(passage, evidence)]
        ending, form = self.ending(structured)
        prompt = build_correction_prompt(sentence, evidence, verdict.label, verdict.reason,
                                         context, ending, self.instruction)
        return Ask(prompt, lambda reply: parse_rewrite(reply.text, untrusted), self.room, form)


ONE, BATCH, CLAIMS, REWRITE = OneStatement(), Batch(), Claims(), Rewrite()
