"""Reading a text into clauses of tokens (``read``): words by their Snowball stem, names as
written, numbers with what they allow (``quantities``: a hedge or a bound, a unit, a scale;
written-out numbers read), ranges and dates as one token, opposites ("closed") as a concept and
a pole, negations counted, parentheticals and lists marked, a pronoun that opens a clause read
as the subject before it, and the restatements of ``restatements`` undone."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from ..storage import MiB, memoize
from ..text.citations import MARKER
from ..text.cues import ASSERTING_HEADS
from ..text.grammar import (
    ARTICLES,
    AUXILIARIES,
    BE,
    CLAUSE_OPENERS,
    COORDINATORS,
    MODALS,
    NEGATIONS,
    OBJECT_PRONOUNS,
    PARTICLES,
    POSSESSIVES,
    PREPOSITIONS,
    QUANTIFIERS,
    RELATIVES,
    SUBJECT_PRONOUNS,
    SUBORDINATORS,
    THIRD_PERSON,
    TIME_ADVERBS,
    TIME_NOUNS,
)
from ..text.records import ISO_DATE
from ..text.sentences import split_sentences
from ..text.word_forms import (
    IRREGULAR,
    MONTH_OF,
    NUMBER_PATTERN,
    SAME_PARTICIPLES,
    WEEKDAYS,
    WORD_PATTERN,
    fold,
    month_at,
    snowball,
    with_digits,
)
from . import money, quantities
from .restatements import (
    attributed,
    comparative,
    fronted,
    mark_events,
    name_first,
    passive,
    possessive,
    voiced,
    weekday_comma,
)
from .tokens import (
    ALTERNATIVES,
    ATTRIBUTED,
    BOUNDARIES,
    CONDITION_PHRASES,
    CONDITIONS,
    FUNCTION_WORDS,
    PRONOUNS,
    QUALIFIERS,
    QUESTION,
    QUOTED_NAME,
    REPORTED,
    TITLE_CHANGERS,
    UNASSERTING,
    Clause,
    Token,
    as_written,
    has_verb,
    participle,
    reports,
    suffix,
)
from .tokens import past as past_form
from .tokens import tense as tense_of
from .word_lists import concepts

# Qualifiers that say the same: of each member; a chance; a possibility.
_SAME_QUALIFIER = {"every": "each", "probably": "likely", "might": "may"}
_SAID_SO = frozenset("say says said saying told tells according".split())
# Verbs that say "is" before "in", "on" or "at": "lies in", "stands on", "took place on".
_PLACE_VERBS = frozenset("""lie lies lying sit sits sitting stand stands standing take_place
    takes_place took_place taken_place taking_place""".split())
_PLACE = frozenset(("in", "on", "at"))
_RANGE_OPENERS = {"between": ("and",), "from": ("to", "until", "till", "through")}
_CONTRACTED = {"cannot": "can", "can't": "can", "won't": "will", "shan't": "shall"}
_TOKEN = re.compile(rf"[A-Za-z]{{1,3}}{money.SIGN_CLASS}|{quantities.TIME_WORDS}|{ISO_DATE.pattern}"
                    rf"|{NUMBER_PATTERN}|{quantities.UNIT_WORDS}|{WORD_PATTERN}|[%;:,()]|{money.SIGN_CLASS}")


@memoize(4096, 16 * MiB, bytes_per_char=48)
def read(text: str) -> tuple[Clause, ...]:
    """The clauses of ``text``: each sentence, cut at clause boundaries, a pronoun that opens
    one read as the subject of the sentence before; restatements undone."""
    clauses: list[Clause] = []
    previous: Clause | None = None
    for sentence in split_sentences(MARKER.sub(" ", text)):
        read_here = list(_clauses(sentence.text))
        if sentence.text.rstrip().endswith("?"):  # "Did the minister resign?" states nothing
            read_here = [(*c, Token(QUESTION, QUESTION, QUESTION)) for c in read_here]
        if read_here and previous and (named := _pronoun_read(previous, read_here[0])):
            read_here[0] = named  # "The Louvre is a museum. It houses the Mona Lisa."
        if read_here:
            previous = read_here[0]
        clauses += [_restated(c) for c in read_here]
    return tuple(clauses)


def in_context(sentence: str, before: str) -> str:
    """``sentence`` as it reads after ``before``, the sentence before it: a personal pronoun
    that opens it put as the subject of ``before`` it stands for, as ``before`` writes it, in
    brackets ("Hall B opened in 2005." "It seats 800." reads "[Hall B] seats 800."). Itself
    where it opens otherwise, or ``before`` names nothing the pronoun can stand for (a plural
    or a number for "it"). The rule ``read`` reads a source's later sentences by, so a claim
    and a source read alike."""
    start = len(sentence) - len(sentence.lstrip(" \t\n*_"))  # "**It seats 800.**"
    pronoun = sentence[start:].split(maxsplit=1)[0] if sentence[start:].strip() else ""
    if pronoun.lower() not in THIRD_PERSON:  # not "It's", not "It,": read as written
        return sentence
    previous, first = _clauses(before), _clauses(sentence)
    named = _pronoun_read(previous[0], first[0]) if previous and first else None
    if named is None:
        return sentence
    written = as_written(before, [t for t in named if t.referent])
    return f"{sentence[:start]}[{written[:1].upper()}{written[1:]}]" \
        f"{sentence[start + len(pronoun):]}"


# A subject read for a pronoun, in brackets at the start of a claim (``in_context``).
BORROWED = re.compile(r"\s*\[([^\[\]\d][^\[\]]{0,299})\](?=\s)")  # not a marker, "[1]"


@memoize(4096, 16 * MiB, bytes_per_char=16)  # measured: 3.5 bytes a character of ASCII text
def in_context_each(text: str) -> tuple[tuple[str, str], ...]:
    """Each sentence of ``text`` as written and as it reads after the one before
    (``in_context``): "It is 330 metres tall." and "[The Eiffel Tower] is 330 metres tall."."""
    pairs: list[tuple[str, str]] = []
    for sentence in split_sentences(text):
        pairs.append((sentence.text, in_context(sentence.text, pairs[-1][1]) if pairs
                      else sentence.text))
    return tuple(pairs)


def _pronoun_read(previous: Clause, first: Clause) -> Clause | None:
    """``first``, a clause that opens with a pronoun, with the pronoun read as the subject of
    ``previous``, the clause before it (each word of that subject keeps the pronoun as its
    ``referent``); None where ``first`` opens otherwise, its "it" is no thing ("It is likely
    that ...", "It took ten years to ..."), or ``previous`` has no subject the pronoun can
    stand for. A subject that is no person for a "she" is read all the same: what the clause
    then claims of it fails closed."""
    pronoun = first[0].text.lower() if first else ""
    if pronoun not in PRONOUNS or len(first) < 2 or _expletive(first):
        return None
    if pronoun == "this" and not _verb_shaped(first[1]):
        return None  # "This hall seats 800": a determiner
    subject = subject_of(previous) or []
    content = [t for t in subject if t.content]
    if not content or pronoun == "it" and (content[0].kind == "number" or content[-1].kind == (
            "word") and suffix(content[-1]) == "s"):
        return None  # "About 9 million people visit it. It ...": not the people
    return (*(replace(t, referent=first[0].text) for t in subject), *first[1:])


def _named_within(previous: Sequence[Token], clause: list[Token]) -> list[Token]:
    """``clause``, a later clause of one sentence, with a pronoun that opens it read as the
    subject of ``previous`` (``_pronoun_read``); the sentence's own words, so no referent is
    marked: a quote names none."""
    named = _pronoun_read(tuple(previous), tuple(clause))
    return clause if named is None else [replace(t, referent="") for t in named]


def _expletive(clause: Clause) -> bool:
    """Whether ``clause`` opens with an "it" that stands for what follows, not for a thing:
    "It is unlikely that the mine will reopen", "It takes ten minutes to walk there"."""
    return clause[0].text.lower() == "it" and any(
        t.text.lower() in _WHAT_FOLLOWS for t in clause[2:])


_WHAT_FOLLOWS = frozenset("that to whether if how why".split())
# A pronoun as a subject or an object ("her" may own: "Her mother"): no part of a subject a
# pronoun can stand for ("About 9 million people visit it" has no verb the suffixes know).
_PERSONAL_PRONOUNS = SUBJECT_PRONOUNS | OBJECT_PRONOUNS - {"her"}
_COUNTING = frozenset(quantities.NUMBER_WORDS) | QUANTIFIERS
_LONGEST_SUBJECT = 8  # the most words a subject a pronoun stands for is read with


def subject_of(clause: Clause) -> list[Token] | None:
    """The words of ``clause`` before its verb, outside asides: its subject ("The old tower"
    of "The old tower, built in 1890, fell in 1990"); None where no verb follows a word of
    content within ``_LONGEST_SUBJECT`` words, or something other than words comes first."""
    own = [t for t in clause if not t.aside]
    for k, token in enumerate(own[:_LONGEST_SUBJECT + 1]):
        if k and suffix(token) == "s" and own[k - 1].text.lower() in _COUNTING:
            continue  # "Two firms bid", "Most shops close": a plural, no verb
        if k and (token.kind == "negation" or _verb_shaped(token)) and any(
                t.content for t in own[:k]):
            subject = own[:k]
            if all(t.kind in ("name", "word", "number", "function") for t in subject) and not any(
                    t.text.lower() in _PERSONAL_PRONOUNS for t in subject):
                return subject
            return None
    return None


def _verb_shaped(token: Token) -> bool:
    """Whether ``token`` can be a clause's verb: a form of "be", "have" or "do", a modal, a
    past the suffixes miss, or a word in -s, -ed or -ing."""
    return token.form in AUXILIARIES or token.kind == "qualifier" or past_form(token) or bool(
        suffix(token))


def _restated(clause: Clause) -> Clause:
    """``clause`` with its possessives and its passive put the one way both spellings read."""
    return tuple(passive(possessive(list(clause))))


@memoize(4096, 16 * MiB, bytes_per_char=48)
def _clauses(sentence: str) -> tuple[Clause, ...]:
    tokens = _tokens(fold(with_digits(sentence)))
    pieces: list[list[Token]] = []
    current: list[Token] = []
    for k, token in enumerate(tokens):
        if token.form == "yet" and k and tokens[k - 1].kind == "negation":
            continue  # "not yet approved": the negation's, no clause boundary
        if token.kind == "mark" and token.text in ";:" or token.form in BOUNDARIES:
            if current:
                pieces.append(current)
            current = [token] if token.form in BOUNDARIES else []
        else:
            current.append(token)
    if current:
        pieces.append(current)
    clauses: list[list[Token]] = []
    for n, piece in enumerate(pieces):
        piece = _mark_asides(name_first(fronted(attributed(piece))))
        if n and clauses and piece and piece[0].form in BOUNDARIES:
            piece = piece[1:]
        if n and clauses and piece:
            if piece[0].text.lower() in PRONOUNS and len(piece) > 1:
                piece = _named_within(clauses[0], piece)  # "..., but it reopened"
            else:
                piece = _shared_subject(clauses[0], piece) or piece
        clauses += _coordinated(piece)
    return tuple(tuple(comparative(mark_events(voiced(_mark_lists(c))))) for c in clauses if c)


def _coordinated(tokens: list[Token]) -> list[list[Token]]:
    """"The sun rises in the east and sets in the west" as two clauses, the second with the
    first's subject: "and" followed by a verb-like word ("sets", "opened") that a word of the
    first clause matches in form, after its subject, or by a pronoun and a verb ("..., and it
    remained the tallest")."""
    for n, token in enumerate(tokens):
        if token.form != "and" or token.aside or not 0 < n < len(tokens) - 1:
            continue
        if tokens[n - 1].kind == tokens[n + 1].kind == "number":
            continue  # "every 6 and 10 minutes": two values of one clause
        if measures := _measures(tokens, n):
            return measures
        if n >= 3 and tokens[n - 2].text == "," and tokens[n - 1].kind == tokens[n - 3].kind == (
                "word"):
            continue  # "pizza, pasta and salads", "a saw, pliers and a hammer": a list's last
        if _own_clause(tokens[:n], tokens[n + 1:]):  # "..., and Rome is the capital of Italy"
            # "... and it seats 800": "it" is the subject before
            return [tokens[:n], *_coordinated(_named_within(tokens[:n], tokens[n + 1:]))]
        start = n + 2 if tokens[n + 1].text.lower() in PRONOUNS else n + 1  # "and it remained"
        if start >= len(tokens):
            continue
        verb, before = tokens[start], tokens[n - 1]
        passive = (verb.form in AUXILIARIES and start + 1 < len(tokens)
                   and participle(tokens[start + 1]))  # "... and was named player of the match"
        past = past_form(verb) and has_verb(tokens[:n])  # "grew by 10% and fell by 4%"
        after_pronoun = start == n + 2 and verb.form in AUXILIARIES  # "..., and it is 12 km"
        copula = start == n + 1 and verb.form in ("is", "are", "was", "were") and any(
            _verb_shaped(t) for t in tokens[1:n])  # "weighs 2 tonnes and is 1.5 metres tall"
        if not passive and not past and not after_pronoun and not copula and (
                verb.kind != "word" or not suffix(verb) or suffix(before) == suffix(verb)
                and start == n + 1):
            continue
        second = _shared_subject(tokens[:n], tokens[start:])
        if copula and not second and (named := subject_of(tuple(tokens[:n]))):
            second = [*named, *tokens[start:]]
        if second:
            return [tokens[:n], *_coordinated(second)]
    return [tokens]


def _measures(tokens: list[Token], n: int) -> list[list[Token]] | None:
    """"The Broch is 12 metres wide, 30 metres long and 20 metres tall" as one statement for
    each measure, each with what comes before the first ("The Broch is 12 metres wide", ...):
    a number of one item is never another item's ("30 engineers and 12 designers"). None
    unless each item around the "and" at ``tokens[n]`` (a comma before it or not), and before
    it after commas, is a number or range and up to three words ("30 software engineers")."""
    if not (n + 2 < len(tokens) and tokens[n + 1].kind == "number"
            and _item_word(tokens[n + 2])):
        return None
    end = n - 1 if tokens[n - 1].text == "," else n
    last = _item_start(tokens, end)
    if last is None:
        return None
    starts = [last]
    while starts[0] >= 2 and tokens[starts[0] - 1].text == ",":
        before = _item_start(tokens, starts[0] - 1)
        if before is None:
            break
        starts.insert(0, before)
    if not any(t.content for t in tokens[:starts[0]]):
        return None
    head = tokens[:starts[0]]
    ends = [s - 1 for s in starts[1:]] + [end]
    return [[*head, *tokens[s:e]] for s, e in zip(starts, ends, strict=True)] + _coordinated(
        [*head, *tokens[n + 1:]])


def _item_word(token: Token) -> bool:
    return token.kind == "word" and not has_verb([token])


def _item_start(tokens: list[Token], end: int) -> int | None:
    """Where the item of a list of measures that ends at ``tokens[end]`` (exclusive) starts:
    its number, before one to three words; None if it is no such item."""
    k = end
    while k > 0 and end - k < 3 and _item_word(tokens[k - 1]):
        k -= 1
    return k - 1 if k < end and k > 0 and tokens[k - 1].kind == "number" else None


def _own_clause(first: Sequence[Token], rest: Sequence[Token]) -> bool:
    """Whether ``rest``, after "and", is a clause with a subject and a verb of its own, and
    ``first`` one with its verb: two statements ("Paris is the capital of France and Rome is
    the capital of Italy"), not one with a list ("Paris and Rome are capitals")."""
    if len(rest) > 1 and rest[0].text.lower() in SUBJECT_PRONOUNS and rest[1].kind == "word":
        # "My sister lives in Quebec and I live in Ottawa": a pronoun and its verb, any tense,
        # after a clause with a verb of its own (not "The head chef and I opened ...")
        return has_verb(first) or any(t.kind == "word" and suffix(t) in ("s", "ed")
                                      for t in first[1:-1])
    if not has_verb(first):
        return False
    for k, token in enumerate(rest[:_SUBJECT_WORDS + 1]):
        verb = token.form in AUXILIARIES or token.kind == "qualifier" or past_form(token) or (
            token.kind == "word" and suffix(token) in ("s", "ed"))
        if verb:
            if any(t.text.lower() in RELATIVES for t in rest[:k]):
                # "a singer and actress who was born in Lagos": the verb is the relative
                # clause's; a clause of its own has another ("... and the city that hosts
                # the Games is Rome", "... and the team that won the cup plays in Lyon")
                skip = k + 1 + (token.form in AUXILIARIES and k + 1 < len(rest)
                                and participle(rest[k + 1]))
                return any(t.form in AUXILIARIES or t.kind == "qualifier" or past_form(t) or (
                    t.kind == "word" and suffix(t) in ("s", "ed")) for t in rest[skip:])
            return k > 0 and any(t.content for t in rest[:k]) and all(
                t.kind in ("name", "word", "number", "function") and not t.listed
                for t in rest[:k])
    return False


_SUBJECT_WORDS = 4  # the longest subject a clause after "and" is read with


def _shared_subject(first: Sequence[Token], rest: list[Token]) -> list[Token] | None:
    """``rest`` (a clause with no subject of its own: it starts with its verb) with the subject
    of ``first``; None when ``rest`` has its own or ``first``'s cannot be told."""
    if not rest:
        return None
    lead = 0  # "She later moved to Paris": the verb after an adverb
    while lead < len(rest) - 1 and rest[lead].text.lower() in TIME_ADVERBS:
        lead += 1
    verb = rest[lead]
    auxiliary = verb.form in AUXILIARIES or verb.kind in ("qualifier", "negation")
    tense = tense_of(verb)  # "fell" is a past as "opened" is
    if not auxiliary and (verb.kind != "word" or not tense):
        return None
    for k, token in enumerate(first):
        past = token.text.lower() in IRREGULAR or token.text.lower() in SAME_PARTICIPLES
        verb_like = token.form in AUXILIARIES or token.kind == "qualifier" or (
            token.kind == "word" and k > 0 and past and (auxiliary or tense == "ed")) or (
            token.kind == "word" and suffix(token)
            and (auxiliary or suffix(token) == tense))
        if verb_like:
            subject = list(first[:k])
            if token.form in BE and not auxiliary and participle(verb):
                subject.append(token)  # "was bought and restored by": "was restored by"
            return [*subject, *rest] if any(t.content for t in subject) else None
    named = subject_of(tuple(first))  # "opened in 2005 and seats 800": a verb of another tense
    return [*named, *rest] if named else None


def _tokens(text: str) -> list[Token]:
    found = list(_TOKEN.finditer(text))
    raw, spans = [m.group() for m in found], [m.span() for m in found]
    for k in range(len(raw) - 1, 0, -1):  # "a start-up", "a spin-off": one noun
        if raw[k].lower() in PARTICLES and raw[k - 1].isalpha() and spans[k][0] == (
                spans[k - 1][1] + 1) and text[spans[k - 1][1]] == "-":
            raw[k - 1:k + 1] = [f"{raw[k - 1]}-{raw[k]}"]
            spans[k - 1:k + 1] = [(spans[k - 1][0], spans[k][1])]
    quoted = set()  # a title in quotation marks: one name ("the film 'Harbour Bank Collapsed'")
    for title in reversed(list(QUOTED_NAME.finditer(text))):
        inside = [k for k, (a, b) in enumerate(spans) if title.start() < a and b < title.end()]
        if inside:
            first, last = inside[0], inside[-1]
            raw[first:last + 1] = [text[title.start() + 1:title.end() - 1]]
            spans[first:last + 1] = [title.span()]
            quoted.add(title.span())
    attributed = _attribution(raw)
    tokens: list[Token] = []
    bound_text = ""  # a hedge or bound read before a number ("about", "more than")
    article = False  # the word before was an article
    detailed: set[int] = set()  # an ISO date's year, a timestamp's zone: may be left out
    i = 0
    while i < len(raw):
        word = raw[i]
        if iso := ISO_DATE.fullmatch(word):  # "2024-11-05T14:30Z": its day, year, time of day
            tokens.append(Token(f"date:{int(iso[2])}-{int(iso[3])}", word, "number"))
            raw[i] = word = iso[1]
            if iso[4] is not None:
                raw.insert(i + 1, f"{iso[4]}:{iso[5]}" + (f":{iso[6]}" if iso[6] else ""))
                spans.insert(i + 1, spans[i])
                if iso[7] and _utc(iso[7]):  # "Z", "+00:00": "14:30 UTC"
                    raw.insert(i + 2, "UTC")
                    spans.insert(i + 2, spans[i])
                    detailed.add(i + 2)
            detailed.add(i)
        lowered = word.lower()
        if spans[i] in quoted:
            tokens.append(Token(f"title:{fold(lowered)}", word, "name"))
            i += 1
            article = False
            continue
        if not bound_text and (ranged := _range_at(raw, i)):
            size, token = ranged  # its text as written: "€20-€45", not its words
            tokens.append(replace(token, text=text[spans[i][0]:spans[i + size - 1][1]]))
            i += size
            article = False
            continue
        if _decade_at(raw, i):  # "the 1990s": 1990 to 1999, not the year 1990
            decade = int(word)
            tokens.append(Token(f"range:{decade}-{decade + 9}", f"{word}s", "number"))
            i += 2
            article = False
            continue
        if time := quantities.time_at(raw, i):  # "07:00", "7 pm", "7:30 p.m.": minutes of the day
            minutes, size = time
            seconds = quantities.seconds_of(word)  # "07:45:30": "07:45" says less, ":50" other
            tokens.append(Token(f"time:{minutes}" + ("" if seconds is None else f":{seconds}"),
                                " ".join(raw[i:i + size]), "number"))
            i += size
            bound_text = ""
            continue
        if word[0].isdigit() and not math.isfinite(_value(word)):
            # hundreds of digits, or "30:00" that is no time of day: no number to compare
            tokens.append(Token(word, word, "word"))
        elif word[0].isdigit():
            value = float(word.replace(",", ""))
            month = month_at(raw, i + 1) if i + 1 < len(raw) and value == int(value) <= 31 \
                else None
            if month and not bound_text:  # "14 July" is "July 14"
                tokens.append(Token(f"date:{month}-{int(value)}", f"{word} {raw[i + 1]}",
                                    "number"))
                i += 2
                continue
            stamped, i = i in detailed, _number(raw, i, bound_text, tokens, text, spans)
            if stamped:  # a timestamp's year: a claim of its time alone may leave it out
                tokens[-1] = replace(tokens[-1], detail=True)
            bound_text = ""
        elif lowered in quantities.NUMBER_WORDS and i + 1 < len(raw) and \
                quantities.unit_of(raw[i + 1]):  # "two hours", a measure like "2 hours"
            i = _number(raw, i, bound_text, tokens, text, spans)
            bound_text = ""
        elif month := month_at(raw, i):
            day = raw[i + 1] if i + 1 < len(raw) else ""
            if day.isdigit() and 1 <= int(day) <= 31:
                tokens.append(Token(f"date:{month}-{int(day)}", f"{word} {day}", "number"))
                i += 2
                continue
            tokens.append(Token(f"month:{month}", word, "number"))
        elif word in ",();:":
            tokens.append(Token(word, word, "mark"))
        elif lowered == "next" and i + 1 < len(raw) and (
                raw[i + 1].lower() in TIME_NOUNS | WEEKDAYS or month_at(raw, i + 1)):
            tokens.append(Token("next", word, "word", scope=True))  # "from next Monday": a
            # time to come, which the claim keeps (the word after it too, below)
        elif size := _bound_at(raw, i):
            bound_text = " ".join(raw[i:i + size])
            i += size
            continue
        elif lowered in ARTICLES:
            article = True  # never a claim of its own; a list's items read alike without them
            i += 1
            continue
        elif lowered.endswith("n't") or lowered == "cannot":
            modal = _CONTRACTED.get(lowered, lowered[:-3])
            if modal in QUALIFIERS:  # "cannot" is "can" + "not": the modal is still said
                tokens.append(Token(modal, modal, "qualifier"))
                tokens.append(Token("not", "not", "negation"))
            elif modal in BE:  # "isn't" is "is not"
                tokens.append(Token(modal, modal, "function"))
                tokens.append(Token("not", "not", "negation"))
            else:
                tokens.append(Token("not", word, "negation"))
        elif size := _says_is_at(raw, i):  # "lies in" says "is in", "took place on" "was on"
            said_as = "was" if lowered == "took" else "is"  # the one past _PLACE_VERBS holds
            tokens.append(Token(said_as, " ".join(raw[i:i + size]), "function"))
            i += size
            article = False
            continue
        elif size := _condition_at(raw, i):  # "as long as", "subject to": an "if"
            tokens.append(Token("if", " ".join(raw[i:i + size]), "qualifier"))
            i += size
            article = False
            continue
        elif size := _not_yet_at(raw, i, tokens):  # "was about to launch", "was to have opened"
            tokens.append(Token(" ".join(raw[i:i + size]).lower(), " ".join(raw[i:i + size]),
                                "qualifier"))
            i += size
            article = False
            continue
        elif _used_to(raw, i, tokens):
            tokens.append(Token("used to", f"{word} {raw[i + 1]}", "qualifier"))
            i += 2
            article = False
            continue
        else:
            # a capitalised first word before another is part of a name ("South Park")
            # ... unless it is a condition ("If Fu Manchu formed ...", not "Will Smith")
            named = not tokens and i + 1 < len(raw) and raw[i + 1][:1].isupper() and (
                lowered not in CONDITIONS)
            token = _word(word, first=not tokens and not named)
            if i + 1 < len(raw) and raw[i + 1].lower() == "than":
                token = _compared(token)
            if article and token.kind == "word" and named is False and _title(raw, i):
                token = replace(token, detail=True)  # "the engineer Gustave Eiffel"
            elif _weekday_of_date(raw, i) or i in detailed:
                token = replace(token, detail=True)  # "Monday, 6 May": the date says it
            if token.kind == "word" and i + 1 < len(raw) and reports(word, raw[i + 1],
                                                                   raw[i - 1] if i else ""):
                token = replace(token, form=f"{REPORTED}{token.form}", kind="qualifier")
            elif i == attributed:  # "..., the company reported.": its word, not a fact
                token = replace(token, form=f"{ATTRIBUTED}{token.form}", kind="qualifier")
            tokens.append(replace(token, opened=True) if article and token.content else token)
        article = False
        i += 1
    for k in range(1, len(tokens)):
        if tokens[k - 1].scope and tokens[k - 1].form == "next":
            tokens[k] = replace(tokens[k], scope=True)
    return _in_time_order(tokens)


def _attribution(raw: list[str]) -> int | None:
    """The place of the verb of an attribution that ends a sentence after a comma: a subject of
    a few words, a verb in the past or the present, then at most its object and a time or place
    ("..., the company reported", "..., managers told staff on Friday", "..., its owner
    boasts"). Whatever the verb (a new one is read so too), the statement before it is the
    subject's word; not a finding ("..., the study found", the cue table's asserting heads),
    not a stretch that opens a clause of its own ("..., which ...", "..., and ...") or has no
    subject ("..., killing five", "..., built in 1901"), and not the main clause after a
    sentence's opening phrase ("When the lid is open, the pump stops")."""
    if "," not in raw:
        return None
    comma = len(raw) - 1 - raw[::-1].index(",")
    written = raw[comma + 1:]
    stretch = [w.lower() for w in written]
    if comma < 3 or not 2 <= len(stretch) <= _LONGEST_ATTRIBUTION or any(
            w in _OPENS_A_CLAUSE for w in stretch):
        return None
    before = raw[:comma]
    segment = [w.lower() for w in before[len(before) - before[::-1].index(","):]] if (
        "," in before) else [w.lower() for w in before]
    if not segment:
        return None  # ", ,": no clause between the marks
    opening = segment[1] if len(segment) > 1 and segment[0] in COORDINATORS else segment[0]
    if (opening in _OPENS_A_CLAUSE or opening in CONDITIONS or opening in PREPOSITIONS
            or opening.endswith(("ing", "ed"))):
        return None  # "When the lid is open, the pump stops", "..., and if it rains, the
        # garden closes": the clause after the comma is the sentence's own
    if not any(w in AUXILIARIES or w in MODALS or _verb_like(w) for w in raw[1:comma]):
        return None  # "Sadly, however, the museum closed", "On Monday, 6 May 2024, the ferry
        # resumed": no statement before it (a capital "May" is the month)
    start = 1 if stretch[0] in ARTICLES or stretch[0] in POSSESSIVES else 0
    for verb in range(min(start + 3, len(stretch) - 1), start, -1):  # the latest verb first:
        # "local residents reported" has its verb after a plural noun
        subject, rest = stretch[start:verb], written[verb + 1:]
        if (_verb_like(written[verb]) and len(rest) <= 4 and not any(map(_verb_like, rest))
                and all(w.replace("'", "").isalpha() and w not in FUNCTION_WORDS
                        and not w.endswith("ing") for w in subject)):
            return comma + 1 + verb
    return None


_LONGEST_ATTRIBUTION = 9  # words: a subject of three, a verb, an object and a time
_OPENS_A_CLAUSE = RELATIVES | SUBORDINATORS | CLAUSE_OPENERS | COORDINATORS


def _verb_like(word: str) -> bool:
    """Whether ``word`` as written may be a verb that tells of what was said: a past
    ("reported", "told") or a present ("says") in lower case, not a finding ("found",
    "shows")."""
    return word[:1].islower() and (
        word.endswith("ed") or word in IRREGULAR or word.endswith("s") and not
        word.endswith("ss") and len(word) > 3) and not ASSERTING_HEADS.fullmatch(word)


def _utc(zone: str) -> bool:
    """Whether a timestamp's zone ("Z", "+00:00", "+02:00") is UTC."""
    return zone == "Z" or not any(digit != "0" for digit in zone if digit.isdigit())


def _in_time_order(tokens: list[Token]) -> list[Token]:
    """A time of day, a day and its year said together, in one order however they were
    written ("at 2:30 pm on November 5, 2024", "2024-11-05T14:30"): the time, the day, the
    year, so that two texts naming one moment align, and a claim of the time alone or of the
    day alone leaves nothing out between its words. Only those values move; the words between
    them ("at", "on", a comma) stay where they stand, and a mark that ends a clause (";", ":")
    ends the run."""
    out = list(tokens)
    run: list[tuple[int, int]] = []  # the run's values: (place, rank)
    for k, token in enumerate([*tokens, Token("", "", "end")]):
        rank = _when_rank(token, tokens[run[-1][0]] if run else None)
        if rank is not None:
            run.append((k, rank))
            continue
        if run and (token.text == "," or token.form in ("at", "on", "of")) and k < len(tokens):
            continue
        if {_TIME, _DAY} <= {r for _, r in run}:
            ordered = sorted(run, key=lambda value: value[1])
            for (j, _), (i, _) in zip(run, ordered, strict=True):
                out[j] = tokens[i]
        run = []
    return out


_TIME, _DAY, _YEAR = 0, 1, 2  # a moment's values, in the order ``_in_time_order`` puts them


def _when_rank(token: Token, before: Token | None) -> int | None:
    """Where ``token`` stands in a moment (``_in_time_order``): a time of day, a day, or the
    year after a day (``before``, the run's last value); None for anything else."""
    if token.form.startswith("time:"):
        return _TIME
    if token.form.startswith(("date:", "month:")):
        return _DAY
    if (re.fullmatch(r"#(?:1\d{3}|20\d{2})", token.form) and before is not None
            and before.form.startswith(("date:", "month:"))):
        return _YEAR
    return None


def _weekday_of_date(raw: list[str], i: int) -> bool:
    """Whether ``raw[i]`` names the weekday of the date after it ("Monday, 6 May 2024",
    "Monday, May 6"): a day of the month with its month, not a time ("Monday 9 to 5")."""
    k = i + 2 if i + 1 < len(raw) and raw[i + 1] == "," else i + 1
    after = raw[k] if k < len(raw) else ""
    month_after = k + 1 < len(raw) and raw[k + 1].lower().rstrip(".") in MONTH_OF
    return len(raw[i]) > 3 and raw[i].lower() in WEEKDAYS and (
        after.lower().rstrip(".") in MONTH_OF
        or after.isdigit() and 1 <= int(after) <= 31 and month_after)


def _says_is_at(raw: list[str], i: int) -> int:
    """How many words from ``raw[i]`` are a verb of ``_PLACE_VERBS`` before a place word; 0 if
    none."""
    for size in (1, 2):
        if i + size < len(raw) and raw[i + size].lower() in _PLACE and (
                "_".join(raw[i:i + size]).lower() in _PLACE_VERBS):
            return size
    return 0


def _condition_at(raw: list[str], i: int) -> int:
    """How many words from ``raw[i]`` say "if" another way ("as long as", "subject to",
    "weather permitting", "pending"); 0 if none."""
    for phrase in CONDITION_PHRASES:
        if [w.lower() for w in raw[i:i + len(phrase)]] == list(phrase):
            return len(phrase)
    return 0


def _not_yet_at(raw: list[str], i: int, tokens: list[Token]) -> int:
    """How many words from ``raw[i]`` say that what follows had not happened: "about to" before
    a verb ("was about to launch"), "to have" or "to be" after "be" ("was to have opened", "is to
    be built"), "to" between
    "be" and a verb ("was to open", "is to take place": a plan); 0 if none."""
    pair = [w.lower() for w in raw[i:i + 2]]
    verb_after = i + 2 < len(raw) and raw[i + 2].isalpha() and (
        raw[i + 2].lower() not in FUNCTION_WORDS or pair == ["to", "have"])
    if pair == ["about", "to"] and verb_after:
        return 2
    after_be = bool(tokens) and tokens[-1].form in BE
    if pair in (["to", "have"], ["to", "be"]) and after_be and verb_after:
        return 2  # "was to have opened", "was to be directed by": planned, not done
    if pair[:1] == ["to"] and after_be and len(raw) > i + 1 and raw[i + 1].isalpha() and (
            raw[i + 1].lower() not in FUNCTION_WORDS):
        return 1
    return 0


def _used_to(raw: list[str], i: int, tokens: list[Token]) -> bool:
    """Whether ``raw[i]`` opens "used to" before a verb, a past that no longer holds ("He used
    to live in Paris" does not state "He lives in Paris", nor "used to be owned by" that it is
    owned): a qualifier. Not after "be" ("is used to cut", "was used to it")."""
    after = raw[i + 2].lower() if i + 2 < len(raw) else ""
    return (raw[i].lower() == "used" and bool(after) and raw[i + 1].lower() == "to" and after.isalpha()
            and (after not in FUNCTION_WORDS or after in ("be", "have"))
            and not (tokens and tokens[-1].form in BE))


def _title(raw: list[str], i: int) -> bool:
    """Whether the lower-case word ``raw[i]``, after an article, stands before a name as its
    title ("the engineer Gustave Eiffel"), which a claim may leave out; never a word that
    changes what the title after it is ("the former CEO", "the acting President")."""
    return (raw[i].islower() and i + 1 < len(raw) and raw[i + 1][:1].isupper()
            and raw[i] not in TITLE_CHANGERS)


def _range_at(raw: list[str], i: int) -> tuple[int, Token] | None:
    """The range of two whole numbers that starts at ``raw[i]`` ("between 1887 and 1889",
    "from 1887 to 1889", "1887-1889", "10 to 12", "between €20 and €45", "€20-€45"), as how
    many words it takes and its token; None if none. A currency sign on either end is the
    range's; two different ones make none."""
    opener = raw[i].lower()
    if opener in _RANGE_OPENERS:
        low = _signed(raw, i + 1)
        if low is None or low[0] >= len(raw) or raw[low[0]].lower() not in _RANGE_OPENERS[opener]:
            return None
        high = _signed(raw, low[0] + 1)
    else:
        low = _signed(raw, i)
        if low is None:
            return None
        at = low[0] + 1 if low[0] < len(raw) and raw[low[0]].lower() == "to" else low[0]
        high = _signed(raw, at)  # "1887-1889" (the dash is no word), "10 to 12"
        if high is None or not low[1] < high[1]:
            return None  # side by side, a range only rising
    if high is None or not math.isfinite(high[1]) or None not in (low[2], high[2]) and \
            low[2] != high[2]:
        return None
    currency = low[2] or high[2]
    form = f"range:{low[1]:.15g}-{high[1]:.15g}" + (f"/{currency}" if currency else "")
    return high[0] - i, Token(form, " ".join(raw[i:high[0]]), "number")


def _signed(raw: list[str], j: int) -> tuple[int, float, str | None] | None:
    """A whole number at ``raw[j]``, a currency sign before it allowed: (the index after it,
    its value, the currency or None)."""
    currency = money.sign(raw[j]) if j < len(raw) else None
    j += currency is not None
    if j >= len(raw) or not _WHOLE.fullmatch(raw[j]):
        return None
    return j + 1, _value(raw[j]), currency


def _decade_at(raw: list[str], i: int) -> bool:
    """Whether ``raw[i]`` and the "s" after it are a decade ("1990s", "1880s")."""
    return (i + 1 < len(raw) and raw[i + 1] == "s" and len(raw[i]) == 4 and raw[i].isdigit()
            and raw[i].endswith("0") and 1000 <= int(raw[i]) <= 2100)


def _value(digits: str) -> float:
    """The number ``digits`` write ("1,500.5"), or NaN where they write none ("30:00")."""
    try:
        return float(digits.replace(",", ""))
    except ValueError:
        return math.nan


_WHOLE = re.compile(r"\d+(?:,\d{3})*")


def _bound_at(raw: list[str], i: int) -> int:
    """How many words of ``raw`` from ``i`` are a hedge or bound that a number follows ("more
    than 40,000", "about $5 million"); 0 if none."""
    for size in range(quantities.LONGEST_BOUND, 0, -1):
        phrase = " ".join(raw[i:i + size]).lower()
        after = raw[i + size:i + size + 2]
        if phrase in quantities.BOUND_WORDS and after and (after[0][0].isdigit() or (
                money.sign(after[0]) is not None and len(after) > 1
                and after[1][0].isdigit())):
            return size
    return 0


def _number(raw: list[str], i: int, bound_text: str, tokens: list[Token], text: str,
            spans: list[tuple[int, int]]) -> int:
    """The number at ``raw[i]`` as ``quantities.read_number`` reads it, appended to ``tokens``
    (a currency sign before it taken into it; a bound read as no bound put back as a word);
    the index of its last word."""
    number = quantities.read_number(raw, i, bound_text, source=text, spans=spans)
    assert number is not None  # raw[i] starts with a digit, or is a number word before a unit
    if number.first < i and tokens and tokens[-1].text == raw[number.first]:
        tokens.pop()  # "$": read into the number
    found = number.amount
    if bound_text and not found.phrase:
        tokens.append(_word(bound_text, first=False))  # "over 20 years": maybe "during"
    # a word between the number and its unit ("5 business days") is a word of its own, read
    # before the number, where a claim that leaves it out leaves a gap
    if found.unit in quantities.TIME_UNITS:
        tokens.extend(_word(raw[k], first=False) for k in range(i + 1, number.last)
                      if raw[k].isalpha() and raw[k].lower() not in quantities.UNITS
                      and raw[k].lower() not in quantities.SCALES)
    tokens.append(Token(f"#{found.value:g}", found.text, "number", amount=found))
    return number.last


def _word(word: str, first: bool) -> Token:
    lowered = word.lower()
    form = bare(word)
    if word[0].isupper() and not first and lowered not in FUNCTION_WORDS:
        return Token(form, word, "name")  # "Not Ready for Prime Time Players" is a name
    if lowered in NEGATIONS or lowered.endswith("n't"):
        return Token("not", word, "negation")
    if lowered in _SAID_SO:  # "says", "told", "according to": one attribution
        return Token("say", word, "qualifier")
    if lowered in UNASSERTING:  # "denied", "denies": one form
        return Token(snowball(IRREGULAR.get(lowered, lowered)), word, "qualifier")
    if lowered in QUALIFIERS:
        return Token(_SAME_QUALIFIER.get(lowered, lowered), word, "qualifier")
    if lowered in quantities.HEDGES:  # "about the tower": a preposition
        return Token(lowered, word, "function")
    if lowered in FUNCTION_WORDS:
        return Token(lowered, word, "function")
    named = concepts(lowered)
    if named:
        concept, second = named[0]
        return Token(concept, word, "word", pole=int(second))
    return Token(snowball(IRREGULAR.get(form, form)), word, "word")


def _compared(token: Token) -> Token:
    """``token`` before "than" read on the concept of its adjective where it has another as a
    verb ("lower than" on "high" and "low", as "lowest" is, not on "increase" and "lower")."""
    lowered = token.text.lower()
    named = concepts(lowered)
    if len(named) < 2 or not lowered.endswith("er"):
        return token
    adjective = next((c for c in named if c in concepts(f"{lowered[:-2]}est")), None)
    return token if adjective is None else replace(token, form=adjective[0],
                                                    pole=int(adjective[1]))


def bare(text: str) -> str:
    return re.sub(r"'s$", "", text.lower())


def _after_number(tokens: list[Token]) -> bool:
    return bool(tokens) and tokens[-1].kind == "number"


# a relative clause's start ("that" opens a clause of what is said as often)
_RELATIVE_OPENERS = RELATIVES - {"that"} | {"where"}


def _mark_asides(tokens: list[Token]) -> list[Token]:
    """Number the parentheticals (brackets; ", which ... ," and a trailing ", which ..."; a
    comma pair round a phrase) and the lists ("A, B and C"), so the alignment may skip the one
    and reorder the other."""
    out, aside, number = [], 0, 0
    depth = 0
    for i, token in enumerate(tokens):
        if token.text == "(":
            depth += 1
            number += 1
            aside = number
            continue
        if token.text == ")":
            depth = max(0, depth - 1)
            aside = 0 if not depth else aside
            continue
        if token.text == "," and weekday_comma(tokens, i):
            continue  # "Monday, 3 June 2024": the weekday of the date, no aside
        if token.text == "," and not depth:
            closing = next((j for j in range(i + 1, len(tokens)) if tokens[j].text == ","), None)
            if aside:  # a comma ends an aside opened by a comma
                aside = 0
                continue
            relative = i + 1 < len(tokens) and tokens[i + 1].form in _RELATIVE_OPENERS
            if (closing is not None and (relative or not _is_list(tokens, i, closing))) or (
                    closing is None and relative):  # ", which ...," or to the clause's end
                number += 1
                aside = number
                continue
            out.append(token)  # a list's comma: the lists are read next
            continue
        out.append(replace(token, aside=aside))
    return out


def _is_list(tokens: list[Token], start: int, end: int) -> bool:
    """Whether the comma at ``start`` and the next at ``end`` separate list items: the stretch
    after ``end`` runs into "and"/"or" before any verb-like function word."""
    for token in tokens[end + 1:]:
        if token.form in ("and", "or"):
            return True
        if token.text == "," or token.form in BE:
            return False
    return False


def _mark_lists(tokens: list[Token]) -> list[Token]:
    """A list "X, Y and Z" (or "X and Y") put in one order (its items sorted), so that a
    list and the same list reordered read alike; each item's tokens carry the list's number.
    A list of alternatives ("X or Y") ends with a mark of its own (``ALTERNATIVES``): what is
    said of one of them is not said of each. Two items with ", or" are one thing's two names
    ("al Qaeda in the Arabian Peninsula, or AQAP,").
    The first item is the word before the first comma (what precedes it belongs to the
    sentence); the last runs to the next function word."""
    out, number = [t for t in tokens], 0
    n = 0
    while n < len(out):
        if out[n].form not in ("and", "or") or not 0 < n < len(out) - 1:
            n += 1
            continue
        start = n - 1
        while start >= 2 and out[start - 1].text == "," and out[start - 2].content:
            start -= 2
            while start > 0 and out[start - 1].content and out[start - 1].text != "," and (
                    out[start - 2].text == "," if start >= 2 else False):
                start -= 1
        end = n + 1
        while end < len(out) and out[end].content and (end == n + 1 or not has_verb([out[end]])):
            end += 1  # to the next function word or verb: "..., Germany and Italy signed"
        items: list[list[Token]] = []
        current: list[Token] = []
        for token in out[start:end]:
            if token.text == "," or token.form in ("and", "or"):
                items.append(current)
                current = []
            else:
                current.append(token)
        items.append(current)
        numbered = any(t.kind == "number" for item in items for t in item)
        if not all(items) or not all(t.content for item in items for t in item) or (
                out[n].form == "and" and numbered and not all(
                    item[0].kind == "number" for item in items)):  # "20 metres wide and the tower 40
            # metres tall": a clause with its verb left out, no list
            n += 1
            continue
        number += 1
        ordered = [replace(t, listed=number)
                   for item in sorted(items, key=lambda i: [t.form for t in reversed(i)])
                   for t in item]
        # "al Qaeda in the Arabian Peninsula, or AQAP, ...": one thing's two names
        alias = len(items) == 2 and (out[n - 1].text == "," or out[n + 1].aside != out[n - 1].aside)
        if any(t.form == "or" for t in out[start:end]) and not alias:
            ordered.append(Token(ALTERNATIVES, "or", ALTERNATIVES, listed=number,
                                 aside=out[n - 1].aside))
        out[start:end] = ordered
        n = start + len(ordered)
    return [t for t in out if t.text != ","]
