"""Bespoke-MiniCheck (or any model trained on its format) as a judge, through LiteLLM: served
by Ollama as ``bespoke-minicheck``, selected with ``llm_callable="minicheck:ollama/bespoke-minicheck"``.

The model reads exactly ``Document: {document}\\nClaim: {claim}`` and answers ``Yes`` or ``No``;
it was trained on nothing else, so our judge prompt, batching and claim extraction do not
apply. Yes is *supported*; No is *unsupported*: the model cannot tell a contradiction from a
claim the document does not mention. A reply that is neither is INVALID (``pass_on_invalid``
decides, with a warning). Retries, timeouts, the deadline and the reply caches are the LiteLLM
judge's own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from ..errors import ConfigurationError
from ..types import BY_FALLBACK, INVALID, SUPPORTED, UNSUPPORTED, Context, Evidence, Verdict
from .base import Item
from .calls import NOTHING_READABLE, Answer
from .kinds import Ask, Kind, Reply
from .litellm_judge import LiteLLMJudge

_ANSWERS = {"yes": SUPPORTED, "no": UNSUPPORTED}


def read_answer(reply: str) -> str | None:
    """SUPPORTED for a reply that is ``Yes``, UNSUPPORTED for ``No`` (case, spaces and a final
    full stop aside), None for anything else: a model that says more was not answering."""
    word = reply.strip().rstrip(".").strip().lower()
    return _ANSWERS.get(word)


def minicheck_prompt(claim: str, evidence: Sequence[Evidence]) -> str:
    return f"Document: {chr(10).join(e.text for e in evidence)}\nClaim: {claim}"


class MiniCheckKind(Kind):
    """MiniCheck's one prompt: the document and the claim, and a Yes or No."""

    name = "minicheck"
    room = 16  # tokens for "Yes" or "No"

    def ask(self, claim: str, evidence: Sequence[Evidence]) -> Ask[str]:
        return Ask(minicheck_prompt(claim, evidence), lambda reply: read_answer(reply.text),
                   self.room)


MINICHECK = MiniCheckKind()


class MiniCheckJudge(LiteLLMJudge):
    """``model`` is any LiteLLM model name serving Bespoke-MiniCheck (``ollama/bespoke-minicheck``,
    with ``llm_kwargs={"api_base": "http://localhost:11434"}`` when Ollama is not on its default
    address)."""

    def __init__(self, model: str, llm_kwargs=None, template: str | None = None, **options):
        if template is not None:
            raise ConfigurationError("MiniCheck reads only its own 'Document: ...\\nClaim: ...' "
                                     "prompt; a judge template does not apply to it.")
        if not isinstance(model, str) or not model.strip():
            raise ConfigurationError("minicheck: needs a LiteLLM model name after the colon, e.g. "
                                     "'minicheck:ollama/bespoke-minicheck'.")
        super().__init__(model, llm_kwargs, **options)
        self.logprobs = False  # it answers Yes or No: no verdict word to read them for

    takes_forms = False  # its prompt is its own: no reply schema, no control statement
    gives_probabilities = False
    group_size = 1  # one claim per call: the model was trained on nothing else
    extracts_claims = False  # it cannot split a sentence: each is judged whole
    corrects = False

    async def complete(self, prompt: str, room: int, form: dict | None = None) -> Reply:
        if self.model.startswith("ollama/"):
            # LiteLLM wraps a chat message in "### User:" for this provider; a text completion
            # reaches Ollama as the prompt itself, which Ollama puts in the model's template.
            response = await self._call("atext_completion", room, prompt=prompt)
            return self.reply_of(response, response.choices[0].text)
        return await super().complete(prompt, room, form)

    async def verdicts(self, items: Sequence[Item], context: Context) -> list[Verdict]:
        """Each claim in a call of its own, all at once."""
        return list(await asyncio.gather(*(self._asked(claim, evidence) for claim, evidence
                                           in items)))

    async def _asked(self, claim: str, evidence: Sequence[Evidence]) -> Verdict:
        return _verdict(await self.ask(MINICHECK.ask(claim, evidence)))


def _verdict(answer: Answer[str]) -> Verdict:
    if answer.value is None:
        problem = answer.problem
        if problem == NOTHING_READABLE:
            problem = "MiniCheck's reply is neither Yes nor No"
        return Verdict(INVALID, problem, None, BY_FALLBACK)
    supported = answer.value == SUPPORTED
    reason = ("MiniCheck: Yes, the document supports it" if supported else
              "MiniCheck: No, the document does not support it (MiniCheck cannot tell a "
              "contradiction from a claim the document does not mention)")
    return Verdict(answer.value, reason, 1.0 if supported else 0.0, answer.decided_by)
