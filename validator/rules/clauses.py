"""What a sentence asserts, clause by clause, for the rule checker: which words each clause
states, whether it states them negated, how much of a group it speaks for, and which way its
directed relations run. No model: word tables (``word_lists``) and punctuation.

- *Polarity*: a clause's negation words, and the opposites it uses (``word_lists.concepts``): the
  evidence says "right" where the claim says "left", "excluded" where it says "covered", or
  "does not cover" where it says "covers". A negation belongs to its own clause (split at
  ";", ":", "but", "although", ", and"...): in "2.4 GHz is supported; 5 GHz is not" the "not"
  says nothing about 2.4 GHz. A clause that starts with a pronoun ("..., but it does not ...")
  takes the first words of the clause before it as its subject.
- *Roles*: "from A to B" against "from B to A"; "A is colder than B" against "B is colder than
  A" (while "A is cheaper than B" and "B is more expensive than A" agree; so do "A before B"
  and "B after A").
- *Quantifiers*: "all" where the evidence says "some" or "most".
- *Lists*: an item of the claim's "A, B and C" that the evidence does not name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..storage import MiB, memoize
from ..text.citations import MARKER
from ..text.word_forms import MONTH_OF, STOPWORDS, content_words, with_digits
from .word_lists import (
    CLAUSE_WORDS,
    COMMA_CLAUSE_WORDS,
    NEGATIONS,
    PRONOUNS,
    QUANTIFIER_NAMES,
    QUANTIFIERS,
    RELATION_WORDS,
    ROUTE_ENDS,
    concepts,
)

_BOUNDARY = re.compile(
    r"[;:—–]|\s-\s|[.!?](?=\s|$)|,?\s+(?:" + "|".join(CLAUSE_WORDS) + r")\b|,\s+(?:"
    + "|".join(COMMA_CLAUSE_WORDS) + r")\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_][^\W_]*(?:'[^\W\d_]+)?")
_INHERITED = 2  # words a pronoun-led clause takes from the clause before it


@dataclass(frozen=True)
class Clause:
    words: tuple[str, ...]  # stems, numbers as "#62", opposites as their concept ("~left")
    negations: int  # negation words in the clause
    poles: dict[str, int]  # concept -> how many of its words name the second pole
    said: dict[str, str]  # concept -> the word that named it
    quantifier: tuple[int, str] | None  # (rank, word) of its strongest quantifier
    relation: tuple[frozenset[str], frozenset[str]] | None  # the two sides of than/before/after
    routes: tuple[tuple[frozenset[str], frozenset[str]], ...]  # from A to B
    text: str
    turning: frozenset[str] = frozenset()  # concepts a swap of the relation's sides turns round

    def pole(self, concept: str) -> int | None:
        """1 when the clause names ``concept`` by its second pole an odd number of times ("the
        northern and the southern wing" names it by both, so 1 + 0 = 1 like "southern" alone),
        0 when even, None when it does not name it."""
        return self.poles[concept] % 2 if concept in self.poles else None


@memoize(8192, 16 * MiB, bytes_per_char=40)
def read_clauses(text: str) -> tuple[Clause, ...]:
    """The clauses of ``text`` (citation markers dropped, written numbers as digits)."""
    text = with_digits(MARKER.sub(" ", text)).replace("’", "'")
    clauses: list[Clause] = []
    for piece in _BOUNDARY.split(text):
        tokens = [t.lower() for t in _TOKEN.findall(piece)]
        if not tokens:
            continue
        inherited = ()
        if clauses and tokens[0] in PRONOUNS | {"which"}:
            inherited = clauses[-1].words[:_INHERITED]
        clauses.append(_clause(tokens, inherited, piece.strip()))
    return tuple(clauses)


def _clause(tokens: list[str], inherited: tuple[str, ...], text: str) -> Clause:
    words = list(inherited)
    poles: dict[str, int] = {}
    said: dict[str, str] = {}
    negations, quantifier, relation, routes, turning = 0, None, None, [], set()
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in NEGATIONS or token.endswith("n't"):
            negations += 1
        rank = QUANTIFIERS.get(token)
        counted = rank and not (after[:1].isdigit() or before == "the"
                                or (before == "at" and token == "most"))
        if counted and (quantifier is None or rank > quantifier[0]):
            quantifier = (rank, token)
        if token in RELATION_WORDS and relation is None:
            relation = (_side(tokens[:i]), _side(tokens[i + 1:]))
            # "A before B" is "B after A"; "A cheaper than B" is "B more expensive than A"
            compared = tokens[max(0, i - 2):i] if token == "than" else ()
            turning = {c for t in (token, *compared) for c, _ in concepts(t)}
        if token == "from":
            route = _route(tokens[i + 1:])
            if route:
                routes.append(route)
        word = _word(token)
        if word is None:
            continue
        named = concepts(token)
        for concept, second in named:
            poles[concept] = poles.get(concept, 0) + second
            said.setdefault(concept, token)
            words.append(concept)
        if not named:
            words.append(word)
    return Clause(tuple(dict.fromkeys(words)), negations, poles, said, quantifier, relation,
                  tuple(routes), text, frozenset(turning))


def _word(token: str) -> str | None:
    """The signature form of a token: "#62" for a number, the stem of a content word."""
    if token[:1].isdigit():
        return "#" + token.replace(",", "")
    if (token in STOPWORDS or token in NEGATIONS or token in QUANTIFIERS or token in MONTH_OF
            or len(token) < 2):
        return None if not concepts(token) else _stem(token)
    return _stem(token)


@lru_cache(maxsize=1)
def _stemmer():
    # Snowball knows English inflection ("descale" / "descales") where word_forms.stem, kept light
    # for coverage, does not. nltk is loaded by sentence splitting anyway; its stemmer needs no
    # data files.
    from nltk.stem.snowball import EnglishStemmer

    return EnglishStemmer()


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


def _side(tokens: Sequence[str]) -> frozenset[str]:
    return frozenset(w for w in map(_word, tokens) if w)


def _route(tokens: Sequence[str]) -> tuple[frozenset[str], frozenset[str]] | None:
    """"from A to B ...": (A, B), B ending at the next preposition."""
    for i, token in enumerate(tokens):
        if token in ("to", "into"):
            source = _side(tokens[:i])
            target = []
            for later in tokens[i + 1:]:
                if later in ROUTE_ENDS:
                    break
                target.append(later)
            target_words = _side(target)
            return (source, target_words) if source and target_words else None
    return None


def _swapped(a: tuple[frozenset, frozenset], b: tuple[frozenset, frozenset]) -> bool:
    """Whether ``b`` has the two sides of ``a`` the other way round."""
    (a1, a2), (b1, b2) = a, b
    return bool((a1 - b1) & b2) and bool((a2 - b2) & b1)


def _shared_flips(claim: Clause, part: Clause) -> int:
    """Second-pole words the two clauses use for the same concepts: the opposites that count
    when comparing them (an opposite only one of them uses is a word of its own)."""
    flips = 0
    for concept in claim.poles.keys() & part.poles.keys():
        mine, theirs = claim.pole(concept), part.pole(concept)
        if mine is not None and theirs is not None:
            flips += mine + theirs
    return flips


def _differ(word: str, claim: Clause, part: Clause) -> bool:
    """Whether ``part`` states ``word`` with the opposite polarity to ``claim``."""
    turned = claim.relation is not None and part.relation is not None and _swapped(
        claim.relation, part.relation)
    negations = claim.negations + part.negations + turned
    if word.startswith("~"):
        mine, theirs = claim.pole(word), part.pole(word)
        if mine is None or theirs is None:
            return False
        if turned and word not in claim.turning | part.turning:
            negations -= 1  # "installed" in "A is installed before B" is not turned round
        return (negations + mine + theirs) % 2 == 1
    return (negations + _shared_flips(claim, part)) % 2 == 1


def overlap(claim: Sequence[Clause], part: Sequence[Clause]) -> float:
    """Share of the claim's words (opposites as their concept) that ``part`` states."""
    said = {w for c in claim for w in c.words}
    stated = {w for c in part for w in c.words}
    return len(said & stated) / len(said) if said else 0.0


def polarity_conflict(claim: Sequence[Clause], part: Sequence[Clause]) -> tuple[str, str] | None:
    """How one evidence sentence (``part``) states the claim the other way round: roles
    swapped, an opposite, or a negation; or None. A word of the claim conflicts when every
    clause of the evidence that states it states it with the other polarity."""
    for mine in claim:
        for route in mine.routes:
            for theirs in (r for c in part for r in c.routes):
                if _swapped(route, theirs):
                    return "roles", (f"the evidence has the roles the other way round "
                                     f"(\"{_quote(part, theirs)}\")")
    for mine in claim:
        flipped = []
        for word in mine.words:
            stating = [c for c in part if word in c.words]
            if stating and all(_differ(word, mine, c) for c in stating):
                flipped.append((word, stating[0]))
        for word, theirs in flipped:  # an opposite word explains it best
            if word.startswith("~") and mine.said[word] != theirs.said[word]:
                return "antonym", (f"the evidence says \"{theirs.said[word]}\" where the claim "
                                   f"says \"{mine.said[word]}\"")
        if flipped:
            return "negation", f"the evidence states the opposite (\"{flipped[0][1].text}\")"
    return None


def _quote(part: Sequence[Clause], route: tuple) -> str:
    return next(c.text for c in part if route in c.routes)


def quantifier_gap(claim: Sequence[Clause], part: Sequence[Clause]) -> str | None:
    """"all" in the claim where the evidence clause that states it says "some" or "most"."""
    for mine in claim:
        if mine.quantifier is None or not part:
            continue
        best = max(part, key=lambda c: len(set(mine.words) & set(c.words)))
        if best.quantifier and best.quantifier[0] < mine.quantifier[0]:
            return (f"the evidence says \"{best.quantifier[1]}\" "
                    f"({QUANTIFIER_NAMES[best.quantifier[0]]}) where the claim says "
                    f"\"{mine.quantifier[1]}\"")
    return None


_PIECES = re.compile(r"[;:.!?](?=\s|$)")
_CONJUNCTION = re.compile(r",?\s+(?:and|or)\s+|,\s+", re.IGNORECASE)
_COORDINATED = re.compile(r"\s(?:and|or)\s", re.IGNORECASE)


def missing_items(claim: str, stated: frozenset[str]) -> list[str]:
    """Items of the claim's lists ("A, B and C") whose words ``stated`` (the evidence's
    content words) has none of. The first item carries the sentence's start, so only its last
    word counts as the item; the last item ends at the next preposition."""
    missing = []
    for piece in _PIECES.split(with_digits(MARKER.sub(" ", claim))):
        if not _COORDINATED.search(piece):
            continue
        items = _CONJUNCTION.split(piece.strip())
        for n, item in enumerate(items):
            tokens = item.split()
            if n == 0:
                tokens = tokens[-1:]
            elif n == len(items) - 1:
                tokens = tokens[:next((i for i, t in enumerate(tokens)
                                       if i and t.lower() in ROUTE_ENDS), len(tokens))]
            words = content_words(" ".join(tokens))
            if words and not words & stated:
                missing.append(" ".join(tokens))
    return missing
