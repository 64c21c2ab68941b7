"""What the rule judge says a failing claim gets wrong (``FailureKind``): one case per kind it
gives, each from what decided (a conflict's value, a block, the first word that did not align,
a record's field, a failed tool result), and its agreement with the labelled pair sets' classes
(``benchmarks/bench_kinds.py`` prints it per set)."""

import json

import pytest
from conftest import REPO

from provenance_guard import LocalJudge
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
    ("Most economists expect a recession.", "Some economists expect a recession.", "number"),
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
])
def test_each_kind_the_rules_give_comes_from_what_decided(claim, source, kind):
    verdict = judged(claim, source)
    assert verdict.label in (UNSUPPORTED, CONTRADICTED), verdict
    assert verdict.kind == kind, verdict


def test_a_record_gives_the_kind_of_its_field():
    order = [Evidence(records.shown(r.fields), fields=r.fields) for r in records.records(
        {"refund_id": "RF-2201", "status": "pending", "amount": "$45", "carrier": "DHL",
         "shipped_on": "2026-05-02", "insured": False})]
    assert judged("I have refunded $45.", *order).kind == FailureKind.UNASSERTED
    assert judged("The order shipped on May 3.", *order).kind == FailureKind.DATE
    assert judged("The parcel is insured.", *order).kind == FailureKind.OPPOSITE
    assert judged("The carrier is UPS.", *order).kind == FailureKind.ENTITY
    # the record says it is not done: a word no field says is not done either
    assert judged("Your refund RF-2201 was paid.", *order).kind == FailureKind.UNASSERTED
    done = [Evidence(records.shown(r.fields), fields=r.fields) for r in records.records(
        {"order": "A-991", "status": "shipped", "carrier": "DHL"})]
    assert judged("Your order A-991 includes a free gift.", *done).kind == FailureKind.ADDITION


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
    before the kinds were measured). The floor is today's agreement (75% of 616 failing traps);
    the disagreements are named by ``benchmarks/bench_kinds.py --misses``: words the rules do
    not know as antonyms ("lacked", "temporarily"), a stage ("proposed" for "passed")."""
    table = json.loads((PAIRS / "kinds.json").read_text(encoding="utf-8"))
    judge, agreed, failed = LocalJudge(), 0, 0
    for name in ("traps", "traps_2", "held_out_traps", "fresh_traps"):
        for line in (PAIRS / f"{name}.jsonl").open(encoding="utf-8"):
            pair = json.loads(line)
            verdict = judge.judge(pair["claim"], [Evidence(pair["source"], 1.0)])
            if verdict.label != SUPPORTED:
                failed += 1
                agreed += verdict.failure_kind in table[pair["class"]]
    assert failed >= 600 and agreed / failed >= 0.74, (agreed, failed)
