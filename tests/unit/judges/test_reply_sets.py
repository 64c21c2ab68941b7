"""Judge replies written from the docs alone (tests/data/outsider/replies): a supported verdict
whose reason argues against it is refused, one whose reason backs it stands. The replies still
read wrongly are named, each with why; a change that reads one more wrongly fails here."""

import json
from pathlib import Path

import pytest

from provenance_guard.judges.replies import parse_reply
from provenance_guard.types import SUPPORTED

SETS = Path(__file__).resolve().parents[2] / "data" / "outsider" / "replies"

# Refused though the reason backs the verdict (a false alarm where the judge was right).
REFUSED = {
    "s015": "'found nowhere else' is the judge's own negation, not a passage's",
    "s021": "'so nothing in it goes beyond': a turn after an allow row's words",
    "s030": "'denies the rumour' in other words than the passage's",
    "s071": "'says nothing about the origin' of an irrelevant passage",
    "s072": "'leaves out the month, but the year ...': what follows 'but' is not vouched for",
    "s079": "'differs (...) but [1] is a UK source': a 'but' no row covers",
    "s080": "'the same reversal': the word 'reversal' is the topic's, in another form",
    "s102": "'doesn't use the word 'record', but ...': a 'but' no row covers",
    "s103": "'none of the miners died' said of 'all survived'",
    "s124": "a label in Portuguese ('Sim')",
    "s133": "'omits the second author, but ...': a 'but' no row covers",
    "ho-004": "'[1] is about Sydney and does not affect the verdict': no other passage named",
    "ho-007": "'not the main shock': which figure a passage's number is for",
    "ho-015": "reasoning under 'if'",
    "ho-019": "'the popular belief is false', in other words than the passage's",
    "ho-087": "'[1] is not relevant to the prize': no other passage named",
    "ho-110": "'[1] is about asyncio and is irrelevant': an aside no row knows",
    "ho-138": "'a missing key' in other words than the documentation's",
    "ho-142": "'Although they are named the 2020 Games': a clash the reason resolves",
}
# Kept as supported though the reason argues against it (the guard passes a wrong sentence).
KEPT = {
    "n020": "a reason in German ('nicht 2017'): read in English only",
    "n067": "a reason in French ('fausse')",
    "n021": "only the prose before the JSON argues; its reason is neutral",
    "n050": "only the prose before the JSON argues; its reason is neutral",
    "n097": "'stops short of this': a turn of phrase with no word that turns",
    "ho-002": "'well short of 2,000': a comparison with no word that turns",
    "ho-038": "'which is above 1 kg': a comparison",
    "ho-043": "'Off by an order of magnitude'",
    "ho-104": "'the claim inverts the finding'",
    "ho-150": "'far from unanimous'",
}


@pytest.mark.parametrize("name", ["tune", "heldout"])
def test_replies_are_read_as_their_reasons_say_but_for_the_named_ones(name):
    rows = [json.loads(line) for line in (SETS / f"{name}.jsonl").read_text().splitlines()]
    assert len(rows) >= 160
    wrong = {row["id"] for row in rows
             if (parse_reply(row["reply"], [row["claim"], *row["passages"]]).label
                 == SUPPORTED) != (row["expect"] == "supported")}
    refused = {i for i in wrong if next(r for r in rows if r["id"] == i)["expect"] == "supported"}
    assert refused <= set(REFUSED), refused - set(REFUSED)
    assert wrong - refused <= set(KEPT), (wrong - refused) - set(KEPT)
