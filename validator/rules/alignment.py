"""Support by alignment: a claim is supported only when one evidence clause states it.

Each text is read into *clauses* of tokens (``reading.read``), restatements undone
(``restatements``). A claim's token matches an evidence token when it states it: the same
word, name or date, a synonym of one first sense (``word_lists.synonyms``), or a number whose
values include all the evidence's (``quantities``).

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

from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass
from difflib import SequenceMatcher

from ..text.cues import ASSERTING_HEADS
from ..text.grammar import (
    AUXILIARIES,
    BE,
    DEMONSTRATIVES,
    FIRST_PLURAL,
    FIRST_SINGULAR,
    HAVE,
    MODALS,
    PAST_BE_HAVE,
    PERSON_OF,
    POSSESSIVE,
    POSSESSIVES,
    PREPOSITIONS,
    PRESENT_BE_HAVE,
    QUANTIFIERS,
    RELATIVES,
    SECOND,
    SPEAKERS,
    TIME_ADVERBS,
)
from ..text.word_forms import (
    AFTER_A_DATE,
    IRREGULAR,
    MONTH_OF,
    SAME_PARTICIPLES,
    TIMES,
    WEEKDAYS,
    plural,
    snowball,
)
from ..types import FailureKind
from . import quantities
from .reading import bare, read
from .restatements import ing_noun, of_what_it_is, range_ends, turned
from .tokens import (
    ALTERNATIVES,
    ATTRIBUTED,
    CONDITIONS,
    CONTENT_PREPOSITIONS,
    LINKS,
    PRONOUNS,
    QUESTION,
    REPORTED,
    SETTINGS,
    TITLE_CHANGERS,
    UNASSERTING,
    Clause,
    Token,
    dated,
    has_verb,
    is_date,
    is_mention,
    participle,
    past,
    place,
    suffix,
    tense,
    word_and_next,
)
from .word_lists import BOTH_VOICES, changes, synonyms

__all__ = ["Alignment", "Clause", "Token", "align", "best_alignment", "has_verb", "is_mention",
           "read", "same", "synonyms"]


MAX_CELLS = 250_000  # claim tokens x evidence tokens one alignment may compare


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
    stated: tuple[Token, ...] = ()  # the evidence tokens the claim's matched, in order
    rival: Token | None = None  # the evidence's other value or name of an explicit conflict
    clause: Clause = ()  # the evidence clause's tokens
    fault: FailureKind | None = None  # what a conflict or a block finds wrong with the claim
    claim: Clause = ()  # the claim clause's tokens
    left_out: tuple[Token, ...] = ()  # evidence tokens it may leave out (``Matched.dropped``)

    @property
    def aligned(self) -> bool:
        return self.matched == self.needed and self.conflict is None and self.blocked is None


def align(claim: Clause, evidence: Clause, known: Set[str] = frozenset()) -> Alignment:
    """The best in-order match of ``claim``'s content tokens in ``evidence``: a longest
    common subsequence (lists were put in one order as they were read), then the checks on
    what lies between the matched tokens. ``known``: the word forms of all the evidence
    (``_narrower``)."""
    at = [k for k, t in enumerate(claim) if t.content]
    wanted = [claim[k] for k in at]
    stating = not is_mention(claim)  # a bare name or number conflicts with nothing
    said = list(evidence) if stating else range_ends(evidence)
    text = " ".join(t.text for t in evidence if t.text)
    if len(wanted) * len(said) > MAX_CELLS:  # hostile length: fail closed, in bounded time
        return Alignment(0, len(wanted), tuple(wanted), None,
                         "the clause is too long for the rules to align", text[:200])
    pairs = _match(wanted, said)
    matched = dict(pairs)
    narrower = _narrower(claim, evidence, wanted, said, pairs, known)
    missing = tuple(t for i, t in enumerate(wanted) if i not in matched and i not in narrower)
    # where the claim says "it" between two matched words, the evidence may name the thing
    referents = {j for (i1, j1), (i2, j2) in zip(pairs, pairs[1:], strict=False)
                 if any(claim[k].text.lower() in PRONOUNS for k in range(at[i1] + 1, at[i2]))
                 for j in range(j1 + 1, j2)}
    # "his bail" for "Knight's bail" (read as "bail Knight's"): the owner the claim calls "his"
    referents |= {j + 1 for i, j in pairs if at[i] and claim[at[i] - 1].form in _OWNERS
                  and j + 1 < len(said) and said[j + 1].text.lower().endswith("'s")}
    # a clause of lists paired in order ("... €14 and €6 respectively") conflicts with nothing:
    # which value is whose, the rules do not read
    paired = _paired(evidence, pairs)
    found = _conflict(evidence, wanted, pairs, missing, referents) if stating and not paired \
        else None
    conflict, rival = ((found[0], found[1]), found[2]) if found else (None, None)
    fault = None
    if rival is not None:  # a name after a number is its unit ("220 °F" for "220 °C")
        fault = ((FailureKind.DATE if missing[0].text.lower() in AFTER_A_DATE
                  else FailureKind.NUMBER) if after_number(missing[0], claim)
                 else fault_of(rival, evidence))  # "BC" for "AD"; "°F" for "°C"
    blocked = None
    may_leave_out: Set[int] = frozenset()
    if not missing:
        described = _what_it_is(claim, at, said, pairs)
        may_leave_out = _all_left_out(claim, said, pairs) | described | \
            _clause_on_the_subject(claim, at, said, pairs)
        matched_here = Matched(claim, at, said, pairs, referents, may_leave_out, stating,
                               described)
        blocked, fault = next(((why, block.fault) if isinstance(why, str) else why
                               for block in BLOCKS if stating or not block.statements_only
                               if (why := block.check(matched_here))), (None, fault))
        if blocked is None and stating:
            conflict = _polarity(claim, evidence, pairs, wanted, may_leave_out)
            fault = (_of_a_date(claim, wanted, said, pairs) or FailureKind.OPPOSITE) if conflict \
                else fault
    return Alignment(len(pairs), len(wanted) - len(narrower), missing, conflict, blocked, text,
                     _instead(wanted, said, matched, missing), tuple(said[j] for _, j in pairs),
                     rival, evidence, fault, claim, tuple(said[j] for j in sorted(may_leave_out)))


def fault_of(token: Token, clause: Sequence[Token] = ()) -> FailureKind:
    """What a claim gets wrong where it gives ``token`` (of ``clause``) otherwise: a name is
    an entity, a number a date (a year, a day, a month, a time: "9" of "9 p.m.", "18" of "the
    18th century") or a number."""
    word = token.text.lower()
    if word in WEEKDAYS or word in TIMES or word in MONTH_OF and token.text[:1].isupper():
        return FailureKind.DATE  # "Monday" for "Tuesday", "May" for "June" (not "may")
    if token.kind == "name":
        return FailureKind.ENTITY
    if is_date(token) or _kind_of(token) in _DATES or _years(token.form) or (
            token.kind == "number" and _followed_by_date_mark(token, clause)):
        return FailureKind.DATE
    return FailureKind.NUMBER


def _followed_by_date_mark(token: Token, clause: Sequence[Token]) -> bool:
    at = place(token, clause)
    after = [t.text.lower() for t in clause[at + 1:at + 3]] if at is not None else []
    return bool(after) and (after[0] in AFTER_A_DATE or after[0] in ("th", "st", "nd", "rd")
                            and len(after) > 1 and after[1] in AFTER_A_DATE)


def _years(form: str) -> bool:
    """Whether a range's form spans years ("range:1880-1889", the 1880s)."""
    ends = form.removeprefix("range:").split("-") if form.startswith("range:") else ()
    return len(ends) == 2 and all(e.isdigit() and 1000 <= int(e) <= 2100 for e in ends)


_DATES = frozenset(("date", "month", "time", "weekday"))


def after_number(token: Token, clause: Sequence[Token]) -> bool:
    """Whether ``token`` comes right after a number in ``clause``, or after a number and a
    word ("100 degrees Celsius"): part of that number's unit."""
    at = place(token, clause) or 0
    if at and is_date(clause[at - 1]) or fault_of(token) == FailureKind.DATE:
        return False  # "December 2021": a year after its month; "15 August": a date
    return at > 0 and clause[at - 1].kind == "number" or at > 1 and (
        clause[at - 2].kind == "number" and clause[at - 1].kind == "word")


@dataclass(frozen=True)
class Matched:
    """A claim clause whose every content word the evidence clause ``said`` matched (``pairs``:
    claim index, evidence index), for the checks that may still keep it from aligning."""

    claim: Clause
    at: list[int]  # the claim's content tokens' indices
    said: list[Token]
    pairs: list[tuple[int, int]]
    referents: Set[int]  # evidence tokens a pronoun of the claim stands for
    # evidence tokens the claim may leave out: the "all"s (``_all_left_out``), what a thing is
    # said to be (``_what_it_is``) and a clause on the subject (``_clause_on_the_subject``)
    dropped: Set[int]
    stating: bool  # the claim states something (it is not a bare mention)
    described: Set[int] = frozenset()  # of them, what a thing is said to be (``_what_it_is``)


@dataclass(frozen=True)
class Block:
    """A check that keeps a fully matched claim from aligning: why, or None."""

    # why, or None; with what the claim gets wrong where that depends on the word that blocks
    check: Callable[[Matched], str | tuple[str, FailureKind] | None]
    statements_only: bool  # a bare mention ("Walmart") is not checked
    # the pair sets' trap classes it keeps from passing ("set/class" of tests/unit/rules/pairs;
    # without the check, some of each pass), or the unit test that shows it
    shown_by: tuple[str, ...]
    fault: FailureKind  # what a claim it blocks gets wrong, unless ``check`` says


# In order; the first that finds a reason gives it.
BLOCKS = (
    Block(lambda m: _of_another(m.said, m.pairs[0][1]) if m.pairs and _says(m.claim) else None,
          False, ("traps/relative_clause_other_entity",),  # and, with ``_someone_elses``,
          # traps/possessive_head_shift, which either check alone now holds
          FailureKind.ENTITY),
    Block(lambda m: _out_of_an_aside(m.said, m.pairs), True,
          ("test_one_statement: what an aside names is not what the clause is said of",),
          FailureKind.ENTITY),
    Block(lambda m: _gap(m.said, [j for _, j in m.pairs], m.referents | m.dropped), False,
          ("traps_2/request_or_plan_read_as_fact", "traps_2/negation_hidden",
           "traps/goal_vs_outcome"),
          FailureKind.UNASSERTED),
    Block(lambda m: _voice(m.claim, m.at, m.said, m.pairs, m.described), True,
          ("test_restatements: the one done to made the doer",),
          FailureKind.ROLES),
    Block(lambda m: _someone_elses(m.claim, m.at, m.said, m.pairs), True,
          ("test_one_statement: an owner is not the owned",),
          FailureKind.ENTITY),
    Block(lambda m: _whose_value(m.said, m.pairs), True,
          ("test_one_statement: two lists are not read as paired",), FailureKind.ROLES),
    Block(lambda m: _other_end(m.claim, m.at, m.said, m.pairs), True,
          ("test_one_statement: where it goes from is not where it goes to",),
          FailureKind.ROLES),
    Block(lambda m: _then_not_now(m.claim, m.said, m.pairs, m.at), True,
          ("traps/time_scope_dropped", "held_out_traps/tense_changed"),
          FailureKind.CIRCUMSTANCE),
    Block(lambda m: _asked_for(m.claim, m.at, m.said, m.pairs), True,
          ("test_one_statement: a verb with no subject asks for it to be done",),
          FailureKind.UNASSERTED),
    Block(lambda m: _now_not_then(m.claim, m.said, m.pairs, m.described), True,
          ("test_one_statement: what is done is not that it was",),
          FailureKind.CIRCUMSTANCE),
    Block(lambda m: _person(m.claim, m.said) or _doer(m.claim, m.said, m.pairs), True,
          ("test_rules: who did it is kept",),
          FailureKind.OTHER_PERSON),  # before a title: "You fixed it" from "The
    # caretaker fixed it" names someone else, whatever "caretaker" may make a title
    Block(lambda m: _title_changed(m.said, m.pairs), False,
          ("traps_2/title_or_role_changed", "held_out_traps/title_changed"),
          FailureKind.ENTITY),
    Block(lambda m: _name_cut(m.claim, m.said, m.pairs, m.referents), True,
          ("test_answers: a name cut short is another name",),
          FailureKind.ENTITY),
    Block(lambda m: _scope_left_out(m.said, m.pairs), True,
          ("traps_2/scope_widened", "traps/scope_place_widened"),
          FailureKind.CIRCUMSTANCE),
    Block(lambda m: _qualifier(m.claim, m.said, m.pairs, m.dropped, m.stating), False,
          ("traps_2/condition_dropped", "traps_2/attribution_dropped", "traps/conditional"),
          FailureKind.UNASSERTED),
    Block(lambda m: _one_of(m.claim, m.said, m.pairs), False,
          ("test_one_statement: what holds of a kind says nobody is one",),
          FailureKind.OTHER_PERSON),
)



def _doer(claim: Clause, said: Sequence[Token], pairs: list[tuple[int, int]]) -> str | None:
    """Why a claim whose subject is a pronoun ("You repaired the boiler", "We pay the
    postage") is not what the evidence says of a doer it names ("The landlord repaired the
    boiler", "Customers pay the postage"): someone else did it. What a source says of
    everyone, now or under a modal ("Customers can return items", "Members pay half"), is
    said of "you" too, never of "we" or "I"; what it says of one ("The company pays"), or
    did in the past, of no one else."""
    if not claim or claim[0].text.lower() not in SPEAKERS or claim[0].referent or not pairs:
        return None
    past = any(t.form in PAST_BE_HAVE or t.form == "did" or suffix(t) == "ed"
               or t.text.lower() in IRREGULAR for t in claim)
    if past and any(t.kind == "qualifier" for t in claim):
        return None
    first = min(j for _, j in pairs)
    doer = [t for t in said[:first] if t.kind in ("word", "name")]
    if not doer:
        return None
    head = doer[-1]  # "Customers" is everyone of a kind; "The company", "Acme", "your
    # landlord" one in particular
    one = head.kind == "name" or suffix(head) not in ("s", "es") or any(
        t.text.lower() in _ONE_OF for t in said[:first])
    if not past and PERSON_OF.get(claim[0].text.lower()) == PERSON_OF["you"] and not one:
        return None  # what holds of everyone ("Customers pay ...") holds of "you"
    return (f"the source says {' '.join(t.text for t in doer)!r} did it, the claim "
            f"{claim[0].text!r}: someone else")


# Words before a noun that make it one (or some) in particular, not everyone of its kind.
_ONE_OF = DEMONSTRATIVES | POSSESSIVES


def _one_of(claim: Clause, said: Sequence[Token], pairs) -> str | None:
    """Why "You are a Platinum member" is not what the evidence says of Platinum members
    ("Platinum members get free delivery"): what holds of a kind does not say who is one.
    Only where the claim's words are the evidence's subject (not "You are responsible for
    returns" against "Customers are responsible for returns"), and no clause that says it of
    the same person ("you are ...") states it."""
    if len(claim) < 2 or claim[0].referent or claim[1].form not in BE or not pairs:
        return None
    if any(t.content for t in said[:min(j for _, j in pairs)]):
        return None  # the evidence's own subject comes first: the claim is said of it
    person = PERSON_OF.get(claim[0].text.lower())
    if claim[0].text.lower() not in SPEAKERS or any(
            PERSON_OF.get(t.text.lower()) == person and not t.referent for t in said):
        return None
    return (f"the source says what holds of a kind, not that {claim[0].text.lower()!r} "
            f"{claim[1].text} one of it")


def _person(claim: Clause, said: Sequence[Token]) -> str | None:
    """Why a claim does not say what the evidence says where they name another person: "My
    brother bought a car" does not state "You bought a car", nor "her account" "your account".
    Only where the evidence names a person by a pronoun at all ("Customers may return items"
    is said of whoever "you" is)."""
    def persons(tokens: Sequence[Token]) -> dict[str, str]:
        # a possessive with its noun is a person of its own: "your brother" is not "you"
        found = {}
        for k, t in enumerate(tokens):
            word = t.text.lower()
            if word not in PERSON_OF or t.referent:
                continue
            owned = (word in POSSESSIVES and k + 1 < len(tokens) and tokens[k + 1].content)
            key = f"{PERSON_OF[word]}:{tokens[k + 1].form}" if owned else str(PERSON_OF[word])
            found[key] = f"{t.text} {tokens[k + 1].text}" if owned else t.text
        return found

    mine, theirs = persons(claim), persons(said)
    if not mine or not theirs or mine.keys() <= theirs.keys():
        return None
    word = next(w for p, w in mine.items() if p not in theirs)
    other = next(iter(theirs.values()))
    return f"the source says it of {other!r}, not of {word!r}: of someone else"


UNIVERSAL = frozenset(("each", "all"))  # "every" is read as "each"
# Modifiers whose noun is not the thing itself ("a former employee" is no employee): a universal
# over the noun says nothing of them.
NOT_THE_THING = TITLE_CHANGERS | frozenset("past retired model".split())


def _narrower(claim: Clause, evidence: Clause, wanted: list[Token], said: list[Token],
              pairs: list[tuple[int, int]], known: Set[str]) -> set[int]:
    """The claim's words that only narrow what a universal of both speaks of: "Every worker
    node has 64 GB" is stated by "Each node has 64 GB" (what holds of each node holds of each
    worker node). Only words between the matched "each", "every" or "all" and the next
    matched word, which the evidence says with nothing but function words between, and only
    words the evidence uses elsewhere ("The cluster has 16 worker nodes"): the claim may pick
    out a kind the source speaks of, not bring one in. Never a name, number or qualifier,
    never a word such as "former" or "toy" (a former employee is no employee), never under a
    negation ("not every node" says nothing of every worker node)."""
    if any(t.kind == "negation" for t in (*claim, *evidence)):
        return set()
    found: set[int] = set()
    for (i0, j0), (i1, j1) in zip(pairs, pairs[1:], strict=False):
        between = range(i0 + 1, i1)
        if (wanted[i0].kind == "qualifier" and wanted[i0].form in UNIVERSAL and between
                and all(wanted[i].kind == "word" and wanted[i].form in known
                        and wanted[i].text.lower() not in NOT_THE_THING for i in between)
                and not any(t.content for t in said[j0 + 1:j1])):
            found.update(between)
    return found


def _slot(matched: dict[int, int], k: int) -> tuple[int | None, int | None]:
    """The evidence positions matched just before and just after the claim's ``k``-th content
    token (None where nothing is): the slot the evidence gives it."""
    before = max((matched[i] for i in matched if i < k), default=None)
    after = min((matched[i] for i in matched if i > k), default=None)
    return before, after


def _instead(wanted: list[Token], said: list[Token], matched: dict[int, int], missing) -> tuple:
    """(claim token, evidence token) for each missing claim word whose slot, between the
    matched words either side of it, holds exactly one other content word of the evidence:
    "built" where the source says "constructed"."""
    found = []
    for token in missing:
        before, after = _slot(matched, wanted.index(token))
        if before is not None:
            low, high = before + 1, after if after is not None else min(len(said), before + 2)
        elif after is not None:
            low, high = max(0, after - 1), after
        else:
            continue
        others = [t for t in said[low:high] if t.content and not t.aside and not t.detail]
        if len(others) == 1 and others[0].kind == token.kind:
            found.append((token, others[0]))
    return tuple(found)


def same(a: Token, b: Token) -> bool:
    """Whether the claim's token ``a`` is stated by the evidence's ``b``."""
    if a.form.startswith("month:") and b.form.startswith("date:"):  # "in May" for "3 May"
        return a.form[len("month:"):] == b.form[len("date:"):].split("-")[0]
    if a.amount and b.amount:  # by what each allows (quantities)
        return a.amount.stated_by(b.amount)
    if a.form == b.form:
        return True
    if a.kind == b.kind == "word":
        return synonyms(a.form, b.form)
    if a.kind == b.kind == "qualifier":  # "said" after a statement is the "said" before it
        return _bare(a.form) == _bare(b.form)
    if {a.kind, b.kind} == {"word", "name"}:  # a name that opens its sentence reads as a word
        return bare(a.text) == bare(b.text)
    # "07:45" of "07:45:30": a time may leave its seconds out
    return a.kind == "number" and a.form.startswith("time:") and b.form.startswith(a.form + ":")


def _match(wanted: list[Token], said: list[Token]) -> list[tuple[int, int]]:
    """Pairs (claim index, evidence index) of a longest common subsequence: in order in
    both (lists were put in one order as they were read). Of the evidence's words that could
    open it, the last that still lets the rest match: the claim is held to the stretch of the
    statement that says it ("The tower is on the Champ de Mars" to "... a lattice tower on the
    Champ de Mars", not from "The Eiffel Tower is a lattice ...")."""
    n, m = len(wanted), len(said)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = (best[i + 1][j + 1] + 1 if same(wanted[i], said[j])
                          else max(best[i + 1][j], best[i][j + 1]))
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if (wanted[i].form != said[j].form and best[i][j + 1] == best[i][j]
                and same(wanted[i], said[j])
                and any(t.form == wanted[i].form for t in said[j + 1:])):
            j += 1  # a synonym ("thieves" for "stole") when the word itself comes later
        elif same(wanted[i], said[j]) and best[i][j] == best[i + 1][j + 1] + 1:
            if not pairs:
                j = max(k for k in range(j, m) if same(wanted[i], said[k])
                        and best[i + 1][k + 1] + 1 == best[i][j])
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def _gap(said: list[Token], matched: list[int], referents: Set[int] = frozenset()
         ) -> tuple[str, FailureKind] | None:
    """Why the evidence between the matched tokens breaks the statement: a content word that
    is no part of a parenthetical or of a list the claim draws on; and what the claim gets
    wrong by leaving it out (``_left_out``)."""
    if not matched:
        return None
    low, high = min(matched), max(matched)
    lists = {said[j].listed for j in matched if said[j].listed}
    # a number or date the claim leaves out makes it less precise, not wrong; one of a kind
    # the claim states is skipped only if it is not a rival ("six" matched the 6 of "Wi-Fi 6",
    # "four ports" skipped)
    kinds = {_kind_of(said[j]) for j in matched if said[j].kind == "number"}
    # an aside the claim aligns into is said of it ("Jane Doe, the former CEO of Acme, spoke"
    # does not state "Jane Doe, the CEO of Acme, spoke")
    used = _asides_aligned_into(said, matched)
    left = [j for j in range(low, high + 1)
            if not (j in matched or j in referents or not said[j].content
                    or said[j].aside and said[j].aside not in used
                    or said[j].detail or said[j].listed in lists)
            and not (said[j].kind == "number" and _kind_of(said[j]) not in kinds)]
    if not left:
        return None
    # the word that tells most of what the claim gets wrong ("candidate" of "the Democratic
    # candidate for mayor"), the first of equals
    j, fault = min(((j, _left_out(said, j)) for j in left), key=lambda p: (
        TELLING.index(p[1]), changes(*word_and_next(said, p[0])) is None))  # one of the table
    # before one that tells the same by where it stands, then the first
    after = min(k for k in matched if k > j)
    resumes = said[after].form in AUXILIARIES or said[after - 1].form in AUXILIARIES
    if fault == FailureKind.CIRCUMSTANCE and any(
            said[k].text.lower() in RELATIVES and (k - 1 not in matched or not resumes)
            for k in range(max(0, low - 3), j)):
        fault = FailureKind.ENTITY  # a relative clause on another noun, or one the claim's
        # next word is in, says it of another thing ("the novel on which the film was based
        # won", "the bridge that replaced the one destroyed"); one on the claim's own noun
        # that its verb follows narrows it ("Members who joined before 2010 are exempt")
    before = max(k for k in matched if k < j)
    return (f"the source says {said[j].text!r} between {said[before].text!r} and "
            f"{said[after].text!r}, which the sentence leaves out", fault)


# The kinds of what a claim gets wrong by leaving a word out, the most telling first: a word
# that turns the statement round tells more than one that narrows it.
TELLING = (FailureKind.OPPOSITE, FailureKind.UNASSERTED, FailureKind.ENTITY, FailureKind.NUMBER,
           FailureKind.CIRCUMSTANCE)


def quantity(word: str) -> FailureKind:
    """What a claim gets wrong by a quantifier (``QUANTIFIERS``): how much of a group ("all",
    "some", "most") is its scope; a comparison of amounts ("more", "fewer") a number."""
    return FailureKind.NUMBER if word in _AMOUNTS else FailureKind.CIRCUMSTANCE


_AMOUNTS = frozenset(("more", "less", "fewer", "much", "enough"))


# Words that say how near a statement comes to holding: "almost all", "was nearly empty" (a
# part for the whole), "almost died" (it did not happen).
DEGREES = frozenset(("almost", "nearly"))


def degree(said: Sequence[Token], j: int) -> FailureKind:
    """What a claim gets wrong that leaves out ``said[j]``, a word of ``DEGREES``: a quantity,
    before a quantity or number or after a form of "be" ("is almost finished"); else what did
    not happen, which the source does not assert ("nearly reached the summit")."""
    after = said[j + 1] if j + 1 < len(said) else None
    if after is not None and (after.kind == "number" or after.text.lower() in QUANTIFIERS) or (
            j and said[j - 1].text.lower() in BE):
        return FailureKind.NUMBER
    return FailureKind.UNASSERTED


def _left_out(said: Sequence[Token], j: int) -> FailureKind:
    """What a claim gets wrong that leaves out ``said[j]``: the opposite, after a negation
    ("no longer"); a word of ``CHANGERS``; a unit after a number; a place, or another entity
    (a name, an owner); another entity, for a word that changes a title ("former"); how much of
    a group ("several"); what the source does not assert, for a word that qualifies it or does
    not assert ("planned", "may"); else a circumstance the source narrows it by (a place, a
    group, a time: "first-time buyers")."""
    token, word = said[j], said[j].text.lower()
    if token.kind == "negation" or j and said[j - 1].kind == "negation":
        return FailureKind.OPPOSITE
    if (changed := changes(*word_and_next(said, j))) is not None:
        return changed
    if after_number(token, said):
        return FailureKind.NUMBER  # its unit ("5 milligrams" for "5 grams")
    if token.kind == "name" and j and said[j - 1].text.lower() in SETTINGS:
        return FailureKind.CIRCUMSTANCE  # a place ("in Norway")
    if token.kind == "name" or j and said[j - 1].text.endswith("'s") or (
            j + 1 < len(said) and said[j + 1].text.endswith("'s")):  # read after what it owns
        return FailureKind.ENTITY  # said of someone else ("and Jones, who set", "Rembrandt's
        # workshop")
    if word in DEGREES:
        return degree(said, j)
    if word in TITLE_CHANGERS:
        return FailureKind.ENTITY  # "half-brother", "former CEO"
    if word in QUANTIFIERS:
        return quantity(word)  # "several of its branches": how much of a group
    if token.kind == "qualifier" or word in UNASSERTING or word in MODALS or (
            j + 2 < len(said) and said[j + 1].text.lower() == "to" and token.kind == "word"
            and (suffix(token) or word in IRREGULAR or word in SAME_PARTICIPLES)
            and said[j + 2].kind == "word" and not said[j + 2].text[:1].isupper()):
        return FailureKind.UNASSERTED  # or a verb the claim's is the goal of ("plans to open",
        # not "travelling to London" nor "next to a van")
    if token.kind == "number":
        return FailureKind.NUMBER
    return FailureKind.CIRCUMSTANCE


_OWNERS = POSSESSIVES - {forms[POSSESSIVE] for forms in (FIRST_SINGULAR, SECOND, FIRST_PLURAL)}


def _says(claim: Clause) -> bool:
    """Whether ``claim`` is a statement with a verb, not a noun phrase ("flowering plants"):
    a verb ``has_verb`` knows, or a word in "-s", or one whose past is the same ("cut",
    "set"), between two content words ("The mayor owns the company", "The council cut the
    budget")."""
    return has_verb(claim) or any(
        (suffix(t) == "s" or t.text.lower() in SAME_PARTICIPLES) and 0 < k < len(claim) - 1
        and claim[k - 1].content and claim[k + 1].content for k, t in enumerate(claim))


def _of_another(said: list[Token], low: int) -> str | tuple[str, FailureKind] | None:
    """Why the statement is not the evidence's when its first matched word belongs to a noun
    phrase about something else: what something else is of, near, by or about ("the son of
    the king won" does not say "the king won"; "a film about Jones won", "the city near
    Paris is", "the film directed by Jones"), or what a relative clause says of it ("the
    company that bought Acme went bankrupt" does not say "Acme went bankrupt")."""
    found = _head_before(said, low)
    if found is None:
        return None
    head, owner = found
    start = place(head, said)
    phrase = " ".join(t.text for t in said[start:low + 1] if t.text) if owner is None else \
        " ".join(t.text for t in (*said[low:owner + 1], head))  # "Orchard club's members"
    named = said[low].text if owner is None else " ".join(
        t.text for t in said[low:owner + 1]).removesuffix("'s")  # "Orchard club"
    why = f"the source speaks of {phrase!r}, not of {named!r} itself, which the sentence " \
          "leaves out"
    scope = any(t.text.lower() in QUANTIFIERS or changes(t.text.lower()) ==
                FailureKind.CIRCUMSTANCE for t in said[start:low])  # "all of the documents",
    # "apart from Hungary"
    if any(t.kind == "number" for t in said[start:low]):
        return why, FailureKind.NUMBER  # "three of the five bridges": how many of them
    return (why, FailureKind.CIRCUMSTANCE) if scope else why


def _out_of_an_aside(said: list[Token], pairs) -> str | None:
    """Why the statement is not the evidence's when its first matched word is in an aside and
    the rest outside it: what the aside names is not what the clause is said of ("Lions,
    unlike tigers, live in groups" does not say tigers do; "Jane Doe, the CEO of Acme, spoke"
    does not say Acme spoke)."""
    first = pairs[0][1] if pairs else 0
    aside = said[first].aside if pairs else 0
    if not aside or all(said[j].aside == aside for _, j in pairs) or not any(
            t.aside == aside and t.text.lower() in _RELATING for t in said[:first]):
        return None  # "The suspect, a woman, was detained": a second name of the subject
    words = " ".join(t.text for t in said if t.aside == aside and t.text)
    return (f"the source names {said[first].text!r} in an aside ({words!r}), not as what "
            "the rest of its clause is said of")


_RELATING = PREPOSITIONS | {"unlike", "than"}  # "like tigers", "rather than tigers"


def _head_before(said: list[Token], low: int) -> tuple[Token, int | None] | None:
    """The noun the first matched word belongs to, when the evidence says it just before:
    "the son of the king" ("the king won" is not stated), "a film about Jones", "Paris's
    population" (read as "population Paris's"), "the company that bought Acme"; and, for a
    possessive, where its owner ends. Titles before a name are skipped ("the company of the
    engineer Gustave Eiffel")."""
    k = low - 1
    while k >= 0 and said[k].detail:
        k -= 1
    if k >= 2 and said[k].form.startswith("#") and said[k - 1].form == "of":
        k -= 1  # "three of the five bridges": how many of the group there are
    if k >= 1 and (said[k].form in LINKS or said[k].text.lower() in LINKS) and said[
            k - 1].content and not said[k - 1].aside:
        return said[k - 1], None
    owner = low  # "rival Ann Lee's" (read from "Ann Lee's rival"), "members Orchard club's":
    # the owner's last word owns
    while not said[owner].text.lower().endswith("'s") and owner + 1 < len(said) and all(
            t.kind == "name" or t.kind == "word" and (t.text.lower().endswith("'s") or not (
                suffix(t) == "ed" or past(t))) for t in said[owner:owner + 2]):
        owner += 1  # "members bowls club's", "members Harbour rowing club's"
    if said[owner].text.lower().endswith("'s") and k >= 0 and said[k].content and not (
            said[k].aside):
        return said[k], owner
    # "the company that bought Acme": a relative word, its verb, then the matched word
    if (k >= 2 and said[k].kind == "word" and said[k - 1].form in RELATIVES
            and said[k - 2].content):
        return said[k - 2], None
    return None


def _voice(claim: Clause, at: list[int], said: list[Token], pairs,
           dropped: Set[int] = frozenset()) -> str | None:
    """Why a verb matched in both is not the same statement: the one says it was done to its
    subject ("Smith was fired"), the other that its subject did it ("Smith fired his
    assistant"). A verb that reads alike in both voices ("The museum opened", "The museum was
    opened") says the same in each, unless the active has an object of its own ("The museum
    opened a wing"). A participle after the noun the claim leaves out (``_what_it_is``: "a
    treatment approved in Europe") was done to it."""
    for i, j in pairs:
        mine, theirs = claim[at[i]], said[j]
        done_to = _done_to(claim, at[i])
        if done_to == (_done_to(said, j) or j - 1 in dropped and participle(theirs)):
            continue
        active, k = (said, j) if done_to else (claim, at[i])
        thing = _object(active, k)
        verb = mine.text.lower()
        if not thing and snowball(IRREGULAR.get(verb, verb)) in BOTH_VOICES:
            continue
        did = repr(" ".join(t.text for t in (theirs, *thing)))
        if done_to:
            return (f"the sentence says it was {mine.text!r} (done to it), the source that it "
                    f"{did} (it did it)")
        return (f"the sentence says it {mine.text!r} (it did it), the source that it was "
                f"{theirs.text!r} (done to it)")
    return None


def _other_end(claim: Clause, at: list[int], said: list[Token], pairs) -> str | None:
    """Why a name matched in both is not the same statement: the one says where it goes to,
    the other where from ("sails to Dover" is not said by "sails from Dover to Calais")."""
    for i, j in pairs:
        mine = claim[at[i] - 1].form if at[i] else ""
        theirs = said[j - 1].form if j else ""
        if {mine, theirs} in _ENDS:
            return (f"the sentence says {mine} {claim[at[i]].text!r}, the source "
                    f"{theirs} {said[j].text!r}")
    return None


_ENDS = ({"from", "to"}, {"from", "into"}, {"from", "towards"}, {"from", "toward"})


def _then_not_now(claim: Clause, said: list[Token], pairs, at: Sequence[int]) -> str | None:
    """Why a claim in the present is not stated by a source in the past: "The company is
    profitable" by "The company was profitable" (it held then; whether it holds now the source
    does not say), nor "Rovers win the league" by "Rovers won the league in 1961". "is",
    "are", "has", "have" against "was", "were", "had", or a verb of the claim in the present
    ("wins", or "win" after a plural) against the same verb in the past. Where the source
    dates it, a bare form counts as its past ("set" against "sets") and so does "has" before
    it ("has won the league in 1961"); where it does not, only a past as written, alone or
    after "had", counts ("has owned the pier" may still hold, "they set prices" is present),
    and never a verb that states what follows it ("found that": a finding is reported in
    either tense). A bare verb that keeps the source's date is a question's answer ("When
    did the Berlin Wall fall?" read as "the Berlin Wall fall in 1989"), no present."""
    tenses = {_tense_word(t) for t in claim}
    spoken = _spoken(said, pairs)
    matched = {id(said[j]) for _, j in pairs}
    unmatched = [t for t in spoken if id(t) not in matched]
    if not tenses.isdisjoint(PRESENT_BE_HAVE) and tenses.isdisjoint(PAST_BE_HAVE):  # among the matched words,
        # not another clause's ("The hotel, which has 300 rooms, was sold last month")
        low, high = min(j for _, j in pairs), max(j for _, j in pairs)
        bearing = {id(t) for t in spoken}  # not an aside's ("The vaccine, which was made
        # at Oxford, is given in two doses")
        past = next((t for t in said[low:high] if _tense_word(t) in PAST_BE_HAVE and id(t) in bearing),
                    None)
    else:  # "won", "had won"; "set" where the claim says "sets"
        past = next((said[j] for i, j in pairs if _present(claim, at[i]) and (
            _past_as_written(said, j) or tense(said[j]) == "" != tense(claim[at[i]])
            and not (j and said[j - 1].form in AUXILIARIES - HAVE)
            and dated(unmatched) is not None)), None)
    if past is None or dated([said[j] for _, j in pairs]) is not None and not any(
            _tense_word(t) in PRESENT_BE_HAVE - {"have"} or tense(t) == "s" for t in claim):
        return None  # a bare verb with the source's date, as a question's "did" leaves it:
        # "When did the Berlin Wall fall?" "1989." ("opens in April" is still the present)
    when = dated(unmatched)
    date = "" if when is None else f", {when.text}"
    return f"the source puts it in the past ({past.text!r}{date}); the sentence says it holds now"


def _asked_for(claim: Clause, at: Sequence[int], said: Sequence[Token], pairs) -> str | None:
    """Why a claim that something was done ("300 boxes were moved to the depot") is not stated
    by a sentence that opens with that verb in its bare form and has no other ("Move 300 boxes
    to the depot"): with no subject before its verb, the sentence asks for it to be done. (The
    sentence reader knows an imperative by the object after its first word; a number in digits
    is no sign of one, "Apollo 11 landed", but a claim that reads the word as its verb is.)"""
    for i, j in pairs:
        token, mine = said[j], claim[at[i]]
        if j or token.kind not in ("word", "name") or not token.text[:1].isupper() or (
                tense(token) != "" or tense(mine) != "ed" and not mine.tensed):
            continue  # "Call Commander Kwan": a first word read as a name is a verb all the
            # same where the claim reads it as one done ("was called", "are stacked")
        if any(t.form in AUXILIARIES or tense(t) == "ed" for t in said[1:]):
            return None  # "Rain fell all day": the word was a noun, its verb comes after
        return f"the source asks for it to be done ({token.text!r}); it does not say it was"
    return None


def _tense_word(token: Token) -> str:
    """The word a token's tense is read by: a function word's form ("took place" reads as
    "was"), any other word as written, lower case."""
    return token.form if token.kind == "function" else token.text.lower()


def _past_as_written(said: Sequence[Token], j: int) -> bool:
    """Whether ``said[j]`` is a verb in the past as written ("won", "had won"; a participle
    turned from "was owned by"), not one that states the clause after it ("found that")."""
    before = said[j - 1].form if j else ""
    return tense(said[j]) == "ed" and (before == "had" or before not in AUXILIARIES) \
        and not ASSERTING_HEADS.fullmatch(said[j].text.lower())


def _someone_elses(claim: Clause, at: list[int], said: Sequence[Token], pairs) -> str | None:
    """Why a claim that names the one the source gives as an owner ("run by Ann Lee" from "run
    by Ann Lee's cousin") is not stated: what the source says is of the one owned, which the
    claim leaves out. (A possessive is read after what it owns, "cousin Ann Lee's"; where the
    claim has what is owned too, "the population of Paris" from "Paris's population", it is
    stated.)"""
    matched = {j for _, j in pairs}
    for i, j in pairs:
        if not said[j].text.endswith("'s") or claim[at[i]].text.endswith("'s"):
            continue
        start = j
        while start and said[start - 1].kind == "name":  # the owner's name: "Ann Lee's"
            start -= 1
        owned = start - 1
        if owned >= 0 and owned not in matched and said[owned].content:
            owner = " ".join(t.text for t in said[start:j + 1])
            return (f"the source says it of {owner} {said[owned].text}, not of "
                    f"{owner.removesuffix(chr(39) + 's')}")
    return None


def _whose_value(said: Sequence[Token], pairs) -> str | None:
    """Why a claim that draws on two lists of one clause, one of them of values ("Ardle and
    Brisk have 12 and 30 schools"), is not stated: which value is whose, the rules do not
    read, with "respectively" or without it."""
    drawn = {said[j].listed for _, j in pairs if said[j].listed}
    if len(drawn) > 1 and any(t.listed in drawn and t.kind == "number" for t in said):
        return "the source gives two lists side by side; which value is whose is not read"
    return None


def _paired(said: Sequence[Token], pairs) -> bool:
    """Whether ``said`` pairs its lists in order ("A and B cost €14 and €6 respectively") and
    the claim draws on an item of them: which is whose, the rules do not read."""
    return any(t.form == "respectively" for t in said) and any(
        said[j].listed for _, j in pairs)


def _now_not_then(claim: Clause, said: list[Token], pairs, dropped: Set[int] = frozenset()
                  ) -> str | None:
    """Why a claim that something was so ("The pool was closed on Mondays") is not stated by
    what is so ("The pool is closed on Mondays"): only "was" or "were" against "is" or "are"
    among the words the claim matched. A passive with its agent is read in the active order,
    its "is" gone ("Deposits are returned by bank transfer"): not caught. The "is" of what a
    thing is said to be, left out (``_what_it_is``), is not the tense of a participle after it
    ("is a painter born in Paris" says she was born there)."""
    tenses = {t.text.lower() for t in claim}
    if tenses.isdisjoint(("was", "were")):
        return None
    copulas = {id(said[k - 1]) for k in dropped if k}
    spoken = {t.text.lower() for t in _spoken(said, pairs) if id(t) not in copulas}
    if spoken.isdisjoint(("is", "are")) or not spoken.isdisjoint(PAST_BE_HAVE):
        return None
    return "the source says it is so, not that it was; the sentence says it was"


def _scope_left_out(said: list[Token], pairs) -> str | None:
    """Why a statement the source restricts with a fronted phrase ("Among men, smoking rates
    fell by a third"; ``restatements.fronted``) is not stated without it."""
    matched = {j for _, j in pairs}
    left = [t for j, t in enumerate(said) if t.scope and t.content and not t.detail
            and j not in matched]  # not "Monday" of "On Monday, 3 June 2024": the date says it
    if not left:
        return None
    phrase = " ".join(t.text for t in said if t.scope)
    return f"the source says it only {phrase!r}, which the sentence leaves out"


def _title_changed(said: list[Token], pairs) -> str | None:
    """Why a title or role is not the source's: a word before it that makes it another ("the
    former CEO", "Acting Police Commissioner", "the deputy director") which the claim leaves
    out."""
    matched = {j for _, j in pairs}
    for j in sorted(matched):
        if j and j - 1 not in matched and said[j - 1].text.lower() in TITLE_CHANGERS:
            title = f"{said[j - 1].text} {said[j].text}"
            return (f"the source says {title!r}; the sentence leaves out "
                    f"{said[j - 1].text!r}, which makes it another")
    return None


def _name_cut(claim: Clause, said: list[Token], pairs, referents: Set[int] = frozenset()
              ) -> str | None:
    """Why a name of the claim is not the source's: the source's name goes on past it ("Acme"
    of "Acme Labs"), or a one-word name of the claim is the end of a longer one ("Korea" of
    "North Korea", "Zemeckis" of "Robert Zemeckis"), and the claim leaves the rest out: a name
    cut short names another thing, or no one thing. A word of the claim that a name matches is
    a description ("the tower" of "the Eiffel Tower"), and a name of two words or more may
    leave out what comes before it ("Hanna Berg" of "Professor Hanna Berg")."""
    matched = {j for _, j in pairs} | set(referents)
    for i, j in pairs:
        if not claim[i].text[:1].isupper() or said[j].kind != "name" or said[j].aside:
            continue
        one_word = not any(0 <= n < len(claim) and claim[n].text[:1].isupper()
                           and claim[n].kind in ("name", "word") for n in (i - 1, i + 1))
        for k in ((j - 1, j + 1) if one_word else (j + 1,)):
            if 0 <= k < len(said) and k not in matched and said[k].kind == "name" and not (
                    said[k].aside or said[k].listed or said[k].text.lower() in TITLE_CHANGERS):
                # ("Acting Police Commissioner": a title changed, ``_title_changed``)
                whole = " ".join(t.text for t in said[min(j, k):max(j, k) + 1])
                return (f"the source's name is {whole!r}; the sentence says only "
                        f"{said[j].text!r}, which names another")
    return None


def _done_to(tokens: Sequence[Token], k: int) -> bool:
    """Whether ``tokens[k]`` is a passive participle: after a form of "be", or after another
    participle of its list ("was designed and built")."""
    if not participle(tokens[k]):
        return False
    k -= 1
    while k >= 0 and (tokens[k].kind == "negation" or tokens[k].form in ("and", "or")
                      or tokens[k].listed and participle(tokens[k])):
        k -= 1
    return k >= 0 and tokens[k].form in BE


def _object(tokens: Sequence[Token], k: int) -> list[Token]:
    """The object right after the verb ``tokens[k]``, past a determiner: its words, names and
    numbers ("fired his assistant", "opened two new wings"); none after a preposition ("opened
    in 1889")."""
    n = k + 1
    while n < len(tokens) and tokens[n].form in _DETERMINERS:
        n += 1
    end = n
    while (end < len(tokens) and tokens[end].kind in ("word", "name", "number")
           and tokens[end].form not in CONTENT_PREPOSITIONS and not tokens[end].aside):
        end += 1
    return list(tokens[n:end])


_DETERMINERS = POSSESSIVES | DEMONSTRATIVES


def _spoken(evidence: Sequence[Token], pairs) -> list[Token]:
    """The evidence tokens that bear on the claim: all but those of an aside (a parenthetical,
    a relative clause after a comma) in which no claim word matched. A claim aligned into an
    aside takes its negations and qualifiers with it ("The museum, which did not make a
    profit, opened" never states "The museum made a profit")."""
    used = _asides_aligned_into(evidence, [j for _, j in pairs])
    return [t for t in evidence if not t.aside or t.aside in used]


def _asides_aligned_into(evidence: Sequence[Token], matched: Iterable[int]) -> set[int]:
    """The numbers of the asides that hold a matched evidence token."""
    return {evidence[j].aside for j in matched if evidence[j].aside}


def _qualifier(claim: Clause, said: list[Token], pairs, dropped: Set[int],
               stating: bool = True) -> str | tuple[str, FailureKind] | None:
    """A qualifier of the evidence clause ("may", "some", "only"; for a statement, "until",
    a question, and a word that does not assert it before the statement, "denied that",
    or after it as an attribution, "..., critics claim", even in an aside) the claim leaves
    out, but for the "all"s it may (``_all_left_out``). A bare name or number keeps no bound:
    "1990" is named by "until 1990", "Sinaloa" by "a suspected drug lord of the Sinaloa
    cartel"."""
    bounds = BOUNDED_IN_TIME if stating else frozenset()
    # a name is named all the same under a condition ("When Mr. Burns discovers ...")
    marks = ("qualifier", QUESTION, ALTERNATIVES) if stating else (QUESTION, ALTERNATIVES)
    mine = {_bare(t.form) for t in claim if t.kind in marks or t.form in bounds}
    spoken = {id(t) for t in _spoken(said, pairs)}
    low = min((j for _, j in pairs), default=0)
    for j, token in enumerate(said):
        if (token.kind not in marks and token.form not in bounds
                or _bare(token.form) in mine or j in dropped):
            continue
        if token.form == "only" and j == 0:
            continue  # "Only the first floor was flooded" states that it was
        if token.form == ALTERNATIVES and (not stating or any(
                t.kind == "qualifier" and t.form in _PERMITTING for t in said[:j])):
            continue  # "Rutgers, or RU": a name is named all the same; "Visitors can climb
            # the stairs or take a lift": each is allowed
        attributed = token.form.startswith(ATTRIBUTED)  # "..., managers told staff."
        unasserting = (token.text.lower() in UNASSERTING or token.form.startswith(REPORTED)
                       or attributed)
        if unasserting and j == 0 and next(
                (t.form in AUXILIARIES for t in said[1:] if not t.aside), False):
            continue  # the noun a clause opens with: "The suspect (, a man,) was arrested"
        if unasserting and not (stating and (attributed or j < low or _attributes(said, j))):
            continue  # "the group that claimed responsibility": not said of the statement
        if token.form in bounds and dated(said[j + 1:j + 3]) is not None and any(
                t.text.lower() in PAST_BE_HAVE or tense(t) == "ed" for t in claim):
            continue  # "was the principal until 2019": she was; a past claim keeps no bound
        if token.form == "respectively" and not _paired(said, pairs):
            continue  # the claim draws on no item of the lists it pairs
        if not unasserting and id(token) not in spoken and token.form != "respectively" and not (
                stating and token.aside and token.text.lower() in CONDITIONS and j > low
                and said[j - 1].aside != token.aside):  # an aside that is a condition
            continue  # "The ceasefire, if it holds, will let ...": the aside's condition is
            # the clause's
        if token.form == QUESTION:
            return "the source asks it as a question; the sentence states it"
        if token.form == ALTERNATIVES:
            return "the source gives alternatives ('or'): one of them, not which"
        if unasserting:
            return f"the source puts it with {token.text!r}, not as a fact; the sentence does"
        word = token.text.lower()
        fault = (quantity(word) if word in QUANTIFIERS else FailureKind.CIRCUMSTANCE
                 if token.form in bounds or word == "only" else degree(said, j)
                 if word in DEGREES else FailureKind.UNASSERTED)
        return (f"the source qualifies it with {token.text!r}, which the sentence leaves out",
                fault)
    return None


def _bare(form: str) -> str:
    """A token's form without the mark of how it reports ("that:alleg", "said:say"): an
    attribution the claim keeps in another order is kept ("According to the council, ..."
    for "..., the council said")."""
    return form.removeprefix(REPORTED).removeprefix(ATTRIBUTED)


_PERMITTING = frozenset(("can", "may", "could"))  # "can X or Y" says "can X" and "can Y"


def _attributes(said: list[Token], j: int) -> bool:
    """Whether the word ``said[j]`` ends its clause or aside, as an attribution does ("The
    drug, critics claim, causes cancer"; "Reports that it closed are false"), not as a verb
    with its own object ("Al-Shabaab, the group that claimed the attack")."""
    aside = [t for t in said if t.aside == said[j].aside and t.content]
    return bool(aside) and aside[-1] is said[j]


# Words that end when a statement holds: "The Spire was the tallest tower until 1990" does
# not state "The Spire is the tallest tower" (the rules do not read tense), so a claim must
# keep them as it keeps a qualifier.
BOUNDED_IN_TIME = frozenset(("until", "till"))


def _clause_on_the_subject(claim: Clause, at: list[int], said: list[Token], pairs) -> set[int]:
    """The clause after the one noun a statement opens with, when what follows it is said of
    that noun as the claim says it: "The tower that Eiffel built is 330 metres tall" says the
    tower is 330 metres tall, "The report that the committee published runs to 200 pages" that
    it runs to 200 pages, "The claim that it was forged was false" that the claim was false.
    Only where the statement's verb is plainly singular ("is", "was", "has", "runs"), or in
    the past after a noun that is ("The seed that the farmer planted grew"): a clause that
    narrows a group ("The members who joined before 2010 are exempt", "The children who stayed
    passed") is no part of it to leave out; nor after anything before the noun ("The tallest
    tower that ...", "Every seed that ...", "No seed that ..."); nor a clause of belief, hope
    or report ("The suspect who police believe is guilty")."""
    if len(pairs) < 2 or any(t.kind not in ("function", "mark") for t in said[:pairs[0][1]]):
        return set()
    (h, a), (i, b) = pairs[0], pairs[1]
    tail = [t.text.lower() for t in claim[at[h] + 1:at[i]]]  # the claim's "is"
    verb = b - len(tail)
    if (verb <= a + 2 or said[a + 1].text.lower() not in RELATIVES or said[a + 1].aside
            or [t.text.lower() for t in said[verb:b]] != tail
            or any(t.kind == "mark" or t.aside for t in said[a + 1:verb])):
        return set()
    rest = [t for t in said[pairs[-1][1] + 1:] if not t.aside]
    if any(t.kind == "qualifier" or IRREGULAR.get(t.text.lower(), t.text.lower()) in UNASSERTING
           for t in said[a + 1:verb]):
        return set()  # "The suspect who police believe is guilty": what follows is believed
    if said[verb - 1].kind in ("negation", "qualifier"):
        return set()  # "The ship that the navy sold never sank": the main verb's, not the
        # clause's
    if has_verb(rest) or any(suffix(t) == "s" for t in rest):
        return set()  # "The bridge that engineers said was unsafe collapsed": the clause's
        # verb comes after what the claim matched, which was the clause's own
    main = verb
    while main < len(said) - 1 and said[main].text.lower() in TIME_ADVERBS:
        main += 1  # "The creed that the founders wrote still guides the school"
    word, noun = said[main].text.lower(), said[a].text.lower()
    one = said[main].kind == "word" and not plural(noun) and _ends_in_its_verb(said[a + 2:verb])
    if word in ("is", "was", "has", "does") or said[main].kind == "word" and (
            suffix(said[main]) == "s") or one and tense(said[main]) == "ed":
        return set(range(a + 1, verb))
    return set()


def _ends_in_its_verb(clause: Sequence[Token]) -> bool:
    """Whether a relative clause (after its "that") ends in its verb, or in a phrase of a
    preposition or a number after it ("the farmer planted", "the builder erected in 2010"), so
    a past verb after it is the statement's: not "that replaced the one destroyed in 1989",
    where "destroyed" may say what the one was."""
    verb = next((k for k, t in enumerate(clause) if participle(t)), None)
    return verb is not None and not any(t.kind in ("word", "name") and not (
        k and clause[k - 1].form in PREPOSITIONS) for k, t in enumerate(clause) if k > verb)


def _what_it_is(claim: Clause, at: list[int], said: list[Token], pairs) -> set[int]:
    """The words that say what a thing is, after "is" and before what the claim keeps of it:
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars" says the tower is
    on the Champ de Mars, "Boston College is a private research university located in Chestnut
    Hill" that it is located there, "Fu Manchu is a rock band that formed in 1985" that it
    formed in 1985. What follows the noun is said of the thing itself, whatever kind of thing
    the noun makes it, so the claim may leave the noun and the words before it out (``_noun``).
    (Not the words before the noun alone: "a dwarf planet" is no planet, nor "a possible
    treatment" a treatment.) What follows opens with a word the claim says there too ("on",
    "located": "is near Paris" is not "is a suburb in Paris"), after the same "is" or "was"
    ("was a professor at Oxford" is not "is at Oxford"; "has been" only as "has been"), or is
    a measure the claim says after its "is" ("a hotel 3 km from Rome"); never "of" or "whose"
    ("X is the son of Y" does not make X Y, nor "the band whose singer died" the band dead).
    After "that", the claim says what follows as it stands, its verb in the same tense ("is a
    firm that employed 500" does not say it employs them), and "one of" the noun's group may
    stand before it ("one of two bridges that cross the Tyne": the bridge crosses it; "was one
    of the firms that cut jobs" says nothing of now). A participle after the noun is the
    claim's only with "is" or "was" ("a subsidiary owned by Acme" is owned, and owns
    nothing), with "was" where a date follows ("a drug approved in 2010" is not "is
    approved"; "held in Bath since 1948" still is)."""
    found: set[int] = set()
    for (h, a), (i, b) in zip(pairs, pairs[1:], strict=False):
        copula = next((q for q in range(a + 1, b) if not said[q].aside), b)  # "BC (BC) is"
        linking = [copula]
        if copula + 1 < b and said[copula].form in HAVE and said[copula + 1].form == "been":
            copula += 1  # "has been a museum open to the public": "has been open"
            linking.append(copula)
        if copula >= b or said[copula].text.lower() not in BE:
            continue
        start = copula + 1
        one_of = start + 1 < b and said[start].text.lower() == "one" and said[start + 1].form == (
            "of")  # "one of the few species that survived": it survived
        start += 2 * one_of
        if one_of and start < b and said[start].text.lower() in QUANTIFIERS:
            start += 1  # "one of the few", "one of many"
        end = next((q for q in range(start, b + 1) if q == b or not said[q].content), start)
        noun = range(copula + 1, end)
        if end == start or said[end - 1].kind == "number" or not all(
                of_what_it_is(said, q) if one_of else _noun(said, q) for q in range(start, end)):
            continue  # ends in its noun: "was 60 percent contained" is a measure of it
        end = _past_a_place(said, end, b)
        noun = range(copula + 1, end)
        mine = [t.text.lower() for t in claim[at[h] + 1:at[i]]]  # the claim's "is located in"
        word, last = said[end].text.lower(), said[end - 1]
        said_as = all(said[q].text.lower() in mine for q in linking)  # "has been" as it is
        if len(linking) > 1 and word not in RELATIVES and not said_as:
            continue  # "had been a charity run by volunteers" is not "is run by"
        if end == b and participle(said[b]) and not BE.isdisjoint(mine):  # "(was) founded by"
            then = not {"was", "were"}.isdisjoint(mine)  # "was a show held in Bath" is past
            held = then or not dated(said[b + 1:]) and said[copula].form not in ("was", "were")
        elif word in RELATIVES and word != "whose":  # "that (was) formed": its tense kept
            between = said[end + 1:b]  # "that was sued by", "that lies on" ("is on")
            theirs, ours = tense(said[b]), tense(claim[at[i]])
            held = all(t.kind == "function" for t in between) and (
                theirs == ours or one_of and (theirs, ours) == ("", "s") and said[copula].form in (
                    "is", "are") and said[b].text.lower() not in SAME_PARTICIPLES and not dated(
                    said[b + 1:])) and [
                _SINGULAR.get(t.form, t.form) if one_of else t.form for t in between] == [
                t.form for t in claim[at[h] + 1:at[i]]]
        else:  # "is on", "is located in", "is near", after a noun, not a verb ("a painter
            # born in")
            held = (word in mine or end == b and (word in LINKS or _said_after(said, b) and all(
                said[q].kind != "number" for q in noun) and (
                mine == [said[q].text.lower() for q in linking]))) and word not in (
                "of", "whose") and said[copula].text.lower() in mine and not (
                    participle(last) or suffix(last) == "ing" and not ing_noun(said, end - 1)) and (
                    said[copula - 1].form in mine or said[copula].form != "been")
        if held:
            found.update(noun)
    return found


def _said_after(said: list[Token], b: int) -> bool:
    """Whether ``said[b]``, after the noun of what a thing is, says something of the thing
    itself with what follows it: a measure ("a hotel 3 km from Rome": it is 3 km from Rome) or
    a word with an opposite before a preposition ("a museum open to the public": it is open to
    the public). Never a noun ("a dwarf planet in the solar system" is no planet in it)."""
    token, after = said[b], said[b + 1] if b + 1 < len(said) else None
    if token.amount is not None:
        return bool(token.amount.unit)
    return token.form.startswith("~") and token.text.lower() not in PREPOSITIONS and after is not None \
        and after.text.lower() in PREPOSITIONS


def _present(claim: Clause, k: int) -> bool:
    """Whether ``claim[k]`` is a verb in the present: in "-s" ("wins"), or bare after a plural
    or a name ("Rovers win", "people win", "Dunmore United win"), not after an auxiliary
    ("did win", "will win")."""
    token = claim[k]
    if token.kind != "word" or k and claim[k - 1].form in AUXILIARIES:
        return False
    if tense(token) == "s":
        return True
    before = claim[k - 1] if k else None
    return tense(token) == "" and before is not None and (
        before.kind == "name" or plural(before.text.lower()))


def _past_a_place(said: list[Token], end: int, b: int) -> int:
    """Where a relative clause stands after a place the noun of what a thing is has, when the
    clause can only be the noun's: after "in" and one name ("an art museum in Ghent that
    opened"), or after names and "who" ("a singer from Lagos who won"), which no place is;
    else ``end`` ("a player from Leeds United that won the cup", "a cottage near the bridge
    that collapsed": what follows may be said of the place)."""
    opener = said[end].text.lower() if end < b else ""
    k = end + 1
    while k < b and said[k].kind == "name" and not said[k].aside:
        k += 1
    if k >= b or k == end + 1 or opener not in ("in", "from", "at", "on"):
        return end
    word = said[k].text.lower()
    if word == "who" or word in ("that", "which") and opener == "in" and k == end + 2:
        return k
    return end


# A plural verb after "one of" the group: the singular the claim says of one of them.
_SINGULAR = {"are": "is", "were": "was", "have": "has", "do": "does"}


def _noun(said: list[Token], q: int) -> bool:
    """Whether ``said[q]`` may be left out as part of what a thing is said to be
    (``restatements.of_what_it_is``), what it tells of the thing only narrowing it."""
    return of_what_it_is(said, q) and _left_out(said, q) in (
        FailureKind.CIRCUMSTANCE, FailureKind.ENTITY, FailureKind.NUMBER)  # "a 3-star hotel"


def _all_left_out(claim: Clause, said: list[Token], pairs) -> set[int]:
    """The evidence's "all"s the claim may leave out: what holds of all common areas holds of
    the common areas, and of common areas. Only an "all" whose noun phrase the claim matches,
    and neither clause saying "not" ("not all rooms have a balcony" says nothing of the
    rooms)."""
    if any(t.kind == "negation" for t in (*claim, *said)):
        return set()
    claimed = {j for _, j in pairs}
    found = set()
    for j, token in enumerate(said):
        if token.form != "all" or token.kind != "qualifier":
            continue
        noun = j + 1
        while noun < len(said) and not said[noun].content:
            noun += 1
        if noun in claimed:
            found.add(j)
    return found


def _of_a_date(claim: Clause, wanted: list[Token], said: Sequence[Token], pairs
               ) -> FailureKind | None:
    """``date`` where the word an opposite turns round stands before a date ("the early
    1970s" for "the late 1970s"): the date is what changed."""
    for i, j in pairs:
        if wanted[i].pole != said[j].pole and wanted[i].text.lower() not in PREPOSITIONS:
            k = place(wanted[i], claim)  # not "after the war"
            if k is not None and k + 1 < len(claim) and \
                    fault_of(claim[k + 1], claim) == FailureKind.DATE:
                return FailureKind.DATE
    return None


def _polarity(claim: Clause, evidence: Clause, pairs, wanted, dropped: Set[int] = frozenset()
              ) -> tuple[str, str] | None:
    """A negation or an opposite that turns the aligned statement round: the claim's and the
    evidence's negations, plus the matched words named by the other pole ("smaller" for
    "larger"), come out odd. A pole the evidence also names the claim's way, in a word no
    other claim word matched, is no flip ("the northern wing ... the southern wing"); the two
    poles swapped are two flips ("the southern wing is larger than the northern wing"). What
    the claim may leave out is not the statement's ("The tower that Eiffel never finished is
    330 metres tall")."""
    if len(pairs) < 2:
        return None  # a word alone ("true") is no statement to turn round
    left_out = {id(evidence[k]) for k in dropped}
    said = [t for t in _spoken(evidence, pairs) if id(t) not in left_out]
    used = {j for _, j in pairs}
    free = [t for k, t in enumerate(evidence) if k not in used and any(t is u for u in said)]
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
        if mine.text.lower() == theirs.text.lower():  # a comparison the claim turns round
            return "antonym", ("the source says it the other way round: "
                               f"{' '.join(t.text for t in evidence)!r}")
        return "antonym", f"the source says {theirs.text!r} where the claim says {mine.text!r}"
    return "negation", f"the source states the opposite: {' '.join(t.text for t in evidence)!r}"


def _conflict(evidence, wanted, pairs, missing, referents) -> tuple[str, str, Token] | None:
    """The claim's one unmatched token a number or name, the evidence giving another of the
    same kind in its slot, and every other token aligned. (Allowing words the claim adds
    besides was tried: on the tuning data it made a fifth of the conflicts it found wrong.)"""
    if len(missing) != 1 or missing[0].kind not in ("number", "name") or not pairs:
        return None
    gone = missing[0]
    before, after = _slot(dict(pairs), wanted.index(gone))
    before, after = -1 if before is None else before, len(evidence) if after is None else after
    rivals = [t for t in evidence[before + 1:after] if t.kind == gone.kind and not t.aside
              and _kind_of(t) == _kind_of(gone) and _alike(t, gone)]
    if len(rivals) != 1 or _gap(list(evidence), [j for _, j in pairs] + [
            evidence.index(rivals[0])], referents):
        return None
    rival = rivals[0]
    if gone.kind == "name" and SequenceMatcher(None, gone.form, rival.form).ratio() >= 0.8:
        return None  # a misspelling ("Instuments"), not another name
    if gone.amount and rival.amount and not gone.amount.conflicts(rival.amount):
        return None  # values both allow: not stated, not contradicted ("48,000", "about 48,000")
    kind = "value" if gone.kind == "number" else "name"
    return kind, f"the source gives {_said(rival)} where the claim says {_said(gone)}", rival


def _said(token: Token) -> str:
    """A token as a reason quotes it; a hedged number with the values it allows."""
    return quantities.describe(token.amount) if token.amount else repr(token.text)


def _kind_of(token: Token) -> str:
    """"date", "month", "#" (a number; "#to", "#from" where a change ended or began) or the
    token's kind."""
    if ":" in token.form:
        return token.form.split(":")[0]
    if token.form.startswith("#"):
        return "#" + (token.amount.role if token.amount else "")
    return token.kind


def _alike(a: Token, b: Token) -> bool:
    """Two numbers of one kind: both years or neither, and in units that compare ("$3 million"
    is no rival of the year 2020)."""
    if not (a.amount and b.amount):
        return True
    return is_date(a) == is_date(b) and a.amount.comparable(b.amount)


def best_alignment(claim: Clause, units: Iterable[Clause]) -> Alignment | None:
    """The evidence clause that aligns best with ``claim`` (or with its comparison said from
    the other side): aligned first, then an explicit conflict, then the most tokens
    matched."""
    best = None
    other = turned(claim)
    units = list(units)
    known = {t.form for unit in units for t in unit}
    for unit in units:
        for as_said, found in ((True, align(claim, unit, known)),
                               *(((False, align(other, unit, known)),) if other else ())):
            # the claim as said gives the reason, unless the other side aligns, conflicts or
            # is matched in full where the source does not assert it ("Move 300 boxes")
            asked = found.blocked is not None and found.fault == FailureKind.UNASSERTED
            key = (found.aligned, found.conflict is not None, asked, as_said, found.matched)
            if best is None or key > best[0]:
                best = (key, found)
    return None if best is None else best[1]
