"""A conversation given with a text (``metadata["messages"]``): its turns checked, what the
user asserted in them, the results of the tools the assistant called, and the conversation as
a judge reads it (context, cut to a budget, oldest turns first).

The message format is the one chat APIs use: a list of ``{"role": ..., "content": ...}``.
What a user *asserts* grounds a restatement of it: each sentence of a user turn that is not a
question. A tool's result that answers a call the assistant made is evidence, as a retrieved
source is (``tool_results``): OpenAI's format (an assistant turn's ``tool_calls``, then
``{"role": "tool", "tool_call_id": ...}`` turns) and Anthropic's (``tool_use`` parts in an
assistant turn, ``tool_result`` parts in the next user turn) alike. The assistant's own turns,
the arguments it passed to a tool (what it asked for is not what happened), system and
developer turns, and a result that answers no call ground nothing; they are context at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Evidence, Said, Tool
from .assertions import CUT, RETRACTS, unasserted_each
from .grammar import CLAUSE_OPENERS, COORDINATORS, SUBORDINATORS
from .sentences import split_sentences
from .word_forms import WORD, fold

USER, ASSISTANT, SYSTEM = "user", "assistant", "system"
ROLES = (USER, ASSISTANT, SYSTEM, "developer", "tool")
# Characters of the conversation one prompt carries: the newest turns that fit, whole (the
# newest is cut at its start if it alone is longer). About 500 tokens.
CONVERSATION_CHARS = 2_000


@dataclass(frozen=True)
class Result:
    """A tool's result as a turn gives it: the call it answers, its text, whether the turn
    marks it as an error (Anthropic's ``is_error``), the turn's number."""

    call_id: str | None
    content: str
    error: bool
    turn: int


@dataclass(frozen=True)
class Turn:
    """One message of the conversation: its role, its text, its number (from 1); the tool
    calls it makes, as (id, name); the tool results it carries."""

    role: str
    content: str
    number: int
    calls: tuple[tuple[str, str], ...] = ()
    results: tuple[Result, ...] = ()


def check_messages(messages: object, where: str = "metadata['messages']") -> tuple[Turn, ...]:
    """``messages`` (found at ``where``) as turns, or ``ValueError`` naming the bad turn and
    the fix. A turn's content is a string, or a list of parts of which the text parts are read
    (an image is not: what it shows grounds nothing); None (an assistant turn that only called
    a tool) is empty."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, (list, tuple)):
        raise ValueError(f"{where} must be a list of messages, each {{'role': 'user', 'content': "
                         f"'...'}}; got {type(messages).__name__}.")
    turns = []
    for n, message in enumerate(messages):
        at = f"{where}[{n}]"
        if not isinstance(message, dict):
            raise ValueError(f"{at} must be a dict with 'role' and 'content'; got "
                             f"{type(message).__name__}.")
        role = message.get("role")
        if role not in ROLES:
            raise ValueError(f"{at}['role'] must be one of {', '.join(ROLES)}; got {role!r}.")
        content, calls, results = _content(message.get("content"), at, n + 1)
        calls += _openai_calls(message.get("tool_calls"), at)
        if role == "tool":  # OpenAI's result turn: its whole content is the result
            call_id = message.get("tool_call_id")
            if call_id is not None and not isinstance(call_id, str):
                raise ValueError(f"{at}['tool_call_id'] must be a string (the id of the "
                                 f"assistant's tool call it answers); got "
                                 f"{type(call_id).__name__}.")
            results = (Result(call_id, content, False, n + 1), *results)
        turns.append(Turn(role, content, n + 1, calls, results))
    return tuple(turns)


def _content(content: object, at: str, number: int
             ) -> tuple[str, tuple[tuple[str, str], ...], tuple[Result, ...]]:
    """A turn's text, and the tool calls and results its parts carry (Anthropic's format)."""
    if content is None or isinstance(content, str):
        return content or "", (), ()
    if not isinstance(content, (list, tuple)):
        raise ValueError(f"{at}['content'] must be a string or a list of parts; got "
                         f"{type(content).__name__}.")
    texts, calls, results = [], [], []
    for k, part in enumerate(content):
        here = f"{at}['content'][{k}]"
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            raise ValueError(f"{here} must be a part such as {{'type': 'text', 'text': '...'}}; "
                             f"got {type(part).__name__}.")
        kind = part["type"]
        if kind == "text":
            texts.append(_string(part, "text", here))
        elif kind == "tool_use":
            calls.append((_string(part, "id", here), _string(part, "name", here)))
        elif kind == "tool_result":
            error = part.get("is_error", False)
            if not isinstance(error, bool):
                raise ValueError(f"{here}['is_error'] must be true or false; got {error!r}.")
            text, _, _ = _content(part.get("content"), here, number)
            results.append(Result(_string(part, "tool_use_id", here), text, error, number))
    return "\n".join(texts), tuple(calls), tuple(results)


def _openai_calls(tool_calls: object, at: str) -> tuple[tuple[str, str], ...]:
    """An assistant turn's ``tool_calls`` as (id, name); their arguments are not read: what
    the assistant asked for is not what happened."""
    if tool_calls is None:
        return ()
    if not isinstance(tool_calls, (list, tuple)):
        raise ValueError(f"{at}['tool_calls'] must be a list of calls, each {{'id': ..., "
                         f"'function': {{'name': ..., 'arguments': ...}}}}; got "
                         f"{type(tool_calls).__name__}.")
    calls = []
    for k, call in enumerate(tool_calls):
        here = f"{at}['tool_calls'][{k}]"
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            raise ValueError(f"{here} must be {{'id': ..., 'type': 'function', 'function': "
                             f"{{'name': ..., 'arguments': ...}}}}.")
        calls.append((_string(call, "id", here), _string(function, "name", f"{here}['function']")))
    return tuple(calls)


def _string(part: dict, key: str, at: str) -> str:
    value = part.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{at}[{key!r}] must be a string; got {type(value).__name__}.")
    return value


def tool_results(turns: Sequence[Turn]) -> list[tuple[Tool, str]]:
    """The results that are evidence, each with where it came from and its text: a result
    that answers a call an earlier assistant turn made (its first result; a call answered twice
    is answered by the first), marked an error where its turn marks it (``is_error``). What
    its content says of the call is read where the content is read (``records.says_failed``,
    in ``retrieval.structured``)."""
    called: dict[str, str] = {}  # call id -> the tool's name
    answered: set[str] = set()
    found = []
    for turn in turns:
        for result in turn.results:
            name = called.get(result.call_id or "")
            if name is None or result.call_id in answered:
                continue
            answered.add(result.call_id or "")
            found.append((Tool(name, result.call_id or "", turn.number, result.error),
                          result.content))
        if turn.role == ASSISTANT:  # a call written in another turn was made by nobody
            for call_id, name in turn.calls:
                called.setdefault(call_id, name)
    return found


def last_user_turn(turns: Sequence[Turn], budget: int = CONVERSATION_CHARS) -> str | None:
    """What the user said last, the question a reply answers: cut as a prompt carries it (its
    last ``budget`` characters), so that a huge turn is not a huge query."""
    last = next((t for t in reversed(turns) if t.role == USER and t.content.strip()), None)
    return None if last is None else shown([last], budget)[0].content


def shown(turns: Sequence[Turn], budget: int = CONVERSATION_CHARS) -> list[Turn]:
    """The turns a prompt carries: the newest that fit in ``budget`` characters, in order; the
    newest alone cut to its last ``budget`` characters if it is longer."""
    return [turn if start == 0 else Turn(turn.role, "..." + turn.content[start:], turn.number)
            for turn, start in _newest(turns, budget)]


def _newest(turns: Sequence[Turn], budget: int) -> list[tuple[Turn, int]]:
    """The newest non-empty turns that fit in ``budget`` characters, oldest first, each with
    the offset its kept text starts at: 0, but for the newest alone when it is longer than the
    budget (its last ``budget`` characters)."""
    kept: list[tuple[Turn, int]] = []
    used = 0
    for turn in reversed([t for t in turns if t.content.strip()]):
        if used + len(turn.content) > budget:
            if not kept:
                kept.append((turn, len(turn.content) - budget))
            break
        kept.append((turn, 0))
        used += len(turn.content)
    return kept[::-1]


# Characters of the user's turns read for what they assert: the newest, whole turns first (the
# newest cut to its last ASSERTED_CHARS if it alone is longer). A bound on the work a hostile
# conversation can ask for, far above what a chat holds.
ASSERTED_CHARS = 20_000


def asserted(turns: Sequence[Turn]) -> list[Evidence]:
    """What the user asserted: each sentence of a user turn that states what it says
    (``assertions``: not a question, request, hedge, supposition, denial or report of someone
    else's words, not taken back or questioned by the next sentence, and not the first of a
    turn cut by the ``ASSERTED_CHARS`` bound, nor taken back by the next turn's opening), in the
    newest ``ASSERTED_CHARS`` of them, as
    evidence that points at its turn and offsets. The text a judge reads is the sentence as a
    reply would say it back ("my order" -> "your order")."""
    found: list[Evidence] = []
    for turn, skipped in _newest([t for t in turns if t.role == USER], ASSERTED_CHARS):
        sentences = split_sentences(turn.content[skipped:])
        kinds = unasserted_each([s.text for s in sentences])
        if skipped and kinds:
            kinds[0] = CUT
        if sentences and RETRACTS.search(fold(sentences[0].text)):
            # a turn that opens by taking back ("Sorry, I meant the 14th.", "Correction: ...")
            # takes back what the user's turn before it asserted
            before = max((e.said.turn for e in found if e.said is not None), default=None)
            found = [e for e in found if e.said is None or e.said.turn != before]
        for sentence, kind in zip(sentences, kinds, strict=True):
            if kind is not None or not any(c.isalnum() for c in sentence.text):
                continue
            said = Said(sentence.text, skipped + sentence.start, skipped + sentence.end,
                        turn.number, USER)
            found.append(Evidence(said_back(sentence.text), said=said))
    return found


# First person as the user says it -> second person as a reply says it back; and the second
# person, the user speaking of the assistant's side, -> its first person ("you owe me" ->
# "we owe you"): who did what to whom is kept.
_SHIFT = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
          "we": "you", "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves",
          "am": "are", "i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll",
          "we're": "you're", "we've": "you've", "we'd": "you'd", "we'll": "you'll",
          "was": "were",
          "your": "our", "yours": "ours", "yourself": "ourselves", "yourselves": "ourselves",
          "you're": "we're", "you've": "we've", "you'd": "we'd", "you'll": "we'll"}
_AFTER_I = frozenset(("am", "was"))  # verbs turned only where "I" is their subject
# After these (or at a clause's start) "you" is a subject ("we"); elsewhere an object ("us").
_BEFORE_A_SUBJECT = COORDINATORS | SUBORDINATORS | CLAUSE_OPENERS | {"that", "since", "as", "then"}


def said_back(text: str) -> str:
    """``text`` as a reply says it back: its first person turned to the second, and its
    second person (the user speaking of the assistant's side) to the first: "I am Ann and you
    owe me $20" -> "you are Ann and we owe you $20". "am" and "was" turn only after "I" ("I
    was charged" -> "you were charged"; "it was late", "9 am" stay)."""
    out, last, previous = [], 0, ""
    for match in WORD.finditer(text):
        word = match.group()
        key = fold(word.lower())
        new = _SHIFT.get(key)
        if key in _AFTER_I and previous != "i":
            new = None
        if key == "you":
            before = text[last:match.start()] if previous else ""
            subject = (not previous or previous in _BEFORE_A_SUBJECT
                       or any(mark in before for mark in ",;:.!?"))
            new = "we" if subject else "us"
            if previous == "you":  # "you" turned already: the user's "I" said back
                new = None
        if new is not None:
            if word[0].isupper() and (key != "i" or not text[:match.start()].strip()):
                new = new[0].upper() + new[1:]
            out.append(text[last:match.start()] + new)
            last = match.end()
        previous = key
    return "".join(out) + text[last:]
