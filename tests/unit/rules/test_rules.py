"""The rule-based checker and the local judge built on it."""

import pytest

from provenance_guard import LocalJudge
from provenance_guard.rules import check, read_facts
from provenance_guard.text.refusals import is_refusal
from provenance_guard.types import BY_LOCAL, CONTRADICTED, SUPPORTED, UNSUPPORTED, Chunk, Evidence

PASSAGE = ("The Eiffel Tower is in Paris. It was opened on 31 March 1889. It is 330 metres tall. "
           "About 7 million people visit it every year. Tickets cost $35.")


def ev(text=PASSAGE, similarity=0.7):
    return [Evidence.of(Chunk(text, 0, len(text), 0), similarity)]


@pytest.mark.parametrize("text,value,unit", [
    ("It cost $1.5 million.", 1_500_000, "usd"),
    ("It cost 2 billion euros.", 2e9, "eur"),
    ("Growth was 4.5% last year.", 4.5, "%"),
    ("It is 1,083 feet tall.", 1083, "foot"),
    ("The road is 12 km long.", 12, "kilometre"),
    ("There are three lifts.", 3, "lift"),
])
def test_quantities_are_read_with_scale_and_unit(text, value, unit):
    [quantity] = read_facts(text).quantities
    assert quantity.value == pytest.approx(value) and quantity.unit == unit


def test_ranges_dates_and_names_are_read():
    facts = read_facts("Between 5 and 7 km of track opened on March 3rd, 1901 in Lyon, not in Nice.")
    assert [(q.value, q.unit) for q in facts.quantities] == [(5, "kilometre"), (7, "kilometre")]
    assert facts.years == {1901} and facts.months == {3} and facts.days == {(3, 3)}
    assert set(facts.names.values()) == {"Lyon", "Nice"}
    assert read_facts("May I say it may rain?").months == frozenset()  # the verb, not the month


@pytest.mark.parametrize("claim,kind,named", [
    ("It is 300 metres tall.", "value", "'330 metres'"),  # changed number, same unit
    ("It was opened on 31 March 1899.", "value", "'1889'"),  # changed year
    ("It was opened on 30 March 1889.", "value", "'31 March'"),  # changed day
    ("It was opened on 31 May 1889.", "value", "'31 March'"),  # changed month
    ("Tickets cost $45.", "value", "'$35'"),  # changed price
    ("It is 1,100 feet tall.", "value", "'330 metres'"),  # 335 metres: converted, changed
    ("The Eiffel Tower is in Berlin.", "name", "'Paris'"),  # swapped place
    ("The Eiffel Tower is not in Paris.", "negation", "opposite"),
])
def test_contradictions_are_found_and_named(claim, kind, named):
    found = check(claim, ev())
    assert found.kind == kind and found.contradiction and named in found.reason, found


@pytest.mark.parametrize("claim,kind", [
    ("It is 330 metres tall.", "verbatim"),
    ("About 7 million people visit it every year.", "verbatim"),
    ("Roughly 7 million people visit it every year.", "aligned"),  # one hedge for another
    ("Over 6 million people visit it every year.", "aligned"),  # a bound the source meets
    ("It is 1,083 feet tall.", "aligned"),  # 330 metres converted, rounded
    ("It opened in 1889.", "aligned"),  # the day left out: less precise, not wrong
    ("The height of it is 330 m.", "unaligned"),  # a paraphrase: not the rules' to decide
])
def test_matching_values_are_not_contradictions(claim, kind):
    found = check(claim, ev())
    assert found.kind == kind and not found.contradiction, found


def test_values_absent_or_less_precise_in_the_source_are_unaligned_not_contradicted():
    found = check("Roughly 7.2 million people visit it every year.", ev())
    assert found.kind == "unaligned" and found.reason == (
        "the claim says 'Roughly 7.2 million people' (7,150,000 to 7,250,000), the source "
        "'About 7 million people' (6,500,000 to 7,500,000): the source is less precise")
    found = check("It is 330 seconds tall.", ev())
    assert found.kind == "unaligned" and "another unit" in found.reason
    found = check("It was painted gold in 2024.", ev("Tickets cost $35."))
    assert found.kind == "unaligned" and "'2024' is not in the source" in found.reason


def test_a_whole_number_only_equals_itself():
    offer = ev("The offer is valid until 30 June 2025.")
    assert check("The offer is valid until 30 June 2026.", offer).kind == "value"
    assert check("The offer is valid until 30 June 2025.", offer).supported


def test_verbatim_ignores_case_punctuation_and_citation_markers():
    assert check("it is 330 metres tall [1]", ev()).kind == "verbatim"
    assert check("It is 330 metres tall and gold.", ev()).kind == "unaligned"
    assert check("It is tall.", ev()).kind != "verbatim"  # too short to count


def test_a_bare_name_is_a_mention_and_never_a_conflict():
    sources = ev("Target is the second largest retailer in the United States behind Walmart.")
    assert check("Walmart", sources).kind == "mention"
    assert check("Kmart", sources).kind == "unaligned"


def test_refusals_are_recognised():
    assert is_refusal("None of the documents says when it closed.")
    assert is_refusal("The sources do not mention the architect.")
    assert not is_refusal("No visitors were allowed in 1890.")


@pytest.mark.parametrize("claim,label", [
    ("The Eiffel Tower is in Paris.", SUPPORTED),
    ("It is 330 metres tall.", SUPPORTED),
    ("It is 300 metres tall.", CONTRADICTED),
    ("The Eiffel Tower is in Berlin.", CONTRADICTED),
    ("It was painted gold for the 2024 Olympic Games.", UNSUPPORTED),
    ("The tower was designed by Gustave Eiffel.", UNSUPPORTED),
    ("The Eiffel Tower is not in Paris.", CONTRADICTED),
])
def test_local_judge(claim, label):
    verdict = LocalJudge().judge(claim, ev())
    assert verdict.label == label, verdict
    assert verdict.decided_by == BY_LOCAL and 0 <= verdict.score <= 1 and verdict.reason
    assert 0.5 <= verdict.confidence < 1  # calibrated: no kind has earned certainty


def test_local_judge_reads_a_short_answer_with_its_question():
    judge = LocalJudge()
    evidence = ev("Scott Derrickson is an American director.")
    assert judge.judge("American", evidence, "What nationality is Scott Derrickson?").passed
    assert not judge.judge("French", evidence, "What nationality is Scott Derrickson?").passed


def test_local_judge_on_refusals():
    judge = LocalJudge()
    assert judge.judge("No document says who painted it.", ev("Tickets cost $35.")).passed
    assert not judge.judge("No document says how tall the Eiffel Tower is.", ev()).passed


def test_product_codes_are_words_not_numbers():
    assert read_facts("The X200 router has 4 ports.").quantities[0].value == 4
    assert len(read_facts("The X200 router has 4 ports.").quantities) == 1


def test_a_value_the_claim_matched_elsewhere_is_no_support():
    evidence = [Evidence("Curie won the Nobel Prize in Physics in 1903.", 0.7),
                Evidence("In 1911 she won a second Nobel Prize, in Chemistry.", 0.7)]
    assert not check("In 1911 Curie won a second Nobel Prize.", evidence).contradiction
    # the 6 of "Wi-Fi 6" does not make "six ports" true against "four ports"
    evidence = [Evidence("It supports Wi-Fi 6 and has four Ethernet ports.", 0.9)]
    assert not check("It has six Ethernet ports.", evidence).supported


def test_a_hostile_length_fails_closed_in_bounded_time():
    words = [f"w{n}" for n in range(3000)]
    claim, source = " ".join(words), " ".join(reversed(words))
    found = check(f"The tower is {claim} tall.", ev(f"The tower is {source} tall."))
    assert not found.supported and "too long" in found.reason


def test_word_soups_of_the_words_the_reading_turns_on_never_raise():
    """Hostile or broken text: random runs of the words the restatements and the number
    reading act on (conditions, bounds, passives, ranges, possessives, marks) give findings,
    never an error."""
    import random

    words = ("when if unless and it than more less about over up to at least nearly between "
             "from by was is not never all every 's , , . ( ) ; : until before since in during "
             "the built given company Acme Anna tower 1930 1887 5 48,000 2.1 million km metres $ "
             "% hours cheaper expensive larger open closed lies of engineer overnight").split()
    pick = random.Random(7)
    for _ in range(400):
        claim = " ".join(pick.choice(words) for _ in range(pick.randint(1, 14)))
        source = " ".join(pick.choice(words) for _ in range(pick.randint(1, 30)))
        found = check(claim, ev(source))
        assert found.kind and found.reason
        read_facts(claim)
