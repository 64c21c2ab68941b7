"""The rule checker's vocabulary: a text is read into *tokens* (``Token``), grouped into
*clauses* (``Clause``); the word classes that decide how a token is read, and what a clause is
(a statement with a verb, or a mention of a name or number). Imports nothing of the rules but
their word tables."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.cues import (
    ASSERTING_HEADS,
    ATTEMPT,
    CONDITION,
    DENIAL,
    FRAMING_HEADS,
    HEDGE,
    OTHER_THING,
    PHRASE,
    REPORT,
    REQUEST,
    words_of,
)
from ..text.grammar import (
    ARTICLES,
    AUXILIARIES,
    CLAUSE_OPENERS,
    FUNCTION_WORDS,
    PARTICLES,
    PREPOSITIONS,
    SPEAKERS,
    TIME_NOUNS,
)
from ..text.word_forms import IRREGULAR, SAME_PARTICIPLES
from .quantities import Amount

# Words and phrases that make a statement hold only on a condition ("The pump stops when the
# lid is open", "Tenants may keep pets as long as they pay a deposit"): the cue table's rows.
CONDITIONS = words_of(CONDITION)
CONDITION_PHRASES = tuple(sorted((tuple(p.split()) for p in words_of(CONDITION, where=PHRASE)),
                                 key=lambda p: (-len(p), p)))  # "in case of" before "in case"
# Words whose presence changes what a statement claims: the evidence's must be in the claim
# too (the evidence says "may cause", the claim "causes": not the same statement).
QUALIFIERS = CONDITIONS | frozenset(
    """may might could can should must would will shall cannot some most many few several
    all every each always sometimes often usually rarely seldom occasionally only
    nearly almost over under reportedly allegedly possibly probably likely perhaps
    respectively hardly scarcely barely hopefully
    """.split())  # "respectively": two lists paired in order, which the rules do not pair
# Words that put a statement forward without asserting it: a report, a denial, a belief, hope
# or fear, a request, what was only meant or tried (the cue table's rows, by their standing).
# Read as qualifiers (by their stem): a claim must keep them.
UNASSERTING = words_of(REPORT, DENIAL, HEDGE, REQUEST, ATTEMPT)
REPORTED = "that:"  # the form prefix of a verb that reports the clause after it ("alleged that")
ATTRIBUTED = "said:"  # the form prefix of a verb that attributes the statement before it
# ("Sales rose 8%, the company reported.")


def reports(word: str, following: str, before: str = "") -> bool:
    """Whether ``word`` before ``following`` is a past verb that reports the clause after
    "that" without asserting it ("alleged that", "reported that", "wrote that"), not one that
    states it ("found that", "confirmed that": the cue table's asserting heads, which the
    sentence reader reads the same way), or a noun that puts it forward after a past verb, a
    particle or a preposition ``before`` it ("rejected reports that", "played down claims
    that": the cue table's framing heads; not "the report that the committee published", a
    relative clause)."""
    word, before = word.lower(), before.lower()
    if following.lower() != "that" or word in FUNCTION_WORDS:
        return False
    if ending_of(word) == "ed" or word in IRREGULAR:
        return not ASSERTING_HEADS.fullmatch(word)
    return bool(FRAMING_HEADS.fullmatch(word)) and (
        ending_of(before) == "ed" or before in IRREGULAR or before in PARTICLES
        or before in PREPOSITIONS) and not ASSERTING_HEADS.fullmatch(before)  # "laughed off
    # reports that", "scoffed at claims that": a noun after a particle or preposition


# Words that tie a noun phrase to the one before it ("the son of the king", "a film about
# Jones", "the film directed by Jones", "the city near Paris").
LINKS = frozenset("""of about near by for with without from against like unlike behind beside
    in at on under into inside outside around across past through along beyond toward towards
    opposite""".split())
# Prepositions that open a phrase of place, time or group ("in patients", "across Europe",
# "on Android devices"): a word a claim adds there changes the statement's circumstance.
SETTINGS = frozenset("in on at across during throughout among within".split())
# Words before a noun that make it another thing ("the former CEO", "a fake diamond"): the cue
# table's row.
TITLE_CHANGERS = words_of(OTHER_THING)
# The token a list of alternatives ends with (its form and its kind): "Anna or Ben will win"
# does not state "Anna will win", nor "Anna and Ben will win"; it states itself.
ALTERNATIVES = "or:"
# The token a question's clauses end with (its form and its kind): a question asserts nothing,
# so a statement is not stated by one; a question may still ask what the evidence states.
QUESTION = "?"
# Tokens that end a clause: a qualifier or negation beyond them belongs to another statement.
BOUNDARIES = frozenset(";:") | CLAUSE_OPENERS
PASSIVE = "/passive"  # the mark of a participle in the passive voice
# Prepositions that carry meaning (content words) and end a noun phrase ("company between").
CONTENT_PREPOSITIONS = frozenset("between until till dure sinc ~before ~after through across within "
                          "against among toward towards".split())
PRONOUNS = frozenset("it they he she this".split())
# A name in quotation marks: a title ("the novel 'The Keeper Drowned'", the film "Harbour Bank
# Collapsed") or a term, with no mark of a sentence or a clause inside it (not quoted speech:
# '"We will reopen," she said'). Read as one name: its words state nothing.
QUOTED_NAME = re.compile(r"[\"“]([^\"“”.!?;:,\n]{1,120})[\"”]"
                         r"|(?<![^\W_])['‘](?=[^\W_])([^'‘’.!?;:,\n]{0,120}[^\W_])['’](?![^\W_])")


@dataclass(frozen=True)
class Token:
    form: str  # what is compared: a stem, a name, "#330", "~open"
    text: str  # as written
    kind: str  # "word", "name", "number", "function", "qualifier", "negation", "mark", "?", "or:"
    pole: int = 0  # 1: the second pole of an opposite ("closed" for "~open")
    aside: int = 0  # > 0 inside a parenthetical (brackets, commas, a relative clause)
    listed: int = 0  # > 0 inside a list "A, B and C": its number
    amount: Amount | None = None  # a number's value, unit, precision and hedge or bound
    detail: bool = False  # a title before a name ("the engineer Gustave Eiffel"): may be left out
    scope: bool = False  # in a fronted phrase that restricts the clause ("Among men, ..."): kept
    referent: str = ""  # the pronoun it was read for ("It"): a subject from the sentence before
    tensed: str = ""  # a participle turned from the passive: the tense of its "be" ("s", "ed")
    opened: bool = False  # after an article: it opens a noun phrase ("the bowls club's")

    @property
    def content(self) -> bool:
        return self.kind in ("word", "name", "number", "qualifier")
Clause = tuple[Token, ...]


def suffix(token: Token) -> str:
    return "" if token.kind != "word" else ending_of(token.text.lower())


def ending_of(word: str) -> str:
    """The inflection ``word`` (lower case) ends with: "ed", "ing" or "s", or ""."""
    for ending in ("ed", "ing", "es", "s"):
        if word.endswith(ending) and not word.endswith("ss") and len(word) > len(ending) + 2 \
                and not (ending == "ed" and word.endswith("eed") and len(word) <= 5):
            return "s" if ending == "es" else ending  # not "speed", "breed" (but "agreed")
    # "died", "sued", "used", "owed", "axed", "dyed": four letters, of a verb of three
    return "ed" if len(word) == 4 and word.endswith(("ied", "ued", "sed", "wed", "xed", "yed")) \
        else ""


def place(token: Token, clause: Sequence[Token]) -> int | None:
    """Where ``token`` itself (not an equal one) stands in ``clause``; None if it is not there."""
    return next((k for k, t in enumerate(clause) if t is token), None)


def word_and_next(clause: Sequence[Token], k: int) -> tuple[str, str]:
    """``clause[k]``'s word (lower case) and the word after it ("" at the end): a phrase of
    two words, as ``word_lists.changes`` reads one."""
    return clause[k].text.lower(), clause[k + 1].text if k + 1 < len(clause) else ""


def located(text: str, tokens: Sequence[Token], in_order: bool = False
            ) -> list[tuple[Token, tuple[int, int]]]:
    """(token, (start, end)) for each of ``tokens`` found in ``text`` as a whole word (a "2" is
    not the 2 of "276"), case aside; ``in_order``: each searched from where the one before was
    found. A token read another way than it is written (a pronoun's subject, "3" for "three")
    may not be found: it is left out."""
    found, at = [], 0
    for token in tokens:
        if not token.text.strip():
            continue
        where = re.compile(rf"(?<!\w){re.escape(token.text)}(?!\w)", re.IGNORECASE).search(
            text, at if in_order else 0)
        if where is not None:
            found.append((token, where.span()))
            at = where.end() if in_order else 0
    return sorted(found, key=lambda pair: pair[1])


def as_written(text: str, tokens: Sequence[Token]) -> str:
    """The stretch of ``text`` from the first of ``tokens`` to the last (``located``), with the
    article before it ("the Louvre"); the tokens' words joined where ``text`` holds none."""
    spans = [span for _, span in located(text, tokens)]
    if not spans:
        return " ".join(t.text for t in tokens)
    start = spans[0][0]
    head = text[:start].rstrip()
    article = (head.split()[-1:] or [""])[0].lstrip("[(\"'“‘*_")  # "[The", "(the"
    if article.lower() in ARTICLES:
        start = len(head) - len(article)
    return text[start:spans[-1][1]]


def holding_most(texts: Sequence[str], tokens: Sequence[Token]
                 ) -> tuple[int, list[tuple[Token, tuple[int, int]]]] | None:
    """Which of ``texts`` holds most of ``tokens`` (a number, date or name counting double; the
    first of equals), and where (``located``); None when none holds any."""
    best, most = None, 0
    for n, text in enumerate(texts):
        found = located(text, tokens)
        weight = sum(2 if t.kind in ("number", "name") else 1 for t, _ in found)
        if weight > most:
            best, most = (n, found), weight
    return best


def is_date(token: Token) -> bool:
    if token.form.startswith(("date:", "month:")):
        return True
    found = token.amount
    return bool(found and found.unit is None and not found.bound and "," not in found.text
                and found.value == int(found.value) and 1000 <= found.value <= 2100)


def past(token: Token) -> bool:
    """A verb in a past form the suffixes miss ("fell", "grew", "won")."""
    return token.kind == "word" and token.text.lower() in IRREGULAR


def tense(token: Token) -> str:
    """A verb's ending as its tense: "ed" for a past, regular or not ("formed", "won"), else
    its ending ("s", "", "ing"); a participle turned from the passive in the tense of its
    "be" ("is owned by": "s", "was owned by": "ed")."""
    return token.tensed or ("ed" if past(token) else suffix(token))


def dated(after: Sequence[Token]) -> Token | None:
    """What in ``after`` dates a statement to a time that may be over: a year, a date, a range,
    decade or century ("in 1948", "from 1972 to 1990", "during the 1970s", "in the 19th
    century"), "last" before a word of time or "ago" ("last year", "two years ago"); never a
    period that runs to now ("since 1948", "since the 19th century"). None if nothing does."""
    since = False
    for k, t in enumerate(after):
        word = t.text.lower()
        since = word == "since" or since and word not in PREPOSITIONS and word not in ",;and"
        following = after[k + 1].text.lower() if k + 1 < len(after) else ""
        if not since and (is_date(t) or t.form.startswith("range:") or word == "ago" or (
                word == "last" and following in TIME_NOUNS) or word in ("century", "centuries")):
            return t
    return None


def participle(token: Token) -> bool:
    word = token.text.lower()
    return token.kind == "word" and (word.endswith("ed") or word in IRREGULAR
                                     or word in SAME_PARTICIPLES)  # "given", "built": listed


def has_verb(clause: Sequence[Token]) -> bool:
    """Whether ``clause`` says something of something (it has a verb, a modal or a
    negation), as "the king won" does and "16-year-old" or "dancer Gregory Hines" does not."""
    return any(t.form in AUXILIARIES or t.kind in ("qualifier", "negation")
               or suffix(t) == "ed" or t.text.lower() in IRREGULAR for t in clause)


def is_mention(clause: Clause) -> bool:
    """Whether ``clause`` only names something ("Walmart", "Saturday Night Live", "American"):
    no verb, modal or negation, and no word but names, numbers and function words, or a
    single content word. Found in the evidence, a mention is there; whether it answers the
    question the rules cannot tell."""
    content = [t for t in clause if t.content]
    if len(clause) > 1 and clause[0].text.lower() in SPEAKERS and clause[1].form in AUXILIARIES:
        return False  # "You are a teacher": said of someone
    if len(content) < 2:
        return True
    if any(t.form in AUXILIARIES or t.kind in ("qualifier", "negation") for t in clause):
        return False
    return not any(t.kind == "word" and not t.text[:1].isupper() for t in content)
