"""What a question asks for, and the statement an answer makes in its place.

A bare answer ("Delhi", "Robert Zemeckis") states nothing of its own: it says something only in
the place of the question's gap. To "Beowulf is a 2007 film directed by who?" the answer
"Robert Zemeckis" says "Beowulf is a 2007 film directed by Robert Zemeckis"; to "Who was
inducted into the Rock and Roll Hall of Fame, David Lee Roth or Cia Berg?" the answer "David Lee
Roth" says "David Lee Roth was inducted into the Rock and Roll Hall of Fame". ``in_its_place``
gives that statement: the clause of the question that holds the gap, the answer put in the gap,
the question's inversion undone. The rule checker then proves it by one statement of the
sources like any other claim.

It reads only the shapes it recognises and gives None for the rest, which is no verdict (the
answer is then judged as it is written): no gap it finds (a yes-or-no question, "why", "how"
but for "how many", a wh-word in the middle), an answer of another kind than the gap asks for
("Warsaw" to "When was she born?"), a gap whose clause has no subject of its own ("..., who
received a star in what year?"), or a gap in a clause about another noun ("a firm that has its
office in what city?": which firm is a second step, reasoning no one statement holds).
"""

from __future__ import annotations

import re

from .grammar import (
    ARTICLES,
    DEMONSTRATIVES,
    DO,
    FINITE_AUXILIARIES,
    INTERROGATIVES,
    POSSESSIVES,
    PREPOSITIONS,
    RELATIVES,
    SUBJECT_PRONOUNS,
    TIME_NOUNS,
)
from .word_forms import IRREGULAR, MONTH_OF, WEEKDAYS, fold, with_digits

_PIECE = re.compile(r"[^\W_][^\s,;:()\"“”?!]*|[,;:()]")
_MARKS = frozenset(",;:()")  # what ends a clause of the question
# The wh-words an answer can stand in place of ("what city", "who"): "why" and "how" ask for a
# reason or a manner, which no bare answer is ("how many" asks for a count: ``_asks``).
_ASKING = INTERROGATIVES - {"why", "how"}
_TAKES_A_NOUN = frozenset(("what", "which", "whose"))  # "what city", "which band"
_LONGEST_ANSWER = 8  # the most words a bare answer has
_LONGEST_NOUN = 5  # the most words after "what"/"which" read as its noun at the question's end


def in_its_place(question: str, answer: str) -> str | None:
    """The statement ``answer`` makes in the gap of ``question`` (see the module's docstring),
    or None where the question has no gap this reads or the answer is more than a bare answer
    (a sentence of its own is judged as written)."""
    answer = answer.strip().rstrip(".!").strip()
    if not answer or len(answer.split()) > _LONGEST_ANSWER or answer[-1] in "?":
        return None
    pieces = _choices_cut(_PIECE.findall(fold(question).strip().rstrip("?").strip()),
                          _PIECE.findall(fold(answer)))
    gap = _gap(pieces)
    if gap is None:
        return None
    start, end = _clause(pieces, gap)
    before, wh, after = pieces[start:gap], pieces[gap].lower(), pieces[gap + 1:end]
    if wh == "how":  # "How many people live in Oslo": "700,000 people live in Oslo"
        counted = _noun(after[1:])
        answer, after = " ".join([answer, *counted]), after[1 + len(counted):]
    noun = _noun(after) if wh in _TAKES_A_NOUN else []
    after = after[len(noun):]
    into = "in" if wh in ("where", "when") or any(w.lower() in TIME_NOUNS for w in noun) else ""
    led = answer.split(maxsplit=1)
    if len(led) > 1 and led[0].lower() in PREPOSITIONS and (into or before and before[-1].lower()
                                                              in PREPOSITIONS):
        answer = led[1]  # "When did it end?" "In 1945.": the place already has its "in"
    if not _fits(answer, wh, [w.lower() for w in noun]):
        return None  # "When was she born?" "In Warsaw.": not what the question asks for
    opening = [w.lower() for w in before if w.lower() in PREPOSITIONS]
    if before == opening or [w.lower() for w in before] == opening:
        # the question opens with its gap ("Which band ...", "In what year ...")
        statement = _opening(after, answer, opening[0] if opening else into, bool(noun))
        return None if statement is None or _about_another(statement[:-1].split()) else statement
    if before[0].lower() in RELATIVES:
        before = before[1:]  # "Milhouse, who Matt Groening named after who"
    if not before or not _opens_a_subject(before[0]) or _about_another(before) or not any(
            _verb(w) for w in before):
        return None  # no subject or verb of its own, or a clause about another noun
    return _joined([*before, *([into] if into and before[-1].lower() not in PREPOSITIONS else []),
                    answer, *after])


def choice(question: str) -> tuple[str, str] | None:
    """The two names a question ends with a choice of ("Who was born first, Pablo Trapero or
    Aleksander Ford?": "Pablo Trapero", "Aleksander Ford"); None where it ends otherwise."""
    pieces = _PIECE.findall(fold(question).strip().rstrip("?").strip())
    found = _choice_at(pieces)
    if found is None:
        return None
    first, k = found
    return " ".join(pieces[first:k]), " ".join(pieces[k + 1:])


def _choice_at(pieces: list[str]) -> tuple[int, int] | None:
    """Where the choice ``pieces`` end with begins, and its "or": the capitalised words
    before the last "or" and after it ("... older Glenn Hughes or Ross Lynch"), or, in lower
    case, the words from the comma before it ("who was born first, mara lindqvist or tobias
    renner"); None where they end otherwise."""
    lowered = [p.lower() for p in pieces]
    if "or" not in lowered:
        return None
    k = len(lowered) - 1 - lowered[::-1].index("or")
    first = k
    while first and (pieces[first - 1][:1].isupper() or pieces[first - 1][:1].isdigit()):
        first -= 1
    second = pieces[k + 1:]
    if first < k and second and all(p[:1].isupper() for p in (second[0], second[-1])):
        return first, k
    if "," in pieces[:k] and second and "," not in second:
        first = k - pieces[:k][::-1].index(",")
        return (first, k) if first < k else None
    return None


def _choices_cut(pieces: list[str], answer: list[str]) -> list[str]:
    """``pieces`` without the choice the question ends with where ``answer`` is one of its
    two names: "Who is older Glenn Hughes or Ross Lynch" asks "Who is older" (a comma before
    the choice ends the clause already)."""
    found = _choice_at(pieces)
    mine = [w.lower() for w in answer]
    if found is None or mine not in ([p.lower() for p in pieces[found[0]:found[1]]],
                                     [p.lower() for p in pieces[found[1] + 1:]]):
        return pieces
    return pieces[:found[0]]


def _fits(answer: str, wh: str, noun: list[str]) -> bool:
    """Whether ``answer`` is of the kind the question asks for: a time for "when" and a noun of
    time ("which year": a year; "what time": a number; "which month": a month), a count for
    "how many", no time or number alone for "who" and "where". Another kind answers another
    question, whatever the sentence that names it."""
    words = answer.lower().replace(",", " ").split()
    digits = re.findall(r"\d+", with_digits(answer))
    months = [w for w in words if w in MONTH_OF]
    timely = bool(digits or months or any(w in WEEKDAYS for w in words))
    if "year" in noun or "years" in noun:
        return any(len(d) in (3, 4) for d in digits)
    if "month" in noun:
        return bool(months)
    if "time" in noun:
        return bool(digits)
    if "day" in noun or "date" in noun:
        return bool(months or any(w in WEEKDAYS for w in words))
    if wh == "when" or any(w in TIME_NOUNS for w in noun):
        return timely
    if wh == "how":
        return bool(digits)
    if wh in ("who", "whom", "whose", "where"):
        return any(w.isalpha() and w not in MONTH_OF and w not in WEEKDAYS for w in words)
    return True


def _gap(pieces: list[str]) -> int | None:
    """Where the question's gap is: a wh-word that opens the question (after a preposition, if
    any: "In which year ..."), or one at its end ("... named after who", "... in what city",
    "... is also called what"). None where there is neither."""
    for k in (0, 1):
        if k < len(pieces) and _asks(pieces, k) and (k == 0 or pieces[0].lower() in PREPOSITIONS):
            return k
    for k in range(len(pieces) - 1, max(-1, len(pieces) - 2 - _LONGEST_NOUN), -1):
        word = pieces[k].lower()
        if word in _ASKING and k and pieces[k - 1] != "," and (
                k == len(pieces) - 1 or word in _TAKES_A_NOUN
                and len(_noun(pieces[k + 1:])) == len(pieces) - k - 1):
            return k
    return None


def _asks(pieces: list[str], k: int) -> bool:
    """Whether ``pieces[k]`` asks for a thing: a wh-word other than "why" and "how", or "how"
    before "many" or "much" (a count)."""
    word = pieces[k].lower()
    return word in _ASKING or word == "how" and k + 1 < len(pieces) and pieces[k + 1].lower() in (
        "many", "much")


def _clause(pieces: list[str], gap: int) -> tuple[int, int]:
    """The span of the clause that holds the gap: from the mark before it to the one after."""
    start = gap
    while start > 0 and pieces[start - 1] not in _MARKS:
        start -= 1
    end = gap + 1
    while end < len(pieces) and pieces[end] not in _MARKS:
        end += 1
    return start, end


def _noun(words: list[str]) -> list[str]:
    """The noun after "what" or "which" ("city", "American football game"): the words before
    the verb, an article or a preposition."""
    for k, word in enumerate(words):
        if word.lower() in FINITE_AUXILIARIES or word.lower() in ARTICLES or (
                word.lower() in PREPOSITIONS) or _verb(word):
            return words[:k]
    return words


def _opens_a_subject(word: str) -> bool:
    """Whether a clause that opens with ``word`` opens with its subject: a name, a number, an
    article or a determiner ("The Thoen Stone ...", "Donahue ..."), not a pronoun that stands for
    what another clause says ("it is also called what"), a participle or a preposition."""
    lower = word.lower()
    return (word[:1].isupper() and lower not in SUBJECT_PRONOUNS and lower not in PREPOSITIONS
            and lower not in INTERROGATIVES) or word[:1].isdigit() or lower in ARTICLES \
        or lower in DEMONSTRATIVES or lower in POSSESSIVES


def _about_another(words: list[str]) -> bool:
    """Whether ``words`` hold a relative clause ("the firm that ..."): what the gap is asked
    of is then named by a second statement."""
    return any(w.lower() in RELATIVES or w.lower() in ("where", "when") for w in words)


def _opening(after: list[str], answer: str, into: str, noun: bool) -> str | None:
    """The statement of a question that opens with its gap: the answer as the subject ("Who
    was inducted into ...": "X was inducted into ..."), or the inversion undone ("What is the
    capital of Peru": "the capital of Peru is Lima"; "What year did the chairman die": "the
    chairman die in 2003"; "In which game was Smith named MVP": "Smith was named MVP in X")."""
    if after and _verb(after[0]) and after[0].lower() not in FINITE_AUXILIARIES:
        return _joined([answer, *after])  # "Who directed Beowulf": "X directed Beowulf"
    if not after or after[0].lower() not in FINITE_AUXILIARIES:
        return None  # "What American singer, born in 1942, ...": no verb in its clause
    auxiliary, rest = after[0], after[1:]
    # after "was" or "is" and its subject, the verb is a participle ("... born", "located
    # in"), not a word in "-s" ("are the plants ... called": "plants" is the subject's)
    verb = next((k for k, w in enumerate(rest) if k and _verb(w) and not _present(w)), None)
    named = bool(rest) and (rest[0].lower() in ARTICLES or any(w.endswith("'s") for w in rest))
    if not rest or not (auxiliary.lower() in DO or into or verb is not None or named
                        or not noun and rest[0][:1].isupper()):
        return _joined([answer, *after])  # "Who was inducted into ...", "Which director is American"
    placed = [answer] if not into or rest[-1].lower() in PREPOSITIONS else [into, answer]
    if auxiliary.lower() in DO:  # "the brewery have to limit", "the chairman die in"
        name_end = next((k for k, w in enumerate(rest) if not w[:1].isupper()), len(rest))
        if auxiliary.lower() == "did" and 0 < name_end < len(rest):
            rest = [*rest[:name_end], "did", *rest[name_end:]]  # "Acme did hire": past, not "hire"
        return _joined([*rest, *placed])
    if verb is not None:  # "was the winner born": "the winner was born in"
        return _joined([*rest[:verb], auxiliary, *rest[verb:], *placed])
    return _joined([*rest, auxiliary, *placed])  # "the capital of Peru is Lima"


def _verb(word: str) -> bool:
    """Whether ``word`` reads as a verb: an auxiliary, a past the suffixes miss, or a word in
    lower case in -ed or -s ("named", "includes")."""
    lower = word.lower()
    return lower in FINITE_AUXILIARIES or word.islower() and (
        lower in IRREGULAR or lower.endswith("ed")
        or lower.endswith("s") and not lower.endswith(("ss", "us", "is")))


def _present(word: str) -> bool:
    """Whether ``word`` reads as a verb only by its "-s" ("includes", "plants")."""
    lower = word.lower()
    return lower not in FINITE_AUXILIARIES and lower not in IRREGULAR and lower.endswith("s")


def _joined(words: list[str]) -> str:
    return re.sub(r"\s+([,;:)])", r"\1", " ".join(words)).replace("( ", "(") + "."
