"""The rule checker's verdict on one claim: ``check(claim, evidence) -> Findings``.

One claim's walk is a straight line: ``reading.read`` turns the claim and each evidence
passage into clauses, ``alignment.best_alignment`` finds the evidence clause that states each
claim clause best, and the findings say what kind of decision that is:

- ``verbatim``: a passage holds the claim word for word;
- ``aligned``: every clause of the claim is stated by one evidence clause (``alignment``);
- ``mention``: the claim only names something ("Walmart") and the evidence names it too: in
  the sources, but whether it answers the question the rules cannot tell;
- ``value``, ``name``, ``negation``, ``antonym``: an explicit conflict, a clause aligned but for
  another number, date or unit, another name, or the same statement turned round;
- ``unaligned``: anything else. The words may all be there; they are not stated together.

The local judge turns the kinds into verdicts, and the validator's rules decide the two surest
(verbatim support, a changed value) without an LLM.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from ..storage import LRU, MiB, memoize
from ..text import assertions, records
from ..text.citations import MARKER
from ..text.grammar import (
    ARTICLES,
    AUXILIARIES,
    BE,
    FUNCTION_WORDS,
    MODALS,
    NEGATIONS,
    ORDINALS,
    PREPOSITIONS,
    QUANTIFIERS,
    RELATIVES,
    THIRD_PERSON,
    TIME_NOUNS,
)
from ..text.sentences import safe_text, split_sentences
from ..text.word_forms import AFTER_A_DATE, MONTH_OF, PAST_ONLY, content_words, fold
from ..types import Evidence, FailureKind
from . import quantities, values
from .alignment import (
    TELLING,
    Alignment,
    after_number,
    best_alignment,
    fault_of,
    has_verb,
    is_mention,
    quantity,
    read,
    same,
)
from .facts import normalise, read_facts
from .money import SIGNS
from .reading import BORROWED, in_context_each, subject_of
from .tokens import (
    BOUNDARIES,
    CONDITION_PHRASES,
    CONDITIONS,
    LINKS,
    PASSIVE,
    QUALIFIERS,
    QUOTED_NAME,
    SETTINGS,
    TITLE_CHANGERS,
    UNASSERTING,
    Clause,
    Token,
    as_written,
    holding_most,
    participle,
    place,
    reports,
    suffix,
    word_and_next,
)
from .word_lists import changes, opposed

VERBATIM_MIN_WORDS = 4
CONFLICTS = ("value", "name", "negation", "antonym")  # the kinds that contradict


@dataclass(frozen=True)
class Findings:
    kind: str  # "verbatim", "aligned", "mention", one of CONFLICTS, or "unaligned"
    reason: str  # what aligned where, or what did not, in words
    coverage: float  # share of the claim's content words found anywhere in the evidence
    quotes: tuple[str, ...] = ()  # the source sentences a supported verdict rests on
    # a measure of the claim (a number with a unit: "90 days"), where the source's in its place
    # is another value of that unit (a claim the rules leave unaligned may still give a
    # measure the source gives otherwise)
    other_value: bool = False
    fault: FailureKind | None = None  # what an unsupported or contradicted claim gets wrong
    # the passage or record that decided, as its index in the evidence ``check`` was given:
    # the one that states the claim, or gives another value, or puts it otherwise than as a
    # fact; None where none did alone (nothing states it)
    basis: int | None = None
    held: tuple[Clause, ...] = ()  # the evidence clauses an aligned claim rests on

    @property
    def supported(self) -> bool:
        return self.kind in ("verbatim", "aligned", "mention")

    @property
    def contradiction(self) -> bool:
        return self.kind in CONFLICTS


def check(claim: str, evidence: Sequence[Evidence]) -> Findings:
    """How ``evidence`` states ``claim``: see the module's docstring. Only what the evidence
    asserts is read: a sentence of it that asks, hedges, supposes or denies what it says
    (``assertions``), or that the next sentence takes back, neither supports nor contradicts,
    unless the claim is put the same way; where such a sentence is what held the claim, the
    reason quotes it and says how it puts it.

    Decided once for a claim and its evidence: the cascade, a first judge and the local judge
    ask the same question of one validation's claim and get the one answer."""
    key = (claim, tuple(evidence))
    found = CHECKED.get(key)
    if found is None:
        found = _decide(claim, key[1])
        CHECKED.put(key, found)
    return found


def proves(claim: str, evidence: Sequence[Evidence]) -> int | None:
    """Which passage (its index) proves ``claim``, a statement of one clause; None where none
    does. Stricter than ``check``, which weighs what a clause leaves out: a proof is what a first
    judge may decide alone (``cheap_first``). The proving sentence

    - stands in plain prose: no heading, quotation, code or struck text in its passage, no
      lead-in ("A reader wrote:"), and neither it nor the sentence on either side of it frames
      what it says in a way the claim does not (``assertions``: "Just kidding.", "(This is
      false.)", "Police said");
    - is read alone: a pronoun in it stands for nothing (and a claim whose own pronoun was
      read for nothing, "It is 330 metres tall." opening a text, is proven by none);
    - has one clause whose every word of content the claim says too, but for dates and asides
      that describe ("Mara Santangelo (born 1981) is ...", "Ostra, a port, ..."). So "The second
      tallest player is Tom" does not prove "The tallest player is Tom", "cures cancer in mice"
      does not prove "cures cancer", nor "Spain beat the Netherlands to win the Cup" that the
      Netherlands won it."""
    if not check(claim, evidence).supported:
        return None
    clauses = [c for c in read(claim) if any(t.content for t in c)]
    if len(clauses) != 1 or is_mention(clauses[0]) or _unread_pronoun(clauses[0]):
        return None  # a bare name proves nothing, nor "It is 330 m tall" that names nothing
    mine = assertions.standing(claim)[0]  # "X wrote Y" reads as a report, as its source does
    for passage, sentence in plain_sentences(evidence, mine):
        for unit in _alone(sentence):
            found = best_alignment(clauses[0], [unit])
            if found is not None and found.aligned and _says_no_more(
                    unit, (*found.stated, *found.left_out), "(" in sentence):
                return passage
    return None


def plain_sentences(evidence: Sequence[Evidence], standing: str | None = None
                    ) -> Iterator[tuple[int, str]]:
    """(passage, sentence) for each sentence a proof may stand on (``proves``): in a passage in
    plain prose, opening plainly, neither it nor a sentence beside it framed otherwise than
    ``standing`` (None: asserted)."""
    for passage, e in enumerate(evidence):
        text = MARKER.sub(" ", e.text)
        if _marked_up(text):
            continue
        sentences = split_sentences(text)
        unasserted = {said: kind for said, _, _, kind in _standings(text)}
        framed = {k for k, s in enumerate(sentences)
                  if unasserted.get(s.text, standing) != standing}
        for k, sentence in enumerate(sentences):
            if not framed & {k - 1, k, k + 1} and _opens_plainly(sentence.text):
                yield passage, sentence.text


def _marked_up(text: str) -> bool:
    """Whether ``text`` is more than plain prose for a proof: a heading, a quotation (marks or
    a quoted block), code, struck-out text, or a line that leads into what follows with a
    colon."""
    if any(mark in text for mark in ('"', "“", "”", "«", "»", "`", "~~")):
        return True
    return any(line.lstrip().startswith(("#", ">")) for line in text.splitlines()) or bool(
        _QUOTED_OR_LED_IN.search(text))


# 'a quote', and a colon that is no time's ("A reader wrote: ...", a line that ends in one)
_QUOTED_OR_LED_IN = re.compile(r"(?<![^\W_])'(?=[^\W_])[^']*[^\W_]'(?![^\W_])|:(?!\d)")


def _opens_plainly(sentence: str) -> bool:
    """Whether ``sentence`` opens with a word or number, after a list's marker ("- ", "2. "),
    not with a mark that frames it ("❌ ...")."""
    words = sentence.lstrip("-*• ").split(maxsplit=1)
    if len(words) == 2 and words[0].rstrip(".)").isdigit():
        words = words[1:]  # "2. The mayor ..."
    return bool(words) and words[0][:1].isalnum()


@memoize(2048, 8 * MiB, bytes_per_char=48)
def _alone(sentence: str) -> tuple[Clause, ...]:
    """The clauses of ``sentence`` read without the sentences around it."""
    return read(sentence)


def _says_no_more(unit: Clause, stated: Sequence[Token], bracketed: bool = False) -> bool:
    """Whether every word of content of ``unit`` is one the claim matched, a date, or in an
    aside that describes: one with a number ("(born in 1867)"), or, in a sentence with no
    brackets, one after a name ("Ostra, a port on the Vel,"); and none that qualifies or denies
    ("(allegedly)", ", reportedly,"; "(retracted)" has no number). No word of it may be read
    for a pronoun."""
    held = set(map(id, stated))
    asides: dict[int, list[Token]] = {}
    after_a_name: set[int] = set()  # the asides that follow a capitalised word
    for k, token in enumerate(unit):
        if token.aside and token.aside not in asides and k and unit[k - 1].text[:1].isupper():
            after_a_name.add(token.aside)
        if token.aside:
            asides.setdefault(token.aside, []).append(token)
    describing = {n for n, words in asides.items()
                  if not any(t.kind in ("qualifier", "negation") for t in words) and (
                      any(t.kind == "number" for t in words)
                      or not bracketed and n in after_a_name)}
    return not any(t.referent for t in unit) and all(
        id(t) in held or not t.content or _a_date(t) or t.aside in describing for t in unit)


def _a_date(token: Token) -> bool:
    """A year or a day of a month ("2007", "28 June"): when, not which."""
    return token.kind == "number" and (bool(re.fullmatch(r"1\d{3}|20\d{2}", token.text)) or any(
        word.lower() in MONTH_OF for word in token.text.split()))


def _weight(key: tuple[str, tuple[Evidence, ...]], findings: Findings) -> int:
    claim, evidence = key
    return 3 * (len(claim) + sum(len(e.text) for e in evidence) + len(findings.reason)) + 500


# The last claims' findings: a validation asks of each claim twice (the cascade, then the
# local judge or a first judge), and a hostile text weighs its length, not one entry.
CHECKED: LRU[tuple[str, tuple[Evidence, ...]], Findings] = LRU(256, 16 * MiB, _weight)


def _decide(claim: str, evidence: Sequence[Evidence]) -> Findings:
    if (borrowed := BORROWED.match(claim)) is not None:
        return _borrowed(claim, borrowed, evidence)
    claim = safe_text(claim)  # a lone surrogate is no text the readers take
    if records.tells_of_failure(claim):
        return _decide_on(claim, evidence)
    kept = [n for n, e in enumerate(evidence) if e.tool is None or not e.tool.error]  # an
    # error result is evidence of the error alone
    found = _mapped(_decide_on(claim, [evidence[n] for n in kept]), kept)
    words = content_words(claim)
    failed = [n for n, e in enumerate(evidence) if e.tool is not None and e.tool.error]
    failing = [n for n in failed if words & _call_words(evidence[n])]
    if found.reason == _NO_EVIDENCE and failed:  # all it was given failed: the reason says so
        n = (failing or failed)[0]
        tool = evidence[n].tool
        assert tool is not None
        return replace(found, reason=f"the call {tool.name} ({tool.call_id}) failed: its result "
                       "is evidence of the failure, not of what it was asked to do",
                       fault=FailureKind.FAILED_TOOL, basis=n)
    if not failing or found.supported:
        return found
    # a claim of what a failed call attempted: where the failed call's result holds as much of
    # the claim as the rest, it decided
    attempt = _mapped(_decide_on(claim, [evidence[n] for n in failing]), failing)
    basis = failing[0] if attempt.basis is None else attempt.basis
    attempted = not attempt.supported and attempt.coverage >= found.coverage
    if not found.contradiction:  # told as done, which failed: named where it holds more
        more = not attempt.supported and attempt.coverage > found.coverage
        return replace(found, fault=FailureKind.FAILED_TOOL,
                       basis=basis if more and found.basis is None else found.basis)
    tool = evidence[basis].tool
    if tool is not None and attempted:
        # another record's value against it, where the failed call's result holds as much of
        # the claim: the failed call decided, and the reason names it ("Order A-991
        # was cancelled", where cancelling A-991 failed, is no claim about the order A-992
        # another call looked up)
        return Findings("unaligned", f"the call {tool.name} ({tool.call_id}) failed: "
                        f"{attempt.reason}", attempt.coverage, attempt.quotes,
                        fault=FailureKind.FAILED_TOOL, basis=basis)
    return found


def _call_words(evidence: Evidence) -> frozenset[str]:
    """The content words of a tool's result and of the name of its call."""
    name = evidence.tool.name.replace("_", " ") if evidence.tool is not None else ""
    return content_words(f"{name} {evidence.text}")


def _borrowed(claim: str, borrowed: re.Match, evidence: Sequence[Evidence]) -> Findings:
    """A claim whose subject was read for its pronoun ("[Hall B] seats 800.",
    ``in_context``): held by a statement of it with that subject, or by one of the rest whose
    own subject names nothing else ("the tower ... remained the tallest" holds "[The Eiffel
    Tower] was the tallest"); a statement of another's ("Hall A seats 800") does not hold
    it."""
    rest = claim[borrowed.end():]
    found = check(f"{borrowed.group(1)}{rest}", evidence)
    if found.supported or found.contradiction:
        return found
    loose = check(f"It{rest}", evidence)
    if loose.kind == "aligned" and not _names_another(loose.held, borrowed.group(1)):
        return loose
    return found


def _names_another(held: Sequence[Clause], subject: str) -> bool:
    """Whether a clause of ``held`` has a subject that may be something other than
    ``subject``: a name that is not its own ("The Louvre" for "The Eiffel Tower", "Aria 4"
    for "Aria 5", "Hall" of "Hall A" for "Hall B", "Her student, Mila Horn," for "Ines
    Varga"), or a description of more than one word it does not have ("the old hall" for "the
    new hall"). A pronoun and a one-word description ("the tower", "the company") name
    nothing else."""
    mine = [t for clause in read(subject) for t in clause]
    for clause in held:
        if _unread_pronoun(clause):
            return True  # "Today it has 40 branches": "it" is what the passage named before
        theirs = _before_the_verb(clause)
        if _names(theirs) and _names(theirs) != _names(mine):
            return True
        described = {t.form for t in theirs if t.content and not t.aside}
        if len(described) > 1 and not described <= {t.form for t in mine}:
            return True
    return False


def _unread_pronoun(clause: Sequence[Token]) -> bool:
    """Whether ``clause`` has "it", "he", "she" or "they" before its first verb that was read
    for nothing: it stands for something the rules did not name."""
    for token in clause:
        if token.text.lower() in AUXILIARIES or token.kind == "word" and suffix(token):
            return False
        if token.text.lower() in THIRD_PERSON and not token.referent:
            return True
    return False


def _before_the_verb(clause: Sequence[Token]) -> Sequence[Token]:
    """``clause``'s subject with the asides that stand by it ("Her student, Mila Horn,")."""
    subject = subject_of(tuple(clause))
    if not subject:
        return ()
    end = place(subject[-1], clause) or 0
    while end + 1 < len(clause) and clause[end + 1].aside:
        end += 1
    return clause[:end + 1]


def _names(tokens: Iterable[Token]) -> set[str]:
    """The words written with a capital (an article or pronoun that opens a sentence aside),
    and the numbers: what names one thing and not another."""
    return {t.form for t in tokens if t.kind == "number"
            or t.text[:1].isupper() and t.kind != "function"}


def _mapped(found: Findings, places: Sequence[int]) -> Findings:
    """``found`` of a part of the evidence, its ``basis`` an index into the whole, whose
    indices of that part are ``places``."""
    return found if found.basis is None else replace(found, basis=places[found.basis])


def _decide_on(claim: str, evidence: Sequence[Evidence]) -> Findings:
    held = [n for n, e in enumerate(evidence) if e.fields]
    if not held:
        return _prose(claim, evidence)
    prose = [n for n, e in enumerate(evidence) if not e.fields]
    outcome = values.best(claim, [evidence[n] for n in held])
    by_values = _mapped(_findings(outcome), held)
    if not prose:
        return by_values
    both = (by_values, _mapped(_prose(claim, [evidence[n] for n in prose]), prose))
    # where a record and a passage disagree, the claim is not grounded: a conflict in either,
    # or a passage that states it where the record it names (holding some of its values)
    # gives none for another
    conflict = next((f for f in both if f.contradiction or f.other_value), None)
    if (conflict is None and both[1].supported and outcome.kind == "unsupported"
            and outcome.held and outcome.value_missing):
        return replace(by_values, reason="a source states it, but the record it names does "
                       f"not: {outcome.reason}")
    return (conflict or next((f for f in both if f.supported), None)
            or max(both, key=lambda f: f.coverage))


def _findings(outcome: values.Outcome) -> Findings:
    """``values``' reading of a record, as findings."""
    kind = {"supported": "aligned", "conflict": "value"}.get(outcome.kind, "unaligned")
    # the record decided where it states the claim, gives another value or says it is not
    # done; a value or word no record gives, none did
    decided = outcome.kind != "unsupported" or outcome.fault == FailureKind.UNASSERTED
    return Findings(kind, outcome.reason, outcome.coverage, outcome.quotes,
                    fault=outcome.fault, basis=outcome.record if decided else None)


def _prose(claim: str, evidence: Sequence[Evidence]) -> Findings:
    """How passages of prose state ``claim``."""
    mine = assertions.unasserted(claim)
    blanked: list[tuple[str, str, int]] = []  # (sentence, how it puts what it says, passage)
    asserted = [_asserted(e, mine, blanked, n) for n, e in enumerate(evidence)]
    found = _check(claim, asserted)
    if blanked and not (found.supported or found.contradiction):
        words = content_words(claim)
        shares = [(len(words & content_words(sentence)) / max(1, len(words)), n)
                  for n, (sentence, _, _) in enumerate(blanked)]
        share, n = max(shares)
        if share >= _HOLDS or found.reason == _NO_EVIDENCE:  # all it was given is unasserted
            sentence, kind, passage = blanked[n]
            return Findings("unaligned", f"a source puts it {_PUT.get(kind, kind)}, not as a "
                            f"fact: {sentence.strip()!r}", found.coverage,
                            fault=_OPPOSING.get(kind, FailureKind.UNASSERTED), basis=passage)
    return found


_HOLDS = 0.6  # the share of a claim's content words an unasserted sentence holds to be named
_NO_EVIDENCE = "no evidence was given"



# The standings that say the opposite of what the sentence holds (the rest do not assert it).
_OPPOSING = {assertions.DENIAL: FailureKind.OPPOSITE, assertions.TAKEN_BACK: FailureKind.OPPOSITE}

# How an unasserted sentence puts what it says, as a reason words it.
_PUT = {assertions.QUESTION: "as a question", assertions.REQUEST: "as a request to check it",
        assertions.SUPPOSITION: "as a supposition", assertions.IMPERATIVE: "as an imperative",
        assertions.FRAMED: "under a frame that does not state it",
        assertions.OPENED: "after words that do not state it"}


def _check(claim: str, evidence: Sequence[Evidence]) -> Findings:
    clauses = [c for c in read(claim) if any(t.content for t in c)]
    units = [unit for e in evidence for unit in read(e.text)]
    coverage = _coverage(clauses, units)
    word_for_word = _verbatim(claim, evidence, statement=any(has_verb(c) for c in clauses))
    if word_for_word is not None:
        passage, sentence = word_for_word  # as read: "[The Harbour Inn] was renovated ..."
        if all(is_mention(c) for c in clauses):
            return Findings("mention", f"a passage names it word for word: {sentence!r}",
                            coverage, basis=passage)
        return Findings("verbatim", f"a passage states it word for word: {sentence!r}",
                        coverage, basis=passage)
    if not clauses:
        return Findings("unaligned", "it states nothing the rules can compare", coverage)
    found = [a for a in (best_alignment(clause, units) for clause in clauses) if a is not None]
    if len(found) < len(clauses):
        return Findings("unaligned", _NO_EVIDENCE, coverage, fault=FailureKind.ADDITION)
    for alignment in found:
        if alignment.conflict:
            kind, why = alignment.conflict
            return Findings(kind, why, coverage, fault=alignment.fault,
                            basis=_passage_of(alignment, evidence))
    if all(a.aligned for a in found):
        quotes = tuple(dict.fromkeys(_sentence_of(a, evidence) for a in found))
        quoted = "; ".join(map(repr, quotes))
        basis = _passage_of(found[0], evidence)
        if all(is_mention(c) for c in clauses):
            return Findings("mention", f"the source names it: {quoted}", coverage, quotes,
                            basis=basis)
        return Findings("aligned", f"the source states it: {quoted}", coverage, quotes,
                        held=tuple(a.clause for a in found),
                        basis=basis)
    unaligned = next(a for a in found if not a.aligned)
    why, fault = _why_not(unaligned, units, evidence)
    if any(a.aligned for a in found) and unaligned.matched <= 1:
        fault = FailureKind.ADDITION  # a statement the claim adds to one the source states
        # ("... on Sunday and triggered a tsunami warning")
    return Findings("unaligned", why, coverage, other_value=_other_value(unaligned, units),
                    fault=fault)


def _asserted(evidence: Evidence, mine: str | None, blanked: list[tuple[str, str, int]],
              passage: int) -> Evidence:
    """``evidence`` with lone surrogates replaced and the sentences it does not assert (but as
    the claim ``mine`` puts itself) blanked, each added to ``blanked`` with how it puts what it
    says; spaces keep the offsets. A source that reports what someone said asserts it, as documents do."""
    text = safe_text(evidence.text)  # a lone surrogate is no text the readers take
    if evidence.said is not None:  # a user's sentence, read as asserted already
        return evidence if text == evidence.text else replace(evidence, text=text)
    kept = {assertions.REPORT, assertions.CONDITION, mine}
    if mine in (assertions.REPORT, assertions.FRAMED):  # a claim that reports a frame keeps
        kept.add(assertions.FRAMED)  # the framed sentence, whose frame the rules then compare
    for sentence, start, end, kind in _standings(text):
        if kind not in kept:
            blanked.append((sentence, kind, passage))
            text = text[:start] + " " * (end - start) + text[end:]
    return evidence if text == evidence.text else replace(evidence, text=text)


@memoize(1024, 8 * MiB, bytes_per_char=4)
def _standings(text: str) -> tuple[tuple[str, int, int, str], ...]:
    """Each sentence of a passage that does not assert what it says: (the sentence, where its
    frame starts, where it ends, its kind). Read once a passage, whichever claim asks: a
    frame of a later clause leaves the first stated."""
    sentences = split_sentences(text)
    read = assertions.standing_each([s.text for s in sentences])
    return tuple((sentence.text, sentence.start + at, sentence.end, kind)
                 for sentence, (kind, at) in zip(sentences, read, strict=True)
                 if kind is not None)


def _verbatim(claim: str, evidence: Sequence[Evidence], statement: bool = True
              ) -> tuple[int, str] | None:
    """Which passage of the evidence (its index) has a sentence that holds ``claim`` word for
    word, and that sentence as read (a pronoun read in brackets): with nothing before it in
    its clause that turns it round or qualifies it ("not all of ...", "about ...", "may ..."),
    no condition in its sentence the claim leaves out ("if", "when", "unless") and not as
    what something else is of ("the son of the king won") or, for a ``statement``, about,
    near or by ("a film about Jones won", "the firm that bought Acme failed"): those are read
    by the alignment. None where none does."""
    target = normalise(claim)
    words = target.split()
    if len(words) < VERBATIM_MIN_WORDS:
        return None
    passages = [_as_written_and_read(MARKER.sub(" ", e.text)) for e in evidence]
    if not any(f" {target} " in f" {normalise(' '.join(said))} " for said in passages):
        return None
    mine = set(words)
    # words are apart in the text, but a currency sign and its number may touch ("$30"); a
    # mark that ends a clause or aside is between them only where the claim has one too
    # ("Lions, unlike tigers, live in groups" does not hold "Tigers live in groups")
    apart = r"[\W_]+" if any(mark in claim for mark in ",;:()–—") else r"(?:[^\w,;:()–—]|_)+"
    joined = "".join(("" if not n else r"[\W_]*" if {words[n - 1][:1], word[:1]} & SIGNS
                      else apart) + re.escape(word) for n, word in enumerate(words))
    span = re.compile(r"(?<![^\W_])" + joined + r"(?![^\W_])", re.IGNORECASE)
    amounts = read_facts(claim).quantities
    claim_titled = QUOTED_NAME.search(claim) is not None  # a claim that names a title in quotes
    for passage, sentences in enumerate(passages):
        for said in sentences:
            said = fold(said)
            said_words = normalise(said).split()
            if said_words and said_words[0] in _INVERTED and "," in said:
                continue  # "Should the talks fail, the union will strike": a condition
            if "respectively" in said_words and "respectively" not in mine:
                continue  # "A and B cost €14 and €6 respectively": paired in order
            theirs = read_facts(said).quantities if amounts else ()
            if not all(any(q.stated_by(v) for v in theirs) for q in amounts):
                continue  # the same digits, another value: "-€35", "3 percentage points"
            if said.rstrip().endswith("?") or _held_back(said_words, mine) or any(
                    (t.scope or t.kind == "qualifier") and t.text.lower() not in mine
                    for c in read(said) for t in c):
                continue  # the alignment reads it ("Among men, ...": only of them; "from
                # next Monday": not yet)
            titles = [] if claim_titled else [t.span() for t in QUOTED_NAME.finditer(said)]
            for found in span.finditer(said):
                if _name_goes_on(claim, said, found):
                    continue  # "Acme" in "Acme Labs", "Korea" in "North Korea": another name
                if any(a < found.end() and found.start() < b for a, b in titles):
                    continue  # in a title: "the novel 'The Keeper Drowned'" states no drowning
                clause = _CLAUSE_START.split(said[:found.start()])[-1]
                before = normalise(clause).split()[-_PREFIX:]
                head = [w for w in before if w not in ARTICLES]  # "a film about (the) ..."
                of_another = "of" in before[-3:] or bool(head) and (
                    head[-1].endswith("'s") or statement and (
                        head[-1] in LINKS or len(head) > 1 and head[-2] in RELATIVES))
                # "a film about Jones", "the firm that bought Acme": a name is named all the same
                if not of_another and not any(_turns(w) and w not in mine for w in before):
                    return passage, said
    return None


def _name_goes_on(claim: str, said: str, found: re.Match) -> bool:
    """Whether the name a claim opens or ends with goes on in the source's sentence, past where
    the claim's words are found: "Ann Lee founded Acme" in "Ann Lee founded Acme Labs", "Korea
    tested a missile" in "North Korea tested a missile". A name cut short is another name."""
    before, after = said[:found.start()], said[found.end():]
    first, last = claim.split()[0], claim.rstrip(" .!").split()[-1]
    word_before = before.split()[-1] if before.endswith(" ") and before.split() else ""
    word_after = after.split()[0] if after.startswith(" ") and after.split() else ""
    names = [w[:1].isupper() and w.lower() not in FUNCTION_WORDS for w in (first, last)]
    goes_before = names[0] and word_before[:1].isupper() and word_before[-1:].isalnum() and (
        word_before.lower() not in FUNCTION_WORDS | PREPOSITIONS)
    goes_after = names[1] and word_after[:1].isupper()
    return goes_before or goes_after


def _as_written_and_read(text: str) -> list[str]:
    """Each sentence of ``text`` as written and, where it differs, as read in its place
    (``in_context_each``)."""
    return [form for pair in in_context_each(text) for form in dict.fromkeys(pair)]


def _held_back(words: list[str], mine: set[str]) -> bool:
    """Whether a sentence's words hold back what it says in a way the claim's do not: a
    condition ("If it rains, the match is cancelled"), a word that does not assert it ("...,
    critics claim"; "Prosecutors alleged that ..."), alternatives ("Anna or Ben")."""
    text = f" {' '.join(words)} "
    return any((w in _CONDITIONS or w in UNASSERTING or w in _ALTERNATIVES) and w not in mine
               for w in words) or any(
        reports(w, after, before) and w not in mine
        for before, w, after in zip(["", *words], words, words[1:], strict=False)) or any(
        f" {' '.join(phrase)} " in text for phrase in CONDITION_PHRASES)


# "open only on Sundays" holds on a condition too, and "valid until Friday" on a time bound
_CONDITIONS = CONDITIONS | {"only", "until", "till"}
_ALTERNATIVES = frozenset(("or", "either"))
_INVERTED = frozenset(("should", "had", "were"))  # a condition said without "if"
_CLAUSE_START = re.compile(  # a mark, or a word that starts a clause of its own
    r"[,;:()]|\b(?:" + "|".join(sorted(w for w in BOUNDARIES | {"unless"} if w.isalpha()))
    + r")\b", re.IGNORECASE)
_PREFIX = 6  # words of the clause before the match that may turn or qualify it


def _turns(word: str) -> bool:
    """A word that changes what the words after it state: a negation, a qualifier, a hedge, a
    word that makes a title another ("former", "acting")."""
    return (word in NEGATIONS or word.endswith("n't") or word in QUALIFIERS
            or word in _BOUND_WORDS or word in TITLE_CHANGERS)


_BOUND_WORDS = frozenset(w for phrase in quantities.BOUND_WORDS for w in phrase.split()) - {
    "to", "of", "an", "a", "in"}


def _why_not(alignment: Alignment, units, evidence: Sequence[Evidence]
             ) -> tuple[str, FailureKind | None]:
    """What did not align, in words a person reads: a word of the sentence beside the
    source's in its slot, a number beside the source's, a word the source says in another
    statement (quoted as written), or one it does not say at all; and what the first of
    those gets wrong (``FailureKind``)."""
    telling = _turning_word(alignment)
    first = ([f"the source says {telling[0].text!r}, which the sentence leaves out"],
             [telling[1]]) if telling else ([], [])  # what decided comes first
    if alignment.blocked:
        if telling and _tells_more(telling[1], alignment.fault):
            return "; ".join((*first[0], alignment.blocked)), telling[1]
        return alignment.blocked, alignment.fault
    reasons, faults = first
    elsewhere: dict[str | None, list[str]] = {}  # the evidence's sentence -> words
    instead = dict(alignment.instead)
    for token in alignment.missing[:3]:
        if token.amount:
            near = _nearest_number(token, alignment, units)
            if near is not None and not token.amount.stated_by(near.amount):
                reasons.append(quantities.mismatch(token.amount, near.amount))
                elsewhere_too = any(t.amount and t.amount.stated_by(token.amount)
                                    and token.amount.stated_by(t.amount)
                                    for u in units for t in u if t is not near)
                faults.append(FailureKind.ENTITY if elsewhere_too else
                              fault_of(token, alignment.claim))  # "29" is another's age
                continue
        if token in instead and _voices_differ(token, instead[token]):
            reasons.append(f"the sentence says {token.text!r} in the passive, the source "
                           f"{instead[token].text!r} in the active: not who does what")
            faults.append(FailureKind.ROLES)
        elif token in instead:
            changed = _changed(token, instead[token], alignment.claim)
            moved = None
            if token.kind == "word" and changed == FailureKind.PREDICATE and any(
                    same(_active(token), _active(t)) for u in units for t in u):
                # the source says it of another thing, or at another date
                moved = _value_moved(alignment, units, [token])
                changed = moved[0] if moved else FailureKind.ENTITY
            reasons.append(f"the source says {token.text!r} with {moved[1].text!r}: another "
                           f"{moved[0]}" if moved else
                           f"the sentence says {token.text!r}, the source says "
                           f"{instead[token].text!r}: not known to mean the same here")
            faults.append(changed)
        elif any(same(_active(token), _active(t)) for u in units for t in u):
            elsewhere.setdefault(_sentence_with(token.text, evidence), []).append(token.text)
        elif title := _in_a_title(token, units):
            reasons.append(f"the source says {token.text!r} only in the name {title!r}, which "
                           "states nothing")
            faults.append(FailureKind.UNASSERTED)
        else:
            reasons.append(f"{token.text!r} is not in the source")
            faults.append(_added(token, alignment.claim, alignment.clause,
                                 2 * alignment.matched >= alignment.needed))
    for where, words in elsewhere.items():
        named = " and ".join(repr(w) for w in words)
        reasons.append(f"the source says {named}, but not with the rest of the sentence"
                       + (f": {where!r}" if where else ""))
        faults.append(_apart(alignment, units))
    return "; ".join(reasons) or "no passage states it", (faults or [FailureKind.ADDITION])[0]


# The modals that suppose what follows rather than state it ("a bill that would ban"); "can",
# "will" and "must" say what is able, due or bound to happen, which a claim may say too.
_SUPPOSING = MODALS - {"can", "will", "must", "shall"}


def _in_a_title(token: Token, units) -> str | None:
    """The quoted name of the evidence (a title: "'The Keeper Drowned'") that holds ``token``'s
    word, or None."""
    word = token.text.lower()
    return next((t.text for u in units for t in u if t.form.startswith("title:")
                 and word in t.text.lower().split()), None)


def _tells_more(kind: FailureKind, than: FailureKind | None) -> bool:
    """Whether ``kind`` tells more of what a claim gets wrong than ``than`` (``TELLING``)."""
    return kind in TELLING and (than not in TELLING or TELLING.index(kind) < TELLING.index(than))


def _turning_word(alignment: Alignment) -> tuple[Token, FailureKind] | None:
    """A word of the source's statement, among the words the claim drew on or just before
    them, that turns what it says of them round or holds it back (a negation or one of
    ``CHANGERS``: "lacked", "barely", "proposed", "nominee"), where the claim has no word of
    the same stem; and what the claim gets wrong without it."""
    clause, stated = alignment.clause, alignment.stated
    mine = {t.form for t in alignment.claim}
    at = [k for k, t in enumerate(clause) if t.form in mine or any(t is s for s in stated)]
    if not at:
        return None
    start = at[0]
    while start and (clause[start - 1].kind == "function"
                     or clause[start - 1].text.lower() in QUANTIFIERS):
        start -= 1  # "Scarcely any residents": to the word before the phrase
    said = {t.text.lower() for t in clause}
    claimed = [t.text.lower() for t in alignment.claim if t.content and t.text.lower() not in said]
    for k in range(max(0, start - 1), at[-1]):
        token, word = clause[k], clause[k].text.lower()
        # the claim's word the source turns round, and does not also say (two poles swapped
        # are roles: "the cold front displaced warm air")
        pole = next((w for w in claimed if opposed(word, w)), None)
        amount = k + 1 < len(clause) and clause[k + 1].text.lower() == "than" and \
            quantity(word) == FailureKind.NUMBER  # "fewer than a third" for "more than half"
        if any(token is s for s in stated):
            if pole is not None:
                return token, FailureKind.NUMBER if amount else FailureKind.OPPOSITE
            continue  # "rejected" aligned with "ratified"
        if token.form in mine:
            continue
        if token.kind == "negation" or pole is not None:
            return token, FailureKind.NUMBER if amount else FailureKind.OPPOSITE  # "lacked",
            # "declined" for "increased"
        if (kind := changes(*word_and_next(clause, k))) is not None:
            return token, kind
        if word in UNASSERTING and clause[k + 1].text.lower() != "of" or word in _SUPPOSING:
            return token, FailureKind.UNASSERTED  # "Some historians believe ...", "would ban"
            # (not "Estimates of")
    for k in range(at[-1] + 1, len(clause)):  # after the claim's words, a word that holds it
        # back ("is awaiting approval"), not one said of something else ("in his absence")
        if clause[k].form not in mine and changes(*word_and_next(clause, k)) == \
                FailureKind.UNASSERTED:
            return clause[k], FailureKind.UNASSERTED
    return None


def _value_moved(alignment: Alignment, units: Sequence[Sequence[Token]],
                 words: Sequence[Token]) -> tuple[FailureKind, Token] | None:
    """``date`` or ``number``, and the value, where the source says ``words`` in a statement
    that gives another value of a kind the claim gives, and not the claim's: the claim moved its value
    from another event ("signed on 13 December 2007 and entered into force on 1 December
    2009"); None where that statement holds the claim's value too (it is said of another
    thing: "her teammate Joy won silver in the 100 meters")."""
    mine = {t.form: fault_of(t, alignment.claim) for t in alignment.claim if t.kind == "number"}
    wanted = [_active(w) for w in words]
    for unit in units:
        if not any(same(w, _active(t)) for w in wanted for t in unit) or any(
                t.form in mine for t in unit):
            continue
        found = next(((kind, t) for t, kind in _values(unit) if kind in mine.values()), None)
        if found is not None:
            return found
    return None


def _values(unit: Sequence[Token]) -> Iterator[tuple[Token, FailureKind]]:
    """The values of ``unit`` with their kinds (``fault_of``); a time told from another
    ("eight years later", "a year later") is a date."""
    for k, token in enumerate(unit):
        if token.kind == "number":
            yield token, fault_of(token, unit)
        elif k and token.text.lower() in AFTER_A_DATE and unit[k - 1].text.lower() in \
                TIME_NOUNS:
            yield token, FailureKind.DATE


def _apart(alignment: Alignment, units: Sequence[Sequence[Token]] = ()) -> FailureKind:
    """What a claim gets wrong whose words the source says, but not together: what the source
    holds back (a condition, alternatives, someone's claim: ``_held_back``); who did what to
    whom, where the source's clause has the claim's words in another order; else what the
    source says of another entity ("Portugal's goalkeeper" from "Spain's goalkeeper")."""
    mine = {t.text.lower().removesuffix("'s") for t in alignment.claim}
    if _held_back(normalise(alignment.evidence).split(), mine):
        return FailureKind.UNASSERTED
    moved = _value_moved(alignment, units, alignment.missing)
    if moved is not None:
        return moved[0]
    if not any(t.kind == "number" for t in alignment.claim) and any(
            t.amount and t.amount.unit == "%" for t in alignment.clause):
        return FailureKind.NUMBER  # the source says how much of it ("60 percent contained")
    if alignment.missing and all(t.text.lower() in SETTINGS or _in_setting(t, alignment.claim)
                                 for t in alignment.missing if t.content):
        return FailureKind.CIRCUMSTANCE  # a place or group the source says of another
        # statement ("doubled across Europe" where "Europe" stayed flat)
    if any(t.aside for t in (*alignment.claim, *alignment.clause)
           if t.content and t.text.lower() in mine and t.kind == "word"):
        return FailureKind.ENTITY  # a property said of one thing told of another
    own = [_active(t) for t in alignment.clause]
    at = [next((k for k, o in enumerate(own) if same(_active(t), o)), None)
          for t in alignment.claim if t.content and not t.text.endswith("'s")]  # an owner
    # is read after what it owns
    found = [k for k in at if k is not None]
    here = all(any(same(_active(t), o) for o in own) for t in alignment.missing)
    if here and any(b < a for a, b in zip(found, found[1:], strict=False)) and not any(
            t.kind == "name" and t.text.lower().removesuffix("'s") not in mine
            for t in alignment.clause):
        return FailureKind.ROLES  # all in one clause, in another order, of no one else
    return FailureKind.ENTITY


def _other_value(alignment: Alignment, units) -> bool:
    """Whether a measure the alignment left unmatched (a number with a unit) has, in its place
    in the source, another value of the same unit (what ``_why_not`` calls "another value").
    A bare number, such as an order number, is not a measure."""
    for token in alignment.missing:
        if token.amount and token.amount.unit:
            near = _nearest_number(token, alignment, units)
            if near is not None and near.amount.unit == token.amount.unit and \
                    token.amount.conflicts(near.amount):
                return True
    return False


def _changed(mine, theirs, claim) -> FailureKind:
    """What a claim gets wrong that says ``mine`` where the source says ``theirs``: who did
    what, where the claim has the source's word in another place; another value or name;
    a modal for another ("must" for "should": what the source does not assert); another
    quantity ("most" for "some", "first" for "second", "per year" for "per month"); another
    name (two words written as names: "Smith" for "Jones"); else another word."""
    if any(same(_active(theirs), _active(t)) for t in claim if t is not mine):
        return FailureKind.ROLES
    if mine.kind in ("name", "number"):
        return fault_of(mine, claim)
    word, other = mine.text.lower(), theirs.text.lower()
    at = place(mine, claim) or 0
    if at and claim[at - 1].text.lower() in _RATES:
        return FailureKind.NUMBER  # a rate's period: "each month" for "each summer"
    if at + 1 < len(claim) and claim[at + 1].text.lower() in TIME_NOUNS:
        return FailureKind.DATE  # "the first quarter" for "the second quarter"
    after = claim[at + 1] if at + 1 < len(claim) else None
    if FailureKind.DATE in (fault_of(mine), fault_of(theirs)) or after is not None and \
            fault_of(after, claim) == FailureKind.DATE:
        return FailureKind.DATE  # "evening" for "morning", "early" before "1970s"
    if opposed(word, other):
        return FailureKind.OPPOSITE  # "increased" for "declined"
    if (changed := changes(other)) is not None:
        return changed  # "included" for "lacked", "winner" for "finalist"
    if other in TITLE_CHANGERS or len(other) > len(word) + 2 and other.endswith(word):
        return FailureKind.ENTITY  # "founder" for "co-founder", "son" for "grandson"
    if after_number(mine, claim):
        return FailureKind.NUMBER  # its unit ("50 milligrams" for "50 micrograms")
    words = {word, other}
    if words & MODALS:
        return FailureKind.UNASSERTED
    if words & QUANTIFIERS:
        return quantity(next(iter(sorted(words & QUANTIFIERS))))  # "all" for "some"
    if words & (ORDINALS | TIME_NOUNS | quantities.UNITS.keys()):
        return FailureKind.NUMBER
    if mine.text[:1].isupper() and theirs.text[:1].isupper():
        return FailureKind.ENTITY
    return FailureKind.PREDICATE


_RATES = frozenset(("each", "every", "per", "a", "an"))  # before a period, they make a rate


def _added(token, claim, evidence: Sequence[Token] = (), in_place: bool = False
           ) -> FailureKind:
    """What a claim gets wrong with a word the source does not have: a quantity or a bound
    ("all", "more than"), a scope ("only"), else something the sources do not mention."""
    at = place(token, claim) or 0
    word = token.text.lower()
    if word in QUANTIFIERS:
        bounded = at > 1 and claim[at - 1].text.lower() == "than"  # "more than half"
        return FailureKind.NUMBER if bounded else quantity(word)  # "all diesel cars"
    if word in _BOUND_WORDS or word in ORDINALS or word == "exactly":
        return FailureKind.NUMBER
    if fault_of(token, claim) == FailureKind.DATE:
        return FailureKind.DATE  # "April", a year, "9 p.m."
    before = claim[at - 1].text.lower() if at else ""
    if word in TIME_NOUNS:  # a rate's period ("each month"), or a time ("for the year")
        return FailureKind.NUMBER if before in _RATES else FailureKind.DATE
    if token.amount and any(t.kind == "number" for t in evidence) or word in quantities.UNITS \
            or before == "per":
        return FailureKind.NUMBER  # a figure the source gives otherwise ("fell to $10"), a
        # unit, what a rate is per ("per kilometre")
    if (changed := changes(word)) is not None:
        return changed  # "indefinitely" where the source gives three matches
    if word == "only" or word in SETTINGS or _in_setting(token, claim):
        return FailureKind.CIRCUMSTANCE  # "in patients", "across Europe", "on Android"
    if token.kind == "name":
        return FailureKind.ENTITY  # "a team from the Smithsonian"
    if word in MODALS:
        return FailureKind.UNASSERTED  # "will open" where the source is in talks to
    def unsaid(t) -> bool:  # a word of the source the claim does not say
        return t.content and not any(same(_active(t), _active(c)) for c in claim)

    if in_place and (_verb(token) and any(_verb(t) and unsaid(t) for t in evidence)
                     or before in BE and any(k and evidence[k - 1].text.lower() in BE
                                             and unsaid(t) for k, t in enumerate(evidence))):
        return FailureKind.PREDICATE  # the one word the claim does not share: another act or
        # property where the source says one ("cloned" for "sequenced", "is shallow" for
        # "is salty"), not a statement the sources never make ("painted gold for 2024")
    return FailureKind.ADDITION


def _verb(token) -> bool:
    return token.kind == "word" and (participle(token) or token.text.lower() in PAST_ONLY)


def _in_setting(token, claim) -> bool:
    """Whether ``token`` is in a phrase of place, time or group ("in patients", "in the
    state", "on Android devices"): a preposition of ``SETTINGS`` before it, with only
    articles and adjectives between."""
    at = place(token, claim) or 0
    if at and claim[at - 1].text.lower() in SETTINGS:
        return True  # "in infected people"
    if participle(token) or suffix(token) == "ing":
        return False  # a verb of its own ("..., driven by immigration")
    for k in range(at - 1, max(-1, at - 4), -1):
        word = claim[k].text.lower()
        if word in SETTINGS:
            return True
        if word not in ARTICLES and (claim[k].kind != "word" or claim[k].text[:1].isupper()):
            return False  # not an article or an adjective ("in infected people")
    return False


def _voices_differ(mine, theirs) -> bool:
    return mine.form != theirs.form and _active(mine).form == _active(theirs).form


def _active(token):
    """``token`` without its passive mark: the same word, for saying where the source has it."""
    if not token.form.endswith(PASSIVE):
        return token
    return replace(token, form=token.form.removesuffix(PASSIVE))


def _sentences(evidence: Sequence[Evidence]) -> Iterator[str]:
    """The evidence's sentences as written (citation markers out, spaces collapsed), in order."""
    for _, text in _passages_sentences(evidence):
        yield text


def _passages_sentences(evidence: Sequence[Evidence]) -> Iterator[tuple[int, str]]:
    """Each sentence of the evidence as ``_sentences`` gives it, with its passage's index."""
    for passage, e in enumerate(evidence):
        for sentence in split_sentences(MARKER.sub(" ", e.text)):
            yield passage, " ".join(sentence.text.split())


def _passage_of(alignment: Alignment, evidence: Sequence[Evidence]) -> int | None:
    """The index of the passage whose sentence states the aligned clause (``_sentence_of``'s),
    or, for a conflict, gives its other value."""
    owned = list(_passages_sentences(evidence))
    rival = [] if alignment.rival is None else [alignment.rival]  # a conflict's other value
    best = holding_most([text for _, text in owned],
                        [*(t for t in alignment.stated if not t.referent), *rival])
    return None if best is None else owned[best[0]][0]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def _sentence_with(word: str, evidence: Sequence[Evidence], limit: int = 120) -> str | None:
    """The first sentence of the evidence that holds ``word``, as written, cut around it at
    ``limit`` characters."""
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    for text in _sentences(evidence):
        if found := pattern.search(text):
            return _around(text, *found.span(), limit)
    return None


def _sentence_of(alignment: Alignment, evidence: Sequence[Evidence], limit: int = 200) -> str:
    """The sentence of the evidence that states the aligned clause, as written, for a reason a
    reader can check against the source: the one holding most of the words the claim matched
    (``holding_most``), cut around them at ``limit`` characters. A subject read for a pronoun
    from the sentence before ("It opened in 1793.") stands in brackets in the pronoun's place
    ("[The Louvre] opened in 1793."). The clause as read when no sentence holds any of it."""
    texts = list(_sentences(evidence))
    own = [t for t in alignment.stated if not t.referent]
    borrowed = [t for t in alignment.stated if t.referent]
    best = holding_most(texts, own)
    if best is None:
        return _cut(alignment.evidence, limit)
    n, found = best
    text = texts[n]
    if borrowed and n:
        text, found = _named(text, found, borrowed, texts[n - 1])
    return _around(text, found[0][1][0], found[-1][1][1], limit)


def _named(text: str, found: list, borrowed: list, before: str) -> tuple[str, list]:
    """``text`` with its pronoun (``borrowed[0].referent``) replaced by "[the subject]" as the
    sentence ``before`` writes it, and the spans of ``found`` moved to match."""
    pronoun = re.compile(rf"(?<!\w){re.escape(borrowed[0].referent)}(?!\w)").search(text)
    if pronoun is None:
        return text, found
    subject = as_written(before, borrowed)
    named = f"[{subject[:1].upper() + subject[1:] if pronoun.start() == 0 else subject}]"
    shift = len(named) - (pronoun.end() - pronoun.start())
    moved = [(t, (a + shift, b + shift) if a >= pronoun.end() else (a, b)) for t, (a, b) in found]
    return text[:pronoun.start()] + named + text[pronoun.end():], moved


def _around(text: str, low: int, high: int, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters around ``text[low:high]``."""
    if len(text) <= limit:
        return text
    limit -= 6  # room for an ellipsis at each end
    room = max(limit - (high - low), 0)
    start = max(0, min(low - room // 2, len(text) - limit))
    end = min(len(text), start + limit)
    cut = text[start:end].strip()
    return ("..." if start else "") + cut + ("..." if end < len(text) else "")


def _nearest_number(token, alignment: Alignment, units):
    """The evidence number a reason should name beside the claim's ``token``: one in the
    clause the claim lined up with best (if any of it did), else one in a unit of its
    dimension; None when the evidence has neither."""
    numbers = [t for u in units for t in u if t.amount]
    own = [t for t in numbers if alignment.matched and t.text in alignment.evidence]
    alike = [t for t in numbers if token.amount.unit and t.amount.unit
             and t.amount.comparable(token.amount)]
    return (own or alike or [None])[0]


def _coverage(clauses, units) -> float:
    wanted = {t.form for c in clauses for t in c if t.content}
    stated = {t.form for u in units for t in u}
    return round(len(wanted & stated) / len(wanted), 4) if wanted else 1.0
