"""What a person asserted: whether a sentence states its content as so, read once for every
place that needs it (the user's turns of a conversation, the sources the rule checker and the
verbatim cascade read).

Allow, don't deny: a sentence asserts what it says only where it reads as a plain statement.
The wordings are rows of one table (``cues``); this module reads a sentence through it:

- a question mark of any script anywhere in it (``?``, ``？``, ``؟``, ``‽``, ``¿``, the Greek
  ``;``) makes it a question;
- a deny row of ``cues`` anywhere in it gives its kind: a question without the mark, a request,
  a hedge, a supposition, a condition, a denial, a report of someone else's words, an
  instruction to whoever reads it (text planted for a model);
- then its frame: a short stretch before its first comma that no allow row knows ("Yeah right,
  ...": ``OPENED``), a verb and its object first ("Cancel my subscription.": ``IMPERATIVE``), a
  "that ..." clause under a head no allow row knows ("It is unlikely that ...", "Few expect that
  ...": ``FRAMED``; "It is true that", "The study found that" state it);
- a sentence the next one takes back or questions with nothing of its own to say ("That is a
  myth.", "Is that correct?") is not asserted either (``unasserted_each``).

Fails closed: a sentence read as not asserting grounds and supports nothing, so a frame no row
knows costs a check, never a pass. Questions are read in every script; the rest by English
words. Each caller decides which kinds it takes as not asserted: a source that reports what
someone said ("The company said profits rose") is how documents state things, so the rule
checker does not count ``REPORT`` against a source, nor ``CONDITION`` (it reads a source's
conditions itself, and a claim that keeps the condition is stated); a user's report of what
someone else said, or a condition, is not the user's assertion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cues import (  # noqa: F401  (the kinds are read from here by every caller)
    ASSERTING_HEADS,
    BACK_WORDS,
    CONDITION,
    CUT,
    DENIAL,
    DENIED_BACK,
    FRAMED,
    FRAMING_HEADS,
    HEDGE,
    IMPERATIVE,
    INSTRUCTION,
    OPENED,
    OPENERS,
    PLAIN_OPENINGS,
    QUESTION,
    QUESTIONED,
    REPORT,
    REQUEST,
    RETRACTS,
    SENTENCE_DENY,
    SUPPOSITION,
    TAKEN_BACK,
)
from .grammar import (
    ARTICLES,
    AUXILIARIES,
    CLAUSE_OPENERS,
    DEMONSTRATIVES,
    HONORIFICS,
    MODALS,
    NEGATIONS,
    NEGATIVE_AUXILIARIES,
    NUMBER_WORDS,
    OBJECT_PRONOUNS,
    POSSESSIVES,
    PREPOSITIONS,
    RELATIVES,
    SUBJECT_PRONOUNS,
    SUBORDINATORS,
    TIME_NOUNS,
)
from .word_forms import IRREGULAR, PAST_ONLY, TOKEN, fold, words

# Question marks: ASCII, full-width, small, Arabic, interrobang, Spanish opening, reversed,
# Greek (U+037E), Armenian, Ethiopic, and the Chinese/Japanese full-width one above.
_QUESTION_MARKS = re.compile("[?？﹖؟‽¿⸮\u037e\u055e\u1367]")


# The grammar the frame reader needs (no wording of standing: that is in ``cues``).
_DETERMINERS = ARTICLES | DEMONSTRATIVES | POSSESSIVES | frozenset("each every any some".split())
_SUBJECT_STARTS = _DETERMINERS | SUBJECT_PRONOUNS | frozenset(
    "there one no many most all few several both".split())
# What follows a verb that opens an imperative ("Cancel my order"): not "you" ("Thank you for
# ...") nor "that" ("Note that ...", read by the "that" frame).
_OBJECTS = (_DETERMINERS - frozenset(("that", "each", "every", "any", "some"))
            | (OBJECT_PRONOUNS - {"you"}) | frozenset("everything all up out off back down".split()))
_VERB_LIKE = AUXILIARIES | MODALS | NEGATIVE_AUXILIARIES
_MATRIX_ENDS = CLAUSE_OPENERS | {"and"}  # a word before a "that" clause's frame opens its clause
_OPENERS = re.compile(OPENERS, re.IGNORECASE)
_OPENING_WORDS = 3  # a longer stretch before the first comma is a clause, not an opener


def unasserted(sentence: str) -> str | None:
    """Why ``sentence`` does not assert what it says (one of the kinds of ``cues``), or None."""
    return standing(sentence)[0]


def standing(sentence: str) -> tuple[str | None, int]:
    """Why ``sentence`` does not assert what it says, or None; and from which of its
    characters on (0 but for a frame that opens a later clause: "The mine closed, and few
    expect that it reopens" states its first clause)."""
    if _QUESTION_MARKS.search(sentence):
        return QUESTION, 0
    folded = fold(sentence)
    text = folded.lstrip(" \t\n*_>-#•")
    lead = len(folded) - len(text)
    text = text.rstrip(" \t\n*_>-#•")
    for cue in SENTENCE_DENY:
        if cue.regex.search(text):
            return cue.standing, 0
    kind, at = _frame(text)
    return kind, (lead + at if at else 0)


def _frame(text: str) -> tuple[str | None, int]:
    """What frames ``text`` where no deny row did: an opening no allow row knows (``OPENED``),
    an imperative (``IMPERATIVE``), or a "that ..." under a head no allow row knows
    (``FRAMED``), with where the frame's clause starts; (None, 0) for a plain statement."""
    tokens = [(m.group(), m.start()) for m in TOKEN.finditer(text)]
    lead = _OPENERS.match(text)
    skip = lead.end() if lead else 0
    words = [(w, at) for w, at in tokens if at >= skip]
    if _opened(words):
        return OPENED, 0
    if _imperative([w for w, _ in words]):
        return IMPERATIVE, 0
    return _framed(words)


def _opened(words: list[tuple[str, int]]) -> bool:
    """Whether a short stretch before the sentence's first comma is no opener an allow row
    knows and no subject ("Yeah right, like ...", "Oh great, ..."): a name or a noun phrase
    before a comma that another closes ("Paris, the capital, is ...") is a subject."""
    comma = next((n for n, (w, _) in enumerate(words) if w == ","), None)
    if comma is None or not 0 < comma <= _OPENING_WORDS:
        return False
    stretch = [w.lower() for w, _ in words[:comma]]
    if any(w in _VERB_LIKE or w in ("(", ")", ";", ":") for w in stretch):
        return False  # a clause of its own, not an opener
    rest = [w for w, _ in words[comma + 1:]]
    between = rest[:rest.index(",")] if "," in rest else []
    after = rest[len(between) + 1:]
    last = "," not in after  # it runs to the sentence's end
    after = after[:after.index(",")] if "," in after else after
    # what stands between two commas is an apposition ("Paris, the capital, is ..."), but not,
    # after one word ("Oh great, ..."), a clause with its subject and verb, nor where such a
    # clause follows it ("Yeah, right, the council fixed ...", "Yeah, of course, we kept it":
    # the stretch was no subject), which a subject and two words more to the end are
    apposition = bool(between) and (len(stretch) > 1 or not _a_clause(between)) and not (
        after and (after[0].lower() in _SUBJECT_STARTS or after[0][:1].isupper())
        and not any(w.lower() in ("and", "or") for w in after)  # a list's last items
        and (_a_clause(after) or last and len(after) >= 3))
    if apposition or any(w.lower() in ("and", "or") for w in rest[:2]):
        return False  # an apposition or a list: the stretch is its subject or first item
        # ("Paris, the capital, is ..."; not "Oh great, my package arrived late, as always")
    phrase = " ".join(stretch)
    return not any(row.search(phrase) for row in PLAIN_OPENINGS)


def _a_clause(words: list[str]) -> bool:
    """Whether ``words`` between two commas are a clause with its subject and verb ("my
    package arrived late", "the printer works again"), not a noun phrase ("a retired nurse",
    "a penicillin-class antibiotic") or a relative clause ("which was founded in 1990")."""
    if words[0].lower() in RELATIVES:
        return False
    for n, word in enumerate(w.lower() for w in words):
        if word in _VERB_LIKE or n >= 2 and len(word) > 4 and word.endswith("ed"):
            return True
        if (n == 2 and n + 1 < len(words) and words[0].lower() in _DETERMINERS
                and word.endswith("s") and not word.endswith(("ss", "us", "is"))):
            return True  # "the printer works again": a determiner, a noun, its verb
    return False


def _imperative(words: list[str]) -> bool:
    """Whether the sentence opens with a verb and its object ("Cancel my subscription.",
    "Refund the fee now.", "Sign up today."): a first word that is no subject (no pronoun,
    article, number or word in -s, -ed, -ing or -ly) and an object or particle after it; not a
    name of the form "Alexander the Great was ..."."""
    if len(words) < 2 or not words[0].replace("'", "").isalpha():
        return False
    first, second = words[0].lower(), words[1].lower()
    if words[1] != second and second not in HONORIFICS:
        return False  # "Order A-5521 shipped": a name or code after it, no object
    if first in ("don't", "let's") or first == "let" and second in ("me", "us"):
        return True
    counted = second in NUMBER_WORDS and not first.endswith("ty") and first not in NUMBER_WORDS
    objected = second in _OBJECTS or counted or second in HONORIFICS  # "Reserve two seats",
    # "Call Dr Holt"; not "Forty-eight volunteers"
    if (first in _SUBJECT_STARTS or first in _VERB_LIKE or first.endswith(("s", "ed", "ing", "ly"))
            or not objected or any(row.search(first) for row in PLAIN_OPENINGS)):
        return False  # a subject, or an opener ("After the war, ...")
    named = len(words) > 3 and words[2][:1].isupper() and words[3].lower() in _VERB_LIKE
    timed = (second == "this" and len(words) > 3 and words[2].lower() in TIME_NOUNS
             and (words[3].lower() in _VERB_LIKE or words[3].endswith("ed")))
    return not (named or timed)  # "Turnout this year was lower": a noun, a time, its verb


def _framed(words: list[tuple[str, int]]) -> tuple[str | None, int]:
    """``FRAMED`` and where its clause starts, where a "that" opens a clause of its own (a
    subject after it, not a verb: "that the mine will reopen", not "that opened") under a head
    no allow row knows ("It is unlikely that ...", "Few expect that ..."); not after a noun
    that an article opens ("the tower that Eiffel built"), unless a deny row names it ("the
    hope that ..."), and never under a negated head ("It is not clear that ...")."""
    for n, (word, _) in enumerate(words):
        if word.lower() != "that" or n == 0 or n + 1 >= len(words):
            continue
        after = words[n + 1][0]
        # a subject after "that": "that the mine", "that icing on the wings contributed",
        # "that fares will be frozen" (a word, then a modal or auxiliary that is not its own)
        if not (after.lower() in _SUBJECT_STARTS or after[:1].isupper() or after[:1].isdigit()
                or _noun_like(after) and _verb_follows([w for w, _ in words[n + 2:n + 6]])
                or after.isalpha() and after.lower() not in _VERB_LIKE and n + 2 < len(words)
                and words[n + 2][0].lower() in _VERB_LIKE):
            continue  # "that opened", "that has been": a relative clause, or no clause at all
        start = n - 1
        while start > 0 and words[start - 1][0] not in ",;:()" \
                and words[start - 1][0].lower() not in _MATRIX_ENDS:
            start -= 1
        matrix = [w.lower() for w, _ in words[start:n]]
        head = matrix[-1]
        negated = any(w in NEGATIONS or w.endswith("n't") for w in matrix)
        at = words[start][1] if start else 0
        if FRAMING_HEADS.fullmatch(head) or negated:
            return FRAMED, at
        if ASSERTING_HEADS.fullmatch(head) or (len(matrix) > 1
                                               and ASSERTING_HEADS.fullmatch(matrix[-2])):
            continue  # "It is true that ...", "so tired that ..."
        if _after_noun(matrix):
            continue  # "the tower that Eiffel built"
        return FRAMED, at
    return (FRAMED, 0) if _bare_frame([w for w, _ in words]) else (None, 0)


def _bare_frame(words: list[str]) -> bool:
    """Whether the sentence opens with a subject and a verb whose object is a clause with no
    "that" ("Researchers suspect the outbreak began at a market", "Analysts expect the bank
    will cut rates"): a subject of one to three words (no preposition, verb or comma), a
    lower-case word, then an article or pronoun whose noun's own verb follows within four words
    (a modal, an auxiliary or a form that is only a past tense: "began", not "sold", which may
    be a participle after a noun: "all models sold in Europe"), with only nouns and adjectives
    between (no preposition, pronoun, relative or "and": "paid the workers it had laid off" is
    an object). That is a clause the sentence frames, unless the head is one an allow row knows
    ("found", "shows", "knew")."""
    for n in range(1, min(4, len(words) - 2)):
        subject, head = [w.lower() for w in words[:n]], words[n]
        if (not head.isalpha() or head != head.lower() or head in _SUBJECT_STARTS
                or head in _VERB_LIKE or head in PREPOSITIONS or head in TIME_NOUNS
                or head in RELATIVES or head in _MATRIX_ENDS or head in SUBORDINATORS
                or head in ("or", "nor")
                or head.endswith("ly") or subject[-1] in _DETERMINERS
                or any(w in PREPOSITIONS or w in _VERB_LIKE or w in IRREGULAR
                       or w.endswith("ed") or not w.isalpha() for w in subject)):
            continue  # not a subject and its verb ("Voters elected the candidate ...")
        after = words[n + 1].lower()
        if after not in _SUBJECT_STARTS - {"no", "that"}:  # "that": ``_framed``
            continue
        rest = [w.lower() for w in words[n + 2:n + 6]]
        pronoun = after in SUBJECT_PRONOUNS  # after "he", any past form is his verb
        clause = next((k for k, w in enumerate(rest) if (k or pronoun) and (
            w in _VERB_LIKE or w in PAST_ONLY or pronoun and (w in IRREGULAR or w.endswith("ed")))),
            None)
        if clause is None or any(not w.isalpha() or w in RELATIVES or w in PREPOSITIONS
                                 or w in _SUBJECT_STARTS or w in _MATRIX_ENDS
                                 for w in rest[:clause]):
            continue  # "the workers it had laid off", "the final and lifted", "the most in"
        return not ASSERTING_HEADS.fullmatch(head.lower())
    return False


def _noun_like(word: str) -> bool:
    """Whether ``word`` after "that" may open a clause's subject ("that icing on the wings
    contributed"): a lower-case word that is no verb form (not "that opened", "that is",
    "that sells")."""
    lowered = word.lower()
    return (word.isalpha() and word == lowered and lowered not in _VERB_LIKE
            and lowered not in IRREGULAR and lowered not in TIME_NOUNS
            and not lowered.endswith(("ed", "s", "ly")))


def _verb_follows(words: list[str]) -> bool:
    """Whether a verb form comes among ``words`` (the few after a subject): "icing on the
    wings contributed", not "that year"."""
    return any(w.lower() in _VERB_LIKE or w.lower() in IRREGULAR or w.lower().endswith("ed")
               for w in words)


def _after_noun(matrix: list[str]) -> bool:
    """Whether the words before "that" end in a noun phrase an article or determiner opens,
    with no verb between them: "the tower that", "the hospital bed that", not "the panel
    concluded that" (a past form after a noun is its verb)."""
    head = matrix[-1]
    past = head in IRREGULAR or head.endswith("ed") and len(head) > 4 and not (
        head.endswith("eed") and len(head) <= 5)  # not "bed", "shed", "seed", "creed"
    if past and len(matrix) > 1 and matrix[-2] not in _DETERMINERS:
        return False
    for word in reversed(matrix[:-1]):
        if word in _DETERMINERS:
            return True
        if word in _VERB_LIKE or word.endswith("ed"):
            return False
    return False


def unasserted_each(sentences: Sequence[str]) -> list[str | None]:
    """``unasserted`` of each of one turn's or passage's sentences, in order, and also a
    sentence the next one takes back or questions with nothing of its own to say."""
    return [kind for kind, _ in standing_each(sentences)]


def standing_each(sentences: Sequence[str]) -> list[tuple[str | None, int]]:
    """``standing`` of each of one turn's or passage's sentences, as ``unasserted_each``
    reads them: a sentence made unasserted by another is so from its start."""
    read = [standing(s) for s in sentences]
    kinds = [kind for kind, _ in read]
    for n, sentence in enumerate(sentences):  # "Common myths:" heads the list that follows
        if kinds[n] == DENIAL and sentence.rstrip().endswith(":"):
            kinds[n + 1:] = [kinds[k] or DENIAL for k in range(n + 1, len(sentences))]
            break
    for n in range(len(sentences) - 1):
        back = _back(sentences[n + 1])
        if back is not None and kinds[n] is None:
            kinds[n] = back
    return [(kind, at if kind == own else 0)
            for kind, (own, at) in zip(kinds, read, strict=True)]


def _back(sentence: str) -> str | None:
    """TAKEN_BACK or QUESTIONED when ``sentence`` takes back (``RETRACTS``) or only questions
    the one before it: then all of its words are of the cue table's ``BACK`` rows, or
    adverbs that only say how it is said ("That's a myth, apparently.")."""
    if RETRACTS.search(fold(sentence)):
        return TAKEN_BACK
    said = words(sentence)
    if not said or not all(BACK_WORDS.fullmatch(w) or w.endswith("ly") for w in said):
        return None
    if _QUESTION_MARKS.search(sentence):
        return QUESTIONED
    return TAKEN_BACK if any(DENIED_BACK.fullmatch(w) for w in said) else None
