"""What the rule judge says a failing claim gets wrong (``FailureKind``): one case per kind it
gives, each from what decided (a conflict's value, a block, the first word that did not align,
a record's field, a failed tool result), and its agreement with the labelled pair sets' classes
(``benchmarks/bench_kinds.py`` prints it per set)."""

import json

import pytest
from conftest import REPO

from provenance_guard import LocalJudge
from provenance_guard.rules.word_lists import CHANGERS, changes
from provenance_guard.text import records
from provenance_guard.types import (
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    Evidence,
    FailureKind,
    Tool,
    Verdict,
)

PAIRS = REPO / "tests" / "unit" / "rules" / "pairs"


def judged(claim: str, *sources: str | Evidence) -> Verdict:
    return LocalJudge().judge(claim, [s if isinstance(s, Evidence) else Evidence(s, 1.0)
                                      for s in sources])


@pytest.mark.parametrize("claim,source,kind", [
    ("The tower is 296 metres tall.", "The tower is 276 metres tall.", "number"),
    ("The oven heats to 220 °F.", "The oven heats to 220 °C.", "number"),  # a unit
    ("Participants received 50 milligrams per day.",
     "Participants received 50 micrograms per day.", "number"),
    ("Most economists expect a recession.", "Some economists expect a recession.",
     "circumstance"),  # how much of a group: the statement's scope
    ("More than half of voters backed it.", "Nearly half of voters backed it.", "number"),
    ("The tower opened in 1887.", "The tower opened in 1889.", "date"),
    ("The shop opens at 9:00.", "The shop opens at 10:00.", "date"),
    ("Paris is the capital of Italy.", "Paris is the capital of France.", "entity"),
    ("Smith founded the company.", "Jones founded the company.", "entity"),
    ("Jane Doe, the CEO of Acme, spoke.", "Jane Doe, the former CEO of Acme, spoke.", "entity"),
    ("Oslo hosted the follow-up talks in May.",
     "Oslo hosted the summit, while Helsinki hosted the follow-up talks in May.", "entity"),
    ("The company makes shoes.", "The company makes bags.", "predicate"),
    ("The man bit the dog.", "The dog bit the man.", "roles"),
    ("The hospital donated $1 million to the foundation.",
     "The foundation donated $1 million to the hospital.", "roles"),
    ("The museum is open on Mondays.", "The museum is not open on Mondays.", "opposite"),
    ("The company paid taxes.", "It is not true that the company paid taxes.", "opposite"),
    ("The factory produces steel.", "The factory no longer produces steel.", "opposite"),
    ("Unemployment fell to 6 percent.", "Unemployment in the north fell to 6 percent.",
     "circumstance"),
    ("The museum offers free admission.", "Until 2019, the museum offered free admission.",
     "circumstance"),
    ("The mine will reopen.", "It is unlikely that the mine will reopen.", "unasserted"),
    ("The city opened three new libraries.", "The city plans to open three new libraries.",
     "unasserted"),
    ("The outage was caused by a cyberattack.",
     "The outage was caused by a software bug or a cyberattack.", "unasserted"),
    ("You bought a car.", "My brother bought a car.", "other_person"),
    ("The bridge has a cable car.", "The bridge is 2 km long.", "addition"),
    # a word of the source's statement that turns it round, holds it back or makes it another
    # thing decides, wherever it stands and whatever the first word that did not align was
    ("The clinic had a pharmacy on site.", "The clinic lacked a pharmacy on site.", "opposite"),
    ("The union ratified the contract.", "The union narrowly rejected the contract.",
     "opposite"),
    ("The museum charges for entry.", "The museum stopped charging for entry in 2015.",
     "opposite"),
    ("Imports increased 8% in March.", "Imports declined 8% in March.", "opposite"),
    ("The road was closed permanently.", "The road was closed temporarily.",
     "circumstance"),  # how long it holds
    ("The council approved the new stadium.", "The council proposed the new stadium.",
     "unasserted"),
    ("The firm will open an office in Lyon.",
     "The firm will open an office in either Lyon or Nice.", "unasserted"),
    ("The painting was made in Venice.",
     "Some critics believe the painting was made in Venice.", "unasserted"),
    ("The author was the winner of the prize.", "The author was a finalist for the prize.",
     "entity"),
    ("Tom Berg, the governor of Utah, spoke at the rally.",
     "Tom Berg, the Republican nominee for governor of Utah, spoke at the rally.", "entity"),
    ("The pianist's father taught music.", "The pianist's stepfather taught music.", "entity"),
    ("The film was directed by Ana Lind.",
     "The film, directed by Karl Moe, was based on a novel by Ana Lind.", "entity"),
    ("Osaka beat Halep in the semifinal.", "Halep beat Osaka in the semifinal.", "roles"),
    ("The tablet weighs 300 grams.", "The tablet weighs 300 kilograms.", "number"),
    ("The bath was heated to 40 degrees Celsius.",
     "The bath was heated to 40 degrees Fahrenheit.", "number"),
    ("The warehouse was damaged by the storm.",
     "The warehouse was partly damaged by the storm.", "number"),
    ("The church was built in the 1750s.", "The church was built in the 1700s.", "date"),
    ("The therapy reduced symptoms in adults.",
     "In a study of children, the therapy reduced symptoms.", "circumstance"),
    ("The fund invested across Asia.", "The fund invested in Vietnam.", "circumstance"),
    ("Sales fell 5% last year.", "Sales fell 5% in Spain last year.", "circumstance"),
    ("All the staff got a bonus.", "Most of the staff got a bonus.", "circumstance"),
    ("Members are exempt from the fee.",  # a relative clause on the claim's own noun narrows it
     "Members who joined before 2010 are exempt from the fee.", "circumstance"),
    ("The film won the award.",  # one on another noun says it of another thing
     "The book on which the film was based won the award.", "entity"),
    ("The board will approve the merger.", "The board may approve the merger.", "unasserted"),
    ("The talks ended on Friday evening.", "The talks ended on Friday morning.", "date"),
    ("The ship sank in the 17th century.", "The ship sank in the 16th century.", "date"),
    # a value the source gives for another event, or a figure it gives otherwise
    ("The museum reopened on 3 March 2015.",
     "The museum closed on 3 March 2015 and reopened on 1 June 2016.", "date"),
    ("Over 500 fans entered the stadium.",
     "The club sold over 500 tickets, though only about 420 fans entered the stadium.", "number"),
    ("The pharmacy opens at 9 p.m. on weekdays.", "The pharmacy opens at 9 a.m. on weekdays.",
     "date"),  # a time of day, "p.m." and all
    ("The library extended its hours by two hours.",
     "The library extended its hours by 90 minutes.", "number"),  # a measure in words
    ("The mill has been approved.", "The plan for the mill is awaiting approval.",
     "unasserted"),  # a word that holds it back, after the claim's words
    ("The new edition includes the preface.", "The new edition omits the preface.",
     "opposite"),
    ("The speed limit is 30 km/h.",  # "speed" is no past tense: the sentence is a clause
     "Within the city limits, the speed limit is 30 km/h.", "circumstance"),
])
def test_each_kind_the_rules_give_comes_from_what_decided(claim, source, kind):
    verdict = judged(claim, source)
    assert verdict.label in (UNSUPPORTED, CONTRADICTED), verdict
    assert verdict.kind == kind, verdict


@pytest.mark.parametrize("row", CHANGERS, ids=lambda row: row[0].value)
def test_each_row_of_the_words_that_change_a_statement_is_a_test(row):
    kind, words, claim, source = row
    verdict = judged(claim, source)
    assert verdict.label != SUPPORTED and verdict.kind == kind, verdict
    assert any(word in verdict.reason.split("'") for word in source.lower().split()
               if changes(word) == kind), verdict.reason  # the reason names the word


@pytest.mark.parametrize("claim,source,word", [
    ("Maria Lopez, the mayor of Dayton, opened an office.",
     "Maria Lopez, the Democratic candidate for mayor of Dayton, opened an office.",
     "candidate"),
    ("The study included a control group.", "The study clearly lacked a control group.",
     "lacked"),
    ("Exports rose 12% in May.", "Exports fell 12% in May.", "fell"),
])
def test_the_reason_names_the_word_that_decided(claim, source, word):
    assert f"'{word}'" in judged(claim, source).reason


@pytest.mark.parametrize("claim,source", [
    ("The update lengthens the charging time.", "The update shortens the charging time."),
    ("The compound is insoluble in water.", "The compound is soluble in water."),
])
def test_an_antonym_the_concepts_do_not_name_is_still_an_opposite(claim, source):
    """Open English WordNet's antonyms (``antonyms.txt``) and a negating prefix name the kind;
    the verdict does not turn on them."""
    verdict = judged(claim, source)
    assert verdict.label == UNSUPPORTED and verdict.kind == FailureKind.OPPOSITE, verdict


def test_a_value_said_of_another_event_is_named_in_the_reason():
    verdict = judged("The museum reopened on 3 March 2015.",
                     "The museum closed on 3 March 2015 and reopened on 1 June 2016.")
    assert "'reopened' with '1 June'" in verdict.reason, verdict.reason


@pytest.mark.parametrize("sentence", ["Not all of the documents were released.",
                                      "Almost all of the samples tested positive.",
                                      "Just two of the ten candidates passed."])
def test_a_sentence_that_opens_on_a_quantity_is_a_statement_not_an_imperative(sentence):
    assert judged(sentence, sentence).label == SUPPORTED


@pytest.mark.parametrize("claim,source", [
    ("The course lasts two weeks.", "The course lasts 14 days."),
    ("The shop closes at 6 p.m. on Sundays.", "The shop closes at 18:00 on Sundays."),
])
def test_a_value_in_words_or_another_notation_is_the_same_value(claim, source):
    assert judged(claim, source).label == SUPPORTED


def test_the_facts_read_a_time_of_day_whole():
    """The quote a verdict rests on is checked for the claim's values by the facts reader: a
    time is one value there too, in any notation."""
    from provenance_guard.rules import read_facts

    times = [read_facts(t).quantities for t in ("at 6 p.m.", "at 18:00", "at 6 pm")]
    assert [[(q.value, q.unit) for q in found] for found in times] == [
        [(1080, "time of day")]] * 3


def test_a_word_that_makes_a_person_another_is_not_left_out():
    """"half-brother" is no brother, as "former CEO" is no CEO."""
    assert judged("The singer's brother manages the tour.",
                  "The singer's half-brother manages the tour.").label != SUPPORTED
    assert judged("The singer's brother manages the tour.",
                  "The singer's brother manages the tour.").label == SUPPORTED


def test_a_record_gives_the_kind_of_its_field():
    order = [Evidence(records.shown(r.fields), fields=r.fields) for r in records.records(
        {"refund_id": "RF-2201", "status": "pending", "amount": "$45", "carrier": "DHL",
         "shipped_on": "2026-05-02", "insured": False})]
    assert judged("I have refunded $45.", *order).kind == FailureKind.UNASSERTED
    assert judged("The order shipped on May 3.", *order).kind == FailureKind.DATE
    assert judged("The parcel is insured.", *order).kind == FailureKind.OPPOSITE
    assert judged("The carrier is UPS.", *order).kind == FailureKind.ENTITY
    # the record says it is not done: a word no field says is not done either
    paid = judged("Your refund RF-2201 was paid.", *order)
    assert paid.kind == FailureKind.UNASSERTED and "`status` is pending" in paid.reason, paid
    done = [Evidence(records.shown(r.fields), fields=r.fields) for r in records.records(
        {"order": "A-991", "status": "shipped", "carrier": "DHL"})]
    assert judged("Your order A-991 includes a free gift.", *done).kind == FailureKind.ADDITION


def test_a_time_of_day_in_a_record_is_one_value_held_by_the_field_the_claim_names():
    hours = [Evidence(records.shown(r.fields), fields=r.fields) for r in records.records(
        {"store": "Main St", "opens": "09:00", "closes": "17:00"})]
    swapped = judged("The Main St store closes at 09:00.", *hours)
    assert swapped.label == CONTRADICTED and swapped.kind == FailureKind.DATE, swapped
    assert judged("The Main St store closes at 5 p.m.", *hours).label == SUPPORTED


def test_a_failed_tool_call_told_as_done_is_its_own_kind():
    failed = Evidence("cancellation failed: card declined",
                      tool=Tool("cancel_subscription", "call_1", 2, error=True))
    verdict = judged("Your subscription has been cancelled.", failed)
    assert verdict.label != SUPPORTED and verdict.kind == FailureKind.FAILED_TOOL
    # a sentence that tells of the failure is judged on the error result, not marked
    told = judged("The cancellation failed because the card was declined.", failed)
    assert told.kind != FailureKind.FAILED_TOOL


def test_a_supported_verdict_has_no_kind_and_a_failing_one_without_a_kind_is_unspecified():
    assert judged("The tower is 276 metres tall.", "The tower is 276 metres tall.").kind is None
    assert Verdict(SUPPORTED).failure_kind is None
    assert Verdict(UNSUPPORTED).failure_kind == FailureKind.UNSPECIFIED
    assert Verdict(CONTRADICTED, kind="date").failure_kind == "date"


def test_the_kinds_agree_with_the_pair_sets_classes():
    """Each trap class names the kinds its claims can get wrong (``pairs/kinds.json``, written
    before the kinds were measured). The bar is 95%; today 587 of 616 failing traps (95.3%);
    the disagreements are named by ``benchmarks/bench_kinds.py --misses``: a claim wrong two
    ways at once (a value said of another event and of another entity), a change the class
    names otherwise ("after" for "before" is an opposite here, a sequence to its class)."""
    table = json.loads((PAIRS / "kinds.json").read_text(encoding="utf-8"))
    judge, agreed, failed = LocalJudge(), 0, 0
    for name in ("traps", "traps_2", "held_out_traps", "fresh_traps"):
        for line in (PAIRS / f"{name}.jsonl").open(encoding="utf-8"):
            pair = json.loads(line)
            verdict = judge.judge(pair["claim"], [Evidence(pair["source"], 1.0)])
            if verdict.label != SUPPORTED:
                failed += 1
                agreed += verdict.failure_kind in table[pair["class"]]
    assert failed >= 600 and agreed / failed >= 0.95, (agreed, failed)


def test_the_kinds_agree_with_a_set_labelled_by_kind():
    """415 failing pairs, each labelled with its kinds from docs/kinds.md alone, in three sets
    (``pairs/kinds_outsider.jsonl``): today 388 of the 409 the rules fail (94.9%). Those the rules
    pass are named limits: a condition, group or time the source narrows the statement by,
    which the claim leaves out ("free delivery on orders over 50 pounds", "First-year
    students", "Among first-time buyers, ...")."""
    judge, agreed, failed, passed = LocalJudge(), 0, 0, 0
    for line in (PAIRS / "kinds_outsider.jsonl").open(encoding="utf-8"):
        pair = json.loads(line)
        verdict = judge.judge(pair["claim"], [Evidence(pair["source"], 1.0)])
        passed += verdict.label == SUPPORTED
        if verdict.label != SUPPORTED:
            failed += 1
            agreed += verdict.failure_kind in pair["kinds"]
    assert failed >= 400 and agreed / failed >= 0.945 and passed <= 6, (agreed, failed, passed)
