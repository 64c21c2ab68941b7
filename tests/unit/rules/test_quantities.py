"""Numbers as the rules read them: a hedged number is the same only at its own precision, a
bound is a bound, units and scales convert first. Each kind has its traps beside its true
restatements, in both directions: a claim may say less than its source, never more, and a
changed value is never close enough."""

import pytest

from provenance_guard import LocalJudge
from provenance_guard.rules import check, keeps_facts, read_facts
from provenance_guard.rules.quantities import amount
from provenance_guard.types import CONTRADICTED, SUPPORTED, Evidence

LIBRARY = "The city library holds about 48,000 books."
EXACT = "The city library holds 48,000 books."


def judged(claim, source):
    return LocalJudge().judge(claim, [Evidence(source, 0.7)])


@pytest.mark.parametrize("claim,source", [
    ("The library holds about 50,000 books.", LIBRARY),  # one significant figure
    ("The library holds about 48,000 books.", LIBRARY),
    ("The library holds roughly 48,000 books.", LIBRARY),  # one hedge for another
    ("The library holds around 50,000 books.", EXACT),  # a hedge round an exact figure
    ("The library holds more than 40,000 books.", LIBRARY),  # a bound the source meets
    ("The library holds at least 48,000 books.", EXACT),
    ("The library holds over 47,000 books.", LIBRARY),
    ("The library holds nearly 50,000 books.", LIBRARY),  # below, at its precision
    ("The library holds fewer than 50,000 books.", LIBRARY),
    ("The library holds up to 48,000 books.", EXACT),
    ("The battery lasts up to 6 hours.", "The battery lasts up to 6 hours."),
    # "at least" and "at most" are bounds: the claim says less than the source
    ("At least 400 people attended.", "500 people attended."),
    ("At most 3 people were hurt.", "2 people were hurt."),
    ("The tank holds at least 40 litres.", "The tank holds at least 50 litres."),
    ("At least 2 million people visited.", "2 million people visited."),  # however rounded
    ("The library holds more than 40,000 books.", "The city library holds at least 48,000 books."),
    ("The library holds 1.2 million books.", "The city library holds 1,200,000 books."),
    ("The library holds 1,200,000 books.", "The city library holds 1.2 million books."),
    ("The library holds two million books.", "The city library holds 2,000,000 books."),
    ("The library holds $2.1 million in reserves.",
     "The city library holds $2,104,000 in reserves."),  # rounded at its last digit
    ("The trail is 5 km long.", "The trail is 5,000 metres long."),  # units convert
    ("The trail is about 3 miles long.", "The trail is 5 km long."),  # 3.1 miles
    ("The tower is 1,083 feet tall.", "The tower is 330 metres tall."),  # 1,082.7 feet
    ("The drug acts within 90 minutes.", "The drug acts within 1.5 hours."),
    ("The trail is 5 long.", "The trail is 5 km long."),  # a unit in the source only
])
def test_what_a_number_allows_includes_the_source(claim, source):
    found = judged(claim, source)
    assert found.label == SUPPORTED, found


@pytest.mark.parametrize("claim,source", [
    ("The library holds about 51,500 books.", LIBRARY),  # a nearby figure, hedged
    ("The library holds about 45,000 books.", LIBRARY),  # two figures: 44,500 to 45,500
    ("The library holds about 52,000 books.", EXACT),
    ("The library holds more than 50,000 books.", LIBRARY),  # a bound the source breaks
    ("The library holds fewer than 40,000 books.", EXACT),
    ("The library holds at least 49,000 books.", LIBRARY),
    ("The library holds nearly 48,000 books.", "The city library holds 48,100 books."),
    ("The library holds up to 45,000 books.", EXACT),
    ("The library holds 1.25 million books.", "The city library holds 12.5 million books."),
    ("The library holds 1.3 million books.", "The city library holds 1,200,000 books."),
    ("The library holds $2.2 million in reserves.",
     "The city library holds $2,104,000 in reserves."),
    ("The trail is 6 km long.", "The trail is 5,000 metres long."),
    ("The tower is 1,100 feet tall.", "The tower is 330 metres tall."),  # 335 metres
    ("The drug acts within 2 hours.", "The drug acts within 90 minutes."),
    ("The loan is repaid over 20 years.", "The loan is repaid over 25 years."),  # "during"
    ("The app connects over 2 GHz Wi-Fi.", "The app connects over 2.4 GHz Wi-Fi."),  # "via"
    # "up to" and "a maximum of" state the most there is: never a looser bound
    ("The battery lasts up to 12 hours.", "The battery lasts up to 6 hours."),
    ("The battery lasts up to 12 hours.", "The battery lasts 6 hours."),
    ("The battery lasts a maximum of 12 hours.", "The battery lasts 6 hours."),
    ("At least 400 people attended.", "300 people attended."),  # a bound the source breaks
    ("At most 3 people were hurt.", "5 people were hurt."),
])
def test_a_changed_value_is_contradicted_whatever_its_hedge(claim, source):
    found = judged(claim, source)
    assert found.label == CONTRADICTED, found


@pytest.mark.parametrize("claim,source", [
    ("The library holds 48,000 books.", LIBRARY),  # the hedge dropped: more precise
    ("The library holds about 48,200 books.", LIBRARY),
    ("Roughly 7.2 million people visit it.", "About 7 million people visit it."),
    ("The library holds about 50,000 books.", "The city library holds over 48,000 books."),
    ("The library holds 48,000 books.", "The city library holds more than 48,000 books."),
    ("The library holds more than 48,000 books.", "The city library holds at least 48,000 books."),
    ("The library holds 2,104,000 books.", "The city library holds 2.1 million books."),
    ("The trail is 5 km long.", "The trail is 5 miles long."),
    ("Tickets cost $35.", "Tickets cost €35."),  # currencies never convert
])
def test_a_claim_more_precise_than_its_source_never_passes(claim, source):
    found = judged(claim, source)
    assert found.label != SUPPORTED, found


def test_a_hedged_number_that_changed_is_named_with_what_each_side_allows():
    found = check("The library holds about 45,000 books.", [Evidence(LIBRARY, 0.7)])
    assert found.kind == "value"
    assert found.reason == ("the source gives 'about 48,000' (47,500 to 48,500) where the claim "
                            "says 'about 45,000' (44,500 to 45,500)")
    found = check("The library holds 48,000 books.", [Evidence(LIBRARY, 0.7)])
    assert found.reason == ("the claim says '48,000', the source 'about 48,000' (47,500 to "
                            "48,500): the source is less precise")


@pytest.mark.parametrize("written,low,high", [
    ("about 50,000", 45_000, 55_000),
    ("about 48,000", 47_500, 48_500),
    ("about 7 million", 6_500_000, 7_500_000),
    ("about 2.5", 2.45, 2.55),
    ("nearly 50,000", 45_000, 50_000),
    ("more than 40,000", 40_000, float("inf")),
    ("up to 40,000", float("-inf"), 40_000),
    ("48,000", 48_000, 48_000),
])
def test_the_values_a_written_number_allows(written, low, high):
    [quantity] = read_facts(f"The library holds {written} books.").quantities
    found = quantity.interval()
    assert found[:2] == (pytest.approx(low), pytest.approx(high)), (written, found)


def test_a_number_word_and_an_ordinal_are_exact():
    assert amount("three", 3).interval()[:2] == (3, 3)
    assert amount("3rd", 3).interval()[:2] == (3, 3)


def test_claims_keep_a_sentence_number_only_as_precise_as_it_is_said():
    sentence = "The library holds 48,000 books."
    assert keeps_facts(sentence, ["The library holds 48,000 books."])
    assert not keeps_facts(sentence, ["The library holds about 50,000 books."])
    assert not keeps_facts(sentence, ["The library holds more than 40,000 books."])
    assert keeps_facts("The library holds about 50,000 books.", ["It holds 48,000 books."])


@pytest.mark.parametrize("claim", [
    "It holds " + "9" * 400 + " books.",  # no float holds it: a word, not a number
    "It holds between 1 and " + "9" * 400 + " books.",
    "It holds " + "1-2-" * 500 + "3 books.",
    "It holds " + "up to " * 300 + "5 books.",
])
def test_hostile_numbers_fail_closed_without_an_error(claim):
    found = judged(claim, "The city library holds 48,000 books.")
    assert found.label != SUPPORTED and found.reason
    read_facts(claim)


@pytest.mark.parametrize("claim,source,kind", [
    ("The company has 12k employees.", "The company has 12,000 employees.", "aligned"),
    ("It raised $3m.", "It raised $3 million in 2020.", "aligned"),
    ("It raised $4m.", "It raised $3 million in 2020.", "value"),  # not "$4" against "$3 million"
    ("The pipe is 5 mm wide.", "The pipe is 0.5 cm wide.", "aligned"),  # one table of units
    ("The course lasts 2 weeks.", "The course lasts 14 days.", "aligned"),
    ("The cut took 12,000 jobs.", "The cut took 1,200 jobs.", "value"),  # "1,200" is no year
])
def test_one_reading_of_a_number_for_every_check(claim, source, kind):
    """Scales, currencies and units come from one table, read by one reader: the alignment and
    the facts that claims and corrections keep agree on what a number is."""
    found = check(claim, [Evidence(source, 1.0)])
    assert found.kind == kind, found
    [said] = read_facts(claim).quantities
    assert any(said.stated_by(q) for q in read_facts(source).quantities) == (kind == "aligned")


@pytest.mark.parametrize("claim,source", [
    # units pint's registry reads and converts, in any notation it knows
    ("The room was 68°F.", "The room was 20°C."),  # an offset, not a factor
    ("The room was 20 degrees Celsius.", "The room was 68°F."),
    ("The pool holds about 13,000 gallons.", "The pool holds 50,000 litres."),
    ("The farm covers about 250 acres.", "The farm covers 100 hectares."),
    ("The car reached 100 mph.", "The car reached 161 km/h."),
    ("The plant produces 5 MW.", "The plant produces 5,000 kW."),
    ("The bottle holds 0.75 L.", "The bottle holds 750 ml."),
])
def test_units_of_every_measured_dimension_convert(claim, source):
    assert judged(claim, source).label == SUPPORTED, judged(claim, source).reason


@pytest.mark.parametrize("claim,source", [
    ("The room was 25°C.", "The room was 68°F."),
    ("The pool holds 50,000 gallons.", "The pool holds 50,000 litres."),
    ("The plant produces 5 mW.", "The plant produces 5 MW."),  # a symbol's case is its unit
    ("The tank holds 2 gallons.", "The tank holds 2 litres."),
])
def test_a_unit_pint_reads_is_a_value_another_unit_of_its_dimension_contradicts(claim, source):
    assert judged(claim, source).label == CONTRADICTED, judged(claim, source).reason


@pytest.mark.parametrize("claim,source", [
    # a unit says more than a bare number: what the source's number counts is not the claim's
    ("The festival drew 300 people.", "The festival drew 300 cars."),
    ("The team scored 3 points.", "The team scored 3 goals."),
    ("The trail is 5 km long.", "The trail is 5 long."),
])
def test_a_unit_the_source_does_not_give_is_not_stated(claim, source):
    verdict = judged(claim, source)
    assert verdict.label != SUPPORTED and "gives no unit" in verdict.reason, verdict.reason


@pytest.mark.parametrize("word", ["at", "in", "are", "a", "c", "rd", "th", "populous", "goals"])
def test_a_word_that_is_no_unit_of_a_measured_dimension_stays_a_word(word):
    from provenance_guard.rules.quantities import unit_of

    assert unit_of(word) is None


def test_a_date_in_another_language_is_a_date():
    verdict = judged("Der Zug fuhr am 2. Mai 2024 ab.", "Der Zug fuhr am 3. Mai 2024 ab.")
    assert verdict.label == CONTRADICTED and verdict.failure_kind == "date", verdict.reason


@pytest.mark.parametrize("word", ["km/", "C'd²Np", "1X/", "m²/", "°", "µ", "kWh/h/h", "x" * 40])
def test_a_word_after_a_number_that_no_parser_reads_fails_closed_without_an_error(word):
    verdict = check(f"The tank holds 5 {word} today.", [Evidence(f"The tank holds 7 {word} today.")])
    assert not verdict.supported
