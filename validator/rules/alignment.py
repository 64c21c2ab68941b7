"""Support by alignment: a claim is supported only when one evidence clause states it.

Each text is read into *clauses* of tokens (``read``): words by their Snowball stem, names as
written, numbers by value (written-out numbers and scales read: "1.5 million" is 1500000),
units and dates in one spelling, opposites ("closed") as a concept and a pole, negations
counted. Two restatements are undone as the text is read, so that both spellings give the same
tokens: the passive ("the tower was designed by Eiffel" reads as "Eiffel designed the tower")
and the possessive ("Paris's population" reads as "population of Paris").

A claim clause *aligns* with an evidence clause when every content word of it (names, numbers,
quantifiers, modal verbs, comparatives, words of time order, cause and condition) is matched
there, in the claim's order, and what the evidence clause says between the matched words is
only function words, a parenthetical left out (an apposition, a relative clause, brackets) or a
list the claim reorders. The evidence clause may say more before and after, but not a
qualifier the claim leaves out ("may", "some", "only", "if"...), and its negations and
opposites must come out the same way round. Words all present but not aligned are not
support: "The sun rises in the west" does not align with "The sun rises in the east and sets
in the west", where "rises" goes with "east".

An *explicit conflict* is a clause that aligns but for one slot, where the evidence gives
another number, date, unit or name, or says it the other way round (a negation or an
opposite): the one kind of mismatch the rules call a contradiction.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from importlib.resources import files

from ..storage import MiB, memoize
from ..text.citations import MARKER
from ..text.sentences import split_sentences
from ..text.word_forms import MONTH_OF, with_digits
from . import quantities
from .quantities import Amount
from .word_lists import NEGATIONS, concepts

# Words that carry no claim of their own: skipped where the evidence has them, not required
# where the claim has them. Negations, qualifiers and opposites are read apart.
FUNCTION_WORDS = frozenset(
    """a an the this that these those it its they them their he him his she her we our you your
    i me my is are was were be been being am has have had having do does did doing of to in on
    at by for with from as into onto upon there here which who whom whose what also just very
    and or nor then than too located situated""".split())
# Words whose presence changes what a statement claims: the evidence's must be in the claim
# too (the evidence says "may cause", the claim "causes": not the same statement).
QUALIFIERS = frozenset(
    """may might could can should must would will shall cannot some most many few several
    all every each always sometimes often usually rarely seldom occasionally only if unless
    nearly almost over under reportedly allegedly possibly probably likely perhaps
    """.split())
# Tokens that end a clause: a qualifier or negation beyond them belongs to another statement.
BOUNDARIES = frozenset(";:") | frozenset(
    "but whereas while although though however yet unless because".split())
_BE = frozenset("is are was were been being be".split())
_AUXILIARIES = _BE | frozenset("has have had do does did".split())
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9}
_UNITS = {
    "m": "metre", "meter": "metre", "meters": "metre", "metre": "metre", "metres": "metre",
    "km": "kilometre", "kilometer": "kilometre", "kilometers": "kilometre",
    "kilometre": "kilometre", "kilometres": "kilometre", "cm": "centimetre",
    "centimetres": "centimetre", "centimeters": "centimetre", "mm": "millimetre",
    "millimetres": "millimetre", "millimeters": "millimetre", "ft": "foot", "feet": "foot",
    "foot": "foot", "inches": "inch", "inch": "inch", "yards": "yard", "yard": "yard",
    "mi": "mile", "mile": "mile", "miles": "mile", "kg": "kilogram", "kilograms": "kilogram",
    "kilogram": "kilogram", "grams": "gram", "gram": "gram", "tonnes": "tonne", "tonne": "tonne",
    "seconds": "second", "minutes": "minute", "hours": "hour", "hour": "hour", "days": "day",
    "weeks": "week", "months": "month", "percent": "%", "%": "%", "$": "usd", "usd": "usd",
    "dollars": "usd", "dollar": "usd", "€": "eur", "eur": "eur", "euros": "eur", "euro": "eur",
    "£": "gbp", "gbp": "gbp", "pounds": "gbp", "years": "year", "year": "year", "yrs": "year",
}
_CURRENCY_SIGNS = frozenset("$€£")
_SAME_QUALIFIER = {"every": "each"}  # qualifiers that say the same of each member
PASSIVE = "/passive"  # the mark of a participle in the passive voice
ARTICLES = frozenset(("a", "an", "the"))
# Prepositions that carry meaning (content words) and end a noun phrase ("company between").
_PREPOSITIONS = frozenset("between until till dure sinc ~before ~after through across within "
                          "against among toward towards".split())
# Verbs of place read as "is" before a preposition of place: "lies in", "sits on", "stands at".
_PLACE_VERBS = frozenset("lie lies lying sit sits sitting stand stands standing".split())
_PLACE = frozenset(("in", "on", "at"))
# Words that open an event a date ends: "until the Chrysler Building was finished in 1930".
_EVENT_WORDS = frozenset(("until", "till", "before", "after", "since"))
_RANGE_OPENERS = {"between": ("and",), "from": ("to", "until", "till", "through")}
MAX_CELLS = 250_000  # claim tokens x evidence tokens one alignment may compare
_CONTRACTED = {"cannot": "can", "can't": "can", "won't": "will", "shan't": "shall"}
_PRONOUNS = frozenset("it they he she this".split())
_TOKEN = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|[^\W\d_][^\W_]*(?:['’][^\W\d_]+)*|[%$€£;:,()]")
_OPEN, _CLOSE = frozenset("(,"), frozenset("),")


@dataclass(frozen=True)
class Token:
    form: str  # what is compared: a stem, a name, "#330", "~open"
    text: str  # as written
    kind: str  # "word", "name", "number", "function", "qualifier", "negation", "mark"
    pole: int = 0  # 1: the second pole of an opposite ("closed" for "~open")
    aside: int = 0  # > 0 inside a parenthetical (brackets, commas, a relative clause)
    listed: int = 0  # > 0 inside a list "A, B and C": its number
    amount: Amount | None = None  # a number's value, unit, precision and hedge or bound
    detail: bool = False  # a title before a name ("the engineer Gustave Eiffel"): may be left out

    @property
    def content(self) -> bool:
        return self.kind in ("word", "name", "number", "qualifier")


Clause = tuple[Token, ...]


@dataclass(frozen=True)
class Alignment:
    """How one claim clause lines up with one evidence clause."""

    matched: int  # claim content tokens matched in order
    needed: int  # claim content tokens
    missing: tuple[Token, ...]  # claim tokens not matched
    conflict: tuple[str, str] | None  # (kind, reason) of an explicit conflict
    blocked: str | None  # why it does not align though every word is matched
    evidence: str  # the evidence clause, as written
    instead: tuple[tuple[Token, Token], ...] = ()  # (claim word, the evidence's in its slot)

    @property
    def aligned(self) -> bool:
        return self.matched == self.needed and self.conflict is None and self.blocked is None


@memoize(4096, 16 * MiB, bytes_per_char=48)
def read(text: str) -> tuple[Clause, ...]:
    """The clauses of ``text``: each sentence, cut at clause boundaries, a pronoun that opens
    one read as the subject of the sentence before; restatements undone."""
    clauses: list[Clause] = []
    previous: Clause | None = None
    for sentence in split_sentences(MARKER.sub(" ", text)):
        read_here = list(_clauses(sentence.text))
        first = read_here[0] if read_here else None
        if first and previous and first[0].text.lower() in _PRONOUNS and len(first) > 1:
            # "The Louvre is a museum. It houses the Mona Lisa.": "It" is the Louvre
            named = _shared_subject(previous, list(first[1:]))
            if named:
                read_here[0] = tuple(named)
        if read_here:
            previous = read_here[0]
        clauses += [_restated(c) for c in read_here]
    return tuple(clauses)


@lru_cache(maxsize=1 << 14)
def _restated(clause: Clause) -> Clause:
    """``clause`` with its possessives and its passive put the one way both spellings read."""
    return tuple(_passive(_possessive(list(clause))))


@memoize(4096, 16 * MiB, bytes_per_char=48)
def _clauses(sentence: str) -> tuple[Clause, ...]:
    tokens = _tokens(with_digits(sentence).replace("’", "'"))
    pieces, current = [], []
    for token in tokens:
        if token.kind == "mark" and token.text in ";:" or token.form in BOUNDARIES:
            if current:
                pieces.append(current)
            current = [token] if token.form in BOUNDARIES else []
        else:
            current.append(token)
    if current:
        pieces.append(current)
    clauses = []
    for n, piece in enumerate(pieces):
        piece = _mark_asides(_fronted(piece))
        if n and clauses and piece and piece[0].form in BOUNDARIES:
            piece = piece[1:]
        if n and clauses and piece:
            if piece[0].text.lower() in _PRONOUNS and len(piece) > 1:
                piece = _shared_subject(clauses[0], piece[1:]) or piece  # "it" is the subject
            else:
                piece = _shared_subject(clauses[0], piece) or piece
        clauses += _coordinated(piece)
    return tuple(tuple(_comparative(_mark_events(_voiced(_mark_lists(c))))) for c in clauses if c)


def _voiced(tokens: list[Token]) -> list[Token]:
    """A participle after a form of "be" with an object of its own marked passive ("the
    tenant must be given notice" is not "the tenant must give notice"; "it was opened in
    1889" is left as "it opened in 1889"); the passive with its agent is read as active
    later, and loses the mark."""
    out = list(tokens)
    for k, token in enumerate(out):
        before = k - 1
        while before >= 0 and out[before].kind == "negation":
            before -= 1
        retained = k + 1 < len(out) and out[k + 1].content  # "given notice", "charged a fee"
        if before >= 0 and out[before].form in _BE and _participle(token) and retained:
            out[k] = replace(token, form=f"{token.form}{PASSIVE}")
    return out


def _coordinated(tokens: list[Token]) -> list[list[Token]]:
    """"The sun rises in the east and sets in the west" as two clauses, the second with the
    first's subject: "and" followed by a verb-like word ("sets", "opened") that a word of the
    first clause matches in form, after its subject."""
    for n, token in enumerate(tokens):
        if token.form != "and" or token.aside or not 0 < n < len(tokens) - 1:
            continue
        verb, before = tokens[n + 1], tokens[n - 1]
        if verb.kind != "word" or not _suffix(verb) or _suffix(before) == _suffix(verb):
            continue
        second = _shared_subject(tokens[:n], tokens[n + 1:])
        if second:
            return [tokens[:n], *_coordinated(second)]
    return [tokens]


def _shared_subject(first: Sequence[Token], rest: list[Token]) -> list[Token] | None:
    """``rest`` (a clause with no subject of its own: it starts with its verb) with the subject
    of ``first``; None when ``rest`` has its own or ``first``'s cannot be told."""
    if not rest:
        return None
    auxiliary = rest[0].form in _AUXILIARIES or rest[0].kind in ("qualifier", "negation")
    if not auxiliary and (rest[0].kind != "word" or not _suffix(rest[0])):
        return None
    for k, token in enumerate(first):
        verb_like = token.form in _AUXILIARIES or token.kind == "qualifier" or (
            token.kind == "word" and _suffix(token)
            and (auxiliary or _suffix(token) == _suffix(rest[0])))
        if verb_like:
            subject = list(first[:k])
            if token.form in _BE and not auxiliary and _participle(rest[0]):
                subject.append(token)  # "was bought and restored by": "was restored by"
            return [*subject, *rest] if any(t.content for t in subject) else None
    return None


def _suffix(token: Token) -> str:
    word = token.text.lower()
    if token.kind != "word":
        return ""
    for ending in ("ed", "ing", "es", "s"):
        if word.endswith(ending) and not word.endswith("ss") and len(word) > len(ending) + 2:
            return "s" if ending == "es" else ending
    return ""


def _tokens(text: str) -> list[Token]:
    raw = _TOKEN.findall(text)
    tokens: list[Token] = []
    bound_text = ""  # a hedge or bound read before a number ("about", "more than")
    article = False  # the word before was an article
    i = 0
    while i < len(raw):
        word = raw[i]
        lowered = word.lower()
        if not bound_text and (size := _range_at(raw, i)):
            tokens.append(_range(raw, i, size))
            i += size
            article = False
            continue
        if word[0].isdigit() and not math.isfinite(_value(word)):
            tokens.append(Token(word, word, "word"))  # hundreds of digits: no number to compare
        elif word[0].isdigit():
            value = float(word.replace(",", ""))
            nxt = raw[i + 1].lower() if i + 1 < len(raw) else ""
            month = MONTH_OF.get(nxt.rstrip(".")) if value == int(value) <= 31 else None
            if month and not bound_text:  # "14 July" is "July 14"
                tokens.append(Token(f"date:{month}-{int(value)}", f"{word} {raw[i + 1]}",
                                    "number"))
                i += 2
                continue
            i, token = _number(raw, i, bound_text, tokens)
            tokens.append(token)
            bound_text = ""
        elif lowered.rstrip(".") in MONTH_OF and (lowered != "may" or _day_after(raw, i)):
            month = MONTH_OF[lowered.rstrip(".")]
            day = raw[i + 1] if i + 1 < len(raw) else ""
            if day.isdigit() and 1 <= int(day) <= 31:
                tokens.append(Token(f"date:{month}-{int(day)}", f"{word} {day}", "number"))
                i += 2
                continue
            tokens.append(Token(f"month:{month}", word, "number"))
        elif lowered in _UNITS and (lowered not in ("m", "$", "€", "£") or _after_number(tokens)
                                    or lowered in "$€£"):
            tokens.append(Token(f"unit:{_UNITS[lowered]}", word, "word"))
        elif word in ",();:":
            tokens.append(Token(word, word, "mark"))
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
            elif modal in _BE:  # "isn't" is "is not"
                tokens.append(Token(modal, modal, "function"))
                tokens.append(Token("not", "not", "negation"))
            else:
                tokens.append(Token("not", word, "negation"))
        elif lowered in _PLACE_VERBS and i + 1 < len(raw) and raw[i + 1].lower() in _PLACE:
            tokens.append(Token("is", word, "function"))  # "lies in" says "is in"
        else:
            # a capitalised first word before another is part of a name ("South Park")
            named = not tokens and i + 1 < len(raw) and raw[i + 1][:1].isupper()
            token = _word(word, first=not tokens and not named)
            if article and token.kind == "word" and named is False and _title(raw, i):
                token = replace(token, detail=True)  # "the engineer Gustave Eiffel"
            tokens.append(token)
        article = False
        i += 1
    return tokens


def _title(raw: list[str], i: int) -> bool:
    """Whether the lower-case word ``raw[i]``, after an article, stands before a name as its
    title ("the engineer Gustave Eiffel")."""
    return raw[i].islower() and i + 1 < len(raw) and raw[i + 1][:1].isupper()


def _range_at(raw: list[str], i: int) -> int:
    """How many words from ``raw[i]`` are a range of two whole numbers ("between 1887 and
    1889", "from 1887 to 1889", "1887-1889"); 0 if none."""
    opener = raw[i].lower()
    if (opener in _RANGE_OPENERS and i + 3 < len(raw) and _WHOLE.fullmatch(raw[i + 1])
            and raw[i + 2].lower() in _RANGE_OPENERS[opener] and _WHOLE.fullmatch(raw[i + 3])
            and math.isfinite(_value(raw[i + 3]))):
        return 4
    if (i + 1 < len(raw) and _WHOLE.fullmatch(raw[i]) and _WHOLE.fullmatch(raw[i + 1])
            and _value(raw[i]) < _value(raw[i + 1]) < math.inf):
        return 2  # two numbers side by side, rising: a dash between them ("1887-1889")
    return 0


def _value(digits: str) -> float:
    return float(digits.replace(",", ""))


_WHOLE = re.compile(r"\d+(?:,\d{3})*")


def _range(raw: list[str], i: int, size: int) -> Token:
    low, high = (float(raw[i + k].replace(",", "")) for k in ((1, 3) if size == 4 else (0, 1)))
    return Token(f"range:{low:g}-{high:g}", " ".join(raw[i:i + size]), "number")


def _bound_at(raw: list[str], i: int) -> int:
    """How many words of ``raw`` from ``i`` are a hedge or bound that a number follows ("more
    than 40,000", "about $5 million"); 0 if none."""
    for size in range(quantities.LONGEST_BOUND, 0, -1):
        phrase = " ".join(raw[i:i + size]).lower()
        after = raw[i + size:i + size + 2]
        if phrase in quantities.BOUND_WORDS and after and (after[0][0].isdigit() or (
                after[0] in _CURRENCY_SIGNS and len(after) > 1 and after[1][0].isdigit())):
            return size
    return 0


def _number(raw: list[str], i: int, bound_text: str,
            tokens: list[Token]) -> tuple[int, Token]:
    """The number at ``raw[i]`` with its scale, its unit (a currency sign before it, a unit
    word after it) and the hedge or bound before it; and the index of its last word."""
    digits, scale, unit = raw[i], 1.0, None
    words = [digits]
    if tokens and tokens[-1].form.startswith("unit:") and tokens[-1].text in _CURRENCY_SIGNS:
        sign = tokens.pop()
        unit, words = sign.form[5:], [sign.text + digits]
    nxt = raw[i + 1].lower() if i + 1 < len(raw) else ""
    if nxt in _SCALE:
        scale = _SCALE[nxt]
        words.append(raw[i + 1])
        i += 1
        nxt = raw[i + 1].lower() if i + 1 < len(raw) else ""
    if unit is None and nxt in _UNITS and nxt not in _CURRENCY_SIGNS:
        unit = _UNITS[nxt]
        words.append(raw[i + 1])
        i += 1
    if bound_text and quantities.ambiguous(bound_text.lower(), unit):
        tokens.append(_word(bound_text, first=False))  # "over 20 years": maybe "during"
        bound_text = ""
    text = " ".join(filter(None, (bound_text, " ".join(words)))).replace(" %", "%")
    found = quantities.amount(digits, float(digits.replace(",", "")), scale=scale, unit=unit,
                              phrase=bound_text.lower(), text=text)
    return i, Token(f"#{found.value:g}", text, "number", amount=found)


def _word(word: str, first: bool) -> Token:
    lowered = word.lower()
    bare = _bare(word)
    if word[0].isupper() and not first and lowered not in FUNCTION_WORDS:
        return Token(bare, word, "name")  # "Not Ready for Prime Time Players" is a name
    if lowered in NEGATIONS or lowered.endswith("n't"):
        return Token("not", word, "negation")
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
    return Token(_stem(_IRREGULAR.get(bare, bare)), word, "word")


# Irregular past forms read as their verb, as Snowball reads the regular ones ("given" and
# "give", like "covered" and "cover"); forms that name an opposite are in word_lists.
_IRREGULAR = {form: verb for verb, forms in (
    ("give", "gave given"), ("take", "took taken"), ("write", "wrote written"),
    ("make", "made"), ("build", "built"), ("pay", "paid"), ("sell", "sold"), ("hold", "held"),
    ("keep", "kept"), ("find", "found"), ("tell", "told"), ("know", "knew known"),
    ("show", "showed shown"), ("see", "saw seen"), ("begin", "began begun"),
    ("lead", "led"), ("meet", "met"), ("send", "sent"), ("spend", "spent"),
    ("bring", "brought"), ("teach", "taught"), ("choose", "chose chosen"),
    ("drive", "drove driven"), ("draw", "drew drawn"), ("eat", "ate eaten"),
    ("break", "broke broken"), ("speak", "spoke spoken"), ("steal", "stole stolen"),
    ("freeze", "froze frozen"), ("hide", "hid hidden"), ("ride", "rode ridden"),
    ("wear", "wore worn"), ("say", "said"), ("hear", "heard"), ("feel", "felt"),
    ("mean", "meant"), ("lay", "laid"), ("fly", "flew flown"), ("forget", "forgot forgotten"),
    ("sing", "sang sung"), ("swim", "swam swum"), ("throw", "threw thrown"),
    ("understand", "understood"), ("stand", "stood"), ("think", "thought"),
    ("catch", "caught"), ("seek", "sought"), ("fight", "fought"), ("buy", "bought"),
    ("grow", "grew grown"), ("rise", "rose risen"), ("fall", "fell fallen"), ("win", "won"),
    ("lose", "lost"), ("go", "went gone"), ("come", "came"), ("become", "became"),
    ("leave", "left"), ("run", "ran"), ("have", "had"), ("do", "did done"),
) for form in forms.split()}


def _bare(text: str) -> str:
    return re.sub(r"'s$", "", text.lower())


def _after_number(tokens: list[Token]) -> bool:
    return bool(tokens) and tokens[-1].kind == "number"


def _day_after(raw: list[str], i: int) -> bool:
    return i + 1 < len(raw) and raw[i + 1].isdigit()


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.snowball import EnglishStemmer  # no data files needed

    return EnglishStemmer()


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


def _mark_asides(tokens: list[Token]) -> list[Token]:
    """Number the parentheticals (brackets; ", which ... ,"; a comma pair round a phrase) and
    the lists ("A, B and C"), so the alignment may skip the one and reorder the other."""
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
        if token.text == "," and not depth:
            closing = next((j for j in range(i + 1, len(tokens)) if tokens[j].text == ","), None)
            if aside:  # a comma ends an aside opened by a comma
                aside = 0
                continue
            if closing is not None and not _is_list(tokens, i, closing):
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
        if token.text == "," or token.form in _BE:
            return False
    return False


def _mark_lists(tokens: list[Token]) -> list[Token]:
    """A list "X, Y and Z" (or "X and Y") put in one order (its items sorted), so that a
    list and the same list reordered read alike; each item's tokens carry the list's number.
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
        while end < len(out) and out[end].content:
            end += 1
        items, current = [], []
        for token in out[start:end]:
            if token.text == "," or token.form in ("and", "or"):
                items.append(current)
                current = []
            else:
                current.append(token)
        items.append(current)
        if not all(items) or not all(t.content for item in items for t in item):
            n += 1
            continue
        number += 1
        ordered = [replace(t, listed=number)
                   for item in sorted(items, key=lambda i: [t.form for t in i]) for t in item]
        out[start:end] = ordered
        n = start + len(ordered)
    return [t for t in out if t.text != ","]


def _fronted(tokens: list[Token]) -> list[Token]:
    """A clause's opening time or manner put at its end, where the plain order has it: "In
    2019 the company moved" as "the company moved in 2019", "Overnight, updates are installed"
    as "updates are installed overnight". Only a date or year after "in", "on", "during",
    or one word before a comma, and only before a clause of its own."""
    if len(tokens) < 4:
        return tokens
    if tokens[0].form in ("in", "on", "during") and _is_date(tokens[1]):
        size = 3 if tokens[2].text == "," else 2
    elif tokens[1].text == "," and _adverb(tokens[0]):
        size = 2
    else:
        return tokens
    rest = tokens[size:]
    if not has_verb(rest) or any(t.text == "," for t in rest[:2]):
        return tokens
    return rest + [t for t in tokens[:size] if t.text != ","]


def _adverb(token: Token) -> bool:
    """An adverb of time or manner ("overnight", "sadly"), not a subject before an
    apposition ("The film, made in 2005, ...") nor a place ("Uniondale, New York")."""
    word = token.text.lower()
    return token.kind == "word" and (word.endswith("ly") or word in _TIME_ADVERBS)


_TIME_ADVERBS = frozenset("overnight today yesterday tomorrow tonight now then later earlier "
                          "afterwards meanwhile recently".split())


def _comparative(tokens: list[Token]) -> list[Token]:
    """"more expensive than" read as one word on its pole ("less expensive than" as
    "cheaper than"), so a comparison reads alike however it is formed, and apart from the
    plain word ("expensive")."""
    than = next((k for k, t in enumerate(tokens) if t.form == "than"), None)
    if than is None or than < 2:
        return tokens
    word, before = tokens[than - 1], tokens[than - 2]
    if not word.form.startswith("~") or word.form == "~more":
        return tokens
    if before.form != "~more":  # "cheaper than": a comparison, not "cheap"
        return [*tokens[:than - 1], replace(word, form=f"{word.form}>"), *tokens[than:]]
    return [*tokens[:than - 2], replace(word, form=f"{word.form}>", pole=word.pole ^ before.pole,
                                        text=f"{before.text} {word.text}"),
            *tokens[than:]]


def turned(claim: Clause) -> Clause | None:
    """``claim``'s comparison said from the other side ("A is cheaper than B" as "B is more
    expensive than A"): the same statement, for the alignment to try; None if it has none."""
    than = next((k for k, t in enumerate(claim) if t.form == "than"), None)
    if than is None or than < 3 or than == len(claim) - 1:
        return None
    word, be = claim[than - 1], than - 2
    if not word.form.startswith("~") or word.form == "~more" or claim[be].form not in _BE:
        return None
    first, second = claim[:be], claim[than + 1:]
    if not any(t.content for t in first) or not any(t.content for t in second):
        return None
    return (*second, claim[be], replace(word, pole=1 - word.pole), claim[than], *first)


def _ends(clause: Clause) -> list[Token]:
    """``clause`` with each range as its two ends: a bare number named as an answer ("1892")
    is named by the range "1892-1901", a statement ("founded in 1892") is not."""
    out = []
    for token in clause:
        if token.form.startswith("range:"):
            low, high = (float(v) for v in token.form[6:].split("-"))
            out += [Token(f"#{v:g}", f"{v:g}", "number", amount=quantities.amount(f"{v:g}", v))
                    for v in (low, high)]
        else:
            out.append(token)
    return out


def _mark_events(tokens: list[Token]) -> list[Token]:
    """"until the Chrysler Building was finished in 1930" read as "until 1930": an event after
    "until", "before", "after" or "since" that a year or date ends is a parenthetical, when
    it holds a verb and no number, negation, qualifier or second statement of its own."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.text.lower() not in _EVENT_WORDS or i + 1 >= len(out) or (
                out[i + 1].kind == "number"):
            continue
        end = next((j for j in range(i + 1, len(out)) if out[j].kind == "number"), None)
        if end is None or not _is_date(out[end]) or out[end - 1].form not in ("in", "on"):
            continue
        event = out[i + 1:end - 1]
        if not event or not any(t.form in _BE or _suffix(t) for t in event) or any(
                t.kind in ("negation", "qualifier") or t.form in ("and", "or")
                or t.text.lower() in _PRONOUNS or t.form in BOUNDARIES for t in event):
            continue
        out[i + 1:end] = [replace(t, aside=t.aside or 1000 + i) for t in out[i + 1:end]]
    return out


def _is_date(token: Token) -> bool:
    if token.form.startswith(("date:", "month:")):
        return True
    found = token.amount
    return bool(found and found.unit is None and not found.bound
                and found.value == int(found.value) and 1000 <= found.value <= 2100)


def _passive(tokens: list[Token]) -> list[Token]:
    """"P was V-ed by A ..." read as "A V-ed P ...": both voices give the same order. The verb
    may be a list ("designed and built by"), the agent a phrase ("the company of the engineer
    Gustave Eiffel")."""
    for i, token in enumerate(tokens):
        if token.form not in _BE or i + 2 >= len(tokens):
            continue
        first = i + 1
        while first < len(tokens) and tokens[first].kind == "negation":
            first += 1  # "is not covered by"
        by = first
        while by < len(tokens) and tokens[by].kind == "word" and (
                by == first or tokens[by].listed and tokens[by].listed == tokens[first].listed):
            by += 1
        verbs = tokens[first:by]
        if not verbs or not all(_participle(v) for v in verbs):
            continue
        if by >= len(tokens) or tokens[by].form != "by":
            continue
        agent_end = _agent_end(tokens, by + 1)
        agent = tokens[by + 1:agent_end]
        if not agent:
            continue
        subject = tokens[:i]
        modal = len(subject)
        while modal and subject[modal - 1].kind in ("qualifier", "negation"):
            modal -= 1  # "must be given by the tenant": "the tenant must give"
        active = [replace(t, form=t.form.removesuffix(PASSIVE)) for t in tokens[i + 1:by]]
        return agent + subject[modal:] + active + subject[:modal] + tokens[agent_end:]
    return tokens


def _participle(token: Token) -> bool:
    word = token.text.lower()
    return token.kind == "word" and (word.endswith(("ed", "en", "wn")) or word in _IRREGULAR
                                     or word in _SAME_PARTICIPLES)


_SAME_PARTICIPLES = frozenset("cut shut set put hit let hurt cost lost left won sold bought "
                              "held spent sent built lent bent".split())


def _agent_end(tokens: list[Token], start: int) -> int:
    """Where the agent after "by" ends: a word or name, then names, titles and "of" phrases
    ("the company of the engineer Gustave Eiffel"), up to a preposition or anything else."""
    end = start
    while end < len(tokens):
        token = tokens[end]
        joins = token.form == "of" and end + 1 < len(tokens) and tokens[end + 1].content
        if token.form in _PREPOSITIONS or not (
                token.kind == "name" or token.detail or joins or (
                    token.kind == "word" and (end == start or tokens[end - 1].form == "of"))):
            break
        end += 1
    return end


def _possessive(tokens: list[Token]) -> list[Token]:
    """"Paris's population" read as "population of Paris", "Acme's chief executive" as "chief
    executive of Acme"."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.text.lower().endswith("'s") and i + 1 < len(out) and out[i + 1].content:
            start = i
            while start > 0 and out[start - 1].kind == "name":
                start -= 1
            end = _noun_phrase_end(out, i + 1)
            owner, owned = out[start:i + 1], out[i + 1:end]
            return [*out[:start], *owned, *owner, *_possessive(out[end:])]
    return out


def _noun_phrase_end(tokens: list[Token], start: int) -> int:
    """Where the noun phrase that starts at ``tokens[start]`` ends: its words run to a verb
    ("Acme's chief executive is", "Tesla's chief executive praised"), a modal, a negation or
    a preposition. Anything else ends it after its first word: a run may hold an irregular verb
    ("Lyon's population grew", "Eiffel's company built it")."""
    end = start + 1
    while (end < len(tokens) and tokens[end].kind == "word" and not _suffix(tokens[end])
           and tokens[end].form not in _PREPOSITIONS):
        end += 1
    if end < len(tokens):
        stop = tokens[end]
        if (stop.form in _AUXILIARIES or stop.kind in ("qualifier", "negation")
                or stop.form in _PREPOSITIONS or (stop.kind == "word" and _suffix(stop))):
            return end
    return start + 1


def align(claim: Clause, evidence: Clause) -> Alignment:
    """The best in-order match of ``claim``'s content tokens in ``evidence``: a longest
    common subsequence (lists were put in one order as they were read), then the checks on
    what lies between the matched tokens."""
    at = [k for k, t in enumerate(claim) if t.content]
    wanted = [claim[k] for k in at]
    stating = not is_mention(claim)  # a bare name or number conflicts with nothing
    said = list(evidence) if stating else _ends(evidence)
    text = " ".join(t.text for t in evidence if t.text)
    if len(wanted) * len(said) > MAX_CELLS:  # hostile length: fail closed, in bounded time
        return Alignment(0, len(wanted), tuple(wanted), None,
                         "the clause is too long for the rules to align", text[:200])
    pairs = _match(wanted, said)
    missing = tuple(t for i, t in enumerate(wanted) if i not in dict(pairs))
    # where the claim says "it" between two matched words, the evidence may name the thing
    referents = {j for (i1, j1), (i2, j2) in zip(pairs, pairs[1:], strict=False)
                 if any(claim[k].text.lower() in _PRONOUNS for k in range(at[i1] + 1, at[i2]))
                 for j in range(j1 + 1, j2)}
    conflict = _conflict(evidence, wanted, pairs, missing, referents) if stating else None
    blocked = None
    if not missing:
        blocked = ((_of_another(said, pairs[0][1]) if pairs and has_verb(claim) else None)
                   or _gap(said, [j for _, j in pairs], referents)
                   or _qualifier(claim, said))
        if blocked is None and stating:
            conflict = _polarity(claim, evidence, pairs, wanted)
    return Alignment(len(pairs), len(wanted), missing, conflict, blocked, text,
                     _instead(wanted, said, pairs, missing))


def _instead(wanted: list[Token], said: list[Token], pairs, missing) -> tuple:
    """(claim token, evidence token) for each missing claim word whose slot, between the
    matched words either side of it, holds exactly one other content word of the evidence:
    "built" where the source says "constructed"."""
    matched = dict(pairs)
    found = []
    for token in missing:
        k = wanted.index(token)
        before = max((matched[i] for i in matched if i < k), default=None)
        after = min((matched[i] for i in matched if i > k), default=None)
        if before is None and after is None:
            continue
        low = before + 1 if before is not None else max(0, after - 1)
        high = after if after is not None else min(len(said), before + 2)
        others = [t for t in said[low:high] if t.content and not t.aside and not t.detail]
        if len(others) == 1 and others[0].kind == token.kind:
            found.append((token, others[0]))
    return tuple(found)


def same(a: Token, b: Token) -> bool:
    """Whether the claim's token ``a`` is stated by the evidence's ``b``."""
    if a.amount and b.amount:  # by what each allows (quantities)
        return a.amount.stated_by(b.amount)
    if a.form == b.form:
        return True
    if a.kind == b.kind == "word":
        return synonyms(a.form, b.form)
    if {a.kind, b.kind} == {"word", "name"}:  # a name that opens its sentence reads as a word
        return _bare(a.text) == _bare(b.text)
    return False


@lru_cache(maxsize=1 << 16)
def synonyms(a: str, b: str) -> bool:
    """Whether two word forms (stems) are synonyms: one synset is the first sense of both in
    Open English WordNet (``synonyms.txt``, made by ``tools/derive_synonyms.py``). Opposites,
    marked forms ("~open", a passive) and anything but plain words never are."""
    if a.startswith(_MARKED) or b.startswith(_MARKED) or PASSIVE in a or PASSIVE in b:
        return False
    groups = _synonym_groups()
    mine, theirs = groups.get(a), groups.get(b)
    return mine is not None and theirs is not None and not set(mine).isdisjoint(theirs)


_MARKED = ("~", "#", "unit:", "date:", "month:", "range:")


@lru_cache(maxsize=1)
def _synonym_groups() -> dict[str, tuple[int, ...]]:
    """Each stem's synonym groups, read once from the table beside this module (its lines are
    groups of Snowball stems)."""
    found: dict[str, list[int]] = {}
    table = files(__package__).joinpath("synonyms.txt").read_text(encoding="utf-8")
    for number, line in enumerate(table.splitlines()):
        for stem in line.split():
            found.setdefault(stem, []).append(number)
    return {stem: tuple(groups) for stem, groups in found.items()}  # tuples of ints: light


def _match(wanted: list[Token], said: list[Token]) -> list[tuple[int, int]]:
    """Pairs (claim index, evidence index) of a longest common subsequence: in order in
    both (lists were put in one order as they were read)."""
    n, m = len(wanted), len(said)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = (best[i + 1][j + 1] + 1 if same(wanted[i], said[j])
                          else max(best[i + 1][j], best[i][j + 1]))
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if same(wanted[i], said[j]) and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def _gap(said: list[Token], matched: list[int], referents: set[int] = frozenset()) -> str | None:
    """Why the evidence between the matched tokens breaks the statement: a content word that
    is no part of a parenthetical or of a list the claim draws on."""
    if not matched:
        return None
    low, high = min(matched), max(matched)
    lists = {said[j].listed for j in matched if said[j].listed}
    # a number or date the claim leaves out makes it less precise, not wrong; one of a kind
    # the claim states is skipped only if it is not a rival ("six" matched the 6 of "Wi-Fi 6",
    # "four ports" skipped)
    kinds = {_kind_of(said[j]) for j in matched if said[j].kind == "number"}
    for j in range(low, high + 1):
        token = said[j]
        if (j in matched or j in referents or not token.content or token.aside
                or token.detail or token.listed in lists):
            continue
        if token.kind == "number" and _kind_of(token) not in kinds:
            continue
        before = max(k for k in matched if k < j)
        after = min(k for k in matched if k > j)
        return (f"the source says {token.text!r} between {said[before].text!r} and "
                f"{said[after].text!r}, which the sentence leaves out")
    return None


def _of_another(said: list[Token], low: int) -> str | None:
    """Why the statement is not the evidence's when its first matched word is what something
    else is of ("the son of the king won" does not say "the king won")."""
    head = _head_before(said, low)
    if head is None:
        return None
    return (f"the source speaks of the {head.text!r} of {said[low].text!r}, which the "
            f"sentence leaves out")


def has_verb(clause: Sequence[Token]) -> bool:
    """Whether ``clause`` says something of something (it has a verb, a modal or a
    negation), as "the king won" does and "16-year-old" or "dancer Gregory Hines" does not."""
    return any(t.form in _AUXILIARIES or t.kind in ("qualifier", "negation")
               or _suffix(t) == "ed" or t.text.lower() in _IRREGULAR for t in clause)


def _head_before(said: list[Token], low: int) -> Token | None:
    """The noun the first matched word belongs to, when the evidence says it just before:
    "the son of the king" ("the king won" is not stated), "Paris's population" (read as
    "population Paris's"). Titles before a name are skipped ("the company of the engineer
    Gustave Eiffel")."""
    k = low - 1
    while k >= 0 and said[k].detail:
        k -= 1
    if k >= 1 and said[k].form == "of" and said[k - 1].content and not said[k - 1].aside:
        return said[k - 1]
    if said[low].text.lower().endswith("'s") and k >= 0 and said[k].content and not (
            said[k].aside):
        return said[k]
    return None


def _qualifier(claim: Clause, said: list[Token]) -> str | None:
    """A qualifier of the evidence clause ("may", "some", "only") the claim leaves out."""
    mine = {t.form for t in claim if t.kind == "qualifier"}
    for token in said:
        if token.kind == "qualifier" and token.form not in mine and not token.aside:
            return f"the source qualifies it with {token.text!r}, which the sentence leaves out"
    return None


def _polarity(claim: Clause, evidence: Clause, pairs, wanted) -> tuple[str, str] | None:
    """A negation or an opposite that turns the aligned statement round: the claim's and the
    evidence's negations, plus the matched words named by the other pole ("smaller" for
    "larger"), come out odd. A pole the evidence also names the claim's way, in a word no
    other claim word matched, is no flip ("the northern wing ... the southern wing"); the two
    poles swapped are two flips ("the southern wing is larger than the northern wing")."""
    if len(pairs) < 2:
        return None  # a word alone ("true") is no statement to turn round
    said = [t for t in evidence if not t.aside]
    free = [t for k, t in enumerate(evidence) if not t.aside and k not in {j for _, j in pairs}]
    flipped = [(wanted[i], evidence[j]) for i, j in pairs
               if wanted[i].pole != evidence[j].pole and not any(
                   t.form == wanted[i].form and t.pole == wanted[i].pole for t in free)]
    negated = (sum(t.kind == "negation" for t in claim)
               + sum(t.kind == "negation" for t in said)) % 2
    # the same statement: no opposite and the negations agree, or one opposite said with a
    # negation ("not excluded" for "covered"); two opposites never cancel out
    if (not flipped and not negated) or (len(flipped) == 1 and negated):
        return None
    for mine, theirs in flipped:
        return "antonym", f"the source says {theirs.text!r} where the claim says {mine.text!r}"
    return "negation", f"the source states the opposite: {' '.join(t.text for t in evidence)!r}"


def _conflict(evidence, wanted, pairs, missing, referents) -> tuple[str, str] | None:
    """The claim's one unmatched token a number or name, the evidence giving another of the
    same kind in its slot, and every other token aligned. (Allowing words the claim adds
    besides was tried: on the tuning data it made a fifth of the conflicts it found wrong.)"""
    if len(missing) != 1 or missing[0].kind not in ("number", "name") or not pairs:
        return None
    gone = missing[0]
    index = wanted.index(gone)
    matched = dict(pairs)
    before = max((matched[i] for i in matched if i < index), default=-1)
    after = min((matched[i] for i in matched if i > index), default=len(evidence))
    rivals = [t for t in evidence[before + 1:after] if t.kind == gone.kind and not t.aside
              and _kind_of(t) == _kind_of(gone)]
    if len(rivals) != 1 or _gap(list(evidence), [j for _, j in pairs] + [
            evidence.index(rivals[0])], referents):
        return None
    rival = rivals[0]
    if gone.kind == "name" and SequenceMatcher(None, gone.form, rival.form).ratio() >= 0.8:
        return None  # a misspelling ("Instuments"), not another name
    if gone.amount and rival.amount and not gone.amount.conflicts(rival.amount):
        return None  # values both allow: not stated, not contradicted ("48,000", "about 48,000")
    kind = "value" if gone.kind == "number" else "name"
    return kind, f"the source gives {_said(rival)} where the claim says {_said(gone)}"


def _said(token: Token) -> str:
    """A token as a reason quotes it; a hedged number with the values it allows."""
    return quantities.describe(token.amount) if token.amount else repr(token.text)


def _kind_of(token: Token) -> str:
    """"date", "month", "#" (a number) or the token's kind."""
    if ":" in token.form:
        return token.form.split(":")[0]
    return "#" if token.form.startswith("#") else token.kind


def _quote(said: Sequence[Token], low: int, high: int) -> str:
    return " ".join(t.text for t in said[low:high + 1])


def is_mention(clause: Clause) -> bool:
    """Whether ``clause`` only names something ("Walmart", "Saturday Night Live", "American"):
    no verb, modal or negation, and no word but names, numbers and function words, or a
    single content word. Found in the evidence, a mention is there; whether it answers the
    question the rules cannot tell."""
    content = [t for t in clause if t.content]
    if len(content) < 2:
        return True
    if any(t.form in _AUXILIARIES or t.kind in ("qualifier", "negation") for t in clause):
        return False
    return not any(t.kind == "word" and not t.text[:1].isupper() for t in content)


def best_alignment(claim: Clause, units: Iterable[Clause]) -> Alignment | None:
    """The evidence clause that aligns best with ``claim`` (or with its comparison said from
    the other side): aligned first, then an explicit conflict, then the most tokens
    matched."""
    best = None
    other = turned(claim)
    for unit in units:
        for as_said, found in ((True, align(claim, unit)),
                               *(((False, align(other, unit)),) if other else ())):
            # the claim as said gives the reason, unless the other side aligns or conflicts
            key = (found.aligned, found.conflict is not None, as_said, found.matched)
            if best is None or key > best[0]:
                best = (key, found)
    return None if best is None else best[1]
