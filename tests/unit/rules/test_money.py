"""Money is its number and its currency, read from CLDR's names, codes and symbols."""

import pytest

from provenance_guard.rules import check
from provenance_guard.types import Evidence


@pytest.mark.parametrize("claim,source", [
    ("The ticket costs £30 at the door.", "The ticket costs $30 at the door."),
    ("The ticket costs €30 at the door.", "The ticket costs $30 at the door."),
    ("The ticket costs 30 euros at the door.", "The ticket costs $30 at the door."),
    ("It costs ₹500 per night.", "It costs $500 per night."),
    ("It costs A$500 per night.", "It costs $500 per night."),
    ("The fine is 100 euros.", "The fine is 100 Swiss francs."),
    ("The deal is worth $5m.", "The deal is worth €5m."),
    ("The fee is 30 yen.", "The fee is $30."),
    ("The fee is EUR 12.50.", "The fee is £12.50."),
])
def test_an_amount_in_another_currency_is_never_stated(claim, source):
    found = check(claim, [Evidence(source)])
    assert not found.supported, found
    assert "another currency" in found.reason or found.contradiction, found


@pytest.mark.parametrize("claim,source", [
    ("The ticket costs 30 US dollars at the door.", "The ticket costs $30 at the door."),
    ("The ticket costs US$30 at the door.", "The ticket costs $30 at the door."),
    ("The ticket costs USD 30 at the door.", "The ticket costs $30 at the door."),
    ("Entry costs 5 euros.", "Entry costs €5."),
    ("Entry costs EUR 5.", "Entry costs €5."),
    ("The ticket is GBP 12.50.", "The ticket is £12.50."),
    ("The fine is €30.", "The fine is 30 euros."),
    ("The ticket costs $30 at the door.", "The ticket costs $30 at the door."),
])
def test_one_currency_written_two_ways_is_one_amount(claim, source):
    assert check(claim, [Evidence(source)]).supported


def test_an_amount_with_a_currency_says_more_than_a_bare_number():
    found = check("The ticket costs $30.", [Evidence("All prices are in euros. The ticket costs 30.")])
    assert not found.supported, found
