"""The local judge on what issue 15 asks it to know: a negation in either direction and only in
its own clause, opposites, swapped roles, quantifiers, an item added to a list, a changed value
with its unit, and written-out numbers. The sentences of the unit tests are not those of the
labelled sets; the sets are run whole, through the validator, at the end."""

from collections import Counter

import pytest
from conftest import REPO

from provenance_guard import LocalJudge, ProvenanceLLM
from provenance_guard.deciding.decider import Cascade
from provenance_guard.evaluation.suite import load_cases, run_case
from provenance_guard.rules import check
from provenance_guard.rules.word_lists import _CONCEPTS, concepts
from provenance_guard.types import CONTRADICTED, SUPPORTED, UNSUPPORTED, Chunk, Evidence

DATA = REPO / "validator" / "evaluation" / "data"


def evidence(*texts):
    return [Evidence.of(Chunk(text, 0, len(text), 0), 0.6) for text in texts]


def verdict(claim, *sources):
    return LocalJudge().judge(claim, evidence(*sources))


@pytest.mark.parametrize("claim,source", [
    ("The kettle switches itself off when the water boils.",
     "The kettle does not switch itself off when the water boils."),
    ("Visitors cannot bring food into the gallery.", "Visitors can bring food into the gallery."),
    ("The printer never jams on thick paper.", "The printer jams on thick paper."),
    ("Interest isn't charged on late payments.", "Interest is charged on late payments."),
])
def test_a_negation_flip_either_way_is_contradicted(claim, source):
    found = verdict(claim, source)
    assert found.label == CONTRADICTED and "opposite" in found.reason, found


@pytest.mark.parametrize("source", [
    "The scanner reads QR codes; it does not read barcodes printed on glossy film.",
    "The scanner reads QR codes, but barcodes printed on glossy film are not read.",
    "The scanner reads QR codes, although it cannot read barcodes printed on glossy film.",
])
def test_a_negation_belongs_to_its_own_clause(source):
    assert verdict("The scanner reads QR codes.", source).label == SUPPORTED
    # the negated clause still contradicts a claim that states it
    assert verdict("The scanner reads barcodes printed on glossy film.", source).label == CONTRADICTED


def test_a_clause_that_starts_with_a_pronoun_takes_its_subject_from_the_clause_before():
    source = "The plan covers hardware repairs, but it does not cover data recovery."
    assert verdict("The plan does not cover data recovery.", source).label == SUPPORTED
    assert verdict("The plan covers data recovery.", source).label == CONTRADICTED


@pytest.mark.parametrize("claim,source,said", [
    ("The fuel tap is on the left of the engine.", "The fuel tap is on the right of the engine.",
     "right"),
    ("The blinds are lowered automatically at sunset.", "The blinds are lowered manually at sunset.",
     "manually"),
    ("Doses are increased each week.", "Doses are decreased each week.", "decreased"),
    ("The gate opens at dawn.", "The gate closes at dawn.", "closes"),
    ("Flood damage is covered by the policy.", "Flood damage is excluded from the policy.",
     "excluded"),
    ("The new tariff is cheaper than the old one.", "The new tariff is more expensive than the old one.",
     "expensive"),
    ("Payment is due before delivery.", "Payment is due after delivery.", "after"),
    ("Remote access is enabled by default.", "Remote access is disabled by default.", "disabled"),
])
def test_an_opposite_word_is_contradicted_and_named(claim, source, said):
    found = verdict(claim, source)
    assert found.label == CONTRADICTED and f'"{said}"' in found.reason, found
    assert check(claim, evidence(source)).contradiction_kind == "antonym"


@pytest.mark.parametrize("claim,source", [
    ("Flood damage is not excluded from the policy.", "Flood damage is covered by the policy."),
    ("The old tariff is more expensive than the new one.", "The new tariff is cheaper than the old one."),
    ("The firmware is installed after the bootloader.", "The bootloader is installed before the firmware."),
    ("The southern gate is larger than the northern gate.",
     "The northern gate is smaller than the southern gate."),
])
def test_opposites_that_say_the_same_thing_agree(claim, source):
    assert verdict(claim, source).label == SUPPORTED


def test_two_opposites_at_once_do_not_cancel_out():
    found = check("The left door opens automatically.", evidence("The right door opens manually."))
    assert found.contradiction_kind == "antonym"


@pytest.mark.parametrize("claim,source", [
    ("The shuttle runs from the airport to the harbour.",
     "The shuttle runs from the harbour to the airport."),
    ("The fee rose from 20 euros to 25 euros.", "The fee rose from 25 euros to 20 euros."),
])
def test_swapped_from_and_to_are_contradicted(claim, source):
    found = check(claim, evidence(source))
    assert found.contradiction_kind == "roles", found
    assert verdict(claim, source).label == CONTRADICTED


def test_swapped_sides_of_a_comparison_are_contradicted_and_kept_ones_are_not():
    source = "Lisbon is warmer than Dublin in March."
    assert verdict("Dublin is warmer than Lisbon in March.", source).label == CONTRADICTED
    assert verdict("In March, Lisbon is warmer than Dublin.", source).label == SUPPORTED
    assert verdict("Every hour the shuttle runs from the airport to the harbour.",
                   "The shuttle runs from the airport to the harbour every hour.").label == SUPPORTED


def test_a_stronger_quantifier_is_unsupported_and_an_opposite_one_contradicted():
    source = "Some of the rooms have a balcony."
    found = verdict("All of the rooms have a balcony.", source)
    assert found.label == UNSUPPORTED and '"some"' in found.reason and '"all"' in found.reason
    assert verdict("None of the rooms have a balcony.", "All of the rooms have a balcony.").label \
        == CONTRADICTED
    assert verdict("Some of the rooms have a balcony.", "None of the rooms have a balcony.").label \
        == CONTRADICTED
    assert check("Most trains stop at Kelby.", evidence("All trains stop at Kelby.")).gaps == ()
    # "some" before a number hedges the number; it is no quantifier
    assert verdict("Some 300 staff work at the plant.", "About 300 staff work at the plant.").label \
        == SUPPORTED


def test_an_item_added_to_a_list_is_unsupported_and_named():
    source = "The set includes a hammer, pliers and a saw."
    found = verdict("The set includes a hammer, pliers, a saw and a spirit level.", source)
    assert found.label == UNSUPPORTED and "a spirit level" in found.reason, found
    assert verdict("The set includes a saw, pliers and a hammer.", source).label == SUPPORTED
    # "and" inside a written-out number is no list
    assert verdict("The fee is two hundred and fifty euros.", "The fee is 250 euros.").label \
        == SUPPORTED


def test_a_changed_value_with_its_unit_is_a_clear_contradiction():
    claim, source = "The lease has a 12-month break clause.", "The lease has an 18-month break clause."
    found = check(claim, evidence(source))
    assert found.contradiction_kind == "value" and found.clear_contradiction, found
    assert "18-month" in found.contradiction
    ruled = Cascade(contradictions=True).decide(claim, evidence(source))
    assert ruled is not None and ruled.label == CONTRADICTED
    assert verdict("It comes with a 5-year guarantee.", "It comes with a 5 year guarantee.").label \
        == SUPPORTED


@pytest.mark.parametrize("claim,source,label", [
    ("The pallet holds forty-eight boxes.", "The pallet holds 48 boxes.", SUPPORTED),
    ("The pallet holds 48 boxes.", "The pallet holds forty-eight boxes.", SUPPORTED),
    ("The pallet holds fifty boxes.", "The pallet holds 48 boxes.", CONTRADICTED),
    ("The loan is repaid over twenty years.", "The loan is repaid over 25 years.", CONTRADICTED),
    # a written-out count of four digits is a count, not a year
    ("The archive holds twelve hundred letters.", "The archive holds 1,200 letters.", SUPPORTED),
])
def test_written_out_numbers_are_numbers(claim, source, label):
    assert verdict(claim, source).label == label


def test_the_opposites_table_is_consistent():
    assert concepts("excluded") == (("~include", True),)
    assert concepts("cheaper") == (("~cheap", False),)
    assert ("~high", True) in concepts("lower") and ("~increase", True) in concepts("lower")
    poles: dict[str, set[bool]] = {}
    for word, named in _CONCEPTS.items():
        keys = [key for key, _ in named]
        assert len(keys) == len(set(keys)), word  # no word on both poles of one concept
        for key, second in named:
            poles.setdefault(key, set()).add(second)
    assert all(both == {False, True} for both in poles.values())


# The labelled sets: every case through the validator (real embedder, real FAISS) with the
# local judge. Targets of issue 15: no wrong pass where a fact is turned round or changed, and
# at least 90% of outcomes right.
SAFETY_TYPES = ("negation_added", "negation_removed", "antonym", "comparative", "swapped_roles",
                "changed_number", "changed_date", "changed_unit_value", "written_number_changed")
SETS = ("local_judge_suite.jsonl", "local_judge_heldout.jsonl", "local_judge_blind.jsonl")


def test_the_labelled_set_has_enough_cases_types_and_honest_controls():
    cases = load_cases(DATA / "local_judge_suite.jsonl")
    types = Counter(case.type for case in cases)
    assert len(cases) >= 120 and len(types) >= 15 and min(types.values()) >= 5
    assert 0.25 <= sum(case.label for case in cases) / len(cases) <= 0.75  # all-pass scores badly
    for case in cases:
        for sentence in case.sentences:
            assert all(any(s in source for source in case.sources) for s in sentence.evidence)


@pytest.mark.parametrize("name", SETS)
def test_the_labelled_set_meets_the_targets(name):
    cases = load_cases(DATA / name)
    judge = LocalJudge()
    outcomes = [run_case(lambda options: ProvenanceLLM(llm_callable=judge, **options), case)
                for case in cases]
    wrong_passes = [o.example.id for o in outcomes
                    if o.example.type in SAFETY_TYPES and o.passed and not o.example.label]
    assert wrong_passes == []
    wrong = [o.example.id for o in outcomes if not o.outcome_correct]
    assert len(wrong) <= 0.1 * len(cases), wrong
