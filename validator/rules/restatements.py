"""Restatements undone as a clause is read, so that two spellings of one statement give the
same tokens, and each only where it keeps the meaning: the passive with its agent ("the tower
was built by Eiffel's company" / "Eiffel's company built the tower"), the voice of a passive
with an object of its own kept, the possessive ("Paris's population" / "the population of
Paris"), an event a date ends ("until the Chrysler Building was finished in 1930" / "until
1930"), a fronted date or adverb ("In 2019 the firm moved" / "the firm moved in 2019"), a
comparison ("more expensive than" as one word; ``turned``: said from the other side, as an
identity may be: "The capital of France is Paris" / "Paris is the capital of France"), and a
range as the numbers a bare answer may name (``range_ends``). The traps each must not let
through are tested beside it (tests/unit/rules/test_restatements.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..text.grammar import (
    AUXILIARIES,
    BE,
    PARTICLES,
    PAST_BE_HAVE,
    POSSESSIVES,
    PREPOSITIONS,
    RELATIVES,
    TIME_ADVERBS,
)
from ..text.word_forms import IRREGULAR
from . import quantities
from .tokens import (
    ATTRIBUTED,
    BOUNDARIES,
    CONDITIONS,
    CONTENT_PREPOSITIONS,
    LINKS,
    PASSIVE,
    PRONOUNS,
    SETTINGS,
    TITLE_CHANGERS,
    UNASSERTING,
    Clause,
    Token,
    dated,
    has_verb,
    is_date,
    participle,
    past,
    suffix,
    word_and_next,
)
from .word_lists import changes

# Words that open an event a date ends: "until the Chrysler Building was finished in 1930".
_EVENT_WORDS = frozenset(("until", "till", "before", "after", "since"))


def voiced(tokens: list[Token]) -> list[Token]:
    """A participle after a form of "be" with an object of its own marked passive ("the
    tenant must be given notice" is not "the tenant must give notice"; "it was opened in
    1889" is left as "it opened in 1889"); the passive with its agent is read as active
    later, and loses the mark. A participle after what a thing is said to be is read as after
    "is" ("Rex is a dog named after a king": Rex is named after a king)."""
    out = list(tokens)
    for k, token in enumerate(out):
        before = k - 1
        while before >= 0 and out[before].kind == "negation":
            before -= 1
        noun = before
        while noun > 0 and out[noun].form not in BE and of_what_it_is(out, noun) and (
                out[noun].kind == "word" and not participle(out[noun])):
            noun -= 1  # "is a dog named": the participle of what it is
        if noun < before and out[noun].form in BE and k + 1 < len(out) and (
                out[k + 1].kind == "name" or out[k + 1].text.lower() in PREPOSITIONS):
            before = noun  # not before a noun: "was the tallest man-made structure"
        retained = k + 1 < len(out) and out[k + 1].content and not (
            is_date(out[k + 1]) or out[k + 1].form.startswith("range:"))  # "given notice",
        # "charged a fee", not "dug between 1820 and 1825"
        if before >= 0 and out[before].form in BE and participle(token) and retained:
            out[k] = replace(token, form=f"{token.form}{PASSIVE}")
    return out


def fronted(tokens: list[Token]) -> list[Token]:
    """A clause's opening condition, time, place or manner put at its end, where the plain
    order has it: "When the lid is open, the pump stops" as "the pump stops when the lid is
    open", "After the final whistle, the fans invaded the pitch" as "the fans invaded the
    pitch after the final whistle", "In 2019 the company moved" as "the company moved in
    2019", "Overnight, updates are installed" as "updates are installed overnight". Only a
    condition or a phrase of place or time up to its comma, a date or year after "in", "on",
    "during", or an adverb before a comma, and only before a clause of its own."""
    if len(tokens) < 4:
        return tokens
    comma = next((k for k, t in enumerate(tokens) if t.text == "," and not weekday_comma(
        tokens, k)), None)  # "On Monday, 3 June 2024, ...": to the date's end
    opener = tokens[0].text.lower()
    condition_first = opener in CONDITIONS or tokens[0].kind == "qualifier" and (
        tokens[0].form == "if")  # "Unless it rains, ...", "As long as the receipt is kept, ..."
    if (condition_first or opener in _FRONTED_PLACE_OR_TIME) and comma and comma > 1:
        # "When the lid is open, the pump stops": to the end of the clause it conditions
        condition = [t for t in tokens[:comma] if t.text != ","]
        rest = tokens[comma + 1:]
        end = next((k for k, t in enumerate(rest) if t.text == ","), len(rest))
        if not _says_something(rest[:end]):
            return tokens
        if opener in _FRONTED_PLACE_OR_TIME and _restricts(condition, rest[:end]):
            condition = [replace(t, scope=True) if t.content else t for t in condition]
        return [*rest[:end], *condition, *rest[end:]]
    if tokens[0].text.lower() in ("in", "on", "during") and is_date(tokens[1]):
        size = 2
        while size < len(tokens) - 1 and is_date(tokens[size]):
            size += 1  # "On 9 June 2022 the pool reopened": the date with its year
        size += tokens[size].text == ","
    elif tokens[1].text == "," and _adverb(tokens[0]):
        size = 2
    else:
        return tokens
    rest = tokens[size:]
    if not _says_something(rest) or any(t.text == "," for t in rest[:2]):
        return tokens
    return rest + [t for t in tokens[:size] if t.text != ","]


def weekday_comma(tokens: Sequence[Token], k: int) -> bool:
    """Whether the comma at ``tokens[k]`` stands between a weekday and its date ("Monday, 3
    June 2024"): no clause or aside ends there."""
    return 0 < k < len(tokens) - 1 and tokens[k].text == "," and tokens[k - 1].detail and (
        tokens[k - 1].kind == "name") and tokens[k + 1].form.startswith("date:")


def name_first(tokens: list[Token]) -> list[Token]:
    """A description before the name it stands for, in commas, read name first: "sued her
    employer, Talbot Freight, in 2021" as "sued Talbot Freight, her employer, in 2021", the
    order in which a claim may leave the description out. Only a word before the comma and
    names after it up to the next comma or the clause's end ("In the north, Scotland has
    ..." is no apposition)."""
    for k in range(1, len(tokens) - 1):
        if tokens[k].text != "," or tokens[k - 1].kind != "word" or suffix(tokens[k - 1]) in (
                "ed", "ing") or tokens[k + 1].kind != "name":
            continue
        end = k + 1
        while end < len(tokens) and tokens[end].kind == "name":
            end += 1
        if end < len(tokens) and tokens[end].text != ",":
            continue
        start = k - 1
        while start and tokens[start - 1].kind == "word" and not has_verb(tokens[start - 1:start]):
            start -= 1  # "her former employer": the words of the description
        while start and tokens[start - 1].kind == "function" and tokens[start - 1].text.lower() in (
                POSSESSIVES):
            start -= 1
        return [*tokens[:start], *tokens[k + 1:end], tokens[k], *tokens[start:k],
                *([tokens[k]] if end == len(tokens) else []), *tokens[end:]]
    return tokens


def attributed(tokens: list[Token]) -> list[Token]:
    """A statement put as someone's, in the order "X said S": "According to police, S",
    "S, according to police", "S, police said" and "S, said police" as "police according S"
    (the word "according" reads as "say"),
    so the three spellings of one attribution meet. Only a speaker with no verb of its own,
    before or after a statement that has one; the attribution stays a qualifier a claim must
    keep."""
    if len(tokens) < 5:
        return tokens
    commas = [k for k, t in enumerate(tokens) if t.text == ","]
    if _according(tokens, 0) and commas and commas[0] > 2:
        speaker, said = tokens[2:commas[0]], tokens[commas[0] + 1:]
        verb = tokens[0]
    elif commas and _according(tokens, commas[-1] + 1) and commas[-1] > 1:
        speaker, said = tokens[commas[-1] + 3:], tokens[:commas[-1]]
        verb = tokens[commas[-1] + 1]
    elif commas and commas[-1] > 1 and len(tail := tokens[commas[-1] + 1:]) > 1 and (
            _says(tail[-1]) or _says(tail[0])):  # "S, the airline said"
        said = tokens[:commas[-1]]
        speaker, verb = (tail[:-1], tail[-1]) if _says(tail[-1]) else (tail[1:], tail[0])
    else:
        return tokens
    if not speaker or has_verb(speaker) or not _says_something(said):
        return tokens
    return [*speaker, verb, *said]


def _says(token: Token) -> bool:
    """Whether ``token`` is a verb of saying ("said", "told"), or the verb of an attribution
    after a statement (``reading``: "..., the company reported")."""
    return token.form == "say" or token.form.startswith(ATTRIBUTED)


def _according(tokens: list[Token], k: int) -> bool:
    return (k + 2 < len(tokens) and tokens[k].text.lower() == "according"
            and tokens[k + 1].text.lower() == "to")


def _says_something(tokens: list[Token]) -> bool:
    """Whether ``tokens`` are a clause of their own: a verb in any tense ("stops", "moved")."""
    return has_verb(tokens) or any(suffix(t) for t in tokens)


def _adverb(token: Token) -> bool:
    """An adverb of time or manner ("overnight", "sadly"), not a subject before an
    apposition ("The film, made in 2005, ...") nor a place ("Uniondale, New York")."""
    word = token.text.lower()
    return token.kind == "word" and (word.endswith("ly") or word in TIME_ADVERBS)


# Prepositions of place and time whose phrase, said first up to its comma, is read at the end:
# "On Christmas Eve, the store will close early", "After the final whistle, the fans invaded
# the pitch".
_FRONTED_PLACE_OR_TIME = SETTINGS | _EVENT_WORDS | {"for", "under"}
# Fronted phrases that restrict nothing: they tie the sentence to the one before.
_DISCOURSE = ("for example", "for instance", "in addition", "in fact", "in particular",
              "in general", "in short", "in contrast", "in turn", "after all", "in other words",
              "in the end", "at first", "at last", "in total", "on the other hand",
              "at the same time", "for now", "in response", "in return", "in reply")
_TIME = _EVENT_WORDS - {"till"} | {"during", "throughout", "within"}


def _past(clause: list[Token]) -> bool:
    """Whether ``clause`` is said in the past ("was", "had", "moved", "took")."""
    return any(t.text.lower() in PAST_BE_HAVE or suffix(t) == "ed"
               or t.kind == "word" and t.text.lower() in IRREGULAR for t in clause)


def _restricts(phrase: list[Token], clause: list[Token]) -> bool:
    """Whether a fronted phrase restricts what its ``clause`` says, so that a claim must keep
    it: a place, a time, a group, "in some cases" ("During rush hour, trains run every four
    minutes", "Among men, smoking rates fell"). Not a date alone, which a claim may leave out
    as less precise; not a phrase that only ties the sentence to the one before ("For
    example,"); not the medium of a report ("In a statement, the firm said"); not a time
    before a past event ("After the war, Smith moved to Paris": he moved to Paris)."""
    said = " ".join(t.text.lower() for t in phrase)
    content = [t for t in phrase if t.content]
    return (bool(content) and not said.startswith(_DISCOURSE)  # "In addition to that ruling,"
            and not all(is_date(t) or t.detail for t in content)  # "On Monday, 3 June 2024,"
            and not (phrase[0].text.lower() in _TIME and _past(clause))
            and not any(t.text.lower() in UNASSERTING for t in clause))


def comparative(tokens: list[Token]) -> list[Token]:
    """"more expensive than" read as one word on its pole ("less expensive than" as
    "cheaper than"), so a comparison reads alike however it is formed, and apart from the
    plain word ("expensive")."""
    than = next((k for k, t in enumerate(tokens) if t.form == "than"), None)
    if than is None or than < 2:
        return tokens
    tokens = _one_named(tokens, than)
    word, before = tokens[than - 1], tokens[than - 2]
    if not word.form.startswith("~") or word.form == "~more":
        return tokens
    if before.form != "~more":  # "cheaper than": a comparison, not "cheap"
        return [*tokens[:than - 1], replace(word, form=f"{word.form}>"), *tokens[than:]]
    return [*tokens[:than - 2], replace(word, form=f"{word.form}>", pole=word.pole ^ before.pole,
                                        text=f"{before.text} {word.text}"),
            *tokens[than:]]


def _one_named(tokens: list[Token], than: int) -> list[Token]:
    """"The new train is faster than the old one" as "... than the old train": the "one" after
    a word that describes it stands for the head noun of the subject."""
    last = len(tokens) - 1
    be = next((k for k, t in enumerate(tokens[:than]) if t.form in BE), None)
    if (be is None or last < than + 2 or tokens[last].form != "one"
            or tokens[last].kind != "word" or not tokens[last - 1].content):
        return tokens
    head = next((t for t in reversed(tokens[:be]) if t.content and t.kind == "word"), None)
    return tokens if head is None else [*tokens[:last], head]


def turned(claim: Clause) -> Clause | None:
    """``claim`` said from the other side, for the alignment to try: its comparison ("A is
    cheaper than B" as "B is more expensive than A"), failing that its identity ("The capital
    of France is Paris" as "Paris is the capital of France"), failing that its passive without
    an agent in the active order ("Smith was fired" as "fired Smith"), failing that what it
    says a thing has where ("The unit has its label on the right side" as "The label is on the
    right side of the unit", and back); None if it has none."""
    return (_compared_the_other_way(claim) or _named_the_other_way(claim)
            or _agent_left_out(claim) or _had_as_its(claim) or _where_its(claim))


def _compared_the_other_way(claim: Clause) -> Clause | None:
    than = next((k for k, t in enumerate(claim) if t.form == "than"), None)
    if than is None or than < 3 or than == len(claim) - 1:
        return None
    word, be = claim[than - 1], than - 2
    if not word.form.startswith("~") or word.form == "~more" or claim[be].form not in BE:
        return None
    first, second = claim[:be], claim[than + 1:]
    if not any(t.content for t in first) or not any(t.content for t in second):
        return None
    return (*second, claim[be], replace(word, pole=1 - word.pole), claim[than], *first)


def _named_the_other_way(claim: Clause) -> Clause | None:
    """"X is Y" as "Y is X" when one side only names something ("Paris", "Jane Doe", "the
    Shard") and the other describes it: an identity reads the same either way. Only with "is"
    or "was" (a plural's "are" may be a generic: "cats are mammals" is not "mammals are
    cats"), and nothing that makes the order matter: no qualifier ("all", "may"), negation,
    participle, second verb, list, aside or "and"/"or"."""
    copulas = [k for k, t in enumerate(claim) if t.form in ("is", "was")]
    if len(copulas) != 1:
        return None
    k = copulas[0]
    first, second = claim[:k], claim[k + 1:]
    if any(t.kind in ("qualifier", "negation") or t.aside or t.listed or participle(t)
           or t.form in AUXILIARIES or t.form in ("and", "or") or t.form in BOUNDARIES
           for t in (*first, *second)):
        return None
    if not (_names_only(first) and _describes(second)) and not (
            _names_only(second) and _describes(first)):
        return None
    return (*second, claim[k], *first)


def _agent_left_out(claim: Clause) -> Clause | None:
    """A passive that leaves its agent out, "P was V-ed ..." (``passive`` reads one with its
    "by" agent), put in the active order without one, "V-ed P ...": the alignment finds it in
    a clause that names the doer, "Smith was fired in 2019" in "The board fired Smith in 2019"
    (the claim says less than the source, never more). The doer's place stays empty, so "The
    board was fired" finds no "board" before "fired Smith"; a participle with an object of its
    own loses its mark ("The tenant must be given notice" in "The landlord must give the
    tenant notice"). What the two voices may not share is ``alignment``'s to check."""
    for i, token in enumerate(claim):
        if token.form not in BE:
            continue
        end = _participles_end(claim, i)
        if end is None or not any(t.content for t in claim[:i]) or (
                end < len(claim) and claim[end].form == "by"):
            return None
        return (*_active_order(claim[:i], claim[i + 1:end], (), _tense_of(token)),
                *claim[end:])
    return None


def _had_as_its(claim: Clause) -> Clause | None:
    """"A has its B on C" as "B is on C of A": where a thing has a part is where the part is
    on it ("The outdoor unit has its serial number label on the right side" / "The serial
    number label is on the right side of the outdoor unit"). Only "has" or "have", then "its"
    or "their", a noun phrase, a preposition of place and the clause's end: no qualifier,
    negation, number, list or aside."""
    at = next((k for k, t in enumerate(claim) if t.form in ("has", "have")), None)
    if at is None or at == 0 or at + 3 >= len(claim) or claim[at + 1].form not in (
            "its", "their"):
        return None
    owner, rest = claim[:at], claim[at + 2:]
    place = next((k for k, t in enumerate(rest) if t.form in _PLACES), None)
    if (place is None or place == 0 or not all(t.content for t in rest[:place])
            or not any(t.content for t in owner) or not any(t.content for t in rest[place:])
            or any(t.kind in ("qualifier", "negation", "number") or t.aside or t.listed
                   for t in claim)):
        return None
    be = Token("is", "is", "function")
    of = Token("of", "of", "function")
    return (*rest[:place], be, *rest[place:], of, *owner)


_PLACES = frozenset(("on", "in", "at", "inside", "under", "behind", "beside"))


def _where_its(claim: Clause) -> Clause | None:
    """"B is on C of A" as "A has its B on C" (``_had_as_its`` the other way): "is" or "are",
    a preposition of place, the place, "of" and the owner at the clause's end; the same
    words only."""
    at = next((k for k, t in enumerate(claim) if t.form in ("is", "are")), None)
    of = max((k for k, t in enumerate(claim) if t.form == "of"), default=None)
    if (at is None or of is None or not 0 < at < of - 2 or claim[at + 1].form not in _PLACES
            or of + 1 >= len(claim) or not all(t.content for t in claim[of + 1:])
            or any(t.kind in ("qualifier", "negation", "number") or t.aside or t.listed
                   for t in claim)):
        return None
    has = Token("has", "has", "function")
    its = Token("its", "its", "function")
    return (*claim[of + 1:], has, its, *claim[:at], *claim[at + 1:of])


def _names_only(side: Clause) -> bool:
    content = [t for t in side if t.content]
    return bool(content) and all(t.kind == "name" or t.text[:1].isupper() for t in content)


def _describes(side: Clause) -> bool:
    return any(t.kind == "word" and not t.text[:1].isupper() for t in side)


def range_ends(clause: Clause) -> list[Token]:
    """``clause`` with each range followed by its two ends: a bare number named as an answer
    ("1892") is named by the range "1892-1901", a statement ("founded in 1892") is not; a
    range ("the 1990s") by itself."""
    out = []
    for token in clause:
        if token.form.startswith("range:"):
            low, high = (float(v) for v in token.form[6:].split("/")[0].split("-"))
            out += [token, *(Token(f"#{v:g}", f"{v:g}", "number",
                                   amount=quantities.amount(f"{v:g}", v)) for v in (low, high))]
        else:
            out.append(token)
    return out


def mark_events(tokens: list[Token]) -> list[Token]:
    """"until the Chrysler Building was finished in 1930" read as "until 1930": an event after
    "until", "before", "after" or "since" that a year or date ends is a parenthetical, when
    it holds a verb and no number, negation, qualifier or second statement of its own."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.text.lower() not in _EVENT_WORDS or i + 1 >= len(out) or (
                out[i + 1].kind == "number"):
            continue
        end = next((j for j in range(i + 1, len(out)) if out[j].kind == "number"), None)
        if end is None or not is_date(out[end]) or out[end - 1].form not in ("in", "on"):
            continue
        event = out[i + 1:end - 1]
        if not event or not any(t.form in BE or suffix(t) for t in event) or any(
                t.kind in ("negation", "qualifier") or t.form in ("and", "or")
                or t.text.lower() in PRONOUNS or t.form in BOUNDARIES for t in event):
            continue
        out[i + 1:end] = [replace(t, aside=t.aside or 1000 + i) for t in out[i + 1:end]]
    return out


def passive(tokens: list[Token]) -> list[Token]:
    """"P was V-ed by A ..." read as "A V-ed P ...": both voices give the same order. The verb
    may be a list ("designed and built by"), the agent a phrase ("the company of the engineer
    Gustave Eiffel"). So may a participle after what P is said to be ("P is a software company
    founded by A in 2001": "A founded P in 2001 is a software company"), where those words are
    of what it is (``of_what_it_is``)."""
    for i, token in enumerate(tokens):
        if token.form not in BE or i + 2 >= len(tokens):
            continue
        noun = i + 1
        while noun < len(tokens) and of_what_it_is(tokens, noun) and not participle(
                tokens[noun]) and tokens[noun].kind != "number":  # not "was 60 percent contained"
            noun += 1
        if noun > i + 1:  # "is a software company founded by A"
            by = _participles_end(tokens, noun - 1)
            found = None if by is None else _agent(tokens, by)
            if found is None or any(t.kind in ("qualifier", "negation") for t in tokens[:i]):
                continue  # "P may be a firm founded by A": the passive as it stands
            agent, agent_end = found
            when = "ed" if dated(tokens[agent_end:]) else _tense_of(token)  # "an inn run by
            # two sisters in the 1990s" is run by them no more
            return [*_active_order(tokens[:i], tokens[noun:by], agent, when),
                    *tokens[agent_end:],
                    token, *tokens[i + 1:noun]]
        by = _participles_end(tokens, i)
        if by is None:
            continue
        if by < len(tokens) and tokens[by].text.lower() in PARTICLES:
            by += 1  # "sent off by the referee": the referee sent off
        found = _agent(tokens, by)
        if found is None:
            continue
        agent, agent_end = found
        return [*_active_order(tokens[:i], tokens[i + 1:by], agent, _tense_of(token)),
                *tokens[agent_end:]]
    return tokens


def _agent(tokens: list[Token], by: int) -> tuple[list[Token], int] | None:
    """The agent after "by" at ``tokens[by]`` and where it ends; None where ``tokens[by]`` is
    no "by", nothing follows it, or a clause or a measure of its own does ("owned by a man who
    founded Oxfam", "run by a firm 5 km from Siena": turned round, it would follow what was
    owned)."""
    if by >= len(tokens) or tokens[by].form != "by":
        return None
    end = _agent_end(tokens, by + 1)
    after = tokens[end] if end < len(tokens) else None
    if after is not None and (after.text.lower() in RELATIVES and not after.aside
                              or after.amount is not None and after.amount.unit is not None):
        return None  # nor a measure ("run by a firm 5 km from Siena")
    return (tokens[by + 1:end], end) if end > by + 1 else None


def of_what_it_is(tokens: Sequence[Token], q: int) -> bool:
    """Whether ``tokens[q]`` may be a word of what a thing is said to be ("is an American rock
    band"): a word, name or number of no aside, not one that makes the thing another or a time
    ("a so-called cure", "a former jail", "once"), nor an adverb, a verb in "-ing" or a
    preposition, which belong to another phrase ("is becoming a hub", "a drug briefly
    approved", "a tower like the one on ...")."""
    token, word = tokens[q], tokens[q].text.lower()
    return (token.kind in ("word", "name", "number") and not token.aside
            and word not in TITLE_CHANGERS and word not in TIME_ADVERBS
            and word not in PREPOSITIONS and (suffix(token) != "ing" or ing_noun(tokens, q))
            and not (word.endswith("ly") and not _before_its_noun(tokens, q))
            and changes(*word_and_next(tokens, q)) is None)


def ing_noun(tokens: Sequence[Token], q: int) -> bool:
    """Whether the word in "-ing" at ``tokens[q]`` ends a noun phrase after another of its
    words, before a preposition or the clause's end ("a small brick building on Mill
    Street"), so it is a noun: not the verb of "is becoming a hub" (straight after "be"), of
    "a mural depicting a battle" (an object after it), nor one after an adverb ("a town
    quickly growing")."""
    before = tokens[q - 1] if q else None
    after = tokens[q + 1] if q + 1 < len(tokens) else None
    return before is not None and before.kind in ("word", "name", "number") and (
        after is None or after.kind == "function" or after.text.lower() in PREPOSITIONS) and (
        before.form not in BE and not before.text.lower().endswith("ly")
        and suffix(before) != "ing" and not participle(before))


def _before_its_noun(tokens: Sequence[Token], q: int) -> bool:
    """Whether the word in "-ly" at ``tokens[q]`` stands before a word of the noun, not a
    participle, so it is part of the noun ("a weekly newspaper", "a stately home", "a highly
    toxic plant") and no adverb of what follows ("a drug briefly approved", "a company wholly
    owned by")."""
    after = tokens[q + 1] if q + 1 < len(tokens) else None
    return after is not None and after.kind == "word" and not participle(after) and suffix(
        after) != "ing" and after.text.lower() not in PREPOSITIONS


def _participles_end(tokens: Sequence[Token], i: int) -> int | None:
    """Where the participles after the form of "be" at ``tokens[i]`` end ("is not covered",
    "was designed and built"); None when what follows is no participle."""
    first = i + 1
    while first < len(tokens) and tokens[first].kind == "negation":
        first += 1  # "is not covered by"
    end = first
    while end < len(tokens) and tokens[end].kind == "word" and (
            end == first or tokens[end].listed and tokens[end].listed == tokens[first].listed):
        end += 1
    verbs = tokens[first:end]
    return end if verbs and all(participle(v) for v in verbs) else None


def _tense_of(be: Token) -> str:
    """The tense a form of "be" gives the participle after it: "s" for "is", "ed" for "was",
    "" for "be" and "been" (the verb's own)."""
    word = be.text.lower()
    return "ed" if word in ("was", "were") else "s" if word in ("is", "are", "am") else ""


def _active_order(subject: Sequence[Token], verbs: Sequence[Token], agent: Sequence[Token],
                  tensed: str) -> list[Token]:
    """The passive "P [modal] be V-ed" (``subject``: P and its modal; ``verbs``: the
    participles) in the active order after ``agent`` (none when the passive leaves it out): "A
    [modal] V-ed P". A modal goes with the verb ("must be given by the tenant": "the tenant
    must give"); a participle loses its passive mark and takes the tense ``tensed`` its "be"
    gives it ("is owned by Acme" says Acme owns it now, "was owned by" that it did)."""
    modal = len(subject)
    while modal and subject[modal - 1].kind in ("qualifier", "negation"):
        modal -= 1
    active = [replace(t, form=t.form.removesuffix(PASSIVE),
                      tensed=tensed if participle(t) else t.tensed) for t in verbs]
    return [*agent, *subject[modal:], *active, *subject[:modal]]


def _agent_end(tokens: list[Token], start: int) -> int:
    """Where the agent after "by" ends: its words and names ("two thieves"), titles, and
    phrases of "of", or of "at" or "from" before a name ("the company of the engineer
    Gustave Eiffel", "engineers at NASA", "engineers from Delft"), up to a preposition or
    anything else."""
    end = start
    while end < len(tokens):
        token = tokens[end]
        after = tokens[end + 1] if end + 1 < len(tokens) else None
        joins = after is not None and (token.form == "of" and after.content or (
            token.form in ("at", "from") and after.kind == "name"))
        if token.form in CONTENT_PREPOSITIONS or token.form in LINKS and not joins or not (
                token.kind in ("name", "word") or token.detail or joins
                or end == start and token.text.lower() in POSSESSIVES):  # "by our driver"
            break  # "by the police near the station": the police
        end += 1
    return end




def possessive(tokens: list[Token]) -> list[Token]:
    """"Paris's population" read as "population of Paris", "Acme's chief executive" as "chief
    executive of Acme"."""
    out = list(tokens)
    for i, token in enumerate(out):
        if token.text.lower().endswith("'s") and i + 1 < len(out) and out[i + 1].content:
            start = i
            while start > 0 and (out[start - 1].kind == "name" or start == 1 and out[0].text[
                    :1].isupper() and out[0].kind == "word") and (  # "The Orchard club's":
                    out[start - 1].aside == token.aside):  # a name, its first word read as a
                start -= 1  # word; not across an aside's edge
            opening = next((k for k in range(start - 1, max(-1, start - 4), -1)
                            if out[k].opened), None)  # "the bowls club's": back to "the"
            if token.kind == "word" and not out[start].opened and opening is not None and all(
                    t.kind in ("word", "name") and t.aside == token.aside and not past(t)
                    and suffix(t) != "ed" for t in out[opening:start]):  # a common noun's
                start = opening  # phrase, no verb: not "the judge lowered Knight's"
            if start > 0 and out[start - 1].text.lower() in POSSESSIVES:
                start -= 1  # "your neighbour's dog": the dog of your neighbour, not yours
            end = _noun_phrase_end(out, i + 1)
            owner, owned = out[start:i + 1], out[i + 1:end]
            return [*out[:start], *owned, *owner, *possessive(out[end:])]
    return out


def _noun_phrase_end(tokens: list[Token], start: int) -> int:
    """Where the noun phrase that starts at ``tokens[start]`` ends: its words run to a verb
    ("Acme's chief executive is", "Tesla's chief executive praised"), a modal, a negation or
    a preposition, or to the clause's end ("the men's 3000 metres steeplechase"). Anything
    else ends it after its first word: a run may hold an irregular verb ("Lyon's population
    grew", "Eiffel's company built it")."""
    end = start + 1
    while (end < len(tokens) and tokens[end].kind == "word" and not suffix(tokens[end])
           and not past(tokens[end]) and tokens[end].form not in CONTENT_PREPOSITIONS):
        end += 1
    if end == len(tokens) and not any(participle(t) for t in tokens[start + 1:end]):
        return end  # "the men's 3000 metres steeplechase", not "Lyon's population grew"
    if end < len(tokens):
        stop = tokens[end]
        if (stop.form in AUXILIARIES or stop.kind in ("qualifier", "negation")
                or stop.form in CONTENT_PREPOSITIONS or (stop.kind == "word" and suffix(stop))):
            return end
    return start + 1
