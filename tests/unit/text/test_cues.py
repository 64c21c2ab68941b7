"""The table of cues (``text.cues``): each row's example is read as the row says, so a row is
never dead and never shadowed by another; a new wording is a new row and its example."""

import re

import pytest

from provenance_guard.judges.outputs import argues
from provenance_guard.judges.replies import parse_reply
from provenance_guard.text import cues
from provenance_guard.text.assertions import standing, unasserted, unasserted_each

_SENTENCE_ROWS = (cues.SENTENCE, cues.OPENING, cues.HEAD)


@pytest.mark.parametrize("cue", [c for c in cues.DENY if c.where in _SENTENCE_ROWS],
                         ids=lambda c: c.example[:40])
def test_each_deny_row_reads_its_example_as_its_kind(cue):
    assert unasserted(cue.example) == cue.standing


@pytest.mark.parametrize("cue", [c for c in cues.DENY if c.where == cues.NEXT],
                         ids=lambda c: c.example[:40])
def test_each_row_that_takes_back_takes_back_the_sentence_before(cue):
    assert unasserted_each(["The order shipped on Monday.", cue.example])[0] == cues.TAKEN_BACK


@pytest.mark.parametrize("cue", [c for c in cues.DENY if c.where == cues.BACK],
                         ids=lambda c: c.example[:40])
def test_each_row_of_words_alone_after_a_sentence_reads_it_as_its_kind(cue):
    assert unasserted_each(["The order shipped on Monday.", cue.example])[0] == cue.standing


@pytest.mark.parametrize("after", ["That's a myth, apparently.", "Honestly, that is false.",
                                   "Is that really true, seriously?"])
def test_an_adverb_beside_the_words_that_take_back_still_takes_back(after):
    assert unasserted_each(["My plan includes free roaming.", after])[0] in (cues.TAKEN_BACK,
                                                                             cues.QUESTIONED)


def test_a_sentence_after_with_a_word_of_its_own_neither_questions_nor_takes_back():
    assert unasserted_each(["The order shipped on Monday.", "Is that the Berlin order?"])[0] is None
    assert unasserted_each(["The order shipped on Monday.", "That is right."])[0] is None


@pytest.mark.parametrize("cue", [c for c in cues.DENY if c.where == cues.SOURCES],
                         ids=lambda c: c.example[:40])
def test_each_row_of_what_the_sources_lack_reads_its_example_as_a_refusal(cue):
    from provenance_guard.text.refusals import is_refusal

    assert is_refusal(cue.example)


@pytest.mark.parametrize("cue", [c for c in cues.ASSERT if c.where == cues.REPLY],
                         ids=lambda c: c.example[:40])
def test_each_row_of_a_reply_saying_back_takes_its_frame_off(cue):
    from provenance_guard.text.said import unframed

    assert unframed(cue.example) == "Your order hasn't arrived."


@pytest.mark.parametrize("cue", [c for c in cues.ASSERT if c.where in _SENTENCE_ROWS],
                         ids=lambda c: c.example[:40])
def test_each_allow_row_lets_its_example_assert(cue):
    assert unasserted(cue.example) is None


@pytest.mark.parametrize("sentence,kind", [
    # a frame no row names fails closed: the wordings are examples, not a list
    ("Cancel my subscription.", cues.IMPERATIVE),
    ("Refund the delivery fee today.", cues.IMPERATIVE),
    ("Don't charge me twice.", cues.IMPERATIVE),
    ("Sign up for the newsletter.", cues.IMPERATIVE),
    ("Call me next week.", cues.IMPERATIVE),
    ("Yeah right, like I got a refund.", cues.OPENED),
    ("Oh great, the parcel arrived broken.", cues.OPENED),
    ("It is improbable that the mine will reopen.", cues.FRAMED),
    ("It is unlikely that the mine will reopen.", cues.HEDGE),
    ("Few expect that the mine will reopen.", cues.FRAMED),
    ("There's no chance that the mine reopens.", cues.FRAMED),
    ("It is not clear that the mine will reopen.", cues.FRAMED),
    ("Critics argue that the bridge is unsafe.", cues.FRAMED),
    ("The odds that the bridge opens in May are slim.", cues.FRAMED),
    # a verb whose object is a clause with no "that"
    ("Researchers suspect the outbreak began at a local market.", cues.FRAMED),
    ("Analysts expect the bank will cut rates.", cues.FRAMED),
    ("Scientists think the comet is old.", cues.FRAMED),
    ("Experts warn the virus may spread.", cues.FRAMED),
    ("Police believe he fled the country.", cues.FRAMED),
    ("Investigators suspect that icing on the wings contributed to the crash.", cues.FRAMED),
    # what someone stated, announced, concluded or agreed is their word, as what they said
    ("The company stated that the recall covers every model.", cues.FRAMED),
    ("The ministry announced that the border would reopen.", cues.FRAMED),
    ("The panel concluded that the dam was safe.", cues.FRAMED),
    ("Both sides agreed that the deal was fair.", cues.FRAMED),
    ("The lawyer observed that the wiring was faulty.", cues.FRAMED),
    ("The company acknowledged that the reactor is safe.", cues.FRAMED),
    ("The landlord guarantees that the flat is quiet.", cues.FRAMED),
    ("In simulations, the bridge withstood the earthquake.", cues.SUPPOSITION),
    # a noun of saying before "that": the clause is what was said, not what is so
    ("The announcement that the plant is closing shocked the town.", cues.FRAMED),
    ("The statement that the dam is safe was issued by the utility.", cues.FRAMED),
    ("The promise that fares will be frozen was repeated on Monday.", cues.FRAMED),
])
def test_a_frame_no_row_knows_asserts_nothing(sentence, kind):
    assert unasserted(sentence) == kind


@pytest.mark.parametrize("sentence", [
    "The study found that the mine will reopen.",
    "It is true that the mine will reopen.",
    "Eiffel designed the tower that Koechlin drew.",  # a relative clause
    "The seed that the farmer planted grew.",  # a noun in -ed, not a past form
    "The firm that sells cars will close.",  # a relative clause before a modal
    "The plan that has been approved will cut costs.",
    "The hospital bed that nurses had ordered was broken.",
    "In recent films, the actor played a doctor.",
    "The firm that bought Acme failed.",
    "Paris, the capital of France, is large.",  # an apposition
    "Pizza, pasta and salads are served.",  # a list
    "In 1998, the company moved to Oslo.", "After the war, Smith moved to Paris.",
    "Founded in 1887, the company makes bicycles.", "Ten years later, the company moved.",
    "Alexander the Great was a king of Macedon.",  # a name, not a verb and its object
    "Turnout this year was lower than in 2019.",  # a noun, a time and its verb
    "Attendance last season increased.",
    "Note that the museum is closed on Mondays.",
    "He was so tired that he slept.",
    "Shipping to Canada takes 5 days.", "Returns are free.",
    # an object, not a clause: a verb after it belongs to a relative clause or another clause
    "The firm paid the workers it had laid off.",
    "Voters elected the candidate most people expected.",
    "Sales grew the most in May.", "The team won the final and lifted the cup.",
    "The recall affects all models sold in Europe.",
    "The court rejected the appeal filed by the landlord.",
    "The veteran pilot landed the damaged plane safely.",
    "The Yankees beat the Red Sox 5-3 on Tuesday.",
    "Officials confirmed the plant closed.",  # a head that states what follows
    "The pump stops when the lid is open.",  # a clause under "when"
    "It went on sale on June 29 that year.",  # "that" before a time, no clause
    # a word before a quantity, not a verb: no imperative
    "Not all of the documents were released.", "Almost all of the samples tested positive.",
])
def test_a_plain_statement_under_a_known_frame_asserts(sentence):
    assert unasserted(sentence) is None


def test_a_frame_that_opens_a_later_clause_leaves_the_first_asserted():
    sentence = "The mine closed in 2010, and few expect that it will reopen."
    kind, at = standing(sentence)
    assert kind == cues.FRAMED and sentence[at:].startswith("few expect")


@pytest.mark.parametrize("cue", cues.REASON_DENY, ids=lambda c: c.example[:40])
def test_each_reason_row_makes_its_example_argue_against_support(cue):
    assert argues(cue.example, ()) is not None


@pytest.mark.parametrize("cue", [c for c in cues.ASSERT if c.where in (cues.REASON, cues.LABEL)],
                         ids=lambda c: c.example[:40])
def test_each_allow_row_keeps_its_example_a_reason_for_support(cue):
    assert argues(cue.example, ()) is None


@pytest.mark.parametrize("cue", cues.KINDS, ids=lambda c: c.example[:40])
def test_each_kind_row_reads_its_example_as_its_kind(cue):
    """A judge's word for what is wrong, as a reply's "kind" gives it, read as the row's kind:
    no row shadowed by one above it."""
    assert parse_reply('{"reason": "no", "verdict": "unsupported", "kind": '
                       f'"{cue.example}"}}').kind == cue.standing


def test_who_wrote_a_work_is_no_report_of_what_it_says():
    from provenance_guard.text.assertions import standing
    from provenance_guard.text.cues import REPORT

    assert standing("Beowulf was directed by Zemeckis and written by Neil Gaiman.")[0] is None
    assert standing("The memo, written last May, warns that the plant will close.")[0] == REPORT


@pytest.mark.parametrize("cue", [c for c in cues.RECORDS if c.standing in (cues.FAILED,
                                                                           cues.COUNTED)],
                         ids=lambda c: c.example[:40])
def test_each_record_row_reads_its_example_as_its_kind(cue):
    """A tool's result (or a claim, for the row of what tells of a failure) read as the row
    says: failed, or, for a count of errors, not."""
    from provenance_guard.text import records

    if cue.where == cues.TELLS:
        read = records.tells_of_failure(cue.example)
    else:
        read = records.says_failed(cue.example, records.parse(cue.example))
    assert read == (cue.standing == cues.FAILED)


@pytest.mark.parametrize("cue", cues.RULE_WORDS, ids=lambda c: c.example[:40])
def test_each_row_of_words_the_rules_read_holds_its_example_back(cue):
    """The sentence reader lets the example assert; the rule checker then finds its claim not
    stated, and says it is for a word of this row."""
    from provenance_guard.rules import check
    from provenance_guard.types import Evidence

    assert unasserted(cue.example) is None
    found = check(cue.unstated, [Evidence(cue.example)])
    assert not found.supported
    assert any(f"'{w}'" in found.reason for w in cue.words()), found.reason


def test_the_rules_read_a_longer_condition_before_the_shorter_it_opens_with():
    from provenance_guard.rules.tokens import CONDITION_PHRASES

    assert CONDITION_PHRASES.index(("in", "case", "of")) < CONDITION_PHRASES.index(("in", "case"))


@pytest.mark.parametrize("cue", [c for c in cues.RECORDS if isinstance(c, cues.WordCue)],
                         ids=lambda c: c.example[:40])
def test_each_row_of_what_a_record_says_of_itself_keeps_a_claim_from_being_done(cue):
    """The record does not state the claim, and the reason names its word of this row."""
    from provenance_guard.rules import check
    from provenance_guard.text import records
    from provenance_guard.types import Evidence

    evidence = [Evidence(records.shown(r.fields), fields=r.fields)
                for r in records.records(records.parse(cue.example))]
    found = check(cue.unstated, evidence)
    assert not found.supported
    named = set(re.findall(r"[a-z]+", cue.example)) & cue.words()
    assert named and all(w in found.reason for w in named), found.reason
