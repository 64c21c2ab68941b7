"""Support is proven by one statement that holds the whole claim: two clauses joined by "and"
are two statements, and a statement said of someone else is not said of "you"."""

import pytest

from provenance_guard.rules import check
from provenance_guard.types import Evidence


@pytest.mark.parametrize("claim,source", [
    ("Rome is the capital of France.",
     "Paris is the capital of France and Rome is the capital of Italy."),
    ("Lyon won the cup in 2012.", "Lyon won the cup in 2011 and Nice won it in 2012."),
    ("Profits fell by 8% in 2019.", "Profits rose by 8% in 2019 and fell by 3% in 2020."),
    ("Sales grew by 3% in 2020.", "Sales grew by 8% in 2019 and shrank by 3% in 2020."),
])
def test_a_claim_made_of_two_coordinated_statements_is_not_supported(claim, source):
    assert not check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source", [
    ("Rome is the capital of Italy.",
     "Paris is the capital of France and Rome is the capital of Italy."),
    ("Profits fell by 3% in 2020.", "Profits rose by 8% in 2019 and fell by 3% in 2020."),
    ("Paris and Rome are capitals.", "Paris and Rome are capitals."),
])
def test_one_of_two_coordinated_statements_supports_what_it_says(claim, source):
    assert check(claim, [Evidence(source)]).supported


@pytest.mark.parametrize("claim,source,named", [
    ("You bought a car.", "My brother bought a car.", "My brother"),
    ("Your account was closed.", "Her account was closed.", "Her account"),
    ("She founded the firm in 1990.", "He founded the firm in 1990.", "He"),
])
def test_who_did_it_is_kept(claim, source, named):
    found = check(claim, [Evidence(source)])
    assert not found.supported and repr(named) in found.reason, found


def test_a_claim_to_you_of_what_a_source_says_of_everyone_is_supported():
    assert check("You can return items within 30 days.",
                 [Evidence("Customers can return items within 30 days.")]).supported
